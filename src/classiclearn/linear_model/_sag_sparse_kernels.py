"""numba kernel of SAG and SAGA on sparse rows (CSR), with lazy ("just in time") updates.

The same iteration as :func:`._sag_kernels.sag_epochs`, step for step, but a step
touches only the features stored in the drawn row. The weights are held as
``wscale * v``: the L2 decay of every weight is one multiplication of ``wscale``,
and the average-gradient term ``avg_t * s_j`` that every weight receives at every
step is added to a feature only when its row is next drawn (or at the end of the
epoch), from the cumulative sum of ``avg_t / wscale_t``. With the L1 proximal step
of SAGA the missed steps of a feature are replayed one by one (the soft threshold
does not compose), with ``wscale`` kept at 1. In exact arithmetic the iterates
equal the dense kernel's.

Each feature's state is one row ``[w_1..w_K, s_1..s_K, mark]`` of a (p, 2K + 1)
array, so that a step reads and writes a feature's whole state in one or two cache
lines. ``mark`` says how far the feature is up to date: without the L1 step, the
cumulative sum at its last update (the missed terms are then ``cum_t - mark``, with
no lookup into the cumulative sums); with it, the step it is up to date to. Every
feature is brought up to date (``mark`` 0) when the cumulative sums restart: at the
end of an epoch and when the weights' scale is folded in.
"""

import numpy as np

from .._kernels.jit import njit
from .._kernels.prefetch import prefetch1, prefetch2
from ._cd_kernels import soft_threshold
from ._sag_kernels import _sample_gradient, epoch_status, step_weights

# rescale the weights when their common scale falls below this
WSCALE_RESET = 1e-9
# the L1 step's one-move catch-up needs decay^-t for the steps of an epoch: below e^600
_MAX_LOG_GROWTH = 600.0


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def _stretch_end(v, sk, t0, t, avg_hist, cum, decay, threshold):
    """The weight v after the steps t0 .. t - 1 in one move, when it provably keeps its
    sign throughout; else 0.0 (the caller replays the steps).

    While the sign holds, a step is ``v <- decay v - c_tau`` with ``c_tau = a_tau s +
    sign * threshold``: the end is ``decay^m v - s decay^(t-1) (cum[t] - cum[t0]) -
    sign * threshold * (1 + decay + ... + decay^(m-1))``, m = t - t0, ``cum`` holding
    the sums of ``a_tau / decay^tau`` in its first half and the powers ``decay^-tau``
    in its second. The steps' averages a never grow within an
    epoch, so sign * c never decreases; once the distance from zero is spent it cannot
    come back while sign * c >= 0. Hence an end of the same sign is the answer when
    sign * c >= 0 throughout, when sign * c <= 0 throughout (the distance never
    shrinks below decay times itself), or without decay (the distance is then concave
    in the step, so positive at both ends means positive in between)."""
    sign = 1.0 if v > 0.0 else -1.0
    m = t - t0
    if not (decay == 1.0 or sign * sk >= 0.0 or avg_hist[t0] * abs(sk) <= threshold
            or avg_hist[t - 1] * abs(sk) >= threshold):
        return 0.0
    if decay == 1.0:
        end = v - sk * (cum[t] - cum[t0]) - sign * threshold * m
    else:  # cum[h + tau] holds decay^-tau
        h = cum.shape[0] // 2
        decayed = cum[h + t0] / cum[h + t]
        end = (decayed * v - sk * (cum[t] - cum[t0]) / cum[h + t - 1]
               - sign * threshold * (1.0 - decayed) / (1.0 - decay))
    return end if sign * end > 0.0 else 0.0


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def _catch_up_prox(state, j, t, K, avg_hist, cum, decay, threshold):
    """With the L1 proximal step: bring feature j over the steps ``mark .. t - 1`` it
    missed. The soft threshold does not compose: the stretch is one move where the
    weight provably keeps its sign (:func:`_stretch_end`; ``cum`` the sums of the
    averages over the powers of decay, or empty when those would overflow), else the
    steps are replayed one by one."""
    t0 = np.intp(state[j, 2 * K])
    if t0 >= t:
        return
    for k in range(K):
        sk = state[j, K + k]
        v = state[j, k]
        if v != 0.0 and cum.shape[0] > 0:
            end = _stretch_end(v, sk, t0, t, avg_hist, cum, decay, threshold)
            if end != 0.0:
                state[j, k] = end
                continue
        for tau in range(t0, t):
            a = avg_hist[tau]
            v = soft_threshold(decay * v - a * sk, threshold)
            # the steps' averages never grow within an epoch: a zero weight whose
            # gradient term stays under the threshold stays zero
            if v == 0.0 and a * abs(sk) <= threshold:
                break
        state[j, k] = v
    state[j, 2 * K] = t


