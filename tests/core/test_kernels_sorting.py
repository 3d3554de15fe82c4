"""The shared sorting, selection and heap kernels against naive NumPy references."""

import numpy as np
import pytest
from numpy.testing import assert_array_equal

from classiclearn._kernels import sorting


@pytest.mark.parametrize("n", [0, 1, 5, 16, 17, 300, 5_000])
@pytest.mark.parametrize("repeats", [False, True])
def test_sort_pairs_sorts_a_range_and_carries_the_indices(n, repeats):
    rng = np.random.default_rng(n)
    v = rng.integers(0, 4, size=n + 6).astype(np.float64) if repeats else rng.normal(size=n + 6)
    v_before = v.copy()
    ix = np.arange(n + 6, dtype=np.intp)
    sorting.sort_pairs(v, ix, np.intp(3), np.intp(3 + n))
    assert_array_equal(v[3:3 + n], np.sort(v_before[3:3 + n]))
    assert_array_equal(v_before[ix], v)  # pairs stay together
    assert_array_equal(v[:3], v_before[:3])  # outside the range untouched
    assert_array_equal(v[3 + n:], v_before[3 + n:])


def test_sort_pairs_falls_back_to_heapsort_on_adversarial_input():
    # many equal keys with a few distinct ones exercise deep partitions
    v = np.tile(np.array([1.0, 0.0, 2.0]), 4_000)
    ix = np.arange(v.size, dtype=np.intp)
    sorting.sort_pairs(v, ix, np.intp(0), np.intp(v.size))
    assert np.all(np.diff(v) >= 0)


@pytest.mark.parametrize("n", [1, 40, 3_000])
def test_radix_sort_pairs_sorts_float32_keys_with_their_indices(n):
    rng = np.random.default_rng(0)
    v = (rng.normal(size=n) * 100).astype(np.float32)
    v[::7] = -v[::7]
    v_before = v.copy()
    ix = np.arange(n, dtype=np.intp)
    k1 = np.empty(n, dtype=np.uint32)
    k2 = np.empty(n, dtype=np.uint32)
    i2 = np.empty(n, dtype=np.intp)
    counts = np.empty((4, 256), dtype=np.intp)
    sorting.radix_sort_pairs(v, ix, np.intp(0), np.intp(n), k1, k2, i2, counts)
    assert_array_equal(v, np.sort(v_before))
    assert_array_equal(v_before[ix], v)


@pytest.mark.parametrize("nth", [0, 1, 17, 49])
def test_select_nth_puts_the_nth_value_in_place_with_smaller_before(nth):
    rng = np.random.default_rng(nth)
    keys = rng.integers(0, 10, size=50).astype(np.float64)
    before = keys.copy()
    idx = np.arange(50, dtype=np.intp)
    sorting.select_nth(keys, idx, nth)
    assert keys[nth] == np.sort(before)[nth]
    assert np.all(keys[:nth] <= keys[nth]) and np.all(keys[nth + 1:] >= keys[nth])
    assert_array_equal(before[idx], keys)


def test_heap_keeps_the_k_smallest_pairs_in_lexicographic_order():
    rng = np.random.default_rng(0)
    d = rng.integers(0, 5, size=200).astype(np.float64)  # many ties
    k = 7
    hd = np.full(k, np.inf)
    hi = np.full(k, 200, dtype=np.intp)
    for j in range(d.size):  # a max-heap: replace the root when the pair is smaller
        if d[j] < hd[0] or (d[j] == hd[0] and j < hi[0]):
            sorting.sift_down(hd, hi, np.intp(0), k, d[j], np.intp(j))
    sorting.heap_sort(hd, hi)
    order = np.lexsort((np.arange(d.size), d))[:k]
    assert_array_equal(hi, order)
    assert_array_equal(hd, d[order])


def test_insert_sorted_and_lexicographic_sort_follow_the_lower_index_rule():
    rng = np.random.default_rng(1)
    d = rng.integers(0, 4, size=60).astype(np.float64)
    k = 5
    hd = np.full(k, np.inf)
    hi = np.full(k, -1, dtype=np.intp)
    for j in range(d.size):
        if d[j] < hd[k - 1]:
            sorting.insert_sorted(hd, hi, d[j], j)
    order = np.lexsort((np.arange(d.size), d))[:k]
    assert_array_equal(hi, order)
    dd = d[::-1].copy()
    ii = np.arange(d.size, dtype=np.intp)[::-1].copy()
    sorting.sort_pairs_lexicographic(dd, ii)
    assert_array_equal(ii, np.lexsort((np.arange(d.size), d)))


def _stable_order(v):
    """A stable sort's order of float32 values, -0.0 before 0.0 (the radix key's)."""
    return np.lexsort((np.arange(v.size), ~np.signbit(v), v))


@pytest.mark.parametrize("n_values", [1, 3, sorting.FEW_VALUES, sorting.FEW_VALUES + 1, None])
@pytest.mark.parametrize("n", [17, 300, 5_000])
def test_radix_sort_of_few_values_counts_them_in_the_same_stable_order(n, n_values):
    # integer codes (and signed zeros): the counting path must give the radix sort's
    # order exactly, stable within ties, for the trees' sums in that order
    rng = np.random.default_rng(n)
    if n_values is None:
        v = rng.normal(size=n).astype(np.float32)
    else:
        levels = np.arange(n_values, dtype=np.float32) - n_values // 2
        v = rng.choice(levels, size=n)
        v[rng.random(n) < 0.2] = -0.0
    v_before = v.copy()
    ix = np.arange(n, dtype=np.intp)
    scratch = (np.empty(n, dtype=np.uint32), np.empty(n, dtype=np.uint32),
               np.empty(n, dtype=np.intp), np.empty((4, 256), dtype=np.intp))
    sorting.radix_sort_pairs(v, ix, np.intp(0), np.intp(n), *scratch)
    expected = _stable_order(v_before)
    assert_array_equal(ix, expected)
    assert_array_equal(v.view(np.uint32), v_before[expected].view(np.uint32))


def test_few_values_sort_leaves_values_of_many_patterns_unchanged():
    rng = np.random.default_rng(1)
    n = 400
    v = rng.choice(np.arange(sorting.FEW_VALUES + 1, dtype=np.float32), size=n)
    v[-1] = sorting.FEW_VALUES + 5.0  # the pattern past the table comes last
    before = v.copy()
    ix = np.arange(n, dtype=np.intp)
    scratch = (np.empty(n, dtype=np.uint32), np.empty(n, dtype=np.uint32),
               np.empty(n, dtype=np.intp), np.empty((4, 256), dtype=np.intp))
    assert not sorting.few_values_sort(v, ix, np.intp(0), np.intp(n), *scratch)
    assert_array_equal(v, before)
    assert_array_equal(ix, np.arange(n))
    # a range inside the arrays: only [lo, hi) is sorted
    v = np.array([9, 9, 2, 1, 2, 0, 9], dtype=np.float32)
    ix = np.arange(7, dtype=np.intp)
    scratch = (np.empty(7, dtype=np.uint32), np.empty(7, dtype=np.uint32),
               np.empty(7, dtype=np.intp), np.empty((4, 256), dtype=np.intp))
    assert sorting.few_values_sort(v, ix, np.intp(2), np.intp(6), *scratch)
    assert_array_equal(v, [9, 9, 0, 1, 2, 2, 9])
    assert_array_equal(ix, [0, 1, 5, 3, 2, 4, 6])
