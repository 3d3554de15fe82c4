"""Linear discriminant analysis (seed 000 §10.2 and §13.2, seeds 002-003).

Every class is a normal law N(m_k, Σ) with one covariance Σ shared by all
classes, so the log-posterior is linear in x:

    δ_k(x) = x^T Σ^{-1} m_k - ½ m_k^T Σ^{-1} m_k + log π_k.

The same model gives Fisher's supervised projection (seed 002): the directions
w maximising w^T S_B w / w^T S_W w, at most K - 1 of them, where S_W is the
within-class and S_B the between-class scatter.

Solvers, as scikit-learn's:

- ``"svd"``: whiten the within-class residuals, then an SVD of the K whitened
  class means. The whitening comes from the p x p within-class scatter and a
  symmetric eigendecomposition (O(n p²) in BLAS matrix products) instead of
  an SVD of the n x p residual matrix; when the scatter is ill-conditioned
  (eigenvalues too small to be resolved from the squared singular values) the
  fit falls back to the SVD of the residuals, so the answer is the same.
- ``"lsqr"``: coefficients Σ^{-1} m_k by a Cholesky solve (least squares when
  Σ is singular); supports shrinkage.
- ``"eigen"``: the generalised eigenproblem S_B w = λ S_W w; supports
  shrinkage and ``transform``.
"""

import warnings
from numbers import Integral, Real

import numpy as np
from scipy import linalg
from scipy.linalg import lapack
from scipy.linalg.blas import dgemm
from scipy.special import expit

from .._kernels.gram import row_gram_upper
from .._kernels.work import EIGH_THREADED_ORDER
from ..base import BaseEstimator, ClassifierMixin, TransformerMixin
from ..utils._dask import (
    DaskUnsupportedError,
    dask_blocks,
    fit_one_block_in_memory,
    record_input_features,
    reduce_blocks,
)
from ..utils._linear import LinearClassifierMixin
from ..utils._params import HasMethods, Interval, StrOptions
from ..utils._targets import encode_labels
from ..utils._threads import small_lapack, svd_threads
from ..utils.validation import (
    cast_float_attributes,
    check_array,
    check_is_fitted,
    column_or_1d,
    input_float_dtype,
    output_in_dtype,
    power_of_two_unit,
    validate_data,
)
from . import _scatter

__all__ = ["LinearDiscriminantAnalysis"]


