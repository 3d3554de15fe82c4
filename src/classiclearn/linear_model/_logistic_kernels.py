"""numba kernels of the logistic losses (seed 000 §5, §9.1; seed 004).

Per-sample parts of the binomial and multinomial (softmax) negative
log-likelihoods and their gradients with respect to the linear predictors.
The matrix products with X stay in BLAS on the Python side.
"""

import math

from numba import njit


@njit(cache=True, nogil=True)
def binary_loss_grad(z, y, sw, g):
    """Weighted binomial deviance / 2 and its derivative in z.

    Parameters
    ----------
    z : float64 (n,) linear predictors; y : float64 (n,) in {0, 1};
    sw : float64 (n,) sample weights; g : float64 (n,) output,
        ``g_i = sw_i (sigmoid(z_i) - y_i)``.

    Returns
    -------
    float, ``sum_i sw_i (log(1 + exp(z_i)) - y_i z_i)``.
    """
    total = 0.0
    for i in range(z.shape[0]):
        zi = z[i]
        if zi > 0:
            e = math.exp(-zi)
            lse = zi + math.log1p(e)
            prob = 1.0 / (1.0 + e)
        else:
            e = math.exp(zi)
            lse = math.log1p(e)
            prob = e / (1.0 + e)
        total += sw[i] * (lse - y[i] * zi)
        g[i] = sw[i] * (prob - y[i])
    return total


@njit(cache=True, nogil=True)
def multinomial_loss_grad(Z, y, sw, G):
    """Weighted softmax cross-entropy and its derivative in Z.

    Parameters
    ----------
    Z : float64 (n, K) linear predictors; y : intp (n,) class indices;
    sw : float64 (n,); G : float64 (n, K) output,
        ``G_ik = sw_i (p_ik - [y_i == k])``.

    Returns
    -------
    float, ``sum_i sw_i (logsumexp(Z_i) - Z_{i, y_i})``.
    """
    n, K = Z.shape
    total = 0.0
    for i in range(n):
        m = Z[i, 0]
        for k in range(1, K):
            if Z[i, k] > m:
                m = Z[i, k]
        s = 0.0
        for k in range(K):
            e = math.exp(Z[i, k] - m)
            G[i, k] = e
            s += e
        total += sw[i] * (m + math.log(s) - Z[i, y[i]])
        for k in range(K):
            G[i, k] = sw[i] * G[i, k] / s
        G[i, y[i]] -= sw[i]
    return total
