"""Per-query sums of the neighbours within a radius, for the radius classifier and
regressor (see :mod:`._radius_kernels` for what is summed and how)."""

import copy

import numpy as np

from .._kernels.work import NUMBA_PASS_WORK
from ..utils._threads import auto_n_jobs, numba_threads
from . import _radius_kernels as _rk

# Neighbour pairs (at most about) listed at a time when a search can only list
# them (trees, Dask, the training rows as queries): 32 MB of indices and distances.
_LISTED_PAIRS = 1 << 21


def weighting_code(weights):
    """The kernels' code of a ``weights`` parameter (a function: GIVEN)."""
    if weights in (None, "uniform"):
        return _rk.UNIFORM
    if weights == "distance":
        return _rk.DISTANCE
    return _rk.GIVEN


class RadiusSums:
    """Zeroed sums for ``n_queries`` rows over targets given as ``cols`` / ``vals``.

    Parameters
    ----------
    n_queries : int
    cols : intp (n_train, n_outputs)
        Column of ``sums`` each training row adds to, per output.
    vals : float64 (n_train, n_outputs)
        What it adds (times its weight).
    n_cols : int
        Columns of ``sums``.
    weights : {"uniform", "distance"}, callable or None
    n_jobs : int or None
        Threads of the folds (one for a fold too small to pay for more).

    Attributes
    ----------
    sums : float64 (n_queries, 2, n_cols) with distance weights, else (n_queries, 1, n_cols)
        Weighted sums; ``[:, 1]`` the unweighted sums of the neighbours at distance
        zero.
    totals : float64 (n_queries, 3)
        Neighbours, sum of weights, neighbours at distance zero.
    """

    def __init__(self, n_queries, cols, vals, n_cols, weights, n_jobs=None):
        self.n_jobs = n_jobs
        self.cols = np.ascontiguousarray(cols, dtype=np.intp)
        self.vals = np.ascontiguousarray(vals, dtype=np.float64)
        self.weights = weights
        self.weighting = weighting_code(weights)
        # the zero-distance layer is only written with distance weights
        layers = 2 if self.weighting == _rk.DISTANCE else 1
        self.sums = np.zeros((n_queries, layers, n_cols))
        self.totals = np.zeros((n_queries, 3))

    def arguments(self, q0, q1):
        """The kernels' trailing arguments for query rows ``q0:q1``."""
        return (self.cols, self.vals, self.weighting, self.sums[q0:q1], self.totals[q0:q1])

    def fold_tile(self, tile, r_red, code, p, q0, q1):
        """Fold the reduced distances ``tile`` of query rows ``q0:q1`` to every training
        row (neighbours: at most ``r_red``)."""
        with numba_threads(auto_n_jobs(self.n_jobs, tile.size, NUMBA_PASS_WORK)):
            _rk.reduce_tile(tile, r_red, code, p, *self.arguments(q0, q1))

    def fold_listed(self, ind, dist, offsets, q0):
        """Fold listed neighbours of query rows ``q0:q0 + len(offsets) - 1``."""
        q1 = q0 + offsets.shape[0] - 1
        if self.weighting == _rk.GIVEN:
            given = np.asarray(self.weights(dist), dtype=np.float64).reshape(dist.shape)
        else:
            given = np.zeros(0)
        work = ind.shape[0] * self.cols.shape[1]
        with numba_threads(auto_n_jobs(self.n_jobs, work, NUMBA_PASS_WORK)):
            _rk.reduce_pairs(ind, dist, given, offsets, *self.arguments(q0, q1))

    def rows_from(self, q0):
        """These sums from query row ``q0`` on (views: what is folded into them lands
        here)."""
        tail = copy.copy(self)
        tail.sums, tail.totals = self.sums[q0:], self.totals[q0:]
        return tail

    def counts(self):
        """Neighbours of each query."""
        return self.totals[:, 0]

    def weighted(self):
        """(sums (n_queries, n_cols), weights (n_queries,)) each query's answer is made
        of: those of its neighbours at distance zero where it has some."""
        sums, weights = self.sums[:, 0], self.totals[:, 1]
        zero = self.totals[:, 2] > 0
        if zero.any():
            sums, weights = sums.copy(), weights.copy()
            sums[zero] = self.sums[zero, 1]
            weights[zero] = self.totals[zero, 2]
        return sums, weights


def fold_listed_in_pieces(sums, search, n_queries, scan_rest=None):
    """Fold the neighbours that ``search(q0, q1)`` lists as (ind, dist, offsets) for
    query rows ``q0:q1``, in pieces of about ``_LISTED_PAIRS`` pairs (judged from the
    pieces before), so the list never holds every pair at once.

    ``scan_rest(q0, per_row)``, if given, is offered the rows from ``q0`` on after the
    first piece, with its neighbours per row: it folds them (and returns True) when a
    scan of every training row costs less than listing that many."""
    # (a short first piece when it may hand the rest to a scan)
    q0, step = 0, 256 if scan_rest is None else 64
    while q0 < n_queries:
        q1 = min(n_queries, q0 + step)
        ind, dist, offsets = search(q0, q1)
        sums.fold_listed(ind, dist, offsets, q0)
        per_row = max(1.0, ind.shape[0] / (q1 - q0))
        if q0 == 0 and q1 < n_queries and scan_rest is not None and scan_rest(q1, per_row):
            return
        step = int(min(max(16, _LISTED_PAIRS // per_row), 1 << 16))
        q0 = q1
