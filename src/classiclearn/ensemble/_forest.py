"""Random forests (seed 000 §11.2) and extremely randomized trees (§11.3).

A forest averages many decorrelated trees. Random forests grow each tree on a
bootstrap sample (drawn as integer weights) with ``max_features`` candidate
features per split; extra trees use the whole sample and one uniform random
threshold per candidate feature. Classification averages the trees' class
probabilities (``voting="soft"``) or counts their votes (``voting="hard"``,
§11.2); regression averages the predictions. Out-of-bag samples give a free
estimate of the generalisation score (``oob_score``).

Trees grow in threads over one float32 copy of the data; each tree has its
own seed drawn in a fixed order (the same sequence as scikit-learn), so the
forest does not depend on ``n_jobs``. Missing values (NaN) and
``monotonic_cst`` are handled by the trees, as in scikit-learn 1.9 (see
``classiclearn.tree``); which features hold NaN is found once on the whole X.
"""

import warnings
from contextlib import nullcontext
from numbers import Integral, Real

import numpy as np
import scipy.sparse as sp

from .._kernels.work import FOREST_TREE_WORK
from ..base import BaseEstimator, ClassifierMixin, RegressorMixin
from ..tree import DecisionTreeClassifier, DecisionTreeRegressor, _binning
from ..tree._classes import (
    _plain,
    binned_inputs,
    check_max_bins,
    check_poisson_target,
    encode_class_targets,
    expanded_class_weight,
    grow_tree,
    missing_mask,
    monotonic_constraints,
    prepare_sparse_fit,
    resolve_params,
    sparse_rows,
    tree_seed,
    validate_X_y,
)
from ..tree._tree import (
    NodeArena,
    WalkCache,
    apply_forest,
    forest_decision_path,
    forest_missing,
    kept_walk_cache,
    mean_forest_value,
    predict_input,
    stack_trees,
)
from ..utils._params import Interval, StrOptions
from ..utils._random import check_random_state, seeded_state
from ..utils._threads import auto_n_jobs, numba_threads, thread_map
from ..utils.validation import check_is_fitted, check_sample_weight, warn_column_vector_y

__all__ = ["BaseForest"]

_MAX_INT = np.iinfo(np.int32).max

_TREE_PARAMS = ("criterion", "max_depth", "min_samples_split", "min_samples_leaf",
                "min_weight_fraction_leaf", "max_features", "max_leaf_nodes",
                "min_impurity_decrease", "ccp_alpha", "max_bins", "monotonic_cst")

_CONSTRAINTS = {
    "n_estimators": [Interval(Integral, 1, None, closed="left")],
    "bootstrap": ["boolean"],
    "oob_score": ["boolean", "callable"],
    "n_jobs": [Integral, None],
    "random_state": ["random_state"],
    "verbose": ["verbose", Integral, "boolean"],
    "warm_start": ["boolean"],
    "max_samples": [
        None,
        Interval(Real, 0.0, 1.0, closed="right"),
        Interval(Integral, 1, None, closed="left"),
    ],
    "max_depth": [Interval(Integral, 1, None, closed="left"), None],
    "min_samples_split": [
        Interval(Integral, 2, None, closed="left"),
        Interval(Real, 0.0, 1.0, closed="right"),
    ],
    "min_samples_leaf": [
        Interval(Integral, 1, None, closed="left"),
        Interval(Real, 0.0, 1.0, closed="neither"),
    ],
    "min_weight_fraction_leaf": [Interval(Real, 0.0, 0.5, closed="both")],
    "max_features": [
        Interval(Integral, 1, None, closed="left"),
        Interval(Real, 0.0, 1.0, closed="right"),
        StrOptions({"sqrt", "log2"}),
        None,
    ],
    "max_leaf_nodes": [Interval(Integral, 2, None, closed="left"), None],
    "min_impurity_decrease": [Interval(Real, 0.0, None, closed="left")],
    "ccp_alpha": [Interval(Real, 0.0, None, closed="left")],
    "max_bins": [Interval(Integral, 2, 255, closed="both"), None],
    "monotonic_cst": ["array-like", None],
}
_CONSTRAINTS.pop("verbose")


