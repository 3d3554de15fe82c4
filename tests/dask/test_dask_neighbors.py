"""k nearest neighbours on Dask training data: the blocks' local top k merged in
block order, exactly the in-memory neighbours (ties to the lower training index)."""

import pickle

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal

da = pytest.importorskip("dask.array")

from classiclearn.neighbors import (  # noqa: E402
    KNeighborsClassifier,
    KNeighborsRegressor,
    NearestNeighbors,
)
from classiclearn.utils._dask import DaskUnsupportedError  # noqa: E402

CHUNKINGS = [(500,), (1, 199, 0, 300), (37,) * 13 + (19,)]
# rounded coordinates: many exactly equal distances, and distances equal after the
# square root whose squares differ in the last place
METRICS = [("euclidean", None), ("manhattan", None), ("chebyshev", None), ("cosine", None),
           ("minkowski", {"p": 3}), ("minkowski", {"w": np.array([1.0, 2.0, 0.5, 1.0])}),
           ("seuclidean", {"V": np.array([1.0, 2.0, 0.5, 1.5])})]


def _data(seed=0, n=500, m=60, d=4):
    rng = np.random.default_rng(seed)
    X = np.round(rng.normal(size=(n, d)), 1)
    Q = np.round(rng.normal(size=(m, d)), 1)
    Q[:5] = X[[0, 7, 250, 499, 100]]  # queries equal to training rows
    return X, Q, rng


def _kw(metric, params):
    kw = {"metric": metric, "metric_params": params}
    if params is not None and "p" in params:
        kw = {"metric": metric, "p": params["p"]}
    return kw


@pytest.mark.parametrize("chunks", CHUNKINGS)
@pytest.mark.parametrize("metric, params", METRICS)
def test_kneighbors_on_dask_training_data_are_the_in_memory_ones(metric, params, chunks):
    X, Q, _ = _data()
    kw = _kw(metric, params)
    a = NearestNeighbors(n_neighbors=7, algorithm="brute", **kw).fit(X)
    b = NearestNeighbors(n_neighbors=7, **kw).fit(da.from_array(X, chunks=(chunks, 4)))
    dist_a, ind_a = a.kneighbors(Q)
    dist_b, ind_b = b.kneighbors(Q)
    assert_array_equal(ind_b, ind_a)
    assert_allclose(dist_b, dist_a, rtol=1e-12, atol=1e-12)
    # lazy on Dask queries, one result block per query block
    Qd = da.from_array(Q, chunks=((25, 0, 35), 4))
    lazy_dist, lazy_ind = b.kneighbors(Qd)
    assert isinstance(lazy_ind, da.Array) and lazy_ind.chunks[0] == (25, 35)  # empty dropped
    assert_array_equal(lazy_ind.compute(), ind_a)
    assert_allclose(lazy_dist.compute(), dist_a, rtol=1e-12, atol=1e-12)
    # the training rows, each without itself
    self_dist, self_ind = b.kneighbors()
    ref_dist, ref_ind = a.kneighbors()
    assert_array_equal(self_ind.compute(), ref_ind)
    assert_allclose(self_dist.compute(), ref_dist, rtol=1e-12, atol=1e-12)
    assert_array_equal(b.kneighbors(Q, 3, return_distance=False), a.kneighbors(Q, 3)[1])


