"""numba kernels for kernel-density naive Bayes: joint log-likelihoods from grids or exact sums."""

import math

import numpy as np
from numba import njit, prange

_LOG_SQRT_2PI = 0.5 * math.log(2.0 * math.pi)


@njit(cache=True, nogil=True)
def _exact_log_kernel_sum(x, Xt, j, start, stop, h):
    nearest = math.inf
    for t in range(start, stop):
        z = abs(x - Xt[j, t])
        if z < nearest:
            nearest = z
    top = -0.5 * (nearest / h) ** 2
    s = 0.0
    for t in range(start, stop):
        z = (x - Xt[j, t]) / h
        s += math.exp(-0.5 * z * z - top)
    return top + math.log(s)


@njit(cache=True, nogil=True, parallel=True)
def kde_joint_log_likelihood(
    X, Xt, offsets, bandwidth, log_grid, lo, delta, use_grid, log_prior, min_log_grid
):
    """log P(k) + sum_j log f_kj(x_j), f_kj a 1-D Gaussian kernel density estimate.

    Parameters
    ----------
    X : float64 (n_samples, n_features), C-contiguous; the query rows.
    Xt : float64 (n_features, n_training), C-contiguous; training columns, the
        rows of class k in ``offsets[k]:offsets[k + 1]`` (intp, n_classes + 1).
    bandwidth, lo, delta : float64 (n_classes, n_features); kernel standard
        deviation, first grid node and grid step.
    use_grid : bool (n_classes, n_features); whether that density has a grid.
    log_grid : float64 (n_classes, n_features, grid_size); log of the kernel
        sums ``sum_i exp(-(g - x_i)^2 / (2 h^2))`` at the grid nodes (-inf: unknown).
    log_prior : float64 (n_classes,).
    min_log_grid : float; grid values are trusted (log-linear interpolation)
        only when both neighbouring nodes exceed it; elsewhere, and when
        ``use_grid`` is False or x lies off the grid, the kernel sum is exact
        (log-sum-exp over the class's training values).

    Returns
    -------
    jll : float64 (n_samples, n_classes). Parallel over rows; thread-safe.
    """
    n_samples, n_features = X.shape
    n_classes = offsets.shape[0] - 1
    grid_size = log_grid.shape[2]
    out = np.empty((n_samples, n_classes))
    for i in prange(n_samples):
        for k in range(n_classes):
            start = offsets[k]
            stop = offsets[k + 1]
            log_n = math.log(stop - start)
            total = log_prior[k]
            for j in range(n_features):
                x = X[i, j]
                h = bandwidth[k, j]
                done = False
                value = 0.0
                if use_grid[k, j]:
                    u = (x - lo[k, j]) / delta[k, j]
                    if u >= 0.0 and u <= grid_size - 1:
                        b = int(u)
                        if b >= grid_size - 1:
                            b = grid_size - 2
                        f = u - b
                        a0 = log_grid[k, j, b]
                        a1 = log_grid[k, j, b + 1]
                        if a0 > min_log_grid and a1 > min_log_grid:
                            value = (1.0 - f) * a0 + f * a1
                            done = True
                if not done:
                    value = _exact_log_kernel_sum(x, Xt, j, start, stop, h)
                total += value - log_n - math.log(h) - _LOG_SQRT_2PI
            out[i, k] = total
    return out
