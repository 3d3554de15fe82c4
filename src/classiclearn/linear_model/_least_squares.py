"""Least-squares classification (seed 002, seed 004).

Regress the one-of-K indicator targets on X by (optionally ridge-penalised)
least squares and predict the class with the largest fitted value.
"""

from numbers import Real

import numpy as np
import scipy.sparse as sp
from scipy.linalg import blas

from ..base import BaseEstimator, ClassifierMixin
from ..utils._linalg import solve_gram
from ..utils._moments import MAX_MEAN_TO_VAR
from ..utils._params import Interval, StrOptions
from ..utils._sparse import csr_gram, gram_pair_work
from ..utils._targets import compute_class_weight, encode_labels
from ..utils._threads import small_lapack
from ..utils.validation import (
    cast_float_attributes,
    check_magnitude,
    check_sample_weight,
    input_float_dtype,
    validate_data,
)
from ._base import LinearClassifierMixin, weighted_means
from ._ols import _solve_ols, scaled_cholesky_if_certified
from ._ridge import ridge_solve
from ._ridge_solvers import solve_lsqr

# LSQR's atol = btol on sparse X: tight, as the dense fit solves the normal equations exactly
_SPARSE_TOL = 1e-10
# Sparse X is fitted by the normal equations, as dense X is, when its Gram matrix is
# small and cheap: at most _SPARSE_GRAM_FEATURES columns, and the Gram's multiply-adds
# (pairs of entries within a row, plus the Cholesky factor's p^3 / 3, which BLAS runs
# about _FACTOR_SPEEDUP times faster per flop) at most _SPARSE_GRAM_PASSES passes over
# the stored entries per class (LSQR at the tolerance above takes some hundred
# iterations of two passes per class)
_SPARSE_GRAM_FEATURES = 2048
_SPARSE_GRAM_PASSES = 100
_FACTOR_SPEEDUP = 10


class LeastSquaresClassifier(LinearClassifierMixin, ClassifierMixin, BaseEstimator):
    """Classifier that fits one-of-K targets by least squares (argmax decision).

    Parameters
    ----------
    alpha : float, default=0.0
        Ridge penalty on the coefficients (0 is plain least squares).
    fit_intercept : bool, default=True
    class_weight : dict or "balanced", default=None
        Multiplies the sample weights of each class.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    coef_ : ndarray of shape (1, n_features) for two classes (the difference of
        the two indicator regressions), else (n_classes, n_features)
    intercept_ : ndarray of shape (1,) or (n_classes,)
    n_features_in_ : int
    feature_names_in_ : ndarray of str

    See Also
    --------
    LogisticRegression, Perceptron

    Notes
    -----
    Seed 002 (least squares for classification) and seed 004 (indicator
    response matrix): ``B = (X'X + alpha I)^{-1} X'Y``, ``G(x) = argmax_k f_k(x)``.
    With more than two classes a class can be masked by the others.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0.0], [1.0], [2.0], [3.0]])
    >>> LeastSquaresClassifier().fit(X, ["a", "a", "b", "b"]).predict([[0.1], [2.9]]).tolist()
    ['a', 'b']
    """

    _parameter_constraints = {
        "alpha": [Interval(Real, 0, None, closed="left")],
        "fit_intercept": ["boolean"],
        "class_weight": [dict, StrOptions({"balanced"}), None],
    }

    _sparse_input = True

    def __init__(self, alpha=0.0, *, fit_intercept=True, class_weight=None):
        self.alpha = alpha
        self.fit_intercept = fit_intercept
        self.class_weight = class_weight

    def fit(self, X, y, sample_weight=None):
        """Fit the indicator regressions.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
        sample_weight : array-like of shape (n_samples,), default=None

        Returns
        -------
        self
        """
        self._validate_params()
        dtype = input_float_dtype(X)
        X, y = validate_data(self, X, y, dtype=np.float64, accept_sparse=("csr", "csc"))
        if self.alpha > 0:  # the ridge normal equations (alpha = 0 rescales exactly)
            check_magnitude(X, self, "penalised normal equations", power=2, check_small=False)
        classes, y_idx = encode_labels(y)
        n, p = X.shape
        K = len(classes)
        sw = None
        if sample_weight is not None or self.class_weight is not None:
            sw = check_sample_weight(sample_weight, X, dtype=np.float64)
            sw = sw * compute_class_weight(self.class_weight, classes, y_idx)[y_idx]
        Y = np.zeros((n, K))
        Y[np.arange(n), y_idx] = 1.0
        if self.fit_intercept:
            x_mean, y_mean = weighted_means(X, Y, sw)
        else:
            x_mean, y_mean = np.zeros(p), np.zeros(K)
        with small_lapack(p):  # p x p algebra: one BLAS thread (as LinearRegression)
            if sp.issparse(X):
                W = _solve_sparse(X, Y, x_mean, y_mean, sw, float(self.alpha))
            elif self.alpha > 0:
                W = ridge_solve(X, Y, np.full(K, float(self.alpha)), x_mean, y_mean, sw,
                                "cholesky")
            else:
                W = _solve_ols(X, Y, x_mean, y_mean, sw, 1e-10, values=False)[0]
        coef = W.T
        intercept = y_mean - coef @ x_mean if self.fit_intercept else np.zeros(K)
        if K == 2:
            coef = coef[1:] - coef[:1]
            intercept = intercept[1:] - intercept[:1]
        self.classes_ = classes
        self.coef_ = np.ascontiguousarray(coef)
        self.intercept_ = np.asarray(intercept, dtype=np.float64)
        cast_float_attributes(self, dtype, ("coef_", "intercept_"))
        return self


