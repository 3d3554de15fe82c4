"""Ridge iterative solvers lsqr, sparse_cg, sag, saga, lbfgs: parity with scikit-learn."""

import warnings

import numpy as np
import pytest
from sklearn import linear_model as sk

from classiclearn.exceptions import ConvergenceWarning
from classiclearn.linear_model import Ridge

SOLVERS = ["lsqr", "sparse_cg", "sag", "saga", "lbfgs"]


def _data(rng, n, p, t):
    X = rng.normal(size=(n, p)) + 1.0
    Y = X @ rng.normal(size=(p, t)) + rng.normal(size=(n, t)) + 3.0
    return X, (Y[:, 0] if t == 1 else Y)


def _fit_both(X, y, sw=None, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = sk.Ridge(**kw).fit(X, y, sample_weight=sw)
        # lbfgs at tol=1e-14 stops on its line search at the rounding limit
        ours = Ridge(**kw).fit(X, y, sample_weight=sw)
    return ours, theirs


def _objective(model, X, y, sw, alpha):
    r = (y - model.predict(X)).reshape(len(y), -1)
    w = np.ones(len(y)) if sw is None else sw
    return (w[:, None] * r**2).sum(axis=0) + alpha * (np.atleast_2d(model.coef_) ** 2).sum(axis=1)


@pytest.mark.parametrize("solver", SOLVERS)
@pytest.mark.parametrize("shape", [(120, 5), (25, 40)])
@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("alpha", [0.1, 5.0])
def test_parity(rng, solver, shape, fit_intercept, weighted, alpha):
    n, p = shape
    X, y = _data(rng, n, p, 2)
    sw = rng.uniform(0.3, 2.0, n) if weighted else None
    tol = 1e-14 if solver == "lbfgs" else 1e-12
    kw = dict(alpha=alpha, solver=solver, tol=tol, fit_intercept=fit_intercept,
              random_state=0, max_iter=100_000, positive=solver == "lbfgs")
    ours, theirs = _fit_both(X, y, sw, **kw)
    if solver == "lbfgs":
        # both fits stop at the rounding limit of the same minimum value: scikit-learn's
        # two BLAS products and our one fused pass round differently, and the
        # coefficients can end ~1e-8 apart (~1e-5 with more features than rows, where
        # the objective is flat along the constraints)
        assert np.all(_objective(ours, X, y, sw, alpha)
                      <= _objective(theirs, X, y, sw, alpha) * (1 + 1e-10))
        np.testing.assert_allclose(ours.predict(X), theirs.predict(X), rtol=0,
                                   atol=1e-6 * np.abs(y).max())
        if n > p:
            scale = np.max(np.abs(theirs.coef_))
            np.testing.assert_allclose(ours.coef_, theirs.coef_, rtol=0, atol=1e-6 * scale)
        return
    scale = np.max(np.abs(theirs.coef_))
    np.testing.assert_allclose(ours.coef_, theirs.coef_, rtol=0, atol=1e-8 * scale)
    np.testing.assert_allclose(ours.intercept_, theirs.intercept_, rtol=0, atol=1e-8 * scale)
    np.testing.assert_allclose(ours.predict(X), theirs.predict(X), rtol=1e-8)


@pytest.mark.parametrize("solver", ["lsqr", "sparse_cg", "sag", "saga"])
def test_same_optimum_as_cholesky_and_one_target(rng, solver):
    X, y = _data(rng, 80, 4, 1)
    direct = Ridge(alpha=2.0).fit(X, y)
    est = Ridge(alpha=2.0, solver=solver, tol=1e-12, max_iter=100_000, random_state=0).fit(X, y)
    np.testing.assert_allclose(est.coef_, direct.coef_, rtol=1e-8)
    assert isinstance(est.n_iter_, int) and est.n_iter_ > 1
    assert est.solver_ == solver


def test_lbfgs_positive_bounds_and_refusals(rng):
    X, y = _data(rng, 60, 5, 1)
    y = y - 4.0 * X[:, 2]  # a coefficient the bound must clip
    est = Ridge(alpha=0.5, solver="lbfgs", positive=True, tol=1e-12).fit(X, y)
    exact = Ridge(alpha=0.5, positive=True).fit(X, y)  # non-negative least squares
    assert np.all(est.coef_ >= 0) and est.coef_[2] == 0.0
    np.testing.assert_allclose(est.coef_, exact.coef_, atol=1e-6)
    with pytest.raises(ValueError, match="only when positive=True"):
        Ridge(solver="lbfgs").fit(X, y)
    with pytest.raises(ValueError, match="positive=True"):
        Ridge(solver="sag", positive=True).fit(X, y)


@pytest.mark.parametrize("solver", ["lsqr", "sparse_cg", "sag", "saga"])
def test_convergence_warning_when_max_iter_small(rng, solver):
    X, y = _data(rng, 60, 20, 1)
    with pytest.warns(ConvergenceWarning, match="did not converge"):
        Ridge(alpha=1e-3, solver=solver, max_iter=2, tol=1e-14, random_state=0).fit(X, y)


@pytest.mark.parametrize("solver", ["sag", "saga"])
def test_sag_determinism(rng, solver):
    X, y = _data(rng, 60, 4, 1)
    kw = dict(alpha=1.0, solver=solver, tol=1e-3)
    a = Ridge(random_state=5, **kw).fit(X, y)
    b = Ridge(random_state=5, **kw).fit(X, y)
    c = Ridge(random_state=6, **kw).fit(X, y)
    np.testing.assert_array_equal(a.coef_, b.coef_)
    assert not np.array_equal(a.coef_, c.coef_)


def test_sag_overflow_is_a_clear_error(rng):
    X, y = _data(rng, 40, 3, 1)
    sw = np.full(40, 1e4)  # the step size ignores the weights, as scikit-learn's: diverges
    with pytest.raises(ValueError, match="non-finite"):
        Ridge(solver="sag", max_iter=500).fit(X, y, sample_weight=sw)


@pytest.mark.parametrize("solver", ["lsqr", "sparse_cg"])
@pytest.mark.parametrize("shape", [(300, 20), (40, 300)])
@pytest.mark.parametrize("weighted", [False, True])
def test_sparse_products_in_lanes_match_sklearn(rng, solver, shape, weighted, monkeypatch):
    # CSR products in row lanes on numba's threads (forced on small X), primal and dual
    import scipy.sparse as sp

    from classiclearn._kernels import work

    monkeypatch.setattr(work, "ROW_LANE_ENTRIES", 60)
    n, p = shape
    X = sp.random(n, p, density=0.1, random_state=1, format="csr") * 3.0
    y = X @ rng.normal(size=p) + rng.normal(size=n)
    sw = rng.uniform(0.3, 2.0, n) if weighted else None
    kw = dict(alpha=0.5, solver=solver, tol=1e-12, max_iter=100_000)
    ours, theirs = _fit_both(X, y, sw, **kw)
    scale = np.max(np.abs(theirs.coef_))
    np.testing.assert_allclose(ours.coef_, theirs.coef_, rtol=0, atol=1e-8 * scale)
    np.testing.assert_allclose(ours.intercept_, theirs.intercept_, rtol=0, atol=1e-8 * scale)


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("offset", [0.0, 1e6])
def test_positive_auto_above_128_features_runs_lbfgs_to_scikit_learns_optimum(
        rng, weighted, offset):
    # "auto" with positive=True: L-BFGS-B (scikit-learn's "auto") above 128 features, on
    # X centred as it is read; columns of mean 1e6 keep the centred fit's digits
    n, p = 600, 200
    X = rng.normal(size=(n, p)) + offset
    coef = np.abs(rng.normal(size=p)) * (rng.random(p) < 0.6)
    y = (X - offset) @ coef + rng.normal(size=n)
    sw = rng.uniform(0.3, 2.0, n) if weighted else None
    ours = Ridge(alpha=3.0, positive=True).fit(X, y, sample_weight=sw)
    theirs = sk.Ridge(alpha=3.0, positive=True).fit(X, y, sample_weight=sw)
    assert ours.solver_ == "lbfgs" and ours.n_iter_ > 1
    assert np.all(ours.coef_ >= 0)
    exact = Ridge(alpha=3.0, positive=True, solver="lbfgs", tol=1e-12, max_iter=100_000).fit(
        X, y, sample_weight=sw)
    ref = _objective(exact, X, y, sw, 3.0)
    # the same stopping rule as scikit-learn's: as near the optimum
    gap = _objective(theirs, X, y, sw, 3.0) - ref
    assert _objective(ours, X, y, sw, 3.0) - ref <= 2 * gap + 1e-9 * ref
    np.testing.assert_allclose(ours.predict(X), theirs.predict(X), rtol=0,
                               atol=1e-3 * np.std(y))
    assert Ridge(alpha=3.0, positive=True).fit(X[:, :128], y).solver_ == "nnls"
