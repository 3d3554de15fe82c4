"""numba kernel of the perceptron's online updates (seed 002).

For each sample in the given order and each one-vs-rest output k, a
misclassified sample (``y_ik f_k(x_i) <= 0``) moves the hyperplane:
``w_k += eta * s_i * y_ik * x_i`` and ``b_k += eta * s_i * y_ik``, the stochastic
gradient step on the perceptron criterion ``sum max(0, -y f(x))``.
"""

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
