"""Ridge regression: least squares with an L2 penalty (seed 000 §7).

Closed form ``w = (Xc'WXc + alpha I)^{-1} Xc'WYc``. The Cholesky solver
builds the Gram matrix of the centred data block by block (X is never
copied) when n >= p and the kernel matrix ``Xc Xc'`` (the dual) when p > n;
the SVD solver shrinks the singular values, ``s / (s^2 + alpha)``. The
iterative solvers (lsqr, sparse_cg, sag, saga, lbfgs) are in
:mod:`._ridge_solvers`.
"""

import warnings
from contextlib import nullcontext
from numbers import Integral, Real

import numpy as np
import scipy.sparse as sp
from scipy import linalg

from ..base import BaseEstimator, RegressorMixin
from ..exceptions import ConvergenceWarning
from ..utils._linalg import solve_gram, solve_pos, svd_with_projection
from ..utils._linear import linear_product
from ..utils._params import Interval, StrOptions
from ..utils._sparse import csr_gram
from ..utils._targets import as_2d_target
from ..utils._threads import blas_single_thread, small_lapack
from ..utils.validation import (
    check_array,
    check_magnitude,
    check_sample_weight,
    input_float_dtype,
    validate_data,
)
from . import _dask_fit
from ._base import (
    LinearPredictMixin,
    centered_copy,
    centered_gram,
    moments_and_gram,
    set_coef,
    weighted_means,
)
from ._ols import positive_ridge
from ._ridge_solvers import (
    centered_diagonal,
    centered_operator,
    solve_lbfgs,
    solve_lbfgs_dense,
    solve_lsqr,
    solve_sag,
    solve_sparse_cg,
)

_ITERATIVE = {"lsqr", "sparse_cg", "sag", "saga", "lbfgs"}
# positive=True with solver="auto": the exact non-negative solution (block pivoting on
# the Gram matrix) up to this many features; above, the Gram matrix and its
# factorisations cost more than L-BFGS-B's passes over X (scikit-learn's "auto")
POSITIVE_EXACT_FEATURES = 128


def ridge_solve(X, Y, alphas, x_mean, y_mean, sw, solver):
    """Ridge coefficients W (p, t) for one alpha per target column.

    Parameters
    ----------
    X : ndarray (n, p) float64, not modified; Y : ndarray (n, t).
    alphas : ndarray (t,); x_mean, y_mean : centring vectors (zeros for none).
    sw : ndarray (n,) or None; solver : {"cholesky", "svd"}.
    """
    n, p = X.shape
    t = Y.shape[1]
    same = bool(np.all(alphas == alphas[0]))
    if solver == "svd":
        A = centered_copy(X, x_mean, sw)
        B = Y - y_mean
        if sw is not None:
            B = B * np.sqrt(sw)[:, None]
        s, Vt, UtB = svd_with_projection(A, B)
        shrunk = UtB * (s[:, None] / (s[:, None] ** 2 + alphas[None, :]))
        return linear_product(Vt.T, shrunk.T)
    if n >= p:
        G, XtY, _ = centered_gram(X, x_mean, sw, Y, y_mean)
        return solve_gram(G, XtY, alphas)
    # Dual: w = Xc' (Xc Xc' + alpha I)^{-1} y, for p > n.
    A = centered_copy(X, x_mean, sw)
    B = Y - y_mean
    if sw is not None:
        B = B * np.sqrt(sw)[:, None]
    K = A @ A.T
    D = np.empty((n, t))
    # the n x n factorisations of modest order on one BLAS thread (threads would spin)
    with small_lapack(n):
        _solve_dual(K, B, alphas, same, D)
    return A.T @ D


def _solve_dual(K, B, alphas, same, D):
    """``D[:, k] = (K + alpha_k I)^{-1} B[:, k]`` (all targets at once when the alphas
    are the same); K is left as it was."""
    n, t = B.shape
    diag = np.arange(n)
    for k in range(t):
        if same and k > 0:
            break
        Kk = K.copy()
        Kk[diag, diag] += alphas[k]
        cols = slice(None) if same else slice(k, k + 1)
        try:
            D[:, cols] = solve_pos(Kk, B[:, cols], overwrite_a=True)
        except linalg.LinAlgError:  # Kk was overwritten: formed again for the fallback
            Kk = K.copy()
            Kk[diag, diag] += alphas[k]
            D[:, cols] = linalg.lstsq(Kk, B[:, cols], check_finite=False)[0]


