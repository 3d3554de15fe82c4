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
import scipy.sparse as sp
from scipy import special

from ..base import BaseEstimator, ClassifierMixin
from ..exceptions import ConvergenceWarning
from ..utils._params import Interval, StrOptions
from ..utils._targets import compute_class_weight, encode_labels
from ..utils._threads import blas_single_thread, small_lapack
from ..utils.validation import (
    cast_float_attributes,
    check_is_fitted,
    check_magnitude,
    check_sample_weight,
    input_float_dtype,
    validate_data,
)
from . import _dask_fit, _dask_logistic
from ._base import LinearClassifierMixin
from ._logistic_inference import (
    firth_dispatch,
    logistic_summary,
    settled_inference,
    unpenalised_checks,
)
from ._logistic_solvers import (
    LogisticObjective,
    fit_lbfgs,
    fit_liblinear,
    fit_newton,
    fit_newton_cd,
    fit_newton_cg,
)
from ._sag import fit_sag, sag_generator

_SMOOTH_SOLVERS = {"lbfgs", "newton", "newton-cholesky", "newton-cg", "sag"}
_SOLVERS = {"lbfgs", "newton", "newton-cholesky", "newton-cd", "newton-cg", "sag", "saga",
            "liblinear"}
# solvers that take sparse X: products with X (scipy), SAG / SAGA with lazy updates, or
# coordinate descent over CSC columns
_SPARSE_SOLVERS = {"lbfgs", "newton", "newton-cholesky", "newton-cd", "newton-cg", "sag",
                   "saga", "liblinear"}


