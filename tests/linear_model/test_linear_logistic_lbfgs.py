"""LogisticRegression(solver="lbfgs") on classiclearn's own L-BFGS: scikit-learn's
coefficients at tight tol over a grid of problems, the Newton solvers' optimum, and the
flat objective against NumPy."""

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn import linear_model as sk

from classiclearn.exceptions import ConvergenceWarning
from classiclearn.linear_model import LogisticRegression
from classiclearn.linear_model._logistic_solvers import FlatObjective, LogisticObjective

TIGHT = {"tol": 1e-10, "max_iter": 10_000}


def _problem(k, sparse, seed=0, n=240, p=8):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p))
    y = rng.integers(0, k, n)
    X[:, 0] += 0.8 * y
    X[:, 1] -= 0.5 * y
    if sparse:
        X[rng.random(X.shape) < 0.6] = 0.0
        X = sp.csr_array(X)
    return X, y, rng.uniform(0.2, 3.0, n)


def _quiet(est, X, y, sample_weight=None):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return est.fit(X, y, sample_weight=sample_weight)


def _relative_gap(ours, theirs):
    scale = max(np.max(np.abs(theirs.coef_)), np.max(np.abs(theirs.intercept_)), 1e-3)
    return max(np.max(np.abs(ours.coef_ - theirs.coef_)),
               np.max(np.abs(ours.intercept_ - theirs.intercept_))) / scale


@pytest.mark.parametrize("C", [1e-3, 1e-1, 1.0, 1e3])
@pytest.mark.parametrize("k", [2, 3])
@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("weights", [None, "sample", "class"])
@pytest.mark.parametrize("sparse", [False, True])
def test_lbfgs_equals_sklearn_at_tight_tol(C, k, fit_intercept, weights, sparse):
    X, y, sw = _problem(k, sparse, seed=k)
    kw = dict(C=C, fit_intercept=fit_intercept, **TIGHT)
    if weights == "class":
        kw["class_weight"] = {c: 1.0 + c for c in range(k)}
    sample_weight = sw if weights == "sample" else None
    ours = _quiet(LogisticRegression(**kw), X, y, sample_weight)
    theirs = _quiet(sk.LogisticRegression(**kw), X, y, sample_weight)
    assert _relative_gap(ours, theirs) <= 1e-6
    assert abs(ours.n_iter_[0] - theirs.n_iter_[0]) <= 3


@pytest.mark.parametrize("k", [2, 4])
@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("C", [1e-2, 10.0])
def test_lbfgs_equals_the_newton_optimum(k, sparse, C):
    X, y, sw = _problem(k, sparse, seed=10 + k, n=400, p=12)
    fits = {s: _quiet(LogisticRegression(solver=s, C=C, **TIGHT), X, y, sw)
            for s in ("lbfgs", "newton-cg", "newton-cholesky")}
    assert _relative_gap(fits["lbfgs"], fits["newton-cg"]) <= 1e-6
    assert _relative_gap(fits["lbfgs"], fits["newton-cholesky"]) <= 1e-6


@pytest.mark.parametrize("k", [2, 3])
def test_sparse_and_dense_give_the_same_fit(k):
    X, y, sw = _problem(k, True, seed=20)
    on_sparse = _quiet(LogisticRegression(**TIGHT), X, y, sw)
    on_dense = _quiet(LogisticRegression(**TIGHT), X.toarray(), y, sw)
    assert _relative_gap(on_sparse, on_dense) <= 1e-8
    assert on_sparse.n_iter_[0] == on_dense.n_iter_[0]


def test_max_iter_warns_and_counts_iterations():
    X, y, _ = _problem(3, False)
    with pytest.warns(ConvergenceWarning, match="lbfgs failed to converge after 3 iter"):
        est = LogisticRegression(max_iter=3, tol=1e-12).fit(X, y)
    assert est.n_iter_[0] == 3
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        loose = LogisticRegression(tol=1e-2).fit(X, y)
    assert 0 < loose.n_iter_[0] < 20


def _naive_nll_grad(X, y, sw, W, b):
    """Softmax (or, for one row of W, binomial) nll and gradient by dense NumPy."""
    Z = X @ W.T + b
    if W.shape[0] == 1:
        z = Z[:, 0]
        nll = np.sum(sw * (np.logaddexp(0.0, z) - y * z))
        r = sw * (1.0 / (1.0 + np.exp(-z)) - y)
        return nll, np.append(r @ X, r.sum())[None, :]
    Zm = Z.max(axis=1, keepdims=True)
    lse = (Zm + np.log(np.exp(Z - Zm).sum(axis=1, keepdims=True)))[:, 0]
    nll = np.sum(sw * (lse - Z[np.arange(len(y)), y]))
    R = np.exp(Z - lse[:, None])
    R[np.arange(len(y)), y] -= 1.0
    R *= sw[:, None]
    return nll, np.concatenate([R.T @ X, R.sum(axis=0)[:, None]], axis=1)


@pytest.mark.parametrize("k", [1, 4])
@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("fit_intercept", [True, False])
def test_flat_objective_matches_numpy(rng, k, sparse, fit_intercept):
    n, p, l2, scale = 60, 9, 0.7, 1.0 / 75.0
    Xd = rng.normal(size=(n, p)) * (rng.random((n, p)) < 0.4)
    Xd[5] = 0.0  # an empty row
    sw = rng.uniform(0.5, 2.0, n)
    y = rng.integers(0, 2 if k == 1 else k, n)
    W, b = rng.normal(size=(k, p)), rng.normal(size=k)
    X = sp.csr_array(Xd) if sparse else Xd
    fun = FlatObjective(LogisticObjective(X, y, sw, k, fit_intercept), l2, scale)
    theta = fun.pack(W, b)
    W2, b2 = fun.unpack(theta)
    np.testing.assert_array_equal(W2, W)
    np.testing.assert_array_equal(b2, b if fit_intercept else 0.0)
    grad = np.empty_like(theta)
    value = fun(theta, grad)
    gW, gb = fun.unpack(grad)
    nll, grad_ref = _naive_nll_grad(Xd, y, sw, W, b2)
    np.testing.assert_allclose(value, scale * (nll + 0.5 * l2 * np.sum(W * W)), rtol=1e-12)
    np.testing.assert_allclose(gW, scale * (grad_ref[:, :p] + l2 * W), rtol=1e-11, atol=1e-13)
    expected_gb = scale * grad_ref[:, p] if fit_intercept else 0.0
    np.testing.assert_allclose(gb, expected_gb, rtol=1e-11, atol=1e-13)
