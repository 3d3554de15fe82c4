"""column_gram: A'A by BLAS syrk, mirrored to an exactly symmetric matrix."""

import numpy as np
import pytest

from classiclearn._kernels.gram import column_gram


@pytest.mark.parametrize("shape", [(1, 1), (5, 3), (40, 40), (17, 130), (300, 12)])
def test_column_gram_equals_the_product_and_is_exactly_symmetric(shape):
    A = np.random.default_rng(shape[1]).normal(size=shape)
    G = column_gram(A)
    assert G.shape == (shape[1], shape[1])
    np.testing.assert_array_equal(G, G.T)
    np.testing.assert_allclose(G, A.T @ A, rtol=1e-12, atol=1e-12)


def test_column_gram_of_no_rows_is_zero_and_the_input_is_untouched():
    assert np.array_equal(column_gram(np.empty((0, 4))), np.zeros((4, 4)))
    A = np.asfortranarray(np.arange(12.0).reshape(4, 3))
    before = A.copy()
    np.testing.assert_allclose(column_gram(A), before.T @ before)
    np.testing.assert_array_equal(A, before)
