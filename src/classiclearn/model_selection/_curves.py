"""Validation and learning curves (seed 000 §2: training and test error as functions
of model complexity and of the training set size)."""

import numpy as np

from ..base import is_classifier
from ..metrics._scorer import check_scoring
from ..utils._random import check_random_state
from ._split import _indexable, check_cv
from ._validation import _fit_and_score, _parallel_map, _warn_failures

__all__ = ["learning_curve", "validation_curve"]


def validation_curve(estimator, X, y, *, param_name, param_range, groups=None, cv=None,
                     scoring=None, n_jobs=None, pre_dispatch="all", verbose=0,
                     error_score=np.nan, params=None):
    """Training and test scores for each value of one parameter.

    Parameters
    ----------
    estimator : estimator
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,) or None
    param_name : str
        Parameter to vary (``step__param`` for pipelines).
    param_range : array-like
        Its values.
    groups, cv, scoring, n_jobs, error_score, params
        As in :func:`cross_validate`.
    pre_dispatch, verbose
        Accepted for compatibility.

    Returns
    -------
    train_scores, test_scores : ndarray of shape (n_values, n_splits)

    Examples
    --------
    >>> from classiclearn.datasets import load_iris
    >>> from classiclearn.naive_bayes import GaussianNB
    >>> X, y = load_iris(return_X_y=True)
    >>> tr, te = validation_curve(GaussianNB(), X, y, param_name="var_smoothing",
    ...                           param_range=[1e-9, 1.0], cv=3)
    >>> tr.shape, te.shape
    ((2, 3), (2, 3))
    """
    X, y, groups = _indexable(X), _indexable(y), _indexable(groups)
    cv = check_cv(cv, y, classifier=is_classifier(estimator))
    scorer = check_scoring(estimator, scoring)
    splits = list(cv.split(X, y, groups))
    tasks = [(estimator, X, y, scorer, train, test, dict(params or {}), {}, True, False,
              error_score, {param_name: value})
             for value in param_range for train, test in splits]
    results = _parallel_map(_fit_and_score, tasks, n_jobs)
    _warn_failures(results, error_score)
    shape = (len(param_range), len(splits))
    train = np.array([r["train_scores"] for r in results], dtype=np.float64).reshape(shape)
    test = np.array([r["test_scores"] for r in results], dtype=np.float64).reshape(shape)
    return train, test


def _absolute_sizes(train_sizes, n_max):
    sizes = np.asarray(train_sizes)
    if sizes.dtype.kind == "f":
        if sizes.min() <= 0 or sizes.max() > 1:
            raise ValueError(
                "train_sizes has been interpreted as fractions of the maximum number of "
                f"training samples and must be within (0, 1], but is within "
                f"[{sizes.min()}, {sizes.max()}]."
            )
        absolute = (sizes * n_max).astype(int)
        absolute = np.clip(absolute, 1, n_max)
    else:
        if sizes.min() <= 0 or sizes.max() > n_max:
            raise ValueError(
                "train_sizes has been interpreted as absolute numbers of training samples and "
                f"must be within (0, {n_max}], but is within [{sizes.min()}, {sizes.max()}]."
            )
        absolute = sizes.astype(int)
    unique = np.unique(absolute)
    if len(unique) < len(absolute):
        import warnings

        warnings.warn(
            f"Removed duplicate entries from 'train_sizes'. Number of ticks will be less than "
            f"the size of 'train_sizes': {len(unique)} instead of {len(absolute)}.",
            RuntimeWarning,
            stacklevel=3,
        )
    return unique


def learning_curve(estimator, X, y, *, groups=None, train_sizes=np.linspace(0.1, 1.0, 5),
                   cv=None, scoring=None, exploit_incremental_learning=False, n_jobs=None,
                   pre_dispatch="all", verbose=0, shuffle=False, random_state=None,
                   error_score=np.nan, return_times=False, params=None):
    """Training and test scores for growing training sets.

    For each split, the model is fitted on the first ``n`` samples of the
    training part (shuffled first with ``shuffle``) and scored on the whole
    test part.

    Parameters
    ----------
    estimator : estimator
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,) or None
    train_sizes : array-like, default=np.linspace(0.1, 1.0, 5)
        Fractions of the largest training part (floats) or counts (ints).
    groups, cv, scoring, n_jobs, error_score, params
        As in :func:`cross_validate`.
    exploit_incremental_learning : bool, default=False
        Not supported (must be False).
    shuffle : bool, default=False
    random_state : int, RandomState or None
    return_times : bool, default=False
    pre_dispatch, verbose
        Accepted for compatibility.

    Returns
    -------
    train_sizes_abs : ndarray of shape (n_ticks,)
    train_scores, test_scores : ndarray of shape (n_ticks, n_splits)
    fit_times, score_times : ndarray of shape (n_ticks, n_splits)
        Only with ``return_times``.

    Examples
    --------
    >>> from classiclearn.datasets import load_iris
    >>> from classiclearn.naive_bayes import GaussianNB
    >>> X, y = load_iris(return_X_y=True)
    >>> sizes, tr, te = learning_curve(GaussianNB(), X, y, train_sizes=[0.5, 1.0], cv=3)
    >>> sizes.tolist()
    [50, 100]
    """
    if exploit_incremental_learning:
        raise ValueError("exploit_incremental_learning=True is not supported.")
    X, y, groups = _indexable(X), _indexable(y), _indexable(groups)
    cv = check_cv(cv, y, classifier=is_classifier(estimator))
    scorer = check_scoring(estimator, scoring)
    splits = list(cv.split(X, y, groups))
    n_max = len(splits[0][0])
    sizes = _absolute_sizes(train_sizes, n_max)
    if shuffle:
        rng = check_random_state(random_state)
        splits = [(rng.permutation(train), test) for train, test in splits]
    tasks = []
    for train, test in splits:
        for n in sizes:
            tasks.append((estimator, X, y, scorer, train[:n], test, dict(params or {}), {},
                          True, False, error_score))
    results = _parallel_map(_fit_and_score, tasks, n_jobs)
    _warn_failures(results, error_score)

    def grid(key):
        vals = np.array([r[key] for r in results], dtype=np.float64)
        return vals.reshape(len(splits), len(sizes)).T

    out = [sizes, grid("train_scores"), grid("test_scores")]
    if return_times:
        out += [grid("fit_time"), grid("score_time")]
    return tuple(out)

