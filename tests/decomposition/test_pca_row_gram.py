"""PCA's exact solver on X with no more rows than columns: the rows' Gram matrix (with
the components of no variance completed), the SVD where that route is not reliable."""

import functools

import numpy as np
import pytest
from numpy.testing import assert_allclose

from classiclearn.decomposition import PCA, _pca
from signs import assert_same_up_to_sign  # noqa: E402

sk_dec = pytest.importorskip("sklearn.decomposition")


_same_up_to_sign = functools.partial(assert_same_up_to_sign, axis=1)


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


def _randomized_both_routes(monkeypatch, X, n_components, **params):
    """The randomized solver's fit on the rows' Gram matrix and on X itself."""
    fits = {}
    for on_row_gram in (True, False):
        monkeypatch.setattr(_pca, "_randomized_on_row_gram", lambda *args, v=on_row_gram: v)
        fits[on_row_gram] = PCA(n_components, svd_solver="randomized", random_state=0,
                                **params).fit(X)
    return fits[True], fits[False]


@pytest.mark.parametrize("normalizer", ["LU", "QR", "none", "auto"])
@pytest.mark.parametrize("n_iter", [1, 4])
def test_randomized_on_the_row_gram_matches_the_data_route_and_the_svd(
        monkeypatch, normalizer, n_iter):
    X = _wide(3, 80, 300, rank=12) + np.linspace(-4.0, 9.0, 300)  # an offset mean
    on_gram, on_data = _randomized_both_routes(
        monkeypatch, X, 6, power_iteration_normalizer=normalizer, iterated_power=n_iter)
    exact = sk_dec.PCA(6, svd_solver="full").fit(X)
    # a sketch of 16 columns holds the 12-dimensional range whole: both routes find the
    # top six components to the exact SVD's accuracy, whatever the iterations
    for fit in (on_gram, on_data):
        _same_up_to_sign(fit.components_, exact.components_, 1e-6)
        assert_allclose(fit.explained_variance_, exact.explained_variance_, rtol=1e-9)
        assert_allclose(fit.explained_variance_ratio_, exact.explained_variance_ratio_,
                        rtol=1e-9)
        assert_allclose(fit.noise_variance_, exact.noise_variance_, rtol=1e-7)
    C = on_gram.components_
    assert_allclose(C @ C.T, np.eye(6), atol=1e-12)
    _same_up_to_sign(on_gram.transform(X).T, exact.transform(X).T, 1e-5)


def test_randomized_on_the_row_gram_matches_sklearn_on_a_full_spectrum(monkeypatch):
    rng = np.random.default_rng(4)
    X = rng.normal(size=(120, 400)) * np.geomspace(4.0, 0.2, 400) + 1.5
    on_gram, on_data = _randomized_both_routes(monkeypatch, X, 10)
    theirs = sk_dec.PCA(10, svd_solver="randomized", random_state=0).fit(X)
    # approximate on a flat spectrum: the routes agree with each other and scikit-learn
    # at the level the sketch gives (the same subspace, normalised differently)
    for fit in (on_gram, theirs):
        assert_allclose(fit.explained_variance_, on_data.explained_variance_, rtol=1e-2)
        assert_allclose(np.abs((fit.components_ * on_data.components_).sum(axis=1))[:5], 1.0,
                        atol=5e-2)
    assert on_gram.n_components_ == theirs.n_components_ == 10


def test_randomized_row_gram_route_is_taken_for_wide_x_only(monkeypatch):
    calls = []
    route = _pca._randomized_on_row_gram_components
    monkeypatch.setattr(_pca, "_randomized_on_row_gram_components",
                        lambda *args: calls.append(args[0].shape) or route(*args))
    X = _wide(5, 100, 400)
    before = X.copy()
    PCA(5, svd_solver="randomized", random_state=0).fit(X)
    assert calls == [(100, 400)]
    assert_allclose(X, before, rtol=0, atol=0)  # X is not centred in place
    calls.clear()
    PCA(5, svd_solver="randomized", random_state=0).fit(_wide(5, 400, 100))
    assert calls == []
    # many rows against a thin sketch: the data route's products are cheaper
    assert not _pca._randomized_on_row_gram(2000, 5000, 40, 7)
    assert _pca._randomized_on_row_gram(300, 1000, 20, 7)
    assert not _pca._randomized_on_row_gram(300, 200, 20, 7)
