"""numba kernels for Gaussian naive Bayes: per-class moments and joint log-likelihoods."""

import math

import numpy as np

from .._kernels.jit import njit, prange

ROWS_PER_CHUNK = 4096
MAX_CHUNKS = 64


@njit(cache=True, nogil=True)
def _chunk_bounds(n_samples):
    n_chunks = min(MAX_CHUNKS, max(1, n_samples // ROWS_PER_CHUNK))
    bounds = np.empty(n_chunks + 1, dtype=np.intp)
    for c in range(n_chunks + 1):
        bounds[c] = (n_samples * c) // n_chunks
    return bounds


@njit(cache=True, nogil=True)
def _sum_chunks(X, y_index, weight, bounds, c0, c1, part_count, part):
    """Per-class weighted counts and sums of the rows of chunks c0:c1, one chunk
    per slot of ``part_count`` (n_chunks, n_classes) and ``part`` (n_chunks,
    n_classes, n_features)."""
    n_classes, n_features = part.shape[1], part.shape[2]
    for c in range(c0, c1):
        for k in range(n_classes):
            part_count[c, k] = 0.0
            for j in range(n_features):
                part[c, k, j] = 0.0
        for i in range(bounds[c], bounds[c + 1]):
            k = y_index[i]
            w = weight[i]
            part_count[c, k] += w
            for j in range(n_features):
                part[c, k, j] += w * X[i, j]


@njit(cache=True, nogil=True)
def _deviation_chunks(X, y_index, weight, mean, bounds, c0, c1, part):
    """Per-class weighted sums of squared deviations from ``mean`` of chunks c0:c1."""
    n_classes, n_features = part.shape[1], part.shape[2]
    for c in range(c0, c1):
        for k in range(n_classes):
            for j in range(n_features):
                part[c, k, j] = 0.0
        for i in range(bounds[c], bounds[c + 1]):
            k = y_index[i]
            w = weight[i]
            for j in range(n_features):
                d = X[i, j] - mean[k, j]
                part[c, k, j] += w * d * d


@njit(cache=True, nogil=True, parallel=True)
def _sum_chunks_parallel(X, y_index, weight, bounds, part_count, part):
    # the chunk bounds as intp, never the unsigned prange index: the serial and the
    # parallel path then share one compiled chunk function
    for c in prange(bounds.shape[0] - 1):
        c0 = np.intp(c)
        _sum_chunks(X, y_index, weight, bounds, c0, c0 + 1, part_count, part)


@njit(cache=True, nogil=True, parallel=True)
def _deviation_chunks_parallel(X, y_index, weight, mean, bounds, part):
    for c in prange(bounds.shape[0] - 1):
        c0 = np.intp(c)
        _deviation_chunks(X, y_index, weight, mean, bounds, c0, c0 + 1, part)


@njit(cache=True, nogil=True)
def class_weighted_moments(X, y_index, weight, n_classes, parallel=None):
    """Per-class weighted count, mean and sum of squared deviations of a block of rows.

    Parameters
    ----------
    X : float array (n_samples, n_features), C-contiguous.
    y_index : intp array (n_samples,), class index of each row in [0, n_classes).
    weight : float array (n_samples,), non-negative sample weights.
    n_classes : int
    parallel : None or True
        True: chunks run in parallel. None: one after the other, and numba
        leaves the parallel code out when it compiles (a small first fit does
        not pay for compiling it).

    Returns
    -------
    count : float64 (n_classes,), the summed weights.
    mean : float64 (n_classes, n_features), weighted means (0 for an empty class).
    m2 : float64 (n_classes, n_features), weighted sums of squared deviations from the mean.

    Two passes over the block (means, then deviations) for accuracy. Rows are cut
    into a number of chunks that depends only on n_samples and their partial sums
    are added in chunk order, so the result depends neither on ``parallel`` nor on
    the number of threads. Thread-safe; writes only its outputs.
    """
    n_samples, n_features = X.shape
    bounds = _chunk_bounds(n_samples)
    n_chunks = bounds.shape[0] - 1
    part_count = np.empty((n_chunks, n_classes))
    part = np.empty((n_chunks, n_classes, n_features))
    if parallel is None:
        _sum_chunks(X, y_index, weight, bounds, np.intp(0), n_chunks, part_count, part)
    else:
        _sum_chunks_parallel(X, y_index, weight, bounds, part_count, part)
    count = np.empty(n_classes)
    mean = np.empty((n_classes, n_features))
    for k in range(n_classes):
        total = 0.0
        for c in range(n_chunks):
            total += part_count[c, k]
        count[k] = total
        for j in range(n_features):
            s = 0.0
            for c in range(n_chunks):
                s += part[c, k, j]
            mean[k, j] = s / total if total > 0 else 0.0
    if parallel is None:
        _deviation_chunks(X, y_index, weight, mean, bounds, np.intp(0), n_chunks, part)
    else:
        _deviation_chunks_parallel(X, y_index, weight, mean, bounds, part)
    m2 = np.empty((n_classes, n_features))
    for k in range(n_classes):
        for j in range(n_features):
            s = 0.0
            for c in range(n_chunks):
                s += part[c, k, j]
            m2[k, j] = s
    return count, mean, m2


@njit(cache=True, nogil=True)
def _jll_rows(X, theta, inv_var, const, lo, hi, out):
    n_classes, n_features = theta.shape
    for i in range(lo, hi):
        for k in range(n_classes):
            s = 0.0
            for j in range(n_features):
                d = X[i, j] - theta[k, j]
                s += d * d * inv_var[k, j]
            out[i, k] = const[k] - 0.5 * s


@njit(cache=True, nogil=True, parallel=True)
def _jll_rows_parallel(X, theta, inv_var, const, out):
    n = X.shape[0]
    n_blocks = (n + 255) // 256
    for b in prange(n_blocks):
        lo = np.intp(b) * 256
        _jll_rows(X, theta, inv_var, const, lo, min(n, lo + 256), out)


@njit(cache=True, nogil=True)
def gaussian_joint_log_likelihood(X, theta, var, log_prior, parallel=None):
    """log P(c) + sum_j log N(x_j; theta_cj, var_cj) for every row and class.

    Parameters
    ----------
    X : float array (n_samples, n_features), C-contiguous.
    theta, var : float64 (n_classes, n_features); var > 0.
    log_prior : float64 (n_classes,).
    parallel : None or True
        True: blocks of rows in parallel; None: serially (and the parallel code
        is not compiled). The values are the same.

    Returns
    -------
    jll : float64 (n_samples, n_classes). Thread-safe.
    """
    n_samples, n_features = X.shape
    n_classes = theta.shape[0]
    inv_var = np.empty((n_classes, n_features))
    const = np.empty(n_classes)
    for k in range(n_classes):
        s = 0.0
        for j in range(n_features):
            inv_var[k, j] = 1.0 / var[k, j]
            s += math.log(2.0 * math.pi * var[k, j])
        const[k] = log_prior[k] - 0.5 * s
    out = np.empty((n_samples, n_classes))
    if parallel is None:
        _jll_rows(X, theta, inv_var, const, np.intp(0), n_samples, out)
    else:
        _jll_rows_parallel(X, theta, inv_var, const, out)
    return out
