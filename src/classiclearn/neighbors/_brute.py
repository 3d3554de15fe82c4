"""Brute-force neighbour search (seed 000 §3): every query against every training row.

Euclidean and cosine k-NN use BLAS, fused with a top-k selection. Worker
threads (``n_jobs``, BLAS itself kept on one thread) each take blocks of
queries; for a block ``Q_b`` and a chunk ``Y_c`` of training rows one float32
GEMM gives the tile ``|y|^2 - 2 <q, y>`` (the squared norms, computed at fit,
ride along as an extra column; ``-<q, y>`` for unit rows; rows centred first;
512 kB, in L2 cache) and a numba kernel folds it into a sorted list of
``k + 8`` candidates per query (a vectorised test against the current last
candidate rejects almost every 64-column strip of the tile without a branch
per element; the few strips left give a bit mask of their candidates).
The float32 ranking is then *certified*: if the ``(k + 8)``-th candidate
is further than the ``k``-th by more than twice the rounding bound, the true
``k`` nearest are among the candidates, whose exact float64 distances are recomputed and sorted by
(distance, index); rows that cannot be certified (near-ties, huge norms) are
searched again exactly. Results are therefore exact, ties included, and memory
stays at one tile per thread. Boolean metrics take the (True, True) counts of
a block of queries from one product of 0/1 matrices (exact integers), so
their distances are those of the per-pair kernel to the bit; correlation
takes one product of row-centred blocks. Other metrics
scan the training rows in numba,
stopping each distance early once it cannot enter the heap. Euclidean and
cosine radius queries run the same float32 GEMM tiles, keep the columns
within the radius plus the rounding bound and check those exactly, in one
pass over each tile; other metrics build a float64 tile of full rows per
query block, count, then fill.
"""


import numpy as np

from .._kernels import distances as _d
from .._kernels.distances import COSINE, EUCLIDEAN, SQEUCLIDEAN
from .._kernels.work import BRUTE_QUERY_ROWS
from ..utils._threads import blas_can_be_limited, blas_single_thread, pooled_map, thread_map
from . import _brute_kernels as _k
from . import _radius_kernels as _rk
from ._metrics import to_reduced

# Query rows per block (at most) and training rows per chunk for the fused
# GEMM + top-k: a float32 tile of 1024 x 128 is 512 kB and stays in a 1 MB L2
# cache; with the short inner dimension of the GEMM (d + 1), tall narrow
# tiles suit the GEMM better than square ones (256 x 512).
_QUERY_BLOCK = 1024
_TRAIN_CHUNK = 128
# Fewest query rows per worker thread, unless each row's distances are many: then
# rows worth _MIN_PIECE_WORK multiply-adds (256 rows against 5,000 x 20), at least
# _MIN_PIECE_ROWS.
_MIN_PIECE = BRUTE_QUERY_ROWS
_MIN_PIECE_WORK = BRUTE_QUERY_ROWS * 5000 * 21
_MIN_PIECE_ROWS = 16
# Candidates kept beyond k so that the float32 ranking can be certified: at least 8,
# or a share of k (the gap between the k-th and the last candidate, which must exceed
# the rounding bound, narrows as k grows; 50 neighbours of 250 queries on 1,000 x
# 2,000 left 14 rows to the exact scan with 8)
_EXTRA_CANDIDATES = 8
_EXTRA_SHARE = 0.5
# Elements of one radius tile (float64): 32 MB.
_RADIUS_TILE = 1 << 22
_EPS = np.finfo(np.float64).eps
# Rows (at most about) whose mean centres the training rows of a GemmIndex.
_CENTRE_ROWS = 4096
_EPS32 = float(np.finfo(np.float32).eps)


def unit_rows(X):
    """Rows scaled to unit euclidean length (zero rows stay zero), a new array."""
    norms = np.sqrt(np.einsum("ij,ij->i", X, X))
    norms[norms == 0.0] = 1.0
    return X / norms[:, None]