def _thread_cap(n_jobs):
    """An explicit ``n_jobs`` bounds every thread of a forest's fit, the binning's and
    the histogram trees' subtrees' included (inside the trees' own threads those run on
    one); None leaves numba's setting."""
    return nullcontext() if n_jobs is None else numba_threads(n_jobs)


def _n_bootstrap(n_samples, max_samples, weights):
    """Bootstrap size: n_samples, an int, or a fraction of n_samples (of the total weight
    when there are weights), as scikit-learn 1.9 defines it."""
    if max_samples is None:
        return n_samples
    if isinstance(max_samples, Integral):
        return int(max_samples)
    total = n_samples if weights is None else weights.sum()
    n_boot = max(int(max_samples * total), 1)
    if n_boot < max(10, n_samples ** (1 / 3)):
        warnings.warn(
            f"Using the fractional value max_samples={max_samples} results in a low number "
            f"({n_boot}) of bootstrap samples. We recommend passing `max_samples` as an "
            "integer instead.",
            stacklevel=3,
        )
    return n_boot


def _bootstrap_indices(seed, n_samples, n_boot, weights):
    """Row indices of one bootstrap sample: uniform, or proportional to the weights."""
    rs = seeded_state(seed)
    if weights is None:
        return rs.randint(0, n_samples, n_boot)
    return rs.choice(n_samples, n_boot, replace=True, p=weights / weights.sum())


def _balanced_subsample_weight(codes, indices):
    """"balanced" class weights computed on the bootstrap sample (product over outputs);
    classes absent from the sample get weight 0."""
    out = np.ones(codes.shape[0])
    for o in range(codes.shape[1]):
        yo = codes[:, o].astype(np.intp)
        sub = yo[indices]
        present = np.unique(sub)
        counts = np.bincount(sub, minlength=yo.max() + 1).astype(np.float64)
        cw = np.zeros(yo.max() + 1)
        cw[present] = len(sub) / (len(present) * counts[present])
        out *= cw[yo]
    return out


