"""The kernel functions of SVC / SVR, KernelRidge and KernelPCA, in one place (seed 000 §14).

``linear`` <x, y>, ``poly`` (gamma <x, y> + coef0) ** degree, ``rbf``
exp(-gamma |x - y|²) and ``sigmoid`` tanh(gamma <x, y> + coef0), between the
rows of two dense or scipy sparse matrices: the dot products come from one
BLAS (or sparse) product, then one numba pass turns them into kernel values
(:mod:`.kernel_function_kernels`). Sparse rows are never densified; the
result (rows x rows) is dense.
"""

import numpy as np
import scipy.sparse as sp
from scipy.linalg.blas import dgemm

from ..utils._sparse import row_squared_norms
from ..utils._threads import small_lapack
from . import kernel_function_kernels as _k
from .work import (
    GRAM_PASS_WORK,
    KERNEL_BLAS_FEATURES,
    KERNEL_VALUE_ENTRIES,
)

__all__ = ["KERNEL_IDS", "centred_product", "kernel_matrix", "scipy_product", "supports"]

KERNEL_IDS = {"linear": _k.LINEAR, "poly": _k.POLY, "polynomial": _k.POLY, "rbf": _k.RBF,
              "sigmoid": _k.SIGMOID}


def supports(kernel):
    """Whether :func:`kernel_matrix` computes this kernel (a name, not a callable)."""
    return isinstance(kernel, str) and kernel in KERNEL_IDS


def dot_products(X, Y, scipy_blas=False):
    """``X Yᵀ`` as a C-contiguous float64 ndarray, for dense or sparse X and Y; dense
    ones in scipy's BLAS with ``scipy_blas`` (:func:`scipy_product`)."""
    if sp.issparse(X) and sp.issparse(Y):
        # both sparse: the product is dense in general; built in place (no sparse result)
        Xr = sp.csr_array(X)
        Yc = sp.csc_array(Y)
        D = np.empty((X.shape[0], Y.shape[0]))
        _k.sparse_dots_dense(np.asarray(Xr.data, dtype=np.float64), Xr.indices.astype(np.intp),
                             Xr.indptr.astype(np.intp), np.asarray(Yc.data, dtype=np.float64),
                             Yc.indices.astype(np.intp), Yc.indptr.astype(np.intp), D)
        return D
    if scipy_blas:
        return np.asarray(scipy_product(X, Y.T), dtype=np.float64)
    return np.ascontiguousarray(X @ Y.T, dtype=np.float64)


def scipy_product(A, B):
    """``A @ B`` as a C-contiguous ndarray: in scipy's BLAS for dense float64 A and B
    (with no empty dimension), else numpy's (or scipy.sparse's) product.

    scipy's BLAS is the one its LAPACK (the eigensolvers, the factorisations) and
    numba's ``np.dot`` run on: a product there after one of those calls finds that
    library's threads, where numpy's BLAS (a separate library with its own threads)
    would compete with them while they still spin. C-ordered operands are read as
    their Fortran-ordered transposes, without a copy.

    Examples
    --------
    >>> import numpy as np
    >>> scipy_product(np.array([[1.0, 2.0]]), np.array([[3.0], [4.0]])).tolist()
    [[11.0]]
    """
    if (sp.issparse(A) or sp.issparse(B) or A.dtype != np.float64 or B.dtype != np.float64
            or min(A.shape[0], B.shape[1], A.shape[1]) == 0):
        return np.ascontiguousarray(A @ B)
    # (A B)' = B' A', computed in Fortran order: its transpose is the C-ordered A B
    return dgemm(1.0, B.T, A.T).T


# bytes of the rows centred at a time by centred_product (in cache while their product
# runs); at least CENTRED_BLOCK_ROWS rows, so that each product keeps BLAS's threads busy
CENTRED_BLOCK_BYTES = 1 << 20
CENTRED_BLOCK_ROWS = 512


