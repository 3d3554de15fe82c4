"""Walking fitted trees: leaves, predictions and decision paths, vectorised over rows.

Node arrays as built by ``_build_kernels``: ``left``, ``right``, ``feature``
intp, ``threshold`` float64 (a sample goes left when ``x[feature] <=
threshold``), ``value`` float64 (n_nodes, V). X is float32, C-contiguous.
Forests pass their trees' node arrays concatenated, child indices already
offset, and ``roots`` the index of each tree's root. Outer loops run over rows
with ``prange``; each output element is written by one iteration, summing the
trees in their fixed order, so results do not depend on the thread count.
"""

import numpy as np
from numba import njit, prange


@njit(cache=True, nogil=True)
def _leaf(X, i, node, left, right, feature, threshold):
    while left[node] >= 0:
        if X[i, feature[node]] <= threshold[node]:
            node = left[node]
        else:
            node = right[node]
    return node


@njit(cache=True, nogil=True)
def apply_tree(X, left, right, feature, threshold):
    """Leaf index of every row in one tree (serial; callers may run it in threads)."""
    n = X.shape[0]
    out = np.empty(n, dtype=np.intp)
    for i in range(n):
        out[i] = _leaf(X, i, 0, left, right, feature, threshold)
    return out


@njit(cache=True, parallel=True)
def apply_trees(X, left, right, feature, threshold, roots):
    """Leaf index (global) of every row in every tree: array (n_samples, n_trees)."""
    n = X.shape[0]
    t = roots.shape[0]
    out = np.empty((n, t), dtype=np.intp)
    for i in prange(n):
        for k in range(t):
            out[i, k] = _leaf(X, i, roots[k], left, right, feature, threshold)
    return out


@njit(cache=True, parallel=True)
def mean_value(X, left, right, feature, threshold, value, roots):
    """Mean over trees of the leaf value of each row: array (n_samples, V)."""
    n = X.shape[0]
    t = roots.shape[0]
    v = value.shape[1]
    out = np.zeros((n, v))
    for i in prange(n):
        for k in range(t):
            leaf = _leaf(X, i, roots[k], left, right, feature, threshold)
            for j in range(v):
                out[i, j] += value[leaf, j]
        for j in range(v):
            out[i, j] /= t
    return out


@njit(cache=True, parallel=True)
def vote_fractions(X, left, right, feature, threshold, value, roots, n_classes):
    """Hard voting: fraction of trees whose leaf picks each class (first maximum),
    per output: array (n_samples, n_outputs * K)."""
    n = X.shape[0]
    t = roots.shape[0]
    n_outputs = n_classes.shape[0]
    K = value.shape[1] // n_outputs
    out = np.zeros((n, value.shape[1]))
    for i in prange(n):
        for k in range(t):
            leaf = _leaf(X, i, roots[k], left, right, feature, threshold)
            for o in range(n_outputs):
                best = 0
                for c in range(1, n_classes[o]):
                    if value[leaf, o * K + c] > value[leaf, o * K + best]:
                        best = c
                out[i, o * K + best] += 1.0
        for j in range(value.shape[1]):
            out[i, j] /= t
    return out


@njit(cache=True, nogil=True)
def path_indicator(X, left, right, feature, threshold, root):
    """CSR pieces (indptr, indices) of the nodes each row visits in one tree."""
    n = X.shape[0]
    indptr = np.zeros(n + 1, dtype=np.intp)
    for i in range(n):
        node = root
        c = 1
        while left[node] >= 0:
            if X[i, feature[node]] <= threshold[node]:
                node = left[node]
            else:
                node = right[node]
            c += 1
        indptr[i + 1] = indptr[i] + c
    indices = np.empty(indptr[n], dtype=np.intp)
    for i in range(n):
        node = root
        p = indptr[i]
        indices[p] = node - root
        while left[node] >= 0:
            if X[i, feature[node]] <= threshold[node]:
                node = left[node]
            else:
                node = right[node]
            p += 1
            indices[p] = node - root
    return indptr, indices
