"""Fit statistics of the exact Dask fits equal the in-memory ones."""

import numpy as np
import pytest

from classiclearn.linear_model import LinearRegression, LogisticRegression, lr_test

da = pytest.importorskip("dask.array")

STATS = ["log_likelihood", "null_log_likelihood", "deviance", "null_deviance", "aic", "bic",
         "n_obs", "df_model", "df_resid"]


def _same_statistics(a, b, names, rtol):
    for name in names:
        assert getattr(b, name) == pytest.approx(getattr(a, name), rel=rtol), name
    assert b.lr_test.statistic == pytest.approx(a.lr_test.statistic, rel=rtol)


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("fit_intercept", [True, False])
def test_ols_statistics_from_dask(rng, weighted, fit_intercept):
    X = rng.normal(size=(400, 3))
    y = 2.0 + X @ [1.0, 0.5, 0.0] + rng.normal(size=400)
    w = rng.uniform(0.5, 2.0, 400) if weighted else None
    kw = {"fit_intercept": fit_intercept}
    a = LinearRegression(**kw).fit(X, y, sample_weight=w).summary()
    b = LinearRegression(**kw).fit(
        da.from_array(X, chunks=(97, 3)), da.from_array(y, chunks=(97,)),
        sample_weight=None if w is None else da.from_array(w, chunks=(97,))).summary()
    _same_statistics(a, b, STATS + ["r2", "r2_adj"], 1e-9)
    assert b.f_test.statistic == pytest.approx(a.f_test.statistic, rel=1e-8)


@pytest.mark.parametrize("n_classes", [2, 3])
def test_logistic_statistics_from_dask(rng, n_classes):
    X = rng.normal(size=(500, 3))
    y = np.digitize(X @ [1.0, -1.0, 0.5] + rng.logistic(size=500), [0.0, 1.0][:n_classes - 1])
    w = rng.uniform(0.5, 2.0, 500)
    a = LogisticRegression(penalty=None, solver="newton", tol=1e-14).fit(X, y, sample_weight=w)
    b = LogisticRegression(penalty=None).fit(da.from_array(X, chunks=(120, 3)),
                                             da.from_array(y, chunks=(120,)),
                                             sample_weight=da.from_array(w, chunks=(120,)))
    if n_classes == 2:
        _same_statistics(a.summary(), b.summary(), STATS + ["pseudo_r2"], 1e-8)
    else:  # the multinomial information comes from the in-memory data
        with pytest.raises(ValueError, match="needs the training data"):
            b.summary()
        ta = a.summary()
        tb = b.summary(X=X, y=y, sample_weight=w)
        _same_statistics(ta, tb, STATS, 1e-8)
        np.testing.assert_allclose(tb.std_err, ta.std_err, rtol=1e-7)
    reduced = LogisticRegression(penalty=None, solver="newton", tol=1e-14).fit(
        X[:, :1], y, sample_weight=w)
    assert lr_test(b, reduced).statistic == pytest.approx(lr_test(a, reduced).statistic,
                                                          rel=1e-7)
