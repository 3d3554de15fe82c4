"""Lasso / ElasticNet / paths: parity with scikit-learn at tight tol, duality gap, options."""

import warnings

import numpy as np
import pytest
from sklearn import linear_model as sk

from classiclearn.exceptions import ConvergenceWarning
from classiclearn.linear_model import ElasticNet, Lasso, enet_path, lasso_path

TIGHT = {"tol": 1e-10, "max_iter": 100_000}


def _rel(a, b):
    return np.max(np.abs(np.asarray(a) - b)) / max(np.max(np.abs(b)), 1e-12)


def _data(rng, n, p, t=None):
    X = rng.normal(size=(n, p)) + 1.0
    k = min(p, 4)
    beta = np.zeros((p,) if t is None else (p, t))
    beta[:k] = rng.normal(size=beta[:k].shape) * 3
    noise = rng.normal(size=(n,) if t is None else (n, t))
    return X, X @ beta + noise


@pytest.mark.parametrize("shape", [(300, 8, None), (25, 60, None), (100, 1, None), (80, 6, 2)])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("cls,kw", [("Lasso", {"alpha": 0.1}),
                                    ("ElasticNet", {"alpha": 0.2, "l1_ratio": 0.3})])
def test_parity_with_sklearn(rng, shape, weighted, cls, kw):
    n, p, t = shape
    X, y = _data(rng, n, p, t)
    sw = rng.uniform(0.2, 3.0, n) if weighted else None
    ours = {"Lasso": Lasso, "ElasticNet": ElasticNet}[cls](**kw, **TIGHT).fit(
        X, y, sample_weight=sw)
    ref = getattr(sk, cls)(**kw, **TIGHT).fit(X, y, sample_weight=sw)
    assert _rel(ours.coef_, ref.coef_) < 1e-4
    np.testing.assert_allclose(ours.intercept_, ref.intercept_, rtol=1e-4, atol=1e-6)
    np.testing.assert_allclose(ours.predict(X), ref.predict(X), rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("precompute", [True, False])
def test_gram_and_data_forms_agree(rng, precompute):
    X, y = _data(rng, 200, 10)
    a = Lasso(alpha=0.05, precompute=precompute, **TIGHT).fit(X, y)
    b = sk.Lasso(alpha=0.05, **TIGHT).fit(X, y)
    assert _rel(a.coef_, b.coef_) < 1e-6
    assert a.dual_gap_ < 1e-8


def test_collinear_columns(rng):
    X, y = _data(rng, 100, 4)
    X = np.column_stack([X, X[:, 0] + X[:, 1]])
    ours = ElasticNet(alpha=0.1, l1_ratio=0.5, **TIGHT).fit(X, y)
    ref = sk.ElasticNet(alpha=0.1, l1_ratio=0.5, **TIGHT).fit(X, y)
    assert _rel(ours.coef_, ref.coef_) < 1e-4


def test_positive_and_random_selection(rng):
    X, y = _data(rng, 150, 6)
    pos = Lasso(alpha=0.05, positive=True, **TIGHT).fit(X, y)
    ref = sk.Lasso(alpha=0.05, positive=True, **TIGHT).fit(X, y)
    assert np.all(pos.coef_ >= 0)
    assert _rel(pos.coef_, ref.coef_) < 1e-4
    cyc = Lasso(alpha=0.05, **TIGHT).fit(X, y)
    r1 = Lasso(alpha=0.05, selection="random", random_state=3, **TIGHT).fit(X, y)
    r2 = Lasso(alpha=0.05, selection="random", random_state=3, **TIGHT).fit(X, y)
    np.testing.assert_array_equal(r1.coef_, r2.coef_)
    assert _rel(r1.coef_, cyc.coef_) < 1e-5


def test_warm_start_continues(rng):
    X, y = _data(rng, 100, 5)
    est = Lasso(alpha=0.1, warm_start=True, **TIGHT).fit(X, y)
    n_first = est.n_iter_
    est.fit(X, y)
    assert est.n_iter_ <= 2 < n_first + 2


def test_alpha_zero_is_least_squares(rng):
    X, y = _data(rng, 100, 4)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        est = Lasso(alpha=0.0, **TIGHT).fit(X, y)
    ols = np.linalg.lstsq(np.column_stack([np.ones(100), X]), y, rcond=None)[0]
    np.testing.assert_allclose(est.coef_, ols[1:], rtol=1e-6)


def test_convergence_warning(rng):
    X, y = _data(rng, 100, 20)
    with pytest.warns(ConvergenceWarning, match="duality gap"):
        Lasso(alpha=1e-4, max_iter=2, tol=1e-12).fit(X, y)


def test_lasso_path_matches_sklearn(rng):
    X, y = _data(rng, 200, 12)
    a1, c1, g1 = lasso_path(X, y, n_alphas=20, tol=1e-10, max_iter=100_000)
    a2, c2, _ = sk.lasso_path(X, y, alphas=20, tol=1e-10, max_iter=100_000)
    np.testing.assert_allclose(a1, a2, rtol=1e-10)
    assert _rel(c1, c2) < 1e-4
    assert np.all(c1[:, 0] == 0)
    assert c1.shape == (12, 20) and g1.shape == (20,)


def test_enet_path_explicit_alphas_and_data_form(rng):
    X, y = _data(rng, 30, 50)
    alphas = np.array([1.0, 0.3, 0.1])
    a1, c1, _ = enet_path(X, y, l1_ratio=0.7, alphas=alphas, tol=1e-10, max_iter=100_000)
    a2, c2, _ = sk.enet_path(X, y, l1_ratio=0.7, alphas=alphas, tol=1e-10, max_iter=100_000)
    np.testing.assert_allclose(a1, a2)
    assert _rel(c1, c2) < 1e-4


def test_bad_parameters(rng):
    X, y = _data(rng, 20, 3)
    with pytest.raises(ValueError, match="l1_ratio"):
        ElasticNet(l1_ratio=1.5).fit(X, y)
    with pytest.raises(ValueError, match="alpha"):
        Lasso(alpha=-0.1).fit(X, y)
    Xn = X.copy()
    Xn[0, 0] = np.inf
    with pytest.raises(ValueError, match="infinity"):
        Lasso().fit(Xn, y)


def test_all_forms_agree_on_correlated_columns(rng):
    # Strongly correlated columns need many epochs; Gram and data forms agree.
    base = rng.normal(size=(400, 1))
    X = base + 0.05 * rng.normal(size=(400, 40))
    y = X[:, :3].sum(axis=1) + 0.1 * rng.normal(size=400)
    ref = sk.Lasso(alpha=1e-3, **TIGHT).fit(X, y)
    for precompute in ["auto", True, False]:
        est = Lasso(alpha=1e-3, precompute=precompute, **TIGHT).fit(X, y)
        assert _rel(est.coef_, ref.coef_) < 1e-4
        assert est.dual_gap_ < 1e-8


@pytest.mark.parametrize("precompute", ["auto", False])
def test_fortran_input_and_nonfinite_message(rng, precompute):
    X = rng.normal(size=(120, 7)) + 3.0
    y = X @ rng.normal(size=7) + rng.normal(size=120)
    a = ElasticNet(alpha=0.05, precompute=precompute, **TIGHT).fit(X, y)
    b = ElasticNet(alpha=0.05, precompute=precompute, **TIGHT).fit(np.asfortranarray(X), y)
    np.testing.assert_allclose(a.coef_, b.coef_, rtol=1e-10, atol=1e-12)
    a1, c1, _ = lasso_path(X, y, n_alphas=5)
    a2, c2, _ = lasso_path(np.asfortranarray(X), y, n_alphas=5)
    np.testing.assert_allclose(c1, c2, rtol=1e-10, atol=1e-12)
    Xn = X.copy()
    Xn[3, 2] = np.inf
    with pytest.raises(ValueError, match="infinity"):
        Lasso(precompute=precompute).fit(Xn, y)
    Xn[3, 2] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        lasso_path(Xn, y)


def test_data_form_warm_start_and_positive(rng):
    X = rng.normal(size=(60, 90))
    y = X[:, :5] @ np.arange(1.0, 6.0) + 0.1 * rng.normal(size=60)
    est = ElasticNet(alpha=0.05, l1_ratio=0.7, precompute=False, warm_start=True, **TIGHT)
    est.fit(X, y)
    est.set_params(alpha=0.02).fit(X, y)
    ref = sk.ElasticNet(alpha=0.02, l1_ratio=0.7, **TIGHT).fit(X, y)
    np.testing.assert_allclose(est.coef_, ref.coef_, rtol=1e-4, atol=1e-8)
    pos = Lasso(alpha=0.05, positive=True, precompute=False, **TIGHT).fit(X, y)
    ref = sk.Lasso(alpha=0.05, positive=True, **TIGHT).fit(X, y)
    np.testing.assert_allclose(pos.coef_, ref.coef_, rtol=1e-4, atol=1e-8)


@pytest.fixture
def threaded_gram(monkeypatch):
    """Send small problems through the threaded blocked Gram pass, in many blocks."""
    from classiclearn.linear_model import _base
    from classiclearn.utils import _threads

    monkeypatch.setattr(_threads, "BLOCKED_ROWS_THREADED", 0)
    monkeypatch.setattr(_base, "_GRAM_THREADED_WORK", 0)
    monkeypatch.setattr(_base, "_GRAM_BLOCK_ROWS", 37)
    monkeypatch.setattr(_base, "_GRAM32_BLOCK_ROWS", 37)
    return _base


@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("offset", [1.0, 1e5])
def test_moments_and_gram_matches_numpy(rng, threaded_gram, fit_intercept, offset):
    X = rng.normal(size=(300, 9)) + offset
    X[:, 0] *= 0.1  # a large mean-to-spread column when offset is large
    Y = rng.normal(size=(300, 2)) + 5.0
    x_mean, y_mean, XtY, yy, G = threaded_gram.moments_and_gram(None, X, Y, fit_intercept)
    # Naive reference: centre explicitly, then plain products.
    m = X.mean(axis=0) if fit_intercept else np.zeros(9)
    ym = Y.mean(axis=0) if fit_intercept else np.zeros(2)
    Xc, Yc = X - m, Y - ym
    np.testing.assert_allclose(x_mean, m, rtol=1e-13)
    np.testing.assert_allclose(y_mean, ym, rtol=1e-13)
    scale = np.sqrt(np.outer(np.diag(Xc.T @ Xc), np.diag(Xc.T @ Xc)))
    assert np.max(np.abs(G - Xc.T @ Xc) / scale) < 1e-10
    np.testing.assert_allclose(XtY, Xc.T @ Yc, rtol=1e-9, atol=1e-9 * np.abs(Xc.T @ Yc).max())
    np.testing.assert_allclose(yy, (Yc**2).sum(axis=0), rtol=1e-13)
    np.testing.assert_array_equal(G, G.T)
    # The same bits whatever the number of threads.
    one = threaded_gram.moments_and_gram(None, X, Y, fit_intercept, n_threads=1)
    for a, b in zip(one, (x_mean, y_mean, XtY, yy, G)):
        np.testing.assert_array_equal(a, b)


def test_threaded_gram_fits_match_sklearn(rng, threaded_gram):
    X, y = _data(rng, 400, 10)
    ours = ElasticNet(alpha=0.1, l1_ratio=0.6, **TIGHT).fit(X, y)
    ref = sk.ElasticNet(alpha=0.1, l1_ratio=0.6, **TIGHT).fit(X, y)
    assert _rel(ours.coef_, ref.coef_) < 1e-4
    np.testing.assert_allclose(ours.intercept_, ref.intercept_, rtol=1e-4, atol=1e-6)
    _, c1, g1 = lasso_path(X, y, n_alphas=15, tol=1e-10, max_iter=100_000)
    _, c2, _ = sk.lasso_path(X, y, alphas=15, tol=1e-10, max_iter=100_000)
    assert _rel(c1, c2) < 1e-4
    assert np.all(g1 <= 1e-10 * (y @ y))
    Xn = X.copy()
    Xn[5, 3] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        Lasso().fit(Xn, y)
    with pytest.raises(ValueError, match="NaN"):
        lasso_path(Xn, y)


def test_threaded_gram_restores_blas_threads(rng, threaded_gram):
    threadpoolctl = pytest.importorskip("threadpoolctl")
    from classiclearn.utils._threads import thread_map

    before = [lib["num_threads"] for lib in threadpoolctl.threadpool_info()]
    X, y = _data(rng, 200, 6)
    # Fits running at once in several threads share one limit, restored at the end.
    fits = thread_map(lambda a: Lasso(alpha=a).fit(X, y).coef_, [0.1, 0.2, 0.3, 0.4], 4)
    after = [lib["num_threads"] for lib in threadpoolctl.threadpool_info()]
    assert before == after
    np.testing.assert_array_equal(fits[0], Lasso(alpha=0.1).fit(X, y).coef_)


# ---------------------------------------------------------------------------
# Float32 Gram matrix certified from the data (_base.moments_and_gram32 and
# _coordinate_descent._Certified).


def test_float32_block_kernels_match_numpy(rng):
    from classiclearn.linear_model import _cd_kernels as k

    X = rng.normal(size=(50, 7)) + 3.0
    Y = rng.normal(size=(50, 2))
    shift = rng.normal(size=7)
    out = np.full((40, 7), np.nan, dtype=np.float32)
    s, q = k.moments_to_float32(X, Y, 5, 37, shift, out)
    np.testing.assert_allclose(s, X[5:37].sum(axis=0), rtol=1e-13)
    np.testing.assert_allclose(q, X[5:37].T @ Y[5:37], rtol=1e-12, atol=1e-12)
    np.testing.assert_array_equal(out[:32], (X[5:37] - shift).astype(np.float32))
    assert np.all(np.isnan(out[32:]))
    m = X.mean(axis=0)
    y = np.ascontiguousarray(Y[:, 0])
    w = rng.normal(size=7)
    g, rr, ry = k.residual_products(X, m, y, w, 3, 44)
    r = y[3:44] - (X[3:44] - m) @ w
    np.testing.assert_allclose(g, (X[3:44] - m).T @ r, rtol=1e-11, atol=1e-11)
    np.testing.assert_allclose(rr[0], r @ r, rtol=1e-12)
    np.testing.assert_allclose(ry[0], r @ y[3:44], rtol=1e-12)


@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("offset", [0.0, 1e4])
def test_moments_and_gram32_close_and_thread_independent(rng, threaded_gram, fit_intercept,
                                                           offset):
    X = rng.normal(size=(300, 9)) + offset
    Y = rng.normal(size=(300, 2)) + 5.0
    x_mean, y_mean, XtY, yy, G, C = threaded_gram.moments_and_gram32(None, X, Y, fit_intercept)
    m = X.mean(axis=0) if fit_intercept else np.zeros(9)
    Xc = X - m
    np.testing.assert_allclose(x_mean, m, rtol=1e-13)
    np.testing.assert_allclose(C, Y - (Y.mean(axis=0) if fit_intercept else 0.0), rtol=1e-13)
    ref = Xc.T @ Xc
    scale = np.sqrt(np.outer(np.diag(ref), np.diag(ref)))
    # A float32 Gram matrix: about 1e-6 relative, the shift keeping a large
    # mean from cancelling (without intercept nothing is centred).
    assert np.max(np.abs(G - ref) / scale) < 1e-5
    np.testing.assert_array_equal(G, G.T)
    one = threaded_gram.moments_and_gram32(None, X, Y, fit_intercept, n_threads=1)
    for a, b in zip(one, (x_mean, y_mean, XtY, yy, G, C)):
        np.testing.assert_array_equal(a, b)
    g1 = threaded_gram.exact_residual_products(X, x_mean, C[:, 0].copy(), np.ones(9), 1)
    g2 = threaded_gram.exact_residual_products(X, x_mean, C[:, 0].copy(), np.ones(9), 2)
    np.testing.assert_array_equal(g1[0], g2[0])
    assert g1[1:] == g2[1:]


@pytest.mark.filterwarnings("ignore:Objective did not converge")
def test_moments_and_gram32_overflow_falls_back(rng, threaded_gram):
    X = rng.normal(size=(200, 5))
    X[:, 2] *= 1e25  # squares finite in float64, infinite in float32
    assert threaded_gram.moments_and_gram32(None, X, rng.normal(size=(200, 1)), True) is None
    y = X[:, 0] + 0.1 * rng.normal(size=200)
    ours = Lasso(alpha=0.01, **TIGHT).fit(X, y)
    ref = sk.Lasso(alpha=0.01, **TIGHT).fit(X, y)
    assert _rel(ours.coef_, ref.coef_) < 1e-4


@pytest.mark.parametrize("rounds", [0, 1, 4])
@pytest.mark.parametrize("offset", [0.0, 1e4])
def test_certified_fits_match_sklearn(rng, threaded_gram, monkeypatch, rounds, offset):
    from classiclearn.linear_model import _coordinate_descent

    # rounds=0 goes straight to the float64 fallback.
    monkeypatch.setattr(_coordinate_descent, "_REFINE_ROUNDS", rounds)
    X, y = _data(rng, 500, 12)
    X += offset
    for est, ref in [(Lasso(alpha=0.05, **TIGHT), sk.Lasso(alpha=0.05, **TIGHT)),
                     (ElasticNet(alpha=0.1, l1_ratio=0.3, positive=True, **TIGHT),
                      sk.ElasticNet(alpha=0.1, l1_ratio=0.3, positive=True, **TIGHT))]:
        est.fit(X, y)
        ref.fit(X, y)
        assert _rel(est.coef_, ref.coef_) < 1e-4
        np.testing.assert_allclose(est.intercept_, ref.intercept_, rtol=1e-4, atol=1e-4)
        # The reported gap is the exact one (from the data), within tolerance.
        r = y - X @ est.coef_ - est.intercept_
        assert est.dual_gap_ <= 1e-10 * ((y - y.mean()) @ (y - y.mean())) / len(y) * 1.0001
        assert np.isfinite(r).all()


def test_certified_multi_target_and_warm_start(rng, threaded_gram):
    X, Y = _data(rng, 400, 10, t=3)
    ours = ElasticNet(alpha=0.1, l1_ratio=0.5, **TIGHT).fit(X, Y)
    ref = sk.ElasticNet(alpha=0.1, l1_ratio=0.5, **TIGHT).fit(X, Y)
    assert _rel(ours.coef_, ref.coef_) < 1e-4
    warm = Lasso(alpha=0.2, warm_start=True, **TIGHT).fit(X, Y[:, 0])
    warm.set_params(alpha=0.05).fit(X, Y[:, 0])
    assert _rel(warm.coef_, sk.Lasso(alpha=0.05, **TIGHT).fit(X, Y[:, 0]).coef_) < 1e-4


def test_certified_ill_conditioned(rng, threaded_gram):
    # Nearly collinear columns: the float32 Gram matrix is far from the true
    # one relative to its small eigenvalues; the certificate still holds.
    X = rng.normal(size=(400, 6))
    X[:, 5] = X[:, 4] + 1e-5 * rng.normal(size=400)
    y = X[:, 0] + X[:, 4] + 0.01 * rng.normal(size=400)
    ours = Lasso(alpha=1e-4, **TIGHT).fit(X, y)
    ref = sk.Lasso(alpha=1e-4, **TIGHT).fit(X, y)
    pred = X @ ours.coef_ + ours.intercept_
    np.testing.assert_allclose(pred, X @ ref.coef_ + ref.intercept_, rtol=1e-6, atol=1e-6)
    assert ours.dual_gap_ <= 1e-10 * ((y - y.mean()) @ (y - y.mean())) / len(y) * 1.0001


def _few_active(seed, n=150, p=1500, fmt=None):
    # wide X, a handful of true features: the active set is a few percent of the columns
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p))
    if fmt is not None:
        import scipy.sparse as sp

        X[rng.random(X.shape) > 0.2] = 0.0
        X = sp.csr_array(X).asformat(fmt)
    beta = np.zeros(p)
    beta[:6] = [4.0, -3.0, 2.5, 2.0, -1.5, 1.0]
    return X, X @ beta + 0.5 * rng.normal(size=n)


