"""Multinomial and complement naive Bayes for counts (word counts, tf-idf).

Multinomial: a sample is a bag of N = Σ_j x_j draws from the class's
distribution over features, θ_kj, estimated with additive smoothing

    θ_kj = (N_kj + α_j) / Σ_j' (N_kj' + α_j'),     N_kj = Σ_{i in k} w_i x_ij,

so that, up to a term that is the same for every class,

    log p(x, C_k) = log p(C_k) + Σ_j x_j log θ_kj,

linear in x. Complement (Rennie et al., 2003): each class is scored with the
counts of all *other* classes, which are more plentiful and less skewed by
unbalanced classes: θ~_kj = (Σ_k' N_k'j - N_kj + α_j) / Σ_j' (...), and the
sample goes to the class whose complement explains it worst, the largest
Σ_j x_j w_kj with w_kj = -log θ~_kj (or, with ``norm=True``,
w_kj = log θ~_kj / Σ_j' log θ~_kj').
"""

import numpy as np

from ..utils.validation import check_is_fitted, validate_data
from ._discrete import DiscreteNB, check_non_negative, class_feature_sums, linear_scores

__all__ = ["ComplementNB", "MultinomialNB"]


class _CountsMixin:
    """The two linear models of counts: per-class feature sums, scores X @ W.T."""

    def __classiclearn_tags__(self):
        tags = super().__classiclearn_tags__()
        tags.sparse = True
        tags.positive_only_X = True
        return tags

    def _check_X_y(self, X, y, reset):
        return validate_data(self, X, y, dtype=np.float64, accept_sparse=True, reset=reset)

    def _check_X(self, X):
        check_is_fitted(self)
        return validate_data(self, X, reset=False, dtype=np.float64, accept_sparse=True)

    def _init_counters(self, n_features):
        n_classes = len(self.classes_)
        self.class_count_ = np.zeros(n_classes)
        self.feature_count_ = np.zeros((n_classes, n_features))

    def _count(self, X, y_index, weight):
        sums, smallest = class_feature_sums(X, y_index, weight, len(self.classes_))
        check_non_negative(smallest, f"{type(self).__name__} (input X)")
        self.feature_count_ += sums
        self.class_count_ += np.bincount(y_index, weights=weight, minlength=len(self.classes_))


class MultinomialNB(_CountsMixin, DiscreteNB):
    """Naive Bayes for counts under a multinomial model.

    Parameters
    ----------
    alpha : float or array-like of shape (n_features,), default=1.0
        Additive (Laplace / Lidstone) smoothing; 0 gives the raw frequencies.
    force_alpha : bool, default=True
        If False, an alpha below 1e-10 is raised to 1e-10 (with a warning).
    fit_prior : bool, default=True
        Learn the class priors; if False use a uniform prior.
    class_prior : array-like of shape (n_classes,), default=None
        Fixed class priors.

    Attributes
    ----------
    class_count_ : ndarray of shape (n_classes,)
        Weighted number of samples per class.
    class_log_prior_ : ndarray of shape (n_classes,)
        Log of the class priors used in the decision.
    classes_ : ndarray of shape (n_classes,)
    feature_count_ : ndarray of shape (n_classes, n_features)
        Weighted sum of each feature over the samples of each class, N_kj.
    feature_log_prob_ : ndarray of shape (n_classes, n_features)
        log θ_kj, the smoothed log-probability of each feature given the class.
    n_features_in_ : int
    feature_names_in_ : ndarray of str

    See Also
    --------
    ComplementNB, BernoulliNB, CategoricalNB

    Notes
    -----
    log p(x, C_k) = log p(C_k) + Σ_j x_j log θ_kj with
    θ_kj = (N_kj + α_j) / Σ_j' (N_kj' + α_j'). X may be a scipy sparse matrix
    or array: the counts and the scores are sparse products.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[3, 0, 1], [2, 1, 0], [0, 2, 3], [1, 0, 4]])
    >>> clf = MultinomialNB().fit(X, [0, 0, 1, 1])
    >>> clf.predict([[4, 0, 0], [0, 1, 5]]).tolist()
    [0, 1]
    """

    def __init__(self, *, alpha=1.0, force_alpha=True, fit_prior=True, class_prior=None):
        self.alpha = alpha
        self.force_alpha = force_alpha
        self.fit_prior = fit_prior
        self.class_prior = class_prior

    def _update_feature_log_prob(self, alpha):
        smoothed = self.feature_count_ + alpha
        with np.errstate(divide="ignore", invalid="ignore"):
            self.feature_log_prob_ = np.log(smoothed) - np.log(smoothed.sum(axis=1))[:, None]

    def predict_joint_log_proba(self, X):
        """log p(x, C_k) up to a class-independent term: ``X @ feature_log_prob_.T + prior``.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
        """
        X = self._check_X(X)
        return linear_scores(X, self.feature_log_prob_) + self.class_log_prior_


