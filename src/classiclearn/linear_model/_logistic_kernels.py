"""numba kernels of the logistic losses (seed 000 §5, §9.1; seed 004).

Per-sample parts of the binomial and multinomial (softmax) negative
log-likelihoods and their gradients with respect to the linear predictors
(for solvers whose products with X stay in BLAS on the Python side), and the
fused passes that form the nll and its gradient in one pass over the rows
lo:hi of dense or CSR X, with ``*_lanes`` versions running fixed row lanes in
numba's threads (``_logistic_solvers.LossPass`` adds the lanes in order).
"""

import math

import numpy as np

from .._kernels.exp import exp_nonpositive_inplace
from .._kernels.jit import njit, prange


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def _log1pexp_sigmoid(z):
    """``(log(1 + exp(z)), sigmoid(z))``, each without overflow."""
    if z > 0:
        e = math.exp(-z)
        return z + math.log1p(e), 1.0 / (1.0 + e)
    e = math.exp(z)
    return math.log1p(e), e / (1.0 + e)


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def _exp_shifted_sum(z, m):
    """``z <- exp(z - m)`` in place; returns the sum of the new z."""
    s = 0.0
    for k in range(z.shape[0]):
        z[k] = math.exp(z[k] - m)
        s += z[k]
    return s


@njit(cache=True, nogil=True, error_model="numpy")
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
        lse, prob = _log1pexp_sigmoid(zi)
        total += sw[i] * (lse - y[i] * zi)
        g[i] = sw[i] * (prob - y[i])
    return total


@njit(cache=True, nogil=True, error_model="numpy")
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


# Reassociation and FMA contraction only (no "nnan" / "ninf" assumptions, so
# infinities and NaN keep their IEEE meaning): lets LLVM vectorise the dot
# products and row updates. The compiled order is fixed, so results are the
# same on every run and every n_jobs (they may differ in the last bits from a
# machine with other SIMD widths, as BLAS results do).
_FAST = {"reassoc", "contract"}


@njit(cache=True, nogil=True, error_model="numpy", fastmath=_FAST)
def _dot(x, w):
    """Dot product of two 1-D arrays (vectorised by reassociation)."""
    s = 0.0
    for j in range(x.shape[0]):
        s += x[j] * w[j]
    return s


# 2 atanh(s) = log((1 + s) / (1 - s)) = 2 (s + s^3 / 3 + s^5 / 5 + ...): with
# s = e / (2 + e) it is log1p(e); for e in [0, 1], s <= 1/3 and 17 terms reach 1e-17
(_T0, _T1, _T2, _T3, _T4, _T5, _T6, _T7, _T8, _T9, _T10, _T11, _T12, _T13, _T14, _T15,
 _T16) = (1.0 / (2 * k + 1) for k in range(17))
# rows of a block of the binomial pass: their linear predictors, then their exp, log1p
# and sigmoid in loops that vectorise
_BINARY_BLOCK_ROWS = 256


@njit(cache=True, nogil=True, inline="always")
def _log1p_unit(e):
    """log1p(e) for e in [0, 1] in plain arithmetic (vectorises; within 2 ulp)."""
    s = e / (2.0 + e)
    t = s * s
    acc = ((((((((_T16 * t + _T15) * t + _T14) * t + _T13) * t + _T12) * t + _T11) * t
              + _T10) * t + _T9) * t + _T8)
    acc = (((((((acc * t + _T7) * t + _T6) * t + _T5) * t + _T4) * t + _T3) * t + _T2) * t
           + _T1) * t + _T0
    return 2.0 * s * acc


@njit(cache=True, nogil=True, error_model="numpy", fastmath={"contract"})
def _binary_terms(z, y, sw, m, e, scratch, loss, g):
    """For the rows i < m of a block: ``loss[i] = sw (log(1 + exp(z)) - y z)`` and
    ``g[i] = sw (sigmoid(z) - y)``, each without overflow, through ``e = exp(-|z|)``
    (:func:`exp_nonpositive_inplace`). No reassociation here: the exp's and the
    polynomial's rounding steps stay as written. ``e`` and ``scratch``: float64 (m,)."""
    for i in range(m):
        e[i] = -abs(z[i])
    exp_nonpositive_inplace(e, m, scratch, scratch.view(np.int64))
    for i in range(m):
        ei = e[i]
        zi = z[i]
        positive = zi > 0.0
        inv = 1.0 / (1.0 + ei)
        prob = inv if positive else ei * inv
        lse = (zi if positive else 0.0) + _log1p_unit(ei)
        loss[i] = sw[i] * (lse - y[i] * zi)
        g[i] = sw[i] * (prob - y[i])


