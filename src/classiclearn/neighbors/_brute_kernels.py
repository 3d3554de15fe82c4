"""numba kernels for brute-force neighbour search (seed 000 §3).

Euclidean and cosine search compute float32 tiles of approximate values with
one GEMM per block (``|y|^2 - 2 <q, y>``, the squared-norm expansion, with
the norm carried by an extra column, or ``-<q, y>`` on unit rows), done by
the caller with NumPy/BLAS; the kernels here fold each tile into a short
sorted candidate list per query row, then recompute the exact distances of
the candidates so the distances returned do not carry the cancellation error
of the expansion. Other metrics scan the training rows directly. Heaps are
keyed on (distance, training index), so ties go to the lower index. All
drivers are parallel over query rows, write only their own rows, and never
write into their inputs (except the heap arrays they are handed).

The metric code's type selects a specialisation (see
``_kernels.distances.kernel_code``): the extra metrics (braycurtis ... yule)
come as int32 and compile their own copy of each driver when first used.
"""

import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from .._kernels.distances import (
    CHEBYSHEV,
    MANHATTAN,
    reduced_distance,
    reduced_distance_bounded,
    reduced_distances,
    reduced_to_distance,
)
from .._kernels.jit import njit, prange
from .._kernels.sorting import insert_sorted, sift_down, sort_pairs_lexicographic

# Columns per filter strip of :func:`tile_select` (a vectorised test, then a
# bit mask of the columns that pass).
_STRIP = 64


@njit(cache=True, nogil=True, inline="always")
def _any_below_strip(row, j0, top):
    """Whether some ``row[j0:j0 + _STRIP]`` is ``< top``: a constant trip count,
    so the loop compiles to a few packed compares instead of a scalar loop
    with a run-time bound)."""
    hit = np.int32(0)
    for j in range(_STRIP):
        hit |= np.int32(row[j0 + j] < top)
    return hit != 0


@njit(cache=True, nogil=True, inline="always")
def _mask_below_strip(row, j0, top):
    """Bit ``j`` set where ``row[j0 + j] < top``, for ``j < _STRIP``."""
    mask = np.uint64(0)
    for j in range(_STRIP):
        mask |= np.uint64(row[j0 + j] < top) << np.uint64(j)
    return mask


@njit(cache=True, nogil=True)
def _row_candidates(row, top, col0, cols):
    """Columns ``j`` of ``row`` with ``row[j] < top``, ascending, as ``col0 + j`` into
    ``cols``; returns their number. Strip by strip: a branch-free test of each strip
    (almost every strip fails it), then a bit mask of the passing columns."""
    c = row.shape[0]
    n_full = c // _STRIP
    m = 0
    for s in range(n_full):
        j0 = s * _STRIP
        if not _any_below_strip(row, j0, top):
            continue
        mask = _mask_below_strip(row, j0, top)
        while mask != 0:
            cols[m] = col0 + j0 + trailing_zeros(mask)
            m += 1
            mask &= mask - np.uint64(1)
    for j in range(n_full * _STRIP, c):
        if row[j] < top:
            cols[m] = col0 + j
            m += 1
    return m


@njit(cache=True, nogil=True)
def tile_select(tile, col0, hd, hi, cols):
    """Merge a float32 tile of approximate values into per-row candidate lists.

    ``hd`` (b, kk) float32 holds each row's kk smallest values so far in
    ascending order, ``hi`` their training indices (``col0 + j`` for column
    ``j``; both updated in place). Column indices only grow from call to call,
    so ``v < hd[i, kk - 1]`` is the exact admission test under the
    (value, index) order, and an admitted value is inserted after any equal
    one. The columns below a row's last candidate are found strip by strip
    (:func:`_row_candidates`) and visited in order, each re-tested, as the
    last candidate only drops. ``cols`` is intp scratch of at least the tile's
    width. Serial: one worker thread per query block.
    """
    b = tile.shape[0]
    kk = hd.shape[1]
    for i in range(b):
        row = tile[i]
        hdi = hd[i]
        hii = hi[i]
        top = hdi[kk - 1]
        for u in range(_row_candidates(row, top, np.intp(0), cols)):
            j = cols[u]
            v = row[j]
            if v < top:
                top = insert_sorted(hdi, hii, v, col0 + j)


