"""Least-squares classification (seed 002, seed 004).

Regress the one-of-K indicator targets on X by (optionally ridge-penalised)
least squares and predict the class with the largest fitted value.
"""

from numbers import Real

import numpy as np
import scipy.sparse as sp

from ..base import BaseEstimator, ClassifierMixin
from ..utils._params import Interval, StrOptions
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
from ._ols import _solve_ols
from ._ridge import ridge_solve
from ._ridge_solvers import centered_operator, solve_lsqr

# LSQR's atol = btol on sparse X: tight, as the dense fit solves the normal equations exactly
_SPARSE_TOL = 1e-10


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
        if sp.issparse(X):
            W = _solve_sparse(X, Y, x_mean, y_mean, sw, float(self.alpha))
        else:  # p x p algebra: one BLAS thread (as LinearRegression)
            with small_lapack(p):
                if self.alpha > 0:
                    W = ridge_solve(X, Y, np.full(K, float(self.alpha)), x_mean, y_mean, sw,
                                    "cholesky")
                else:
                    W = _solve_ols(X, Y, x_mean, y_mean, sw, 1e-10)[0]
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
    """Coefficients (p, K) for sparse X: LSQR on the implicitly centred, weighted X with
    damping sqrt(alpha) (the minimum-norm solution when alpha = 0 and X is rank deficient)."""
    B = Y - y_mean
    if sw is not None:
        B = B * np.sqrt(sw)[:, None]
    A = centered_operator(X, x_mean, sw)
    W, _, _ = solve_lsqr(A, B, np.full(B.shape[1], alpha), _SPARSE_TOL, None)
    return W
