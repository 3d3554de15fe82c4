"""Ridge regression: least squares with an L2 penalty (seed 000 §7).

Closed form ``w = (Xc'WXc + alpha I)^{-1} Xc'WYc``. The Cholesky solver
builds the Gram matrix of the centred data block by block (X is never
copied) when n >= p and the kernel matrix ``Xc Xc'`` (the dual) when p > n;
the SVD solver shrinks the singular values, ``s / (s^2 + alpha)``.
"""

from contextlib import nullcontext
from numbers import Real

import numpy as np
from scipy import linalg, optimize

from ..base import BaseEstimator, RegressorMixin
from ..utils._params import Interval, StrOptions
from ..utils._threads import blas_single_thread
from ..utils.validation import (
    check_array,
    check_sample_weight,
    input_float_dtype,
    validate_data,
)
from ._base import (
    _GRAM_MAX_FEATURES,
    LinearPredictMixin,
    as_2d_target,
    centered_copy,
    centered_gram,
    moments_and_gram,
    set_coef,
    weighted_means,
)


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
        U, s, Vt = linalg.svd(A, full_matrices=False, check_finite=False)
        UtB = U.T @ B
        W = np.empty((p, t))
        for k in range(t):
            W[:, k] = Vt.T @ (UtB[:, k] * s / (s**2 + alphas[k]))
        return W
    if n >= p:
        G, XtY, _ = centered_gram(X, x_mean, sw, Y, y_mean)
        return solve_gram(G, XtY, alphas)
    # Dual: w = Xc' (Xc Xc' + alpha I)^{-1} y, for p > n.
    A = centered_copy(X, x_mean, sw)
    B = Y - y_mean
    if sw is not None:
        B = B * np.sqrt(sw)[:, None]
    K = A @ A.T
    diag = np.arange(n)
    D = np.empty((n, t))
    for k in range(t):
        if same and k > 0:
            break
        Kk = K.copy()
        Kk[diag, diag] += alphas[k]
        cols = slice(None) if same else slice(k, k + 1)
        try:
            D[:, cols] = linalg.solve(Kk, B[:, cols], assume_a="pos", check_finite=False)
        except linalg.LinAlgError:
            D[:, cols] = linalg.lstsq(Kk, B[:, cols], check_finite=False)[0]
    return A.T @ D


def solve_gram(G, XtY, alphas):
    """``(G + alpha_k I)^{-1} XtY[:, k]`` for each target k (G is overwritten).

    Small systems are solved with BLAS on one thread: a multi-threaded
    factorisation of a few hundred unknowns spends its time synchronising
    (on a loaded machine, hundreds of milliseconds spinning).
    """
    p = XtY.shape[0]
    with blas_single_thread() if p <= _GRAM_MAX_FEATURES else nullcontext():
        return _solve_gram(G, XtY, alphas)


def _solve_gram(G, XtY, alphas):
    p, t = XtY.shape
    diag = np.arange(p)
    if bool(np.all(alphas == alphas[0])):
        G[diag, diag] += alphas[0]
        try:
            return linalg.solve(G, XtY, assume_a="pos", check_finite=False)
        except linalg.LinAlgError:
            return linalg.lstsq(G, XtY, check_finite=False)[0]
    W = np.empty((p, t))
    for k in range(t):
        Gk = G.copy()
        Gk[diag, diag] += alphas[k]
        W[:, k] = linalg.solve(Gk, XtY[:, k], assume_a="pos", check_finite=False)
    return W


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
        Kept for compatibility (the solvers are direct).
    tol : float, default=1e-4
        Kept for compatibility.
    solver : {"auto", "cholesky", "svd"}, default="auto"
        "auto" is "cholesky" (normal equations, or the dual when p > n).
    positive : bool, default=False
        Non-negative coefficients (solved as non-negative least squares on
        the augmented system).
    random_state : int, RandomState instance or None, default=None
        Unused; kept for compatibility.

    Attributes
    ----------
    coef_ : ndarray of shape (n_features,) or (n_targets, n_features)
    intercept_ : float or ndarray of shape (n_targets,)
    n_iter_ : int or ndarray of shape (n_targets,)
        1: the solvers are direct (one step).
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

    _parameter_constraints = {
        "alpha": [Interval(Real, 0, None, closed="left"), np.ndarray, list, tuple],
        "fit_intercept": ["boolean"],
        "copy_X": ["boolean"],
        "max_iter": [Interval(Real, 1, None, closed="left"), None],
        "tol": [Interval(Real, 0, None, closed="left")],
        "solver": [StrOptions({"auto", "cholesky", "svd"})],
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
        X, y = validate_data(self, X, y, dtype=np.float64, multi_output=True, y_numeric=True,
                             ensure_all_finite=False, order=None)
        y = np.asarray(y, dtype=np.float64)
        sw = None if sample_weight is None else check_sample_weight(sample_weight, X,
                                                                    dtype=np.float64)
        solver = "cholesky" if self.solver == "auto" else self.solver
        # Unweighted normal equations: X is checked for finiteness on the
        # way (moments_and_gram); every other route checks it here.
        fast = (sw is None and solver == "cholesky" and not self.positive
                and X.shape[0] >= X.shape[1])
        if not fast:
            check_array(X, dtype=np.float64, estimator=self)
        Y, was_1d = as_2d_target(y)
        n, p = X.shape
        t = Y.shape[1]
        alphas = np.asarray(self.alpha, dtype=np.float64).ravel()
        if alphas.size == 1:
            alphas = np.full(t, alphas[0])
        if alphas.size != t:
            raise ValueError(
                f"Number of targets and number of penalties do not correspond: {alphas.size} != {t}"
            )
        if np.any(alphas < 0) or not np.all(np.isfinite(alphas)):
            raise ValueError("alpha must be finite and non-negative.")
        if fast:
            # One threaded pass: means, X'Y, the finiteness of X and X'X.
            x_mean, y_mean, XtY, _, G = moments_and_gram(self, X, Y, self.fit_intercept)
        elif self.fit_intercept:
            x_mean, y_mean = weighted_means(X, Y, sw)
        else:
            x_mean, y_mean = np.zeros(p), np.zeros(t)
        if fast:
            W = solve_gram(G, XtY, alphas)
        elif self.positive:
            A = centered_copy(X, x_mean, sw)
            B = Y - y_mean
            if sw is not None:
                B = B * np.sqrt(sw)[:, None]
            W = np.empty((p, t))
            for k in range(t):
                Aa = np.vstack([A, np.sqrt(alphas[k]) * np.eye(p)])
                W[:, k] = optimize.nnls(Aa, np.concatenate([B[:, k], np.zeros(p)]))[0]
            solver = "nnls"
        else:
            W = ridge_solve(X, Y, alphas, x_mean, y_mean, sw, solver)
        set_coef(self, W, x_mean, y_mean, self.fit_intercept, was_1d, dtype)
        self.n_iter_ = 1 if was_1d else np.ones(t, dtype=np.intp)
        self.solver_ = solver
        return self
