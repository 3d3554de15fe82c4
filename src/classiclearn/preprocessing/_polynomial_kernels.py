"""Polynomial features of sparse rows: the products of each row's stored entries.

Within a degree d, the output columns are the combinations ``c_0 <= ... <= c_{d-1}``
of feature indices (``<`` for interaction terms) in lexicographic order. The column
of a combination is its rank in that order: with ``P[r, v]`` the number of
combinations of size ``r + 1`` whose first index is below ``v``, the rank is the sum
over k of ``P[d-1-k, c_k] - P[d-1-k, lo_k]``, where ``lo_0 = 0`` and ``lo_k`` is the
smallest index allowed after ``c_{k-1}``. A row's combinations are enumerated over
its own stored entries in that same order, so each output row comes out sorted.
Degrees 1 to 3 are written by nested loops that add the rank's terms as they go (the
rank of a pair ``c <= c'`` is ``P[1, c] + c' - c - step``, with ``P[0, v] = v``).
"""

import numpy as np

from .._kernels.jit import njit


@njit(cache=True, nogil=True)
def _combination_count(m, d, interaction_only):
    # combinations of size d from m items (with replacement unless interaction_only)
    if interaction_only:
        if d > m:
            return 0
        top, size = m, d
    else:
        if m == 0:
            return 0
        top, size = m + d - 1, d
    count = 1
    for k in range(size):
        count = count * (top - k) // (k + 1)
    return count


@njit(cache=True, nogil=True)
def expansion_row_sizes(indptr, lo, hi, bias, interaction_only):
    """CSR ``indptr`` of the expansion: each row's stored products of degrees lo..hi
    (from 1) and the bias entry."""
    n = indptr.shape[0] - 1
    out = np.empty(n + 1, dtype=np.int64)
    out[0] = 0
    for i in range(n):
        m = indptr[i + 1] - indptr[i]
        size = 1 if bias else 0
        for d in range(lo, hi + 1):
            size += _combination_count(m, d, interaction_only)
        out[i + 1] = out[i] + size
    return out


@njit(cache=True, nogil=True)
def expand_rows(indptr, indices, data, lo, hi, bias, interaction_only, first_below, bases,
                out_ptr, out_ind, out_val):
    """Fill the expansion's CSR arrays (``out_ptr`` from :func:`expansion_row_sizes`).

    ``first_below``: ``P`` of the module notes, shape (hi, p + 1); ``bases[d]``: the
    first output column of degree d. The row's stored indices must be sorted and
    unique."""
    n = indptr.shape[0] - 1
    step = 1 if interaction_only else 0
    pos = np.empty(max(hi, 1), dtype=np.int64)
    for i in range(n):
        a, b = indptr[i], indptr[i + 1]
        m = b - a
        q = out_ptr[i]
        if bias:
            out_ind[q] = 0
            out_val[q] = 1.0
            q += 1
        for d in range(lo, hi + 1):
            if _combination_count(m, d, interaction_only) == 0:
                continue
            if d == 1:  # the row itself
                for t in range(a, b):
                    out_ind[q] = bases[1] + indices[t]
                    out_val[q] = data[t]
                    q += 1
                continue
            if d == 2:  # pairs: the rank is first_below[1, c] + c' - c - step
                for t in range(a, b):
                    c = indices[t]
                    offset = bases[2] + first_below[1, c] - c - step
                    v = data[t]
                    for u in range(t + step, b):
                        out_ind[q] = offset + indices[u]
                        out_val[q] = v * data[u]
                        q += 1
                continue
            if d == 3:  # triples, the same rank term by term
                for t in range(a, b):
                    c = indices[t]
                    head = bases[3] + first_below[2, c] - first_below[1, c + step]
                    v = data[t]
                    for u in range(t + step, b):
                        c2 = indices[u]
                        offset = head + first_below[1, c2] - c2 - step
                        v2 = v * data[u]
                        for w in range(u + step, b):
                            out_ind[q] = offset + indices[w]
                            out_val[q] = v2 * data[w]
                            q += 1
                continue
            for k in range(d):  # the first combination of positions
                pos[k] = k * step
            while True:
                value = 1.0
                column = bases[d]
                previous = 0
                for k in range(d):
                    c = indices[a + pos[k]]
                    value *= data[a + pos[k]]
                    r = d - 1 - k
                    column += first_below[r, c] - first_below[r, previous]
                    previous = c + step
                out_ind[q] = column
                out_val[q] = value
                q += 1
                # the next combination of positions: raise the last one that can rise
                k = d - 1
                while k >= 0 and pos[k] == m - 1 - (d - 1 - k) * step:
                    k -= 1
                if k < 0:
                    break
                pos[k] += 1
                for t in range(k + 1, d):
                    pos[t] = pos[t - 1] + step
