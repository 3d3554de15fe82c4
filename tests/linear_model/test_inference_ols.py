"""LinearRegression.summary(): fit statistics, robust covariances and tests vs statsmodels."""

import numpy as np
import pytest

from classiclearn.linear_model import LinearRegression, lr_test, wald_test

sm = pytest.importorskip("statsmodels.api")

RTOL = 1e-6


def _data(rng, n=120, p=3):
    X = rng.normal(size=(n, p))
    X[:, 0] *= 3.0
    noise = rng.normal(size=n) * (0.5 + np.abs(X[:, 1]))  # heteroscedastic
    y = 1.0 + X @ np.linspace(1.0, 0.0, p) + noise
    return X, y


@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("weighted", [False, True])
def test_fit_statistics_match_statsmodels(rng, fit_intercept, weighted):
    X, y = _data(rng)
    sw = rng.uniform(0.5, 2.0, len(y)) if weighted else None
    table = LinearRegression(fit_intercept=fit_intercept).fit(X, y, sample_weight=sw).summary()
    A = sm.add_constant(X) if fit_intercept else X
    res = (sm.WLS(y, A, weights=sw) if weighted else sm.OLS(y, A)).fit()
    np.testing.assert_allclose(table.estimate, res.params, rtol=RTOL)
    np.testing.assert_allclose(table.std_err, res.bse, rtol=RTOL)
    for ours, theirs in [("log_likelihood", "llf"), ("aic", "aic"), ("bic", "bic"),
                         ("r2", "rsquared"), ("r2_adj", "rsquared_adj"),
                         ("deviance", "ssr"), ("df_resid", "df_resid"),
                         ("df_model", "df_model")]:
        assert getattr(table, ours) == pytest.approx(getattr(res, theirs), rel=RTOL), ours
    assert table.f_test.statistic == pytest.approx(res.fvalue, rel=RTOL)
    assert table.f_test.p_value == pytest.approx(res.f_pvalue, rel=RTOL)
    assert table.f_test.df == (res.df_model, res.df_resid)
    if fit_intercept:
        assert table.null_deviance == pytest.approx(res.centered_tss, rel=RTOL)
        null = (sm.WLS(y, np.ones(len(y)), weights=sw) if weighted
                else sm.OLS(y, np.ones(len(y)))).fit()
        assert table.null_log_likelihood == pytest.approx(null.llf, rel=RTOL)
        stat, p, df = res.compare_lr_test(null)
        assert table.lr_test.statistic == pytest.approx(stat, rel=RTOL)
        assert table.lr_test.p_value == pytest.approx(p, rel=RTOL)
        assert table.lr_test.df == df
    else:
        assert table.null_deviance == pytest.approx(res.uncentered_tss, rel=RTOL)


@pytest.mark.parametrize("cov_type", ["HC0", "HC1", "HC2", "HC3", "cluster"])
@pytest.mark.parametrize("weighted", [False, True])
def test_robust_covariances_match_statsmodels(rng, cov_type, weighted):
    X, y = _data(rng)
    sw = rng.uniform(0.5, 2.0, len(y)) if weighted else None
    groups = rng.integers(0, 15, len(y))
    reg = LinearRegression().fit(X, y, sample_weight=sw)
    table = reg.summary(cov_type=cov_type, groups=groups if cov_type == "cluster" else None,
                        X=X, y=y, sample_weight=sw)
    base = (sm.WLS(y, sm.add_constant(X), weights=sw) if weighted
            else sm.OLS(y, sm.add_constant(X))).fit()
    kw = {"groups": groups} if cov_type == "cluster" else {}
    res = base.get_robustcov_results(cov_type=cov_type, **kw)
    np.testing.assert_allclose(table.cov, res.cov_params(), rtol=RTOL)
    np.testing.assert_allclose(table.std_err, res.bse, rtol=RTOL)
    np.testing.assert_allclose(table.statistic_values, res.tvalues, rtol=RTOL)
    np.testing.assert_allclose(table.p_value, res.pvalues, rtol=RTOL)
    np.testing.assert_allclose(np.column_stack([table.conf_low, table.conf_high]),
                               res.conf_int(), rtol=RTOL)
    assert table.f_test.statistic == pytest.approx(res.fvalue, rel=RTOL)
    assert table.f_test.p_value == pytest.approx(res.f_pvalue, rel=RTOL)
    assert table.cov_type == cov_type
    if cov_type == "cluster":
        assert table.n_groups == 15 and table.inference_df == 14


