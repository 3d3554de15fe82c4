"""k-nearest-neighbour and radius-neighbour regression (seed 000 §3): the
prediction is the (weighted) mean of the neighbours' targets.

See ``_base`` for the tie rule among equidistant neighbours and the
zero-distance rule of ``weights="distance"``.
"""

import functools

import numpy as np

from ..base import RegressorMixin
from ..utils._targets import as_2d_target
from ..utils.validation import check_is_fitted
from . import _dask
from ._base import (
    KNeighborsMixin,
    RadiusNeighborsMixin,
    _get_weights,
    _SupervisedNeighborsBase,
    _warn_no_neighbors,
)


class _NeighborsRegressorBase(RegressorMixin, _SupervisedNeighborsBase):
    """Numeric, possibly multi-output targets."""

    _numeric_targets = True

    def __classiclearn_tags__(self):
        tags = super().__classiclearn_tags__()
        tags.multi_output = True
        return tags


def _neighbor_mean(dist, targets, weights):
    """(Weighted) mean of the neighbours' targets, (m, k) or (m, k, n_outputs)."""
    w = _get_weights(dist, weights)
    was_1d = targets.ndim == 2
    T = targets[:, :, None] if was_1d else targets
    if w is None:
        pred = np.mean(T, axis=1)
    else:
        pred = np.empty((T.shape[0], T.shape[2]), dtype=np.float64)
        denom = np.sum(w, axis=1)
        for j in range(T.shape[2]):
            pred[:, j] = np.sum(T[:, :, j] * w, axis=1) / denom
    return pred[:, 0] if was_1d else pred


class KNeighborsRegressor(KNeighborsMixin, _NeighborsRegressorBase):
    """Regression by the (weighted) mean target of the k nearest neighbours.

    Parameters
    ----------
    n_neighbors : int, default=5
    weights : {"uniform", "distance"}, callable or None, default="uniform"
        See :class:`KNeighborsClassifier`.
    algorithm : {"auto", "ball_tree", "kd_tree", "brute"}, default="auto"
    leaf_size : int, default=30
    p : float, default=2
    metric : str, default="minkowski"
    metric_params : dict, default=None
    n_jobs : int, default=None

    Attributes
    ----------
    effective_metric_ : str
    effective_metric_params_ : dict
    n_features_in_ : int
    feature_names_in_ : ndarray of str
    n_samples_fit_ : int

    See Also
    --------
    RadiusNeighborsRegressor, KNeighborsClassifier

    Notes
    -----
    Seed 000 §3: ``f(x) = sum_i w_i y_i / sum_i w_i`` over the k nearest
    neighbours; with uniform weights the effective number of parameters is
    ``n / k`` (seeds 003/004).

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0.0], [1.0], [2.0], [3.0]])
    >>> KNeighborsRegressor(n_neighbors=2).fit(X, [0.0, 1.0, 2.0, 3.0]).predict([[1.4]])
    array([1.5])
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

    def predict(self, X):
        """Weighted mean target of the k nearest neighbours.

        Parameters
        ----------
        X : array-like of shape (n_queries, n_features), or None
            None means the training points, each excluding itself.

        Returns
        -------
        ndarray of shape (n_queries,) or (n_queries, n_outputs)
        """
        dist, targets = self._knn_targets(X)
        return _neighbor_mean(dist, targets, self.weights)

    def _neighbors_finisher(self, name):
        """``predict`` as a function of a query block's neighbours (distances, targets)."""
        if name != "predict":
            return None
        return functools.partial(_neighbor_mean, weights=self.weights)

    def _fit_dask(self, X, y):
        """Record the Dask training blocks (brute-force search, see ``_dask``)."""
        return _dask.fit_dask(self, X, y, "numeric")


class RadiusNeighborsRegressor(RadiusNeighborsMixin, _NeighborsRegressorBase):
    """Regression by the (weighted) mean target of the training points within a radius.

    Queries with no neighbour in the radius are predicted NaN, with a warning.

    Parameters
    ----------
    radius : float, default=1.0
        Inclusive radius, > 0.
    weights : {"uniform", "distance"}, callable or None, default="uniform"
        A callable receives the 1-D array of all neighbour distances of the batch.
    algorithm : {"auto", "ball_tree", "kd_tree", "brute"}, default="auto"
    leaf_size : int, default=30
    p : float, default=2
    metric : str, default="minkowski"
    metric_params : dict, default=None
    n_jobs : int, default=None

    Attributes
    ----------
    effective_metric_ : str
    effective_metric_params_ : dict
    n_features_in_ : int
    n_samples_fit_ : int

    See Also
    --------
    KNeighborsRegressor, RadiusNeighborsClassifier

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0.0], [1.0], [2.0], [3.0]])
    >>> RadiusNeighborsRegressor(radius=1.0).fit(X, [0.0, 1.0, 2.0, 3.0]).predict([[1.0]])
    array([1.])
    """

    def __init__(self, radius=1.0, *, weights="uniform", algorithm="auto", leaf_size=30, p=2,
                 metric="minkowski", metric_params=None, n_jobs=None):
        self.radius = radius
        self.weights = weights
        self.algorithm = algorithm
        self.leaf_size = leaf_size
        self.p = p
        self.metric = metric
        self.metric_params = metric_params
        self.n_jobs = n_jobs

    def predict(self, X):
        """Weighted mean target of the neighbours within the radius (NaN if none).

        Parameters
        ----------
        X : array-like of shape (n_queries, n_features), or None

        Returns
        -------
        ndarray of shape (n_queries,) or (n_queries, n_outputs)
        """
        check_is_fitted(self)
        y, was_1d = as_2d_target(self._y)
        t = y.shape[1]
        sums = self._radius_sums(X, np.broadcast_to(np.arange(t), y.shape), y, t)
        total, weight = sums.weighted()
        with np.errstate(divide="ignore", invalid="ignore"):
            pred = total / weight[:, None]
        empty = sums.counts() == 0
        if empty.any():
            pred[empty] = np.nan
            _warn_no_neighbors()
        if self._y.dtype == np.float32:  # as scikit-learn: float32 targets, float32 predictions
            pred = pred.astype(np.float32)
        return pred[:, 0] if was_1d else pred
