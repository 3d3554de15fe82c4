"""Common code of :class:`KDTree` and :class:`BallTree`: a flat, numba-built
space-partitioning tree queried in parallel over query points (seed 000 §3).

The kernels live in ``_tree_kernels.py``; this module validates input, builds
the arrays and turns kernel output into scikit-learn-shaped results.
"""

from numbers import Integral, Real

import numpy as np

from .._kernels.distances import CHEBYSHEV, EUCLIDEAN, MANHATTAN, MINKOWSKI, SQEUCLIDEAN
from .._kernels.work import TREE_QUERY_PROBE
from ..utils._threads import current_numba_threads, pooled_map, row_chunks
from ..utils.validation import check_array
from . import _tree_kernels as _k
from ._brute import sort_segments
from ._metrics import TREE_METRICS, map_rows, resolve_metric, to_reduced, weight_scale

# Training sets up to this size (16 MB) get a tree-ordered copy: contiguous
# leaves keep a query's reads sequential, at a memory cost that stays small.
_COPY_MAX_BYTES = 16 << 20


# Metrics whose leaf distances are read from a feature-major copy.
_COLUMN_METRICS = (EUCLIDEAN, MANHATTAN, CHEBYSHEV, MINKOWSKI, SQEUCLIDEAN)

# Query sets of at least this many rows are put in spatial order first.
_SORT_QUERIES = 1024


def _n_levels(n_samples, leaf_size):
    return int(np.log2(max(1, (n_samples - 1) / leaf_size)) + 1)


def _serial_levels(shape, n_levels):
    """Levels built serially before one thread per subtree takes over: all of
    them for small data (no thread start-up), else enough for 16 subtrees."""
    if shape[0] * shape[1] < 200_000:
        return n_levels
    return 4


def _query_order(Q):
    """A spatial order of the query rows (the row order of a KD partition of
    ``Q``, leaves of ~64 rows): threads take contiguous runs of it, so
    consecutive queries of a thread visit the same tree leaves, in cache.
    The order only changes speed, never results."""
    m = Q.shape[0]
    if m < _SORT_QUERIES:
        return np.arange(m, dtype=np.intp)
    levels = _n_levels(m, 64)
    return _k.partition_tree(Q, levels, _serial_levels(Q.shape, levels))[0]


def _rows_to_objects(ind, dist, offsets):
    m = offsets.shape[0] - 1
    out_i = np.empty(m, dtype=object)
    out_d = np.empty(m, dtype=object) if dist is not None else None
    for i in range(m):
        out_i[i] = ind[offsets[i] : offsets[i + 1]]
        if dist is not None:
            out_d[i] = dist[offsets[i] : offsets[i + 1]]
    return out_i, out_d


