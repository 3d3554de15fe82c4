"""PCA's exact solver on X with no more rows than columns: the rows' Gram matrix (with
the components of no variance completed), the SVD where that route is not reliable."""

import numpy as np
import pytest
from numpy.testing import assert_allclose

from classiclearn.decomposition import PCA, _pca

sk_dec = pytest.importorskip("sklearn.decomposition")


def _same_up_to_sign(a, b, atol):
    signs = np.sign((a * b).sum(axis=1, keepdims=True))
    assert_allclose(a * signs, b, atol=atol, rtol=0)


def _wide(seed, n, p, rank=None):
    rng = np.random.default_rng(seed)
    k = min(n, p) if rank is None else rank
    scales = np.geomspace(5.0, 0.5, k)
    return (rng.normal(size=(n, k)) * scales) @ rng.normal(size=(k, p)) / np.sqrt(p) + 2.0


def _check_parity(ours, theirs, X, n_compared):
    k = n_compared
    _same_up_to_sign(ours.components_[:k], theirs.components_[:k], 1e-8)
    assert_allclose(ours.explained_variance_[:k], theirs.explained_variance_[:k], rtol=1e-9)
    assert_allclose(ours.explained_variance_ratio_[:k], theirs.explained_variance_ratio_[:k],
                    rtol=1e-9)
    assert_allclose(ours.singular_values_[:k], theirs.singular_values_[:k], rtol=1e-9)
    assert_allclose(ours.noise_variance_, theirs.noise_variance_, rtol=1e-7, atol=1e-12)
    _same_up_to_sign(ours.transform(X)[:, :k].T, theirs.transform(X)[:, :k].T, 1e-7)


@pytest.mark.parametrize("n_components", [None, 0.9, 12, 59])
@pytest.mark.parametrize("whiten", [False, True])
def test_wide_x_from_the_row_gram_matches_sklearn(svd_calls, n_components, whiten):
    X = _wide(0, 60, 150)
    calls = svd_calls(_pca)
    ours = PCA(n_components, whiten=whiten, svd_solver="full").fit(X)
    assert (60, 150) not in calls  # no SVD of X
    theirs = sk_dec.PCA(n_components, whiten=whiten, svd_solver="full").fit(X)
    assert ours.n_components_ == theirs.n_components_
    # the 60th component of 60 centred rows has no variance: its direction is arbitrary
    _check_parity(ours, theirs, X, min(ours.n_components_, 59))
    C = ours.components_
    assert_allclose(C @ C.T, np.eye(ours.n_components_), atol=1e-10)


def test_rank_deficient_rows_complete_the_components(svd_calls):
    X = _wide(1, 50, 200, rank=8)
    calls = svd_calls(_pca)
    ours = PCA(svd_solver="full").fit(X)
    assert (50, 200) not in calls
    theirs = sk_dec.PCA(svd_solver="full").fit(X)
    assert ours.n_components_ == 50
    _check_parity(ours, theirs, X, 8)
    C = ours.components_
    assert_allclose(C @ C.T, np.eye(50), atol=1e-10)
    # the completed directions carry (almost) no variance, as the SVD's do
    top = ours.explained_variance_[0]
    assert np.all(ours.explained_variance_[8:] <= 1e-20 * top + 1e-300)
    assert np.all(np.diff(ours.explained_variance_) <= 0)
    assert_allclose(ours.explained_variance_[8:], theirs.explained_variance_[8:], atol=1e-20 * top)


def test_unreliable_spectrum_and_square_x_take_the_svd(svd_calls):
    rng = np.random.default_rng(2)
    # singular values down to 1e-6 of the largest: squared, below what the route trusts
    U = np.linalg.qr(rng.normal(size=(40, 40)))[0]
    V = np.linalg.qr(rng.normal(size=(120, 40)))[0]
    X = (U * np.geomspace(1.0, 1e-6, 40)) @ V.T
    calls = svd_calls(_pca)
    ours = PCA(svd_solver="full").fit(X)
    assert (40, 120) in calls
    theirs = sk_dec.PCA(svd_solver="full").fit(X)
    _check_parity(ours, theirs, X, 30)
    # every component of a square X: the SVD directly (random rows leave the smallest
    # eigenvalues too small for the route)
    calls.clear()
    PCA(svd_solver="full").fit(rng.normal(size=(50, 55)))
    assert calls == [(50, 55)]
