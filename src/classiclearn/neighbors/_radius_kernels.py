"""numba kernels of the brute-force radius search (seed 000 §3): the euclidean / cosine
scan of float32 GEMM tiles, which lists a block's neighbours or folds them into sums,
and the folds of float64 tiles and of listed neighbours.

The radius classifier and regressor need, per query row, only the weighted sums
of their neighbours' targets, never the list of pairs: with a large radius that
list is most of (queries x training rows), and writing it costs more than the
search. These kernels fold each neighbour into per-row sums instead.

A neighbour ``j`` of query ``i`` at distance ``d`` with weight ``w`` adds
``w * vals[j, o]`` to ``sums[i, 0, cols[j, o]]`` for every ``o``: for a
classifier ``cols`` holds each output's class code (offset by the output's first
column) and ``vals`` ones, for a regressor ``cols[j] = 0 .. t-1`` and ``vals``
the targets. ``totals[i]`` holds (neighbours, sum of weights, neighbours at
distance zero). With distance weights (``w = 1 / d``), a neighbour whose weight
is infinite (distance zero) goes to ``sums[i, 1]`` with weight one instead:
scikit-learn gives a query with such neighbours their mean alone. Neighbours are
added in ascending training index, query rows are independent, so the sums do
not depend on the threads or the blocks.
"""

import math

import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from .._kernels.distances import reduced_distance, reduced_distances, reduced_to_distance
from .._kernels.jit import njit, prange
from ._brute_kernels import _STRIP, _any_below_strip, _mask_below_strip, _row_candidates

UNIFORM = 0
DISTANCE = 1
# flat weights given by the caller (a weights function)
GIVEN = 2


@njit(cache=True, nogil=True, inline="always")
def _add_neighbour(sums, totals, i, j, d, w, cols, vals, weighting):
    """Fold neighbour ``j`` of row ``i`` (distance ``d``, given weight ``w``)
    into the row's sums (see the module docstring).

    Written without an early return or an unguarded division: in that form the
    compiled loop runs several times slower even for uniform weights."""
    totals[i, 0] += 1.0
    zero = False
    if weighting == DISTANCE:
        w = 1.0 / d if d > 0.0 else math.inf
        zero = w == math.inf
        if zero:
            w = 1.0
    elif weighting == UNIFORM:
        w = 1.0
    k = 1 if zero else 0
    totals[i, 1 + k] += w
    for o in range(cols.shape[1]):
        sums[i, k, cols[j, o]] += w * vals[j, o]


@njit(cache=True, nogil=True, parallel=True)
def reduce_pairs(ind, dist, weights, offsets, cols, vals, weighting, sums, totals):
    """Fold listed neighbours (query ``i``'s are ``ind[offsets[i]:offsets[i + 1]]``
    at ``dist``, with ``weights`` when ``weighting`` is GIVEN) into ``sums`` and
    ``totals`` (zeros on entry, one row per query)."""
    m = offsets.shape[0] - 1
    for i in prange(m):
        for t in range(offsets[i], offsets[i + 1]):
            w = weights[t] if weighting == GIVEN else 1.0
            _add_neighbour(sums, totals, np.intp(i), ind[t], dist[t], w, cols, vals,
                           weighting)


@njit(cache=True, nogil=True, parallel=True)
def reduce_tile(tile, r, metric, p, cols, vals, weighting, sums, totals):
    """Fold the columns ``j`` with ``tile[i, j] <= r[i]`` (reduced distances, the
    training rows in order) into row ``i`` of ``sums`` and ``totals``."""
    m, n = tile.shape
    for i in prange(m):
        ri = r[i]
        for j in range(n):
            v = tile[i, j]
            if v <= ri:
                _add_neighbour(sums, totals, np.intp(i), np.intp(j),
                               reduced_to_distance(v, metric, p), 1.0, cols, vals, weighting)


# gemm_radius_count lists a block's neighbours in one pass while they are at most this many
# per query row on average, or one in _LIST_ROWS_PER_HIT of the training rows (the list
# costs several times a candidate test per entry); a block with more is searched twice
# (count, then fill in place): the second scan costs less than listing that many.
_LIST_HITS_PER_ROW = 64
_LIST_ROWS_PER_HIT = 32
# the second scan writes each query row's hits in runs, one run per chunk of training
# rows: it scans the block _FILL_ROWS query rows at a time, in chunks _FILL_CHUNKS times
# as wide, so that the runs are longer and the rows being written fewer
_FILL_ROWS = 32
_FILL_CHUNKS = 16
# the modes of _radius_pass
_LIST = 0
_COUNT = 1
_FILL = 2
_FOLD = 3