class _BinaryTree:
    _kind = None
    valid_metrics = sorted(TREE_METRICS)

    def __init__(self, X, leaf_size=40, metric="minkowski", **kwargs):
        p = kwargs.pop("p", 2)
        metric_params = kwargs.pop("metric_params", None)
        if "w" in kwargs:
            metric_params = {**(metric_params or {}), "w": kwargs.pop("w")}
        if kwargs:
            raise TypeError(f"Unexpected keyword arguments {sorted(kwargs)}.")
        if (
            not isinstance(leaf_size, Integral)
            or isinstance(leaf_size, bool)
            or leaf_size < 1
        ):
            raise ValueError(f"leaf_size must be an integer >= 1, got {leaf_size!r}.")
        if p is not None and not isinstance(p, Real):
            raise TypeError(f"p must be a real number, got {p!r}.")
        algorithm = "kd_tree" if self._kind == _k.KD else "ball_tree"
        X = check_array(X, dtype=np.float64, estimator=type(self).__name__)
        self._metric_code, self._p, self.metric, w = resolve_metric(
            metric, p, metric_params, algorithm, n_features=X.shape[1]
        )
        self.data = X
        # weighted minkowski: plain minkowski between rows scaled by w^(1/p)
        self._scale = None if w is None else weight_scale(w, self._p)
        X = map_rows(X, self._scale)
        self.leaf_size = int(leaf_size)
        n = X.shape[0]
        self.n_levels = _n_levels(n, self.leaf_size)
        self._top_levels = _serial_levels(X.shape, self.n_levels)
        self.idx_array, self.node_start, self.node_end = _k.partition_tree(
            X, self.n_levels, self._top_levels
        )
        # Leaves read their rows through ``idx_array`` from ``data`` itself:
        # no tree-ordered copy (memory as scikit-learn's), except for data
        # small enough that a contiguous copy is worth its cache locality. For
        # the Minkowski family that copy is feature-major (``_columns``, (d, n)):
        # a leaf's distances are then computed one feature at a time over its
        # rows, vectorised; other metrics read a row-major copy.
        self._columns = np.empty((X.shape[1], 0))
        if X.nbytes <= _COPY_MAX_BYTES:
            self._data_tree_order = X[self.idx_array]
            self._rows = np.arange(n, dtype=np.intp)
        else:
            self._data_tree_order = X
            self._rows = self.idx_array
        self._build_bounds()
        if X.nbytes <= _COPY_MAX_BYTES and self._metric_code in _COLUMN_METRICS:
            self._columns = np.ascontiguousarray(self._data_tree_order.T)
            self._data_tree_order = X
            self._rows = self.idx_array

    def _build_bounds(self):
        raise NotImplementedError

    def _scaled(self, X):
        return map_rows(X, self._scale)

    def _kernel_args(self):
        return (
            self._kind,
            self._data_tree_order,
            self._columns,
            self._rows,
            self.idx_array,
            self.node_start,
            self.node_end,
            self.n_levels,
            self._lower,
            self._upper,
            self._radius,
        )

    @property
    def n_nodes(self):
        return self.node_start.shape[0]

    def _check_query(self, X):
        X = check_array(X, dtype=np.float64, estimator=type(self).__name__)
        if X.shape[1] != self.data.shape[1]:
            raise ValueError(
                "query data dimension must match training data dimension: "
                f"got {X.shape[1]}, expected {self.data.shape[1]}."
            )
        return X

    def query(self, X, k=1, return_distance=True, dualtree=False, breadth_first=False,
              sort_results=True):
        """The ``k`` nearest neighbours of each row of ``X``.

        Parameters
        ----------
        X : array-like of shape (n_queries, n_features)
        k : int, default=1
        return_distance : bool, default=True
        dualtree, breadth_first : bool
            Accepted for compatibility; the search is always single-tree,
            depth-first.
        sort_results : bool, default=True
            Results are always sorted by (distance, index).

        Returns
        -------
        dist : ndarray of shape (n_queries, k)
            Only when ``return_distance``.
        ind : ndarray of shape (n_queries, k)
            Training-row indices, nearest first; equal distances in index order.
        """
        X = self._check_query(X)
        if not isinstance(k, Integral) or isinstance(k, bool) or k < 1:
            raise ValueError(f"k must be a positive integer, got {k!r}.")
        if k > self.data.shape[0]:
            raise ValueError(
                "k must be less than or equal to the number of training points: "
                f"got k={k}, n_samples={self.data.shape[0]}."
            )
        X = self._scaled(X)
        dist, ind = _k.query_knn(*self._kernel_args(), X, _query_order(X), int(k),
                                 self._metric_code, self._p)
        return (dist, ind) if return_distance else ind

    def _radius_flat(self, X, r, return_distance=True, sort_results=False, count_only=False):
        r = np.asarray(r, dtype=np.float64)
        if r.ndim == 0:
            r = np.full(X.shape[0], float(r))
        elif r.shape != (X.shape[0],):
            raise ValueError("r must be a scalar or have shape (n_queries,).")
        if np.any(np.isnan(r)):
            raise ValueError("r must not contain NaN.")
        r_red = to_reduced(r, self._metric_code, self._p)
        args = self._kernel_args()
        order = _query_order(X)
        m = X.shape[0]

        def answer(queries):
            return _k.query_radius_block(*args, X, queries, r_red, self._metric_code, self._p)

        # the first queries on this thread; the rest in blocks in threads when the
        # work of the first says they pay (results in any thread's block are put in
        # query order below: they never depend on threads)
        blocks = [order[:TREE_QUERY_PROBE]]
        found = [answer(blocks[0])]
        rest = order[TREE_QUERY_PROBE:]
        n_threads = current_numba_threads()
        if n_threads > 1 and _k.rest_threaded(found[0][3], blocks[0].shape[0], rest.shape[0],
                                              X.shape[1]):
            blocks += [rest[lo:hi] for lo, hi in row_chunks(rest.shape[0], n_threads,
                                                             TREE_QUERY_PROBE)]
            found += pooled_map(answer, blocks[1:], n_threads)
        elif rest.shape[0]:
            blocks.append(rest)
            found.append(answer(rest))
        counts = np.empty(m, dtype=np.intp)
        for queries, (block_counts, _, _, _) in zip(blocks, found):
            counts[queries] = block_counts
        if count_only:
            return counts
        offsets = np.zeros(m + 1, dtype=np.intp)
        np.cumsum(counts, out=offsets[1:])
        ind = np.empty(offsets[m], dtype=np.intp)
        dist = np.empty(offsets[m])
        for queries, (block_counts, block_ind, block_red, _) in zip(blocks, found):
            _k.place_radius_results(block_counts, block_ind, block_red, queries, offsets, ind,
                                    dist, self._metric_code, self._p)
        if sort_results:
            sort_segments(ind, dist, offsets)
        return ind, dist, offsets

    def query_radius(self, X, r, return_distance=False, count_only=False, sort_results=False):
        """Training rows within distance ``r`` of each row of ``X``.

        Parameters
        ----------
        X : array-like of shape (n_queries, n_features)
        r : float or array-like of shape (n_queries,)
            Inclusive radius (``distance <= r``).
        return_distance : bool, default=False
        count_only : bool, default=False
            Return only the number of neighbours of each query.
        sort_results : bool, default=False
            Sort each result by (distance, index); needs ``return_distance``.
            Unsorted results come in tree order.

        Returns
        -------
        counts : ndarray of shape (n_queries,)
            When ``count_only``.
        ind : object ndarray of shape (n_queries,)
            Arrays of indices; followed by ``dist`` when ``return_distance``.
        """
        if count_only and return_distance:
            raise ValueError("count_only and return_distance cannot both be true")
        if sort_results and not return_distance:
            raise ValueError("return_distance must be True if sort_results is True")
        X = self._scaled(self._check_query(X))
        if count_only:
            return self._radius_flat(X, r, count_only=True)
        ind, dist, offsets = self._radius_flat(X, r, sort_results=sort_results)
        out_i, out_d = _rows_to_objects(ind, dist if return_distance else None, offsets)
        return (out_i, out_d) if return_distance else out_i

    def get_arrays(self):
        """(data, idx_array, node_start, node_end, node bounds) as arrays."""
        return (self.data, self.idx_array, self.node_start, self.node_end,
                self._lower, self._upper, self._radius)

    def __repr__(self):
        return (f"{type(self).__name__}(n_samples={self.data.shape[0]}, "
                f"leaf_size={self.leaf_size}, metric={self.metric!r})")
