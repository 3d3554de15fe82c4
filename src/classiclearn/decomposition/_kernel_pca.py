"""Kernel principal component analysis (seed 000 §14.2).

PCA in the feature space of a kernel k: with the training kernel matrix
K_ij = k(x_i, x_j) centred in feature space, K_c = (I - 1/n) K (I - 1/n), the
eigenvectors α_j (unit norm) and eigenvalues λ_j of K_c give the components;
the projection of a new x is Σ_i k_c(x, x_i) α_ij / √λ_j (the α scaled so the
feature-space axes have unit norm), and of a training point √λ_j α_ij.
With ``fit_inverse_transform`` a kernel ridge regression from projections
back to inputs learns the pre-image map (Bakır, Weston & Schölkopf).

For a few components ('auto' with fewer than 10 components) a Lanczos run with
full reorthogonalisation and no restarts works on the kernel kept in one
triangle (built in place: BLAS syrk finished by numba for rbf / linear), centred
implicitly by rank-one corrections; every product is one BLAS symv reading half
the matrix, and it needs about 30 products where implicitly restarted ARPACK
needs about 47 (ARPACK takes over if it has not converged after 300). 'arpack'
runs ARPACK on the same triangle, centred in place once. With a precomputed
kernel the centring is always applied implicitly.
"""

import warnings
from numbers import Integral, Real

import numpy as np
import scipy.sparse as sp
from scipy import linalg
from scipy.linalg.blas import dgemm, dgemv, dsymv

from .._kernels.gram import centre_lower, column_gram, kernel_lower, lower_supported
from .._kernels.kernel_functions import centred_product, kernel_matrix, scipy_product, supports
from .._kernels.work import KERNEL_BLAS_FEATURES
from ..base import BaseEstimator, TransformerMixin
from ..exceptions import NotFittedError
from ..metrics.pairwise import _check_kernel_range, kernel_accepts_sparse, pairwise_kernels
from ..preprocessing import normalize
from ..utils._params import Interval, StrOptions
from ..utils._random import check_random_state
from ..utils._sparse import csr_gram, like_input
from ..utils._threads import small_lapack
from ..utils.validation import (
    cast_float_attributes,
    check_is_fitted,
    input_float_dtype,
    validate_data,
)
from ._pca import _as_input_dtype, _is_float32

__all__ = ["KernelPCA"]

def _centre_stats(K):
    col = K.mean(axis=0)
    return col, float(col.mean())


def _centred_matmat(K, col_means, all_mean):
    """Return B -> K_c B for K_c = K - 1 colᵀ - col 1ᵀ + all (K symmetric)."""

    def matmat(B):
        s = B.sum(axis=0)
        return K @ B - np.outer(np.ones(K.shape[0]), col_means @ B) - np.outer(
            col_means - all_mean, s
        )

    return matmat


def _centred_operator(K, col_means, all_mean, symmetric=True):
    """K_c as a LinearOperator: symmetric BLAS products (half of K read) and centring
    applied as rank-one corrections, so K_c is never formed."""
    from scipy.linalg.blas import dsymv
    from scipy.sparse.linalg import LinearOperator

    KF = K.T  # K is symmetric: its transpose is the same matrix in Fortran order
    shift = col_means - all_mean

    def matvec(v):
        v = np.ravel(v)
        Kv = dsymv(1.0, KF, v) if symmetric else K @ v
        return Kv - (col_means @ v) - shift * v.sum()

    n = K.shape[0]
    return LinearOperator(
        (n, n), matvec=matvec, rmatvec=matvec, matmat=_centred_matmat(K, col_means, all_mean),
        dtype=np.float64,
    )


# Largest Krylov basis of the 'auto' Lanczos solver before it hands over to ARPACK
# or LAPACK: this many vectors, or three per wanted eigenpair if more.
_LANCZOS_MAX_DIM = 300

# Where 'auto' would decompose the whole centred kernel (LAPACK, ~n^3 work), Lanczos
# (~n^2 work per product) takes over while at most 1 / _LANCZOS_DENSE_FRACTION of
# the eigenpairs are wanted.
_LANCZOS_DENSE_FRACTION = 16

# Order of the kernel below which 'auto' hands it to LAPACK (MRRR on the wanted pairs)
# rather than Lanczos or ARPACK: below it the per-step cost of the iterations (Python
# calls, the tridiagonal checks) exceeds the whole O(n^3) solve (one BLAS thread).
_LANCZOS_MIN_ORDER = 400

# After the kernel route, the linear kernel's projection axes W (p x k, n p k to form)
# are kept for at most one component per this many rows.
_AXES_COMPONENT_SHARE = 8

# Order of the kernel up to which the Lanczos / ARPACK products (symv, gemv) run on one
# BLAS thread: two threads were slower at 2,000-3,000 and even at 6,000.
_LANCZOS_THREADED_ORDER = 8_000

# Seed of the Lanczos start vector where 'auto' stands for 'dense': as LAPACK's
# answer, the result then does not depend on random_state.
_DENSE_START_SEED = 0

# (tol, gap_tol) of :func:`_lanczos_top` where it stands for an exact solver (ARPACK
# at tol=0, or LAPACK): residuals at 1e-12 of the top eigenvalue, eigenvector
# errors bounded by 1e-10 where the gaps allow.
_EXACT_TOLERANCES = (1e-12, 1e-10)


def _lanczos_max_dim(n_components):
    return max(_LANCZOS_MAX_DIM, 3 * n_components)


