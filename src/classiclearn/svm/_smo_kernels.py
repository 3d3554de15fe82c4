"""numba kernels of the SMO dual solver behind SVC and SVR (seed 000 §8).

The solver minimises the dual of a soft-margin support-vector machine in the
general form

    min_a  1/2 a' Q a + p' a   subject to  y' a = const,  0 <= a_t <= C_t,

with ``Q_st = y_s y_t K(x_{idx_s}, x_{idx_t})`` and ``y_t`` in {+1, -1}.
Classification has one variable per sample (``p = -1``); epsilon regression
has two per sample (``idx`` maps both to the sample).

Each iteration picks a pair of variables by second-order working-set
selection (Fan, Chen and Lin, JMLR 2005), solves the two-variable problem in
closed form and updates the gradient. Kernel rows are computed on demand (in
parallel over the samples) and kept in a least-recently-used cache whose size
is bounded by the caller. Shrinking drops variables stuck at a bound from the
selection and gradient updates; their gradient is rebuilt from ``G_bar`` (the
part of the gradient due to variables at the upper bound) before the final
optimality check.
"""

import numpy as np
from numba import njit, prange

LINEAR, POLY, RBF, SIGMOID, PRECOMPUTED = 0, 1, 2, 3, 4
TAU = 1e-12


_LOG2E = 1.4426950408889634
_LN2_HI = 0.6931471803691238
_LN2_LO = 1.9082149292705877e-10
_MAGIC = 6755399441055744.0  # 1.5 * 2**52: adding it rounds to an integer
_MAGIC_BITS = 0x4338000000000000


@njit(nogil=True, cache=True)
def exp_inplace(x, scratch):
    """``x = exp(x)`` for x <= 0, in a form the compiler vectorises.

    Cody-Waite reduction ``x = k ln2 + r`` with |r| <= ln2 / 2, a degree-12
    Taylor polynomial for ``exp(r)`` (relative error below 1e-15) and
    ``2**k`` built from its bits. Several times faster than a libm call per
    element; the RBF kernel spends most of its time here.
    """
    n = x.shape[0]
    for j in range(n):
        v = x[j]
        under = v < -708.0
        if under:
            v = -708.0
        kf = v * _LOG2E + _MAGIC
        k = kf - _MAGIC
        r = (v - k * _LN2_HI) - k * _LN2_LO
        p = 1.0 + r * (1.0 + r * (0.5 + r * (1.0 / 6.0 + r * (1.0 / 24.0 + r * (
            1.0 / 120.0 + r * (1.0 / 720.0 + r * (1.0 / 5040.0 + r * (1.0 / 40320.0 + r * (
                1.0 / 362880.0 + r * (1.0 / 3628800.0 + r * (1.0 / 39916800.0 + r * (
                    1.0 / 479001600.0))))))))))))
        x[j] = 0.0 if under else p
        scratch[j] = kf
    bits = scratch[:n].view(np.int64)
    for j in range(n):
        bits[j] = (bits[j] - np.int64(_MAGIC_BITS) + np.int64(1023)) << np.int64(52)
    scale = bits.view(np.float64)
    for j in range(n):
        x[j] *= scale[j]


@njit(nogil=True, cache=True)
def _finish_row(sqnorm, a, kernel, gamma, coef0, degree, out, start, stop):
    if kernel == RBF:
        sa = sqnorm[a]
        for j in range(start, stop):
            d2 = sa + sqnorm[j] - 2.0 * out[j]
            out[j] = -gamma * d2
        exp_inplace(out[start:stop], np.empty(stop - start))
        return
    for j in range(start, stop):
        s = out[j]
        if kernel == POLY:
            out[j] = (gamma * s + coef0) ** degree
        elif kernel == SIGMOID:
            out[j] = np.tanh(gamma * s + coef0)


@njit(nogil=True, cache=True)
def _row_chunk(XT, sqnorm, a, kernel, gamma, coef0, degree, out, start, stop):
    d = XT.shape[0]
    for j in range(start, stop):
        out[j] = 0.0
    for f in range(d):
        xa = XT[f, a]
        if xa != 0.0:
            for j in range(start, stop):
                out[j] += xa * XT[f, j]
    _finish_row(sqnorm, a, kernel, gamma, coef0, degree, out, start, stop)


