"""lasso_path and enet_path on Dask input: the Gram matrix merged over row blocks,
then the in-memory path."""

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal

da = pytest.importorskip("dask.array")

from classiclearn.linear_model import enet_path, lasso_path  # noqa: E402

CHUNKINGS = [(1, 299, 0, 200, 100), (300, 300), (7,) * 85 + (5,)]


def _data(seed=0, n=600, p=8, offset=3.0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p)) * rng.uniform(0.5, 3, p) + offset
    y = X @ rng.normal(size=p) + rng.normal(size=n)
    return X, y


def _paths(path, X, y, Xd, yd, **kw):
    kw = dict(tol=1e-12, max_iter=100_000, n_alphas=30, return_n_iter=True, **kw)
    return path(X, y, **kw), path(Xd, yd, **kw)


@pytest.mark.parametrize("chunks", [(600,)] + CHUNKINGS)
@pytest.mark.parametrize("path, kw", [(lasso_path, {}), (enet_path, {"l1_ratio": 0.3}),
                                      (lasso_path, {"positive": True}),
                                      (enet_path, {"alphas": [0.5, 0.05, 0.005]})])
def test_path_on_dask_matches_in_memory(path, kw, chunks):
    X, y = _data()
    Xd, yd = da.from_array(X, chunks=(chunks, 8)), da.from_array(y, chunks=(chunks,))
    (a_alphas, a_coefs, a_gaps, a_iters), (b_alphas, b_coefs, b_gaps, b_iters) = _paths(
        path, X, y, Xd, yd, **kw)
    if len(chunks) == 1:  # one block: the in-memory path on it
        assert_array_equal(b_alphas, a_alphas)
        assert_array_equal(b_coefs, a_coefs)
        assert_array_equal(b_gaps, a_gaps)
        assert b_iters == a_iters
        return
    assert_allclose(b_alphas, a_alphas, rtol=1e-14)
    # X'X summed by blocks instead of at once: the solves agree to the solver tolerance
    assert_allclose(b_coefs, a_coefs, rtol=0, atol=1e-11 * np.abs(a_coefs).max())
    bound = 1e-12 * float(y @ y)  # both dual gaps are certified below tol * ||y||^2
    assert np.all(b_gaps <= bound) and np.all(a_gaps <= bound)


def test_path_on_dask_takes_a_numpy_target_and_refuses_mixed_input():
    X, y = _data(1)
    Xd = da.from_array(X, chunks=(100, 8))
    a = lasso_path(X, y, n_alphas=5, tol=1e-12)
    b = lasso_path(Xd, y, n_alphas=5, tol=1e-12)
    assert_allclose(b[1], a[1], rtol=0, atol=1e-10 * np.abs(a[1]).max())
    with pytest.raises(TypeError, match="not a Dask collection"):
        lasso_path(X, da.from_array(y, chunks=100))
    with pytest.raises(ValueError, match="same row chunks"):
        lasso_path(Xd, da.from_array(y, chunks=150))
    with pytest.raises(ValueError, match="1-D y"):
        lasso_path(Xd, da.from_array(np.c_[y, y], chunks=(100, 2)))


def test_path_on_dask_names_nan_in_a_block():
    X, y = _data(2)
    X[450, 3] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        enet_path(da.from_array(X, chunks=(100, 8)), da.from_array(y, chunks=100))
