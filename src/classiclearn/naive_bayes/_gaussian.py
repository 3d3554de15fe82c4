"""Gaussian naive Bayes (seed 000 §10.1).

Each class k has a prior P(k) and, per feature j, a normal density with mean
theta_kj and variance sigma²_kj; features are independent given the class, so

    log P(k | x) = log P(k) - ½ Σ_j [log(2π σ²_kj) + (x_j - θ_kj)² / σ²_kj] + const.

``variance`` chooses how the covariance Σ_k = diag(σ²_k1, ..., σ²_kp) of each
class is tied (all are maximum-likelihood estimates, divisor N_k or N, with
weights as repetition counts):

- ``"per_feature"`` (scikit-learn's model): σ²_kj, the variance of feature j
  within class k;
- ``"shared_feature"``: σ²_j = Σ_k N_k σ²_kj / N, the pooled within-class
  variance of feature j, the same in every class; the quadratic terms cancel
  and the decision is linear (a diagonal-covariance LDA);
- ``"per_class"``: the chapter's naive Bayes, Σ_k = σ_k² I with
  σ_k² = Σ_j σ²_kj / p = Σ_{i in k} ||x_i - μ_k||² / (p N_k), so
  log P(k | x) = -||x||²/(2σ_k²) + x·μ_k/σ_k² - ||μ_k||²/(2σ_k²) - p log σ_k
  + log P(k) + const (seed 000 §10.1 writes -log σ_k for the p log σ_k of
  the normal density's ½ log|σ_k² I_p|), a quadratic model;
- ``"scalar"``: Σ_k = σ² I with σ² = Σ_k N_k σ_k² / N, one variance shared
  by all classes and features (§10.1's second case); then
  log P(k | x) = x·μ_k/σ² - ||μ_k||²/(2σ²) + log P(k) + const, linear in x.

``epsilon_`` is added to the variance in every case.
"""

from numbers import Real

import numpy as np

from .._kernels.jit import start_parallel_runtime
from ..base import BaseEstimator, ClassifierMixin
from ..utils._dask import dask_blocks, fit_one_block_in_memory, record_input_features, reduce_blocks
from ..utils._params import Interval, StrOptions
from ..utils._targets import check_classification_targets
from ..utils._threads import parallel_code, threads_for_work
from ..utils.validation import (
    cast_float_attributes,
    check_array,
    check_is_fitted,
    check_sample_weight,
    column_or_1d,
    input_float_dtype,
    output_in_dtype,
    power_of_two_unit,
    squares_out_of_range,
    validate_data,
)
from . import _gaussian_kernels as _k
from ._discrete import class_indices
from ._posterior import PosteriorMixin

__all__ = ["GaussianNB"]


