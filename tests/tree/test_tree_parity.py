"""Exact-splitter trees against scikit-learn: same nodes, thresholds, values, pruning path."""

import numpy as np
import pytest

sk_tree = pytest.importorskip("sklearn.tree")
sk_datasets = pytest.importorskip("sklearn.datasets")

from classiclearn.tree import (  # noqa: E402
    DecisionTreeClassifier,
    DecisionTreeRegressor,
    export_text,
)
from tree_ties import RANDOM_REGRESSION_LEAF  # noqa: E402


def assert_same_tree(ours, theirs, value_tol=1e-12, impurity_atol=1e-12):
    a, b = ours.tree_, theirs.tree_
    assert a.node_count == b.node_count
    np.testing.assert_array_equal(a.children_left, b.children_left)
    np.testing.assert_array_equal(a.children_right, b.children_right)
    np.testing.assert_array_equal(a.feature, b.feature)
    np.testing.assert_allclose(a.threshold, b.threshold, rtol=0, atol=1e-12)
    np.testing.assert_array_equal(a.n_node_samples, b.n_node_samples)
    np.testing.assert_allclose(a.weighted_n_node_samples, b.weighted_n_node_samples, rtol=1e-12)
    np.testing.assert_allclose(a.value, b.value, rtol=value_tol, atol=value_tol)
    np.testing.assert_allclose(a.impurity, b.impurity, rtol=1e-9, atol=impurity_atol)
    assert ours.get_depth() == theirs.get_depth()
    assert ours.get_n_leaves() == theirs.get_n_leaves()


@pytest.fixture(scope="module")
def cls_data():
    out = []
    for loader in (sk_datasets.load_iris, sk_datasets.load_breast_cancer, sk_datasets.load_wine):
        X, y = loader(return_X_y=True)
        out.append((X, y))
    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 6))
    y = (X[:, 0] + X[:, 1] ** 2 + rng.normal(size=300) > 1).astype(int) + (X[:, 2] > 1)
    out.append((X, y))
    return out


CLS_PARAMS = [
    {},
    {"max_depth": 3},
    {"min_samples_leaf": 4},
    {"min_samples_split": 10},
    {"max_leaf_nodes": 12},
    {"min_impurity_decrease": 0.005},
    {"max_features": 2},
    {"max_features": "sqrt", "max_leaf_nodes": 8},
    {"splitter": "random"},
    {"splitter": "random", "max_features": 0.5, "min_samples_leaf": 0.02},
    {"class_weight": "balanced"},
    {"min_weight_fraction_leaf": 0.05},
]


@pytest.mark.parametrize("criterion", ["gini", "entropy", "log_loss"])
@pytest.mark.parametrize("params", CLS_PARAMS, ids=lambda p: ",".join(p) or "default")
def test_classifier_equals_sklearn(cls_data, criterion, params):
    for seed, (X, y) in enumerate(cls_data):
        ours = DecisionTreeClassifier(criterion=criterion, random_state=seed, **params).fit(X, y)
        theirs = sk_tree.DecisionTreeClassifier(
            criterion=criterion, random_state=seed, **params
        ).fit(X, y)
        assert_same_tree(ours, theirs)
        np.testing.assert_allclose(ours.predict_proba(X), theirs.predict_proba(X), atol=1e-12)
        np.testing.assert_array_equal(ours.apply(X), theirs.apply(X))
        np.testing.assert_allclose(ours.feature_importances_, theirs.feature_importances_,
                                   atol=1e-10)


def test_classifier_sample_weight_equals_sklearn(cls_data):
    X, y = cls_data[1]
    w = np.random.default_rng(1).uniform(0.5, 2.0, size=len(y))
    ours = DecisionTreeClassifier(random_state=0, max_depth=6).fit(X, y, sample_weight=w)
    theirs = sk_tree.DecisionTreeClassifier(random_state=0, max_depth=6).fit(
        X, y, sample_weight=w
    )
    assert_same_tree(ours, theirs)


@pytest.fixture(scope="module")
def reg_data():
    X, y = sk_datasets.load_diabetes(return_X_y=True)
    rng = np.random.default_rng(2)
    Z = rng.normal(size=(250, 4))
    yz = 2 * Z[:, 0] + np.sin(3 * Z[:, 1]) + 0.3 * rng.normal(size=250)
    return [(X, y), (Z, yz)]


