"""Multiclass strategies from binary classifiers (seed 000 §9.2-9.4).

- One-vs-rest: one binary classifier per class (that class against all the
  others); the class with the largest score wins.
- One-vs-one: one binary classifier per pair of classes, trained on the
  samples of those two classes only; the class winning most matchups wins,
  and a tie is broken by the summed confidences (the seed's footnote).
- Error-correcting output codes: each class gets a random code word of
  length ``code_size * n_classes``; one binary classifier per code bit; a
  sample goes to the class whose code word is nearest (Euclidean) to the
  vector of the binary classifiers' scores.

Each wraps any estimator with ``fit`` and ``decision_function`` or
``predict_proba``, ours or scikit-learn's; ``n_jobs`` fits the binary
problems in threads (numba and BLAS release the GIL), in a fixed order, so
the result does not depend on ``n_jobs``.
"""

import sys
import warnings
from numbers import Integral, Real

import numpy as np

from ._kernels.work import WRAPPER_ENTRIES, WRAPPER_PREDICT_ENTRIES
from ._tags import get_tags
from .base import BaseEstimator, ClassifierMixin, clone, is_classifier, is_regressor
from .utils._available_if import available_if
from .utils._linear import stacked_decision_functions
from .utils._params import HasMethods, Interval
from .utils._random import check_random_state
from .utils._targets import (
    check_classification_targets,
    check_partial_fit_classes,
    type_of_target,
    unique_inverse,
)
from .utils._threads import blas_single_thread, effective_n_jobs, numba_thread_safe, thread_map
from .utils.validation import check_is_fitted, column_or_1d, num_samples, validate_data

__all__ = ["OneVsOneClassifier", "OneVsRestClassifier", "OutputCodeClassifier"]


# --------------------------------------------------------------------------- helpers
def _available_if_estimator_has(attr):
    def check(self):
        if hasattr(self, "estimators_"):
            return all(hasattr(e, attr) for e in self.estimators_)
        return hasattr(self.estimator, attr)

    return available_if(check, "its estimator does not provide it")


class _ConstantPredictor(BaseEstimator):
    """Stands in for a binary classifier when one label is present in every sample."""

    def fit(self, X, y):
        self.y_ = np.asarray(y).ravel()[:1]
        n_features = getattr(X, "shape", (0, None))[1] if hasattr(X, "shape") else None
        if n_features is not None:
            self.n_features_in_ = n_features
        return self

    def predict(self, X):
        return np.repeat(self.y_, num_samples(X))

    def decision_function(self, X):
        return np.repeat(self.y_.astype(float), num_samples(X))

    def predict_proba(self, X):
        y = float(self.y_[0])
        return np.repeat([[1.0 - y, y]], num_samples(X), axis=0)


def _fit_binary(estimator, X, y, fit_params, label=None):
    if y.size == 0 or y.min() == y.max():  # y: 0/1 (or -1/1) integers from the wrapper
        if label is not None:
            warnings.warn(f"Label {label} is present in all training examples.", stacklevel=3)
        return _ConstantPredictor().fit(X, y)
    return clone(estimator).fit(X, y, **fit_params)


def _partial_fit_one(estimator, X, y, classes, params):
    return estimator.partial_fit(X, y, classes=classes, **params)


def _predict_binary(estimator, X, regressor=None):
    """The score of the positive class: decision function, else its probability.

    ``regressor`` (whether the estimator is a regressor) may be given, to spare
    a tag look-up per binary classifier."""
    if regressor is None:
        regressor = is_regressor(estimator)
    if regressor:
        return np.ravel(estimator.predict(X))
    try:
        return np.ravel(estimator.decision_function(X))
    except (AttributeError, NotImplementedError):
        return estimator.predict_proba(X)[:, 1]


def _positive_proba(estimator, X):
    return np.asarray(estimator.predict_proba(X))[:, 1]


def _sklearn_linear_classifier_mixin():
    """scikit-learn's linear-classifier mixin, if scikit-learn is loaded."""
    sk_base = sys.modules.get("sklearn.linear_model._base")
    return getattr(sk_base, "LinearClassifierMixin", None)


