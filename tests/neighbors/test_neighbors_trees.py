"""KDTree and BallTree: parity with scikit-learn and a brute-force oracle, tie rule, errors."""

import pickle

import numpy as np
import pytest
from sklearn import neighbors as skn

from classiclearn.neighbors import BallTree, KDTree

METRICS = [("euclidean", {}), ("manhattan", {}), ("chebyshev", {}), ("minkowski", {"p": 3.0})]
TREES = [(KDTree, skn.KDTree), (BallTree, skn.BallTree)]


def _oracle_knn(X, Q, k, metric, p=2.0):
    """Brute force in NumPy: k smallest (distance, index) pairs per query."""
    diff = np.abs(Q[:, None, :] - X[None, :, :])
    if metric == "euclidean":
        D = np.sqrt((diff**2).sum(-1))
    elif metric == "manhattan":
        D = diff.sum(-1)
    elif metric == "chebyshev":
        D = diff.max(-1)
    else:
        D = ((diff**p).sum(-1)) ** (1 / p)
    order = np.lexsort((np.broadcast_to(np.arange(X.shape[0]), D.shape), D), axis=1)[:, :k]
    return np.take_along_axis(D, order, 1), order


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(0)
    return rng.normal(size=(700, 4)), rng.normal(size=(120, 4))


@pytest.mark.parametrize("ours, theirs", TREES)
@pytest.mark.parametrize("metric, kw", METRICS)
def test_query_matches_sklearn_and_oracle(data, ours, theirs, metric, kw):
    X, Q = data
    dist, ind = ours(X, leaf_size=7, metric=metric, **kw).query(Q, k=6)
    sdist, sind = theirs(X, leaf_size=7, metric=metric, **kw).query(Q, k=6)
    np.testing.assert_array_equal(ind, sind)
    np.testing.assert_allclose(dist, sdist, rtol=0, atol=1e-10)
    odist, oind = _oracle_knn(X, Q, 6, metric, kw.get("p", 2.0))
    np.testing.assert_array_equal(ind, oind)
    np.testing.assert_allclose(dist, odist, rtol=0, atol=1e-10)


@pytest.mark.parametrize("ours, theirs", TREES)
@pytest.mark.parametrize("metric, kw", METRICS)
def test_query_radius_matches_sklearn(data, ours, theirs, metric, kw):
    X, Q = data
    r = np.linspace(0.3, 2.0, Q.shape[0])
    tree = ours(X, leaf_size=5, metric=metric, **kw)
    ind, dist = tree.query_radius(Q, r, return_distance=True, sort_results=True)
    sind, sdist = theirs(X, leaf_size=5, metric=metric, **kw).query_radius(
        Q, r, return_distance=True, sort_results=True
    )
    for a, b, da, db in zip(ind, sind, dist, sdist):
        np.testing.assert_array_equal(a, b)
        np.testing.assert_allclose(da, db, rtol=0, atol=1e-10)
    counts = tree.query_radius(Q, r, count_only=True)
    np.testing.assert_array_equal(counts, [len(a) for a in sind])
    unsorted = tree.query_radius(Q, r)
    for a, b in zip(unsorted, sind):
        np.testing.assert_array_equal(np.sort(a), np.sort(b))


@pytest.mark.parametrize("cls", [KDTree, BallTree])
@pytest.mark.parametrize("leaf_size", [1, 3, 40])
def test_tie_rule_lower_index_first(cls, leaf_size):
    # integer grid with many duplicates: distances tie exactly
    rng = np.random.default_rng(1)
    X = rng.integers(0, 3, size=(300, 2)).astype(float)
    Q = rng.integers(0, 3, size=(40, 2)).astype(float) + 0.0
    for metric in ("euclidean", "manhattan", "chebyshev"):
        dist, ind = cls(X, leaf_size=leaf_size, metric=metric).query(Q, k=25)
        odist, oind = _oracle_knn(X, Q, 25, metric)
        np.testing.assert_array_equal(ind, oind)
        np.testing.assert_array_equal(dist, odist)


@pytest.mark.parametrize("cls", [KDTree, BallTree])
def test_small_trees_and_pickle(cls):
    X = np.array([[0.0, 0.0]])
    dist, ind = cls(X).query([[3.0, 4.0]], k=1)
    assert ind.tolist() == [[0]] and dist.tolist() == [[5.0]]
    rng = np.random.default_rng(2)
    X = rng.normal(size=(50, 3))
    tree = cls(X, leaf_size=2)
    clone = pickle.loads(pickle.dumps(tree))
    np.testing.assert_array_equal(clone.query(X[:5], k=3)[1], tree.query(X[:5], k=3)[1])
    ind = tree.query(X[:5], k=3, return_distance=False)
    assert ind.shape == (5, 3) and (ind[:, 0] == np.arange(5)).all()


