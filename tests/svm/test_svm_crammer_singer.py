"""LinearSVC(multi_class="crammer_singer") against scikit-learn (liblinear's MCSVM_CS).

The primal objective is strictly convex in the weights, so both solvers reach
the same weights whatever their visiting orders; compared at a tight tol.
"""

import warnings

import numpy as np
import pytest

from classiclearn.exceptions import ConvergenceWarning
from classiclearn.svm import LinearSVC
from classiclearn.svm import _linear_kernels as _k

sksvm = pytest.importorskip("sklearn.svm")


def _blobs(rng, k, n=150, d=4):
    centres = 2.5 * rng.normal(size=(k, d))
    y = rng.integers(0, k, n)
    X = centres[y] + rng.normal(size=(n, d))
    return X, y


def _primal(coef, intercept, X, y, C, intercept_scaling):
    """Crammer-Singer primal objective with liblinear's penalised intercept."""
    scores = X @ coef.T + intercept
    n, k = scores.shape
    e = np.ones((n, k))
    e[np.arange(n), y] = 0.0
    loss = np.max(e + scores - scores[np.arange(n), y][:, None], axis=1)
    penalty = np.sum(coef**2) + np.sum((np.asarray(intercept) / intercept_scaling) ** 2)
    return 0.5 * penalty + np.sum(C * loss)


def _fit_both(X, y, sw=None, **kw):
    kw = dict(multi_class="crammer_singer", tol=1e-10, max_iter=200_000, random_state=0, **kw)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = sksvm.LinearSVC(**kw).fit(X, y, sample_weight=sw)
    ours = LinearSVC(**kw).fit(X, y, sample_weight=sw)
    return ours, theirs


@pytest.mark.parametrize("k", [3, 4])
@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("C", [0.05, 1.0])
@pytest.mark.parametrize("weights", ["none", "sample", "class"])
def test_parity_multiclass(rng, k, fit_intercept, C, weights):
    X, y = _blobs(rng, k)
    sw = rng.uniform(0.3, 2.0, len(y)) if weights == "sample" else None
    cw = {0: 2.0, 1: 0.5} if weights == "class" else None
    ours, theirs = _fit_both(X, y, sw, C=C, fit_intercept=fit_intercept, class_weight=cw)
    scale = max(np.max(np.abs(theirs.coef_)), 1.0)
    np.testing.assert_allclose(ours.coef_, theirs.coef_, rtol=0, atol=1e-7 * scale)
    np.testing.assert_allclose(ours.intercept_, theirs.intercept_, rtol=0, atol=1e-7 * scale)
    Cs = C * (np.ones(len(y)) if sw is None else sw)
    if cw is not None:
        Cs = Cs * np.array([cw.get(c, 1.0) for c in range(k)])[y]
    p_ours = _primal(ours.coef_, ours.intercept_, X, y, Cs, 1.0)
    p_theirs = _primal(theirs.coef_, theirs.intercept_, X, y, Cs, 1.0)
    assert abs(p_ours - p_theirs) <= 1e-6 * abs(p_theirs)
    Xt = X + 0.1 * rng.normal(size=X.shape)
    scores = theirs.decision_function(Xt)
    top2 = np.sort(scores, axis=1)[:, -2:]
    clear = top2[:, 1] - top2[:, 0] > 1e-6  # exact ties are decided by rounding
    np.testing.assert_array_equal(ours.predict(Xt)[clear], theirs.predict(Xt)[clear])
    np.testing.assert_allclose(ours.decision_function(Xt), scores, atol=1e-6 * scale)


@pytest.mark.parametrize("intercept_scaling", [1.0, 5.0])
def test_parity_two_classes_is_difference_of_rows(rng, intercept_scaling):
    X, y = _blobs(rng, 2)
    ours, theirs = _fit_both(X, y, C=0.5, intercept_scaling=intercept_scaling)
    assert ours.coef_.shape == (1, X.shape[1])
    np.testing.assert_allclose(ours.coef_, theirs.coef_, atol=1e-7)
    np.testing.assert_allclose(ours.intercept_, theirs.intercept_, atol=1e-7)
    np.testing.assert_array_equal(ours.predict(X), theirs.predict(X))


def test_ignores_penalty_loss_dual_and_is_deterministic(rng):
    X, y = _blobs(rng, 3)
    base = LinearSVC(multi_class="crammer_singer", random_state=3).fit(X, y)
    other = LinearSVC(multi_class="crammer_singer", penalty="l1", loss="hinge", dual=False,
                      random_state=3).fit(X, y)
    np.testing.assert_array_equal(base.coef_, other.coef_)
    assert base.coef_.shape == (3, X.shape[1])


def test_convergence_warning(rng):
    X, y = _blobs(rng, 4)
    # as scikit-learn: liblinear's solver is not limited by max_iter, but its passes
    # are compared with it for the warning
    with pytest.warns(ConvergenceWarning, match="converge"):
        est = LinearSVC(multi_class="crammer_singer", C=10.0, tol=1e-12, max_iter=3).fit(X, y)
    assert est.n_iter_ > 3
    theirs = sksvm.LinearSVC(multi_class="crammer_singer", C=10.0, tol=1e-12, max_iter=3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs.fit(X, y)
    np.testing.assert_allclose(est.coef_, theirs.coef_, atol=1e-8)


def _brute_subproblem(B, A, label, c, total=0.0):
    """Projected-gradient reference: the sub-problem as a small QP by scipy (the
    variables summing to ``total``)."""
    from scipy.optimize import minimize

    K = len(B)
    upper = np.where(np.arange(K) == label, c, 0.0)
    res = minimize(lambda b: 0.5 * A * b @ b + B @ b, np.zeros(K), jac=lambda b: A * b + B,
                   constraints=[{"type": "eq", "fun": lambda b: b.sum() - total,
                                 "jac": lambda b: np.ones(K)}],
                   bounds=[(None, u) for u in upper], method="SLSQP",
                   options={"ftol": 1e-14, "maxiter": 500})
    return res.x


@pytest.mark.parametrize("seed", range(5))
def test_subproblem_matches_a_qp_solver(seed):
    rng = np.random.default_rng(seed)
    K = 5
    B = rng.normal(size=K)
    A = rng.uniform(0.5, 3.0)
    label = int(rng.integers(K))
    c = rng.uniform(0.1, 2.0)
    beta = np.empty(K)
    _k._crammer_singer_subproblem(B, A, label, c, np.empty(K), beta, K)
    np.testing.assert_allclose(beta, _brute_subproblem(B, A, label, c), atol=1e-6)
    assert abs(beta.sum()) < 1e-12


@pytest.mark.parametrize("seed", range(4))
def test_subproblem_over_active_classes_leaves_the_rest(seed):
    # the solver's shrinking passes the first k slots only. A label outside them was
    # shrunk at its bound c: the active variables (all bounded by 0) then sum to -c
    rng = np.random.default_rng(seed)
    K, k = 6, 4
    B = rng.normal(size=K)
    A = rng.uniform(0.5, 3.0)
    c = rng.uniform(0.1, 2.0)
    beta = np.full(K, 99.0)
    _k._crammer_singer_subproblem(B, A, 5, c, np.empty(K), beta, k)
    np.testing.assert_allclose(beta[:k], _brute_subproblem(B[:k], A, k + 1, c, -c),
                               atol=1e-6)
    assert np.all(beta[k:] == 99.0)
    label = int(rng.integers(k))
    _k._crammer_singer_subproblem(B, A, label, c, np.empty(K), beta, k)
    np.testing.assert_allclose(beta[:k], _brute_subproblem(B[:k], A, label, c), atol=1e-6)