def centred_product(X, mean, B):
    """``(X - mean) @ B`` as a C-contiguous ndarray, in scipy's BLAS (as
    :func:`scipy_product`) for dense float64 operands.

    The rows are centred a block of about :data:`CENTRED_BLOCK_BYTES` at a time into
    one reused buffer, and each block's product is written into its rows of the
    result: no centred copy of X is made. A whole centred copy, fresh memory written
    once and read once, made the product after it slower. X is not modified.

    Examples
    --------
    >>> import numpy as np
    >>> centred_product(np.array([[1.0, 2.0], [3.0, 6.0]]), np.array([2.0, 4.0]),
    ...                 np.array([[1.0], [1.0]])).tolist()
    [[-3.0], [3.0]]
    """
    X, mean = np.asarray(X), np.asarray(mean)
    if (X.dtype != np.float64 or B.dtype != np.float64 or X.ndim != 2
            or min(X.shape[0], X.shape[1], B.shape[1]) == 0):
        return scipy_product(X - mean, B)
    n, p = X.shape
    rows = min(n, max(CENTRED_BLOCK_BYTES // (8 * p), CENTRED_BLOCK_ROWS))
    out = np.empty((n, B.shape[1]))
    block = np.empty((rows, p))
    for lo in range(0, n, rows):
        hi = min(n, lo + rows)
        centred = block[:hi - lo]
        np.subtract(X[lo:hi], mean, out=centred)
        # out[lo:hi]' (Fortran-contiguous) = B' centred', written in place
        dgemm(1.0, B.T, centred.T, c=out[lo:hi].T, overwrite_c=True)
    return out


def kernel_matrix(X, Y, kernel, *, gamma, coef0=0.0, degree=3, x_sq=None, y_sq=None,
                  scipy_blas=False):
    """Kernel values between the rows of X and of Y.

    Parameters
    ----------
    X : ndarray or sparse matrix of shape (n, p)
    Y : ndarray or sparse matrix of shape (m, p)
    kernel : {'linear', 'poly', 'polynomial', 'rbf', 'sigmoid'}
    gamma, coef0 : float
    degree : float
    x_sq, y_sq : ndarray, optional
        Squared row norms of X and Y when at hand (rbf only).
    scipy_blas : bool, default=False
        The dot products in scipy's BLAS (:func:`scipy_product`), for a caller whose
        last step was scipy's LAPACK on BLAS's threads (KernelPCA's transform after
        its eigensolver), which are still spinning.

    Returns
    -------
    ndarray of shape (n, m), float64

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp
    >>> kernel_matrix(sp.csr_array([[1.0, 0.0]]), np.array([[0.0, 1.0]]), "rbf",
    ...               gamma=0.5).round(4).tolist()
    [[0.3679]]
    """
    kid = KERNEL_IDS[kernel]
    if kid == _k.LINEAR:
        # the products are the whole work: on one BLAS thread while modest (waking
        # BLAS's idle threads costs more than they save)
        with small_lapack(X.shape[0] * Y.shape[0] * X.shape[1], GRAM_PASS_WORK):
            return dot_products(X, Y, scipy_blas)
    # few features: the products are cheap beside the kernel function on numba's
    # threads, next to which BLAS's own threads would only spin
    with small_lapack(X.shape[1], KERNEL_BLAS_FEATURES):
        D = dot_products(X, Y, scipy_blas)
    if kid == _k.RBF:
        xx = row_squared_norms(X) if x_sq is None else np.asarray(x_sq, dtype=np.float64)
        yy = row_squared_norms(Y) if y_sq is None else np.asarray(y_sq, dtype=np.float64)
    else:
        xx = yy = np.zeros(0)
    # the parallel kernel only for matrices large enough to use it (a small fit's
    # prediction then never compiles it); the sigmoid's tanh is vectorised as the rbf's
    # exp is, at about the same cost per entry
    apply = (_k.kernel_from_dots if D.size >= KERNEL_VALUE_ENTRIES
             else _k.kernel_from_dots_serial)
    apply(D, xx, yy, kid, float(gamma), float(coef0), float(degree))
    return D