def _solve_sparse(X, Y, x_mean, y_mean, sw, alpha):
    """Coefficients (p, K) for sparse X: the normal equations when the Gram matrix pays
    (:func:`_solve_sparse_gram`), otherwise LSQR on the implicitly centred, weighted X
    with damping sqrt(alpha) (the minimum-norm solution when alpha = 0 and X is rank
    deficient)."""
    if _sparse_gram_pays(X, Y.shape[1]):
        W = _solve_sparse_gram(X, Y, x_mean, y_mean, sw, alpha)
        if W is not None:
            return W
    B = Y - y_mean
    if sw is not None:
        B = B * np.sqrt(sw)[:, None]
    # centred one-of-K columns add up to zero, and so do their solutions (the problem is
    # linear in them): the last is minus the sum of the others
    solved = B.shape[1] - 1 if np.any(y_mean) else B.shape[1]
    W = np.empty((X.shape[1], B.shape[1]))
    W[:, :solved] = solve_lsqr(X, x_mean, sw, B[:, :solved], np.full(solved, alpha),
                                 _SPARSE_TOL, None)[0]
    if solved < B.shape[1]:
        W[:, -1] = -W[:, :-1].sum(axis=1)
    return W


def _sparse_gram_pays(X, n_classes):
    """Whether the Gram matrix of sparse X is small and cheaper than LSQR's passes."""
    n, p = X.shape
    if p > min(n, _SPARSE_GRAM_FEATURES) or X.nnz == 0:
        return False
    gram_work = gram_pair_work(X) + p**3 / (3 * _FACTOR_SPEEDUP)
    return gram_work <= _SPARSE_GRAM_PASSES * X.nnz * n_classes


def _solve_sparse_gram(X, Y, x_mean, y_mean, sw, alpha):
    """Coefficients (p, K) from ``(Xc' S Xc + alpha I) W = Xc' S Yc`` for sparse X, the
    centred Gram matrix being ``X' S X`` less its rank-one mean term (S the weights);
    None where that loses accuracy (a column's mean far above its spread) or, with
    alpha = 0, where the Gram matrix is too ill-conditioned for its Cholesky factor
    (the dense fit then turns to QR, this one to LSQR)."""
    n = X.shape[0]
    w = np.ones(n) if sw is None else sw
    total = float(w.sum())
    G = csr_gram(X, w)
    var = np.diag(G) / total - x_mean**2
    if not np.all(x_mean**2 <= MAX_MEAN_TO_VAR * np.maximum(var, 0.0)):
        return None
    # G is new and symmetric: the rank-one mean term and the scaling below go in place
    # (BLAS's rank-one update on its transpose, a Fortran view), no p x p temporaries
    G = blas.dger(-total, x_mean, x_mean, a=G.T, overwrite_a=True).T
    B = w[:, None] * (Y - y_mean)  # its columns sum to zero: X' B = Xc' B
    XtB = np.asarray(X.T @ B)
    if alpha > 0:
        return solve_gram(G, XtB, np.full(Y.shape[1], alpha))
    solve = scaled_cholesky_if_certified(G)
    if solve is None:
        return None
    W = solve(XtB)
    # one step of iterative refinement on the residuals, as the dense fit does
    R = w[:, None] * ((Y - y_mean) - np.asarray(X @ W) + x_mean @ W)
    W += solve(np.asarray(X.T @ R) - np.outer(x_mean, R.sum(axis=0)))
    return W

