"""k-nearest-neighbour and radius-neighbour classifiers (seed 000 §3; seeds 003/004:
k-NN as a (weighted) majority vote among the neighbours).

Probabilities are the normalised sums of the neighbours' weights per class;
the prediction is the class of largest probability, the smallest class label
on a tie. See ``_base`` for the tie rule among equidistant neighbours and the
zero-distance rule of ``weights="distance"``.
"""

import functools
import warnings

import numpy as np

from ..base import ClassifierMixin
from ..utils._params import StrOptions
from ..utils._targets import check_classification_targets, unique_inverse
from ..utils.validation import check_is_fitted, warn_column_vector_y
from . import _dask
from ._base import (
    KNeighborsMixin,
    RadiusNeighborsMixin,
    _get_weights,
    _SupervisedNeighborsBase,
)


def _encode_targets(estimator, y):
    check_classification_targets(y)
    if y.ndim == 2 and y.shape[1] == 1:
        warn_column_vector_y(stacklevel=3)
        y = y[:, 0]
    outputs_2d = y.ndim == 2
    y2 = y if outputs_2d else y.reshape(-1, 1)
    classes = []
    codes = np.empty(y2.shape, dtype=np.intp)
    for k in range(y2.shape[1]):
        c, codes[:, k] = unique_inverse(y2[:, k])
        classes.append(c)
    estimator.outputs_2d_ = outputs_2d
    estimator.classes_ = classes if outputs_2d else classes[0]
    estimator._y = codes if outputs_2d else codes[:, 0]
    return classes, codes


class _NeighborsClassifierBase(ClassifierMixin, _SupervisedNeighborsBase):
    """Class-label targets, encoded per output at fit."""

    def __classiclearn_tags__(self):
        tags = super().__classiclearn_tags__()
        tags.multi_output = True
        tags.multi_label = True
        return tags

    def _set_targets(self, y):
        _encode_targets(self, y)


def _normalised(counts):
    """Per-row weighted class counts scaled to sum to one (rows of zeros stay zero)."""
    proba = np.array(counts, dtype=np.float64)
    normalizer = proba.sum(axis=1)[:, None]
    normalizer[normalizer == 0.0] = 1.0
    proba /= normalizer
    return proba


def _vote(codes, weights, rows, n_rows, n_classes):
    """Per-row weighted class counts, normalised to sum to one (rows of zeros stay zero)."""
    flat = rows * n_classes + codes
    counts = np.bincount(flat, weights=weights, minlength=n_rows * n_classes)
    return _normalised(counts.reshape(n_rows, n_classes))


def _neighbor_proba(dist, targets, weights, n_classes):
    """Class probabilities of each output from the neighbours' distances (m, k) and
    class codes (m, k) or (m, k, n_outputs)."""
    w = _get_weights(dist, weights)
    m, k = dist.shape
    w = np.ones(m * k) if w is None else w.ravel()
    rows = np.repeat(np.arange(m), k)
    codes = targets if targets.ndim == 3 else targets[:, :, None]
    return [_vote(codes[:, :, j].ravel(), w, rows, m, nc) for j, nc in enumerate(n_classes)]


def _labels(probas, classes, outputs_2d):
    """The class of largest probability of each output (smallest label on a tie)."""
    if not outputs_2d:
        return classes[0].take(probas[0].argmax(axis=1))
    out = np.empty((probas[0].shape[0], len(probas)), dtype=classes[0].dtype)
    for j, (c, pr) in enumerate(zip(classes, probas)):
        out[:, j] = c.take(pr.argmax(axis=1))
    return out


def _classify(dist, targets, weights, classes, outputs_2d, proba):
    """``predict_proba`` (``proba``) or ``predict`` from the neighbours of a block of
    queries (a model fitted on Dask data finishes each query block with this)."""
    probas = _neighbor_proba(dist, targets, weights, [len(c) for c in classes])
    if proba:
        return probas if outputs_2d else probas[0]
    return _labels(probas, classes, outputs_2d)


