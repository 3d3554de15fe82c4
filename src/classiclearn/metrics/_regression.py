"""Regression scores: R², explained variance, D², mean squared, log and absolute errors,
Poisson and gamma deviances (seed 000 §2, §4)."""

import numpy as np

from ..utils.validation import check_consistent_length

__all__ = [
    "d2_absolute_error_score",
    "explained_variance_score",
    "max_error",
    "mean_absolute_error",
    "mean_absolute_percentage_error",
    "mean_gamma_deviance",
    "mean_poisson_deviance",
    "mean_squared_error",
    "mean_squared_log_error",
    "median_absolute_error",
    "r2_score",
    "root_mean_squared_error",
    "root_mean_squared_log_error",
]

_MULTIOUTPUT = ("raw_values", "uniform_average", "variance_weighted")


def _check_reg_targets(y_true, y_pred, sample_weight, multioutput, allowed=_MULTIOUTPUT):
    """Validate regression targets; return 2-D float arrays and the weights."""
    check_consistent_length(y_true, y_pred)
    yt = np.asarray(y_true, dtype=np.float64)
    yp = np.asarray(y_pred, dtype=np.float64)
    if yt.ndim == 1:
        yt = yt.reshape(-1, 1)
    if yp.ndim == 1:
        yp = yp.reshape(-1, 1)
    if yt.ndim != 2 or yp.ndim != 2:
        raise ValueError("y_true and y_pred must be 1-D or 2-D arrays.")
    if yt.shape[1] != yp.shape[1]:
        raise ValueError(
            "y_true and y_pred have different number of output "
            f"({yt.shape[1]}!={yp.shape[1]})"
        )
    if yt.shape[0] == 0:
        raise ValueError("Found array with 0 sample(s) (shape=(0,)) while a minimum of 1 is "
                         "required.")
    for name, a in (("y_true", yt), ("y_pred", yp)):
        if not np.isfinite(a).all():
            raise ValueError(f"Input {name} contains NaN or infinity.")
    if isinstance(multioutput, str):
        if multioutput not in allowed:
            raise ValueError(
                f"Allowed 'multioutput' string values are {allowed}. You provided "
                f"multioutput={multioutput!r}"
            )
    else:
        multioutput = np.asarray(multioutput, dtype=np.float64)
        if yt.shape[1] == 1:
            raise ValueError(
                "Custom weights are useful only in multi-output cases."
            )
        if multioutput.shape != (yt.shape[1],):
            raise ValueError(
                "There must be equally many custom weights "
                f"({multioutput.shape[0]}) as outputs ({yt.shape[1]})."
            )
    w = None
    if sample_weight is not None:
        w = np.asarray(sample_weight, dtype=np.float64).ravel()
        check_consistent_length(yt, w)
    return yt, yp, w, multioutput


def _aggregate(values, multioutput, variance=None):
    if isinstance(multioutput, str):
        if multioutput == "raw_values":
            return values
        if multioutput == "variance_weighted" and variance is not None:
            if variance.sum() == 0:
                return float(np.mean(values))
            return float(np.average(values, weights=variance))
        return float(np.mean(values))
    return float(np.average(values, weights=multioutput))


def mean_squared_error(y_true, y_pred, *, sample_weight=None, multioutput="uniform_average"):
    """Mean squared error.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,) or (n_samples, n_outputs)
    sample_weight : array-like of shape (n_samples,), optional
    multioutput : {"raw_values", "uniform_average"} or array-like of shape (n_outputs,)
        How to combine outputs.

    Returns
    -------
    float or ndarray

    Examples
    --------
    >>> mean_squared_error([3.0, -0.5, 2.0, 7.0], [2.5, 0.0, 2.0, 8.0])
    0.375
    """
    yt, yp, w, multioutput = _check_reg_targets(y_true, y_pred, sample_weight, multioutput,
                                                ("raw_values", "uniform_average"))
    errors = np.average((yt - yp) ** 2, axis=0, weights=w)
    return _aggregate(errors, multioutput)


