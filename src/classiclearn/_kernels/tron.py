"""TRON, liblinear's trust-region Newton method (Lin, Weng and Keerthi, JMLR 2008), for
the L2-penalised problems ``min_w 0.5 |w|^2 + sum_i C_i l(y_i w'x_i)``, y in {-1, +1}, of
LogisticRegression's liblinear solver (the logistic loss) and LinearSVC's primal solver
(the squared hinge loss).

:func:`l2_tron` runs over the rows of X, dense or CSR (optionally with X's CSC arrays,
for X'u by columns on numba's threads). Its vector operations are loops, not numba's
BLAS binding, which would add seconds to the kernel's first compile.
"""

import math

import numpy as np

from .coordinates import column_entry, column_span
from .jit import njit, prange


@njit(nogil=True, cache=True, inline="always")
def _softplus(t, e):
    """log(1 + exp(t)) without overflow, given ``e = exp(-|t|)``."""
    if t > 0.0:
        return t + math.log1p(e)
    return math.log1p(e)



# TRON's constants (Lin, Weng and Keerthi, "Trust region Newton method for large-scale
# logistic regression", JMLR 2008): the reduction ratios that accept a step and grow or
# shrink the region, the factors that shrink / grow it, and the conjugate-gradient
# forcing factor on the gradient's norm
_ETA0, _ETA1, _ETA2 = 1e-4, 0.25, 0.75
_SIGMA1, _SIGMA2, _SIGMA3 = 0.25, 0.5, 4.0
_CG_FORCING = 0.1
# stored entries from which TRON's sparse passes run on numba's threads: below, a
# parallel region per pass cost more than the second thread saved (LogisticRegression's
# liblinear solver, with its column pass, gained from about 150,000 entries; LinearSVC's
# row products alone gained at most a few per cent anywhere)
PARALLEL_ENTRIES = 131_072


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


# the losses :func:`l2_tron` minimises (its ``loss`` argument)
LOGISTIC = 0
SQUARED_HINGE = 1


@njit(nogil=True, cache=True)
def _loss_value(loss, w, z, y, C):
    """0.5 |w|^2 + sum_i C_i l(y_i z_i), z the rows' products with w: l(t) =
    log(1 + exp(-t)) (``LOGISTIC``) or max(0, 1 - t)^2 (``SQUARED_HINGE``)."""
    f = 0.0
    for j in range(w.shape[0]):
        f += w[j] * w[j]
    f *= 0.5
    for i in range(z.shape[0]):
        t = -y[i] * z[i]
        if loss == LOGISTIC:
            f += C[i] * _softplus(t, math.exp(-abs(t)))
        elif t > -1.0:
            f += C[i] * (1.0 + t) * (1.0 + t)
    return f


@njit(nogil=True, cache=True)
def _loss_gradient(loss, X, indptr, indices, data, columns, w, z, y, C, D, u, g):
    """g = w + X'u with u_i the loss's derivative in z_i, and D_i its (generalised)
    second derivative, the curvature the Hessian products take. Logistic: u_i = C_i
    (sigma_i - 1) y_i and D_i = C_i sigma_i (1 - sigma_i), sigma_i = 1 / (1 + exp(-y_i
    z_i)). Squared hinge: u_i = 2 C_i (z_i - y_i) and D_i = 2 C_i on the rows of
    margin y_i z_i below one, 0 on the others (whose passes are then skipped)."""
    for i in range(z.shape[0]):
        t = y[i] * z[i]
        if loss == LOGISTIC:
            e = math.exp(-abs(t))
            sigma = 1.0 / (1.0 + e) if t >= 0.0 else e / (1.0 + e)
            D[i] = C[i] * sigma * (1.0 - sigma)
            u[i] = C[i] * (sigma - 1.0) * y[i]
        elif t < 1.0:
            D[i] = 2.0 * C[i]
            u[i] = 2.0 * C[i] * (z[i] - y[i])
        else:
            D[i] = 0.0
            u[i] = 0.0
    _transposed_product(X, indptr, indices, data, columns, u, w, g)


@njit(nogil=True, cache=True, fastmath=True)
def _weighted_row_products(X, indptr, indices, data, D, v, out):
    """out_i = D_i x_i'v for every row (see :func:`_row_products`); dense rows of
    D_i = 0 are not read."""
    if X is not None:
        for i in range(X.shape[0]):
            if D[i] == 0.0:
                out[i] = 0.0
                continue
            acc = 0.0
            for j in range(X.shape[1]):
                acc += X[i, j] * v[j]
            out[i] = acc * D[i]
        return
    _row_products(X, indptr, indices, data, v, out)
    for i in range(out.shape[0]):
        out[i] *= D[i]


