"""Full mixtures of many features run their passes on BLAS: the same model as the kernels'."""

import numpy as np
import pytest
from numpy.testing import assert_allclose

from classiclearn.mixture import GaussianMixture, _gmm_blas


@pytest.mark.parametrize("covariance_type", ["full", "tied"])
@pytest.mark.parametrize("init_params", ["kmeans", "random", "k-means++"])
def test_blas_passes_equal_the_kernels(monkeypatch, covariance_type, init_params):
    rng = np.random.default_rng(0)
    X = np.vstack([rng.normal(size=(120, 12)) + shift for shift in (0.0, 3.0, -2.0)])
    params = dict(n_components=3, covariance_type=covariance_type, init_params=init_params,
                  random_state=0, max_iter=30)
    monkeypatch.setattr(_gmm_blas, "BLAS_FULL_FEATURES", 10**9)
    monkeypatch.setattr(_gmm_blas, "BLAS_FEW_ROWS_FEATURES", 10**9)
    monkeypatch.setattr(_gmm_blas, "BLAS_TIED_FEATURES", 10**9)
    kernels = GaussianMixture(**params).fit(X)
    monkeypatch.setattr(_gmm_blas, "BLAS_FULL_FEATURES", 1)
    monkeypatch.setattr(_gmm_blas, "BLAS_TIED_FEATURES", 1)
    blas = GaussianMixture(**params).fit(X)
    assert blas.n_iter_ == kernels.n_iter_
    assert_allclose(blas.weights_, kernels.weights_, rtol=1e-9)
    assert_allclose(blas.means_, kernels.means_, rtol=1e-9, atol=1e-10)
    assert_allclose(blas.covariances_, kernels.covariances_, rtol=1e-8, atol=1e-10)
    assert_allclose(blas.lower_bound_, kernels.lower_bound_, rtol=1e-10)
    Q = rng.normal(size=(50, 12))
    assert_allclose(blas.score_samples(Q), kernels.score_samples(Q), rtol=1e-10)
    assert_allclose(blas.predict_proba(Q), kernels.predict_proba(Q), atol=1e-10)
    np.testing.assert_array_equal(blas.predict(Q), kernels.predict(Q))


def test_many_features_matches_sklearn():
    from sklearn.mixture import GaussianMixture as SkGaussianMixture

    rng = np.random.default_rng(1)
    p = _gmm_blas.BLAS_FULL_FEATURES
    X = np.vstack([rng.normal(size=(3 * p, p)), rng.normal(size=(3 * p, p)) + 1.0])
    ours = GaussianMixture(2, random_state=0).fit(X)
    theirs = SkGaussianMixture(2, random_state=0).fit(X)
    assert ours.n_iter_ == theirs.n_iter_
    assert_allclose(ours.lower_bound_, theirs.lower_bound_, rtol=1e-9)
    assert_allclose(ours.means_, theirs.means_, atol=1e-8)
    assert_allclose(ours.score_samples(X[:20]), theirs.score_samples(X[:20]), rtol=1e-9)


@pytest.mark.parametrize("n_rows, expect_blas", [(240, True), (2000, False)])
def test_few_rows_per_feature_take_blas_and_match_sklearn(n_rows, expect_blas):
    from sklearn.mixture import GaussianMixture as SkGaussianMixture

    p = _gmm_blas.BLAS_FEW_ROWS_FEATURES
    assert _gmm_blas.uses_blas(True, n_rows, p) is expect_blas
    rng = np.random.default_rng(2)
    half = n_rows // 2
    X = np.vstack([rng.normal(size=(half, p)), rng.normal(size=(half, p)) + 1.5])
    ours = GaussianMixture(2, random_state=0, reg_covar=1e-3).fit(X)
    theirs = SkGaussianMixture(2, random_state=0, reg_covar=1e-3).fit(X)
    assert ours.n_iter_ == theirs.n_iter_
    assert_allclose(ours.lower_bound_, theirs.lower_bound_, rtol=1e-9)
    assert_allclose(ours.means_, theirs.means_, atol=1e-8)
    assert_allclose(ours.predict_proba(X[:20]), theirs.predict_proba(X[:20]), atol=1e-8)
