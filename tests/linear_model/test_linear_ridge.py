"""Ridge: parity with scikit-learn and the closed form from an SVD."""

import numpy as np
import pytest
from sklearn import linear_model as sk

from classiclearn.linear_model import Ridge


def _rel(a, b):
    return np.max(np.abs(np.asarray(a) - b)) / max(np.max(np.abs(b)), 1e-12)


@pytest.mark.parametrize("solver", ["auto", "cholesky", "svd"])
@pytest.mark.parametrize("shape", [(200, 5, None), (20, 60, None), (100, 1, None), (80, 6, 3)])
@pytest.mark.parametrize("weighted", [False, True])
def test_parity_with_sklearn(rng, solver, shape, weighted):
    n, p, t = shape
    X = rng.normal(size=(n, p)) + 2.0
    y = rng.normal(size=(n,) if t is None else (n, t))
    sw = rng.uniform(0.2, 3.0, n) if weighted else None
    ours = Ridge(alpha=1.7, solver=solver).fit(X, y, sample_weight=sw)
    ref = sk.Ridge(alpha=1.7, solver="svd" if solver == "svd" else "cholesky").fit(
        X, y, sample_weight=sw)
    assert _rel(ours.coef_, ref.coef_) < 1e-6
    np.testing.assert_allclose(ours.intercept_, ref.intercept_, rtol=1e-6, atol=1e-9)
    np.testing.assert_allclose(ours.predict(X), ref.predict(X), rtol=1e-7, atol=1e-9)


def test_alpha_per_target(rng):
    X = rng.normal(size=(50, 4))
    Y = rng.normal(size=(50, 3))
    alphas = np.array([0.1, 1.0, 10.0])
    ours = Ridge(alpha=alphas).fit(X, Y)
    for k in range(3):
        one = Ridge(alpha=alphas[k]).fit(X, Y[:, k])
        np.testing.assert_allclose(ours.coef_[k], one.coef_, rtol=1e-10)
    ref = sk.Ridge(alpha=alphas).fit(X, Y)
    assert _rel(ours.coef_, ref.coef_) < 1e-6
    with pytest.raises(ValueError, match="penalties"):
        Ridge(alpha=[1.0, 2.0]).fit(X, Y)


def test_closed_form_from_svd(rng):
    U, _ = np.linalg.qr(rng.normal(size=(30, 3)))
    V, _ = np.linalg.qr(rng.normal(size=(3, 3)))
    s = np.array([5.0, 2.0, 0.5])
    X = (U * s) @ V.T
    y = U @ np.array([1.0, -2.0, 3.0])
    expected = V @ (s / (s**2 + 0.3) * np.array([1.0, -2.0, 3.0]))
    ours = Ridge(alpha=0.3, fit_intercept=False).fit(X, y)
    np.testing.assert_allclose(ours.coef_, expected, rtol=1e-7)


def test_collinear_and_positive(rng):
    X = rng.normal(size=(40, 3))
    X = np.column_stack([X, X[:, 0]])
    y = X[:, 0] + rng.normal(size=40)
    ours = Ridge(alpha=0.5).fit(X, y)
    ref = sk.Ridge(alpha=0.5).fit(X, y)
    assert _rel(ours.coef_, ref.coef_) < 1e-6
    pos = Ridge(alpha=0.5, positive=True).fit(X, -y)
    ref = sk.Ridge(alpha=0.5, positive=True).fit(X, -y)
    assert np.all(pos.coef_ >= 0)
    np.testing.assert_allclose(pos.coef_, ref.coef_, atol=1e-6)


def test_negative_alpha_rejected(rng):
    with pytest.raises(ValueError, match="alpha"):
        Ridge(alpha=-1.0).fit(rng.normal(size=(5, 2)), rng.normal(size=5))


@pytest.mark.parametrize("offset", [0.0, 1e2, 1e5])
def test_large_feature_means_keep_accuracy(rng, offset):
    # The Gram matrix of the centred data is formed without a centred copy
    # only when the means are small against the spread; otherwise blockwise.
    X = rng.normal(size=(500, 6)) + offset
    y = X @ rng.normal(size=6) + rng.normal(size=500)
    ours = Ridge(alpha=0.1).fit(X, y)
    ref = sk.Ridge(alpha=0.1).fit(X, y)
    assert _rel(ours.coef_, ref.coef_) < 1e-6