@njit(nogil=True, cache=True)
def _csr_hessian_product(indptr, indices, data, D, v, out):
    """out = v + X' diag(D) X v in one pass over X's CSR rows: each row's product with v
    gathered, then scattered back while the row is in cache; rows of D_i = 0 skipped.
    The same sums, in the same order, as the two passes of the row kernels, so that a
    fit does not depend on whether the CSC arrays (numba's threads) were used:
    ``sparse_products.csr_gram_matvec`` reassociates its sums and starts from zero."""
    for j in range(out.shape[0]):
        out[j] = v[j]
    for i in range(D.shape[0]):
        if D[i] == 0.0:
            continue
        start = indptr[i]
        stop = indptr[i + 1]
        acc = 0.0
        for t in range(start, stop):
            acc += v[indices[t]] * data[t]
        acc *= D[i]
        for t in range(start, stop):
            out[indices[t]] += acc * data[t]


@njit(nogil=True, cache=True)
def _hessian_product(X, indptr, indices, data, columns, D, v, Xd, out):
    """out = v + X' diag(D) X v: one fused pass over CSR rows without their CSC arrays
    (:func:`_csr_hessian_product`), else the row products then X'(D X v) (``Xd`` their
    buffer). The tests of ``columns`` and ``indices`` against None are resolved at
    compile time: the dense version has no CSR code, and the reverse."""
    if columns is None:
        if indices is not None:
            _csr_hessian_product(indptr, indices, data, D, v, out)
            return
    _weighted_row_products(X, indptr, indices, data, D, v, Xd)
    _transposed_product(X, indptr, indices, data, columns, Xd, v, out)


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
        _hessian_product(X, indptr, indices, data, columns, D, dvec, Xd, Hd)
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
def l2_tron(loss, X, indptr, indices, data, columns, y, C, w, eps, max_iter):
    """TRON, liblinear's trust-region Newton method, for
    ``min_w 0.5 |w|^2 + sum_i C_i l(y_i w'x_i)``, l the logistic loss
    ``log(1 + exp(-t))`` or the squared hinge loss ``max(0, 1 - t)^2``.

    Each iteration solves the Newton system within the trust region by conjugate
    gradients (:func:`_trust_region_cg`; the Hessian is never formed, each product is
    two passes over the rows), takes the step when the actual reduction of the
    objective is at least ``_ETA0`` times the quadratic model's, and resizes the region
    by the ratio of the two (Lin, Weng and Keerthi 2008, with liblinear's rules).

    Parameters
    ----------
    loss : int, ``LOGISTIC`` or ``SQUARED_HINGE``.
    X : ndarray of shape (n, d), C order, or None
        The samples (one per row); or None, and the rows are the CSR arrays ``indptr``,
        ``indices``, ``data`` (None for dense samples).
    columns : tuple (indptr, indices, data) or None
        X's CSC arrays (sparse X only): X'u then runs column by column in parallel.
        Without them each Hessian product is one serial pass over the rows whose
        curvature is not zero.
    y : ndarray of shape (n,), +1.0 or -1.0.
    C : ndarray of shape (n,), positive per-sample penalties of the loss.
    w : ndarray of shape (d,), the start, overwritten with the solution.
    eps : float
        Stop when the gradient's norm falls below eps times its norm at w = 0.
    max_iter : int, the most steps taken.

    Returns
    -------
    n_iter : int, the steps taken (``max_iter`` when it stopped there).
    settled : bool
        Whether it stopped before ``max_iter``: on the gradient test, or where the
        objective's decrease (actual and predicted) had vanished.
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
    _loss_gradient(loss, X, indptr, indices, data, columns, zero, z, y, C, D, u, g)
    gnorm0 = _norm(g)
    _row_products(X, indptr, indices, data, w, z)
    f = _loss_value(loss, w, z, y, C)
    _loss_gradient(loss, X, indptr, indices, data, columns, w, z, y, C, D, u, g)
    delta = _norm(g)
    max_cg = max(10 * d, 50)
    it = 1
    settled = not delta > eps * gnorm0
    while it <= max_iter and not settled:
        _trust_region_cg(X, indptr, indices, data, columns, D, g, delta, s, r, dvec, Hd,
                         u, max_cg)
        for j in range(d):
            w_new[j] = w[j] + s[j]
        gs = _dot(g, s)
        predicted = -0.5 * (gs - _dot(s, r))
        _row_products(X, indptr, indices, data, w_new, z_new)
        f_new = _loss_value(loss, w_new, z_new, y, C)
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
            _loss_gradient(loss, X, indptr, indices, data, columns, w, z, y, C, D, u, g)
            settled = _norm(g) <= eps * gnorm0
        if f < -1.0e32 or (actual == 0.0 and predicted <= 0.0):
            settled = True
        if abs(actual) <= 1.0e-12 * abs(f) and abs(predicted) <= 1.0e-12 * abs(f):
            settled = True
    return it - 1, settled
