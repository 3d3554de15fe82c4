"""Documented rules (ties, zero distances, outliers), bad input, n_jobs and `auto`."""

import sys

import numpy as np
import pytest

from classiclearn.neighbors import (
    KNeighborsClassifier,
    KNeighborsRegressor,
    NearestNeighbors,
    RadiusNeighborsClassifier,
    RadiusNeighborsRegressor,
)
from classiclearn.neighbors._brute import GemmIndex, _gemm_knn

ALGORITHMS = ["brute", "kd_tree", "ball_tree"]


def _oracle(X, Q, k):
    D = np.sqrt(((Q[:, None, :] - X[None, :, :]) ** 2).sum(-1))
    order = np.lexsort((np.broadcast_to(np.arange(X.shape[0]), D.shape), D), axis=1)[:, :k]
    return np.take_along_axis(D, order, 1), order


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_tie_rule_every_algorithm(algorithm):
    # Points on an integer grid with duplicates: many exactly equal distances.
    rng = np.random.default_rng(0)
    X = rng.integers(0, 4, size=(400, 3)).astype(float)
    Q = rng.integers(0, 4, size=(60, 3)).astype(float)
    nn = NearestNeighbors(n_neighbors=30, algorithm=algorithm).fit(X)
    dist, ind = nn.kneighbors(Q)
    odist, oind = _oracle(X, Q, 30)
    np.testing.assert_array_equal(ind, oind)
    np.testing.assert_allclose(dist, odist, atol=1e-12)


def test_float32_candidates_fall_back_when_too_close_to_call():
    # Two far-apart tight clusters: float32 rounding exceeds the gaps, so the
    # certified float32 ranking must hand rows to the exact scan.
    rng = np.random.default_rng(1)
    X = np.vstack([rng.normal(size=(300, 4)) * 1e-3 + 1e4, rng.normal(size=(300, 4)) * 1e-3])
    Q = X[::7] + rng.normal(size=(86, 4)) * 1e-4
    index = GemmIndex(X, 0)
    dist, ind = _gemm_knn(Q, index, 5, 2.0, 2)
    odist, oind = _oracle(X, Q, 5)
    np.testing.assert_array_equal(ind, oind)
    np.testing.assert_allclose(dist, odist, rtol=1e-9)


def test_gemm_search_over_several_query_blocks_and_threads():
    # more queries than one query block (blocks shared out among threads), and
    # training rows over several chunks with a short last one
    from classiclearn.neighbors import _brute

    rng = np.random.default_rng(7)
    X = rng.normal(size=(3 * _brute._TRAIN_CHUNK + 37, 5))
    Q = rng.normal(size=(2 * _brute._QUERY_BLOCK + 301, 5))
    index = GemmIndex(X, 0)
    odist, oind = _oracle(X, Q, 7)
    for n_threads in (1, 2, 3):
        dist, ind = _gemm_knn(Q, index, 7, 2.0, n_threads)
        np.testing.assert_array_equal(ind, oind)
        np.testing.assert_allclose(dist, odist, rtol=1e-9)