def test_hc_by_hand(rng):
    """HC3 from its formula: (X'X)^-1 X' diag(e^2 / (1 - h)^2) X (X'X)^-1."""
    X, y = _data(rng, n=40)
    reg = LinearRegression().fit(X, y)
    A = sm.add_constant(X)
    e = y - reg.predict(X)
    B = np.linalg.inv(A.T @ A)
    h = np.einsum("ij,jk,ik->i", A, B, A)
    expected = B @ (A.T * (e / (1 - h)) ** 2) @ A @ B
    np.testing.assert_allclose(reg.summary(cov_type="HC3", X=X, y=y).cov, expected, rtol=1e-9)


def test_lr_and_wald_tests_between_nested_models(rng):
    X, y = _data(rng, p=4)
    full = LinearRegression().fit(X, y)
    reduced = LinearRegression().fit(X[:, :2], y)
    big = sm.OLS(y, sm.add_constant(X)).fit()
    small = sm.OLS(y, sm.add_constant(X[:, :2])).fit()
    stat, p, df = big.compare_lr_test(small)
    res = lr_test(full, reduced)
    assert res.statistic == pytest.approx(stat, rel=RTOL)
    assert res.p_value == pytest.approx(p, rel=RTOL)
    assert res.df == df
    wald = wald_test(full, ["x2", "x3"])
    f = big.f_test(np.eye(5)[3:])
    assert wald.statistic == pytest.approx(float(np.squeeze(f.fvalue)), rel=RTOL)
    assert wald.p_value == pytest.approx(float(f.pvalue), rel=RTOL)
    assert wald.df == (2.0, big.df_resid)
    # by position, and with a robust covariance
    assert wald_test(full, [3, 4]).statistic == pytest.approx(wald.statistic, rel=1e-12)
    robust = wald_test(full, ["x2", "x3"], cov_type="HC1", X=X, y=y)
    f = big.get_robustcov_results("HC1").f_test(np.eye(5)[3:])
    assert robust.statistic == pytest.approx(float(np.squeeze(f.fvalue)), rel=RTOL)


def test_errors(rng):
    X, y = _data(rng)
    reg = LinearRegression().fit(X, y)
    with pytest.raises(ValueError, match="needs the training data"):
        reg.summary(cov_type="HC1")
    with pytest.raises(ValueError, match="cov_type must be one of"):
        reg.summary(cov_type="HC4")
    with pytest.raises(ValueError, match="needs groups"):
        reg.summary(cov_type="cluster", X=X, y=y)
    with pytest.raises(ValueError, match="only with cov_type='cluster'"):
        reg.summary(groups=np.zeros(len(y)))
    with pytest.raises(ValueError, match="do not reproduce the fit"):
        reg.summary(cov_type="HC0", X=X, y=y + 1.0)
    with pytest.raises(ValueError, match="at least two groups"):
        reg.summary(cov_type="cluster", groups=np.zeros(len(y)), X=X, y=y)
    with pytest.raises(ValueError, match="pass the larger model first"):
        lr_test(LinearRegression().fit(X[:, :1], y), reg)
    with pytest.raises(ValueError, match="different numbers of samples"):
        lr_test(reg, LinearRegression().fit(X[:50, :1], y[:50]))
    with pytest.raises(ValueError, match="Unknown term"):
        wald_test(reg, ["nope"])