@pytest.mark.parametrize("chunks", CHUNKINGS[1:])
@pytest.mark.parametrize("weights", ["uniform", "distance"])
def test_kneighbors_classifier_on_dask_predicts_as_in_memory(weights, chunks):
    X, Q, rng = _data(1)
    y = rng.choice(["b", "a", "c"], X.shape[0])
    Xd, yd = da.from_array(X, chunks=(chunks, 4)), da.from_array(y, chunks=(chunks,))
    a = KNeighborsClassifier(6, weights=weights, algorithm="brute").fit(X, y)
    b = KNeighborsClassifier(6, weights=weights).fit(Xd, yd)
    assert_array_equal(b.classes_, a.classes_)
    assert b.n_samples_fit_ == 500 and b.n_features_in_ == 4
    assert_array_equal(b.predict(Q), a.predict(Q))
    assert_allclose(b.predict_proba(Q), a.predict_proba(Q), rtol=1e-12, atol=1e-15)
    Qd = da.from_array(Q, chunks=(25, 4))
    lazy = b.predict_proba(Qd)
    assert isinstance(lazy, da.Array) and lazy.chunks[0] == Qd.chunks[0]
    assert_allclose(lazy.compute(), a.predict_proba(Q), rtol=1e-12, atol=1e-15)
    assert_array_equal(b.predict(Qd).compute(), a.predict(Q))
    assert b.score(Q, a.predict(Q)) == 1.0
    again = pickle.loads(pickle.dumps(b))
    assert_array_equal(again.predict(Q), a.predict(Q))


def test_kneighbors_classifier_on_dask_with_two_outputs():
    X, Q, rng = _data(2)
    y = np.column_stack([rng.integers(0, 3, 500), rng.choice([5, 9], 500)])
    chunks = (1, 199, 0, 300)
    b = KNeighborsClassifier(5).fit(da.from_array(X, chunks=(chunks, 4)),
                                    da.from_array(y, chunks=(chunks, 2)))
    a = KNeighborsClassifier(5, algorithm="brute").fit(X, y)
    for pa, pb in zip(a.predict_proba(Q), b.predict_proba(Q), strict=True):
        assert_allclose(pb, pa, rtol=1e-12)
    assert_array_equal(b.predict(da.from_array(Q, chunks=(20, 4))).compute(), a.predict(Q))
    with pytest.raises(DaskUnsupportedError, match="multi-output"):
        b.predict_proba(da.from_array(Q, chunks=(20, 4)))


@pytest.mark.parametrize("two_outputs", [False, True])
@pytest.mark.parametrize("weights", ["uniform", "distance"])
def test_kneighbors_regressor_on_dask_predicts_as_in_memory(weights, two_outputs):
    X, Q, rng = _data(3)
    y = X @ [1.0, -2.0, 0.5, 3.0] + rng.normal(size=500)
    if two_outputs:
        y = np.column_stack([y, -y])
    chunks = (37,) * 13 + (19,)
    Xd = da.from_array(X, chunks=(chunks, 4))
    yd = da.from_array(y, chunks=(chunks,) + y.shape[1:])
    a = KNeighborsRegressor(4, weights=weights, algorithm="brute").fit(X, y)
    b = KNeighborsRegressor(4, weights=weights).fit(Xd, yd)
    assert_array_equal(b.predict(Q), a.predict(Q))
    lazy = b.predict(da.from_array(Q, chunks=(33, 4)))
    assert isinstance(lazy, da.Array)
    assert_array_equal(lazy.compute(), a.predict(Q))


def test_neighbors_on_a_dask_dataframe_keep_feature_names():
    dd = pytest.importorskip("dask.dataframe")
    pd = pytest.importorskip("pandas")
    X, Q, rng = _data(4)
    y = rng.integers(0, 2, 500)
    frame = pd.DataFrame(X, columns=list("abcd"))
    b = KNeighborsClassifier(3).fit(dd.from_pandas(frame, npartitions=3),
                                    dd.from_pandas(pd.Series(y), npartitions=3))
    a = KNeighborsClassifier(3, algorithm="brute").fit(frame, y)
    assert list(b.feature_names_in_) == list("abcd")
    queries = pd.DataFrame(Q, columns=list("abcd"))
    assert_array_equal(b.predict(queries), a.predict(queries))