@pytest.mark.parametrize("code", [0, 5, 4])  # euclidean, sqeuclidean, cosine
@pytest.mark.parametrize("wide", [False, True])
@pytest.mark.parametrize("long_scan", [False, True])
def test_gemm_radius_equals_the_exact_tiles(code, wide, long_scan):
    # the fused float32 radius search against the exact float64 tiles: integer
    # points with many distances exactly equal to the radius, rows over several
    # query blocks and training chunks (threads), rows with many hits and rows
    # with none; few hits a row are listed in one pass, many (wide radii) counted
    # then written in place (the second scan's wide chunks several times over the
    # training rows with long_scan)
    from classiclearn._kernels.distances import COSINE
    from classiclearn.neighbors import _brute
    from classiclearn.neighbors import _radius_kernels as kernels

    assert code in (0, 5) or code == COSINE  # the codes of distances.py
    rng = np.random.default_rng(11)
    n_train = (2 * kernels._FILL_CHUNKS if long_scan else 3) * _brute._TRAIN_CHUNK + 37
    X = rng.integers(-3, 4, size=(n_train, 3)).astype(float)
    Q = rng.integers(-3, 4, size=(2 * _brute._QUERY_BLOCK + 301, 3)).astype(float)
    Q[:5] = 40.0  # far from every training row
    narrow = 0.5 if long_scan else 1.5  # few hits a row, to be listed
    r = np.where(np.arange(Q.shape[0]) % 3 == 0, 6.0, 2.0) if wide else np.full(Q.shape[0],
                                                                                 narrow)
    if code == COSINE:
        r = r / (6.0 if wide else 20.0)
    elif code != 0 and wide:  # sqeuclidean: the squares of the euclidean radii
        r = r * r
    r_red = _brute.to_reduced(r, code, 2.0)
    # the per-pair cosine kernel reads unit rows (as the GEMM search prepares them)
    Qe, Xe = (_brute.unit_rows(Q), _brute.unit_rows(X)) if code == COSINE else (Q, X)
    expected = _brute._tiled_radius(Qe, Xe, r_red, code, 2.0)
    listed = expected[2].mean() <= kernels._LIST_HITS_PER_ROW
    assert listed != wide and expected[2].mean() > 4
    assert code == COSINE or expected[2][:5].sum() == 0
    for n_threads in (1, 2):
        ind, dist, offsets = _brute.brute_radius(Q, X, r, code, 2.0, n_threads=n_threads)
        np.testing.assert_array_equal(np.diff(offsets), expected[2])
        np.testing.assert_array_equal(ind, expected[0])
        np.testing.assert_allclose(dist, expected[1], rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_zero_distance_rule(algorithm):
    X = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [5.0, 5.0], [0.0, 0.0]])
    y = np.array([0, 1, 1, 1, 1, 2])
    clf = KNeighborsClassifier(n_neighbors=4, weights="distance", algorithm=algorithm)
    clf.fit(X, y)
    # the query equals training points 0 and 5 (labels 0 and 2): they share the vote
    np.testing.assert_allclose(clf.predict_proba([[0.0, 0.0]]), [[0.5, 0.0, 0.5]])
    assert clf.predict([[0.0, 0.0]])[0] == 0  # class tie -> smallest label
    assert clf.predict([[1.0, 1.0]])[0] == 1
    reg = KNeighborsRegressor(n_neighbors=3, weights="distance", algorithm=algorithm)
    reg.fit(X, [10.0, 1.0, 2.0, 3.0, 4.0, 20.0])
    np.testing.assert_allclose(reg.predict([[0.0, 0.0], [1.0, 1.0]]), [15.0, 3.0])
    rad = RadiusNeighborsRegressor(radius=1.5, weights="distance", algorithm=algorithm)
    rad.fit(X, [10.0, 1.0, 2.0, 3.0, 4.0, 20.0])
    np.testing.assert_allclose(rad.predict([[1.0, 0.0]]), [1.0])


def test_kneighbors_without_X_excludes_self_even_with_duplicates():
    X = np.array([[0.0], [0.0], [0.0], [1.0], [3.0]])
    for algorithm in ALGORITHMS:
        nn = NearestNeighbors(n_neighbors=2, algorithm=algorithm).fit(X)
        ind = nn.kneighbors(return_distance=False)
        assert all(i not in row for i, row in enumerate(ind))
        np.testing.assert_array_equal(ind[:3], [[1, 2], [0, 2], [0, 1]])
        d, rind = nn.radius_neighbors(radius=0.5)
        assert [sorted(r) for r in rind] == [[1, 2], [0, 2], [0, 1], [], []]


