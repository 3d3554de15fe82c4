"""numba kernels for discriminant analysis: per-class means in one sweep over the rows."""

import numpy as np
from numba import njit


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
def class_scatter(X, y_index, means, pooled):
    """Centred scatter matrices, one rank-one update per row (no BLAS threads).

    Parameters
    ----------
    X : float64 (n_samples, n_features), C-contiguous.
    y_index : intp (n_samples,), values in [0, n_classes).
    means : float64 (n_classes, n_features), the class means.
    pooled : bool; if True, one matrix summed over the classes.

    Returns
    -------
    scatter : float64 (n_classes or 1, n_features, n_features), symmetric;
        ``sum (x_i - m_k)(x_i - m_k)^T`` over the rows of class k.

    Serial over rows (reproducible); the inner update is a contiguous axpy
    that LLVM vectorises. Meant for moderate n_features (the caller uses BLAS
    for wide data). Thread-safe.
    """
    n_samples, n_features = X.shape
    n_out = 1 if pooled else means.shape[0]
    S = np.zeros((n_out, n_features, n_features))
    c = np.empty(n_features)
    for i in range(n_samples):
        k = y_index[i]
        out = 0 if pooled else k
        for j in range(n_features):
            c[j] = X[i, j] - means[k, j]
        for j in range(n_features):
            cj = c[j]
            for m in range(j, n_features):
                S[out, j, m] += cj * c[m]
    for o in range(n_out):
        for j in range(n_features):
            for m in range(j + 1, n_features):
                S[o, m, j] = S[o, j, m]
    return S
