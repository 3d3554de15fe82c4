"""Scorers: ``scorer(estimator, X, y)`` callables named as in scikit-learn.

A scorer asks a fitted estimator for the response its metric needs
(``predict``, ``predict_proba`` or ``decision_function``) and returns a number
where greater is better (losses are negated: ``"neg_log_loss"``). They work on
our estimators and on scikit-learn's.
"""

import copy

import numpy as np

from . import _classification as C
from . import _classification_extra as E
from . import _cluster as K
from . import _ranking as R
from . import _regression as G

__all__ = ["check_scoring", "get_scorer", "get_scorer_names", "make_scorer"]


def _response(estimator, X, response_method):
    methods = (response_method,) if isinstance(response_method, str) else response_method
    for name in methods:
        if hasattr(estimator, name):
            return name, getattr(estimator, name)(X)
    raise AttributeError(
        f"{type(estimator).__name__} has none of the following attributes: "
        f"{', '.join(methods)}."
    )


class _Scorer:
    """Calls ``score_func(y, response)`` and multiplies by ``sign``."""

    def __init__(self, score_func, sign, kwargs, response_method="predict"):
        self._score_func = score_func
        self._sign = sign
        self._kwargs = kwargs
        self._response_method = response_method

    def __repr__(self):
        kwargs = "".join(f", {k}={v!r}" for k, v in self._kwargs.items())
        sign = "" if self._sign > 0 else ", greater_is_better=False"
        method = self._response_method
        resp = "" if method == "predict" else f", response_method={method!r}"
        return f"make_scorer({self._score_func.__name__}{sign}{resp}{kwargs})"

    def __call__(self, estimator, X, y_true, sample_weight=None, **kwargs):
        """Score ``estimator`` on ``(X, y_true)``.

        Returns
        -------
        float
        """
        params = {**self._kwargs, **kwargs}
        if sample_weight is not None:
            params["sample_weight"] = sample_weight
        return self._sign * self._score(estimator, X, y_true, params)

    def _score(self, estimator, X, y_true, params):
        method, y_pred = _response(estimator, X, self._response_method)
        classes = getattr(estimator, "classes_", None)
        if method in ("predict_proba", "decision_function") and classes is not None:
            y_pred = _binary_column(y_pred, classes, params, method)
        return self._score_func(y_true, y_pred, **params)

    def set_score_request(self, **kwargs):
        """Accepted for compatibility; metadata routing is not used."""
        return self


def _binary_column(y_pred, classes, params, method):
    """For a binary problem keep the positive class's column (scikit-learn's rule)."""
    y_pred = np.asarray(y_pred)
    if len(classes) != 2 or y_pred.ndim != 2:
        return y_pred
    pos_label = params.get("pos_label", classes[1])
    col = int(np.flatnonzero(classes == pos_label)[0]) if pos_label in classes.tolist() else 1
    return y_pred[:, col]


class _ProbaScorer(_Scorer):
    """Scorer passing full probability arrays (``log_loss``) with the model's labels."""

    def _score(self, estimator, X, y_true, params):
        _, y_pred = _response(estimator, X, self._response_method)
        classes = getattr(estimator, "classes_", None)
        if classes is not None and "labels" not in params:
            params = {**params, "labels": classes}
        return self._score_func(y_true, y_pred, **params)


class _AucScorer(_Scorer):
    """ROC AUC: continuous scores, the positive column for binary targets."""

    def _score(self, estimator, X, y_true, params):
        method, y_pred = _response(estimator, X, self._response_method)
        classes = getattr(estimator, "classes_", None)
        y_pred = np.asarray(y_pred)
        if classes is not None and len(classes) == 2 and y_pred.ndim == 2:
            y_pred = y_pred[:, 1]
        if classes is not None and len(classes) > 2 and "labels" not in params \
                and params.get("multi_class", "raise") != "raise":
            params = {**params, "labels": classes}
        return self._score_func(y_true, y_pred, **params)


class _PassthroughScorer:
    """Use the estimator's own ``score`` method."""

    def __init__(self, estimator):
        self._estimator = estimator

    def __repr__(self):
        return f"{type(self._estimator).__name__}.score"

    def __call__(self, estimator, X, y_true=None, sample_weight=None, **kwargs):
        if sample_weight is not None:
            kwargs["sample_weight"] = sample_weight
        if y_true is None:
            return estimator.score(X, **kwargs)
        return estimator.score(X, y_true, **kwargs)


