"""numba kernels of binary logistic regression as liblinear solves it.

:func:`l1_logistic_glmnet` is newGLMNET (Yuan, Ho and Lin, "An improved GLMNET for
L1-regularized logistic regression", JMLR 2012): a proximal Newton method whose
quadratic models are solved by coordinate descent over the columns of X, both loops
shrinking the features that sit at zero with a gradient inside the penalty's reach.
Each model is solved only as far as a tolerance that liblinear tightens (by a quarter)
whenever a model needs a single pass; the step is then taken with a backtracking line
search on the objective. No features x features matrix is formed: every operation on
a feature costs the stored entries of its column.

The problem: ``min_w ||w||_1 + sum_i C_i log(1 + exp(-y_i w'x_i))``, y in {-1, +1}.
The linear predictor ``w'x`` is kept, not its exponential, so that the loss and the
weights ``D_i = C_i p_i (1 - p_i)`` stay finite on separable data.

liblinear's TRON for the L2-penalised problem is :func:`classiclearn._kernels.tron.l2_tron`,
shared with LinearSVC's primal solver.
"""

import math

import numpy as np

from .._kernels.coordinates import (
    column_entry,
    column_span,
    l1_shrinkable,
    l1_violation,
    shuffle,
)
from .._kernels.jit import njit
from .._kernels.tron import _softplus

# liblinear's constants: Hessian diagonal floor, inner passes per model, line-search
# halvings, sufficient decrease, and the largest step of one coordinate
_NU = 1e-12
_INNER_MAX_ITER = 1000
_MAX_LINE_SEARCH = 20
_SIGMA = 0.01
_MAX_COORDINATE_STEP = 10.0


@njit(nogil=True, cache=True)
def _weights(wx, e, C, tau, D):
    """tau_i = C_i / (1 + exp(w'x_i)) and D_i = C_i p_i (1 - p_i), the loss's curvature,
    given ``e_i = exp(-|w'x_i|)``."""
    for i in range(wx.shape[0]):
        q = 1.0 / (1.0 + e[i]) if wx[i] <= 0.0 else e[i] / (1.0 + e[i])
        tau[i] = C[i] * q
        D[i] = C[i] * q * (1.0 - q)


