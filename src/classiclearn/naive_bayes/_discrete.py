"""What the naive Bayes models of counts share: fitting by adding per-class
statistics (so ``partial_fit`` on batches equals one ``fit``), sample weights
as repetition counts, additive smoothing and the class prior.

A model class provides ``_check_X_y`` / ``_check_X`` (validation),
``_init_counters``, ``_count`` (add one batch to the statistics),
``_update_feature_log_prob`` (smoothing) and ``predict_joint_log_proba``.
"""

import copy
import warnings
from numbers import Real

import numpy as np
import scipy.sparse as sp

from ..base import BaseEstimator, ClassifierMixin
from ..utils._dask import (
    dask_blocks,
    fit_one_block_in_memory,
    record_input_features,
    reduce_blocks,
    target_classes,
)
from ..utils._linear import linear_product
from ..utils._params import Interval
from ..utils._targets import check_classification_targets, unique_inverse
from ..utils.validation import check_sample_weight, column_or_1d
from . import _count_kernels as _k
from ._posterior import PosteriorMixin

__all__ = [
    "DiscreteNB",
    "check_non_negative",
    "class_feature_sums",
    "class_indices",
    "linear_scores",
]

_ALPHA_MIN = 1e-10


class DiscreteNB(PosteriorMixin, ClassifierMixin, BaseEstimator):
    """Fitting, smoothing and priors shared by the naive Bayes models of counts."""

    _parameter_constraints = {
        "alpha": [Interval(Real, 0, None, closed="left"), "array-like"],
        "force_alpha": ["boolean"],
        "fit_prior": ["boolean"],
        "class_prior": ["array-like", None],
    }

    def __classiclearn_tags__(self):
        tags = super().__classiclearn_tags__()
        tags.poor_score = True  # as scikit-learn: the generic check data are not counts
        return tags

    def fit(self, X, y, sample_weight=None):
        """Fit the model to a labelled sample.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
        sample_weight : array-like of shape (n_samples,), default=None
            Weights acting as repetition counts.

        Returns
        -------
        self
        """
        self._validate_params()
        X, y = self._check_X_y(X, y, reset=True)
        y = column_or_1d(y)
        check_classification_targets(y)
        classes, y_index = unique_inverse(y)
        self._check_classes(classes)
        self.classes_ = classes
        self._init_counters(X.shape[1])
        return self._update(X, y_index.astype(np.intp, copy=False), sample_weight)

    def partial_fit(self, X, y, classes=None, sample_weight=None):
        """Add a batch of samples to the model's counts.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
        classes : array-like of shape (n_classes,), default=None
            All the classes; required on the first call only.
        sample_weight : array-like of shape (n_samples,), default=None

        Returns
        -------
        self
        """
        first = not hasattr(self, "classes_")
        if first:
            self._validate_params()
            if classes is None:
                raise ValueError("classes must be passed on the first call to partial_fit.")
        X, y = self._check_X_y(X, y, reset=first)
        y = column_or_1d(y)
        check_classification_targets(y)
        if first:
            self.classes_ = np.unique(np.asarray(classes))
            self._init_counters(X.shape[1])
        elif classes is not None and not np.array_equal(np.unique(classes), self.classes_):
            raise ValueError(
                f"classes={np.unique(classes)!r} is not the same as on the first call to "
                f"partial_fit, which was {self.classes_!r}."
            )
        return self._update(X, class_indices(y, self.classes_), sample_weight)

    def _fit_dask(self, X, y, sample_weight=None):
        """Exact fit on Dask input: the classes, then per-block counts added in block order."""
        self._validate_params()
        if fit_one_block_in_memory(self, X, y, sample_weight) is not None:
            return self
        if y is None:
            raise ValueError(f"{type(self).__name__} requires y to be passed, but the target "
                             "y is None.")
        blocks = dask_blocks(X, y, sample_weight)
        (classes,) = target_classes(blocks)
        self._check_classes(classes)
        counters = reduce_blocks(_count_block(self, classes, int(X.shape[1])), _add_counters,
                                 blocks)
        record_input_features(self, X)
        self.classes_ = classes
        for name, value in counters.items():
            setattr(self, name, value)
        self._update_class_log_prior()
        self._update_feature_log_prob(self._alpha())
        return self

    def _check_classes(self, classes):
        """Hook: refuse a set of training classes (any number is fine by default)."""

    def _update(self, X, y_index, sample_weight):
        weight = check_sample_weight(sample_weight, X, dtype=np.float64)
        self._count(X, y_index, weight)
        self._update_class_log_prior()
        self._update_feature_log_prob(self._alpha())
        return self

    def _alpha(self):
        alpha = np.asarray(self.alpha, dtype=np.float64)
        n_features = self.n_features_in_
        if alpha.ndim > 0 and alpha.shape != (n_features,):
            raise ValueError(
                f"When alpha is an array, it should contain `n_features`. Got {alpha.shape[0]} "
                f"elements instead of {n_features}."
            )
        if np.any(alpha < 0):
            raise ValueError("All values in alpha must be greater than 0.")
        if np.min(alpha) < _ALPHA_MIN and not self.force_alpha:
            warnings.warn(
                f"alpha too small will result in numeric errors, setting alpha = {_ALPHA_MIN:.1e}"
                ". Use `force_alpha=True` to keep alpha unchanged.",
                UserWarning,
                stacklevel=4,
            )
            alpha = np.maximum(alpha, _ALPHA_MIN)
        return alpha

    def _update_class_log_prior(self):
        n_classes = len(self.classes_)
        if self.class_prior is not None:
            prior = np.asarray(self.class_prior, dtype=np.float64).ravel()
            if prior.shape != (n_classes,):
                raise ValueError("Number of priors must match number of classes.")
            with np.errstate(divide="ignore"):
                self.class_log_prior_ = np.log(prior)
        elif self.fit_prior:
            with np.errstate(divide="ignore"):
                self.class_log_prior_ = np.log(self.class_count_) - np.log(
                    self.class_count_.sum()
                )
        else:
            self.class_log_prior_ = np.full(n_classes, -np.log(n_classes))


