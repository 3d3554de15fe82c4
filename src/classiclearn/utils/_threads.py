"""``n_jobs`` for numba's thread pool, and Python threads over GIL-free kernels.

One thread policy for the whole library:

- ``n_jobs=None`` lets the library choose: all available cores (the CPU
  affinity of the process) for a pass whose work is above its threshold in
  the one table of thresholds (:mod:`classiclearn._kernels.work`), one thread
  below it (:func:`auto_n_jobs`, :func:`threads_for_work`). An explicit
  ``n_jobs`` is obeyed, except that small passes still run on one thread.
- Loops over whole fits (cross-validation folds, search candidates) follow
  scikit-learn: ``n_jobs=None`` runs them one at a time and lets each fit use
  the cores.
- When work items run in several Python threads (:func:`thread_map`), the
  work inside each item runs on one thread (numba and BLAS), so that thread
  pools never compete.
- Results never depend on the number of threads.
"""

import functools
import os
import threading
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager, nullcontext

import numpy as np

from .._kernels.work import (
    BLAS_THREADED_ORDER,
    BLOCKED_ROWS_THREADED,
    DENSE_LOOP_PASS_THREADED,
    DENSE_LOOP_WORK,
    LOOP_PASS_WORK,
    LOOP_WORK,
    NUMBA_PASS_WORK,
    SVD_SINGLE_THREAD_TALL_COLS,
    SVD_SINGLE_THREAD_TALL_ROWS,
    SVD_SINGLE_THREAD_WIDE_ROWS,
)

__all__ = [
    "SMALL_WORK",
    "blas_can_be_limited",
    "blas_single_thread",
    "blocked_row_sums",
    "auto_n_jobs",
    "available_cores",
    "effective_n_jobs",
    "LoopThreads",
    "numba_thread_safe",
    "numba_threads",
    "on_one_blas_thread",
    "pooled_map",
    "row_chunks",
    "small_lapack",
    "thread_map",
    "threads_for_work",
]

# work below which a numba pass runs on one thread (the table: _kernels/work.py)
SMALL_WORK = NUMBA_PASS_WORK


def available_cores():
    """Number of cores this process may run on (its CPU affinity where the OS
    reports one, else the machine's count).

    Examples
    --------
    >>> available_cores() >= 1
    True
    """
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # no affinity on this platform
        return os.cpu_count() or 1


def auto_n_jobs(n_jobs, work, threshold):
    """Threads for a pass of ``work`` units under the library's policy.

    Parameters
    ----------
    n_jobs : int or None
        None: all available cores when ``work >= threshold``, else 1; at most the
        threads numba's pool has here (one inside the workers of :func:`thread_map`
        and :func:`pooled_map`, where the cores are already taken: a pass nested in a
        meta-estimator's or a search's threads starts no threads of its own).
        Otherwise as :func:`effective_n_jobs`, but 1 below the threshold.
    work, threshold : int
        The pass's work and its threshold from :mod:`classiclearn._kernels.work`.

    Returns
    -------
    int

    Examples
    --------
    >>> auto_n_jobs(None, 10, 100), auto_n_jobs(4, 10, 100), auto_n_jobs(4, 100, 100)
    (1, 1, 4)
    """
    if work < threshold:
        return 1
    if n_jobs is None:
        return min(available_cores(), current_numba_threads())
    return effective_n_jobs(n_jobs)


def effective_n_jobs(n_jobs):
    """Number of threads an ``n_jobs`` value asks for.

    Parameters
    ----------
    n_jobs : int or None
        None means 1; -1 means all cores; -2 all but one, and so on.

    Returns
    -------
    int
        At least 1.

    Examples
    --------
    >>> effective_n_jobs(None)
    1
    >>> effective_n_jobs(3), effective_n_jobs(-1) == available_cores()
    (3, True)
    """
    if n_jobs is None:
        return 1
    if n_jobs < 0:  # the core count is a system call: only when asked for
        return max(1, available_cores() + 1 + n_jobs)
    if n_jobs == 0:
        raise ValueError("n_jobs == 0 has no meaning; use None, a positive int or -1.")
    return int(n_jobs)


