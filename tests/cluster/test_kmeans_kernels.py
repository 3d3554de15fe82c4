"""The k-means kernels against naive NumPy references."""

import numpy as np
from numpy.testing import assert_array_equal

from classiclearn.cluster import _kmeans_kernels as _k


def _pass_outputs(n, k, p):
    size, n_chunks = _k.chunk_layout(n)
    return (np.empty(n, dtype=np.intp), np.empty((n_chunks, k, p)), np.empty((n_chunks, k)))


def test_shifted_lloyd_pass_is_the_pass_on_the_shifted_rows_bit_for_bit():
    rng = np.random.default_rng(0)
    n, p, k = 1_300, 7, 5  # several chunks and a partial tile
    X = rng.normal(size=(n, p)) * 3.0 + 40.0
    origin = X.mean(axis=0)
    w = rng.uniform(0.5, 2.0, size=n)
    centers = rng.normal(size=(k, p)) * 3.0
    centers_t = np.ascontiguousarray(centers.T)
    centers_sq = np.einsum("ij,ij->i", centers, centers)
    shifted = _pass_outputs(n, k, p)
    _k.lloyd_pass_shifted(X, origin, w, centers_t, centers_sq, *shifted)
    reference = _pass_outputs(n, k, p)
    _k.lloyd_pass(np.ascontiguousarray(X - origin), w, centers_t, centers_sq, *reference)
    for got, want in zip(shifted, reference, strict=True):
        assert_array_equal(got, want)
    # and the labels are the nearest centres, the sums the weighted label sums
    d = (((X - origin)[:, None, :] - centers[None]) ** 2).sum(axis=2)
    assert_array_equal(shifted[0], d.argmin(axis=1))
    sums = np.array([(w[shifted[0] == j, None] * (X - origin)[shifted[0] == j]).sum(axis=0)
                     for j in range(k)])
    np.testing.assert_allclose(shifted[1].sum(axis=0), sums, rtol=1e-12, atol=1e-9)
