"""numba kernels for Gaussian naive Bayes: per-class moments and joint log-likelihoods."""

import math

import numpy as np
from numba import njit, prange


@njit(cache=True, nogil=True, parallel=True)
def class_weighted_moments(X, y_index, weight, n_classes):
    """Per-class weighted count, mean and sum of squared deviations of a block of rows.

    Parameters
    ----------
    X : float array (n_samples, n_features), C-contiguous.
    y_index : intp array (n_samples,), class index of each row in [0, n_classes).
    weight : float array (n_samples,), non-negative sample weights.
    n_classes : int

    Returns
    -------
    count : float64 (n_classes,), the summed weights.
    mean : float64 (n_classes, n_features), weighted means (0 for an empty class).
    m2 : float64 (n_classes, n_features), weighted sums of squared deviations from the mean.

    Two passes over the block (means, then deviations) for accuracy; parallel over
    features, each feature reduced by one thread in row order, so the result does not
    depend on the number of threads. Thread-safe; writes only its outputs.
    """
    n_samples, n_features = X.shape
    count = np.zeros(n_classes)
    for i in range(n_samples):
        count[y_index[i]] += weight[i]
    mean = np.zeros((n_classes, n_features))
    m2 = np.zeros((n_classes, n_features))
    for j in prange(n_features):
        for i in range(n_samples):
            mean[y_index[i], j] += weight[i] * X[i, j]
        for k in range(n_classes):
            if count[k] > 0:
                mean[k, j] /= count[k]
        for i in range(n_samples):
            d = X[i, j] - mean[y_index[i], j]
            m2[y_index[i], j] += weight[i] * d * d
    return count, mean, m2


@njit(cache=True, nogil=True, parallel=True)
def gaussian_joint_log_likelihood(X, theta, var, log_prior):
    """log P(c) + sum_j log N(x_j; theta_cj, var_cj) for every row and class.

    Parameters
    ----------
    X : float array (n_samples, n_features), C-contiguous.
    theta, var : float64 (n_classes, n_features); var > 0.
    log_prior : float64 (n_classes,).

    Returns
    -------
    jll : float64 (n_samples, n_classes). Parallel over rows; thread-safe.
    """
    n_samples, n_features = X.shape
    n_classes = theta.shape[0]
    inv_var = 1.0 / var
    const = np.empty(n_classes)
    for k in range(n_classes):
        s = 0.0
        for j in range(n_features):
            s += math.log(2.0 * math.pi * var[k, j])
        const[k] = log_prior[k] - 0.5 * s
    out = np.empty((n_samples, n_classes))
    for i in prange(n_samples):
        for k in range(n_classes):
            s = 0.0
            for j in range(n_features):
                d = X[i, j] - theta[k, j]
                s += d * d * inv_var[k, j]
            out[i, k] = const[k] - 0.5 * s
    return out
