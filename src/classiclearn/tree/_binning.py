"""Binning for the histogram splitter: each feature cut once into <= 255 quantile bins.

Bin ``b`` of feature ``j`` holds the values ``x`` with
``edges[j, b - 1] < x <= edges[j, b]``; a split "bin <= b" is the split
"x <= edges[j, b]" on raw values, so the fitted tree predicts raw data.
"""

import numpy as np

from . import _hist_kernels as _hk

__all__ = ["fit_bins", "transform_bins"]


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
    for j in range(p):
        # one sort per column (float32 sorts fast); distinct values and quantiles from it
        col = np.sort(Xs[:, j]).astype(np.float64)
        if np.isnan(col[-1]):  # NaN sorts last
            col = col[: np.searchsorted(col, np.nan)]
            if col.size == 0:
                n_bins[j] = 1
                continue
        new = np.empty(col.size, dtype=bool)
        new[0] = True
        np.not_equal(col[1:], col[:-1], out=new[1:])
        n_distinct = int(np.count_nonzero(new))
        if n_distinct <= max_bins:
            distinct = col[new]
            mids = distinct[:-1] / 2.0 + distinct[1:] / 2.0
        else:
            mids = np.unique(np.percentile(col, qs, method="midpoint"))
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
