"""LinearRegression: parity with scikit-learn, the minimum-norm solution, weights, summary()."""

import numpy as np
import pytest
from sklearn import linear_model as sk

from classiclearn.linear_model import LinearRegression


def _data(rng, n, p, t=None, offset=3.0):
    X = rng.normal(size=(n, p)) + offset
    coef = rng.normal(size=(p,) if t is None else (p, t))
    y = X @ coef + rng.normal(size=(n,) if t is None else (n, t))
    return X, y


def _rel(a, b):
    return np.max(np.abs(np.asarray(a) - b)) / max(np.max(np.abs(b)), 1e-12)


@pytest.mark.parametrize(
    "shape", [(200, 5, None), (15, 40, None), (100, 1, None), (80, 6, 3), (3000, 30, None),
              # fewer rows than twice the features (the Gram route when certified), and
              # as many rows as features (the dual route)
              (200, 150, None), (61, 60, 2), (50, 50, None)]
)
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("fit_intercept", [True, False])
def test_parity_with_sklearn(rng, shape, weighted, fit_intercept):
    n, p, t = shape
    X, y = _data(rng, n, p, t)
    sw = rng.uniform(0.2, 3.0, n) if weighted else None
    ours = LinearRegression(fit_intercept=fit_intercept).fit(X, y, sample_weight=sw)
    ref = sk.LinearRegression(fit_intercept=fit_intercept).fit(X, y, sample_weight=sw)
    assert ours.coef_.shape == ref.coef_.shape
    assert _rel(ours.coef_, ref.coef_) < 1e-6
    np.testing.assert_allclose(ours.intercept_, ref.intercept_, rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(ours.predict(X), ref.predict(X), rtol=1e-7, atol=1e-8)
    assert ours.rank_ == ref.rank_


def test_collinear_columns_minimum_norm(rng):
    X = rng.normal(size=(60, 3))
    X = np.column_stack([X, X[:, 0] - 2 * X[:, 2], X[:, 1]])
    y = rng.normal(size=60)
    ours = LinearRegression().fit(X, y)
    ref = sk.LinearRegression().fit(X, y)
    assert ours.rank_ == 3
    assert _rel(ours.coef_, ref.coef_) < 1e-6
    Xc = X - X.mean(axis=0)
    np.testing.assert_allclose(ours.coef_, np.linalg.pinv(Xc) @ (y - y.mean()), rtol=1e-8)


@pytest.mark.parametrize("shape", [(90, 60), (400, 300)])
def test_collinear_columns_with_fewer_rows_than_twice_the_features(rng, shape):
    n, p = shape
    X = rng.normal(size=(n, p - 2))
    X = np.column_stack([X, X[:, 0] + X[:, 1], 2 * X[:, 3]])  # rank p - 2
    y = rng.normal(size=n)
    ours = LinearRegression().fit(X, y)
    ref = sk.LinearRegression().fit(X, y)
    assert ours.rank_ == ref.rank_ == p - 2
    assert _rel(ours.coef_, ref.coef_) < 1e-8
    np.testing.assert_allclose(ours.singular_, ref.singular_, rtol=1e-8, atol=1e-8)


@pytest.mark.parametrize("shape", [(200, 5), (60, 20), (3000, 30)])
@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("scale", [1.0, 1e160])  # 1e160: the columns are rescaled first
def test_summary_covariance_formed_on_first_use_survives_pickle_and_save(
        rng, tmp_path, shape, fit_intercept, scale):
    import pickle

    from classiclearn.io import load_model, save_model
    from classiclearn.linear_model._inference import Deferred

    sm = pytest.importorskip("statsmodels.api")
    X, y = _data(rng, *shape, None)
    reference = sm.OLS(y, sm.add_constant(X) if fit_intercept else X).fit().bse
    X[:, 0] *= scale
    fitted = LinearRegression(fit_intercept=fit_intercept).fit(X, y)
    assert isinstance(fitted._inference["cov"], Deferred)
    again = pickle.loads(pickle.dumps(fitted))  # pickled before any summary()
    save_model(fitted, tmp_path / "ols.clm")
    loaded = load_model(tmp_path / "ols.clm")
    table = LinearRegression(fit_intercept=fit_intercept).fit(X, y).summary()
    for other in (fitted, again, loaded):
        np.testing.assert_array_equal(other.summary().std_err, table.std_err)
    if scale == 1.0:  # (at 1e160 the coefficient's variance, 1e-320, underflows)
        np.testing.assert_allclose(table.std_err, reference, rtol=1e-8)


@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("gap", [1e-3, 1e-9, 0.0])  # certified Gram matrix, near-singular, singular
def test_square_design_matches_sklearn(rng, fit_intercept, gap):
    n = 40
    X = rng.normal(size=(n, n))
    X[:, -1] = X[:, 0] + X[:, 1] + gap * rng.normal(size=n)
    y = rng.normal(size=n)
    ours = LinearRegression(fit_intercept=fit_intercept).fit(X, y)
    ref = sk.LinearRegression(fit_intercept=fit_intercept).fit(X, y)
    assert ours.rank_ == ref.rank_
    np.testing.assert_allclose(ours.predict(X), ref.predict(X), rtol=1e-6, atol=1e-6)
    if gap != 1e-9:  # a near-singular square system's coefficients are ill-determined
        assert _rel(ours.coef_, ref.coef_) < 1e-6


def test_weight_two_is_row_twice(rng):
    X, y = _data(rng, 30, 4)
    sw = np.ones(30)
    sw[:5] = 2.0
    a = LinearRegression().fit(X, y, sample_weight=sw)
    b = LinearRegression().fit(np.vstack([X, X[:5]]), np.concatenate([y, y[:5]]))
    np.testing.assert_allclose(a.coef_, b.coef_, rtol=1e-10)
    np.testing.assert_allclose(a.intercept_, b.intercept_, rtol=1e-10)


def test_positive_matches_sklearn(rng):
    X, y = _data(rng, 100, 6)
    ours = LinearRegression(positive=True).fit(X, y)
    ref = sk.LinearRegression(positive=True).fit(X, y)
    assert np.all(ours.coef_ >= 0)
    np.testing.assert_allclose(ours.coef_, ref.coef_, rtol=1e-6, atol=1e-9)


def test_input_not_modified(rng):
    X, y = _data(rng, 50, 3)
    X0, y0 = X.copy(), y.copy()
    LinearRegression().fit(X, y, sample_weight=np.ones(50))
    np.testing.assert_array_equal(X, X0)
    np.testing.assert_array_equal(y, y0)


def test_non_finite_input_raises(rng):
    X, y = _data(rng, 20, 2)
    X[3, 1] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        LinearRegression().fit(X, y)


@pytest.mark.parametrize("weighted", [False, True])
def test_summary_matches_statsmodels(rng, weighted):
    sm = pytest.importorskip("statsmodels.api")
    X, y = _data(rng, 120, 4)
    sw = rng.uniform(0.5, 2.0, 120) if weighted else None
    table = LinearRegression().fit(X, y, sample_weight=sw).summary()
    exog = sm.add_constant(X)
    res = (sm.WLS(y, exog, weights=sw).fit() if weighted else sm.OLS(y, exog).fit())
    np.testing.assert_allclose(table.estimate, res.params, rtol=1e-6)
    np.testing.assert_allclose(table.std_err, res.bse, rtol=1e-6)
    np.testing.assert_allclose(table.statistic_values, res.tvalues, rtol=1e-6)
    np.testing.assert_allclose(table.p_value, res.pvalues, rtol=1e-6)
    np.testing.assert_allclose(np.column_stack([table.conf_low, table.conf_high]),
                               res.conf_int(), rtol=1e-6)


def test_summary_output_forms(rng):
    pd = pytest.importorskip("pandas")
    X, y = _data(rng, 40, 2)
    frame = pd.DataFrame(X, columns=["age", "dose"])
    table = LinearRegression().fit(frame, y).summary()
    assert table.names == ["intercept", "age", "dose"]
    assert "dose" in str(table) and "P>|t|" in str(table)
    d = table.to_dict()
    assert d["term"] == table.names and len(d["coef"]) == 3
    assert list(table.to_frame().index) == table.names


def test_summary_needs_single_target(rng):
    X, y = _data(rng, 40, 2, t=2)
    with pytest.raises(ValueError, match="single-target"):
        LinearRegression().fit(X, y).summary()


@pytest.mark.parametrize("offset", [1e2, 1e5])
def test_large_feature_means_keep_accuracy(rng, offset):
    X, y = _data(rng, 500, 6, offset=offset)
    ours = LinearRegression().fit(X, y)
    ref = sk.LinearRegression().fit(X, y)
    assert _rel(ours.coef_, ref.coef_) < 1e-6


@pytest.mark.parametrize("weighted", [False, True])
def test_rank_deficient_tall_design_factored_by_blocks(rng, weighted):
    # more rows than one QR block (_ols._QR_BLOCK_ROWS): the blocks' R factors are
    # factored again (tall-skinny QR); the minimum-norm solution, the rank, the singular
    # values and the summary's covariance are those of one QR of the whole design
    from classiclearn.linear_model import _ols

    n = 3 * _ols._QR_BLOCK_ROWS + 123
    X = rng.normal(size=(n, 5)) + 2.0
    X = np.column_stack([X, X[:, 0] - 2 * X[:, 2], 3 * X[:, 1]])  # rank 5 of 7
    Y = X[:, :2] @ rng.normal(size=(2, 2)) + rng.normal(size=(n, 2))
    sw = rng.uniform(0.3, 2.0, n) if weighted else None
    ours = LinearRegression().fit(X, Y, sample_weight=sw)
    ref = sk.LinearRegression().fit(X, Y, sample_weight=sw)
    assert ours.rank_ == ref.rank_ == 5
    assert _rel(ours.coef_, ref.coef_) < 1e-8
    np.testing.assert_allclose(ours.intercept_, ref.intercept_, rtol=1e-8)
    np.testing.assert_allclose(ours.singular_, ref.singular_, rtol=1e-8, atol=1e-8)
    one = LinearRegression()
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(_ols, "_QR_BLOCK_ROWS", 10 * n)  # one block: one QR
        one.fit(X, Y[:, 0], sample_weight=sw)
    blocked = LinearRegression().fit(X, Y[:, 0], sample_weight=sw)
    np.testing.assert_allclose(blocked.coef_, one.coef_, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(blocked.summary().std_err, one.summary().std_err, rtol=1e-8)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("weighted", [False, True])
def test_design_r_factor_blocks_on_threads_equal_one_qr(rng, dtype, weighted, monkeypatch):
    # many blocks, several per thread (each thread reuses one scratch array): the
    # stacked factors' R is the whole design's, up to the signs of its rows
    from classiclearn.linear_model import _ols

    monkeypatch.setattr(_ols, "_QR_BLOCK_BYTES", 1)  # blocks of the minimum, 256 rows
    monkeypatch.setattr(_ols, "GRAM_PASS_WORK", 1)  # threads at any size
    n, p = 3000, 6
    X = (rng.normal(size=(n, p)) + 1.5).astype(dtype)
    Y = rng.normal(size=(n, 2))
    sw = rng.uniform(0.5, 2.0, n) if weighted else None
    x_mean = X.mean(axis=0, dtype=np.float64)
    y_mean = Y.mean(axis=0)
    R = _ols.design_r_factor(X, Y, x_mean, y_mean, sw)
    assert R.dtype == dtype and R.shape == (p + 2, p + 2)
    A = _ols._design(X.astype(np.float64), Y, x_mean, y_mean, sw)
    R_one = np.linalg.qr(A, mode="r")
    tol = 1e-10 if dtype == np.float64 else 2e-5
    scale = np.abs(R_one).max()
    np.testing.assert_allclose(np.abs(R), np.abs(R_one), atol=tol * scale)
    again = _ols.design_r_factor(X, Y, x_mean, y_mean, sw)
    np.testing.assert_array_equal(R, again)


@pytest.mark.parametrize("collinear", [False, True])
@pytest.mark.parametrize("weighted", [False, True])
def test_float32_single_precision_qr_matches_sklearn(rng, collinear, weighted):
    # float32 X is factored in single precision without a float64 copy (as
    # scikit-learn's sgelsd): predictions agree to float32 accuracy, and the rank of
    # exactly collinear columns is found despite float32 rounding
    n, p = 5000, 8
    X = rng.normal(size=(n, p)) + 2.0
    if collinear:
        X[:, 5:] = X[:, :3] @ rng.normal(size=(3, 3))
    y = X @ rng.normal(size=p) + rng.normal(size=n)
    X32, y32 = X.astype(np.float32), y.astype(np.float32)
    sw = rng.uniform(0.3, 2.0, n) if weighted else None
    ours = LinearRegression().fit(X32, y32, sample_weight=sw)
    ref = sk.LinearRegression().fit(X32, y32, sample_weight=sw)
    exact = LinearRegression().fit(X32.astype(np.float64), y32, sample_weight=sw)
    assert ours.coef_.dtype == np.float32
    assert ours.rank_ == exact.rank_ == (5 if collinear else p)
    spread = np.abs(y).max()
    # scikit-learn centres in float32 and its cut keeps a float32 noise direction of
    # collinear columns (rank_ one too high): its predictions are the less accurate
    loose = 1e-4 if collinear else 1e-5
    np.testing.assert_allclose(ours.predict(X32), ref.predict(X32), atol=loose * spread)
    np.testing.assert_allclose(ours.predict(X32), exact.predict(X32), atol=1e-5 * spread)
    np.testing.assert_allclose(ours.singular_, exact.singular_[:p], rtol=1e-4,
                               atol=1e-5 * exact.singular_[0])
    if not collinear:
        np.testing.assert_allclose(ours.coef_, exact.coef_, rtol=1e-4, atol=1e-5)
        np.testing.assert_allclose(ours.summary().std_err, exact.summary().std_err,
                                   rtol=1e-3)


@pytest.mark.parametrize("shape", [(15, 40), (120, 400), (60, 61)])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("n_targets", [None, 3])
def test_wide_design_dual_route_matches_sklearn(rng, shape, weighted, n_targets):
    # fewer rows than features: the minimum-norm solution from the eigenpairs of Xc Xc'
    n, p = shape
    X, y = _data(rng, n, p, n_targets)
    sw = rng.uniform(0.2, 3.0, n) if weighted else None
    ours = LinearRegression().fit(X, y, sample_weight=sw)
    ref = sk.LinearRegression().fit(X, y, sample_weight=sw)
    assert ours.rank_ == ref.rank_ == n - 1
    assert _rel(ours.coef_, ref.coef_) < 1e-9
    np.testing.assert_allclose(ours.intercept_, ref.intercept_, rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(ours.predict(X), ref.predict(X), rtol=1e-9, atol=1e-9)
    # the kept singular values to rounding; the centring's null one below the cut
    np.testing.assert_allclose(ours.singular_[:-1], ref.singular_[:-1], rtol=1e-9)
    assert ours.singular_[-1] < 1e-6 * ours.singular_[0]


def test_wide_design_rank_deficient_and_near_the_cut(rng):
    from classiclearn.linear_model import _ols

    n, p = 40, 100
    base = rng.normal(size=(n, 10))
    X = base @ rng.normal(size=(10, p))  # rank 10
    y = X @ rng.normal(size=p) + rng.normal(size=n)
    ours = LinearRegression().fit(X, y)
    ref = sk.LinearRegression().fit(X, y)
    assert ours.rank_ == ref.rank_ == 10
    np.testing.assert_allclose(ours.predict(X), ref.predict(X), rtol=1e-8, atol=1e-8)
    assert _rel(ours.coef_, ref.coef_) < 1e-8
    # a singular value near the cut (1e-6 of the largest): gelsd decides, as scikit-learn
    U, _ = np.linalg.qr(rng.normal(size=(n, n)))
    V, _ = np.linalg.qr(rng.normal(size=(p, n)))
    s = np.geomspace(1.0, 1e-3, n)
    s[-2] = 3e-6
    X = (U * s) @ V.T
    y = rng.normal(size=n)
    calls = []
    real = _ols._solve_wide_gelsd
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(_ols, "_solve_wide_gelsd", lambda *a: calls.append(1) or real(*a))
        near = LinearRegression(fit_intercept=False).fit(X, y)
    assert calls
    theirs = sk.LinearRegression(fit_intercept=False).fit(X, y)
    assert near.rank_ == theirs.rank_
    np.testing.assert_allclose(near.predict(X), theirs.predict(X), rtol=1e-6, atol=1e-8)


def test_wide_design_summary_says_no_degrees_of_freedom(rng):
    X, y = _data(rng, 10, 30)
    model = LinearRegression().fit(X, y)
    with pytest.raises(ValueError, match="more samples than coefficients"):
        model.summary()
    f32 = LinearRegression().fit(X.astype(np.float32), y.astype(np.float32))
    assert f32.coef_.dtype == np.float32
    np.testing.assert_allclose(f32.predict(X), model.predict(X), rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("scale", [1e-150, 1e150])
@pytest.mark.parametrize("fit_intercept", [True, False])
def test_rank_deficient_extreme_columns_keep_the_minimum_norm_solution(rng, scale,
                                                                       fit_intercept):
    # columns near 1e+-150 are divided by powers of two first; per-column powers would
    # change which solution of a rank-deficient design has the least norm (a row of
    # zero weight then got another prediction): similar columns share one power
    X = rng.normal(size=(8, 20)) * scale
    y = rng.normal(size=8)
    sw = np.r_[0.0, np.ones(7)]
    ours = LinearRegression(fit_intercept=fit_intercept).fit(X, y, sample_weight=sw)
    ref = sk.LinearRegression(fit_intercept=fit_intercept).fit(X, y, sample_weight=sw)
    assert ours.rank_ == ref.rank_
    np.testing.assert_allclose(ours.predict(X), ref.predict(X), rtol=1e-9, atol=1e-9)


@pytest.mark.parametrize("shape", [(200, 6), (5000, 12), (8, 15)])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("alpha", [0.0, 3.0])
def test_positive_fit_on_the_r_factor_equals_nnls_on_the_design(shape, weighted, alpha):
    # the triangular factor of [Xc | Yc] gives the same non-negative problem for every
    # target as the n-row design itself
    from scipy.optimize import nnls

    from classiclearn.linear_model import Ridge

    rng = np.random.default_rng(shape[0])
    n, p = shape
    X = rng.normal(size=(n, p))
    Y = X @ rng.normal(size=(p, 2)) + rng.normal(size=(n, 2))
    sw = rng.uniform(0.2, 3.0, n) if weighted else None
    est = (Ridge(alpha=alpha, positive=True) if alpha else LinearRegression(positive=True))
    est.fit(X, Y, sample_weight=sw)
    w = np.ones(n) if sw is None else sw
    mean_x, mean_y = w @ X / w.sum(), w @ Y / w.sum()
    A = (X - mean_x) * np.sqrt(w)[:, None]
    B = (Y - mean_y) * np.sqrt(w)[:, None]
    for k in range(2):
        if alpha:
            ref = nnls(np.vstack([A, np.sqrt(alpha) * np.eye(p)]),
                       np.concatenate([B[:, k], np.zeros(p)]))[0]
        else:
            ref = nnls(A, B[:, k])[0]
        np.testing.assert_allclose(est.coef_[k], ref, rtol=1e-8, atol=1e-10)
    assert np.all(est.coef_ >= 0)


@pytest.mark.parametrize("p", [1, 5, 40, 300])
@pytest.mark.parametrize("seed", [0, 1])
def test_block_pivoting_nnls_meets_the_kkt_conditions(p, seed):
    from scipy.optimize import nnls

    from classiclearn.linear_model._ols import _cholesky_free_solve, block_pivoting_nnls

    rng = np.random.default_rng(seed)
    A = rng.normal(size=(2 * p + 5, p))
    b = rng.normal(size=2 * p + 5) + A @ rng.normal(size=p)
    G, c = A.T @ A, A.T @ b
    x = block_pivoting_nnls(G, c, _cholesky_free_solve(G, c))
    grad = G @ x - c
    scale = np.abs(c).max()
    assert np.all(x >= 0)
    assert np.all(grad >= -1e-9 * scale)
    assert np.abs(grad[x > 0]).max(initial=0.0) <= 1e-9 * scale
    np.testing.assert_allclose(x, nnls(A, b)[0], rtol=1e-7, atol=1e-9)


@pytest.mark.parametrize("n_held", [0, 1, 3, 10, 59])
@pytest.mark.parametrize("conditioning", ["well", "nearly_singular"])
def test_definite_free_solver_equals_a_factor_of_the_free_block(monkeypatch, n_held,
                                                              conditioning):
    # few held variables: from G's own factor (O(p^2 |H|)); many, or a residual showing
    # rounding: G_FF factored itself. Either way G_FF x = c_F.
    from classiclearn.linear_model import _ols

    factored = []
    direct = _ols._cholesky_free_solve
    monkeypatch.setattr(_ols, "_cholesky_free_solve",
                        lambda G, c: lambda free: factored.append(1) or direct(G, c)(free))
    DefiniteFreeSolver = _ols._DefiniteFreeSolver
    rng = np.random.default_rng(n_held)
    p = 60
    A = rng.normal(size=(80, p))
    if conditioning == "nearly_singular":
        A[:, 1] = A[:, 0] + 1e-9 * rng.normal(size=80)
    G = A.T @ A + (1e-12 if conditioning == "nearly_singular" else 1.0) * np.eye(p)
    c = rng.normal(size=p)
    free = np.ones(p, dtype=bool)
    free[rng.choice(p, n_held, replace=False)] = False
    x = DefiniteFreeSolver(G, c)(free)
    G_FF = G[np.ix_(free, free)]
    assert x.shape == (free.sum(),)
    scale = np.abs(c).max() + np.abs(G).max() * np.abs(x).max()
    assert np.abs(G_FF @ x - c[free]).max() <= 1e-9 * scale
    if conditioning == "well":
        assert len(factored) == (n_held > 3)  # 6 |H| p^2 >= |F|^3 from 4 held on


@pytest.mark.parametrize("shape", [(800, 300), (300, 120)])
def test_positive_ridge_with_most_coefficients_free_equals_nnls(shape):
    # nearly every coefficient positive: the pivoting's steps hold a few variables at
    # zero and solve from the whole penalised Gram matrix's factor
    from scipy.optimize import nnls

    from classiclearn.linear_model._ols import positive_ridge

    rng = np.random.default_rng(shape[1])
    n, p = shape
    X = rng.normal(size=(n, p))
    y = X @ np.abs(rng.normal(size=p)) + rng.normal(size=n)
    # the exact route itself ("auto" takes L-BFGS-B above 128 features)
    coef = positive_ridge(X, y[:, None], X.mean(axis=0), np.array([y.mean()]), None,
                          np.array([2.0]))[:, 0]
    A, b = X - X.mean(axis=0), y - y.mean()
    ref = nnls(np.vstack([A, np.sqrt(2.0) * np.eye(p)]), np.concatenate([b, np.zeros(p)]),
               maxiter=50 * p)[0]
    assert p // 2 < np.count_nonzero(ref) < p
    np.testing.assert_allclose(coef, ref, rtol=1e-8, atol=1e-10)


@pytest.mark.parametrize("start", ["none", "unconstrained", "random", "all"])
def test_block_pivoting_ends_at_the_same_solution_from_any_start(start):
    from scipy.optimize import nnls

    from classiclearn.linear_model._ols import _DefiniteFreeSolver, block_pivoting_nnls

    rng = np.random.default_rng(7)
    p = 80
    A = rng.normal(size=(150, p))
    b = A @ rng.normal(size=p) + rng.normal(size=150)
    G, c = A.T @ A + 0.5 * np.eye(p), A.T @ b
    solve = _DefiniteFreeSolver(G, c)
    free = {"none": None, "unconstrained": solve.unconstrained() > 0,
            "random": rng.random(p) < 0.5, "all": np.ones(p, dtype=bool)}[start]
    x = block_pivoting_nnls(G, c, solve, free=free)
    ref = nnls(np.vstack([A, np.sqrt(0.5) * np.eye(p)]), np.concatenate([b, np.zeros(p)]))[0]
    assert 0 < np.count_nonzero(ref) < p
    np.testing.assert_allclose(x, ref, rtol=1e-8, atol=1e-10)


@pytest.mark.parametrize("shape", [(2000, 10), (200, 30), (30, 60)])
@pytest.mark.parametrize("tol", [1e-6, 1e-3, 1e-9])
def test_singular_value_cut_tol_matches_sklearn_on_columns_of_every_scale(rng, shape, tol):
    # columns on scales 1e-3 to 1e4: well conditioned once each column is scaled, but
    # singular values of the design as given spread beyond 1e-6 of the largest.
    # scikit-learn cuts them at ``tol`` (gelsd's cond); so must every route of ours
    n, p = shape
    X = rng.normal(size=(n, p)) * np.logspace(-3.0, 4.0, p)
    y = X @ (rng.normal(size=p) / np.logspace(-3.0, 4.0, p)) + rng.normal(size=n)
    ours = LinearRegression(tol=tol).fit(X, y)
    ref = sk.LinearRegression(tol=tol).fit(X, y)
    assert ours.rank_ == ref.rank_
    spread = np.ptp(y)
    np.testing.assert_allclose(ours.predict(X), ref.predict(X), atol=1e-6 * spread)
    np.testing.assert_allclose(ours.singular_[:ref.rank_], ref.singular_[:ref.rank_],
                               rtol=1e-6)


@pytest.mark.parametrize("shape", [(40, 40), (30, 90)])
@pytest.mark.parametrize("deficient", [False, True])
def test_positive_fit_without_more_rows_than_features_is_scikit_learns(shape, deficient):
    # Lawson-Hanson on the centred design (scikit-learn's), the rank and singular values
    # from the eigenvalues of A A'
    from scipy.linalg import svdvals
    from sklearn.linear_model import LinearRegression as SkLinearRegression

    rng = np.random.default_rng(shape[1])
    n, p = shape
    X = rng.normal(size=(n, p))
    if deficient:
        X[:, 1] = X[:, 0]
        X[:, 2] = 2.0 * X[:, 3] - X[:, 4]
    y = X @ (np.abs(rng.normal(size=p)) * (rng.random(p) < 0.5)) + rng.normal(size=n)
    ours = LinearRegression(positive=True).fit(X, y)
    theirs = SkLinearRegression(positive=True).fit(X, y)
    np.testing.assert_allclose(ours.coef_, theirs.coef_, rtol=1e-8, atol=1e-10)
    np.testing.assert_allclose(ours.intercept_, theirs.intercept_, rtol=1e-8, atol=1e-10)
    s = svdvals(X - X.mean(axis=0))
    assert ours.rank_ == np.linalg.matrix_rank(X - X.mean(axis=0), tol=1e-6 * s[0])
    big = s > 1e-4 * s[0]
    np.testing.assert_allclose(ours.singular_[big], s[big], rtol=1e-8)


@pytest.mark.parametrize("deficient", [False, True])
def test_wide_fit_with_a_fine_cut_equals_gelsd(deficient):
    # a cut finer than the eigenvalues resolve (rcond 1e-10): the eigen route when every
    # eigenvalue of Xc Xc' clears the gap (all directions kept whatever the cut), gelsd
    # otherwise; the minimum-norm solution either way
    from classiclearn.linear_model._ols import _solve_wide

    rng = np.random.default_rng(3)
    X = rng.normal(size=(60, 150))
    if deficient:
        X[:, :75] = X[:, 75:] * 2.0
        X[10:20] = X[:10]
    Y = rng.normal(size=(60, 2))
    x_mean, y_mean = X.mean(axis=0), Y.mean(axis=0)
    W, _, rank, _, _ = _solve_wide(X, Y, x_mean, y_mean, None, 1e-10)
    ref, _, ref_rank, _ = np.linalg.lstsq(X - x_mean, Y - y_mean, rcond=1e-10)
    assert rank == ref_rank
    np.testing.assert_allclose(W, ref, rtol=1e-8, atol=1e-10)


def _spy_certificate(monkeypatch):
    from classiclearn.linear_model import _ols

    taken = []
    real = _ols._dual_factor_if_certified
    monkeypatch.setattr(_ols, "_dual_factor_if_certified",
                        lambda *a: taken.append(real(*a)) or taken[-1])
    return taken


@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("shape", [(30, 90), (80, 81), (150, 1000)])
def test_wide_design_certified_cholesky_route_is_the_minimum_norm_solution(
        monkeypatch, fit_intercept, weighted, shape):
    # every direction but the centring's kept: the Cholesky factor of Xc Xc' (with the
    # root weights' direction filled in) solves, certified by a shifted factorisation;
    # coefficients, rank and singular values as scikit-learn's gelsd
    rng = np.random.default_rng(shape[0])
    n, p = shape
    X, y = _data(rng, n, p)
    sw = rng.uniform(0.2, 3.0, n) if weighted else None
    taken = _spy_certificate(monkeypatch)
    ours = LinearRegression(fit_intercept=fit_intercept).fit(X, y, sample_weight=sw)
    assert taken and taken[-1] is not None
    ref = sk.LinearRegression(fit_intercept=fit_intercept).fit(X, y, sample_weight=sw)
    assert ours.rank_ == ref.rank_ == n - int(fit_intercept)
    assert _rel(ours.coef_, ref.coef_) < 1e-10
    np.testing.assert_allclose(ours.intercept_, ref.intercept_, rtol=1e-10, atol=1e-10)
    k = ref.rank_
    np.testing.assert_allclose(ours.singular_[:k], ref.singular_[:k], rtol=1e-9)


def test_wide_design_certificate_refused_where_a_direction_could_be_cut(monkeypatch):
    # repeated rows (a null direction besides the centring's) and a singular value just
    # above the cut: no certificate, the eigenpairs (or gelsd) decide as before
    rng = np.random.default_rng(9)
    X, y = _data(rng, 40, 100)
    X[20:30] = X[:10]
    taken = _spy_certificate(monkeypatch)
    ours = LinearRegression().fit(X, y)
    assert taken == [None]
    ref = sk.LinearRegression().fit(X, y)
    assert ours.rank_ == ref.rank_ == 29
    np.testing.assert_allclose(ours.predict(X), ref.predict(X), rtol=1e-8, atol=1e-8)
    U, _ = np.linalg.qr(rng.normal(size=(40, 40)))
    V, _ = np.linalg.qr(rng.normal(size=(100, 40)))
    s = np.geomspace(1.0, 1e-2, 40)
    s[-1] = 2e-6  # its square's ratio, 4e-12, under the shift of 1e-10 of the trace
    X = (U * s) @ V.T
    taken.clear()
    near = LinearRegression(fit_intercept=False).fit(X, y)
    assert taken == [None]
    theirs = sk.LinearRegression(fit_intercept=False).fit(X, y)
    assert near.rank_ == theirs.rank_ == 40
    np.testing.assert_allclose(near.predict(X), theirs.predict(X), rtol=1e-6, atol=1e-8)


def test_least_squares_classifier_on_wide_x_takes_the_certified_route(monkeypatch):
    # alpha 0 on wide X: the minimum-norm indicator regressions (gelsd's at 1e-10), now
    # from the certified Cholesky factor without the eigenvalues
    from scipy import linalg

    from classiclearn.linear_model import LeastSquaresClassifier

    rng = np.random.default_rng(4)
    X = rng.normal(size=(60, 150)) + 1.0
    y = rng.integers(0, 3, 60)
    taken = _spy_certificate(monkeypatch)
    model = LeastSquaresClassifier().fit(X, y)
    assert taken and taken[-1] is not None
    Y = np.eye(3)[y]
    W = linalg.lstsq(X - X.mean(axis=0), Y - Y.mean(axis=0), cond=1e-10)[0]
    np.testing.assert_allclose(model.coef_, W.T, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("collinear", [False, True])
def test_positive_fit_takes_the_gram_route_only_when_certified(collinear, monkeypatch):
    # a well-conditioned design is solved on its Gram matrix (no QR of the design); a
    # nearly collinear one goes to the QR route; both reach scipy's NNLS optimum
    from scipy.optimize import nnls

    from classiclearn.linear_model import _ols

    rng = np.random.default_rng(7)
    n, p = 300, 40
    X = rng.normal(size=(n, p))
    if collinear:
        X[:, 1] = X[:, 0] + 1e-9 * rng.normal(size=n)
    y = X @ rng.normal(size=p) + rng.normal(size=n)
    qr_calls = []
    real_r_factor = _ols.design_r_factor
    monkeypatch.setattr(_ols, "design_r_factor",
                        lambda *args: qr_calls.append(1) or real_r_factor(*args))
    est = LinearRegression(positive=True).fit(X, y)
    assert bool(qr_calls) == collinear
    A, b = X - X.mean(axis=0), y - y.mean()
    ref = nnls(A, b)[0]
    if collinear:  # the optimum's residual, not its split between the twin columns
        np.testing.assert_allclose(A @ est.coef_, A @ ref, rtol=1e-7, atol=1e-7)
    else:
        np.testing.assert_allclose(est.coef_, ref, rtol=1e-10, atol=1e-12)
        np.testing.assert_allclose(est.singular_, np.linalg.svd(A, compute_uv=False),
                                   rtol=1e-10)
        assert est.rank_ == p
    assert np.all(est.coef_ >= 0)
