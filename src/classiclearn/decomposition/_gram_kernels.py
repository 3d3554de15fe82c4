"""numba kernels on one triangle of a symmetric kernel matrix (seed 000 §14).

The training kernel of kernel ridge regression and kernel PCA is symmetric, so
only its lower triangle (row-major: row j holds columns 0..j) is computed and
used: the Gram matrix X Xᵀ comes from BLAS ``syrk`` and is turned into the
kernel in place here, centring works on the triangle, and the consumers
(``potrf`` / ``symv``) read one triangle only. The strict upper triangle is
never read or written. float64, C-contiguous square matrices; thread-safe;
work is split by rows, every element is computed independently, so results
do not depend on the number of threads.
"""

import math

import numpy as np
from numba import njit, prange


@njit(cache=True, nogil=True, inline="always")
def _rbf_row(T, sq_norms, gamma, j):
    nj = sq_norms[j]
    for i in range(j):
        d = T[j, i] * -2.0
        d += sq_norms[i]
        d += nj
        if d < 0.0:
            d = 0.0
        T[j, i] = math.exp(d * -gamma)
    T[j, j] = 1.0


@njit(cache=True, nogil=True, inline="always")
def _centre_row(T, col_means, all_mean, j):
    mj = col_means[j]
    for i in range(j + 1):
        T[j, i] = T[j, i] - col_means[i] - mj + all_mean


@njit(cache=True, nogil=True, parallel=True)
def rbf_lower_from_gram(T, sq_norms, gamma):
    """In place: T[j, i] = exp(-gamma * max(|x_i|² + |x_j|² - 2 T[j, i], 0)), i <= j.

    ``T`` holds the Gram matrix in its lower triangle; the diagonal becomes 1.
    Rows are paired (j, n - 1 - j) so every thread gets the same work.
    """
    n = T.shape[0]
    half = (n + 1) // 2
    for jj in prange(half):
        j = np.intp(jj)
        _rbf_row(T, sq_norms, gamma, j)
        if n - 1 - j != j:
            _rbf_row(T, sq_norms, gamma, n - 1 - j)


@njit(cache=True, nogil=True)
def lower_column_sums(T, out):
    """Column sums of the full symmetric matrix stored in T's lower triangle into ``out``."""
    n = T.shape[0]
    out[:] = 0.0
    for j in range(n):
        s = 0.0
        for i in range(j):
            v = T[j, i]
            s += v
            out[i] += v
        out[j] += s + T[j, j]


@njit(cache=True, nogil=True, parallel=True)
def centre_lower(T, col_means, all_mean):
    """In place on the lower triangle: T[j, i] += all - mean_i - mean_j."""
    n = T.shape[0]
    half = (n + 1) // 2
    for jj in prange(half):
        j = np.intp(jj)
        _centre_row(T, col_means, all_mean, j)
        if n - 1 - j != j:
            _centre_row(T, col_means, all_mean, n - 1 - j)