@pytest.mark.parametrize("fmt", [None, "csr", "csc"])
@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("cls,kw", [("Lasso", {"alpha": 0.1}),
                                    ("ElasticNet", {"alpha": 0.1, "l1_ratio": 0.8}),
                                    ("Lasso", {"alpha": 0.05, "positive": True})])
def test_active_set_cycling_reaches_the_solution(fmt, fit_intercept, cls, kw):
    # the data-form solvers cycle the non-zero coefficients alone between full epochs:
    # the same optimum as scikit-learn's plain cycle, and its gap test met
    X, y = _few_active(0, fmt=fmt)
    ours = {"Lasso": Lasso, "ElasticNet": ElasticNet}[cls](
        fit_intercept=fit_intercept, precompute=False, **kw, **TIGHT).fit(X, y)
    ref = getattr(sk, cls)(fit_intercept=fit_intercept, **kw, **TIGHT).fit(X, y)
    assert 0 < np.count_nonzero(ours.coef_) < X.shape[1] // 10
    np.testing.assert_array_equal(ours.coef_ != 0, ref.coef_ != 0)
    assert _rel(ours.coef_, ref.coef_) < 1e-6
    assert ours.dual_gap_ <= 1e-10 * np.sum((y - (y.mean() if fit_intercept else 0)) ** 2)


