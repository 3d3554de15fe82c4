"""Symmetric training kernels stored in one triangle (seed 000 §14).

Kernel ridge regression and kernel PCA only need one triangle of the n x n
training kernel: rbf is built by numba in row tiles (a small BLAS GEMM per
tile, turned into kernel values while in cache, see :mod:`.gram_kernels`),
linear by BLAS ``syrk`` (half the products of a GEMM); no n x n temporaries. The result ``T`` is C-contiguous with the kernel in its lower
triangle; ``T.T`` is the same memory seen as a Fortran matrix holding the
kernel in its upper triangle, the layout LAPACK ``potrf`` and BLAS ``symv``
read without copying.
"""

from contextlib import nullcontext

import numpy as np
from scipy.linalg.blas import dsymv, dsyrk

from ..utils._threads import blas_single_thread, numba_threads, small_lapack
from . import gram_kernels as _k
from .work import GRAM_PASS_WORK, KERNEL_VALUE_ENTRIES, NUMBA_PASS_WORK

__all__ = ["centre_lower", "column_gram", "kernel_lower", "lower_supported", "row_gram_upper"]

_SUPPORTED = ("rbf", "linear")


# Fixed pieces of the rbf pass (each with its own K V buffer): a constant, so
# results do not depend on the number of threads.
_LANES = 4


def lower_supported(X, kernel):
    """Whether :func:`kernel_lower` builds this kernel (else it returns None)."""
    if callable(kernel) or kernel not in _SUPPORTED or X.dtype != np.float64:
        return False
    return X.shape[0] >= 2 and bool(np.all(np.isfinite(X)))


def kernel_lower(X, kernel, gamma, V=None):
    """Lower triangle of the training kernel, or None when ``kernel`` is not supported.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features), float64
    kernel : str or callable
    gamma : float or None
        rbf coefficient; None means 1 / n_features.
    V : ndarray of shape (b, n_samples), optional
        Vectors to multiply by the kernel (rows); for rbf the products are
        summed while the kernel is built (no extra pass over it).

    Returns
    -------
    T : ndarray of shape (n_samples, n_samples) or None
        The kernel in the lower triangle; the strict upper triangle is
        uninitialised memory (never read by the consumers).
    KV : ndarray of shape (b, n_samples)
        Only when ``V`` is given (and T is not None): the products K V[c].
    """
    if not lower_supported(X, kernel):
        return None
    n = X.shape[0]
    Vm = np.zeros((0, n)) if V is None else np.ascontiguousarray(V, dtype=np.float64)
    if kernel == "rbf":
        g = 1.0 / X.shape[1] if gamma is None else float(gamma)
        Xc = np.ascontiguousarray(X)
        sq_norms = np.einsum("ij,ij->i", Xc, Xc)
        T = np.empty((n, n))
        # the numba lanes run the tile GEMMs: BLAS must not add threads of its own
        # (they would also spin on the cores the lanes need); a small kernel's lanes
        # run on the calling thread (waking the pool after idle time costs more)
        one_thread = numba_threads(1) if n * n < KERNEL_VALUE_ENTRIES else nullcontext()
        with blas_single_thread(), one_thread:
            KV = _k.rbf_lower(Xc, sq_norms, g, T, Vm, _LANES)
        return T if V is None else (T, KV)
    # X.T is a Fortran (p, n) matrix A; syrk(trans=1) gives AᵀA = X Xᵀ in the upper
    # triangle of a Fortran result, i.e. the lower triangle of its C-ordered transpose.
    # An uninitialised output: scipy's default one is zero-filled first, which
    # faults in and writes the whole n x n matrix before syrk touches one triangle.
    # a product of modest work on one BLAS thread: waking BLAS's idle threads costs
    # more than they save
    with small_lapack(n * n * X.shape[1] // 2, GRAM_PASS_WORK):
        gram = dsyrk(1.0, X.T, trans=1, lower=0, c=np.empty((n, n), order="F"),
                     overwrite_c=1)
    T = gram.T
    if not T.flags.c_contiguous:
        return None
    KV = np.array([dsymv(1.0, T.T, v, lower=0) for v in Vm]).reshape(Vm.shape)
    return T if V is None else (T, KV)


def row_gram_upper(X):
    """``X X'`` of a float64 X (n, p) in the upper triangle of a Fortran (n, n) array,
    the layout LAPACK's symmetric eigensolvers read with ``lower=False`` and no copy.

    One triangle by scipy's BLAS (``syrk``, :func:`kernel_lower`): the library of the
    eigensolver that follows, beside which numpy's BLAS threads would still spin after
    a threaded product of their own. Non-finite X: numpy's full product.

    Examples
    --------
    >>> import numpy as np
    >>> G = row_gram_upper(np.array([[1.0, 2.0], [3.0, 4.0]]))
    >>> float(G[0, 0]), float(G[0, 1]), float(G[1, 1])
    (5.0, 11.0, 25.0)
    """
    T = kernel_lower(X, "linear", None)
    return (X @ X.T if T is None else T).T


def column_gram(A):
    """``A' A`` of a float64 A (n, p), symmetric to the last bit, a new (p, p) array.

    One triangle by scipy's BLAS (``syrk`` on the Fortran view of A), mirrored: for
    the callers whose next steps are scipy's LAPACK (Cholesky, symmetric
    eigensolvers), beside which numpy's BLAS threads would still spin after a
    threaded product of their own (:func:`row_gram_upper`).

    Examples
    --------
    >>> import numpy as np
    >>> column_gram(np.array([[1.0, 2.0], [3.0, 4.0]])).tolist()
    [[10.0, 14.0], [14.0, 20.0]]
    """
    A = np.ascontiguousarray(A, dtype=np.float64)
    if A.shape[0] == 0:
        return np.zeros((A.shape[1], A.shape[1]))
    p = A.shape[1]
    # the strict lower triangle stays zero (syrk writes the upper one only), so the sum
    # with the transpose copies each product once and doubles the diagonal exactly
    upper = dsyrk(1.0, A.T, trans=0, lower=0, c=np.zeros((p, p), order="F"),
                  overwrite_c=True)
    full = upper + upper.T
    full.flat[:: p + 1] *= 0.5
    return full


def centre_lower(T):
    """Centre T (lower triangle) in feature space in place; return (column means, mean).

    Parameters
    ----------
    T : ndarray of shape (n, n)

    Returns
    -------
    col_means : ndarray of shape (n,)
    all_mean : float
    """
    n = T.shape[0]
    col = np.empty(n)
    _k.lower_column_sums(T, col)
    col /= n
    all_mean = float(col.mean())
    # a small triangle on the calling thread: waking numba's pool costs more than the
    # pass (and, woken, its threads wait on the cores the eigensolver needs next)
    one_thread = numba_threads(1) if n * n < 2 * NUMBA_PASS_WORK else nullcontext()
    with one_thread:
        _k.centre_lower(T, col, all_mean)
    return col, all_mean

