"""LogisticRegression.summary(): fit statistics, odds ratios, robust covariances, tests
vs statsmodels Logit / MNLogit / GLM."""

import pickle

import numpy as np
import pytest

from classiclearn.linear_model import LogisticRegression, lr_test, wald_test

sm = pytest.importorskip("statsmodels.api")

RTOL = 1e-6
EXACT = {"penalty": None, "solver": "newton", "tol": 1e-12, "max_iter": 200}


def _binary(rng, n=300):
    X = rng.normal(size=(n, 3))
    y = (X @ [1.0, -0.5, 0.0] + 0.3 + rng.logistic(size=n) > 0).astype(int)
    return X, y


def _multi(rng, n=400):
    X = rng.normal(size=(n, 3))
    Z = X @ np.array([[0.0, 1.0, -1.0], [0.0, -0.5, 0.5], [0.0, 0.3, 0.0]])
    y = np.argmax(Z + rng.gumbel(size=(n, 3)), axis=1)
    return X, y


def _compare_fit_statistics(table, res):
    for ours, theirs in [("log_likelihood", "llf"), ("null_log_likelihood", "llnull"),
                         ("aic", "aic"), ("bic", "bic"), ("pseudo_r2", "prsquared"),
                         ("df_model", "df_model"), ("df_resid", "df_resid")]:
        assert getattr(table, ours) == pytest.approx(getattr(res, theirs), rel=RTOL), ours
    assert table.lr_test.statistic == pytest.approx(res.llr, rel=RTOL)
    assert table.lr_test.p_value == pytest.approx(res.llr_pvalue, rel=RTOL)
    assert table.lr_test.df == res.df_model
    assert table.deviance == pytest.approx(-2 * res.llf, rel=RTOL)
    assert table.null_deviance == pytest.approx(-2 * res.llnull, rel=RTOL)


def test_binary_fit_statistics_match_logit(rng):
    X, y = _binary(rng)
    table = LogisticRegression(**EXACT).fit(X, y).summary()
    res = sm.Logit(y, sm.add_constant(X)).fit(disp=0, tol=1e-12)
    np.testing.assert_allclose(table.estimate, res.params, rtol=RTOL)
    np.testing.assert_allclose(table.std_err, res.bse, rtol=RTOL)
    _compare_fit_statistics(table, res)


def test_weighted_fit_statistics_match_glm_freq_weights(rng):
    X, y = _binary(rng)
    sw = rng.integers(1, 4, len(y)).astype(float)
    table = LogisticRegression(**EXACT).fit(X, y, sample_weight=sw).summary()
    res = sm.GLM(y, sm.add_constant(X), family=sm.families.Binomial(),
                 freq_weights=sw).fit(tol=1e-14)
    null = sm.GLM(y, np.ones(len(y)), family=sm.families.Binomial(),
                  freq_weights=sw).fit(tol=1e-14)
    assert table.log_likelihood == pytest.approx(res.llf, rel=RTOL)
    assert table.deviance == pytest.approx(res.deviance, rel=RTOL)
    assert table.null_deviance == pytest.approx(res.null_deviance, rel=RTOL)
    assert table.null_log_likelihood == pytest.approx(null.llf, rel=RTOL)
    assert table.aic == pytest.approx(res.aic, rel=RTOL)
    assert table.n_obs == sw.sum()


def test_multinomial_table_matches_mnlogit(rng):
    X, y = _multi(rng)
    labels = np.array(["a", "b", "c"])[y]
    table = LogisticRegression(**EXACT).fit(X, labels).summary()
    res = sm.MNLogit(y, sm.add_constant(X)).fit(disp=0, method="newton", tol=1e-12)
    np.testing.assert_allclose(table.estimate, res.params.T.ravel(), rtol=RTOL)
    np.testing.assert_allclose(table.std_err, res.bse.T.ravel(), rtol=RTOL)
    np.testing.assert_allclose(table.cov, res.cov_params(), rtol=RTOL, atol=1e-12)
    np.testing.assert_allclose(table.p_value, res.pvalues.T.ravel(), rtol=RTOL)
    _compare_fit_statistics(table, res)
    assert table.names[:2] == ["b:intercept", "b:x0"]
    for cov_type in ["HC0", "cluster"]:
        groups = rng.integers(0, 20, len(y))
        kw = {"groups": groups} if cov_type == "cluster" else {}
        robust = LogisticRegression(**EXACT).fit(X, labels).summary(
            cov_type=cov_type, X=X, y=labels, groups=kw.get("groups"))
        theirs = sm.MNLogit(y, sm.add_constant(X)).fit(
            disp=0, method="newton", tol=1e-12, cov_type=cov_type,
            **({"cov_kwds": kw} if kw else {}))
        np.testing.assert_allclose(robust.std_err, theirs.bse.T.ravel(), rtol=RTOL)