class ComplementNB(_CountsMixin, DiscreteNB):
    """Complement naive Bayes (Rennie et al., 2003), suited to unbalanced text classes.

    Parameters
    ----------
    alpha : float or array-like of shape (n_features,), default=1.0
        Additive smoothing of the complement counts.
    force_alpha : bool, default=True
        If False, an alpha below 1e-10 is raised to 1e-10 (with a warning).
    fit_prior : bool, default=True
        Only used when the training set holds a single class.
    class_prior : array-like of shape (n_classes,), default=None
        Only used when the training set holds a single class.
    norm : bool, default=False
        Normalise each class's weights by their sum (the paper's second step).

    Attributes
    ----------
    class_count_ : ndarray of shape (n_classes,)
    class_log_prior_ : ndarray of shape (n_classes,)
        Only used when the training set holds a single class.
    classes_ : ndarray of shape (n_classes,)
    feature_all_ : ndarray of shape (n_features,)
        Σ_k N_kj, the weighted sum of each feature over all samples.
    feature_count_ : ndarray of shape (n_classes, n_features)
        N_kj, the weighted sum of each feature over the samples of each class.
    feature_log_prob_ : ndarray of shape (n_classes, n_features)
        The weights w_kj of the class scores (see Notes).
    n_features_in_ : int
    feature_names_in_ : ndarray of str

    See Also
    --------
    MultinomialNB

    Notes
    -----
    θ~_kj = (Σ_k' N_k'j - N_kj + α_j) / Σ_j' (Σ_k' N_k'j' - N_kj' + α_j');
    w_kj = -log θ~_kj, or log θ~_kj / Σ_j' log θ~_kj' with ``norm=True``;
    a sample goes to the class with the largest x · w_k.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[3, 0, 1], [2, 1, 0], [0, 2, 3], [1, 0, 4]])
    >>> clf = ComplementNB().fit(X, [0, 0, 1, 1])
    >>> clf.predict([[4, 0, 0], [0, 1, 5]]).tolist()
    [0, 1]
    """

    _parameter_constraints = {**DiscreteNB._parameter_constraints, "norm": ["boolean"]}

    def __init__(
        self, *, alpha=1.0, force_alpha=True, fit_prior=True, class_prior=None, norm=False
    ):
        self.alpha = alpha
        self.force_alpha = force_alpha
        self.fit_prior = fit_prior
        self.class_prior = class_prior
        self.norm = norm

    def _init_counters(self, n_features):
        super()._init_counters(n_features)
        self.feature_all_ = np.zeros(n_features)

    def _count(self, X, y_index, weight):
        super()._count(X, y_index, weight)
        self.feature_all_ = self.feature_count_.sum(axis=0)

    def _update_feature_log_prob(self, alpha):
        complement = self.feature_all_ + alpha - self.feature_count_
        with np.errstate(divide="ignore", invalid="ignore"):
            logged = np.log(complement / complement.sum(axis=1, keepdims=True))
            if self.norm:
                self.feature_log_prob_ = logged / logged.sum(axis=1, keepdims=True)
            else:
                self.feature_log_prob_ = -logged

    def predict_joint_log_proba(self, X):
        """Class scores ``X @ feature_log_prob_.T`` (plus the prior with a single class).

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
        """
        X = self._check_X(X)
        scores = linear_scores(X, self.feature_log_prob_)
        if len(self.classes_) == 1:
            scores += self.class_log_prior_
        return scores