def _predict_is_threshold(estimator):
    """Whether a binary ``estimator``'s predict is its decision function's sign:
    ours say so by a tag; scikit-learn's are linear classifiers overriding
    neither method of its mixin."""
    if hasattr(estimator, "__classiclearn_tags__"):
        return get_tags(estimator).linear_decision
    mixin = _sklearn_linear_classifier_mixin()
    cls = type(estimator)
    return mixin is not None and (
        getattr(cls, "predict", None) is mixin.predict
        and getattr(cls, "decision_function", None) is mixin.decision_function
    )


def _threshold(estimator):
    if hasattr(estimator, "decision_function") and is_classifier(estimator):
        return 0.0
    return 0.5


# With n_jobs=None, binary problems of at least this many entries of X are fitted
# in threads when the binary classifier is one of ours (numba kernels and BLAS
# release the GIL); below it, starting threads costs more than it saves.
_AUTO_THREAD_ENTRIES = WRAPPER_ENTRIES


def _auto_threads(estimator, X):
    """Threads for ``n_jobs=None``: all cores for our estimators on large enough
    problems, else one (scikit-learn's meaning of None, e.g. for its estimators)."""
    if not get_tags(estimator).native_kernels:
        return 1
    shape = getattr(X, "shape", None)
    if shape is None or len(shape) != 2 or shape[0] * shape[1] < _AUTO_THREAD_ENTRIES:
        return 1
    return effective_n_jobs(-1) if numba_thread_safe() else 1


def _shared_X(estimator, X):
    """X as the binary classifiers will share it: for our estimators, a float
    array is made C-contiguous once here (their compiled kernels want C order),
    instead of once per binary problem."""
    if (
        get_tags(estimator).native_kernels
        and isinstance(X, np.ndarray)
        and X.ndim == 2
        and X.dtype.kind == "f"
        and not X.flags.c_contiguous
    ):
        return np.ascontiguousarray(X)
    return X


def _predict_run(tasks, n_jobs, X):
    """:func:`_run` for prediction: the binary models' predictions on X share threads
    only when there is enough work (entries of X times models) to pay for starting
    them, whatever ``n_jobs`` asks (the results do not depend on the threads)."""
    shape = getattr(X, "shape", None)
    work = shape[0] * shape[1] * len(tasks) if shape is not None and len(shape) == 2 else 0
    return _run(tasks, n_jobs if work >= WRAPPER_PREDICT_ENTRIES else 1)


def _score_columns(estimators, X, n_jobs, method, *extra):
    """The binary models' scores on checked X as columns: one product for linear
    models of ours (:func:`~classiclearn.utils._linear.stacked_decision_functions`),
    else ``method(estimator, X, *extra)`` per model."""
    stacked = stacked_decision_functions(estimators, X)
    if stacked is not None:
        return stacked
    tasks = [(method, (e, X, *extra)) for e in estimators]
    return np.column_stack(_predict_run(tasks, n_jobs, X))


def _run(tasks, n_jobs, auto=1):
    """Call each ``(fn, args)`` in order, in up to ``n_jobs`` threads (``auto`` if
    n_jobs is None). The results come back in task order whatever the threads."""
    n_threads = auto if n_jobs is None else effective_n_jobs(n_jobs)
    return thread_map(lambda task: task[0](*task[1]), tasks, n_threads)


def _inner_tags(estimator):
    """(sparse, pairwise, allow_nan) of a wrapped estimator, ours or scikit-learn's."""
    tags = get_tags(estimator)
    return tags.sparse, tags.pairwise, tags.allow_nan


# X is checked (shape, feature names) but its dtype is left to the binary classifiers
_X_CHECKS = dict(dtype=None, ensure_all_finite=False, accept_sparse=True, order=None)


_CONSTRAINTS = {
    "estimator": [HasMethods(["fit"])],
    "n_jobs": [Integral, None],
}


class _MulticlassTags:
    def __classiclearn_tags__(self):
        tags = super().__classiclearn_tags__()
        sparse, pairwise, allow_nan = _inner_tags(getattr(self, "estimator", None))
        tags.sparse = sparse
        tags.pairwise = pairwise
        tags.allow_nan = allow_nan
        return tags