@njit(cache=True, nogil=True)
def centred_rows32(X, mean, scale, low, norms):
    """``low[:, :d] = float32(scale (X - mean))`` and ``norms = |X_i - mean|^2`` (summed in
    float64) in one pass over ``X`` (n, d); ``low`` may have more columns (left as they
    are). Training rows take scale 1 (their norms then become ``low``'s last column),
    queries scale -2, so that one float32 GEMM gives ``|y|^2 - 2 <q, y>``."""
    n, d = X.shape
    for i in range(n):
        s = 0.0
        for j in range(d):
            c = X[i, j] - mean[j]
            low[i, j] = np.float32(scale * c)
            s += c * c
        norms[i] = s


@njit(cache=True, nogil=True)
def gemm_select(Qb, Y_low, chunk, buf, hd, hi):
    """Fold every chunk of ``chunk`` training rows into the candidate lists.

    For each chunk ``Y_c`` of ``Y_low`` (n, d') float32, one BLAS product
    ``Qb Y_c'`` (``Qb`` (b, d') float32) fills the tile held in ``buf`` (at
    least ``b * chunk`` float32), then :func:`tile_select` merges it into
    ``hd``, ``hi`` (b, kk), which the caller initialises (``inf``, ``n``).
    Serial; the caller keeps BLAS on one thread and runs one block per thread.
    """
    b = Qb.shape[0]
    n = Y_low.shape[0]
    cols = np.empty(chunk, dtype=np.intp)
    for c0 in range(0, n, chunk):
        c1 = min(n, c0 + chunk)
        tile = buf[: b * (c1 - c0)].reshape((b, c1 - c0))
        np.dot(Qb, Y_low[c0:c1].T, tile)
        tile_select(tile, c0, hd, hi, cols)


@njit(cache=True, nogil=True)
def finalize_candidates(Q, Y, hd, hi, k, delta, metric, p, out_d, out_i, ok,
                        with_distances=True):
    """Exact top-k from approximate candidate lists (serial, one worker thread).

    ``hd`` (b, kk >= k) float32, ascending, holds for each row the kk smallest
    approximate values, each within ``delta[i]`` of the exact reduced
    distance (up to a per-row shift), ``hi`` their indices. If every slot is
    filled and the kk-th value exceeds the k-th by more than ``2 delta[i]``
    (or kk covers all of ``Y``), the exact k nearest are among the
    candidates: the distances of those within ``2 delta[i]`` of the k-th
    value (the others are certainly further than k of them) are recomputed
    from ``Q``, ``Y``, sorted by (distance, index), and the first k written to
    ``out_d``, ``out_i`` (true distances), with ``ok[i] = True``. Otherwise ``ok[i]`` is False and the
    row must be searched again exactly.

    Without ``with_distances`` only the set of the k nearest is written to ``out_i``
    (the same set, in no particular order; ``out_d`` untouched): the candidates more
    than ``2 delta[i]`` below the k-th value are exactly nearer than all but k - 1
    rows and are taken as they are, and only the band within ``2 delta[i]`` of the
    k-th value gets exact distances (a vote among the neighbours needs no more).
    """
    b, kk = hd.shape
    n = Y.shape[0]
    wd = np.empty(kk)
    wi = np.empty(kk, dtype=np.intp)
    for i in range(b):
        gap = np.float64(hd[i, kk - 1]) - np.float64(hd[i, k - 1])
        if hi[i, kk - 1] >= n or (kk < n and not gap > 2.0 * delta[i]):
            ok[i] = False
            continue
        ok[i] = True
        # a candidate more than 2 delta above the k-th approximate value is
        # exactly further than k others: only the rest need exact distances
        cut = np.float64(hd[i, k - 1]) + 2.0 * delta[i]
        m = k
        while m < kk and np.float64(hd[i, m]) <= cut:
            m += 1
        sure = 0
        if not with_distances:
            below = np.float64(hd[i, k - 1]) - 2.0 * delta[i]
            while sure < k and np.float64(hd[i, sure]) < below:
                out_i[i, sure] = hi[i, sure]
                sure += 1
        for c in range(sure, m):
            wi[c - sure] = hi[i, c]
        reduced_distances(Q, i, Y, wi, m - sure, metric, p, wd)
        sort_pairs_lexicographic(wd[:m - sure], wi[:m - sure])
        for c in range(sure, k):
            if with_distances:
                out_d[i, c] = reduced_to_distance(wd[c - sure], metric, p)
            out_i[i, c] = wi[c - sure]


