"""Logistic regression, binary and multinomial (seed 000 §5, §9.1; seed 004).

Maximum likelihood for ``P(y = k | x) = softmax(b + W x)_k`` (the logistic
function for two classes), optionally penalised. Minimises

    C * sum_i sw_i * nll_i + l1_ratio * ||W||_1 + (1 - l1_ratio) / 2 * ||W||^2

with the penalty fixed by ``penalty``; the intercept is never penalised. The
unpenalised binary fit offers :meth:`LogisticRegression.summary`, the table
of seed 004 (Wald z statistics from the inverse Fisher information).
"""

import warnings
from numbers import Integral, Real

import numpy as np
from scipy import linalg

from ..base import BaseEstimator, ClassifierMixin
from ..exceptions import ConvergenceWarning
from ..utils._params import Interval, StrOptions
from ..utils._targets import compute_class_weight, encode_labels
from ..utils.validation import (
    cast_float_attributes,
    check_is_fitted,
    check_sample_weight,
    input_float_dtype,
    validate_data,
)
from ._base import LinearClassifierMixin
from ._inference import CoefficientTable, term_names
from ._logistic_solvers import LogisticObjective, fit_lbfgs, fit_newton, fit_newton_cd

_SMOOTH_SOLVERS = {"lbfgs", "newton", "newton-cholesky"}