@pytest.mark.parametrize("fmt", [None, "csr"])
def test_active_set_passes_within_the_plain_cycles_epochs(fmt):
    # max_iter bounds passes over X: where the plain cycle converges in k epochs, the
    # active-set cycle converges within k passes (an active epoch counting its share)
    X, y = _few_active(1, fmt=fmt)
    ref = sk.Lasso(alpha=0.05, tol=1e-8, max_iter=100_000).fit(X, y)
    ours = Lasso(alpha=0.05, tol=1e-8, max_iter=ref.n_iter_).fit(X, y)
    # here 21 passes against 65 epochs dense, 3 against 13 sparse; the plain cycle
    # would take as many as scikit-learn's
    assert ours.n_iter_ <= ref.n_iter_ // 2
    assert ours.dual_gap_ <= 1e-8 * np.sum((y - y.mean()) ** 2)
    # at the limit, n_iter_ reports it and the warning is raised (on the dense problem:
    # the sparse one meets tol 1e-14 in 3 passes)
    with pytest.warns(ConvergenceWarning):
        capped = Lasso(alpha=0.05, tol=1e-14, max_iter=7).fit(*_few_active(1))
    assert capped.n_iter_ == 7


def test_split_gram_is_the_gram_matrix_whatever_the_threads(rng):
    from classiclearn.linear_model._base import split_gram

    X = rng.normal(size=(400, 301))
    G = split_gram(X, 2)
    np.testing.assert_allclose(G, X.T @ X, rtol=1e-12, atol=1e-10)
    assert np.array_equal(G, G.T)
    assert np.array_equal(G, split_gram(X, 1))


