"""Pairwise distances and kernels (seed 000 §8 kernels, §14 kernel trick).

Kernels compare every row of ``X`` with every row of ``Y``:

- linear ``<x, y>``,
- polynomial ``(gamma <x, y> + coef0) ** degree``,
- RBF ``exp(-gamma ||x - y||^2)``,
- sigmoid ``tanh(gamma <x, y> + coef0)``,
- cosine ``<x, y> / (||x|| ||y||)``,
- Laplacian ``exp(-gamma ||x - y||_1)``.

The dot products go through BLAS (one matrix product), the element-wise part
is done in place on that result, so memory stays one ``(n_X, n_Y)`` array.
float32 input gives float32 output; squared Euclidean distances are
accumulated in float64 in either case (the expansion
``||x||^2 + ||y||^2 - 2 <x, y>`` loses digits otherwise), clipped at zero, and
exactly zero on the diagonal when ``Y`` is None.

Sparse (scipy) rows are taken where scikit-learn takes them: by the kernels and
distances above, whose dot products then come from a sparse product (or, for the
L1 distance, a pass over the stored entries) into a dense result; the chi-squared
kernels take dense input only, as scikit-learn's.
"""

import numpy as np
import scipy.sparse as sp

from ..utils._sparse import row_squared_norms
from ..utils.validation import check_array, check_magnitude

__all__ = [
    "PAIRWISE_KERNEL_FUNCTIONS",
    "additive_chi2_kernel",
    "check_pairwise_arrays",
    "chi2_kernel",
    "cosine_similarity",
    "euclidean_distances",
    "laplacian_kernel",
    "linear_kernel",
    "manhattan_distances",
    "pairwise_kernels",
    "polynomial_kernel",
    "rbf_kernel",
    "sigmoid_kernel",
]


# Kernels that do not square the data (laplacian: |x - y|; chi2: (x - y)^2 / (x + y)).
_LINEAR_KERNELS = {"laplacian", "chi2", "additive_chi2"}


# Kernels whose function takes scipy sparse rows (as scikit-learn's); chi2 / additive_chi2
# need dense X
_SPARSE_KERNELS = {"linear", "poly", "polynomial", "rbf", "sigmoid", "cosine", "laplacian"}


def kernel_accepts_sparse(kernel):
    """Whether the named kernel of :func:`pairwise_kernels` takes sparse X (a callable or
    "precomputed": no).

    Examples
    --------
    >>> kernel_accepts_sparse("cosine"), kernel_accepts_sparse("chi2")
    (True, False)
    """
    return isinstance(kernel, str) and kernel in _SPARSE_KERNELS


def _check_kernel_range(X, estimator, kernel, degree=3, *, fit):
    """A ValueError for data whose kernel would overflow, or in fit underflow.

    ``x.x'`` and ``|x - x'|^2`` (their ``degree``-th powers for 'poly') of
    data near 1e300 overflow, and near 1e-300 underflow to a constant kernel
    whose model means nothing; callables and precomputed kernels are the
    caller's business.
    """
    if callable(kernel) or kernel == "precomputed":
        return
    if kernel in ("poly", "polynomial"):
        power = max(2.0 * degree, 1.0)
    else:
        power = 1.0 if kernel in _LINEAR_KERNELS else 2.0
    check_magnitude(X, estimator, f"{kernel} kernel", power=power, check_small=fit)


def _float_dtype(*arrays):
    if all(a.dtype == np.float32 for a in arrays):
        return np.float32
    return np.float64