def sparse_ridge_gram_solve(X, Y, alphas, sw):
    """Ridge without intercept on sparse X by the normal equations: the p x p Gram
    when p <= n, else the n x n kernel (dual), each dense, from sparse products."""
    n, p = X.shape
    w = np.ones(n) if sw is None else sw
    if n >= p:
        return solve_gram(csr_gram(X, w), X.T @ (w[:, None] * Y), alphas)
    root = np.sqrt(w)
    A = sp.csr_array(X.multiply(root[:, None]))
    K = (A @ A.T).toarray()
    B = Y * root[:, None]
    D = np.empty_like(B)
    for k in range(B.shape[1]):
        Kk = K.copy()
        Kk[np.diag_indices(n)] += alphas[k]
        D[:, k] = solve_pos(Kk, B[:, k], overwrite_a=True)
    return A.T @ D


def _target_alphas(alpha, n_targets):
    """One penalty per target from a scalar or an array of penalties."""
    alphas = np.asarray(alpha, dtype=np.float64).ravel()
    if alphas.size == 1:
        alphas = np.full(n_targets, alphas[0])
    if alphas.size != n_targets:
        raise ValueError(
            "Number of targets and number of penalties do not correspond: "
            f"{alphas.size} != {n_targets}"
        )
    if np.any(alphas < 0) or not np.all(np.isfinite(alphas)):
        raise ValueError("alpha must be finite and non-negative.")
    return alphas


def _solve_ridge_dask(est, G, XtY, stats):
    t = XtY.shape[1]
    alphas = _target_alphas(est.alpha, t)
    W = solve_gram(G, XtY, alphas)
    was_1d = stats["was_1d"]
    set_coef(est, W, stats["x_mean"], stats["y_mean"], est.fit_intercept, was_1d)
    est.n_iter_ = 1 if was_1d else np.ones(t, dtype=np.intp)
    est.solver_ = "cholesky"