@njit(cache=True, nogil=True, error_model="numpy")
def _catch_up_all(state, t, K, cum, avg_hist, decay, threshold, prox, wscale):
    """Bring every feature up to step t, fold ``wscale`` into the weights and set every
    mark to 0 (the caller restarts the cumulative sums); returns the new scale, 1."""
    mark = 2 * K
    for j in range(state.shape[0]):
        if prox:
            _catch_up_prox(state, j, t, K, avg_hist, cum, decay, threshold)
        else:
            c = cum[t] - state[j, mark]
            for k in range(K):
                state[j, k] -= c * state[j, K + k]
        for k in range(K):
            state[j, k] *= wscale
        state[j, mark] = 0.0
    return 1.0


@njit(cache=True, nogil=True)
def _to_state(W, sum_grad):
    """The per-feature state rows (module docstring) of weights W and sums sum_grad."""
    K, p = W.shape
    state = np.zeros((p, 2 * K + 1))
    for j in range(p):
        for k in range(K):
            state[j, k] = W[k, j]
            state[j, K + k] = sum_grad[k, j]
    return state


@njit(cache=True, nogil=True)
def _from_state(state, W, sum_grad):
    K, p = W.shape
    for j in range(p):
        for k in range(K):
            W[k, j] = state[j, k]
            sum_grad[k, j] = state[j, K + k]


# The row loops come in two versions, without and with the L1 step, rather than one
# testing ``prox`` inside the loop, and the plain catch-up is written out in its loop:
# either the test in the loop or numba's inlining of a catch-up function compiles to
# a step several times slower. Their positions and feature indices are unsigned: numba
# then leaves out its negative-index wrap-around on every entry's loads and stores.

@njit(cache=True, nogil=True, error_model="numpy")
def _row_product_plain(indptr, indices, data, i, state, K, cum_t, z):
    """Bring row i's features up to the current step (cumulative sum ``cum_t``);
    z = the row's products with the weights."""
    for k in range(K):
        z[k] = 0.0
    mark = 2 * K
    for q in range(np.uintp(indptr[i]), np.uintp(indptr[i + 1])):
        j = np.uintp(indices[q])
        c = cum_t - state[j, mark]
        if c != 0.0:
            for k in range(K):
                state[j, k] -= c * state[j, K + k]
            state[j, mark] = cum_t
        x = data[q]
        for k in range(K):
            z[k] += x * state[j, k]


@njit(cache=True, nogil=True, error_model="numpy")
def _row_product_one(indptr, indices, data, i, state, cum_t):
    """:func:`_row_product_plain` for one output (K = 1), returning the product: the
    sum is kept in a register, not in ``z``, whose store and reload would otherwise
    lengthen the chain of additions by a store-to-load latency at every entry."""
    z = 0.0
    for q in range(np.uintp(indptr[i]), np.uintp(indptr[i + 1])):
        j = np.uintp(indices[q])
        w = state[j, 0]
        c = cum_t - state[j, 2]
        if c != 0.0:
            w -= c * state[j, 1]
            state[j, 0] = w
            state[j, 2] = cum_t
        z += data[q] * w
    return z


