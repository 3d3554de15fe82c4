"""Kernel rows of the SMO solver (seed 000 §8): kernel values and the row cache.

The solver (``_smo_kernels``) asks for rows ``Q_i[:length]`` of
``Q_st = y_s y_t K(x_s, x_t)``; this module computes them from the samples and
keeps them in a least-recently-used cache. In its loop the solver takes a row the
cache holds up to date through :func:`fresh_slot` and :func:`use_slot` (and, per
sample, :func:`gather_q`), small kernels on the cache's arrays; :func:`get_q`,
which takes the named tuples, computes, completes or catches up the others. The
loop runs without numba's runtime (``_nrt=False``, see ``_smo_kernels``), so these
kernels return where a row is (a slot of ``rows``, or a ``gather`` buffer), never
the row itself; the kernel-value computations, which allocate work rows, name the
runtime explicitly. Their arguments are named tuples:

- :data:`Kernel`: the samples (dense rows ``X``, or the square Gram matrix for a
  precomputed kernel; empty (0, 0) for sparse samples), their squared norms and the
  kernel's id and parameters;
- :data:`Csr`: sparse samples (CSR arrays, the CSR row of each position and a zeroed
  scatter buffer of n_features), or None for dense ones: numba then compiles the
  dense version without the sparse code;
- :data:`RowCache`: the cached rows and their bookkeeping (below).

Long rows are computed in parallel chunks (a parallel region costs several
microseconds, so short segments stay serial); when no row is long enough
(``n_chunks`` None) the parallel code is not compiled at all.

The cache. ``rows`` (n_slots, row length) float32 holds the rows; ``slot_of[key]``
is the slot of a key (-1: none), ``owner[slot]`` its key, ``stamp[slot]`` its last
use (the least recently used slot is evicted), ``row_len[slot]`` how many leading
entries are valid. ``counters`` holds the clock and the other mutable integers
(``CACHE_*`` indices). There are two modes:

- one variable per sample (classification, ``per_sample`` False): keys are positions
  of the permuted problem and a row holds ``Q_ik`` for the leading positions only
  (the active set); a row is extended when a longer prefix is asked for (after
  unshrinking), and swapping two positions swaps the cached entries. Swapping the
  entries of every cached row at each swap (as libsvm does) is a pair of cache
  misses per row; instead swaps are logged (``swaps``; ``applied[slot]``: how much
  of the log the row has seen) and a row replays the ones it has not seen when it
  is next used (most cached rows never are), the log being flushed into every row
  when full;
- two variables per sample (epsilon regression, ``per_sample`` True): keys are
  samples, a row holds ``K`` against every sample in the original order, and ``Q``
  rows are gathered into one of the two ``gather`` buffers (the last gather is kept:
  the selection step and the update step ask for the same row).

``scratch`` holds three float64 rows of the solver's working-set selection.
"""

from collections import namedtuple

import numpy as np

from .._kernels.exp import exp_nonpositive_inplace, tanh_inplace
from .._kernels.jit import njit, prange
from .._kernels.kernel_function_kernels import LINEAR, POLY, PRECOMPUTED, RBF, SIGMOID
from .._kernels.work import KERNEL_ROW_WORK

# multiply-adds of a kernel-row segment above which it is split over threads
PAR_WORK = KERNEL_ROW_WORK

Kernel = namedtuple("Kernel", ["X", "sqnorm", "kind", "gamma", "coef0", "degree"])
Csr = namedtuple("Csr", ["data", "indices", "indptr", "rowmap", "buf"])
RowCache = namedtuple("RowCache", ["rows", "slot_of", "owner", "stamp", "row_len", "counters",
                                   "gather", "scratch", "swaps", "applied", "per_sample",
                                   "n_chunks"])

# ``RowCache.counters`` (int64): the use clock, the slots in use, the gather buffer in
# use, (position, length, buffer) of the last gathered row, the length of the swap log
CACHE_CLOCK = 0
CACHE_USED = 1
CACHE_TOGGLE = 2
CACHE_LAST_POS = 3
CACHE_LAST_LEN = 4
CACHE_LAST_BUF = 5
CACHE_N_LOGGED = 6
CACHE_N_COUNTERS = 7
NO_SLOT = -1
# float32 entries per 64-byte cache line (the stride of the in-order pre-read)
LINE_ENTRIES = 16