# Tridiagonal size from which LAPACK's MRRR on the wanted eigenpairs beats a
# dense eigensolve of the whole small matrix.
_TRIDIAGONAL_MRRR_SIZE = 64


def _tridiagonal_top(diagonal, off_diagonal, count):
    """Largest ``count`` eigenpairs (ascending) of a symmetric tridiagonal matrix."""
    m = diagonal.shape[0]
    if m >= _TRIDIAGONAL_MRRR_SIZE:
        return linalg.eigh_tridiagonal(
            diagonal, off_diagonal, select="i", select_range=(m - count, m - 1),
            check_finite=False, lapack_driver="stemr",
        )
    H = np.diag(diagonal)
    idx = np.arange(m - 1)
    H[idx, idx + 1] = off_diagonal
    H[idx + 1, idx] = off_diagonal
    # numpy's eigh: the same LAPACK driver family without scipy's argument handling,
    # which costs more than the solve at these sizes (it runs at every Lanczos check)
    theta, S = np.linalg.eigh(H)
    return theta[m - count:], S[:, m - count:]


def _lanczos_top(matvec, n, k, v0, tol, max_dim, w0=None, gap_tol=0.0):
    """Largest ``k`` eigenpairs of a symmetric operator by Lanczos with full
    reorthogonalisation (no restarts); None if not converged within ``max_dim``.

    The basis is kept (Fortran order, so each Gram-Schmidt sweep is two BLAS
    ``gemv``) and orthogonalised twice against every earlier vector, so no
    spurious copies appear and the Ritz residual ``β_j |s_j|`` is reliable. The
    run stops once every wanted Ritz pair has residual ``<= tol * |θ_1|``. For a
    few wanted eigenpairs this needs about two thirds of the operator products
    of implicitly restarted ARPACK (no restart discards Krylov information).

    ``w0``, when given, is the product ``matvec(v0)`` already at hand (saves
    the first product). With ``gap_tol > 0`` a pair also counts as converged
    when its residual is at most ``gap_tol`` times its distance to the nearest
    other Ritz value (an eigenvector error bound of ``gap_tol``), capped at ten
    times the plain threshold: well separated pairs stop a step or two earlier,
    close ones are never held to less than ``tol``.

    Returns
    -------
    (eigenvalues ascending (k,), eigenvectors (n, k)) or None
    """
    max_dim = min(n, max_dim)
    Q = np.empty((n, max_dim), order="F")
    alpha = np.empty(max_dim)
    beta = np.empty(max_dim)
    nrm = np.linalg.norm(v0)
    Q[:, 0] = v0 / nrm
    next_check = k
    for j in range(max_dim):
        w = w0 / nrm if j == 0 and w0 is not None else matvec(Q[:, j])
        alpha[j] = Q[:, j] @ w
        basis = Q[:, : j + 1]
        for _ in range(2):
            # scipy's BLAS, as the operator's dsymv: one thread pool in the loop (numpy's
            # OpenBLAS threads would spin between calls while scipy's work, and vice versa)
            w = dgemv(-1.0, basis, dgemv(1.0, basis, w, trans=1), beta=1.0, y=w, overwrite_y=1)
        b = float(np.linalg.norm(w))
        beta[j] = b
        m = j + 1
        breakdown = b <= np.finfo(np.float64).eps * max(float(np.abs(alpha[:m]).max()), 1e-300)
        if m >= next_check or (m >= k and (m == max_dim or breakdown)):
            # a check costs a tridiagonal eigensolve: every step while the basis is
            # small, then after every ~m/8 steps (at most ~12% extra products)
            next_check = m + max(1, m // 8)
            theta_all, S = _tridiagonal_top(alpha[:m], beta[: m - 1], min(m, k + 1))
            theta, S = theta_all[-k:], S[:, -k:]
            res = b * np.abs(S[-1])
            top = max(abs(theta[-1]), abs(theta[0]))
            limit = tol * top
            if gap_tol > 0 and m > k:
                gaps = np.diff(theta_all)
                gap = np.minimum(gaps, np.append(gaps[1:], np.inf))
                limit = np.maximum(limit, np.minimum(10.0 * limit, gap_tol * gap))
            if np.all(res <= limit) and top > 0:
                return theta, Q[:, :m] @ S
        if m == max_dim or breakdown:
            return None
        Q[:, m] = w / b
    return None


def _dense_start_vector(n):
    return np.random.RandomState(_DENSE_START_SEED).uniform(-1, 1, size=n)


# Eigenvalues the PSD check keeps, relative to the largest (smaller ones are zeroed and,
# for n_components=None, dropped).
_SMALL_POSITIVE_RATIO = 1e-12


def _check_psd_eigenvalues(lambdas):
    if lambdas.size == 0:
        return lambdas
    top = lambdas.max()
    if top < 0:
        raise ValueError(
            f"All eigenvalues are negative (maximum is {top:g}). Either the matrix is not "
            "PSD, or there was an issue while computing the eigendecomposition of the matrix."
        )
    low = lambdas.min()
    if low < -1e-5 * top:
        raise ValueError(
            f"There are significant negative eigenvalues ({-low / top:g} of the maximum "
            "positive). Either the matrix is not PSD, or there was an issue while computing "
            "the eigendecomposition of the matrix."
        )
    lambdas = np.where(lambdas < 0, 0.0, lambdas)
    return np.where(lambdas < _SMALL_POSITIVE_RATIO * top, 0.0, lambdas)


# Dense eigensolver choice: LAPACK's divide and conquer (``syevd``) computes the
# whole spectrum in less time than MRRR (``syevr``) computes a quarter of it; it needs
# about two more n x n workspaces, hence the size cap. BLAS's threads speed syevd up
# from a lower order than syevr (400 against 1,000).
_DIVIDE_AND_CONQUER_FRACTION = 4
_DIVIDE_AND_CONQUER_MAX_ORDER = 10_000
_DIVIDE_AND_CONQUER_THREADED_ORDER = 300


# order from which the partial eigendecomposition (its tridiagonal reduction, half
# matrix-vector products) runs on BLAS's threads: threads were faster at 1,000 rows,
# alike at 500
_PARTIAL_EIGH_THREADED_ORDER = 600


def _dense_top_eigenpairs(Kc, n_components, lower=True):
    """The ``n_components`` largest eigenpairs of the symmetric ``Kc`` (overwritten;
    its ``lower`` or upper triangle read), in ascending order, as
    ``scipy.linalg.eigh(subset_by_index=...)`` returns them.

    Examples
    --------
    >>> import numpy as np
    >>> w, v = _dense_top_eigenpairs(np.diag([3.0, 1.0, 2.0]), 2)
    >>> w.tolist()
    [2.0, 3.0]
    """
    n = Kc.shape[0]
    if (n_components * _DIVIDE_AND_CONQUER_FRACTION >= n
            and n <= _DIVIDE_AND_CONQUER_MAX_ORDER):
        with small_lapack(n, limit=_DIVIDE_AND_CONQUER_THREADED_ORDER):
            evals, evecs = linalg.eigh(Kc, lower=lower, driver="evd", overwrite_a=True,
                                       check_finite=False)
        return evals[n - n_components:], evecs[:, n - n_components:]
    with small_lapack(n, limit=_PARTIAL_EIGH_THREADED_ORDER):
        return linalg.eigh(Kc, lower=lower, subset_by_index=(n - n_components, n - 1),
                           overwrite_a=True, check_finite=False)


# The smallest eigenvalue of ``Xc' Xc``, relative to the largest, whose left vector
# ``Xc v / s`` is taken (its error grows as s_max^2 / s^2 times the eigenvector's).
_COLUMN_ROUTE_MIN_RATIO = 1e-6


def _top_pairs_from_columns(Xc, k):
    """The k largest eigenpairs of ``Xc Xc'`` from those of the p x p ``Xc' Xc``:
    ``(lambda, Xc v / sqrt(lambda))``; None when the k-th eigenvalue is below
    :data:`_COLUMN_ROUTE_MIN_RATIO` of the largest (the SVD is then used).

    Examples
    --------
    >>> import numpy as np
    >>> Xc = np.array([[1.0, 0.0], [-1.0, 0.0], [0.0, 2.0], [0.0, -2.0]])
    >>> evals, U = _top_pairs_from_columns(Xc, 1)
    >>> evals.tolist(), np.abs(U[:, 0]).round(4).tolist()
    ([8.0], [0.0, 0.0, 0.7071, 0.7071])
    """
    p = Xc.shape[1]
    with small_lapack(p):
        evals, V = _dense_top_eigenpairs(column_gram(Xc), k)
    evals, V = evals[::-1], V[:, ::-1]
    if not evals[-1] >= _COLUMN_ROUTE_MIN_RATIO * evals[0] > 0:
        return None
    return evals, (Xc @ V) / np.sqrt(evals)


# Components from which the linear kernel's eigenpairs come from X's columns for X of
# n / 2 to 0.6 n columns (and from five times as many, up to n columns).
_FEATURES_MANY_COMPONENTS = 20


def _sparse_top_pairs(X, mean, k, all_nonzero=False):
    """The k largest eigenpairs of the centred linear kernel of a sparse X (n, p) from
    ``Xc' Xc = X' X - n mean mean'`` (p x p, X kept sparse): ``(lambda, u)`` with
    ``u = (X v - 1 (mean . v)) / sqrt(lambda)``; with ``all_nonzero`` the pairs of
    all the eigenvalues the PSD check keeps instead. None where a wanted eigenvalue is
    below :data:`_COLUMN_ROUTE_MIN_RATIO` of the largest plus the rounding of the
    centring (``n |mean|^2``, which the subtraction cancels).

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp
    >>> X = sp.csr_array(np.array([[1.0, 0.0], [-1.0, 0.0], [0.0, 2.0], [0.0, -2.0]]))
    >>> evals, U = _sparse_top_pairs(X, np.zeros(2), 1)
    >>> evals.tolist(), np.abs(U[:, 0]).round(4).tolist()
    ([8.0], [0.0, 0.0, 0.7071, 0.7071])
    """
    n, p = X.shape
    G = csr_gram(X)
    G -= n * np.outer(mean, mean)
    with small_lapack(p):
        evals, V = _dense_top_eigenpairs(G, p if all_nonzero else k)
    evals, V = evals[::-1], V[:, ::-1]
    if all_nonzero:
        wanted = evals >= _SMALL_POSITIVE_RATIO * evals[0]
        evals, V = evals[wanted], V[:, wanted]
    if evals.size == 0:
        return None
    floor = _COLUMN_ROUTE_MIN_RATIO * (evals[0] + n * float(mean @ mean))
    if not evals[-1] >= floor > 0:
        return None
    U = (np.asarray(X @ V) - mean @ V) / np.sqrt(evals)
    return evals, U


class KernelPCA(TransformerMixin, BaseEstimator):
    """Kernel principal component analysis.

    Parameters
    ----------
    n_components : int, default=None
        Number of components; all non-zero ones when None.
    kernel : {'linear', 'poly', 'rbf', 'sigmoid', 'cosine', 'precomputed'} or callable, \
default='linear'
    gamma : float, default=None
        Coefficient of rbf, poly and sigmoid kernels; 1 / n_features when None.
    degree : float, default=3
        Degree of the poly kernel.
    coef0 : float, default=1
        Constant of the poly and sigmoid kernels.
    kernel_params : dict, default=None
        Parameters of a callable kernel.
    alpha : float, default=1.0
        Ridge penalty of the inverse transform.
    fit_inverse_transform : bool, default=False
        Learn the pre-image map (enables :meth:`inverse_transform`).
    eigen_solver : {'auto', 'dense', 'arpack', 'randomized'}, default='auto'
        'dense': LAPACK on the centred kernel; 'arpack': ARPACK on the
        implicitly centred kernel; 'randomized': a randomized range finder
        with ``iterated_power`` steps; 'auto': when ``n_components < 10``
        and n_samples > 200 a Lanczos run with full reorthogonalisation (the
        same eigenpairs as ARPACK to rounding, with fewer products; ARPACK if
        it does not converge), else 'dense'. Where 'auto' means 'dense' and at
        most a sixteenth of the eigenpairs are wanted, the same Lanczos run
        (to rounding, with a fixed start vector) replaces the full
        eigendecomposition of a built-in kernel; 'dense' if it does not
        converge.
    tol : float, default=0
        Tolerance of ARPACK (0: machine precision).
    max_iter : int, default=None
        Iterations of ARPACK.
    iterated_power : int or 'auto', default='auto'
        Power iterations of 'randomized'.
    remove_zero_eig : bool, default=False
        Drop components with zero eigenvalue.
    random_state : int, RandomState instance or None, default=None
    copy_X : bool, default=True
        Keep a copy of X (always done; accepted for compatibility).
    n_jobs : int, default=None
        Accepted for compatibility.

    Attributes
    ----------
    eigenvalues_ : ndarray of shape (n_components,)
    eigenvectors_ : ndarray of shape (n_samples, n_components)
    dual_coef_ : ndarray of shape (n_samples, n_features)
        Inverse-transform coefficients (with ``fit_inverse_transform``).
    X_transformed_fit_ : ndarray of shape (n_samples, n_components)
    X_fit_ : ndarray of shape (n_samples, n_features)
    gamma_ : float
    n_features_in_ : int
    feature_names_in_ : ndarray of str

    See Also
    --------
    PCA : linear components.

    Notes
    -----
    Seed 000 §14.2. Eigenvector signs are fixed so the largest-magnitude
    entry of each is positive.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0.0, 0.0], [1.0, 0.1], [2.0, -0.1], [3.0, 0.0]])
    >>> KernelPCA(n_components=1, kernel="linear").fit_transform(X).shape
    (4, 1)
    """

    _parameter_constraints = {
        "n_components": [Interval(Integral, 1, None, closed="left"), None],
        "kernel": [
            StrOptions({"linear", "poly", "rbf", "sigmoid", "cosine", "precomputed"}),
            "callable",
        ],
        "gamma": [Interval(Real, 0, None, closed="left"), None],
        "degree": [Interval(Real, 0, None, closed="left")],
        "coef0": [Real],
        "kernel_params": [dict, None],
        "alpha": [Interval(Real, 0, None, closed="left")],
        "fit_inverse_transform": ["boolean"],
        "eigen_solver": [StrOptions({"auto", "dense", "arpack", "randomized"})],
        "tol": [Interval(Real, 0, None, closed="left")],
        "max_iter": [Interval(Integral, 1, None, closed="left"), None],
        "iterated_power": [Interval(Integral, 0, None, closed="left"), StrOptions({"auto"})],
        "remove_zero_eig": ["boolean"],
        "random_state": ["random_state"],
        "copy_X": ["boolean"],
        "n_jobs": [Integral, None],
    }

    def __init__(
        self,
        n_components=None,
        *,
        kernel="linear",
        gamma=None,
        degree=3,
        coef0=1,
        kernel_params=None,
        alpha=1.0,
        fit_inverse_transform=False,
        eigen_solver="auto",
        tol=0,
        max_iter=None,
        iterated_power="auto",
        remove_zero_eig=False,
        random_state=None,
        copy_X=True,
        n_jobs=None,
    ):
        self.n_components = n_components
        self.kernel = kernel
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0
        self.kernel_params = kernel_params
        self.alpha = alpha
        self.fit_inverse_transform = fit_inverse_transform
        self.eigen_solver = eigen_solver
        self.tol = tol
        self.max_iter = max_iter
        self.iterated_power = iterated_power
        self.remove_zero_eig = remove_zero_eig
        self.random_state = random_state
        self.copy_X = copy_X
        self.n_jobs = n_jobs

    def __classiclearn_tags__(self):
        tags = super().__classiclearn_tags__()
        tags.pairwise = self.kernel == "precomputed"
        tags.preserves_dtype = ["float64", "float32"]
        tags.sparse = self._takes_sparse()
        return tags

    def _takes_sparse(self):
        """Sparse X for the kernels that take it (as scikit-learn), without the pre-image
        fit (which needs dense X)."""
        return kernel_accepts_sparse(self.kernel) and not self.fit_inverse_transform

    def _get_kernel(self, X, Y=None, kernel=None):
        """The kernel between the rows of X and Y (X); ``kernel`` in place of
        ``self.kernel`` (the cosine kernel's rows, normalised already, take "linear")."""
        kernel = self.kernel if kernel is None else kernel
        if supports(kernel):
            # linear / poly / rbf / sigmoid: the kernel functions shared with the SVMs
            # and KernelRidge (dense or sparse rows); the products in scipy's BLAS, the
            # library of the eigensolvers before (transform) or after (fit) them
            return kernel_matrix(X, X if Y is None else Y, kernel, gamma=self.gamma_,
                                 coef0=self.coef0, degree=self.degree, scipy_blas=True)
        if callable(kernel):
            params = self.kernel_params or {}
        else:
            params = {"gamma": self.gamma_, "degree": self.degree, "coef0": self.coef0}
        return pairwise_kernels(X, Y, metric=kernel, filter_params=True, **params)

    def _solve(self, K, n_components, rng, lanczos=False, single=False):
        n = K.shape[0]
        solver = self.eigen_solver
        col, allm = _centre_stats(K)
        self._K_fit_rows = col
        self._K_fit_all = allm
        if solver == "auto":
            solver = "arpack" if n > 200 and n_components < 10 else "dense"
        if solver == "arpack" and n_components < n:
            from scipy.sparse.linalg import eigsh

            v0 = rng.uniform(-1, 1, size=n)
            with small_lapack(n, limit=_LANCZOS_THREADED_ORDER):  # see _solve_lanczos
                return eigsh(
                    _centred_operator(K, col, allm, symmetric=self.kernel != "precomputed"),
                    n_components, which="LA", tol=self.tol,
                    maxiter=self.max_iter, v0=v0,
                )
        if solver == "arpack":
            # ARPACK needs n_components < n_samples; scipy's eigsh on a dense
            # matrix then solves it with LAPACK and warns, and so do we (as
            # scikit-learn, which hands eigsh the dense kernel)
            warnings.warn(
                "k >= N for N * N square matrix. Attempting to use scipy.linalg.eigh instead.",
                RuntimeWarning,
                stacklevel=4,
            )
        if solver == "randomized":
            n_iter = self.iterated_power
            if n_iter == "auto":
                n_iter = 7 if n_components < 0.1 * n else 4
            matmat = _centred_matmat(K, col, allm)
            size = min(n, n_components + 10)
            Q = matmat(rng.normal(size=(n, size)))
            for _ in range(n_iter):
                Q, _ = linalg.lu(Q, permute_l=True, check_finite=False)
                Q = matmat(Q)
            Q, _ = linalg.qr(Q, mode="economic", check_finite=False)
            T = Q.T @ matmat(Q)
            evals, W = linalg.eigh((T + T.T) / 2.0, check_finite=False)
            order = np.argsort(np.abs(evals))[::-1][:n_components]
            return evals[order][::-1], (Q @ W[:, order])[:, ::-1]
        if lanczos:  # 'auto' standing for 'dense', see _lanczos_replaces_dense
            op = _centred_operator(K, col, allm)
            tol, gap_tol = _EXACT_TOLERANCES
            with small_lapack(n, limit=_LANCZOS_THREADED_ORDER):  # see _solve_lanczos
                result = _lanczos_top(
                    op.matvec, n, n_components, _dense_start_vector(n), tol,
                    _lanczos_max_dim(n_components), gap_tol=gap_tol,
                )
            if result is not None:
                return result
        Kc = K - col[None, :]
        Kc -= col[:, None]
        Kc += allm
        if single:
            # float32 input: LAPACK's single-precision eigensolver, as scikit-learn
            # (whose fitted arrays are float32 then), on the kernel centred in float64
            Kc = Kc.astype(np.float32)
        evals, evecs = _dense_top_eigenpairs(Kc, n_components)
        return evals.astype(np.float64, copy=False), evecs.astype(np.float64, copy=False)

    def _solve_lower(self, X, n_components, rng, kernel, T=None):
        """ARPACK on the centred kernel stored in one triangle (fresh kernels only).

        The kernel's lower triangle is built in place (or ``T``, the uncentred one a
        Lanczos run that did not converge built), centred in place once, and each
        Lanczos product is one BLAS ``symv`` reading that triangle.
        """
        from scipy.sparse.linalg import LinearOperator, eigsh

        if T is None:
            T = kernel_lower(X, kernel, self.gamma_)
        if T is None:
            T = np.array(self._get_kernel(X), dtype=np.float64, order="C")
        col, allm = centre_lower(T)
        self._K_fit_rows = col
        self._K_fit_all = allm
        n = T.shape[0]
        TF = T.T  # Fortran view: the lower triangle of T is the upper one of TF

        def matvec(v):
            return dsymv(1.0, TF, np.ravel(v), lower=0)

        op = LinearOperator((n, n), matvec=matvec, rmatvec=matvec, dtype=np.float64)
        v0 = rng.uniform(-1, 1, size=n)
        with small_lapack(n, limit=_LANCZOS_THREADED_ORDER):  # see _solve_lanczos
            return eigsh(op, n_components, which="LA", tol=self.tol, maxiter=self.max_iter,
                         v0=v0)

    def _solve_dense_lower(self, X, n_components, triangle, kernel, T=None):
        """LAPACK on the centred kernel (fresh kernels only), centred in place in its
        lower triangle, which the eigensolver reads as the upper triangle of the Fortran
        view without a copy. With ``triangle`` only that triangle is built (one syrk for
        linear, numba's tiles for rbf), in scipy's BLAS: numpy's threads, after a
        product of their own, would still spin beside the eigensolver's. ``T``: that
        triangle, uncentred, already built (by a Lanczos run that did not converge)."""
        if T is None and triangle:
            T = kernel_lower(X, kernel, self.gamma_)
        elif T is None:
            T = np.array(self._get_kernel(X), dtype=np.float64, order="C")
        self._K_fit_rows, self._K_fit_all = centre_lower(T)
        return _dense_top_eigenpairs(T.T, n_components, lower=False)

    def _lanczos_replaces_dense(self, X, n_components, kernel):
        """Whether 'auto', standing for 'dense' here, runs Lanczos first: a built-in
        (symmetric) ``kernel`` and few enough of the eigenpairs wanted. Not for more
        linear-kernel components than features (the cosine kernel arrives as the
        linear kernel of the normalised rows): the kernel's rank is at most the
        number of features, and Lanczos stops short of the wanted count."""
        return (
            self.eigen_solver == "auto"
            and kernel != "precomputed"
            and not callable(kernel)
            and n_components * _LANCZOS_DENSE_FRACTION <= X.shape[0]
            and not (kernel == "linear" and n_components > X.shape[1])
        )

    def _solve_lanczos(self, X, n_components, kernel, v0, tol, gap_tol):
        """Lanczos (:func:`_lanczos_top`, from ``v0``, with ``tol`` and ``gap_tol``) on
        the kernel kept in one triangle (``lower_supported`` holds) and centred
        implicitly: ``(eigenpairs, None)``, or ``(None, T)`` if it does not converge,
        with ``T`` the uncentred triangle for ARPACK or LAPACK to take over.

        The uncentred triangle is built in place; every product is one BLAS
        ``symv`` reading that triangle plus the rank-one centring corrections
        K_c v = K v - m (1ᵀv) - 1 (mᵀv) + μ (1ᵀv), with m the column means and
        μ their mean. For rbf the column sums K 1 and the first product K v0 are
        summed while the kernel is built (two passes over it saved).
        """
        n = X.shape[0]
        # the column sums and the first Lanczos product come with the kernel build
        T, KV = kernel_lower(X, kernel, self.gamma_, V=np.vstack([np.ones(n), v0]))
        TF = T.T  # Fortran view: the lower triangle of T is the upper one of TF
        col = KV[0] / n
        allm = float(col.mean())
        shift = col - allm

        def centred(out, v):
            out -= col @ v
            out -= shift * v.sum()
            return out

        def matvec(v):
            return centred(dsymv(1.0, TF, v, lower=0), v)

        # the products are BLAS symv, memory-bound: on one thread up to order
        # _LANCZOS_THREADED_ORDER, where BLAS's threads gain nothing (their wake-ups
        # between the steps cost more) and would spin after the last, taking the cores
        # from what comes next (numpy's BLAS, numba's kernels)
        with small_lapack(n, limit=_LANCZOS_THREADED_ORDER):
            result = _lanczos_top(
                matvec, n, n_components, v0, tol, _lanczos_max_dim(n_components),
                w0=centred(KV[1], v0),
                gap_tol=gap_tol,
            )
        if result is None:
            return None, T
        self._K_fit_rows = col
        self._K_fit_all = allm
        return result, None

    def _fit_inverse(self, X_transformed, X):
        if self.kernel == "precomputed":
            raise ValueError("Cannot fit_inverse_transform with a precomputed kernel.")
        n = X_transformed.shape[0]
        K = self._get_kernel(X_transformed)
        K.flat[:: n + 1] += self.alpha
        self.dual_coef_ = linalg.solve(K, X, assume_a="pos", overwrite_a=True)
        self.X_transformed_fit_ = X_transformed

    def fit(self, X, y=None):
        """Fit the model from X.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features), or (n_samples, n_samples) kernel
        y : ignored

        Returns
        -------
        self
        """
        self._validate_params()
        if self.fit_inverse_transform and self.kernel == "precomputed":
            raise ValueError("Cannot fit_inverse_transform with a precomputed kernel.")
        dtype = input_float_dtype(X)
        X_in = X
        X = validate_data(self, X, dtype=np.float64, copy=True,
                          accept_sparse="csr" if self._takes_sparse() else False)
        _check_kernel_range(X, self, self.kernel, self.degree, fit=True)
        self.gamma_ = 1.0 / X.shape[1] if self.gamma is None else self.gamma
        n = X.shape[0]
        n_components = n if self.n_components is None else min(n, self.n_components)
        rng = check_random_state(self.random_state)
        solved = None
        Z = self._linear_rows(X)  # the rows whose dot products are the kernel, if any
        if Z is not None and self._kernel_from_features(Z, n_components, dtype):
            solved = self._solve_on_features(Z, n_components)
        on_features = solved is not None
        evals, evecs = solved or self._solve_on_kernel(
            X if Z is None else Z, n_components, rng, dtype)
        evals = _check_psd_eigenvalues(np.real(evals))
        evecs = np.real(evecs)
        # flip: largest-magnitude entry of every eigenvector positive
        idx = np.argmax(np.abs(evecs), axis=0)
        signs = np.sign(evecs[idx, np.arange(evecs.shape[1])])
        signs[signs == 0] = 1.0
        evecs = evecs * signs
        order = np.argsort(evals, kind="stable")[::-1]
        evals, evecs = evals[order], evecs[:, order]
        if self.remove_zero_eig or self.n_components is None:
            keep = evals > 0
            evals, evecs = evals[keep], evecs[:, keep]
        self.eigenvalues_ = evals
        self.eigenvectors_ = np.ascontiguousarray(evecs)
        # the linear kernel's projections from X's columns (W costs n p k once; after the
        # kernel route only for few components, where that is small beside the kernel)
        linear = Z is not None and dtype != np.float32 and (
            on_features or _AXES_COMPONENT_SHARE * evals.shape[0] <= n)
        self._feature_axes = self._axes_in_feature_space(Z) if linear else None
        self.X_fit_ = like_input(X, X_in)  # a sparse X_fit_ in the input's container kind
        self._n_features_out = evals.shape[0]
        if self.fit_inverse_transform:
            self._fit_inverse(self.eigenvectors_ * np.sqrt(self.eigenvalues_), X)
        # float32 input: the fitted arrays in float32, as scikit-learn keeps them
        # (transform computes with float64 copies)
        cast_float_attributes(self, dtype, ("eigenvalues_", "eigenvectors_", "dual_coef_",
                                            "X_transformed_fit_", "X_fit_"))
        return self

    def _solve_on_kernel(self, X, n_components, rng, dtype):
        """The top eigenpairs of the centred kernel of X, by the solver the parameters
        and the sizes pick (one triangle, Lanczos, ARPACK or LAPACK). For the cosine
        kernel X holds the rows scaled to unit norm (:meth:`_linear_rows`), whose
        linear kernel is built."""
        n = X.shape[0]
        solver = self.eigen_solver
        if solver == "auto":
            solver = "arpack" if n > 200 and n_components < 10 else "dense"
        result = None
        kernel = "linear" if self.kernel == "cosine" else self.kernel
        # the one-triangle kernels below need dense X; sparse X takes the full kernel
        fresh = kernel != "precomputed" and not callable(kernel) and not sp.issparse(X)
        triangle = fresh and lower_supported(X, kernel)
        if (fresh and self.eigen_solver == "auto" and dtype != np.float32
                and n < _LANCZOS_MIN_ORDER):
            # a small kernel: LAPACK on all of it costs less than Lanczos's steps
            return self._solve_dense_lower(X, n_components, triangle, kernel)
        lanczos_dense = solver == "dense" and self._lanczos_replaces_dense(
            X, n_components, kernel)
        built = None  # the uncentred triangle of a Lanczos run that did not converge
        if triangle and self.eigen_solver == "auto" and solver == "arpack":
            tolerances = (self.tol, 0.0) if self.tol > 0 else _EXACT_TOLERANCES
            result, built = self._solve_lanczos(X, n_components, kernel,
                                                rng.uniform(-1, 1, size=n), *tolerances)
        elif triangle and lanczos_dense:
            result, built = self._solve_lanczos(X, n_components, kernel,
                                                _dense_start_vector(n), *_EXACT_TOLERANCES)
        if result is not None:
            return result
        if fresh and solver == "dense" and dtype != np.float32 and (triangle or not lanczos_dense):
            return self._solve_dense_lower(X, n_components, triangle, kernel, built)
        if solver == "arpack" and n_components < n and fresh:
            return self._solve_lower(X, n_components, rng, kernel, built)
        # (cosine: X holds the unit rows already, whose linear kernel it is)
        K = np.ascontiguousarray(self._get_kernel(X, kernel=kernel), dtype=np.float64)
        # Lanczos on the full kernel where it did not run on one triangle above
        return self._solve(K, n_components, rng, lanczos=lanczos_dense and not triangle,
                           single=dtype == np.float32)

    def _linear_rows(self, X):
        """The rows whose dot products are the kernel: X for the linear kernel, X's rows
        scaled to unit norm for the cosine kernel (zero rows kept), as X (dense or
        sparse); None for the other kernels."""
        if self.kernel == "linear":
            return X
        return normalize(X) if self.kernel == "cosine" else None

    def _kernel_from_features(self, X, n_components, dtype):
        """Whether the linear kernel's eigenpairs come from the SVD of the centred X
        (:meth:`_solve_on_features`): the default solver on dense float64 X, asked for
        no more components than columns (n_components=None keeps the non-zero ones, at
        most one per column), with at most half as many columns as rows, or at most
        0.6 as many for 20 components or more (None included), or any number up to
        the rows for 100 or more."""
        n, p = X.shape
        if (self.eigen_solver != "auto" or dtype == np.float32
                or (self.n_components is not None and n_components > p)):
            return False
        # up to 0.6 n columns the p x p problem costs less than the n x n kernel's for
        # all or many components; for a few, Lanczos on the kernel is cheaper there
        many = self.n_components is None or n_components >= _FEATURES_MANY_COMPONENTS
        return (2 * p <= n or (5 * p <= 3 * n and many)
                or (p <= n and self.n_components is not None
                    and n_components >= 5 * _FEATURES_MANY_COMPONENTS))

    def _solve_on_features(self, X, n_components):
        """The top eigenpairs of the centred linear kernel ``Xc Xc'`` from X's columns:
        they are ``(s^2, u)`` for the singular triplets of ``Xc = U S V'``, the
        kernel's spectrum without forming the n x n kernel (O(n p^2) instead of
        O(n^3)). Fewer components than columns: the top eigenpairs ``(s^2, v)`` of
        the p x p ``Xc' Xc`` and ``u = Xc v / s`` (:func:`_top_pairs_from_columns`);
        all of them, or where that is not accurate: the thin SVD (U orthonormal, for
        zero singular values too). Sparse X: :func:`_sparse_top_pairs`, or None
        where it is not accurate (the kernel is then solved). Stores the kernel's
        centring statistics that :meth:`transform` reads: ``X mean`` (its column
        means) and ``mean . mean`` (its overall mean)."""
        mean = np.asarray(X.mean(axis=0)).ravel()
        self._K_fit_rows = np.asarray(X @ mean).ravel()
        self._K_fit_all = float(mean @ mean)
        k = min(n_components, X.shape[1])
        if sp.issparse(X):
            return _sparse_top_pairs(X, mean, k, all_nonzero=self.n_components is None)
        Xc = X - mean
        pairs = _top_pairs_from_columns(Xc, k) if k < X.shape[1] else None
        if pairs is not None:
            return pairs
        with small_lapack(X.shape[1]):
            U, S, _ = linalg.svd(Xc, full_matrices=False, check_finite=False)
        return S[:k] ** 2, U[:, :k]

    def _axes_in_feature_space(self, X):
        """For the linear kernel: the (mean, p x k matrix W) with which ``transform``
        is ``(X - mean) W``, the same values as the centred kernel of the new rows
        times the scaled eigenvectors (``Kc = (X - mean)(X_fit - mean)'``, so
        ``W = (X_fit - mean)' eigenvectors_ / sqrt(eigenvalues_)``), in O(p k) per
        row instead of O(n p). For sparse X, ``W = X' E - mean (1' E)`` keeps X
        sparse."""
        scaled = self._scaled_eigenvectors()
        if sp.issparse(X):
            mean = np.asarray(X.mean(axis=0)).ravel()
            return mean, np.asarray(X.T @ scaled) - np.outer(mean, scaled.sum(axis=0))
        mean = X.mean(axis=0)
        # scipy's BLAS, the eigensolver's library (see _solve_dense_lower); the Fortran
        # view of the C-ordered centred X is read without a copy
        return mean, dgemm(1.0, (X - mean).T, scaled)

    def _scaled_eigenvectors(self):
        """``eigenvectors_ / sqrt(eigenvalues_)`` in float64, zero for the components
        of no variance."""
        evals = np.asarray(self.eigenvalues_, dtype=np.float64)
        evecs = np.asarray(self.eigenvectors_, dtype=np.float64)
        nz = evals > 0
        scaled = np.zeros_like(evecs)
        scaled[:, nz] = evecs[:, nz] / np.sqrt(evals[nz])
        return scaled

    def fit_transform(self, X, y=None, **params):
        """Fit and return the projections of the training samples.

        Returns
        -------
        ndarray of shape (n_samples, n_components)
        """
        self.fit(X, **params)
        return _as_input_dtype(self.eigenvectors_ * np.sqrt(self.eigenvalues_), _is_float32(X))

    def transform(self, X):
        """Project X on the kernel principal components.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features), or (n_samples, n_fit) kernel

        Returns
        -------
        ndarray of shape (n_samples, n_components)
        """
        check_is_fitted(self)
        f32 = _is_float32(X)
        X = validate_data(self, X, reset=False, dtype=np.float64,
                          accept_sparse="csr" if self._takes_sparse() else False)
        _check_kernel_range(X, self, self.kernel, self.degree, fit=False)
        if getattr(self, "_feature_axes", None) is not None:
            mean, W = self._feature_axes
            X = self._linear_rows(X)
            if sp.issparse(X):  # X W - mean W: X stays sparse
                return _as_input_dtype(np.asarray(X @ W) - mean @ W, f32)
            return _as_input_dtype(centred_product(X, mean, W), f32)
        X_fit = self.X_fit_
        X_fit = X_fit.astype(np.float64) if sp.issparse(X_fit) else np.asarray(X_fit, np.float64)
        # few features: the kernel values run on numba's threads, and the projection's
        # BLAS threads would compete with them (spinning) for the cores
        with small_lapack(X.shape[1], KERNEL_BLAS_FEATURES):
            K = self._get_kernel(X, X_fit)
        Kc = K - self._K_fit_rows[None, :]
        Kc -= K.mean(axis=1)[:, None]
        Kc += self._K_fit_all
        scaled = self._scaled_eigenvectors()
        if f32:  # float32 input: one single-precision product, as scikit-learn
            return Kc.astype(np.float32) @ scaled.astype(np.float32)
        return scipy_product(Kc, scaled)  # the BLAS of the fit's eigensolver

    def inverse_transform(self, X):
        """Approximate pre-images of projections (needs ``fit_inverse_transform=True``).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_components)

        Returns
        -------
        ndarray of shape (n_samples, n_features)
        """
        if not self.fit_inverse_transform:
            raise NotFittedError(
                "The fit_inverse_transform parameter was not set to True when instantiating "
                "and hence the inverse transform is not available."
            )
        check_is_fitted(self)
        K = self._get_kernel(np.asarray(X, dtype=np.float64),
                             np.asarray(self.X_transformed_fit_, dtype=np.float64))
        return _as_input_dtype(K @ self.dual_coef_, _is_float32(X))

    def get_feature_names_out(self, input_features=None):
        """Output names ``kernelpca0``, ``kernelpca1``, ...

        Returns
        -------
        ndarray of str
        """
        check_is_fitted(self)
        return np.asarray([f"kernelpca{i}" for i in range(self._n_features_out)], dtype=object)
