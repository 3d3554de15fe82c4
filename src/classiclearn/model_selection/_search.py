"""Hyper-parameter search by cross-validation (seed 000 §2: choose the complexity, e.g.
k, lambda or the tree size, by the cross-validated risk, then refit on all the data).

``GridSearchCV`` tries every combination of a parameter grid,
``RandomizedSearchCV`` a fixed number of random draws; both keep
scikit-learn's ``cv_results_`` layout, ``best_*`` attributes and refit rule.
"""

import numbers
import time
from collections.abc import Mapping, Sequence
from itertools import product

import numpy as np

from .._tags import Tags, get_tags
from ..base import BaseEstimator, clone, is_classifier
from ..metrics._scorer import _PassthroughScorer, check_scoring
from ..utils._available_if import available_if
from ..utils._random import check_random_state
from ..utils.validation import check_is_fitted
from ._split import _indexable, check_cv
from ._validation import _fit_and_score, _parallel_map, _warn_failures

__all__ = ["GridSearchCV", "ParameterGrid", "ParameterSampler", "RandomizedSearchCV"]


def _sample_without_replacement(n_population, n_samples, rng):
    """``n_samples`` distinct indices below ``n_population``, drawn as scikit-learn draws
    them (so a ``random_state`` gives the same candidates in the same order).

    A random permutation's head when the share drawn is between 1% and 99%;
    otherwise reservoir sampling (shares of 20% and more: the first indices,
    each later one replacing a random slot) or repeated draws skipping
    repeats (below 20%).
    """
    ratio = n_samples / n_population if n_population else 1.0
    if 0.01 < ratio < 0.99:
        return rng.permutation(n_population)[:n_samples]
    if ratio >= 0.2:
        out = np.arange(n_samples)
        for i in range(n_samples, n_population):
            j = rng.randint(0, i + 1)
            if j < n_samples:
                out[j] = i
        return out
    chosen, out = set(), []
    for _ in range(n_samples):
        j = rng.randint(n_population)
        while j in chosen:
            j = rng.randint(n_population)
        chosen.add(j)
        out.append(j)
    return np.asarray(out, dtype=np.intp)


class ParameterGrid:
    """Every combination of parameter values, in a fixed order.

    Parameters
    ----------
    param_grid : dict of str -> sequence, or list of such dicts
        A list of dicts is a union of grids.

    Examples
    --------
    >>> list(ParameterGrid({"a": [1, 2], "b": [True]}))
    [{'a': 1, 'b': True}, {'a': 2, 'b': True}]
    >>> len(ParameterGrid([{"a": [1, 2]}, {"c": [0, 1, 2]}]))
    5
    """

    def __init__(self, param_grid):
        if isinstance(param_grid, Mapping):
            param_grid = [param_grid]
        if not isinstance(param_grid, Sequence | tuple) or isinstance(param_grid, str):
            raise TypeError(f"Parameter grid should be a dict or a list, got: {param_grid!r} "
                            f"of type {type(param_grid).__name__}")
        for grid in param_grid:
            if not isinstance(grid, Mapping):
                raise TypeError(f"Parameter grid is not a dict ({grid!r})")
            for key, value in grid.items():
                if isinstance(value, np.ndarray) and value.ndim > 1:
                    raise ValueError(
                        f"Parameter array for {key!r} should be one-dimensional, got: "
                        f"{value!r} with shape {value.shape}"
                    )
                if isinstance(value, str) or not isinstance(value, np.ndarray | Sequence):
                    raise TypeError(
                        f"Parameter grid for parameter {key!r} needs to be a list or a numpy "
                        f"array, but got {value!r} (of type {type(value).__name__}) instead. "
                        "Single values need to be wrapped in a list with one element."
                    )
                if len(value) == 0:
                    raise ValueError(
                        f"Parameter grid for parameter {key!r} need to be a non-empty "
                        f"sequence, got: {value!r}"
                    )
        self.param_grid = param_grid

    def __iter__(self):
        for grid in self.param_grid:
            keys = sorted(grid)
            if not keys:
                yield {}
                continue
            for values in product(*(grid[k] for k in keys)):
                yield dict(zip(keys, values))

    def __len__(self):
        total = 0
        for grid in self.param_grid:
            n = 1
            for v in grid.values():
                n *= len(v)
            total += n
        return total

    def __getitem__(self, ind):
        for grid in self.param_grid:
            keys = sorted(grid)
            sizes = [len(grid[k]) for k in keys]
            total = int(np.prod(sizes)) if sizes else 1
            if ind >= total:
                ind -= total
                continue
            out = {}
            for k, size in zip(reversed(keys), reversed(sizes)):
                ind, j = divmod(ind, size)
                out[k] = grid[k][j]
            return dict(sorted(out.items()))
        raise IndexError("ParameterGrid index out of range")