def root_mean_squared_error(y_true, y_pred, *, sample_weight=None,
                            multioutput="uniform_average"):
    """Root mean squared error (per output, then averaged).

    Parameters are those of :func:`mean_squared_error`.

    Returns
    -------
    float or ndarray

    Examples
    --------
    >>> root_mean_squared_error([0.0, 0.0], [3.0, 4.0])
    3.5355339059327378
    """
    yt, yp, w, multioutput = _check_reg_targets(y_true, y_pred, sample_weight, multioutput,
                                                ("raw_values", "uniform_average"))
    errors = np.sqrt(np.average((yt - yp) ** 2, axis=0, weights=w))
    return _aggregate(errors, multioutput)


def mean_absolute_error(y_true, y_pred, *, sample_weight=None, multioutput="uniform_average"):
    """Mean absolute error.

    Parameters are those of :func:`mean_squared_error`.

    Returns
    -------
    float or ndarray

    Examples
    --------
    >>> mean_absolute_error([3.0, -0.5, 2.0, 7.0], [2.5, 0.0, 2.0, 8.0])
    0.5
    """
    yt, yp, w, multioutput = _check_reg_targets(y_true, y_pred, sample_weight, multioutput,
                                                ("raw_values", "uniform_average"))
    errors = np.average(np.abs(yt - yp), axis=0, weights=w)
    return _aggregate(errors, multioutput)


def mean_absolute_percentage_error(y_true, y_pred, *, sample_weight=None,
                                   multioutput="uniform_average"):
    """Mean of ``|y_true - y_pred| / max(|y_true|, eps)`` (a fraction, not a percentage).

    Parameters are those of :func:`mean_squared_error`.

    Returns
    -------
    float or ndarray

    Examples
    --------
    >>> mean_absolute_percentage_error([1.0, 2.0], [1.5, 2.0])
    0.25
    """
    yt, yp, w, multioutput = _check_reg_targets(y_true, y_pred, sample_weight, multioutput,
                                                ("raw_values", "uniform_average"))
    eps = np.finfo(np.float64).eps
    errors = np.average(np.abs(yt - yp) / np.maximum(np.abs(yt), eps), axis=0, weights=w)
    return _aggregate(errors, multioutput)


def median_absolute_error(y_true, y_pred, *, multioutput="uniform_average",
                          sample_weight=None):
    """Median absolute error (unweighted median only when ``sample_weight`` is None).

    Returns
    -------
    float or ndarray

    Examples
    --------
    >>> median_absolute_error([3.0, -0.5, 2.0, 7.0], [2.5, 0.0, 2.0, 8.0])
    0.5
    """
    yt, yp, w, multioutput = _check_reg_targets(y_true, y_pred, sample_weight, multioutput,
                                                ("raw_values", "uniform_average"))
    err = np.abs(yt - yp)
    if w is None:
        errors = np.median(err, axis=0)
    else:
        errors = np.array([_weighted_median(err[:, j], w) for j in range(err.shape[1])])
    return _aggregate(errors, multioutput)


def _weighted_median(values, weights):
    order = np.argsort(values, kind="stable")
    cum = np.cumsum(weights[order])
    return float(values[order][np.searchsorted(cum, 0.5 * cum[-1])])


def max_error(y_true, y_pred):
    """Largest absolute residual (single output).

    Returns
    -------
    float

    Examples
    --------
    >>> max_error([3, 2, 7, 1], [4, 2, 7, 1])
    1.0
    """
    yt, yp, _, _ = _check_reg_targets(y_true, y_pred, None, "uniform_average")
    if yt.shape[1] != 1:
        raise ValueError("Multioutput not supported in max_error")
    return float(np.max(np.abs(yt - yp)))


def _force_finite(num, den, force_finite):
    with np.errstate(divide="ignore", invalid="ignore"):
        scores = 1.0 - num / den
    if force_finite:
        scores = np.where(den > 0, scores, np.where(num == 0, 1.0, 0.0))
    else:
        scores = np.where((den == 0) & (num == 0), np.nan, scores)
        scores = np.where((den == 0) & (num != 0), -np.inf, scores)
    return scores