@njit(cache=True, nogil=True, parallel=True)
def scan_knn(Q, Y, k, metric, p):
    """k nearest rows of ``Y`` for each row of ``Q`` by direct scan (any metric).

    Returns true distances (m, k) ascending and intp indices (m, k)."""
    m = Q.shape[0]
    n = Y.shape[0]
    dist = np.empty((m, k))
    ind = np.empty((m, k), dtype=np.intp)
    for i in prange(m):
        hd = dist[i]
        hi = ind[i]
        for c in range(k):
            hd[c] = np.inf
            hi[c] = n
        for j in range(n):
            v = reduced_distance_bounded(Q, i, Y, j, metric, p, hd[0])
            if v < hd[0] or (v == hd[0] and j < hi[0]):
                sift_down(hd, hi, np.intp(0), k, v, j)
        sort_pairs_lexicographic(hd, hi)
        for c in range(k):
            hd[c] = reduced_to_distance(hd[c], metric, p)
    return dist, ind


_SCAN_TILE = 256  # training rows whose distances to one query are summed side by side
_SCAN_QUERIES = 8  # queries sharing each tile of training rows while it is in cache


@njit(cache=True, nogil=True, inline="always")
def _coordinate_tile(Q, i, Yt, j0, t, metric, p, acc):
    """Reduced distances of query i to training rows j0:j0 + t into ``acc[:t]``,
    feature by feature across the tile (contiguous in the transposed ``Yt``, so
    the inner loop vectorises); the features are added in the order of
    :func:`reduced_distance`, so the values are the same to the last bit."""
    for jj in range(t):
        acc[jj] = 0.0
    for f in range(Yt.shape[0]):
        q = Q[i, f]
        # a slice indexed from 0: the loads are contiguous vector loads (an index
        # j0 + jj that could be negative makes LLVM gather element by element)
        row = Yt[f, j0:j0 + t]
        if metric == MANHATTAN:
            for jj in range(t):
                acc[jj] += abs(q - row[jj])
        elif metric == CHEBYSHEV:
            for jj in range(t):
                v = abs(q - row[jj])
                if v > acc[jj]:
                    acc[jj] = v
        else:
            for jj in range(t):
                acc[jj] += abs(q - row[jj]) ** p


@njit(cache=True, nogil=True, parallel=True)
def scan_knn_coordinates(Q, Yt, k, metric, p):
    """:func:`scan_knn` for the coordinate-wise metrics (manhattan, chebyshev,
    minkowski) on the transposed training rows ``Yt`` (d, n): tiles of training
    rows are shared by a few queries at a time, and each query's distances to a
    tile are computed side by side. Same results as ``scan_knn``, ties included."""
    m = Q.shape[0]
    n = Yt.shape[1]
    dist = np.empty((m, k))
    ind = np.empty((m, k), dtype=np.intp)
    n_blocks = (m + _SCAN_QUERIES - 1) // _SCAN_QUERIES
    for b in prange(n_blocks):
        i0 = b * _SCAN_QUERIES
        i1 = min(m, i0 + _SCAN_QUERIES)
        acc = np.empty(_SCAN_TILE)
        for i in range(i0, i1):
            for c in range(k):
                dist[i, c] = np.inf
                ind[i, c] = n
        for j0 in range(0, n, _SCAN_TILE):
            t = min(n - j0, _SCAN_TILE)
            for i in range(i0, i1):
                _coordinate_tile(Q, i, Yt, j0, t, metric, p, acc)
                hd = dist[i]
                hi = ind[i]
                for jj in range(t):
                    v = acc[jj]
                    j = j0 + jj
                    if v < hd[0] or (v == hd[0] and j < hi[0]):
                        sift_down(hd, hi, np.intp(0), k, v, j)
        for i in range(i0, i1):
            sort_pairs_lexicographic(dist[i], ind[i])
            for c in range(k):
                dist[i, c] = reduced_to_distance(dist[i, c], metric, p)
    return dist, ind


