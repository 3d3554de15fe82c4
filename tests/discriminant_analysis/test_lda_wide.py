"""LinearDiscriminantAnalysis with no more rows than features: the residuals' SVD alone."""

import numpy as np
import pytest
from numpy.testing import assert_allclose
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
