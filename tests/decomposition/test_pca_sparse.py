"""PCA on scipy sparse input: the solvers scikit-learn allows ('arpack', also
for 'auto', and 'covariance_eigh') with implicit centring; parity with
scikit-learn up to sign, sparse vs dense agreement, refusal of the others."""

import numpy as np
import pytest
import scipy.sparse as sp

from classiclearn.decomposition import PCA

sk_decomposition = pytest.importorskip("sklearn.decomposition")


def _data(seed=0):
    rng = np.random.RandomState(seed)
    X = sp.random(400, 60, density=0.1, random_state=rng, format="csr")
    X_test = sp.random(30, 60, density=0.1, random_state=rng, format="csr")
    return X, X_test


def _match_signs(A, B):
    signs = np.sign((A * B).sum(axis=0))
    signs[signs == 0] = 1.0
    return B * signs


@pytest.mark.parametrize("solver,n_components", [
    ("arpack", 5), ("auto", 4), ("covariance_eigh", 5), ("covariance_eigh", None),
    ("covariance_eigh", 0.8),
])
@pytest.mark.parametrize("fmt", ["csr", "csc"])
def test_pca_sparse_matches_sklearn(solver, n_components, fmt):
    X, X_test = _data()
    X, X_test = X.asformat(fmt), X_test.asformat(fmt)
    before = (X.data.copy(), X.indices.copy(), X.indptr.copy())
    kw = {"n_components": n_components, "svd_solver": solver, "random_state": 0}
    ours = PCA(**kw).fit(X)
    ref = sk_decomposition.PCA(**kw).fit(X)
    assert ours._fit_svd_solver == ref._fit_svd_solver
    assert ours.n_components_ == ref.n_components_
    np.testing.assert_allclose(ours.mean_, ref.mean_, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(ours.explained_variance_, ref.explained_variance_, rtol=1e-9)
    np.testing.assert_allclose(ours.explained_variance_ratio_, ref.explained_variance_ratio_,
                               rtol=1e-9)
    np.testing.assert_allclose(ours.noise_variance_, ref.noise_variance_, rtol=1e-9, atol=1e-15)
    t_ref = ref.transform(X_test)
    t_ours = ours.transform(X_test)
    assert isinstance(t_ours, np.ndarray)
    np.testing.assert_allclose(_match_signs(t_ref, t_ours), t_ref, rtol=1e-7, atol=1e-10)
    np.testing.assert_allclose(ours.fit_transform(X), ours.transform(X), atol=1e-12)
    for a, b in zip(before, (X.data, X.indices, X.indptr)):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("solver", ["arpack", "covariance_eigh"])
def test_pca_sparse_and_dense_agree(solver):
    X, X_test = _data(seed=1)
    sparse_fit = PCA(5, svd_solver=solver, random_state=0).fit(X)
    dense_fit = PCA(5, svd_solver=solver, random_state=0).fit(X.toarray())
    np.testing.assert_allclose(sparse_fit.explained_variance_, dense_fit.explained_variance_,
                               rtol=1e-9)
    t_dense = dense_fit.transform(X_test.toarray())
    np.testing.assert_allclose(_match_signs(t_dense, sparse_fit.transform(X_test)), t_dense,
                               rtol=1e-7, atol=1e-10)
    # a dense fit projects sparse rows too
    np.testing.assert_allclose(dense_fit.transform(X_test), t_dense, atol=1e-12)


@pytest.mark.parametrize("solver", ["full", "randomized"])
def test_pca_sparse_other_solvers_refused(solver):
    X, _ = _data()
    with pytest.raises(TypeError, match='only support sparse inputs with the "arpack"'):
        PCA(3, svd_solver=solver).fit(X)



@pytest.mark.parametrize("n_components", [None, 20, 79, 3])
@pytest.mark.parametrize("fmt", ["csr", "csc"])
def test_pca_auto_on_wide_sparse_x_matches_sklearns_arpack(n_components, fmt, monkeypatch):
    """More columns than rows: 'auto' takes the rows' centred Gram matrix when much of
    the rank is asked for (exact, where ARPACK iterates); the result is scikit-learn's."""
    from classiclearn.decomposition import _pca

    calls = []
    route = _pca._components_from_row_gram
    monkeypatch.setattr(_pca, "_components_from_row_gram",
                        lambda *args: calls.append(args[2]) or route(*args))
    rng = np.random.RandomState(3)
    X = sp.random(80, 600, density=0.05, random_state=rng, format=fmt)
    X_test = sp.random(10, 600, density=0.05, random_state=rng, format=fmt)
    kw = {"n_components": n_components, "random_state": 0}
    ours = PCA(**kw).fit(X)
    ref = sk_decomposition.PCA(**kw).fit(X)
    assert calls == ([] if n_components == 3 else [ours.n_components_])
    assert ours.n_components_ == ref.n_components_
    np.testing.assert_allclose(ours.explained_variance_, ref.explained_variance_, rtol=1e-9)
    np.testing.assert_allclose(ours.singular_values_, ref.singular_values_, rtol=1e-9)
    # all of the rank kept: the rest of the variance is round-off on either side
    np.testing.assert_allclose(ours.noise_variance_, ref.noise_variance_, rtol=1e-9,
                               atol=1e-12 * ref.explained_variance_[0])
    np.testing.assert_allclose(np.abs(ours.components_ @ ref.components_.T),
                               np.eye(ours.n_components_), atol=1e-7)
    t_ref = ref.transform(X_test)
    np.testing.assert_allclose(_match_signs(t_ref, ours.transform(X_test)), t_ref,
                               rtol=1e-7, atol=1e-9)


def test_pca_row_gram_gives_way_to_arpack_on_rank_deficient_rows(monkeypatch):
    """Repeated rows leave the centred Gram matrix singular: the kept components would
    include null directions, so the fit runs ARPACK on X as scikit-learn does."""
    from classiclearn.decomposition import _pca

    results = []
    route = _pca._components_from_row_gram
    monkeypatch.setattr(_pca, "_components_from_row_gram",
                        lambda *args: results.append(route(*args)) or results[-1])
    rng = np.random.RandomState(4)
    half = sp.random(30, 400, density=0.05, random_state=rng, format="csr")
    X = sp.vstack([half, half], format="csr")  # rank 30 at most, 59 components asked
    ours = PCA(random_state=0).fit(X)
    ref = sk_decomposition.PCA(random_state=0).fit(X)
    assert results == [None]
    np.testing.assert_allclose(ours.explained_variance_[:25], ref.explained_variance_[:25],
                               rtol=1e-8)


def test_pca_row_gram_is_left_to_arpack_on_dense_columns(monkeypatch):
    """Columns holding most rows make the product X X' cost more than ARPACK's passes."""
    from classiclearn.decomposition import _pca

    calls = []
    monkeypatch.setattr(_pca, "_components_from_row_gram", lambda *args: calls.append(1))
    rng = np.random.RandomState(5)
    X = sp.random(60, 400, density=0.9, random_state=rng, format="csr")
    ours = PCA(10, random_state=0).fit(X)
    ref = sk_decomposition.PCA(10, random_state=0).fit(X)
    assert calls == []
    np.testing.assert_allclose(ours.explained_variance_, ref.explained_variance_, rtol=1e-9)
