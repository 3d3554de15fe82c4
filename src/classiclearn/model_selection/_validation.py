"""Cross-validation (seed 000 §2): fit a fresh clone on each training part, score it
on the held-out part.

Works with classiclearn's estimators and scikit-learn's alike (``clone`` from
``classiclearn.base`` handles both). ``n_jobs`` runs folds in a thread pool:
numba kernels release the GIL, and every fold has its own clone, so results
never depend on ``n_jobs``.
"""

import numbers
import time
import traceback
import warnings

import numpy as np

from ..base import clone, is_classifier
from ..exceptions import FitFailedWarning
from ..metrics._scorer import check_scoring
from ..utils._threads import effective_n_jobs, numba_thread_safe, thread_map
from ._split import _indexable, _safe_indexing, check_cv

__all__ = [
    "FitFailedWarning",
    "cross_val_predict",
    "cross_val_score",
    "cross_validate",
]


def _parallel_map(func, tasks, n_jobs):
    n = effective_n_jobs(n_jobs)
    if n > 1 and len(tasks) > 1 and not numba_thread_safe():
        n = 1
    return thread_map(lambda t: func(*t), tasks, n)


def _score_all(scorers, estimator, X, y, score_params):
    if isinstance(scorers, dict):
        out = {}
        for name, scorer in scorers.items():
            out[name] = _as_number(scorer(estimator, X, y, **score_params), name)
        return out
    return _as_number(scorers(estimator, X, y, **score_params), "score")


def _score_or_error(scorers, estimator, X, y, score_params, error_score):
    """Score as ``_score_all``; a failing single scorer gives ``error_score`` with a
    warning unless ``error_score="raise"`` (scikit-learn's rule; a dict of scorers
    raises)."""
    if isinstance(scorers, dict) or (isinstance(error_score, str) and error_score == "raise"):
        return _score_all(scorers, estimator, X, y, score_params)
    try:
        return _score_all(scorers, estimator, X, y, score_params)
    except Exception:
        warnings.warn(
            f"Scoring failed. The score on this train-test partition for these parameters "
            f"will be set to {error_score}. Details: \n{traceback.format_exc()}",
            UserWarning,
            stacklevel=2,
        )
        return error_score


def _as_number(value, name):
    if hasattr(value, "item") and np.ndim(value) == 0:
        value = value.item()
    if not isinstance(value, numbers.Number):
        raise ValueError(
            f"scoring must return a number, got {value!r} ({type(value)}) instead. "
            f"(scorer={name})"
        )
    return value


def _fit_and_score(estimator, X, y, scorers, train, test, fit_params, score_params,
                   return_train_score, return_estimator, error_score, parameters=None):
    """Fit a clone on ``train``, score on ``test``; a dict of results."""
    est = clone(estimator)
    if parameters:
        est.set_params(**{k: clone(v, safe=False) for k, v in parameters.items()})
    X_train, X_test = _safe_indexing(X, train), _safe_indexing(X, test)
    y_train = _safe_indexing(y, train)
    y_test = _safe_indexing(y, test)
    fp = _fold_params(fit_params, X, train)
    sp_train = _fold_params(score_params, X, train)
    sp_test = _fold_params(score_params, X, test)
    result = {"fit_error": None}
    start = time.perf_counter()
    try:
        if y_train is None:
            est.fit(X_train, **fp)
        else:
            est.fit(X_train, y_train, **fp)
    except Exception:
        result["fit_time"] = time.perf_counter() - start
        result["score_time"] = 0.0
        if isinstance(error_score, str) and error_score == "raise":
            raise
        if not isinstance(error_score, numbers.Number):
            raise ValueError(
                "error_score must be the string 'raise' or a numeric value. (Hint: if using "
                "'raise', please make sure that it has been spelled correctly.)"
            ) from None
        result["fit_error"] = traceback.format_exc()
        if isinstance(scorers, dict):
            result["test_scores"] = {name: error_score for name in scorers}
            if return_train_score:
                result["train_scores"] = dict(result["test_scores"])
        else:
            result["test_scores"] = error_score
            if return_train_score:
                result["train_scores"] = error_score
        if return_estimator:
            result["estimator"] = est
        return result
    result["fit_time"] = time.perf_counter() - start
    start = time.perf_counter()
    result["test_scores"] = _score_or_error(scorers, est, X_test, y_test, sp_test, error_score)
    result["score_time"] = time.perf_counter() - start
    if return_train_score:
        result["train_scores"] = _score_or_error(scorers, est, X_train, y_train, sp_train,
                                                 error_score)
    if return_estimator:
        result["estimator"] = est
    return result


