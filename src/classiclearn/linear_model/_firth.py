"""Firth's bias-reduced logistic regression (binary; seed 004's warning on separable data).

Firth (1993) maximises the penalised log-likelihood

    l*(beta) = l(beta) + 1/2 log det I(beta),   I(beta) = A' diag(w p (1 - p)) A,

(A the design with the intercept column, w the sample weights): the
likelihood times Jeffreys' invariant prior. The penalty removes the O(1/n)
bias of the maximum-likelihood estimate and, as Heinze and Schemper (2002)
showed, keeps the estimate finite under complete or quasi-complete
separation. Its gradient is the modified score

    U*(beta) = A' (w (y - p) + h (1/2 - p)),

h the diagonal of the weighted hat matrix ``W^{1/2} A I^{-1} A' W^{1/2}``.

Solvers: ``newton`` is the modified-score Fisher scoring of Firth and of
Heinze-Schemper (``beta += I^{-1} U*``, halving the step until l* does not
decrease); ``lbfgs`` runs L-BFGS on ``-l*`` with the exact gradient ``-U*``.
Profile-likelihood intervals (the ones Heinze and Schemper recommend, as the
R package logistf; for maximum-likelihood fits the same code without the
penalty gives the profile intervals of R's ``confint`` on a ``glm``) solve ``2 (l*(beta_hat) - max_{beta_j = c} l*) = chi2_1(1 - alpha)``
for c on each side, each profile point by the same Newton iteration over the
other coefficients.
"""

import numpy as np
from scipy import linalg, optimize, stats

__all__ = ["fit_firth", "firth_penalized_loglik", "profile_intervals"]


def _terms(beta, A, y, sw, firth=True):
    """Penalised log-likelihood, modified score, information and its inverse (with
    ``firth=False``: the plain log-likelihood and score, for ML profiles)."""
    z = A @ beta
    p = 0.5 * (1.0 + np.tanh(0.5 * z))  # the logistic function without overflow
    loglik = float(sw @ (y * z - np.logaddexp(0.0, z)))
    w = sw * p * (1.0 - p)
    info = (A * w[:, None]).T @ A
    if not firth:
        return loglik, A.T @ (sw * (y - p)), info, None
    sign, logdet = np.linalg.slogdet(info)
    if sign <= 0:
        return -np.inf, None, info, None
    inv = linalg.inv(info, check_finite=False)
    h = w * np.einsum("ij,ij->i", A @ inv, A)
    score = A.T @ (sw * (y - p) + h * (0.5 - p))
    return loglik + 0.5 * logdet, score, info, inv


def firth_penalized_loglik(beta, A, y, sw, firth=True):
    """``l(beta) + 1/2 log det I(beta)`` (-inf where I is singular); ``l`` alone
    with ``firth=False``."""
    return _terms(beta, A, y, sw, firth)[0]


def _newton(beta, A, y, sw, free, max_iter, tol, firth=True):
    """Fisher scoring on the modified score (the score without ``firth``) over the
    coordinates in ``free``."""
    value, score, info, _ = _terms(beta, A, y, sw, firth)
    if score is None:
        raise ValueError("The Firth information matrix is singular: the design has "
                         "collinear columns or a constant column beside the intercept.")
    for it in range(1, max_iter + 1):
        step = np.zeros_like(beta)
        step[free] = linalg.solve(info[np.ix_(free, free)], score[free], assume_a="pos",
                                  check_finite=False)
        big = np.max(np.abs(step))
        if big > 5.0:  # logistf's maximal step: keeps early iterations from overshooting
            step *= 5.0 / big
        t = 1.0
        for _ in range(30):
            new_value, new_score, new_info, _ = _terms(beta + t * step, A, y, sw, firth)
            if new_score is not None and new_value >= value - 1e-12 * abs(value):
                break
            t *= 0.5
        else:
            return beta, it, False
        beta = beta + t * step
        change = np.max(np.abs(t * step))
        value, score, info = new_value, new_score, new_info
        if change <= tol and np.max(np.abs(score[free])) <= max(tol, 1e-8):
            return beta, it, True
    return beta, max_iter, False


