"""KernelRidge's linear kernel on X with at most half as many columns as rows: the dual
coefficients from the thin SVD of X and predictions from X_fit' a, never forming the
n x n kernel; checked against scikit-learn's Cholesky solve of the kernel system."""

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from numpy.testing import assert_allclose

from classiclearn.kernel_ridge import KernelRidge

sk_kr = pytest.importorskip("sklearn.kernel_ridge")


def _regression(seed, n, p, targets=1):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p)) * np.geomspace(4.0, 0.2, p) + 1.0
    Y = X @ rng.normal(size=(p, targets)) + rng.normal(scale=0.5, size=(n, targets))
    return X, (Y.ravel() if targets == 1 else Y)


@pytest.fixture
def routes(monkeypatch):
    """The routes the fits take: 'features' (the SVD) or 'kernel'."""
    taken = []
    real = KernelRidge._solve_on_kernel
    monkeypatch.setattr(KernelRidge, "_solve_on_kernel",
                        lambda self, *a: taken.append("kernel") or real(self, *a))
    return taken


def _check_parity(ours, theirs, X, Xt, rtol=1e-8):
    scale = np.abs(theirs.dual_coef_).max()
    assert_allclose(ours.dual_coef_, theirs.dual_coef_, rtol=rtol, atol=rtol * scale)
    pred = theirs.predict(Xt)
    assert_allclose(ours.predict(Xt), pred, rtol=rtol, atol=rtol * np.abs(pred).max())


@pytest.mark.parametrize("alpha", [1e-3, 1.0, 300.0])
@pytest.mark.parametrize("shape", [(40, 5), (500, 20), (2000, 60)])
def test_linear_kernel_from_the_svd_matches_sklearn(routes, alpha, shape):
    X, y = _regression(0, *shape)
    Xt, _ = _regression(1, 50, shape[1])
    ours = KernelRidge(alpha=alpha).fit(X, y)
    theirs = sk_kr.KernelRidge(alpha=alpha).fit(X, y)
    assert routes == []
    assert ours.dual_coef_.shape == theirs.dual_coef_.shape
    _check_parity(ours, theirs, X, Xt)


def test_several_targets_penalties_and_weights(routes):
    X, Y = _regression(2, 300, 12, targets=3)
    w = np.random.default_rng(3).uniform(0.0, 2.0, size=300)
    w[:20] = 0.0  # rows of no weight: a zero dual coefficient
    for alpha in (0.5, np.array([0.1, 1.0, 10.0])):
        ours = KernelRidge(alpha=alpha).fit(X, Y, sample_weight=w)
        theirs = sk_kr.KernelRidge(alpha=alpha).fit(X, Y, sample_weight=w)
        _check_parity(ours, theirs, X, X[:40] * 0.9)
        assert np.all(ours.dual_coef_[:20] == 0.0)
    ours = KernelRidge(alpha=2.0).fit(X, Y[:, 0], sample_weight=3.0)
    theirs = sk_kr.KernelRidge(alpha=2.0).fit(X, Y[:, 0], sample_weight=3.0)
    _check_parity(ours, theirs, X, X[:40])
    assert routes == []


def test_sparse_queries_and_float32_after_the_svd_route(routes):
    X, y = _regression(4, 400, 10)
    Xt = X[:60].copy()
    Xt[np.abs(Xt) < 1.0] = 0.0
    ours = KernelRidge(alpha=1.0).fit(X, y)
    theirs = sk_kr.KernelRidge(alpha=1.0).fit(X, y)
    assert_allclose(ours.predict(sp.csr_matrix(Xt)), theirs.predict(Xt), rtol=1e-9, atol=1e-9)
    X32, y32 = X.astype(np.float32), y.astype(np.float32)
    ours32 = KernelRidge(alpha=1.0).fit(X32, y32)
    theirs32 = sk_kr.KernelRidge(alpha=1.0).fit(X32, y32)
    assert ours32.dual_coef_.dtype == theirs32.dual_coef_.dtype == np.float32
    assert ours32.predict(X32[:5]).dtype == theirs32.predict(X32[:5]).dtype
    assert_allclose(ours32.predict(X32), theirs32.predict(X32), rtol=1e-3, atol=1e-3)
    assert routes == []


def test_the_kernel_is_solved_where_the_svd_route_does_not_apply(routes):
    X, y = _regression(5, 300, 10)
    X_rank3 = X[:, :3] @ np.random.default_rng(6).normal(size=(3, 10))
    for data, params in (((X[:15], y[:15]), dict(alpha=1.0)),  # 15 rows of 10 columns
                         ((X, y), dict(alpha=1.0, kernel="rbf")),
                         ((sp.csr_matrix(X), y), dict(alpha=1.0)),  # sparse X
                         ((X, y), dict(alpha=0.0)),  # no penalty: the singular fallback
                         # a penalty inside the kernel's rounding: as scikit-learn's
                         ((X_rank3, y), dict(alpha=1e-16))):
        routes.clear()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ours = KernelRidge(**params).fit(*data)
            theirs = sk_kr.KernelRidge(**params).fit(*data)
        assert routes == ["kernel"], params
        if params["alpha"] < 1e-8:
            continue  # singular systems: the fallbacks' own tests compare them
        pred = theirs.predict(data[0])
        assert_allclose(ours.predict(data[0]), pred, rtol=1e-5,
                        atol=1e-5 * np.abs(pred).max())
