"""Regression scores."""

import numpy as np

from ..utils.validation import check_consistent_length

__all__ = ["r2_score"]


def _as_2d(y):
    y = np.asarray(y, dtype=np.float64)
    return y.reshape(-1, 1) if y.ndim == 1 else y


def r2_score(y_true, y_pred, *, sample_weight=None, multioutput="uniform_average"):
    """Coefficient of determination R² = 1 - SS_res / SS_tot.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,) or (n_samples, n_outputs)
    sample_weight : array-like of shape (n_samples,), optional
    multioutput : {"uniform_average", "raw_values", "variance_weighted"}

    Returns
    -------
    float or ndarray
        A constant y_true gives 1.0 for a perfect prediction, else 0.0.

    Examples
    --------
    >>> r2_score([1.0, 2.0, 3.0], [1.0, 2.0, 4.0])
    0.5
    """
    check_consistent_length(y_true, y_pred)
    yt, yp = _as_2d(y_true), _as_2d(y_pred)
    w = np.ones(yt.shape[0]) if sample_weight is None else np.asarray(sample_weight, float)
    w = w[:, None]
    ss_res = (w * (yt - yp) ** 2).sum(axis=0)
    mean = (w * yt).sum(axis=0) / w.sum()
    ss_tot = (w * (yt - mean) ** 2).sum(axis=0)
    with np.errstate(divide="ignore", invalid="ignore"):
        scores = np.where(ss_tot > 0, 1.0 - ss_res / ss_tot, np.where(ss_res == 0, 1.0, 0.0))
    if multioutput == "raw_values":
        return scores
    if multioutput == "variance_weighted":
        if ss_tot.sum() == 0:
            return float(scores.mean())
        return float(np.average(scores, weights=ss_tot))
    return float(scores.mean())
