"""numba kernels of the SMO dual solver behind SVC and SVR (seed 000 §8).

The solver minimises the dual of a soft-margin support-vector machine in the
general form

    min_a  1/2 a' Q a + p' a   subject to  y' a = const,  0 <= a_t <= C_t,

with ``Q_st = y_s y_t K(x_{idx_s}, x_{idx_t})`` and ``y_t`` in {+1, -1}.
Classification has one variable per sample (``p = -1``); epsilon regression
has two per sample (``idx`` maps both to the sample).

Each iteration picks a pair of variables by second-order working-set
selection (Fan, Chen and Lin, JMLR 2005), solves the two-variable problem in
closed form and updates the gradient. The pairs, and so the iteration counts,
are libsvm's; the cost per iteration is two passes over the active prefix
(gradient update fused with the search for the maximal violations, then the
second-order choice), both vectorised, with the I_up / I_low membership of
each position kept in an int8 status that changes only for the pair updated.

As in libsvm, the problem lives in a permuted order: shrinking moves
variables stuck at a bound behind an active prefix of positions (swapping
the solver state, the rows of a private copy of the features and, lazily,
the cached kernel entries), so every loop runs over contiguous memory and a kernel row
is computed only for the active prefix (``Q_i[:active_size]``); a cached row
is extended when a longer prefix is needed (gradient rebuild, ``G_bar``).
Rows live in a least-recently-used cache whose size is bounded by the
caller; long rows are computed in parallel. ``G_bar`` (the part of the
gradient due to variables at the upper bound) rebuilds the gradient of the
shrunk variables before the final optimality check.
"""

import numpy as np

from .._kernels.exp import exp_nonpositive_inplace
from .._kernels.jit import njit, prange
from .._kernels.kernel_function_kernels import LINEAR, POLY, PRECOMPUTED, RBF, SIGMOID
from .._kernels.work import KERNEL_ROW_WORK

__all__ = ["LINEAR", "POLY", "PRECOMPUTED", "RBF", "SIGMOID", "kernel_values", "smo_solve"]
TAU = 1e-12


@njit(nogil=True, cache=True, fastmath={"contract"})
def exp_inplace(x, scratch):
    """``x = exp(x)`` for x <= 0 (``scratch``: float64, at least as long as x), by
    the shared vectorisable exponential; the RBF kernel spends most of its time here."""
    exp_nonpositive_inplace(x, x.shape[0], scratch, scratch.view(np.int64))


# multiply-adds of a kernel-row segment above which it is split over threads
PAR_WORK = KERNEL_ROW_WORK


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
    having been scattered into the dense buffer ``csr[4]`` (see :func:`_scatter`)."""
    data, indices, indptr, rowmap, buf = csr
    for k in range(start, stop):
        r = rowmap[k]
        s = 0.0
        for q in range(indptr[r], indptr[r + 1]):
            s += data[q] * buf[indices[q]]
        out[k - start] = s


@njit(nogil=True, cache=True)
def _scatter(csr, a, clear):
    """Add row ``rowmap[a]`` of the CSR matrix into the dense buffer (or zero
    its entries again with ``clear``): the dot products of that row with
    many rows then cost one pass over each row's non-zeros."""
    data, indices, indptr, rowmap, buf = csr
    r = rowmap[a]
    for q in range(indptr[r], indptr[r + 1]):
        if clear:
            buf[indices[q]] = 0.0
        else:
            buf[indices[q]] += data[q]


@njit(nogil=True, cache=True)
def _kernel_segment(X, sq, a, kernel, gamma, coef0, degree, out, start, stop, csr):
    if csr[2].shape[0] > 0:
        _sparse_dots(csr, start, stop, out)
    else:
        _dots(X, a, start, stop, out)
    n = stop - start
    if kernel == RBF:
        sa = sq[a]
        for k in range(start, stop):
            out[k - start] = -gamma * (sa + sq[k] - 2.0 * out[k - start])
        exp_inplace(out[:n], np.empty(n))
    elif kernel == POLY:
        for k in range(n):
            out[k] = (gamma * out[k] + coef0) ** degree
    elif kernel == SIGMOID:
        for k in range(n):
            out[k] = np.tanh(gamma * out[k] + coef0)


