"""Detection of complete and quasi-complete separation in binary logistic regression.

Seed 004 warns that on linearly separable data the logistic weights go to
infinity. The maximum-likelihood estimate fails to exist exactly when a
direction d != 0 of the coefficients (intercept included) satisfies

    s_i a_i' d >= 0  for every sample i   (s_i = +1 for y = 1, -1 for y = 0),

with at least one strict inequality (Albert and Anderson 1984): moving along d
never lowers the likelihood, and the samples with ``s_i a_i' d > 0`` get fitted
probabilities tending to their observed class. This is a linear-programming
feasibility question (Konis 2007), answered here exactly rather than from
the behaviour of a solver that stopped early: on columns scaled to unit
maximum, minimise ``||d||_1`` subject to ``M d >= 0`` and ``sum(M d) >= 1``
(M the signed design, rows ``s_i a_i``). The LP is feasible exactly when
there is separation, and its least-norm solution is sparse: the features with
a non-zero component are the ones whose coefficients diverge along that
direction, and the warning names them. Separation is *complete* when one
direction makes every margin positive (a second LP maximises the smallest
margin), else *quasi-complete*.

The LP costs far more than a fit on large data, so a cheap certificate of
overlap comes first. By Gordan's theorem there is no separating direction
exactly when some strictly positive weights lambda give ``M' lambda = 0``
(M the signed design). The fitted model supplies them: at the MLE the score
``M' (w (1 - p_obs)) = 0``. The weights ``lambda_i = w_i (1 - p_obs,i)`` of
the (approximate) fit are corrected multiplicatively, ``lambda_i (1 + u_i)``
with ``u = -M (M' Lambda M)^+ M' lambda``, which solves ``M' lambda = 0``;
when every corrected weight stays clearly positive the data overlap and the
LP is skipped. Under separation the weights of the separated samples have
shrunk towards zero, the certificate fails and the LP decides.
"""

import numpy as np
from scipy import optimize

__all__ = ["find_separation"]

# Above this many design entries, skip the LP (its cost) and only report
# complete separation seen in the fitted margins.
MAX_LP_ENTRIES = 2_000_000


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


def _sparse_direction(M):
    """Least-L1 direction with ``M d >= 0`` and ``sum(M d) >= 1``, or None."""
    n, k = M.shape
    Mdiff = np.hstack([M, -M])  # d = d_plus - d_minus, both >= 0
    A_ub = np.vstack([-Mdiff, -Mdiff.sum(axis=0)[None, :]])
    b_ub = np.r_[np.zeros(n), -1.0]
    res = optimize.linprog(np.ones(2 * k), A_ub=A_ub, b_ub=b_ub, bounds=(0, None),
                           method="highs")
    if res.status != 0:
        return None  # infeasible: the classes overlap
    return res.x[:k] - res.x[k:]


def _gram(X, weights, fit_intercept):
    """``A' diag(weights) A`` for the design A = [1 | X] (or X)."""
    XtW = X.T * weights
    G = XtW @ X
    if not fit_intercept:
        return G
    col = XtW.sum(axis=1)
    return np.block([[np.array([[weights.sum()]]), col[None, :]], [col[:, None], G]])


def _times_design(X, v, fit_intercept):
    """``A' v``."""
    out = X.T @ v
    return np.concatenate([[v.sum()], out]) if fit_intercept else out


def overlap_certified(X, sign, lam, fit_intercept):
    """True when strictly positive weights with ``M' lambda = 0`` are found near ``lam``.

    ``M = diag(sign) A``; computed from X without forming M (``M' Lambda M =
    A' Lambda A`` since the signs square to one).
    """
    if not np.all(lam > 0):
        return False
    g = _times_design(X, sign * lam, fit_intercept)
    G = _gram(X, lam, fit_intercept)
    c = np.linalg.pinv(G, hermitian=True) @ g
    Ac = X @ c[1:] + c[0] if fit_intercept else X @ c
    factor = 1.0 - sign * Ac  # 1 + u with u = -M c
    new = lam * factor
    if not np.all(factor > 1e-3) or new.min() <= 1e-10 * new.max():
        return False
    residual = np.max(np.abs(_times_design(X, sign * new, fit_intercept)))
    return bool(residual <= 1e-9 * np.max(_times_design(np.abs(X), new, fit_intercept)))


def find_separation(X, y, sw, fit_intercept, names, p_observed=None):
    """Look for separation; returns None or a dict (kind, terms, n_separated).

    Parameters
    ----------
    X : ndarray (n, p); y : 0/1 array (n,); sw : sample weights (n,)
    fit_intercept : bool
    names : list of str, the feature names.
    p_observed : ndarray (n,), optional
        Fitted probability of each sample's own class; enables the overlap
        certificate that skips the LP.
    """
    if p_observed is not None:
        keep = sw > 0
        Xk = X if keep.all() else X[keep]
        sign = np.where(y[keep] > 0, 1.0, -1.0)
        if overlap_certified(Xk, sign, sw[keep] * (1.0 - p_observed[keep]), fit_intercept):
            return None
    if X.shape[0] * (X.shape[1] + 1) > MAX_LP_ENTRIES:
        return None
    M, scale = _signed_design(X, y, sw, fit_intercept)
    n, k = M.shape
    d = _sparse_direction(M)
    if d is None:
        return None
    margins = M @ d
    tol = 1e-7 * max(1.0, np.max(np.abs(M) @ np.abs(d)))
    if margins.min() < -tol or margins.max() <= tol:
        return None
    # Complete separation: shown by the fit itself when every sample is on its own
    # side, else maximise t with M d >= t, d in the box, t <= 1.
    complete = p_observed is not None and bool(np.all(p_observed[sw > 0] > 0.5))
    if not complete:
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