def _lbfgs(beta, A, y, sw, max_iter, tol):
    def fun(b):
        value, score, _, _ = _terms(b, A, y, sw)
        if score is None:
            return np.inf, np.zeros_like(b)
        return -value, -score

    res = optimize.minimize(fun, beta, jac=True, method="L-BFGS-B",
                            options={"maxiter": max_iter, "gtol": tol, "ftol": 1e-15})
    return res.x, int(res.nit), bool(res.success)


def fit_firth(X, y, sw, fit_intercept, solver, max_iter, tol, beta0=None):
    """Firth logistic regression of binary ``y`` (0/1 floats) on X.

    Returns (coef (p,), intercept, n_iter, converged).
    """
    A = np.column_stack([np.ones(X.shape[0]), X]) if fit_intercept else X
    beta = np.zeros(A.shape[1]) if beta0 is None else np.asarray(beta0, dtype=np.float64)
    free = np.arange(A.shape[1])
    if solver == "lbfgs":
        beta, n_iter, ok = _lbfgs(beta, A, y, sw, max_iter, tol)
    else:
        beta, n_iter, ok = _newton(beta, A, y, sw, free, max_iter, tol)
    if fit_intercept:
        return beta[1:], float(beta[0]), n_iter, ok
    return beta, 0.0, n_iter, ok


def firth_null_loglik(X, y, sw, fit_intercept, max_iter=100, tol=1e-10):
    """Penalised log-likelihood of the null model for the penalised LR test.

    As Heinze and Schemper (and logistf), the null model keeps the full design
    in the penalty: all slopes fixed at zero, the intercept (if any) free, and
    ``1/2 log det I`` computed from every column, so that the statistic does not
    depend on the scale of the features.
    """
    A = np.column_stack([np.ones(X.shape[0]), X]) if fit_intercept else X
    beta = np.zeros(A.shape[1])
    if fit_intercept:
        beta, _, _ = _newton(beta, A, y, sw, np.arange(1), max_iter, tol)
    return firth_penalized_loglik(beta, A, y, sw)


def profile_intervals(A, y, sw, beta_hat, std_err, alpha, max_iter=1000, tol=1e-9,
                      firth=True):
    """Profile (penalised, with ``firth``) likelihood interval of each coefficient.

    Returns (low, high) arrays; an end that cannot be bracketed within 50
    standard errors is +-inf.
    """
    q = stats.chi2.ppf(1.0 - alpha, 1)
    top = firth_penalized_loglik(beta_hat, A, y, sw, firth)
    k = A.shape[1]
    low, high = np.empty(k), np.empty(k)
    for j in range(k):
        free = np.delete(np.arange(k), j)
        start = {"beta": beta_hat.copy()}

        def excess(c, j=j, free=free, start=start):
            # The profile is a maximum over the other coefficients, and l* need not be
            # concave far from the estimate: start from both the previous profile point
            # and the estimate, keep the better local maximum.
            best = -np.inf
            for init in (start["beta"], beta_hat):
                b = init.copy()
                b[j] = c
                b, _, _ = _newton(b, A, y, sw, free, max_iter, tol, firth)
                value = firth_penalized_loglik(b, A, y, sw, firth)
                if value > best:
                    best, start["beta"] = value, b
            return 2.0 * (top - best) - q

        for side, out in ((-1.0, low), (1.0, high)):
            start["beta"] = beta_hat.copy()
            scale = std_err[j] if np.isfinite(std_err[j]) and std_err[j] > 0 else 1.0
            inner, outer = beta_hat[j], beta_hat[j] + side * scale
            while excess(outer) < 0:
                inner, outer = outer, beta_hat[j] + 2.0 * (outer - beta_hat[j])
                if abs(outer - beta_hat[j]) > 50 * scale:
                    out[j] = side * np.inf
                    break
            else:
                out[j] = optimize.brentq(excess, inner, outer, xtol=1e-10, rtol=1e-12)
    return low, high
