"""Sparse PolynomialFeatures: the compiled expansion equals scikit-learn's sparse output
and the dense expansion, for every degree range, interaction terms and bias."""

import numpy as np
import pytest
import scipy.sparse as sp

from classiclearn.preprocessing import PolynomialFeatures

sk_pre = pytest.importorskip("sklearn.preprocessing")


@pytest.mark.parametrize("degree", [1, 2, 3, (2, 3), (0, 2), 4])
@pytest.mark.parametrize("interaction_only", [False, True])
@pytest.mark.parametrize("include_bias", [False, True])
@pytest.mark.parametrize("fmt", ["csr", "csc"])
def test_sparse_expansion_equals_sklearn_and_dense(degree, interaction_only, include_bias, fmt):
    rng = np.random.default_rng(0)
    X = np.where(rng.random((40, 7)) < 0.4, rng.normal(size=(40, 7)), 0.0)
    X[3] = 0.0  # a row with nothing stored
    X[5] = rng.normal(size=7)  # a full row
    S = sp.csr_matrix(X) if fmt == "csr" else sp.csc_matrix(X)
    params = dict(degree=degree, interaction_only=interaction_only, include_bias=include_bias)
    ours = PolynomialFeatures(**params).fit_transform(S)
    theirs = sk_pre.PolynomialFeatures(**params).fit_transform(S)
    assert ours.format == theirs.format and ours.shape == theirs.shape
    assert abs(ours - theirs).max() <= 1e-12
    np.testing.assert_allclose(ours.toarray(), PolynomialFeatures(**params).fit_transform(X))
    assert ours.has_sorted_indices


def test_unsorted_duplicate_entries_are_summed_first_and_input_kept():
    # row 0 stores feature 2 twice (1 + 2 = 3) and lists its entries out of order
    S = sp.csr_matrix((np.array([1.0, 5.0, 2.0]), np.array([2, 0, 2]), np.array([0, 3, 3])),
                      shape=(2, 3))
    before = (S.data.copy(), S.indices.copy())
    out = PolynomialFeatures(2).fit_transform(S)
    np.testing.assert_allclose(out.toarray(), PolynomialFeatures(2).fit_transform(S.toarray()))
    np.testing.assert_array_equal(S.data, before[0])
    np.testing.assert_array_equal(S.indices, before[1])
