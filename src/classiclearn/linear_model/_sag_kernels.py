"""numba kernels of SAG and SAGA (stochastic average gradient).

SAG (Schmidt, Le Roux and Bach, 2013) and SAGA (Defazio, Bach and
Lacoste-Julien, 2014) minimise

    (1 / n) sum_i sw_i loss(y_i, b + W x_i) + alpha / 2 ||W||^2 + beta ||W||_1

by drawing one sample per step, replacing its stored gradient and stepping
along the average of the stored gradients (SAG) or along the unbiased
estimate new - old + average (SAGA, followed by the proximal step of the L1
term). The average divides by the number of samples seen so far, as in the
papers' "seen" variant. Dense rows: every weight is updated at every step (no
lazy updates are needed when every feature is non-zero).

Losses (``loss`` code): 0 half squared error, 1 binomial log loss (y in
{0, 1}), 2 multinomial log loss (y holds class indices as floats).
"""

import math

import numpy as np

from .._kernels.jit import njit
from ._cd_kernels import soft_threshold

LOSS_SQUARED = 0
LOSS_LOG = 1
LOSS_MULTINOMIAL = 2

# Reassociation and FMA contraction only (no "nnan" / "ninf"): the compiled
# order is fixed, so a run is reproducible.
_FAST = {"reassoc", "contract"}


@njit(cache=True, nogil=True, error_model="numpy", fastmath=_FAST)
def _row_dot(X, i, W, k):
    """``X[i] @ W[k]`` without taking either row as a view."""
    s = 0.0
    for j in range(X.shape[1]):
        s += X[i, j] * W[k, j]
    return s


@njit(cache=True, nogil=True, error_model="numpy", _nrt=False)
def _sample_gradient(z, yi, swi, loss, g):
    """d loss / d z for one sample (times its weight) into g (K,)."""
    K = z.shape[0]
    if loss == LOSS_SQUARED:
        g[0] = swi * (z[0] - yi)
    elif loss == LOSS_LOG:
        zi = z[0]
        if zi > 0:
            prob = 1.0 / (1.0 + math.exp(-zi))
        else:
            e = math.exp(zi)
            prob = e / (1.0 + e)
        g[0] = swi * (prob - yi)
    else:
        m = z[0]
        for k in range(1, K):
            if z[k] > m:
                m = z[k]
        s = 0.0
        for k in range(K):
            g[k] = math.exp(z[k] - m)
            s += g[k]
        label = int(yi)
        for k in range(K):
            g[k] = swi * (g[k] / s - (1.0 if k == label else 0.0))


@njit(cache=True, nogil=True, inline="always")
def step_weights(i, seen, num_seen, step, saga):
    """Mark sample i seen; returns (num_seen, own, avg): the weights of the sample's own
    gradient change (SAGA only) and of the gradient average in this step."""
    if not seen[i]:
        seen[i] = True
        num_seen += 1
    inv = 1.0 / num_seen
    own = step * (1.0 - inv) if saga else 0.0
    return num_seen, own, step * inv


@njit(cache=True, nogil=True, _nrt=False)
def epoch_status(W, b, prev, tol):
    """After an epoch: -1 if the iterate is not finite, 1 if the largest weight change
    since ``prev`` is at most ``tol`` times the largest weight (converged), else 0;
    ``prev`` becomes the current weights."""
    K, p = W.shape
    max_change = 0.0
    max_weight = 0.0
    finite = True
    for k in range(K):
        for j in range(p):
            w = W[k, j]
            if not math.isfinite(w):
                finite = False
            max_weight = max(max_weight, abs(w))
            max_change = max(max_change, abs(w - prev[k, j]))
            prev[k, j] = w
    for k in range(K):
        if not math.isfinite(b[k]):
            finite = False
    if not finite:
        return -1
    if (max_weight != 0.0 and max_change / max_weight <= tol) or (
            max_weight == 0.0 and max_change == 0.0):
        return 1
    return 0


@njit(cache=True, nogil=True, error_model="numpy", fastmath=_FAST)
def sag_epochs(X, y, sw, W, b, sum_grad, sum_grad_b, memory, seen, num_seen, order,
               loss, step, alpha, beta, saga, fit_intercept, tol, prev):
    """Run the epochs of ``order`` (one row of sample indices per epoch).

    Parameters
    ----------
    X : float64 (n, p) C-contiguous; y : float64 (n,); sw : float64 (n,).
    W : float64 (K, p), b : float64 (K,): the iterate, updated in place.
    sum_grad : float64 (K, p), sum_grad_b : float64 (K,): sums of the stored
        gradients, updated in place.
    memory : float64 (n, K): stored d loss / d z per sample, in place.
    seen : bool (n,), num_seen : int: samples drawn at least once.
    order : intp (n_epochs, n_steps): the samples to draw, drawn by the caller.
    loss : int code; step : step size; alpha, beta : L2 and L1 strengths
        (already divided by n); saga : bool (SAGA update and L1 prox);
    fit_intercept : bool; tol : stop after the epoch whose largest weight
        change is at most ``tol`` times the largest weight.
    prev : float64 (K, p) scratch (the weights at the end of the last epoch).

    Returns
    -------
    (num_seen, epochs run, status): status 1 converged, 0 not yet, -1 the
    iterate became non-finite. Not thread-safe on shared state arrays.
    """
    K, p = W.shape
    z = np.empty(K)
    g = np.empty(K)
    decay = 1.0 - step * alpha
    threshold = step * beta
    prox = saga and beta > 0.0
    n_epochs, n_steps = order.shape
    # Rows are indexed in place, never taken as views: a view per step costs
    # numba a reference-count pair, as much as the update itself on few features.
    for epoch in range(n_epochs):
        for t in range(n_steps):
            i = order[epoch, t]
            for k in range(K):
                z[k] = b[k] + _row_dot(X, i, W, k)
            _sample_gradient(z, y[i], sw[i], loss, g)
            num_seen, own, avg = step_weights(i, seen, num_seen, step, saga)
            for k in range(K):
                d = g[k] - memory[i, k]
                memory[i, k] = g[k]
                if prox:
                    for j in range(p):
                        c = d * X[i, j]
                        s = sum_grad[k, j] + c
                        sum_grad[k, j] = s
                        v = decay * W[k, j] - own * c - avg * s
                        W[k, j] = soft_threshold(v, threshold)
                else:
                    for j in range(p):
                        c = d * X[i, j]
                        s = sum_grad[k, j] + c
                        sum_grad[k, j] = s
                        W[k, j] = decay * W[k, j] - own * c - avg * s
                if fit_intercept:
                    sum_grad_b[k] += d
                    b[k] -= avg * sum_grad_b[k] + own * d
        status = epoch_status(W, b, prev, tol)
        if status != 0:
            return num_seen, epoch + 1, status
    return num_seen, n_epochs, 0
