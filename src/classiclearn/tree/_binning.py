"""Binning for the histogram splitter: each feature cut once into <= 255 quantile bins.

Bin ``b`` of feature ``j`` holds the values ``x`` with
``edges[j, b - 1] < x <= edges[j, b]``; a split "bin <= b" is the split
"x <= edges[j, b]" on raw values, so the fitted tree predicts raw data.
"""

import numpy as np

__all__ = ["fit_bins", "transform_bins"]


def fit_bins(X, max_bins, seed, subsample=200_000):
    """Bin edges of every feature of X (float32).

    Distinct values are used directly when there are at most ``max_bins`` of
    them (edges are midpoints), otherwise quantiles of (a subsample of) the
    column. Returns (edges float64 (n_features, max_bins), n_bins intp).
    """
    n, p = X.shape
    if n > subsample:
        rows = np.random.default_rng(seed).choice(n, subsample, replace=False)
        rows.sort()
        Xs = X[rows]
    else:
        Xs = X
    edges = np.full((p, max_bins), np.inf)
    n_bins = np.zeros(p, dtype=np.intp)
    for j in range(p):
        col = Xs[:, j].astype(np.float64)
        distinct = np.unique(col)
        if distinct.size <= max_bins:
            mids = distinct[:-1] / 2.0 + distinct[1:] / 2.0
        else:
            qs = np.linspace(0, 100, max_bins + 1)[1:-1]
            mids = np.unique(np.percentile(col, qs, method="midpoint"))
            mids = mids[mids < distinct[-1]]
        k = mids.size
        edges[j, :k] = mids
        n_bins[j] = k + 1
    return edges, n_bins


def transform_bins(X, mapper):
    """Bin index (uint8) of every value of X, shape (n_samples, n_features)."""
    edges, n_bins = mapper
    out = np.empty(X.shape, dtype=np.uint8)
    for j in range(X.shape[1]):
        k = n_bins[j] - 1
        out[:, j] = np.searchsorted(edges[j, :k], X[:, j].astype(np.float64), side="left")
    return out
