"""Validation's sum of squares on numba's pool, and the BLAS thread limit."""

import numba
import numpy as np
import pytest

from classiclearn._kernels.reductions import sum_of_squares
from classiclearn.utils.validation import check_array, surely_finite


@pytest.mark.parametrize("n", [1, 7, 10_001, 2 * 131_072 + 3, 1_100_000])
def test_sum_of_squares_matches_the_exact_sum_at_any_thread_count(n):
    x = np.random.default_rng(n).normal(size=n)
    expected = float(np.dot(x, x))
    total = sum_of_squares(x)
    assert total == pytest.approx(expected, rel=1e-12)
    threads = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        assert sum_of_squares(x) == total  # lanes fixed by the size, added in order
    finally:
        numba.set_num_threads(threads)


@pytest.mark.parametrize("n", [5, 300_000])
def test_sum_of_squares_reports_overflow_and_nan(n):
    x = np.ones(n)
    x[n // 2] = 1e200
    assert sum_of_squares(x) == np.inf
    x[n // 3] = np.nan
    assert np.isnan(sum_of_squares(x))


@pytest.mark.parametrize("shape", [(10, 3), (400, 300)])
def test_finiteness_check_on_either_path(shape):
    X = np.random.default_rng(0).normal(size=shape)
    assert surely_finite(X) and surely_finite(np.asfortranarray(X))
    assert surely_finite(X[:, ::2])  # not contiguous: a plain sum
    for bad, message in ((np.nan, "NaN"), (np.inf, "infinity")):
        Y = X.copy()
        Y[-1, -1] = bad
        assert not surely_finite(Y)
        with pytest.raises(ValueError, match=message):
            check_array(Y)
    big = X.copy()
    big[0, 0] = 1e300  # finite, but its square overflows: the exact check passes it
    assert not surely_finite(big)
    check_array(big)


def test_blas_single_thread_limits_both_blas_libraries_and_restores_them():
    threadpoolctl = pytest.importorskip("threadpoolctl")
    from classiclearn.utils._threads import blas_single_thread, on_one_blas_thread

    def blas_threads():
        return [lib["num_threads"] for lib in threadpoolctl.threadpool_info()
                if lib["user_api"] == "blas"]

    with threadpoolctl.threadpool_limits(2, "blas"):
        before = blas_threads()
        with blas_single_thread():
            with blas_single_thread():  # nested: one limit
                assert set(blas_threads()) == {1}
            assert set(blas_threads()) == {1}
        assert blas_threads() == before

        @on_one_blas_thread
        def inside():
            return blas_threads()

        assert set(inside()) == {1}
        assert blas_threads() == before


def test_small_lapack_limits_blas_only_below_the_threaded_order():
    threadpoolctl = pytest.importorskip("threadpoolctl")
    from classiclearn._kernels.work import BLAS_THREADED_ORDER
    from classiclearn.utils._threads import small_lapack

    def blas_threads():
        return {lib["num_threads"] for lib in threadpoolctl.threadpool_info()
                if lib["user_api"] == "blas"}

    with threadpoolctl.threadpool_limits(2, "blas"):
        with small_lapack(BLAS_THREADED_ORDER):
            assert blas_threads() == {1}
        with small_lapack(BLAS_THREADED_ORDER + 1):
            assert blas_threads() == {2}


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("order", ["C", "F"])
def test_column_abs_max_and_nan_equals_numpy(dtype, order):
    from classiclearn._kernels.reductions import column_abs_max_and_nan

    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 7)) * np.logspace(-30, 30, 7)
    X[:, 2] = -np.abs(X[:, 2])  # every value negative: the maximum |x| is -min
    X[rng.random(X.shape) < 0.05] = np.nan
    X[:, 4] = np.nan  # a column of NaN only: 0
    X[:, 5] = 0.0
    X[5, 6] = np.inf
    X = np.array(X, dtype=dtype, order=order)
    max_abs, has_nan = column_abs_max_and_nan(X)
    with np.errstate(invalid="ignore"):
        expected = np.nan_to_num(np.nanmax(np.abs(X), axis=0), nan=0.0, posinf=np.inf)
    assert max_abs.dtype == np.float64
    np.testing.assert_array_equal(max_abs, expected.astype(np.float64))
    np.testing.assert_array_equal(has_nan, np.isnan(X).any(axis=0))
    one_row = column_abs_max_and_nan(X[:1])
    np.testing.assert_array_equal(one_row[1], np.isnan(X[:1]).any(axis=0))
