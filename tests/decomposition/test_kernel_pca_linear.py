"""KernelPCA's linear kernel on X with at most half as many columns as rows: the
eigenpairs of the centred kernel from the thin SVD of the centred X, never forming the
n x n kernel; checked against scikit-learn's eigendecomposition of the kernel."""

import numpy as np
import pytest
from numpy.testing import assert_allclose

from classiclearn.decomposition import KernelPCA

sk_dec = pytest.importorskip("sklearn.decomposition")


def _same_up_to_sign(a, b, atol):
    signs = np.sign((a * b).sum(axis=0, keepdims=True))
    assert_allclose(a * signs, b, atol=atol, rtol=0)


def _tall(seed, n, p, rank=None):
    rng = np.random.default_rng(seed)
    k = p if rank is None else rank
    scales = np.geomspace(6.0, 0.3, k)
    X = (rng.normal(size=(n, k)) * scales) @ rng.normal(size=(k, p))
    return X + np.linspace(-3.0, 8.0, p)  # an offset mean the centring removes


@pytest.fixture
def no_kernel(monkeypatch):
    """Fails any fit that forms the n x n kernel (transform's n_query x n is allowed)."""
    real = KernelPCA._get_kernel

    def guarded(self, X, Y=None):
        assert Y is not None, "the training kernel was formed"
        return real(self, X, Y)

    monkeypatch.setattr(KernelPCA, "_get_kernel", guarded)


@pytest.mark.parametrize("n_components", [None, 1, 4, 12])
@pytest.mark.parametrize("shape", [(60, 12), (400, 12), (1500, 30)])
def test_linear_kernel_from_the_svd_matches_sklearn(no_kernel, n_components, shape):
    X = _tall(0, *shape)
    Xt = _tall(1, 40, shape[1]) * 1.1
    ours = KernelPCA(n_components).fit(X)
    theirs = sk_dec.KernelPCA(n_components).fit(X)
    assert ours.eigenvalues_.shape == theirs.eigenvalues_.shape
    assert_allclose(ours.eigenvalues_, theirs.eigenvalues_, rtol=1e-9)
    _same_up_to_sign(ours.eigenvectors_, theirs.eigenvectors_, 1e-8)
    # the signs follow scikit-learn's rule, not only up to sign
    assert_allclose(ours.eigenvectors_, theirs.eigenvectors_, atol=1e-8, rtol=0)
    scale = np.abs(theirs.transform(Xt)).max()
    assert_allclose(ours.transform(Xt), theirs.transform(Xt), atol=1e-9 * scale, rtol=0)
    assert_allclose(KernelPCA(n_components).fit_transform(X), theirs.fit_transform(X),
                    atol=1e-9 * scale, rtol=0)


@pytest.mark.parametrize("remove_zero_eig", [False, True])
@pytest.mark.parametrize("n_components", [None, 6])
def test_rank_deficient_x_drops_or_keeps_the_zero_eigenvalues(no_kernel, remove_zero_eig,
                                                              n_components):
    X = _tall(2, 300, 10, rank=4)  # 10 columns of rank 4
    Xt = _tall(3, 20, 10, rank=4)
    ours = KernelPCA(n_components, remove_zero_eig=remove_zero_eig).fit(X)
    theirs = sk_dec.KernelPCA(n_components, remove_zero_eig=remove_zero_eig).fit(X)
    assert ours.eigenvalues_.shape == theirs.eigenvalues_.shape
    expected = 4 if (remove_zero_eig or n_components is None) else 6
    assert ours.eigenvalues_.shape == (expected,)
    top = theirs.eigenvalues_[0]
    assert_allclose(ours.eigenvalues_, theirs.eigenvalues_, rtol=1e-9, atol=1e-12 * top)
    _same_up_to_sign(ours.eigenvectors_[:, :4], theirs.eigenvectors_[:, :4], 1e-8)
    # the directions of no variance are orthonormal and project to zero, as theirs
    E = ours.eigenvectors_
    assert_allclose(E.T @ E, np.eye(expected), atol=1e-10)
    scale = np.abs(theirs.transform(Xt)).max()
    assert_allclose(ours.transform(Xt), theirs.transform(Xt), atol=1e-9 * scale, rtol=0)


def test_inverse_transform_after_the_svd_route():
    X = _tall(4, 200, 8)
    ours = KernelPCA(5, fit_inverse_transform=True).fit(X)
    theirs = sk_dec.KernelPCA(5, fit_inverse_transform=True).fit(X)
    Z = theirs.transform(X[:30])
    assert_allclose(ours.inverse_transform(Z), theirs.inverse_transform(Z), rtol=1e-7,
                    atol=1e-9)


def test_the_kernel_is_solved_where_the_svd_route_does_not_apply(monkeypatch):
    routes = []
    for name in ("_solve_on_features", "_solve_on_kernel"):
        real = getattr(KernelPCA, name)
        monkeypatch.setattr(KernelPCA, name, lambda self, *a, real=real, name=name:
                            routes.append(name) or real(self, *a))
    tall = _tall(5, 300, 10)
    for X, params in ((tall, dict(n_components=3, eigen_solver="dense")),  # asked for
                      (tall, dict(n_components=12)),  # more components than columns
                      (tall.astype(np.float32), dict(n_components=3)),  # single precision
                      (_tall(6, 30, 20), dict(n_components=3)),  # wide X
                      (tall, dict(n_components=3, kernel="rbf"))):
        routes.clear()
        ours = KernelPCA(**params).fit(X)
        theirs = sk_dec.KernelPCA(**params).fit(X)
        assert routes == ["_solve_on_kernel"], params
        assert_allclose(ours.eigenvalues_, theirs.eigenvalues_, rtol=1e-4,
                        atol=1e-9 * theirs.eigenvalues_[0])
    routes.clear()
    KernelPCA(3).fit(tall)
    assert routes == ["_solve_on_features"]
