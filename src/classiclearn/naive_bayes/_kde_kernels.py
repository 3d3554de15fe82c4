"""numba kernels for kernel-density naive Bayes: binned density grids and log-likelihoods."""

import math

import numpy as np
from numba import njit, prange

_LOG_SQRT_2PI = 0.5 * math.log(2.0 * math.pi)


@njit(cache=True, nogil=True, parallel=True)
def build_log_density_grids(Xt, offsets, bandwidth, lo, delta, use_grid, grid_size, cutoff):
    """Log of the unnormalised Gaussian kernel sums on a regular grid, per class and feature.

    Parameters
    ----------
    Xt : float64 (n_features, n_samples), C-contiguous; training columns, rows of
        class k in ``offsets[k]:offsets[k + 1]``.
    offsets : intp (n_classes + 1,).
    bandwidth, lo, delta : float64 (n_classes, n_features); kernel standard
        deviation, first grid node and grid step. Every training value lies in
        ``[lo, lo + (grid_size - 1) * delta]``.
    use_grid : bool (n_classes, n_features); grids not wanted are left at -inf.
    grid_size : int >= 2.
    cutoff : float; kernel truncated at ``cutoff * bandwidth``.

    Returns
    -------
    log_grid : float64 (n_classes, n_features, grid_size);
        ``log sum_i exp(-(g - x_i)^2 / (2 h^2))`` with the x_i linearly binned to
        the two nearest nodes; -inf where the sum is 0. Parallel over (class,
        feature) grids, each computed by one thread; thread-safe.
    """
    n_features = Xt.shape[0]
    n_classes = offsets.shape[0] - 1
    out = np.full((n_classes, n_features, grid_size), -np.inf)
    for task in prange(n_classes * n_features):
        k = task // n_features
        j = task % n_features
        if not use_grid[k, j]:
            continue
        d = delta[k, j]
        h = bandwidth[k, j]
        counts = np.zeros(grid_size)
        for i in range(offsets[k], offsets[k + 1]):
            u = (Xt[j, i] - lo[k, j]) / d
            b = int(math.floor(u))
            f = u - b
            if b < 0:
                b = 0
                f = 0.0
            if b >= grid_size - 1:
                b = grid_size - 2
                f = 1.0
            counts[b] += 1.0 - f
            counts[b + 1] += f
        m = int(math.ceil(cutoff * h / d))
        if m > grid_size - 1:
            m = grid_size - 1
        w = np.empty(2 * m + 1)
        for r in range(-m, m + 1):
            z = r * d / h
            w[r + m] = math.exp(-0.5 * z * z)
        for g in range(grid_size):
            a = max(0, g - m)
            e = min(grid_size - 1, g + m)
            s = 0.0
            for q in range(a, e + 1):
                c = counts[q]
                if c != 0.0:
                    s += c * w[q - g + m]
            if s > 0.0:
                out[k, j, g] = math.log(s)
    return out


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
    Xt, offsets, bandwidth, lo, delta, use_grid : as in :func:`build_log_density_grids`.
    log_grid : float64 (n_classes, n_features, grid_size), from that function.
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
