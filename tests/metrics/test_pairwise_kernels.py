"""Pairwise kernels and distances against scikit-learn."""

import numpy as np
import pytest

from classiclearn.metrics import pairwise as ours

skp = pytest.importorskip("sklearn.metrics.pairwise")

RNG = np.random.default_rng(0)
X = RNG.normal(size=(30, 5))
Y = RNG.normal(size=(20, 5))


@pytest.mark.parametrize("Ymat", [None, Y])
@pytest.mark.parametrize(
    "name, kwargs",
    [
        ("linear_kernel", {}),
        ("polynomial_kernel", {}),
        ("polynomial_kernel", {"degree": 2, "gamma": 0.3, "coef0": 0.5}),
        ("rbf_kernel", {}),
        ("rbf_kernel", {"gamma": 0.7}),
        ("sigmoid_kernel", {}),
        ("sigmoid_kernel", {"gamma": 0.1, "coef0": -0.2}),
        ("cosine_similarity", {}),
        ("laplacian_kernel", {"gamma": 0.2}),
        ("euclidean_distances", {}),
        ("euclidean_distances", {"squared": True}),
        ("manhattan_distances", {}),
    ],
)
def test_kernel_matches_sklearn(name, kwargs, Ymat):
    got = getattr(ours, name)(X, Ymat, **kwargs)
    want = getattr(skp, name)(X, Ymat, **kwargs)
    assert got.dtype == np.float64
    np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-10)


SPARSE_FUNCTIONS = [
    ("linear_kernel", {}), ("polynomial_kernel", {"degree": 2, "gamma": 0.3}),
    ("rbf_kernel", {"gamma": 0.7}), ("sigmoid_kernel", {"gamma": 0.1, "coef0": -0.2}),
    ("cosine_similarity", {}), ("laplacian_kernel", {"gamma": 0.2}),
    ("euclidean_distances", {}), ("euclidean_distances", {"squared": True}),
    ("manhattan_distances", {}),
]


@pytest.mark.parametrize("kinds", ["both", "X", "Y", "same"])
@pytest.mark.parametrize("name, kwargs", SPARSE_FUNCTIONS)
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_sparse_rows_match_dense_and_sklearn(name, kwargs, kinds, dtype):
    import scipy.sparse as sp

    rng = np.random.default_rng(1)
    Xd = np.where(rng.random((30, 12)) < 0.3, rng.normal(size=(30, 12)), 0.0).astype(dtype)
    Yd = np.where(rng.random((20, 12)) < 0.3, rng.normal(size=(20, 12)), 0.0).astype(dtype)
    Xd[3] = 0.0  # an empty row
    Xs, Ys = sp.csr_matrix(Xd), sp.csr_matrix(Yd)
    if kinds == "same":
        args = (Xs, None)
        dense = (Xd, None)
    else:
        args = (Xs if kinds in ("both", "X") else Xd, Ys if kinds in ("both", "Y") else Yd)
        dense = (Xd, Yd)
    got = getattr(ours, name)(*args, **kwargs)
    assert isinstance(got, np.ndarray) and got.dtype == dtype
    tol = 1e-10 if dtype == np.float64 else 1e-5
    np.testing.assert_allclose(got, getattr(ours, name)(*dense, **kwargs), rtol=tol, atol=tol)
    np.testing.assert_allclose(got, getattr(skp, name)(*args, **kwargs), rtol=tol, atol=tol)


@pytest.mark.parametrize("name", ["chi2_kernel", "additive_chi2_kernel"])
def test_chi2_refuses_sparse_as_sklearn(name):
    import scipy.sparse as sp

    Xs = sp.csr_matrix(np.abs(X))
    with pytest.raises(TypeError, match="[Ss]parse"):
        getattr(ours, name)(Xs)
    with pytest.raises(TypeError, match="[Ss]parse"):
        getattr(skp, name)(Xs)