@pytest.mark.parametrize("cov_type", ["HC0", "cluster"])
def test_robust_covariances_match_logit(rng, cov_type):
    X, y = _binary(rng)
    groups = rng.integers(0, 25, len(y))
    kw = {"groups": groups} if cov_type == "cluster" else {}
    clf = LogisticRegression(**EXACT).fit(X, y)
    table = clf.summary(cov_type=cov_type, X=X, y=y, groups=kw.get("groups"))
    res = sm.Logit(y, sm.add_constant(X)).fit(disp=0, tol=1e-12, cov_type=cov_type,
                                              **({"cov_kwds": kw} if kw else {}))
    np.testing.assert_allclose(table.cov, res.cov_params(), rtol=RTOL)
    np.testing.assert_allclose(table.std_err, res.bse, rtol=RTOL)
    np.testing.assert_allclose(table.p_value, res.pvalues, rtol=RTOL)
    np.testing.assert_allclose(np.column_stack([table.conf_low, table.conf_high]),
                               res.conf_int(), rtol=RTOL)


def test_hc1_to_hc3_by_formula(rng):
    """statsmodels gives HC0 for every HCx of Logit; ours follow R's sandwich::vcovHC."""
    X, y = _binary(rng, n=80)
    clf = LogisticRegression(**EXACT).fit(X, y)
    A = np.column_stack([np.ones(len(y)), X])
    p = clf.predict_proba(X)[:, 1]
    w = p * (1 - p)
    B = np.linalg.inv((A * w[:, None]).T @ A)
    h = w * np.einsum("ij,jk,ik->i", A, B, A)
    e = y - p
    n, k = A.shape
    expected = {
        "HC1": n / (n - k) * B @ (A.T * e**2) @ A @ B,
        "HC2": B @ (A.T * (e**2 / (1 - h))) @ A @ B,
        "HC3": B @ (A.T * (e / (1 - h)) ** 2) @ A @ B,
    }
    for cov_type, cov in expected.items():
        np.testing.assert_allclose(clf.summary(cov_type=cov_type, X=X, y=y).cov, cov,
                                   rtol=1e-9)


def test_odds_ratios_column_and_print(rng):
    X, y = _binary(rng)
    table = LogisticRegression(**EXACT).fit(X, y).summary(odds_ratios=True, alpha=0.1)
    np.testing.assert_allclose(table.odds_ratio, np.exp(table.estimate))
    np.testing.assert_allclose(table.odds_ratio_low, np.exp(table.conf_low))
    res = sm.Logit(y, sm.add_constant(X)).fit(disp=0, tol=1e-12)
    np.testing.assert_allclose(table.odds_ratio_high, np.exp(res.conf_int(0.1)[:, 1]),
                               rtol=RTOL)
    frame = table.to_frame()
    assert list(frame.columns[-3:]) == ["odds ratio", "OR [0.05", "OR 0.95]"]
    assert "odds ratio" in str(table) and "OR 0.95]" in str(table)
    assert "odds ratio" not in LogisticRegression(**EXACT).fit(X, y).summary().to_frame()


def test_lr_and_wald_tests_match_statsmodels(rng):
    X, y = _binary(rng)
    full = LogisticRegression(**EXACT).fit(X, y)
    reduced = LogisticRegression(**EXACT).fit(X[:, :1], y)
    big = sm.Logit(y, sm.add_constant(X)).fit(disp=0, tol=1e-12)
    small = sm.Logit(y, sm.add_constant(X[:, :1])).fit(disp=0, tol=1e-12)
    res = lr_test(full, reduced)
    stat = 2 * (big.llf - small.llf)
    assert res.statistic == pytest.approx(stat, rel=RTOL)
    assert res.df == 2
    from scipy import stats
    assert res.p_value == pytest.approx(stats.chi2.sf(stat, 2), rel=RTOL)
    wald = wald_test(full, ["x1", "x2"])
    theirs = big.wald_test(np.eye(4)[2:], use_f=False, scalar=True)
    assert wald.statistic == pytest.approx(float(theirs.statistic), rel=RTOL)
    assert wald.p_value == pytest.approx(float(theirs.pvalue), rel=RTOL)
    groups = rng.integers(0, 25, len(y))
    robust = wald_test(full, ["x1", "x2"], cov_type="cluster", groups=groups, X=X, y=y)
    theirs = sm.Logit(y, sm.add_constant(X)).fit(
        disp=0, tol=1e-12, cov_type="cluster", cov_kwds={"groups": groups}).wald_test(
        np.eye(4)[2:], use_f=False, scalar=True)
    assert robust.statistic == pytest.approx(float(theirs.statistic), rel=RTOL)


