"""KMeans and kmeans_plusplus: parity with scikit-learn, naive references, bad input."""

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal

from classiclearn.cluster import KMeans, kmeans_plusplus

sk_cluster = pytest.importorskip("sklearn.cluster")


def _blobs(seed=0, n=200, k=4, p=5, spread=1.0):
    rng = np.random.default_rng(seed)
    centers = rng.normal(scale=4.0, size=(k, p))
    labels = rng.integers(k, size=n)
    return centers[labels] + spread * rng.normal(size=(n, p))


def _naive_lloyd(X, w, centers, n_iter):
    for _ in range(n_iter):
        d = ((X[:, None, :] - centers[None]) ** 2).sum(-1)
        lab = d.argmin(1)
        centers = np.array(
            [np.average(X[lab == j], axis=0, weights=w[lab == j]) for j in range(len(centers))]
        )
    return centers


@pytest.mark.parametrize("algorithm", ["lloyd", "elkan"])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_same_init_same_result_as_sklearn(algorithm, seed):
    X = _blobs(seed, n=400, k=5, spread=2.0)
    rng = np.random.default_rng(seed)
    init = X[rng.choice(len(X), 5, replace=False)]
    ours = KMeans(5, init=init, algorithm=algorithm, n_init=1).fit(X)
    theirs = sk_cluster.KMeans(5, init=init, algorithm=algorithm, n_init=1).fit(X)
    assert_allclose(ours.cluster_centers_, theirs.cluster_centers_, atol=1e-8, rtol=0)
    assert_array_equal(ours.labels_, theirs.labels_)
    assert_allclose(ours.inertia_, theirs.inertia_, rtol=1e-10)
    assert ours.n_iter_ == theirs.n_iter_


@pytest.mark.parametrize("algorithm", ["lloyd", "elkan"])
def test_sample_weight_parity_and_repetition(algorithm):
    X = _blobs(3, n=150)
    rng = np.random.default_rng(3)
    w = rng.integers(1, 4, size=len(X)).astype(float)
    init = X[:4]
    ours = KMeans(4, init=init, algorithm=algorithm).fit(X, sample_weight=w)
    theirs = sk_cluster.KMeans(4, init=init, algorithm=algorithm, n_init=1).fit(
        X, sample_weight=w
    )
    assert_allclose(ours.cluster_centers_, theirs.cluster_centers_, atol=1e-8)
    assert_allclose(ours.inertia_, theirs.inertia_, rtol=1e-10)
    rep = KMeans(4, init=init, algorithm=algorithm).fit(np.repeat(X, w.astype(int), axis=0))
    assert_allclose(ours.cluster_centers_, rep.cluster_centers_, atol=1e-10)
    assert_allclose(ours.inertia_, rep.inertia_, rtol=1e-10)


def test_lloyd_matches_naive_reference():
    X = _blobs(4, n=120, k=3)
    w = np.random.default_rng(4).uniform(0.5, 2.0, size=len(X))
    init = X[[0, 1, 2]]
    ours = KMeans(3, init=init, max_iter=3, tol=0).fit(X, sample_weight=w)
    ref = _naive_lloyd(X, w, init, ours.n_iter_)
    assert_allclose(ours.cluster_centers_, ref, atol=1e-12)


def test_kmeans_plusplus_inertia_no_worse_than_sklearn():
    X = _blobs(5, n=600, k=8, p=4, spread=2.5)
    ours = [KMeans(8, random_state=s).fit(X).inertia_ for s in range(10)]
    theirs = [sk_cluster.KMeans(8, random_state=s).fit(X).inertia_ for s in range(10)]
    assert np.mean(ours) <= 1.005 * np.mean(theirs)


def test_random_init_and_n_init():
    X = _blobs(6, n=300, k=4)
    one = KMeans(4, init="random", n_init=1, random_state=0).fit(X)
    many = KMeans(4, init="random", n_init=10, random_state=0).fit(X)
    assert many.inertia_ <= one.inertia_ + 1e-9
    assert KMeans(4, init="random", random_state=0).fit(X).inertia_ == many.inertia_


