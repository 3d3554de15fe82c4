"""Quadratic discriminant analysis (seed 000 §10.3, seed 003).

Every class k is a normal law N(m_k, Σ_k) with its own covariance, so

    δ_k(x) = -½ log|Σ_k| - ½ (x - m_k)^T Σ_k^{-1} (x - m_k) + log π_k

is quadratic in x. Σ_k is the maximum-likelihood (1/n_k) covariance of class
k (scikit-learn 1.9's estimate; ``covariance_estimate="unbiased"`` gives seed
003's sample covariance with 1/(n_k - 1), scikit-learn's before 1.8), written Σ_k = R_k diag(s_k) R_k^T; ``reg_param`` r shrinks it to
(1 - r) Σ_k + r I. The eigenpairs come from the p x p class scatter (BLAS
products over the rows, then a symmetric eigensolver) instead of an SVD of
the n_k x p class block; the SVD is kept for covariances too ill-conditioned
for that route.
"""

import warnings
from numbers import Real

import numpy as np
from scipy import linalg

from ..base import BaseEstimator, ClassifierMixin, clone
from ..utils._dask import (
    fit_one_block_in_memory,
)
from ..utils._params import HasMethods, Interval, StrOptions
from ..utils._targets import encode_labels
from ..utils._threads import small_lapack, svd_threads
from ..utils.validation import (
    cast_float_attributes,
    check_is_fitted,
    input_float_dtype,
    validate_data,
)
from . import _scatter
from . import _scatter_kernels as _kernels
from ._lda import _check_priors, dask_class_statistics

__all__ = ["QuadraticDiscriminantAnalysis"]


