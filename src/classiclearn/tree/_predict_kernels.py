"""Walking fitted trees: leaves, predictions and decision paths, vectorised over rows.

Walks read ``packed``, one 32-byte record per node with fields ``left``,
``right``, ``feature`` (intp) and ``threshold`` (float64) (left < 0 at leaves;
a sample goes left when ``x[feature] <= threshold``), and ``value`` float64 (n_nodes, V). X is float32,
C-contiguous. Forests pass their trees' records concatenated, child indices
local to each tree, and ``roots`` the index of each tree's root. The kernels are
serial and release the GIL; ``_tree.walk_rows`` runs row chunks in Python
threads (dynamic scheduling: robust on a loaded machine, where numba's static
``prange`` split was slower than one thread). Each chunk is walked tree-major,
each row summing the trees in their fixed order, so results do not depend on
the thread count.
"""

import numpy as np
from numba import njit


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


@njit(cache=True, nogil=True)
def apply_trees(X, packed, roots, lo, hi, out):
    """Leaf index (global) of rows ``lo:hi`` in every tree, into ``out`` (n_samples, n_trees).

    Tree-major: one tree's nodes stay in cache while all the rows go through
    it. Serial and GIL-free; callers run row chunks in threads.
    """
    t = roots.shape[0]
    for k in range(t):
        r = roots[k]
        for i in range(lo, hi):
            out[i, k] = _leaf(X, i, r, packed)


@njit(cache=True, nogil=True)
def sum_value(X, packed, value, roots, hard, n_classes, lo, hi, out):
    """Add, for rows ``lo:hi``, every tree's leaf value into ``out`` (n_samples, V).

    With ``hard``, each tree contributes a one-hot vote for its leaf's first
    largest class per output instead of its value (hard voting). Tree-major
    (one tree's nodes stay in cache for all the rows); each row sums the trees
    in their fixed order, so the result does not depend on how rows are cut
    into chunks. Serial and GIL-free; callers run row chunks in threads.
    """
    t = roots.shape[0]
    v = value.shape[1]
    n_outputs = n_classes.shape[0]
    K = v // n_outputs
    for k in range(t):
        r = roots[k]
        if hard:
            for i in range(lo, hi):
                leaf = _leaf(X, i, r, packed)
                for o in range(n_outputs):
                    best = 0
                    for cl in range(1, n_classes[o]):
                        if value[leaf, o * K + cl] > value[leaf, o * K + best]:
                            best = cl
                    out[i, o * K + best] += 1.0
        elif v == 1:
            for i in range(lo, hi):
                out[i, 0] += value[_leaf(X, i, r, packed), 0]
        else:
            for i in range(lo, hi):
                leaf = _leaf(X, i, r, packed)
                for j in range(v):
                    out[i, j] += value[leaf, j]


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
