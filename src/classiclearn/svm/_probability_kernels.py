"""numba kernel of Platt scaling (seed 000 §8): the Newton iterations of
:func:`classiclearn.svm._probability.fit_sigmoid` in one compiled loop (in
Python each iteration was a dozen NumPy calls on a few hundred values)."""

import numpy as np

from .._kernels.jit import njit


@njit(cache=True, nogil=True, error_model="numpy")
def _objective(dec, target, a, b):
    """Regularised cross-entropy of the sigmoid ``1 / (1 + exp(a f + b))``."""
    total = 0.0
    for k in range(dec.shape[0]):
        z = dec[k] * a + b
        soft = np.log1p(np.exp(-abs(z)))
        total += (target[k] * z if z >= 0 else (target[k] - 1.0) * z) + soft
    return total


@njit(cache=True, nogil=True, error_model="numpy")
def platt_fit(dec, positive):
    """Platt's (A, B) for decision values ``dec`` (float64) and labels ``positive``
    (bool): Newton's method with backtracking on the regularised targets (Lin, Lin
    and Weng 2007), stopping when both gradients are below 1e-5."""
    n = dec.shape[0]
    n1 = 0.0
    for k in range(n):
        n1 += 1.0 if positive[k] else 0.0
    n0 = n - n1
    hi = (n1 + 1.0) / (n1 + 2.0)
    lo = 1.0 / (n0 + 2.0)
    target = np.empty(n)
    for k in range(n):
        target[k] = hi if positive[k] else lo
    A = 0.0
    B = np.log((n0 + 1.0) / (n1 + 1.0))
    fval = _objective(dec, target, A, B)
    for _ in range(100):
        h11 = 1e-12
        h22 = 1e-12
        h21 = 0.0
        g1 = 0.0
        g2 = 0.0
        for k in range(n):
            z = min(max(dec[k] * A + B, -700.0), 700.0)
            p = 1.0 / (1.0 + np.exp(z))  # P(positive)
            d2 = p * (1.0 - p)
            d1 = target[k] - p
            h11 += dec[k] * dec[k] * d2
            h22 += d2
            h21 += dec[k] * d2
            g1 += dec[k] * d1
            g2 += d1
        if abs(g1) < 1e-5 and abs(g2) < 1e-5:
            break
        det = h11 * h22 - h21 * h21
        dA = -(h22 * g1 - h21 * g2) / det
        dB = -(-h21 * g1 + h11 * g2) / det
        gd = g1 * dA + g2 * dB
        step = 1.0
        while step >= 1e-10:
            newA = A + step * dA
            newB = B + step * dB
            newf = _objective(dec, target, newA, newB)
            if newf < fval + 1e-4 * step * gd:
                A, B, fval = newA, newB, newf
                break
            step /= 2.0
        if step < 1e-10:
            break
    return A, B