def r2_score(y_true, y_pred, *, sample_weight=None, multioutput="uniform_average",
             force_finite=True):
    """Coefficient of determination R² = 1 - SS_res / SS_tot.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,) or (n_samples, n_outputs)
    sample_weight : array-like of shape (n_samples,), optional
    multioutput : {"uniform_average", "raw_values", "variance_weighted"} or array-like
    force_finite : bool, default=True
        A constant y_true gives 1.0 for a perfect prediction, else 0.0;
        with False, NaN and -inf instead.

    Returns
    -------
    float or ndarray

    Examples
    --------
    >>> r2_score([1.0, 2.0, 3.0], [1.0, 2.0, 4.0])
    0.5
    """
    yt, yp, w, multioutput = _check_reg_targets(y_true, y_pred, sample_weight, multioutput)
    if yt.shape[0] < 2:
        import warnings

        from ..exceptions import UndefinedMetricWarning

        warnings.warn("R^2 score is not well-defined with less than two samples.",
                      UndefinedMetricWarning, stacklevel=2)
        return np.nan
    ww = np.ones(yt.shape[0]) if w is None else w
    ww = ww[:, None]
    ss_res = (ww * (yt - yp) ** 2).sum(axis=0)
    mean = (ww * yt).sum(axis=0) / ww.sum()
    ss_tot = (ww * (yt - mean) ** 2).sum(axis=0)
    scores = _force_finite(ss_res, ss_tot, force_finite)
    return _aggregate(scores, multioutput, ss_tot)


def explained_variance_score(y_true, y_pred, *, sample_weight=None,
                             multioutput="uniform_average", force_finite=True):
    """Explained variance 1 - Var(y_true - y_pred) / Var(y_true).

    Unlike R², a constant bias in the prediction is not penalised.

    Parameters are those of :func:`r2_score`.

    Returns
    -------
    float or ndarray

    Examples
    --------
    >>> explained_variance_score([1.0, 2.0, 3.0], [2.0, 3.0, 4.0])
    1.0
    """
    yt, yp, w, multioutput = _check_reg_targets(y_true, y_pred, sample_weight, multioutput)
    diff = yt - yp
    diff_mean = np.average(diff, axis=0, weights=w)
    num = np.average((diff - diff_mean) ** 2, axis=0, weights=w)
    yt_mean = np.average(yt, axis=0, weights=w)
    den = np.average((yt - yt_mean) ** 2, axis=0, weights=w)
    scores = _force_finite(num, den, force_finite)
    return _aggregate(scores, multioutput, den)


def mean_squared_log_error(y_true, y_pred, *, sample_weight=None,
                           multioutput="uniform_average"):
    """Mean squared error of ``log1p`` of the targets and predictions.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,) or (n_samples, n_outputs)
        Values above -1.
    sample_weight : array-like of shape (n_samples,), optional
    multioutput : {"raw_values", "uniform_average"} or array-like of shape (n_outputs,)

    Returns
    -------
    float or ndarray

    Examples
    --------
    >>> round(mean_squared_log_error([3.0, 5.0], [2.5, 5.0]), 6)
    0.008915
    """
    yt, yp = _log1p_targets(y_true, y_pred)
    return mean_squared_error(yt, yp, sample_weight=sample_weight, multioutput=multioutput)


def root_mean_squared_log_error(y_true, y_pred, *, sample_weight=None,
                                multioutput="uniform_average"):
    """Square root of :func:`mean_squared_log_error` (per output, then averaged).

    Returns
    -------
    float or ndarray

    Examples
    --------
    >>> round(root_mean_squared_log_error([3.0, 5.0], [2.5, 5.0]), 6)
    0.094421
    """
    yt, yp = _log1p_targets(y_true, y_pred)
    return root_mean_squared_error(yt, yp, sample_weight=sample_weight,
                                   multioutput=multioutput)


def _log1p_targets(y_true, y_pred):
    yt = np.asarray(y_true, dtype=np.float64)
    yp = np.asarray(y_pred, dtype=np.float64)
    if (yt <= -1).any() or (yp <= -1).any():
        raise ValueError(
            "Mean Squared Logarithmic Error cannot be used when targets contain values less "
            "than or equal to -1."
        )
    return np.log1p(yt), np.log1p(yp)


