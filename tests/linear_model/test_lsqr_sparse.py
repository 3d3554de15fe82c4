"""The compiled LSQR on sparse X against scipy's ``lsqr`` on the same operator."""

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse import linalg as splinalg

from classiclearn.linear_model import LinearRegression, Ridge
from classiclearn.linear_model._ridge_solvers import centered_operator, solve_lsqr


def _problem(n, p, density, weighted, seed=0):
    rng = np.random.default_rng(seed)
    X = sp.random(n, p, density=density, format="csr", random_state=seed,
                  data_rvs=rng.standard_normal)
    B = rng.normal(size=(n, 2))
    x_mean = np.asarray(X.mean(axis=0)).ravel()
    sw = rng.uniform(0.2, 3.0, size=n) if weighted else None
    return X, B, x_mean, sw


def _scipy_lsqr(X, x_mean, sw, B, alphas, tol, max_iter):
    A = centered_operator(X, x_mean, sw)
    outs = [splinalg.lsqr(A, B[:, k], damp=np.sqrt(alphas[k]), atol=tol, btol=tol,
                          iter_lim=max_iter) for k in range(B.shape[1])]
    return np.column_stack([o[0] for o in outs]), np.array([o[2] for o in outs]), \
        np.array([o[1] for o in outs])


@pytest.mark.parametrize("fmt", ["csr", "csc", "coo"])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("shape", [(300, 40, 0.1), (60, 400, 0.05), (40_000, 300, 0.02)])
@pytest.mark.parametrize("alphas", [(0.0, 0.0), (0.5, 30.0)])
def test_iterates_match_scipy(fmt, weighted, shape, alphas):
    # the third shape has several row lanes (threaded products)
    X, B, x_mean, sw = _problem(*shape, weighted)
    X = X.asformat(fmt)
    alphas = np.array(alphas)
    # ten steps: the same iterate up to rounding
    expected, _, _ = _scipy_lsqr(X, x_mean, sw, B, alphas, 1e-30, 10)
    W, n_iter, ok = solve_lsqr(X, x_mean, sw, B, alphas, 1e-30, 10)
    np.testing.assert_array_equal(n_iter, [10, 10])
    np.testing.assert_allclose(W, expected, rtol=1e-9, atol=1e-12 * np.abs(expected).max())
    # to convergence: the same stop (rounding may move it by a step) and solution
    expected, expected_iter, _ = _scipy_lsqr(X, x_mean, sw, B, alphas, 1e-8, None)
    W, n_iter, ok = solve_lsqr(X, x_mean, sw, B, alphas, 1e-8, None)
    assert ok.all()
    assert np.abs(n_iter - expected_iter).max() <= 1
    np.testing.assert_allclose(W, expected, rtol=1e-5, atol=1e-7 * np.abs(expected).max())


def test_iteration_limit_reported():
    X, B, x_mean, sw = _problem(200, 150, 0.05, False)
    W, n_iter, ok = solve_lsqr(X, x_mean, sw, B, np.zeros(2), 1e-14, 3)
    expected, _, istop = _scipy_lsqr(X, x_mean, sw, B, np.zeros(2), 1e-14, 3)
    assert (istop == 7).all()
    np.testing.assert_array_equal(n_iter, [3, 3])
    assert not ok.any()
    np.testing.assert_allclose(W, expected, rtol=1e-10, atol=1e-12)


def test_zero_right_hand_side_and_empty_matrix():
    X, B, x_mean, sw = _problem(50, 20, 0.1, False)
    W, n_iter, ok = solve_lsqr(X, x_mean, sw, np.zeros((50, 1)), np.zeros(1), 1e-8, None)
    assert (W == 0).all() and n_iter[0] == 0 and ok.all()
    empty = sp.csr_array((50, 20))
    W, n_iter, ok = solve_lsqr(empty, np.zeros(20), None, B, np.zeros(2), 1e-8, None)
    assert (W == 0).all() and (n_iter == 0).all() and ok.all()