def make_scorer(score_func, *, response_method="predict", greater_is_better=True, **kwargs):
    """Make a scorer from a metric ``score_func(y_true, y_pred, **kwargs)``.

    Parameters
    ----------
    score_func : callable
    response_method : str or tuple of str, default="predict"
        The estimator method(s) giving ``y_pred``; the first one available
        is used.
    greater_is_better : bool, default=True
        False for losses: the scorer then returns the negated loss.
    **kwargs
        Passed on to ``score_func``.

    Returns
    -------
    callable ``scorer(estimator, X, y)``

    Examples
    --------
    >>> from classiclearn.metrics import fbeta_score
    >>> make_scorer(fbeta_score, beta=2)
    make_scorer(fbeta_score, beta=2)
    """
    sign = 1 if greater_is_better else -1
    return _Scorer(score_func, sign, kwargs, response_method)


_PROBA = "predict_proba"
_DF_PROBA = ("decision_function", "predict_proba")


def _build_scorers():
    s = {
        "accuracy": make_scorer(C.accuracy_score),
        "balanced_accuracy": make_scorer(C.balanced_accuracy_score),
        "matthews_corrcoef": make_scorer(C.matthews_corrcoef),
        "neg_log_loss": _ProbaScorer(C.log_loss, -1, {}, _PROBA),
        "roc_auc": _AucScorer(R.roc_auc_score, 1, {}, _DF_PROBA),
        "roc_auc_ovr": _AucScorer(R.roc_auc_score, 1, {"multi_class": "ovr"}, _PROBA),
        "roc_auc_ovo": _AucScorer(R.roc_auc_score, 1, {"multi_class": "ovo"}, _PROBA),
        "roc_auc_ovr_weighted": _AucScorer(
            R.roc_auc_score, 1, {"multi_class": "ovr", "average": "weighted"}, _PROBA),
        "roc_auc_ovo_weighted": _AucScorer(
            R.roc_auc_score, 1, {"multi_class": "ovo", "average": "weighted"}, _PROBA),
        "neg_brier_score": _ProbaScorer(C.brier_score_loss, -1, {}, _PROBA),
        "average_precision": _AucScorer(R.average_precision_score, 1, {}, _DF_PROBA),
        "r2": make_scorer(G.r2_score),
        "explained_variance": make_scorer(G.explained_variance_score),
        "neg_max_error": make_scorer(G.max_error, greater_is_better=False),
        "neg_mean_squared_error": make_scorer(G.mean_squared_error, greater_is_better=False),
        "neg_root_mean_squared_error": make_scorer(G.root_mean_squared_error,
                                                   greater_is_better=False),
        "neg_mean_absolute_error": make_scorer(G.mean_absolute_error, greater_is_better=False),
        "neg_median_absolute_error": make_scorer(G.median_absolute_error,
                                                 greater_is_better=False),
        "neg_mean_absolute_percentage_error": make_scorer(
            G.mean_absolute_percentage_error, greater_is_better=False),
        "adjusted_rand_score": make_scorer(K.adjusted_rand_score),
        "rand_score": make_scorer(K.rand_score),
        "neg_mean_squared_log_error": make_scorer(G.mean_squared_log_error,
                                                  greater_is_better=False),
        "neg_root_mean_squared_log_error": make_scorer(G.root_mean_squared_log_error,
                                                       greater_is_better=False),
        "neg_mean_poisson_deviance": make_scorer(G.mean_poisson_deviance,
                                                 greater_is_better=False),
        "neg_mean_gamma_deviance": make_scorer(G.mean_gamma_deviance, greater_is_better=False),
        "d2_absolute_error_score": make_scorer(G.d2_absolute_error_score),
        "d2_log_loss_score": _ProbaScorer(E.d2_log_loss_score, 1, {}, _PROBA),
        "d2_brier_score": _ProbaScorer(E.d2_brier_score, 1, {}, _PROBA),
        "positive_likelihood_ratio": make_scorer(E.positive_likelihood_ratio),
        "neg_negative_likelihood_ratio": make_scorer(E.negative_likelihood_ratio,
                                                     greater_is_better=False),
        "top_k_accuracy": make_scorer(E.top_k_accuracy_score, response_method=_DF_PROBA),
    }
    for name in ("mutual_info_score", "normalized_mutual_info_score",
                 "adjusted_mutual_info_score", "homogeneity_score", "completeness_score",
                 "v_measure_score", "fowlkes_mallows_score"):
        s[name] = make_scorer(getattr(K, name))
    for name, func in (("precision", C.precision_score), ("recall", C.recall_score),
                       ("f1", C.f1_score), ("jaccard", E.jaccard_score)):
        s[name] = make_scorer(func, average="binary")
        for avg in ("micro", "macro", "weighted", "samples"):
            s[f"{name}_{avg}"] = make_scorer(func, average=avg)
    return s


