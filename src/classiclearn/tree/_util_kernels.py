"""Small numba helpers shared by the tree builders: random numbers, sorting, medians.

All functions are ``nogil`` pure functions on arrays; they write only into the
arrays documented as outputs.
"""

import numpy as np

from .._kernels.jit import njit

__all__ = [
    "rand_int",
    "rand_uniform",
    "sort_pairs",
    "weighted_median",
    "prefix_abs_costs",
]

RAND_MAX = 0x7FFFFFFF


@njit(cache=True, nogil=True)
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


@njit(cache=True, nogil=True)
def rand_int(state, low, high):
    """A uniform integer in ``[low, high)``."""
    return low + _next(state) % (high - low)


@njit(cache=True, nogil=True)
def rand_uniform(state, low, high):
    """A uniform float in ``[low, high]``."""
    return (high - low) * np.float64(_next(state)) / np.float64(RAND_MAX) + low


@njit(cache=True, nogil=True)
def _insertion(v, ix, lo, hi):
    for i in range(lo + 1, hi):
        key = v[i]
        kx = ix[i]
        j = i - 1
        while j >= lo and v[j] > key:
            v[j + 1] = v[j]
            ix[j + 1] = ix[j]
            j -= 1
        v[j + 1] = key
        ix[j + 1] = kx


@njit(cache=True, nogil=True)
def _sift(v, ix, lo, root, n):
    while True:
        child = 2 * root + 1
        if child >= n:
            return
        if child + 1 < n and v[lo + child + 1] > v[lo + child]:
            child += 1
        if v[lo + child] > v[lo + root]:
            a = lo + child
            b = lo + root
            v[a], v[b] = v[b], v[a]
            ix[a], ix[b] = ix[b], ix[a]
            root = child
        else:
            return


@njit(cache=True, nogil=True)
def _heapsort(v, ix, lo, hi):
    n = hi - lo
    for start in range(n // 2 - 1, -1, -1):
        _sift(v, ix, lo, start, n)
    for end in range(n - 1, 0, -1):
        a = lo + end
        v[lo], v[a] = v[a], v[lo]
        ix[lo], ix[a] = ix[a], ix[lo]
        _sift(v, ix, lo, np.intp(0), end)


@njit(cache=True, nogil=True)
def _median3(v, ix, a, m, c):
    # order v[a] <= v[m] <= v[c] by swaps, leaving the median at m
    if v[m] < v[a]:
        v[a], v[m] = v[m], v[a]
        ix[a], ix[m] = ix[m], ix[a]
    if v[c] < v[m]:
        v[c], v[m] = v[m], v[c]
        ix[c], ix[m] = ix[m], ix[c]
        if v[m] < v[a]:
            v[a], v[m] = v[m], v[a]
            ix[a], ix[m] = ix[m], ix[a]


@njit(cache=True, nogil=True)
def sort_pairs(v, ix, lo, hi):
    """Sort ``v[lo:hi]`` ascending in place, permuting ``ix[lo:hi]`` alongside.

    Introsort: quicksort with median-of-three pivots and Hoare partitioning
    (balanced on repeated values), heapsort past a depth limit, insertion
    sort on short runs. Not stable.
    """
    n = hi - lo
    if n < 2:
        return
    if n <= 16:
        _insertion(v, ix, lo, hi)
        return
    limit = 0
    while n > 1:
        limit += 1
        n >>= 1
    stack = np.empty((64, 3), dtype=np.intp)
    stack[0, 0] = lo
    stack[0, 1] = hi
    stack[0, 2] = 2 * limit
    top = 1
    while top > 0:
        top -= 1
        a = stack[top, 0]
        b = stack[top, 1]
        depth = stack[top, 2]
        while b - a > 16:
            if depth == 0:
                _heapsort(v, ix, a, b)
                a = b
                break
            depth -= 1
            m = a + ((b - a) >> 1)
            _median3(v, ix, a, m, b - 1)
            pivot = v[m]
            i = a
            j = b - 1
            while True:
                i += 1
                while v[i] < pivot:
                    i += 1
                j -= 1
                while pivot < v[j]:
                    j -= 1
                if i >= j:
                    break
                v[i], v[j] = v[j], v[i]
                ix[i], ix[j] = ix[j], ix[i]
            # [a, j] <= pivot <= [j + 1, b)
            if j + 1 - a > b - j - 1:
                stack[top, 0] = a
                stack[top, 1] = j + 1
                stack[top, 2] = depth
                top += 1
                a = j + 1
            else:
                stack[top, 0] = j + 1
                stack[top, 1] = b
                stack[top, 2] = depth
                top += 1
                b = j + 1
        if b - a > 1:
            _insertion(v, ix, a, b)


@njit(cache=True, nogil=True)
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


@njit(cache=True, nogil=True)
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


@njit(cache=True, nogil=True)
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


@njit(cache=True, nogil=True)
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


@njit(cache=True, nogil=True)
def radix_sort_pairs(v, ix, lo, hi, k1, k2, i2, counts):
    """Sort float32 ``v[lo:hi]`` with payload ``ix[lo:hi]`` by an LSD radix sort
    on the order-preserving uint32 image of the floats (4 passes of 8 bits,
    skipping passes where all keys share the digit). Stable; O(n).

    ``k1, k2`` (uint32), ``i2`` (intp) are scratch of length >= hi - lo and
    ``counts`` an intp (4, 256) scratch.
    """
    n = hi - lo
    u = v[lo:hi].view(np.uint32)
    for d in range(4):
        for c in range(256):
            counts[d, c] = 0
    for i in range(n):
        b = u[i]
        if b & np.uint32(0x80000000):
            key = np.uint32(~b)
        else:
            key = np.uint32(b | np.uint32(0x80000000))
        k1[i] = key
        i2[i] = ix[lo + i]
        counts[0, key & np.uint32(255)] += 1
        counts[1, (key >> np.uint32(8)) & np.uint32(255)] += 1
        counts[2, (key >> np.uint32(16)) & np.uint32(255)] += 1
        counts[3, key >> np.uint32(24)] += 1
    src_k = k1
    dst_k = k2
    # payload ping-pongs between i2 and ix[lo:hi]
    src_i = i2
    dst_i = ix[lo:hi]
    for d in range(4):
        shift = np.uint32(8 * d)
        first = (src_k[0] >> shift) & np.uint32(255)
        if counts[d, first] == n:
            continue
        total = 0
        for c in range(256):
            t = counts[d, c]
            counts[d, c] = total
            total += t
        for i in range(n):
            key = src_k[i]
            dig = (key >> shift) & np.uint32(255)
            p = counts[d, dig]
            counts[d, dig] = p + 1
            dst_k[p] = key
            dst_i[p] = src_i[i]
        src_k, dst_k = dst_k, src_k
        src_i, dst_i = dst_i, src_i
    out_i = ix[lo:hi]
    for i in range(n):
        key = src_k[i]
        if key & np.uint32(0x80000000):
            u[i] = np.uint32(key & np.uint32(0x7FFFFFFF))
        else:
            u[i] = np.uint32(~key)
        out_i[i] = src_i[i]
