"""Kernel ridge regression (seed 000 §14.1).

Ridge regression in the feature space of a kernel k. By the representer
theorem the fitted function is f(x) = Σ_i a_i k(x, x_i) with dual
coefficients a = (K + α I)⁻¹ y, K_ij = k(x_i, x_j). With sample weights w the
problem min Σ_i w_i (y_i - f(x_i))² + α ||f||² gives
a = √W (√W K √W + α I)⁻¹ √W y. The system is solved by Cholesky; if K + α I
is not numerically positive definite the least-squares solution is used instead, with a
warning (by LDL' when its eigenvalues are proven away from zero, else from its
eigenpairs). For the rbf and linear kernels only one triangle of K is built
(BLAS syrk, finished in place) and LAPACK factors it in place: no n x n copy.
The linear kernel of an X with fewer columns than rows is not formed at all: its
system is solved from the thin SVD of X (:func:`_linear_dual_from_svd`; dense X with
at most a quarter as many columns as rows) or from the p x p normal equations
(:func:`_linear_dual_from_gram`; dense or sparse X, up to 0.8 as many), and
predictions are ``x . (X' a)``.
"""

import warnings
from numbers import Real

import numpy as np
import scipy.sparse as sp
from scipy import linalg
from scipy.linalg import lapack
from scipy.linalg.blas import dgemm, dsymv, dsyrk

from ._kernels.gram import kernel_lower
from ._kernels.kernel_functions import kernel_matrix, supports
from .base import BaseEstimator, RegressorMixin
from .metrics.pairwise import _check_kernel_range, kernel_accepts_sparse, pairwise_kernels
from .preprocessing import normalize
from .utils._linalg import solve_certified_symmetric, solve_gram
from .utils._linear import linear_product
from .utils._params import Interval, StrOptions
from .utils._sparse import csr_gram, like_input
from .utils._threads import small_lapack
from .utils.validation import (
    cast_float_attributes,
    check_is_fitted,
    check_sample_weight,
    input_float_dtype,
    output_in_dtype,
    validate_data,
)

__all__ = ["KernelRidge"]


def _factor_solve(K, y):
    """Solve (K) x = y by Cholesky, K read from its lower triangle and overwritten.

    Returns None when K is not numerically positive definite.
    """
    # K.T is a Fortran view of the same memory holding the lower triangle as its upper one
    c, info = lapack.dpotrf(K.T, lower=0, overwrite_a=1, clean=0)
    if info != 0:
        return None
    x, info = lapack.dpotrs(c, y, lower=0)
    if info != 0:
        return None
    return x


# order of the least-squares fallback's eigenproblem from which LAPACK's divide and
# conquer runs on BLAS's threads
_EVD_THREADED_ORDER = 300


def _symmetric_lstsq(F, Y):
    """Minimum-norm least-squares solution of ``F X = Y`` for symmetric ``F`` (F may be
    overwritten).

    When no eigenvalue of F lies near zero (an indefinite kernel plus its penalty, as
    the sigmoid kernel's usually is) the solution is the system's own, from LDL'
    factors (:func:`~classiclearn.utils._linalg.solve_certified_symmetric`); otherwise
    from the eigenpairs (:func:`_eigen_lstsq`)."""
    # after numba's parallel kernel values: up to order 1,000 one BLAS thread is faster
    with small_lapack(F.shape[0]):
        X = solve_certified_symmetric(F, np.asfortranarray(Y))
    return _eigen_lstsq(F, Y) if X is None else X


def _eigen_lstsq(F, Y):
    """:func:`_symmetric_lstsq` from the eigenpairs of ``F``, which stand in for its
    singular pairs (``|lambda|``), cut off, as LAPACK's ``gelsd`` cuts its singular
    values, below machine precision times the largest; a symmetric eigendecomposition
    costs less than an SVD."""
    # divide and conquer: all the eigenpairs in less time than MRRR's eigh or gelsd's
    # SVD, on BLAS's threads from order 300
    with small_lapack(F.shape[0], limit=_EVD_THREADED_ORDER):
        w, V = linalg.eigh(F, driver="evd", overwrite_a=True, check_finite=False)
    keep = np.abs(w) > np.finfo(np.float64).eps * np.abs(w).max(initial=0.0)
    Vk = V[:, keep]
    return Vk @ ((Vk.T @ Y) / w[keep, None])