@njit(nogil=True, cache=True, fastmath={"contract"})
def exp_inplace(x, scratch):
    """``x = exp(x)`` for x <= 0 (``scratch``: float64, at least as long as x), by
    the shared vectorisable exponential; the RBF kernel spends most of its time here."""
    exp_nonpositive_inplace(x, x.shape[0], scratch, scratch.view(np.int64))


@njit(nogil=True, cache=True, fastmath=True)
def _dots(X, a, start, stop, out):
    """``out[k - start] = <X[a], X[k]>`` for k in [start, stop).

    Rows of ``X`` are contiguous, so each value is one short dot product the
    compiler vectorises (fast-math only here, never around ``exp_inplace``).
    """
    d = X.shape[1]
    xa = X[a]
    for k in range(start, stop):
        xk = X[k]
        s = 0.0
        for f in range(d):
            s += xa[f] * xk[f]
        out[k - start] = s


@njit(nogil=True, cache=True, fastmath=True)
def _sparse_dots(csr, start, stop, out):
    """``out[k - start] = <x_a, x_{rowmap[k]}>`` for k in [start, stop), row a
    having been scattered into ``csr.buf`` (see :func:`_scatter`)."""
    data = csr.data
    indices = csr.indices
    indptr = csr.indptr
    buf = csr.buf
    for k in range(start, stop):
        r = csr.rowmap[k]
        s = 0.0
        for q in range(indptr[r], indptr[r + 1]):
            s += data[q] * buf[indices[q]]
        out[k - start] = s


@njit(nogil=True, cache=True)
def _scatter(csr, a, clear):
    """Add row ``rowmap[a]`` of the CSR matrix into the dense buffer (or zero
    its entries again with ``clear``): the dot products of that row with
    many rows then cost one pass over each row's non-zeros."""
    r = csr.rowmap[a]
    for q in range(csr.indptr[r], csr.indptr[r + 1]):
        if clear:
            csr.buf[csr.indices[q]] = 0.0
        else:
            csr.buf[csr.indices[q]] += csr.data[q]


@njit(nogil=True, cache=True)
def _kernel_segment(kern, csr, a, out, start, stop):
    """Kernel values between row ``a`` and rows ``start:stop`` into ``out``, serially."""
    if csr is not None:
        _sparse_dots(csr, start, stop, out)
    else:
        _dots(kern.X, a, start, stop, out)
    n = stop - start
    kind = kern.kind
    gamma = kern.gamma
    if kind == RBF:
        sa = kern.sqnorm[a]
        # slices indexed from 0: contiguous vector loads (an index k - start
        # that could be negative makes LLVM gather element by element)
        sq = kern.sqnorm[start:stop]
        for k in range(n):
            out[k] = -gamma * (sa + sq[k] - 2.0 * out[k])
        exp_inplace(out[:n], np.empty(n))
    elif kind == POLY:
        for k in range(n):
            out[k] = (gamma * out[k] + kern.coef0) ** kern.degree
    elif kind == SIGMOID:
        for k in range(n):
            out[k] = gamma * out[k] + kern.coef0
        scratch = np.empty(n)
        tanh_inplace(out, n, scratch, scratch.view(np.int64))


@njit(nogil=True, parallel=True, cache=True)
def _kernel_parallel(kern, csr, a, out, start, stop, n_chunks):
    """:func:`_kernel_segment` over ``n_chunks`` chunks of ``start:stop`` in parallel."""
    n = stop - start
    for c in prange(n_chunks):
        lo = start + c * n // n_chunks
        hi = start + (c + 1) * n // n_chunks
        _kernel_segment(kern, csr, a, out[lo - start:hi - start], lo, hi)


