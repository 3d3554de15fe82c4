"""Histogram trees of at least ``SUBTREE_ROWS`` samples grow their top levels first and
the subtrees below them apart, in threads: the tree must be one valid tree, the same
whatever the thread count, and its splits must obey the parameters as measured on the
whole tree (improvements as fractions of the whole tree's weight). A forest's trees
grow whole."""

import numpy as np
import pytest

from classiclearn.ensemble import RandomForestRegressor
from classiclearn.tree import DecisionTreeClassifier, DecisionTreeRegressor
from classiclearn.tree._classes import SUBTREE_DEPTH, SUBTREE_ROWS
from classiclearn.utils._threads import numba_threads


def _data(n, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 6))
    X[rng.random(n) < 0.05, 2] = np.nan
    y = X[:, 0] * 2 + np.sin(3 * X[:, 1]) + 0.5 * rng.normal(size=n)
    return X, y


def _same_tree(a, b):
    for field in ("children_left", "children_right", "feature", "threshold",
                  "n_node_samples", "missing_go_to_left", "impurity"):
        np.testing.assert_array_equal(getattr(a, field), getattr(b, field), err_msg=field)
    np.testing.assert_array_equal(a.value, b.value)


def _check_structure(t):
    """Children after their parent in depth-first order (left first), each node's samples
    the sum of its children's, every node but the root reached once."""
    left, right = t.children_left, t.children_right
    internal = left >= 0
    assert (left[internal] == np.flatnonzero(internal) + 1).all()
    np.testing.assert_array_equal(
        t.n_node_samples[internal],
        t.n_node_samples[left[internal]] + t.n_node_samples[right[internal]])
    reached = np.concatenate([left[internal], right[internal]])
    np.testing.assert_array_equal(np.sort(reached), np.arange(1, t.node_count))


@pytest.mark.parametrize("cls", [DecisionTreeRegressor, DecisionTreeClassifier])
def test_subtree_growth_gives_one_valid_tree_whatever_the_threads(cls):
    X, y = _data(SUBTREE_ROWS + 3000)
    if cls is DecisionTreeClassifier:
        y = np.digitize(y, [-1.0, 0.5, 2.0])
    with numba_threads(1):
        one = cls(max_bins=64, random_state=3).fit(X, y)
    with numba_threads(2):
        two = cls(max_bins=64, random_state=3).fit(X, y)
    _same_tree(one.tree_, two.tree_)
    t = one.tree_
    _check_structure(t)
    assert one.get_depth() > SUBTREE_DEPTH + 3
    # grown to pure leaves: the training targets come back (no two rows alike)
    np.testing.assert_allclose(one.predict(X), y)
    # each subtree draws its own features: the seed changes the tree
    other = cls(max_bins=64, random_state=4, max_features=3).fit(X, y)
    again = cls(max_bins=64, random_state=4, max_features=3).fit(X, y)
    _same_tree(other.tree_, again.tree_)


def test_subtrees_measure_improvement_against_the_whole_tree():
    X, y = _data(SUBTREE_ROWS + 2000, seed=1)
    mid = 2e-4
    tree = DecisionTreeRegressor(max_bins=64, min_impurity_decrease=mid,
                                 random_state=0).fit(X, y)
    t = tree.tree_
    _check_structure(t)
    n = t.weighted_n_node_samples[0]
    internal = np.flatnonzero(t.children_left >= 0)
    left, right = t.children_left[internal], t.children_right[internal]
    wn = t.weighted_n_node_samples
    gain = wn[internal] / n * (t.impurity[internal]
                               - wn[left] / wn[internal] * t.impurity[left]
                               - wn[right] / wn[internal] * t.impurity[right])
    assert gain.min() >= mid * (1 - 1e-9)
    # deep enough that subtrees made splits of their own
    assert tree.get_depth() > SUBTREE_DEPTH + 2


def test_forest_trees_grow_whole_and_alike_whatever_the_threads():
    # a forest's trees grow in threads already: each grows whole (no subtrees), and the
    # forest is the same for any n_jobs
    X, y = _data(SUBTREE_ROWS + 1000, seed=2)
    one, two = (RandomForestRegressor(n_estimators=3, max_bins=64, random_state=0,
                                      n_jobs=n_jobs).fit(X, y) for n_jobs in (1, 2))
    for a, b in zip(one.estimators_, two.estimators_, strict=True):
        _same_tree(a.tree_, b.tree_)
        _check_structure(a.tree_)
