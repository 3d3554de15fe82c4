"""seuclidean and mahalanobis: the euclidean distance after a linear map of the rows."""

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from scipy.spatial.distance import cdist

import classiclearn.neighbors as ccn

skn = pytest.importorskip("sklearn.neighbors")


def _data():
    rng = np.random.default_rng(0)
    X, Q = rng.normal(size=(200, 4)), rng.normal(size=(30, 4))
    A = rng.normal(size=(4, 4))
    return X, Q, rng.integers(0, 3, 200), A @ A.T + np.eye(4), rng.uniform(0.5, 2.0, 4)


@pytest.mark.parametrize("algorithm", ["brute", "ball_tree", "auto"])
@pytest.mark.parametrize("metric", ["seuclidean", "mahalanobis"])
def test_distances_and_neighbours_match_scipy_and_sklearn(metric, algorithm):
    X, Q, y, VI, V = _data()
    params = {"V": V} if metric == "seuclidean" else {"VI": VI}
    ours = ccn.NearestNeighbors(n_neighbors=5, metric=metric, metric_params=params,
                                algorithm=algorithm).fit(X)
    theirs = skn.NearestNeighbors(n_neighbors=5, metric=metric, metric_params=params,
                                  algorithm=algorithm).fit(X)
    dist, ind = ours.kneighbors(Q)
    ref = cdist(Q, X, metric, **params)
    assert_allclose(dist, np.take_along_axis(ref, ind, axis=1), rtol=1e-12)
    assert_allclose(dist, np.sort(ref, axis=1)[:, :5], rtol=1e-12)
    assert_array_equal(ind, theirs.kneighbors(Q)[1])
    got = ours.radius_neighbors(Q, radius=2.0, return_distance=False)
    want = theirs.radius_neighbors(Q, radius=2.0, return_distance=False)
    assert all(set(a) == set(b) for a, b in zip(got, want, strict=True))
    assert ours.effective_metric_ == metric
    assert set(ours.effective_metric_params_) == set(params)
    clf = ccn.KNeighborsClassifier(metric=metric, metric_params=params).fit(X, y)
    ref_clf = skn.KNeighborsClassifier(metric=metric, metric_params=params).fit(X, y)
    assert_array_equal(clf.predict(Q), ref_clf.predict(Q))


def test_mahalanobis_from_the_covariance_equals_from_its_inverse():
    X, Q, _, VI, _ = _data()
    a = ccn.NearestNeighbors(metric="mahalanobis", metric_params={"VI": VI}).fit(X)
    b = ccn.NearestNeighbors(metric="mahalanobis", metric_params={"V": np.linalg.inv(VI)}).fit(X)
    assert_allclose(a.kneighbors(Q)[0], b.kneighbors(Q)[0], rtol=1e-10)


@pytest.mark.parametrize("kw, message", [
    ({"metric": "mahalanobis"}, "needs metric_params"),
    ({"metric": "seuclidean"}, "needs metric_params"),
    ({"metric": "seuclidean", "algorithm": "kd_tree", "metric_params": {"V": np.ones(4)}},
     "not valid for algorithm 'kd_tree'"),
    ({"metric": "seuclidean", "metric_params": {"V": np.ones(3)}}, "one variance per feature"),
    ({"metric": "seuclidean", "metric_params": {"V": -np.ones(4)}}, "positive"),
    ({"metric": "mahalanobis", "metric_params": {"VI": -np.eye(4)}}, "positive definite"),
])
def test_bad_parameters_are_named(kw, message):
    X = np.random.default_rng(1).normal(size=(20, 4))
    with pytest.raises(ValueError, match=message):
        ccn.NearestNeighbors(**kw).fit(X)
