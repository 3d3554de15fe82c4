"""Scales that divide: (near-)zero scales replaced so constant features pass through."""

import numpy as np

__all__ = ["handle_zeros_in_scale"]


def handle_zeros_in_scale(scale):
    """A copy of ``scale`` with (near-)zero entries replaced by 1.

    An entry below ten machine epsilons is a constant feature: dividing by it
    would blow the feature up, so it is left unscaled. NaN (a feature with no
    observed value) stays NaN, as in scikit-learn.

    Parameters
    ----------
    scale : array-like of shape (n_features,)

    Returns
    -------
    ndarray of shape (n_features,), float64

    Examples
    --------
    >>> handle_zeros_in_scale([2.0, 0.0, np.nan])
    array([ 2.,  1., nan])
    """
    scale = np.array(scale, dtype=np.float64)
    with np.errstate(invalid="ignore"):
        scale[scale < 10 * np.finfo(np.float64).eps] = 1.0
    return scale