def test_radius_classifier_outliers():
    X = np.array([[0.0], [1.0], [2.0], [10.0]])
    y = np.array(["a", "b", "b", "c"])
    clf = RadiusNeighborsClassifier(radius=1.0).fit(X, y)
    with pytest.raises(ValueError, match="No neighbors found"):
        clf.predict([[5.0]])
    clf = RadiusNeighborsClassifier(radius=1.0, outlier_label="most_frequent").fit(X, y)
    assert clf.predict([[5.0], [0.2]]).tolist() == ["b", "a"]
    np.testing.assert_allclose(clf.predict_proba([[5.0]]), [[0.0, 1.0, 0.0]])
    clf = RadiusNeighborsClassifier(radius=1.0, outlier_label="zzz").fit(X, y)
    with pytest.warns(UserWarning, match="not in training classes"):
        proba = clf.predict_proba([[5.0]])
    np.testing.assert_allclose(proba, [[0.0, 0.0, 0.0]])
    with pytest.warns(UserWarning, match="not in training classes"):
        assert clf.predict([[5.0]]).tolist() == ["zzz"]
    with pytest.raises(TypeError, match="dtype of outlier label"):
        RadiusNeighborsClassifier(outlier_label=3).fit(X, y)
    with pytest.warns(UserWarning, match="predicting NaN"):
        pred = RadiusNeighborsRegressor(radius=1.0).fit(X, [1.0, 2.0, 3.0, 4.0]).predict([[5.0]])
    assert np.isnan(pred).all()


def test_bad_input_errors():
    X = np.random.default_rng(2).normal(size=(6, 2))
    y = np.array([0, 1, 0, 1, 0, 1])
    with pytest.raises(ValueError, match="Expected n_neighbors <= n_samples_fit"):
        KNeighborsClassifier(n_neighbors=7).fit(X, y).predict(X)
    with pytest.raises(ValueError, match="n_neighbors"):
        NearestNeighbors().fit(X).kneighbors(X, n_neighbors=0)
    with pytest.raises(ValueError, match="radius"):
        RadiusNeighborsClassifier(radius=0.0).fit(X, y)
    with pytest.raises(ValueError, match="radius"):
        RadiusNeighborsRegressor(radius=-1.0).fit(X, y)
    with pytest.raises(ValueError, match="radius must be a positive"):
        NearestNeighbors().fit(X).radius_neighbors(X, radius=0)
    with pytest.raises(ValueError, match="not valid for algorithm 'kd_tree'"):
        NearestNeighbors(algorithm="kd_tree", metric="cosine").fit(X)
    with pytest.raises(ValueError, match="precomputed"):
        NearestNeighbors(algorithm="ball_tree", metric="precomputed").fit(np.eye(3))
    with pytest.raises(ValueError, match="cannot use it"):
        NearestNeighbors(algorithm="ball_tree", p=0.5).fit(X)
    with pytest.raises(ValueError, match="must be square"):
        NearestNeighbors(metric="precomputed").fit(X)
    with pytest.raises(ValueError, match="Negative values"):
        NearestNeighbors(metric="precomputed").fit(-np.eye(3))
    with pytest.raises(ValueError, match="metric"):
        NearestNeighbors(metric="pyfunc", algorithm="brute",
                         metric_params={"func": lambda a, b: 0.0}).fit(X)


def test_n_jobs_and_algorithm_do_not_change_results():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(2000, 6))
    Q = rng.normal(size=(700, 6))
    ref = NearestNeighbors(n_neighbors=4, algorithm="brute", n_jobs=1).fit(X).kneighbors(Q)
    for algorithm in ALGORITHMS:
        for n_jobs in (None, 1, 2, -1):
            d, i = NearestNeighbors(n_neighbors=4, algorithm=algorithm, n_jobs=n_jobs).fit(
                X
            ).kneighbors(Q)
            np.testing.assert_array_equal(i, ref[1])
            np.testing.assert_array_equal(d, ref[0])
    # n_jobs=None threads the brute search (700 x 2,000 x 6 is above the pass threshold)
    for metric in ("euclidean", "manhattan"):
        runs = [NearestNeighbors(radius=1.5, algorithm="brute", metric=metric, n_jobs=n_jobs)
                .fit(X).radius_neighbors(Q, sort_results=True) for n_jobs in (1, None, -1)]
        for d, i in runs[1:]:
            for q in range(len(Q)):
                np.testing.assert_array_equal(i[q], runs[0][1][q])
                np.testing.assert_array_equal(d[q], runs[0][0][q])


