"""Brute-force neighbours of sparse rows (scipy CSR), as scikit-learn allows them.

scikit-learn takes sparse input only with brute force and the metrics
euclidean / l2 (minkowski with p=2), cosine and manhattan / l1 / cityblock
(and precomputed). The distances of a block of query rows to every training
row come from sparse products (euclidean, cosine: ``|x|² + |y|² - 2 x.y`` and
``1 - x.y / (|x| |y|)``) or a numba pass over the stored entries (manhattan),
never from a dense copy of either side; each block is then searched like a
precomputed distance matrix, equal distances going to the lower training
index.
"""

import math

import numpy as np
import scipy.sparse as sp
from numba import njit, prange

from ..utils._sparse import row_squared_norms

__all__ = ["SPARSE_METRICS", "sparse_kneighbors", "sparse_metric", "sparse_radius"]

# metric name -> the distance computed
SPARSE_METRICS = {
    "euclidean": "euclidean", "l2": "euclidean",
    "cosine": "cosine",
    "manhattan": "manhattan", "l1": "manhattan", "cityblock": "manhattan",
}
# entries of one block of the distance matrix (rows x training rows)
_BLOCK_ENTRIES = 1 << 22


def sparse_metric(metric, p):
    """The distance used for sparse input, or a ValueError worded as scikit-learn's."""
    if metric == "minkowski" and p == 2:
        return "euclidean"
    if metric == "minkowski" and p == 1:
        return "manhattan"
    if isinstance(metric, str) and metric in SPARSE_METRICS:
        return SPARSE_METRICS[metric]
    raise ValueError(
        f"Metric {metric!r} not valid for sparse input. Use sorted(classiclearn.neighbors."
        "VALID_METRICS_SPARSE['brute']) to get valid options. Metric can also be a callable "
        "function."
    )


