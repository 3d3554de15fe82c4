"""Binning for the histogram splitter: each feature cut once into <= 255 quantile bins.

Bin ``b`` of feature ``j`` holds the values ``x`` with
``edges[j, b - 1] < x <= edges[j, b]``; a split "bin <= b" is the split
"x <= edges[j, b]" on raw values, so the fitted tree predicts raw data.
"""

import numpy as np

from . import _hist_kernels as _hk

__all__ = ["fit_bins", "transform_bins"]


def _midpoint_positions(n, qs):
    """Where ``np.percentile(col, qs, method="midpoint")`` reads an ascending ``col`` of
    ``n`` values: (previous index, next index, whether the value is their midpoint rather
    than the previous one), computed as numpy computes them."""
    v = (n - 1) * np.true_divide(qs, 100)
    virtual = 0.5 * (np.floor(v) + np.ceil(v))
    prev = np.floor(virtual)
    nxt = prev + 1
    above = virtual >= n - 1
    prev[above] = -1
    nxt[above] = -1
    return prev.astype(np.intp), nxt.astype(np.intp), virtual % 1 != 0


def sorted_percentiles(col, positions):
    """``np.percentile(col, qs, method="midpoint")`` of an ascending ``col`` without NaN
    (or of each row of a 2-D ``col``; ``positions`` from :func:`_midpoint_positions` for
    its length): numpy's
    interpolation without its partition of the data (which costs far more than the sort
    on a few hundred values)."""
    prev, nxt, half = positions
    a = col[..., prev]
    b = col[..., nxt]
    diff = b - a
    gamma = np.where(half, 0.5, 0.0)
    out = a + diff * gamma
    np.subtract(b, diff * (1 - gamma), out=out, where=half)
    return out


def _compact(keep, values, out):
    """``out[i, :k_i] = values[i, keep[i]]`` for each row ``i`` (``k_i`` kept values)."""
    rows, at = np.nonzero(keep)
    out[rows, np.cumsum(keep, axis=1)[rows, at] - 1] = values[rows, at]


def fit_bins(X, max_bins, seed, subsample=200_000):
    """Bin edges of every feature of X (float32).

    Distinct values are used directly when there are at most ``max_bins`` of
    them (edges are midpoints), otherwise quantiles of (a subsample of) the
    column; NaN values are left out (they get their own bin, ``n_bins[j]``, in
    :func:`transform_bins`). Returns (edges float64 (n_features, max_bins + 1): the
    last column is room for the missing-value bin of the histograms, n_bins intp).
    """
    n, p = X.shape
    if n > subsample:
        rows = np.random.default_rng(seed).choice(n, subsample, replace=False)
        rows.sort()
        Xs = X[rows]
    else:
        Xs = X
    edges = np.full((p, max_bins + 1), np.inf)
    n_bins = np.zeros(p, dtype=np.intp)
    qs = np.linspace(0, 100, max_bins + 1)[1:-1]
    # every column sorted at once (float32 sorts fast; NaN sorts last), as rows of the
    # transposed data; distinct values and quantiles from the sorted order
    cols = np.sort(Xs.T, axis=1).astype(np.float64)
    m = cols.shape[1]
    n_valid = m - np.count_nonzero(np.isnan(cols), axis=1)
    new = np.empty(cols.shape, dtype=bool)  # first of its value (each NaN counts)
    new[:, 0] = True
    np.not_equal(cols[:, 1:], cols[:, :-1], out=new[:, 1:])
    n_distinct = np.count_nonzero(new, axis=1) - (m - n_valid)
    whole = n_valid == m
    # columns without NaN at once: few distinct values (edges their midpoints) ...
    few = np.flatnonzero(whole & (n_distinct <= max_bins))
    if few.size:
        distinct = np.zeros((few.size, max_bins))
        _compact(new[few], cols[few], distinct)
        mids = distinct[:, :-1] / 2.0 + distinct[:, 1:] / 2.0
        used = np.arange(max_bins - 1) < (n_distinct[few] - 1)[:, None]
        edges[few, :max_bins - 1] = np.where(used, mids, np.inf)
        n_bins[few] = n_distinct[few]
    # ... or many (edges their quantiles, kept once each when ascending, and below the
    # maximum)
    rest = np.flatnonzero(~whole)
    many = np.flatnonzero(whole & (n_distinct > max_bins))
    if many.size:
        qv = sorted_percentiles(cols[many], _midpoint_positions(m, qs))
        ascending = np.all(qv[:, 1:] >= qv[:, :-1], axis=1)
        keep = np.empty(qv.shape, dtype=bool)
        keep[:, 0] = True
        np.not_equal(qv[:, 1:], qv[:, :-1], out=keep[:, 1:])
        keep &= qv < cols[many, -1:]
        keep[~ascending] = False
        quantiles = np.full((many.size, max_bins + 1), np.inf)
        _compact(keep, qv, quantiles)
        edges[many] = quantiles
        n_bins[many] = np.count_nonzero(keep, axis=1) + 1
        rest = np.concatenate((rest, many[~ascending]))
    for j in rest:
        nv = n_valid[j]
        if nv == 0:
            n_bins[j] = 1
            continue
        col = cols[j, :nv]
        if n_distinct[j] <= max_bins:
            distinct = col[new[j, :nv]]
            mids = distinct[:-1] / 2.0 + distinct[1:] / 2.0
        else:
            mids = np.unique(sorted_percentiles(col, _midpoint_positions(nv, qs)))
            mids = mids[mids < col[-1]]
        k = mids.size
        edges[j, :k] = mids
        n_bins[j] = k + 1
    return edges, n_bins


def transform_bins(X, mapper):
    """Bin index (uint8) of every value of X, shape (n_samples, n_features); NaN gets
    bin ``n_bins[j]`` (at most 255: ``max_bins`` <= 255)."""
    edges, n_bins = mapper
    padded = np.full((X.shape[1], 256), np.inf)
    for j in range(X.shape[1]):
        k = n_bins[j] - 1
        padded[j, :k] = edges[j, :k]
    out = np.empty(X.shape, dtype=np.uint8)
    _hk.bin_rows(np.ascontiguousarray(X, dtype=np.float32), padded,
                 np.asarray(n_bins, dtype=np.uint8), out)
    return out