def check_pairwise_arrays(X, Y, *, precomputed=False, dtype=None, copy=False,
                          accept_sparse="csr"):
    """Validate ``X`` and ``Y`` for a pairwise function.

    Both become 2-D float arrays of one dtype (float32 only if both are
    float32). With ``Y=None``, ``Y`` is ``X``.

    Parameters
    ----------
    X : array-like of shape (n_samples_X, n_features)
    Y : array-like of shape (n_samples_Y, n_features) or None
    precomputed : bool, default=False
        ``X`` holds distances or kernels to ``Y``'s rows: check that its
        second dimension equals ``Y``'s first.
    dtype : dtype, optional
        Force this dtype.
    copy : bool, default=False
        Return copies.
    accept_sparse : str, bool or list of str, default="csr"
        Sparse formats taken (converted to the first), or False for dense only.

    Returns
    -------
    X, Y : ndarray or sparse matrix

    Examples
    --------
    >>> X, Y = check_pairwise_arrays([[1, 2]], None)
    >>> X is Y, X.dtype
    (True, dtype('float64'))
    """
    X = check_array(X, dtype=(np.float64, np.float32), order="C", copy=copy,
                    accept_sparse=accept_sparse)
    if Y is None or Y is X:
        Y_checked = X
    else:
        Y_checked = check_array(Y, dtype=(np.float64, np.float32), order="C", copy=copy,
                                accept_sparse=accept_sparse)
    target = dtype if dtype is not None else _float_dtype(X, Y_checked)
    if X.dtype != target:
        X = X.astype(target)
    if Y is None:
        Y_checked = X
    elif Y_checked.dtype != target:
        Y_checked = Y_checked.astype(target)
    if precomputed:
        if X.shape[1] != Y_checked.shape[0]:
            raise ValueError(
                "Precomputed metric requires shape (n_queries, n_indexed). Got "
                f"{X.shape} for {Y_checked.shape[0]} indexed."
            )
    elif X.shape[1] != Y_checked.shape[1]:
        raise ValueError(
            "Incompatible dimension for X and Y matrices: "
            f"X.shape[1] == {X.shape[1]} while Y.shape[1] == {Y_checked.shape[1]}"
        )
    return X, Y_checked


def _row_norms_sq(X):
    if sp.issparse(X):
        return row_squared_norms(X)
    X64 = X.astype(np.float64, copy=False)
    return np.einsum("ij,ij->i", X64, X64)


def _dots(X, Y, dtype=None):
    """``X Y'`` as a dense array of ``dtype`` (default: X's), X and Y dense or sparse."""
    if not (sp.issparse(X) or sp.issparse(Y)):
        D = X @ Y.T
        return D if dtype is None else D.astype(dtype, copy=False)
    from .._kernels.kernel_functions import dot_products

    return dot_products(X, Y).astype(X.dtype if dtype is None else dtype, copy=False)


def _squared_distances(X, Y, same, X_norm_squared=None, Y_norm_squared=None):
    """Squared distances in float64 (BLAS expansion, clipped, exact 0 diagonal)."""
    X64 = X.astype(np.float64, copy=False)
    Y64 = X64 if same else Y.astype(np.float64, copy=False)
    xx = (
        _row_norms_sq(X64)
        if X_norm_squared is None
        else np.asarray(X_norm_squared, dtype=np.float64).reshape(-1)
    )
    if same and Y_norm_squared is None:
        yy = xx
    elif Y_norm_squared is None:
        yy = _row_norms_sq(Y64)
    else:
        yy = np.asarray(Y_norm_squared, dtype=np.float64).reshape(-1)
    D = _dots(X64, Y64, np.float64)
    D *= -2.0
    D += xx[:, None]
    D += yy[None, :]
    np.maximum(D, 0.0, out=D)
    if same:
        np.fill_diagonal(D, 0.0)
    return D


def euclidean_distances(
    X, Y=None, *, Y_norm_squared=None, squared=False, X_norm_squared=None
):
    """Euclidean distance between every row of ``X`` and every row of ``Y``.

    Parameters
    ----------
    X : array-like of shape (n_samples_X, n_features)
    Y : array-like of shape (n_samples_Y, n_features), default=None
        None means ``X``; the diagonal is then exactly zero.
    Y_norm_squared : array-like of shape (n_samples_Y,), optional
        Precomputed squared norms of ``Y``'s rows.
    squared : bool, default=False
        Return squared distances.
    X_norm_squared : array-like of shape (n_samples_X,), optional
        Precomputed squared norms of ``X``'s rows.

    Returns
    -------
    ndarray of shape (n_samples_X, n_samples_Y)
        float32 if both inputs are float32, else float64.

    Examples
    --------
    >>> euclidean_distances([[0, 0], [3, 4]])
    array([[0., 5.],
           [5., 0.]])
    """
    same = Y is None
    X, Y = check_pairwise_arrays(X, Y)
    same = same or Y is X
    D = _squared_distances(X, Y, same, X_norm_squared, Y_norm_squared)
    if not squared:
        np.sqrt(D, out=D)
    return D.astype(X.dtype, copy=False)


