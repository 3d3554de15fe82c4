"""numba helpers of the coordinate-wise solvers (LinearSVC's, liblinear-style logistic
regression): a small xorshift generator and its shuffle, the optimality violation and
shrinking test of an L1-penalised coordinate, and column access to the samples, dense
(transposed, one feature per row) or CSC.

The column helpers serve dense samples (the CSC arrays None) and sparse ones (the dense
array None). Each branch tests the argument it reads against None: numba then compiles
each version without the other's branch (a test on the other, non-None argument would
keep both, and a runtime test makes the passes several times slower).
"""

import numpy as np

from .jit import njit


@njit(nogil=True, cache=True)
def xorshift(state):
    """The next number of the xorshift generator whose state is ``state[0]`` (uint64)."""
    x = state[0]
    x ^= (x << np.uint64(13)) & np.uint64(0xFFFFFFFFFFFFFFFF)
    x ^= x >> np.uint64(7)
    x ^= (x << np.uint64(17)) & np.uint64(0xFFFFFFFFFFFFFFFF)
    state[0] = x
    return x


@njit(nogil=True, cache=True)
def shuffle(a, n, state):
    """Shuffle ``a[:n]`` in place (Fisher-Yates on :func:`xorshift`)."""
    for k in range(n - 1, 0, -1):
        r = np.intp(xorshift(state) % np.uint64(k + 1))
        tmp = a[k]
        a[k] = a[r]
        a[r] = tmp


@njit(nogil=True, cache=True, inline="always")
def l1_violation(g, wj):
    """Distance of 0 from the subdifferential of ``g wj + |wj|`` in ``wj`` (the
    optimality violation of one coordinate of an L1-penalised problem)."""
    gp = g + 1.0
    gn = g - 1.0
    if wj > 0.0:
        return abs(gp)
    if wj < 0.0:
        return abs(gn)
    if gp < 0.0:
        return -gp
    if gn > 0.0:
        return gn
    return 0.0


@njit(nogil=True, cache=True, inline="always")
def l1_shrinkable(g, wj, gmax_old, n):
    """Whether a feature leaves the active set of an L1 coordinate descent: at zero,
    its loss gradient ``g`` well inside the penalty's reach (by the last pass's largest
    violation over the n samples, as liblinear shrinks)."""
    return wj == 0.0 and g + 1.0 > gmax_old / n and g - 1.0 < -gmax_old / n


@njit(nogil=True, cache=True, inline="always")
def column_span(XT, indptr, j, n):
    """The entries of column j: (start, stop) in the CSC arrays, or (0, n) dense."""
    if indptr is not None:
        return indptr[j], indptr[j + 1]
    return np.uintp(0), np.uintp(n)


@njit(nogil=True, cache=True, inline="always")
def column_entry(XT, indices, data, j, t):
    """(row, value) of entry t of column j (dense: row t of ``XT[j]``)."""
    if XT is not None:
        return t, XT[j, t]
    if indices is not None:
        return indices[t], data[t]
    return np.uintp(0), 0.0  # no samples: never reached


@njit(nogil=True, cache=True)
def dense_to_csc(X, extra_column):
    """CSC arrays (indptr uintp, indices uint32, data) of the non-zero entries of
    the dense 2-d ``X``, rows in order within each column, and when ``extra_column`` is
    non-zero one more column holding that value in every row; two passes over X.

    Examples
    --------
    >>> import numpy as np
    >>> indptr, indices, data = dense_to_csc(np.array([[0.0, 2.0], [3.0, 0.0]]), 1.0)
    >>> indptr.tolist(), indices.tolist(), data.tolist()
    ([0, 1, 2, 4], [1, 0, 0, 1], [3.0, 2.0, 1.0, 1.0])
    """
    n, p = X.shape
    extra = 1 if extra_column != 0.0 else 0
    indptr = np.zeros(p + extra + 1, dtype=np.uintp)
    for i in range(n):
        for j in range(p):
            if X[i, j] != 0.0:
                indptr[j + 1] += 1
    if extra:
        indptr[p + 1] = n
    for j in range(p + extra):
        indptr[j + 1] += indptr[j]
    nnz = indptr[p + extra]
    indices = np.empty(nnz, dtype=np.uint32)
    data = np.empty(nnz)
    fill = indptr[:p].copy()
    for i in range(n):
        for j in range(p):
            x = X[i, j]
            if x != 0.0:
                q = fill[j]
                indices[q] = i
                data[q] = x
                fill[j] = q + 1
    if extra:
        start = indptr[p]
        for i in range(n):
            indices[start + i] = i
            data[start + i] = extra_column
    return indptr, indices, data
