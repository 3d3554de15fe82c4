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

:func:`l2_logistic_tron` is TRON (Lin, Weng and Keerthi, JMLR 2008), liblinear's
trust-region Newton method for the L2-penalised problem, over the rows of X (dense, or
CSR). Its vector operations are loops, not numba's BLAS binding, which would add
seconds to the kernel's first compile.
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
from .._kernels.jit import njit, prange

# liblinear's constants: Hessian diagonal floor, inner passes per model, line-search
# halvings, sufficient decrease, and the largest step of one coordinate
_NU = 1e-12
_INNER_MAX_ITER = 1000
_MAX_LINE_SEARCH = 20
_SIGMA = 0.01
_MAX_COORDINATE_STEP = 10.0


@njit(nogil=True, cache=True, inline="always")
def _softplus(t, e):
    """log(1 + exp(t)) without overflow, given ``e = exp(-|t|)``."""
    if t > 0.0:
        return t + math.log1p(e)
    return math.log1p(e)


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


# TRON's constants (Lin, Weng and Keerthi, "Trust region Newton method for large-scale
# logistic regression", JMLR 2008): the reduction ratios that accept a step and grow or
# shrink the region, the factors that shrink / grow it, and the conjugate-gradient
# forcing factor on the gradient's norm
_ETA0, _ETA1, _ETA2 = 1e-4, 0.25, 0.75
_SIGMA1, _SIGMA2, _SIGMA3 = 0.25, 0.5, 4.0
_CG_FORCING = 0.1
# stored entries from which TRON's sparse passes run on numba's threads
PARALLEL_ENTRIES = 65_536


@njit(nogil=True, cache=True)
def _dot(a, b):
    """a'b of two vectors (a loop: numba's BLAS binding would cost seconds of compile)."""
    acc = 0.0
    for j in range(a.shape[0]):
        acc += a[j] * b[j]
    return acc


@njit(nogil=True, cache=True)
def _norm(v):
    return math.sqrt(_dot(v, v))


@njit(nogil=True, cache=True)
def _axpy(a, x, y):
    """y += a x."""
    for j in range(y.shape[0]):
        y[j] += a * x[j]


@njit(nogil=True, cache=True, fastmath=True)
def _dense_row_products(X, v, out):
    """out_i = x_i'v for the rows of dense X (each sum reassociated into SIMD lanes)."""
    for i in range(X.shape[0]):
        acc = 0.0
        for j in range(X.shape[1]):
            acc += X[i, j] * v[j]
        out[i] = acc


@njit(nogil=True, cache=True, parallel=True)
def _compressed_products_parallel(indptr, indices, data, v, with_base, base, out):
    """out_i = base_i (when ``with_base``) + the stored entries of line i times v, for
    every line of compressed arrays, lines in parallel: each sum in the order of the
    serial loops, so the result does not depend on the threads."""
    for i in prange(out.shape[0]):
        acc = base[i] if with_base else 0.0
        for t in range(indptr[i], indptr[i + 1]):
            acc += v[indices[t]] * data[t]
        out[i] = acc


@njit(nogil=True, cache=True)
def _row_products(X, indptr, indices, data, v, out):
    """out_i = x_i'v for every row (dense X, or the CSR arrays when X is None; from
    ``PARALLEL_ENTRIES`` stored entries on numba's threads)."""
    if X is not None:
        _dense_row_products(X, v, out)
        return
    if indices is not None:
        if indices.shape[0] >= PARALLEL_ENTRIES:
            _compressed_products_parallel(indptr, indices, data, v, np.bool_(False), out,
                                          out)
            return
    d = v.shape[0]
    for i in range(out.shape[0]):
        start, stop = column_span(X, indptr, i, d)
        acc = 0.0
        for t in range(start, stop):
            j, x = column_entry(X, indices, data, i, t)
            acc += v[j] * x
        out[i] = acc


