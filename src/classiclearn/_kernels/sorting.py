"""Sorting, selection and heaps on pairs of arrays: one home for trees and neighbours.

Every function reorders a value array and an index (or weight) array together,
in place, and is a ``nogil`` numba function on plain arrays:

- :func:`sort_pairs`: introsort of ``v[lo:hi]`` (unstable; the tree splitters,
  whose parity with scikit-learn's trees depends on this exact order of
  operations), :func:`radix_sort_pairs` for the splitters' large nodes and
  :func:`few_values_sort`, its counting pass for values of few distinct patterns
  (integer codes), in the same stable order;
- :func:`sort_pairs_lexicographic`: insertion sort of short rows ascending by
  (value, index), the neighbours' tie rule (equal distances go to the lower
  training index);
- :func:`select_nth`: Hoare selection (the k-d / ball tree's median split);
- :func:`sift_down`, :func:`heap_sort`: the max-heap on (distance, index)
  that holds a query's k nearest neighbours, and :func:`insert_sorted`, its
  sorted-list counterpart for small k.
"""

import numpy as np

from .jit import njit
from .refcounts import keep_alive

__all__ = [
    "heap_sort",
    "insert_sorted",
    "few_values_sort",
    "radix_sort_pairs",
    "select_nth",
    "sift_down",
    "sort_pairs",
    "sort_pairs_lexicographic",
]

# ---------------------------------------------------------------- introsort (trees)

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
    keep_alive(v, ix)


@njit(cache=True, nogil=True)
def sort_pairs(v, ix, lo, hi):
    """Sort ``v[lo:hi]`` ascending in place, permuting ``ix[lo:hi]`` alongside.

    Introsort: quicksort with median-of-three pivots and Hoare partitioning
    (balanced on repeated values), heapsort past a depth limit, insertion
    sort on short runs. Not stable.

    One exit, the arrays kept alive past the branches (:func:`keep_alive`):
    the tree splitters call it per feature of small nodes, where the reference
    counts of an early return would cost about as much as the sort.
    """
    n = hi - lo
    if n > 16:
        _introsort(v, ix, lo, hi)
    elif n > 1:
        _insertion(v, ix, lo, hi)
    keep_alive(v, ix)


# numba's runtime named explicitly: this kernel allocates, and a kernel that leaves
# the option unset inherits it from its first caller (``_nrt=False`` in the tree's
# splitters, see ``refcounts``)
@njit(cache=True, nogil=True, _nrt=True)
def _introsort(v, ix, lo, hi):
    """:func:`sort_pairs` of more than 16 values."""
    n = hi - lo
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


# distinct values up to which radix_sort_pairs sorts by counting instead
FEW_VALUES = 16


@njit(cache=True, nogil=True, inline="always")
def _radix_key(b):
    """The order-preserving uint32 image of a float32's bits."""
    if b & np.uint32(0x80000000):
        return np.uint32(~b)
    return np.uint32(b | np.uint32(0x80000000))


@njit(cache=True, nogil=True)
def few_values_sort(v, ix, lo, hi, codes, out_v, out_i, counts):
    """:func:`radix_sort_pairs` of values with at most ``FEW_VALUES`` distinct bit
    patterns (integer codes, ratings, counts): each value's code in a table of the
    patterns met, then one stable counting pass; the same order as the radix sort's.
    Returns False, leaving the values as they were, at the first pattern past the
    table's size (for continuous data, within the first few values)."""
    n = hi - lo
    u = v[lo:hi].view(np.uint32)
    k = 0
    for i in range(n):
        b = u[i]
        c = k
        for t in range(k):  # no early exit: a select per entry, no mispredicted branch
            if np.uint32(counts[2, t]) == b:
                c = t
        if c == k:
            if k == FEW_VALUES:
                return False
            counts[2, k] = b
            counts[0, k] = 0
            k += 1
        counts[0, c] += 1
        codes[i] = c
    # rank the patterns by their keys (insertion sort of at most FEW_VALUES), then the
    # first position of each code's run
    for c in range(k):
        counts[3, c] = c
    for c in range(1, k):
        t = counts[3, c]
        key = _radix_key(np.uint32(counts[2, t]))
        d = c - 1
        while d >= 0 and _radix_key(np.uint32(counts[2, counts[3, d]])) > key:
            counts[3, d + 1] = counts[3, d]
            d -= 1
        counts[3, d + 1] = t
    total = 0
    for r in range(k):
        c = counts[3, r]
        counts[1, c] = total
        total += counts[0, c]
    for i in range(n):
        c = codes[i]
        p = counts[1, c]
        counts[1, c] = p + 1
        out_v[p] = u[i]
        out_i[p] = ix[lo + i]
    for i in range(n):
        u[i] = out_v[i]
        ix[lo + i] = out_i[i]
    return True


