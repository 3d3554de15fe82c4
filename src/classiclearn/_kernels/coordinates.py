"""numba helpers of the coordinate-wise solvers (LinearSVC's, liblinear-style logistic
regression): a small xorshift generator and its shuffle, the optimality violation and
shrinking test of an L1-penalised coordinate, and column access to the samples, dense
(transposed, one feature per row) or CSC, and the CSC arrays those take, built from
dense X (:func:`dense_to_csc`) or CSR X (:func:`csr_to_csc`).

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


@njit(cache=True, nogil=True)
def _column_starts(counts, extra, extra_rows):
    """CSC indptr (uintp, p + 1, and with ``extra`` one more column of ``extra_rows``
    entries) from the column counts (p,), each count replaced by where its column
    starts."""
    p = counts.shape[0]
    out_indptr = np.empty(p + extra + 1, dtype=np.uintp)
    total = np.uintp(0)
    for j in range(p):
        out_indptr[j] = total
        c = counts[j]
        counts[j] = total
        total += c
    out_indptr[p] = total
    if extra:
        out_indptr[p + 1] = total + np.uintp(extra_rows)
    return out_indptr


@njit(cache=True, nogil=True)
def _constant_column(out_indptr, p, n, value, out_indices, out_data):
    """Column p of the CSC arrays: ``value`` in every one of the n rows."""
    start = out_indptr[p]
    for i in range(np.uintp(n)):
        out_indices[start + i] = i
        out_data[start + i] = value


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
    counts = np.zeros(p, dtype=np.uintp)
    for i in range(n):
        for j in range(p):
            if X[i, j] != 0.0:
                counts[j] += np.uintp(1)
    extra = 1 if extra_column != 0.0 else 0
    indptr = _column_starts(counts, extra, n)
    nnz = indptr[indptr.shape[0] - 1]
    indices = np.empty(nnz, dtype=np.uint32)
    data = np.empty(nnz)
    for i in range(n):
        for j in range(p):
            x = X[i, j]
            if x != 0.0:
                q = counts[j]
                indices[q] = i
                data[q] = x
                counts[j] = q + np.uintp(1)
    if extra:
        _constant_column(indptr, p, n, extra_column, indices, data)
    return indptr, indices, data


@njit(cache=True, nogil=True)
def csr_rows_column_counts(indptr, indices, lo, hi, counts):
    """Add to ``counts`` (p,) the stored entries of each column in the CSR rows
    ``lo <= i < hi``."""
    for q in range(np.uintp(indptr[lo]), np.uintp(indptr[hi])):
        counts[np.uintp(indices[q])] += np.uintp(1)


@njit(cache=True, nogil=True)
def csr_rows_place(indptr, indices, data, lo, hi, fill, out_indices, out_data):
    """Write the CSR rows ``lo <= i < hi`` into the CSC arrays, column j from position
    ``fill[j]`` on (advanced as it goes): rows in order, so each column's rows come
    sorted."""
    for i in range(np.uintp(lo), np.uintp(hi)):
        for q in range(np.uintp(indptr[i]), np.uintp(indptr[i + 1])):
            j = np.uintp(indices[q])
            t = fill[j]
            out_indices[t] = i
            out_data[t] = data[q]
            fill[j] = t + np.uintp(1)


@njit(cache=True, nogil=True)
def csr_to_csc(indptr, indices, data, p, extra_value):
    """CSC arrays (indptr uintp, indices uint32, data float64) of the CSR matrix with
    ``p`` columns, each column's rows in order, and when ``extra_value`` is non-zero one
    more column holding it in every row; a counting sort, one pass to count and one to
    place. The rows must number fewer than 2**32.

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp
    >>> X = sp.csr_array(np.array([[1.0, 0.0, 2.0], [0.0, 3.0, 1.0]]))
    >>> out = csr_to_csc(X.indptr, X.indices, X.data, 3, 0.0)
    >>> [a.tolist() for a in out]
    [[0, 1, 2, 4], [0, 1, 0, 1], [1.0, 3.0, 2.0, 1.0]]
    """
    n = indptr.shape[0] - 1
    counts = np.zeros(p, dtype=np.uintp)
    csr_rows_column_counts(indptr, indices, np.intp(0), n, counts)
    extra = 1 if extra_value != 0.0 else 0
    out_indptr = _column_starts(counts, extra, n)
    nnz = out_indptr[out_indptr.shape[0] - 1]
    out_indices = np.empty(nnz, dtype=np.uint32)
    out_data = np.empty(nnz)
    csr_rows_place(indptr, indices, data, np.intp(0), n, counts, out_indices, out_data)
    if extra:
        _constant_column(out_indptr, p, n, extra_value, out_indices, out_data)
    return out_indptr, out_indices, out_data


@njit(cache=True, nogil=True)
def csr_column_subset(indptr, indices, data, position, n_keep):
    """CSC arrays (indptr uintp, indices uint32, data float64) of some columns of a CSR
    matrix: column j becomes column ``position[j]`` when that is below ``n_keep`` and is
    left out otherwise; each column's rows in order. One pass over the stored entries
    lists the kept ones (each entry's place is written and kept by advancing the count:
    no branch to mispredict), a counting sort over that list places them; the left-out
    columns' values are never read. The entries must number fewer than 2**32.

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp
    >>> X = sp.csr_array(np.array([[1.0, 0.0, 2.0], [0.0, 3.0, 1.0]]))
    >>> position = np.array([2, 0, 1], dtype=np.uintp)  # column 0 left out
    >>> out = csr_column_subset(X.indptr, X.indices, X.data, position, np.uintp(2))
    >>> [a.tolist() for a in out]
    [[0, 1, 3], [1, 0, 1], [3.0, 2.0, 1.0]]
    """
    nnz = np.uintp(indptr[indptr.shape[0] - 1])
    places = np.empty(nnz + np.uintp(1), dtype=np.uint32)
    kept = np.uintp(0)
    for q in range(nnz):
        places[kept] = q
        kept += np.uintp(position[np.uintp(indices[q])] < n_keep)
    counts = np.zeros(n_keep, dtype=np.uintp)
    for t in range(kept):
        counts[position[np.uintp(indices[np.uintp(places[t])])]] += np.uintp(1)
    out_indptr = _column_starts(counts, np.intp(0), np.intp(0))
    out_indices = np.empty(kept, dtype=np.uint32)
    out_data = np.empty(kept)
    t = np.uintp(0)
    for i in range(np.uintp(indptr.shape[0] - 1)):
        end = np.uintp(indptr[i + 1])
        while t < kept and np.uintp(places[t]) < end:
            q = np.uintp(places[t])
            j = position[np.uintp(indices[q])]
            s = counts[j]
            out_indices[s] = i
            out_data[s] = data[q]
            counts[j] = s + np.uintp(1)
            t += np.uintp(1)
    return out_indptr, out_indices, out_data
