"""Bernoulli naive Bayes (seed 004, "case of binary variables").

Features are binary (or binarised at ``binarize``) and independent given the
class: p(x | C_k) = prod_i π_ki^x_i (1 - π_ki)^(1 - x_i), with

    π_ki = (n_ki + α) / (N_k + 2α),    p(C_k) = N_k / N,

where N_k counts class k and n_ki those of its samples with x_i = 1 (α = 0
gives the seed's maximum-likelihood estimates). The log-posterior

    y_k(x) = Σ_i [x_i log π_ki + (1 - x_i) log(1 - π_ki)] + log p(C_k)
           = x · log(π_k / (1 - π_k)) + Σ_i log(1 - π_ki) + log p(C_k)

is linear in x, so the class boundaries are hyperplanes (seed 004).
"""

import warnings
from numbers import Real

import numpy as np
import scipy.sparse as sp

from ..base import BaseEstimator, ClassifierMixin
from ..utils._params import Interval
from ..utils._targets import check_classification_targets
from ..utils.validation import check_is_fitted, check_sample_weight, column_or_1d, validate_data
from ._posterior import PosteriorMixin

__all__ = ["BernoulliNB"]

_ALPHA_MIN = 1e-10


class BernoulliNB(PosteriorMixin, ClassifierMixin, BaseEstimator):
    """Naive Bayes for binary features.

    Parameters
    ----------
    alpha : float or array-like of shape (n_features,), default=1.0
        Additive (Laplace / Lidstone) smoothing; 0 gives the raw frequencies.
    force_alpha : bool, default=True
        If False, an alpha below 1e-10 is raised to 1e-10 (with a warning).
    binarize : float or None, default=0.0
        Threshold: a feature is 1 when it is greater than ``binarize``. None
        means X is already binary.
    fit_prior : bool, default=True
        Learn the class priors; if False use a uniform prior.
    class_prior : array-like of shape (n_classes,), default=None
        Fixed class priors.

    Attributes
    ----------
    class_count_ : ndarray of shape (n_classes,)
        Weighted number of samples per class.
    class_log_prior_ : ndarray of shape (n_classes,)
    classes_ : ndarray of shape (n_classes,)
    feature_count_ : ndarray of shape (n_classes, n_features)
        Weighted number of samples of each class with each feature equal to 1.
    feature_log_prob_ : ndarray of shape (n_classes, n_features)
        log π_ki.
    coef_ : ndarray of shape (n_classes, n_features)
        Weights of the linear decision function, log(π_ki / (1 - π_ki)).
    intercept_ : ndarray of shape (n_classes,)
        Σ_i log(1 - π_ki) + log p(C_k).
    n_features_in_ : int
    feature_names_in_ : ndarray of str

    See Also
    --------
    GaussianNB, KernelDensityNB

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[1, 0, 1], [1, 1, 1], [0, 0, 1], [0, 1, 0]])
    >>> clf = BernoulliNB().fit(X, [0, 0, 1, 1])
    >>> clf.predict([[1, 0, 1]]).tolist()
    [0]
    """

    _parameter_constraints = {
        "alpha": [Interval(Real, 0, None, closed="left"), "array-like"],
        "force_alpha": ["boolean"],
        "binarize": [None, Interval(Real, None, None, closed="neither")],
        "fit_prior": ["boolean"],
        "class_prior": ["array-like", None],
    }

    def __init__(
        self, *, alpha=1.0, force_alpha=True, binarize=0.0, fit_prior=True, class_prior=None
    ):
        self.alpha = alpha
        self.force_alpha = force_alpha
        self.binarize = binarize
        self.fit_prior = fit_prior
        self.class_prior = class_prior

    def __classiclearn_tags__(self):
        tags = super().__classiclearn_tags__()
        tags.sparse = True
        tags.poor_score = True  # binarising the generic check data at 0 loses the classes
        return tags

    # ----------------------------------------------------------------- fitting
    def fit(self, X, y, sample_weight=None):
        """Count the ones of each feature in each class.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
        sample_weight : array-like of shape (n_samples,), default=None
            Weights acting as repetition counts.

        Returns
        -------
        self
        """
        self._validate_params()
        X, y = validate_data(self, X, y, dtype=np.float64, accept_sparse=True)
        y = column_or_1d(y)
        check_classification_targets(y)
        self.classes_ = np.unique(y)
        if len(self.classes_) < 2:
            raise ValueError(
                "BernoulliNB needs samples of at least 2 classes, but the data contains only "
                f"one class: {self.classes_[0]!r}."
            )
        self._reset_counts(X.shape[1])
        return self._update(X, y, sample_weight)

    def partial_fit(self, X, y, classes=None, sample_weight=None):
        """Add a batch of samples to the counts.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
        classes : array-like of shape (n_classes,), default=None
            All the classes; required on the first call only.
        sample_weight : array-like of shape (n_samples,), default=None

        Returns
        -------
        self
        """
        first = not hasattr(self, "classes_")
        if first:
            self._validate_params()
            if classes is None:
                raise ValueError("classes must be passed on the first call to partial_fit.")
        X, y = validate_data(self, X, y, dtype=np.float64, accept_sparse=True, reset=first)
        y = column_or_1d(y)
        check_classification_targets(y)
        if first:
            self.classes_ = np.unique(np.asarray(classes))
            self._reset_counts(X.shape[1])
        elif classes is not None and not np.array_equal(np.unique(classes), self.classes_):
            raise ValueError(
                f"classes={np.unique(classes)!r} is not the same as on the first call to "
                f"partial_fit, which was {self.classes_!r}."
            )
        return self._update(X, y, sample_weight)

    def _reset_counts(self, n_features):
        n_classes = len(self.classes_)
        self.class_count_ = np.zeros(n_classes)
        self.feature_count_ = np.zeros((n_classes, n_features))

    def _update(self, X, y, sample_weight):
        weight = check_sample_weight(sample_weight, X, dtype=np.float64)
        y_index = np.searchsorted(self.classes_, y)
        y_index = np.clip(y_index, 0, len(self.classes_) - 1)
        unknown = self.classes_[y_index] != y
        if unknown.any():
            raise ValueError(
                f"The target label(s) {np.unique(y[unknown])!r} in y do not exist in the "
                f"initial classes {self.classes_!r}."
            )
        Xb = self._binarized(X)
        n_classes = len(self.classes_)
        Y = np.zeros((X.shape[0], n_classes))
        Y[np.arange(X.shape[0]), y_index] = weight
        self.feature_count_ += np.asarray(Xb.T @ Y).T
        self.class_count_ += Y.sum(axis=0)
        self._set_log_probabilities()
        return self

    def _binarized(self, X):
        if self.binarize is None:
            return X
        if sp.issparse(X):
            if self.binarize < 0:
                raise ValueError("Cannot binarize a sparse matrix with threshold < 0")
            Xb = X.copy()
            Xb.data = (Xb.data > self.binarize).astype(np.float64)
            Xb.eliminate_zeros()
            return Xb
        return (X > self.binarize).astype(np.float64)

    def _alpha(self, n_features):
        alpha = np.asarray(self.alpha, dtype=np.float64)
        if alpha.ndim > 0 and alpha.shape != (n_features,):
            raise ValueError(
                f"When alpha is an array, it should contain `n_features`. Got {alpha.shape[0]} "
                f"elements instead of {n_features}."
            )
        if np.any(alpha < 0):
            raise ValueError("All values in alpha must be greater than 0.")
        if np.min(alpha) < _ALPHA_MIN and not self.force_alpha:
            warnings.warn(
                f"alpha too small will result in numeric errors, setting alpha = {_ALPHA_MIN:.1e}"
                ". Use `force_alpha=True` to keep alpha unchanged.",
                UserWarning,
                stacklevel=4,
            )
            alpha = np.maximum(alpha, _ALPHA_MIN)
        return alpha

    def _set_log_probabilities(self):
        n_classes, n_features = self.feature_count_.shape
        alpha = self._alpha(n_features)
        with np.errstate(divide="ignore", invalid="ignore"):
            num = self.feature_count_ + alpha
            den = self.class_count_[:, None] + 2.0 * alpha
            self.feature_log_prob_ = np.log(num) - np.log(den)
            neg = np.log(den - num) - np.log(den)
        if self.class_prior is not None:
            prior = np.asarray(self.class_prior, dtype=np.float64).ravel()
            if prior.shape != (n_classes,):
                raise ValueError("Number of priors must match number of classes.")
            with np.errstate(divide="ignore"):
                self.class_log_prior_ = np.log(prior)
        elif self.fit_prior:
            with np.errstate(divide="ignore"):
                self.class_log_prior_ = np.log(self.class_count_) - np.log(
                    self.class_count_.sum()
                )
        else:
            self.class_log_prior_ = np.full(n_classes, -np.log(n_classes))
        with np.errstate(invalid="ignore"):
            self.coef_ = self.feature_log_prob_ - neg
            self.intercept_ = neg.sum(axis=1) + self.class_log_prior_
        self._neg_log_prob = neg

    # -------------------------------------------------------------- prediction
    def predict_joint_log_proba(self, X):
        """log p(x, C_k) for each sample and class: ``X_binary @ coef_.T + intercept_``.

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
        """
        check_is_fitted(self)
        X = validate_data(self, X, reset=False, dtype=np.float64, accept_sparse=True)
        Xb = self._binarized(X)
        if np.isfinite(self.coef_).all():
            return np.asarray(Xb @ self.coef_.T) + self.intercept_
        # alpha = 0 with a frequency of 0 or 1: sum the two terms separately so that
        # 0 * log 0 counts as 0
        ones = _masked_dot(Xb, self.feature_log_prob_)
        zeros = _masked_dot(_complement(Xb), self._neg_log_prob)
        return ones + zeros + self.class_log_prior_


def _complement(Xb):
    dense = Xb.toarray() if sp.issparse(Xb) else Xb
    return 1.0 - dense


def _masked_dot(A, log_p):
    """Σ_i A[:, i] * log_p[k, i], with 0 * (-inf) taken as 0."""
    A = A.toarray() if sp.issparse(A) else A
    out = np.zeros((A.shape[0], log_p.shape[0]))
    for k in range(log_p.shape[0]):
        lp = log_p[k]
        finite = np.isfinite(lp)
        out[:, k] = A[:, finite] @ lp[finite]
        if (~finite).any():
            hit = (A[:, ~finite] != 0).any(axis=1)
            out[hit, k] = -np.inf
    return out