def test_neighbors_on_dask_refuse_what_they_do_not_distribute():
    X, Q, rng = _data(5)
    Xd = da.from_array(X, chunks=(100, 4))
    for algorithm in ("kd_tree", "ball_tree"):
        with pytest.raises(DaskUnsupportedError, match=algorithm):
            NearestNeighbors(algorithm=algorithm).fit(Xd)
    for metric in ("precomputed", "nan_euclidean", lambda u, v: np.abs(u - v).sum()):
        with pytest.raises(DaskUnsupportedError, match="metric"):
            NearestNeighbors(metric=metric).fit(Xd)
    nn = NearestNeighbors(radius=0.5).fit(Xd)  # algorithm="auto": brute force
    assert nn._fit_method == "brute"
    for method in (nn.radius_neighbors, nn.kneighbors_graph, nn.radius_neighbors_graph):
        with pytest.raises(DaskUnsupportedError, match="NumPy"):
            method(da.from_array(Q, chunks=(20, 4)))
        with pytest.raises(DaskUnsupportedError, match="NumPy"):
            method()
    memory = NearestNeighbors(radius=0.5).fit(X)
    with pytest.raises(DaskUnsupportedError, match="NumPy"):
        memory.radius_neighbors(da.from_array(Q, chunks=(20, 4)))
    with pytest.raises(ValueError, match="n_neighbors <= n_samples_fit"):
        nn.kneighbors(Q, 501)
    with pytest.raises(ValueError, match="3 features"):
        nn.kneighbors(Q[:, :3])
    with pytest.raises(ValueError, match="requires y"):
        KNeighborsRegressor().fit(Xd, None)
    with pytest.raises(ValueError, match="same row chunks"):
        KNeighborsClassifier().fit(Xd, da.from_array(rng.integers(0, 2, 500), chunks=150))
    X[333, 1] = np.nan  # a bad block is found when a query reads it
    with pytest.raises(ValueError, match="NaN"):
        NearestNeighbors().fit(da.from_array(X, chunks=(100, 4))).kneighbors(Q)


@pytest.mark.parametrize("chunks", CHUNKINGS)
@pytest.mark.parametrize("metric, params", [("euclidean", None), ("manhattan", None),
                                            ("cosine", None), ("minkowski", {"p": 3})])
def test_radius_neighbors_on_dask_training_data_are_the_in_memory_ones(metric, params, chunks):
    X, Q, _ = _data(7)
    kw = _kw(metric, params)
    radius = 0.3 if metric == "cosine" else 1.2
    a = NearestNeighbors(radius=radius, algorithm="brute", **kw).fit(X)
    b = NearestNeighbors(radius=radius, **kw).fit(da.from_array(X, chunks=(chunks, 4)))
    for sort_results in (False, True):
        dist_a, ind_a = a.radius_neighbors(Q, sort_results=sort_results)
        dist_b, ind_b = b.radius_neighbors(Q, sort_results=sort_results)
        assert sum(len(i) for i in ind_a) > 3 * len(Q)
        for da_, db_, ia, ib in zip(dist_a, dist_b, ind_a, ind_b, strict=True):
            assert_array_equal(ib, ia)
            assert_allclose(db_, da_, rtol=1e-12, atol=1e-12)
    graph_a = a.radius_neighbors_graph(Q, mode="distance")
    graph_b = b.radius_neighbors_graph(Q, mode="distance")
    assert_array_equal(graph_b.indices, graph_a.indices)
    assert_allclose(graph_b.data, graph_a.data, rtol=1e-12, atol=1e-12)
    knn_a, knn_b = a.kneighbors_graph(Q, 3), b.kneighbors_graph(Q, 3)
    assert_array_equal(knn_b.indices, knn_a.indices)


def test_refit_in_memory_after_a_dask_fit_forgets_the_blocks():
    X, Q, _ = _data(6)
    nn = NearestNeighbors(n_neighbors=3).fit(da.from_array(X, chunks=(100, 4)))
    nn.fit(X[:200])
    assert nn._dask_train is None
    assert nn.kneighbors(Q)[1].max() < 200
