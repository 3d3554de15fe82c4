"""Walking fitted trees: leaves, predictions and decision paths, vectorised over rows.

Walks read ``packed``, one 32-byte record per node with fields ``left``,
``right``, ``feature`` (intp) and ``threshold`` (float64) (left < 0 at leaves;
a sample goes left when ``x[feature] <= threshold``), and ``value`` float64 (n_nodes, V). X is float32,
C-contiguous. Forests pass their trees' records concatenated, child indices
local to each tree, and ``roots`` the index of each tree's root. Outer loops run over rows
with ``prange``; each output element is written by one iteration, summing the
trees in their fixed order, so results do not depend on the thread count.
"""

import numpy as np
from numba import njit, prange

_BLOCK = 256


@njit(cache=True, nogil=True)
def _leaf(X, i, root, packed):
    # packed[root + node] = (left, right, feature, threshold), children local to
    # the tree; left < 0 at leaves. Returns the global index of the leaf.
    node = root
    while True:
        rec = packed[node]
        if rec.left < 0:
            return node
        if X[i, rec.feature] <= rec.threshold:
            node = root + rec.left
        else:
            node = root + rec.right


@njit(cache=True, nogil=True)
def apply_tree(X, packed):
    """Leaf index of every row in one tree (serial; callers may run it in threads)."""
    n = X.shape[0]
    out = np.empty(n, dtype=np.intp)
    for i in range(n):
        out[i] = _leaf(X, i, 0, packed)
    return out


@njit(cache=True, parallel=True)
def apply_trees(X, packed, roots):
    """Leaf index (global) of every row in every tree: array (n_samples, n_trees)."""
    n = X.shape[0]
    t = roots.shape[0]
    out = np.empty((n, t), dtype=np.intp)
    n_blocks = (n + _BLOCK - 1) // _BLOCK
    for blk in prange(n_blocks):
        lo = blk * _BLOCK
        hi = min(n, lo + _BLOCK)
        for k in range(t):
            for i in range(lo, hi):
                out[i, k] = _leaf(X, i, roots[k], packed)
    return out


@njit(cache=True, parallel=True)
def mean_value(X, packed, value, roots, hard, n_classes):
    """Mean over trees of the leaf value of each row: array (n_samples, V).

    With ``hard``, each tree contributes a one-hot vote for its leaf's first
    largest class per output instead of its value (hard voting). Rows are cut
    into blocks walked tree by tree (the tree's upper nodes stay in cache);
    each row sums the trees in their fixed order.
    """
    n = X.shape[0]
    t = roots.shape[0]
    v = value.shape[1]
    n_outputs = n_classes.shape[0]
    K = v // n_outputs
    out = np.zeros((n, v))
    n_blocks = (n + _BLOCK - 1) // _BLOCK
    for blk in prange(n_blocks):
        lo = blk * _BLOCK
        hi = min(n, lo + _BLOCK)
        for k in range(t):
            for i in range(lo, hi):
                leaf = _leaf(X, i, roots[k], packed)
                if hard:
                    for o in range(n_outputs):
                        best = 0
                        for c in range(1, n_classes[o]):
                            if value[leaf, o * K + c] > value[leaf, o * K + best]:
                                best = c
                        out[i, o * K + best] += 1.0
                else:
                    for j in range(v):
                        out[i, j] += value[leaf, j]
        for i in range(lo, hi):
            for j in range(v):
                out[i, j] /= t
    return out


@njit(cache=True, nogil=True)
def path_indicator(X, packed):
    """CSR pieces (indptr, indices) of the nodes each row visits in one tree."""
    n = X.shape[0]
    indptr = np.zeros(n + 1, dtype=np.intp)
    for i in range(n):
        node = 0
        c = 1
        while packed[node].left >= 0:
            rec = packed[node]
            node = rec.left if X[i, rec.feature] <= rec.threshold else rec.right
            c += 1
        indptr[i + 1] = indptr[i] + c
    indices = np.empty(indptr[n], dtype=np.intp)
    for i in range(n):
        node = 0
        p = indptr[i]
        indices[p] = 0
        while packed[node].left >= 0:
            rec = packed[node]
            node = rec.left if X[i, rec.feature] <= rec.threshold else rec.right
            p += 1
            indices[p] = node
    return indptr, indices