def _count_block(est, classes, n_features):
    """A block function adding one block to fresh counters of ``est``'s kind."""
    template = copy.copy(est)
    template.classes_ = classes
    before = set(vars(template))
    template._init_counters(n_features)
    names = sorted(set(vars(template)) - before)

    def block(X, y, w=None):
        model = copy.copy(template)
        model._init_counters(n_features)
        if X.shape[0]:
            X, y = model._check_X_y(X, y, reset=True)
            weight = check_sample_weight(w, X, dtype=np.float64)
            model._count(X, class_indices(column_or_1d(y), classes), weight)
        return {name: getattr(model, name) for name in names}

    return block


def _add_counters(a, b):
    return {name: a[name] + b[name] for name in a}


def class_indices(y, classes):
    """Index of each label of y in the sorted ``classes`` (intp), or a ValueError
    naming the labels that are not among them."""
    y_index = np.searchsorted(classes, y)
    y_index = np.clip(y_index, 0, len(classes) - 1)
    unknown = classes[y_index] != y
    if unknown.any():
        raise ValueError(
            f"The target label(s) {np.unique(y[unknown])!r} in y do not exist in the initial "
            f"classes {classes!r}."
        )
    return y_index.astype(np.intp, copy=False)


def class_feature_sums(X, y_index, weight, n_classes):
    """Weighted per-class column sums of a float64 X (dense C-contiguous or CSR).

    Returns ``(sums of shape (n_classes, n_features), smallest entry of X or 0)``.
    """
    if sp.issparse(X):
        return _k.class_feature_sums_csr(
            X.data, X.indices, X.indptr, y_index, weight, n_classes, X.shape[1]
        )
    return _k.class_feature_sums_dense(X, y_index, weight, n_classes)


def check_non_negative(smallest, whom):
    """Raise scikit-learn's error for negative input when ``smallest < 0``."""
    if smallest < 0:
        raise ValueError(f"Negative values in data passed to {whom}")


def linear_scores(X, W):
    """``X @ W.T`` for a float64 X, dense or CSR: the linear models' product
    (:func:`~classiclearn.utils._linear.linear_product`; CSR never densified, a thin
    dense product on one BLAS thread)."""
    return linear_product(X, W)