@pytest.mark.parametrize(
    "params",
    [{}, {"max_depth": 4}, {"max_leaf_nodes": 15}, {"min_samples_leaf": 3},
     {"splitter": "random"}, {"max_features": 0.5}, {"min_impurity_decrease": 1.0}],
    ids=lambda p: ",".join(p) or "default",
)
def test_regressor_squared_error_equals_sklearn(reg_data, params):
    if params.get("splitter") == "random":
        params = dict(params, min_samples_leaf=RANDOM_REGRESSION_LEAF)
    for seed, (X, y) in enumerate(reg_data):
        ours = DecisionTreeRegressor(random_state=seed, **params).fit(X, y)
        theirs = sk_tree.DecisionTreeRegressor(random_state=seed, **params).fit(X, y)
        assert_same_tree(ours, theirs, value_tol=1e-9)
        np.testing.assert_allclose(ours.predict(X), theirs.predict(X), rtol=1e-9)


@pytest.mark.parametrize("params", [{"max_depth": 4}, {"min_samples_leaf": 8},
                                    {"max_leaf_nodes": 10}])
def test_regressor_absolute_error_equals_sklearn(reg_data, params):
    for seed, (X, y) in enumerate(reg_data):
        ours = DecisionTreeRegressor(criterion="absolute_error", random_state=seed,
                                     **params).fit(X, y)
        theirs = sk_tree.DecisionTreeRegressor(criterion="absolute_error", random_state=seed,
                                               **params).fit(X, y)
        assert_same_tree(ours, theirs, value_tol=1e-9)


def test_multi_output_equals_sklearn(cls_data, reg_data):
    X, y = cls_data[3]
    Y = np.column_stack([y, (X[:, 3] > 0).astype(int) * 3])
    ours = DecisionTreeClassifier(random_state=0, max_depth=5).fit(X, Y)
    theirs = sk_tree.DecisionTreeClassifier(random_state=0, max_depth=5).fit(X, Y)
    assert_same_tree(ours, theirs)
    np.testing.assert_array_equal(ours.predict(X), theirs.predict(X))
    for p, q in zip(ours.predict_proba(X), theirs.predict_proba(X), strict=True):
        np.testing.assert_allclose(p, q, atol=1e-12)
    X, y = reg_data[1]
    Y = np.column_stack([y, X[:, 2] ** 2])
    ours = DecisionTreeRegressor(random_state=0, max_depth=5).fit(X, Y)
    theirs = sk_tree.DecisionTreeRegressor(random_state=0, max_depth=5).fit(X, Y)
    assert_same_tree(ours, theirs, value_tol=1e-9)


def test_pruning_path_equals_sklearn(cls_data, reg_data):
    for est, sk_est, (X, y) in [
        (DecisionTreeClassifier, sk_tree.DecisionTreeClassifier, cls_data[1]),
        (DecisionTreeClassifier, sk_tree.DecisionTreeClassifier, cls_data[3]),
        (DecisionTreeRegressor, sk_tree.DecisionTreeRegressor, reg_data[0]),
    ]:
        ours = est(random_state=0).cost_complexity_pruning_path(X, y)
        theirs = sk_est(random_state=0).cost_complexity_pruning_path(X, y)
        np.testing.assert_allclose(ours.ccp_alphas, theirs.ccp_alphas, rtol=1e-9, atol=1e-14)
        np.testing.assert_allclose(ours.impurities, theirs.impurities, rtol=1e-9, atol=1e-14)
        for alpha in ours.ccp_alphas[1:-1:4]:
            a = est(random_state=0, ccp_alpha=alpha * 1.0000001).fit(X, y)
            b = sk_est(random_state=0, ccp_alpha=alpha * 1.0000001).fit(X, y)
            assert_same_tree(a, b, value_tol=1e-9)


def test_decision_path_and_export_text_equal_sklearn(cls_data):
    X, y = cls_data[0]
    ours = DecisionTreeClassifier(random_state=0, max_depth=3).fit(X, y)
    theirs = sk_tree.DecisionTreeClassifier(random_state=0, max_depth=3).fit(X, y)
    assert (ours.decision_path(X) != theirs.decision_path(X)).nnz == 0
    names = ["sepal length", "sepal width", "petal length", "petal width"]
    for kwargs in [{}, {"feature_names": names, "show_weights": True}, {"max_depth": 1}]:
        assert export_text(ours, **kwargs) == sk_tree.export_text(theirs, **kwargs)
    reg = DecisionTreeRegressor(max_depth=2, random_state=0).fit(X, X[:, 0])
    sk_reg = sk_tree.DecisionTreeRegressor(max_depth=2, random_state=0).fit(X, X[:, 0])
    assert export_text(reg, decimals=3) == sk_tree.export_text(sk_reg, decimals=3)


