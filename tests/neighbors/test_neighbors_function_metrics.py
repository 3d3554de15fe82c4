"""Metrics given by a function (a callable, 'pyfunc') and haversine, against scikit-learn."""

import pickle

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal

import classiclearn.neighbors as ccn

skn = pytest.importorskip("sklearn.neighbors")


def manhattan(a, b, scale=1.0):
    return float(np.abs(a - b).sum()) * scale


def _data():
    rng = np.random.default_rng(0)
    X = rng.uniform(-1.5, 1.5, size=(120, 2))
    return X, rng.uniform(-1.5, 1.5, size=(20, 2)), rng.integers(0, 3, 120)


@pytest.mark.parametrize("kw", [
    {"metric": "haversine"},
    {"metric": "haversine", "algorithm": "ball_tree"},
    {"metric": manhattan},
    {"metric": manhattan, "metric_params": {"scale": 2.0}},
    {"metric": "pyfunc", "metric_params": {"func": manhattan}},
])
def test_function_metrics_match_sklearn(kw):
    X, Q, y = _data()
    ours = ccn.NearestNeighbors(n_neighbors=4, **kw).fit(X)
    theirs = skn.NearestNeighbors(n_neighbors=4, **kw).fit(X)
    for query in (Q, None):
        d_ours, i_ours = ours.kneighbors(query)
        d_theirs, i_theirs = theirs.kneighbors(query)
        assert_allclose(d_ours, d_theirs, rtol=1e-12, atol=1e-15)
        assert_array_equal(i_ours, i_theirs)
    got = ours.radius_neighbors(Q, radius=0.8, return_distance=False)
    want = theirs.radius_neighbors(Q, radius=0.8, return_distance=False)
    assert all(set(a) == set(b) for a, b in zip(got, want, strict=True))
    clf = ccn.KNeighborsClassifier(**kw).fit(X, y)
    assert_array_equal(clf.predict(Q), skn.KNeighborsClassifier(**kw).fit(X, y).predict(Q))
    reg = ccn.RadiusNeighborsRegressor(radius=1.0, **kw).fit(X, y.astype(float))
    ref = skn.RadiusNeighborsRegressor(radius=1.0, **kw).fit(X, y.astype(float))
    assert_allclose(reg.predict(Q), ref.predict(Q), rtol=1e-12)
    assert_array_equal(pickle.loads(pickle.dumps(ours)).kneighbors(Q)[1], ours.kneighbors(Q)[1])


@pytest.mark.parametrize("kw, message", [
    ({"metric": "haversine", "algorithm": "kd_tree"}, "not valid for algorithm 'kd_tree'"),
    ({"metric": "pyfunc"}, "needs metric_params"),
    ({"metric": "haversine", "metric_params": {"r": 1}}, "no metric_params"),
])
def test_bad_function_metrics_are_named(kw, message):
    X, _, _ = _data()
    with pytest.raises(ValueError, match=message):
        ccn.NearestNeighbors(**kw).fit(X)


def test_haversine_needs_two_features():
    with pytest.raises(ValueError, match="two features"):
        ccn.NearestNeighbors(metric="haversine").fit(np.zeros((5, 3)))


def test_a_function_returning_negative_distances_is_named():
    X, Q, _ = _data()
    model = ccn.NearestNeighbors(metric=lambda a, b: -1.0).fit(X)
    with pytest.raises(ValueError, match="negative or non-finite"):
        model.kneighbors(Q)