class LinearDiscriminantAnalysis(LinearClassifierMixin, ClassifierMixin, TransformerMixin,
                                 BaseEstimator):
    """Linear discriminant analysis: classifier and Fisher projection.

    Parameters
    ----------
    solver : {"svd", "lsqr", "eigen"}, default="svd"
        ``"svd"`` needs no covariance matrix and handles collinear features;
        ``"lsqr"`` and ``"eigen"`` accept ``shrinkage``; ``"lsqr"`` has no
        ``transform``.
    shrinkage : "auto", float in [0, 1] or None, default=None
        Shrinkage of the covariance towards a multiple of the identity;
        ``"auto"`` picks the Ledoit-Wolf intensity (per class, on
        standardised features). Not with ``solver="svd"``.
    priors : array-like of shape (n_classes,), default=None
        Class priors (renormalised with a warning if they do not sum to 1);
        by default the class frequencies.
    n_components : int, default=None
        Number of Fisher directions kept by ``transform`` (at most
        ``min(n_classes - 1, n_features)``).
    store_covariance : bool, default=False
        Store ``covariance_`` also with the svd solver.
    tol : float, default=1e-4
        Singular values of the whitened residuals below ``tol`` count as zero
        (svd solver): collinear directions are dropped.
    covariance_estimator : object with ``fit`` and ``covariance_``, default=None
        Estimates each class covariance instead of the empirical one
        (``lsqr`` and ``eigen`` solvers).
    covariance_estimate : {"biased", "unbiased"}, default="biased"
        The within-class covariance Σ of the model. ``"biased"`` is
        scikit-learn's: Σ_k π_k S_k with S_k = (1/n_k) Σ_{y_i=k} (x_i - μ_k)(x_i - μ_k)^T
        for ``lsqr`` / ``eigen`` (the pooled (1/n) Σ_k Σ_{y_i=k} (...) when the
        priors are the class frequencies); the ``svd`` solver always whitens
        with the pooled (1/n) estimate. ``"unbiased"`` is the pooled estimate of
        seed 003, Σ = 1/(n - K) Σ_k Σ_{y_i=k} (x_i - μ_k)(x_i - μ_k)^T, for every
        solver and whatever the priors (which then enter only as log π_k);
        ``eigen`` keeps the between-class covariance Σ_k (n_k/n) (μ_k - μ)(μ_k - μ)^T.
        Not with ``shrinkage`` or ``covariance_estimator``.

    Attributes
    ----------
    coef_ : ndarray of shape (n_features,) or (n_classes, n_features)
        Weights of the linear decision function (one row in the binary case).
    intercept_ : ndarray of shape (n_classes,) or (1,)
    covariance_ : ndarray of shape (n_features, n_features)
        Within-class covariance Σ (see ``covariance_estimate``).
    explained_variance_ratio_ : ndarray of shape (n_components,)
        Share of the between-class variance along each Fisher direction.
    means_ : ndarray of shape (n_classes, n_features)
    priors_ : ndarray of shape (n_classes,)
    scalings_ : ndarray of shape (rank, rank) or (n_features, n_components)
        The projection matrix of ``transform``.
    xbar_ : ndarray of shape (n_features,)
        Prior-weighted grand mean (svd solver).
    classes_ : ndarray of shape (n_classes,)
    n_features_in_ : int
    feature_names_in_ : ndarray of str

    See Also
    --------
    QuadraticDiscriminantAnalysis : one covariance per class.

    Notes
    -----
    Collinear features: the svd solver drops the null directions; with
    ``lsqr`` the least-squares (minimum-norm) solution is used; with
    ``eigen`` a singular within-class covariance gets a small ridge, with a
    warning in both cases.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[-1, -1], [-2, -1], [-3, -2], [1, 1], [2, 1], [3, 2]])
    >>> clf = LinearDiscriminantAnalysis().fit(X, [1, 1, 1, 2, 2, 2])
    >>> clf.predict([[-0.8, -1]]).tolist()
    [1]
    """

    _parameter_constraints = {
        "solver": [StrOptions({"svd", "lsqr", "eigen"})],
        "shrinkage": [StrOptions({"auto"}), Interval(Real, 0, 1, closed="both"), None],
        "priors": ["array-like", None],
        "n_components": [Interval(Integral, 1, None, closed="left"), None],
        "store_covariance": ["boolean"],
        "tol": [Interval(Real, 0, None, closed="left")],
        "covariance_estimator": [HasMethods("fit"), None],
        "covariance_estimate": [StrOptions({"biased", "unbiased"})],
    }

    def __init__(
        self,
        solver="svd",
        shrinkage=None,
        priors=None,
        n_components=None,
        store_covariance=False,
        tol=1e-4,
        covariance_estimator=None,
        covariance_estimate="biased",
    ):
        self.solver = solver
        self.shrinkage = shrinkage
        self.priors = priors
        self.n_components = n_components
        self.store_covariance = store_covariance
        self.tol = tol
        self.covariance_estimator = covariance_estimator
        self.covariance_estimate = covariance_estimate

    def fit(self, X, y):
        """Fit the class means, the shared covariance and the projection.

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
        X, y = validate_data(self, X, y, ensure_min_samples=2, dtype=np.float64)
        # values near 1e300 or 1e-300: fit X divided by a power of two (exact, the
        # same classifier) so that the scatter matrices stay representable
        unit = power_of_two_unit(X)
        if unit != 1.0:
            X = X / unit
        self.classes_, y_index = encode_labels(y)
        n_samples, n_features = X.shape
        counts = np.bincount(y_index, minlength=len(self.classes_))
        self._check_fit_settings(n_samples, n_features, counts)
        if self._residual_svd_only(n_samples, n_features):
            # no more rows than features: the SVD of the residuals alone, no p x p scatter
            counts, means = _scatter.class_counts_means(X, y_index, len(self.classes_))
            scatter = None
        else:
            # per-class scatter matrices are needed only for shrinkage or custom priors
            counts, means, scatter = _scatter.class_statistics(
                X, y_index, len(self.classes_), per_class=self._per_class_scatter()
            )
        with small_lapack(X.shape[1]):  # p x p solves, and products with p columns
            self._fit_statistics(X, y_index, counts, means, scatter)
        if unit != 1.0:
            self._to_data_units(np.float64(unit))
        # float32 input: scikit-learn keeps the whole svd model in float32, and
        # only the priors and means with the eigen and lsqr solvers
        float32_names = ("priors_", "means_")
        if self.solver == "svd":
            float32_names += ("xbar_", "explained_variance_ratio_", "scalings_", "coef_",
                              "intercept_")
        cast_float_attributes(self, dtype, float32_names)
        return self

    def _fit_dask(self, X, y):
        """Exact fit on Dask input from per-class counts, means and scatter matrices
        merged over the row blocks (no shrinkage or covariance estimator: those need
        the rows again)."""
        self._validate_params()
        if fit_one_block_in_memory(self, X, y) is not None:
            return self
        classes, counts, means, scatter = dask_class_statistics(self, X, y)
        self._check_fit_settings(int(counts.sum()), int(X.shape[1]), counts)
        if not self._per_class_scatter():
            scatter = ((scatter.sum(axis=0) + scatter.sum(axis=0).T) / 2.0)[None]
        return self._fit_statistics(None, None, counts, means, scatter)

    def _residual_svd_only(self, n_samples, n_features):
        """Whether the fit needs no scatter matrix: the SVD solver on no more rows than
        features (the residuals' SVD route; its p x p scatter would cost n p^2 for a
        diagonal), without a stored covariance."""
        return (self.solver == "svd" and n_samples <= n_features
                and not self.store_covariance)

    def _per_class_scatter(self):
        return self.shrinkage is not None or (
            self.priors is not None and (self.solver != "svd" or self.store_covariance)
        )

    def _check_fit_settings(self, n_samples, n_features, counts):
        n_classes = len(counts)
        if n_samples == n_classes:
            raise ValueError("The number of samples must be more than the number of classes.")
        self.priors_ = _check_priors(self.priors, counts)
        max_components = min(n_classes - 1, n_features)
        if self.n_components is not None and self.n_components > max_components:
            raise ValueError(
                f"n_components={self.n_components} cannot be larger than "
                f"min(n_features, n_classes - 1) = {max_components}."
            )
        self._max_components = (
            max_components if self.n_components is None else self.n_components
        )
        if self.solver == "svd":
            if self.shrinkage is not None:
                raise NotImplementedError("shrinkage not supported with 'svd' solver.")
            if self.covariance_estimator is not None:
                raise ValueError(
                    "covariance estimator is not supported with svd solver. "
                    "Try another solver"
                )
        if self.covariance_estimator is not None and self.shrinkage not in (None, 0):
            raise ValueError(
                "covariance_estimator and shrinkage parameters are not None. "
                "Only one of the two can be set."
            )
        if self.covariance_estimate == "unbiased" and (
            self.shrinkage is not None or self.covariance_estimator is not None
        ):
            raise ValueError(
                "covariance_estimate='unbiased' is the pooled sample covariance; it cannot be "
                "combined with shrinkage or covariance_estimator."
            )
        for name in ("covariance_", "xbar_", "explained_variance_ratio_"):
            self.__dict__.pop(name, None)

    def _fit_statistics(self, X, y_index, counts, means, scatter):
        """The fit from per-class counts, means and scatter (X and y_index are used
        only by the SVD fallback and the covariance estimators; None on Dask input)."""
        n_samples, n_classes = int(counts.sum()), len(counts)
        self.means_ = means
        if self.solver == "svd":
            self._solve_svd(X, y_index, counts, scatter)
        else:
            cov, total = self._covariances(X, y_index, counts, scatter)
            between = total - cov
            if self.covariance_estimate == "unbiased":
                pooled = scatter.sum(axis=0)
                between = total - pooled / n_samples
                cov = pooled / (n_samples - n_classes)
            self.covariance_ = cov
            if self.solver == "lsqr":
                self._solve_lsqr()
            else:
                self._solve_eigen(between)
        if n_classes == 2:
            self.coef_ = (self.coef_[1] - self.coef_[0]).reshape(1, -1)
            self.intercept_ = np.array([self.intercept_[1] - self.intercept_[0]])
        self._n_features_out = self._max_components
        return self

    def _to_data_units(self, unit):
        """Attributes of a fit on ``X / unit`` turned into those of X (a
        covariance beyond the floating-point range reads inf, or 0 below it)."""
        self.means_ = self.means_ * unit
        self.coef_ = self.coef_ / unit
        for name in ("xbar_",):
            if hasattr(self, name):
                setattr(self, name, getattr(self, name) * unit)
        if getattr(self, "scalings_", None) is not None:
            self.scalings_ = self.scalings_ / unit
        if getattr(self, "covariance_", None) is not None:
            with np.errstate(over="ignore", under="ignore"):
                self.covariance_ = self.covariance_ * unit * unit

    # ------------------------------------------------------------------ solvers
    def _covariances(self, X, y_index, counts, scatter):
        if self.covariance_estimator is not None:
            from ..base import clone

            covs = []
            for k in range(len(counts)):
                est = clone(self.covariance_estimator).fit(X[y_index == k])
                if not hasattr(est, "covariance_"):
                    raise ValueError(
                        f"{type(est).__name__} does not have a covariance_ attribute"
                    )
                covs.append(np.atleast_2d(est.covariance_))
            est = clone(self.covariance_estimator).fit(X)
            total = np.atleast_2d(est.covariance_)
            covs = np.array(covs)
        else:
            covs, total = _scatter.class_covariances(
                X, y_index, counts, self.means_, scatter, self.shrinkage
            )
            if scatter.shape[0] == 1:  # pooled scatter, class-frequency priors
                return scatter[0] / counts.sum(), total
        cov = _prior_weighted_sum(self.priors_, covs)
        return cov, total

    def _solve_lsqr(self):
        cov = self.covariance_
        coef = _cholesky_solve(cov, self.means_.T)
        if coef is None:
            warnings.warn(
                "The within-class covariance is singular (collinear features); using the "
                "least-squares solution.",
                UserWarning,
                stacklevel=3,
            )
            coef = linalg.lstsq(cov, self.means_.T)[0]
        self.coef_ = coef.T
        self.intercept_ = -0.5 * np.einsum("kj,kj->k", self.means_, self.coef_) + np.log(
            self.priors_
        )

    def _solve_eigen(self, Sb):
        Sw = self.covariance_
        factor = _definite_cholesky(Sw)
        if factor is None:
            ridge = _ridge_for(Sw)
            warnings.warn(
                "The within-class covariance is singular (collinear features); adding "
                f"{ridge:.3g} to its diagonal.",
                UserWarning,
                stacklevel=3,
            )
            Sw = Sw + ridge * np.eye(Sw.shape[0])
            factor = linalg.cholesky(Sw, lower=True, check_finite=False)
        evals, evecs = _generalized_eigh(Sb, factor)
        order = np.argsort(evals)[::-1]
        self.explained_variance_ratio_ = (evals[order] / np.sum(evals))[: self._max_components]
        evecs = evecs[:, order]
        self.scalings_ = evecs
        self.coef_ = (self.means_ @ evecs) @ evecs.T
        self.intercept_ = -0.5 * np.einsum("kj,kj->k", self.means_, self.coef_) + np.log(
            self.priors_
        )

    def _solve_svd(self, X, y_index, counts, scatter):
        n_samples = int(counts.sum())
        n_features = self.means_.shape[1]
        n_classes = len(counts)
        means = self.means_
        if self.store_covariance:
            if scatter.shape[0] == 1:
                self.covariance_ = scatter[0] / n_samples
            else:
                safe = np.maximum(counts, 1)[:, None, None]
                self.covariance_ = _prior_weighted_sum(self.priors_, scatter / safe)
        self.xbar_ = self.priors_ @ means
        Xc = None
        if scatter is None:  # see _residual_svd_only: the diagonal from the residuals
            Xc = X - means[y_index]
            sw_diag = np.einsum("ij,ij->j", Xc, Xc)
        else:
            Sw = scatter.sum(axis=0)
            sw_diag = np.diag(Sw)
        std = np.sqrt(np.maximum(sw_diag, 0.0) / n_samples)
        scale_ref = np.maximum(np.abs(means).max(axis=0), 1.0)
        std[std <= 1e-13 * scale_ref] = 1.0
        scalings = None
        if n_samples > n_features:
            scalings = _whitening_from_scatter(Sw / n_samples / np.outer(std, std), std, self.tol)
        if scalings is None and X is None:
            raise ValueError(
                "The within-class scatter is too ill-conditioned for the covariance route "
                "(collinear features); on Dask input, use solver='eigen' or fit on a sample "
                "in memory."
            )
        if scalings is None:  # from the standardised residuals
            if Xc is None:
                Xc = X - means[y_index]
            Xc /= std
            Xc *= np.sqrt(1.0 / n_samples)
            if n_samples <= n_features:
                scalings = _whitening_from_row_gram(Xc, std, self.tol)
            if scalings is None:
                with svd_threads(*Xc.shape):
                    _, S, Vt = linalg.svd(Xc, full_matrices=False, check_finite=False)
                rank = int(np.sum(S > self.tol))
                scalings = (Vt[:rank] / std).T / S[:rank]
        if self.covariance_estimate == "unbiased":
            # whiten with Σ = Sw / (n - K) instead of Sw / n
            scalings = scalings * np.sqrt((n_samples - n_classes) / n_samples)
            if self.store_covariance:
                self.covariance_ = scatter.sum(axis=0) / (n_samples - n_classes)
        n_dropped = n_features - scalings.shape[1]
        if n_dropped > 0:
            warnings.warn(
                f"Variables are collinear: {n_dropped} direction(s) without within-class "
                f"variance (singular value below tol={self.tol}) were dropped.",
                UserWarning,
                stacklevel=3,
            )
        fac = 1.0 if n_classes == 1 else 1.0 / (n_classes - 1)
        B = (np.sqrt(n_samples * self.priors_ * fac) * (means - self.xbar_).T).T @ scalings
        _, S, Vt = linalg.svd(B, full_matrices=False)
        if self._max_components == 0:
            self.explained_variance_ratio_ = np.empty(0)
        else:
            total = np.sum(S**2)
            ratio = S**2 / total if total > 0 else np.zeros_like(S)
            self.explained_variance_ratio_ = ratio[: self._max_components]
        rank = int(np.sum(S > self.tol * S[0])) if S.size else 0
        self.scalings_ = scalings @ Vt.T[:, :rank]
        coef = (means - self.xbar_) @ self.scalings_
        self.intercept_ = -0.5 * np.sum(coef**2, axis=1) + np.log(self.priors_)
        self.coef_ = coef @ self.scalings_.T
        self.intercept_ -= self.xbar_ @ self.coef_.T

    # ------------------------------------------------------------- prediction
    def transform(self, X):
        """Project X on the Fisher directions (seed 000 §13.2).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples, n_components)
        """
        if self.solver == "lsqr":
            raise NotImplementedError(
                "transform not implemented for 'lsqr' solver (use 'svd' or 'eigen')."
            )
        check_is_fitted(self)
        X_in = X
        X = validate_data(self, X, reset=False, dtype=np.float64)
        W = np.ascontiguousarray(self.scalings_[:, : self._max_components], dtype=np.float64)
        X_new = _scatter.blocked_matmul(X, W)
        if self.solver == "svd":
            X_new -= self.xbar_ @ W
        return output_in_dtype(X_new, X_in, self.scalings_)

    def _linear_product(self, X):
        """``X @ coef_.T`` in row blocks that each stay on one BLAS thread."""
        X64 = np.asarray(X, dtype=np.float64)
        scores = _scatter.blocked_matmul(X64, np.ascontiguousarray(self.coef_.T,
                                                                   dtype=np.float64))
        return output_in_dtype(scores, X, self.coef_)

    def predict_proba(self, X):
        """Posterior class probabilities.

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
        """
        scores = self.decision_function(X)
        if scores.ndim == 1:
            p = expit(scores)
            return np.column_stack([1.0 - p, p])
        scores -= scores.max(axis=1, keepdims=True)
        np.exp(scores, out=scores)
        scores /= scores.sum(axis=1, keepdims=True)
        return scores

    def predict_log_proba(self, X):
        """Log of the posterior class probabilities.

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
        """
        proba = self.predict_proba(X)
        proba[proba == 0.0] = np.finfo(proba.dtype).tiny
        return np.log(proba)

    def get_feature_names_out(self, input_features=None):
        """Output names ``lineardiscriminantanalysis0``, ``...1``, ...

        Returns
        -------
        ndarray of str
        """
        check_is_fitted(self)
        prefix = type(self).__name__.lower()
        return np.asarray([f"{prefix}{i}" for i in range(self._n_features_out)], dtype=object)


def _check_priors(priors, counts):
    n_classes = len(counts)
    if priors is None:
        return counts / float(counts.sum())
    priors = np.asarray(priors, dtype=np.float64).ravel()
    if priors.shape != (n_classes,):
        raise ValueError(f"priors has {priors.size} values, but there are {n_classes} classes.")
    if (priors < 0).any():
        raise ValueError("priors must be non-negative")
    if abs(priors.sum() - 1.0) > 1e-5:
        warnings.warn("The priors do not sum to 1. Renormalizing", UserWarning, stacklevel=3)
        priors = priors / priors.sum()
    return priors


def dask_class_statistics(est, X, y):
    """Classes, per-class counts, means and scatter of Dask input, merged over the
    row blocks; sets the input features and ``classes_`` of ``est``."""
    if est.shrinkage not in (None, 0) or est.covariance_estimator is not None:
        raise DaskUnsupportedError(
            f"{type(est).__name__} on Dask input supports no shrinkage and no "
            "covariance_estimator (they need the rows again); fit on a sample in memory."
        )
    if y is None:
        raise ValueError(f"{type(est).__name__} requires y to be passed, but the target y "
                         "is None.")
    classes, counts, means, scatter = reduce_blocks(
        _block_class_scatter, _merge_class_scatter, dask_blocks(X, y))
    record_input_features(est, X)
    est.classes_ = classes
    return classes, counts, means, scatter


def _block_class_scatter(X, y):
    """(classes, counts, means, per-class centred scatter) of one row block."""
    X = check_array(X, dtype=np.float64, ensure_min_samples=0)
    y = column_or_1d(y)
    classes, y_index = np.unique(y, return_inverse=True)
    counts, means, scatter = (
        _scatter.class_statistics(X, y_index.astype(np.intp), len(classes), per_class=True)
        if X.shape[0] else (np.zeros(0), np.zeros((0, X.shape[1])),
                            np.zeros((0, X.shape[1], X.shape[1]))))
    return classes, counts.astype(np.float64), means, scatter


def _merge_class_scatter(a, b):
    """Merge two blocks' class statistics over the union of their classes (Chan et al.)."""
    classes = np.union1d(a[0], b[0])
    p = a[2].shape[1]

    def expand(part):
        where = np.searchsorted(classes, part[0])
        n, m, S = np.zeros(len(classes)), np.zeros((len(classes), p)), np.zeros((len(classes), p, p))
        n[where], m[where], S[where] = part[1], part[2], part[3]
        return n, m, S

    (na, ma, Sa), (nb, mb, Sb) = expand(a), expand(b)
    total = na + nb
    safe = np.where(total > 0, total, 1.0)
    delta = mb - ma
    means = ma + delta * (nb / safe)[:, None]
    scale = na * nb / safe
    scatter = Sa + Sb + np.einsum("k,ki,kj->kij", scale, delta, delta)
    return classes, total, means, scatter