class ParameterSampler:
    """Random parameter settings: lists are sampled uniformly, distributions with ``rvs``.

    Parameters
    ----------
    param_distributions : dict or list of dicts
    n_iter : int
    random_state : int, RandomState or None

    Examples
    --------
    >>> draws = list(ParameterSampler({"a": [1, 2, 3]}, n_iter=2, random_state=0))
    >>> len(draws)
    2
    """

    def __init__(self, param_distributions, n_iter, *, random_state=None):
        if isinstance(param_distributions, Mapping):
            param_distributions = [param_distributions]
        self.param_distributions = param_distributions
        self.n_iter = n_iter
        self.random_state = random_state

    def _all_lists(self):
        return all(not hasattr(v, "rvs") for d in self.param_distributions for v in d.values())

    def __iter__(self):
        rng = check_random_state(self.random_state)
        if self._all_lists():
            grid = ParameterGrid(self.param_distributions)
            n = len(grid)
            n_iter = self.n_iter
            if n < n_iter:
                import warnings

                warnings.warn(
                    f"The total space of parameters {n} is smaller than n_iter={n_iter}. "
                    "Running {} iterations. For exhaustive searches, use GridSearchCV.".format(n),
                    UserWarning,
                    stacklevel=2,
                )
                n_iter = n
            for i in _sample_without_replacement(n, n_iter, rng):
                yield grid[int(i)]
            return
        for _ in range(self.n_iter):
            dist = self.param_distributions[rng.randint(len(self.param_distributions))]
            params = {}
            for key in sorted(dist):
                value = dist[key]
                if hasattr(value, "rvs"):
                    params[key] = value.rvs(random_state=rng)
                else:
                    params[key] = value[rng.randint(len(value))]
            yield params

    def __len__(self):
        if self._all_lists():
            return min(self.n_iter, len(ParameterGrid(self.param_distributions)))
        return self.n_iter


def _requires_y(estimator):
    if not hasattr(estimator, "__classiclearn_tags__") and not hasattr(
        estimator, "__sklearn_tags__"
    ):
        return False
    return get_tags(estimator).requires_y


def _rank(scores):
    """Rank 1 for the best (highest) score, ties share the lowest rank, NaN last."""
    scores = np.asarray(scores, dtype=np.float64)
    filled = np.where(np.isnan(scores), -np.inf, scores)
    return np.array([int(np.sum(filled > s)) + 1 for s in filled], dtype=np.int32)