@njit(nogil=True, cache=True)
def l1_logistic_glmnet(XT, indptr, indices, data, y, C, w, eps, max_newton_iter, seed):
    """newGLMNET for ``min_w ||w||_1 + sum_i C_i log(1 + exp(-y_i w'x_i))``.

    Parameters
    ----------
    XT : ndarray of shape (d, n), C order, or None
        Transposed samples (one feature per row); or None, and the columns are the CSC
        arrays ``indptr``, ``indices``, ``data`` (None for dense samples).
    y : ndarray of shape (n,), +1.0 or -1.0.
    C : ndarray of shape (n,), positive per-sample penalties of the loss.
    w : ndarray of shape (d,), the start, overwritten with the solution.
    eps : float
        Stop when the summed optimality violation falls below eps times its first
        value (liblinear's stopping rule).
    max_newton_iter : int
    seed : int, the coordinate orders' generator.

    Returns
    -------
    n_newton_iter : int
    """
    n = y.shape[0]
    d = w.shape[0]
    index = np.arange(d)
    state = np.array([np.uint64(seed) * np.uint64(2654435761) + np.uint64(88172645463325252)])
    wx = np.zeros(n)
    xjneg_sum = np.zeros(d)  # sum over y_i = -1 of C_i x_ij: the gradient's constant part
    w_norm = 0.0
    for j in range(d):
        w_norm += abs(w[j])
        start, stop = column_span(XT, indptr, j, n)
        for t in range(start, stop):
            i, x = column_entry(XT, indices, data, j, t)
            wx[i] += w[j] * x
            if y[i] < 0.0:
                xjneg_sum[j] += C[i] * x
    tau = np.empty(n)
    D = np.empty(n)
    e = np.empty(n)  # exp(-|w'x_i|)
    loss = np.empty(n)  # softplus(w'x_i), the line search's reference
    for i in range(n):
        e[i] = math.exp(-abs(wx[i]))
        loss[i] = _softplus(wx[i], e[i])
    _weights(wx, e, C, tau, D)
    e_new = np.empty(n)
    loss_new = np.empty(n)
    wpd = w.copy()
    hdiag = np.empty(d)
    grad = np.empty(d)
    xTd = np.empty(n)
    wx_new = np.empty(n)
    gmax_old = np.inf
    gnorm1_init = -1.0
    inner_eps = 1.0
    newton_iter = 0
    while newton_iter < max_newton_iter:
        gmax_new = 0.0
        gnorm1_new = 0.0
        active = d
        s = 0
        while s < active:
            j = index[s]
            h = _NU
            tmp = 0.0
            start, stop = column_span(XT, indptr, j, n)
            for t in range(start, stop):
                i, x = column_entry(XT, indices, data, j, t)
                h += x * x * D[i]
                tmp += x * tau[i]
            hdiag[j] = h
            grad[j] = xjneg_sum[j] - tmp
            g = grad[j]
            if l1_shrinkable(g, w[j], gmax_old, n):
                active -= 1
                index[s], index[active] = index[active], index[s]
                continue
            v = l1_violation(g, w[j])
            gmax_new = max(gmax_new, v)
            gnorm1_new += v
            s += 1
        if newton_iter == 0:
            gnorm1_init = gnorm1_new
        if gnorm1_new <= eps * gnorm1_init:
            break
        # coordinate descent on the quadratic model, over wpd = w + d
        inner = 0
        qp_gmax_old = np.inf
        qp_active = active
        for i in range(n):
            xTd[i] = 0.0
        while inner < _INNER_MAX_ITER:
            qp_gmax_new = 0.0
            qp_gnorm1_new = 0.0
            shuffle(index, qp_active, state)
            s = 0
            while s < qp_active:
                j = index[s]
                h = hdiag[j]
                g = grad[j] + (wpd[j] - w[j]) * _NU
                start, stop = column_span(XT, indptr, j, n)
                for t in range(start, stop):
                    i, x = column_entry(XT, indices, data, j, t)
                    g += x * D[i] * xTd[i]
                if l1_shrinkable(g, wpd[j], qp_gmax_old, n):
                    qp_active -= 1
                    index[s], index[qp_active] = index[qp_active], index[s]
                    continue
                v = l1_violation(g, wpd[j])
                qp_gmax_new = max(qp_gmax_new, v)
                qp_gnorm1_new += v
                s += 1
                gp = g + 1.0
                gn = g - 1.0
                if gp < h * wpd[j]:
                    z = -gp / h
                elif gn > h * wpd[j]:
                    z = -gn / h
                else:
                    z = -wpd[j]
                if abs(z) < 1e-12:
                    continue
                z = min(max(z, -_MAX_COORDINATE_STEP), _MAX_COORDINATE_STEP)
                wpd[j] += z
                for t in range(start, stop):
                    i, x = column_entry(XT, indices, data, j, t)
                    xTd[i] += x * z
            inner += 1
            if qp_gnorm1_new <= inner_eps * gnorm1_init:
                if qp_active == active:
                    break
                qp_active = active  # check the shrunk features once more
                qp_gmax_old = np.inf
                continue
            qp_gmax_old = qp_gmax_new
        # line search on the objective along wpd - w
        delta = 0.0
        w_norm_new = 0.0
        for j in range(d):
            delta += grad[j] * (wpd[j] - w[j])
            w_norm_new += abs(wpd[j])
        delta += w_norm_new - w_norm
        negsum_xTd = 0.0
        for i in range(n):
            if y[i] < 0.0:
                negsum_xTd += C[i] * xTd[i]
        accepted = False
        for _ in range(_MAX_LINE_SEARCH):
            cond = w_norm_new - w_norm + negsum_xTd - _SIGMA * delta
            for i in range(n):
                wx_new[i] = wx[i] + xTd[i]
                e_new[i] = math.exp(-abs(wx_new[i]))
                loss_new[i] = _softplus(wx_new[i], e_new[i])
                cond += C[i] * (loss_new[i] - loss[i] - xTd[i])
            if cond <= 0.0:
                w_norm = w_norm_new
                for j in range(d):
                    w[j] = wpd[j]
                for i in range(n):
                    wx[i] = wx_new[i]
                    e[i] = e_new[i]
                    loss[i] = loss_new[i]
                _weights(wx, e, C, tau, D)
                accepted = True
                break
            w_norm_new = 0.0
            for j in range(d):
                wpd[j] = (w[j] + wpd[j]) * 0.5
                w_norm_new += abs(wpd[j])
            delta *= 0.5
            negsum_xTd *= 0.5
            for i in range(n):
                xTd[i] *= 0.5
        if not accepted:
            for j in range(d):
                wpd[j] = w[j]
        if inner == 1:
            inner_eps *= 0.25
        newton_iter += 1
        gmax_old = gmax_new
    return newton_iter