def test_inputs_not_modified():
    X, B, x_mean, sw = _problem(300, 40, 0.1, True)
    copies = X.copy(), B.copy(), x_mean.copy(), sw.copy()
    solve_lsqr(X, x_mean, sw, B, np.array([0.0, 1.0]), 1e-8, None)
    for before, after in zip(copies, (X, B, x_mean, sw)):
        if sp.issparse(before):
            assert (before != after).nnz == 0
        else:
            np.testing.assert_array_equal(before, after)


@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("fmt", ["csr", "csc"])
def test_estimators_on_sparse_match_scikit_learn(fit_intercept, fmt):
    from sklearn import linear_model as sk

    X, B, _, sw = _problem(500, 80, 0.1, True, seed=3)
    X = X.asformat(fmt)
    y = B[:, 0] + X @ np.linspace(-1, 1, 80)
    for ours, theirs in ((Ridge(solver="lsqr", alpha=2.0, tol=1e-10,
                                fit_intercept=fit_intercept),
                          sk.Ridge(solver="lsqr", alpha=2.0, tol=1e-10,
                                   fit_intercept=fit_intercept)),
                         (LinearRegression(fit_intercept=fit_intercept, tol=1e-10),
                          sk.LinearRegression(fit_intercept=fit_intercept, tol=1e-10))):
        ours.fit(X, y, sample_weight=sw)
        theirs.fit(X, y, sample_weight=sw)
        np.testing.assert_allclose(ours.coef_, theirs.coef_, rtol=1e-6, atol=1e-8)
        np.testing.assert_allclose(ours.intercept_, theirs.intercept_, rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("fmt", ["csr", "csc"])
def test_columns_together_equal_columns_alone(fmt):
    # five columns, one of them zero (x = 0 exact, no step) and with damps
    # that stop them at different steps: each as if solved alone
    X, _, x_mean, sw = _problem(400, 60, 0.1, True, seed=5)
    X = X.asformat(fmt)
    rng = np.random.default_rng(1)
    B = rng.normal(size=(400, 5))
    B[:, 2] = 0.0
    alphas = np.array([0.0, 100.0, 1.0, 1e4, 0.01])
    W, n_iter, ok = solve_lsqr(X, x_mean, sw, B, alphas, 1e-9, None)
    assert ok.all() and n_iter[2] == 0 and (W[:, 2] == 0).all()
    assert len(set(n_iter.tolist()) - {0}) > 1
    for k in range(5):
        alone, alone_iter, _ = solve_lsqr(X, x_mean, sw, B[:, [k]], alphas[[k]], 1e-9, None)
        assert alone_iter[0] == n_iter[k]
        np.testing.assert_allclose(W[:, k], alone[:, 0], rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("threads", [2, 3])
def test_columns_split_between_threads_equal_one_call(monkeypatch, threads):
    # one row lane (serial products): the columns go to `threads` pool threads; each
    # result is bit for bit that of one call over all columns
    from classiclearn.linear_model import _ridge_solvers
    from classiclearn.linear_model._lsqr_kernels import lsqr_sparse

    X, _, x_mean, sw = _problem(400, 60, 0.1, True, seed=6)
    B = np.random.default_rng(2).normal(size=(400, 5))
    alphas = np.array([0.0, 100.0, 1.0, 1e4, 0.01])
    calls = []
    monkeypatch.setattr(_ridge_solvers, "auto_n_jobs", lambda n_jobs, work, threshold: threads)
    monkeypatch.setattr(_ridge_solvers, "lsqr_sparse",
                        lambda *args: calls.append(args[8].shape[1]) or lsqr_sparse(*args))
    W, n_iter, ok = solve_lsqr(X, x_mean, sw, B, alphas, 1e-9, None)
    assert sorted(calls) == sorted(len(range(first, 5, threads)) for first in range(threads))
    bounds = _ridge_solvers.row_lanes(X.indptr, X.shape, 10**9)
    ref = lsqr_sparse(X.indptr, X.indices, X.data, True, bounds, None, x_mean, np.sqrt(sw), B,
                      np.sqrt(alphas), 1e-9, 1e-9, _ridge_solvers._LSQR_CONLIM, 2 * 60)
    np.testing.assert_array_equal(W, ref[0])
    np.testing.assert_array_equal(n_iter, ref[2])
    assert ok.all()
