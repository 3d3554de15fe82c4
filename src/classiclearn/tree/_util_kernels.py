"""Small numba helpers shared by the tree builders: random numbers and medians
(sorting lives in ``_kernels/sorting.py``).

All functions are ``nogil`` pure functions on arrays; they write only into the
arrays documented as outputs.
"""

import numpy as np

from .._kernels.jit import njit
from .._kernels.sorting import sort_pairs

__all__ = [
    "rand_int",
    "rand_uniform",
    "weighted_median",
    "prefix_abs_costs",
]

RAND_MAX = 0x7FFFFFFF


@njit(cache=True, nogil=True, _nrt=False)
def _next(state):
    """Advance a 32-bit xorshift generator (Marsaglia 13/17/5) held in ``state[0]``
    (uint64 holding a uint32) and return a number in ``[0, RAND_MAX]``.

    The same generator and seeding as scikit-learn's tree splitters, so that
    ties between equally good splits resolve the same way for the same seed.
    """
    x = np.uint32(state[0])
    if x == 0:
        x = np.uint32(1)
    x ^= np.uint32(x << np.uint32(13))
    x ^= np.uint32(x >> np.uint32(17))
    x ^= np.uint32(x << np.uint32(5))
    state[0] = np.uint64(x)
    return np.intp(x % np.uint32(RAND_MAX + 1))


@njit(cache=True, nogil=True, _nrt=False)
def rand_int(state, low, high):
    """A uniform integer in ``[low, high)``."""
    return low + _next(state) % (high - low)


@njit(cache=True, nogil=True, _nrt=False)
def rand_uniform(state, low, high):
    """A uniform float in ``[low, high]``."""
    return (high - low) * np.float64(_next(state)) / np.float64(RAND_MAX) + low


@njit(cache=True, nogil=True, _nrt=False)
def weighted_median(vals, wts, n):
    """Weighted median of ``vals[:n]`` (sorted in place with ``wts``).

    The first value whose cumulative weight reaches half the total; when the
    cumulative weight equals half exactly, the midpoint with the next value.
    """
    sort_pairs(vals, wts, np.intp(0), n)
    total = 0.0
    for i in range(n):
        total += wts[i]
    half = total / 2.0
    cum = 0.0
    for i in range(n):
        cum += wts[i]
        if cum >= half:
            if cum == half and i + 1 < n:
                j = i + 1
                while j < n - 1 and wts[j] == 0.0:
                    j += 1
                return (vals[i] + vals[j]) / 2.0
            return vals[i]
    return vals[n - 1]


@njit(cache=True, nogil=True, _nrt=False)
def _push(hv, hw, size, x, wt, sign):
    # binary heap on sign * value (max-heap of sign*value)
    i = size
    hv[i] = x
    hw[i] = wt
    while i > 0:
        parent = (i - 1) // 2
        if sign * hv[parent] < sign * hv[i]:
            hv[parent], hv[i] = hv[i], hv[parent]
            hw[parent], hw[i] = hw[i], hw[parent]
            i = parent
        else:
            break
    return size + 1


@njit(cache=True, nogil=True, _nrt=False)
def _pop(hv, hw, size, sign):
    size -= 1
    hv[0] = hv[size]
    hw[0] = hw[size]
    i = 0
    while True:
        c = 2 * i + 1
        if c >= size:
            break
        if c + 1 < size and sign * hv[c + 1] > sign * hv[c]:
            c += 1
        if sign * hv[c] > sign * hv[i]:
            hv[c], hv[i] = hv[i], hv[c]
            hw[c], hw[i] = hw[i], hw[c]
            i = c
        else:
            break
    return size


@njit(cache=True, nogil=True, _nrt=False)
def prefix_abs_costs(yv, wv, n, out, lo_v, lo_w, hi_v, hi_w):
    """Weighted sum of absolute deviations from the weighted median of each prefix.

    ``out[k]`` (k = 1..n) receives ``sum_{i<k} w_i |y_i - median(y_0..y_{k-1})|``;
    ``out[0] = 0``. Two heaps (a max-heap of the lower half, a min-heap of the
    upper half) keep the weighted median, so the pass costs O(n log n).
    ``lo_v, lo_w, hi_v, hi_w`` are scratch arrays of length >= n.
    """
    n_lo = np.intp(0)
    n_hi = np.intp(0)
    w_lo = 0.0
    s_lo = 0.0
    w_hi = 0.0
    s_hi = 0.0
    out[0] = 0.0
    for k in range(n):
        x = yv[k]
        wt = wv[k]
        if n_lo == 0 or x <= lo_v[0]:
            n_lo = _push(lo_v, lo_w, n_lo, x, wt, 1.0)
            w_lo += wt
            s_lo += wt * x
        else:
            n_hi = _push(hi_v, hi_w, n_hi, x, wt, -1.0)
            w_hi += wt
            s_hi += wt * x
        total = w_lo + w_hi
        # keep w_lo >= total / 2 and (w_lo - top weight) < total / 2
        while n_hi > 0 and w_lo < total / 2.0:
            x2 = hi_v[0]
            w2 = hi_w[0]
            n_hi = _pop(hi_v, hi_w, n_hi, -1.0)
            w_hi -= w2
            s_hi -= w2 * x2
            n_lo = _push(lo_v, lo_w, n_lo, x2, w2, 1.0)
            w_lo += w2
            s_lo += w2 * x2
        while n_lo > 1 and w_lo - lo_w[0] >= total / 2.0 and lo_w[0] > 0.0:
            x2 = lo_v[0]
            w2 = lo_w[0]
            n_lo = _pop(lo_v, lo_w, n_lo, 1.0)
            w_lo -= w2
            s_lo -= w2 * x2
            n_hi = _push(hi_v, hi_w, n_hi, x2, w2, -1.0)
            w_hi += w2
            s_hi += w2 * x2
        med = lo_v[0]
        cost = (med * w_lo - s_lo) + (s_hi - med * w_hi)
        out[k + 1] = cost if cost > 0.0 else 0.0

