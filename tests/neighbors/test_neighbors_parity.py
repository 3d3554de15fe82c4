"""NearestNeighbors and the supervised estimators against scikit-learn: identical
indices, distances within 1e-10, identical predictions and probabilities."""

import numpy as np
import pytest
from sklearn import neighbors as skn

from classiclearn import neighbors as ccn

ALGORITHMS = ["brute", "kd_tree", "ball_tree"]
METRICS = [
    ("euclidean", {}),
    ("manhattan", {}),
    ("chebyshev", {}),
    ("minkowski", {"p": 3}),
    ("minkowski", {"p": 1}),
]


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(600, 5))
    Q = rng.normal(size=(150, 5))
    y = (X[:, 0] + 0.5 * rng.normal(size=600) > 0).astype(int) + (X[:, 1] > 0.8)
    yr = X[:, 0] - 2 * X[:, 1] + 0.1 * rng.normal(size=600)
    return X, Q, y, yr


def _pair(name, **kw):
    return getattr(ccn, name)(**kw), getattr(skn, name)(**kw)


@pytest.mark.parametrize("algorithm", ALGORITHMS)
@pytest.mark.parametrize("metric, kw", METRICS)
def test_kneighbors(data, algorithm, metric, kw):
    X, Q, _, _ = data
    ours, theirs = _pair("NearestNeighbors", n_neighbors=7, algorithm=algorithm, metric=metric,
                         **kw)
    ours.fit(X)
    theirs.fit(X)
    for query in (Q, None):
        d, i = ours.kneighbors(query)
        sd, si = theirs.kneighbors(query)
        np.testing.assert_array_equal(i, si)
        np.testing.assert_allclose(d, sd, rtol=0, atol=1e-10)
    g = ours.kneighbors_graph(Q, mode="distance")
    sg = theirs.kneighbors_graph(Q, mode="distance")
    assert abs(g - sg).max() < 1e-10
    assert (ours.kneighbors_graph(Q) != theirs.kneighbors_graph(Q)).nnz == 0


@pytest.mark.parametrize("algorithm", ALGORITHMS)
@pytest.mark.parametrize("metric, kw", METRICS[:3])
def test_radius_neighbors(data, algorithm, metric, kw):
    X, Q, _, _ = data
    ours, theirs = _pair("NearestNeighbors", radius=1.3, algorithm=algorithm, metric=metric,
                         **kw)
    ours.fit(X)
    theirs.fit(X)
    for query in (Q, None):
        d, i = ours.radius_neighbors(query, sort_results=True)
        sd, si = theirs.radius_neighbors(query, sort_results=True)
        for a, b, da, db in zip(i, si, d, sd):
            np.testing.assert_array_equal(a, b)
            np.testing.assert_allclose(da, db, rtol=0, atol=1e-10)
    g = ours.radius_neighbors_graph(Q, mode="distance", sort_results=True)
    sg = theirs.radius_neighbors_graph(Q, mode="distance", sort_results=True)
    assert g.shape == sg.shape and abs(g - sg).max() < 1e-10
    assert (g != 0).nnz == (sg != 0).nnz


def test_cosine_brute(data):
    X, Q, _, _ = data
    X = X.copy()
    X[3] = 0.0  # a zero row: cosine distance 1 to everything
    ours, theirs = _pair("NearestNeighbors", n_neighbors=5, metric="cosine", radius=0.2)
    d, i = ours.fit(X).kneighbors(Q)
    sd, si = theirs.fit(X).kneighbors(Q)
    np.testing.assert_array_equal(i, si)
    np.testing.assert_allclose(d, sd, rtol=0, atol=1e-10)
    r = ours.radius_neighbors(Q, sort_results=True)[1]
    sr = theirs.radius_neighbors(Q, sort_results=True)[1]
    for a, b in zip(r, sr):
        np.testing.assert_array_equal(a, b)