class KNeighborsClassifier(KNeighborsMixin, _NeighborsClassifierBase):
    """Classifier by a vote among the k nearest neighbours.

    Parameters
    ----------
    n_neighbors : int, default=5
    weights : {"uniform", "distance"}, callable or None, default="uniform"
        ``"uniform"``: one vote each; ``"distance"``: vote ``1 / d`` (a
        neighbour at distance 0 takes the whole vote, shared with any other
        neighbours at distance 0); a callable maps the (n_queries, k) array
        of distances to weights.
    algorithm : {"auto", "ball_tree", "kd_tree", "brute"}, default="auto"
        See :class:`NearestNeighbors`.
    leaf_size : int, default=30
    p : float, default=2
    metric : str, default="minkowski"
    metric_params : dict, default=None
    n_jobs : int, default=None

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,) or list of such arrays
        One array per output for a 2-D target.
    effective_metric_ : str
    effective_metric_params_ : dict
    n_features_in_ : int
    feature_names_in_ : ndarray of str
    n_samples_fit_ : int
    outputs_2d_ : bool

    See Also
    --------
    RadiusNeighborsClassifier, KNeighborsRegressor, NearestNeighbors

    Notes
    -----
    Seed 000 §3: ``P(y = c | x)`` is estimated by the (weighted) share of
    class c among the k nearest neighbours of x. Equidistant neighbours are
    ordered by training index, so the k-th place goes to the lower index; a
    tie between class scores goes to the smallest class label.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0.0], [1.0], [2.0], [3.0]])
    >>> clf = KNeighborsClassifier(n_neighbors=3).fit(X, [0, 0, 1, 1])
    >>> clf.predict([[1.1]])
    array([0])
    >>> clf.predict_proba([[0.9]])
    array([[0.66666667, 0.33333333]])
    """

    def __init__(self, n_neighbors=5, *, weights="uniform", algorithm="auto", leaf_size=30,
                 p=2, metric="minkowski", metric_params=None, n_jobs=None):
        self.n_neighbors = n_neighbors
        self.weights = weights
        self.algorithm = algorithm
        self.leaf_size = leaf_size
        self.p = p
        self.metric = metric
        self.metric_params = metric_params
        self.n_jobs = n_jobs

    def predict_proba(self, X):
        """Class probabilities: the weighted share of each class among the neighbours.

        Parameters
        ----------
        X : array-like of shape (n_queries, n_features), or None
            None means the training points, each excluding itself.

        Returns
        -------
        ndarray of shape (n_queries, n_classes), or a list of them (one per output)
        """
        dist, targets = self._knn_targets(X, with_distances=self._weighted_vote())
        return _classify(dist, targets, self.weights, self._class_list(), self.outputs_2d_,
                         proba=True)

    def predict(self, X):
        """Class of largest probability (smallest label on a tie).

        Parameters
        ----------
        X : array-like of shape (n_queries, n_features), or None

        Returns
        -------
        ndarray of shape (n_queries,) or (n_queries, n_outputs)
        """
        dist, targets = self._knn_targets(X, with_distances=self._weighted_vote())
        return _classify(dist, targets, self.weights, self._class_list(), self.outputs_2d_,
                         proba=False)

    def _weighted_vote(self):
        """Whether the vote weighs the neighbours by distance (an unweighted vote needs
        the set of the neighbours only, not their distances)."""
        return self.weights not in (None, "uniform")

    def _class_list(self):
        return self.classes_ if self.outputs_2d_ else [self.classes_]

    def _neighbors_finisher(self, name):
        """``name`` (predict / predict_proba) as a function of a query block's
        neighbours (distances, class codes); None when it has no array output."""
        if name not in ("predict", "predict_proba") or (name == "predict_proba"
                                                        and self.outputs_2d_):
            return None
        return functools.partial(_classify, weights=self.weights, classes=self._class_list(),
                                 outputs_2d=self.outputs_2d_, proba=name == "predict_proba")

    def _fit_dask(self, X, y):
        """Record the Dask training blocks (brute-force search, see ``_dask``) and
        find ``classes_`` with one pass over y."""
        return _dask.fit_dask(self, X, y, "classes")


