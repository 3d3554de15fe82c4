"""numba kernels for kernel-density naive Bayes (seed 004, Parzen windows).

Binning of the training values on a grid with 8-point Lagrange weights (they
keep the first eight moments of every value, so that the FFT convolution of
the binned counts with the kernel is accurate to about 1e-9 relative), the
8-point Lagrange interpolation of the log kernel sums at the queries, and an
exact kernel sum over sorted training values that skips the terms negligible
next to the largest one.
"""

import math

import numpy as np

from .._kernels.jit import njit, prange

_LOG_SQRT_2PI = 0.5 * math.log(2.0 * math.pi)
ORDER = 8  # interpolation nodes; the query lies between nodes 3 and 4 of its stencil
_LEFT = ORDER // 2 - 1
_NEGLIGIBLE = -40.0  # log of a kernel term ratio below which terms are dropped (4e-18)
# barycentric constants 1 / prod_{l != m} (m - l) of the nodes 0..ORDER-1
_COEF = tuple(
    (-1.0) ** (ORDER - 1 - m) / (math.factorial(m) * math.factorial(ORDER - 1 - m))
    for m in range(ORDER)
)


@njit(cache=True, nogil=True)
def _lagrange_weights(f, w):
    """Weights of the nodes 0..ORDER-1 for the point ``_LEFT + f`` (0 <= f < 1):
    w_m = _COEF[m] prod_{l < m} (t - l) prod_{l > m} (t - l), by prefix and
    suffix products (no division)."""
    t = _LEFT + f
    prefix = 1.0
    for m in range(ORDER):
        w[m] = prefix
        prefix *= t - m
    suffix = 1.0
    for m in range(ORDER - 1, -1, -1):
        w[m] *= suffix * _COEF[m]
        suffix *= t - m


@njit(cache=True, nogil=True)
def bin_values(Xs, offsets, task_class, task_feature, lo, delta, counts):
    """Lagrange binning of each task's training values onto its grid.

    Parameters
    ----------
    Xs : float64 (n_features, n_training); the values of class k in
        ``offsets[k]:offsets[k + 1]`` of each row.
    task_class, task_feature : intp (n_tasks,); the density of each task.
    lo, delta : float64 (n_classes, n_features); first node and step.
    counts : float64 (n_tasks, L), zeros on entry; row t gets the binned
        counts (node g at column g). The grid must extend at least ORDER / 2
        nodes beyond the values on both sides.
    """
    w = np.empty(ORDER)
    for t in range(task_class.shape[0]):
        k = task_class[t]
        j = task_feature[t]
        low = lo[k, j]
        step = delta[k, j]
        for i in range(offsets[k], offsets[k + 1]):
            u = (Xs[j, i] - low) / step
            b = int(math.floor(u))
            _lagrange_weights(u - b, w)
            base = b - _LEFT
            for m in range(ORDER):
                counts[t, base + m] += w[m]


@njit(cache=True, nogil=True)
def _exact_log_kernel_sum(x, Xs, j, start, stop, h):
    """log sum_i exp(-(x - x_i)^2 / (2 h^2)) over the sorted values Xs[j, start:stop],
    from the nearest value outwards, until the terms fall below exp(-40) of the
    largest."""
    a = start
    b = stop
    while a < b:  # first index with Xs[j, index] >= x
        mid = (a + b) // 2
        if Xs[j, mid] < x:
            a = mid + 1
        else:
            b = mid
    nearest = math.inf
    if a < stop:
        nearest = Xs[j, a] - x
    if a > start and x - Xs[j, a - 1] < nearest:
        nearest = x - Xs[j, a - 1]
    top = -0.5 * (nearest / h) ** 2
    s = 0.0
    for i in range(a, stop):
        z = (Xs[j, i] - x) / h
        e = -0.5 * z * z - top
        if e < _NEGLIGIBLE:
            break
        s += math.exp(e)
    for i in range(a - 1, start - 1, -1):
        z = (x - Xs[j, i]) / h
        e = -0.5 * z * z - top
        if e < _NEGLIGIBLE:
            break
        s += math.exp(e)
    return top + math.log(s)


@njit(cache=True, nogil=True, parallel=True)
def kde_joint_log_likelihood(
    X, Xs, offsets, bandwidth, log_grid, grid_start, grid_len, lo, delta, log_prior
):
    """log P(k) + sum_j log f_kj(x_j), f_kj a 1-D Gaussian kernel density estimate.

    Parameters
    ----------
    X : float64 (n_samples, n_features), C-contiguous; the query rows.
    Xs : float64 (n_features, n_training), C-contiguous; training columns, the
        values of class k in ``offsets[k]:offsets[k + 1]`` (intp, n_classes + 1),
        sorted within each class.
    bandwidth, lo, delta : float64 (n_classes, n_features); kernel standard
        deviation, first grid node and grid step.
    log_grid : float64 (total nodes,); the grids of all densities end to end:
        density (k, j) has ``grid_len[k, j]`` nodes (0: no grid) from
        ``grid_start[k, j]``, holding the log of the kernel sums
        ``sum_i exp(-(g - x_i)^2 / (2 h^2))`` at the nodes (-inf: not trusted).
    log_prior : float64 (n_classes,).

    Where the ORDER nodes around x are all trusted, log f is their Lagrange
    interpolation; elsewhere (off the grid, tails, no grid) the kernel sum is
    exact.

    Returns
    -------
    jll : float64 (n_samples, n_classes). Parallel over rows; thread-safe.
    """
    n_samples, n_features = X.shape
    n_classes = offsets.shape[0] - 1
    out = np.empty((n_samples, n_classes))
    for i in prange(n_samples):
        w = np.empty(ORDER)
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
                n_nodes = grid_len[k, j]
                if n_nodes > 0:
                    u = (x - lo[k, j]) / delta[k, j]
                    if u >= _LEFT and u < n_nodes - ORDER + _LEFT + 1:
                        b = int(u)
                        _lagrange_weights(u - b, w)
                        first = grid_start[k, j] + b - _LEFT
                        done = True
                        for m in range(ORDER):
                            a = log_grid[first + m]
                            if a == -math.inf:
                                done = False
                                break
                            value += w[m] * a
                if not done:
                    value = _exact_log_kernel_sum(x, Xs, j, start, stop, h)
                total += value - log_n - math.log(h) - _LOG_SQRT_2PI
            out[i, k] = total
    return out
