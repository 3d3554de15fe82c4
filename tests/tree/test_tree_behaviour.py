"""Decision trees: misclassification criterion by brute force, limits, errors, weights, hist."""

import numpy as np
import pytest

from classiclearn.exceptions import InvalidParameterError
from classiclearn.tree import DecisionTreeClassifier, DecisionTreeRegressor


def _misclass_cost(y, w, classes):
    if len(y) == 0:
        return 0.0
    return w.sum() - max(w[y == c].sum() for c in classes)


def _brute_best(X, y, w, min_samples_leaf):
    """Smallest weighted misclassification count of the two children over every split."""
    classes = np.unique(y)
    best = np.inf
    for f in range(X.shape[1]):
        values = np.unique(X[:, f])
        for lo, hi in zip(values[:-1], values[1:], strict=True):
            left = X[:, f] <= (lo / 2 + hi / 2)
            if left.sum() < min_samples_leaf or (~left).sum() < min_samples_leaf:
                continue
            cost = (_misclass_cost(y[left], w[left], classes)
                    + _misclass_cost(y[~left], w[~left], classes))
            best = min(best, cost)
    return best


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("min_samples_leaf", [1, 3])
def test_misclassification_matches_brute_force(seed, min_samples_leaf):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 12, size=(60, 3)).astype(np.float64)
    y = (X[:, 0] + rng.integers(0, 6, size=60) > 8).astype(int) + (X[:, 1] > 9)
    w = rng.integers(1, 4, size=60).astype(np.float64)
    clf = DecisionTreeClassifier(criterion="misclassification", max_depth=3,
                                 min_samples_leaf=min_samples_leaf, random_state=seed)
    clf.fit(X, y, sample_weight=w)
    tree = clf.tree_
    paths = clf.decision_path(X).toarray().astype(bool)
    n_internal = 0
    for node in range(tree.node_count):
        if tree.children_left[node] < 0:
            continue
        n_internal += 1
        rows = paths[:, node]
        Xn, yn, wn = X[rows], y[rows], w[rows]
        left = Xn[:, tree.feature[node]] <= tree.threshold[node]
        got = (_misclass_cost(yn[left], wn[left], np.unique(y))
               + _misclass_cost(yn[~left], wn[~left], np.unique(y)))
        assert got == pytest.approx(_brute_best(Xn, yn, wn, min_samples_leaf))
        assert tree.impurity[node] == pytest.approx(
            _misclass_cost(yn, wn, np.unique(y)) / wn.sum())
    assert n_internal >= 3


def test_misclassification_leaves_pure_data_alone():
    X = np.arange(10, dtype=float).reshape(-1, 1)
    y = (X[:, 0] > 4.5).astype(int)
    clf = DecisionTreeClassifier(criterion="misclassification").fit(X, y)
    assert clf.get_n_leaves() == 2
    assert clf.tree_.threshold[0] == 4.5


@pytest.mark.parametrize(
    "params",
    [{"max_depth": 0}, {"max_depth": -1}, {"min_samples_leaf": 0}, {"min_samples_leaf": 1.0},
     {"min_samples_split": 1}, {"max_features": 0}, {"max_features": 1.5},
     {"ccp_alpha": -0.1}, {"criterion": "bogus"}, {"max_leaf_nodes": 1},
     {"min_weight_fraction_leaf": 0.6}, {"max_bins": 256}, {"max_bins": 1}],
)
def test_bad_parameters_raise(params):
    X = np.random.default_rng(0).normal(size=(20, 3))
    y = np.arange(20) % 2
    with pytest.raises((InvalidParameterError, ValueError)):
        DecisionTreeClassifier(**params).fit(X, y)


def test_max_features_above_n_features_raises():
    X = np.random.default_rng(0).normal(size=(20, 3))
    with pytest.raises(ValueError, match="max_features"):
        DecisionTreeRegressor(max_features=4).fit(X, X[:, 0])


def test_absolute_error_with_bins_raises():
    X = np.random.default_rng(0).normal(size=(20, 3))
    with pytest.raises(ValueError, match="absolute_error"):
        DecisionTreeRegressor(criterion="absolute_error", max_bins=32).fit(X, X[:, 0])