@njit(cache=True, nogil=True, error_model="numpy", fastmath=_FAST)
def binary_fused_loss_grad(X, w, b, y, sw, lo, hi, grad):
    """Binomial nll and its gradient in one pass over the rows ``lo:hi`` of X.

    Blocks of :data:`_BINARY_BLOCK_ROWS` rows: their linear predictors, then
    their losses and derivatives (:func:`_binary_terms`), then the gradient.

    Parameters
    ----------
    X : float64 (n, p) C-contiguous; w : float64 (p,); b : float intercept;
    y : float64 (n,) in {0, 1}; sw : float64 (n,); lo, hi : int, the rows;
    grad : float64 (p + 1,) output: d nll / d w, then d nll / d b, over these rows.

    Returns
    -------
    float, the weighted nll of these rows.
    """
    p = X.shape[1]
    for j in range(p + 1):
        grad[j] = 0.0
    size = _BINARY_BLOCK_ROWS
    z, e, scratch = np.empty(size), np.empty(size), np.empty(size)
    loss, g = np.empty(size), np.empty(size)
    total = 0.0
    gb = 0.0
    for start in range(lo, hi, size):
        m = min(size, hi - start)
        for i in range(m):
            z[i] = b + _dot(X[start + i], w)
        _binary_terms(z, y[start:start + m], sw[start:start + m], m, e, scratch, loss, g)
        for i in range(m):
            total += loss[i]
            gi = g[i]
            if gi != 0.0:
                xi = X[start + i]
                for j in range(p):
                    grad[j] += gi * xi[j]
                gb += gi
    grad[p] = gb
    return total


@njit(cache=True, nogil=True, error_model="numpy")
def csr_binary_loss_grad(indptr, indices, data, w, b, y, sw, lo, hi, grad):
    """:func:`binary_fused_loss_grad` for the CSR rows ``lo:hi``: one pass over
    their entries (each row's dot product, then its gradient terms scattered).

    Parameters
    ----------
    indptr, indices, data : the CSR arrays of X (n, p); w : float64 (p,);
    b : float intercept; y : float64 (n,) in {0, 1}; sw : float64 (n,);
    lo, hi : int, the rows; grad : float64 (p + 1,) output: d nll / d w over
        these rows, then d nll / d b.

    Returns
    -------
    float, the weighted nll of these rows.
    """
    p = grad.shape[0] - 1
    for j in range(p + 1):
        grad[j] = 0.0
    total = 0.0
    gb = 0.0
    # unsigned positions: numba then drops its negative-index wrap-around, which
    # costs more than the multiply-add on every entry
    for i in range(np.uintp(lo), np.uintp(hi)):
        start = np.uintp(indptr[i])
        end = np.uintp(indptr[i + 1])
        zi = 0.0
        for k in range(start, end):
            zi += data[k] * w[np.uintp(indices[k])]
        zi += b
        lse, prob = _log1pexp_sigmoid(zi)
        total += sw[i] * (lse - y[i] * zi)
        gi = sw[i] * (prob - y[i])
        if gi != 0.0:
            for k in range(start, end):
                grad[np.uintp(indices[k])] += gi * data[k]
            gb += gi
    grad[p] = gb
    return total


@njit(cache=True, nogil=True, parallel=True)
def csr_binary_loss_grad_lanes(indptr, indices, data, w, b, y, sw, bounds, parts, totals):
    """:func:`csr_binary_loss_grad` over the lanes of rows ``bounds[l]:bounds[l + 1]``
    in numba's threads, lane ``l`` into ``parts[l]`` and ``totals[l]``."""
    for lane in prange(parts.shape[0]):
        totals[lane] = csr_binary_loss_grad(indptr, indices, data, w, b, y, sw,
                                            bounds[lane], bounds[lane + 1], parts[lane])


