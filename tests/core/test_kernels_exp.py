"""The shared vectorisable exponential (``classiclearn._kernels.exp``) against numpy."""

import numpy as np
from numpy.testing import assert_allclose, assert_array_equal

from classiclearn._kernels.exp import (
    SCALAR_CUT,
    exp_nonpositive,
    exp_nonpositive_each,
)

EPS = np.finfo(float).eps


def _inputs():
    rng = np.random.default_rng(0)
    return -np.concatenate([np.linspace(0, 60, 20001), rng.exponential(5.0, 20000),
                            [0.0, 5e-324, 700.0, 708.3, 708.5, 745.0, 800.0, 1e6, np.inf]])


def test_row_form_matches_numpy_and_flushes_underflow():
    x = _inputs()
    ours, ref = exp_nonpositive(x), np.exp(x)
    normal = ref > 1e-300
    assert_allclose(ours[normal], ref[normal], rtol=4 * EPS, atol=0)
    assert np.abs(ours[~normal]).max() < 1e-300
    assert_allclose(exp_nonpositive(x[:7]), np.exp(x[:7]), rtol=4e-16)  # short tail


def test_scalar_form_matches_numpy_above_its_cut_and_is_zero_below():
    x = _inputs()
    ours = exp_nonpositive_each(x)
    kept = x > SCALAR_CUT
    assert_allclose(ours[kept], np.exp(x[kept]), rtol=4 * EPS, atol=0)
    assert_array_equal(ours[~kept], 0.0)


def test_both_forms_agree_where_both_are_exact():
    x = -np.linspace(0, 39.9, 4001)
    assert_allclose(exp_nonpositive(x), exp_nonpositive_each(x), rtol=4 * EPS, atol=0)


def test_svm_rbf_exponential_is_the_shared_one():
    from classiclearn.svm._smo_kernels import exp_inplace

    x = _inputs()[:5000].copy()
    ref = exp_nonpositive(x)
    exp_inplace(x, np.empty(x.shape[0]))
    assert_array_equal(x, ref)