@njit(cache=True, nogil=True, parallel=True)
def pairwise_coordinates(Q, Yt, metric, p):
    """:func:`pairwise_reduced` for the coordinate-wise metrics on the transposed
    training rows ``Yt`` (d, n), a tile of training rows at a time (the same
    values to the last bit)."""
    m = Q.shape[0]
    n = Yt.shape[1]
    out = np.empty((m, n))
    for i in prange(m):
        for j0 in range(0, n, _SCAN_TILE):
            t = min(n - j0, _SCAN_TILE)
            _coordinate_tile(Q, i, Yt, j0, t, metric, p, out[i, j0:j0 + t])
    return out


@njit(cache=True, nogil=True, parallel=True)
def pairwise_reduced(Q, Y, metric, p):
    """Reduced distances between every row of ``Q`` and every row of ``Y``."""
    m = Q.shape[0]
    n = Y.shape[0]
    out = np.empty((m, n))
    for i in prange(m):
        for j in range(n):
            out[i, j] = reduced_distance(Q, i, Y, j, metric, p)
    return out


@njit(cache=True, nogil=True)
def _radius_row(tile, i, r, fill, out_ind, out_red, offset):
    n = tile.shape[1]
    count = 0
    for j in range(n):
        v = tile[i, j]
        if v <= r:
            if fill:
                out_ind[offset + count] = j
                out_red[offset + count] = v
            count += 1
    return count


@njit(cache=True, nogil=True, parallel=True)
def tile_radius_count(tile, r):
    """Per row ``i``, the number of ``j`` with ``tile[i, j] <= r[i]`` (reduced
    distances, exact: the metrics without a GEMM expansion)."""
    m = tile.shape[0]
    counts = np.empty(m, dtype=np.intp)
    di = np.empty(0, dtype=np.intp)
    dd = np.empty(0)
    for i in prange(m):
        # typed arguments (np.intp / np.bool_, never literals or the unsigned
        # prange index): both kernels then share one compiled _radius_row
        counts[i] = _radius_row(tile, np.intp(i), r[i], np.bool_(False), di, dd, np.intp(0))
    return counts


@njit(cache=True, nogil=True, parallel=True)
def tile_radius_fill(tile, r, metric, p, offsets):
    """Indices (ascending) and true distances counted by :func:`tile_radius_count`."""
    m = tile.shape[0]
    out_ind = np.empty(offsets[m], dtype=np.intp)
    out_dist = np.empty(offsets[m])
    for i in prange(m):
        _radius_row(tile, np.intp(i), r[i], np.bool_(True), out_ind, out_dist, offsets[i])
        for t in range(offsets[i], offsets[i + 1]):
            out_dist[t] = reduced_to_distance(out_dist[t], metric, p)
    return out_ind, out_dist


@njit(cache=True, nogil=True, parallel=True)
def tile_knn(D, k):
    """The k smallest (value, column) pairs of each row of ``D`` (float64 (m, n),
    k <= n), ascending, ties by column; returns values (m, k) and columns
    (m, k) intp. Parallel over rows."""
    m, n = D.shape
    dist = np.empty((m, k))
    ind = np.empty((m, k), dtype=np.intp)
    for i in prange(m):
        hd = dist[i]
        hi = ind[i]
        for c in range(k):
            hd[c] = np.inf
            hi[c] = n
        for j in range(n):
            v = D[i, j]
            if v < hd[0] or (v == hd[0] and j < hi[0]):
                sift_down(hd, hi, np.intp(0), k, v, j)
        sort_pairs_lexicographic(hd, hi)
    return dist, ind
