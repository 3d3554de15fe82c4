"""numba kernel of the perceptron's online updates (seed 002).

For each sample in the given order and each one-vs-rest output k, a
misclassified sample (``y_ik f_k(x_i) <= 0``) moves the hyperplane:
``w_k += eta * s_i * y_ik * x_i`` and ``b_k += eta * s_i * y_ik``, the stochastic
gradient step on the perceptron criterion ``sum max(0, -y f(x))``.
"""

import numpy as np
from numba import njit


@njit(cache=True, nogil=True)
def perceptron_epochs(W, b, X, Y, sw, orders, eta, l1, l2, fit_intercept, losses):
    """Run ``orders.shape[0]`` epochs of online perceptron updates.

    Parameters
    ----------
    W : float64 (K, p), b : float64 (K,): updated in place (caller-owned).
    X : float64 (n, p) C-contiguous; Y : float64 (n, K) in {-1, +1};
    sw : float64 (n,) sample weights; orders : intp (e, n) sample order per epoch.
    eta : float, learning rate; l1, l2 : float, per-step penalty strengths
        (``w *= 1 - eta * l2`` then soft-threshold by ``eta * l1``).
    fit_intercept : bool.
    losses : float64 (e, 2) output: per epoch, the weighted perceptron loss
        and the weighted number of mistakes (``y f <= 0``), accumulated during
        the epoch before each update.
    """
    K, p = W.shape
    for e in range(orders.shape[0]):
        total = 0.0
        mistakes = 0.0
        for ii in range(orders.shape[1]):
            i = orders[e, ii]
            for k in range(K):
                f = b[k]
                for j in range(p):
                    f += W[k, j] * X[i, j]
                yf = Y[i, k] * f
                if l2 > 0.0:
                    shrink = 1.0 - eta * l2
                    for j in range(p):
                        W[k, j] *= shrink
                if yf <= 0.0:
                    total -= sw[i] * yf
                    mistakes += sw[i]
                    step = eta * sw[i] * Y[i, k]
                    for j in range(p):
                        W[k, j] += step * X[i, j]
                    if fit_intercept:
                        b[k] += step
                if l1 > 0.0:
                    t = eta * l1
                    for j in range(p):
                        if W[k, j] > t:
                            W[k, j] -= t
                        elif W[k, j] < -t:
                            W[k, j] += t
                        else:
                            W[k, j] = 0.0
        losses[e, 0] = total
        losses[e, 1] = mistakes


_MASK32 = 0xFFFFFFFF
_RAND_MAX_PLUS_ONE = 2147483648


@njit(cache=True, nogil=True)
def xorshift_order(n, seed):
    """The sample order of one shuffled SGD epoch as scikit-learn draws it.

    A Fisher-Yates shuffle of ``0 .. n - 1`` whose draws come from the 32-bit
    xorshift generator (shifts 13, 17, 5; each draw reduced modulo 2^31; a
    zero state becomes 1), position ``i`` swapped with ``i + draw % (n - i)``.
    Reproducing it lets ``Perceptron.partial_fit`` with ``shuffle=True`` give
    scikit-learn's coefficients. Returns intp (n,).
    """
    order = np.arange(n)
    s = seed & _MASK32
    for i in range(n - 1):
        if s == 0:
            s = 1
        s ^= (s << 13) & _MASK32
        s ^= s >> 17
        s ^= (s << 5) & _MASK32
        j = i + (s % _RAND_MAX_PLUS_ONE) % (n - i)
        t = order[i]
        order[i] = order[j]
        order[j] = t
    return order


@njit(cache=True, nogil=True)
def sgd_perceptron_epoch(W, b, X, Y, SW, orders, eta, alpha, l1_ratio, use_l2, use_l1,
                         fit_intercept):
    """One epoch of stochastic gradient descent on the perceptron loss
    ``max(0, -y f(x))`` for each one-vs-rest output, as scikit-learn's SGD runs it.

    Output ``k`` visits the samples in the order ``orders[k]``; per sample:
    ``f = <w_k, x> + b_k``; ``u = eta * y * SW[i, k]`` if ``y f <= 0`` else 0;
    with an L2 part ``w_k *= max(0, 1 - (1 - l1_ratio) eta alpha)``; then
    ``w_k += u x``, ``b_k += u``; with an L1 part, the cumulative truncated
    gradient of Tsuruoka et al. (2009): the running total ``U += l1_ratio eta
    alpha`` and each weight's applied penalty ``q_j``, restarted every epoch.

    Parameters
    ----------
    W : float64 (K, p), b : float64 (K,): updated in place.
    X : float64 (n, p) C-contiguous; Y : float64 (n, K) in {-1, +1};
    SW : float64 (n, K) per-output sample weights (class weight times sample weight);
    orders : intp (K, n).
    """
    K, p = W.shape
    q = np.empty(p)
    shrink = 1.0 - (1.0 - l1_ratio) * eta * alpha
    if shrink < 0.0:
        shrink = 0.0
    for k in range(K):
        total_l1 = 0.0
        for j in range(p):
            q[j] = 0.0
        for ii in range(orders.shape[1]):
            i = orders[k, ii]
            f = 0.0
            for j in range(p):
                f += W[k, j] * X[i, j]
            f += b[k]
            y = Y[i, k]
            update = eta * y * SW[i, k] if y * f <= 0.0 else 0.0
            if use_l2:
                for j in range(p):
                    W[k, j] *= shrink
            if update != 0.0:
                for j in range(p):
                    W[k, j] += update * X[i, j]
            if fit_intercept:
                b[k] += update
            if use_l1:
                total_l1 += l1_ratio * eta * alpha
                for j in range(p):
                    z = W[k, j]
                    if z > 0.0:
                        W[k, j] = max(0.0, z - (total_l1 + q[j]))
                    elif z < 0.0:
                        W[k, j] = min(0.0, z + (total_l1 - q[j]))
                    q[j] += W[k, j] - z
