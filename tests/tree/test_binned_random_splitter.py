"""The random splitter with ``max_bins`` runs on the bins themselves in nodes of at least
``HYBRID_MIN`` samples (their thresholds are bin edges) and on raw values below; the
raw-value thresholds send the training rows where the growth sent them."""

import numpy as np
import pytest

from classiclearn.ensemble import ExtraTreesClassifier, ExtraTreesRegressor
from classiclearn.tree import DecisionTreeClassifier, DecisionTreeRegressor, _binning
from classiclearn.tree._hist_kernels import HYBRID_MIN


def _data(seed=0, n=3000, with_nan=True):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 5))
    X[:, 3] = np.round(X[:, 3])  # few distinct values: a bin each
    if with_nan:
        X[rng.random(n) < 0.1, 1] = np.nan
    y = X[:, 0] + np.nan_to_num(X[:, 1]) ** 2 + 0.3 * rng.normal(size=n)
    return X, y


def _node_counts(tree, X):
    """Rows of X reaching each node through the raw thresholds."""
    return np.asarray(tree.decision_path(X).sum(axis=0)).ravel()


@pytest.mark.parametrize("max_bins", [8, 64, 255])
@pytest.mark.parametrize("cls", [DecisionTreeRegressor, DecisionTreeClassifier])
def test_thresholds_are_bin_edges_and_route_rows_as_grown(cls, max_bins):
    X, y = _data()
    if cls is DecisionTreeClassifier:
        y = (y > np.median(y)).astype(int)
    tree = cls(splitter="random", max_bins=max_bins, random_state=0).fit(X, y)
    t = tree.tree_
    # the tree's bins (a subsample, hence the seed, only beyond 200,000 rows)
    edges, n_bins = _binning.fit_bins(X.astype(np.float32), max_bins, 0)
    split = np.flatnonzero((t.children_left >= 0) & (t.n_node_samples >= HYBRID_MIN))
    assert split.size > 10
    for node in split:
        f, thr = t.feature[node], t.threshold[node]
        assert thr == np.inf or thr in edges[f, :n_bins[f] - 1], (node, f, thr)
    # the binned growth's counts are what the raw thresholds give
    np.testing.assert_array_equal(_node_counts(tree, X), t.n_node_samples)
    # grown to pure leaves on training data (rows within a bin may share a leaf)
    assert tree.score(X, y) > 0.9


@pytest.mark.parametrize("cls", [ExtraTreesRegressor, ExtraTreesClassifier])
def test_binned_extra_trees_route_rows_as_grown(cls):
    X, y = _data(seed=1, with_nan=True)
    if cls is ExtraTreesClassifier:
        y = np.digitize(y, [0.0, 1.0])
    forest = cls(n_estimators=4, max_bins=32, bootstrap=False, random_state=0).fit(X, y)
    for est in forest.estimators_:
        np.testing.assert_array_equal(_node_counts(est, X), est.tree_.n_node_samples)
    exact = cls(n_estimators=4, bootstrap=False, random_state=0).fit(X, y)
    Z, yz = _data(seed=2, with_nan=True)
    if cls is ExtraTreesClassifier:
        yz = np.digitize(yz, [0.0, 1.0])
    # as good as the exact extra trees on new data (the same rows seen, coarser thresholds)
    assert forest.score(Z, yz) > exact.score(Z, yz) - 0.05
