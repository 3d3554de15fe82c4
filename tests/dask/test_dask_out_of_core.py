"""On a LocalCluster of worker processes: data on disk twice the size of a worker's
memory limit fitted without a worker being paused or restarted, and the block tasks
of the newer Dask fits (closures, partials) shipped to other processes."""

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal

da = pytest.importorskip("dask.array")
dask = pytest.importorskip("dask")
distributed = pytest.importorskip("distributed")

from benchmarks.dask_out_of_core import peak_rss, reset_peak_rss  # noqa: E402
from classiclearn.decomposition import PCA  # noqa: E402
from classiclearn.linear_model import Ridge, enet_path  # noqa: E402
from classiclearn.neighbors import KNeighborsClassifier, NearestNeighbors  # noqa: E402
from classiclearn.preprocessing import StandardScaler  # noqa: E402

# 80 blocks of 100,000 x 21 float64 (16.8 MB each): 1.34 GB on disk. A worker process
# holds about 230 MiB once numpy, scipy, numba, dask and classiclearn are loaded, and
# pauses at 80 % of its limit: 640 MiB leaves room for a block and its temporaries (the
# fits below peak near 300 MiB) and for a worker that compiles a kernel after all
# (numba and LLVM, ~130 MiB more: under `pytest -n 2` on an empty cache, the other test
# process may rewrite a kernel's cache index while this one warms it, and a worker then
# misses the entry; measured 427-457 MiB in such a run).
N_BLOCKS, ROWS, P = 80, 100_000, 20
MEMORY_LIMIT = 640 * 2**20


def _block(b):
    rng = np.random.default_rng(b)
    return rng.normal(size=(ROWS, P + 1)) * np.linspace(1.0, 3.0, P + 1) + 50.0


def _fits(X, y, queries):
    return {
        "scaler": StandardScaler().fit(X),
        "ridge": Ridge(alpha=1.0).fit(X, y),
        "pca": PCA(5).fit(X),
        "pca_randomized": PCA(5, svd_solver="randomized", random_state=0).fit(X),
        "neighbors": NearestNeighbors(n_neighbors=4).fit(X).kneighbors(queries),
    }


@pytest.mark.slow
def test_data_twice_a_workers_memory_fit_without_losing_a_worker(tmp_path):
    path = str(tmp_path / "stack")
    with dask.config.set(scheduler="synchronous"):  # written block by block
        Z = da.concatenate([da.from_delayed(dask.delayed(_block)(b), shape=(ROWS, P + 1),
                                            dtype=np.float64) for b in range(N_BLOCKS)])
        da.to_npy_stack(path, Z, axis=0)
    assert Z.nbytes >= 2 * MEMORY_LIMIT
    Z = da.from_npy_stack(path, mmap_mode=None)  # blocks read into memory, not mapped
    X, y = Z[:, :P], Z[:, P]
    queries = _block(N_BLOCKS)[:20, :P]
    # compile the fits' kernels here first, on blocks of the same size (smaller blocks
    # take other kernels): the workers then load them from the kernel cache instead of
    # compiling, whose memory (numba and LLVM, ~100 MiB) is not the fits' and would
    # otherwise count in their peak on a machine with an empty cache
    with dask.config.set(scheduler="synchronous"):
        warm = da.concatenate([da.from_array(_block(N_BLOCKS + 1 + b), chunks=(ROWS, P + 1))
                               for b in range(2)])
        _fits(warm[:, :P], warm[:, P], queries)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None, memory_limit=MEMORY_LIMIT) as cluster, \
            distributed.Client(cluster) as client:
        workers = set(client.scheduler_info()["workers"])
        # a worker's start-up may pass through a higher peak than its work (in a
        # process that has run many tests): measure from here on
        resets = client.run(reset_peak_rss)
        on_cluster = _fits(X, y, queries)
        peaks = client.run(peak_rss)
        assert set(client.scheduler_info()["workers"]) == workers  # none restarted
    if all(resets.values()):
        assert max(peaks.values()) < 0.8 * MEMORY_LIMIT  # below the pause threshold
    # the same fits in this process, reading the file block by block: identical
    reference = _fits(X, y, queries)
    for name in ("scaler", "ridge", "pca", "pca_randomized"):
        a, b = reference[name], on_cluster[name]
        for k, v in vars(a).items():
            if k.endswith("_") and not k.startswith("_"):
                assert_array_equal(np.asarray(getattr(b, k)), np.asarray(v), err_msg=k)
    for a, b in zip(reference["neighbors"], on_cluster["neighbors"], strict=True):
        assert_array_equal(b, a)
    # and the in-memory scaler on the whole array agrees
    whole = StandardScaler().fit(np.asarray(X.compute(scheduler="synchronous")))
    assert_allclose(on_cluster["scaler"].mean_, whole.mean_, rtol=1e-12)
    assert_allclose(on_cluster["scaler"].var_, whole.var_, rtol=1e-10)


@pytest.mark.slow
def test_new_dask_fits_on_worker_processes_equal_the_synchronous_ones():
    rng = np.random.default_rng(0)
    X = np.round(rng.normal(size=(600, 100)), 1) + 5.0
    y = (X[:, 0] > 5.0).astype(int)
    Q = np.round(rng.normal(size=(40, 100)), 1) + 5.0
    Xd, yd = da.from_array(X, chunks=(170, 100)), da.from_array(y, chunks=170)
    Qd = da.from_array(Q, chunks=15)

    def fits():
        knn = KNeighborsClassifier(5, weights="distance").fit(Xd, yd)
        return {
            "pca": PCA(4, svd_solver="randomized", random_state=0).fit(Xd).components_,
            "path": enet_path(Xd - 5.0, da.from_array(X[:, 0], chunks=170), n_alphas=4)[1],
            "kneighbors": knn.kneighbors(Q)[1],
            "proba": knn.predict_proba(Qd).compute(),
            "lazy": knn.kneighbors(Qd)[0].compute(),
        }

    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None, memory_limit="1GB") as cluster, \
            distributed.Client(cluster):
        on_cluster = fits()
    reference = fits()
    assert_array_equal(on_cluster["kneighbors"], reference["kneighbors"])
    # floating results to rounding: the worker processes start their BLAS on one
    # thread, and in one CI run in three the path's Gram products differed in the
    # last bit (1e-15 absolute) from those of this process
    for k in ("pca", "path", "proba", "lazy"):
        assert_allclose(on_cluster[k], reference[k], rtol=1e-12, atol=1e-14, err_msg=k)