def _tweedie_deviance(y, mu, power):
    """Unit deviance of a Tweedie distribution for power 0 (normal), 1 (Poisson),
    2 (gamma)."""
    if power == 0:
        return (y - mu) ** 2
    if power == 1:
        with np.errstate(divide="ignore", invalid="ignore"):
            ylogy = np.where(y > 0, y * np.log(np.where(y > 0, y, 1.0) / mu), 0.0)
        return 2.0 * (ylogy - y + mu)
    return 2.0 * (np.log(mu / y) + y / mu - 1.0)


def _mean_deviance(y_true, y_pred, sample_weight, power):
    yt, yp, w, _ = _check_reg_targets(y_true, y_pred, sample_weight, "uniform_average")
    if yt.shape[1] != 1:
        raise ValueError("Multioutput not supported in mean_tweedie_deviance")
    if power == 1 and ((yt < 0).any() or (yp <= 0).any()):
        raise ValueError(
            "Mean Tweedie deviance error with power=1 can only be used on non-negative y and "
            "strictly positive y_pred."
        )
    if power == 2 and ((yt <= 0).any() or (yp <= 0).any()):
        raise ValueError(
            "Mean Tweedie deviance error with power=2 can only be used on strictly positive "
            "y and y_pred."
        )
    return float(np.average(_tweedie_deviance(yt[:, 0], yp[:, 0], power), weights=w))


def mean_poisson_deviance(y_true, y_pred, *, sample_weight=None):
    """Mean Poisson deviance ``2 (y log(y / mu) - y + mu)``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Non-negative.
    y_pred : array-like of shape (n_samples,)
        Strictly positive.
    sample_weight : array-like of shape (n_samples,), optional

    Returns
    -------
    float

    Examples
    --------
    >>> round(mean_poisson_deviance([2.0, 0.0, 1.0], [0.5, 0.5, 2.0]), 4)
    1.3863
    """
    return _mean_deviance(y_true, y_pred, sample_weight, 1)


def mean_gamma_deviance(y_true, y_pred, *, sample_weight=None):
    """Mean gamma deviance ``2 (log(mu / y) + y / mu - 1)``.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        Strictly positive.
    sample_weight : array-like of shape (n_samples,), optional

    Returns
    -------
    float

    Examples
    --------
    >>> round(mean_gamma_deviance([2.0, 0.5, 1.0], [0.5, 0.5, 2.0]), 4)
    1.2046
    """
    return _mean_deviance(y_true, y_pred, sample_weight, 2)


def d2_absolute_error_score(y_true, y_pred, *, sample_weight=None,
                            multioutput="uniform_average"):
    """Share of absolute error explained, against predicting the median.

    ``1 - sum |y - y_pred| / sum |y - median(y)|`` (weighted); 1.0 when both
    sums are 0, 0.0 when only the second is. Undefined (NaN) for fewer than
    two samples.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,) or (n_samples, n_outputs)
    sample_weight : array-like of shape (n_samples,), optional
    multioutput : {"raw_values", "uniform_average"} or array-like of shape (n_outputs,)

    Returns
    -------
    float or ndarray

    Examples
    --------
    >>> round(d2_absolute_error_score([3.0, -0.5, 2.0, 7.0], [2.5, 0.0, 2.0, 8.0]), 4)
    0.7647
    """
    yt, yp, w, multioutput = _check_reg_targets(y_true, y_pred, sample_weight, multioutput,
                                                ("raw_values", "uniform_average"))
    if yt.shape[0] < 2:
        import warnings

        warnings.warn("D^2 score is not well-defined with less than two samples.",
                      UserWarning, stacklevel=2)
        return float("nan")
    if w is None:
        median = np.percentile(yt, 50, axis=0)
    else:
        median = np.array([_weighted_lower_median(yt[:, j], w) for j in range(yt.shape[1])])
    num = np.average(np.abs(yt - yp), axis=0, weights=w)
    den = np.average(np.abs(yt - median), axis=0, weights=w)
    return _aggregate(_force_finite(num, den, True), multioutput)


def _weighted_lower_median(values, weights):
    """Smallest value whose cumulative weight reaches half the total (inverted CDF)."""
    order = np.argsort(values, kind="stable")
    cum = np.cumsum(weights[order])
    return float(values[order][min(np.searchsorted(cum, 0.5 * cum[-1]), len(cum) - 1)])