def _fold_params(params, X, indices):
    """Index the per-sample entries of ``params`` (e.g. sample_weight) by ``indices``."""
    if not params:
        return {}
    n = _num_samples_safe(X)
    out = {}
    for key, value in params.items():
        if value is not None and hasattr(value, "__len__") and not isinstance(value, str) \
                and _num_samples_safe(value) == n:
            out[key] = _safe_indexing(value, indices)
        else:
            out[key] = value
    return out


def _num_samples_safe(x):
    try:
        return x.shape[0] if hasattr(x, "shape") else len(x)
    except TypeError:
        return None


def _warn_failures(results, error_score):
    failed = [r["fit_error"] for r in results if r["fit_error"] is not None]
    if not failed:
        return
    n = len(results)
    if len(failed) == n:
        raise ValueError(
            f"\nAll the {n} fits failed.\nIt is very likely that your model is misconfigured.\n"
            "You can try to debug the error by setting error_score='raise'.\n\n"
            f"Below are more details about the failures:\n{failed[0]}"
        )
    warnings.warn(
        f"\n{len(failed)} fits failed out of a total of {n}.\nThe score on these train-test "
        f"partitions for these parameters will be set to {error_score}.\nIf these failures "
        "are not expected, you can try to debug them by setting error_score='raise'.\n\n"
        f"Below are more details about the failures:\n{failed[0]}",
        FitFailedWarning,
        stacklevel=3,
    )


def _check_scoring_arg(estimator, scoring):
    scorers = check_scoring(estimator, scoring)
    return scorers


def cross_validate(estimator, X, y=None, *, groups=None, scoring=None, cv=None, n_jobs=None,
                   verbose=0, params=None, pre_dispatch="2*n_jobs", return_train_score=False,
                   return_estimator=False, return_indices=False, error_score=np.nan):
    """Evaluate one or more scores by cross-validation, with fit and score times.

    Parameters
    ----------
    estimator : estimator
        Ours or scikit-learn's; cloned for every fold.
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,), optional
    groups : array-like, optional
        Group labels for group splitters.
    scoring : str, callable, list, tuple, dict or None
        None uses ``estimator.score``; names as in scikit-learn ("accuracy",
        "roc_auc", "neg_mean_squared_error", ...).
    cv : int, splitter or iterable, default=None
        None is 5 folds; an int gives stratified folds for classifiers.
    n_jobs : int, default=None
        Folds run in that many threads.
    verbose : int, default=0
        Accepted for compatibility.
    params : dict, default=None
        Fit parameters; per-sample arrays (e.g. ``sample_weight``) are
        indexed for each fold.
    pre_dispatch : str, default="2*n_jobs"
        Accepted for compatibility.
    return_train_score : bool, default=False
    return_estimator : bool, default=False
    return_indices : bool, default=False
    error_score : "raise" or float, default=np.nan
        Score of a fold whose fit failed (a :class:`FitFailedWarning` is issued).

    Returns
    -------
    dict of ndarray
        ``fit_time``, ``score_time``, ``test_score`` (or ``test_<name>``
        per scorer), optionally ``train_*``, ``estimator``, ``indices``.

    Examples
    --------
    >>> from classiclearn.datasets import load_iris
    >>> from classiclearn.naive_bayes import GaussianNB
    >>> X, y = load_iris(return_X_y=True)
    >>> res = cross_validate(GaussianNB(), X, y, cv=3, scoring=["accuracy", "f1_macro"])
    >>> sorted(res)
    ['fit_time', 'score_time', 'test_accuracy', 'test_f1_macro']
    """
    X, y, groups = _indexable(X), _indexable(y), _indexable(groups)
    cv = check_cv(cv, y, classifier=is_classifier(estimator))
    scorers = _check_scoring_arg(estimator, scoring)
    splits = list(cv.split(X, y, groups))
    fit_params = dict(params or {})
    tasks = [(estimator, X, y, scorers, train, test, fit_params, {}, return_train_score,
              return_estimator, error_score) for train, test in splits]
    results = _parallel_map(_fit_and_score, tasks, n_jobs)
    _warn_failures(results, error_score)
    out = {
        "fit_time": np.array([r["fit_time"] for r in results]),
        "score_time": np.array([r["score_time"] for r in results]),
    }
    if return_estimator:
        out["estimator"] = [r["estimator"] for r in results]
    if return_indices:
        out["indices"] = {"train": [tr for tr, _ in splits], "test": [te for _, te in splits]}
    for part in ("test", "train") if return_train_score else ("test",):
        key = f"{part}_scores"
        if isinstance(scorers, dict):
            for name in scorers:
                out[f"{part}_{name}"] = np.array([r[key][name] for r in results])
        else:
            out[f"{part}_score"] = np.array([r[key] for r in results])
    return out


