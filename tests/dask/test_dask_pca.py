"""Randomized PCA on Dask input: the in-memory subspace iteration, same seed, block products."""

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal

da = pytest.importorskip("dask.array")

from classiclearn.decomposition import PCA  # noqa: E402
from classiclearn.utils._dask import DaskUnsupportedError  # noqa: E402

ATTRIBUTES = ("mean_", "components_", "explained_variance_", "explained_variance_ratio_",
              "singular_values_", "noise_variance_")


def _chunkings(n):
    return [(n,), (1, n // 2 - 1, 0, n // 2), (97,) * (n // 97) + (n % 97,)]


def _mixed(seed, n, p, offset=50.0):
    rng = np.random.default_rng(seed)
    return rng.normal(size=(n, p)) @ rng.normal(size=(p, p)) + offset


def _assert_same_fit(b, a, rtol):
    assert b.n_components_ == a.n_components_
    for k in ATTRIBUTES:
        scale = np.max(np.abs(getattr(a, k)), initial=0.0)
        assert_allclose(getattr(b, k), getattr(a, k), rtol=rtol, atol=rtol * scale, err_msg=k)


# (600, 100): the sketch form (n < 10 p, block products and TSQR);
# (2000, 30): the Gram form; (150, 300): more features than samples
@pytest.mark.parametrize("shape", [(600, 100), (2000, 30), (150, 300)])
@pytest.mark.parametrize("nc", [3, 12])
@pytest.mark.parametrize("chunk_index", [0, 1, 2])
def test_randomized_pca_on_dask_follows_the_in_memory_fit(shape, nc, chunk_index):
    n, p = shape
    X = _mixed(nc, n, p)
    chunks = _chunkings(n)[chunk_index]
    Xd = da.from_array(X, chunks=(chunks, p))
    a = PCA(nc, svd_solver="randomized", random_state=3).fit(X)
    b = PCA(nc, svd_solver="randomized", random_state=3).fit(Xd)
    if len(chunks) == 1:  # one block: the in-memory fit on it
        for k in ATTRIBUTES:
            assert_array_equal(getattr(b, k), getattr(a, k), err_msg=k)
    else:
        _assert_same_fit(b, a, rtol=1e-11)
    assert_allclose(b.transform(Xd).compute(), a.transform(X), rtol=1e-9,
                    atol=1e-9 * np.abs(a.transform(X)).max())


@pytest.mark.parametrize("normalizer", ["auto", "QR", "LU", "none"])
@pytest.mark.parametrize("iterated_power", [0, 2, 5])
def test_randomized_pca_on_dask_on_noise_matches_each_normalizer(normalizer, iterated_power):
    # a flat spectrum: the sketch is far from the exact answer, so this checks that
    # the same random start and the same iteration are used, not just convergence
    rng = np.random.default_rng(5)
    X = rng.normal(size=(400, 120)) + 10.0
    kw = dict(n_components=5, svd_solver="randomized", random_state=1,
              power_iteration_normalizer=normalizer, iterated_power=iterated_power)
    a = PCA(**kw).fit(X)
    b = PCA(**kw).fit(da.from_array(X, chunks=((100, 1, 199, 100), 120)))
    _assert_same_fit(b, a, rtol=1e-11)
    c = PCA(**kw).fit(da.from_array(X, chunks=(((400,), 120))))
    assert_array_equal(c.components_, a.components_)


@pytest.mark.parametrize("shape", [(600, 100), (2000, 30)])
def test_randomized_pca_on_dask_finds_a_separated_spectrum_exactly(shape):
    n, p = shape
    rng = np.random.default_rng(6)
    U, _ = np.linalg.qr(rng.normal(size=(n, p)))
    V, _ = np.linalg.qr(rng.normal(size=(p, p)))
    s = np.r_[[100.0, 60.0, 30.0, 15.0], 1e-3 * rng.uniform(size=p - 4)]
    X = (U * s) @ V.T + 7.0
    Xd = da.from_array(X, chunks=((n // 3, n // 3, n - 2 * (n // 3)), p))
    exact = PCA(4, svd_solver="full").fit(X)
    b = PCA(4, svd_solver="randomized", random_state=0).fit(Xd)
    assert_allclose(b.explained_variance_, exact.explained_variance_, rtol=1e-10)
    assert_allclose(b.components_, exact.components_, rtol=0, atol=1e-8)
    # the noise variance is the total less the kept variances: absolute accuracy only
    assert_allclose(b.noise_variance_, exact.noise_variance_, rtol=0,
                    atol=1e-13 * exact.explained_variance_.sum())


def test_pca_on_dask_auto_resolves_to_randomized_and_refuses_arpack():
    X = _mixed(7, 600, 100)
    Xd = da.from_array(X, chunks=(200, 100))
    a, b = PCA(5, random_state=0).fit(X), PCA(5, random_state=0).fit(Xd)
    assert b._fit_svd_solver == a._fit_svd_solver == "randomized"
    _assert_same_fit(b, a, rtol=1e-11)
    with pytest.raises(DaskUnsupportedError, match="covariance route.*randomized"):
        PCA(5, svd_solver="arpack").fit(Xd)
    with pytest.raises(ValueError, match="between 1 and"):
        PCA(101, svd_solver="randomized").fit(Xd)


def test_randomized_pca_on_dask_names_nan_in_a_block():
    X = _mixed(8, 600, 100)
    X[450, 3] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        PCA(3, svd_solver="randomized").fit(da.from_array(X, chunks=(100, 100)))