def manhattan_distances(X, Y=None):
    """L1 distance between every row of ``X`` and every row of ``Y``.

    Parameters
    ----------
    X : array-like of shape (n_samples_X, n_features)
    Y : array-like of shape (n_samples_Y, n_features), default=None

    Returns
    -------
    ndarray of shape (n_samples_X, n_samples_Y)

    Examples
    --------
    >>> manhattan_distances([[0, 0]], [[1, 2]])
    array([[3.]])
    """
    # the neighbours' compiled scan: tiles of Y's columns side by side for each row of
    # X, the features added in order (scipy's cdist adds them in the same order)
    from .._kernels.distances import MANHATTAN
    from ..neighbors._brute_kernels import pairwise_coordinates

    X, Y = check_pairwise_arrays(X, Y)
    if sp.issparse(X) or sp.issparse(Y):
        return _sparse_manhattan(X, Y)
    D = pairwise_coordinates(np.ascontiguousarray(X, dtype=np.float64),
                             np.ascontiguousarray(Y.T, dtype=np.float64), MANHATTAN, 1.0)
    return D.astype(X.dtype, copy=False)


def _sparse_manhattan(X, Y):
    """L1 distances with X or Y sparse: |x|_1 + |y|_1, corrected on the columns both
    rows store (the sparse neighbours' pass; a dense side is taken as CSR)."""
    from ..neighbors._sparse_kernels import manhattan_block

    Xr, Yr = (sp.csr_array(A) for A in (X, Y))
    y_data = np.asarray(Yr.data, dtype=np.float64)
    y_abs = np.asarray(abs(Yr).sum(axis=1), dtype=np.float64).ravel()
    D = np.empty((X.shape[0], Y.shape[0]))
    manhattan_block(Xr.indptr.astype(np.intp), Xr.indices.astype(np.intp),
                    np.asarray(Xr.data, dtype=np.float64), X.shape[1],
                    Yr.indptr.astype(np.intp), Yr.indices.astype(np.intp), y_data, y_abs, D)
    return D.astype(X.dtype, copy=False)


def linear_kernel(X, Y=None, dense_output=True):
    """Linear kernel ``K(x, y) = <x, y>``.

    Parameters
    ----------
    X : array-like of shape (n_samples_X, n_features)
    Y : array-like of shape (n_samples_Y, n_features), default=None
    dense_output : bool, default=True
        Accepted for compatibility; the output is always dense.

    Returns
    -------
    ndarray of shape (n_samples_X, n_samples_Y)

    Examples
    --------
    >>> linear_kernel([[1, 2]], [[3, 4]])
    array([[11.]])
    """
    X, Y = check_pairwise_arrays(X, Y)
    return _dots(X, Y)


def _gamma(gamma, X):
    return 1.0 / X.shape[1] if gamma is None else gamma


def polynomial_kernel(X, Y=None, degree=3, gamma=None, coef0=1):
    """Polynomial kernel ``K(x, y) = (gamma <x, y> + coef0) ** degree``.

    Parameters
    ----------
    X : array-like of shape (n_samples_X, n_features)
    Y : array-like of shape (n_samples_Y, n_features), default=None
    degree : float, default=3
    gamma : float, default=None
        None means ``1 / n_features``.
    coef0 : float, default=1

    Returns
    -------
    ndarray of shape (n_samples_X, n_samples_Y)

    Examples
    --------
    >>> polynomial_kernel([[1, 1]], degree=2, gamma=1, coef0=1)
    array([[9.]])
    """
    X, Y = check_pairwise_arrays(X, Y)
    K = _dots(X, Y)
    K *= _gamma(gamma, X)
    K += coef0
    K **= degree
    return K


def sigmoid_kernel(X, Y=None, gamma=None, coef0=1):
    """Sigmoid kernel ``K(x, y) = tanh(gamma <x, y> + coef0)``.

    Parameters
    ----------
    X : array-like of shape (n_samples_X, n_features)
    Y : array-like of shape (n_samples_Y, n_features), default=None
    gamma : float, default=None
        None means ``1 / n_features``.
    coef0 : float, default=1

    Returns
    -------
    ndarray of shape (n_samples_X, n_samples_Y)

    Examples
    --------
    >>> sigmoid_kernel([[0, 0]], [[1, 1]], coef0=0)
    array([[0.]])
    """
    X, Y = check_pairwise_arrays(X, Y)
    K = _dots(X, Y)
    K *= _gamma(gamma, X)
    K += coef0
    np.tanh(K, out=K)
    return K