def _whitening_from_scatter(C, std, tol):
    """First-stage scalings of the svd solver from the standardised scatter C.

    C equals Xs^T Xs for the standardised residuals Xs, so its eigenpairs are
    the squared singular values and right singular vectors of Xs. Returns
    None when some eigenvalue is too small relative to the largest to give
    its singular value accurately (the caller then runs the SVD).
    """
    w, V = linalg.eigh(C, check_finite=False)
    S = _kept_singular_values(w[::-1], tol)
    if S is None:
        return None
    return (V[:, ::-1][:, :S.size].T / std).T / S


def _whitening_from_row_gram(Xs, std, tol):
    """First-stage scalings of the svd solver from the rows' Gram matrix of the
    standardised residuals Xs (n x p, n <= p).

    ``Xs Xs^T`` (n x n) has the squared singular values of Xs as eigenvalues and its
    left singular vectors U as eigenvectors; the right ones are ``Xs^T U / S``. The
    n x n problem costs far less than the SVD of Xs. Returns None as
    :func:`_whitening_from_scatter` does (the caller then runs the SVD).
    """
    n = Xs.shape[0]
    G = row_gram_upper(Xs)
    with small_lapack(n, EIGH_THREADED_ORDER):
        w, U = linalg.eigh(G, lower=False, overwrite_a=True, check_finite=False,
                           driver="evd")
    S = _kept_singular_values(w[::-1], tol)
    if S is None:
        return None
    V = dgemm(1.0, Xs.T, U[:, ::-1][:, :S.size])  # Xs^T U, Fortran (p, rank)
    V /= S * S
    V /= std[:, None]
    return V