class Ridge(LinearPredictMixin, RegressorMixin, BaseEstimator):
    """Linear least squares with L2 regularisation.

    Minimises ``||W^(1/2) (y - b0 - X w)||^2 + alpha ||w||^2``.

    Parameters
    ----------
    alpha : float or array-like of shape (n_targets,), default=1.0
        Penalty strength (one per target allowed).
    fit_intercept : bool, default=True
    copy_X : bool, default=True
        Kept for compatibility; X is never modified.
    max_iter : int, default=None
        Iteration limit of the iterative solvers (None: their default, 1000
        epochs for sag / saga); unused by the direct ones.
    tol : float, default=1e-4
        Stopping tolerance of the iterative solvers: lsqr's ``atol`` and
        ``btol``, sparse_cg's relative residual, sag / saga's largest weight
        change over the largest weight after an epoch, lbfgs's ``tol``.
    solver : {"auto", "cholesky", "svd", "lsqr", "sparse_cg", "sag", "saga", \
"lbfgs"}, default="auto"
        - "auto": "cholesky"; with ``positive=True``, non-negative least squares on
          the augmented system (exact) up to 128 features, "lbfgs" above (as
          scikit-learn's "auto");
        - "cholesky": normal equations, or the dual when p > n;
        - "svd": shrunk singular values;
        - "lsqr": scipy's LSQR with ``damp = sqrt(alpha)``;
        - "sparse_cg": conjugate gradients on the normal equations (the dual
          ones when p > n), the Gram matrix never formed;
        - "sag" / "saga": stochastic average gradient on the centred data
          (seeded by ``random_state``);
        - "lbfgs": L-BFGS-B, only with ``positive=True`` (as scikit-learn; on dense
          X each step's loss and gradient come from one pass over X, centred
          implicitly).

        Sparse X takes scikit-learn's choices, recorded in ``solver_``: "auto" runs
        "sparse_cg" ("lbfgs" with ``positive=True``); with ``fit_intercept``,
        "cholesky" and "saga" are refused, and "sag" runs "sparse_cg" unless
        ``max_iter`` is None and ``tol > 1e-4`` (then SAG on the uncentred rows,
        fitting the intercept, with scikit-learn's warning that it needs many
        passes).
    positive : bool, default=False
        Non-negative coefficients; only with solver "auto" or "lbfgs".
    random_state : int, RandomState instance or None, default=None
        Seeds the sample draws of "sag" and "saga".

    Attributes
    ----------
    coef_ : ndarray of shape (n_features,) or (n_targets, n_features)
    intercept_ : float or ndarray of shape (n_targets,)
    n_iter_ : int or ndarray of shape (n_targets,)
        Iterations of the iterative solvers (epochs for sag / saga); 1 for
        the direct ones.
    solver_ : str
    n_features_in_ : int
    feature_names_in_ : ndarray of str

    See Also
    --------
    LinearRegression, Lasso, ElasticNet

    Notes
    -----
    Seed 000 §7 (ridge: the L2 penalty shrinks the coefficients).

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0.0], [1.0], [2.0], [3.0]])
    >>> round(float(Ridge(alpha=1.0).fit(X, X[:, 0]).coef_[0]), 4)
    0.8333
    """

    _sparse_input = True  # fit and predict take CSR / CSC input

    _parameter_constraints = {
        "alpha": [Interval(Real, 0, None, closed="left"), np.ndarray, list, tuple],
        "fit_intercept": ["boolean"],
        "copy_X": ["boolean"],
        "max_iter": [Interval(Integral, 1, None, closed="left"), None],
        "tol": [Interval(Real, 0, None, closed="left")],
        "solver": [StrOptions({"auto", "cholesky", "svd"} | _ITERATIVE)],
        "positive": ["boolean"],
        "random_state": ["random_state"],
    }

    def __init__(self, alpha=1.0, *, fit_intercept=True, copy_X=True, max_iter=None, tol=1e-4,
                 solver="auto", positive=False, random_state=None):
        self.alpha = alpha
        self.fit_intercept = fit_intercept
        self.copy_X = copy_X
        self.max_iter = max_iter
        self.tol = tol
        self.solver = solver
        self.positive = positive
        self.random_state = random_state

    def __classiclearn_tags__(self):
        tags = super().__classiclearn_tags__()
        tags.sparse = self._sparse_input
        tags.multi_output = True
        return tags

    def fit(self, X, y, sample_weight=None):
        """Fit ridge regression.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,) or (n_samples, n_targets)
        sample_weight : float or array-like of shape (n_samples,), default=None

        Returns
        -------
        self
        """
        self._validate_params()
        dtype = input_float_dtype(X)
        # a dense float32 X is kept for the normal equations' blocked pass (read in float64
        # block by block); every other route copies it to float64 below
        keep32 = dtype == np.float32 and not sp.issparse(X)
        X, y = validate_data(self, X, y, dtype=[np.float64, np.float32] if keep32 else np.float64,
                             multi_output=True, y_numeric=True, ensure_all_finite=False,
                             order=None, accept_sparse=("csr", "csc"))
        check_magnitude(X, self, "penalised normal equations", power=2, check_small=False)
        y = np.asarray(y, dtype=np.float64)
        sw = None if sample_weight is None else check_sample_weight(sample_weight, X,
                                                                    dtype=np.float64)
        solver = self._resolve_solver()
        sparse = sp.issparse(X)
        if sparse:
            solver = self._sparse_solver(solver)
        elif self.positive and self.solver == "auto" and X.shape[1] > POSITIVE_EXACT_FEATURES:
            solver = "lbfgs"
        # Unweighted normal equations: X is checked for finiteness on the
        # way (moments_and_gram); every other route checks it here.
        fast = (sw is None and solver == "cholesky" and not self.positive
                and X.shape[0] >= X.shape[1] and not sparse)
        if X.dtype != np.float64 and not fast:
            X = X.astype(np.float64)
        if not fast:
            check_array(X, dtype=np.float64, estimator=self, accept_sparse=("csr", "csc"))
        Y, was_1d = as_2d_target(y)
        n, p = X.shape
        t = Y.shape[1]
        alphas = _target_alphas(self.alpha, t)
        if fast:
            # One threaded pass: means, X'Y, the finiteness of X and X'X.
            x_mean, y_mean, XtY, _, G = moments_and_gram(self, X, Y, self.fit_intercept)
        elif self.fit_intercept:
            x_mean, y_mean = weighted_means(X, Y, sw)
        else:
            x_mean, y_mean = np.zeros(p), np.zeros(t)
        n_iter = np.ones(t, dtype=np.intp)
        if fast:
            W = solve_gram(G, XtY, alphas)
        elif solver in _ITERATIVE:
            W, n_iter = self._solve_iterative(solver, X, Y, alphas, x_mean, y_mean, sw)
        elif self.positive:
            W = positive_ridge(X, Y, x_mean, y_mean, sw, alphas)
            solver = "nnls"
        elif sparse:
            W = sparse_ridge_gram_solve(X, Y, alphas, sw)
        else:
            W = ridge_solve(X, Y, alphas, x_mean, y_mean, sw, solver)
        set_coef(self, W, x_mean, y_mean, self.fit_intercept, was_1d, dtype)
        self.n_iter_ = int(n_iter[0]) if was_1d else n_iter
        self.solver_ = solver
        return self

    def _fit_dask(self, X, y, sample_weight=None):
        """Exact fit on Dask input: merged centred moments, then the normal equations
        ``(Xc'WXc + alpha I) w = Xc'Wyc`` (the optimum every solver reaches)."""
        self._validate_params()
        if self.positive:
            _dask_fit.refuse(self, "positive=True")
        if self.solver not in ("auto", "cholesky"):
            _dask_fit.refuse(self, f"solver={self.solver!r} (use 'auto' or 'cholesky')")
        return _dask_fit.fit_least_squares_dask(self, X, y, sample_weight, _solve_ridge_dask)

    def _resolve_solver(self):
        solver = self.solver
        if self.positive and solver not in ("auto", "lbfgs"):
            raise ValueError(
                f"When positive=True, only 'lbfgs' (or 'auto') solver can be used; got "
                f"solver={solver!r}."
            )
        if solver == "lbfgs" and not self.positive:
            raise ValueError("'lbfgs' solver can be used only when positive=True.")
        return "cholesky" if solver == "auto" else solver

    def _sparse_solver(self, solver):
        """The solver for sparse X, as scikit-learn picks and refuses it ("auto":
        conjugate gradients on the implicitly centred operator, or L-BFGS-B with
        ``positive=True``)."""
        if self.positive:
            return "lbfgs"
        if self.solver == "auto":
            return "sparse_cg"
        if solver == "svd":
            raise TypeError("SVD solver does not support sparse inputs currently")
        if self.fit_intercept and solver in ("cholesky", "saga"):
            raise ValueError(
                f"solver='{solver}' does not support fitting the intercept on sparse data. "
                "Please set the solver to 'auto' or 'lsqr', 'sparse_cg', 'sag', 'lbfgs' or "
                "set `fit_intercept=False`"
            )
        if self.fit_intercept and solver == "sag":
            if self.max_iter is not None or self.tol <= 1e-4:
                return "sparse_cg"  # as scikit-learn (recorded in solver_)
            warnings.warn(
                '"sag" solver requires many iterations to fit an intercept with sparse '
                'inputs. Either set the solver to "auto" or "sparse_cg", or set a low "tol" '
                'and a high "max_iter" (especially if inputs are not standardized).',
                UserWarning, stacklevel=3,
            )
        return solver

    def _solve_iterative(self, solver, X, Y, alphas, x_mean, y_mean, sw):
        """W (p, t) and the iteration counts of an iterative solver."""
        sparse = sp.issparse(X)
        if solver in ("sag", "saga"):
            max_iter = 1000 if self.max_iter is None else self.max_iter
            # sparse X stays sparse (lazy updates) and SAG fits the intercept with the
            # weights, as scikit-learn's; the intercept is then set from the means
            Xs, Ys = (X, Y) if sparse else (centered_copy(X, x_mean, None), Y - y_mean)
            W, n_iter, ok = solve_sag(Xs, Ys, sw, alphas, self.tol, max_iter,
                                      self.random_state, solver == "saga",
                                      fit_intercept=sparse and self.fit_intercept)
        elif solver == "lbfgs" and not sparse:
            W, n_iter, ok = solve_lbfgs_dense(X, Y, x_mean, y_mean, sw, alphas, self.tol,
                                              self.max_iter)
        else:
            B = Y - y_mean
            if sw is not None:
                B = B * np.sqrt(sw)[:, None]
            if solver == "lbfgs":
                A = centered_operator(X, x_mean, sw)
                W, n_iter, ok = solve_lbfgs(A, B, alphas, self.tol, self.max_iter, True)
            elif solver == "lsqr":
                W, n_iter, ok = solve_lsqr(X, x_mean, sw, B, alphas, self.tol, self.max_iter)
            else:
                A = centered_operator(X, x_mean, sw)
                # sparse X: the products run on numba's threads, and scipy's vector
                # steps between them on BLAS, whose threads would spin and compete
                with blas_single_thread() if sparse else nullcontext():
                    diagonal = centered_diagonal(X, x_mean, sw, dual=X.shape[1] > X.shape[0])
                    W, n_iter, ok = solve_sparse_cg(A, B, alphas, self.tol, self.max_iter,
                                                    diagonal)
        if not ok.all():
            warnings.warn(
                f"Ridge solver {solver!r} did not converge within max_iter={self.max_iter} "
                f"(tol={self.tol}) for {int((~ok).sum())} target(s); increase max_iter.",
                ConvergenceWarning,
                stacklevel=3,
            )
        return W, n_iter