def _solve_kernel_system(K, y, alpha, sample_weight, full_kernel):
    """Dual coefficients for K (n, n, lower triangle read, overwritten), y (n, t).

    ``alpha`` is (1,) or (t,); ``full_kernel()`` recomputes the whole (unweighted)
    kernel for the least-squares fallback, or is None when K holds the whole kernel
    (its strict upper triangle, which the factorisation leaves, then rebuilds it).
    """
    n, t = y.shape
    if sample_weight is not None:
        sw = np.sqrt(sample_weight)
        y = y * sw[:, None]
        with np.errstate(all="ignore"):
            K *= sw[:, None]
            K *= sw[None, :]
    if np.all(alpha == alpha[0]):
        groups = [(alpha[0], np.arange(t))]
    else:
        if alpha.shape[0] != t:
            raise ValueError(
                "Number of targets and number of penalties do not correspond: "
                f"{alpha.shape[0]} != {t}"
            )
        groups = [(a, np.array([j])) for j, a in enumerate(alpha)]
    dual = np.empty((n, t))
    for g, (a, cols) in enumerate(groups):
        # the last group factors K itself, earlier ones a copy
        A = K if g == len(groups) - 1 else K.copy()
        A.flat[:: n + 1] += a
        shifted_diagonal = np.diagonal(A).copy() if full_kernel is None else None
        # LAPACK right after numba's parallel kernel values: up to order 1,000 one
        # BLAS thread is faster, and BLAS's threads would spin beside numba's
        with small_lapack(n):
            x = _factor_solve(A, np.asfortranarray(y[:, cols]))
        if x is None:
            warnings.warn(
                "Singular matrix in solving dual problem. Using least-squares solution instead.",
                UserWarning,
                stacklevel=3,
            )
            if full_kernel is None:
                F = np.triu(A, 1)
                F += F.T
                F.flat[:: n + 1] = shifted_diagonal
            else:
                F = np.array(full_kernel(), dtype=np.float64)
                if sample_weight is not None:
                    F *= np.outer(sw, sw)
                F.flat[:: n + 1] += a
            x = _symmetric_lstsq(F, y[:, cols])
        dual[:, cols] = x
    if sample_weight is not None:
        dual *= sw[:, None]
    return dual


# How far above LAPACK's rounding of the n x n linear kernel (n eps s_max^2) the
# penalty must lie for the SVD route: below it the kernel's Cholesky factorisation
# can fail, and the least-squares fallback's cut-off decides, as scikit-learn's.
_PENALTY_MARGIN = 100.0


# the share of the rows up to which the p x p normal equations are solved instead of
# the n x n kernel system (their products and factorisation cost p / n and (p / n)^3
# of the kernel's)
_GRAM_COLUMN_SHARE = 0.8


def _penalty_too_small(alpha, n, top):
    """Whether a penalty is not positive or lies within :data:`_PENALTY_MARGIN` times the
    rounding of the n x n linear kernel whose largest eigenvalue is ``top``."""
    return alpha.min() <= 0 or alpha.min() < _PENALTY_MARGIN * n * np.finfo(np.float64).eps * top


def _linear_dual_from_svd(X, y, alpha, sample_weight):
    """Dual coefficients a (n, t) of the linear kernel ``K = X X'`` and the fitted
    function's vectors ``X' a`` (p, t), from the thin SVD of X (weighted rows
    ``sqrt(w) X``); None where the penalty is too small for it.

    With ``X = U S V'``, ``(K + a I)^-1 = U diag(1 / (s^2 + a)) U' + (I - U U') / a``:
    the component of y in X's column space shrunk, the rest divided by the penalty;
    O(n p^2) instead of the kernel's O(n^3) factorisation, for as many targets and
    penalties as given. ``X' a = V diag(s / (s^2 + a)) U' y`` is taken from the SVD
    too: ``X'`` of the rest cancels in exact arithmetic only, and its rounding, divided
    by a small penalty, would reach the predictions. ``alpha`` is (1,) or (t,) for y
    (n, t).
    """
    n, t = y.shape
    sw = None if sample_weight is None else np.sqrt(sample_weight)
    Xw = X if sw is None else X * sw[:, None]
    yw = y if sw is None else y * sw[:, None]
    with small_lapack(X.shape[1]):
        U, S, Vt = linalg.svd(Xw, full_matrices=False, check_finite=False)
    if _penalty_too_small(alpha, n, S[0] ** 2 if S.size else 0.0):
        return None
    a = np.broadcast_to(alpha, (t,))[None, :]
    inner = U.T @ yw
    shrunk = S[:, None] ** 2 + a
    dual = U @ (inner / shrunk) + (yw - U @ inner) / a
    primal = Vt.T @ (inner * (S[:, None] / shrunk))
    return (dual if sw is None else dual * sw[:, None]), primal


