"""LogisticRegression solvers newton-cg, sag, saga, liblinear: parity with scikit-learn."""

import warnings

import numpy as np
import pytest
from sklearn import linear_model as sk

from classiclearn.exceptions import ConvergenceWarning
from classiclearn.linear_model import LogisticRegression
from classiclearn.linear_model import _sag_kernels as _k
from classiclearn.linear_model._sag import sag_step_size

TIGHT = {"tol": 1e-10, "max_iter": 20_000}


def _data(rng, n=200, p=4, k=2):
    X = rng.normal(size=(n, p))
    y = rng.integers(0, k, n)
    X[:, 0] += y
    X[:, 1] -= 0.5 * y
    return X, y


def _sklearn(X, y, sample_weight=None, penalty="l2", **kw):
    """scikit-learn's fit, its penalty given in the 1.8+ spelling."""
    if penalty == "l1":
        kw["l1_ratio"] = 1.0
    elif penalty is None:
        kw["C"] = np.inf
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return sk.LogisticRegression(**kw).fit(X, y, sample_weight=sample_weight)


def _assert_same_model(ours, theirs, X, rtol):
    scale = max(np.max(np.abs(theirs.coef_)), 1.0)
    np.testing.assert_allclose(ours.coef_, theirs.coef_, rtol=0, atol=rtol * scale)
    np.testing.assert_allclose(ours.intercept_, theirs.intercept_, rtol=0, atol=rtol * scale)
    np.testing.assert_allclose(ours.predict_proba(X), theirs.predict_proba(X), atol=rtol)


SOLVER_CASES = [
    ("newton-cg", "l2", None),
    ("newton-cg", None, None),
    ("sag", "l2", None),
    ("saga", "l2", None),
    ("saga", "l1", None),
    ("saga", "elasticnet", 0.5),
]


@pytest.mark.parametrize("solver,penalty,l1_ratio", SOLVER_CASES)
@pytest.mark.parametrize("k", [2, 3])
@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("C", [0.05, 2.0])
def test_solver_parity(rng, solver, penalty, l1_ratio, k, fit_intercept, C):
    X, y = _data(rng, k=k)
    kw = dict(solver=solver, C=C, fit_intercept=fit_intercept, random_state=0, **TIGHT)
    ours_kw = dict(kw, penalty=penalty)
    theirs_kw = dict(kw)
    if l1_ratio is not None:
        ours_kw["l1_ratio"] = theirs_kw["l1_ratio"] = l1_ratio
    if penalty is None:
        ours_kw.pop("C")
        theirs_kw.pop("C")
    ours = LogisticRegression(**ours_kw).fit(X, y)
    theirs = _sklearn(X, y, penalty=penalty, **theirs_kw)
    _assert_same_model(ours, theirs, X, 1e-6)


@pytest.mark.parametrize("solver", ["newton-cg", "sag", "saga", "liblinear"])
@pytest.mark.parametrize("k", [2, 3])
def test_sample_and_class_weight_parity(rng, solver, k):
    if solver == "liblinear" and k > 2:
        pytest.skip("liblinear is binary only")
    X, y = _data(rng, k=k)
    sw = rng.uniform(0.2, 2.0, len(y))
    cw = {c: 1.0 + 0.5 * c for c in range(k)}
    kw = dict(solver=solver, C=0.7, class_weight=cw, random_state=1, **TIGHT)
    ours = LogisticRegression(**kw).fit(X, y, sample_weight=sw)
    theirs = _sklearn(X, y, sample_weight=sw, **kw)
    _assert_same_model(ours, theirs, X, 1e-6)


