"""Unsupervised nearest neighbours: the k and radius neighbourhoods of seed 000 §3."""

from . import _dask
from ._base import KNeighborsMixin, RadiusNeighborsMixin, _NeighborsBase


class NearestNeighbors(KNeighborsMixin, RadiusNeighborsMixin, _NeighborsBase):
    """Unsupervised learner for k-nearest and radius neighbour queries.

    Parameters
    ----------
    n_neighbors : int, default=5
        Number of neighbours for :meth:`kneighbors`.
    radius : float, default=1.0
        Radius (> 0) for :meth:`radius_neighbors`.
    algorithm : {"auto", "ball_tree", "kd_tree", "brute"}, default="auto"
        ``"auto"`` uses brute force for precomputed or cosine distances, more
        than 15 features, fewer than 512 training rows, or ``n_neighbors``
        at least half the training set, and a KD-tree otherwise.
    leaf_size : int, default=30
        Leaf size of the trees.
    metric : str, default="minkowski"
        "euclidean", "manhattan", "chebyshev", "minkowski" (with ``p``) and
        their aliases; "cosine" and "precomputed" with brute force.
    p : float, default=2
        Minkowski exponent; values below 1 need brute force.
    metric_params : dict, default=None
        Only ``{"p": value}``.
    n_jobs : int, default=None
        Threads for the queries (None: 1, -1: all cores). Results do not
        depend on it.

    Attributes
    ----------
    effective_metric_ : str
    effective_metric_params_ : dict
    n_features_in_ : int
    feature_names_in_ : ndarray of str
    n_samples_fit_ : int

    See Also
    --------
    KNeighborsClassifier, RadiusNeighborsClassifier, KDTree, BallTree

    Notes
    -----
    Ties: neighbours at the same distance are ordered by training index.

    Examples
    --------
    >>> import numpy as np
    >>> nn = NearestNeighbors(n_neighbors=1).fit(np.array([[0.0], [1.0], [5.0]]))
    >>> nn.kneighbors([[0.8]])
    (array([[0.2]]), array([[1]]))
    """

    def __init__(self, *, n_neighbors=5, radius=1.0, algorithm="auto", leaf_size=30,
                 metric="minkowski", p=2, metric_params=None, n_jobs=None):
        self.n_neighbors = n_neighbors
        self.radius = radius
        self.algorithm = algorithm
        self.leaf_size = leaf_size
        self.metric = metric
        self.p = p
        self.metric_params = metric_params
        self.n_jobs = n_jobs

    def __classiclearn_tags__(self):
        tags = super().__classiclearn_tags__()
        tags.requires_y = False
        return tags

    def fit(self, X, y=None):
        """Index the training points.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features), or (n_samples, n_samples)
            if ``metric="precomputed"``
        y : ignored

        Returns
        -------
        self
        """
        self._fit(X)
        return self

    def _fit_dask(self, X, y=None):
        """Record the Dask training blocks (brute-force search, see ``_dask``)."""
        return _dask.fit_dask(self, X, None)