def test_elkan_equals_lloyd_from_kmeans_plusplus():
    X = _blobs(7, n=500, k=6, spread=1.5)
    a = KMeans(6, random_state=3, algorithm="lloyd").fit(X)
    b = KMeans(6, random_state=3, algorithm="elkan").fit(X)
    assert_array_equal(a.labels_, b.labels_)
    assert_allclose(a.cluster_centers_, b.cluster_centers_, atol=1e-12)


@pytest.mark.parametrize("algorithm", ["lloyd", "elkan"])
def test_results_independent_of_threads(algorithm):
    from classiclearn.cluster._kmeans import _kmeans_single
    from classiclearn.utils._threads import numba_threads

    X = _blobs(8, n=3000, k=5)
    w = np.random.default_rng(8).uniform(0.5, 2.0, size=len(X))
    runs = []
    for n_threads in (1, 2):
        with numba_threads(n_threads):
            runs.append(_kmeans_single(X, w, X[:5].copy(), 50, 0.0, algorithm))
    assert_array_equal(runs[0][0], runs[1][0])
    assert_array_equal(runs[0][2], runs[1][2])
    assert runs[0][1] == runs[1][1]
    a = KMeans(5, random_state=0, n_jobs=1).fit(X)
    b = KMeans(5, random_state=0, n_jobs=2).fit(X)
    assert_array_equal(a.cluster_centers_, b.cluster_centers_)