_SCORERS = _build_scorers()


def get_scorer_names():
    """Names accepted by :func:`get_scorer`, sorted.

    Returns
    -------
    list of str

    Examples
    --------
    >>> "neg_log_loss" in get_scorer_names()
    True
    """
    return sorted(_SCORERS)


def get_scorer(scoring):
    """The scorer for a scikit-learn scoring name (a callable is returned as is).

    Parameters
    ----------
    scoring : str, callable or None

    Returns
    -------
    callable ``scorer(estimator, X, y)`` or None

    Examples
    --------
    >>> get_scorer("neg_mean_squared_error")
    make_scorer(mean_squared_error, greater_is_better=False)
    """
    if isinstance(scoring, str):
        try:
            return copy.deepcopy(_SCORERS[scoring])
        except KeyError:
            raise ValueError(
                f"{scoring!r} is not a valid scoring value. Use "
                "classiclearn.metrics.get_scorer_names() to get valid options."
            ) from None
    return scoring


def check_scoring(estimator=None, scoring=None, *, allow_none=False, raise_exc=True):
    """Turn a ``scoring`` argument into a scorer for ``estimator``.

    Parameters
    ----------
    estimator : estimator, optional
    scoring : str, callable, list, tuple, set, dict or None
        None uses ``estimator.score``; several names (list, tuple, set) or a
        dict of name -> scorer give a dict of scorers.
    allow_none : bool, default=False
        Return None instead of raising when there is nothing to score with.
    raise_exc : bool, default=True
        Unused; accepted for compatibility.

    Returns
    -------
    callable, dict of callables, or None

    Examples
    --------
    >>> from classiclearn.naive_bayes import GaussianNB
    >>> check_scoring(GaussianNB(), "accuracy")
    make_scorer(accuracy_score)
    """
    if isinstance(scoring, str):
        return get_scorer(scoring)
    if callable(scoring):
        module = getattr(scoring, "__module__", "") or ""
        if (module.startswith(("classiclearn.metrics.", "sklearn.metrics."))
                and not module.endswith(("_scorer", "tests"))
                and not isinstance(scoring, _Scorer | _PassthroughScorer)
                and getattr(scoring, "__name__", "").endswith(("_score", "_error", "_loss"))):
            raise ValueError(
                f"scoring value {scoring!r} looks like it is a metric function rather than "
                "a scorer. A scorer should require an estimator as its first parameter. "
                "Please use `make_scorer` to convert a metric to a scorer."
            )
        return scoring
    if isinstance(scoring, list | tuple | set):
        names = list(scoring)
        if not names or not all(isinstance(n, str) for n in names):
            raise ValueError(
                "The list/tuple elements must be unique strings of predefined scorers."
            )
        if len(set(names)) != len(names):
            raise ValueError("The list/tuple elements must be unique strings.")
        return {n: get_scorer(n) for n in names}
    if isinstance(scoring, dict):
        if not scoring:
            raise ValueError("An empty dict was passed as scoring.")
        return {k: check_scoring(estimator, v) for k, v in scoring.items()}
    if scoring is None:
        if estimator is not None and hasattr(estimator, "score"):
            return _PassthroughScorer(estimator)
        if allow_none:
            return None
        raise TypeError(
            "If no scoring is specified, the estimator passed should have a 'score' method. "
            f"The estimator {estimator!r} does not."
        )
    raise ValueError(f"scoring must be a str, a callable, a list, a dict or None; got "
                     f"{scoring!r}")
