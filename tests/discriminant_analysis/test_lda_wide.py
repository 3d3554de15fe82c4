"""LinearDiscriminantAnalysis with no more rows than features: the residuals' SVD alone."""

import numpy as np
import pytest
from numpy.testing import assert_allclose
from sklearn import discriminant_analysis as sk_da

from classiclearn.discriminant_analysis import LinearDiscriminantAnalysis


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
