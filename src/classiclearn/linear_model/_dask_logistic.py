"""Logistic regression on Dask collections: Newton's method with one exact pass per step.

The objective is the in-memory one, ``sum_i w_i loss_i + l1 |W|_1 + l2 ||W||^2 / 2``
(no penalty, l2, l1 or elastic net, from C and l1_ratio) with an unpenalised
intercept (binary: one score; K > 2 classes: the symmetric softmax with K
scores). Each Newton step makes one pass over the row blocks, each block
returning its loss, gradient and Hessian at the current coefficients, merged
in block order. Without an l1 term the step solves the Hessian system by a
pseudo-inverse (the softmax intercepts share one direction of no curvature,
which the step never moves, as the in-memory solvers never do); with one it
is the proximal Newton step (coordinate descent on the quadratic model, the
in-memory Gram kernel). The step is halved until the objective falls by a
fraction of the model's decrease. Newton converges quadratically, so the
result is the optimum to far below the in-memory solvers' tolerance.
"""

import warnings

import numpy as np
from scipy import linalg

from ..exceptions import ConvergenceWarning
from ..utils._dask import (
    add_parts,
    dask_blocks,
    fit_one_block_in_memory,
    record_input_features,
    reduce_blocks,
    target_classes,
)
from ..utils._targets import compute_class_weight
from ..utils.validation import check_array, column_or_1d
from . import _cd_kernels as _cdk
from ._inference_models import MAX_SUMMARY_PARAMS, logistic_likelihoods, set_information

__all__ = ["fit_logistic_dask"]

_GRAD_TOL = 1e-12  # max |gradient| / total weight at which Newton stops
_HESSIAN_ROWS = 4096  # rows scaled at a time for the Hessian: a buffer that stays in cache


def _scores(X, theta, n_out, p, fit_intercept):
    W = theta[: n_out * p].reshape(n_out, p)
    b = theta[n_out * p:] if fit_intercept else np.zeros(n_out)
    return X @ W.T + b


def _newton_block(theta, classes, class_weight, n_out, fit_intercept):
    """Per block: (loss, gradient, Hessian, total weight) of the weighted log-loss."""

    def block(X, y, w=None):
        X = check_array(X, dtype=np.float64, ensure_min_samples=0)
        n, p = X.shape
        y_idx = np.searchsorted(classes, column_or_1d(y))
        sw = np.ones(n) if w is None else np.asarray(w, dtype=np.float64)
        sw = sw * class_weight[y_idx]
        Z = _scores(X, theta, n_out, p, fit_intercept)
        if n_out == 1:
            return _binary_newton_terms(X, Z[:, 0], (y_idx == 1).astype(np.float64), sw,
                                        fit_intercept)
        A = np.column_stack([X, np.ones(n)]) if fit_intercept else X
        q = A.shape[1]
        top = Z.max(axis=1, keepdims=True)
        E = np.exp(Z - top)
        norm = E.sum(axis=1, keepdims=True)
        P = E / norm
        loss = np.sum(sw * (np.log(norm[:, 0]) + top[:, 0] - Z[np.arange(n), y_idx]))
        Y = np.zeros_like(P)
        Y[np.arange(n), y_idx] = 1.0
        R = (P - Y) * sw[:, None]
        G = A.T @ R  # (q, K)
        H = np.zeros((n_out, q, n_out, q))
        for k in range(n_out):
            for m in range(k, n_out):
                d = sw * P[:, k] * ((1.0 if k == m else 0.0) - P[:, m])
                H[k, :, m, :] = (A * d[:, None]).T @ A
                H[m, :, k, :] = H[k, :, m, :].T
        return loss, _pack(G, n_out, p, fit_intercept), _pack_hessian(H, n_out, p,
                                                                      fit_intercept), sw.sum()

    return block


def _binary_newton_terms(X, z, target, sw, fit_intercept):
    """(loss, gradient, Hessian, total weight) of the binary log-loss of one block at
    the scores ``z``; the intercept's row and column of the Hessian come from the
    curvature weights directly (no copy of X with a column of ones)."""
    p = X.shape[1]
    # log(1 + e^z) = max(z, 0) + log1p(e^-|z|): numpy's logaddexp is several times slower
    softplus = np.maximum(z, 0.0) + np.log1p(np.exp(-np.abs(z)))
    loss = np.sum(sw * (softplus - target * z))
    prob = 0.5 * (1.0 + np.tanh(0.5 * z))
    resid = sw * (prob - target)
    curvature = sw * prob * (1.0 - prob)
    q = p + (1 if fit_intercept else 0)
    grad = np.zeros(q)
    grad[:p] = X.T @ resid
    H = np.zeros((q, q))
    scaled = np.empty((min(X.shape[0], _HESSIAN_ROWS), p))  # never a scaled copy of all X
    for lo in range(0, X.shape[0], _HESSIAN_ROWS):
        hi = min(X.shape[0], lo + _HESSIAN_ROWS)
        B = scaled[: hi - lo]
        np.multiply(X[lo:hi], curvature[lo:hi, None], out=B)
        H[:p, :p] += B.T @ X[lo:hi]
    if fit_intercept:
        grad[p] = resid.sum()
        H[:p, p] = H[p, :p] = curvature @ X
        H[p, p] = curvature.sum()
    return loss, grad, H, sw.sum()


