"""monotonic_cst in trees and forests against scikit-learn 1.9: same trees (splits rejected,
values clipped to the bounds from above), and predictions monotone along the constrained
features."""

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

CST = [1, -1, 0, 0]


def mono_data(seed=0, n=300, nan=False):
    """y rises with column 0 (with wiggles the constraint must flatten) and falls with
    column 1."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 4))
    y = 2 * X[:, 0] - X[:, 1] + np.sin(3 * X[:, 0]) + 0.5 * X[:, 2] + rng.normal(size=n)
    yc = (y + rng.normal(size=n) > 0).astype(int)
    if nan:
        X[rng.random(n) < 0.2, 0] = np.nan
        X[rng.random(n) < 0.3, 2] = np.nan
    return X, y, yc


def assert_same_tree(a, b):
    a, b = a.tree_, b.tree_
    assert a.node_count == b.node_count
    np.testing.assert_array_equal(a.children_left, b.children_left)
    np.testing.assert_array_equal(a.feature, b.feature)
    np.testing.assert_allclose(a.threshold, b.threshold, rtol=0, atol=1e-12)
    inner = b.children_left >= 0
    np.testing.assert_array_equal(a.missing_go_to_left[inner], b.missing_go_to_left[inner])
    np.testing.assert_allclose(a.value, b.value, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(a.impurity, b.impurity, rtol=1e-9, atol=1e-12)


PARAMS = [{}, {"max_depth": 4}, {"max_leaf_nodes": 12}, {"splitter": "random"},
          {"min_samples_leaf": 5, "max_features": 2}]


@pytest.mark.parametrize("nan", [False, True], ids=["finite", "nan"])
@pytest.mark.parametrize("params", PARAMS, ids=lambda p: "-".join(p) or "default")
def test_monotonic_trees_equal_sklearn(params, nan):
    # scikit-learn 1.9 accepts missing values with monotonic_cst: so do we
    X, y, yc = mono_data(nan=nan)
    for ours_cls, theirs_cls, target in (
            (DecisionTreeClassifier, sk_tree.DecisionTreeClassifier, yc),
            (DecisionTreeRegressor, sk_tree.DecisionTreeRegressor, y)):
        if ours_cls is DecisionTreeRegressor and params.get("splitter") == "random":
            # float-level ties of small regression nodes: see RANDOM_REGRESSION_LEAF
            params = dict(params, min_samples_leaf=RANDOM_REGRESSION_LEAF)
        ours = ours_cls(monotonic_cst=CST, random_state=0, **params).fit(X, target)
        theirs = theirs_cls(monotonic_cst=CST, random_state=0, **params).fit(X, target)
        assert_same_tree(ours, theirs)


@pytest.mark.parametrize("pair", [(RandomForestClassifier, sk_ensemble.RandomForestClassifier),
                                  (ExtraTreesRegressor, sk_ensemble.ExtraTreesRegressor)],
                         ids=["rf_c", "et_r"])
def test_monotonic_forests_equal_sklearn(pair):
    ours_cls, theirs_cls = pair
    X, y, yc = mono_data(1)
    target = yc if ours_cls._is_clf else y
    params = {} if ours_cls._is_clf else {"min_samples_leaf": RANDOM_REGRESSION_LEAF}
    ours = ours_cls(n_estimators=5, monotonic_cst=CST, random_state=0, **params).fit(X, target)
    theirs = theirs_cls(n_estimators=5, monotonic_cst=CST, random_state=0, **params).fit(
        X, target)
    for a, b in zip(ours.estimators_, theirs.estimators_, strict=True):
        assert_same_tree(a, b)


def _grid_predictions(est, X, feature):
    """Predictions (positive-class probability for classifiers) of every row of X with
    ``feature`` swept over a grid: array (n_rows, n_grid)."""
    grid = np.linspace(-3, 3, 41)
    out = []
    for v in grid:
        Z = X.copy()
        Z[:, feature] = v
        out.append(est.predict_proba(Z)[:, 1] if hasattr(est, "predict_proba")
                   else est.predict(Z))
    return np.stack(out, axis=1)


@pytest.mark.parametrize("est", [
    DecisionTreeRegressor(monotonic_cst=CST, random_state=0),
    DecisionTreeClassifier(monotonic_cst=CST, random_state=0),
    DecisionTreeRegressor(monotonic_cst=CST, max_bins=16, random_state=0),
    RandomForestRegressor(n_estimators=10, monotonic_cst=CST, random_state=0),
    ExtraTreesClassifier(n_estimators=10, monotonic_cst=CST, random_state=0, max_bins=32),
], ids=["tree_r", "tree_c", "hist_r", "rf_r", "et_c_hist"])
def test_predictions_are_monotone_along_constrained_features(est):
    X, y, yc = mono_data(2, n=2000)
    est.fit(X, yc if hasattr(est, "predict_proba") else y)
    Xq = mono_data(3, n=50)[0]
    up = _grid_predictions(est, Xq, 0)
    down = _grid_predictions(est, Xq, 1)
    assert (np.diff(up, axis=1) >= -1e-12).all()
    assert (np.diff(down, axis=1) <= 1e-12).all()
    # the unconstrained fit is not monotone on this data (the test can fail)
    free = type(est)(**{**est.get_params(), "monotonic_cst": None}).fit(
        X, yc if hasattr(est, "predict_proba") else y)
    assert (np.diff(_grid_predictions(free, Xq, 0), axis=1) < -1e-12).any()


def test_monotonic_cst_errors_name_the_problem():
    X, y, yc = mono_data()
    with pytest.raises(ValueError, match="monotonic_cst has shape 3"):
        DecisionTreeRegressor(monotonic_cst=[1, 0, 0]).fit(X, y)
    with pytest.raises(ValueError, match="-1, 0 or 1"):
        DecisionTreeRegressor(monotonic_cst=[2, 0, 0, 0]).fit(X, y)
    with pytest.raises(ValueError, match="multiclass"):
        DecisionTreeClassifier(monotonic_cst=CST).fit(X, yc + (X[:, 3] > 1))
    with pytest.raises(ValueError, match="multiple outputs"):
        RandomForestRegressor(n_estimators=2, monotonic_cst=CST).fit(X, np.c_[y, y])
    with pytest.raises(ValueError, match="absolute_error"):
        DecisionTreeRegressor(monotonic_cst=CST, criterion="absolute_error").fit(X, y)


def test_model_file_keeps_monotonic_cst(tmp_path):
    from classiclearn.io import load, save

    X, y, _ = mono_data()
    est = RandomForestRegressor(n_estimators=3, monotonic_cst=CST, random_state=0).fit(X, y)
    save(est, tmp_path / "rf.clm")
    back = load(tmp_path / "rf.clm")
    assert list(back.monotonic_cst) == CST
    np.testing.assert_array_equal(back.predict(X), est.predict(X))
