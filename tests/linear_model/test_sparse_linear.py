"""Sparse input for the linear classifiers: the same fits as scikit-learn and as dense input."""

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn import linear_model as sk_linear
from sklearn import svm as sk_svm

from classiclearn.linear_model import (
    ElasticNet,
    Lasso,
    LinearRegression,
    LogisticRegression,
    Ridge,
    enet_path,
    lasso_path,
)
from classiclearn.svm import LinearSVC


def _data(n_classes, density, seed=0, n=300, p=50):
    rng = np.random.default_rng(seed)
    X = sp.random(n, p, density=density, random_state=seed, format="csr") * 3
    score = X @ rng.normal(size=p) + 0.2 * rng.normal(size=n)
    y = (score > 0).astype(int) if n_classes == 2 else np.digitize(score, [-0.3, 0.3])
    return sp.csr_array(X), y


def _quiet_fit(est, X, y, **fit_params):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return est.fit(X, y, **fit_params)


def _nll_grad_by_products(X, W, b, y, sw):
    """The nll and gradient from scipy's products (the reference): binomial for W
    (p,), softmax for W (p, K)."""
    from classiclearn.linear_model import _logistic_kernels

    if W.ndim == 1:
        g = np.empty(X.shape[0])
        nll = _logistic_kernels.binary_loss_grad(X @ W + b, y, sw, g)
        return nll, np.append(X.T @ g, g.sum())
    G = np.empty((X.shape[0], W.shape[1]))
    nll = _logistic_kernels.multinomial_loss_grad(X @ W + b, y, sw, G)
    return nll, np.vstack([X.T @ G, G.sum(axis=0)])


