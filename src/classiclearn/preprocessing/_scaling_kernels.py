"""numba kernels of the scalers and the imputer: per-column statistics and elementwise maps.

All kernels take a C-contiguous 2-D float array X (float32 or float64) and never
write into it. They are serial (these passes are bound by memory bandwidth, and
serial kernels compile in a fraction of the time of ``parallel=True`` ones);
column statistics are still reduced over a fixed number of row chunks
(``N_CHUNKS``) summed in order, which keeps the door open to a parallel driver
that gives the same result for any thread count.
"""

import numpy as np

from .._kernels.jit import njit

N_CHUNKS = 16


@njit(cache=True, nogil=True)
def column_weighted_moments(X, w):
    """NaN-aware weighted count, mean and sum of squared deviations of each column.

    Parameters
    ----------
    X : (n, p) float32/float64, C-contiguous. NaN entries are skipped.
    w : (n,) float64 sample weights.

    Returns
    -------
    count, mean, m2 : (p,) float64 arrays (mean 0 and m2 0 where count is 0).
    Thread-safe; allocates its outputs.
    """
    n, p = X.shape
    step = (n + N_CHUNKS - 1) // N_CHUNKS
    cnt = np.zeros((N_CHUNKS, p))
    tot = np.zeros((N_CHUNKS, p))
    for c in range(N_CHUNKS):
        for i in range(c * step, min(n, (c + 1) * step)):
            wi = w[i]
            for j in range(p):
                x = X[i, j]
                if x == x:
                    cnt[c, j] += wi
                    tot[c, j] += wi * x
    count = np.zeros(p)
    mean = np.zeros(p)
    for c in range(N_CHUNKS):
        for j in range(p):
            count[j] += cnt[c, j]
            mean[j] += tot[c, j]
    for j in range(p):
        mean[j] = mean[j] / count[j] if count[j] > 0 else 0.0
    dev = np.zeros((N_CHUNKS, p))
    for c in range(N_CHUNKS):
        for i in range(c * step, min(n, (c + 1) * step)):
            wi = w[i]
            for j in range(p):
                x = X[i, j]
                if x == x:
                    d = x - mean[j]
                    dev[c, j] += wi * d * d
    m2 = np.zeros(p)
    for c in range(N_CHUNKS):
        for j in range(p):
            m2[j] += dev[c, j]
    return count, mean, m2


@njit(cache=True, nogil=True)
def center_scale(X, offset, scale, out):
    """``out[i, j] = (X[i, j] - offset[j]) / scale[j]`` (NaN stays NaN).

    Parameters
    ----------
    X : (n, p) C-contiguous; offset, scale : (p,) of X's dtype;
    out : (n, p) preallocated, X's dtype, written entirely. Thread-safe.
    """
    n, p = X.shape
    for i in range(n):
        for j in range(p):
            out[i, j] = (X[i, j] - offset[j]) / scale[j]


@njit(cache=True, nogil=True)
def scale_shift(X, scale, shift, out):
    """``out[i, j] = X[i, j] * scale[j] + shift[j]`` (NaN stays NaN).

    Parameters
    ----------
    X : (n, p) C-contiguous; scale, shift : (p,) of X's dtype;
    out : (n, p) preallocated, written entirely. Thread-safe.
    """
    n, p = X.shape
    for i in range(n):
        for j in range(p):
            out[i, j] = X[i, j] * scale[j] + shift[j]


@njit(cache=True, nogil=True)
def fill_nan(X, values, out):
    """Copy X into out with each NaN of column j replaced by ``values[j]``.

    Parameters
    ----------
    X : (n, p) C-contiguous; values : (p,) of X's dtype;
    out : (n, p) preallocated, written entirely. Thread-safe.
    """
    n, p = X.shape
    for i in range(n):
        for j in range(p):
            x = X[i, j]
            out[i, j] = values[j] if x != x else x


@njit(cache=True, nogil=True, inline="always")
def _scale_line(x, out, kind):
    # x over its norm into out (a norm of 0 copies it); returns the norm
    acc = 0.0
    if kind == 0:
        for j in range(x.shape[0]):
            acc += abs(x[j])
    elif kind == 1:
        for j in range(x.shape[0]):
            acc += x[j] * x[j]
        acc = np.sqrt(acc)
    else:
        for j in range(x.shape[0]):
            acc = max(acc, abs(x[j]))
    scale = x.dtype.type(acc if acc != 0.0 else 1.0)
    for j in range(x.shape[0]):
        out[j] = x[j] / scale
    return acc


@njit(cache=True, nogil=True)
def normalize_rows(X, out, kind, norms):
    """Each row of X over its norm into ``out`` (rows of norm 0 copied), the norms into
    ``norms``: ``kind`` 0 = l1 (sum of |x|), 1 = l2, 2 = max |x|. One pass: a row's
    norm is taken while the row is in cache, then the row is divided by it."""
    for i in range(X.shape[0]):
        norms[i] = _scale_line(X[i], out[i], kind)


@njit(cache=True, nogil=True)
def normalize_segments(data, indptr, out, kind, norms):
    """:func:`normalize_rows` for the stored values of CSR rows (CSC columns)."""
    for i in range(indptr.shape[0] - 1):
        norms[i] = _scale_line(data[indptr[i]:indptr[i + 1]], out[indptr[i]:indptr[i + 1]],
                               kind)