@njit(cache=True, nogil=True, inline="always")
def _bit_count(mask):
    """Number of set bits of a uint64."""
    mask = mask - ((mask >> np.uint64(1)) & np.uint64(0x5555555555555555))
    mask = (mask & np.uint64(0x3333333333333333)) + \
        ((mask >> np.uint64(2)) & np.uint64(0x3333333333333333))
    mask = (mask + (mask >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.intp((mask * np.uint64(0x0101010101010101)) >> np.uint64(56))


@njit(cache=True, nogil=True)
def _count_row(row, upper, sure, c0, Q, i, Y, r, metric, p):
    """Hits of query ``i`` among the columns of its tile row (training rows ``c0`` on):
    the values below ``sure`` counted strip by strip from a bit mask, those between
    ``sure`` and ``upper`` checked on the exact distance (see :func:`_radius_pass`)."""
    c = row.shape[0]
    n_full = c // _STRIP
    count = 0
    for s in range(n_full):
        j0 = s * _STRIP
        if not _any_below_strip(row, j0, upper):
            continue
        inside = _mask_below_strip(row, j0, sure)
        count += _bit_count(inside)
        band = _mask_below_strip(row, j0, upper) & ~inside
        while band != 0:
            j = c0 + j0 + trailing_zeros(band)
            count += reduced_distance(Q, i, Y, j, metric, p) <= r
            band &= band - np.uint64(1)
    for j in range(n_full * _STRIP, c):
        v = row[j]
        if v < sure:
            count += 1
        elif v < upper:
            count += reduced_distance(Q, i, Y, c0 + j, metric, p) <= r
    return count


@njit(cache=True, nogil=True)
def _radius_pass(Qb, Y_low, chunk, buf, bounds, Q, Y, r, metric, p, mode, counts, hits_q,
                 hits_j, hits_v, cols, vals, weighting, sums, totals):
    """One scan of a block: for each chunk of ``chunk`` training rows one BLAS product
    ``Qb Y_c'`` (float32, as ``_brute_kernels.gemm_select``) fills the tile held in
    ``buf``; the columns with a value ``< bounds[i, 0]`` (the radius plus the rounding
    bound of the product, so no true hit is missed) are found strip by strip, and only
    those get the exact reduced distance from the float64 rows ``Q``, ``Y``. A value
    ``< bounds[i, 1]`` (the radius less the rounding bound) is a hit whatever the exact
    distance: _COUNT counts it without computing that distance, and every mode takes
    it, so that the counts and the rows written always agree. Each row
    ``j`` within ``r[i]`` of query ``i`` is then listed as (i, j, value) in ``hits_*``
    (_LIST: returns the number listed, or -1 as soon as they do not fit), counted in
    ``counts[i]`` (_COUNT), written at ``hits_j[counts[i]]`` / ``hits_v[counts[i]]``
    (the true distance) with ``counts[i]`` advanced (_FILL: ``counts`` holds each row's
    next free slot),
    or folded into ``sums`` and ``totals`` (_FOLD). Arguments a mode does not use may
    be empty."""
    b = Qb.shape[0]
    n = Y_low.shape[0]
    found = np.empty(chunk, dtype=np.intp)
    exact = np.empty(chunk)
    count = 0
    for c0 in range(0, n, chunk):
        c1 = min(n, c0 + chunk)
        tile = buf[: b * (c1 - c0)].reshape((b, c1 - c0))
        np.dot(Qb, Y_low[c0:c1].T, tile)
        for i in range(b):
            row = tile[i]
            sure = bounds[i, 1]
            if mode == _COUNT:
                counts[i] += _count_row(row, bounds[i, 0], sure, c0, Q, np.intp(i), Y, r[i],
                                        metric, p)
                continue
            n_found = _row_candidates(row, bounds[i, 0], c0, found)
            reduced_distances(Q, i, Y, found, n_found, metric, p, exact)
            for u in range(n_found):
                j = found[u]
                inside = row[j - c0] < sure
                v = exact[u]
                if inside or v <= r[i]:
                    if mode == _FOLD:
                        _add_neighbour(sums, totals, np.intp(i), j,
                                       reduced_to_distance(v, metric, p), 1.0, cols, vals,
                                       weighting)
                    elif mode == _LIST:
                        if count == hits_q.shape[0]:
                            return -1
                        hits_q[count] = i
                        hits_j[count] = j
                        hits_v[count] = v
                        count += 1
                    elif mode == _COUNT:
                        counts[i] += 1
                    else:
                        t = counts[i]
                        hits_j[t] = j
                        hits_v[t] = reduced_to_distance(v, metric, p)
                        counts[i] = t + 1
    return count


@njit(cache=True, nogil=True, inline="always")
def _no_fold():
    """Empty fold arguments of :func:`_radius_pass` (the modes that list)."""
    return (np.empty((0, 0), dtype=np.intp), np.empty((0, 0)), UNIFORM,
            np.empty((0, 0, 0)), np.empty((0, 0)))


@njit(cache=True, nogil=True)
def reduce_gemm(Qb, Y_low, chunk, buf, bounds, Q, Y, r, metric, p, cols, vals, weighting,
                sums, totals):
    """The scan of :func:`gemm_radius_count`, each neighbour folded into the block's
    ``sums`` and ``totals`` instead of listed."""
    none = np.empty(0, dtype=np.intp)
    _radius_pass(Qb, Y_low, chunk, buf, bounds, Q, Y, r, metric, p, _FOLD, none, none, none,
                 np.empty(0), cols, vals, weighting, sums, totals)


@njit(cache=True, nogil=True)
def gemm_radius_count(Qb, Y_low, chunk, buf, bounds, Q, Y, r, metric, p, try_list):
    """First half of the radius search of a block: the number of rows of ``Y`` within
    reduced distance ``r[i]`` of each row ``Q[i]``, and the hits themselves while they
    are few.

    For each chunk of ``chunk`` training rows one BLAS product ``Qb Y_c'``
    (float32, as ``_brute_kernels.gemm_select``) fills the tile held in ``buf``; the
    columns with a value ``< bounds[i, 0]`` (the radius plus the rounding bound of
    the product, so no true hit is missed) are found strip by strip, and
    only those get the exact reduced distance from the float64 rows ``Q``,
    ``Y``, kept if ``<= r[i]`` (or if the value is below ``bounds[i, 1]``, the
    radius less the bound: see :func:`_radius_pass`). One pass over each in-cache tile, listing the
    hits as (row, column, reduced value) while they are few (see
    ``_LIST_HITS_PER_ROW``); past that, the pass only counts them, and
    :func:`gemm_radius_place` scans the block again to write them. With
    ``try_list`` False (another block of the search had too many to list) the
    block is only counted.

    Returns
    -------
    counts : intp (b,); listed : the number of hits listed, -1 if not listed;
    hits_q, hits_j : intp; hits_v : float64, the listed hits in their first ``listed``
    entries.
    """
    b = Qb.shape[0]
    n = Y_low.shape[0]
    cap = max(16, b * max(_LIST_HITS_PER_ROW, n // _LIST_ROWS_PER_HIT)) if try_list else 0
    hits_q = np.empty(cap, dtype=np.intp)
    hits_j = np.empty(cap, dtype=np.intp)
    hits_v = np.empty(cap)
    counts = np.zeros(b, dtype=np.intp)
    listed = -1
    if try_list:
        listed = _radius_pass(Qb, Y_low, chunk, buf, bounds, Q, Y, r, metric, p, _LIST, counts,
                              hits_q, hits_j, hits_v, *_no_fold())
    if listed >= 0:
        for h in range(listed):
            counts[hits_q[h]] += 1
    else:
        _radius_pass(Qb, Y_low, chunk, buf, bounds, Q, Y, r, metric, p, _COUNT, counts,
                     hits_q, hits_j, hits_v, *_no_fold())
    return counts, listed, hits_q, hits_j, hits_v


@njit(cache=True, nogil=True)
def gemm_radius_place(Qb, Y_low, chunk, buf, bounds, Q, Y, r, metric, p, listed, hits_q,
                      hits_j, hits_v, starts, out_ind, out_dist):
    """Second half: the hits of the block's rows written from ``starts[i]`` on in
    ``out_ind`` (ascending column) and ``out_dist`` (true distances), from the list of
    :func:`gemm_radius_count` (a stable counting sort by row: the hits come chunk by
    chunk) or, when it did not list them, by a second scan. ``starts`` is advanced."""
    if listed >= 0:
        for h in range(listed):
            i = hits_q[h]
            out_ind[starts[i]] = hits_j[h]
            out_dist[starts[i]] = reduced_to_distance(hits_v[h], metric, p)
            starts[i] += 1
    else:
        rows = _FILL_ROWS
        wide = min(_FILL_CHUNKS * chunk, Y_low.shape[0])
        small = np.empty(rows * wide, dtype=np.float32)
        for r0 in range(0, Qb.shape[0], rows):
            r1 = min(Qb.shape[0], r0 + rows)
            _radius_pass(Qb[r0:r1], Y_low, wide, small, bounds[r0:r1], Q[r0:r1], Y, r[r0:r1],
                         metric, p, _FILL, starts[r0:r1], hits_q, out_ind, out_dist,
                         *_no_fold())
