"""KD-tree [Bentley 1975]: axis-aligned bounding boxes at every node (seed 000 §3)."""

import numpy as np

from . import _tree_kernels as _k
from ._binary_tree import _BinaryTree


class KDTree(_BinaryTree):
    """KD-tree for fast nearest-neighbour and radius queries.

    Each node splits its rows at the median of the coordinate with the
    largest spread; the node's bounding box prunes the search. Built once
    with numba on flat arrays; queries run in parallel over query points.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        Training rows (kept as ``data``; above 16 MB not copied, leaves read
        them through ``idx_array``; smaller data get a tree-ordered copy).
    leaf_size : int, default=40
        Leaves hold between about ``leaf_size / 2`` and ``2 * leaf_size`` rows.
    metric : str, default="minkowski"
        One of ``KDTree.valid_metrics``.
    p : float, default=2
        Minkowski exponent (>= 1).

    Attributes
    ----------
    data : ndarray of shape (n_samples, n_features)
    idx_array : ndarray of shape (n_samples,)
        Row order of the tree.
    node_start, node_end : ndarray of shape (n_nodes,)
        Rows ``idx_array[node_start[i]:node_end[i]]`` belong to node ``i``;
        children of node ``i`` are ``2i + 1`` and ``2i + 2``.

    Notes
    -----
    Tie rule: among training rows at exactly the same distance, the lower
    row index comes first (and wins the last of the ``k`` places).

    Examples
    --------
    >>> import numpy as np
    >>> tree = KDTree(np.array([[0.0, 0.0], [1.0, 1.0], [3.0, 3.0]]), leaf_size=1)
    >>> dist, ind = tree.query([[0.9, 0.9]], k=2)
    >>> ind
    array([[1, 0]])
    """

    _kind = _k.KD

    def _build_bounds(self):
        self._lower, self._upper = _k.kd_node_bounds(
            self._data_tree_order, self._rows, self.node_start, self.node_end, self.n_levels,
            self._top_levels == self.n_levels,
        )
        self._radius = np.zeros(1)

    @property
    def node_bounds(self):
        """Lower and upper corners of every node's box, shape (2, n_nodes, n_features)."""
        return np.stack([self._lower, self._upper])