@njit(cache=True, nogil=True, error_model="numpy", fastmath=_FAST)
def csr_multinomial_loss_grad(indptr, indices, data, Wt, b, y, sw, lo, hi, grad):
    """Softmax nll and its gradient over the CSR rows ``lo:hi`` in one pass over
    their entries (each row's K products, then its gradient terms scattered).

    Parameters
    ----------
    indptr, indices, data : the CSR arrays of X (n, p); Wt : float64 (p, K)
        C-contiguous, the coefficients by feature; b : float64 (K,); y : intp (n,);
    sw : float64 (n,); lo, hi : int, the rows; grad : float64 (p + 1, K) output:
        d nll / d Wt over these rows, last row d nll / d b.

    Returns
    -------
    float, the weighted nll of these rows.
    """
    p, K = Wt.shape
    for j in range(p + 1):
        for k in range(K):
            grad[j, k] = 0.0
    z = np.empty(K)
    total = 0.0
    # unsigned positions (see csr_binary_loss_grad)
    for i in range(np.uintp(lo), np.uintp(hi)):
        start = np.uintp(indptr[i])
        end = np.uintp(indptr[i + 1])
        for k in range(K):
            z[k] = b[k]
        for q in range(start, end):
            j = np.uintp(indices[q])
            x = data[q]
            for k in range(K):
                z[k] += x * Wt[j, k]
        yi = y[i]
        m = z[0]
        for k in range(1, K):
            m = max(m, z[k])
        zy = z[yi]
        s = _exp_shifted_sum(z, m)
        swi = sw[i]
        total += swi * (m + math.log(s) - zy)
        for k in range(K):
            z[k] = swi * (z[k] / s - (1.0 if k == yi else 0.0))
        gb = grad[p]
        for k in range(K):
            gb[k] += z[k]
        for q in range(start, end):
            j = np.uintp(indices[q])
            x = data[q]
            for k in range(K):
                grad[j, k] += z[k] * x
    return total


@njit(cache=True, nogil=True, parallel=True)
def csr_multinomial_loss_grad_lanes(indptr, indices, data, Wt, b, y, sw, bounds, parts,
                                    totals):
    """:func:`csr_multinomial_loss_grad` over lanes (as :func:`csr_binary_loss_grad_lanes`)."""
    for lane in prange(parts.shape[0]):
        totals[lane] = csr_multinomial_loss_grad(indptr, indices, data, Wt, b, y, sw,
                                                 bounds[lane], bounds[lane + 1], parts[lane])


@njit(cache=True, nogil=True, error_model="numpy", fastmath=_FAST)
def multinomial_fused_loss_grad(X, W, b, y, sw, lo, hi, grad):
    """Softmax nll and its gradient in one pass over the rows ``lo:hi`` of X.

    Parameters
    ----------
    X : float64 (n, p) C-contiguous; W : float64 (K, p) C-contiguous;
    b : float64 (K,); y : intp (n,); sw : float64 (n,); lo, hi : int, the rows;
    grad : float64 (K, p + 1) output: d nll / d W, last column d nll / d b, over
        these rows.

    Returns
    -------
    float, the weighted nll of these rows.
    """
    p = X.shape[1]
    K = W.shape[0]
    for k in range(K):
        for j in range(p + 1):
            grad[k, j] = 0.0
    z = np.empty(K)
    total = 0.0
    for i in range(lo, hi):
        xi = X[i]
        m = -np.inf
        for k in range(K):
            z[k] = b[k] + _dot(xi, W[k])
            if z[k] > m:
                m = z[k]
        s = _exp_shifted_sum(z, m)
        yi = y[i]
        total += sw[i] * (m + math.log(s) - (math.log(z[yi]) + m))
        for k in range(K):
            gk = sw[i] * (z[k] / s - (1.0 if k == yi else 0.0))
            if gk != 0.0:
                gr = grad[k]
                for j in range(p):
                    gr[j] += gk * xi[j]
                gr[p] += gk
    return total