@pytest.mark.filterwarnings("ignore:One or more samples have no neighbors")
def test_precomputed(data):
    X, Q, y, _ = data
    D = np.sqrt(((X[:, None] - X[None]) ** 2).sum(-1))
    DQ = np.sqrt(((Q[:, None] - X[None]) ** 2).sum(-1))
    ours, theirs = _pair("KNeighborsClassifier", n_neighbors=4, metric="precomputed",
                         weights="distance")
    ours.fit(D, y)
    theirs.fit(D, y)
    np.testing.assert_array_equal(ours.kneighbors(DQ)[1], theirs.kneighbors(DQ)[1])
    np.testing.assert_array_equal(ours.kneighbors()[1], theirs.kneighbors()[1])
    np.testing.assert_allclose(ours.predict_proba(DQ), theirs.predict_proba(DQ), atol=1e-12)
    plain = ccn.KNeighborsClassifier(n_neighbors=4, weights="distance").fit(X, y)
    np.testing.assert_array_equal(ours.predict(DQ), plain.predict(Q))
    rad = ccn.RadiusNeighborsRegressor(radius=1.0, metric="precomputed").fit(D, X[:, 0])
    srad = skn.RadiusNeighborsRegressor(radius=1.0, metric="precomputed").fit(D, X[:, 0])
    np.testing.assert_allclose(rad.predict(DQ), srad.predict(DQ), rtol=1e-12)


def _callable_weights(dist):
    return np.exp(-dist)


@pytest.mark.parametrize("algorithm", ALGORITHMS)
@pytest.mark.parametrize("weights", ["uniform", "distance", _callable_weights])
def test_classifier_and_regressor(data, algorithm, weights):
    X, Q, y, yr = data
    labels = np.array(["a", "b", "c"])[y]
    for name, target in [("KNeighborsClassifier", labels), ("KNeighborsRegressor", yr)]:
        ours, theirs = _pair(name, n_neighbors=6, algorithm=algorithm, weights=weights)
        ours.fit(X, target)
        theirs.fit(X, target)
        if name.endswith("Classifier"):
            np.testing.assert_array_equal(ours.predict(Q), theirs.predict(Q))
            np.testing.assert_allclose(ours.predict_proba(Q), theirs.predict_proba(Q),
                                       rtol=0, atol=1e-12)
            np.testing.assert_array_equal(ours.classes_, theirs.classes_)
        else:
            np.testing.assert_allclose(ours.predict(Q), theirs.predict(Q), rtol=1e-12)
        assert ours.score(Q[:50], target[:50]) == pytest.approx(
            theirs.score(Q[:50], target[:50]), abs=1e-12
        )


@pytest.mark.parametrize("algorithm", ALGORITHMS)
@pytest.mark.parametrize("weights", ["uniform", "distance"])
@pytest.mark.filterwarnings("ignore:One or more samples have no neighbors")
def test_radius_classifier_and_regressor(data, algorithm, weights):
    X, Q, y, yr = data
    ours, theirs = _pair("RadiusNeighborsClassifier", radius=1.0, algorithm=algorithm,
                         weights=weights, outlier_label="most_frequent")
    ours.fit(X, y)
    theirs.fit(X, y)
    Qf = np.vstack([Q, [[9.0] * 5]])  # one outlier
    np.testing.assert_array_equal(ours.predict(Qf), theirs.predict(Qf))
    np.testing.assert_allclose(ours.predict_proba(Qf), theirs.predict_proba(Qf), atol=1e-12)
    assert ours.outlier_label_ == theirs.outlier_label_
    ours, theirs = _pair("RadiusNeighborsRegressor", radius=1.0, algorithm=algorithm,
                         weights=weights)
    ours.fit(X, yr)
    theirs.fit(X, yr)
    np.testing.assert_allclose(ours.predict(Q), theirs.predict(Q), rtol=1e-10)


def test_multioutput(data):
    X, Q, y, yr = data
    Y = np.column_stack([y, (X[:, 2] > 0).astype(int)])
    ours, theirs = _pair("KNeighborsClassifier", n_neighbors=5, weights="distance")
    ours.fit(X, Y)
    theirs.fit(X, Y)
    np.testing.assert_array_equal(ours.predict(Q), theirs.predict(Q))
    for a, b in zip(ours.predict_proba(Q), theirs.predict_proba(Q)):
        np.testing.assert_allclose(a, b, atol=1e-12)
    Yr = np.column_stack([yr, -yr])
    ours, theirs = _pair("KNeighborsRegressor", n_neighbors=5)
    np.testing.assert_allclose(ours.fit(X, Yr).predict(Q), theirs.fit(X, Yr).predict(Q),
                               rtol=1e-12)
    ours, theirs = _pair("RadiusNeighborsClassifier", radius=1.5, outlier_label=[0, 1])
    np.testing.assert_array_equal(ours.fit(X, Y).predict(Q), theirs.fit(X, Y).predict(Q))