class GaussianNB(PosteriorMixin, ClassifierMixin, BaseEstimator):
    """Gaussian naive Bayes classifier.

    Parameters
    ----------
    priors : array-like of shape (n_classes,), default=None
        Prior probabilities of the classes (in the order of ``classes_``);
        by default the weighted class frequencies.
    var_smoothing : float, default=1e-9
        Fraction of the largest feature variance added to every variance,
        for numerical stability.
    variance : {"per_feature", "shared_feature", "per_class", "scalar"}, \
            default="per_feature"
        How the variances are tied (module docstring): one per class and
        feature (scikit-learn), one per feature pooled over the classes
        (linear decision), one per class for all features (Σ_k = σ_k² I,
        seed 000 §10.1) or one for all classes and features (Σ_k = σ² I,
        linear decision).
    shared_variance : bool, default=False
        The older spelling of ``variance="shared_feature"``: True pools the
        per-feature variances over the classes. Only valid with
        ``variance="per_feature"`` or ``"shared_feature"``.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        Class labels, sorted.
    class_count_ : ndarray of shape (n_classes,)
        Weighted number of training samples per class.
    class_prior_ : ndarray of shape (n_classes,)
        Class probabilities used in the decision.
    theta_ : ndarray of shape (n_classes, n_features)
        Per-class feature means.
    var_ : ndarray of shape (n_classes, n_features)
        Variances used in the decision, tied as ``variance`` says (constant
        along a row for ``"per_class"``, everywhere for ``"scalar"``),
        including ``epsilon_``.
    class_var_ : ndarray of shape (n_classes, n_features)
        Per-class feature variances, before pooling and smoothing.
    epsilon_ : float
        The amount added to the variances.
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        Column names, when X was a DataFrame with string column names.

    See Also
    --------
    classiclearn.discriminant_analysis.LinearDiscriminantAnalysis : full shared covariance.

    Notes
    -----
    ``partial_fit`` merges batches with the exact pairwise update of means and
    sums of squares (Chan, Golub & LeVeque), so fitting in batches equals
    fitting at once. Sample weights act as repetition counts.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[-1.0, -1.0], [-2.0, -1.0], [1.0, 1.0], [2.0, 1.0]])
    >>> clf = GaussianNB().fit(X, [0, 0, 1, 1])
    >>> clf.predict([[-0.8, -1.0]]).tolist()
    [0]
    """

    _parameter_constraints = {
        "priors": ["array-like", None],
        "var_smoothing": [Interval(Real, 0, None, closed="left")],
        "variance": [StrOptions({"per_feature", "shared_feature", "per_class", "scalar"})],
        "shared_variance": ["boolean"],
    }

    def __init__(
        self, *, priors=None, var_smoothing=1e-9, variance="per_feature", shared_variance=False
    ):
        self.priors = priors
        self.var_smoothing = var_smoothing
        self.variance = variance
        self.shared_variance = shared_variance

    def _variance_model(self):
        if not self.shared_variance:
            return self.variance
        if self.variance not in ("per_feature", "shared_feature"):
            raise ValueError(
                f"shared_variance=True pools per-feature variances; it cannot be combined "
                f"with variance={self.variance!r}. Use variance='scalar' alone for one "
                "variance shared by all classes and features."
            )
        return "shared_feature"

    def fit(self, X, y, sample_weight=None):
        """Fit the class means and variances.

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
        self._variance_model()
        X, y = validate_data(self, X, y, dtype=np.float64)
        for name in ("classes_", "class_count_", "theta_", "class_var_", "_theta", "_class_var"):
            self.__dict__.pop(name, None)
        return self._update(X, y, sample_weight, classes=None, first=True, dtype=dtype)

    def partial_fit(self, X, y, classes=None, sample_weight=None):
        """Update the model with a batch of samples.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
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
            self._variance_model()
            if classes is None:
                raise ValueError("classes must be passed on the first call to partial_fit.")
        dtype = input_float_dtype(X) if first else self.theta_.dtype
        X, y = validate_data(self, X, y, dtype=np.float64, reset=first)
        return self._update(X, y, sample_weight, classes=classes, first=first, dtype=dtype)

    def _update(self, X, y, sample_weight, classes, first, dtype=np.float64):
        y = column_or_1d(y)
        check_classification_targets(y)
        weight = check_sample_weight(sample_weight, X, dtype=np.float64)
        if first:
            self.classes_ = np.unique(y) if classes is None else np.unique(np.asarray(classes))
            n_classes, n_features = len(self.classes_), X.shape[1]
            self.class_count_ = np.zeros(n_classes)
            # the moments are kept in units of a power of two (1 unless the first
            # batch has values near 1e300 or 1e-300, whose variances would
            # overflow or underflow): exact, and the same classifier
            self._unit = 1.0
            self._theta = np.zeros((n_classes, n_features))
            self._class_var = np.zeros((n_classes, n_features))
        elif classes is not None and not np.array_equal(np.unique(classes), self.classes_):
            raise ValueError(
                f"classes={np.unique(classes)!r} is not the same as on the first call to "
                f"partial_fit, which was {self.classes_!r}."
            )
        y_index = class_indices(y, self.classes_)
        if first and classes is None and len(self.classes_) < 2:
            raise ValueError(
                "GaussianNB needs samples of at least 2 classes, but the data contains only "
                f"one class: {self.classes_[0]!r}."
            )
        if self._unit != 1.0:
            X = X / self._unit
        start_parallel_runtime()
        with threads_for_work(None, X.size):
            count, mean, m2 = _k.class_weighted_moments(X, y_index, weight, len(self.classes_),
                                                        parallel_code(X.size))
        if first and squares_out_of_range(mean, m2):
            # values near 1e300 or 1e-300: the moments of X divided by a power of
            # two (exact, the same classifier), kept in that unit for later batches
            self._unit = power_of_two_unit(X)
            X = X / self._unit
            with threads_for_work(None, X.size):
                count, mean, m2 = _k.class_weighted_moments(X, y_index, weight,
                                                            len(self.classes_),
                                                            parallel_code(X.size))
        if first:
            # the variance of each feature over all rows, from the class moments
            # (law of total variance): no further pass over X
            self._epsilon = self.var_smoothing * _total_variance(count, mean, m2).max()
        self._merge_moments(count, mean, m2)
        self._set_decision_parameters()
        self._set_public_moments()
        # float32 input: fitted floats in float32, as scikit-learn stores them
        cast_float_attributes(self, dtype, ("theta_", "var_", "class_var_", "class_count_",
                                            "class_prior_", "epsilon_"))
        return self

    def _fit_dask(self, X, y, sample_weight=None):
        """Exact fit on Dask input: per-block class moments (classes found on the
        way), merged in block order."""
        self._validate_params()
        if fit_one_block_in_memory(self, X, y, sample_weight) is not None:
            return self
        if y is None:
            raise ValueError("GaussianNB requires y to be passed, but the target y is None.")
        blocks = dask_blocks(X, y, sample_weight)
        classes, count, mean, m2 = reduce_blocks(_block_class_moments, _merge_class_moments,
                                                 blocks)
        if len(classes) < 2:
            raise ValueError(
                "GaussianNB needs samples of at least 2 classes, but the data contains only "
                f"one class: {classes[0]!r}."
            )
        record_input_features(self, X)
        self.classes_ = classes
        self.class_count_ = np.zeros(len(classes))
        self._unit = 1.0
        self._theta = np.zeros_like(mean)
        self._class_var = np.zeros_like(mean)
        self._epsilon = self.var_smoothing * _total_variance(count, mean, m2).max()
        self._merge_moments(count, mean, m2)
        self._set_decision_parameters()
        self._set_public_moments()
        return self

    def _merge_moments(self, count, mean, m2):
        old_n = self.class_count_[:, None]
        new_n = count[:, None]
        total = old_n + new_n
        safe_total = np.where(total > 0, total, 1.0)
        delta = mean - self._theta
        merged_mean = self._theta + delta * (new_n / safe_total)
        merged_m2 = self._class_var * old_n + m2 + delta**2 * (old_n * new_n / safe_total)
        self._theta = np.where(total > 0, merged_mean, 0.0)
        self._class_var = np.where(total > 0, merged_m2 / safe_total, 0.0)
        self.class_count_ = total[:, 0]

    def _set_decision_parameters(self):
        model = self._variance_model()
        var = self._class_var
        if model in ("per_class", "scalar"):
            var = np.repeat(var.mean(axis=1, keepdims=True), var.shape[1], axis=1)
        if model in ("shared_feature", "scalar"):
            pooled = (var * self.class_count_[:, None]).sum(axis=0) / self.class_count_.sum()
            var = np.tile(pooled, (len(self.classes_), 1))
        self._var = var + self._epsilon
        self.class_prior_ = self._class_prior()

    def _set_public_moments(self):
        """theta_, class_var_, var_ and epsilon_ in the data's units (a variance
        beyond the floating-point range reads inf, or 0 below it)."""
        unit = np.float64(self._unit)
        self.theta_ = self._theta * unit
        with np.errstate(over="ignore", under="ignore"):
            self.class_var_ = self._class_var * unit * unit
            self.var_ = self._var * unit * unit
            self.epsilon_ = float(self._epsilon * unit * unit)

    def _class_prior(self):
        n_classes = len(self.classes_)
        if self.priors is None:
            return self.class_count_ / self.class_count_.sum()
        priors = np.asarray(self.priors, dtype=np.float64)
        if priors.shape != (n_classes,):
            raise ValueError(
                f"priors has {priors.size} values, but there are {n_classes} classes."
            )
        if not np.isclose(priors.sum(), 1.0):
            raise ValueError(f"The sum of the priors should be 1; got {priors.sum()}.")
        if (priors < 0).any():
            raise ValueError("priors must be non-negative.")
        return priors

    def predict_joint_log_proba(self, X):
        """log P(k) + log P(x | k) for each sample and class.

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
        """
        check_is_fitted(self)
        X_in = X
        X = validate_data(self, X, reset=False, dtype=np.float64)
        with np.errstate(divide="ignore"):
            log_prior = np.log(self.class_prior_.astype(np.float64))
        if self._unit != 1.0:
            X = X / self._unit
        start_parallel_runtime()
        with threads_for_work(None, X.size * len(self.classes_)):
            jll = _k.gaussian_joint_log_likelihood(X, self._theta, self._var, log_prior,
                                                   parallel_code(X.size * len(self.classes_)))
        if self._unit != 1.0:  # the densities of X, not of X / unit
            jll -= X.shape[1] * np.log(self._unit)
        if not np.all(np.isfinite(jll) | np.isneginf(log_prior)):  # -inf for a zero prior
            raise ValueError(
                "X contains values too large for the Gaussian log-likelihoods of GaussianNB "
                f"(max |x| = {np.abs(X).max() * self._unit:.3g}); scale the features "
                "(e.g. with StandardScaler)."
            )
        return output_in_dtype(jll, X_in, self.theta_)


