"""Detection of complete and quasi-complete separation in binary logistic regression.

Seed 004 warns that on linearly separable data the logistic weights go to
infinity. The maximum-likelihood estimate fails to exist exactly when a
direction d != 0 of the coefficients (intercept included) satisfies

    s_i a_i' d >= 0  for every sample i   (s_i = +1 for y = 1, -1 for y = 0),

with at least one strict inequality (Albert and Anderson 1984): moving along d
never lowers the likelihood, and the samples with ``s_i a_i' d > 0`` get fitted
probabilities tending to their observed class. This is a linear-programming
feasibility question (Konis 2007), answered here exactly rather than from
the behaviour of a solver that stopped early: maximise ``sum_i s_i a_i' d``
subject to the constraints and ``-1 <= d_j <= 1`` on standardised columns.
A positive optimum means separation; it is *complete* when one direction
makes every margin positive (a second LP maximises the smallest margin), else
*quasi-complete*. The features with a non-zero component of d are the ones
whose coefficients diverge along that direction, and the warning names them.
"""

import numpy as np
from scipy import optimize

__all__ = ["find_separation"]

# Above this many design entries, skip the LP (its cost) and only report
# complete separation seen in the fitted margins.
MAX_LP_ENTRIES = 5_000_000


def _signed_design(X, y, sw, fit_intercept):
    keep = sw > 0
    A = X[keep]
    scale = np.max(np.abs(A), axis=0)
    scale[scale == 0] = 1.0
    A = A / scale
    if fit_intercept:
        A = np.column_stack([np.ones(A.shape[0]), A])
        scale = np.concatenate([[1.0], scale])
    s = np.where(y[keep] > 0, 1.0, -1.0)
    return A * s[:, None], scale


def _linprog(c, A_ub, b_ub, n_vars):
    res = optimize.linprog(c, A_ub=A_ub, b_ub=b_ub, bounds=[(-1.0, 1.0)] * n_vars,
                           method="highs")
    return res if res.status == 0 else None


def find_separation(X, y, sw, fit_intercept, names):
    """Look for separation; returns None or a dict (kind, terms, n_separated).

    Parameters
    ----------
    X : ndarray (n, p); y : 0/1 array (n,); sw : sample weights (n,)
    fit_intercept : bool
    names : list of str, the feature names.
    """
    if X.shape[0] * (X.shape[1] + 1) > MAX_LP_ENTRIES:
        return None
    M, scale = _signed_design(X, y, sw, fit_intercept)
    n, k = M.shape
    res = _linprog(-M.sum(axis=0), -M, np.zeros(n), k)
    if res is None:
        return None
    d = res.x
    margins = M @ d
    tol = 1e-7 * max(1.0, np.max(np.abs(M)))
    if -res.fun <= 1e-6 or margins.min() < -tol or margins.max() <= tol:
        return None
    # Complete separation: maximise t with M d >= t, d in the box, t <= 1.
    A_ub = np.column_stack([-M, np.ones(n)])
    res2 = optimize.linprog(np.r_[np.zeros(k), -1.0], A_ub=A_ub, b_ub=np.zeros(n),
                            bounds=[(-1.0, 1.0)] * k + [(None, 1.0)], method="highs")
    complete = res2.status == 0 and -res2.fun > tol
    terms = (["intercept"] if fit_intercept else []) + list(names)
    direction = d / scale
    big = np.abs(d) > 1e-6 * np.max(np.abs(d))
    return {
        "kind": "complete" if complete else "quasi-complete",
        "terms": [t for t, b in zip(terms, big) if b],
        "direction": direction,
        "n_separated": int(np.sum(margins > tol)),
    }


def separation_message(found):
    """The warning text for a result of :func:`find_separation`."""
    features = [t for t in found["terms"] if t != "intercept"] or found["terms"]
    return (
        f"The classes are {found['kind']}ly separated ({found['kind']} separation): "
        f"{found['n_separated']} samples are fitted with probability 0 or 1 in the limit, "
        f"and the coefficients of {', '.join(features)} grow without bound, so the "
        "maximum-likelihood estimate does not exist. Use penalty='firth' (bias-reduced, "
        "finite estimates) or an 'l2' penalty."
    )
