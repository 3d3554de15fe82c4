"""numba kernels that reduce the neighbours within a radius as they are found (seed 000 §3).

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

from .._kernels.distances import reduced_distance, reduced_to_distance
from .._kernels.jit import njit, prange
from ._brute_kernels import _row_candidates

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


@njit(cache=True, nogil=True)
def reduce_gemm(Qb, Y_low, chunk, buf, top, Q, Y, r, metric, p, cols, vals, weighting,
                sums, totals):
    """The search of ``_brute_kernels.gemm_radius_count`` (float32 products chunk by chunk,
    candidates below ``top[i]`` checked exactly against ``r[i]``), each neighbour
    folded into the block's ``sums`` and ``totals`` instead of listed."""
    b = Qb.shape[0]
    n = Y_low.shape[0]
    col_list = np.empty(chunk, dtype=np.intp)
    for c0 in range(0, n, chunk):
        c1 = min(n, c0 + chunk)
        tile = buf[: b * (c1 - c0)].reshape((b, c1 - c0))
        np.dot(Qb, Y_low[c0:c1].T, tile)
        for i in range(b):
            for u in range(_row_candidates(tile[i], top[i], c0, col_list)):
                j = col_list[u]
                v = reduced_distance(Q, i, Y, j, metric, p)
                if v <= r[i]:
                    _add_neighbour(sums, totals, np.intp(i), j,
                                   reduced_to_distance(v, metric, p), 1.0, cols, vals,
                                   weighting)