@pytest.mark.parametrize("fit_intercept", [True, False])
def test_fortran_input_multi_target_and_nonfinite(rng, fit_intercept):
    X = rng.normal(size=(90, 6)) + 5.0
    Y = rng.normal(size=(90, 2))
    ours = Ridge(alpha=0.3, fit_intercept=fit_intercept).fit(np.asfortranarray(X), Y)
    ref = sk.Ridge(alpha=0.3, fit_intercept=fit_intercept, solver="cholesky").fit(X, Y)
    assert _rel(ours.coef_, ref.coef_) < 1e-6
    np.testing.assert_allclose(ours.intercept_, ref.intercept_, rtol=1e-6, atol=1e-9)
    Xn = X.copy()
    Xn[0, 0] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        Ridge().fit(Xn, Y[:, 0])


@pytest.mark.parametrize("shape, blocked", [((2500, 100), True), ((1200, 300), False),
                                            ((600, 200), True), ((500, 100), False)])
@pytest.mark.parametrize("fit_intercept", [True, False])
def test_gram_routes_match_sklearn(rng, shape, blocked, fit_intercept):
    # below BLOCKED_ROWS_THREADED rows: the serial blocked pass for few features or
    # modest work, BLAS's X'X after a moments pass for little work or many features
    from classiclearn.linear_model import _base

    n, p = shape
    X = rng.normal(size=(n, p)) + 3.0
    assert _base._blocked_gram_pass(X) == blocked
    y = X @ rng.normal(size=p) + rng.normal(size=n)
    ours = Ridge(alpha=0.5, fit_intercept=fit_intercept).fit(X, y)
    ref = sk.Ridge(alpha=0.5, fit_intercept=fit_intercept, solver="cholesky").fit(X, y)
    assert _rel(ours.coef_, ref.coef_) < 1e-9
    np.testing.assert_allclose(ours.predict(X), ref.predict(X), rtol=1e-9, atol=1e-9)


@pytest.mark.parametrize("fit_intercept", [True, False])
def test_float32_normal_equations_read_x_without_a_float64_copy(fit_intercept):
    # the threaded Gram pass reads a float32 X block by block in float64: the fit is the
    # float64 fit (the same sums up to their order) and no float64 copy of X is made
    import tracemalloc

    from classiclearn.linear_model import _base

    rng = np.random.default_rng(12)
    n, p = 30_000, 30
    assert n * p * p >= _base._GRAM_THREADED_WORK  # the blocked pass
    X = (rng.normal(size=(n, p)) + 3.0).astype(np.float32)
    y = X.astype(np.float64) @ rng.normal(size=p) + rng.normal(size=n)
    ours32 = Ridge(alpha=2.0, fit_intercept=fit_intercept).fit(X, y)
    ours64 = Ridge(alpha=2.0, fit_intercept=fit_intercept).fit(X.astype(np.float64), y)
    assert ours32.coef_.dtype == np.float32
    np.testing.assert_allclose(ours32.coef_, ours64.coef_, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(ours32.intercept_, ours64.intercept_, rtol=1e-5, atol=1e-5)
    tracemalloc.start()
    try:
        Ridge(alpha=2.0, fit_intercept=fit_intercept).fit(X, y)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < X.size * 8


@pytest.mark.parametrize("shape", [(2000, 10), (300, 150), (299, 150)])
@pytest.mark.parametrize("alpha", [1e-8, 1.0])
def test_svd_solver_on_ill_conditioned_tall_design_matches_sklearn(rng, shape, alpha):
    # tall designs go through a QR factorisation before the SVD of its triangle
    n, p = shape
    X = rng.normal(size=(n, p)) * np.logspace(0, -5, p)
    X[:, -1] = X[:, 0] + 1e-7 * rng.normal(size=n)  # nearly collinear
    y = X @ rng.normal(size=p) + rng.normal(size=n)
    ours = Ridge(alpha=alpha, solver="svd").fit(X, y)
    ref = sk.Ridge(alpha=alpha, solver="svd").fit(X, y)
    np.testing.assert_allclose(ours.predict(X), ref.predict(X), rtol=1e-7, atol=1e-8)
    assert _rel(ours.coef_, ref.coef_) < 1e-6
