"""The shared kernel functions (``_kernels.kernel_functions``) of SVC / SVR,
KernelRidge and KernelPCA against naive NumPy formulas, on dense and sparse rows."""

import numpy as np
import pytest
import scipy.sparse as sp

from classiclearn._kernels.kernel_functions import kernel_matrix


def _naive(X, Y, kernel, gamma, coef0, degree):
    if kernel == "rbf":
        d2 = ((X[:, None, :] - Y[None, :, :]) ** 2).sum(axis=2)
        return np.exp(-gamma * d2)
    dots = np.array([[float(np.dot(x, y)) for y in Y] for x in X])
    if kernel == "linear":
        return dots
    if kernel in ("poly", "polynomial"):
        return (gamma * dots + coef0) ** degree
    return np.tanh(gamma * dots + coef0)


@pytest.mark.parametrize("kernel", ["linear", "poly", "polynomial", "rbf", "sigmoid"])
@pytest.mark.parametrize("sparse_x,sparse_y", [(False, False), (True, False), (False, True),
                                               (True, True)])
@pytest.mark.parametrize("degree", [3, 2.5])
def test_kernel_matrix_matches_naive(kernel, sparse_x, sparse_y, degree):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(37, 6))
    Y = rng.normal(size=(21, 6))
    X[rng.random(X.shape) < 0.6] = 0.0
    Y[rng.random(Y.shape) < 0.6] = 0.0
    if degree == 2.5:  # a fractional power needs a non-negative base
        X, Y = np.abs(X), np.abs(Y)
    gamma, coef0 = 0.4, 0.7
    A = sp.csr_array(X) if sparse_x else X
    B = sp.csr_matrix(Y) if sparse_y else Y
    K = kernel_matrix(A, B, kernel, gamma=gamma, coef0=coef0, degree=degree)
    assert isinstance(K, np.ndarray) and K.dtype == np.float64
    np.testing.assert_allclose(K, _naive(X, Y, kernel, gamma, coef0, degree), rtol=1e-12,
                               atol=1e-14)


def test_integer_degree_is_repeated_squaring():
    """An integral degree gives the value of an integer power (as libsvm's powi)."""
    X = np.array([[1.1, 0.3], [0.2, 0.9]])
    K = kernel_matrix(X, X, "poly", gamma=1.3, coef0=0.25, degree=5)
    base = 1.3 * (X @ X.T) + 0.25
    expected = base * base
    expected = expected * expected * base
    np.testing.assert_allclose(K, expected, rtol=1e-15)


@pytest.mark.parametrize("kernel", ["poly", "rbf", "sigmoid"])
def test_parallel_and_serial_kernel_values_are_identical(kernel):
    """The parallel pass (large matrices) and its serial twin (small ones, chosen
    by size) give the same bits."""
    from classiclearn._kernels import kernel_function_kernels as _k
    from classiclearn._kernels.kernel_functions import KERNEL_IDS

    rng = np.random.default_rng(3)
    X = rng.normal(size=(45, 5))
    D = X @ X[:29].T
    sq = np.einsum("ij,ij->i", X, X)
    args = (sq, sq[:29].copy(), KERNEL_IDS[kernel], 0.3, 0.5, 3.0)
    a, b = D.copy(), D.copy()
    _k.kernel_from_dots(a, *args)
    _k.kernel_from_dots_serial(b, *args)
    np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("shape_a, shape_b", [((37, 6), (6, 21)), ((1, 5), (5, 1)),
                                              ((0, 4), (4, 3)), ((3, 0), (0, 2))])
@pytest.mark.parametrize("order", ["C", "F"])
def test_scipy_product_is_the_c_ordered_product(shape_a, shape_b, order):
    from classiclearn._kernels.kernel_functions import scipy_product

    rng = np.random.default_rng(1)
    A = np.asarray(rng.normal(size=shape_a), order=order)
    B = np.asarray(rng.normal(size=shape_b), order=order)
    A_before, B_before = A.copy(), B.copy()
    out = scipy_product(A, B)
    assert out.shape == (shape_a[0], shape_b[1]) and out.flags.c_contiguous
    np.testing.assert_allclose(out, A @ B, rtol=1e-13, atol=1e-13)
    assert np.array_equal(A, A_before) and np.array_equal(B, B_before)
    # a strided view (every other row) and integer input are taken as well
    np.testing.assert_allclose(scipy_product(A[::2], B), A[::2] @ B, rtol=1e-13, atol=1e-13)
    np.testing.assert_allclose(scipy_product(np.ones((2, shape_a[1]), dtype=int), B),
                               np.ones((2, shape_a[1])) @ B, rtol=1e-13, atol=1e-13)


@pytest.mark.parametrize("shape_x, k", [((1000, 7), 3), ((5, 3), 1), ((1, 4), 2), ((0, 4), 3),
                                        ((6, 0), 2), ((300, 2), 1)])
@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("block_bytes", [64, 1 << 20])
def test_centred_product_in_blocks_is_the_centred_copys_product(monkeypatch, shape_x, k, order,
                                                                 block_bytes):
    # blocks of 1 row up to all of X, each product written into its rows of the result
    from classiclearn._kernels import kernel_functions as kf

    monkeypatch.setattr(kf, "CENTRED_BLOCK_BYTES", block_bytes)
    monkeypatch.setattr(kf, "CENTRED_BLOCK_ROWS", 1)
    rng = np.random.default_rng(2)
    X = np.asarray(rng.normal(size=shape_x) + 7.0, order=order)
    mean = X.mean(axis=0) if shape_x[0] else np.zeros(shape_x[1])
    B = rng.normal(size=(k, shape_x[1])).T  # a Fortran-ordered view, as PCA's C'
    X_before = X.copy()
    out = kf.centred_product(X, mean, B)
    assert out.shape == (shape_x[0], k) and out.flags.c_contiguous
    np.testing.assert_allclose(out, (X - mean) @ B, rtol=1e-13, atol=1e-12)
    assert np.array_equal(X, X_before)
    np.testing.assert_allclose(kf.centred_product(X.astype(np.float32), mean, B),
                               (X.astype(np.float32) - mean) @ B, rtol=1e-6, atol=1e-5)
