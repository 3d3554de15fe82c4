"""Whole-array reductions that run on numba's thread pool rather than BLAS's.

Validation reads every X once for its sum of squares (finiteness and
magnitude checks). Through BLAS, that pass on a large array wakes OpenBLAS's
worker threads, which then spin for a long while after the call and take the
cores from numba's threads in the fit or prediction that follows (as numba's
OpenMP threads, spinning after a parallel region, slow a BLAS product that
follows). Here it runs on numba's pool, for the estimators whose own kernels
use that pool next.
"""

import numpy as np

from .jit import njit, prange

__all__ = ["column_abs_max_and_nan", "sum_of_squares"]

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


@njit(cache=True, nogil=True)
def _column_ranges(X, top, bottom, nan):
    # one pass by rows; NaN fails both comparisons and only sets its column's flag
    for i in range(X.shape[0]):
        for j in range(X.shape[1]):
            v = X[i, j]
            if v > top[j]:
                top[j] = v
            if v < bottom[j]:
                bottom[j] = v
            if v != v:
                nan[j] = 1


def column_abs_max_and_nan(X):
    """Per column of a 2-D float array: the largest |x| ignoring NaN (0 for a column
    of NaN) and whether the column holds a NaN, in one pass by rows.

    numpy's reductions over axis 0 of a C-ordered array with few columns run an inner
    loop per row; here one compiled pass serves both questions. Other layouts use
    numpy (their columns are contiguous, or the array is small).

    Parameters
    ----------
    X : ndarray of float32 or float64, shape (n, p)

    Returns
    -------
    max_abs : ndarray of float64, shape (p,)
    has_nan : ndarray of bool, shape (p,)

    Examples
    --------
    >>> import numpy as np
    >>> m, nan = column_abs_max_and_nan(np.array([[1.0, np.nan], [-3.0, 2.0]]))
    >>> m.tolist(), nan.tolist()
    ([3.0, 2.0], [False, True])
    """
    p = X.shape[1]
    if X.flags.c_contiguous and X.dtype in (np.float32, np.float64) and X.shape[0] > 1:
        top = np.zeros(p, dtype=X.dtype)
        bottom = np.zeros(p, dtype=X.dtype)
        nan = np.zeros(p, dtype=np.uint8)
        _column_ranges(X, top, bottom, nan)
        return np.maximum(top, -bottom).astype(np.float64), nan.astype(bool)
    with np.errstate(invalid="ignore"):
        top, bottom = np.fmax.reduce(X, axis=0), np.fmin.reduce(X, axis=0)
    max_abs = np.maximum(top, -bottom).astype(np.float64)
    return np.where(np.isnan(max_abs), 0.0, max_abs), np.isnan(X).any(axis=0)
