"""LinearDiscriminantAnalysis with no more rows than features: the residuals' SVD alone."""

import numpy as np
import pytest
from numpy.testing import assert_allclose
from scipy import linalg
from sklearn import discriminant_analysis as sk_da

from classiclearn.discriminant_analysis import LinearDiscriminantAnalysis, _lda


@pytest.mark.parametrize("n_classes", [2, 3])
@pytest.mark.parametrize("shape", [(40, 60), (50, 50), (30, 200)])
def test_wide_svd_matches_sklearn_and_the_scatter_route(monkeypatch, n_classes, shape):
    rng = np.random.default_rng(n_classes)
    n, p = shape
    y = np.arange(n) % n_classes
    X = rng.normal(size=(n, p)) + y[:, None] * rng.normal(size=p) * 0.5
    X[:, 3] = 0.0  # a constant feature
    ours = LinearDiscriminantAnalysis().fit(X, y)
    theirs = sk_da.LinearDiscriminantAnalysis().fit(X, y)
    Q = rng.normal(size=(25, p))
    assert_allclose(ours.decision_function(Q), theirs.decision_function(Q), rtol=1e-7,
                    atol=1e-8)
    assert_allclose(ours.predict_proba(Q), theirs.predict_proba(Q), atol=1e-9)
    assert_allclose(ours.explained_variance_ratio_, theirs.explained_variance_ratio_,
                    rtol=1e-8, atol=1e-12)
    monkeypatch.setattr(LinearDiscriminantAnalysis, "_residual_svd_only",
                        lambda self, n, p: False)
    scatter_route = LinearDiscriminantAnalysis().fit(X, y)
    assert_allclose(ours.coef_, scatter_route.coef_, rtol=1e-10, atol=1e-12)
    assert_allclose(ours.intercept_, scatter_route.intercept_, rtol=1e-10, atol=1e-12)
    stored = LinearDiscriminantAnalysis(store_covariance=True).fit(X, y)
    assert stored.covariance_.shape == (p, p)


@pytest.mark.parametrize("near_collinear", [False, True])
def test_wide_residuals_from_the_row_gram_or_the_svd(svd_calls, near_collinear):
    # the n x n Gram matrix of the residuals gives their spectrum unless a singular value
    # lies where the squared scale cannot place it against tol: then LAPACK's SVD
    rng = np.random.default_rng(7)
    n, p = 60, 150
    y = np.arange(n) % 3
    X = rng.normal(size=(n, p)) + y[:, None] * rng.normal(size=p)
    if near_collinear:
        X[3] = X[0] + 3e-4 * rng.normal(size=p)  # one class: a singular value near tol
    calls = svd_calls(_lda)
    ours = LinearDiscriminantAnalysis().fit(X, y)
    assert [shape for shape in calls if shape == (n, p)] == ([(n, p)] if near_collinear else [])
    theirs = sk_da.LinearDiscriminantAnalysis().fit(X, y)
    Q = rng.normal(size=(25, p))
    assert_allclose(ours.decision_function(Q), theirs.decision_function(Q), rtol=1e-7,
                    atol=1e-8)
    assert_allclose(np.abs(ours.transform(Q)), np.abs(theirs.transform(Q)), rtol=1e-7,
                    atol=1e-8)
    assert_allclose(ours.explained_variance_ratio_, theirs.explained_variance_ratio_,
                    rtol=1e-8, atol=1e-12)


@pytest.mark.parametrize("shrinkage", ["auto", 0.4])
@pytest.mark.parametrize("shape", [(60, 90), (300, 40)])
def test_eigen_shrunk_matches_sklearn_wide_and_tall(shrinkage, shape):
    # the eigen solver from the Cholesky factor of the conditioning test (sygst + evd)
    # and the Ledoit-Wolf shrinkage in the data's units, against scikit-learn's eigh(Sb, Sw)
    rng = np.random.default_rng(11)
    n, p = shape
    y = np.arange(n) % 3
    X = rng.normal(size=(n, p)) * rng.uniform(0.1, 5.0, p) + y[:, None] * rng.normal(size=p)
    ours = LinearDiscriminantAnalysis(solver="eigen", shrinkage=shrinkage).fit(X, y)
    theirs = sk_da.LinearDiscriminantAnalysis(solver="eigen", shrinkage=shrinkage).fit(X, y)
    assert_allclose(ours.covariance_, theirs.covariance_, rtol=1e-9, atol=1e-12)
    assert_allclose(ours.coef_, theirs.coef_, rtol=1e-7, atol=1e-9)
    assert_allclose(ours.intercept_, theirs.intercept_, rtol=1e-7, atol=1e-9)
    assert_allclose(ours.explained_variance_ratio_, theirs.explained_variance_ratio_,
                    rtol=1e-8, atol=1e-12)
    Q = rng.normal(size=(20, p))
    t_ours, t_theirs = ours.transform(Q), theirs.transform(Q)
    signs = np.sign(np.sum(t_ours * t_theirs, axis=0))
    assert_allclose(t_ours * signs, t_theirs, rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("p", [1, 7, 64])
def test_generalized_eigh_is_scipys_eigh_of_the_pair(p):
    rng = np.random.default_rng(p)
    B = rng.normal(size=(p + 3, p))
    Sw = B.T @ B / (p + 3) + 0.1 * np.eye(p)
    M = rng.normal(size=(4, p))
    Sb = M.T @ M
    L = _lda._definite_cholesky(Sw)
    assert L is not None
    w, V = _lda._generalized_eigh(Sb, L)
    w_ref, V_ref = linalg.eigh(Sb, Sw)
    assert_allclose(w, w_ref, rtol=1e-10, atol=1e-10)
    assert_allclose(np.abs(V), np.abs(V_ref), rtol=1e-8, atol=1e-9)
    assert_allclose(V.T @ Sw @ V, np.eye(p), atol=1e-9)


def test_definite_cholesky_refuses_a_singular_matrix():
    A = np.ones((3, 3))
    assert _lda._definite_cholesky(A) is None
    assert _lda._definite_cholesky(np.diag([1.0, 1e-17, 2.0])) is None