# the dual solver's inner Newton method: its most steps on one coordinate, the shrink of
# a step that would leave (0, C), and its first tolerance (tightened tenfold after an
# outer pass that needed few Newton steps, down to min(1e-8, eps))
_DUAL_MAX_INNER = 100
_DUAL_SHRINK = 0.1
_DUAL_INNER_EPS = 1e-2


@njit(nogil=True, cache=True)
def l2_logistic_dual_cd(X, indptr, indices, data, y, C, w, eps, max_iter, seed):
    """liblinear's dual coordinate descent (Yu, Huang and Lin, "Dual coordinate descent
    methods for logistic regression and maximum entropy models", MLJ 2011) for
    ``min_w 0.5 |w|^2 + sum_i C_i log(1 + exp(-y_i w'x_i))``.

    The dual variables ``alpha_i`` in (0, C_i) (kept with ``C_i - alpha_i``, the one
    nearer zero moved, so that neither is lost to rounding) are visited in a random
    order each pass; each takes a few safeguarded Newton steps on its one-variable
    problem and ``w = sum_i y_i alpha_i x_i`` follows. Cheaper than TRON when rows are
    few against the features.

    Parameters
    ----------
    X, indptr, indices, data : the rows, as for :func:`classiclearn._kernels.tron.l2_tron`.
    y : ndarray of shape (n,), +1.0 or -1.0.
    C : ndarray of shape (n,), non-negative per-sample penalties of the loss (rows of
        zero take no part).
    w : ndarray of shape (d,), overwritten with the solution.
    eps : float
        Stop when every coordinate's derivative at the start of its visit is below eps.
    max_iter : int, the most passes.
    seed : int, the visiting orders' generator.

    Returns
    -------
    n_iter : int, the passes made.
    """
    n = y.shape[0]
    d = w.shape[0]
    alpha = np.empty(n)
    rest = np.empty(n)  # C_i - alpha_i
    xsq = np.zeros(n)
    for j in range(d):
        w[j] = 0.0
    for i in range(n):
        alpha[i] = min(0.001 * C[i], 1e-8)
        rest[i] = C[i] - alpha[i]
        start, stop = column_span(X, indptr, i, d)
        for t in range(start, stop):
            j, x = column_entry(X, indices, data, i, t)
            xsq[i] += x * x
            w[j] += y[i] * alpha[i] * x
    index = np.arange(n)
    state = np.array([np.uint64(seed) * np.uint64(2654435761) + np.uint64(88172645463325252)])
    inner_eps = _DUAL_INNER_EPS
    inner_eps_min = min(1e-8, eps)
    it = 0
    while it < max_iter:
        shuffle(index, n, state)
        newton_steps = 0
        gmax = 0.0
        for s in range(n):
            i = index[s]
            ci = C[i]
            if ci <= 0.0:
                continue
            start, stop = column_span(X, indptr, i, d)
            b = 0.0
            for t in range(start, stop):
                j, x = column_entry(X, indices, data, i, t)
                b += w[j] * x
            b *= y[i]
            a = xsq[i]
            # the variable moved: alpha_i, or C_i - alpha_i (sign -1) when the step
            # would take alpha_i towards C_i
            sign = 1.0
            z_old = alpha[i]
            if 0.5 * a * (rest[i] - alpha[i]) + b < 0.0:
                sign = -1.0
                z_old = rest[i]
            z = z_old
            if ci - z < 0.5 * ci:
                z *= _DUAL_SHRINK
            gp = a * (z - z_old) + sign * b + math.log(z / (ci - z))
            gmax = max(gmax, abs(gp))
            inner = 0
            while inner <= _DUAL_MAX_INNER and abs(gp) >= inner_eps:
                step = z - gp / (a + ci / (ci - z) / z)
                z = z * _DUAL_SHRINK if step <= 0.0 else step
                gp = a * (z - z_old) + sign * b + math.log(z / (ci - z))
                newton_steps += 1
                inner += 1
            if inner > 0:
                if sign > 0.0:
                    alpha[i] = z
                    rest[i] = ci - z
                else:
                    rest[i] = z
                    alpha[i] = ci - z
                change = sign * (z - z_old) * y[i]
                for t in range(start, stop):
                    j, x = column_entry(X, indices, data, i, t)
                    w[j] += change * x
        it += 1
        if gmax < eps:
            break
        if newton_steps <= n // 10:
            inner_eps = max(inner_eps_min, 0.1 * inner_eps)
    return it