def rbf_kernel(X, Y=None, gamma=None):
    """Radial basis function kernel ``K(x, y) = exp(-gamma ||x - y||^2)``.

    Parameters
    ----------
    X : array-like of shape (n_samples_X, n_features)
    Y : array-like of shape (n_samples_Y, n_features), default=None
    gamma : float, default=None
        None means ``1 / n_features``.

    Returns
    -------
    ndarray of shape (n_samples_X, n_samples_Y)

    Examples
    --------
    >>> rbf_kernel([[0, 0], [1, 0]], gamma=1.0).round(4)
    array([[1.    , 0.3679],
           [0.3679, 1.    ]])
    """
    same = Y is None
    X, Y = check_pairwise_arrays(X, Y)
    K = _squared_distances(X, Y, same or Y is X)
    K *= -_gamma(gamma, X)
    np.exp(K, out=K)
    return K.astype(X.dtype, copy=False)


def laplacian_kernel(X, Y=None, gamma=None):
    """Laplacian kernel ``K(x, y) = exp(-gamma ||x - y||_1)``.

    Parameters
    ----------
    X : array-like of shape (n_samples_X, n_features)
    Y : array-like of shape (n_samples_Y, n_features), default=None
    gamma : float, default=None
        None means ``1 / n_features``.

    Returns
    -------
    ndarray of shape (n_samples_X, n_samples_Y)

    Examples
    --------
    >>> laplacian_kernel([[0, 0]], [[1, 1]], gamma=1.0).round(4)
    array([[0.1353]])
    """
    X, Y = check_pairwise_arrays(X, Y)
    K = manhattan_distances(X, Y)
    K *= -_gamma(gamma, X)
    np.exp(K, out=K)
    return K


def cosine_similarity(X, Y=None, dense_output=True):
    """Cosine similarity ``<x, y> / (||x|| ||y||)`` (zero rows give zero).

    Parameters
    ----------
    X : array-like of shape (n_samples_X, n_features)
    Y : array-like of shape (n_samples_Y, n_features), default=None
    dense_output : bool, default=True
        Accepted for compatibility; the output is always dense.

    Returns
    -------
    ndarray of shape (n_samples_X, n_samples_Y)

    Examples
    --------
    >>> cosine_similarity([[1, 0]], [[1, 1]]).round(4)
    array([[0.7071]])
    """
    same = Y is None
    X, Y = check_pairwise_arrays(X, Y)

    def _normalise(A):
        norms = np.sqrt(_row_norms_sq(A))
        norms[norms == 0.0] = 1.0
        scale = (1.0 / norms).astype(A.dtype)
        if sp.issparse(A):
            return sp.csr_array(A.multiply(scale[:, None]), dtype=A.dtype)
        return (A / norms[:, None].astype(A.dtype)).astype(A.dtype, copy=False)

    Xn = _normalise(X)
    Yn = Xn if same else _normalise(Y)
    return _dots(Xn, Yn)


def additive_chi2_kernel(X, Y=None):
    """Additive chi-squared kernel ``k(x, y) = -sum_i (x_i - y_i)^2 / (x_i + y_i)``.

    Terms with ``x_i + y_i = 0`` count zero. Defined for non-negative data
    (histograms).

    Parameters
    ----------
    X : array-like of shape (n_samples_X, n_features)
    Y : array-like of shape (n_samples_Y, n_features), default=None (``Y = X``)

    Returns
    -------
    ndarray of shape (n_samples_X, n_samples_Y)

    Examples
    --------
    >>> additive_chi2_kernel([[1.0, 0.0]], [[1.0, 2.0]]).tolist()
    [[-2.0]]
    """
    X, Y = check_pairwise_arrays(X, Y, accept_sparse=False)  # as scikit-learn's
    if (X < 0).any():
        raise ValueError("X contains negative values.")
    if Y is not X and (Y < 0).any():
        raise ValueError("Y contains negative values.")
    from .._kernels.kernel_function_kernels import additive_chi2

    K = additive_chi2(np.ascontiguousarray(X, dtype=np.float64),
                      np.ascontiguousarray(Y, dtype=np.float64))
    return K.astype(X.dtype, copy=False)