def test_auto_algorithm_choice():
    rng = np.random.default_rng(4)
    assert NearestNeighbors().fit(rng.normal(size=(30000, 5)))._fit_method == "kd_tree"
    # euclidean GEMM brute force below 500 * 2**d rows (at most 20,000)
    assert NearestNeighbors().fit(rng.normal(size=(2000, 5)))._fit_method == "brute"
    assert NearestNeighbors().fit(rng.normal(size=(5000, 3)))._fit_method == "kd_tree"
    assert NearestNeighbors(p=1).fit(rng.normal(size=(2000, 5)))._fit_method == "kd_tree"
    assert NearestNeighbors().fit(rng.normal(size=(2000, 30)))._fit_method == "brute"
    assert NearestNeighbors().fit(rng.normal(size=(100, 5)))._fit_method == "brute"
    assert NearestNeighbors(metric="cosine").fit(rng.normal(size=(2000, 3)))._fit_method == (
        "brute"
    )
    nn = NearestNeighbors(p=1).fit(rng.normal(size=(2000, 3)))
    assert nn.effective_metric_ == "manhattan"
    nn = NearestNeighbors(p=3).fit(rng.normal(size=(2000, 3)))
    assert nn.effective_metric_ == "minkowski" and nn.effective_metric_params_ == {"p": 3.0}


def test_minkowski_p_below_one_uses_brute():
    rng = np.random.default_rng(5)
    X = rng.normal(size=(50, 3))
    nn = NearestNeighbors(n_neighbors=3, p=0.5).fit(X)
    assert nn._fit_method == "brute"
    D = (np.abs(X[:5, None] - X[None]) ** 0.5).sum(-1) ** 2
    order = np.argsort(D, axis=1, kind="stable")[:, :3]
    np.testing.assert_array_equal(nn.kneighbors(X[:5])[1], order)


@pytest.mark.parametrize("width", [7, 64, 130, 512])
def test_tile_select_matches_naive_selection(width):
    # full 64-wide strips, a remainder strip, repeated values (ties by column)
    from classiclearn.neighbors._brute_kernels import tile_select

    rng = np.random.default_rng(width)
    kk = 6
    tiles = [rng.integers(0, 40, size=(5, width)).astype(np.float32) for _ in range(3)]
    hd = np.full((5, kk), np.inf, dtype=np.float32)
    hi = np.full((5, kk), 10**6, dtype=np.intp)
    for t, tile in enumerate(tiles):
        tile_select(tile, t * width, hd, hi, np.empty(width, dtype=np.intp))
    full = np.hstack(tiles)
    cols = np.broadcast_to(np.arange(full.shape[1]), full.shape)
    order = np.lexsort((cols, full), axis=1)[:, :kk]
    np.testing.assert_array_equal(hi, order)
    np.testing.assert_array_equal(hd, np.take_along_axis(full, order, 1))


def test_brute_blas_limit_covers_scipy_blas():
    # the fused GEMM kernel calls scipy's BLAS through numba: it must run on one
    # thread inside each worker thread, like numpy's
    threadpoolctl = pytest.importorskip("threadpoolctl")
    from classiclearn.utils._threads import blas_single_thread

    with blas_single_thread():
        assert "scipy.linalg.cython_blas" in sys.modules
        libs = [lib for lib in threadpoolctl.threadpool_info() if lib["user_api"] == "blas"]
        assert libs and all(lib["num_threads"] == 1 for lib in libs)


