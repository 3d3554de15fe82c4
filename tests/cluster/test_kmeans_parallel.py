"""k-means|| seeding (``KMeans(init="k-means||")``), in memory and on Dask."""

import warnings

import numpy as np
import pytest

from classiclearn.cluster import KMeans
from classiclearn.cluster._kmeans_parallel import row_uniforms
from classiclearn.exceptions import ConvergenceWarning


def _blobs(n_per=400, k=6, p=4, seed=0):
    rng = np.random.default_rng(seed)
    centres = rng.normal(size=(k, p)) * 6
    X = np.vstack([c + rng.normal(size=(n_per, p)) for c in centres])
    return X[rng.permutation(len(X))]


def test_row_uniforms_depend_on_the_row_not_on_the_split():
    whole = row_uniforms(123, 0, 10_000)
    pieces = np.concatenate([row_uniforms(123, lo, min(lo + 777, 10_000))
                             for lo in range(0, 10_000, 777)])
    np.testing.assert_array_equal(whole, pieces)
    assert whole.min() >= 0.0 and whole.max() < 1.0
    assert abs(whole.mean() - 0.5) < 0.01
    # roughly uniform: every tenth of [0, 1) holds about a tenth of the draws
    counts = np.histogram(whole, bins=10, range=(0, 1))[0]
    assert counts.min() > 850 and counts.max() < 1150
    assert not np.array_equal(whole, row_uniforms(124, 0, 10_000))


def test_kmeans_parallel_finds_the_blobs_as_well_as_kmeans_plusplus():
    X = _blobs()
    plus = KMeans(6, init="k-means++", random_state=0).fit(X)
    par = KMeans(6, init="k-means||", random_state=0).fit(X)
    assert par.inertia_ <= plus.inertia_ * 1.01
    assert len(np.unique(par.labels_)) == 6


def test_kmeans_parallel_repeats_with_the_same_seed():
    X = _blobs(seed=1)
    a = KMeans(6, init="k-means||", random_state=3).fit(X)
    b = KMeans(6, init="k-means||", random_state=3).fit(X)
    np.testing.assert_array_equal(a.cluster_centers_, b.cluster_centers_)


def test_zero_weight_rows_never_become_centres():
    X = _blobs(n_per=100, k=3)
    far = np.full((5, X.shape[1]), 1e3)
    Xw = np.vstack([X, far])
    w = np.r_[np.ones(len(X)), np.zeros(5)]
    est = KMeans(3, init="k-means||", random_state=0).fit(Xw, sample_weight=w)
    assert np.abs(est.cluster_centers_).max() < 100


def test_fewer_distinct_points_than_clusters():
    X = np.repeat(np.array([[0.0, 0.0], [5.0, 5.0]]), 20, axis=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        est = KMeans(3, init="k-means||", random_state=0).fit(X)
    assert est.cluster_centers_.shape == (3, 2)
    assert est.inertia_ == pytest.approx(0.0, abs=1e-12)


@pytest.mark.parametrize("chunks", [2400, 1000, 333, 97])
def test_dask_result_does_not_depend_on_the_chunking(chunks):
    da = pytest.importorskip("dask.array")
    import dask

    X = _blobs()
    memory = KMeans(6, init="k-means||", random_state=0).fit(X)
    with dask.config.set(scheduler="synchronous"):
        est = KMeans(6, init="k-means||", random_state=0).fit(da.from_array(X, chunks=(chunks, 4)))
    np.testing.assert_allclose(est.cluster_centers_, memory.cluster_centers_, rtol=1e-10,
                               atol=1e-10)
    assert est.inertia_ == pytest.approx(memory.inertia_, rel=1e-10)