class GemmIndex:
    """Training rows prepared for GEMM search (euclidean or cosine), built at fit.

    Euclidean rows are centred on their mean (distances do not change, the
    norms and so the rounding error shrink; the mean of evenly spaced rows of a
    large Y) and kept in float32 with their
    squared norm as an extra column, so that one float32 GEMM against
    ``[-2 q, 1]`` gives ``|y|^2 - 2 <q, y>`` directly; the exact distances are
    recomputed from the float64 rows. Cosine rows are scaled to unit length.
    """

    def __init__(self, Y, code):
        self.code = code
        self.n, self.d = Y.shape
        if code in (EUCLIDEAN, SQEUCLIDEAN):
            # the centre only keeps norms (and rounding) small: the mean of at most
            # ~4,096 evenly spaced rows serves as well as the full mean, at no pass
            # over all of Y
            self.mean = (Y[:: max(1, self.n // _CENTRE_ROWS)].mean(axis=0) if self.n
                         else np.zeros(self.d))
            self.exact = Y
            low = np.empty((self.n, self.d + 1), dtype=np.float32)
            norms = np.empty(self.n)
            _k.centred_rows32(Y, self.mean, 1.0, low, norms)
            low[:, self.d] = norms
            self.y_max = float(norms.max(initial=0.0))
        else:
            self.mean = None
            self.exact = unit_rows(Y)
            self.y_max = 1.0
            low = self.exact.astype(np.float32)
        self.low = low

    def prepare_queries(self, Q):
        """(float32 rows for the GEMM, float64 rows for exact distances, error bound,
        the query's own term): the approximate reduced distance of query ``i``
        to training row ``j`` is the product's value plus ``q_term[i]``."""
        m = Q.shape[0]
        if self.code in (EUCLIDEAN, SQEUCLIDEAN):
            exact = Q
            q_norm = np.empty(m)
            low = np.empty((m, self.d + 1), dtype=np.float32)
            _k.centred_rows32(np.ascontiguousarray(Q), self.mean, -2.0, low, q_norm)
            low[:, self.d] = 1.0
        else:
            exact = unit_rows(Q)
            q_norm = np.ones(m)
            low = (-exact).astype(np.float32)
        # Rounding bound on |approximate - exact| (inputs, norms and GEMM in
        # float32, the exact recomputation in float64); generous by ~2.
        scale = q_norm + self.y_max
        delta = (2.0 * (self.d + 6) * _EPS32 + 4.0 * (self.d + 2) * _EPS) * scale
        return low, exact, delta, q_norm


class LazyGemmIndex:
    """The :class:`GemmIndex` of a model's training rows, built by the first query
    that needs it: fit only stores X, as scikit-learn's does, and a model never
    queried never pays for the index. The holder is set at fit and never
    replaced, so queries leave the estimator's attributes as they were; results
    do not depend on whether the index was built before."""

    def __init__(self, Y, code):
        self._Y, self._code, self._index = Y, code, None

    def get(self):
        """The index (built now if no query has built it yet)."""
        if self._index is None:
            self._index = GemmIndex(self._Y, self._code)
        return self._index


def _gemm_knn(Q, index, k, p, n_threads, with_distances=True):
    m = Q.shape[0]
    n = index.n
    code = index.code
    kk = min(n, k + max(_EXTRA_CANDIDATES, int(_EXTRA_SHARE * k)))
    low_q, exact_q, delta, _ = index.prepare_queries(Q)
    dist = np.empty((m, k))
    ind = np.empty((m, k), dtype=np.intp)
    ok = np.empty(m, dtype=np.bool_)
    chunk = min(n, _TRAIN_CHUNK)
    Y_low = index.low

    def work(bounds):
        q0, q1 = bounds
        buf = np.empty((q1 - q0) * chunk, dtype=np.float32)
        hd = np.full((q1 - q0, kk), np.inf, dtype=np.float32)
        hi = np.full((q1 - q0, kk), n, dtype=np.intp)
        _k.gemm_select(low_q[q0:q1], Y_low, chunk, buf, hd, hi)
        _k.finalize_candidates(exact_q[q0:q1], index.exact, hd, hi, k, delta[q0:q1],
                               code, p, dist[q0:q1], ind[q0:q1], ok[q0:q1], with_distances)

    blocks, n_threads = _query_blocks(m, n_threads, n * Y_low.shape[1])
    with blas_single_thread():
        pooled_map(work, blocks, n_threads)
    bad = np.flatnonzero(~ok)
    if bad.size:
        # too close to call in float32: exact search for these rows
        d_bad, i_bad = _k.scan_knn(exact_q[bad], index.exact, k, code, p)
        dist[bad] = d_bad
        ind[bad] = i_bad
    return dist, ind


_BOOLEAN_CODES = (_d.JACCARD, _d.DICE, _d.ROGERSTANIMOTO, _d.RUSSELLRAO, _d.SOKALSNEATH,
                  _d.YULE)
# Metrics whose brute-force tiles come from one matrix product per block.
_PRODUCT_CODES = (*_BOOLEAN_CODES, _d.CORRELATION)
# metrics summed (or maximised) coordinate by coordinate: scanned tile by tile
_COORDINATE_CODES = (_d.MANHATTAN, _d.CHEBYSHEV, _d.MINKOWSKI)


def _boolean_tile(Bq, By, nq, ny, code):
    """Boolean distances of the rows ``Bq`` (0/1 floats) to ``By`` from one
    product: ``tt = Bq By'`` counts (True, True) coordinates exactly, and
    ``tf = nq - tt``, ``ft = ny - tt`` (row counts of True). The formulas
    are those of ``_kernels.distances`` term by term, so the values are the
    kernels' to the last bit; an undefined one (0 / 0) is ``inf``."""
    d = Bq.shape[1]
    tt = Bq @ By.T
    tf = nq[:, None] - tt
    ft = ny[None, :] - tt
    neq = tf + ft
    with np.errstate(invalid="ignore", divide="ignore"):
        if code == _d.JACCARD:
            out = np.where(tt + neq > 0, neq / (tt + neq), 0.0)
        elif code == _d.DICE:
            out = np.where(tt + neq > 0, neq / (2.0 * tt + neq), np.inf)
        elif code == _d.ROGERSTANIMOTO:
            out = 2.0 * neq / (d + neq)
        elif code == _d.RUSSELLRAO:
            out = (d - tt) / d
        elif code == _d.SOKALSNEATH:
            out = np.where(tt + neq > 0, neq / (0.5 * tt + neq), np.inf)
        else:  # yule
            half_r = tf * ft
            ff = d - tt - neq
            out = np.where(half_r == 0, 0.0, 2.0 * half_r / (tt * ff + half_r))
    return out


class _ProductTiles:
    """Distance tiles of a boolean metric or correlation from one matrix
    product per block of queries (boolean: 0/1 rows, exact (True, True)
    counts; correlation: rows centred on their mean, over the product of
    their norms; an undefined distance is ``inf``)."""

    def __init__(self, Y, code):
        self.code = code
        self.Y, self.y_stat = self._prepare(Y)

    def _prepare(self, A):
        if self.code == _d.CORRELATION:
            C = A - A.mean(axis=1, keepdims=True)
            return C, np.sqrt(np.einsum("ij,ij->i", C, C))
        B = (A != 0).astype(np.float64)
        return B, B.sum(axis=1)

    def tile(self, Q):
        Qp, q_stat = self._prepare(Q)
        if self.code != _d.CORRELATION:
            return _boolean_tile(Qp, self.Y, q_stat, self.y_stat, self.code)
        with np.errstate(invalid="ignore", divide="ignore"):
            out = 1.0 - (Qp @ self.Y.T) / (q_stat[:, None] * self.y_stat[None, :])
        np.clip(out, 0.0, 2.0, out=out)
        out[(q_stat == 0.0)[:, None] | (self.y_stat == 0.0)[None, :]] = np.inf
        return out


def _product_knn(Q, Y, k, code):
    """k nearest from :class:`_ProductTiles` (query blocks), ranked by
    (distance, index) with a heap per row; undefined distances last, as NaN."""
    tiles = _ProductTiles(Y, code)
    m, n = Q.shape[0], Y.shape[0]
    dist = np.empty((m, k))
    ind = np.empty((m, k), dtype=np.intp)
    block = max(1, min(m, _RADIUS_TILE // max(n, 1)))
    for q0 in range(0, m, block):
        q1 = min(m, q0 + block)
        dist[q0:q1], ind[q0:q1] = _k.tile_knn(tiles.tile(Q[q0:q1]), k)
    dist[np.isinf(dist)] = np.nan
    return dist, ind


def _precomputed_knn(D, k):
    """k smallest entries of each row of ``D`` by (value, column), in row blocks."""
    m, n = D.shape
    dist = np.empty((m, k))
    ind = np.empty((m, k), dtype=np.intp)
    block = max(1, min(m, _RADIUS_TILE // max(n, 1)))
    for q0 in range(0, m, block):
        q1 = min(m, q0 + block)
        order = np.argsort(D[q0:q1], axis=1, kind="stable")[:, :k]
        ind[q0:q1] = order
        dist[q0:q1] = np.take_along_axis(D[q0:q1], order, axis=1)
    return dist, ind


def sort_segments(ind, dist, offsets):
    """Sort each segment ``offsets[i]:offsets[i + 1]`` by (distance, index), in place."""
    rows = np.repeat(np.arange(offsets.shape[0] - 1), np.diff(offsets))
    order = np.lexsort((ind, dist, rows))
    ind[:] = ind[order]
    dist[:] = dist[order]


def brute_kneighbors(Q, Y, k, code, p, *, index=None, n_threads=1, with_distances=True):
    """k nearest rows of ``Y`` for every row of ``Q``.

    Parameters
    ----------
    Q : ndarray (m, d) float64 C-contiguous; for ``code == PRECOMPUTED`` and a
        precomputed search, pass the distance matrix (m, n) as ``Q`` and
        ``Y=None``.
    Y : ndarray (n, d) float64 C-contiguous, or None (precomputed).
    k : int, 1 <= k <= n.
    code, p : metric code and Minkowski exponent.
    index : GemmIndex, optional
        Prepared ``Y`` for euclidean / cosine search (built here if None).
    n_threads : int
        Worker threads of the GEMM search (each runs BLAS on one thread).
    with_distances : bool
        False: only the set of the k nearest matters (a vote). The euclidean and cosine
        search may then leave ``dist`` unset and ``ind`` unordered on some rows.

    Returns
    -------
    dist : (m, k) float64, ascending; ind : (m, k) intp; ties by index.
    """
    if Y is None:
        return _precomputed_knn(Q, k)
    if code in (EUCLIDEAN, COSINE, SQEUCLIDEAN):
        if index is None:
            index = GemmIndex(Y, code)
        return _gemm_knn(Q, index, k, p, n_threads, with_distances)
    if code in _PRODUCT_CODES:
        return _product_knn(Q, Y, k, code)
    if code in _COORDINATE_CODES:
        return _k.scan_knn_coordinates(Q, np.ascontiguousarray(Y.T), k, code, p)
    return _k.scan_knn(Q, Y, k, code, p)


def _query_blocks(m, n_threads, row_work=0):
    """Equal query blocks of at most _QUERY_BLOCK rows, as many for every worker
    thread (handed to the threads as they free up), and the thread count.

    A thread takes at least ``_MIN_PIECE`` query rows, or fewer when each row's
    distances (``row_work``: training rows x width) are many: at least
    ``_MIN_PIECE_WORK`` multiply-adds a thread (250 queries on 1,000 x 2,000 ran on
    one thread).

    Examples
    --------
    >>> _query_blocks(250, 2)[1], _query_blocks(250, 2, row_work=1000 * 2001)[1]
    (1, 2)
    """
    fewest = _MIN_PIECE
    if row_work > 0:
        fewest = min(_MIN_PIECE, max(_MIN_PIECE_ROWS, -(-_MIN_PIECE_WORK // row_work)))
    n_threads = max(1, min(n_threads, -(-m // fewest)))
    if not blas_can_be_limited():
        # several multi-threaded BLAS calls at once oversubscribe the cores:
        # one thread of ours, BLAS's own threads inside it
        n_threads = 1
    per_thread = -(-m // (_QUERY_BLOCK * n_threads))
    n_blocks = max(1, per_thread * n_threads)
    return [(m * b // n_blocks, m * (b + 1) // n_blocks) for b in range(n_blocks)], n_threads


def _gemm_radius(Q, index, r_red, p, n_threads, sums=None):
    """Euclidean / cosine radius search on query blocks in worker threads: each block
    counts its hits (:func:`_radius_kernels.gemm_radius_count`), then writes them into
    its rows' slices of the one output (:func:`_radius_kernels.gemm_radius_place`).
    The float32 threshold per query is the reduced radius less the query's own
    term, plus the rounding bound of the expansion, rounded up, so every row
    within the radius is a candidate (then checked exactly); below the same
    less the bound, rounded down, a row is within the radius whatever the exact
    check (counted without it). Returns (ind, dist,
    counts) of all rows, query by query; with
    ``sums`` (a :class:`RadiusSums`), folds the neighbours into it instead
    (:func:`_radius_kernels.reduce_gemm`) and returns None."""
    m = Q.shape[0]
    low_q, exact_q, delta, q_term = index.prepare_queries(Q)
    # per query: candidates below bounds[:, 0], sure hits below bounds[:, 1] (float32,
    # rounded outwards from the radius plus / less the rounding bound)
    bounds = np.empty((m, 2), dtype=np.float32)
    bounds[:, 0] = np.nextafter((r_red - q_term + delta).astype(np.float32), np.float32(np.inf))
    bounds[:, 1] = np.nextafter((r_red - q_term - delta).astype(np.float32), np.float32(-np.inf))
    chunk = min(max(index.n, 1), _TRAIN_CHUNK)
    blocks, n_threads = _query_blocks(m, n_threads, index.n * index.low.shape[1])
    results = [None] * len(blocks)

    def search(number):
        q0, q1 = blocks[number]
        buf = np.empty((q1 - q0) * chunk, dtype=np.float32)
        return (low_q[q0:q1], index.low, chunk, buf, bounds[q0:q1], exact_q[q0:q1], index.exact,
                r_red[q0:q1], index.code, p)

    def fold(number):
        _rk.reduce_gemm(*search(number), *sums.arguments(*blocks[number]))

    # once a block has had too many hits to list, the others do not try: the hits per
    # query row are alike across blocks, and a failed listing is a wasted part-scan
    listing = [True]

    def count(number):
        results[number] = _rk.gemm_radius_count(*search(number), listing[0])
        if results[number][1] < 0:
            listing[0] = False

    with blas_single_thread():
        if sums is not None:
            thread_map(fold, range(len(blocks)), n_threads)
            return None
        thread_map(count, range(len(blocks)), n_threads)
        counts = (np.concatenate([result[0] for result in results]) if results
                  else np.zeros(0, dtype=np.intp))
        starts = np.zeros(m + 1, dtype=np.intp)
        np.cumsum(counts, out=starts[1:])
        ind = np.empty(starts[m], dtype=np.intp)
        dist = np.empty(starts[m])

        def place(number):
            # every block writes its own rows' slices of the one output
            q0, q1 = blocks[number]
            _rk.gemm_radius_place(*search(number), *results[number][1:], starts[q0:q1], ind,
                                 dist)
            results[number] = None

        thread_map(place, range(len(blocks)), n_threads)
    return ind, dist, counts


def _radius_tiles(Q, Y, code, p):
    """(q0, q1, tile) over blocks of query rows: the float64 reduced distances of
    rows ``q0:q1`` to every training row (the rows of ``Q`` themselves when ``Y`` is
    None: precomputed distances)."""
    m = Q.shape[0]
    n = Q.shape[1] if Y is None else Y.shape[0]
    block = max(1, min(m, _RADIUS_TILE // max(n, 1)))
    tiles = None
    for q0 in range(0, m, block):
        q1 = min(m, q0 + block)
        if Y is None:
            tile = Q[q0:q1]
        elif code in _PRODUCT_CODES:
            if tiles is None:
                tiles = _ProductTiles(Y, code)
            tile = tiles.tile(Q[q0:q1])
        elif code in _COORDINATE_CODES:
            if tiles is None:
                tiles = np.ascontiguousarray(Y.T)
            tile = _k.pairwise_coordinates(Q[q0:q1], tiles, code, p)
        else:
            tile = _k.pairwise_reduced(Q[q0:q1], Y, code, p)
        yield q0, q1, tile


def _tiled_radius(Q, Y, r_red, code, p):
    """Radius search on float64 tiles of whole rows (other metrics, precomputed)."""
    parts_i, parts_d, parts_c = [], [], []
    for q0, q1, tile in _radius_tiles(Q, Y, code, p):
        counts = _k.tile_radius_count(tile, r_red[q0:q1])
        offsets = np.zeros(q1 - q0 + 1, dtype=np.intp)
        np.cumsum(counts, out=offsets[1:])
        ind, dist = _k.tile_radius_fill(tile, r_red[q0:q1], code, p, offsets)
        parts_i.append(ind)
        parts_d.append(dist)
        parts_c.append(counts)
    if not parts_c:
        return np.zeros(0, dtype=np.intp), np.zeros(0), np.zeros(0, dtype=np.intp)
    if len(parts_c) == 1:  # no copy of what may be every pair of rows
        return parts_i[0], parts_d[0], parts_c[0]
    return np.concatenate(parts_i), np.concatenate(parts_d), np.concatenate(parts_c)


def _reduced_radii(r, m, Y, code, p):
    """The radius (a scalar or one per query) as a contiguous float64 array of ``m``
    reduced distances (as given for precomputed distances, ``Y`` None)."""
    r = np.full(m, r, dtype=np.float64)
    return r if Y is None else np.ascontiguousarray(to_reduced(r, code, p), dtype=np.float64)


def brute_radius(Q, Y, r, code, p, *, sort_results=False, index=None, n_threads=1):
    """Rows of ``Y`` within distance ``r[i]`` of each ``Q[i]`` (flat CSR-like output).

    ``Y=None`` means ``Q`` is a precomputed (m, n) distance matrix. Euclidean
    and cosine search run the fused float32 GEMM of the k-NN search
    (:func:`_gemm_radius`, with ``index`` and ``n_threads`` as in
    :func:`brute_kneighbors`); other metrics fill float64 tiles of whole
    rows per query block, count, then fill.

    Returns
    -------
    ind : intp (total,), ascending training index within each query (or by
        (distance, index) with ``sort_results``);
    dist : float64 (total,);
    offsets : intp (m + 1,).
    """
    m = Q.shape[0]
    r_red = _reduced_radii(r, m, Y, code, p)
    if Y is not None and code in (EUCLIDEAN, COSINE, SQEUCLIDEAN):
        ind, dist, counts = _gemm_radius(Q, GemmIndex(Y, code) if index is None else index,
                                         r_red, p, n_threads)
    else:
        ind, dist, counts = _tiled_radius(Q, Y, r_red, code, p)
    offsets = np.zeros(m + 1, dtype=np.intp)
    np.cumsum(counts, out=offsets[1:])
    if sort_results:
        sort_segments(ind, dist, offsets)
    return ind, dist, offsets


def brute_radius_sums(Q, Y, r, code, p, sums, *, index=None, n_threads=1):
    """The search of :func:`brute_radius`, each neighbour folded into ``sums`` (a
    :class:`~._radius_sums.RadiusSums` with a row per query) instead of listed."""
    r_red = _reduced_radii(r, Q.shape[0], Y, code, p)
    if Y is not None and code in (EUCLIDEAN, COSINE, SQEUCLIDEAN):
        _gemm_radius(Q, GemmIndex(Y, code) if index is None else index, r_red, p, n_threads,
                     sums=sums)
        return
    for q0, q1, tile in _radius_tiles(Q, Y, code, p):
        sums.fold_tile(tile, r_red[q0:q1], code, p, q0, q1)