@pytest.mark.parametrize("algorithm", ["lloyd", "elkan"])
@pytest.mark.parametrize("sparse", [False, True])
def test_a_loop_that_goes_threaded_midway_gives_the_one_thread_result(algorithm, sparse,
                                                                       monkeypatch):
    # passes below the one-pass threshold start on one thread and go threaded once the
    # loop's work adds up (LoopThreads): the same labels, centres and inertia
    from contextlib import contextmanager

    import numba
    import scipy.sparse as sp

    from classiclearn.utils import _threads

    if numba.config.NUMBA_NUM_THREADS < 2:
        pytest.skip("one numba thread: every pass runs on it")
    X = np.random.default_rng(12).uniform(size=(4000, 8))  # many passes to converge
    if sparse:
        X = sp.csr_matrix(np.where(np.random.default_rng(1).random(X.shape) < 0.5, X, 0.0))
    work = (X.nnz if sparse else X.size) * 6
    monkeypatch.setattr(_threads, "LOOP_PASS_WORK", work // 2)
    monkeypatch.setattr(_threads, "LOOP_WORK", 3 * work)  # threads from the fourth pass
    monkeypatch.setattr(_threads, "DENSE_LOOP_WORK", 3 * work)
    seen = []
    next_pass = _threads.LoopThreads.next_pass

    @contextmanager
    def recording(loop):
        with next_pass(loop) as threads:
            seen.append(threads)
            yield threads

    monkeypatch.setattr(_threads.LoopThreads, "next_pass", recording)
    threaded = KMeans(6, random_state=0, algorithm=algorithm, max_iter=12, tol=0).fit(X)
    if algorithm == "lloyd":
        # the one-thread passes run compiled with their steps (lloyd_serial,
        # sparse_lloyd_serial)
        assert 1 not in seen and len(seen) == threaded.n_iter_ - 3
    else:
        assert seen[:3] == [1, 1, 1] and 1 not in seen[3:]
    monkeypatch.setattr(_threads, "LOOP_WORK", 10**18)
    monkeypatch.setattr(_threads, "DENSE_LOOP_WORK", 10**18)
    serial = KMeans(6, random_state=0, algorithm=algorithm, max_iter=12, tol=0).fit(X)
    assert threaded.n_iter_ == serial.n_iter_ > 3
    assert_array_equal(threaded.labels_, serial.labels_)
    assert_array_equal(threaded.cluster_centers_, serial.cluster_centers_)
    assert threaded.inertia_ == serial.inertia_


def test_loop_threads_follow_the_work_of_the_passes_so_far(monkeypatch):
    from classiclearn.utils import _threads

    monkeypatch.setattr(_threads, "SMALL_WORK", 100)
    monkeypatch.setattr(_threads, "LOOP_PASS_WORK", 10)
    monkeypatch.setattr(_threads, "LOOP_WORK", 50)

    def counts(pass_work, n_passes):
        loop = _threads.LoopThreads(2, pass_work)
        out = []
        for _ in range(n_passes):
            with loop.next_pass() as threads:
                out.append(threads)
        return out

    assert counts(100, 3) == [2, 2, 2]  # large passes: threads from the start
    assert counts(20, 5) == [1, 1, 1, 2, 2]  # threads once 60 >= 50 is done
    assert counts(9, 8) == [1] * 8  # passes too small to ever pay for threads


def test_predict_transform_score():
    X = _blobs(9, n=200)
    km = KMeans(4, random_state=0).fit(X)
    assert_array_equal(km.predict(X), km.labels_)
    D = km.transform(X)
    ref = np.sqrt(((X[:, None, :] - km.cluster_centers_[None]) ** 2).sum(-1))
    assert_allclose(D, ref, atol=1e-9)
    assert_allclose(km.score(X), -km.inertia_, rtol=1e-12)
    assert_array_equal(km.fit_predict(X), km.labels_)
    assert_allclose(km.fit_transform(X), D, atol=1e-9)


def test_predict_and_score_far_from_the_origin():
    # predict / score shift each tile by the training mean on the fly (no shifted copy):
    # exact labels and weighted inertia even when the data sit far from 0
    X = _blobs(12, n=3000, k=5) + 1e6
    w = np.random.default_rng(12).uniform(0.5, 2.0, size=len(X))
    km = KMeans(5, random_state=0).fit(X)
    Xnew = _blobs(13, n=2000, k=5) + 1e6
    d = ((Xnew[:, None, :] - km.cluster_centers_[None]) ** 2).sum(-1)
    assert_array_equal(km.predict(Xnew), d.argmin(axis=1))
    wn = w[: len(Xnew)]
    assert_allclose(km.score(Xnew, sample_weight=wn), -(wn * d.min(axis=1)).sum(), rtol=1e-9)


def test_empty_cluster_is_relocated():
    X = np.array([[0.0], [0.1], [0.2], [10.0], [10.1]])
    init = np.array([[0.1], [5.0e3], [10.0]])
    km = KMeans(3, init=init).fit(X)
    assert np.unique(km.labels_).size == 3
    theirs = sk_cluster.KMeans(3, init=init, n_init=1).fit(X)
    assert_allclose(km.inertia_, theirs.inertia_, rtol=1e-10)


def test_kmeans_plusplus_function():
    X = _blobs(10, n=100)
    centers, idx = kmeans_plusplus(X, 4, random_state=0)
    assert centers.shape == (4, 5)
    assert_array_equal(centers, X[idx])
    assert np.unique(idx).size == 4


@pytest.mark.parametrize("weighted", [False, True])
def test_kmeans_plusplus_picks_sklearns_rows(weighted):
    # same random_state, same draws: the first centre (numpy's weighted choice, replicated
    # in a kernel) and every greedy trial pick the same rows as scikit-learn's seeding
    X = _blobs(11, n=500, k=6, p=3, spread=1.5)
    for seed in range(8):
        w = np.random.default_rng(seed).uniform(0.0, 2.0, size=len(X)) if weighted else None
        _, ours = kmeans_plusplus(X, 6, sample_weight=w, random_state=seed)
        _, theirs = sk_cluster.kmeans_plusplus(X, 6, sample_weight=w, random_state=seed)
        assert_array_equal(ours, theirs)


def test_bad_input():
    X = _blobs(11, n=5)
    with pytest.raises(ValueError, match="n_samples=5 should be >= n_clusters=6"):
        KMeans(6).fit(X)
    with pytest.raises(ValueError, match="does not match the number of clusters"):
        KMeans(3, init=X[:2]).fit(X)
    with pytest.raises(ValueError):
        KMeans(0).fit(X)
    with pytest.warns(RuntimeWarning, match="only one init"):
        KMeans(2, init=X[:2], n_init=3).fit(X)
    Xc = X.copy()
    KMeans(2, random_state=0).fit(X)
    assert_array_equal(X, Xc)


@pytest.mark.parametrize("init", ["bogus", "k-means", b"random", 3, 2.5, np.float64(1.0)])
def test_unknown_init_is_a_parameter_error(init):
    from classiclearn.exceptions import InvalidParameterError

    X = _blobs(12, n=20)
    with pytest.raises(InvalidParameterError, match="The 'init' parameter of KMeans"):
        KMeans(2, init=init).fit(X)
    # scikit-learn refuses them as well
    with pytest.raises(ValueError, match="The 'init' parameter of KMeans"):
        sk_cluster.KMeans(2, init=init).fit(X)


@pytest.mark.parametrize("algorithm", ["lloyd", "elkan"])
def test_callable_and_list_init_match_sklearn(algorithm):
    X = _blobs(13, n=120, k=3)

    def pick(X, n_clusters, random_state):
        # a copy: scikit-learn updates the centres it is given in place
        rows = random_state.permutation(X.shape[0])[:n_clusters]
        return X[rows].copy()

    for init, n_init in ((pick, 4), (X[[0, 50, 100]].tolist(), 1)):
        ours = KMeans(3, init=init, n_init=n_init, algorithm=algorithm, random_state=5).fit(X)
        theirs = sk_cluster.KMeans(3, init=init, n_init=n_init, algorithm=algorithm,
                                   random_state=5).fit(X)
        assert_allclose(ours.cluster_centers_, theirs.cluster_centers_, atol=1e-8, rtol=0)
        assert_allclose(ours.inertia_, theirs.inertia_, rtol=1e-10)
        assert_array_equal(ours.labels_, theirs.labels_)


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("case", ["blobs", "empty_cluster", "weighted", "tol"])
def test_compiled_one_thread_loop_equals_the_python_loop(case, sparse, monkeypatch):
    # small Lloyd loops run compiled with their steps between passes (lloyd_serial,
    # sparse_lloyd_serial); the same labels, centres, inertia and passes as the loop in
    # Python
    import scipy.sparse as sp

    from classiclearn.utils import _threads

    rng = np.random.default_rng(3)
    X = np.vstack([rng.normal(c, 0.7, size=(150, 4)) for c in (0.0, 3.0, 6.0)])
    if sparse:
        X[rng.random(X.shape) < 0.3] = 0.0
    params = {"n_clusters": 5, "random_state": 0, "n_init": 3, "init": "random"}
    sw = None
    if case == "empty_cluster":
        # two starting centres far from every row: their clusters empty at once
        init = np.vstack([X[:3], np.full((2, 4), 50.0)])
        params.update(init=init, n_init=1)
    elif case == "weighted":
        sw = rng.uniform(0.2, 3.0, X.shape[0])
    elif case == "tol":
        params.update(tol=1e-2)
    data = sp.csr_matrix(X) if sparse else X
    compiled = KMeans(**params).fit(data, sample_weight=sw)
    monkeypatch.setattr(_threads.LoopThreads, "serial_passes", lambda self: 0)
    python = KMeans(**params).fit(data, sample_weight=sw)
    assert compiled.n_iter_ == python.n_iter_
    assert_array_equal(compiled.labels_, python.labels_)
    np.testing.assert_allclose(compiled.cluster_centers_, python.cluster_centers_, rtol=1e-12,
                               atol=1e-12)
    np.testing.assert_allclose(compiled.inertia_, python.inertia_, rtol=1e-12)