@njit(cache=True, nogil=True, parallel=True)
def binary_fused_loss_grad_lanes(X, w, b, y, sw, bounds, parts, totals):
    """:func:`binary_fused_loss_grad` over the lanes of rows ``bounds[l]:bounds[l + 1]``
    in numba's threads, lane ``l`` into ``parts[l]`` and ``totals[l]``."""
    for lane in prange(parts.shape[0]):
        totals[lane] = binary_fused_loss_grad(X, w, b, y, sw, bounds[lane], bounds[lane + 1],
                                              parts[lane])


@njit(cache=True, nogil=True, parallel=True)
def multinomial_fused_loss_grad_lanes(X, W, b, y, sw, bounds, parts, totals):
    """:func:`multinomial_fused_loss_grad` over lanes (as
    :func:`binary_fused_loss_grad_lanes`)."""
    for lane in prange(parts.shape[0]):
        totals[lane] = multinomial_fused_loss_grad(X, W, b, y, sw, bounds[lane],
                                                   bounds[lane + 1], parts[lane])


@njit(cache=True, nogil=True, error_model="numpy", fastmath=_FAST)
def multinomial_hessian_product(X, P, sw, V, vb, out):
    """Softmax nll Hessian times a direction, in one pass over the rows of X.

    Parameters
    ----------
    X : float64 (n, p) C-contiguous; P : float64 (n, K) class probabilities;
    sw : float64 (n,); V : float64 (K, p) C-contiguous and vb : float64 (K,),
        the direction; out : float64 (K, p + 1) output, ``H [V, vb]`` (last
        column: the intercept part), without the penalty.
    """
    n, p = X.shape
    K = V.shape[0]
    for k in range(K):
        for j in range(p + 1):
            out[k, j] = 0.0
    z = np.empty(K)
    for i in range(n):
        xi = X[i]
        s = 0.0
        for k in range(K):
            z[k] = vb[k] + _dot(xi, V[k])
            s += P[i, k] * z[k]
        for k in range(K):
            r = sw[i] * P[i, k] * (z[k] - s)
            if r != 0.0:
                ok = out[k]
                for j in range(p):
                    ok[j] += r * xi[j]
                ok[p] += r


@njit(cache=True, nogil=True, error_model="numpy", fastmath=_FAST)
def binary_hessian_product(X, h, v, vb, out):
    """Binomial nll Hessian times (v, vb) in one pass: ``out = X' diag(h) (X v + vb)``.

    X : float64 (n, p) C-contiguous; h : float64 (n,) ``sw p (1 - p)``;
    v : float64 (p,); vb : float; out : float64 (p + 1,) output (last entry:
    the intercept part).
    """
    n, p = X.shape
    for j in range(p + 1):
        out[j] = 0.0
    for i in range(n):
        xi = X[i]
        r = h[i] * (vb + _dot(xi, v))
        if r != 0.0:
            for j in range(p):
                out[j] += r * xi[j]
            out[p] += r


@njit(cache=True, nogil=True, error_model="numpy")
def softmax_hessian_rows(X, P, sw, lo, hi, A, D):
    """The stacked rows of the softmax Hessian's two products, rows ``lo:hi`` of X.

    With ``x`` a row of X followed by a 1 (length q = p + 1): row ``i - lo`` of
    ``A`` (rows, K q) is ``sqrt(sw_i) P_ik x`` in column block k, and row
    ``i - lo`` of ``D[k]`` ((K, rows, q)) is ``sqrt(sw_i P_ik (1 - P_ik)) x``;
    ``-A'A`` holds the Hessian off its diagonal blocks, ``D[k]' D[k]`` its
    diagonal block k. ``sw`` must be non-negative.
    """
    p = X.shape[1]
    K = P.shape[1]
    q = p + 1
    for i in range(lo, hi):
        r = i - lo
        root = math.sqrt(sw[i])
        for k in range(K):
            pk = P[i, k]
            a = root * pk
            d = math.sqrt(sw[i] * pk * (1.0 - pk))
            base = k * q
            for j in range(p):
                A[r, base + j] = a * X[i, j]
                D[k, r, j] = d * X[i, j]
            A[r, base + p] = a
            D[k, r, p] = d