@pytest.mark.parametrize("sparse", [True, False])
@pytest.mark.parametrize("n_out", [1, 3])
@pytest.mark.parametrize("lane_entries", [10**9, 700, 97])
def test_loss_pass_in_lanes_matches_the_products(sparse, n_out, lane_entries, monkeypatch):
    # one lane (the calling thread), a few and many lanes (numba's threads), on CSR
    # and dense rows: the same nll and gradient as two matrix products, and bit for
    # bit the same with one thread
    import numba

    from classiclearn.linear_model import _logistic_solvers

    monkeypatch.setattr(_logistic_solvers, "ROW_LANE_ENTRIES", lane_entries)
    rng = np.random.default_rng(3)
    X = sp.random(400, 60, density=0.1, random_state=3, format="csr")
    X.data *= rng.normal(size=X.nnz)
    sw = rng.random(400) + 0.5
    if n_out == 1:
        y = (rng.random(400) < 0.4).astype(float)
        W, b, shape = rng.normal(size=60), -0.3, (61,)
    else:
        y = rng.integers(0, n_out, 400).astype(np.intp)
        W, b, shape = rng.normal(size=(60, n_out)), rng.normal(size=n_out), (61, n_out)
    ref_nll, ref_grad = _nll_grad_by_products(X, W, b, y, sw)
    if not sparse:  # dense rows; the softmax coefficients and gradient by class
        X = np.ascontiguousarray(X.toarray())
        if n_out > 1:
            W, shape, ref_grad = np.ascontiguousarray(W.T), shape[::-1], ref_grad.T
    pass_ = _logistic_solvers.LossPass(X, y, sw, n_out)
    entries = X.nnz if sparse else X.size
    lanes = max(1, min(8, entries // lane_entries, entries // (60 * n_out) if sparse else 8))
    assert pass_.totals.shape[0] == lanes
    grad = np.empty(shape)
    nll = pass_(W, b, grad)
    np.testing.assert_allclose(nll, ref_nll, rtol=1e-13)
    np.testing.assert_allclose(grad, ref_grad, rtol=1e-12, atol=1e-12)
    threads = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        grad_one = np.empty(shape)
        assert pass_(W, b, grad_one) == nll
    finally:
        numba.set_num_threads(threads)
    np.testing.assert_array_equal(grad_one, grad)


@pytest.mark.parametrize("n_classes", [2, 3])
@pytest.mark.parametrize("fit_intercept", [True, False])
def test_lbfgs_in_lanes_matches_sklearn(n_classes, fit_intercept, monkeypatch):
    # the lanes' path of the L-BFGS fit (forced on small data) against scikit-learn,
    # on CSR and dense rows
    from classiclearn.linear_model import _logistic_solvers

    monkeypatch.setattr(_logistic_solvers, "ROW_LANE_ENTRIES", 50)
    X, y = _data(n_classes, 0.2)
    sw = np.random.default_rng(1).random(y.shape[0]) + 0.5
    kw = dict(tol=1e-10, max_iter=10_000, fit_intercept=fit_intercept, C=2.0)
    theirs = _quiet_fit(sk_linear.LogisticRegression(**kw), X, y, sample_weight=sw)
    for rows in (X, X.toarray()):
        ours = _quiet_fit(LogisticRegression(**kw), rows, y, sample_weight=sw)
        np.testing.assert_allclose(ours.coef_, theirs.coef_, atol=1e-6)
        np.testing.assert_allclose(ours.predict_proba(rows), theirs.predict_proba(X),
                                   atol=1e-6)


@pytest.mark.parametrize("solver", ["lbfgs", "newton-cg", "newton-cholesky"])
@pytest.mark.parametrize("n_classes", [2, 3])
@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("density", [0.02, 0.2])
def test_logistic_matches_sklearn_and_dense(solver, n_classes, fit_intercept, density):
    X, y = _data(n_classes, density)
    kw = dict(solver=solver, tol=1e-10, max_iter=10_000, fit_intercept=fit_intercept, C=2.0)
    ours = _quiet_fit(LogisticRegression(**kw), X, y)
    theirs = _quiet_fit(sk_linear.LogisticRegression(**kw), X, y)
    dense = _quiet_fit(LogisticRegression(**kw), X.toarray(), y)
    # lbfgs: at tol=1e-10 L-BFGS stops by the relative-reduction test (ftol = 64 eps), here
    # 1e-6 to 2.5e-6 from the optimum (newton-cholesky at tol=1e-14) for scikit-learn and
    # for us alike, at an iteration that rounding decides: our L-BFGS and scipy's L-BFGS-B
    # (other line search), or our sparse and dense kernels (other summation orders), end
    # up to 7.4e-7 apart in the coefficients and 5e-7 in the probabilities
    lbfgs = solver == "lbfgs"
    np.testing.assert_allclose(ours.coef_, theirs.coef_, atol=1e-6 if lbfgs else 1e-7)
    # the dense fit takes other BLAS paths: on the 3-class problem with 2% density
    # (a flat optimum) newton-cg's last steps land 2.6e-7 apart on one machine
    np.testing.assert_allclose(ours.coef_, dense.coef_, atol=1e-6)
    np.testing.assert_allclose(ours.predict_proba(X), dense.predict_proba(X.toarray()),
                               atol=1e-6 if lbfgs else 1e-7)
    np.testing.assert_allclose(ours.predict_proba(X), theirs.predict_proba(X),
                               atol=1e-6 if lbfgs else 1e-8)


def test_logistic_sample_weight_and_unpenalised_summary():
    X, y = _data(2, 0.2, seed=1)
    w = np.random.default_rng(1).uniform(0.5, 2.0, X.shape[0])
    ours = LogisticRegression(tol=1e-10, max_iter=5000).fit(X, y, sample_weight=w)
    theirs = sk_linear.LogisticRegression(tol=1e-10, max_iter=5000).fit(X, y, sample_weight=w)
    np.testing.assert_allclose(ours.coef_, theirs.coef_, atol=1e-7)
    rng = np.random.default_rng(2)
    X = sp.csr_array(sp.random(400, 8, density=0.5, random_state=2, format="csr"))
    y = (X @ rng.normal(size=8) + rng.normal(size=400) > 0).astype(int)
    plain = _quiet_fit(LogisticRegression(penalty=None, max_iter=5000), X, y)
    table = plain.summary()
    dense = _quiet_fit(LogisticRegression(penalty=None, max_iter=5000), X.toarray(), y)
    np.testing.assert_allclose(np.asarray(table.std_err), np.asarray(dense.summary().std_err),
                               rtol=1e-6)


@pytest.mark.parametrize("n_classes", [2, 3])
@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("penalty", [{"penalty": "l1"}, {"penalty": "elasticnet", "l1_ratio": 0.5},
                                     {"penalty": "l2"}])
def test_logistic_newton_cd_sparse_matches_dense(n_classes, fit_intercept, penalty):
    # the quadratic models solved on the CSC columns (or the sparse Gram matrix)
    X, y = _data(n_classes, 0.1)
    kw = dict(solver="newton-cd", C=0.5, fit_intercept=fit_intercept, tol=1e-10,
              max_iter=500, **penalty)
    sparse = LogisticRegression(**kw).fit(X, y)
    dense = LogisticRegression(**kw).fit(X.toarray(), y)
    np.testing.assert_allclose(sparse.coef_, dense.coef_, rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(sparse.intercept_, dense.intercept_, rtol=1e-6, atol=1e-7)
    np.testing.assert_array_equal(sparse.predict(X), dense.predict(X.toarray()))


def test_logistic_newton_cd_sparse_many_features_uses_the_columns():
    rng = np.random.default_rng(5)
    X = sp.random(200, 2100, density=0.006, random_state=5, format="csr")
    y = (X @ rng.normal(size=2100) * 5 + rng.normal(size=200) > 0).astype(int)
    kw = dict(solver="newton-cd", penalty="l1", C=2.0, tol=1e-8, max_iter=500)
    sparse = LogisticRegression(**kw).fit(X, y)
    dense = LogisticRegression(**kw).fit(X.toarray(), y)
    np.testing.assert_allclose(sparse.coef_, dense.coef_, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("C", [0.05, 1.0, 20.0])
@pytest.mark.parametrize("weighted", [False, True])
def test_logistic_liblinear_l1_sparse_matches_dense_and_sklearn(fit_intercept, C, weighted):
    X, y = _data(2, 0.1)
    w = np.random.default_rng(3).uniform(0.5, 2.0, X.shape[0]) if weighted else None
    kw = dict(solver="liblinear", penalty="l1", C=C, fit_intercept=fit_intercept,
              intercept_scaling=2.0, tol=1e-10, max_iter=1000)
    before = (X.data.copy(), X.indices.copy(), X.indptr.copy())
    sparse = LogisticRegression(**kw).fit(X, y, sample_weight=w)
    dense = LogisticRegression(**kw).fit(X.toarray(), y, sample_weight=w)
    np.testing.assert_allclose(sparse.coef_, dense.coef_, rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(sparse.intercept_, dense.intercept_, rtol=1e-6, atol=1e-7)
    theirs = sk_linear.LogisticRegression(**kw).fit(X, y, sample_weight=w)
    np.testing.assert_allclose(sparse.coef_, theirs.coef_, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(sparse.intercept_, theirs.intercept_, rtol=1e-4, atol=1e-5)
    np.testing.assert_array_equal(sparse.coef_ == 0, theirs.coef_ == 0)
    for a, b in zip(before, (X.data, X.indices, X.indptr)):
        np.testing.assert_array_equal(a, b)


def test_logistic_liblinear_l1_sparse_many_features():
    # more features than a features x features matrix would hold comfortably
    rng = np.random.default_rng(4)
    X = sp.random(300, 20_000, density=0.002, random_state=4, format="csr")
    y = (X @ rng.normal(size=20_000) * 5 + rng.normal(size=300) > 0).astype(int)
    # a fixed random_state: with None, scikit-learn's liblinear draws its coordinate
    # order from numpy's global state, which the tests run before in the same process
    # set, and its coefficients then move by up to 1.3e-4
    kw = dict(solver="liblinear", penalty="l1", C=10.0, tol=1e-8, random_state=0)
    ours = LogisticRegression(**kw).fit(X, y)
    theirs = sk_linear.LogisticRegression(**kw).fit(X, y)
    np.testing.assert_allclose(ours.coef_, theirs.coef_, atol=1e-4)
    assert ours.score(X, y) == theirs.score(X, y)


@pytest.mark.parametrize("fit_intercept", [True, False])
def test_logistic_liblinear_l2_sparse_matches_dense_and_sklearn(fit_intercept):
    X, y = _data(2, 0.1)
    kw = dict(solver="liblinear", fit_intercept=fit_intercept, intercept_scaling=2.0)
    sparse = LogisticRegression(**kw).fit(X, y)
    dense = LogisticRegression(**kw).fit(X.toarray(), y)
    np.testing.assert_allclose(sparse.coef_, dense.coef_, rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(sparse.intercept_, dense.intercept_, rtol=1e-6, atol=1e-8)
    theirs = sk_linear.LogisticRegression(tol=1e-10, **kw).fit(X, y)
    ours = LogisticRegression(tol=1e-10, **kw).fit(X, y)
    np.testing.assert_allclose(ours.coef_, theirs.coef_, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("n_classes", [2, 3])
@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("loss", ["hinge", "squared_hinge"])
def test_linear_svc_matches_sklearn_and_dense(n_classes, fit_intercept, loss):
    X, y = _data(n_classes, 0.08)
    kw = dict(tol=1e-10, max_iter=100_000, fit_intercept=fit_intercept, C=0.7, loss=loss,
              dual=True)
    ours = _quiet_fit(LinearSVC(**kw), X, y)
    theirs = _quiet_fit(sk_svm.LinearSVC(**kw), X, y)
    dense = _quiet_fit(LinearSVC(**kw), X.toarray(), y)
    np.testing.assert_allclose(ours.coef_, theirs.coef_, atol=1e-8)
    np.testing.assert_allclose(ours.coef_, dense.coef_, atol=1e-8)
    np.testing.assert_allclose(ours.intercept_, theirs.intercept_, atol=1e-8)


def test_linear_svc_auto_dual_on_sparse_reaches_the_primal_optimum():
    X, y = _data(2, 0.1, n=400, p=30)  # more rows than columns: scikit-learn goes primal
    ours = LinearSVC(tol=1e-10, max_iter=100_000).fit(X, y)
    theirs = sk_svm.LinearSVC(tol=1e-10, max_iter=100_000).fit(X, y)
    np.testing.assert_allclose(ours.coef_, theirs.coef_, atol=1e-6)


@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("params, rtol", [
    ({"penalty": "l1", "dual": False}, 1e-4),
    ({"multi_class": "crammer_singer"}, 1e-5),
])
def test_linear_svc_l1_and_crammer_singer_sparse_equal_dense_and_sklearn(params, rtol,
                                                                         fit_intercept):
    X, y = _data(3, 0.1)
    kw = dict(params, fit_intercept=fit_intercept, random_state=0)
    sparse = LinearSVC(**kw).fit(X, y)
    dense = LinearSVC(**kw).fit(X.toarray(), y)
    np.testing.assert_allclose(sparse.coef_, dense.coef_, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(sparse.intercept_, dense.intercept_, rtol=1e-10, atol=1e-12)
    tight = dict(kw, tol=1e-10, max_iter=100_000)
    ours = LinearSVC(**tight).fit(X, y)
    theirs = sk_svm.LinearSVC(**tight).fit(X, y)
    np.testing.assert_allclose(ours.coef_, theirs.coef_, rtol=rtol, atol=rtol / 10)


@pytest.mark.parametrize("container", [sp.csr_matrix, sp.csc_matrix, sp.coo_matrix,
                                       sp.csr_array, sp.coo_array])
@pytest.mark.parametrize("cls", [LogisticRegression, LinearSVC], ids=lambda c: c.__name__)
def test_every_sparse_container_gives_the_same_model(container, cls):
    X, y = _data(3, 0.1)
    reference = _quiet_fit(cls(random_state=0), X, y)
    Xc = container(X)
    before = Xc.copy()
    est = _quiet_fit(cls(random_state=0), Xc, y)
    np.testing.assert_allclose(est.coef_, reference.coef_, rtol=1e-10, atol=1e-12)
    np.testing.assert_array_equal(est.predict(Xc), reference.predict(X))
    assert (abs(Xc - before)).sum() == 0  # the input is untouched


@pytest.mark.parametrize("shape", [(300, 40), (40, 300)])
@pytest.mark.parametrize("solver", ["auto", "sparse_cg", "lsqr", "cholesky"])
@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("weighted", [False, True])
def test_ridge_matches_sklearn_and_dense(shape, solver, fit_intercept, weighted):
    if solver == "cholesky" and fit_intercept:
        pytest.skip("refused, as in scikit-learn (next test)")
    n, p = shape
    rng = np.random.default_rng(0)
    X = sp.csr_array(sp.random(n, p, density=0.1, random_state=0, format="csr") * 3)
    y = X @ rng.normal(size=p) + rng.normal(size=n) + 2.0
    Y = np.column_stack([y, 2 * y + 1])
    w = rng.uniform(0.5, 2.0, n) if weighted else None
    kw = dict(alpha=1.5, solver=solver, fit_intercept=fit_intercept, tol=1e-12, max_iter=100_000)
    ours = Ridge(**kw).fit(X, Y, sample_weight=w)
    theirs = sk_linear.Ridge(**kw).fit(X, Y, sample_weight=w)
    dense = Ridge(**kw).fit(X.toarray(), Y, sample_weight=w)
    np.testing.assert_allclose(ours.coef_, theirs.coef_, atol=1e-9)
    np.testing.assert_allclose(ours.intercept_, theirs.intercept_, atol=1e-9)
    np.testing.assert_allclose(ours.coef_, dense.coef_, atol=1e-9)
    np.testing.assert_allclose(ours.predict(X), theirs.predict(X), atol=1e-8)


def test_ridge_refuses_what_scikit_learn_refuses_on_sparse_input():
    X, y = _data(2, 0.1)
    with pytest.raises(ValueError, match="does not support fitting the intercept on sparse"):
        Ridge(solver="cholesky").fit(X, y)
    with pytest.raises(TypeError, match="SVD solver does not support sparse"):
        Ridge(solver="svd").fit(X, y)
    with pytest.raises(ValueError, match="'saga' does not support fitting the intercept"):
        Ridge(solver="saga").fit(X, y)


@pytest.mark.parametrize("solver, fit_intercept", [("sag", True), ("sag", False),
                                                   ("saga", False)])
@pytest.mark.parametrize("weighted", [False, True])
def test_ridge_sag_on_sparse_matches_sklearn_and_dense(solver, fit_intercept, weighted):
    rng = np.random.default_rng(0)
    X = sp.csr_array(sp.random(300, 20, density=0.2, random_state=0, format="csr") * 3)
    y = X @ rng.normal(size=20) + rng.normal(size=300) + 2.0
    w = rng.uniform(0.5, 2.0, 300) if weighted else None
    kw = dict(alpha=1.5, solver=solver, fit_intercept=fit_intercept, tol=1e-10,
              max_iter=100_000, random_state=0)
    ours = Ridge(**kw).fit(X, y, sample_weight=w)
    # scikit-learn fits an intercept on sparse X by conjugate gradients here
    assert ours.solver_ == ("sparse_cg" if fit_intercept else solver)
    theirs = sk_linear.Ridge(**kw).fit(X, y, sample_weight=w)
    exact = Ridge(alpha=1.5, fit_intercept=fit_intercept).fit(X.toarray(), y, sample_weight=w)
    np.testing.assert_allclose(ours.coef_, exact.coef_, atol=1e-6)
    np.testing.assert_allclose(ours.intercept_, exact.intercept_, atol=1e-6)
    np.testing.assert_allclose(ours.coef_, theirs.coef_, atol=1e-6)
    np.testing.assert_allclose(ours.predict(X), theirs.predict(X), atol=1e-5)


@pytest.mark.parametrize("weighted", [False, True])
def test_ridge_sag_fits_a_sparse_intercept_only_as_sklearn_does(weighted):
    rng = np.random.default_rng(2)
    X = sp.csr_array(sp.random(300, 20, density=0.2, random_state=2, format="csr") * 3)
    y = X @ rng.normal(size=20) + rng.normal(size=300) + 2.0
    w = rng.uniform(0.5, 2.0, 300) if weighted else None
    kw = dict(alpha=1.5, solver="sag", tol=1e-3, random_state=0)
    with pytest.warns(UserWarning, match="requires many iterations"):
        ours = Ridge(**kw).fit(X, y, sample_weight=w)
    with pytest.warns(UserWarning, match="requires many iterations"):
        theirs = sk_linear.Ridge(**kw).fit(X, y, sample_weight=w)
    assert ours.solver_ == "sag"
    exact = Ridge(alpha=1.5).fit(X.toarray(), y, sample_weight=w)
    np.testing.assert_allclose(ours.coef_, exact.coef_, atol=0.05)
    np.testing.assert_allclose(ours.intercept_, exact.intercept_, atol=0.05)
    assert abs(ours.score(X, y) - theirs.score(X, y)) < 1e-3


@pytest.mark.parametrize("solver", ["auto", "lbfgs"])
@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("weighted", [False, True])
def test_positive_ridge_on_sparse_matches_sklearn_and_dense(solver, fit_intercept, weighted):
    rng = np.random.default_rng(1)
    X = sp.csr_array(sp.random(400, 30, density=0.2, random_state=1, format="csr") * 3)
    y = X @ rng.normal(size=30) + rng.normal(size=400) + 2.0
    Y = np.column_stack([y, -y + 1.0])
    w = rng.uniform(0.5, 2.0, 400) if weighted else None
    kw = dict(alpha=2.0, solver=solver, positive=True, fit_intercept=fit_intercept, tol=1e-12)
    ours = Ridge(**kw).fit(X, Y, sample_weight=w)
    assert ours.solver_ == "lbfgs"
    theirs = sk_linear.Ridge(**kw).fit(X, Y, sample_weight=w)
    exact = Ridge(alpha=2.0, positive=True, fit_intercept=fit_intercept).fit(
        X.toarray(), Y, sample_weight=w)
    assert np.all(ours.coef_ >= 0)
    np.testing.assert_allclose(ours.coef_, exact.coef_, atol=1e-4)
    np.testing.assert_allclose(ours.coef_, theirs.coef_, atol=1e-4)
    np.testing.assert_allclose(ours.intercept_, theirs.intercept_, atol=1e-3)
    np.testing.assert_array_equal(ours.coef_ == 0, theirs.coef_ == 0)


@pytest.mark.parametrize("shape", [(300, 40), (60, 200)])
@pytest.mark.parametrize("model", ["lasso", "enet"])
@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("weighted", [False, True])
def test_coordinate_descent_matches_sklearn_and_dense(shape, model, fit_intercept, weighted):
    n, p = shape
    rng = np.random.default_rng(0)
    X = sp.csr_array(sp.random(n, p, density=0.1, random_state=0, format="csr") * 3)
    y = X @ rng.normal(size=p) + rng.normal(size=n) + 2.0
    w = rng.uniform(0.5, 2.0, n) if weighted else None
    kw = dict(alpha=0.05, fit_intercept=fit_intercept, tol=1e-10, max_iter=100_000)
    ours_cls, their_cls = (Lasso, sk_linear.Lasso) if model == "lasso" else (
        ElasticNet, sk_linear.ElasticNet)
    if model == "enet":
        kw["l1_ratio"] = 0.3
    ours = ours_cls(**kw).fit(X, y, sample_weight=w)
    theirs = their_cls(**kw).fit(X, y, sample_weight=w)
    dense = ours_cls(**kw).fit(X.toarray(), y, sample_weight=w)
    np.testing.assert_allclose(ours.coef_, theirs.coef_, atol=1e-9)
    np.testing.assert_allclose(ours.intercept_, theirs.intercept_, atol=1e-9)
    np.testing.assert_allclose(ours.coef_, dense.coef_, atol=1e-8)
    np.testing.assert_allclose(ours.predict(X), theirs.predict(X), atol=1e-8)


def test_coordinate_descent_on_a_large_mean_keeps_its_precision():
    # centring is implicit: a column mean of 1e4 must not cost the fit its digits
    rng = np.random.default_rng(3)
    X = sp.random(200, 10, density=0.9, random_state=3, format="csc") * 3
    X.data += 1e4
    y = X @ rng.normal(size=10) + rng.normal(size=200)
    ours = Lasso(alpha=0.01, tol=1e-12, max_iter=100_000).fit(X, y)
    dense = Lasso(alpha=0.01, tol=1e-12, max_iter=100_000).fit(X.toarray(), y)
    np.testing.assert_allclose(ours.coef_, dense.coef_, rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("path", ["lasso", "enet"])
def test_paths_match_sklearn_on_sparse_input(path):
    rng = np.random.default_rng(0)
    X = sp.csr_array(sp.random(60, 200, density=0.1, random_state=0) * 3)
    y = X @ rng.normal(size=200) + rng.normal(size=60)
    kw = dict(n_alphas=10, tol=1e-12, max_iter=100_000)
    if path == "lasso":
        ours, theirs = lasso_path(X, y, **kw), sk_linear.lasso_path(X, y, **kw)
    else:
        ours = enet_path(X, y, l1_ratio=0.4, **kw)
        theirs = sk_linear.enet_path(X, y, l1_ratio=0.4, **kw)
    np.testing.assert_allclose(ours[0], theirs[0], rtol=1e-12)
    np.testing.assert_allclose(ours[1], theirs[1], atol=1e-8)


@pytest.mark.parametrize("shape", [(300, 40), (60, 200)])
@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("weighted", [False, True])
def test_linear_regression_matches_sklearn(shape, fit_intercept, weighted):
    n, p = shape
    rng = np.random.default_rng(0)
    X = sp.csr_array(sp.random(n, p, density=0.1, random_state=0, format="csr") * 3)
    y = X @ rng.normal(size=p) + rng.normal(size=n) + 2.0
    Y = np.column_stack([y, 2 * y])
    w = rng.uniform(0.5, 2.0, n) if weighted else None
    ours = LinearRegression(fit_intercept=fit_intercept).fit(X, Y, sample_weight=w)
    theirs = sk_linear.LinearRegression(fit_intercept=fit_intercept).fit(X, Y, sample_weight=w)
    # both run LSQR to atol = btol = 1e-6
    np.testing.assert_allclose(ours.coef_, theirs.coef_, atol=1e-6)
    np.testing.assert_allclose(ours.predict(X), theirs.predict(X), atol=1e-5)
    with pytest.raises(TypeError, match="sparse input"):
        LinearRegression(positive=True).fit(X, y)


def test_logistic_liblinear_l2_sparse_columns_in_parallel_give_the_same_model():
    """From PARALLEL_ENTRIES stored entries TRON's X'u runs by CSC columns on numba's
    threads: the same sums in the same order as the rows' scatter on one thread."""
    from classiclearn._kernels.tron import PARALLEL_ENTRIES
    from classiclearn.utils._threads import numba_threads

    rng = np.random.default_rng(7)
    X = sp.random(3000, 400, density=0.12, format="csr", random_state=7)
    assert X.nnz >= PARALLEL_ENTRIES
    y = (X @ rng.normal(size=400) + 0.1 * rng.normal(size=3000) > 0).astype(int)
    threaded = LogisticRegression(solver="liblinear", C=10.0).fit(X, y)
    with numba_threads(1):
        serial = LogisticRegression(solver="liblinear", C=10.0).fit(X, y)
    np.testing.assert_array_equal(threaded.coef_, serial.coef_)
    np.testing.assert_array_equal(threaded.intercept_, serial.intercept_)
    assert threaded.n_iter_[0] == serial.n_iter_[0]