def _pack(G, n_out, p, fit_intercept):
    """Gradient in theta's order: coefficients by class, then the intercepts."""
    out = [G[:p].T.ravel()]
    if fit_intercept:
        out.append(G[p])
    return np.concatenate(out)


def _pack_hessian(H, n_out, p, fit_intercept):
    """Hessian (class, feature-or-1) x (class, feature-or-1) in theta's order."""
    q = H.shape[1]
    order = [k * q + j for k in range(n_out) for j in range(p)]
    if fit_intercept:
        order += [k * q + p for k in range(n_out)]
    flat = H.reshape(n_out * q, n_out * q)
    return flat[np.ix_(order, order)]


def _pinv_solve(H, g):
    lam, V = linalg.eigh(H, check_finite=False)
    keep = lam > 1e-12 * max(lam[-1], 1e-300)
    return V[:, keep] @ ((V[:, keep].T @ g) / lam[keep])


def _proximal_newton_point(theta, g, H, l1, penalised):
    """Minimiser of the proximal Newton model ``g'd + d'Hd / 2 + l1 |theta + d|_1``
    (l1 on the ``penalised`` coordinates only), by coordinate descent on the
    Hessian: ``u = theta + d`` minimises ``u'Hu / 2 - (H theta - g)'u + l1 |u|_1``."""
    G = np.ascontiguousarray(0.5 * (H + H.T))  # the kernel reads columns as rows
    u = theta.copy()
    orders = np.arange(theta.shape[0], dtype=np.intp)[None, :]
    _cdk.enet_cd_gram(u, G, G @ theta - g, -1.0, l1, 0.0, penalised.astype(np.float64),
                      False, 10_000, 1e-14 * (1.0 + np.max(np.abs(theta))), orders, 0.0)
    return u


def _l1_optimality(theta, g, l1, penalised):
    """Largest violation of the optimality conditions of ``f + l1 |theta_pen|_1``
    (``g`` the smooth part's gradient): zero exactly at the minimum."""
    at_zero = penalised & (theta == 0.0)
    moving = penalised & (theta != 0.0)
    r = g.copy()
    r[moving] += l1 * np.sign(theta[moving])
    r[at_zero] = np.maximum(np.abs(g[at_zero]) - l1, 0.0)
    return np.max(np.abs(r)) if r.size else 0.0


def _newton_direction(theta, g, H, l1, penalised):
    """Newton step (pseudo-inverse: the softmax intercepts' flat direction is never
    moved) or, with an l1 term, the proximal Newton step, and the decrease the
    line search asks a fraction of."""
    if l1 == 0.0:
        step = -_pinv_solve(H, g)
        return step, g @ step
    step = _proximal_newton_point(theta, g, H, l1, penalised) - theta
    l1_change = l1 * (np.abs((theta + step)[penalised]).sum() - np.abs(theta[penalised]).sum())
    return step, g @ step + l1_change