class _BaseSearchCV(BaseEstimator):
    """Shared fit / refit / delegation of the search estimators."""

    def __classiclearn_tags__(self):
        est = self.__dict__.get("estimator")
        return Tags() if est is None else get_tags(est)

    def _candidates(self):
        raise NotImplementedError

    def _check_refit(self, scorers):
        refit = self.refit
        if isinstance(scorers, dict):
            if refit is True or (isinstance(refit, str) and refit not in scorers):
                raise ValueError(
                    "For multi-metric scoring, the parameter refit must be set to a scorer key "
                    f"or a callable to refit an estimator with the best parameter setting on "
                    f"the whole data and make the best_* attributes available for that metric. "
                    f"If this is not needed, refit should be set to False explicitly. {refit!r} "
                    "was passed."
                )
            return refit
        return "score" if refit is True else refit

    def fit(self, X, y=None, **params):
        """Cross-validate every candidate, pick the best, refit it on all the data.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,), optional
        **params
            Fit parameters for the estimator (per-sample arrays are indexed
            per fold); ``groups`` goes to the splitter.

        Returns
        -------
        self
        """
        groups = params.pop("groups", None)
        estimator = self.estimator
        X, y, groups = _indexable(X), _indexable(y), _indexable(groups)
        if y is None and _requires_y(estimator):
            raise ValueError(
                f"{type(self).__name__} requires y to be passed, but the target y is None."
            )
        cv = check_cv(self.cv, y, classifier=is_classifier(estimator))
        scoring = self.scoring
        scorers = check_scoring(estimator, scoring)
        multimetric = isinstance(scorers, dict)
        refit_metric = self._check_refit(scorers)
        candidates = list(self._candidates())
        if not candidates:
            raise ValueError("No candidate parameter settings to search.")
        splits = list(cv.split(X, y, groups))
        n_splits = len(splits)
        tasks = []
        for cand in candidates:
            for train, test in splits:
                tasks.append((estimator, X, y, scorers, train, test, params, {},
                              self.return_train_score, False, self.error_score, cand))
        results = _parallel_map(_fit_and_score, tasks, self.n_jobs)
        _warn_failures(results, self.error_score)
        self.cv_results_ = self._format_results(candidates, results, n_splits, scorers)
        self.multimetric_ = multimetric
        self.n_splits_ = n_splits
        self.scorer_ = scorers
        key = refit_metric if multimetric and isinstance(refit_metric, str) else "score"
        if callable(self.refit):
            self.best_index_ = int(self.refit(self.cv_results_))
            if not 0 <= self.best_index_ < len(candidates):
                raise IndexError("best_index_ index out of range")
        elif self.refit is not False:
            self.best_index_ = int(np.argmin(self.cv_results_[f"rank_test_{key}"]))
            self.best_score_ = float(self.cv_results_[f"mean_test_{key}"][self.best_index_])
        if self.refit is not False:
            self.best_params_ = candidates[self.best_index_]
            best = clone(estimator).set_params(
                **{k: clone(v, safe=False) for k, v in self.best_params_.items()})
            start = time.perf_counter()
            if y is None:
                best.fit(X, **params)
            else:
                best.fit(X, y, **params)
            self.refit_time_ = time.perf_counter() - start
            self.best_estimator_ = best
        return self

    def _format_results(self, candidates, results, n_splits, scorers):
        n_cand = len(candidates)
        out = {}

        def store(name, values):
            arr = np.asarray(values, dtype=np.float64).reshape(n_cand, n_splits)
            return arr

        fit_times = store("fit_time", [r["fit_time"] for r in results])
        score_times = store("score_time", [r["score_time"] for r in results])
        out["mean_fit_time"] = fit_times.mean(axis=1)
        out["std_fit_time"] = fit_times.std(axis=1)
        out["mean_score_time"] = score_times.mean(axis=1)
        out["std_score_time"] = score_times.std(axis=1)
        names = sorted({k for c in candidates for k in c})
        for name in names:
            column = np.ma.MaskedArray(np.empty(n_cand, dtype=object), mask=True)
            for i, cand in enumerate(candidates):
                if name in cand:
                    column[i] = cand[name]
            out[f"param_{name}"] = column
        out["params"] = candidates
        metric_names = list(scorers) if isinstance(scorers, dict) else ["score"]
        for metric in metric_names:
            for part in ("test", "train") if self.return_train_score else ("test",):
                key = f"{part}_scores"
                vals = [r[key][metric] if isinstance(scorers, dict) else r[key]
                        for r in results]
                arr = store(f"{part}_{metric}", vals)
                for k in range(n_splits):
                    out[f"split{k}_{part}_{metric}"] = arr[:, k]
                with np.errstate(invalid="ignore"):
                    mean = arr.mean(axis=1)
                    std = arr.std(axis=1)
                out[f"mean_{part}_{metric}"] = mean
                out[f"std_{part}_{metric}"] = std
                if part == "test":
                    out[f"rank_{part}_{metric}"] = _rank(mean)
        return out

    # ------------------------------------------------------------ delegation
    def _check_refitted(self, method):
        if not self.refit:
            raise AttributeError(
                f"This {type(self).__name__} instance was initialized with `refit=False`. "
                f"{method} is available only after refitting on the best parameters. You can "
                "refit an estimator manually using the `best_params_` attribute"
            )
        check_is_fitted(self)

    def _delegate(self, method, X, *args):
        self._check_refitted(method)
        return getattr(self.best_estimator_, method)(X, *args)

    def score(self, X, y=None, **params):
        """Score of the refitted best estimator (with ``scoring`` if given).

        Returns
        -------
        float
        """
        self._check_refitted("score")
        scorer = self.scorer_
        if isinstance(scorer, dict):
            scorer = scorer[self.refit] if isinstance(self.refit, str) else None
            if scorer is None:
                raise AttributeError("score needs a refit metric with multi-metric scoring")
        if isinstance(scorer, _PassthroughScorer):
            return self.best_estimator_.score(X, y, **params)
        return scorer(self.best_estimator_, X, y, **params)

    @property
    def classes_(self):
        """Classes of the refitted best estimator."""
        self._check_refitted("classes_")
        return self.best_estimator_.classes_

    @property
    def n_features_in_(self):
        """Number of features of the refitted best estimator."""
        try:
            check_is_fitted(self)
        except Exception as exc:
            raise AttributeError(
                f"{type(self).__name__} object has no n_features_in_ attribute."
            ) from exc
        if not hasattr(self, "best_estimator_"):
            raise AttributeError("n_features_in_ needs refit=True")
        return self.best_estimator_.n_features_in_

    @property
    def feature_names_in_(self):
        """Feature names of the refitted best estimator."""
        if not hasattr(self, "best_estimator_"):
            raise AttributeError("feature_names_in_")
        return self.best_estimator_.feature_names_in_

    def __sklearn_is_fitted__(self):
        return hasattr(self, "cv_results_")


