"""Scales that divide: (near-)zero scales replaced so constant features pass through."""

import numpy as np

__all__ = ["handle_zeros_in_scale"]


def handle_zeros_in_scale(scale, magnitude=1.0):
    """A copy of ``scale`` with (near-)zero entries replaced by 1.

    An entry below ten machine epsilons is a constant feature: dividing by it
    would blow the feature up, so it is left unscaled. NaN (a feature with no
    observed value) stays NaN, as in scikit-learn. With ``magnitude`` (the
    features' largest |value|), the threshold is ten epsilons times the
    magnitude where that is below 1, so a feature whose values are all near
    1e-300 is still scaled.

    Parameters
    ----------
    scale : array-like of shape (n_features,)
    magnitude : float or array-like of shape (n_features,), default=1.0

    Returns
    -------
    ndarray of shape (n_features,), float64

    Examples
    --------
    >>> handle_zeros_in_scale([2.0, 0.0, np.nan])
    array([ 2.,  1., nan])
    """
    scale = np.array(scale, dtype=np.float64)
    threshold = 10 * np.finfo(np.float64).eps * np.minimum(1.0, magnitude)
    with np.errstate(invalid="ignore"):
        scale[(scale < threshold) | (scale == 0.0)] = 1.0
    return scale