class LogisticRegression(LinearClassifierMixin, ClassifierMixin, BaseEstimator):
    """Logistic regression (binomial, or multinomial / softmax for K > 2 classes).

    Parameters
    ----------
    penalty : {"l2", "l1", "elasticnet", None}, default="l2"
        Penalty on the coefficients (not on the intercept).
    dual : bool, default=False
        Only False (the primal) is supported; kept for compatibility.
    tol : float, default=1e-4
        Stopping tolerance (gradient for lbfgs / newton, coefficient change
        for newton-cd).
    C : float, default=1.0
        Inverse penalty strength (> 0); ``C=np.inf`` means no penalty.
    fit_intercept : bool, default=True
    intercept_scaling : float, default=1
        Unused; kept for compatibility.
    class_weight : dict or "balanced", default=None
        Multiplies the sample weights of each class.
    random_state : int, RandomState instance or None, default=None
        Unused (the solvers are deterministic); kept for compatibility.
    solver : {"lbfgs", "newton", "newton-cholesky", "newton-cd"}, default="lbfgs"
        "newton" (alias "newton-cholesky") is IRLS (seed 004); "newton-cd" is
        proximal Newton with coordinate descent and handles "l1" and
        "elasticnet". lbfgs and newton take "l2" or None only.
    max_iter : int, default=100
    verbose : int, default=0
        Unused.
    warm_start : bool, default=False
        Start from the previous solution.
    n_jobs : int, default=None
        Unused; kept for compatibility.
    l1_ratio : float, default=None
        Share of L1 in "elasticnet", in [0, 1].

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    coef_ : ndarray of shape (1, n_features) for two classes, else (n_classes, n_features)
    intercept_ : ndarray of shape (1,) or (n_classes,)
    n_iter_ : ndarray of shape (1,)
    n_features_in_ : int
    feature_names_in_ : ndarray of str

    See Also
    --------
    LeastSquaresClassifier, Perceptron

    Notes
    -----
    Seed 000 §5 (two classes) and §9.1 (softmax); IRLS and the inference table
    from seed 004.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0.0], [1.0], [2.0], [3.0]])
    >>> clf = LogisticRegression().fit(X, [0, 0, 1, 1])
    >>> clf.predict([[0.2], [2.8]]).tolist()
    [0, 1]
    """

    _parameter_constraints = {
        "penalty": [StrOptions({"l1", "l2", "elasticnet", "none"}), None],
        "dual": ["boolean"],
        "tol": [Interval(Real, 0, None, closed="left")],
        "C": [Interval(Real, 0, None, closed="neither")],
        "fit_intercept": ["boolean"],
        "intercept_scaling": [Interval(Real, 0, None, closed="neither")],
        "class_weight": [dict, StrOptions({"balanced"}), None],
        "random_state": ["random_state"],
        "solver": [StrOptions({"lbfgs", "newton", "newton-cholesky", "newton-cd"})],
        "max_iter": [Interval(Integral, 0, None, closed="left")],
        "verbose": [Interval(Integral, 0, None, closed="left"), "boolean"],
        "warm_start": ["boolean"],
        "n_jobs": [None, Integral],
        "l1_ratio": [Interval(Real, 0, 1, closed="both"), None],
    }

    def __init__(self, penalty="l2", *, dual=False, tol=1e-4, C=1.0, fit_intercept=True,
                 intercept_scaling=1, class_weight=None, random_state=None, solver="lbfgs",
                 max_iter=100, verbose=0, warm_start=False, n_jobs=None, l1_ratio=None):
        self.penalty = penalty
        self.dual = dual
        self.tol = tol
        self.C = C
        self.fit_intercept = fit_intercept
        self.intercept_scaling = intercept_scaling
        self.class_weight = class_weight
        self.random_state = random_state
        self.solver = solver
        self.max_iter = max_iter
        self.verbose = verbose
        self.warm_start = warm_start
        self.n_jobs = n_jobs
        self.l1_ratio = l1_ratio

    def _penalty_strengths(self):
        penalty = "none" if self.penalty is None or np.isinf(self.C) else self.penalty
        if self.dual:
            raise ValueError("dual=True is not supported; use dual=False.")
        if penalty == "elasticnet" and self.l1_ratio is None:
            raise ValueError("penalty='elasticnet' needs l1_ratio (a float in [0, 1]).")
        if penalty in ("l1", "elasticnet") and self.solver in _SMOOTH_SOLVERS:
            raise ValueError(
                f"Solver {self.solver} supports only 'l2' or None penalties, got {penalty} "
                "penalty; use solver='newton-cd' for 'l1' and 'elasticnet'."
            )
        if penalty != "elasticnet" and self.l1_ratio not in (None, 0, 0.0):
            warnings.warn(
                f"l1_ratio={self.l1_ratio} is used only with penalty='elasticnet'; "
                f"it is ignored with penalty={self.penalty!r}.",
                UserWarning,
                stacklevel=3,
            )
        rho = {"none": 0.0, "l2": 0.0, "l1": 1.0}.get(penalty, self.l1_ratio)
        if penalty == "none":
            return penalty, 0.0, 0.0
        return penalty, rho / self.C, (1.0 - rho) / self.C

    def fit(self, X, y, sample_weight=None):
        """Fit the model by maximum (penalised) likelihood.

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
        penalty, l1, l2 = self._penalty_strengths()
        dtype = input_float_dtype(X)
        X, y = validate_data(self, X, y, dtype=np.float64)
        classes, y_idx = encode_labels(y)
        sw = check_sample_weight(sample_weight, X, dtype=np.float64)
        sw = sw * compute_class_weight(self.class_weight, classes, y_idx)[y_idx]
        if sw.sum() <= 0:
            raise ValueError("The sample weights sum to zero.")
        n, p = X.shape
        K = len(classes)
        n_out = 1 if K == 2 else K
        obj = LogisticObjective(X, y_idx, sw, n_out, self.fit_intercept)
        W0, b0 = np.zeros((n_out, p)), np.zeros(n_out)
        if self.warm_start and hasattr(self, "coef_") and self.coef_.shape == (n_out, p):
            W0[:] = self.coef_
            b0[:] = self.intercept_
        if self.max_iter == 0:
            W, b, n_iter, ok = W0, b0, 0, True
        elif self.solver == "lbfgs":
            W, b, n_iter, ok = fit_lbfgs(obj, W0, b0, l2, self.max_iter, self.tol,
                                         1.0 / sw.sum())
        elif self.solver in ("newton", "newton-cholesky"):
            W, b, n_iter, ok = fit_newton(obj, W0, b0, l2, self.max_iter, self.tol)
        else:
            W, b, n_iter, ok = fit_newton_cd(obj, W0, b0, l1, l2, self.max_iter, self.tol)
        if penalty == "none" and n_out > 1:
            # Softmax is unchanged by a shift shared by all classes: report the
            # solution whose coefficients sum to zero over the classes.
            W = W - W.mean(axis=0)
        if n_out > 1:
            b = b - b.mean()  # intercepts are unpenalised: only differences matter
        if not self.fit_intercept:
            b = np.zeros(n_out)
        if not ok and self.max_iter > 0:
            warnings.warn(
                f"{self.solver} failed to converge after {n_iter} iterations (max_iter="
                f"{self.max_iter}). Increase max_iter, scale the data, or add a penalty.",
                ConvergenceWarning,
                stacklevel=2,
            )
        self.classes_ = classes
        self.coef_ = np.ascontiguousarray(W)
        self.intercept_ = np.asarray(b, dtype=np.float64)
        cast_float_attributes(self, dtype, ("coef_", "intercept_"))
        self.n_iter_ = np.array([n_iter], dtype=np.intp)
        self._summary_cov = None
        if penalty == "none":
            self._check_separation(X, y_idx, sw)
            if n_out == 1 and p <= 2000:
                self._summary_cov = self._fisher_inverse(X, sw)
        return self

    def _check_separation(self, X, y_idx, sw):
        scores = X @ self.coef_.T + self.intercept_
        if scores.shape[1] == 1:
            margin = np.where(y_idx == 1, scores[:, 0], -scores[:, 0])
        else:
            own = scores[np.arange(len(y_idx)), y_idx]
            other = scores.copy()
            other[np.arange(len(y_idx)), y_idx] = -np.inf
            margin = own - other.max(axis=1)
        if np.all(margin[sw > 0] > 0):
            warnings.warn(
                "The classes are perfectly separated: without a penalty the maximum "
                "likelihood estimate does not exist (coefficients grow without bound). "
                "Use penalty='l2' or a finite C.",
                ConvergenceWarning,
                stacklevel=3,
            )

    def _fisher_inverse(self, X, sw):
        z = X @ self.coef_[0] + self.intercept_[0]
        prob = 1.0 / (1.0 + np.exp(-z))
        h = sw * prob * (1.0 - prob)
        A = np.column_stack([np.ones(len(z)), X]) if self.fit_intercept else X
        info = (A * h[:, None]).T @ A
        try:
            return linalg.inv(info, check_finite=False)
        except linalg.LinAlgError:
            return linalg.pinvh(info, check_finite=False)

    def summary(self, alpha=0.05):
        """Coefficient table of the unpenalised binary fit (seed 004).

        Standard errors are the square roots of the diagonal of the inverse
        Fisher information ``(X'WX)^{-1}``, ``W = diag(sw p (1 - p))``; z is the
        Wald statistic, p-values and intervals use the normal distribution.

        Parameters
        ----------
        alpha : float, default=0.05
            Intervals have confidence ``1 - alpha``.

        Returns
        -------
        CoefficientTable

        Examples
        --------
        >>> import numpy as np
        >>> rng = np.random.default_rng(0)
        >>> X = rng.normal(size=(200, 1))
        >>> y = (X[:, 0] + rng.logistic(size=200) > 0).astype(int)
        >>> LogisticRegression(penalty=None).fit(X, y).summary().names
        ['intercept', 'x0']
        """
        check_is_fitted(self)
        cov = getattr(self, "_summary_cov", None)
        if cov is None:
            raise ValueError(
                "summary() is available for an unpenalised (penalty=None) fit with two "
                "classes and at most 2000 features."
            )
        coef = self.coef_[0]
        est = np.concatenate([self.intercept_, coef]) if self.fit_intercept else coef
        se = np.sqrt(np.maximum(np.diag(cov), 0.0))
        return CoefficientTable(term_names(self, self.fit_intercept), est, se, statistic="z",
                                alpha=alpha, title="Logistic regression coefficients")

    def predict_proba(self, X):
        """Class probabilities.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
        """
        scores = self.decision_function(X)
        if scores.ndim == 1:
            pos = np.empty_like(scores)
            big = scores >= 0
            pos[big] = 1.0 / (1.0 + np.exp(-scores[big]))
            e = np.exp(scores[~big])
            pos[~big] = e / (1.0 + e)
            return np.column_stack([1.0 - pos, pos])
        scores -= scores.max(axis=1, keepdims=True)  # our own array: in place
        np.exp(scores, out=scores)
        scores /= scores.sum(axis=1, keepdims=True)
        return scores

    def predict_log_proba(self, X):
        """Logarithm of the class probabilities.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
        """
        scores = self.decision_function(X)
        if scores.ndim == 1:
            return np.column_stack([-np.logaddexp(0.0, scores), -np.logaddexp(0.0, -scores)])
        m = scores.max(axis=1, keepdims=True)
        lse = m + np.log(np.exp(scores - m).sum(axis=1, keepdims=True))
        return scores - lse