@njit(nogil=True, cache=True)
def _transposed_product(X, indptr, indices, data, columns, u, v, out):
    """out = v + X'u (the penalty's identity plus the loss's part), row by row; or, with
    ``columns`` (X's CSC arrays), column by column on numba's threads (the same sums in
    the same order)."""
    if columns is not None:
        _compressed_products_parallel(columns[0], columns[1], columns[2], u, np.bool_(True),
                                      v, out)
        return
    d = out.shape[0]
    for j in range(d):
        out[j] = v[j]
    for i in range(u.shape[0]):
        ui = u[i]
        if ui == 0.0:
            continue
        if X is not None:
            _axpy(ui, X[i], out)
            continue
        start, stop = column_span(X, indptr, i, d)
        for t in range(start, stop):
            j, x = column_entry(X, indices, data, i, t)
            out[j] += ui * x


@njit(nogil=True, cache=True)
def _logistic_value(w, z, y, C):
    """0.5 |w|^2 + sum_i C_i log(1 + exp(-y_i z_i)), z the rows' products with w."""
    f = 0.0
    for j in range(w.shape[0]):
        f += w[j] * w[j]
    f *= 0.5
    for i in range(z.shape[0]):
        t = -y[i] * z[i]
        f += C[i] * _softplus(t, math.exp(-abs(t)))
    return f


@njit(nogil=True, cache=True)
def _logistic_gradient(X, indptr, indices, data, columns, w, z, y, C, D, u, g):
    """g = w + X'u with u_i = C_i (sigma_i - 1) y_i, sigma_i = 1 / (1 + exp(-y_i z_i));
    D_i = C_i sigma_i (1 - sigma_i), the curvature the Hessian products take."""
    for i in range(z.shape[0]):
        t = y[i] * z[i]
        e = math.exp(-abs(t))
        sigma = 1.0 / (1.0 + e) if t >= 0.0 else e / (1.0 + e)
        D[i] = C[i] * sigma * (1.0 - sigma)
        u[i] = C[i] * (sigma - 1.0) * y[i]
    _transposed_product(X, indptr, indices, data, columns, u, w, g)


@njit(nogil=True, cache=True)
def _trust_region_cg(X, indptr, indices, data, columns, D, g, delta, s, r, dvec, Hd, Xd,
                     max_cg):
    """Conjugate gradients on ``H s = -g`` (H = I + X' diag(D) X) from s = 0, stopped
    when the residual r = -g - H s falls to a tenth of |g|, or at the trust region's
    boundary |s| = delta (then s is the boundary point along the last direction).
    Returns the number of Hessian products."""
    for j in range(g.shape[0]):
        s[j] = 0.0
        r[j] = -g[j]
        dvec[j] = r[j]
    cg_tol = _CG_FORCING * _norm(g)
    rr = _dot(r, r)
    n_cg = 0
    while n_cg < max_cg and math.sqrt(rr) > cg_tol:
        n_cg += 1
        _row_products(X, indptr, indices, data, dvec, Xd)
        for i in range(Xd.shape[0]):
            Xd[i] *= D[i]
        _transposed_product(X, indptr, indices, data, columns, Xd, dvec, Hd)
        alpha = rr / _dot(dvec, Hd)
        _axpy(alpha, dvec, s)
        if _norm(s) > delta:
            _axpy(-alpha, dvec, s)
            # the step to the boundary: the positive root of |s + a d|^2 = delta^2
            sd = _dot(s, dvec)
            dd = _dot(dvec, dvec)
            gap = delta * delta - _dot(s, s)
            rad = math.sqrt(sd * sd + dd * gap)
            alpha = gap / (sd + rad) if sd >= 0.0 else (rad - sd) / dd
            _axpy(alpha, dvec, s)
            _axpy(-alpha, Hd, r)
            break
        _axpy(-alpha, Hd, r)
        rr_new = _dot(r, r)
        beta = rr_new / rr
        rr = rr_new
        for j in range(dvec.shape[0]):
            dvec[j] = r[j] + beta * dvec[j]
    return n_cg


