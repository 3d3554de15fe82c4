"""Ball tree [Omohundro 1989]: a centroid and radius at every node (seed 000 §3)."""

import numpy as np

from . import _tree_kernels as _k
from ._binary_tree import _BinaryTree
from ._metrics import BALL_METRICS


class BallTree(_BinaryTree):
    """Ball tree for fast nearest-neighbour and radius queries.

    Rows are split like a KD-tree (median of the coordinate of largest
    spread), but each node is bounded by a ball: its rows' centroid and the
    largest distance from it. Any metric with the triangle inequality works
    with the ball bound. Built once with numba on flat arrays; queries run in
    parallel over query points.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    leaf_size : int, default=40
    metric : str, default="minkowski"
        One of ``BallTree.valid_metrics``. The boolean metrics (dice,
        jaccard, rogerstanimoto, russellrao, sokalmichener, sokalsneath) read
        nonzero values as True. braycurtis and dice lack the triangle
        inequality, so no node can be pruned for them: the search visits
        every row (exact, at brute-force cost).
    p : float, default=2
        Minkowski exponent (>= 1).
    w : array-like of shape (n_features,), optional
        Non-negative feature weights of the minkowski metric,
        ``(sum_f w_f |x_f - y_f|^p)^(1/p)``.

    Attributes
    ----------
    data : ndarray of shape (n_samples, n_features)
    idx_array, node_start, node_end : ndarray
        As in :class:`KDTree`.

    Notes
    -----
    Tie rule: among training rows at exactly the same distance, the lower
    row index comes first.

    Examples
    --------
    >>> import numpy as np
    >>> tree = BallTree(np.array([[0.0], [1.0], [3.0]]), leaf_size=1)
    >>> tree.query_radius([[0.5]], r=0.6, count_only=True)
    array([2])
    """

    _kind = _k.BALL
    valid_metrics = sorted(BALL_METRICS)

    def _build_bounds(self):
        self._lower, self._radius = _k.ball_node_bounds(
            self._data_tree_order, self._rows, self.node_start, self.node_end, self.n_levels,
            self._top_levels, self._metric_code, self._p, self._top_levels == self.n_levels,
        )
        self._upper = np.zeros((1, self._lower.shape[1]))

    @property
    def node_centroids(self):
        """Centroid of every node, shape (n_nodes, n_features)."""
        return self._lower

    @property
    def node_radius(self):
        """Radius of every node, shape (n_nodes,): exact in the lowest six levels,
        a triangle-inequality upper bound from the children above."""
        return self._radius