def _top_eigenvalue(G, steps=12):
    """An estimate from below of the largest eigenvalue of a symmetric positive
    semi-definite G (p, p) read from its upper triangle: the Rayleigh quotient after
    ``steps`` power iterations from the diagonal's square root (a fixed start: the same
    G, the same estimate), never under the largest diagonal entry."""
    d = np.diag(G)
    v = np.sqrt(np.maximum(d, 0.0)) + 1.0
    value = 0.0
    for _ in range(steps):
        v /= np.linalg.norm(v)
        w = dsymv(1.0, G, v, lower=0)
        value = float(v @ w)
        v = w
    return max(value, float(d.max(initial=0.0)))


def _upper_gram(X):
    """``X' X`` (p, p) with (at least) its upper triangle filled: BLAS syrk for a dense X,
    pair sums of each row's entries for a sparse one (:func:`csr_gram`)."""
    if sp.issparse(X):
        # symmetric: its transpose is the same matrix in the Fortran order LAPACK takes
        return csr_gram(X).T
    # X.T is a Fortran view of C-ordered X: syrk reads it without a copy
    return dsyrk(1.0, np.asarray(X, order="C").T, trans=0, lower=0)


def _linear_dual_from_gram(X, y, alpha, sample_weight):
    """Dual coefficients a (n, t) of the linear kernel ``K = X X'`` and the fitted
    function's vectors ``w = X' a`` (p, t) from the p x p normal equations (weighted
    rows ``sqrt(w) X``); None where the penalty is too small for them.

    ``(X X' + a I) d = y`` holds for ``d = (y - X w) / a`` with ``w`` the ridge solution
    ``(X' X + a I) w = X' y`` (:func:`solve_gram`: one Cholesky factorisation of order p
    per penalty instead of the kernel's of order n), ``X' X`` by one syrk pass (dense
    X) or from each row's entries (sparse X). The dual's error is of the order of the
    kernel Cholesky's (measured against the SVD route: within a factor of 2-3 either
    way), the predictions' smaller. ``alpha`` is (1,) or (t,) for y (n, t).
    """
    n, t = y.shape
    sw = None if sample_weight is None else np.sqrt(sample_weight)
    yw = y if sw is None else y * sw[:, None]
    if sw is None:
        Xw = X
    else:
        Xw = sp.csr_array(sp.diags_array(sw) @ X) if sp.issparse(X) else X * sw[:, None]
    G = _upper_gram(Xw)
    alphas = np.broadcast_to(alpha, (t,)).astype(np.float64)
    # the steps after the Gram product are of order p: on one BLAS thread, where the
    # product's threads, still spinning, would only compete
    with small_lapack(G.shape[0]):
        if _penalty_too_small(alphas, n, _top_eigenvalue(G)):
            return None
        try:
            primal = solve_gram(G, np.asarray(Xw.T @ yw), alphas, singular="raise")
        except linalg.LinAlgError:
            return None
        dual = (yw - Xw @ primal) / alphas
    return (dual if sw is None else dual * sw[:, None]), primal