@pytest.mark.parametrize("penalty", ["l1", "l2"])
@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("intercept_scaling", [1.0, 3.0])
def test_liblinear_penalised_intercept_parity(rng, penalty, fit_intercept, intercept_scaling):
    X, y = _data(rng)
    X[:, 2] += 2.0  # a clear intercept, shrunk by liblinear
    kw = dict(solver="liblinear", C=0.3, fit_intercept=fit_intercept,
              intercept_scaling=intercept_scaling, **TIGHT)
    ours = LogisticRegression(penalty=penalty, **kw).fit(X, y)
    theirs = _sklearn(X, y, penalty=penalty, **kw)
    _assert_same_model(ours, theirs, X, 1e-6)
    if fit_intercept:
        free = LogisticRegression(penalty=penalty, solver="newton-cd", C=0.3, **TIGHT).fit(X, y)
        assert abs(free.intercept_[0] - ours.intercept_[0]) > 1e-4  # it is penalised


def test_liblinear_dual_and_refusals(rng):
    X, y = _data(rng)
    primal = LogisticRegression(solver="liblinear", **TIGHT).fit(X, y)
    dual = LogisticRegression(solver="liblinear", dual=True, **TIGHT).fit(X, y)
    np.testing.assert_allclose(dual.coef_, primal.coef_, atol=1e-10)
    X3, y3 = _data(rng, k=3)
    with pytest.raises(ValueError, match="multiclass"):
        LogisticRegression(solver="liblinear").fit(X3, y3)
    with pytest.raises(ValueError, match="liblinear"):
        LogisticRegression(solver="liblinear", penalty=None).fit(X, y)
    with pytest.raises(ValueError, match="dual=True"):
        LogisticRegression(solver="saga", dual=True).fit(X, y)
    for solver in ["sag", "newton-cg"]:
        with pytest.raises(ValueError, match="supports only 'l2' or None"):
            LogisticRegression(solver=solver, penalty="l1").fit(X, y)


@pytest.mark.parametrize("name", ["breast_cancer", "wine", "digits"])
@pytest.mark.parametrize("scaled", [False, True])
def test_liblinear_l2_takes_liblinears_trust_region_steps(name, scaled):
    """TRON with liblinear's rules: at the default tolerance the number of steps and the
    model are liblinear's (raw breast_cancer and wine are ill-conditioned: 19-24 steps)."""
    from sklearn import datasets
    from sklearn.preprocessing import StandardScaler

    X, y = getattr(datasets, f"load_{name}")(return_X_y=True)
    y = (y == y.max()).astype(int)
    if scaled:
        X = StandardScaler().fit_transform(X)
    ours = LogisticRegression(solver="liblinear").fit(X, y)
    theirs = _sklearn(X, y, solver="liblinear")
    assert abs(int(ours.n_iter_[0]) - int(theirs.n_iter_[0])) <= 3
    # on raw data rounding moves the path a little: the stopped points differ by 1%
    atol = (2e-3 if scaled else 2e-2) * np.abs(theirs.decision_function(X)).max()
    np.testing.assert_allclose(ours.decision_function(X), theirs.decision_function(X),
                               rtol=0, atol=atol)
    assert np.mean(ours.predict(X) == theirs.predict(X)) >= 0.995


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("fit_intercept", [True, False])
def test_liblinear_dual_solves_the_dual_as_liblinear(rng, sparse, fit_intercept):
    """dual=True runs liblinear's dual coordinate descent: on wide X (the case it is for)
    the model equals scikit-learn's at a tight tolerance and at the default one, with
    sample weights (zero weights take no part), and n_iter_ counts passes."""
    import scipy.sparse as sp_

    n, p = 60, 300
    X = rng.normal(size=(n, p)) * (rng.random((n, p)) < 0.3)
    y = (X[:, :5].sum(axis=1) + 0.2 * rng.normal(size=n) > 0).astype(int)
    sw = rng.uniform(0.5, 2.0, n)
    sw[:3] = 0.0
    Xf = sp_.csr_array(X) if sparse else X
    # scikit-learn's visiting order comes from random_state (a fresh seed when None)
    kw = dict(solver="liblinear", dual=True, C=2.0, fit_intercept=fit_intercept,
              intercept_scaling=1.5, random_state=0)
    ours = LogisticRegression(**kw, **TIGHT).fit(Xf, y, sample_weight=sw)
    theirs = _sklearn(Xf, y, sample_weight=sw, **kw, **TIGHT)
    _assert_same_model(ours, theirs, X, 1e-6)
    primal = LogisticRegression(**{**kw, "dual": False}, **TIGHT).fit(Xf, y, sample_weight=sw)
    _assert_same_model(ours, primal, X, 1e-6)
    default = LogisticRegression(**kw).fit(Xf, y, sample_weight=sw)
    default_theirs = _sklearn(Xf, y, sample_weight=sw, **kw)
    assert abs(int(default.n_iter_[0]) - int(default_theirs.n_iter_[0])) <= 3
    _assert_same_model(default, default_theirs, X, 1e-2)
    again = LogisticRegression(**kw).fit(Xf, y, sample_weight=sw)
    np.testing.assert_array_equal(again.coef_, default.coef_)