def _kept_singular_values(w, tol):
    """The singular values above ``tol`` from the eigenvalues ``w`` (descending) of a
    Gram matrix; None when an eigenvalue is too small against the largest to give its
    singular value to the accuracy that deciding ``S > tol`` needs."""
    w_max = max(w[0], 0.0) if w.size else 0.0
    if w_max <= 0:
        return None
    unsure = (w < 1e-7 * w_max) & (w > (tol / 10.0) ** 2)
    if unsure.any():
        return None
    S = np.sqrt(np.maximum(w, 0.0))
    return S[: int(np.sum(S > tol))]


def _cholesky_solve(A, B):
    """Solve A X = B for symmetric positive definite A; None if A is (nearly) singular."""
    try:
        c, lower = linalg.cho_factor(A, lower=True, check_finite=False)
    except linalg.LinAlgError:
        return None
    d = np.abs(np.diag(c))
    if d.min() <= 1e-7 * d.max():
        return None
    return linalg.cho_solve((c, lower), B, check_finite=False)


def _prior_weighted_sum(priors, mats):
    """``sum_k priors[k] * mats[k]``, added class by class as scikit-learn does (no BLAS
    product: its threads would spin beside the LAPACK calls that follow)."""
    out = priors[0] * mats[0]
    for k in range(1, len(priors)):
        out += priors[k] * mats[k]
    return out