# --------------------------------------------------------------------------- one-vs-rest
class OneVsRestClassifier(_MulticlassTags, ClassifierMixin, BaseEstimator):
    """One-vs-rest (one-vs-all) multiclass and multilabel strategy (seed 000 §9.2).

    Parameters
    ----------
    estimator : estimator object
        A binary classifier with ``fit`` and ``decision_function`` or
        ``predict_proba``; cloned once per class.
    n_jobs : int, default=None
        Number of threads fitting and predicting the binary problems
        (-1: all cores).
        None: one thread, except that the binary problems are fitted on all
        cores when the estimator is one of classiclearn's (its kernels release
        the GIL) and X has at least 100,000 entries. Results never depend on it.
    verbose : int, default=0
        Unused; accepted for compatibility.

    Attributes
    ----------
    estimators_ : list of estimators
        One per class (a single one for a binary problem).
    classes_ : ndarray of shape (n_classes,)
    n_classes_ : int
    multilabel_ : bool
        Whether y was a multilabel indicator matrix.
    n_features_in_ : int
    feature_names_in_ : ndarray of str

    See Also
    --------
    OneVsOneClassifier, OutputCodeClassifier

    Examples
    --------
    >>> import numpy as np
    >>> from classiclearn.discriminant_analysis import LinearDiscriminantAnalysis
    >>> X = np.array([[0, 0], [1, .5], [.5, 1], [5, 5], [6, 5.5], [5.5, 6], [9, 0], [10, .5], [9.5, 1]])
    >>> clf = OneVsRestClassifier(LinearDiscriminantAnalysis()).fit(X, [0, 0, 0, 1, 1, 1, 2, 2, 2])
    >>> clf.predict([[5.0, 5.5]]).tolist()
    [1]
    """

    _parameter_constraints = {**_CONSTRAINTS, "verbose": [Integral, "boolean"]}

    def __init__(self, estimator, *, n_jobs=None, verbose=0):
        self.estimator = estimator
        self.n_jobs = n_jobs
        self.verbose = verbose

    def __classiclearn_tags__(self):
        tags = super().__classiclearn_tags__()
        tags.multi_label = True
        return tags

    def fit(self, X, y, **fit_params):
        """Fit one binary classifier per class.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Passed unchanged to the binary classifiers.
        y : array-like of shape (n_samples,) or (n_samples, n_classes)
            Class labels, or a multilabel indicator matrix.
        **fit_params
            Passed to each binary classifier's ``fit``.

        Returns
        -------
        self
        """
        self._validate_params()
        if y is None:
            raise ValueError(
                f"{type(self).__name__} requires y to be passed, but the target y is None."
            )
        X = _shared_X(self.estimator, validate_data(self, X, **_X_CHECKS))
        y_arr = np.asarray(y)
        if y_arr.shape[:1] != X.shape[:1]:
            raise ValueError(
                "Found input variables with inconsistent numbers of samples: "
                f"[{X.shape[0]}, {y_arr.shape[0] if y_arr.ndim else 1}]"
            )
        kind = type_of_target(y_arr)
        if kind == "multilabel-indicator":
            Y = y_arr.astype(np.intp)
            self.classes_ = np.arange(Y.shape[1])
            self._y_type = "multilabel-indicator"
        else:
            y_arr = column_or_1d(y, warn=True)
            check_classification_targets(y_arr)
            self.classes_, y_index = unique_inverse(y_arr)
            if len(self.classes_) == 1:
                raise ValueError(
                    f"{type(self).__name__} needs samples of at least 2 classes, but the "
                    f"data contains only one class: {self.classes_[0]!r}."
                )
            if len(self.classes_) == 2:
                Y = y_index.reshape(-1, 1).astype(np.intp)
            else:
                Y = (y_index[:, None] == np.arange(len(self.classes_))).astype(np.intp)
            self._y_type = "binary" if len(self.classes_) == 2 else "multiclass"
        Y = np.asfortranarray(Y)  # each binary target a contiguous column
        labels = self.classes_ if Y.shape[1] > 1 else self.classes_[1:]
        tasks = [
            (_fit_binary, (self.estimator, X, Y[:, i], fit_params, labels[i]))
            for i in range(Y.shape[1])
        ]
        self.estimators_ = _run(tasks, self.n_jobs, _auto_threads(self.estimator, X))
        return self

    def _partial_fit(self, X, y, classes=None, **partial_fit_params):
        """One ``partial_fit`` call of every binary classifier on a batch.

        As scikit-learn's: the first call needs ``classes`` and clones the
        estimator once per class (once for two classes); each binary classifier
        gets ``partial_fit(X, y == class, classes=[0, 1])``. The estimator must
        have ``partial_fit`` (ours or scikit-learn's).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
            Labels of the batch, all among ``classes``.
        classes : array-like of shape (n_classes,), default=None
            Every class of the whole data; required on the first call.
        **partial_fit_params
            Passed to each binary classifier's ``partial_fit``.

        Returns
        -------
        self
        """
        first_call = not hasattr(self, "estimators_")
        if first_call:
            self._validate_params()
            for attr in ("classes_", "_y_type"):
                if hasattr(self, attr):
                    delattr(self, attr)
        check_partial_fit_classes(self, classes)
        if len(self.classes_) < 2:
            raise ValueError(
                f"{type(self).__name__} needs at least 2 classes, got {self.classes_!r}."
            )
        X = _shared_X(self.estimator, validate_data(self, X, reset=first_call, **_X_CHECKS))
        y = column_or_1d(y)
        if y.shape[0] != X.shape[0]:
            raise ValueError(
                "Found input variables with inconsistent numbers of samples: "
                f"[{X.shape[0]}, {y.shape[0]}]"
            )
        unknown = np.setdiff1d(y, self.classes_)
        if unknown.size:
            raise ValueError(
                f"Mini-batch contains {np.unique(y)} while classes must be subset of "
                f"{self.classes_}"
            )
        n_classes = len(self.classes_)
        if first_call:
            n_estimators = 1 if n_classes == 2 else n_classes
            self.estimators_ = [clone(self.estimator) for _ in range(n_estimators)]
            self._y_type = "binary" if n_classes == 2 else "multiclass"
        positives = self.classes_[1:] if n_classes == 2 else self.classes_
        binary = np.array([0, 1])
        tasks = [
            (_partial_fit_one, (e, X, (y == c).astype(np.intp), binary, partial_fit_params))
            for e, c in zip(self.estimators_, positives)
        ]
        self.estimators_ = _run(tasks, self.n_jobs)
        return self

    partial_fit = _available_if_estimator_has("partial_fit")(_partial_fit)

    @property
    def multilabel_(self):
        """Whether this is a multilabel classifier."""
        return self._y_type.startswith("multilabel")

    @property
    def n_classes_(self):
        """Number of classes."""
        return len(self.classes_)

    def _checked_X(self, X):
        check_is_fitted(self)
        return validate_data(self, X, reset=False, **_X_CHECKS)

    def predict(self, X):
        """Class of largest score (multiclass) or labels above threshold (multilabel).

        Returns
        -------
        ndarray of shape (n_samples,) or (n_samples, n_classes)
        """
        X = self._checked_X(X)
        scores = _score_columns(self.estimators_, X, self.n_jobs, _predict_binary,
                                is_regressor(self.estimator))
        if self._y_type == "multiclass":
            return self.classes_[np.argmax(scores, axis=1)]
        indicator = (scores > _threshold(self.estimators_[0])).astype(np.intp)
        if self._y_type == "binary":
            return self.classes_[indicator[:, 0]]
        return indicator

    def _predict_proba(self, X):
        """Probability of each class (normalised per sample unless multilabel).

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
        """
        X = self._checked_X(X)
        columns = _predict_run([(_positive_proba, (e, X)) for e in self.estimators_],
                               self.n_jobs, X)
        if len(columns) == 1:
            columns = [1.0 - columns[0], columns[0]]
        # classes as contiguous rows (normalised along them), returned transposed
        # in the estimators' float dtype (float32 models give float32, as scikit-learn)
        Yt = np.array(columns, dtype=np.result_type(np.float16, *columns))
        if not self.multilabel_:
            sums = Yt.sum(axis=0)
            sums[sums == 0] = 1.0  # an all-zero row stays zero
            Yt /= sums
        return Yt.T

    def _decision_function(self, X):
        """Score of each class.

        Returns
        -------
        ndarray of shape (n_samples, n_classes), or (n_samples,) when binary
        """
        X = self._checked_X(X)
        if len(self.estimators_) == 1:
            return self.estimators_[0].decision_function(X)
        return _score_columns(self.estimators_, X, self.n_jobs,
                              lambda e, X_: np.ravel(e.decision_function(X_)))

    predict_proba = _available_if_estimator_has("predict_proba")(_predict_proba)
    decision_function = _available_if_estimator_has("decision_function")(_decision_function)


