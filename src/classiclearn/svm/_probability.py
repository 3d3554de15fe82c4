"""Probability outputs of SVC (seed 000 §8): Platt scaling and pairwise coupling.

Platt's sigmoid ``P(y=1 | f) = 1 / (1 + exp(A f + B))`` is fitted to
decision values obtained by internal cross-validation, with the regularised
targets and the Newton method with backtracking of Lin, Lin and Weng (2007,
"A note on Platt's probabilistic outputs for support vector machines").
Several classes combine the one-vs-one probabilities by the second method of
Wu, Lin and Weng (2004, "Probability estimates for multi-class
classification by pairwise coupling").
"""

import numpy as np

from ._probability_kernels import platt_fit


def fit_sigmoid(dec, positive):
    """Fit Platt's (A, B) to decision values ``dec`` with boolean labels ``positive``
    (Newton's method with backtracking, :func:`._probability_kernels.platt_fit`)."""
    A, B = platt_fit(np.ascontiguousarray(dec, dtype=np.float64),
                     np.ascontiguousarray(positive, dtype=np.bool_))
    return float(A), float(B)


def sigmoid_predict(dec, A, B):
    """Platt probability of the first class of a pair."""
    z = np.clip(dec * A + B, -700, 700)
    return 1.0 / (1.0 + np.exp(z))


def couple(r, n_classes):
    """Class probabilities from pairwise ones.

    Parameters
    ----------
    r : ndarray of shape (n_samples, n_pairs)
        ``r[:, p]`` = P(class i | i or j) for the p-th pair (i, j), i < j.
    n_classes : int

    Returns
    -------
    ndarray of shape (n_samples, n_classes)
    """
    n = r.shape[0]
    k = n_classes
    R = np.zeros((n, k, k))
    p_ = 0
    for i in range(k):
        for j in range(i + 1, k):
            R[:, i, j] = r[:, p_]
            R[:, j, i] = 1.0 - r[:, p_]
            p_ += 1
    # Q[t, t] = sum_{j != t} r_jt^2 ; Q[t, j] = -r_jt r_tj
    Q = -R.transpose(0, 2, 1) * R
    diag = np.einsum("nij,nij->nj", R, R)
    idx = np.arange(k)
    Q[:, idx, idx] = diag
    P = np.full((n, k), 1.0 / k)
    eps = 0.005 / k
    for _ in range(max(100, k)):
        Qp = np.einsum("ntj,nj->nt", Q, P)
        pQp = np.einsum("nt,nt->n", P, Qp)
        if np.max(np.abs(Qp - pQp[:, None])) < eps:
            break
        for t in range(k):
            diff = (-Qp[:, t] + pQp) / Q[:, t, t]
            P[:, t] += diff
            scale = 1.0 + diff
            pQp = (pQp + diff * (diff * Q[:, t, t] + 2.0 * Qp[:, t])) / (scale * scale)
            Qp = (Qp + diff[:, None] * Q[:, t, :]) / scale[:, None]
            P /= scale[:, None]
    return P