def cross_val_score(estimator, X, y=None, *, groups=None, scoring=None, cv=None, n_jobs=None,
                    verbose=0, params=None, pre_dispatch="2*n_jobs", error_score=np.nan):
    """One score per cross-validation fold.

    Parameters are those of :func:`cross_validate`; ``scoring`` must name
    a single score.

    Returns
    -------
    ndarray of shape (n_splits,)

    Examples
    --------
    >>> from classiclearn.datasets import load_iris
    >>> from classiclearn.naive_bayes import GaussianNB
    >>> X, y = load_iris(return_X_y=True)
    >>> scores = cross_val_score(GaussianNB(), X, y, cv=5)
    >>> bool(scores.mean() > 0.9)
    True
    """
    if isinstance(scoring, list | tuple | set | dict):
        raise ValueError(
            "For evaluating multiple scores, use classiclearn.model_selection.cross_validate "
            "instead."
        )
    res = cross_validate(estimator, X, y, groups=groups, scoring=scoring, cv=cv,
                         n_jobs=n_jobs, verbose=verbose, params=params,
                         pre_dispatch=pre_dispatch, error_score=error_score)
    return res["test_score"]


def _predict_fold(estimator, X, y, train, test, fit_params, method):
    est = clone(estimator)
    X_train = _safe_indexing(X, train)
    y_train = _safe_indexing(y, train)
    fp = _fold_params(fit_params, X, train)
    if y_train is None:
        est.fit(X_train, **fp)
    else:
        est.fit(X_train, y_train, **fp)
    pred = getattr(est, method)(_safe_indexing(X, test))
    return pred, getattr(est, "classes_", None)


def cross_val_predict(estimator, X, y=None, *, groups=None, cv=None, n_jobs=None, verbose=0,
                      params=None, pre_dispatch="2*n_jobs", method="predict"):
    """Out-of-fold predictions: each sample predicted by the model that did not see it.

    Parameters
    ----------
    estimator : estimator
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,), optional
    groups : array-like, optional
    cv : int, splitter or iterable, default=None
        Must be a partition (each sample in exactly one test fold).
    n_jobs : int, default=None
    verbose : int, default=0
    params : dict, default=None
        Fit parameters.
    pre_dispatch : str
        Accepted for compatibility.
    method : {"predict", "predict_proba", "predict_log_proba", "decision_function"}
        With probabilities, the columns follow all the classes of ``y``
        even when a training fold misses some (those columns are 0, or
        -inf for log probabilities).

    Returns
    -------
    ndarray of shape (n_samples,) or (n_samples, n_classes)

    Examples
    --------
    >>> from classiclearn.datasets import load_iris
    >>> from classiclearn.naive_bayes import GaussianNB
    >>> X, y = load_iris(return_X_y=True)
    >>> cross_val_predict(GaussianNB(), X, y, cv=5, method="predict_proba").shape
    (150, 3)
    """
    X, y, groups = _indexable(X), _indexable(y), _indexable(groups)
    cv = check_cv(cv, y, classifier=is_classifier(estimator))
    splits = list(cv.split(X, y, groups))
    n = X.shape[0] if hasattr(X, "shape") else len(X)
    test_all = np.concatenate([te for _, te in splits])
    if len(test_all) != n or not np.array_equal(np.sort(test_all), np.arange(n)):
        raise ValueError("cross_val_predict only works for partitions")
    fit_params = dict(params or {})
    tasks = [(estimator, X, y, train, test, fit_params, method) for train, test in splits]
    results = _parallel_map(_predict_fold, tasks, n_jobs)
    probabilistic = method in ("predict_proba", "predict_log_proba", "decision_function")
    all_classes = None
    if probabilistic and is_classifier(estimator) and y is not None:
        all_classes = np.unique(np.asarray(y))
    preds = []
    for pred, classes in results:
        pred = np.asarray(pred)
        if all_classes is not None and classes is not None and pred.ndim == 2 and \
                len(classes) != len(all_classes):
            fill = {"predict_proba": 0.0, "predict_log_proba": -np.inf}.get(
                method, np.finfo(pred.dtype if pred.dtype.kind == "f" else np.float64).min)
            full = np.full((pred.shape[0], len(all_classes)), fill,
                           dtype=np.result_type(pred.dtype, np.float64))
            full[:, np.searchsorted(all_classes, classes)] = pred
            pred = full
        elif all_classes is not None and classes is not None and pred.ndim == 1 and \
                method == "decision_function" and len(classes) != len(all_classes):
            raise ValueError(
                f"Only {len(classes)} class/es in training fold, but {len(all_classes)} in "
                "overall dataset. This is not supported for decision_function with imbalanced "
                "folds. To fix this, use a cross-validation technique resulting in properly "
                "stratified folds"
            )
        preds.append(pred)
    out_shape = (n,) + preds[0].shape[1:]
    dtype = np.result_type(*[p.dtype for p in preds])
    out = np.empty(out_shape, dtype=dtype)
    for pred, (_, test) in zip(preds, splits):
        out[test] = pred
    return out