@pytest.mark.parametrize(
    "metric, kwargs",
    [
        ("linear", {}),
        ("poly", {"degree": 2}),
        ("polynomial", {"gamma": 0.5, "coef0": 0.0}),
        ("rbf", {"gamma": 0.3}),
        ("sigmoid", {}),
        ("cosine", {}),
        ("laplacian", {}),
    ],
)
def test_pairwise_kernels_by_name(metric, kwargs):
    got = ours.pairwise_kernels(X, Y, metric=metric, **kwargs)
    want = skp.pairwise_kernels(X, Y, metric=metric, **kwargs)
    np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-10)


def test_pairwise_kernels_filter_params():
    got = ours.pairwise_kernels(X, Y, metric="rbf", filter_params=True, gamma=0.2, degree=5)
    np.testing.assert_allclose(got, skp.rbf_kernel(X, Y, gamma=0.2), rtol=1e-10)
    with pytest.raises(TypeError):
        ours.pairwise_kernels(X, Y, metric="rbf", gamma=0.2, degree=5)


def test_pairwise_kernels_callable_and_precomputed():
    def k(a, b, scale=1.0):
        return scale * float(np.dot(a, b)) ** 2

    got = ours.pairwise_kernels(X[:6], Y[:4], metric=k, scale=2.0)
    want = skp.pairwise_kernels(X[:6], Y[:4], metric=k, scale=2.0)
    np.testing.assert_allclose(got, want, rtol=1e-12)
    got_sym = ours.pairwise_kernels(X[:6], metric=k)
    np.testing.assert_allclose(got_sym, skp.pairwise_kernels(X[:6], metric=k), rtol=1e-12)
    K = X @ Y.T
    np.testing.assert_array_equal(ours.pairwise_kernels(K, Y, metric="precomputed"), K)
    with pytest.raises(ValueError, match="Precomputed metric requires shape"):
        ours.pairwise_kernels(K, X, metric="precomputed")


def test_bad_inputs():
    with pytest.raises(ValueError, match="Incompatible dimension"):
        ours.rbf_kernel(X, Y[:, :3])
    with pytest.raises(ValueError, match="Unknown kernel"):
        ours.pairwise_kernels(X, metric="nope")
    with pytest.raises(ValueError, match="NaN"):
        ours.linear_kernel([[np.nan, 1.0]])


def test_euclidean_diagonal_exact_zero_and_nonnegative():
    Z = np.repeat(RNG.normal(size=(1, 4)) * 1e4, 5, axis=0) + RNG.normal(size=(5, 4)) * 1e-6
    D = ours.euclidean_distances(Z)
    assert np.all(np.diag(D) == 0.0)
    assert np.all(ours.euclidean_distances(Z, Z + 0.0, squared=True) >= 0.0)
    D2 = ours.euclidean_distances(X, Y, X_norm_squared=(X**2).sum(1), Y_norm_squared=(Y**2).sum(1))
    np.testing.assert_allclose(D2, skp.euclidean_distances(X, Y), rtol=1e-10)


@pytest.mark.parametrize(
    "name", ["linear_kernel", "polynomial_kernel", "rbf_kernel", "sigmoid_kernel",
             "cosine_similarity", "euclidean_distances", "laplacian_kernel"]
)
def test_float32_kept(name):
    X32, Y32 = X.astype(np.float32), Y.astype(np.float32)
    got = getattr(ours, name)(X32, Y32)
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, getattr(skp, name)(X, Y), rtol=1e-4, atol=1e-5)
    # mixed precision goes to float64
    assert getattr(ours, name)(X32, Y).dtype == np.float64


def test_inputs_not_modified():
    X0, Y0 = X.copy(), Y.copy()
    for name in ["rbf_kernel", "polynomial_kernel", "sigmoid_kernel", "cosine_similarity"]:
        getattr(ours, name)(X, Y)
    np.testing.assert_array_equal(X, X0)
    np.testing.assert_array_equal(Y, Y0)