@pytest.mark.parametrize("cls", [Lasso, ElasticNet])
def test_precomputed_gram_of_many_features_matches_sklearn(rng, cls):
    # 300 features: the Gram matrix comes from split_gram (column halves on our threads)
    X = rng.normal(size=(500, 300)) + 2.0
    y = X[:, :8] @ rng.normal(size=8) + rng.normal(size=500)
    ours = cls(alpha=0.05, precompute=True, tol=1e-10, max_iter=5000).fit(X, y)
    ref = getattr(sk, cls.__name__)(alpha=0.05, precompute=True, tol=1e-10,
                                   max_iter=5000).fit(X, y)
    np.testing.assert_allclose(ours.coef_, ref.coef_, rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(ours.intercept_, ref.intercept_, rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("precompute", ["auto", True, False])
@pytest.mark.parametrize("cls,kw", [("Lasso", {"alpha": 0.001}),
                                    ("ElasticNet", {"alpha": 0.001, "l1_ratio": 0.7})])
def test_default_tol_stops_where_sklearn_does_on_a_near_exact_fit(precompute, cls, kw):
    # y nearly in X's span: y'y dwarfs the objective, so the gap test of the default tol
    # passes long before the coefficients settle; scikit-learn checks the gap only once
    # an epoch's largest change falls below tol times the largest coefficient, and so do
    # the Gram form and the data form's epochs before it switches to the Gram matrix
    rng = np.random.default_rng(3)
    X = rng.normal(size=(500, 450))
    y = X @ rng.normal(scale=5.0, size=450) + rng.normal(size=500)
    ours = {"Lasso": Lasso, "ElasticNet": ElasticNet}[cls](precompute=precompute, **kw).fit(X, y)
    # scikit-learn's default is the data form ("auto" is ours: the Gram form for n > p)
    ref = getattr(sk, cls)(precompute=precompute is True, **kw).fit(X, y)
    assert ref.n_iter_ > 100
    assert abs(ours.n_iter_ - ref.n_iter_) <= 2
    # iterates short of the optimum (the stop is the same, not the rounding of the forms)
    assert _rel(ours.coef_, ref.coef_) < 1e-3
