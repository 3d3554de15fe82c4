"""KernelRidge's linear kernel on X with fewer columns than rows: the dual coefficients
from the thin SVD of X (dense, at most a quarter as many columns as rows) or from the
p x p normal equations (dense or sparse, up to 0.8 as many), predictions from X_fit' a,
never forming the n x n kernel; checked against scikit-learn's Cholesky solve of the
kernel system."""

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from numpy.testing import assert_allclose

import classiclearn.kernel_ridge as kr_module
from classiclearn.kernel_ridge import KernelRidge

sk_kr = pytest.importorskip("sklearn.kernel_ridge")


def _regression(seed, n, p, targets=1):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p)) * np.geomspace(4.0, 0.2, p) + 1.0
    Y = X @ rng.normal(size=(p, targets)) + rng.normal(scale=0.5, size=(n, targets))
    return X, (Y.ravel() if targets == 1 else Y)


@pytest.fixture
def routes(monkeypatch):
    """The kernel solves of the fits ('kernel'; the SVD route records nothing)."""
    taken = []
    real = KernelRidge._solve_on_kernel
    monkeypatch.setattr(KernelRidge, "_solve_on_kernel",
                        lambda self, *a: taken.append("kernel") or real(self, *a))
    return taken


@pytest.fixture
def gram_routes(monkeypatch, routes):
    """The fits' routes: 'gram' (the normal equations), 'kernel'; the SVD route
    records nothing."""
    real = kr_module._linear_dual_from_gram
    monkeypatch.setattr(kr_module, "_linear_dual_from_gram",
                        lambda *a: routes.append("gram") or real(*a))
    return routes


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
    for data, params in (((X[:12], y[:12]), dict(alpha=1.0)),  # 12 rows of 10 columns
                         ((X, y), dict(alpha=1.0, kernel="rbf")),
                         ((sp.csr_matrix(X[:12]), y[:12]), dict(alpha=1.0)),  # sparse, wide
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


def _sparse(X, seed):
    rng = np.random.default_rng(seed)
    return sp.csr_matrix(np.where(rng.random(X.shape) < 0.2, X, 0.0))


@pytest.mark.parametrize("alpha", [1e-3, 1.0, 300.0])
@pytest.mark.parametrize("shape", [(60, 30), (300, 120), (500, 390)])
@pytest.mark.parametrize("sparse", [False, True])
def test_linear_kernel_from_the_normal_equations_matches_sklearn(gram_routes, alpha, shape,
                                                                  sparse):
    X, y = _regression(7, *shape)
    Xt, _ = _regression(8, 40, shape[1])
    if sparse:
        X, Xt = _sparse(X, 9), _sparse(Xt, 10)
    ours = KernelRidge(alpha=alpha).fit(X, y)
    theirs = sk_kr.KernelRidge(alpha=alpha).fit(X, y)
    assert gram_routes == ["gram"]
    assert ours.dual_coef_.shape == theirs.dual_coef_.shape
    # the dual's rounding grows as the penalty shrinks, on both sides (scikit-learn's
    # Cholesky of the kernel, ours of the normal equations)
    _check_parity(ours, theirs, X, Xt, rtol=1e-8 if alpha >= 1.0 else 1e-6)
    assert sp.issparse(ours.X_fit_) == sparse


@pytest.mark.parametrize("sparse", [False, True])
def test_normal_equations_with_targets_penalties_and_weights(gram_routes, sparse):
    X, Y = _regression(11, 200, 80, targets=3)
    if sparse:
        X = _sparse(X, 12)
    w = np.random.default_rng(13).uniform(0.0, 2.0, size=200)
    w[:15] = 0.0  # rows of no weight: a zero dual coefficient
    Xt = X[:30] * 0.9
    for alpha in (0.5, np.array([0.1, 1.0, 10.0])):
        gram_routes.clear()
        ours = KernelRidge(alpha=alpha).fit(X, Y, sample_weight=w)
        theirs = sk_kr.KernelRidge(alpha=alpha).fit(X, Y, sample_weight=w)
        assert gram_routes == ["gram"]
        _check_parity(ours, theirs, X, Xt)
        assert np.all(ours.dual_coef_[:15] == 0.0)
    X_copy = X.copy()
    KernelRidge(alpha=1.0).fit(X, Y[:, 0], sample_weight=w)
    assert (abs(X - X_copy)).max() == 0.0  # X never modified


def test_which_linear_route_each_shape_takes(gram_routes):
    rng = np.random.default_rng(14)
    for n, p, sparse, expected in ((400, 100, False, []),  # 4p <= n: the SVD
                                   (400, 101, False, ["gram"]),
                                   (400, 320, False, ["gram"]),
                                   (400, 321, False, ["kernel"]),  # p > 0.8 n
                                   (400, 100, True, ["gram"]),
                                   (400, 321, True, ["kernel"])):
        X = rng.normal(size=(n, p))
        X = _sparse(X, 15) if sparse else X
        y = rng.normal(size=n)
        gram_routes.clear()
        KernelRidge(alpha=1.0).fit(X, y)
        assert gram_routes == expected, (n, p, sparse)
    # a penalty inside the Gram matrix's rounding: the kernel, as scikit-learn
    X_rank3 = rng.normal(size=(300, 3)) @ rng.normal(size=(3, 150))
    gram_routes.clear()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        KernelRidge(alpha=1e-16).fit(X_rank3, rng.normal(size=300))
    assert gram_routes == ["gram", "kernel"]