class RadiusNeighborsClassifier(RadiusNeighborsMixin, _NeighborsClassifierBase):
    """Classifier by a vote among the training points within a fixed radius.

    Parameters
    ----------
    radius : float, default=1.0
        Inclusive radius, > 0.
    weights : {"uniform", "distance"}, callable or None, default="uniform"
        As in :class:`KNeighborsClassifier`; a callable receives the 1-D
        array of all neighbour distances of the batch.
    algorithm : {"auto", "ball_tree", "kd_tree", "brute"}, default="auto"
    leaf_size : int, default=30
    p : float, default=2
    metric : str, default="minkowski"
    outlier_label : {"most_frequent"}, label, list of labels or None, default=None
        Label given to queries with no neighbour in the radius: None raises
        an error, "most_frequent" takes the most frequent training class, a
        list gives one label per output. A label that is not a training class
        gives those queries all-zero probabilities (with a warning).
    metric_params : dict, default=None
    n_jobs : int, default=None

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,) or list of such arrays
    outlier_label_ : label or list of labels or None
    effective_metric_ : str
    effective_metric_params_ : dict
    n_features_in_ : int
    n_samples_fit_ : int
    outputs_2d_ : bool

    See Also
    --------
    KNeighborsClassifier, RadiusNeighborsRegressor

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0.0], [1.0], [2.0], [3.0]])
    >>> clf = RadiusNeighborsClassifier(radius=1.0, outlier_label=-1).fit(X, [0, 0, 1, 1])
    >>> clf.predict([[0.5], [9.0]])
    array([ 0, -1])
    """

    _parameter_constraints = {
        **_SupervisedNeighborsBase._parameter_constraints,
        "outlier_label": [StrOptions({"most_frequent"}), "array-like", int, float, str, None],
    }

    def __init__(self, radius=1.0, *, weights="uniform", algorithm="auto", leaf_size=30, p=2,
                 metric="minkowski", outlier_label=None, metric_params=None, n_jobs=None):
        self.radius = radius
        self.weights = weights
        self.algorithm = algorithm
        self.leaf_size = leaf_size
        self.p = p
        self.metric = metric
        self.outlier_label = outlier_label
        self.metric_params = metric_params
        self.n_jobs = n_jobs

    def _set_targets(self, y):
        # encode the classes, then resolve ``outlier_label``
        classes, codes = _encode_targets(self, y)
        n_out = len(classes)
        label = self.outlier_label
        if label is None:
            labels = None
        elif isinstance(label, str) and label == "most_frequent":
            labels = [c[np.bincount(codes[:, j]).argmax()] for j, c in enumerate(classes)]
        else:
            if isinstance(label, str) or np.ndim(label) == 0:
                labels = [label] * n_out
            else:
                labels = list(label)
                if len(labels) != n_out:
                    raise ValueError(
                        f"The length of outlier_label: {label} is inconsistent with the output "
                        f"length: {n_out}"
                    )
            for lab, c in zip(labels, classes):
                if np.ndim(lab) != 0:
                    raise TypeError(
                        f"The outlier_label of classes {c} is supposed to be a scalar, got "
                        f"{lab}."
                    )
                if isinstance(lab, str) != (c.dtype.kind in "OUS" and isinstance(c[0], str)):
                    raise TypeError(
                        f"The dtype of outlier label {lab!r} is different from the dtype of "
                        f"y {c.dtype}."
                    )
        if labels is None:
            self.outlier_label_ = None
        else:
            self.outlier_label_ = labels if self.outputs_2d_ else labels[0]

    def predict_proba(self, X):
        """Class probabilities from the neighbours within the radius.

        Parameters
        ----------
        X : array-like of shape (n_queries, n_features), or None

        Returns
        -------
        ndarray of shape (n_queries, n_classes), or a list of them (one per output)
        """
        check_is_fitted(self)
        classes = self.classes_ if self.outputs_2d_ else [self.classes_]
        codes = self._y if self.outputs_2d_ else self._y[:, None]
        first = np.cumsum([0] + [len(c) for c in classes])
        # each output's class codes index its own columns of the vote sums
        sums = self._radius_sums(X, codes + first[:-1], np.ones(codes.shape),
                                 int(first[-1]))
        outliers = sums.counts() == 0
        if outliers.any() and self.outlier_label_ is None:
            raise ValueError(
                f"No neighbors found for test samples {np.flatnonzero(outliers)!r}, you can "
                "try using larger radius, giving a label for outliers, or considering "
                "removing them from your dataset."
            )
        votes, _ = sums.weighted()
        if self.outlier_label_ is None:
            labels = [None] * len(classes)
        else:
            labels = self.outlier_label_ if self.outputs_2d_ else [self.outlier_label_]
        probas = []
        for j, c in enumerate(classes):
            proba = _normalised(votes[:, first[j]:first[j + 1]])
            if outliers.any():
                hit = np.flatnonzero(c == labels[j])
                if hit.size:
                    proba[outliers, hit[0]] = 1.0
                else:
                    warnings.warn(
                        f"Outlier label {labels[j]} is not in training classes. All class "
                        "probabilities of outliers will be assigned with 0.",
                        stacklevel=2,
                    )
            probas.append(proba)
        return probas if self.outputs_2d_ else probas[0]

    def predict(self, X):
        """Class of largest probability; ``outlier_label_`` where no neighbour votes.

        Parameters
        ----------
        X : array-like of shape (n_queries, n_features), or None

        Returns
        -------
        ndarray of shape (n_queries,) or (n_queries, n_outputs)
        """
        probas = self.predict_proba(X)
        classes = self.classes_ if self.outputs_2d_ else [self.classes_]
        if self.outlier_label_ is None:
            labels = [None] * len(classes)
        else:
            labels = self.outlier_label_ if self.outputs_2d_ else [self.outlier_label_]
        if not self.outputs_2d_:
            probas = [probas]
        dtype = classes[0].dtype
        if labels[0] is not None:
            # room for an outlier label that is not a class (e.g. a longer string)
            dtype = np.result_type(dtype, *[np.asarray(lab).dtype for lab in labels])
        out = np.empty((probas[0].shape[0], len(probas)), dtype=dtype)
        for j, (c, pr) in enumerate(zip(classes, probas)):
            out[:, j] = c.take(pr.argmax(axis=1))
            zero = ~pr.any(axis=1)
            if zero.any():
                out[zero, j] = labels[j]
        return out if self.outputs_2d_ else out[:, 0]
