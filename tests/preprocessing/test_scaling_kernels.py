"""The scaling kernels against naive NumPy versions."""

import numpy as np
import pytest

from classiclearn.preprocessing import _scaling_kernels as k


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("n", [1, 7, 100])
def test_column_weighted_moments_naive(rng, dtype, n):
    X = rng.normal(size=(n, 5)).astype(dtype)
    X[rng.uniform(size=X.shape) < 0.2] = np.nan
    X[:, 4] = np.nan
    w = rng.uniform(0.1, 3.0, size=n)
    count, mean, m2 = k.column_weighted_moments(X, w)
    for j in range(5):
        ok = ~np.isnan(X[:, j])
        xj, wj = X[ok, j].astype(np.float64), w[ok]
        assert count[j] == pytest.approx(wj.sum())
        if ok.any():
            mu = np.average(xj, weights=wj)
            assert mean[j] == pytest.approx(mu, rel=1e-12, abs=1e-12)
            assert m2[j] == pytest.approx((wj * (xj - mu) ** 2).sum(), rel=1e-10, abs=1e-12)
        else:
            assert mean[j] == 0.0 and m2[j] == 0.0


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_elementwise_kernels_naive(rng, dtype):
    X = rng.normal(size=(20, 3)).astype(dtype)
    X[3, 1] = np.nan
    a, b = rng.normal(size=3).astype(dtype), rng.uniform(1, 2, size=3).astype(dtype)
    before = X.copy()
    out = np.empty_like(X)
    k.center_scale(X, a, b, out)
    np.testing.assert_array_equal(out, (X - a) / b)
    k.scale_shift(X, b, a, out)
    np.testing.assert_array_equal(out, X * b + a)
    k.fill_nan(X, a, out)
    np.testing.assert_array_equal(out, np.where(np.isnan(X), a, X))
    np.testing.assert_array_equal(X, before)