@pytest.mark.parametrize("cls", [KDTree, BallTree])
def test_errors(cls):
    X = np.random.default_rng(3).normal(size=(10, 2))
    tree = cls(X)
    with pytest.raises(ValueError, match="k must be less than or equal"):
        tree.query(X, k=11)
    with pytest.raises(ValueError, match="dimension"):
        tree.query(np.zeros((2, 3)))
    with pytest.raises(ValueError, match="not valid for algorithm"):
        cls(X, metric="cosine")
    with pytest.raises(ValueError, match="cannot use it"):
        cls(X, metric="minkowski", p=0.5)
    with pytest.raises(ValueError, match="leaf_size"):
        cls(X, leaf_size=0)
    with pytest.raises(ValueError, match="NaN"):
        cls(np.array([[np.nan, 1.0]]))
    with pytest.raises(ValueError, match="count_only"):
        tree.query_radius(X, 1.0, return_distance=True, count_only=True)


def test_input_not_modified():
    X = np.random.default_rng(4).normal(size=(100, 3))
    before = X.copy()
    KDTree(X).query(X, k=2)
    BallTree(X).query_radius(X, 0.5)
    np.testing.assert_array_equal(X, before)


@pytest.mark.parametrize("ours, theirs", TREES)
def test_uncopied_data_path_matches_sklearn(monkeypatch, ours, theirs):
    # Large training sets are not copied in tree order: leaves read the rows
    # through idx_array, and nodes above _KEY_COPY_MAX rows are partitioned
    # in place. Force both paths on small data.
    from classiclearn.neighbors import _binary_tree, _tree_kernels

    monkeypatch.setattr(_binary_tree, "_COPY_MAX_BYTES", 0)
    rng = np.random.default_rng(3)
    X = rng.normal(size=(900, 3))
    Q = rng.normal(size=(80, 3))
    tree = ours(X, leaf_size=5)
    assert tree._data_tree_order is X
    dist, ind = tree.query(Q, k=7)
    sdist, sind = theirs(X, leaf_size=5).query(Q, k=7)
    np.testing.assert_array_equal(ind, sind)
    np.testing.assert_allclose(dist, sdist, rtol=0, atol=1e-10)
    counts = tree.query_radius(Q, r=0.5, count_only=True)
    np.testing.assert_array_equal(counts, theirs(X).query_radius(Q, r=0.5, count_only=True))
    # in-place partition of the keys (no copy) gives a valid median split
    idx = np.arange(X.shape[0])
    _tree_kernels._select_nth_rows(X, 1, idx, 450)
    np.testing.assert_array_equal(np.sort(idx), np.arange(X.shape[0]))
    assert X[idx[:450], 1].max() <= X[idx[450], 1] <= X[idx[451:], 1].min()


@pytest.mark.parametrize("ours, theirs", TREES)
def test_many_queries_in_spatial_order_match_sklearn(ours, theirs):
    # >= _SORT_QUERIES query rows are answered in a spatial order; results
    # must still land in the caller's row order.
    rng = np.random.default_rng(4)
    X = rng.normal(size=(300, 2))
    Q = rng.normal(size=(1500, 2))
    dist, ind = ours(X, leaf_size=8).query(Q, k=3)
    sdist, sind = theirs(X, leaf_size=8).query(Q, k=3)
    np.testing.assert_array_equal(ind, sind)
    np.testing.assert_allclose(dist, sdist, rtol=0, atol=1e-10)
    ri, rd = ours(X).query_radius(Q, r=0.3, return_distance=True, sort_results=True)
    si, sd = theirs(X).query_radius(Q, r=0.3, return_distance=True, sort_results=True)
    for a, b, c, e in zip(ri, si, rd, sd):
        np.testing.assert_array_equal(a, b)
        np.testing.assert_allclose(c, e, rtol=0, atol=1e-10)


@pytest.mark.parametrize("ours, theirs", TREES)
@pytest.mark.parametrize("n_train, n_features", [(150, 4), (4000, 12)])
def test_probed_queries_serial_or_threaded_match_sklearn(ours, theirs, n_train, n_features):
    # a pass answers its first queries on the calling thread and runs the rest in
    # threads only when their measured work says so: small trees stay serial, large
    # ones go to threads; both must give scikit-learn's answers in row order
    from classiclearn.neighbors import _tree_kernels

    rng = np.random.default_rng(n_train)
    X = rng.normal(size=(n_train, n_features))
    Q = rng.normal(size=(300, n_features))
    dist, ind = ours(X).query(Q, k=4)
    sdist, sind = theirs(X).query(Q, k=4)
    np.testing.assert_array_equal(ind, sind)
    np.testing.assert_allclose(dist, sdist, rtol=0, atol=1e-10)
    r = 0.8 * np.sqrt(n_features)
    ri, rd = ours(X).query_radius(Q, r=r, return_distance=True, sort_results=True)
    si, sd = theirs(X).query_radius(Q, r=r, return_distance=True, sort_results=True)
    for a, b, c, e in zip(ri, si, rd, sd):
        np.testing.assert_array_equal(a, b)
        np.testing.assert_allclose(c, e, rtol=0, atol=1e-10)
    # the decision itself: one probed query's comparisons scaled to the rest
    probe = _tree_kernels._PROBE_QUERIES
    small = _tree_kernels.rest_threaded(100, probe, 300 - probe, n_features)
    large = _tree_kernels.rest_threaded(probe * n_train, probe, 300 - probe, n_features)
    work = n_train * n_features * (300 - probe)
    assert not small and large == (work >= _tree_kernels._THREADED_WORK)
