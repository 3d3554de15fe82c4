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
"""

import numpy as np

from .._kernels.jit import njit
from ._cd_kernels import soft_threshold
from ._sag_kernels import _sample_gradient, epoch_status, step_weights

# rescale the weights when their common scale falls below this
WSCALE_RESET = 1e-9


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def _catch_up(V, sum_grad, j, t, last, cum, avg_hist, decay, threshold, prox):
    """Apply the steps ``last[j] .. t - 1`` that feature j missed (all outputs)."""
    t0 = last[j]
    if t0 >= t:
        return
    K = V.shape[0]
    if prox:
        for k in range(K):
            sk = sum_grad[k, j]
            v = V[k, j]
            for tau in range(t0, t):
                a = avg_hist[tau]
                v = soft_threshold(decay * v - a * sk, threshold)
                # the steps' averages never grow within an epoch: a zero weight whose
                # gradient term stays under the threshold stays zero
                if v == 0.0 and a * abs(sk) <= threshold:
                    break
            V[k, j] = v
    else:
        c = cum[t] - cum[t0]
        for k in range(K):
            V[k, j] -= c * sum_grad[k, j]
    last[j] = t


@njit(cache=True, nogil=True, error_model="numpy")
def _catch_up_all(V, sum_grad, t, last, cum, avg_hist, decay, threshold, prox, wscale):
    """Bring every feature up to step t and fold ``wscale`` into the weights."""
    K, p = V.shape
    for j in range(p):
        _catch_up(V, sum_grad, j, t, last, cum, avg_hist, decay, threshold, prox)
    if wscale[0] != 1.0:
        for k in range(K):
            for j in range(p):
                V[k, j] *= wscale[0]
        wscale[0] = 1.0


@njit(cache=True, nogil=True, error_model="numpy")
def sag_epochs_csr(indptr, indices, data, y, sw, W, b, sum_grad, sum_grad_b, memory, seen,
                   num_seen, order, loss, step, alpha, beta, saga, fit_intercept, tol, prev):
    """:func:`._sag_kernels.sag_epochs` for CSR X given by ``indptr``, ``indices``,
    ``data`` (the other arguments and the result as there)."""
    K, p = W.shape
    z = np.empty(K)
    g = np.empty(K)
    decay = 1.0 - step * alpha
    threshold = step * beta
    prox = saga and beta > 0.0
    n_epochs, n_steps = order.shape
    last = np.zeros(p, dtype=np.intp)
    cum = np.zeros(n_steps + 1)
    avg_hist = np.empty(n_steps)
    wscale = np.ones(1)
    for epoch in range(n_epochs):
        cum[0] = 0.0
        for t in range(n_steps):
            i = order[epoch, t]
            start = indptr[i]
            stop = indptr[i + 1]
            for k in range(K):
                z[k] = 0.0
            for q in range(start, stop):  # bring the row's features up to date, and x.w
                j = indices[q]
                _catch_up(W, sum_grad, j, t, last, cum, avg_hist, decay, threshold, prox)
                for k in range(K):
                    z[k] += data[q] * W[k, j]
            for k in range(K):
                z[k] = b[k] + wscale[0] * z[k]
            _sample_gradient(z, y[i], sw[i], loss, g)
            num_seen, own, avg = step_weights(i, seen, num_seen, step, saga)
            avg_hist[t] = avg
            if not prox:
                wscale[0] *= decay
                cum[t + 1] = cum[t] + avg / wscale[0]
            ws = wscale[0]
            for k in range(K):
                g[k], memory[i, k] = g[k] - memory[i, k], g[k]  # g now holds the change d
            for q in range(start, stop):
                j = indices[q]
                for k in range(K):
                    c = g[k] * data[q]
                    s = sum_grad[k, j] + c
                    sum_grad[k, j] = s
                    if prox:
                        v = decay * W[k, j] - own * c - avg * s
                        W[k, j] = soft_threshold(v, threshold)
                    else:
                        W[k, j] -= (own * c + avg * s) / ws
                last[j] = t + 1
            if fit_intercept:
                for k in range(K):
                    sum_grad_b[k] += g[k]
                    b[k] -= avg * sum_grad_b[k] + own * g[k]
            if not prox and ws < WSCALE_RESET:
                _catch_up_all(W, sum_grad, t + 1, last, cum, avg_hist, decay, threshold, prox,
                              wscale)
                cum[t + 1] = 0.0
        _catch_up_all(W, sum_grad, n_steps, last, cum, avg_hist, decay, threshold, prox,
                      wscale)
        for j in range(p):
            last[j] = 0
        status = epoch_status(W, b, prev, tol)
        if status != 0:
            return num_seen, epoch + 1, status
    return num_seen, n_epochs, 0