def _definite_cholesky(A):
    """The lower Cholesky factor of the symmetric ``A`` (its strict upper triangle holds
    leftover entries: the consumers read the lower one), or None if ``A`` is not safely
    positive definite (a pivot below 1e-7 of the largest)."""
    try:
        c, _ = linalg.cho_factor(A, lower=True, check_finite=False)
    except linalg.LinAlgError:
        return None
    d = np.abs(np.diag(c))
    return c if d.min() > 1e-7 * d.max() else None


def _generalized_eigh(Sb, L):
    """Eigenpairs of ``Sb v = w Sw v`` (ascending ``w``, ``V' Sw V = I``) from the lower
    Cholesky factor ``L`` of ``Sw``: LAPACK's steps of ``eigh(Sb, Sw)`` (sygvd: reduce to
    the standard problem ``L^-1 Sb L^-T`` by sygst, its divide-and-conquer eigenpairs,
    ``V = L^-T Q``), the same values and vectors, with the factor the conditioning test
    already computed instead of a second one."""
    C, info = lapack.dsygst(Sb, L, itype=1, lower=1)
    if info != 0:
        raise linalg.LinAlgError(f"sygst failed (info={info})")
    w, Q = linalg.eigh(C, lower=True, driver="evd", overwrite_a=True, check_finite=False)
    V = linalg.solve_triangular(L, Q, lower=True, trans="T", overwrite_b=True,
                                check_finite=False)
    return w, V


def _ridge_for(S):
    """A small ridge that makes a positive semi-definite matrix safely definite."""
    scale = np.trace(S) / S.shape[0]
    return max(scale, np.finfo(np.float64).tiny) * 1e-8
