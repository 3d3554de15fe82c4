"""Categorical naive Bayes: each feature takes one of n_j categories 0, ..., n_j - 1.

Given the class, the features are independent categorical variables with

    P(x_j = c | C_k) = (N_kjc + α) / (N_k + α n_j),

where N_kjc is the weighted number of samples of class k whose feature j is c
and N_k = Σ_c N_kjc; then log p(x, C_k) = log p(C_k) + Σ_j log P(x_j | C_k).
"""

from numbers import Integral, Real

import numpy as np

from ..utils._params import Interval
from ..utils._threads import threads_for_work
from ..utils.validation import check_is_fitted, validate_data
from . import _count_kernels as _k
from ._discrete import DiscreteNB, check_non_negative

__all__ = ["CategoricalNB"]


class CategoricalNB(DiscreteNB):
    """Naive Bayes for categorical features coded as integers 0, ..., n_j - 1.

    Parameters
    ----------
    alpha : float, default=1.0
        Additive (Laplace / Lidstone) smoothing; 0 gives the raw frequencies.
    force_alpha : bool, default=True
        If False, an alpha below 1e-10 is raised to 1e-10 (with a warning).
    fit_prior : bool, default=True
        Learn the class priors; if False use a uniform prior.
    class_prior : array-like of shape (n_classes,), default=None
        Fixed class priors.
    min_categories : int or array-like of shape (n_features,), default=None
        Minimum number of categories of each feature; by default one more
        than the largest value seen in training.

    Attributes
    ----------
    category_count_ : list of n_features ndarrays of shape (n_classes, n_categories_[j])
        Weighted number of samples of each class in each category of feature j.
    class_count_ : ndarray of shape (n_classes,)
    class_log_prior_ : ndarray of shape (n_classes,)
    classes_ : ndarray of shape (n_classes,)
    feature_log_prob_ : list of n_features ndarrays of shape (n_classes, n_categories_[j])
        log P(x_j = c | C_k).
    n_categories_ : ndarray of shape (n_features,), dtype int64
        Number of categories of each feature.
    n_features_in_ : int
    feature_names_in_ : ndarray of str

    See Also
    --------
    MultinomialNB, BernoulliNB

    Notes
    -----
    X is read as integers (floats are truncated, as scikit-learn does) and must
    be dense and non-negative; a category beyond ``n_categories_`` at predict
    time is an error. After ``partial_fit``, ``n_categories_`` counts the
    categories seen in all batches (scikit-learn keeps the last batch's
    count); the probabilities are the same.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0, 1], [0, 2], [1, 0], [2, 0]])
    >>> clf = CategoricalNB().fit(X, [0, 0, 1, 1])
    >>> clf.predict([[0, 2], [2, 0]]).tolist()
    [0, 1]
    >>> clf.n_categories_.tolist()
    [3, 3]
    """

    _parameter_constraints = {
        **DiscreteNB._parameter_constraints,
        "alpha": [Interval(Real, 0, None, closed="left")],
        "min_categories": [None, "array-like", Interval(Integral, 1, None, closed="left")],
    }

    # per-feature category counts grow with the categories each block meets: no
    # distributed fit (Dask input is refused with the reason)
    _fit_dask = None

    def __init__(
        self, *, alpha=1.0, force_alpha=True, fit_prior=True, class_prior=None,
        min_categories=None,
    ):
        self.alpha = alpha
        self.force_alpha = force_alpha
        self.fit_prior = fit_prior
        self.class_prior = class_prior
        self.min_categories = min_categories

    def __classiclearn_tags__(self):
        tags = super().__classiclearn_tags__()
        tags.positive_only_X = True
        return tags

    def _check_X_y(self, X, y, reset):
        X, y = validate_data(self, X, y, dtype=np.float64, reset=reset)
        return self._as_categories(X), y

    def _as_categories(self, X):
        check_non_negative(X.min(initial=0.0), "CategoricalNB (input X)")
        return X.astype(np.intp)

    def _init_counters(self, n_features):
        n_classes = len(self.classes_)
        self.class_count_ = np.zeros(n_classes)
        self.category_count_ = [np.zeros((n_classes, 0)) for _ in range(n_features)]

    def _count(self, X, y_index, weight):
        n_classes = len(self.classes_)
        wanted = self._categories_wanted(X)
        widths = np.maximum(wanted, [c.shape[1] for c in self.category_count_])
        offsets = np.zeros(len(widths) + 1, dtype=np.intp)
        np.cumsum(widths, out=offsets[1:])
        counts = _k.class_category_counts(X, y_index, weight, offsets, n_classes)
        for j, old in enumerate(self.category_count_):
            new = counts[:, offsets[j] : offsets[j + 1]]
            new[:, : old.shape[1]] += old
            self.category_count_[j] = new.copy()
        self.class_count_ += np.bincount(y_index, weights=weight, minlength=n_classes)
        self.n_categories_ = widths.astype(np.int64)

    def _categories_wanted(self, X):
        seen = X.max(axis=0) + 1 if X.shape[0] else np.zeros(X.shape[1], dtype=np.intp)
        if self.min_categories is None:
            return seen
        minimum = np.asarray(self.min_categories)
        if not np.issubdtype(minimum.dtype, np.signedinteger):
            raise ValueError(
                f"'min_categories' should have integral type. Got {minimum.dtype} instead."
            )
        if minimum.ndim > 0 and minimum.shape != seen.shape:
            raise ValueError(
                f"'min_categories' should have shape ({X.shape[1]},) when an array-like is "
                f"provided. Got {minimum.shape} instead."
            )
        return np.maximum(seen, minimum)

    def _update_feature_log_prob(self, alpha):
        log_prob = []
        with np.errstate(divide="ignore", invalid="ignore"):
            for counts in self.category_count_:
                smoothed = counts + alpha
                log_prob.append(np.log(smoothed) - np.log(smoothed.sum(axis=1))[:, None])
        self.feature_log_prob_ = log_prob

    def predict_joint_log_proba(self, X):
        """log p(C_k) + Σ_j log P(x_j | C_k) for each sample and class.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Integer categories, each below ``n_categories_``.

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
        """
        check_is_fitted(self)
        X = self._as_categories(validate_data(self, X, reset=False, dtype=np.float64))
        if X.shape[0]:
            too_big = X.max(axis=0) >= self.n_categories_
            if too_big.any():
                j = int(np.flatnonzero(too_big)[0])
                raise ValueError(
                    f"Feature {j} of X has category {int(X[:, j].max())}, but CategoricalNB "
                    f"was fitted with {self.n_categories_[j]} categories (0 to "
                    f"{self.n_categories_[j] - 1}) for it; set min_categories to cover it."
                )
        offsets = np.zeros(self.n_features_in_ + 1, dtype=np.intp)
        np.cumsum(self.n_categories_, out=offsets[1:])
        flat = np.ascontiguousarray(np.hstack(self.feature_log_prob_))
        with threads_for_work(None, X.size * len(self.classes_)):
            return _k.categorical_joint_log_likelihood(
                X, flat, offsets, np.ascontiguousarray(self.class_log_prior_)
            )