class BaseForest(BaseEstimator):
    """Fit, prediction and out-of-bag machinery shared by the four forests."""

    _is_clf = False
    _splitter = "best"

    def __classiclearn_tags__(self):
        tags = super().__classiclearn_tags__()
        tags.multi_output = True
        tags.allow_nan = True
        tags.sparse = self.max_bins is None  # the histogram splitter bins a dense copy
        return tags

    def _tree_template(self):
        params = {k: getattr(self, k) for k in _TREE_PARAMS}
        params["splitter"] = self._splitter
        cls = DecisionTreeClassifier if self._is_clf else DecisionTreeRegressor
        return cls(**params)

    def fit(self, X, y, sample_weight=None):
        """Grow the forest (or add trees, with ``warm_start``).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,) or (n_samples, n_outputs)
        sample_weight : array-like of shape (n_samples,), default=None

        Returns
        -------
        self
        """
        self._validate_params()
        if not self.bootstrap and self.oob_score:
            raise ValueError("Out of bag estimation only available if bootstrap=True")
        if not self.bootstrap and self.max_samples is not None:
            raise ValueError(
                "`max_sample` cannot be set if `bootstrap=False`. Either switch to "
                "`bootstrap=True` or set `max_sample=None`."
            )
        X, y = validate_X_y(self, X, y, numeric_y=not self._is_clf)
        if y.ndim == 2 and y.shape[1] == 1:
            warn_column_vector_y(stacklevel=2)
            y = y[:, 0]
        n_samples, n_features = X.shape
        sw = check_sample_weight(sample_weight, X, dtype=np.float64)
        weighted = sample_weight is not None
        if self._is_clf:
            classes, codes = encode_class_targets(y)
            n_classes = np.array([len(c) for c in classes], dtype=np.intp)
            cw = self.class_weight
            if cw is not None and (cw != "balanced_subsample" or not self.bootstrap):
                cw = "balanced" if cw == "balanced_subsample" else cw
                sw = sw * expanded_class_weight(cw, classes, codes, sw)
                weighted = True
        else:
            codes = y.astype(np.float64).reshape(n_samples, -1)
            n_classes = np.ones(codes.shape[1], dtype=np.intp)
            check_poisson_target(self, codes)
        codes = np.ascontiguousarray(codes)
        self.n_outputs_ = codes.shape[1]
        boot_w = sw if weighted else None
        n_boot = (_n_bootstrap(n_samples, self.max_samples, boot_w) if self.bootstrap
                  else n_samples)

        rs = check_random_state(self.random_state)
        if not self.warm_start or not hasattr(self, "estimators_"):
            self.estimators_ = []
            self._seeds = []
        n_more = self.n_estimators - len(self.estimators_)
        if n_more < 0:
            raise ValueError(
                f"n_estimators={self.n_estimators} must be larger or equal to "
                f"len(estimators_)={len(self.estimators_)} when warm_start==True"
            )
        if n_more == 0:
            warnings.warn(
                "Warm-start fitting without increasing n_estimators does not fit new trees.",
                stacklevel=2,
            )
        else:
            if self.warm_start and self.estimators_:
                rs.randint(_MAX_INT, size=len(self.estimators_))
            seeds = [int(rs.randint(_MAX_INT)) for _ in range(n_more)]
            template = self._tree_template()
            check_max_bins(template)
            p = resolve_params(template, n_samples, n_features, 1.0)
            p["monotonic"] = monotonic_constraints(template, n_features, self.n_outputs_,
                                                   n_classes, self._is_clf)
            binned = None
            if sp.issparse(X):
                X = prepare_sparse_fit(template, X)  # CSC arrays once, not per tree
                Xt = sparse_rows(X, p["max_features"])  # and CSR ones where they pay
            else:
                if self.max_bins is not None:
                    mapper = _binning.fit_bins(X, self.max_bins, seeds[0])
                    with _thread_cap(self.n_jobs):
                        binned = binned_inputs(X, mapper, self._tree_template().splitter)
                Xt = np.ascontiguousarray(X.T)
                X = _plain(X, np.float32)  # once here, not a copy per tree
            nan_mask = missing_mask(X)
            balanced_sub = self._is_clf and self.class_weight == "balanced_subsample"
            # the trees' nodes written where the forest keeps them (pruning makes new
            # trees: those are stacked after the fit)
            arena = (NodeArena(n_more, len(n_classes) * int(np.max(n_classes)))
                     if self.ccp_alpha == 0.0 else None)

            def build(seed):
                w = sw
                if self.bootstrap:
                    idx = _bootstrap_indices(seed, n_samples, n_boot, boot_w)
                    w = np.bincount(idx, minlength=n_samples).astype(np.float64)
                    if balanced_sub:
                        w = w * _balanced_subsample_weight(codes, idx)
                q = dict(p)
                q["min_weight_leaf"] = float(template.min_weight_fraction_leaf * w.sum())
                tree = grow_tree(Xt, X, codes, w, n_classes, q, tree_seed(seed), self._is_clf,
                                 n_features, binned, nan_mask, arena, subtrees=False)
                if self.ccp_alpha > 0.0:
                    tree = tree.pruned(self.ccp_alpha)
                return tree

            tree_work = n_boot * max(1, int(n_boot).bit_length()) * p["max_features"]
            n_threads = auto_n_jobs(self.n_jobs, tree_work, FOREST_TREE_WORK)
            with _thread_cap(self.n_jobs):
                trees = thread_map(build, seeds, n_threads)
            for seed, tree in zip(seeds, trees, strict=True):
                est = self._tree_template().set_params(random_state=seed)
                est.tree_ = tree
                est.n_features_in_ = n_features
                est.n_outputs_ = self.n_outputs_
                est.max_features_ = p["max_features"]
                if self._is_clf:
                    est.classes_ = classes[0] if self.n_outputs_ == 1 else classes
                    est.n_classes_ = (int(n_classes[0]) if self.n_outputs_ == 1
                                      else n_classes.copy())
                if hasattr(self, "feature_names_in_"):
                    est.feature_names_in_ = self.feature_names_in_
                self.estimators_.append(est)
                self._seeds.append(seed)
        self._stack = (self._stack_key(), stack_trees([e.tree_ for e in self.estimators_]))
        self._walk_records = WalkCache()
        self.estimator_ = self._tree_template()
        if self._is_clf:
            if self.n_outputs_ == 1:
                self.classes_ = classes[0]
                self.n_classes_ = int(n_classes[0])
            else:
                self.classes_ = classes
                self.n_classes_ = n_classes.copy()
        if self.oob_score:
            self._set_oob(X, y, n_boot, boot_w)
        return self

    # ----- prediction helpers -------------------------------------------------------

    def _stack_key(self):
        return tuple(id(e.tree_) for e in self.estimators_)

    def _stacked(self):
        # node arrays of all trees, concatenated at fit; rebuilt and kept if the user
        # changed estimators_ since, or if the forest was unpickled (the key holds the
        # trees' ids): the trees then become views of the new arrays, so memory stays
        # at one copy of the nodes
        stack = getattr(self, "_stack", None)
        key = self._stack_key()
        if stack is None or stack[0] != key:
            stack = (key, stack_trees([e.tree_ for e in self.estimators_]))
            self._stack = stack
        return stack[1]

    def _walk_cache(self):
        # made at fit, so that predicting leaves the estimator's attributes as they were
        return kept_walk_cache(self, "_walk_records")

    def _missing_go_to_left(self):
        # the trees' missing_go_to_left placed as in _stacked (read when X holds NaN)
        packed, _, roots = self._stacked()
        return forest_missing([e.tree_ for e in self.estimators_], roots, packed.shape[0])

    def _X_predict(self, X):
        check_is_fitted(self)
        return predict_input(self, X, self.n_jobs if self.n_jobs is not None else -1)

    def _mean_value(self, X):
        packed, value, roots = self._stacked()
        hard = self._is_clf and getattr(self, "voting", "soft") == "hard"
        n_classes = np.atleast_1d(np.asarray(getattr(self, "n_classes_", [1]), dtype=np.intp))
        if not self._is_clf:
            n_classes = np.ones(self.n_outputs_, dtype=np.intp)
        out = mean_forest_value(X, packed, value, roots, hard, n_classes,
                                self.n_jobs if self.n_jobs is not None else -1,
                                self._missing_go_to_left, self._walk_cache())
        return out.reshape(X.shape[0], self.n_outputs_, -1)

    def apply(self, X):
        """Leaf index of each sample in each tree.

        Returns
        -------
        ndarray of shape (n_samples, n_estimators)
        """
        X = self._X_predict(X)
        packed, _, roots = self._stacked()
        leaves = apply_forest(X, packed, roots, self.n_jobs if self.n_jobs is not None else -1,
                              self._missing_go_to_left, self._walk_cache())
        return leaves - roots[None, :]

    def decision_path(self, X):
        """Nodes each sample goes through, all trees side by side.

        Returns
        -------
        indicator : scipy.sparse.csr_matrix of shape (n_samples, n_nodes_total)
        n_nodes_ptr : ndarray of shape (n_estimators + 1,)
            Columns ``n_nodes_ptr[i]:n_nodes_ptr[i + 1]`` belong to tree i.
        """
        X = self._X_predict(X)
        trees = [e.tree_ for e in self.estimators_]
        packed, _, roots = self._stacked()
        ptr = np.zeros(len(trees) + 1, dtype=np.intp)
        ptr[1:] = np.cumsum([t.node_count for t in trees])
        indicator = forest_decision_path(X, packed, roots, ptr[:-1], int(ptr[-1]),
                                         self.n_jobs if self.n_jobs is not None else -1,
                                         self._missing_go_to_left, self._walk_cache())
        return indicator, ptr

    @property
    def feature_importances_(self):
        """Mean over trees of the normalised impurity-based importances (MDI)."""
        check_is_fitted(self)
        imps = [e.tree_.compute_feature_importances() for e in self.estimators_
                if e.tree_.node_count > 1]
        if not imps:
            return np.zeros(self.n_features_in_)
        mean = np.mean(imps, axis=0)
        return mean / mean.sum()

    def _set_oob(self, X, y, n_boot, boot_w):
        n = X.shape[0]
        first = self.estimators_[0].tree_
        width = first.value.shape[1] * first.value.shape[2]
        pred = np.zeros((n, width))
        count = np.zeros(n)
        for est, seed in zip(self.estimators_, self._seeds, strict=True):
            idx = _bootstrap_indices(seed, n, n_boot, boot_w)
            unsampled = np.flatnonzero(np.bincount(idx, minlength=n) == 0)
            if unsampled.size == 0:
                continue
            pred[unsampled] += _tree_predict_rows(est.tree_, X, unsampled)
            count[unsampled] += 1
        if (count == 0).any():
            warnings.warn(
                "Some inputs do not have OOB scores. This probably means too few trees were "
                "used to compute any reliable OOB estimates.",
                UserWarning,
                stacklevel=3,
            )
            count[count == 0] = 1
        pred = (pred / count[:, None]).reshape(n, self.n_outputs_, -1)
        self._finish_oob(pred, y)


