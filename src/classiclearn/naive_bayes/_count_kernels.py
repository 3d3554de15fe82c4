"""numba kernels for the naive Bayes models of counts: per-class sums and joint
log-likelihoods on dense, CSR and integer-category input."""

import numpy as np

from .._kernels.jit import njit, prange


@njit(cache=True, nogil=True)
def class_feature_sums_dense(X, y_index, weight, n_classes):
    """Weighted sum of each feature over the rows of each class.

    Parameters
    ----------
    X : float64 array (n_samples, n_features), C-contiguous.
    y_index : intp array (n_samples,), class index of each row in [0, n_classes).
    weight : float64 array (n_samples,).
    n_classes : int

    Returns
    -------
    sums : float64 (n_classes, n_features), a new array.
    smallest : float, the smallest entry of X (0.0 when X is empty), so the
        caller can refuse negative input without a second pass.

    Serial: rows are added in order, so the result never depends on threads.
    """
    n_samples, n_features = X.shape
    sums = np.zeros((n_classes, n_features))
    smallest = 0.0
    for i in range(n_samples):
        c = y_index[i]
        w = weight[i]
        for j in range(n_features):
            v = X[i, j]
            if v < smallest:
                smallest = v
            sums[c, j] += w * v
    return sums, smallest


@njit(cache=True, nogil=True)
def class_feature_sums_csr(data, indices, indptr, y_index, weight, n_classes, n_features):
    """CSR twin of :func:`class_feature_sums_dense`: one pass over the stored values.

    Parameters
    ----------
    data : float64 array (nnz,); indices, indptr : integer arrays of a CSR matrix
        (duplicates are summed, unsorted indices are fine).
    y_index, weight, n_classes : as in :func:`class_feature_sums_dense`.
    n_features : int

    Returns
    -------
    sums : float64 (n_classes, n_features), a new array.
    smallest : float, the smallest stored value (0.0 when none is negative).
    """
    n_samples = indptr.shape[0] - 1
    sums = np.zeros((n_classes, n_features))
    smallest = 0.0
    for i in range(n_samples):
        c = y_index[i]
        w = weight[i]
        for p in range(indptr[i], indptr[i + 1]):
            v = data[p]
            if v < smallest:
                smallest = v
            sums[c, indices[p]] += w * v
    return sums, smallest


@njit(cache=True, nogil=True)
def class_category_counts(X, y_index, weight, offsets, n_classes):
    """Weighted count of each (class, feature, category) triple.

    Parameters
    ----------
    X : intp array (n_samples, n_features), categories, 0 <= X[i, j] < n_j.
    y_index, weight, n_classes : as in :func:`class_feature_sums_dense`.
    offsets : intp array (n_features + 1,), ``offsets[j]`` is where feature j's
        categories start in the flat layout (``offsets[j + 1] - offsets[j] = n_j``).

    Returns
    -------
    float64 (n_classes, offsets[-1]): column ``offsets[j] + c`` counts category c
    of feature j. A new array.
    """
    n_samples, n_features = X.shape
    counts = np.zeros((n_classes, offsets[n_features]))
    for i in range(n_samples):
        k = y_index[i]
        w = weight[i]
        for j in range(n_features):
            counts[k, offsets[j] + X[i, j]] += w
    return counts


@njit(cache=True, nogil=True, parallel=True)
def categorical_joint_log_likelihood(X, flat_log_prob, offsets, log_prior):
    """Σ_j log P(x_j | k) + log P(k) for each row and class.

    Parameters
    ----------
    X : intp array (n_samples, n_features), categories within range.
    flat_log_prob : float64 (n_classes, offsets[-1]), in the layout of
        :func:`class_category_counts`.
    offsets : intp array (n_features + 1,).
    log_prior : float64 (n_classes,).

    Returns
    -------
    float64 (n_samples, n_classes), a new array; rows run in parallel, each sum in
    feature order.
    """
    n_samples, n_features = X.shape
    n_classes = flat_log_prob.shape[0]
    out = np.empty((n_samples, n_classes))
    for i in prange(n_samples):
        for k in range(n_classes):
            total = 0.0
            for j in range(n_features):
                total += flat_log_prob[k, offsets[j] + X[i, j]]
            out[i, k] = total + log_prior[k]
    return out