def chi2_kernel(X, Y=None, gamma=1.0):
    """Exponential chi-squared kernel ``exp(gamma * additive_chi2_kernel(X, Y))``.

    Parameters
    ----------
    X : array-like of shape (n_samples_X, n_features)
    Y : array-like of shape (n_samples_Y, n_features), default=None
    gamma : float, default=1.0

    Returns
    -------
    ndarray of shape (n_samples_X, n_samples_Y)

    Examples
    --------
    >>> round(float(chi2_kernel([[1.0, 0.0]], [[1.0, 2.0]], gamma=0.5)[0, 0]), 6)
    0.367879
    """
    K = additive_chi2_kernel(X, Y)
    K *= gamma
    return np.exp(K, out=K)


PAIRWISE_KERNEL_FUNCTIONS = {
    "additive_chi2": additive_chi2_kernel,
    "chi2": chi2_kernel,
    "linear": linear_kernel,
    "poly": polynomial_kernel,
    "polynomial": polynomial_kernel,
    "rbf": rbf_kernel,
    "sigmoid": sigmoid_kernel,
    "cosine": cosine_similarity,
    "laplacian": laplacian_kernel,
}

_KERNEL_PARAMS = {
    "additive_chi2": (),
    "chi2": ("gamma",),
    "linear": (),
    "poly": ("gamma", "degree", "coef0"),
    "polynomial": ("gamma", "degree", "coef0"),
    "rbf": ("gamma",),
    "sigmoid": ("gamma", "coef0"),
    "cosine": (),
    "laplacian": ("gamma",),
}


def pairwise_kernels(X, Y=None, metric="linear", *, filter_params=False, n_jobs=None, **kwds):
    """Kernel between every row of ``X`` and every row of ``Y``.

    Parameters
    ----------
    X : array-like of shape (n_samples_X, n_features) or (n_samples_X, n_samples_Y)
        Features, or the kernel itself when ``metric="precomputed"``.
    Y : array-like of shape (n_samples_Y, n_features), default=None
    metric : str or callable, default="linear"
        One of "linear", "poly" / "polynomial", "rbf", "sigmoid", "cosine",
        "laplacian", "precomputed" (``X`` is returned after checking), or a
        callable ``f(x, y, **kwds) -> float`` applied to every pair of rows.
    filter_params : bool, default=False
        Drop keyword arguments the named kernel does not take.
    n_jobs : int, default=None
        Accepted for compatibility; BLAS uses its own threads.
    **kwds
        Kernel parameters (``gamma``, ``degree``, ``coef0``, ...).

    Returns
    -------
    ndarray of shape (n_samples_X, n_samples_Y)

    Examples
    --------
    >>> pairwise_kernels([[1, 0]], [[2, 3]], metric="linear")
    array([[2.]])
    >>> pairwise_kernels([[0, 0]], metric="rbf", gamma=0.5)
    array([[1.]])
    """
    if isinstance(metric, str) and metric == "precomputed":
        X, _ = check_pairwise_arrays(X, Y, precomputed=True, accept_sparse=False)
        return X
    if callable(metric):
        same = Y is None
        X, Y = check_pairwise_arrays(X, Y, accept_sparse=False)
        K = np.empty((X.shape[0], Y.shape[0]), dtype=np.float64)
        if same:
            for i in range(X.shape[0]):
                for j in range(i, X.shape[0]):
                    K[i, j] = K[j, i] = metric(X[i], X[j], **kwds)
        else:
            for i in range(X.shape[0]):
                for j in range(Y.shape[0]):
                    K[i, j] = metric(X[i], Y[j], **kwds)
        return K
    if metric not in PAIRWISE_KERNEL_FUNCTIONS:
        raise ValueError(
            f"Unknown kernel {metric!r}; expected one of "
            f"{sorted(PAIRWISE_KERNEL_FUNCTIONS)}, 'precomputed' or a callable."
        )
    if filter_params:
        kwds = {k: v for k, v in kwds.items() if k in _KERNEL_PARAMS[metric]}
    return PAIRWISE_KERNEL_FUNCTIONS[metric](X, Y, **kwds)