class QuadraticDiscriminantAnalysis(ClassifierMixin, BaseEstimator):
    """Quadratic discriminant analysis: one Gaussian per class.

    Parameters
    ----------
    solver : {"svd", "eigen"}, default="svd"
        ``"eigen"`` accepts ``shrinkage`` and ``covariance_estimator``.
    shrinkage : "auto", float in [0, 1] or None, default=None
        Shrinkage of each class covariance (``"auto"``: Ledoit-Wolf).
    priors : array-like of shape (n_classes,), default=None
        Class priors; by default the class frequencies.
    reg_param : float in [0, 1], default=0.0
        Each class covariance becomes ``(1 - reg_param) * S + reg_param * I``.
    store_covariance : bool, default=False
        Store the class covariances in ``covariance_``.
    tol : float, default=1e-4
        Eigenvalues of a (regularised) class covariance at or below ``tol``
        flag a (nearly) singular covariance; those below 1e-6 times the
        largest are then raised to that value, with a warning.
    covariance_estimator : object with ``fit`` and ``covariance_``, default=None
        Estimates each class covariance (``solver="eigen"``).
    covariance_estimate : {"biased", "unbiased"}, default="biased"
        The class covariance S before ``reg_param``: ``"biased"`` is the
        maximum-likelihood S_k = (1/n_k) Σ_{y_i=k} (x_i - μ_k)(x_i - μ_k)^T,
        as scikit-learn 1.9; ``"unbiased"`` the sample covariance of seed 003,
        S_k = 1/(n_k - 1) Σ_{y_i=k} (...), which needs two samples per class
        and no ``shrinkage`` or ``covariance_estimator``.

    Attributes
    ----------
    means_ : ndarray of shape (n_classes, n_features)
    priors_ : ndarray of shape (n_classes,)
    rotations_ : list of ndarray of shape (n_features, n_features)
        Eigenvectors of each class covariance, by decreasing eigenvalue.
    scalings_ : list of ndarray of shape (n_features,)
        The (regularised) eigenvalues.
    covariance_ : list of ndarray of shape (n_features, n_features)
        Only with ``store_covariance=True``.
    classes_ : ndarray of shape (n_classes,)
    n_features_in_ : int
    feature_names_in_ : ndarray of str

    See Also
    --------
    LinearDiscriminantAnalysis : one covariance shared by all classes.

    Notes
    -----
    Differences from scikit-learn: a singular class covariance warns and is
    regularised instead of raising, and ``reg_param`` also applies with
    ``solver="eigen"``. A class with a single sample needs ``reg_param > 0``
    (or shrinkage).

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[-1, -1], [-2, -1], [-3, -2], [1, 1], [2, 1], [3, 2]])
    >>> clf = QuadraticDiscriminantAnalysis().fit(X, [1, 1, 1, 2, 2, 2])
    >>> clf.predict([[-0.8, -1]]).tolist()
    [1]
    """

    _parameter_constraints = {
        "solver": [StrOptions({"svd", "eigen"})],
        "shrinkage": [StrOptions({"auto"}), Interval(Real, 0, 1, closed="both"), None],
        "priors": ["array-like", None],
        "reg_param": [Interval(Real, 0, 1, closed="both")],
        "store_covariance": ["boolean"],
        "tol": [Interval(Real, 0, None, closed="left")],
        "covariance_estimator": [HasMethods("fit"), None],
        "covariance_estimate": [StrOptions({"biased", "unbiased"})],
    }

    def __init__(
        self,
        *,
        solver="svd",
        shrinkage=None,
        priors=None,
        reg_param=0.0,
        store_covariance=False,
        tol=1.0e-4,
        covariance_estimator=None,
        covariance_estimate="biased",
    ):
        self.solver = solver
        self.shrinkage = shrinkage
        self.priors = priors
        self.reg_param = reg_param
        self.store_covariance = store_covariance
        self.tol = tol
        self.covariance_estimator = covariance_estimator
        self.covariance_estimate = covariance_estimate

    def fit(self, X, y):
        """Fit one Gaussian per class.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)

        Returns
        -------
        self
        """
        self._validate_params()
        dtype = input_float_dtype(X)
        X, y = validate_data(self, X, y, dtype=np.float64)
        self.classes_, y_index = encode_labels(y)
        self._check_settings()
        counts, means, scatter = _scatter.class_statistics(X, y_index, len(self.classes_))
        with small_lapack(X.shape[1]):  # p x p solves, and products with p columns
            self._fit_statistics(X, y_index, counts, means, scatter)
        cast_float_attributes(self, dtype, ("means_",))  # as scikit-learn: only the means
        return self

    def _fit_dask(self, X, y):
        """Exact fit on Dask input from per-class counts, means and scatter matrices
        merged over the row blocks (solver 'svd', or 'eigen' without shrinkage or a
        covariance estimator: those need the rows again)."""
        self._validate_params()
        if fit_one_block_in_memory(self, X, y) is not None:
            return self
        _, counts, means, scatter = dask_class_statistics(self, X, y)
        self._check_settings()
        return self._fit_statistics(None, None, counts, means, scatter)

    def _check_settings(self):
        if self.solver == "svd":
            if self.shrinkage is not None:
                raise NotImplementedError("shrinkage not supported with 'svd' solver.")
            if self.covariance_estimator is not None:
                raise ValueError(
                    "covariance_estimator is not supported with solver='svd'. "
                    "Try solver='eigen' instead."
                )
        if self.covariance_estimator is not None and self.shrinkage not in (None, 0):
            raise ValueError(
                "covariance_estimator and shrinkage parameters are not None. "
                "Only one of the two can be set."
            )
        unbiased = self.covariance_estimate == "unbiased"
        if unbiased and (self.shrinkage is not None or self.covariance_estimator is not None):
            raise ValueError(
                "covariance_estimate='unbiased' is the class sample covariance; it cannot be "
                "combined with shrinkage or covariance_estimator."
            )

    def _fit_statistics(self, X, y_index, counts, means, scatter):
        """The fit from per-class counts, means and scatter (X and y_index are used only
        by the SVD fallback and the eigen solver's estimators; None on Dask input)."""
        n_classes = len(counts)
        unbiased = self.covariance_estimate == "unbiased"
        self.priors_ = _check_priors(self.priors, counts)
        if unbiased and counts.min() < 2:
            k = int(np.argmin(counts))
            raise ValueError(
                f"y has only {int(counts[k])} sample in class {self.classes_[k]}; "
                "covariance_estimate='unbiased' divides by n_k - 1 and needs 2 per class."
            )
        divisor = counts - 1.0 if unbiased else counts
        regularised = self.reg_param > 0 or self.solver == "eigen" and (
            self.shrinkage not in (None, 0) or self.covariance_estimator is not None
        )
        for k in range(n_classes):
            if counts[k] == 1 and not regularised:
                raise ValueError(
                    f"y has only 1 sample in class {self.classes_[k]}, covariance is ill "
                    "defined. Set reg_param > 0 to fit a class with one sample."
                )
        if self.solver == "eigen" and not unbiased:
            covs = self._eigen_covariances(X, y_index, counts, means, scatter)
        else:
            covs = scatter / divisor[:, None, None]
        r = self.reg_param
        rotations, scalings, stored = [], [], []
        for k in range(n_classes):
            w, V = linalg.eigh(covs[k], check_finite=False)
            w, V = w[::-1], V[:, ::-1]
            w_reg = (1.0 - r) * w + r
            top = max(w_reg.max(), 0.0)
            if (w_reg <= self.tol).any():
                floor = 1e-6 * top if top > 0 else max(self.tol, np.finfo(float).tiny)
                if (w_reg < floor).any():
                    warnings.warn(
                        f"The covariance matrix of class {self.classes_[k]} is singular "
                        "(collinear features or fewer samples than features); its smallest "
                        f"eigenvalues were raised to {floor:.3g}. Increase reg_param to "
                        "choose the regularisation.",
                        UserWarning,
                        stacklevel=2,
                    )
                w_reg = np.maximum(w_reg, floor)
            elif self.solver == "svd" and w_reg.min() < 1e-7 * top:
                # too ill-conditioned for eigenvalues of the scatter: SVD of the block
                if X is None:
                    raise ValueError(
                        f"The covariance matrix of class {self.classes_[k]} is too "
                        "ill-conditioned for the scatter route; on Dask input, set reg_param "
                        "> 0 or fit on a sample in memory."
                    )
                block = X[y_index == k] - means[k]
                with svd_threads(*block.shape):
                    _, S, Vt = linalg.svd(block, full_matrices=False, check_finite=False)
                w_reg = (1.0 - r) * S**2 / divisor[k] + r
                V = Vt.T
            rotations.append(np.ascontiguousarray(V))
            scalings.append(w_reg)
            if self.store_covariance:
                stored.append((V * w_reg) @ V.T if self.solver == "svd" else covs[k])
        self.means_ = means
        self.rotations_ = rotations
        self.scalings_ = scalings
        if self.store_covariance:
            self.covariance_ = stored
        else:
            self.__dict__.pop("covariance_", None)
        whiteners = [R / np.sqrt(s) for R, s in zip(rotations, scalings)]
        # all classes side by side: one (n, p) @ (p, K p) product per row block
        self._whiteners = np.ascontiguousarray(np.hstack(whiteners))
        self._shifts = np.array([m @ W for m, W in zip(means, whiteners)])
        log_dets = np.array([np.sum(np.log(s)) for s in scalings])
        with np.errstate(divide="ignore"):  # a zero prior: that class is never chosen
            self._offsets = np.log(self.priors_) - 0.5 * log_dets
        return self

    def _eigen_covariances(self, X, y_index, counts, means, scatter):
        if self.covariance_estimator is None:
            covs, _ = _scatter.class_covariances(
                X, y_index, counts, means, scatter, self.shrinkage
            )
            return covs
        covs = []
        for k in range(len(counts)):
            est = clone(self.covariance_estimator).fit(X[y_index == k])
            if not hasattr(est, "covariance_"):
                raise ValueError(f"{type(est).__name__} does not have a covariance_ attribute")
            covs.append(np.atleast_2d(est.covariance_))
        return np.array(covs)

    def _joint_scores(self, X):
        check_is_fitted(self)
        X = validate_data(self, X, reset=False, dtype=np.float64)
        n_samples = X.shape[0]
        n_classes = len(self.classes_)
        scores = np.empty((n_samples, n_classes))
        W = self._whiteners
        # row blocks whose whitened coordinates (rows x K p) stay in cache
        step = max(64, 131_072 // W.shape[1])
        Z = np.empty((min(step, n_samples), W.shape[1]))
        with small_lapack(X.shape[1]):  # small products between numba's passes
            for start in range(0, n_samples, step):
                block = X[start : start + step]
                z = Z[: block.shape[0]]
                np.matmul(block, W, out=z)
                _kernels.quadratic_scores(z, self._shifts, self._offsets, scores, start)
        return scores

    def decision_function(self, X):
        """Quadratic discriminant scores (log-posterior up to a constant).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,) or (n_samples, n_classes)
            In the binary case, the log-odds of the second class.
        """
        scores = self._joint_scores(X)
        if scores.shape[1] == 2:
            return scores[:, 1] - scores[:, 0]
        return scores

    def predict(self, X):
        """Class of largest posterior probability.

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        scores = self._joint_scores(X)
        return self.classes_[np.argmax(scores, axis=1)]

    def predict_log_proba(self, X):
        """Log of the posterior class probabilities.

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
        """
        scores = self._joint_scores(X)
        top = scores.max(axis=1, keepdims=True)
        scores -= top
        total = np.log(np.exp(scores).sum(axis=1, keepdims=True))
        scores -= total
        return scores

    def predict_proba(self, X):
        """Posterior class probabilities.

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
        """
        return np.exp(self.predict_log_proba(X))