# --------------------------------------------------------------------------- one-vs-one
def ovo_votes_and_confidences(predictions, confidences, n_classes):
    """Votes plus tie-breaking summed confidences, as scikit-learn's OvO / SVC.

    Parameters
    ----------
    predictions : ndarray of shape (n_samples, n_pairs)
        0 if the pair's first class won, 1 if the second did.
    confidences : ndarray of shape (n_samples, n_pairs)
        Signed confidence that the second class of the pair is right.
    n_classes : int

    Returns
    -------
    ndarray of shape (n_samples, n_classes)
        Votes plus ``c / (3 (|c| + 1))`` where c is the summed confidence; the
        added term lies in (-1/3, 1/3) so it only breaks ties between votes.
    """
    first, second = np.triu_indices(n_classes, 1)  # the pairs in estimator order
    n_pairs = len(first)
    to_first = np.zeros((n_pairs, n_classes))
    to_first[np.arange(n_pairs), first] = 1.0
    to_second = np.zeros((n_pairs, n_classes))
    to_second[np.arange(n_pairs), second] = 1.0
    predictions = np.asarray(predictions)
    # integer counts: exact whatever the summation order
    votes = (predictions == 0) @ to_first + (predictions == 1) @ to_second
    summed = np.asarray(confidences, dtype=np.float64) @ (to_second - to_first)
    return votes + summed / (3.0 * (np.abs(summed) + 1.0))


