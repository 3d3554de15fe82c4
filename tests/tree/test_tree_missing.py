"""Missing values (NaN) in trees and forests against scikit-learn 1.9: same splits, same
missing-value directions, same predictions."""

import numpy as np
import pytest

sk_tree = pytest.importorskip("sklearn.tree")
sk_ensemble = pytest.importorskip("sklearn.ensemble")

from classiclearn.ensemble import (  # noqa: E402
    ExtraTreesClassifier,
    ExtraTreesRegressor,
    RandomForestClassifier,
    RandomForestRegressor,
)
from classiclearn.tree import DecisionTreeClassifier, DecisionTreeRegressor  # noqa: E402
from tree_ties import RANDOM_REGRESSION_LEAF  # noqa: E402


def missing_data(seed, n=400, p=6, clf=True):
    """Continuous data with 5-50% NaN in columns 0, 2, 4; the target depends on whether
    column 2 is missing."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p))
    y = X[:, 0] + X[:, 1] ** 2 + 0.5 * rng.normal(size=n)
    for j, frac in zip((0, 2, 4), (0.05, 0.25, 0.5), strict=True):
        X[rng.random(n) < frac, j] = np.nan
    y = y + 2 * np.isnan(X[:, 2])
    if clf:
        y = (y > 1).astype(int) + (y > 2.5)
    return X, y


def assert_same_tree(ours, theirs):
    a, b = ours.tree_, theirs.tree_
    assert a.node_count == b.node_count
    np.testing.assert_array_equal(a.children_left, b.children_left)
    np.testing.assert_array_equal(a.children_right, b.children_right)
    np.testing.assert_array_equal(a.feature, b.feature)
    np.testing.assert_allclose(a.threshold, b.threshold, rtol=0, atol=1e-12)
    inner = b.children_left >= 0
    np.testing.assert_array_equal(a.missing_go_to_left[inner], b.missing_go_to_left[inner])
    np.testing.assert_array_equal(a.n_node_samples, b.n_node_samples)
    np.testing.assert_allclose(a.value, b.value, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(a.impurity, b.impurity, rtol=1e-9, atol=1e-12)


PARAMS = [
    {},
    {"max_depth": 4},
    {"min_samples_leaf": 5},
    {"max_leaf_nodes": 10},
    {"max_features": 3},
    {"splitter": "random"},
    {"splitter": "random", "max_features": 2, "min_samples_leaf": 3},
]


@pytest.mark.parametrize("params", PARAMS, ids=lambda p: "-".join(p) or "default")
@pytest.mark.parametrize("criterion", ["gini", "entropy"])
def test_classifier_with_missing_values_equals_sklearn(params, criterion):
    for seed in range(3):
        X, y = missing_data(seed)
        ours = DecisionTreeClassifier(criterion=criterion, random_state=seed, **params)
        theirs = sk_tree.DecisionTreeClassifier(criterion=criterion, random_state=seed,
                                                **params)
        ours.fit(X, y)
        theirs.fit(X, y)
        assert_same_tree(ours, theirs)
        Xt, _ = missing_data(seed + 10)
        np.testing.assert_array_equal(ours.predict(Xt), theirs.predict(Xt))
        np.testing.assert_allclose(ours.predict_proba(Xt), theirs.predict_proba(Xt),
                                   atol=1e-12)
        np.testing.assert_array_equal(ours.apply(Xt), theirs.apply(Xt))
        assert (ours.decision_path(Xt) != theirs.decision_path(Xt)).nnz == 0


@pytest.mark.parametrize("params", PARAMS, ids=lambda p: "-".join(p) or "default")
def test_regressor_with_missing_values_equals_sklearn(params):
    if params.get("splitter") == "random" and "min_samples_leaf" not in params:
        params = dict(params, min_samples_leaf=RANDOM_REGRESSION_LEAF)
    for seed in range(3):
        X, y = missing_data(seed, clf=False)
        ours = DecisionTreeRegressor(random_state=seed, **params).fit(X, y)
        theirs = sk_tree.DecisionTreeRegressor(random_state=seed, **params).fit(X, y)
        assert_same_tree(ours, theirs)
        Xt, _ = missing_data(seed + 10, clf=False)
        np.testing.assert_allclose(ours.predict(Xt), theirs.predict(Xt), rtol=1e-12)


def test_nan_against_the_rest_split_has_infinite_threshold():
    # y is exactly "column 0 missing": the root sends the missing values (alone) right
    rng = np.random.default_rng(0)
    X = rng.normal(size=(200, 3))
    miss = rng.random(200) < 0.3
    X[miss, 0] = np.nan
    y = miss.astype(int)
    ours = DecisionTreeClassifier(random_state=0).fit(X, y)
    theirs = sk_tree.DecisionTreeClassifier(random_state=0).fit(X, y)
    assert_same_tree(ours, theirs)
    assert ours.tree_.feature[0] == 0 and ours.tree_.threshold[0] == np.inf
    assert ours.tree_.missing_go_to_left[0] == 0
    assert ours.get_depth() == 1


def test_nan_in_a_feature_never_missing_goes_to_the_larger_child():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(300, 4))
    y = X[:, 0] + 0.3 * X[:, 1] + 0.1 * rng.normal(size=300)
    ours = DecisionTreeRegressor(max_depth=3, random_state=0).fit(X, y)
    theirs = sk_tree.DecisionTreeRegressor(max_depth=3, random_state=0).fit(X, y)
    assert_same_tree(ours, theirs)
    t = ours.tree_
    inner = np.flatnonzero(t.children_left >= 0)
    larger_left = (t.n_node_samples[t.children_left[inner]]
                   > t.n_node_samples[t.children_right[inner]])
    np.testing.assert_array_equal(t.missing_go_to_left[inner], larger_left)
    Xt = rng.normal(size=(100, 4))
    Xt[rng.random((100, 4)) < 0.3] = np.nan
    np.testing.assert_allclose(ours.predict(Xt), theirs.predict(Xt), rtol=1e-12)
    np.testing.assert_array_equal(ours.apply(Xt), theirs.apply(Xt))


def test_infinity_is_still_refused_and_input_is_not_modified():
    X, y = missing_data(0)
    X0 = X.copy()
    DecisionTreeClassifier(random_state=0).fit(X, y)
    np.testing.assert_array_equal(X, X0)
    X[0, 1] = np.inf
    with pytest.raises(ValueError, match="infinity"):
        DecisionTreeClassifier().fit(X, y)


def test_all_missing_column_and_pruning_keep_directions():
    X, y = missing_data(2)
    X[:, 5] = np.nan
    ours = DecisionTreeClassifier(random_state=0, ccp_alpha=0.01).fit(X, y)
    theirs = sk_tree.DecisionTreeClassifier(random_state=0, ccp_alpha=0.01).fit(X, y)
    assert_same_tree(ours, theirs)
    assert 5 not in ours.tree_.feature


FORESTS = {
    "rf_c": (RandomForestClassifier, sk_ensemble.RandomForestClassifier),
    "et_c": (ExtraTreesClassifier, sk_ensemble.ExtraTreesClassifier),
    "rf_r": (RandomForestRegressor, sk_ensemble.RandomForestRegressor),
    "et_r": (ExtraTreesRegressor, sk_ensemble.ExtraTreesRegressor),
}


@pytest.mark.parametrize("kind", list(FORESTS))
def test_forest_with_missing_values_equals_sklearn(kind):
    ours_cls, theirs_cls = FORESTS[kind]
    X, y = missing_data(4, clf=kind.endswith("_c"))
    Xt, _ = missing_data(5, clf=kind.endswith("_c"))
    params = dict(n_estimators=6, random_state=3, max_features=0.5, min_samples_leaf=2)
    if kind == "et_r":  # float-level ties of small regression nodes
        params["min_samples_leaf"] = RANDOM_REGRESSION_LEAF
    ours = ours_cls(**params).fit(X, y)
    theirs = theirs_cls(**params).fit(X, y)
    for a, b in zip(ours.estimators_, theirs.estimators_, strict=True):
        assert_same_tree(a, b)
    if kind.endswith("_c"):
        np.testing.assert_allclose(ours.predict_proba(Xt), theirs.predict_proba(Xt),
                                   atol=1e-12)
    else:
        np.testing.assert_allclose(ours.predict(Xt), theirs.predict(Xt), rtol=1e-12)
    np.testing.assert_array_equal(ours.apply(Xt), theirs.apply(Xt))
    # the threaded compact walk (no NaN) and the NaN-aware walk agree on finite rows
    finite = ~np.isnan(Xt).any(axis=1)
    np.testing.assert_array_equal(ours.apply(Xt)[finite], ours.apply(Xt[finite]))


def test_model_file_keeps_missing_directions(tmp_path):
    from classiclearn.io import load, save

    X, y = missing_data(3)
    est = RandomForestClassifier(n_estimators=3, random_state=0).fit(X, y)
    save(est, tmp_path / "rf.clm")
    back = load(tmp_path / "rf.clm")
    for a, b in zip(est.estimators_, back.estimators_, strict=True):
        np.testing.assert_array_equal(a.tree_.missing_go_to_left, b.tree_.missing_go_to_left)
    np.testing.assert_array_equal(est.predict_proba(X), back.predict_proba(X))


@pytest.mark.parametrize("kind", ["clf", "reg"])
def test_histogram_splitter_with_missing_values_equals_exact_on_few_values(kind):
    # with fewer distinct values than bins, the bins are the values and the missing
    # values have their own bin: the histogram search finds the exact splitter's splits
    rng = np.random.default_rng(7)
    X = rng.integers(0, 20, size=(600, 3)).astype(float)
    X[rng.random(600) < 0.2, 0] = np.nan
    X[rng.random(600) < 0.4, 1] = np.nan
    y = np.nan_to_num(X[:, 0], nan=25.0) + np.nan_to_num(X[:, 1], nan=-5.0) + X[:, 2] / 7
    cls = DecisionTreeClassifier if kind == "clf" else DecisionTreeRegressor
    if kind == "clf":
        y = (y > 20).astype(int)
    a = cls(max_depth=3, random_state=0).fit(X, y)
    b = cls(max_depth=3, random_state=0, max_bins=32).fit(X, y)
    for name in ("feature", "threshold", "missing_go_to_left", "n_node_samples"):
        np.testing.assert_array_equal(getattr(a.tree_, name), getattr(b.tree_, name))
    Xt = rng.integers(0, 20, size=(300, 3)).astype(float)
    Xt[rng.random((300, 3)) < 0.3] = np.nan
    # leaf means summed in another order (per bin, then bins)
    np.testing.assert_allclose(a.predict(Xt), b.predict(Xt), rtol=1e-12)


def test_histogram_forest_with_missing_values_scores_like_exact():
    X, y = missing_data(6, n=3000)
    Xt, yt = missing_data(7, n=2000)
    exact = RandomForestClassifier(n_estimators=20, random_state=0).fit(X, y).score(Xt, yt)
    hist = RandomForestClassifier(n_estimators=20, random_state=0, max_bins=32).fit(X, y)
    assert abs(hist.score(Xt, yt) - exact) < 0.02
    # a feature whose every value is missing, and predictions on rows all missing
    Z = X.copy()
    Z[:, 3] = np.nan
    est = ExtraTreesRegressor(n_estimators=5, random_state=0, max_bins=16).fit(Z, y * 1.0)
    assert np.isfinite(est.predict(np.full((4, 6), np.nan))).all()


def test_nan_rows_take_the_same_leaves_on_every_walk(monkeypatch):
    # the plain walk reads missing_go_to_left; the compact and narrow walks read the
    # doubled rows (NaN as -inf | +inf): all three must agree, with sklearn too
    from classiclearn.tree import _tree

    X, y = missing_data(8, n=600)
    Xt, _ = missing_data(9, n=600)
    ours = RandomForestClassifier(n_estimators=4, random_state=0).fit(X, y)
    theirs = sk_ensemble.RandomForestClassifier(n_estimators=4, random_state=0).fit(X, y)
    expected = theirs.apply(Xt)
    np.testing.assert_array_equal(ours.apply(Xt), expected)  # narrow records
    proba = ours.predict_proba(Xt)
    monkeypatch.setattr(_tree, "narrow_forest", lambda *args: None)
    np.testing.assert_array_equal(ours.apply(Xt), expected)  # compact records
    np.testing.assert_allclose(ours.predict_proba(Xt), proba, atol=1e-15)
    monkeypatch.setattr(_tree, "_PLAIN_STEPS", 0)
    np.testing.assert_array_equal(ours.apply(Xt), expected)  # plain walk
    np.testing.assert_allclose(ours.predict_proba(Xt), proba, atol=1e-15)
    np.testing.assert_allclose(proba, theirs.predict_proba(Xt), atol=1e-12)


def test_multi_output_weights_and_pruning_path_with_missing_values_equal_sklearn():
    X, y = missing_data(0)
    _, yr = missing_data(0, clf=False)
    Y = np.c_[y, (yr > 0.5).astype(int)]
    ours = DecisionTreeClassifier(random_state=0).fit(X, Y)
    assert_same_tree(ours, sk_tree.DecisionTreeClassifier(random_state=0).fit(X, Y))
    R = np.c_[yr, yr ** 2]
    ours = DecisionTreeRegressor(random_state=0, max_depth=5).fit(X, R)
    assert_same_tree(ours, sk_tree.DecisionTreeRegressor(random_state=0, max_depth=5).fit(X, R))
    sw = np.random.default_rng(0).integers(0, 4, size=y.size).astype(float)
    params = dict(random_state=0, class_weight="balanced", min_weight_fraction_leaf=0.02)
    ours = DecisionTreeClassifier(**params).fit(X, y, sample_weight=sw)
    theirs = sk_tree.DecisionTreeClassifier(**params).fit(X, y, sample_weight=sw)
    assert_same_tree(ours, theirs)
    a = DecisionTreeClassifier(random_state=0).cost_complexity_pruning_path(X, y)
    b = sk_tree.DecisionTreeClassifier(random_state=0).cost_complexity_pruning_path(X, y)
    np.testing.assert_allclose(a.ccp_alphas, b.ccp_alphas, rtol=1e-9, atol=1e-15)


@pytest.mark.parametrize("params", [{"max_depth": 2}, {"max_depth": 3, "splitter": "random"}],
                         ids=["best", "random"])
def test_absolute_error_with_missing_values_equals_sklearn(params):
    # shallow trees: deep absolute-error nodes hold median ties that scikit-learn 1.9
    # breaks its own way (with or without missing values)
    for seed in range(3):
        X, y = missing_data(seed, clf=False)
        ours = DecisionTreeRegressor(criterion="absolute_error", random_state=seed, **params)
        theirs = sk_tree.DecisionTreeRegressor(criterion="absolute_error", random_state=seed,
                                               **params)
        assert_same_tree(ours.fit(X, y), theirs.fit(X, y))


@pytest.mark.parametrize("criterion", ["misclassification", "log_loss"])
def test_other_classification_criteria_learn_the_missing_indicator(criterion):
    rng = np.random.default_rng(4)
    X = rng.normal(size=(300, 3))
    miss = rng.random(300) < 0.4
    X[miss, 1] = np.nan
    y = miss.astype(int)
    est = DecisionTreeClassifier(criterion=criterion, random_state=0).fit(X, y)
    assert est.tree_.feature[0] == 1 and est.tree_.threshold[0] == np.inf
    assert est.get_depth() == 1 and est.score(X, y) == 1.0