@njit(nogil=True, parallel=True, cache=True)
def _row_parallel(XT, sqnorm, a, kernel, gamma, coef0, degree, out, n_chunks):
    n = XT.shape[1]
    for c in prange(n_chunks):
        _row_chunk(XT, sqnorm, a, kernel, gamma, coef0, degree, out,
                   c * n // n_chunks, (c + 1) * n // n_chunks)


@njit(nogil=True, cache=True)
def compute_kernel_row(XT, sqnorm, a, kernel, gamma, coef0, degree, out, n_chunks):
    """Kernel values between sample ``a`` and every sample into ``out``.

    ``XT`` holds the samples as columns (features x samples) so the inner
    loop streams contiguous memory. With ``n_chunks > 1`` the row is split
    into chunks computed in parallel (worth it only for long rows: a parallel
    region costs several microseconds, more on a busy machine).
    """
    if n_chunks > 1:
        _row_parallel(XT, sqnorm, a, kernel, gamma, coef0, degree, out, n_chunks)
    else:
        _row_chunk(XT, sqnorm, a, kernel, gamma, coef0, degree, out, 0, XT.shape[1])


@njit(nogil=True, cache=True)
def _kernel_diag(X, sqnorm, kernel, gamma, coef0, degree):
    n = X.shape[1]
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


@njit(nogil=True, cache=True)
def _get_row(a, X, sqnorm, kernel, gamma, coef0, degree, cs):
    """Row ``a`` of the kernel matrix, from the cache or freshly computed.

    ``cs`` bundles the cache: ``(rows, slot_of, owner, stamp, state)``;
    ``state`` holds the clock, the number of slots in use and the parallel
    chunks per row. Rows are computed in float64 and stored in float32 (as
    libsvm does), which doubles the rows a cache size holds.
    """
    cache, slot_of, owner, stamp, state = cs
    state[0] += 1
    slot = slot_of[a]
    if slot >= 0:
        stamp[slot] = state[0]
        return cache[slot]
    else:
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
        slot_of[a] = slot
        owner[slot] = a
        stamp[slot] = state[0]
    row = cache[slot]
    n = row.shape[0]
    if kernel == PRECOMPUTED:
        for j in range(n):
            row[j] = X[a, j]
    else:
        tmp = np.empty(n)
        compute_kernel_row(X, sqnorm, a, kernel, gamma, coef0, degree, tmp, state[2])
        for j in range(n):
            row[j] = tmp[j]
    return row


@njit(nogil=True, cache=True)
def smo_solve(X, sqnorm, kernel, gamma, coef0, degree, idx, y, p, C, tol, max_iter,
              n_slots, shrinking, n_chunks):
    """Solve the SVM dual by SMO; see the module docstring.

    Parameters
    ----------
    X : ndarray of shape (d, n) float64
        Samples as columns, or the square Gram matrix when
        ``kernel == PRECOMPUTED``.
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
        Parallel chunks per kernel row (1: serial).

    Returns
    -------
    alpha : ndarray of shape (l,)
    rho : float
        The decision function is ``sum_t y_t alpha_t K(x_t, x) - rho``.
    n_iter : int
    converged : bool
    """
    n = X.shape[1]
    m = idx.shape[0]
    cache = np.empty((max(n_slots, 2), n), dtype=np.float32)
    slot_of = np.full(n, -1, dtype=np.intp)
    owner = np.full(max(n_slots, 2), -1, dtype=np.intp)
    stamp = np.zeros(max(n_slots, 2), dtype=np.int64)
    state = np.zeros(3, dtype=np.int64)
    state[2] = n_chunks
    cs = (cache, slot_of, owner, stamp, state)

    diag = _kernel_diag(X, sqnorm, kernel, gamma, coef0, degree)
    QD = np.empty(m)
    for t in range(m):
        QD[t] = diag[idx[t]]
    alpha = np.zeros(m)
    G = p.copy()
    G_bar = np.zeros(m)
    active = np.arange(m)
    is_active = np.ones(m, dtype=np.bool_)
    n_active = m
    unshrunk = False
    counter = min(m, 1000) + 1
    it = 0
    converged = False

    while True:
        if max_iter > 0 and it >= max_iter:
            break
        counter -= 1
        if counter == 0:
            counter = min(m, 1000)
            if shrinking:
                # maximal violations among the active variables
                gm1 = -np.inf
                gm2 = -np.inf
                for k in range(n_active):
                    t = active[k]
                    up = alpha[t] >= C[t]
                    low = alpha[t] <= 0.0
                    if y[t] > 0:
                        if not up and -G[t] > gm1:
                            gm1 = -G[t]
                        if not low and G[t] > gm2:
                            gm2 = G[t]
                    else:
                        if not up and -G[t] > gm2:
                            gm2 = -G[t]
                        if not low and G[t] > gm1:
                            gm1 = G[t]
                if not unshrunk and gm1 + gm2 <= tol * 10.0:
                    unshrunk = True
                    _reconstruct_gradient(X, sqnorm, kernel, gamma, coef0, degree, idx, y, p,
                                          C, alpha, G, G_bar, is_active, cs)
                    for t in range(m):
                        active[t] = t
                        is_active[t] = True
                    n_active = m
                k2 = 0
                for k in range(n_active):
                    t = active[k]
                    shrink = False
                    if alpha[t] >= C[t]:
                        shrink = -G[t] > gm1 if y[t] > 0 else -G[t] > gm2
                    elif alpha[t] <= 0.0:
                        shrink = G[t] > gm2 if y[t] > 0 else G[t] > gm1
                    if shrink:
                        is_active[t] = False
                    else:
                        active[k2] = t
                        k2 += 1
                n_active = k2

        i, j = _select_working_set(X, sqnorm, kernel, gamma, coef0, degree, idx, y, C, alpha,
                                   G, QD, active, n_active, tol, cs)
        if j < 0:
            if n_active < m:
                _reconstruct_gradient(X, sqnorm, kernel, gamma, coef0, degree, idx, y, p, C,
                                      alpha, G, G_bar, is_active, cs)
                for t in range(m):
                    active[t] = t
                    is_active[t] = True
                n_active = m
                i, j = _select_working_set(X, sqnorm, kernel, gamma, coef0, degree, idx, y, C,
                                           alpha, G, QD, active, n_active, tol, cs)
                counter = 1
                if j < 0:
                    converged = True
                    break
            else:
                converged = True
                break
        it += 1

        row_i = _get_row(idx[i], X, sqnorm, kernel, gamma, coef0, degree, cs)
        row_j = _get_row(idx[j], X, sqnorm, kernel, gamma, coef0, degree, cs)
        Ci = C[i]
        Cj = C[j]
        old_ai = alpha[i]
        old_aj = alpha[j]
        Kij = row_i[idx[j]]
        quad = QD[i] + QD[j] - 2.0 * Kij
        if quad <= 0.0:
            quad = TAU
        ai = old_ai
        aj = old_aj
        if y[i] != y[j]:
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
        di = (ai - old_ai) * y[i]
        dj = (aj - old_aj) * y[j]
        for k in range(n_active):
            t = active[k]
            G[t] += y[t] * (di * row_i[idx[t]] + dj * row_j[idx[t]])

        # keep G_bar (gradient part of variables at the upper bound) current
        was_up = old_ai >= Ci
        now_up = ai >= Ci
        if was_up != now_up:
            sgn = Ci * y[i] if now_up else -Ci * y[i]
            for t in range(m):
                G_bar[t] += sgn * y[t] * row_i[idx[t]]
        was_up = old_aj >= Cj
        now_up = aj >= Cj
        if was_up != now_up:
            sgn = Cj * y[j] if now_up else -Cj * y[j]
            for t in range(m):
                G_bar[t] += sgn * y[t] * row_j[idx[t]]

    if n_active < m:
        _reconstruct_gradient(X, sqnorm, kernel, gamma, coef0, degree, idx, y, p, C, alpha, G,
                              G_bar, is_active, cs)

    # offset rho: mean of y G over free variables, else midpoint of the bounds
    ub = np.inf
    lb = -np.inf
    n_free = 0
    s_free = 0.0
    for t in range(m):
        yG = y[t] * G[t]
        if alpha[t] >= C[t]:
            if y[t] < 0:
                ub = min(ub, yG)
            else:
                lb = max(lb, yG)
        elif alpha[t] <= 0.0:
            if y[t] > 0:
                ub = min(ub, yG)
            else:
                lb = max(lb, yG)
        else:
            n_free += 1
            s_free += yG
    rho = s_free / n_free if n_free > 0 else (ub + lb) / 2.0
    return alpha, rho, it, converged


@njit(nogil=True, cache=True)
def _select_working_set(X, sqnorm, kernel, gamma, coef0, degree, idx, y, C, alpha, G, QD,
                        active, n_active, tol, cs):
    """Second-order working-set selection; returns (i, j) or (-1, -1) at optimality."""
    gmax = -np.inf
    gmax2 = -np.inf
    i = -1
    for k in range(n_active):
        t = active[k]
        if y[t] > 0:
            if alpha[t] < C[t] and -G[t] >= gmax:
                gmax = -G[t]
                i = t
        else:
            if alpha[t] > 0.0 and G[t] >= gmax:
                gmax = G[t]
                i = t
    if i < 0:
        return -1, -1
    row_i = _get_row(idx[i], X, sqnorm, kernel, gamma, coef0, degree, cs)
    si = idx[i]
    best = np.inf
    j = -1
    for k in range(n_active):
        t = active[k]
        if y[t] > 0:
            if alpha[t] > 0.0:
                grad_diff = gmax + G[t]
                if G[t] >= gmax2:
                    gmax2 = G[t]
                if grad_diff > 0.0:
                    quad = QD[i] + QD[t] - 2.0 * row_i[idx[t]]
                    if quad <= 0.0:
                        quad = TAU
                    obj = -(grad_diff * grad_diff) / quad
                    if obj <= best:
                        best = obj
                        j = t
        else:
            if alpha[t] < C[t]:
                grad_diff = gmax - G[t]
                if -G[t] >= gmax2:
                    gmax2 = -G[t]
                if grad_diff > 0.0:
                    quad = QD[i] + QD[t] - 2.0 * row_i[idx[t]]
                    if quad <= 0.0:
                        quad = TAU
                    obj = -(grad_diff * grad_diff) / quad
                    if obj <= best:
                        best = obj
                        j = t
    _ = si
    if gmax + gmax2 < tol or j < 0:
        return -1, -1
    return i, j


@njit(nogil=True, cache=True)
def _reconstruct_gradient(X, sqnorm, kernel, gamma, coef0, degree, idx, y, p, C, alpha, G, G_bar,
                          is_active, cs):
    """Rebuild the gradient of the inactive variables from G_bar and the free variables."""
    m = idx.shape[0]
    any_inactive = False
    for t in range(m):
        if not is_active[t]:
            G[t] = G_bar[t] + p[t]
            any_inactive = True
    if not any_inactive:
        return
    for s in range(m):
        if 0.0 < alpha[s] < C[s]:
            row = _get_row(idx[s], X, sqnorm, kernel, gamma, coef0, degree, cs)
            coef = alpha[s] * y[s]
            for t in range(m):
                if not is_active[t]:
                    G[t] += y[t] * coef * row[idx[t]]


@njit(nogil=True, parallel=True, cache=True)
def kernel_decision(D, xx, yy, kernel, gamma, coef0, degree, coef, intercept):
    """Decision values ``K(x_i, sv) @ coef.T + intercept`` from dot products.

    ``D[i, j] = <x_i, sv_j>`` comes from one BLAS product; kernel values are
    formed one row at a time and reduced straight into the output, so the
    kernel matrix is never written back. Blocks of rows run in parallel; each
    output depends only on its own row, so threads never change the result.
    """
    n, m = D.shape
    n_out = coef.shape[0]
    out = np.empty((n, n_out))
    rows_per_block = 64
    n_blocks = (n + rows_per_block - 1) // rows_per_block
    for blk in prange(n_blocks):
        v = np.empty(m)
        scratch = np.empty(m)
        for i in range(blk * rows_per_block, min(n, (blk + 1) * rows_per_block)):
            if kernel == RBF:
                for j in range(m):
                    d2 = xx[i] + yy[j] - 2.0 * D[i, j]
                    if d2 < 0.0:
                        d2 = 0.0
                    v[j] = -gamma * d2
                exp_inplace(v, scratch)
            elif kernel == POLY:
                for j in range(m):
                    v[j] = (gamma * D[i, j] + coef0) ** degree
            elif kernel == SIGMOID:
                for j in range(m):
                    v[j] = np.tanh(gamma * D[i, j] + coef0)
            else:
                for j in range(m):
                    v[j] = D[i, j]
            for p in range(n_out):
                out[i, p] = intercept[p] + _dot_fast(v, coef[p])
    return out


@njit(nogil=True, cache=True, fastmath=True)
def _dot_fast(a, b):
    """Dot product the compiler may reassociate (vectorised reduction).

    Kept in its own function so fast-math never touches ``exp_inplace``,
    whose rounding trick relies on strict floating-point order.
    """
    s = 0.0
    for j in range(a.shape[0]):
        s += a[j] * b[j]
    return s
