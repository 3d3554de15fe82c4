"""Brute-force neighbours of sparse rows (scipy CSR), as scikit-learn allows them.

scikit-learn takes sparse input only with brute force and the metrics
euclidean / l2 (minkowski with p=2), cosine and manhattan / l1 / cityblock
(and precomputed). The distances of a block of query rows to every training
row come from their dot products (euclidean, cosine: ``|x|² + |y|² - 2 x.y``
and ``1 - x.y / (|x| |y|)``), accumulated over the columns each query stores,
or from a numba pass over the stored entries (manhattan),
never from a dense copy of either side; each block is then searched like a
precomputed distance matrix, equal distances going to the lower training
index.
"""

import numpy as np
import scipy.sparse as sp

from ..utils._sparse import row_squared_norms
from ._brute import brute_radius
from ._metrics import PRECOMPUTED
from ._sparse_kernels import k_smallest_rows, manhattan_block, product_distances

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
        self._row_stats = None  # computed by the first query, so fit only stores
        self._csc = None

    def _columns(self):
        """The training rows in CSC form (O(nnz), made by the first query)."""
        if self._csc is None:
            self._csc = sp.csc_array(self.Y)
        return self._csc

    def _training_row_stats(self):
        """Squared norms (euclidean), norms (cosine) or |y|_1 (manhattan) of the rows."""
        if self._row_stats is None:
            if self.metric == "euclidean":
                self._row_stats = row_squared_norms(self.Y)
            elif self.metric == "cosine":
                self._row_stats = np.sqrt(row_squared_norms(self.Y))
            else:
                self._row_stats = np.asarray(abs(self.Y).sum(axis=1)).ravel()
        return self._row_stats

    def distances(self, Q):
        """Dense (m, n) distances of the CSR rows ``Q`` to every training row."""
        if self.metric == "manhattan":
            out = np.empty((Q.shape[0], self.n))
            manhattan_block(Q.indptr, Q.indices, Q.data.astype(np.float64), Q.shape[1],
                             self.Y.indptr, self.Y.indices, self.Y.data.astype(np.float64),
                             self._training_row_stats(), out)
            return out
        q_norm = row_squared_norms(Q)
        cosine = self.metric == "cosine"
        if cosine:
            q_norm = np.sqrt(q_norm)
        Yc = self._columns()
        out = np.empty((Q.shape[0], self.n))
        product_distances(Q.indptr, Q.indices, Q.data.astype(np.float64, copy=False),
                           Yc.indptr, Yc.indices, Yc.data.astype(np.float64, copy=False),
                           self._training_row_stats(), q_norm, cosine, out)
        return out

    def blocks(self, Q):
        """(start, stop, distances) over blocks of query rows."""
        Q = sp.csr_array(Q)
        # a block's distances (rows x n) stay within _BLOCK_ENTRIES entries
        step = max(1, _BLOCK_ENTRIES // max(self.n, 1))
        for start in range(0, Q.shape[0], step):
            stop = min(Q.shape[0], start + step)
            yield start, stop, self.distances(Q[start:stop])


def sparse_kneighbors(index, Q, k):
    """(dist, ind) of the k nearest training rows of every query row, ties by index."""
    m = Q.shape[0]
    dist = np.empty((m, k))
    ind = np.empty((m, k), dtype=np.intp)
    for start, stop, D in index.blocks(Q):
        k_smallest_rows(D, k, dist[start:stop], ind[start:stop])
    return dist, ind


def sparse_radius(index, Q, radius, sort_results):
    """(ind, dist, offsets): training rows within ``radius`` of each query row, each
    block of distances searched as a precomputed matrix (compiled count and fill)."""
    inds, dists, counts = [], [], []
    for _, _, D in index.blocks(Q):
        ind, dist, offsets = brute_radius(D, None, radius, PRECOMPUTED, 2.0,
                                          sort_results=sort_results)
        inds.append(ind)
        dists.append(dist)
        counts.append(np.diff(offsets))
    counts = np.concatenate(counts) if counts else np.zeros(0, dtype=np.intp)
    offsets = np.zeros(len(counts) + 1, dtype=np.intp)
    np.cumsum(counts, out=offsets[1:])
    if len(inds) == 1:  # no copy of what may be every pair of rows
        return inds[0], dists[0], offsets
    ind = np.concatenate(inds) if inds else np.zeros(0, dtype=np.intp)
    dist = np.concatenate(dists) if dists else np.zeros(0)
    return ind, dist, offsets


def sparse_radius_sums(index, Q, radius, sums):
    """The search of :func:`sparse_radius`, each neighbour folded into ``sums`` (a
    :class:`~._radius_sums.RadiusSums` with a row per query) instead of listed."""
    for start, stop, D in index.blocks(Q):
        sums.fold_tile(D, np.full(stop - start, float(radius)), PRECOMPUTED, 2.0, start, stop)
