"""Binning for the histogram splitter: each feature cut once into <= 255 quantile bins.

Bin ``b`` of feature ``j`` holds the values ``x`` with
``edges[j, b - 1] < x <= edges[j, b]``; a split "bin <= b" is the split
"x <= edges[j, b]" on raw values, so the fitted tree predicts raw data.
"""

import numpy as np

from .._kernels.work import BIN_VALUES_THREADED
from ..utils._threads import current_numba_threads, pooled_map, row_chunks
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
    fractions = np.true_divide(np.linspace(0, 100, max_bins + 1)[1:-1], 100)
    # every column sorted at once (float32 sorts fast; NaN sorts last), as rows of the
    # transposed data; distinct values and quantiles from the sorted order
    _hk.column_edges(np.sort(Xs.T, axis=1), max_bins, fractions, edges, n_bins)
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
    X = np.ascontiguousarray(X, dtype=np.float32)
    nan_bin = np.asarray(n_bins, dtype=np.uint8)
    n_threads = current_numba_threads() if X.size >= BIN_VALUES_THREADED else 1

    def bin_chunk(bounds):
        lo, hi = bounds
        _hk.bin_rows(X[lo:hi], padded, nan_bin, out[lo:hi])

    pooled_map(bin_chunk, row_chunks(X.shape[0], n_threads, 1024), n_threads)
    return out