def test_liblinear_l2_stops_at_max_iter_with_a_warning(rng):
    X, y = _data(rng)
    X[:, 1] *= 1e3  # ill-conditioned: many trust-region steps
    with pytest.warns(ConvergenceWarning, match="failed to converge"):
        est = LogisticRegression(solver="liblinear", max_iter=2, tol=1e-12).fit(X, y)
    assert est.n_iter_[0] == 2
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        est = LogisticRegression(solver="liblinear").fit(X, y)
    assert 2 < est.n_iter_[0] < 100


def test_liblinear_l2_trust_region_steps_match_a_naive_tron(rng):
    """The compiled TRON against a plain numpy transcription of the trust-region rules
    (Lin, Weng and Keerthi 2008): the same iterate after each number of steps."""
    from classiclearn._kernels import tron

    X, y01 = _data(rng, n=120, p=5)
    X[:, 3] *= 30.0
    y = np.where(y01 > 0, 1.0, -1.0)
    C = rng.uniform(0.5, 2.0, len(y))

    def value_grad_hess(w):
        z = y * (X @ w)
        sigma = 1.0 / (1.0 + np.exp(-z))
        f = 0.5 * w @ w + C @ np.logaddexp(0.0, -z)
        g = w + X.T @ (C * (sigma - 1.0) * y)
        H = np.eye(len(w)) + (X.T * (C * sigma * (1.0 - sigma))) @ X
        return f, g, H

    def naive(steps):
        w = np.zeros(X.shape[1])
        f, g, H = value_grad_hess(w)
        delta, taken, first = np.linalg.norm(g), 0, True
        while taken < steps:
            s, r, d = np.zeros_like(w), -g, -g
            while np.linalg.norm(r) > 0.1 * np.linalg.norm(g):
                Hd = H @ d
                a = (r @ r) / (d @ Hd)
                if np.linalg.norm(s + a * d) > delta:
                    sd, dd, gap = s @ d, d @ d, delta ** 2 - s @ s
                    rad = np.sqrt(sd ** 2 + dd * gap)
                    a = gap / (sd + rad) if sd >= 0 else (rad - sd) / dd
                    s, r = s + a * d, r - a * Hd
                    break
                s, r_new = s + a * d, r - a * Hd
                d = r_new + (r_new @ r_new) / (r @ r) * d
                r = r_new
            gs = g @ s
            pred = -0.5 * (gs - s @ r)
            f_new = value_grad_hess(w + s)[0]
            act, sn = f - f_new, np.linalg.norm(s)
            if first:
                delta = min(delta, sn)
            curv = f_new - f - gs
            alpha = 4.0 if curv <= 0 else max(0.25, -0.5 * gs / curv)
            if act < 1e-4 * pred:
                delta = min(max(alpha, 0.25) * sn, 0.5 * delta)
            elif act < 0.25 * pred:
                delta = max(0.25 * delta, min(alpha * sn, 0.5 * delta))
            elif act < 0.75 * pred:
                delta = max(0.25 * delta, min(alpha * sn, 4.0 * delta))
            else:
                delta = max(delta, min(alpha * sn, 4.0 * delta))
            if act > 1e-4 * pred:
                w = w + s
                f, g, H = value_grad_hess(w)
                taken, first = taken + 1, False
        return w

    for steps in [1, 2, 4]:
        w = np.zeros(X.shape[1])
        assert tron.l2_tron(tron.LOGISTIC, X, None, None, None, None, y, C, w, 0.0, steps) == (
            steps, False)
        np.testing.assert_allclose(w, naive(steps), rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("solver", ["sag", "saga", "newton-cg"])
def test_convergence_warning_when_max_iter_small(rng, solver):
    X, y = _data(rng, k=3)
    with pytest.warns(ConvergenceWarning, match="failed to converge"):
        est = LogisticRegression(solver=solver, max_iter=2, tol=1e-12, random_state=0).fit(X, y)
    assert est.n_iter_[0] == 2


@pytest.mark.parametrize("solver", ["sag", "saga"])
def test_sag_determinism_and_seed_effect(rng, solver):
    X, y = _data(rng, k=3)
    kw = dict(solver=solver, tol=1e-3, max_iter=1000)
    a = LogisticRegression(random_state=3, **kw).fit(X, y)
    b = LogisticRegression(random_state=3, **kw).fit(X, y)
    c = LogisticRegression(random_state=4, **kw).fit(X, y)
    np.testing.assert_array_equal(a.coef_, b.coef_)
    assert not np.array_equal(a.coef_, c.coef_)  # the draws depend on the seed
    np.testing.assert_allclose(a.coef_, c.coef_, atol=1e-2)  # ... the optimum does not


def test_sag_step_size_rule():
    # 1 / L for SAG, 1 / (2L + min(2 alpha, L)) for SAGA; L / 4 for the log loss
    assert sag_step_size(3.0, 0.01, "log", True, 100, False) == pytest.approx(1 / (1.0 + 0.01))
    assert sag_step_size(3.0, 0.01, "squared", False, 100, False) == pytest.approx(1 / 3.01)
    L = 0.25 * 4.0 + 0.01
    assert sag_step_size(3.0, 0.01, "log", True, 100, True) == pytest.approx(1 / (2 * L + L))
    assert sag_step_size(3.0, 0.001, "log", True, 100, True) == pytest.approx(
        1 / (2 * (1.0 + 0.001) + 0.2))


def _naive_sag_step(X, y, W, b, mem, sum_g, sum_b, i, num_seen, step, alpha, saga):
    """One SAG(A) step for the squared loss, written from the papers' formulas."""
    g = (X[i] @ W[0] + b[0]) - y[i]
    d = g - mem[i]
    sum_g = sum_g + d * X[i]
    sum_b = sum_b + d
    avg = sum_g / num_seen
    extra = (1 - 1 / num_seen) * d * X[i] if saga else 0.0
    W = (1 - step * alpha) * W - step * (avg + extra)
    b = b - step * (sum_b / num_seen + ((1 - 1 / num_seen) * d if saga else 0.0))
    mem = mem.copy()
    mem[i] = g
    return W, b, mem, sum_g, sum_b


@pytest.mark.parametrize("saga", [False, True])
def test_sag_kernel_matches_naive_steps(rng, saga):
    n, p = 7, 3
    X = rng.normal(size=(n, p))
    y = rng.normal(size=n)
    order = np.array([[0, 3, 3, 5, 1, 0, 6]], dtype=np.intp)
    step, alpha = 0.1, 0.05
    W, b = np.zeros((1, p)), np.zeros(1)
    sum_g, sum_b, mem = np.zeros((1, p)), np.zeros(1), np.zeros((n, 1))
    seen = np.zeros(n, dtype=bool)
    _k.sag_epochs(X, y, np.ones(n), W, b, sum_g, sum_b, mem, seen, 0, order, _k.LOSS_SQUARED,
                  step, alpha, 0.0, saga, True, 0.0, np.zeros((1, p)))
    Wn, bn, memn, sgn, sbn = np.zeros((1, p)), np.zeros(1), np.zeros(n), np.zeros(p), 0.0
    drawn = set()
    for i in order[0]:
        drawn.add(int(i))
        Wn, bn, memn, sgn, sbn = _naive_sag_step(X, y, Wn, bn, memn, sgn, sbn, i, len(drawn),
                                                 step, alpha, saga)
    np.testing.assert_allclose(W, Wn, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(b, bn, rtol=1e-12, atol=1e-14)


def test_hessian_product_kernels_match_numpy(rng):
    from classiclearn.linear_model import _logistic_kernels as lk

    n, p, K = 50, 4, 3
    X = rng.normal(size=(n, p))
    sw = rng.uniform(0.5, 2.0, n)
    P = rng.dirichlet(np.ones(K), n)
    V, vb = rng.normal(size=(K, p)), rng.normal(size=K)
    out = np.empty((K, p + 1))
    lk.multinomial_hessian_product(X, P, sw, V, vb, out)
    Z = X @ V.T + vb
    R = sw[:, None] * P * (Z - (P * Z).sum(axis=1, keepdims=True))
    np.testing.assert_allclose(out[:, :p], R.T @ X, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(out[:, p], R.sum(axis=0), rtol=1e-12, atol=1e-12)
    h = rng.uniform(0.0, 0.25, n)
    out1 = np.empty(p + 1)
    lk.binary_hessian_product(X, h, V[0].copy(), 0.3, out1)
    r = h * (X @ V[0] + 0.3)
    np.testing.assert_allclose(out1, np.append(r @ X, r.sum()), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("C", [0.01, 1.0, 100.0, None])
@pytest.mark.parametrize("fit_intercept", [True, False])
def test_softmax_newton_cholesky_parity_and_separable_data(rng, C, fit_intercept):
    """The softmax Newton step (Cholesky with the flat shift directions made
    definite) agrees with scikit-learn, unpenalised on nearly separable data
    (30 features, 100 rows) included, where least squares once failed."""
    X = rng.normal(size=(100, 30))
    y = rng.integers(0, 4, 100)
    X[:, :4] += 1.5 * np.eye(4)[y]
    kw = {"solver": "newton-cholesky", "fit_intercept": fit_intercept, "tol": 1e-10,
          "max_iter": 200}
    ours = LogisticRegression(**kw, **({"C": C} if C else {"penalty": None}))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours.fit(X, y)
        theirs = _sklearn(X, y, penalty="l2" if C else None, C=C or 1.0, **kw)
    atol = 1e-8 if C else 1e-5
    np.testing.assert_allclose(ours.predict_proba(X), theirs.predict_proba(X), atol=atol)


def _pairwise_softmax_hessian(X, P, sw):
    """The softmax Hessian block by block from its definition (the reference)."""
    n, p = X.shape
    K, q = P.shape[1], p + 1
    Xa = np.hstack([X, np.ones((n, 1))])
    H = np.empty((K * q, K * q))
    for k in range(K):
        for m in range(K):
            h = sw * P[:, k] * ((k == m) - P[:, m])
            H[k * q:(k + 1) * q, m * q:(m + 1) * q] = (Xa * h[:, None]).T @ Xa
    return H


@pytest.mark.parametrize("n, p, K", [(60, 3, 3), (5_000, 10, 5), (20_000, 20, 4)])
def test_stacked_softmax_hessian_matches_definition(rng, n, p, K):
    """One stacked product per row block (serial: one and several blocks;
    threaded: 20,000 x 20 with 4 classes) equals the Hessian's definition, with
    zero weights and probabilities near 1 (the diagonal blocks are formed from
    their own weights, not as a difference)."""
    import threading

    from classiclearn.linear_model import _logistic_solvers as solvers

    X = rng.normal(size=(n, p))
    Z = 8.0 * rng.normal(size=(n, K))
    P = np.exp(Z - Z.max(axis=1, keepdims=True))
    P /= P.sum(axis=1, keepdims=True)
    sw = rng.uniform(0.0, 2.0, n)
    sw[::7] = 0.0
    expected = _pairwise_softmax_hessian(X, P, sw)
    work = threading.local()
    for _ in range(2):  # the second call reuses the buffers
        H = solvers._softmax_hessian(X, P, sw, work)
        np.testing.assert_allclose(H, expected, rtol=1e-10, atol=1e-9 * np.abs(expected).max())


@pytest.mark.parametrize("penalty", ["l2", None])
@pytest.mark.parametrize("fit_intercept", [True, False])
def test_softmax_newton_cholesky_parity_on_tall_data(rng, penalty, fit_intercept):
    """600 rows x 5 features, 4 classes: the Hessian takes the stacked product."""
    X = rng.normal(size=(600, 5))
    y = rng.integers(0, 4, 600)
    X[:, :4] += 0.8 * np.eye(4)[y]
    sw = rng.uniform(0.5, 2.0, 600)
    kw = {"solver": "newton-cholesky", "fit_intercept": fit_intercept, "tol": 1e-10,
          "max_iter": 100}
    ours = LogisticRegression(penalty=penalty, **kw).fit(X, y, sample_weight=sw)
    theirs = _sklearn(X, y, sample_weight=sw, penalty=penalty, **kw)
    np.testing.assert_allclose(ours.predict_proba(X), theirs.predict_proba(X), atol=1e-8)


def test_newton_cg_follows_sklearns_path_on_an_ill_conditioned_problem():
    # unscaled digits: the strong Wolfe steps from MINPACK's first trial step take the
    # path of scikit-learn's Newton-CG (full steps with backtracking had taken 15 outer
    # steps and 361 Hessian products against their 12 and 137)
    from sklearn.datasets import load_digits
    from sklearn.linear_model import LogisticRegression as SkLogistic

    from classiclearn.linear_model import LogisticRegression as Logistic

    X, y = load_digits(return_X_y=True)
    ours = Logistic(solver="newton-cg").fit(X, y)
    theirs = SkLogistic(solver="newton-cg").fit(X, y)
    assert abs(int(ours.n_iter_[0]) - int(theirs.n_iter_[0])) <= 1
    assert np.mean(ours.predict(X) == theirs.predict(X)) == 1.0
    np.testing.assert_allclose(ours.predict_proba(X), theirs.predict_proba(X), atol=1e-3)


def test_strong_wolfe_step_meets_both_conditions():
    from classiclearn.linear_model._logistic_solvers import _strong_wolfe

    # phi(t) = (t - 30)^2: the curvature condition fails at t = 1 and 2, holds at 4
    phi = lambda t: (t - 30.0) ** 2  # noqa: E731
    dphi = lambda t: 2.0 * (t - 30.0)  # noqa: E731
    t = _strong_wolfe(phi, dphi, phi(0.0), dphi(0.0), 1.0)
    assert phi(t) <= phi(0.0) + 1e-4 * t * dphi(0.0)
    assert abs(dphi(t)) <= 0.9 * abs(dphi(0.0))
    assert t == 4.0


@pytest.mark.parametrize("k", [2, 3])
@pytest.mark.parametrize("fit_intercept", [True, False])
def test_newton_at_a_tight_tol_ends_on_a_whole_step_at_the_rounding_level(k, fit_intercept):
    # near the optimum the line search's decrease test is rounding noise; it had halved
    # the last step, leaving the gradient at 4e-9 (coefficients 5e-8 off) for tol=1e-14
    rng = np.random.default_rng(17)
    X = rng.normal(size=(600, 3)) * [1.0, 2.0, 0.5]
    y = np.argmax(X @ rng.normal(size=(3, k)) + rng.gumbel(size=(600, k)), axis=1)
    a = LogisticRegression(solver="newton", tol=1e-14, fit_intercept=fit_intercept).fit(X, y)
    b = LogisticRegression(solver="newton", tol=1e-14, fit_intercept=fit_intercept).fit(
        X * (1.0 + 1e-14), y)
    ref = sk.LogisticRegression(solver="newton-cholesky", tol=1e-14, max_iter=1000,
                                fit_intercept=fit_intercept).fit(X, y)
    np.testing.assert_allclose(a.coef_, b.coef_, rtol=1e-11, atol=1e-13)
    np.testing.assert_allclose(a.coef_, ref.coef_, rtol=1e-9, atol=1e-11)