class KernelRidge(RegressorMixin, BaseEstimator):
    """Kernel ridge regression.

    Parameters
    ----------
    alpha : float or array-like of shape (n_targets,), default=1.0
        Ridge penalty; one per target when an array.
    kernel : {'linear', 'poly', 'rbf', 'sigmoid', 'cosine', 'laplacian', 'additive_chi2', \
'chi2', 'precomputed'} \
or callable, default='linear'
    gamma : float, default=None
        Coefficient of rbf, laplacian, poly and sigmoid kernels; 1 / n_features when None.
    degree : float, default=3
        Degree of the poly kernel.
    coef0 : float, default=1
        Constant of the poly and sigmoid kernels.
    kernel_params : dict, default=None
        Parameters of a callable kernel.

    Attributes
    ----------
    dual_coef_ : ndarray of shape (n_samples,) or (n_samples, n_targets)
    X_fit_ : ndarray of shape (n_samples, n_features)
        Training data (the kernel itself with ``kernel='precomputed'``).
    n_features_in_ : int
    feature_names_in_ : ndarray of str

    See Also
    --------
    classiclearn.linear_model.Ridge : the linear kernel in primal form.
    classiclearn.svm.SVR : epsilon-insensitive loss with the same kernels.

    Notes
    -----
    Seed 000 §14.1. Unlike ``Ridge`` there is no intercept: centre y or use a
    kernel with a constant term.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0.0], [1.0], [2.0]])
    >>> KernelRidge(alpha=1e-8).fit(X, [0.0, 2.0, 4.0]).predict([[3.0]]).round(4).tolist()
    [6.0]
    """

    _parameter_constraints = {
        "alpha": [Interval(Real, 0, None, closed="left"), "array-like"],
        "kernel": [
            StrOptions(
                {"linear", "poly", "polynomial", "rbf", "sigmoid", "cosine", "laplacian",
                 "additive_chi2", "chi2", "precomputed"}
            ),
            "callable",
        ],
        "gamma": [Interval(Real, 0, None, closed="left"), None],
        "degree": [Interval(Real, 0, None, closed="left")],
        "coef0": [Real],
        "kernel_params": [dict, None],
    }

    def __init__(self, alpha=1.0, *, kernel="linear", gamma=None, degree=3, coef0=1,
                 kernel_params=None):
        self.alpha = alpha
        self.kernel = kernel
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0
        self.kernel_params = kernel_params

    def __classiclearn_tags__(self):
        tags = super().__classiclearn_tags__()
        tags.pairwise = self.kernel == "precomputed"
        tags.multi_output = True
        tags.sparse = kernel_accepts_sparse(self.kernel)
        return tags

    def _get_kernel(self, X, Y=None):
        if supports(self.kernel):
            # linear / poly / rbf / sigmoid: the kernel functions shared with the SVMs
            # and KernelPCA (dense or sparse rows)
            gamma = 1.0 / X.shape[1] if self.gamma is None else self.gamma
            return kernel_matrix(X, X if Y is None else Y, self.kernel, gamma=gamma,
                                 coef0=self.coef0, degree=self.degree)
        if callable(self.kernel):
            params = self.kernel_params or {}
        else:
            params = {"gamma": self.gamma, "degree": self.degree, "coef0": self.coef0}
        return pairwise_kernels(X, Y, metric=self.kernel, filter_params=True, **params)

    def fit(self, X, y, sample_weight=None):
        """Fit the dual coefficients.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features), or (n_samples, n_samples) kernel
        y : array-like of shape (n_samples,) or (n_samples, n_targets)
        sample_weight : float or array-like of shape (n_samples,), default=None

        Returns
        -------
        self
        """
        self._validate_params()
        x_dtype, y_dtype = input_float_dtype(X), input_float_dtype(y)
        # sparse X (CSR) for the kernels that take it (as scikit-learn); chi2 needs dense X
        X_in = X
        X, y = validate_data(self, X, y, dtype=np.float64, multi_output=True, y_numeric=True,
                             accept_sparse="csr" if kernel_accepts_sparse(self.kernel) else False)
        _check_kernel_range(X, self, self.kernel, self.degree, fit=True)
        if sample_weight is not None and not isinstance(sample_weight, float):
            sample_weight = check_sample_weight(sample_weight, X, dtype=np.float64)
        elif isinstance(sample_weight, float):
            sample_weight = np.full(X.shape[0], sample_weight)
        alpha = np.atleast_1d(np.asarray(self.alpha, dtype=np.float64))
        if np.any(alpha < 0):
            raise ValueError("alpha must be non-negative.")
        ravel = y.ndim == 1
        y2 = np.asarray(y.reshape(-1, 1) if ravel else y, dtype=np.float64)
        solved = None
        route = self._linear_route(X, y2, alpha)
        if route == "svd":
            solved = _linear_dual_from_svd(self._linear_rows(X), y2, alpha, sample_weight)
        elif route == "gram":
            solved = _linear_dual_from_gram(self._linear_rows(X), y2, alpha, sample_weight)
        # the linear kernel's fitted function x -> sum_i a_i x_i . x, one vector per target
        # (of the normalised rows for the cosine kernel)
        if solved is None:
            # the cosine kernel is the linear kernel of the normalised rows: normalised
            # once, for the kernel and the fitted function alike
            rows = self._linear_rows(X) if self.kernel in ("linear", "cosine") else None
            dual = self._solve_on_kernel(X, y2, alpha, sample_weight, rows)
            primal = None if rows is None else self._primal_from_rows(rows, dual)
        else:
            dual, primal = solved
        self._primal_coef = None if primal is None else (primal.ravel() if ravel else primal)
        self.dual_coef_ = dual.ravel() if ravel else dual
        self.X_fit_ = like_input(X, X_in)  # a sparse X_fit_ in the input's container kind
        # as scikit-learn: X_fit_ in X's dtype, the dual coefficients in float32
        # when both X and y are float32
        cast_float_attributes(self, x_dtype, ("X_fit_",))
        cast_float_attributes(self, np.promote_types(x_dtype, y_dtype), ("dual_coef_",))
        return self

    @staticmethod
    def _primal_from_rows(rows, dual):
        """The linear (cosine) kernel's fitted function as one vector per target,
        ``rows' dual`` of shape (n_features, n_targets), ``rows`` being
        :meth:`_linear_rows` of the training X.

        Dense rows go through scipy's dgemm, the BLAS whose threads the kernel's
        dsyrk has just used: numpy's BLAS is a second thread pool, and a product in it
        while scipy's threads still spin after the fit runs several times slower.
        Predicting with it then costs O(p) per row instead of the O(n p) of a kernel
        row.
        """
        if sp.issparse(rows):
            return np.asarray(rows.T @ dual)
        # C-ordered rows are their transpose in Fortran order: dgemm takes it uncopied
        return dgemm(1.0, np.ascontiguousarray(rows).T, dual)

    def _linear_rows(self, X):
        """The rows whose dot products are the kernel: X for the linear kernel, X's rows
        scaled to unit norm for the cosine kernel (zero rows kept, as scikit-learn's
        cosine similarity keeps them)."""
        return normalize(X) if self.kernel == "cosine" else X

    def _linear_route(self, X, y, alpha):
        """How the linear kernel's system (the cosine kernel's: the linear kernel of the
        normalised rows) is solved without the n x n kernel: "svd"
        (:func:`_linear_dual_from_svd`) for dense X with at most a quarter as many
        columns as rows, "gram" (:func:`_linear_dual_from_gram`) for fewer columns than
        ``_GRAM_COLUMN_SHARE`` of the rows otherwise (dense or sparse X); None for the
        kernel."""
        n, p = X.shape
        if self.kernel not in ("linear", "cosine") or alpha.shape[0] not in (1, y.shape[1]):
            return None
        if not sp.issparse(X) and 4 * p <= n:
            return "svd"
        if p <= _GRAM_COLUMN_SHARE * n:
            return "gram"
        return None

    def _solve_on_kernel(self, X, y, alpha, sample_weight, rows=None):
        """Dual coefficients from the n x n kernel of X (one triangle where the kernel
        allows it), factored by LAPACK. ``rows``: :meth:`_linear_rows` of X for the
        linear and cosine kernels (whose triangle is their linear kernel)."""
        K = None
        if not callable(self.kernel) and self.kernel != "precomputed" and not sp.issparse(X):
            K = (kernel_lower(X, self.kernel, self.gamma) if rows is None
                 else kernel_lower(rows, "linear", None))
        if K is not None:
            return _solve_kernel_system(K, y, alpha, sample_weight,
                                        lambda: self._get_kernel(X))
        # a fresh kernel, or a copy of the precomputed one: whole, so the least-squares
        # fallback rebuilds it from the triangle the factorisation leaves
        K = np.array(self._get_kernel(X), dtype=np.float64, order="C", copy=True)
        return _solve_kernel_system(K, y, alpha, sample_weight, None)

    def predict(self, X):
        """Predict f(x) = Σ_i a_i k(x, x_i).

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features), or (n_samples, n_fit) kernel

        Returns
        -------
        ndarray of shape (n_samples,) or (n_samples, n_targets)
        """
        check_is_fitted(self)
        X_in = X
        X = validate_data(self, X, reset=False, dtype=np.float64,
                          accept_sparse="csr" if kernel_accepts_sparse(self.kernel) else False)
        _check_kernel_range(X, self, self.kernel, self.degree, fit=False)
        if getattr(self, "_primal_coef", None) is not None:
            # the linear kernel: x . (X_fit' a), O(p) per row instead of O(n p)
            return output_in_dtype(linear_product(self._linear_rows(X), self._primal_coef.T),
                                   X_in, self.dual_coef_)
        X_fit = self.X_fit_
        X_fit = X_fit.astype(np.float64) if sp.issparse(X_fit) else np.asarray(X_fit, np.float64)
        # K @ dual_coef_: few targets, so a thin product (on one BLAS thread)
        pred = linear_product(self._get_kernel(X, X_fit), self.dual_coef_.T)
        return output_in_dtype(pred, X_in, self.dual_coef_)