def test_weight_two_equals_row_twice():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(80, 4))
    y = (X[:, 0] + 0.5 * rng.normal(size=80) > 0).astype(int)
    w = rng.integers(1, 3, size=80)
    a = DecisionTreeClassifier(random_state=0).fit(X, y, sample_weight=w.astype(float))
    b = DecisionTreeClassifier(random_state=0).fit(np.repeat(X, w, axis=0), np.repeat(y, w))
    np.testing.assert_allclose(a.tree_.threshold, b.tree_.threshold)
    np.testing.assert_allclose(a.tree_.impurity, b.tree_.impurity, atol=1e-12)
    Xt = rng.normal(size=(200, 4))
    np.testing.assert_array_equal(a.predict(Xt), b.predict(Xt))


def test_regressor_criteria_and_limits():
    rng = np.random.default_rng(4)
    X = rng.normal(size=(300, 3))
    y = X[:, 0] ** 2 + 0.1 * rng.normal(size=300)
    for criterion in ["squared_error", "friedman_mse", "absolute_error"]:
        reg = DecisionTreeRegressor(criterion=criterion, max_depth=4, random_state=0).fit(X, y)
        assert reg.score(X, y) > 0.8
        assert reg.get_depth() <= 4
    reg = DecisionTreeRegressor(max_leaf_nodes=7, random_state=0).fit(X, y)
    assert reg.get_n_leaves() == 7
    reg = DecisionTreeRegressor(min_samples_leaf=20, random_state=0).fit(X, y)
    assert reg.tree_.n_node_samples[reg.tree_.children_left < 0].min() >= 20


def test_float32_pandas_and_string_labels():
    pd = pytest.importorskip("pandas")
    rng = np.random.default_rng(5)
    X = pd.DataFrame(rng.normal(size=(50, 2)).astype(np.float32), columns=["a", "b"])
    y = np.where(X["a"] > 0, "pos", "neg")
    clf = DecisionTreeClassifier().fit(X, y)
    assert list(clf.feature_names_in_) == ["a", "b"]
    assert set(clf.predict(X)) == {"pos", "neg"}
    assert clf.score(X, y) == 1.0
    assert clf.predict_proba(X).shape == (50, 2)


def test_histogram_mode_close_to_exact():
    datasets = pytest.importorskip("sklearn.datasets")
    model_selection = pytest.importorskip("sklearn.model_selection")
    gaps = []
    for loader in (datasets.load_breast_cancer, datasets.load_digits, datasets.load_wine):
        X, y = loader(return_X_y=True)
        for seed in range(3):
            Xa, Xb, ya, yb = model_selection.train_test_split(X, y, random_state=seed)
            exact = DecisionTreeClassifier(max_depth=6, random_state=seed).fit(Xa, ya)
            hist = DecisionTreeClassifier(max_depth=6, random_state=seed, max_bins=255)
            hist.fit(Xa, ya)
            gaps.append(exact.score(Xb, yb) - hist.score(Xb, yb))
    assert np.mean(gaps) < 0.02
    X, y = datasets.load_diabetes(return_X_y=True)
    r2 = [DecisionTreeRegressor(max_depth=3, max_bins=b, random_state=0).fit(X, y).score(X, y)
          for b in (None, 255)]
    assert abs(r2[0] - r2[1]) < 0.01


def test_histogram_mode_small_data_is_exact():
    # with fewer distinct values than bins, the bins are the values themselves
    rng = np.random.default_rng(6)
    X = rng.integers(0, 20, size=(200, 3)).astype(float)
    y = (X[:, 0] + X[:, 1] > 20).astype(int)
    a = DecisionTreeClassifier(max_depth=4, random_state=0).fit(X, y)
    b = DecisionTreeClassifier(max_depth=4, random_state=0, max_bins=32).fit(X, y)
    np.testing.assert_array_equal(a.predict(X), b.predict(X))
    for params in [{"max_leaf_nodes": 6}, {"splitter": "random"}]:
        c = DecisionTreeClassifier(random_state=0, max_bins=32, **params).fit(X, y)
        assert c.score(X, y) > 0.9