@njit(cache=True, nogil=True, error_model="numpy")
def _row_product_prox(indptr, indices, data, i, state, t, K, avg_hist, cum, decay, threshold,
                      z):
    """:func:`_row_product_plain` with the L1 step (up to step t)."""
    for k in range(K):
        z[k] = 0.0
    for q in range(np.uintp(indptr[i]), np.uintp(indptr[i + 1])):
        j = np.uintp(indices[q])
        _catch_up_prox(state, j, t, K, avg_hist, cum, decay, threshold)
        x = data[q]
        for k in range(K):
            z[k] += x * state[j, k]


@njit(cache=True, nogil=True, error_model="numpy")
def _row_update_plain(indptr, indices, data, i, state, K, d, own, avg, inv_scale, cum_next):
    """Add row i's gradient change d to its features' sums and step their weights
    (held divided by the common scale: ``inv_scale`` is its inverse); they are then up
    to date to the cumulative sum ``cum_next``."""
    mark = 2 * K
    for q in range(np.uintp(indptr[i]), np.uintp(indptr[i + 1])):
        j = np.uintp(indices[q])
        x = data[q]
        for k in range(K):
            c = d[k] * x
            s = state[j, K + k] + c
            state[j, K + k] = s
            state[j, k] -= (own * c + avg * s) * inv_scale
        state[j, mark] = cum_next


@njit(cache=True, nogil=True, error_model="numpy")
def _row_update_one(indptr, indices, data, i, state, d, own, avg, inv_scale, cum_next):
    """:func:`_row_update_plain` for one output (K = 1), with scalar ``d``."""
    for q in range(np.uintp(indptr[i]), np.uintp(indptr[i + 1])):
        j = np.uintp(indices[q])
        c = d * data[q]
        s = state[j, 1] + c
        state[j, 1] = s
        state[j, 0] -= (own * c + avg * s) * inv_scale
        state[j, 2] = cum_next


@njit(cache=True, nogil=True, error_model="numpy")
def _row_update_prox(indptr, indices, data, i, state, t, K, d, own, avg, decay, threshold):
    """:func:`_row_update_plain` with the L1 proximal step (the scale is 1; the
    features are then up to date to step t + 1)."""
    for q in range(np.uintp(indptr[i]), np.uintp(indptr[i + 1])):
        j = np.uintp(indices[q])
        x = data[q]
        for k in range(K):
            c = d[k] * x
            s = state[j, K + k] + c
            state[j, K + k] = s
            state[j, k] = soft_threshold(decay * state[j, k] - own * c - avg * s, threshold)
        state[j, 2 * K] = t + 1


@njit(cache=True, nogil=True, inline="always")
def _prefetch_row(indptr, indices, data, i):
    """Hint the cache lines of CSR row i's entries (its ``indptr`` pair is read)."""
    start = np.uintp(indptr[i])
    end = np.uintp(indptr[i + 1])
    if end > start:
        for q in range(start, end, 8):  # 8 float64 per 64-byte line
            prefetch1(data, q)
        prefetch1(data, end - 1)
        for q in range(start, end, 16):  # 16 int32 (8 int64: a line at most missed)
            prefetch1(indices, q)
        prefetch1(indices, end - 1)


@njit(cache=True, nogil=True, inline="always")
def _prefetch_state(indptr, indices, state, i):
    """Hint the state rows of CSR row i's features (its entries are read)."""
    for q in range(np.uintp(indptr[i]), np.uintp(indptr[i + 1])):
        prefetch2(state, np.uintp(indices[q]), 0)


@njit(cache=True, nogil=True, error_model="numpy")
def sag_epochs_csr(indptr, indices, data, y, sw, W, b, sum_grad, sum_grad_b, memory, seen,
                   num_seen, order, loss, step, alpha, beta, saga, fit_intercept, tol, prev):
    """:func:`._sag_kernels.sag_epochs` for CSR X given by ``indptr``, ``indices``,
    ``data`` (the other arguments and the result as there)."""
    K = W.shape[0]
    n_steps = order.shape[1]
    return _csr_epochs(indptr, indices, data, y, sw, W, b, sum_grad, sum_grad_b, memory, seen,
                       num_seen, order, loss, step, alpha, beta, saga, fit_intercept, tol, prev,
                       _to_state(W, sum_grad), np.empty(K), np.empty(K),
                       np.zeros(2 * (n_steps + 1)), np.empty(n_steps))