def _fit_pair(estimator, X, y_index, i, j, fit_params, pairwise):
    rows = np.flatnonzero((y_index == i) | (y_index == j))
    y_pair = (y_index[rows] == j).astype(np.intp)
    X_pair = X[rows][:, rows] if pairwise else X[rows]  # a kernel matrix: rows and columns
    return clone(estimator).fit(X_pair, y_pair, **fit_params), rows


class OneVsOneClassifier(_MulticlassTags, ClassifierMixin, BaseEstimator):
    """One-vs-one multiclass strategy (seed 000 §9.3).

    One binary classifier per pair of classes, trained on those two classes'
    samples only. Prediction: the class with the most pairwise wins; ties are
    broken by the summed confidences of the pairwise classifiers.

    Parameters
    ----------
    estimator : estimator object
        A binary classifier with ``fit`` and ``decision_function`` or
        ``predict_proba``.
    n_jobs : int, default=None
        Number of threads for the K (K - 1) / 2 binary problems.
        None: one thread, except that the binary problems are fitted on all
        cores when the estimator is one of classiclearn's (its kernels release
        the GIL) and X has at least 100,000 entries. Results never depend on it.

    Attributes
    ----------
    estimators_ : list of estimators
        In the pair order (0, 1), (0, 2), ..., (K-2, K-1).
    classes_ : ndarray of shape (n_classes,)
    n_classes_ : int
    pairwise_indices_ : list of ndarray or None
        With a pairwise estimator (precomputed kernel), the training rows
        of each pair, used to select the kernel columns at prediction.
    n_features_in_ : int
    feature_names_in_ : ndarray of str

    See Also
    --------
    OneVsRestClassifier, OutputCodeClassifier

    Examples
    --------
    >>> import numpy as np
    >>> from classiclearn.discriminant_analysis import LinearDiscriminantAnalysis
    >>> X = np.array([[0, 0], [1, .5], [.5, 1], [5, 5], [6, 5.5], [5.5, 6], [9, 0], [10, .5], [9.5, 1]])
    >>> clf = OneVsOneClassifier(LinearDiscriminantAnalysis()).fit(X, [0, 0, 0, 1, 1, 1, 2, 2, 2])
    >>> clf.predict([[9.0, 0.5]]).tolist()
    [2]
    """

    _parameter_constraints = dict(_CONSTRAINTS)

    def __init__(self, estimator, *, n_jobs=None):
        self.estimator = estimator
        self.n_jobs = n_jobs

    def fit(self, X, y, **fit_params):
        """Fit one binary classifier per pair of classes.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
        **fit_params
            Passed to each binary classifier's ``fit`` (row-aligned arrays
            are not sliced).

        Returns
        -------
        self
        """
        self._validate_params()
        X, y = validate_data(self, X, y, **_X_CHECKS)
        X = _shared_X(self.estimator, X)
        check_classification_targets(y)
        self.classes_, y_index = unique_inverse(y)
        n_classes = len(self.classes_)
        if n_classes == 1:
            raise ValueError("OneVsOneClassifier can not be fit when only one class is present.")
        pairwise = _inner_tags(self.estimator)[1]
        tasks = [
            (_fit_pair, (self.estimator, X, y_index, i, j, fit_params, pairwise))
            for i in range(n_classes)
            for j in range(i + 1, n_classes)
        ]
        fitted = _run(tasks, self.n_jobs, _auto_threads(self.estimator, X))
        self.estimators_ = [est for est, _ in fitted]
        self.pairwise_indices_ = [rows for _, rows in fitted] if pairwise else None
        return self

    def _partial_fit(self, X, y, classes=None, **partial_fit_params):
        """One ``partial_fit`` call of every pairwise classifier on a batch.

        As scikit-learn's: the first call needs ``classes`` and clones the
        estimator once per pair of classes; the classifier of pair (i, j)
        gets the batch's samples of those two classes (labels 0 for i, 1 for
        j, ``classes=[0, 1]``), and no call when the batch has none. Row-aligned
        arrays in ``partial_fit_params`` (``sample_weight``) are sliced alike.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
        classes : array-like of shape (n_classes,), default=None
            Every class of the whole data; required on the first call.
        **partial_fit_params
            Passed to each pairwise classifier's ``partial_fit``.

        Returns
        -------
        self
        """
        first_call = not hasattr(self, "estimators_")
        if first_call:
            self._validate_params()
            if hasattr(self, "classes_"):
                del self.classes_
        check_partial_fit_classes(self, classes)
        n_classes = len(self.classes_)
        if n_classes < 2:
            raise ValueError("OneVsOneClassifier can not be fit when only one class is present.")
        X, y = validate_data(self, X, y, reset=first_call, **_X_CHECKS)
        X = _shared_X(self.estimator, X)
        check_classification_targets(y)
        unknown = np.setdiff1d(y, self.classes_)
        if unknown.size:
            raise ValueError(
                f"Mini-batch contains {np.unique(y)} while it must be subset of {self.classes_}"
            )
        if first_call:
            self.estimators_ = [
                clone(self.estimator) for _ in range(n_classes * (n_classes - 1) // 2)
            ]
        n = X.shape[0]
        binary = np.array([0, 1])
        tasks = []
        pairs = [(i, j) for i in range(n_classes) for j in range(i + 1, n_classes)]
        for e, (i, j) in zip(self.estimators_, pairs):
            rows = np.flatnonzero((y == self.classes_[i]) | (y == self.classes_[j]))
            if rows.size == 0:
                tasks.append((lambda est: est, (e,)))
                continue
            params = {
                k: (np.asarray(v)[rows] if hasattr(v, "__len__") and len(v) == n else v)
                for k, v in partial_fit_params.items()
            }
            y_pair = (y[rows] == self.classes_[j]).astype(np.intp)
            tasks.append((_partial_fit_one, (e, X[rows], y_pair, binary, params)))
        self.estimators_ = _run(tasks, self.n_jobs)
        self.pairwise_indices_ = None
        return self

    partial_fit = _available_if_estimator_has("partial_fit")(_partial_fit)

    @property
    def n_classes_(self):
        """Number of classes."""
        return len(self.classes_)

    def decision_function(self, X):
        """Votes plus tie-breaking confidences for each class.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples, n_classes), or (n_samples,) when binary
            In the binary case, the second class's value minus the decision
            threshold (0 for decision functions, 0.5 for probabilities).
        """
        check_is_fitted(self)
        X = validate_data(self, X, reset=False, **_X_CHECKS)

        regressor = is_regressor(self.estimator)

        def both(e, X_):
            scores = _predict_binary(e, X_, regressor)
            if _predict_is_threshold(e):  # predict would compute the scores again
                return (scores > 0).astype(np.intp), scores
            return np.ravel(e.predict(X_)), scores

        if self.pairwise_indices_ is None:
            tasks = [(both, (e, X)) for e in self.estimators_]
        else:
            tasks = [(both, (e, X[:, idx])) for e, idx in zip(self.estimators_,
                                                              self.pairwise_indices_)]
        out = _predict_run(tasks, self.n_jobs, X)
        predictions = np.column_stack([p for p, _ in out])
        confidences = np.column_stack([c for _, c in out])
        Y = ovo_votes_and_confidences(predictions, confidences, len(self.classes_))
        if len(self.classes_) == 2:
            # centred so that a positive value means the second class, also when the
            # confidences are probabilities (threshold 0.5)
            return Y[:, 1] - _threshold(self.estimators_[0])
        return Y

    def predict(self, X):
        """Class with the most pairwise wins (ties: largest summed confidence).

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        Y = self.decision_function(X)
        if len(self.classes_) == 2:
            return self.classes_[(Y > 0).astype(np.intp)]
        return self.classes_[np.argmax(Y, axis=1)]


# --------------------------------------------------------------------------- output codes
class OutputCodeClassifier(_MulticlassTags, ClassifierMixin, BaseEstimator):
    """Error-correcting output codes with a random code book (seed 000 §9.4).

    Parameters
    ----------
    estimator : estimator object
        A binary classifier with ``fit`` and ``decision_function`` or
        ``predict_proba``.
    code_size : float, default=1.5
        Code word length as a multiple of the number of classes
        (``int(n_classes * code_size)`` binary classifiers).
    random_state : int, RandomState instance or None, default=None
        Draws the code book: each bit is 1 with probability 1/2, otherwise
        -1 (estimators with ``decision_function``) or 0.
    n_jobs : int, default=None
        Number of threads for the binary problems.
        None: one thread, except that the binary problems are fitted on all
        cores when the estimator is one of classiclearn's (its kernels release
        the GIL) and X has at least 100,000 entries. Results never depend on it.
    code_book : array-like of shape (n_classes, n_codes), default=None
        A code book of one's own instead of a random one (then ``code_size``
        and ``random_state`` are not used): row k is the code word of the k-th
        class of ``classes_`` (the sorted labels), with entries in {-1, 1} or
        in {0, 1}. Rows must be distinct and every column must hold both
        symbols, so that each binary problem has two classes. It is stored in
        ``code_book_`` with the lower symbol written as the decoding uses it
        (-1 with ``decision_function``, 0 with ``predict_proba``).

    Attributes
    ----------
    estimators_ : list of estimators
        One per code bit.
    classes_ : ndarray of shape (n_classes,)
    code_book_ : ndarray of shape (n_classes, n_estimators)
        Row k is the code word of class k.
    n_features_in_ : int
    feature_names_in_ : ndarray of str

    See Also
    --------
    OneVsRestClassifier, OneVsOneClassifier

    Notes
    -----
    A bit that is the same for every class present gives a constant binary
    classifier. Decoding picks the code word nearest in Euclidean distance
    to the vector of binary scores.

    Examples
    --------
    >>> import numpy as np
    >>> from classiclearn.discriminant_analysis import LinearDiscriminantAnalysis
    >>> X = np.array([[0, 0], [1, .5], [.5, 1], [5, 5], [6, 5.5], [5.5, 6], [9, 0], [10, .5], [9.5, 1]])
    >>> clf = OutputCodeClassifier(LinearDiscriminantAnalysis(), code_size=2, random_state=0)
    >>> clf.fit(X, [0, 0, 0, 1, 1, 1, 2, 2, 2]).code_book_.shape
    (3, 6)
    """

    _parameter_constraints = {
        **_CONSTRAINTS,
        "code_size": [Interval(Real, 0, None, closed="neither")],
        "random_state": ["random_state"],
        "code_book": ["array-like", None],
    }

    def __init__(
        self, estimator, *, code_size=1.5, random_state=None, n_jobs=None, code_book=None
    ):
        self.estimator = estimator
        self.code_size = code_size
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.code_book = code_book

    def fit(self, X, y, **fit_params):
        """Draw the code book and fit one binary classifier per bit.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Passed unchanged to the binary classifiers.
        y : array-like of shape (n_samples,)
        **fit_params
            Passed to each binary classifier's ``fit``.

        Returns
        -------
        self
        """
        self._validate_params()
        X, y = validate_data(self, X, y, **_X_CHECKS)
        X = _shared_X(self.estimator, X)
        check_classification_targets(y)
        self.classes_, y_index = unique_inverse(y)
        n_classes = len(self.classes_)
        low = -1.0 if hasattr(self.estimator, "decision_function") else 0.0
        if self.code_book is not None:
            code_book = np.where(_check_code_book(self.code_book, n_classes) == 1, 1.0, low)
            n_estimators = code_book.shape[1]
        else:
            rng = check_random_state(self.random_state)
            n_estimators = int(n_classes * self.code_size)
            if n_estimators < 1:
                raise ValueError(
                    f"code_size={self.code_size} gives int({n_classes} * code_size) = 0 "
                    "binary classifiers; increase code_size."
                )
            code_book = rng.uniform(size=(n_classes, n_estimators))
            code_book[code_book > 0.5] = 1.0
            code_book[code_book != 1.0] = low
        self.code_book_ = code_book
        Y = np.asfortranarray(code_book[y_index].astype(np.intp))
        tasks = [
            (_fit_binary, (self.estimator, X, Y[:, i], fit_params)) for i in range(n_estimators)
        ]
        self.estimators_ = _run(tasks, self.n_jobs, _auto_threads(self.estimator, X))
        return self

    def predict(self, X):
        """Class whose code word is nearest to the binary scores.

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        check_is_fitted(self)
        X = validate_data(self, X, reset=False, **_X_CHECKS)
        scores = _score_columns(self.estimators_, X, self.n_jobs, _predict_binary,
                                is_regressor(self.estimator))
        return self.classes_[_nearest_code(scores.astype(np.float64), self.code_book_)]


