"""Whole-array reductions that run on numba's thread pool rather than BLAS's.

Validation reads every X once for its sum of squares (finiteness and
magnitude checks). Through BLAS, that pass on a large array wakes OpenBLAS's
worker threads, which then spin for a long while after the call (about a
tenth of a second) and take the cores from numba's threads in the fit or
prediction that follows (as numba's OpenMP threads, spinning after a
parallel region, slow a BLAS product that follows). Here it runs on numba's
pool, for the estimators whose own kernels use that pool next.
"""

import numpy as np

from .jit import njit, prange

__all__ = ["sum_of_squares"]

# entries from which the pass runs in lanes on numba's threads (below, on the
# calling thread); the lanes are fixed by the array's size, and added in order,
# so the sum does not depend on the thread count
_PARALLEL_ENTRIES = 1 << 18
_MAX_LANES = 8
# entries from which the lanes run on numba's threads; below, one after the other on
# the calling thread (the same sum): a pass of up to 32 MB takes a few ms on one core,
# and waking idle pool threads (slow on a virtual machine's idle cores) costs as much
_THREADED_ENTRIES = 1 << 22


@njit(cache=True, nogil=True, fastmath={"reassoc", "contract"})
def _squares_between(flat, lo, hi):
    """Σ flat[lo:hi]² (inf on overflow, NaN on NaN: no finite-math assumption)."""
    total = 0.0
    for i in range(np.uintp(lo), np.uintp(hi)):
        total += flat[i] * flat[i]
    return total


@njit(cache=True, nogil=True, parallel=True)
def _squares_in_lanes(flat, bounds, parts):
    for lane in prange(parts.shape[0]):
        parts[lane] = _squares_between(flat, bounds[lane], bounds[lane + 1])


def sum_of_squares(flat):
    """Σ x² of a 1-D contiguous float64 array, in lanes (on numba's threads when large).

    Parameters
    ----------
    flat : ndarray of float64, shape (n,), contiguous

    Returns
    -------
    float
        inf when the sum overflows, NaN when an entry is NaN.

    Examples
    --------
    >>> import numpy as np
    >>> sum_of_squares(np.array([1.0, 2.0, 2.0]))
    9.0
    """
    n = flat.shape[0]
    if n < _PARALLEL_ENTRIES:
        return float(_squares_between(flat, 0, n))
    n_lanes = _MAX_LANES
    bounds = np.linspace(0, n, n_lanes + 1).astype(np.intp)
    parts = np.empty(n_lanes)
    if n < _THREADED_ENTRIES:
        for lane in range(n_lanes):
            parts[lane] = _squares_between(flat, bounds[lane], bounds[lane + 1])
    else:
        _squares_in_lanes(flat, bounds, parts)
    return float(parts.sum())