@pytest.mark.parametrize(
    "params",
    [{}, {"min_samples_leaf": 3}, {"max_features": 0.5}, {"max_leaf_nodes": 20}],
    ids=lambda p: ",".join(p) or "default",
)
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("n_outputs", [2, 3, 6])
def test_multi_output_regressor_grown_whole_equals_sklearn(params, weighted, n_outputs):
    # the written-out scan of several squared-error outputs adds in scikit-learn's order
    # (forward, or back from the node's totals when fewer samples lie right): the same
    # tree, grown to its leaves. Continuous features: on diabetes, two correlated
    # features can cut a node into the same two sets, an exact tie that the last bit
    # of each side's sums decides
    rng = np.random.default_rng(n_outputs)
    for seed, n in enumerate((300, 1200)):
        X = rng.normal(size=(n, 6))
        y = X[:, 0] + np.sin(2 * X[:, 1]) + 0.5 * rng.normal(size=n)
        Y = np.column_stack([y] + [y * rng.uniform(0.5, 2.0) + rng.normal(size=n)
                                   for _ in range(n_outputs - 1)])
        sw = rng.uniform(0.5, 2.0, size=n) if weighted else None
        ours = DecisionTreeRegressor(random_state=seed, **params).fit(X, Y, sample_weight=sw)
        theirs = sk_tree.DecisionTreeRegressor(random_state=seed, **params).fit(
            X, Y, sample_weight=sw)
        # a pure leaf's impurity is the rounding of E[y^2] - E[y]^2 on both sides
        tiny = 1e-13 * float(np.max(Y**2))
        assert_same_tree(ours, theirs, value_tol=1e-9, impurity_atol=tiny)
        np.testing.assert_allclose(ours.predict(X), theirs.predict(X), rtol=1e-9)


def _scan_prune(left, right, impurity, weighted_n):
    """Reference weakest-link pruning: a scan of every candidate per step (the smallest
    alpha, then the smallest node index)."""
    n = left.shape[0]
    r_node = weighted_n * impurity / weighted_n[0]
    parent = np.full(n, -1)
    for i in range(n):
        if left[i] >= 0:
            parent[left[i]] = parent[right[i]] = i
    leaves = {i: [i] for i in range(n)}
    for i in range(n - 1, -1, -1):
        if left[i] >= 0:
            leaves[i] = leaves[left[i]] + leaves[right[i]]
    alive = {i for i in range(n) if left[i] >= 0}
    current = {i: set(leaves[i]) for i in range(n)}
    path = []
    while 0 in alive:
        best, node = np.inf, -1
        for i in sorted(alive):
            a = (r_node[i] - sum(r_node[j] for j in current[i])) / (len(current[i]) - 1)
            if a < best:
                best, node = a, i
        path.append(best)
        stack = [node]
        while stack:
            t = stack.pop()
            alive.discard(t)
            if left[t] >= 0:
                stack += [left[t], right[t]]
        gone = current[node]
        p = node
        while p != -1:
            current[p] = (current[p] - gone) | {node}
            p = parent[p]
    return np.array(path)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_heap_pruning_equals_a_scan_of_every_node(seed):
    # integer features and three classes: many equal alphas, taken in node order
    from classiclearn.tree import _prune_kernels

    rng = np.random.default_rng(seed)
    X = rng.integers(0, 4, size=(300, 3)).astype(float)
    y = (X[:, 0] + rng.integers(0, 2, 300)) % 3
    tree = DecisionTreeClassifier(random_state=0).fit(X, y).tree_
    left = np.ascontiguousarray(tree.children_left)
    right = np.ascontiguousarray(tree.children_right)
    alphas, _, steps, _, _ = _prune_kernels.prune(left, right, tree.impurity,
                                                  tree.weighted_n_node_samples, np.inf)
    expected = _scan_prune(left, right, tree.impurity, tree.weighted_n_node_samples)
    np.testing.assert_allclose(alphas[1:steps], expected, rtol=1e-12, atol=1e-15)