def _block_class_moments(X, y, w=None):
    """(classes, weight, mean, squared deviations per class and feature) of one block."""
    X = check_array(X, dtype=np.float64, ensure_min_samples=0)
    y = column_or_1d(y)
    classes = np.unique(y)
    weight = check_sample_weight(w, X, dtype=np.float64)
    start_parallel_runtime()
    count, mean, m2 = _k.class_weighted_moments(X, class_indices(y, classes), weight,
                                                len(classes), parallel_code(X.size))
    return classes, count, mean, m2


def _merge_class_moments(a, b):
    """Merge two blocks' class moments over the union of their classes (Chan et al.)."""
    classes = np.union1d(a[0], b[0])
    n_features = a[2].shape[1]

    def expand(part):
        where = np.searchsorted(classes, part[0])
        count = np.zeros(len(classes))
        mean = np.zeros((len(classes), n_features))
        m2 = np.zeros((len(classes), n_features))
        count[where], mean[where], m2[where] = part[1], part[2], part[3]
        return count, mean, m2

    (na, ma, sa), (nb, mb, sb) = expand(a), expand(b)
    total = (na + nb)[:, None]
    safe = np.where(total > 0, total, 1.0)
    delta = mb - ma
    mean = np.where(total > 0, ma + delta * (nb[:, None] / safe), 0.0)
    m2 = sa + sb + delta**2 * (na[:, None] * nb[:, None] / safe)
    return classes, total[:, 0], mean, m2


def _total_variance(count, mean, m2):
    """Weighted variance of each feature over all rows, from per-class summed
    weights, means and sums of squared deviations."""
    total = count.sum()
    if total <= 0:
        return np.zeros(mean.shape[1])
    grand = (count[:, None] * mean).sum(axis=0) / total
    between = (count[:, None] * (mean - grand) ** 2).sum(axis=0)
    return (m2.sum(axis=0) + between) / total
