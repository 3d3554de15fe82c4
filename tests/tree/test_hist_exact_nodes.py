"""A histogram tree's small nodes (fewer than ``HYBRID_MIN`` samples) are split exactly,
on sorted lists kept through the splits below the node that first sorted them. Checked
against a brute-force search over every feature and threshold of every such node, and
against the exact tree on data small enough that every node is exact."""

import numpy as np
import pytest

from classiclearn.tree import DecisionTreeClassifier, DecisionTreeRegressor
from classiclearn.tree._hist_kernels import HYBRID_MIN


def _gini(counts):
    n = counts.sum()
    return 1.0 - np.sum((counts / n) ** 2)


def _entropy(counts):
    p = counts[counts > 0] / counts.sum()
    return -np.sum(p * np.log2(p))


def _impurity(y, classes, criterion="gini"):
    if classes is None:
        return y.var()
    counts = np.array([(y == c).sum() for c in classes], dtype=float)
    return _entropy(counts) if criterion == "entropy" else _gini(counts)


def _best_decrease(X, y, classes, min_leaf, criterion="gini"):
    """The largest impurity decrease (node-weighted, as scikit-learn's proxy orders them)
    over every feature and every threshold between two distinct values."""
    n = len(y)
    parent = _impurity(y, classes, criterion)
    best = -np.inf
    for f in range(X.shape[1]):
        order = np.argsort(X[:, f], kind="stable")
        xs, ys = X[order, f], y[order]
        for q in range(min_leaf, n - min_leaf + 1):
            if q == n or xs[q] <= xs[q - 1] + 1e-7:
                continue
            left, right = ys[:q], ys[q:]
            child = (q * _impurity(left, classes, criterion)
                     + (n - q) * _impurity(right, classes, criterion)) / n
            best = max(best, parent - child)
    return best


def _small_nodes_are_best(tree, X, y, classes, min_leaf, criterion="gini"):
    t = tree.tree_
    paths = tree.decision_path(X).tocsc()
    checked = 0
    for node in range(t.node_count):
        left, right = t.children_left[node], t.children_right[node]
        rows = paths[:, [node]].nonzero()[0]
        if left < 0 or len(rows) >= HYBRID_MIN:
            continue
        n = len(rows)
        got = t.impurity[node] - (t.n_node_samples[left] * t.impurity[left]
                                  + t.n_node_samples[right] * t.impurity[right]) / n
        want = _best_decrease(X[rows], y[rows], classes, min_leaf, criterion)
        assert got == pytest.approx(want, rel=1e-9, abs=1e-12), node
        # the threshold separates the node's rows as the children hold them
        went_left = X[rows, t.feature[node]] <= t.threshold[node]
        assert went_left.sum() == t.n_node_samples[left]
        checked += 1
    return checked


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("min_leaf", [1, 3])
@pytest.mark.parametrize("criterion", ["gini", "entropy"])
def test_small_nodes_of_a_histogram_classifier_take_the_best_split(seed, min_leaf, criterion):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(1500, 4))
    X[:, 3] = np.round(X[:, 3] * 2)  # repeated values
    y = (X[:, 0] + 0.5 * rng.normal(size=1500) > 0).astype(int) + (X[:, 1] > 1)
    tree = DecisionTreeClassifier(max_bins=16, min_samples_leaf=min_leaf, criterion=criterion,
                                  random_state=seed).fit(X, y)
    assert _small_nodes_are_best(tree, X, y, np.unique(y), min_leaf, criterion) > 50


@pytest.mark.parametrize("max_leaf_nodes", [None, 300])
def test_small_nodes_of_a_histogram_regressor_take_the_best_split(max_leaf_nodes):
    rng = np.random.default_rng(3)
    X = rng.normal(size=(1200, 3))
    y = np.sin(2 * X[:, 0]) + X[:, 1] ** 2 + 0.3 * rng.normal(size=1200)
    tree = DecisionTreeRegressor(max_bins=32, max_leaf_nodes=max_leaf_nodes,
                                 random_state=0).fit(X, y)
    assert _small_nodes_are_best(tree, X, y, None, 1) > 50


@pytest.mark.parametrize("max_features", [None, 2])
@pytest.mark.parametrize("with_nan", [False, True])
def test_all_exact_histogram_tree_equals_the_exact_tree(max_features, with_nan):
    # fewer rows than HYBRID_MIN: every node is split exactly; classes and integer targets
    # make the sums exact, so the two trees agree node for node
    rng = np.random.default_rng(7)
    n = HYBRID_MIN - 8
    X = rng.normal(size=(n, 5))
    if with_nan:
        X[rng.random(n) < 0.2, 1] = np.nan
    yc = (X[:, 0] > 0).astype(int) + (np.nan_to_num(X[:, 1]) > 0.5)
    yr = np.round(3 * X[:, 2] + np.nan_to_num(X[:, 1]) * 2)
    cases = ((DecisionTreeClassifier, yc, "gini"), (DecisionTreeClassifier, yc, "entropy"),
             (DecisionTreeRegressor, yr, "squared_error"))
    for cls, y, criterion in cases:
        for seed in range(3):
            exact = cls(criterion=criterion, max_features=max_features,
                        random_state=seed).fit(X, y)
            hist = cls(criterion=criterion, max_features=max_features, max_bins=255,
                       random_state=seed).fit(X, y)
            a, b = exact.tree_, hist.tree_
            np.testing.assert_array_equal(a.feature, b.feature)
            np.testing.assert_array_equal(a.threshold, b.threshold)
            np.testing.assert_array_equal(a.n_node_samples, b.n_node_samples)
            np.testing.assert_array_equal(a.missing_go_to_left, b.missing_go_to_left)