def fit_logistic_dask(est, X, y, sample_weight, l2, l1=0.0):
    """Fit ``est`` (a LogisticRegression: no penalty, l2, l1 or elastic net, the
    penalty ``l1 |W|_1 + l2 |W|^2 / 2``) on Dask input."""
    if y is None:
        raise ValueError("LogisticRegression requires y to be passed, but the target y is None.")
    if fit_one_block_in_memory(est, X, y, sample_weight) is not None:
        return est
    blocks = dask_blocks(X, y, sample_weight)
    (classes,) = target_classes(blocks)
    if len(classes) < 2:
        raise ValueError(
            "This solver needs samples of at least 2 classes in the data, but the data "
            f"contains only one class: {classes[0]!r}."
        )
    p = int(X.shape[1])
    K = len(classes)
    n_out = 1 if K == 2 else K
    class_weight = _class_weights(est.class_weight, classes, blocks)
    n_theta = n_out * p + (n_out if est.fit_intercept else 0)
    theta = np.zeros(n_theta)
    penalised = np.zeros(n_theta, dtype=bool)
    penalised[: n_out * p] = True
    ridge = np.where(penalised, l2, 0.0)

    def evaluate(th):
        """Objective (with the l1 term), the smooth part's gradient and Hessian."""
        loss, grad, H, total = reduce_blocks(
            _newton_block(th, classes, class_weight, n_out, est.fit_intercept), add_parts, blocks)
        W = th[: n_out * p]
        return (loss + 0.5 * l2 * W @ W + l1 * np.abs(W).sum(), grad + ridge * th,
                H + np.diag(ridge), total)

    f, g, H, total = evaluate(theta)
    if total <= 0:
        raise ValueError("The sample weights sum to zero.")
    n_iter, converged = 0, False
    while n_iter < est.max_iter:
        if _l1_optimality(theta, g, l1, penalised) <= _GRAD_TOL * total:
            converged = True
            break
        step, decrease = _newton_direction(theta, g, H, l1, penalised)
        n_iter += 1
        for _ in range(30):
            f_new, g_new, H_new, _ = evaluate(theta + step)
            if f_new <= f + 1e-4 * min(decrease, 0.0) + 1e-12 * abs(f):
                break
            step *= 0.5
            decrease *= 0.5
        if np.max(np.abs(step)) <= 1e-14 * (1.0 + np.max(np.abs(theta))):
            theta = theta + step
            converged = True
            break
        theta, f, g, H = theta + step, f_new, g_new, H_new
    if not converged and est.max_iter > 0:
        warnings.warn(
            f"Newton's method on Dask input did not converge after {n_iter} iterations "
            f"(max_iter={est.max_iter}). Increase max_iter, scale the data, or add a penalty.",
            ConvergenceWarning,
            stacklevel=3,
        )
    W = theta[: n_out * p].reshape(n_out, p)
    b = theta[n_out * p:] if est.fit_intercept else np.zeros(n_out)
    if l2 == 0.0 and l1 == 0.0 and n_out > 1:
        W = W - W.mean(axis=0)
    if n_out > 1:
        b = b - b.mean()
    est.classes_ = classes
    est.coef_ = np.ascontiguousarray(W)
    est.intercept_ = np.asarray(b, dtype=np.float64)
    est.n_iter_ = np.array([n_iter], dtype=np.intp)
    est._inference = None
    if l2 == 0.0 and l1 == 0.0:
        est._inference = _inference(est, f, H, classes, class_weight, blocks, p)
    record_input_features(est, X)
    return est


def _inference(est, nll, H, classes, class_weight, blocks, p):
    """What ``summary()`` needs, as the in-memory fit keeps it (two classes: with the
    inverse information from the last Newton pass; more: the likelihoods only, the
    information then comes from ``summary(X=..., y=...)``)."""

    def totals(y, w=None):
        y_idx = np.searchsorted(classes, column_or_1d(y))
        sw = np.ones(len(y_idx)) if w is None else np.asarray(w, dtype=np.float64)
        sw = sw * class_weight[y_idx]
        return np.bincount(y_idx, weights=sw, minlength=len(classes)), len(y_idx)

    class_totals, n_rows = reduce_blocks(totals, add_parts, _targets_and_weights(blocks))
    m = p + int(est.fit_intercept)
    out = logistic_likelihoods(-nll, class_totals, n_rows, est.fit_intercept,
                               (len(classes) - 1) * m)
    if len(classes) == 2 and m <= MAX_SUMMARY_PARAMS:
        order = ([p] if est.fit_intercept else []) + list(range(p))
        set_information(out, H[np.ix_(order, order)])
    return out


def _targets_and_weights(blocks):
    """The (y, sample_weight) blocks alone, for the passes that need no X."""
    return [block[1:] for block in blocks]


def _class_weights(class_weight, classes, blocks):
    """Weight of each class (``compute_class_weight``; 'balanced' counts the classes
    in one more pass)."""
    if class_weight is None:
        return np.ones(len(classes))
    if class_weight == "balanced":
        def counts(y, w=None):
            return (np.bincount(np.searchsorted(classes, column_or_1d(y)),
                                minlength=len(classes)),)

        (count,) = reduce_blocks(counts, add_parts, _targets_and_weights(blocks))
        y_idx = np.repeat(np.arange(len(classes)), count)
        return compute_class_weight("balanced", classes, y_idx)
    return compute_class_weight(class_weight, classes, np.arange(len(classes)))