def test_nested_check_by_name(rng):
    pd = pytest.importorskip("pandas")
    X, y = _data(rng)
    frame = pd.DataFrame(X, columns=["a", "b", "c"])
    full = LinearRegression().fit(frame[["a", "b"]], y)
    other = LinearRegression().fit(frame[["c"]], y)
    with pytest.raises(ValueError, match="not nested"):
        lr_test(full, other)
    assert "r2" in str(full.summary())


# column scales of X and the scale of y: columns and targets whose squares over- or
# underflow are fitted divided by powers of two, and the table is read in those units
EXTREME_SCALES = [
    (np.array([1e160, 1e160, 1e160]), 1.0),
    (np.array([1e-160, 1e-160, 1e-160]), 1.0),
    (np.array([1e160, 1.0, 1e-160]), 1.0),
    (np.ones(3), 1e160),
    (np.ones(3), 1e-160),
    (np.array([1e160, 1e-160, 1e200]), 1e-100),
    (np.array([1e-200, 1e-200, 1e-200]), 1e100),
]


@pytest.mark.parametrize("x_scale, y_scale", EXTREME_SCALES)
@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("cov_type", ["nonrobust", "HC1", "HC3", "cluster"])
def test_summary_is_equivariant_at_extreme_magnitudes(rng, x_scale, y_scale, fit_intercept,
                                                      weighted, cov_type):
    # the textbook answer: scaling a column by s divides its coefficient's standard
    # error by s, scaling y by c multiplies every one by c; t, p, F, R^2 do not change
    # and the log-likelihood moves by -n log c
    X, y = _data(rng, n=60)
    sw = rng.uniform(0.5, 2.0, len(y)) if weighted else None
    groups = np.arange(len(y)) % 7
    Xs, ys = X * x_scale, y * y_scale

    def table(X, y):
        kw = {} if cov_type == "nonrobust" else {"X": X, "y": y, "sample_weight": sw}
        if cov_type == "cluster":
            kw["groups"] = groups
        model = LinearRegression(fit_intercept=fit_intercept).fit(X, y, sample_weight=sw)
        return model.summary(cov_type=cov_type, **kw)

    ref, got = table(X, y), table(Xs, ys)
    unit = y_scale / np.concatenate([[1.0] if fit_intercept else [], x_scale])
    np.testing.assert_allclose(got.estimate, ref.estimate * unit, rtol=1e-9)
    np.testing.assert_allclose(got.std_err, ref.std_err * unit, rtol=1e-9)
    np.testing.assert_allclose(got.p_value, ref.p_value, rtol=1e-7, atol=1e-14)
    assert got.f_test.statistic == pytest.approx(ref.f_test.statistic, rel=1e-9)
    assert got.r2 == pytest.approx(ref.r2, rel=1e-12)
    assert got.log_likelihood == pytest.approx(ref.log_likelihood - len(y) * np.log(y_scale),
                                               rel=1e-12, abs=1e-9)
    assert got.aic - ref.aic == pytest.approx(2 * len(y) * np.log(y_scale), abs=1e-8)
    terms = ["x0", "x2"]
    assert (wald_test(LinearRegression(fit_intercept=fit_intercept).fit(Xs, ys, sw), terms)
            .statistic == pytest.approx(wald_test(
                LinearRegression(fit_intercept=fit_intercept).fit(X, y, sw), terms)
                .statistic, rel=1e-9))


def test_wald_statistic_does_not_depend_on_the_units_of_each_coefficient(rng):
    from classiclearn.linear_model._inference_stats import wald_statistic

    A = rng.normal(size=(6, 3))
    cov, b = A.T @ A, rng.normal(size=3)
    units = np.array([1e-150, 1.0, 1e150])
    index = np.arange(3)
    stat, rank = wald_statistic(b, cov, index)
    scaled_stat, scaled_rank = wald_statistic(b * units, cov * np.outer(units, units), index)
    assert scaled_rank == rank == 3
    assert scaled_stat == pytest.approx(stat, rel=1e-12)