def _tree_predict_rows(tree, X, rows):
    """A tree's flattened predictions for ``X[rows]`` (sparse X as CSR)."""
    rows_X = sp.csr_array(X)[rows] if sp.issparse(X) else np.ascontiguousarray(X[rows])
    return tree.predict(rows_X).reshape(rows.size, -1)


class _ForestClassifier(ClassifierMixin, BaseForest):
    _is_clf = True

    def predict_proba(self, X):
        """Mean class probability over the trees (or vote fractions, ``voting="hard"``).

        Returns
        -------
        ndarray of shape (n_samples, n_classes), or a list of them per output
        """
        X = self._X_predict(X)
        proba = self._mean_value(X)
        if self.n_outputs_ == 1:
            return proba[:, 0, : self.n_classes_].copy()
        return [proba[:, o, : self.n_classes_[o]].copy() for o in range(self.n_outputs_)]

    def predict_log_proba(self, X):
        """Logarithm of :meth:`predict_proba`."""
        proba = self.predict_proba(X)
        with np.errstate(divide="ignore"):
            if self.n_outputs_ == 1:
                return np.log(proba)
            return [np.log(p) for p in proba]

    def predict(self, X):
        """Class with the highest mean probability (or most votes).

        Returns
        -------
        ndarray of shape (n_samples,) or (n_samples, n_outputs)
        """
        proba = self.predict_proba(X)
        if self.n_outputs_ == 1:
            return self.classes_[np.argmax(proba, axis=1)]
        return np.stack([self.classes_[o][np.argmax(p, axis=1)] for o, p in enumerate(proba)],
                        axis=1)

    def _finish_oob(self, pred, y):
        if self.n_outputs_ == 1:
            dec = pred[:, 0, : self.n_classes_]
            self.oob_decision_function_ = dec
            y_pred = self.classes_[np.argmax(dec, axis=1)]
            y_true = y
        else:
            k = int(np.max(self.n_classes_))
            self.oob_decision_function_ = np.transpose(pred[:, :, :k], (0, 2, 1))
            y_pred = np.stack([self.classes_[o][np.argmax(pred[:, o, : self.n_classes_[o]],
                                                          axis=1)]
                               for o in range(self.n_outputs_)], axis=1)
            y_true = y
        if callable(self.oob_score):
            self.oob_score_ = self.oob_score(y_true, y_pred)
        else:
            self.oob_score_ = float(np.mean(np.all(
                np.asarray(y_true).reshape(len(y_pred), -1) ==
                np.asarray(y_pred).reshape(len(y_pred), -1), axis=1)))


class _ForestRegressor(RegressorMixin, BaseForest):
    def predict(self, X):
        """Mean prediction of the trees.

        Returns
        -------
        ndarray of shape (n_samples,) or (n_samples, n_outputs)
        """
        X = self._X_predict(X)
        value = self._mean_value(X)[:, :, 0]
        return value[:, 0].copy() if self.n_outputs_ == 1 else value

    def _finish_oob(self, pred, y):
        pred = pred[:, :, 0]
        self.oob_prediction_ = pred[:, 0] if self.n_outputs_ == 1 else pred
        if callable(self.oob_score):
            self.oob_score_ = self.oob_score(y, self.oob_prediction_)
        else:
            from ..metrics import r2_score

            self.oob_score_ = float(r2_score(y, self.oob_prediction_))
