"""``utils._threads.pooled_map``: the library's kept thread pools for leaf work."""

import os

import numba
import pytest

from classiclearn.utils._threads import pooled_map


def test_results_in_item_order_and_one_numba_thread_inside():
    if numba.config.NUMBA_NUM_THREADS < 2 or (os.cpu_count() or 1) < 2:
        pytest.skip("needs two numba threads")
    before = numba.get_num_threads()
    seen = pooled_map(lambda i: (i * i, numba.get_num_threads()), range(12), 2)
    assert [v for v, _ in seen] == [i * i for i in range(12)]
    # items run on the pool's threads, where numba's pool is one thread (no nesting);
    # the caller's own setting is untouched
    assert {t for _, t in seen} == {1}
    assert numba.get_num_threads() == before


def test_one_thread_or_one_item_runs_in_the_caller():
    caller = numba.get_num_threads()
    assert pooled_map(lambda i: numba.get_num_threads(), [0], 2) == [caller]
    assert pooled_map(lambda i: numba.get_num_threads(), range(3), 1) == [caller] * 3


def test_auto_threads_are_one_inside_the_library_s_worker_threads():
    """A pass reached from a meta-estimator's or a search's threads (numba's pool set to
    one there) starts no threads of its own; at top level it takes every core."""
    from classiclearn.utils._threads import auto_n_jobs, available_cores, thread_map

    top = auto_n_jobs(None, 10, 1)
    assert top == min(available_cores(), numba.get_num_threads())
    inside = thread_map(lambda _: auto_n_jobs(None, 10, 1), range(4), 2)
    assert inside == [1, 1, 1, 1]
    inside_pool = pooled_map(lambda _: auto_n_jobs(None, 10, 1), range(4), 2)
    assert inside_pool == [1, 1, 1, 1]
    assert auto_n_jobs(2, 10, 1) == 2  # an explicit n_jobs is kept


def test_a_pool_thread_runs_nested_items_itself():
    """An item that maps again (a blocked pass reached from a pooled item) runs those
    items on its own thread: waiting on them in the same pool could wait forever."""
    import threading

    def outer(i):
        names = pooled_map(lambda j: threading.current_thread().name, range(3), 2)
        return threading.current_thread().name, names

    for name, inner in pooled_map(outer, range(4), 2):
        assert name.startswith("classiclearn-")
        assert inner == [name] * 3


def test_blocked_row_sums_on_the_kept_pool_match_one_thread():
    import numpy as np

    from classiclearn.utils._threads import blocked_row_sums

    X = np.random.default_rng(0).normal(size=(50_000, 7))

    def block(lo, hi):
        return (X[lo:hi].sum(axis=0), X[lo:hi].T @ X[lo:hi])

    one = blocked_row_sums(block, X.shape[0], 1, block_rows=1000, min_threaded_rows=0)
    two = blocked_row_sums(block, X.shape[0], 2, block_rows=1000, min_threaded_rows=0)
    for a, b in zip(one, two):
        assert np.array_equal(a, b)  # fixed blocks and lanes: the same sums bit for bit
    np.testing.assert_allclose(two[1], X.T @ X, rtol=1e-10)
