"""Comparing eigenvectors and components, whose signs are arbitrary."""

import numpy as np
from numpy.testing import assert_allclose


def assert_same_up_to_sign(a, b, atol, axis):
    """``a`` equals ``b`` within ``atol`` once each vector of ``a`` (rows for
    ``axis=1``, columns for ``axis=0``) takes the sign that best matches ``b``'s."""
    signs = np.sign((a * b).sum(axis=axis, keepdims=True))
    assert_allclose(a * signs, b, atol=atol, rtol=0)
