"""``n_jobs`` for numba's thread pool."""

import os
from contextlib import contextmanager

__all__ = ["effective_n_jobs", "numba_threads"]


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
    """
    if n_jobs is None:
        return 1
    n_cpu = os.cpu_count() or 1
    if n_jobs < 0:
        return max(1, n_cpu + 1 + n_jobs)
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