@njit(nogil=True, parallel=True, cache=True)
def _kernel_parallel(X, sq, a, kernel, gamma, coef0, degree, out, start, stop, n_chunks, csr):
    n = stop - start
    for c in prange(n_chunks):
        lo = start + c * n // n_chunks
        hi = start + (c + 1) * n // n_chunks
        _kernel_segment(X, sq, a, kernel, gamma, coef0, degree, out[lo - start:hi - start],
                        lo, hi, csr)


@njit(nogil=True, cache=True)
def kernel_values(X, sq, a, kernel, gamma, coef0, degree, out, start, stop, n_chunks, csr):
    """Kernel values between row ``a`` and rows ``start:stop`` into ``out``.

    Dense samples: ``X`` holds them as contiguous rows. Sparse samples:
    ``csr = (data, indices, indptr, rowmap, buf)`` holds them (position k is
    CSR row ``rowmap[k]``; ``buf`` a zeroed float64 scratch of n_features)
    and ``X`` is empty; dense callers pass empty CSR arrays, so both share
    one compiled signature. ``sq`` holds the squared norms by position.
    With ``n_chunks > 1`` a long segment is split into chunks computed in
    parallel (a parallel region costs several microseconds, so short
    segments stay serial).
    """
    sparse = csr[2].shape[0] > 0
    if sparse:
        width = max(1, csr[0].shape[0] // max(1, csr[2].shape[0] - 1))
        _scatter(csr, a, np.bool_(False))
    else:
        width = X.shape[1]
    if n_chunks > 1 and (stop - start) * width >= PAR_WORK:
        _kernel_parallel(X, sq, a, kernel, gamma, coef0, degree, out, start, stop, n_chunks,
                         csr)
    else:
        _kernel_segment(X, sq, a, kernel, gamma, coef0, degree, out, start, stop, csr)
    if sparse:
        _scatter(csr, a, np.bool_(True))


@njit(nogil=True, cache=True)
def _kernel_diag(X, sqnorm, kernel, gamma, coef0, degree):
    n = sqnorm.shape[0]
    out = np.empty(n)
    for i in range(n):
        if kernel == PRECOMPUTED:
            out[i] = X[i, i]
        elif kernel == LINEAR:
            out[i] = sqnorm[i]
        elif kernel == POLY:
            out[i] = (gamma * sqnorm[i] + coef0) ** degree
        elif kernel == RBF:
            out[i] = 1.0
        else:
            out[i] = np.tanh(gamma * sqnorm[i] + coef0)
    return out


# The kernel-row cache ``cs = (rows, slot_of, owner, stamp, row_len, state, buf,
# scratch, swaps, applied)``: ``rows`` (n_slots, L) float32, ``slot_of[key]``
# the slot of a key (-1: none), ``owner[slot]`` its key, ``stamp`` the last use
# (least recently used slot is evicted), ``row_len[slot]`` how many leading
# entries are valid; ``state`` holds the clock, the slots in use, the parallel
# chunks per row, the mode, the buffer toggle, (position, length, buffer) of
# the last gathered row and the length of the swap log; ``buf`` two gather
# buffers of the per-sample mode; ``scratch`` three rows for the working-set
# selection; ``swaps`` the log of position swaps and ``applied[slot]`` how
# much of it the row has seen.
#
# Mode 0 (one variable per sample, classification): keys are positions of the
# permuted problem and a row holds ``Q_ik = y_i y_k K_ik`` for the leading
# positions only (the active set); a row is extended when a longer prefix is
# asked for (after unshrinking), and swaps of positions swap cached entries.
# Swapping the entries of every cached row at each swap (as libsvm does) is a
# pair of cache misses per row; instead swaps are logged and a row replays
# the ones it has not seen when it is next used (most cached rows never are),
# the log being flushed into every row when full.
# Mode 1 (two variables per sample, regression): keys are samples, a row holds
# ``K`` against every sample in the original order, and ``Q`` rows are gathered
# into one of two buffers.


@njit(nogil=True, cache=True)
def _take_slot(key, cs):
    cache, slot_of, owner, stamp, row_len, state, buf, _, swaps, applied = cs
    n_slots = cache.shape[0]
    if state[1] < n_slots:
        slot = state[1]
        state[1] += 1
    else:
        slot = 0
        oldest = stamp[0]
        for s in range(1, n_slots):
            if stamp[s] < oldest:
                oldest = stamp[s]
                slot = s
        slot_of[owner[slot]] = -1
    slot_of[key] = slot
    owner[slot] = key
    row_len[slot] = 0
    applied[slot] = state[8]
    return slot


@njit(nogil=True, cache=True)
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


@njit(nogil=True, cache=True)
def _get_q(i, length, kp, y, sid, cs):
    """``Q_ik = y_i y_k K(x_i, x_k)`` for the positions ``k < length`` (float32)."""
    X, sq, kernel, gamma, coef0, degree, csr = kp
    cache, slot_of, owner, stamp, row_len, state, buf, scratch, swaps, applied = cs
    state[0] += 1
    if state[3] == 0:
        slot = slot_of[i]
        if slot < 0:
            slot = _take_slot(i, cs)
        elif applied[slot] != state[8]:
            row_len[slot] = _catch_up(cache[slot], row_len[slot], applied[slot], state[8], swaps)
            applied[slot] = state[8]
        stamp[slot] = state[0]
        row = cache[slot]
        have = row_len[slot]
        if have < length:
            tmp = np.empty(length - have)
            if kernel == PRECOMPUTED:
                si = sid[i]
                for k in range(have, length):
                    tmp[k - have] = X[si, sid[k]]
            else:
                kernel_values(X, sq, i, kernel, gamma, coef0, degree, tmp, have, length,
                              state[2], csr)
            yi = y[i]
            for k in range(have, length):
                row[k] = yi * y[k] * tmp[k - have]
            row_len[slot] = length
        return row
    if state[5] == i and state[6] == length:
        # same row as the last gather (selection, then the update step)
        state[4] = state[7]
        return buf[state[7]]
    s = sid[i]
    slot = slot_of[s]
    if slot < 0:
        slot = _take_slot(s, cs)
    stamp[slot] = state[0]
    krow = cache[slot]
    n = krow.shape[0]
    if row_len[slot] < n:
        if kernel == PRECOMPUTED:
            for k in range(n):
                krow[k] = X[s, k]
        else:
            tmp = np.empty(n)
            kernel_values(X, sq, s, kernel, gamma, coef0, degree, tmp, np.intp(0), n, state[2],
                          csr)
            for k in range(n):
                krow[k] = tmp[k]
        row_len[slot] = n
    # read the row in order first (one entry per cache line): the gather's
    # scattered reads then hit lines the hardware prefetcher brought in
    # (a row that is not cached gains most); the sum is stored
    # only so that the reads are kept
    touch = np.float32(0.0)
    for k in range(0, n, 16):
        touch += krow[k]
    scratch[2, scratch.shape[1] - 1] = touch
    state[4] = 1 - state[4]
    out = buf[state[4]]
    yi = y[i]
    for k in range(length):
        out[k] = yi * y[k] * krow[sid[k]]
    state[5] = i
    state[6] = length
    state[7] = state[4]
    return out


@njit(nogil=True, cache=True)
def _swap(i, j, sv, kp, permute_x, cs):
    """Exchange positions i and j of the problem (state, features, cached entries)."""
    y, p, C, alpha, G, G_bar, QD, sid, perm, st = sv
    for arr in (y, p, C, alpha, G, G_bar, QD):
        arr[i], arr[j] = arr[j], arr[i]
    sid[i], sid[j] = sid[j], sid[i]
    perm[i], perm[j] = perm[j], perm[i]
    st[i], st[j] = st[j], st[i]
    cache, slot_of, owner, stamp, row_len, state, buf, _, swaps, applied = cs
    if state[3] != 0:
        state[5] = -1  # the last gathered row no longer matches the positions
        return
    X, sq, rowmap = kp[0], kp[1], kp[6][3]
    if permute_x:
        if kp[6][2].shape[0] > 0:
            rowmap[i], rowmap[j] = rowmap[j], rowmap[i]
        else:
            for f in range(X.shape[1]):
                X[i, f], X[j, f] = X[j, f], X[i, f]
        sq[i], sq[j] = sq[j], sq[i]
    si = slot_of[i]
    sj = slot_of[j]
    slot_of[i] = sj
    slot_of[j] = si
    if si >= 0:
        owner[si] = j
    if sj >= 0:
        owner[sj] = i
    if state[8] == swaps.shape[0]:
        # log full: bring every cached row up to date and start a new log
        for s in range(state[1]):
            row_len[s] = _catch_up(cache[s], row_len[s], applied[s], state[8], swaps)
        state[8] = 0
        applied[:] = 0
    swaps[state[8], 0] = min(i, j)
    swaps[state[8], 1] = max(i, j)
    state[8] += 1


@njit(nogil=True, cache=True)
def smo_solve(X, sqnorm, kernel, gamma, coef0, degree, idx, y, p, C, tol, max_iter,
              n_slots, shrinking, n_chunks, per_sample, data, indices, indptr, n_features):
    """Solve the SVM dual by SMO; see the module docstring.

    Parameters
    ----------
    X : ndarray of shape (n, d) float64
        Samples as rows, or the square Gram matrix when
        ``kernel == PRECOMPUTED``; empty (0, 0) for sparse samples.
    sqnorm : ndarray of shape (n,)
        Squared norms of the rows of ``X``.
    kernel, gamma, coef0, degree : kernel id and parameters.
    idx : ndarray of shape (l,) intp
        Sample of each variable.
    y : ndarray of shape (l,) float64 of +1 / -1
    p : ndarray of shape (l,)
        Linear term of the objective.
    C : ndarray of shape (l,)
        Upper bound of each variable (> 0).
    tol : float
        Stop when the maximal violating pair violates by less than ``tol``.
    max_iter : int
        Iteration limit (<= 0: none).
    n_slots : int
        Number of kernel rows the cache may hold (>= 2).
    shrinking : bool
    n_chunks : int
        Parallel chunks per long kernel row (1: serial).
    per_sample : bool
        Cache kernel rows per sample (several variables share a sample, as in
        epsilon regression) instead of per variable (``idx`` the identity).
    data, indices, indptr : ndarray (float64, intp, intp)
        The samples as a CSR matrix (sparse input), else empty arrays.
    n_features : int
        Columns of the sparse samples (size of the scatter buffer).

    Returns
    -------
    alpha : ndarray of shape (l,)
    rho : float
        The decision function is ``sum_t y_t alpha_t K(x_t, x) - rho``.
    n_iter : int
    converged : bool
    """
    n = sqnorm.shape[0]
    m = idx.shape[0]
    L = n if per_sample else m
    n_slots = max(2, n_slots)
    cache = np.empty((n_slots, L), dtype=np.float32)
    state = np.zeros(9, dtype=np.int64)
    state[5] = -1
    state[2] = n_chunks
    state[3] = 1 if per_sample else 0
    cs = (cache, np.full(L, -1, dtype=np.intp), np.full(n_slots, -1, dtype=np.intp),
          np.zeros(n_slots, dtype=np.int64), np.zeros(n_slots, dtype=np.intp), state,
          np.empty((2, m if per_sample else 1), dtype=np.float32), np.empty((3, m)),
          np.empty((max(1024, m), 2), dtype=np.intp), np.zeros(n_slots, dtype=np.int64))

    diag = _kernel_diag(X, sqnorm, kernel, gamma, coef0, degree)
    permute_x = (not per_sample) and kernel != PRECOMPUTED
    if permute_x:
        Xw = X.copy()
        sqw = sqnorm.copy()
    else:
        Xw = X
        sqw = sqnorm
    sparse = indptr.shape[0] > 0
    csr = (data, indices, indptr, np.arange(n if sparse else 0),
           np.zeros(n_features if sparse else 0))
    kp = (Xw, sqw, kernel, gamma, coef0, degree, csr)

    # problem state in position order; positions get swapped by shrinking
    yw = y.copy()
    pw = p.copy()
    Cw = C.copy()
    sid = idx.copy()
    perm = np.arange(m)
    QD = np.empty(m)
    for t in range(m):
        QD[t] = diag[idx[t]]
    alpha = np.zeros(m)
    G = p.copy()
    G_bar = np.zeros(m)
    st = np.empty(m, dtype=np.int8)
    for t in range(m):
        st[t] = _status(yw[t], 0.0, Cw[t])
    sv = (yw, pw, Cw, alpha, G, G_bar, QD, sid, perm, st)

    active_size = m
    unshrink = np.bool_(False)
    counter = min(m, 1000) + 1
    it = 0
    converged = False
    scanned = False
    gmax = -np.inf
    gmax2 = -np.inf
    i_next = -1
    while True:
        if max_iter > 0 and it >= max_iter:
            break
        counter -= 1
        if counter == 0:
            counter = min(m, 1000)
            if shrinking:
                active_size, unshrink = _do_shrinking(active_size, unshrink, tol, sv, kp,
                                                      permute_x, cs)
                scanned = False
        i = i_next
        if not scanned:
            gmax, i, gmax2 = _scan(active_size, yw, st, G, cache[0], cache[0], 0.0, 0.0,
                                   np.bool_(False), cs[7])
        j = -1
        if gmax > -np.inf:
            Q_i = _get_q(i, active_size, kp, yw, sid, cs)
            j = _select_j(active_size, yw, st, G, QD, Q_i, i, gmax, gmax2, tol, cs[7][2])
        if j < 0:
            active_size = _reconstruct_gradient(active_size, sv, kp, cs)
            gmax, i, gmax2 = _scan(active_size, yw, st, G, cache[0], cache[0], 0.0, 0.0,
                                   np.bool_(False), cs[7])
            if gmax > -np.inf:
                Q_i = _get_q(i, active_size, kp, yw, sid, cs)
                j = _select_j(active_size, yw, st, G, QD, Q_i, i, gmax, gmax2, tol, cs[7][2])
            counter = 1
            if j < 0:
                converged = True
                break
        it += 1

        Q_i = _get_q(i, active_size, kp, yw, sid, cs)
        Q_j = _get_q(j, active_size, kp, yw, sid, cs)
        Ci = Cw[i]
        Cj = Cw[j]
        old_ai = alpha[i]
        old_aj = alpha[j]
        ai = old_ai
        aj = old_aj
        if yw[i] != yw[j]:
            quad = QD[i] + QD[j] + 2.0 * Q_i[j]
            if quad <= 0.0:
                quad = TAU
            delta = (-G[i] - G[j]) / quad
            diff = ai - aj
            ai += delta
            aj += delta
            if diff > 0.0:
                if aj < 0.0:
                    aj = 0.0
                    ai = diff
            else:
                if ai < 0.0:
                    ai = 0.0
                    aj = -diff
            if diff > Ci - Cj:
                if ai > Ci:
                    ai = Ci
                    aj = Ci - diff
            else:
                if aj > Cj:
                    aj = Cj
                    ai = Cj + diff
        else:
            quad = QD[i] + QD[j] - 2.0 * Q_i[j]
            if quad <= 0.0:
                quad = TAU
            delta = (G[i] - G[j]) / quad
            total = ai + aj
            ai -= delta
            aj += delta
            if total > Ci:
                if ai > Ci:
                    ai = Ci
                    aj = total - Ci
            else:
                if aj < 0.0:
                    aj = 0.0
                    ai = total
            if total > Cj:
                if aj > Cj:
                    aj = Cj
                    ai = total - Cj
            else:
                if ai < 0.0:
                    ai = 0.0
                    aj = total
        alpha[i] = ai
        alpha[j] = aj
        st[i] = _status(yw[i], ai, Ci)
        st[j] = _status(yw[j], aj, Cj)
        dai = ai - old_ai
        daj = aj - old_aj
        # gradient update fused with the next iteration's maximal violations
        gmax, i_next, gmax2 = _scan(active_size, yw, st, G, Q_i, Q_j, dai, daj, np.bool_(True),
                                    cs[7])
        scanned = True

        # keep G_bar (gradient part of variables at the upper bound) current
        if (old_ai >= Ci) != (ai >= Ci):
            Q_i = _get_q(i, m, kp, yw, sid, cs)
            if old_ai >= Ci:
                for k in range(m):
                    G_bar[k] -= Ci * Q_i[k]
            else:
                for k in range(m):
                    G_bar[k] += Ci * Q_i[k]
        if (old_aj >= Cj) != (aj >= Cj):
            Q_j = _get_q(j, m, kp, yw, sid, cs)
            if old_aj >= Cj:
                for k in range(m):
                    G_bar[k] -= Cj * Q_j[k]
            else:
                for k in range(m):
                    G_bar[k] += Cj * Q_j[k]

    if active_size < m:
        active_size = _reconstruct_gradient(active_size, sv, kp, cs)

    # offset rho: mean of y G over free variables, else midpoint of the bounds
    ub = np.inf
    lb = -np.inf
    n_free = 0
    s_free = 0.0
    for t in range(m):
        yG = yw[t] * G[t]
        if alpha[t] >= Cw[t]:
            if yw[t] < 0:
                ub = min(ub, yG)
            else:
                lb = max(lb, yG)
        elif alpha[t] <= 0.0:
            if yw[t] > 0:
                ub = min(ub, yG)
            else:
                lb = max(lb, yG)
        else:
            n_free += 1
            s_free += yG
    rho = s_free / n_free if n_free > 0 else (ub + lb) / 2.0
    alpha_out = np.empty(m)
    for t in range(m):
        alpha_out[perm[t]] = alpha[t]
    return alpha_out, rho, it, converged


@njit(nogil=True, cache=True)
def _be_shrunk(t, gm1, gm2, y, C, alpha, G):
    if alpha[t] >= C[t]:
        return -G[t] > gm1 if y[t] > 0 else -G[t] > gm2
    if alpha[t] <= 0.0:
        return G[t] > gm2 if y[t] > 0 else G[t] > gm1
    return False


@njit(nogil=True, cache=True)
def _do_shrinking(active_size, unshrink, tol, sv, kp, permute_x, cs):
    """Move variables stuck at a bound behind the active prefix; returns
    (active_size, unshrink). Once close to optimal, everything is unshrunk once."""
    y, p, C, alpha, G, G_bar, QD, sid, perm, st = sv
    gm1 = -np.inf
    gm2 = -np.inf
    for t in range(active_size):
        up = alpha[t] >= C[t]
        low = alpha[t] <= 0.0
        if y[t] > 0:
            if not up and -G[t] >= gm1:
                gm1 = -G[t]
            if not low and G[t] >= gm2:
                gm2 = G[t]
        else:
            if not up and -G[t] >= gm2:
                gm2 = -G[t]
            if not low and G[t] >= gm1:
                gm1 = G[t]
    if not unshrink and gm1 + gm2 <= tol * 10.0:
        unshrink = np.bool_(True)
        active_size = _reconstruct_gradient(active_size, sv, kp, cs)
    t = np.intp(0)
    while t < active_size:
        if _be_shrunk(t, gm1, gm2, y, C, alpha, G):
            active_size -= 1
            while active_size > t:
                if not _be_shrunk(active_size, gm1, gm2, y, C, alpha, G):
                    _swap(t, active_size, sv, kp, permute_x, cs)
                    break
                active_size -= 1
        t += 1
    return active_size, unshrink


# Working-set selection. The textbook loops branch on the label and bound
# status of every variable and carry one running maximum (a compare-and-select
# chain of several cycles per element); here each step is an element-wise
# pass the compiler vectorises, writing the candidate values to a scratch
# row, then a reduction over eight interleaved lanes, then a backward scan
# for the last position attaining the extremum: the same pair as the
# sequential ``>=`` / ``<=`` loops of libsvm, with bit-for-bit the same values
# (comparisons, selects and exact sign flips only). The pass that finds the
# maximal violations is fused with the gradient update of the previous
# iteration, so the active gradient is read once per iteration.


@njit(nogil=True, cache=True)
def _status(yt, a, c):
    """Bit 1: the variable is in I_up (may move towards the larger ``y a``),
    bit 2: in I_low."""
    below = a < c
    above = a > 0.0
    if yt > 0.0:
        return np.int8(below + 2 * above)
    return np.int8(above + 2 * below)


@njit(nogil=True, cache=True)
def _max8(x, n):
    """max of ``x[:n]`` (-inf when empty) over eight independent lanes."""
    b0 = b1 = b2 = b3 = b4 = b5 = b6 = b7 = -np.inf
    n8 = n - n % 8
    for t in range(0, n8, 8):
        v = x[t]
        b0 = v if v > b0 else b0
        v = x[t + 1]
        b1 = v if v > b1 else b1
        v = x[t + 2]
        b2 = v if v > b2 else b2
        v = x[t + 3]
        b3 = v if v > b3 else b3
        v = x[t + 4]
        b4 = v if v > b4 else b4
        v = x[t + 5]
        b5 = v if v > b5 else b5
        v = x[t + 6]
        b6 = v if v > b6 else b6
        v = x[t + 7]
        b7 = v if v > b7 else b7
    b0 = b1 if b1 > b0 else b0
    b2 = b3 if b3 > b2 else b2
    b4 = b5 if b5 > b4 else b4
    b6 = b7 if b7 > b6 else b6
    b0 = b2 if b2 > b0 else b0
    b4 = b6 if b6 > b4 else b4
    b0 = b4 if b4 > b0 else b0
    for t in range(n8, n):
        v = x[t]
        b0 = v if v > b0 else b0
    return b0


@njit(nogil=True, cache=True)
def _last_equal(x, n, v):
    """Largest t < n with ``x[t] == v`` (-1 if none); blocks of eight are
    tested without branches first."""
    t = n
    while t >= 8:
        t -= 8
        if ((x[t] == v) | (x[t + 1] == v) | (x[t + 2] == v) | (x[t + 3] == v)
                | (x[t + 4] == v) | (x[t + 5] == v) | (x[t + 6] == v) | (x[t + 7] == v)):
            for s in range(t + 7, t - 1, -1):
                if x[s] == v:
                    return s
    for s in range(t - 1, -1, -1):
        if x[s] == v:
            return s
    return -1


@njit(nogil=True, cache=True)
def _pair_objective(active_size, y, st, G, QD, Q_i, yi, qdi, gmax, obj):
    """Second-order gain ``(gmax + y_t G_t)^2 / quad_it`` of each candidate j,
    negated (``-inf`` where t is not a candidate, so the best is the max)."""
    yi2 = 2.0 * yi
    for t in range(active_size):
        yt = y[t]
        ok = (st[t] & 2) != 0
        grad_diff = gmax + yt * G[t]
        quad = qdi + QD[t] - yi2 * yt * Q_i[t]
        quad = quad if quad > 0.0 else TAU
        o = (grad_diff * grad_diff) / quad
        obj[t] = o if (ok & (grad_diff > 0.0)) else -np.inf


@njit(nogil=True, cache=True)
def _select_j(n, y, st, G, QD, Q_i, i, gmax, gmax2, tol, obj):
    """Second-order choice of j for the maximal violator i found by ``_scan``
    (``Q_i`` its row); -1 at optimality."""
    _pair_objective(n, y, st, G, QD, Q_i, y[i], QD[i], gmax, obj)
    best = _max8(obj, n)
    if gmax + gmax2 < tol or best == -np.inf:
        return -1
    return _last_equal(obj, n, best)


@njit(nogil=True, cache=True)
def _scan(n, y, st, G, Q_i, Q_j, dai, daj, update, scratch):
    """(gmax, i, gmax2) over the first ``n`` positions: the largest
    ``-y_t G_t`` over I_up with the last position attaining it, and the
    largest ``y_t G_t`` over I_low. With ``update`` the same pass first does
    ``G_t += Q_i[t] dai + Q_j[t] daj``. The candidate values go to
    ``scratch[0]`` (-inf outside I_up) and ``scratch[1]`` (outside I_low)."""
    vu = scratch[0]
    vl = scratch[1]
    ninf = -np.inf
    for t in range(n):
        g = G[t]
        if update:
            g = g + (Q_i[t] * dai + Q_j[t] * daj)
            G[t] = g
        g = y[t] * g
        s = st[t]
        vu[t] = -g if (s & 1) != 0 else ninf
        vl[t] = g if (s & 2) != 0 else ninf
    gmax = _max8(vu, n)
    gmax2 = _max8(vl, n)
    i = _last_equal(vu, n, gmax) if gmax > ninf else -1
    return gmax, i, gmax2


@njit(nogil=True, cache=True)
def _reconstruct_gradient(active_size, sv, kp, cs):
    """Rebuild the gradient of the shrunk variables from G_bar and the free
    variables; returns the new active size (all variables)."""
    y, p, C, alpha, G, G_bar, QD, sid, perm, st = sv
    m = y.shape[0]
    if active_size == m:
        return m
    for t in range(active_size, m):
        G[t] = G_bar[t] + p[t]
    n_free = 0
    for t in range(active_size):
        if 0.0 < alpha[t] < C[t]:
            n_free += 1
    if n_free * m > 2 * active_size * (m - active_size):
        for i in range(active_size, m):
            Q_i = _get_q(i, active_size, kp, y, sid, cs)
            for t in range(active_size):
                if 0.0 < alpha[t] < C[t]:
                    G[i] += alpha[t] * Q_i[t]
    else:
        for i in range(active_size):
            if 0.0 < alpha[i] < C[i]:
                Q_i = _get_q(i, m, kp, y, sid, cs)
                a = alpha[i]
                for t in range(active_size, m):
                    G[t] += a * Q_i[t]
    return m