@njit(nogil=True, cache=True, _nrt=True)
def kernel_values(kern, csr, a, out, start, stop, n_chunks):
    """Kernel values between row ``a`` and rows ``start:stop`` into ``out``.

    Dense samples: ``kern.X`` holds them as contiguous rows and ``csr`` is None.
    Sparse samples: ``csr`` (:data:`Csr`) holds them (position k is CSR row
    ``rowmap[k]``; ``buf`` a zeroed float64 scratch of n_features, zeroed again on
    return) and ``kern.X`` is empty. ``kern.sqnorm`` holds the squared norms by
    position. With ``n_chunks > 1`` a segment of at least ``PAR_WORK``
    multiply-adds is split into chunks computed in parallel; ``n_chunks`` None:
    always serial, and the parallel code is left out when numba compiles.
    """
    if csr is not None:
        width = max(1, csr.data.shape[0] // max(1, csr.indptr.shape[0] - 1))
        _scatter(csr, a, np.bool_(False))
    else:
        width = kern.X.shape[1]
    if n_chunks is not None and n_chunks > 1 and (stop - start) * width >= PAR_WORK:
        _kernel_parallel(kern, csr, a, out, start, stop, n_chunks)
    else:
        _kernel_segment(kern, csr, a, out, start, stop)
    if csr is not None:
        _scatter(csr, a, np.bool_(True))


@njit(nogil=True, cache=True, _nrt=True, inline="always")
def kernel_diagonal(kern):
    """``K(x_s, x_s)`` of every sample (float64, n_samples)."""
    sqnorm = kern.sqnorm
    kind = kern.kind
    n = sqnorm.shape[0]
    out = np.empty(n)
    for i in range(n):
        if kind == PRECOMPUTED:
            out[i] = kern.X[i, i]
        elif kind == LINEAR:
            out[i] = sqnorm[i]
        elif kind == POLY:
            out[i] = (kern.gamma * sqnorm[i] + kern.coef0) ** kern.degree
        elif kind == RBF:
            out[i] = 1.0
        else:
            out[i] = np.tanh(kern.gamma * sqnorm[i] + kern.coef0)
    return out


@njit(nogil=True, cache=True, _nrt=True, inline="always")
def new_row_cache(n_slots, row_length, n_variables, per_sample, n_chunks, log_size):
    """An empty :data:`RowCache` of ``n_slots`` rows of ``row_length`` entries
    (positions, or samples with ``per_sample``) and a swap log of ``log_size``."""
    counters = np.zeros(CACHE_N_COUNTERS, dtype=np.int64)
    counters[CACHE_LAST_POS] = -1
    return RowCache(np.empty((n_slots, row_length), dtype=np.float32),
                    np.full(row_length, NO_SLOT, dtype=np.intp),
                    np.full(n_slots, NO_SLOT, dtype=np.intp), np.zeros(n_slots, dtype=np.int64),
                    np.zeros(n_slots, dtype=np.intp), counters,
                    np.empty((2, n_variables if per_sample else 1), dtype=np.float32),
                    np.empty((3, n_variables)), np.empty((log_size, 2), dtype=np.intp),
                    np.zeros(n_slots, dtype=np.int64), per_sample, n_chunks)


@njit(nogil=True, cache=True, _nrt=False, inline="always")
def _take_slot(key, cache):
    """A slot for ``key``: a free one, else the least recently used one (evicted)."""
    counters = cache.counters
    stamp = cache.stamp
    n_slots = cache.rows.shape[0]
    if counters[CACHE_USED] < n_slots:
        slot = counters[CACHE_USED]
        counters[CACHE_USED] += 1
    else:
        slot = 0
        oldest = stamp[0]
        for s in range(1, n_slots):
            if stamp[s] < oldest:
                oldest = stamp[s]
                slot = s
        cache.slot_of[cache.owner[slot]] = NO_SLOT
    cache.slot_of[key] = slot
    cache.owner[slot] = key
    cache.row_len[slot] = 0
    cache.applied[slot] = counters[CACHE_N_LOGGED]
    return slot


@njit(nogil=True, cache=True, _nrt=False)
def _catch_up(row, length, first, n_log, swaps):
    """Replay the logged swaps ``first:n_log`` on a cached row of ``length``
    valid entries; returns the new length."""
    for e in range(first, n_log):
        lo = swaps[e, 0]
        if length > lo:
            hi = swaps[e, 1]
            if length > hi:
                row[lo], row[hi] = row[hi], row[lo]
            else:
                length = lo
    return length


@njit(nogil=True, cache=True, _nrt=False, inline="always")
def _position_row(i, length, kern, csr, y, sid, cache):
    """Per-variable mode: the slot of position ``i``'s cached row, swaps replayed and
    extended to ``length`` entries when shorter."""
    counters = cache.counters
    n_logged = counters[CACHE_N_LOGGED]
    slot = cache.slot_of[i]
    if slot < 0:
        slot = _take_slot(i, cache)
    elif cache.applied[slot] != n_logged:
        cache.row_len[slot] = _catch_up(cache.rows[slot], cache.row_len[slot],
                                        cache.applied[slot], n_logged, cache.swaps)
        cache.applied[slot] = n_logged
    cache.stamp[slot] = counters[CACHE_CLOCK]
    have = cache.row_len[slot]
    if have < length:
        _compute_row(i, have, length, kern, csr, y, sid, cache.rows[slot], cache.n_chunks,
                     np.bool_(False))
        cache.row_len[slot] = length
    return slot


# numba's runtime named explicitly (this kernel and the ones it calls allocate a
# work row): the solver's loop, compiled without it, calls it only for rows the cache
# does not hold, and it returns no array
@njit(nogil=True, cache=True, _nrt=True)
def _compute_row(i, have, length, kern, csr, y, sid, row, n_chunks, per_sample):
    """Per variable: ``row[k] = Q_ik`` for ``have <= k < length`` (positions). Per
    sample: ``row[k] = K(x_i, x_k)`` for every sample k (``i`` a sample)."""
    n = length - have
    tmp = np.empty(n)
    if kern.kind == PRECOMPUTED:
        si = i if per_sample else sid[i]
        for k in range(have, length):
            tmp[k - have] = kern.X[si, k if per_sample else sid[k]]
    else:
        kernel_values(kern, csr, i, tmp, have, length, n_chunks)
    # slices indexed from 0: contiguous vector loads and stores (indices from
    # range(have, length) could be negative as far as LLVM knows, and numba's
    # negative-index wrap-around then makes it gather and scatter)
    out = row[have:length]
    if per_sample:
        out[:] = tmp
    else:
        yi = y[i]
        ys = y[have:length]
        for t in range(n):
            out[t] = yi * ys[t] * tmp[t]


@njit(nogil=True, cache=True, _nrt=False, inline="always")
def _sample_row(s, kern, csr, y, sid, cache):
    """Per-sample mode: the slot of the cached kernel row of sample ``s`` (every
    sample, in the original order)."""
    slot = cache.slot_of[s]
    if slot < 0:
        slot = _take_slot(s, cache)
    cache.stamp[slot] = cache.counters[CACHE_CLOCK]
    if cache.row_len[slot] < cache.rows.shape[1]:
        _compute_row(s, np.intp(0), cache.rows.shape[1], kern, csr, y, sid, cache.rows[slot],
                     cache.n_chunks, np.bool_(True))
        cache.row_len[slot] = cache.rows.shape[1]
    return slot


@njit(nogil=True, cache=True, _nrt=False, inline="always")
def _gathered_row(i, length, kern, csr, y, sid, cache):
    """Per-sample mode: the gather buffer into which ``Q_i[:length]`` is gathered from
    the kernel row of the sample of position ``i``."""
    counters = cache.counters
    if counters[CACHE_LAST_POS] == i and counters[CACHE_LAST_LEN] == length:
        # same row as the last gather (selection, then the update step)
        counters[CACHE_TOGGLE] = counters[CACHE_LAST_BUF]
        return counters[CACHE_LAST_BUF]
    slot = _sample_row(sid[i], kern, csr, y, sid, cache)
    return gather_q(i, length, y, sid, cache.rows[slot], cache.gather, counters, cache.scratch)


@njit(nogil=True, cache=True, _nrt=False)
def gather_q(i, length, y, sid, krow, gather, counters, scratch):
    """Per-sample mode: ``Q_i[:length]`` from ``krow``, the kernel row of the sample
    of position ``i``, into the gather buffer not in use (which becomes the last
    gathered row); returns that buffer's index in ``gather``."""
    # read the row in order first (one entry per cache line): the gather's
    # scattered reads then hit lines the hardware prefetcher brought in
    # (a row that is not cached gains most); the sum is stored
    # only so that the reads are kept
    touch = np.float32(0.0)
    for k in range(0, krow.shape[0], LINE_ENTRIES):
        touch += krow[k]
    scratch[2, scratch.shape[1] - 1] = touch
    buf = 1 - counters[CACHE_TOGGLE]
    counters[CACHE_TOGGLE] = buf
    out = gather[buf]
    yi = y[i]
    for k in range(length):
        out[k] = yi * y[k] * krow[sid[k]]
    counters[CACHE_LAST_POS] = i
    counters[CACHE_LAST_LEN] = length
    counters[CACHE_LAST_BUF] = buf
    return buf


@njit(nogil=True, cache=True, _nrt=False, inline="always")
def fresh_slot(i, length, per_sample, sid, slot_of, row_len, applied, counters):
    """The cache slot from which ``Q_i[:length]`` can be had without computing
    kernel values, else ``NO_SLOT`` (then :func:`get_q` must compute, complete or
    reuse it). Per variable: the slot of position ``i``'s row when it is up to date
    and long enough (the row is ``Q_i``). Per sample: the slot of the kernel row of
    ``i``'s sample, to be gathered by :func:`gather_q`, unless the last gathered
    row is ``Q_i[:length]`` itself. Only reads."""
    if per_sample:
        slot = slot_of[sid[i]]
        regather = (counters[CACHE_LAST_POS] != i) | (counters[CACHE_LAST_LEN] != length)
        fresh = (slot >= 0) & (row_len[slot] > 0) & regather
    else:
        slot = slot_of[i]
        fresh = ((slot >= 0) & (applied[slot] == counters[CACHE_N_LOGGED])
                 & (row_len[slot] >= length))
    return slot if fresh else NO_SLOT


@njit(nogil=True, cache=True, _nrt=False, inline="always")
def use_slot(slot, stamp, counters):
    """Stamp ``slot`` (a slot :func:`fresh_slot` found) as just used: its row is
    ``Q_i`` itself per variable, the sample's kernel row for :func:`gather_q` per
    sample."""
    counters[CACHE_CLOCK] += 1
    stamp[slot] = counters[CACHE_CLOCK]


@njit(nogil=True, cache=True, _nrt=False)
def get_q(i, length, kern, csr, y, sid, cache):
    """``Q_ik = y_i y_k K(x_i, x_k)`` for the positions ``k < length`` (float32),
    ``y`` the labels and ``sid`` the sample of each position: returns where the row
    is, ``cache.gather[ref]`` per sample, ``cache.rows[ref]`` per variable (no array
    is returned: the solver's loop runs without numba's runtime)."""
    cache.counters[CACHE_CLOCK] += 1
    if cache.per_sample:
        return _gathered_row(i, length, kern, csr, y, sid, cache)
    return _position_row(i, length, kern, csr, y, sid, cache)


@njit(nogil=True, cache=True, _nrt=False, inline="always")
def swap_samples(i, j, kern, csr):
    """Exchange the samples at positions i and j (rows of ``kern.X``, or entries of
    the row map for sparse samples, and their squared norms)."""
    if csr is not None:
        rowmap = csr.rowmap
        rowmap[i], rowmap[j] = rowmap[j], rowmap[i]
    else:
        X = kern.X
        for f in range(X.shape[1]):
            X[i, f], X[j, f] = X[j, f], X[i, f]
    sq = kern.sqnorm
    sq[i], sq[j] = sq[j], sq[i]


@njit(nogil=True, cache=True, _nrt=False, inline="always")
def swap_cached(i, j, cache):
    """Exchange positions i and j in the cache: the rows they own now, and (logged)
    their entries of every row."""
    counters = cache.counters
    if cache.per_sample:
        counters[CACHE_LAST_POS] = -1  # the last gathered row no longer matches the positions
        return
    si = cache.slot_of[i]
    sj = cache.slot_of[j]
    cache.slot_of[i] = sj
    cache.slot_of[j] = si
    if si >= 0:
        cache.owner[si] = j
    if sj >= 0:
        cache.owner[sj] = i
    swaps = cache.swaps
    if counters[CACHE_N_LOGGED] == swaps.shape[0]:
        # log full: bring every cached row up to date and start a new log
        for s in range(counters[CACHE_USED]):
            cache.row_len[s] = _catch_up(cache.rows[s], cache.row_len[s], cache.applied[s],
                                         counters[CACHE_N_LOGGED], swaps)
        counters[CACHE_N_LOGGED] = 0
        cache.applied[:] = 0
    swaps[counters[CACHE_N_LOGGED], 0] = min(i, j)
    swaps[counters[CACHE_N_LOGGED], 1] = max(i, j)
    counters[CACHE_N_LOGGED] += 1