@njit(nogil=True, cache=True)
def l2_logistic_tron(X, indptr, indices, data, columns, y, C, w, eps, max_iter):
    """TRON, liblinear's trust-region Newton method, for
    ``min_w 0.5 |w|^2 + sum_i C_i log(1 + exp(-y_i w'x_i))``.

    Each iteration solves the Newton system within the trust region by conjugate
    gradients (:func:`_trust_region_cg`; the Hessian is never formed, each product is
    two passes over the rows), takes the step when the actual reduction of the
    objective is at least ``_ETA0`` times the quadratic model's, and resizes the region
    by the ratio of the two (Lin, Weng and Keerthi 2008, with liblinear's rules).

    Parameters
    ----------
    X : ndarray of shape (n, d), C order, or None
        The samples (one per row); or None, and the rows are the CSR arrays ``indptr``,
        ``indices``, ``data`` (None for dense samples).
    columns : tuple (indptr, indices, data) or None
        X's CSC arrays (sparse X only): X'u then runs column by column in parallel.
    y : ndarray of shape (n,), +1.0 or -1.0.
    C : ndarray of shape (n,), positive per-sample penalties of the loss.
    w : ndarray of shape (d,), the start, overwritten with the solution.
    eps : float
        Stop when the gradient's norm falls below eps times its norm at w = 0.
    max_iter : int, the most steps taken.

    Returns
    -------
    n_iter : int, the steps taken (``max_iter`` when it stopped there).
    """
    n = y.shape[0]
    d = w.shape[0]
    z = np.empty(n)
    z_new = np.empty(n)
    D = np.empty(n)
    u = np.empty(n)
    g = np.empty(d)
    s = np.empty(d)
    r = np.empty(d)
    w_new = np.empty(d)
    dvec = np.empty(d)
    Hd = np.empty(d)
    # the gradient at w = 0, whose norm scales the stopping rule
    zero = np.zeros(d)
    z[:] = 0.0
    _logistic_gradient(X, indptr, indices, data, columns, zero, z, y, C, D, u, g)
    gnorm0 = _norm(g)
    _row_products(X, indptr, indices, data, w, z)
    f = _logistic_value(w, z, y, C)
    _logistic_gradient(X, indptr, indices, data, columns, w, z, y, C, D, u, g)
    delta = _norm(g)
    max_cg = max(10 * d, 50)
    it = 1
    search = delta > eps * gnorm0
    while it <= max_iter and search:
        _trust_region_cg(X, indptr, indices, data, columns, D, g, delta, s, r, dvec, Hd,
                         u, max_cg)
        for j in range(d):
            w_new[j] = w[j] + s[j]
        gs = _dot(g, s)
        predicted = -0.5 * (gs - _dot(s, r))
        _row_products(X, indptr, indices, data, w_new, z_new)
        f_new = _logistic_value(w_new, z_new, y, C)
        actual = f - f_new
        snorm = _norm(s)
        if it == 1:
            delta = min(delta, snorm)
        # the step length the quadratic through f, f_new and the slope gs would take
        curvature = f_new - f - gs
        alpha = _SIGMA3 if curvature <= 0.0 else max(_SIGMA1, -0.5 * (gs / curvature))
        if actual < _ETA0 * predicted:
            delta = min(max(alpha, _SIGMA1) * snorm, _SIGMA2 * delta)
        elif actual < _ETA1 * predicted:
            delta = max(_SIGMA1 * delta, min(alpha * snorm, _SIGMA2 * delta))
        elif actual < _ETA2 * predicted:
            delta = max(_SIGMA1 * delta, min(alpha * snorm, _SIGMA3 * delta))
        else:
            delta = max(delta, min(alpha * snorm, _SIGMA3 * delta))
        if actual > _ETA0 * predicted:
            it += 1
            for j in range(d):
                w[j] = w_new[j]
            for i in range(n):
                z[i] = z_new[i]
            f = f_new
            _logistic_gradient(X, indptr, indices, data, columns, w, z, y, C, D, u, g)
            if _norm(g) <= eps * gnorm0:
                break
        if f < -1.0e32 or (actual == 0.0 and predicted <= 0.0):
            break
        if abs(actual) <= 1.0e-12 * abs(f) and abs(predicted) <= 1.0e-12 * abs(f):
            break
    return it - 1


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
    X, indptr, indices, data : the rows, as for :func:`l2_logistic_tron`.
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
