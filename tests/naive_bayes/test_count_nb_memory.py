"""Issue 17 item 3 for the count models: a sparse X whose dense form would need
80 GB (200,000 x 50,000) is fitted and predicted without a dense copy."""

import tracemalloc

import numpy as np
import pytest
import scipy.sparse as sp

from classiclearn.naive_bayes import ComplementNB, MultinomialNB


def _big_sparse_counts(n=200_000, p=50_000, density=0.0005, seed=0):
    rng = np.random.default_rng(seed)
    nnz_per_row = int(p * density)  # 25
    indptr = np.arange(n + 1, dtype=np.int64) * nnz_per_row
    indices = rng.integers(0, p, size=n * nnz_per_row).astype(np.int32)
    data = rng.integers(1, 4, size=n * nnz_per_row).astype(np.float64)
    y = rng.integers(0, 5, n)
    return sp.csr_matrix((data, indices, indptr), shape=(n, p)), y


@pytest.mark.slow
@pytest.mark.parametrize("cls", [MultinomialNB, ComplementNB])
def test_fit_and_predict_stay_far_below_the_dense_size(cls):
    X, y = _big_sparse_counts()
    dense_bytes = X.shape[0] * X.shape[1] * 8
    assert dense_bytes > 8e9
    cls().fit(X[:1000], y[:1000]).predict_proba(X[:10])  # compile outside the measurement
    tracemalloc.start()
    try:
        clf = cls().fit(X, y)
        proba = clf.predict_proba(X)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert proba.shape == (X.shape[0], 5)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    # the statistics are 5 x 50,000, the scores 200,000 x 5: a few tens of MB in all
    assert peak < 200e6, f"peak {peak / 1e6:.0f} MB"
    Xs = X[:20]
    np.testing.assert_allclose(clf.predict_proba(Xs), clf.predict_proba(Xs.toarray()), atol=1e-12)