def _check_code_book(code_book, n_classes):
    """A user's code book as a float array, or a ValueError naming what is wrong."""
    book = np.asarray(code_book)
    if book.ndim != 2 or book.shape[1] < 1:
        raise ValueError(
            f"code_book must be a 2-D array of shape (n_classes, n_codes); got shape {book.shape}."
        )
    if book.dtype.kind not in "biuf":
        raise ValueError(f"code_book must hold numbers in {{-1, 1}} or {{0, 1}}; got {book.dtype}.")
    book = book.astype(np.float64)
    if book.shape[0] != n_classes:
        raise ValueError(
            f"code_book has {book.shape[0]} rows, but y has {n_classes} classes; it needs one "
            "row (code word) per class, in the order of the sorted class labels."
        )
    symbols = set(np.unique(book).tolist())
    if not (symbols <= {-1.0, 1.0} or symbols <= {0.0, 1.0}):
        raise ValueError(
            f"code_book entries must all be in {{-1, 1}} or all in {{0, 1}}; got {sorted(symbols)}."
        )
    if len(np.unique(book, axis=0)) != n_classes:
        raise ValueError("code_book rows must be distinct: two classes share a code word.")
    one_sided = np.flatnonzero(np.all(book == book[:1], axis=0))
    if one_sided.size:
        raise ValueError(
            f"code_book column {one_sided[0]} gives every class the same symbol; each column "
            "must split the classes into two non-empty groups."
        )
    return book


def _nearest_code(scores, code_book):
    """Index of the code word nearest (Euclidean) to each row of scores, from
    ``|c|^2 - 2 s.c`` (``|s|^2`` is the same for every code word), as scikit-learn's
    ``euclidean_distances``: one thin product instead of an n x K x bits difference."""
    with blas_single_thread():
        products = scores @ code_book.T
    products *= -2.0
    products += np.einsum("kj,kj->k", code_book, code_book)
    return np.argmin(products, axis=1)

