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

from numbers import Real

import numpy as np
import scipy.sparse as sp

from ..utils._params import Interval
from ..utils.validation import check_is_fitted, validate_data
from ._discrete import DiscreteNB, class_feature_sums, linear_scores

__all__ = ["BernoulliNB"]


class BernoulliNB(DiscreteNB):
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
        **DiscreteNB._parameter_constraints,
        "binarize": [None, Interval(Real, None, None, closed="neither")],
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
        return tags

    def _check_classes(self, classes):
        if len(classes) < 2:
            raise ValueError(
                "BernoulliNB needs samples of at least 2 classes, but the data contains only "
                f"one class: {classes[0]!r}."
            )

    def _check_X_y(self, X, y, reset):
        return validate_data(self, X, y, dtype=np.float64, accept_sparse=True, reset=reset)

    def _init_counters(self, n_features):
        n_classes = len(self.classes_)
        self.class_count_ = np.zeros(n_classes)
        self.feature_count_ = np.zeros((n_classes, n_features))

    def _count(self, X, y_index, weight):
        n_classes = len(self.classes_)
        sums, _ = class_feature_sums(self._binarized(X), y_index, weight, n_classes)
        self.feature_count_ += sums
        self.class_count_ += np.bincount(y_index, weights=weight, minlength=n_classes)

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

    def _update_feature_log_prob(self, alpha):
        with np.errstate(divide="ignore", invalid="ignore"):
            num = self.feature_count_ + alpha
            den = self.class_count_[:, None] + 2.0 * alpha
            self.feature_log_prob_ = np.log(num) - np.log(den)
            neg = np.log(den - num) - np.log(den)
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
            return linear_scores(Xb, self.coef_) + self.intercept_
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