@contextmanager
def numba_threads(n_jobs):
    """Run the enclosed block with numba's pool set to ``n_jobs`` threads.

    The previous setting is restored afterwards, even on error. Kernels must
    not reduce floating-point sums across threads, so the result never
    depends on ``n_jobs``.

    Parameters
    ----------
    n_jobs : int or None
    """
    import numba

    wanted = min(effective_n_jobs(n_jobs), numba.config.NUMBA_NUM_THREADS)
    before = numba.get_num_threads()
    numba.set_num_threads(wanted)
    try:
        yield wanted
    finally:
        numba.set_num_threads(before)


def current_numba_threads():
    """The number of threads numba's pool uses now (as set by :func:`numba_threads`),
    for callers that run their own Python threads in its place.

    Examples
    --------
    >>> with numba_threads(1):
    ...     current_numba_threads()
    1
    """
    import numba

    return numba.get_num_threads()


class LoopThreads:
    """numba threads for the passes of an iterative loop whose length is not known
    in advance (k-means' passes until convergence).

    Passes of at least :data:`SMALL_WORK` (dense Lloyd passes: ``DENSE_LOOP_PASS_THREADED``)
    run as :func:`threads_for_work` runs them. Smaller passes start on one thread; once the passes run so far add up
    to ``LOOP_WORK`` (see :mod:`classiclearn._kernels.work`), and if each pass is
    at least ``LOOP_PASS_WORK``, the rest run on ``n_jobs`` threads (for None,
    numba's setting when the loop is made): a long loop then pays one wake of
    the pool, a short one none. Results never depend on the thread count.

    Parameters
    ----------
    n_jobs : int or None
    pass_work : int
        Multiply-adds of one pass.
    dense : bool, default=False
        Dense Lloyd passes, which go threaded from ``DENSE_LOOP_PASS_THREADED`` a pass,
        or after ``DENSE_LOOP_WORK`` in all, instead.

    Examples
    --------
    >>> loop = LoopThreads(1, 10)
    >>> with loop.next_pass() as threads:
    ...     threads
    1
    """

    def __init__(self, n_jobs, pass_work, dense=False):
        self.threads = current_numba_threads() if n_jobs is None else effective_n_jobs(n_jobs)
        self.pass_work = pass_work
        self.done = 0
        self.loop_work = DENSE_LOOP_WORK if dense else LOOP_WORK
        self.threaded_pass = DENSE_LOOP_PASS_THREADED if dense else SMALL_WORK

    def serial_passes(self):
        """How many of the next passes run on one thread (a large number: all of them)."""
        if self.pass_work >= self.threaded_pass:
            return 0
        if self.pass_work < LOOP_PASS_WORK:
            return 1 << 62
        return max(0, -(-(self.loop_work - self.done) // self.pass_work))

    def skip(self, passes):
        """Count ``passes`` run outside :meth:`next_pass` (on one thread)."""
        self.done += passes * self.pass_work

    def next_pass(self):
        """Context manager setting numba's threads for the next pass (yields their number)."""
        threaded = self.pass_work >= self.threaded_pass or (
            self.pass_work >= LOOP_PASS_WORK and self.done >= self.loop_work)
        self.done += self.pass_work
        return numba_threads(self.threads if threaded else 1)


def threads_for_work(n_jobs, work, threaded_from=None):
    """numba thread context sized to the work: one thread for a small pass.

    Parameters
    ----------
    n_jobs : int or None
        None keeps numba's current setting (all cores by default).
    work : int
        Number of multiply-adds of one pass. Below :data:`SMALL_WORK`, waking
        the thread pool costs more than it saves (on a loaded machine, far
        more); results never depend on the thread count.
    threaded_from : int, optional
        The threshold in place of :data:`SMALL_WORK`, for passes of another speed.

    Returns
    -------
    context manager
    """
    if work < (SMALL_WORK if threaded_from is None else threaded_from):
        return numba_threads(1)
    if n_jobs is None:
        return nullcontext()
    return numba_threads(n_jobs)


def parallel_code(work):
    """The ``parallel`` argument of kernels with a serial and a parallel path:
    None (serial, and numba leaves the parallel code out of the compilation)
    below :data:`SMALL_WORK` multiply-adds, where :func:`threads_for_work`
    would run one thread anyway; True above.

    Examples
    --------
    >>> parallel_code(10) is None, parallel_code(10**9)
    (True, True)
    """
    return None if work < SMALL_WORK else True


def numba_thread_safe():
    """Whether numba kernels may be launched from several Python threads at once.

    numba's OpenMP and TBB threading layers are thread-safe; its fallback
    "workqueue" layer aborts on concurrent launches, so folds then run one by one.
    """
    import numba

    if str(numba.config.THREADING_LAYER).lower() == "workqueue":
        return False
    try:
        return numba.threading_layer() != "workqueue"
    except ValueError:  # no parallel kernel has run yet: see what is available
        for module in ("numba.np.ufunc.tbbpool", "numba.np.ufunc.omppool"):
            try:
                __import__(module)
                return True
            except ImportError:
                continue
        return False


def thread_map(func, items, n_threads):
    """``[func(item) for item in items]``, in up to ``n_threads`` Python threads.

    For kernels that release the GIL. Results come back in ``items`` order, and
    with one thread (or one item) no pool is started. With several threads the
    work inside each item runs on one thread (numba's pool, which is set per
    thread, and BLAS for the duration of the map), so that nested pools never
    compete for the cores.

    Examples
    --------
    >>> thread_map(abs, [-1, 2, -3], 2)
    [1, 2, 3]
    """
    items = list(items)
    n_threads = min(n_threads, len(items))
    if n_threads <= 1:
        return [func(item) for item in items]
    def run_on_one_thread(item):
        with numba_threads(1):
            return func(item)

    with blas_single_thread(), ThreadPoolExecutor(n_threads) as pool:
        return list(pool.map(run_on_one_thread, items))


_POOLS = {}
_POOLS_LOCK = threading.Lock()
# a forked child has none of its parent's pool threads: it starts its own
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_POOLS.clear)


_LEAF = threading.local()


def _leaf_thread():
    """A kept pool's thread runs leaf work: numba's pool, set per thread, is one thread
    there, so that a parallel kernel reached from an item never nests pools."""
    import numba

    numba.set_num_threads(1)
    _LEAF.inside = True


def pooled_map(func, items, n_threads):
    """``[func(item) for item in items]`` in up to ``n_threads`` threads kept between calls.

    For leaf work only: GIL-free kernels that submit no work of their own (an item
    waiting on work queued behind it in the same pool could wait forever); numba runs on
    one thread inside them (BLAS is the caller's to limit). Starting a thread pool per
    call costs as much as the work of a small tree; the pools
    (one per thread count) live for the process. Results come back in ``items`` order;
    one thread (or one item) runs in the caller.

    Examples
    --------
    >>> pooled_map(abs, [-1, 2, -3], 2)
    [1, 2, 3]
    """
    items = list(items)
    n_threads = min(n_threads, len(items))
    # a kept pool's own thread runs its items itself: waiting there on items queued
    # behind it in the same pool could wait forever
    if n_threads <= 1 or getattr(_LEAF, "inside", False):
        return [func(item) for item in items]
    return list(_kept_pool(n_threads).map(func, items))


def _kept_pool(n_threads):
    """The process's kept pool of ``n_threads`` leaf threads (see :func:`pooled_map`)."""
    with _POOLS_LOCK:
        pool = _POOLS.get(n_threads)
        if pool is None:
            pool = _POOLS[n_threads] = ThreadPoolExecutor(
                n_threads, thread_name_prefix=f"classiclearn-{n_threads}",
                initializer=_leaf_thread)
    return pool


def beside(kernel_call, here_call):
    """``(kernel_call(), here_call())``, the first on a kept leaf thread while the second
    runs on this one.

    For a GIL-free numba kernel beside scipy's BLAS and LAPACK, whose wrappers hold the
    GIL for the whole call: ``kernel_call`` gets a ``started`` callback to call just
    before it enters its kernel, and this thread waits for it before starting
    ``here_call``, so that the kernel is not left waiting for the GIL until the LAPACK
    call returns. numba runs on one thread in ``kernel_call``; BLAS is the caller's to
    limit. An exception in either call is raised here.

    Examples
    --------
    >>> def kernel(started):
    ...     started()
    ...     return 1
    >>> beside(kernel, lambda: 2)
    (1, 2)
    """
    entered = threading.Event()
    future = _kept_pool(1).submit(kernel_call, entered.set)
    # wait for the kernel's entry (or its failure before it); then this thread's call
    while not entered.wait(0.001):
        if future.done():
            break
    here = here_call()
    return future.result(), here


def row_chunks(n_rows, n_threads, min_rows):
    """``(lo, hi)`` bounds cutting ``n_rows`` into about four chunks per thread,
    each at least ``min_rows`` long, so threads slowed by other load do not hold
    the rest back when chunks are handed out as threads free up.

    Examples
    --------
    >>> row_chunks(10, 1, 4)
    [(0, 5), (5, 10)]
    """
    n_chunks = max(1, min(4 * n_threads, n_rows // min_rows))
    return [(n_rows * c // n_chunks, n_rows * (c + 1) // n_chunks) for c in range(n_chunks)]


_BLAS_STATE = {"libraries": None, "depth": 0, "saved": []}
_BLAS_LOCK = threading.Lock()


def _blas_libraries():
    """The loaded BLAS libraries' threadpoolctl controllers (found once), or [] without
    threadpoolctl."""
    with _BLAS_LOCK:
        if _BLAS_STATE["libraries"] is None:
            try:
                from threadpoolctl import ThreadpoolController
            except ImportError:  # pragma: no cover
                _BLAS_STATE["libraries"] = []
            else:
                # numba kernels' np.dot calls scipy's BLAS (a library apart
                # from numpy's): load it first so that the limit covers it
                import scipy.linalg.cython_blas  # noqa: F401

                _BLAS_STATE["libraries"] = [
                    lib for lib in ThreadpoolController().lib_controllers
                    if lib.user_api == "blas"]
        return _BLAS_STATE["libraries"]


def blas_can_be_limited():
    """Whether :func:`blas_single_thread` really limits BLAS (threadpoolctl found).

    Callers that run BLAS inside several threads of their own use one thread
    when it cannot, rather than run several multi-threaded BLAS calls at once.

    Returns
    -------
    bool

    Examples
    --------
    >>> isinstance(blas_can_be_limited(), bool)
    True
    """
    return bool(_blas_libraries())


@contextmanager
def blas_single_thread():
    """BLAS limited to one thread while our own threads give the parallelism.

    Small BLAS calls on a multi-threaded BLAS spend more time synchronising
    (or spinning, on a loaded machine) than computing, and OpenBLAS's threads
    spin for a while after each threaded call, taking the
    cores from numba's threads. The limit goes through threadpoolctl when it is
    installed (it comes with scikit-learn; it is not a dependency of ours): the
    libraries are found once (that costs milliseconds), then each use is a few
    calls into them. Nested or concurrent uses (fits run in several threads)
    share one limit: the first sets it and the last restores the previous
    setting. The limit covers numpy's BLAS and scipy's (which numba's
    ``np.dot`` calls). Without threadpoolctl BLAS keeps its own threads and
    results are the same.

    Examples
    --------
    >>> import numpy as np
    >>> with blas_single_thread():
    ...     float(np.ones(3) @ np.ones(3))
    3.0
    """
    libraries = _blas_libraries()
    with _BLAS_LOCK:
        if _BLAS_STATE["depth"] == 0:
            saved = []
            for lib in libraries:
                before = lib.get_num_threads()
                if before is not None and before != 1:
                    lib.set_num_threads(1)
                    saved.append((lib, before))
            _BLAS_STATE["saved"] = saved
        _BLAS_STATE["depth"] += 1
    try:
        yield
    finally:
        with _BLAS_LOCK:
            _BLAS_STATE["depth"] -= 1
            if _BLAS_STATE["depth"] == 0:
                for lib, before in _BLAS_STATE["saved"]:
                    lib.set_num_threads(before)
                _BLAS_STATE["saved"] = []


def small_lapack(order, limit=BLAS_THREADED_ORDER):
    """:func:`blas_single_thread` for dense linear algebra of modest ``order`` (p x p
    factorisations, products with few columns), where one BLAS thread is faster and
    BLAS's own threads would only spin; above ``limit`` (by default
    :data:`BLAS_THREADED_ORDER`) BLAS keeps its threads.

    Examples
    --------
    >>> with small_lapack(10):
    ...     pass
    """
    return blas_single_thread() if order <= limit else nullcontext()


def svd_threads(n_rows, n_cols):
    """The BLAS thread setting for LAPACK's SVD of an ``n_rows`` x ``n_cols`` matrix:
    :func:`blas_single_thread` where one thread is faster (see
    :data:`SVD_SINGLE_THREAD_WIDE_ROWS`), else BLAS's own threads.

    Examples
    --------
    >>> with svd_threads(500, 2000):
    ...     pass
    """
    if n_rows < n_cols:
        single = n_rows <= SVD_SINGLE_THREAD_WIDE_ROWS
    else:
        single = n_cols <= SVD_SINGLE_THREAD_TALL_COLS and n_rows <= SVD_SINGLE_THREAD_TALL_ROWS
    return blas_single_thread() if single else nullcontext()


def on_one_blas_thread(method):
    """Decorator: run the method under :func:`blas_single_thread`.

    For fits whose heavy passes run on numba's threads and whose BLAS calls
    are small (vector steps, p x p systems of modest order): a multi-threaded
    BLAS would gain nothing there and its spinning threads would slow numba's.

    Examples
    --------
    >>> class Model:
    ...     @on_one_blas_thread
    ...     def fit(self):
    ...         return "fitted"
    >>> Model().fit()
    'fitted'
    """
    @functools.wraps(method)
    def wrapper(*args, **kwargs):
        with blas_single_thread():
            return method(*args, **kwargs)

    return wrapper


def blocked_row_sums(block_fn, n_rows, n_threads, block_rows=4096, n_lanes=8,
                     min_threaded_rows=None):
    """Sum ``block_fn(lo, hi)`` over fixed row blocks, in threads, in a fixed order.

    The rows are cut into blocks of ``block_rows``; runs of consecutive blocks
    (at most ``n_lanes`` lanes) are the work units handed to ``n_threads``
    threads, each lane summing its blocks in order, then the lanes are added
    in order: the result does not depend on the number of threads, and memory
    stays at one partial sum per lane. BLAS runs on one thread meanwhile
    (:func:`blas_single_thread`), so a block read by the moments and by the
    ``B' B`` product of ``block_fn`` stays in cache between them.

    Parameters
    ----------
    block_fn : callable ``(lo, hi) -> tuple of ndarray``
        Partial sums of rows ``lo:hi``; the same shapes for every block.
        Called from several threads at once.
    n_rows, n_threads : int
    block_rows, n_lanes : int
    min_threaded_rows : int, optional
        Fewer rows run on the calling thread; default
        :data:`~classiclearn._kernels.work.BLOCKED_ROWS_THREADED`. Callers whose
        blocks are heavy (many flops per row) pass a lower bound.

    Returns
    -------
    list of ndarray
        The element-wise sums over all blocks.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.arange(12.0).reshape(6, 2)
    >>> blocked_row_sums(lambda lo, hi: (X[lo:hi].sum(axis=0),), 6, 2, block_rows=4)[0]
    array([30., 36.])
    """
    if n_rows < (BLOCKED_ROWS_THREADED if min_threaded_rows is None else min_threaded_rows):
        n_threads = 1
    n_blocks = -(-n_rows // block_rows)
    n_lanes = max(1, min(n_lanes, n_blocks))
    lanes = [(c * n_blocks // n_lanes, (c + 1) * n_blocks // n_lanes) for c in range(n_lanes)]

    def lane_sum(lane):
        total = None
        for b in range(*lane):
            part = block_fn(b * block_rows, min(n_rows, (b + 1) * block_rows))
            if total is None:
                total = [np.array(a, dtype=np.float64) for a in part]
            else:
                for acc, a in zip(total, part):
                    acc += a
        return total

    with blas_single_thread():
        parts = pooled_map(lane_sum, lanes, n_threads)
    total = parts[0]
    for part in parts[1:]:
        for acc, a in zip(total, part):
            acc += a
    return total