def _search_method(name):
    def check(search):
        est = search.__dict__.get("best_estimator_", search.estimator)
        return hasattr(est, name)

    def method(self, X):
        return self._delegate(name, X)

    method.__name__ = name
    method.__doc__ = f"``{name}`` of the refitted best estimator."
    return available_if(check, "its estimator does not provide it")(method)


for _name in ("predict", "predict_proba", "predict_log_proba", "decision_function",
              "transform", "inverse_transform", "score_samples"):
    setattr(_BaseSearchCV, _name, _search_method(_name))


class GridSearchCV(_BaseSearchCV):
    """Exhaustive search over a parameter grid by cross-validation.

    Parameters
    ----------
    estimator : estimator
        Ours or scikit-learn's.
    param_grid : dict or list of dicts
        Parameter name (``step__param`` for pipelines) -> list of values.
    scoring : str, callable, list, tuple, dict or None
        None uses ``estimator.score``.
    n_jobs : int, default=None
        Fits run in that many threads.
    refit : bool, str or callable, default=True
        Refit the best candidate on all the data (with several metrics, name
        the one to choose by, or give ``cv_results_ -> best index``).
    cv : int, splitter or iterable, default=None
        None is 5 folds (stratified for classifiers).
    verbose : int, default=0
    pre_dispatch : str, default="2*n_jobs"
        Accepted for compatibility.
    error_score : "raise" or float, default=np.nan
    return_train_score : bool, default=False

    Attributes
    ----------
    cv_results_ : dict of ndarray
        scikit-learn's layout: ``mean_test_score``, ``std_test_score``,
        ``rank_test_score``, ``split<k>_test_score``, ``param_<name>``,
        ``params``, fit and score times.
    best_estimator_ : estimator
    best_score_ : float
    best_params_ : dict
    best_index_ : int
    scorer_ : callable or dict
    n_splits_ : int
    refit_time_ : float
    multimetric_ : bool

    Examples
    --------
    >>> from classiclearn.datasets import load_iris
    >>> from classiclearn.naive_bayes import GaussianNB
    >>> X, y = load_iris(return_X_y=True)
    >>> search = GridSearchCV(GaussianNB(), {"var_smoothing": [1e-9, 1e-1]}, cv=3).fit(X, y)
    >>> search.best_params_
    {'var_smoothing': 0.1}
    """

    def __init__(self, estimator, param_grid, *, scoring=None, n_jobs=None, refit=True, cv=None,
                 verbose=0, pre_dispatch="2*n_jobs", error_score=np.nan,
                 return_train_score=False):
        self.estimator = estimator
        self.param_grid = param_grid
        self.scoring = scoring
        self.n_jobs = n_jobs
        self.refit = refit
        self.cv = cv
        self.verbose = verbose
        self.pre_dispatch = pre_dispatch
        self.error_score = error_score
        self.return_train_score = return_train_score

    def _candidates(self):
        return ParameterGrid(self.param_grid)


class RandomizedSearchCV(_BaseSearchCV):
    """Search over ``n_iter`` random parameter settings by cross-validation.

    Parameters
    ----------
    estimator : estimator
    param_distributions : dict or list of dicts
        Lists (sampled uniformly) or scipy.stats distributions (``rvs``).
    n_iter : int, default=10
    scoring, n_jobs, refit, cv, verbose, pre_dispatch, error_score, return_train_score
        As in :class:`GridSearchCV`.
    random_state : int, RandomState or None

    Attributes
    ----------
    As in :class:`GridSearchCV`.

    Examples
    --------
    >>> from classiclearn.datasets import load_iris
    >>> from classiclearn.naive_bayes import GaussianNB
    >>> X, y = load_iris(return_X_y=True)
    >>> s = RandomizedSearchCV(GaussianNB(), {"var_smoothing": [1e-9, 1e-3]}, n_iter=2,
    ...                        cv=3, random_state=0).fit(X, y)
    >>> len(s.cv_results_["params"])
    2
    """

    def __init__(self, estimator, param_distributions, *, n_iter=10, scoring=None, n_jobs=None,
                 refit=True, cv=None, verbose=0, pre_dispatch="2*n_jobs", random_state=None,
                 error_score=np.nan, return_train_score=False):
        self.estimator = estimator
        self.param_distributions = param_distributions
        self.n_iter = n_iter
        self.scoring = scoring
        self.n_jobs = n_jobs
        self.refit = refit
        self.cv = cv
        self.verbose = verbose
        self.pre_dispatch = pre_dispatch
        self.random_state = random_state
        self.error_score = error_score
        self.return_train_score = return_train_score

    def _candidates(self):
        if not isinstance(self.n_iter, numbers.Integral) or self.n_iter < 1:
            raise ValueError(f"n_iter must be a positive integer; got {self.n_iter!r}")
        return ParameterSampler(self.param_distributions, self.n_iter,
                                random_state=self.random_state)
