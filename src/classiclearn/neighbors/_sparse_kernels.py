"""numba kernels of the sparse neighbour search (see :mod:`._sparse`): distances of a
block of CSR query rows to every training row, and the k smallest per row."""

import math

import numpy as np

from .._kernels.jit import njit, prange


@njit(parallel=True, cache=True, nogil=True)
def product_distances(q_ptr, q_ind, q_val, yc_ptr, yc_ind, yc_val, y_norm, q_norm, cosine,
                       out):
    """``out[c, j]``: the distance of query c to training row j, from their dot
    product, accumulated over the query's stored entries and, for each, the
    training rows storing that column (CSC arrays ``yc_*``): the work follows
    the words the two rows share, not the width of the rows. Euclidean from
    squared norms, or cosine from norms (similarity 0 for a zero row)."""
    m, n = out.shape
    for c in prange(m):
        row = out[c]
        for j in range(n):
            row[j] = 0.0
        for t in range(q_ptr[c], q_ptr[c + 1]):
            v = q_val[t]
            col = q_ind[t]
            for u in range(yc_ptr[col], yc_ptr[col + 1]):
                row[yc_ind[u]] += v * yc_val[u]
        qn = q_norm[c]
        for j in range(n):
            dot = row[j]
            if cosine:
                denom = qn * y_norm[j]
                sim = dot / denom if denom > 0.0 else 0.0
                row[j] = 1.0 - min(1.0, max(-1.0, sim))
            else:
                row[j] = math.sqrt(max(qn + y_norm[j] - 2.0 * dot, 0.0))


@njit(parallel=True, cache=True, nogil=True)
def manhattan_block(q_ptr, q_ind, q_val, n_features, y_ptr, y_ind, y_val, y_abs, out):
    """``out[i, j] = |q_i - y_j|_1``: |q_i|_1 + |y_j|_1 corrected on the columns
    both rows store (each query row scattered into a dense buffer once)."""
    m = out.shape[0]
    n = out.shape[1]
    for i in prange(m):
        buf = np.empty(n_features)
        for f in range(n_features):
            buf[f] = 0.0
        q_abs = 0.0
        for t in range(q_ptr[i], q_ptr[i + 1]):
            buf[q_ind[t]] = q_val[t]
            q_abs += abs(q_val[t])
        for j in range(n):
            d = q_abs + y_abs[j]
            for t in range(y_ptr[j], y_ptr[j + 1]):
                qv = buf[y_ind[t]]
                if qv != 0.0:
                    yv = y_val[t]
                    d += abs(qv - yv) - abs(qv) - abs(yv)
            out[i, j] = d


@njit(parallel=True, cache=True, nogil=True)
def k_smallest_rows(D, k, dist, ind):
    """The k smallest entries of each row of ``D`` by (distance, column): one scan
    in column order keeping a sorted list, an entry entering only when strictly
    smaller than the k-th so far (so equal distances keep the lower column)."""
    n = D.shape[1]
    for i in prange(D.shape[0]):
        row = D[i]
        for t in range(k):
            dist[i, t] = np.inf
            ind[i, t] = n
        for j in range(n):
            d = row[j]
            if d < dist[i, k - 1]:
                t = k - 1
                while t > 0 and dist[i, t - 1] > d:
                    dist[i, t] = dist[i, t - 1]
                    ind[i, t] = ind[i, t - 1]
                    t -= 1
                dist[i, t] = d
                ind[i, t] = j
