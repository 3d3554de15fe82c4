"""numba kernels for discriminant analysis: per-class means in one sweep over the rows."""

import numpy as np

from .._kernels.jit import njit


@njit(cache=True, nogil=True)
def class_means(X, y_index, n_classes):
    """Per-class counts and means, refined by a second pass over the residuals.

    Parameters
    ----------
    X : float64 (n_samples, n_features), C-contiguous.
    y_index : intp (n_samples,), values in [0, n_classes).
    n_classes : int

    Returns
    -------
    counts : intp (n_classes,)
    means : float64 (n_classes, n_features); 0 for an empty class.

    Rows are summed in order (serial), so the result is reproducible; the
    second pass adds the mean residual, which makes the mean accurate to a
    few ulps even when the features have a large offset. Thread-safe.
    """
    n_samples, n_features = X.shape
    counts = np.zeros(n_classes, dtype=np.intp)
    sums = np.zeros((n_classes, n_features))
    for i in range(n_samples):
        k = y_index[i]
        counts[k] += 1
        for j in range(n_features):
            sums[k, j] += X[i, j]
    means = np.zeros((n_classes, n_features))
    for k in range(n_classes):
        if counts[k] > 0:
            for j in range(n_features):
                means[k, j] = sums[k, j] / counts[k]
    resid = np.zeros((n_classes, n_features))
    for i in range(n_samples):
        k = y_index[i]
        for j in range(n_features):
            resid[k, j] += X[i, j] - means[k, j]
    for k in range(n_classes):
        if counts[k] > 0:
            for j in range(n_features):
                means[k, j] += resid[k, j] / counts[k]
    return counts, means




@njit(cache=True, nogil=True)
def class_order(y_index, counts):
    """Row indices grouped by class (a stable counting sort).

    Returns
    -------
    order : intp (n_samples,)
        Rows of class 0 first, each class in the original row order.
    bounds : intp (n_classes + 1,)
        Class k occupies ``order[bounds[k]:bounds[k + 1]]``.
    """
    n_classes = counts.shape[0]
    bounds = np.zeros(n_classes + 1, dtype=np.intp)
    for k in range(n_classes):
        bounds[k + 1] = bounds[k] + counts[k]
    fill = bounds[:n_classes].copy()
    order = np.empty(y_index.shape[0], dtype=np.intp)
    for i in range(y_index.shape[0]):
        k = y_index[i]
        order[fill[k]] = i
        fill[k] += 1
    return order, bounds


@njit(cache=True, nogil=True)
def gather_rows(X, rows, out):
    """``out[r] = X[rows[r]]`` (one class block, copied), returning its column sums.

    ``out`` has shape (len(rows), n_features), C-contiguous; never writes X.
    The sums are accumulated in row order (reproducible).
    """
    n_features = X.shape[1]
    sums = np.zeros(n_features)
    for r in range(rows.shape[0]):
        i = rows[r]
        for j in range(n_features):
            v = X[i, j]
            out[r, j] = v
            sums[j] += v
    return sums


@njit(cache=True, nogil=True)
def centre_rows(block, mean):
    """Subtract ``mean`` from every row of ``block`` in place (a buffer of ours,
    never an input), returning the column sums of the centred rows."""
    n_rows, n_features = block.shape
    resid = np.zeros(n_features)
    for r in range(n_rows):
        for j in range(n_features):
            v = block[r, j] - mean[j]
            block[r, j] = v
            resid[j] += v
    return resid


@njit(cache=True, nogil=True)
def quadratic_scores(Z, shifts, offsets, out, start):
    """Discriminant scores of QDA from whitened coordinates of a row block.

    ``Z[i, k * p + j]`` is the j-th whitened coordinate of row i for class k
    (before the shift); row ``start + i`` of ``out`` gets, for each class k,
    ``-0.5 * ||Z_k[i] - shifts[k]||^2 + offsets[k]``.
    """
    n_rows = Z.shape[0]
    n_classes, p = shifts.shape
    for i in range(n_rows):
        for k in range(n_classes):
            base = k * p
            acc = 0.0
            for j in range(p):
                d = Z[i, base + j] - shifts[k, j]
                acc += d * d
            out[start + i, k] = offsets[k] - 0.5 * acc
