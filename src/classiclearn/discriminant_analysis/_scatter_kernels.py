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


