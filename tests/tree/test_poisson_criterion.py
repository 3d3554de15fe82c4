"""criterion="poisson" for the regression trees and forests, as scikit-learn 1.9."""

import numpy as np
import pytest
from sklearn import ensemble as sk_ensemble
from sklearn import tree as sk_tree
from sklearn.metrics import mean_poisson_deviance

from classiclearn.ensemble import ExtraTreesRegressor, RandomForestRegressor
from classiclearn.tree import DecisionTreeRegressor


def _counts(seed, n=500):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 5))
    y = rng.poisson(np.exp(0.5 * X[:, 0] - 0.3 * X[:, 1])).astype(float)
    return X, y


def _same_tree(a, b):
    assert a.node_count == b.node_count
    np.testing.assert_array_equal(a.feature, b.feature)
    np.testing.assert_array_equal(a.children_left, b.children_left)
    np.testing.assert_allclose(a.threshold, b.threshold)
    np.testing.assert_allclose(a.impurity, b.impurity, rtol=1e-10, atol=1e-14)
    np.testing.assert_allclose(a.value.ravel(), b.value.ravel(), rtol=1e-12)


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("params", [{}, {"max_depth": 4}, {"min_samples_leaf": 5},
                                    {"splitter": "random"}, {"max_features": 2}])
def test_tree_node_for_node(seed, params):
    X, y = _counts(seed)
    ours = DecisionTreeRegressor(criterion="poisson", random_state=0, **params).fit(X, y)
    theirs = sk_tree.DecisionTreeRegressor(criterion="poisson", random_state=0,
                                           **params).fit(X, y)
    _same_tree(ours.tree_, theirs.tree_)


@pytest.mark.parametrize("cls, sk_cls", [(RandomForestRegressor, sk_ensemble.RandomForestRegressor),
                                         (ExtraTreesRegressor, sk_ensemble.ExtraTreesRegressor)])
def test_forests_predict_as_sklearn(cls, sk_cls):
    X, y = _counts(3)
    ours = cls(criterion="poisson", n_estimators=10, random_state=0).fit(X, y)
    theirs = sk_cls(criterion="poisson", n_estimators=10, random_state=0).fit(X, y)
    np.testing.assert_allclose(ours.predict(X), theirs.predict(X), rtol=1e-12)


def test_weighted_tree_fits_as_well_as_sklearn():
    # with fractional weights scikit-learn's sum_total - sum_left can leave a child
    # of zero counts a rounding residue above EPSILON and split it off; the trees
    # may then differ in such degenerate leaves, never in quality
    X, y = _counts(0)
    w = np.random.default_rng(0).uniform(0.5, 2.0, len(y))
    ours = DecisionTreeRegressor(criterion="poisson", max_depth=6, random_state=0)
    theirs = sk_tree.DecisionTreeRegressor(criterion="poisson", max_depth=6, random_state=0)
    ours.fit(X, y, sample_weight=w)
    theirs.fit(X, y, sample_weight=w)
    d_ours = mean_poisson_deviance(y, ours.predict(X), sample_weight=w)
    d_theirs = mean_poisson_deviance(y, theirs.predict(X), sample_weight=w)
    assert d_ours == pytest.approx(d_theirs, rel=0.02)
    assert np.all(ours.predict(X) > 0)


def test_leaves_never_predict_zero_and_bad_targets_are_named():
    X, y = _counts(4)
    est = DecisionTreeRegressor(criterion="poisson", random_state=0).fit(X, y)
    assert np.all(est.tree_.value[est.tree_.children_left == -1] > 0)
    with pytest.raises(ValueError, match="negative which is not allowed for Poisson"):
        DecisionTreeRegressor(criterion="poisson").fit(X, np.r_[-1.0, y[1:]])
    with pytest.raises(ValueError, match="Sum of y is not positive"):
        RandomForestRegressor(criterion="poisson").fit(X, np.zeros(len(y)))
    with pytest.raises(ValueError, match="does not support criterion='poisson'"):
        DecisionTreeRegressor(criterion="poisson", max_bins=32).fit(X, y)