# Without numba's runtime: the loop allocates nothing (its work arrays come from
# sag_epochs_csr), and the per-step calls pass ~8 arrays, whose reference counts
# would otherwise cost as much as a short row's update.
@njit(cache=True, nogil=True, error_model="numpy", _nrt=False)
def _csr_epochs(indptr, indices, data, y, sw, W, b, sum_grad, sum_grad_b, memory, seen,
                num_seen, order, loss, step, alpha, beta, saga, fit_intercept, tol, prev,
                state, z, g, cum, avg_hist):
    """The epochs of :func:`sag_epochs_csr` on its work arrays (feature state rows,
    z, g, cumulative sums (and with the L1 step the powers of decay after them) and
    the steps' averages)."""
    K = W.shape[0]
    decay = 1.0 - step * alpha
    threshold = step * beta
    prox = saga and beta > 0.0
    n_epochs, n_steps = order.shape
    wscale = 1.0
    # with the L1 step, cum sums avg_t / decay^t: usable while decay^-t stays in range
    prox_cum = cum if decay == 1.0 or n_steps * -np.log(decay) < _MAX_LOG_GROWTH else cum[:0]
    growth = 1.0
    for epoch in range(n_epochs):
        cum[0] = 0.0
        growth = 1.0
        cum[n_steps + 1] = 1.0
        for t in range(n_steps):
            i = order[epoch, t]
            # the rows are drawn at random: ask now for the indptr pair of the row three
            # steps ahead, the entries of the row two steps ahead and the state rows of
            # the next row's features, so the steps do not wait on memory
            if t + 3 < n_steps:
                prefetch1(indptr, order[epoch, t + 3])
            if t + 2 < n_steps:
                _prefetch_row(indptr, indices, data, order[epoch, t + 2])
            if t + 1 < n_steps:
                _prefetch_state(indptr, indices, state, order[epoch, t + 1])
            if prox:
                _row_product_prox(indptr, indices, data, i, state, t, K, avg_hist,
                                  prox_cum, decay, threshold, z)
            elif K == 1:
                z[0] = _row_product_one(indptr, indices, data, i, state, cum[t])
            else:
                _row_product_plain(indptr, indices, data, i, state, K, cum[t], z)
            for k in range(K):
                z[k] = b[k] + wscale * z[k]
            _sample_gradient(z, y[i], sw[i], loss, g)
            num_seen, own, avg = step_weights(i, seen, num_seen, step, saga)
            avg_hist[t] = avg
            if not prox:
                wscale *= decay
                cum[t + 1] = cum[t] + avg / wscale
            else:  # the scale stays 1
                cum[t + 1] = cum[t] + avg * growth
                growth /= decay
                cum[n_steps + 2 + t] = growth
            for k in range(K):
                g[k], memory[i, k] = g[k] - memory[i, k], g[k]  # g now holds the change d
            if prox:
                _row_update_prox(indptr, indices, data, i, state, t, K, g, own, avg, decay,
                                 threshold)
            elif K == 1:
                _row_update_one(indptr, indices, data, i, state, g[0], own, avg, 1.0 / wscale,
                                cum[t + 1])
            else:
                _row_update_plain(indptr, indices, data, i, state, K, g, own, avg,
                                  1.0 / wscale, cum[t + 1])
            if fit_intercept:
                for k in range(K):
                    sum_grad_b[k] += g[k]
                    b[k] -= avg * sum_grad_b[k] + own * g[k]
            if not prox and wscale < WSCALE_RESET:
                wscale = _catch_up_all(state, t + 1, K, cum, avg_hist, decay, threshold, prox,
                                       wscale)
                cum[t + 1] = 0.0
        wscale = _catch_up_all(state, n_steps, K, prox_cum if prox else cum, avg_hist, decay,
                               threshold, prox, wscale)
        _from_state(state, W, sum_grad)
        status = epoch_status(W, b, prev, tol)
        if status != 0:
            return num_seen, epoch + 1, status
    return num_seen, n_epochs, 0