class LogisticRegression(LinearClassifierMixin, ClassifierMixin, BaseEstimator):
    """Logistic regression (binomial, or multinomial / softmax for K > 2 classes).

    Parameters
    ----------
    penalty : {"l2", "l1", "elasticnet", "firth", None}, default="l2"
        Penalty on the coefficients (not on the intercept). "firth" (two
        classes) is Firth's bias-reduced likelihood (Jeffreys prior), finite
        under separation; solver "newton" runs its modified-score iteration,
        "lbfgs" L-BFGS on the penalised likelihood; C does not apply.
    dual : bool, default=False
        True only with solver="liblinear" and penalty="l2" (see ``solver``).
    tol : float, default=1e-4
        Stopping tolerance: largest gradient entry of the mean loss for
        lbfgs / newton / newton-cg, coefficient change for newton-cd,
        largest weight change over the largest weight after an epoch for sag
        / saga, and liblinear's relative rules for liblinear (see ``solver``).
    C : float, default=1.0
        Inverse penalty strength (> 0); ``C=np.inf`` means no penalty.
    fit_intercept : bool, default=True
    intercept_scaling : float, default=1
        Value of the constant feature carrying the (penalised) intercept of
        solver="liblinear"; unused by the other solvers.
    class_weight : dict or "balanced", default=None
        Multiplies the sample weights of each class.
    random_state : int, RandomState instance or None, default=None
        Seeds the sample draws of "sag" and "saga" (the other solvers are
        deterministic).
    solver : {"lbfgs", "newton", "newton-cholesky", "newton-cd", "newton-cg", \
"sag", "saga", "liblinear"}, default="lbfgs"
        - "newton" (alias "newton-cholesky") is IRLS (seed 004): Newton steps
          solved through the Cholesky factor of the Hessian;
        - "newton-cg": truncated Newton, each step by conjugate gradients on
          Hessian-vector products (the Hessian is never formed);
        - "newton-cd": proximal Newton with coordinate descent, handles "l1"
          and "elasticnet";
        - "sag": stochastic average gradient (Schmidt, Le Roux and Bach);
        - "saga": SAGA (Defazio, Bach and Lacoste-Julien), with a proximal
          step for "l1" and "elasticnet". sag / saga draw samples with
          replacement from ``random_state``, step size and stopping rule as
          scikit-learn's (largest weight change over the largest weight
          below ``tol`` after an epoch); they converge fast on scaled features;
        - "liblinear": liblinear's objective, two classes only, where the
          intercept is the weight of a constant feature ``intercept_scaling``
          and is penalised like the others, by liblinear's own methods: "l2"
          by TRON, its trust-region Newton method with conjugate gradients
          (stopped when the gradient's norm is below ``tol`` times
          ``max(min(n+, n-), 1) / n`` times its norm at zero), "l1" by
          newGLMNET, with liblinear's shrinking, inner tolerance and stopping
          rule (the same factor on the summed violation); ``n_iter_`` counts
          their Newton steps. With ``dual=True`` ("l2" only) the dual is solved
          as liblinear solves it, by coordinate descent on the dual variables
          (Yu, Huang and Lin 2011; ``n_iter_`` counts the passes), the faster
          route when rows are few against the features.
        lbfgs, newton, newton-cg and sag take "l2" or None only.
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

    _sparse_input = True

    _parameter_constraints = {
        "penalty": [StrOptions({"l1", "l2", "elasticnet", "none", "firth"}), None],
        "dual": ["boolean"],
        "tol": [Interval(Real, 0, None, closed="left")],
        "C": [Interval(Real, 0, None, closed="neither")],
        "fit_intercept": ["boolean"],
        "intercept_scaling": [Interval(Real, 0, None, closed="neither")],
        "class_weight": [dict, StrOptions({"balanced"}), None],
        "random_state": ["random_state"],
        "solver": [StrOptions(_SOLVERS)],
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
        if self.penalty == "firth":
            return "firth", 0.0, 0.0
        penalty = "none" if self.penalty is None or np.isinf(self.C) else self.penalty
        if self.dual and not (self.solver == "liblinear" and penalty == "l2"):
            raise ValueError(
                f"dual=True is supported only by solver='liblinear' with penalty='l2'; got "
                f"solver={self.solver!r}, penalty={penalty!r}."
            )
        if self.solver == "liblinear" and penalty in ("none", "elasticnet"):
            raise ValueError(
                "solver='liblinear' takes penalty 'l1' or 'l2' with a finite C (liblinear "
                "penalises the intercept and has no elastic net)."
            )
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
        X, y = validate_data(self, X, y, dtype=np.float64, accept_sparse="csr")
        check_magnitude(X, self, "penalised likelihood", power=2, check_small=False)
        if sp.issparse(X) and penalty == "firth":
            raise TypeError("LogisticRegression(penalty='firth') does not take sparse input; "
                            "pass a dense array.")
        if sp.issparse(X) and self.solver not in _SPARSE_SOLVERS:
            raise TypeError(
                f"LogisticRegression(solver={self.solver!r}) does not take sparse input in "
                f"classiclearn yet; use one of {sorted(_SPARSE_SOLVERS)} or pass a dense array."
            )
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
        if self.solver == "liblinear" and K > 2:
            raise ValueError(
                "The 'liblinear' solver does not support multiclass classification "
                "(n_classes >= 3); use another solver or OneVsRestClassifier."
            )
        if penalty == "firth":
            W, b, n_iter, ok = firth_dispatch(self, X, y_idx, sw, K, W0, b0)
        else:
            with self._blas_threads(n_out * (p + 1)):
                W, b, n_iter, ok = self._run_solver(obj, X, y_idx, sw, W0, b0, l1, l2)
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
        if self.solver != "liblinear":  # scikit-learn's liblinear returns float64
            cast_float_attributes(self, dtype, ("coef_", "intercept_"))
        self.n_iter_ = np.array([n_iter], dtype=np.intp)
        # Complete separation in the margins (warns) and what summary() needs (see
        # _logistic_inference).
        self._inference = unpenalised_checks(self, X, y_idx, sw, penalty)
        return self

    def _fit_dask(self, X, y, sample_weight=None):
        """Fit on Dask input by Newton's method (proximal Newton with an l1 term), one
        exact pass over the blocks per step (see ``_dask_logistic``)."""
        self._validate_params()
        penalty, l1, l2 = self._penalty_strengths()
        if penalty == "firth":
            _dask_fit.refuse(self, "penalty='firth'")
        return _dask_logistic.fit_logistic_dask(self, X, y, sample_weight, l2, l1)

    def _blas_threads(self, n_params):
        """BLAS threads for the solver: one, as the solvers' heavy passes run on
        numba's threads and BLAS's would only spin beside them, except for the
        Cholesky factorisations of newton-cholesky with more than
        :data:`BLAS_THREADED_ORDER` parameters."""
        if self.solver in ("newton", "newton-cholesky"):
            return small_lapack(n_params)
        return blas_single_thread()

    def _run_solver(self, obj, X, y_idx, sw, W0, b0, l1, l2):
        """Dispatch on ``solver``; returns (W, b, n_iter, converged)."""
        solver, max_iter, tol = self.solver, self.max_iter, self.tol
        if max_iter == 0:
            return W0, b0, 0, True
        if solver == "lbfgs":
            return fit_lbfgs(obj, W0, b0, l2, max_iter, tol, 1.0 / sw.sum())
        if solver in ("newton", "newton-cholesky"):
            return fit_newton(obj, W0, b0, l2, max_iter, tol)
        if solver == "newton-cg":
            return fit_newton_cg(obj, W0, b0, l2, max_iter, tol)
        if solver in ("sag", "saga"):
            loss = "log" if obj.n_out == 1 else "multinomial"
            return fit_sag(X, y_idx, sw, W0, b0, loss=loss, alpha=l2, beta=l1,
                           fit_intercept=self.fit_intercept, max_iter=max_iter, tol=tol,
                           rng=sag_generator(self.random_state), saga=solver == "saga")
        if solver == "liblinear":
            return fit_liblinear(X, y_idx, sw, W0, b0, l1, l2, self.fit_intercept,
                                 self.intercept_scaling, max_iter, tol, self.dual)
        return fit_newton_cd(obj, W0, b0, l1, l2, max_iter, tol)

    def _settled_inference(self):
        """The inference state with the work the fit deferred done (see
        ``_logistic_inference.settled_inference``); None for penalised or unfitted
        models."""
        info = getattr(self, "_inference", None)
        if info is None or "training" not in info:
            return info
        return settled_inference(self, need_data=False)

    def __getstate__(self):
        """Pickled state without the training arrays an unpenalised fit keeps for
        ``summary()`` (an unpickled model's summary() takes X and y again)."""
        state = self.__dict__.copy()
        info = state.get("_inference")
        if info is not None and "training" in info:
            state["_inference"] = {k: v for k, v in info.items() if k != "training"}
        return state

    def summary(self, alpha=0.05, *, cov_type="nonrobust", groups=None, X=None, y=None,
                sample_weight=None, odds_ratios=False, ci="wald"):
        """Coefficient table and fit statistics (seed 004; statsmodels' Logit / MNLogit).

        Defined for unpenalised fits (penalty=None or C=inf) and for
        penalty="firth"; penalised fits raise (their Wald tables have no
        standard meaning), as do fits whose maximum-likelihood estimate does
        not exist (separation). Standard errors are the square roots of the
        diagonal of the inverse Fisher information ``(A'WA)^{-1}``,
        ``W = diag(sw p (1 - p))``; z is the Wald statistic. With more than
        two classes the table is in the reference parametrisation of
        statsmodels' ``MNLogit`` (``classes_[0]`` the base; rows named
        ``"class:term"``).

        Parameters
        ----------
        alpha : float, default=0.05
            Intervals have confidence ``1 - alpha``.
        cov_type : {"nonrobust", "HC0", "HC1", "HC2", "HC3", "cluster"}, default="nonrobust"
            Model-based, heteroscedasticity-robust (sandwich) or cluster-robust
            covariance; see ``classiclearn.linear_model._inference_stats``.
            HC2 and HC3 need two classes; robust types need X and y.
        groups : array-like of shape (n_samples,), default=None
            Cluster labels for ``cov_type="cluster"``.
        X, y, sample_weight : training data, default=None
            Needed by the robust covariances and by ``ci="profile"``; checked
            against the fit.
        odds_ratios : bool, default=False
            Add ``exp(coef)`` and its interval (seed 004: tobacco's 1.084 per kg).
        ci : {"wald", "profile"}, default="wald"
            Interval type (two classes); "profile" inverts the likelihood-ratio
            test (R's ``confint`` on a ``glm``), penalised for Firth fits as
            Heinze and Schemper recommend (logistf). It needs X and y; the
            p-values stay Wald's.

        Returns
        -------
        CoefficientTable
            With ``log_likelihood``, ``deviance``, ``null_deviance``, ``aic``,
            ``bic``, ``pseudo_r2`` (McFadden) and ``lr_test`` against the
            intercept-only model (penalised likelihoods for Firth fits).

        Examples
        --------
        >>> import numpy as np
        >>> rng = np.random.default_rng(0)
        >>> X = rng.normal(size=(200, 1))
        >>> y = (X[:, 0] + rng.logistic(size=200) > 0).astype(int)
        >>> table = LogisticRegression(penalty=None).fit(X, y).summary(odds_ratios=True)
        >>> table.names
        ['intercept', 'x0']
        >>> bool(table.odds_ratio[1] > 1) and bool(table.lr_test.p_value < 1e-6)
        True
        """
        check_is_fitted(self)
        return logistic_summary(self, alpha, cov_type, groups, X, y, sample_weight,
                                odds_ratios, ci)

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
            proba = np.empty((scores.shape[0], 2), dtype=scores.dtype)
            special.expit(scores, out=proba[:, 1])  # without overflow at either end
            np.subtract(1.0, proba[:, 1], out=proba[:, 0])
            return proba
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
