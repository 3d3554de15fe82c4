"""KernelRidge and KernelPCA on scipy sparse input (the shared kernel
functions on CSR rows): scikit-learn parity, sparse vs dense agreement."""

import numpy as np
import pytest
import scipy.sparse as sp

from classiclearn.decomposition import KernelPCA
from classiclearn.kernel_ridge import KernelRidge

sk_kernel_ridge = pytest.importorskip("sklearn.kernel_ridge")
sk_decomposition = pytest.importorskip("sklearn.decomposition")

KERNELS = ["linear", "poly", "rbf", "sigmoid", "cosine"]


def _data(seed=0):
    rng = np.random.RandomState(seed)
    X = sp.random(300, 40, density=0.1, random_state=rng, format="csr")
    X_test = sp.random(30, 40, density=0.1, random_state=rng, format="csr")
    y = X @ rng.randn(40) + 0.1 * rng.randn(300)
    return sp.csr_matrix(X), sp.csr_matrix(X_test), y


@pytest.mark.parametrize("kernel", [*KERNELS, "laplacian"])
def test_kernel_ridge_sparse_matches_sklearn(kernel):
    X, X_test, y = _data()
    before = (X.data.copy(), X.indices.copy(), X.indptr.copy())
    kw = {"kernel": kernel, "gamma": 0.3, "alpha": 0.5}
    ours = KernelRidge(**kw).fit(X, y)
    ref = sk_kernel_ridge.KernelRidge(**kw).fit(X, y)
    np.testing.assert_allclose(ours.dual_coef_, ref.dual_coef_, rtol=1e-8, atol=1e-10)
    np.testing.assert_allclose(ours.predict(X_test), ref.predict(X_test), rtol=1e-8,
                               atol=1e-10)
    dense = KernelRidge(**kw).fit(X.toarray(), y)
    np.testing.assert_allclose(ours.predict(X_test), dense.predict(X_test.toarray()),
                               rtol=1e-8, atol=1e-10)
    np.testing.assert_allclose(dense.predict(X_test), dense.predict(X_test.toarray()),
                               rtol=1e-10, atol=1e-12)
    assert isinstance(ours.X_fit_, sp.csr_matrix)
    for a, b in zip(before, (X.data, X.indices, X.indptr)):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("kernel", KERNELS)
@pytest.mark.parametrize("eigen_solver", ["dense", "arpack", "auto"])
def test_kernel_pca_sparse_matches_sklearn(kernel, eigen_solver):
    X, X_test, _ = _data(seed=1)
    kw = {"kernel": kernel, "gamma": 0.3, "n_components": 5, "eigen_solver": eigen_solver,
          "random_state": 0}
    ours = KernelPCA(**kw).fit(X)
    ref = sk_decomposition.KernelPCA(**kw).fit(X)
    np.testing.assert_allclose(ours.eigenvalues_, ref.eigenvalues_, rtol=1e-9)
    t_ours, t_ref = ours.transform(X_test), ref.transform(X_test)
    assert isinstance(t_ours, np.ndarray)
    np.testing.assert_allclose(np.abs(t_ours), np.abs(t_ref), rtol=1e-7, atol=1e-10)
    dense = KernelPCA(**kw).fit(X.toarray())
    np.testing.assert_allclose(np.abs(dense.transform(X_test.toarray())), np.abs(t_ours),
                               rtol=1e-7, atol=1e-9)


def test_kernel_pca_sparse_inverse_refused():
    X, _, _ = _data()
    with pytest.raises(TypeError, match="[Ss]parse"):
        KernelPCA(2, fit_inverse_transform=True).fit(X)


@pytest.mark.parametrize("kernel", ["chi2", "additive_chi2"])
def test_chi2_kernels_refuse_sparse_clearly_as_sklearn(kernel):
    X, _, y = _data()
    X = abs(X)
    with pytest.raises(TypeError, match="[Ss]parse"):
        KernelRidge(kernel=kernel).fit(X, y)
    with pytest.raises(TypeError, match="[Ss]parse"):
        sk_kernel_ridge.KernelRidge(kernel=kernel).fit(X, y)