def test_summary_errors(rng):
    X, y = _binary(rng)
    clf = LogisticRegression(**EXACT).fit(X, y)
    with pytest.raises(ValueError, match="needs the training data"):
        clf.summary(cov_type="HC0")
    with pytest.raises(ValueError, match="do not reproduce the fit"):
        clf.summary(cov_type="HC0", X=X, y=1 - y)
    with pytest.raises(ValueError, match="not in classes_"):
        clf.summary(cov_type="HC0", X=X, y=y + 5)
    with pytest.raises(ValueError, match="unpenalised"):
        LogisticRegression().fit(X, y).summary()
    with pytest.raises(ValueError, match="ci must be"):
        clf.summary(ci="exact")
    with pytest.raises(ValueError, match="ci='profile' needs the training data"):
        clf.summary(ci="profile")
    Xm, ym = _multi(rng)
    with pytest.raises(ValueError, match="two classes"):
        LogisticRegression(**EXACT).fit(Xm, ym).summary(ci="profile", X=Xm, y=ym)
    with pytest.raises(ValueError, match="two classes only"):
        LogisticRegression(**EXACT).fit(Xm, ym).summary(cov_type="HC3", X=Xm, y=ym)
    with pytest.raises(ValueError, match="same class"):
        from classiclearn.linear_model import LinearRegression
        lr_test(clf, LinearRegression().fit(X[:, :1], y))


def test_fit_defers_the_information_to_summary(rng):
    X, y = _multi(rng)
    clf = LogisticRegression(**EXACT).fit(X, y)
    assert clf._inference["cov"] is None and "training" in clf._inference
    table = clf.summary()
    assert clf._inference["cov"] is not None and "training" not in clf._inference
    again = pickle.loads(pickle.dumps(LogisticRegression(**EXACT).fit(X, y)))
    assert "training" not in again._inference  # pickles leave the training arrays out
    with pytest.raises(ValueError, match="needs the training data"):
        again.summary()
    reread = again.summary(X=X, y=y)
    np.testing.assert_allclose(reread.std_err, table.std_err, rtol=1e-12)
    assert reread.aic == pytest.approx(table.aic, rel=1e-12)
    with pytest.raises(ValueError, match="log-likelihood"):
        pickle.loads(pickle.dumps(clf.fit(X, y))).summary(X=X[::-1], y=y)


def test_summary_refuses_a_training_x_changed_after_fit(rng):
    X, y = _multi(rng)
    X = X.copy()
    clf = LogisticRegression(**EXACT).fit(X, y)
    X[0, 0] += 5.0  # the caller's array, kept by reference
    with pytest.raises(ValueError, match="changed since"):
        clf.summary()


def test_large_fit_takes_the_training_data_again_in_summary(rng, monkeypatch):
    from classiclearn.linear_model import _logistic_inference

    X, y = _multi(rng)
    small = LogisticRegression(**EXACT).fit(X, y).summary()
    monkeypatch.setattr(_logistic_inference, "_KEPT_TRAINING_ENTRIES", X.size - 1)
    clf = LogisticRegression(**EXACT).fit(X, y)
    assert "training" not in clf._inference
    with pytest.raises(ValueError, match="needs the training data"):
        clf.summary()
    large = clf.summary(X=X, y=y)
    np.testing.assert_allclose(large.std_err, small.std_err, rtol=1e-12)
    assert large.aic == pytest.approx(small.aic, rel=1e-12)


def test_multinomial_wald_test_by_feature(rng):
    X, y = _multi(rng)
    clf = LogisticRegression(**EXACT).fit(X, y)
    res = sm.MNLogit(y, sm.add_constant(X)).fit(disp=0, method="newton", tol=1e-12)
    ours = wald_test(clf, ["x1"])  # both classes' x1 coefficients
    R = np.zeros((2, 8))
    R[0, 2] = R[1, 6] = 1.0  # params in class-major order: [const, x0, x1, x2] per class
    theirs = res.wald_test(R, use_f=False, scalar=True)
    assert ours.df == 2
    assert ours.statistic == pytest.approx(float(theirs.statistic), rel=RTOL)
    assert "chi2(2)" in str(ours)


def test_profile_intervals_of_the_mle(rng):
    """Profile-likelihood intervals (R's confint on a glm), checked from scratch."""
    from scipy import optimize, stats

    X, y = _binary(rng, n=60)
    clf = LogisticRegression(**EXACT).fit(X, y)
    table = clf.summary(ci="profile", X=X, y=y)
    A = np.column_stack([np.ones(len(y)), X])
    beta = table.estimate

    def loglik(b):
        z = A @ b
        return np.sum(y * z - np.logaddexp(0, z))

    top, q = loglik(beta), stats.chi2.ppf(0.95, 1)
    for j in range(4):
        others = [i for i in range(4) if i != j]
        for end in (table.conf_low[j], table.conf_high[j]):
            def neg(b, end=end, j=j, others=others):
                full = np.empty(4)
                full[j], full[others] = end, b
                return -loglik(full)

            best = optimize.minimize(neg, beta[others], method="BFGS",
                                     options={"gtol": 1e-10}).fun
            assert 2 * (top + best) == pytest.approx(q, abs=1e-6)
    wald = clf.summary()
    np.testing.assert_allclose(table.conf_low, wald.conf_low, atol=0.2)  # near Wald's
    assert not np.allclose(table.conf_low, wald.conf_low, atol=1e-4)
