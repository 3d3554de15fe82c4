"""numba kernels on one triangle of a symmetric kernel matrix (seed 000 §14).

The training kernel of kernel ridge regression and kernel PCA is symmetric, so
only its lower triangle (row-major: row j holds columns 0..j) is computed and
used: the rbf kernel is built here from Gram tiles (BLAS GEMM called from the
threads), centring works on the triangle, and the consumers (``potrf`` /
``symv``) read one triangle only. The strict upper triangle is never read or
written. float64, C-contiguous square matrices; thread-safe;
work is split by rows, every element is computed independently, so results
do not depend on the number of threads.
"""


import numpy as np

from .exp import exp_nonpositive_inplace
from .jit import njit, prange


@njit(cache=True, nogil=True, inline="always")
def _rbf_row(gram, row, sq_norms, gamma, j, fbuf, ibuf):
    """Row j (columns 0..j-1) of the rbf kernel from the Gram values ``gram``
    (those of sample j with samples 0..j-1) into ``row``; row[j] = 1."""
    nj = sq_norms[j]
    for i in range(j):
        d = gram[i] * -2.0
        d += sq_norms[i]
        d += nj
        d = max(d, 0.0)
        row[i] = d * -gamma
    exp_nonpositive_inplace(row, j, fbuf, ibuf)
    row[j] = 1.0


@njit(cache=True, nogil=True, inline="always")
def _centre_row(T, col_means, all_mean, j):
    mj = col_means[j]
    for i in range(j + 1):
        T[j, i] = T[j, i] - col_means[i] - mj + all_mean


@njit(cache=True, nogil=True, fastmath={"reassoc", "contract"})
def _row_times(row, j, V, part):
    """Contributions of row j of a symmetric matrix (columns 0..j, lower
    triangle) to K V for every row of V: part[c, j] gets the row's dot product
    with V[c], part[c, i] (i < j) the mirrored entries times V[c, j]. (Its own
    function: the reassociated sum vectorises, and the flag must not reach the
    exponential's rounding tricks.)"""
    for c in range(V.shape[0]):
        vc = V[c]
        pc = part[c]
        vcj = vc[j]
        s = 0.0
        for i in range(j):
            kv = row[i]
            s += kv * vc[i]
            pc[i] += kv * vcj
        pc[j] += s + row[j] * vcj


_TILE = 32  # rows of the kernel per Gram tile (32 x n values, in L2)


@njit(cache=True, nogil=True, parallel=True, fastmath={"contract"})
def rbf_lower(X, sq_norms, gamma, T, V, lanes):
    """Lower triangle of the rbf kernel exp(-gamma |x_i - x_j|²) into T, and
    K V for the rows of V (shape (b, n), b may be 0) from the same pass.

    Rows go in tiles of ``_TILE``: a tile's Gram values X[j0:j1] X[:j1]ᵀ come
    from one BLAS gemm (run it single-threaded: the parallelism is here) into a
    scratch that stays in cache, and are turned into kernel rows at once, so
    the n x n matrix is written once and never re-read while it is built. The
    tiles are paired (h, last - h) and the pairs dealt round-robin to
    ``lanes`` fixed pieces, each summing K V into its own buffer; the buffers
    are added in lane order, so nothing depends on the thread count.

    Parameters
    ----------
    X : ndarray of shape (n, p), C-contiguous
    sq_norms : ndarray of shape (n,), the squared row norms of X
    T : ndarray of shape (n, n), C-contiguous; its lower triangle is written
    V : ndarray of shape (b, n)

    Returns
    -------
    ndarray of shape (b, n): K V
    """
    n = T.shape[0]
    b = V.shape[0]
    n_tiles = (n + _TILE - 1) // _TILE
    half = (n_tiles + 1) // 2
    part = np.empty((lanes, b, n))
    for lane in prange(lanes):
        fbuf = np.empty(n)
        ibuf = fbuf.view(np.int64)
        pl = part[lane]
        for r in range(b):
            for j in range(n):
                pl[r, j] = 0.0
        for hh in range(lane, half, lanes):
            for side in range(2):
                h = hh if side == 0 else n_tiles - 1 - hh
                if side == 1 and h == hh:
                    continue
                j0 = h * _TILE
                j1 = min(n, j0 + _TILE)
                G = np.dot(X[j0:j1], X[:j1].T)
                for r in range(j1 - j0):
                    j = j0 + r
                    _rbf_row(G[r], T[j], sq_norms, gamma, j, fbuf, ibuf)
                    _row_times(T[j], j, V, pl)
    out = np.empty((b, n))
    for r in range(b):
        for j in range(n):
            acc = 0.0
            for lane in range(lanes):
                acc += part[lane, r, j]
            out[r, j] = acc
    return out


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
