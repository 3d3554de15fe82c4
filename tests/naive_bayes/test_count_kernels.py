"""The count kernels against naive NumPy versions."""

import numpy as np
import scipy.sparse as sp

from classiclearn._kernels import sparse_products
from classiclearn.naive_bayes import _count_kernels as k


def _data(seed=0, n=60, p=9, n_classes=3):
    rng = np.random.default_rng(seed)
    X = rng.poisson(0.7, (n, p)).astype(float)
    y_index = rng.integers(0, n_classes, n).astype(np.intp)
    weight = rng.uniform(0, 2, n)
    return X, y_index, weight, n_classes


def _naive_sums(X, y_index, weight, n_classes):
    return np.array([(weight[y_index == c, None] * X[y_index == c]).sum(axis=0)
                     for c in range(n_classes)])


def test_class_feature_sums_dense_and_csr():
    X, y_index, weight, K = _data()
    X[4, 2] = -0.5
    expected = _naive_sums(X, y_index, weight, K)
    sums, smallest = k.class_feature_sums_dense(X, y_index, weight, K)
    np.testing.assert_allclose(sums, expected, rtol=1e-14)
    assert smallest == -0.5
    A = sp.csr_matrix(X)
    sums, smallest = k.class_feature_sums_csr(
        A.data, A.indices, A.indptr, y_index, weight, K, X.shape[1]
    )
    np.testing.assert_allclose(sums, expected, rtol=1e-14)
    assert smallest == -0.5


def test_csr_kernels_take_unsorted_and_duplicate_indices():
    X, y_index, weight, K = _data(seed=1, n=5, p=4)
    # row 0 stores column 3 twice and out of order
    data = np.array([1.0, 2.0, 3.0, 0.5])
    indices = np.array([3, 0, 3, 1], dtype=np.int32)
    indptr = np.array([0, 4, 4, 4, 4, 4])
    dense = np.zeros((5, 4))
    dense[0] = [2.0, 0.5, 0.0, 4.0]
    sums, smallest = k.class_feature_sums_csr(data, indices, indptr, y_index, weight, K, 4)
    np.testing.assert_allclose(sums, _naive_sums(dense, y_index, weight, K), rtol=1e-14)
    assert smallest == 0.0
    B = np.random.default_rng(2).normal(size=(4, 3))
    np.testing.assert_allclose(sparse_products.csr_times_dense(data, indices, indptr, B), dense @ B, rtol=1e-14)


def test_csr_times_dense_matches_scipy():
    X, _, _, _ = _data(seed=3, n=200, p=30)
    A = sp.csr_matrix(X)
    B = np.random.default_rng(4).normal(size=(30, 5))
    np.testing.assert_allclose(
        sparse_products.csr_times_dense(A.data, A.indices.astype(np.int64), A.indptr, B), A @ B, rtol=1e-13
    )


def test_category_counts_and_joint_log_likelihood():
    rng = np.random.default_rng(5)
    widths = np.array([3, 1, 4])
    X = np.column_stack([rng.integers(0, w, 80) for w in widths]).astype(np.intp)
    y_index = rng.integers(0, 2, 80).astype(np.intp)
    weight = rng.uniform(0, 2, 80)
    offsets = np.concatenate([[0], np.cumsum(widths)]).astype(np.intp)
    counts = k.class_category_counts(X, y_index, weight, offsets, 2)
    for j, w in enumerate(widths):
        for c in range(w):
            for label in range(2):
                hit = (X[:, j] == c) & (y_index == label)
                np.testing.assert_allclose(counts[label, offsets[j] + c], weight[hit].sum())
    log_prob = np.log(rng.uniform(0.1, 1, size=(2, offsets[-1])))
    log_prior = np.log([0.3, 0.7])
    jll = k.categorical_joint_log_likelihood(X, log_prob, offsets, log_prior)
    naive = np.array([[log_prior[c] + sum(log_prob[c, offsets[j] + x[j]] for j in range(3))
                       for c in range(2)] for x in X])
    np.testing.assert_allclose(jll, naive, rtol=1e-14)
