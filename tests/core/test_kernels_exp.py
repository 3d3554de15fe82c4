"""The shared vectorisable exponential and tanh (``classiclearn._kernels.exp``) against numpy."""

import numpy as np
from numpy.testing import assert_allclose, assert_array_equal

from classiclearn._kernels.exp import (
    SCALAR_CUT,
    exp_nonpositive,
    exp_nonpositive_each,
    tanh_each,
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


def _tanh_inputs():
    rng = np.random.default_rng(1)
    scales = (1e-300, 1e-8, 0.05, 0.17, 0.35, 1.0, 4.0, 20.0, 1e3)
    spread = np.concatenate([rng.normal(size=4000) * s for s in scales])
    # ln2 / 4 is where the reduction's k leaves 0; 19.06 where tanh rounds to 1
    edges = [0.0, 5e-324, 1e-320, 0.1732867951399863, 0.17328679513998633, 19.06, 354.2,
             354.3, 710.0, 1e300]
    return np.concatenate([spread, edges, np.negative(edges)])


def test_tanh_matches_numpy_to_a_few_ulp_with_the_sign_of_zero():
    x = _tanh_inputs()
    ours, ref = tanh_each(x), np.tanh(x)
    assert_allclose(ours, ref, rtol=4 * EPS, atol=0)
    assert_array_equal(np.signbit(ours), np.signbit(ref))  # -0.0 stays -0.0
    assert_array_equal(tanh_each(np.array([np.inf, -np.inf])), [1.0, -1.0])
    assert np.isnan(tanh_each(np.array([np.nan, 0.5])))[0]
    assert_allclose(tanh_each(x[:3]), np.tanh(x[:3]), rtol=4 * EPS, atol=0)  # short row


def test_sigmoid_kernel_rows_use_the_shared_tanh():
    from classiclearn._kernels.kernel_function_kernels import SIGMOID, kernel_from_dots_serial

    rng = np.random.default_rng(2)
    D = rng.normal(size=(7, 33)) * 3
    expected = np.tanh(0.3 * D + 0.5)
    kernel_from_dots_serial(D, np.zeros(7), np.zeros(33), SIGMOID, 0.3, 0.5, 3.0)
    assert_allclose(D, expected, rtol=4 * EPS, atol=0)