def test_brute_without_threadpoolctl_uses_one_thread_and_same_result():
    # without threadpoolctl BLAS cannot be limited: the GEMM search then runs
    # in one thread of ours (BLAS threads inside it), same neighbours
    import subprocess

    code = """
import sys
sys.modules["threadpoolctl"] = None
import numpy as np
from classiclearn.utils._threads import blas_can_be_limited
from classiclearn.neighbors import NearestNeighbors
assert not blas_can_be_limited()
rng = np.random.default_rng(0)
X, Q = rng.normal(size=(3000, 20)), rng.normal(size=(600, 20))
d, i = NearestNeighbors(n_neighbors=4, algorithm="brute", n_jobs=2).fit(X).kneighbors(Q)
D = ((Q[:, None, :] - X[None, :, :]) ** 2).sum(-1)
np.testing.assert_array_equal(i, np.argsort(D, axis=1, kind="stable")[:, :4])
print("ok")
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"


@pytest.mark.parametrize("code, p", [(1, 1.0), (2, np.inf), (3, 3.0)])
@pytest.mark.parametrize("n", [1, 300, 700])
def test_tiled_coordinate_scan_equals_the_per_pair_scan(code, p, n):
    # manhattan / chebyshev / minkowski: the same distances to the last bit and the
    # same neighbours, ties (many, from rounded data) to the lower training index
    from classiclearn.neighbors import _brute_kernels as _k

    rng = np.random.default_rng(n)
    Y = np.round(rng.normal(size=(n, 6)), 1)
    Q = np.round(rng.normal(size=(19, 6)), 1)
    k = min(n, 9)
    d_pair, i_pair = _k.scan_knn(Q, Y, k, code, p)
    d_tile, i_tile = _k.scan_knn_coordinates(Q, np.ascontiguousarray(Y.T), k, code, p)
    np.testing.assert_array_equal(i_tile, i_pair)
    np.testing.assert_array_equal(d_tile, d_pair)


@pytest.mark.parametrize("code, p", [(1, 1.0), (2, np.inf), (3, 3.0)])
def test_tiled_coordinate_distances_equal_the_per_pair_ones(code, p):
    from classiclearn.neighbors import _brute_kernels as _k

    rng = np.random.default_rng(code)
    Y = rng.normal(size=(600, 7))
    Q = rng.normal(size=(13, 7))
    np.testing.assert_array_equal(
        _k.pairwise_coordinates(Q, np.ascontiguousarray(Y.T), code, p),
        _k.pairwise_reduced(Q, Y, code, p))


def test_brute_index_is_built_by_the_first_query():
    import pickle

    rng = np.random.default_rng(3)
    X, Q = rng.normal(size=(300, 6)), rng.normal(size=(20, 6))
    nn = NearestNeighbors(n_neighbors=4, algorithm="brute").fit(X)
    assert nn._gemm_index._index is None  # fit only stores X
    unpickled = pickle.loads(pickle.dumps(nn))
    attributes = dict(vars(nn))
    dist, ind = nn.kneighbors(Q)
    assert nn._gemm_index._index is not None
    assert vars(nn) == attributes  # the holder was filled, not replaced
    odist, oind = _oracle(X, Q, 4)
    np.testing.assert_array_equal(ind, oind)
    np.testing.assert_array_equal(unpickled.kneighbors(Q)[1], oind)
    ind_r = nn.radius_neighbors(Q, radius=1.5, return_distance=False)
    assert all(set(row) == set(np.flatnonzero(d <= 1.5)) for row, d in zip(
        ind_r, np.sqrt(((Q[:, None] - X[None]) ** 2).sum(-1))))


@pytest.mark.parametrize("k", [1, 5, 50])
@pytest.mark.parametrize("shape", [(300, 5), (400, 1500)])
def test_brute_neighbour_sets_without_distances_equal_the_sorted_search(k, shape):
    # the vote's search (no distances) keeps the sure candidates as they are and
    # ranks only the band around the k-th value: the same set of neighbours, ties
    # (duplicated rows) included
    from classiclearn.neighbors._brute import brute_kneighbors

    rng = np.random.default_rng(k)
    Y = rng.normal(size=shape)
    Y[1::7] = Y[::7][: Y[1::7].shape[0]]  # duplicated rows: tied distances
    Q = np.ascontiguousarray(np.vstack([rng.normal(size=(60, shape[1])), Y[:20]]))
    dist, ind = brute_kneighbors(Q, Y, k, 0, 2.0)
    _, ind_set = brute_kneighbors(Q, Y, k, 0, 2.0, with_distances=False)
    np.testing.assert_array_equal(np.sort(ind_set, axis=1), np.sort(ind, axis=1))
    assert np.all(np.diff(dist, axis=1) >= 0)