class SparseIndex:
    """The training rows in CSR form with what every query block reuses."""

    def __init__(self, Y, metric):
        self.Y = sp.csr_array(Y)
        self.metric = metric
        self.n = self.Y.shape[0]
        if metric == "euclidean":
            self.norms = row_squared_norms(self.Y)
        elif metric == "cosine":
            self.norms = np.sqrt(row_squared_norms(self.Y))
        else:
            self.abs_sums = np.asarray(abs(self.Y).sum(axis=1)).ravel()

    def distances(self, Q):
        """Dense (m, n) distances of the CSR rows ``Q`` to every training row."""
        if self.metric == "manhattan":
            out = np.empty((Q.shape[0], self.n))
            _manhattan_block(Q.indptr, Q.indices, Q.data.astype(np.float64), Q.shape[1],
                             self.Y.indptr, self.Y.indices, self.Y.data.astype(np.float64),
                             self.abs_sums, out)
            return out
        # the block's rows scattered into a small dense (features, m) buffer
        QT = np.zeros((Q.shape[1], Q.shape[0]))
        rows = np.repeat(np.arange(Q.shape[0]), np.diff(Q.indptr))
        QT[Q.indices, rows] = Q.data
        q_norm = row_squared_norms(Q)
        cosine = self.metric == "cosine"
        if cosine:
            q_norm = np.sqrt(q_norm)
        out = np.empty((Q.shape[0], self.n))
        _product_distances(self.Y.indptr, self.Y.indices,
                           self.Y.data.astype(np.float64, copy=False), self.norms, QT, q_norm,
                           cosine, out)
        return out

    def blocks(self, Q):
        """(start, stop, distances) over blocks of query rows."""
        Q = sp.csr_array(Q)
        # a block's distances (rows x n) and its dense buffer (features x rows)
        # each stay within _BLOCK_ENTRIES entries
        step = max(1, _BLOCK_ENTRIES // max(self.n, Q.shape[1], 1))
        for start in range(0, Q.shape[0], step):
            stop = min(Q.shape[0], start + step)
            yield start, stop, self.distances(Q[start:stop])


_ROWS_PER_TASK = 64


@njit(parallel=True, cache=True, nogil=True, fastmath={"contract"})
def _product_distances(y_ptr, y_ind, y_val, y_norm, QT, q_norm, cosine, out):
    """``out[c, j]``: the distance of query c to training row j, from their dot
    product (summed over the training row's stored entries against the dense
    (features, m) buffer ``QT``): euclidean from squared norms, or cosine from
    norms (similarity 0 for a zero row). Training rows go in tasks of 64, each
    accumulating its dot products contiguously, then writing them by query."""
    m = QT.shape[1]
    n = out.shape[1]
    n_tasks = (n + _ROWS_PER_TASK - 1) // _ROWS_PER_TASK
    for task in prange(n_tasks):
        j0 = task * _ROWS_PER_TASK
        j1 = min(n, j0 + _ROWS_PER_TASK)
        acc = np.zeros((j1 - j0, m))
        for j in range(j0, j1):
            for t in range(y_ptr[j], y_ptr[j + 1]):
                v = y_val[t]
                r = y_ind[t]
                for c in range(m):
                    acc[j - j0, c] += v * QT[r, c]
        for c in range(m):
            for j in range(j0, j1):
                dot = acc[j - j0, c]
                if cosine:
                    denom = q_norm[c] * y_norm[j]
                    sim = dot / denom if denom > 0.0 else 0.0
                    out[c, j] = 1.0 - min(1.0, max(-1.0, sim))
                else:
                    out[c, j] = math.sqrt(max(q_norm[c] + y_norm[j] - 2.0 * dot, 0.0))


@njit(parallel=True, cache=True, nogil=True)
def _manhattan_block(q_ptr, q_ind, q_val, n_features, y_ptr, y_ind, y_val, y_abs, out):
    """``out[i, j] = |q_i - y_j|_1``: |q_i|_1 + |y_j|_1 corrected on the columns
    both rows store (each query row scattered into a dense buffer once)."""
    m = out.shape[0]
    n = out.shape[1]
    for i in prange(m):
        buf = np.zeros(n_features)
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


def _k_smallest(D, k):
    """k smallest entries of each row by (distance, column)."""
    m = D.shape[0]
    kth = np.partition(D, k - 1, axis=1)[:, k - 1] if k < D.shape[1] else D.max(axis=1)
    rows, cols = np.nonzero(D <= kth[:, None])
    vals = D[rows, cols]
    order = np.lexsort((cols, vals, rows))
    rows, cols, vals = rows[order], cols[order], vals[order]
    first = np.searchsorted(rows, np.arange(m))
    take = (first[:, None] + np.arange(k)[None, :]).ravel()
    return vals[take].reshape(m, k), cols[take].reshape(m, k).astype(np.intp)


def sparse_kneighbors(index, Q, k):
    """(dist, ind) of the k nearest training rows of every query row, ties by index."""
    m = Q.shape[0]
    dist = np.empty((m, k))
    ind = np.empty((m, k), dtype=np.intp)
    for start, stop, D in index.blocks(Q):
        dist[start:stop], ind[start:stop] = _k_smallest(D, k)
    return dist, ind


def sparse_radius(index, Q, radius, sort_results):
    """(ind, dist, offsets): training rows within ``radius`` of each query row."""
    inds, dists, counts = [], [], []
    for _, _, D in index.blocks(Q):
        rows, cols = np.nonzero(D <= radius)
        vals = D[rows, cols]
        if sort_results:
            order = np.lexsort((cols, vals, rows))
            rows, cols, vals = rows[order], cols[order], vals[order]
        inds.append(cols.astype(np.intp))
        dists.append(vals)
        counts.append(np.bincount(rows, minlength=D.shape[0]))
    counts = np.concatenate(counts) if counts else np.zeros(0, dtype=np.intp)
    offsets = np.zeros(len(counts) + 1, dtype=np.intp)
    np.cumsum(counts, out=offsets[1:])
    ind = np.concatenate(inds) if inds else np.zeros(0, dtype=np.intp)
    dist = np.concatenate(dists) if dists else np.zeros(0)
    return ind, dist, offsets
