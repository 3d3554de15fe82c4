"""numba part of the kernel functions shared by SVC / SVR, KernelRidge and
KernelPCA (seed 000 §14): kernel values from dot products, in place.

The dot products come from one BLAS (or sparse) product, made by
:mod:`.kernel_functions`; here each entry becomes a kernel value. float64
C-contiguous arrays; thread-safe; every entry depends only on its own inputs,
so results do not depend on the number of threads.
"""

import numpy as np

from .exp import exp_nonpositive_inplace, tanh_inplace
from .jit import njit, prange

LINEAR, POLY, RBF, SIGMOID, PRECOMPUTED = 0, 1, 2, 3, 4


@njit(nogil=True, cache=True)
def _poly_row(v, m, gamma, coef0, degree, base):
    """``v[j] = (gamma v[j] + coef0) ** degree`` for j < m. An integral degree is
    taken by repeated squaring (as libsvm's ``powi``, so it equals the integer
    power), on whole rows at a time so that the loops vectorise. ``base``:
    scratch (m,)."""
    if degree == np.floor(degree) and 0.0 <= degree < 2.0**31:
        for j in range(m):
            base[j] = gamma * v[j] + coef0
            v[j] = 1.0
        t = np.int64(degree)
        while t > 0:
            if t % 2 == 1:
                for j in range(m):
                    v[j] *= base[j]
            t //= 2
            if t > 0:
                for j in range(m):
                    base[j] *= base[j]
    else:
        for j in range(m):
            v[j] = (gamma * v[j] + coef0) ** degree


@njit(nogil=True, cache=True)
def _kernel_rows(D, xx, yy, kernel, gamma, coef0, degree, lo, hi, scratch):
    """Rows ``lo:hi`` of :func:`kernel_from_dots` (``scratch``: float64 of m)."""
    m = D.shape[1]
    for i in range(lo, hi):
        v = D[i]
        if kernel == RBF:
            xi = xx[i]
            for j in range(m):
                d2 = xi + yy[j] - 2.0 * v[j]
                if d2 < 0.0:
                    d2 = 0.0
                v[j] = -gamma * d2
            exp_nonpositive_inplace(v, m, scratch, scratch.view(np.int64))
        elif kernel == POLY:
            _poly_row(v, m, gamma, coef0, degree, scratch)
        elif kernel == SIGMOID:
            for j in range(m):
                v[j] = gamma * v[j] + coef0
            tanh_inplace(v, m, scratch, scratch.view(np.int64))


@njit(nogil=True, parallel=True, cache=True)
def kernel_from_dots(D, xx, yy, kernel, gamma, coef0, degree):
    """Turn dot products ``D[i, j] = <x_i, y_j>`` into kernel values, in place.

    Parameters
    ----------
    D : ndarray of shape (n, m), float64, C-contiguous (written)
    xx, yy : ndarray of shape (n,) and (m,)
        Squared norms of the rows of X and Y (read for RBF only).
    kernel : int
        LINEAR (nothing to do), POLY ``(gamma d + coef0) ** degree``, RBF
        ``exp(-gamma max(|x|² + |y|² - 2 d, 0))``, SIGMOID ``tanh(gamma d + coef0)``.
    gamma, coef0, degree : float

    Blocks of rows run in parallel; :func:`kernel_from_dots_serial` is the same
    on the calling thread (small matrices: its compilation costs a fraction).
    """
    n, m = D.shape
    rows_per_block = 16
    n_blocks = (n + rows_per_block - 1) // rows_per_block
    for blk in prange(n_blocks):
        lo = np.intp(blk) * rows_per_block  # intp, not the unsigned prange index
        _kernel_rows(D, xx, yy, kernel, gamma, coef0, degree, lo, min(n, lo + rows_per_block),
                     np.empty(m))


@njit(nogil=True, cache=True)
def kernel_from_dots_serial(D, xx, yy, kernel, gamma, coef0, degree):
    """:func:`kernel_from_dots` on the calling thread."""
    _kernel_rows(D, xx, yy, kernel, gamma, coef0, degree, np.intp(0), D.shape[0],
                 np.empty(D.shape[1]))


@njit(nogil=True, parallel=True, cache=True)
def sparse_dots_dense(x_data, x_indices, x_indptr, yt_data, yt_indices, yt_indptr, out):
    """``out = X Yᵀ`` for CSR X and Y given by its columns (CSC of Y), written
    straight into the dense ``out`` (n, m): each non-zero x_if adds
    x_if * Y[:, f] to row i, so no sparse product (with its index arrays and
    sort) is ever built. Rows run in parallel; each row's sums are in a fixed
    order, so results do not depend on the number of threads.
    """
    n = out.shape[0]
    for i in prange(n):
        row = out[i]
        for r in range(row.shape[0]):
            row[r] = 0.0
        for q in range(x_indptr[i], x_indptr[i + 1]):
            f = x_indices[q]
            v = x_data[q]
            for r in range(yt_indptr[f], yt_indptr[f + 1]):
                row[yt_indices[r]] += v * yt_data[r]


@njit(nogil=True, parallel=True, cache=True)
def additive_chi2(X, Y):
    """``-sum_f (x_f - y_f)^2 / (x_f + y_f)`` for every pair of rows of ``X`` and ``Y``
    (float64, C-contiguous), a term whose denominator is zero counting zero; the
    features are added in order, as scikit-learn's loop adds them."""
    m = X.shape[0]
    n = Y.shape[0]
    out = np.empty((m, n))
    for i in prange(m):
        for j in range(n):
            s = 0.0
            for f in range(X.shape[1]):
                total = X[i, f] + Y[j, f]
                if total != 0.0:
                    diff = X[i, f] - Y[j, f]
                    s += diff * diff / total
            out[i, j] = -s
    return out