@njit(cache=True, nogil=True)
def radix_sort_pairs(v, ix, lo, hi, k1, k2, i2, counts):
    """Sort float32 ``v[lo:hi]`` with payload ``ix[lo:hi]`` by an LSD radix sort
    on the order-preserving uint32 image of the floats (4 passes of 8 bits,
    skipping passes where all keys share the digit). Stable; O(n). Values of at
    most ``FEW_VALUES`` distinct bit patterns are sorted by counting, in the same
    order, in one pass fewer.

    ``k1, k2`` (uint32), ``i2`` (intp) are scratch of length >= hi - lo and
    ``counts`` an intp (4, 256) scratch.
    """
    if not few_values_sort(v, ix, lo, hi, k1, k2, i2, counts):
        radix_passes(v, ix, lo, hi, k1, k2, i2, counts)


@njit(cache=True, nogil=True)
def radix_passes(v, ix, lo, hi, k1, k2, i2, counts):
    """:func:`radix_sort_pairs` without its first try of :func:`few_values_sort`, for
    values already known to take more than ``FEW_VALUES`` bit patterns."""
    n = hi - lo
    u = v[lo:hi].view(np.uint32)
    for d in range(4):
        for c in range(256):
            counts[d, c] = 0
    for i in range(n):
        key = _radix_key(u[i])
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


# ---------------------------------------------------------------- selection


@njit(cache=True, nogil=True)
def select_nth(keys, idx, nth):
    """Reorder ``keys`` and ``idx`` together so that position ``nth`` holds
    the value it would hold in sorted order, smaller ones before it and
    larger ones after it (Hoare partitioning, median-of-three pivot).
    Works on contiguous copies so every pass is sequential in memory."""
    left = 0
    right = keys.shape[0] - 1
    while right > left:
        mid = (left + right) >> 1
        if keys[mid] < keys[left]:
            keys[mid], keys[left] = keys[left], keys[mid]
            idx[mid], idx[left] = idx[left], idx[mid]
        if keys[right] < keys[left]:
            keys[right], keys[left] = keys[left], keys[right]
            idx[right], idx[left] = idx[left], idx[right]
        if keys[right] < keys[mid]:
            keys[right], keys[mid] = keys[mid], keys[right]
            idx[right], idx[mid] = idx[mid], idx[right]
        pivot = keys[mid]
        i = left
        j = right
        while i <= j:
            while keys[i] < pivot:
                i += 1
            while keys[j] > pivot:
                j -= 1
            if i <= j:
                keys[i], keys[j] = keys[j], keys[i]
                idx[i], idx[j] = idx[j], idx[i]
                i += 1
                j -= 1
        if nth <= j:
            right = j
        elif nth >= i:
            left = i
        else:
            break


# ---------------------------------------------------------------- neighbour lists


@njit(cache=True, nogil=True, inline="always")
def _greater(a, ia, b, ib):
    return a > b or (a == b and ia > ib)


@njit(cache=True, nogil=True)
def sift_down(hd, hi, pos, n, value, index):
    """Place (value, index) at ``pos`` of the max-heap ``hd[:n], hi[:n]`` and
    sift it down; the heap order is lexicographic on (distance, index)."""
    while True:
        c = 2 * pos + 1
        if c >= n:
            break
        if c + 1 < n and _greater(hd[c + 1], hi[c + 1], hd[c], hi[c]):
            c += 1
        if _greater(hd[c], hi[c], value, index):
            hd[pos] = hd[c]
            hi[pos] = hi[c]
            pos = c
        else:
            break
    hd[pos] = value
    hi[pos] = index


@njit(cache=True, nogil=True)
def heap_sort(hd, hi):
    """Turn a max-heap into ascending (distance, index) order, in place."""
    for end in range(hd.shape[0] - 1, 0, -1):
        v = hd[end]
        j = hi[end]
        hd[end] = hd[0]
        hi[end] = hi[0]
        sift_down(hd, hi, np.intp(0), end, v, j)


@njit(cache=True, nogil=True, inline="always")
def insert_sorted(hdi, hii, v, idx):
    """Insert ``(v, idx)`` into the ascending list ``hdi``, ``hii`` (dropping the
    last entry; after any equal value); returns the new last value."""
    pos = hdi.shape[0] - 1
    while pos > 0 and hdi[pos - 1] > v:
        hdi[pos] = hdi[pos - 1]
        hii[pos] = hii[pos - 1]
        pos -= 1
    hdi[pos] = v
    hii[pos] = idx
    return hdi[hdi.shape[0] - 1]


@njit(cache=True, nogil=True)
def sort_pairs_lexicographic(d, ind):
    """Insertion sort of (d, ind) pairs, ascending lexicographic (short rows)."""
    for a in range(1, d.shape[0]):
        v = d[a]
        j = ind[a]
        b = a - 1
        while b >= 0 and (d[b] > v or (d[b] == v and ind[b] > j)):
            d[b + 1] = d[b]
            ind[b + 1] = ind[b]
            b -= 1
        d[b + 1] = v
        ind[b + 1] = j
