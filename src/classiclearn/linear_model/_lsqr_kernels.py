"""numba kernel of LSQR (Paige and Saunders, 1982) on a centred, weighted sparse X.

:func:`lsqr_sparse` solves, per column b of B, the damped least-squares problem
``min ||A w - b||^2 + damp^2 ||w||^2`` for ``A = diag(root) (X - 1 x_mean')``,
X given by its compressed arrays (CSR, or CSC read as the CSR of X'). Each
iteration is one product with A and one with A', and a few fused passes over
vectors of length n and p: the whole iteration runs compiled, where a Python
loop pays a few microseconds per vector operation, which on a sparse X of some
ten thousand stored entries is most of the time.

The recurrences and the stopping tests are those of the published algorithm
(and of scipy's ``lsqr``): the estimates of ||A||, cond(A), ||x|| and ||r||
feed the tests ``||r|| <= btol ||b|| + atol ||A|| ||x||`` (istop 1),
``||A'r|| <= atol ||A|| ||r||`` (2), ``cond(A) >= conlim`` (3), their machine
precision forms (4-6) and the iteration limit (7).
"""

import math

import numpy as np

from .._kernels.jit import njit
from .._kernels.sparse_products import (
    csr_matvec,
    csr_rmatvec,
    csr_rows_matvec,
    csr_rows_scatter,
)

_EPS = np.finfo(np.float64).eps


@njit(cache=True, nogil=True)
def _gather(indptr, indices, data, bounds, parts, v, out):
    """``out = M v`` for the CSR matrix M: its row lanes in threads, or on this thread
    when ``parts`` is None (numba then compiles no threaded code)."""
    if parts is not None:
        csr_matvec(indptr, indices, data, v, bounds, out)
    else:
        csr_rows_matvec(indptr, indices, data, v, np.intp(0), out.shape[0], out)


@njit(cache=True, nogil=True)
def _scatter(indptr, indices, data, bounds, parts, u, out):
    """``out = M' u`` for the CSR matrix M: its row lanes in threads (scattered into
    ``parts``), or on this thread when ``parts`` is None; ``out`` must come in zeroed
    (the callers clear it as they read it)."""
    if parts is not None:
        csr_rmatvec(indptr, indices, data, u, bounds, parts, out)
    else:
        csr_rows_scatter(indptr, indices, data, u, np.intp(0), u.shape[0], out)


@njit(cache=True, nogil=True)
def _givens(a, b):
    """(c, s, r) with ``[c s; -s c] [a; b] = [r; 0]``, r >= 0 (stable form)."""
    if b == 0.0:
        return math.copysign(1.0, a) if a != 0.0 else 0.0, 0.0, abs(a)
    if a == 0.0:
        return 0.0, math.copysign(1.0, b), abs(b)
    if abs(b) > abs(a):
        ratio = a / b
        s = math.copysign(1.0, b) / math.sqrt(1.0 + ratio * ratio)
        return s * ratio, s, b / s
    ratio = b / a
    c = math.copysign(1.0, a) / math.sqrt(1.0 + ratio * ratio)
    return c, c * ratio, a / c


@njit(cache=True, nogil=True)
def _apply_a(indptr, indices, data, by_row, bounds, parts, shift, root, v, alfa, u, work):
    """``u = A v - alfa u`` in place, given ``shift = x_mean' v``; returns ||u||.
    ``work`` (n) comes in and leaves zeroed."""
    if by_row:
        _gather(indptr, indices, data, bounds, parts, v, work)
    else:
        _scatter(indptr, indices, data, bounds, parts, v, work)
    weighted = root.shape[0] > 0
    total = 0.0
    for i in range(u.shape[0]):
        value = work[i] - shift
        work[i] = 0.0
        if weighted:
            value *= root[i]
        value -= alfa * u[i]
        u[i] = value
        total += value * value
    return math.sqrt(total)


@njit(cache=True, nogil=True)
def _apply_at(indptr, indices, data, by_row, bounds, parts, x_mean, root, u, scale, beta, v,
              scaled, work):
    """``u *= scale``, then ``v = A' u - beta v`` in place; returns ||v||. ``scaled``
    receives ``root * u``; ``work`` (p) comes in and leaves zeroed."""
    weighted = root.shape[0] > 0
    total_u = 0.0
    for i in range(u.shape[0]):
        value = u[i] * scale
        u[i] = value
        if weighted:
            value *= root[i]
        scaled[i] = value
        total_u += value
    if by_row:
        _scatter(indptr, indices, data, bounds, parts, scaled, work)
    else:
        _gather(indptr, indices, data, bounds, parts, scaled, work)
    total = 0.0
    for j in range(v.shape[0]):
        value = work[j] - x_mean[j] * total_u - beta * v[j]
        work[j] = 0.0
        v[j] = value
        total += value * value
    return math.sqrt(total)


@njit(cache=True, nogil=True)
def lsqr_sparse(indptr, indices, data, by_row, bounds, parts, x_mean, root, B, damps,
                atol, btol, conlim, iter_lim):
    """LSQR per column of ``B`` (n, t) on ``A = diag(root) (X - 1 x_mean')``.

    Parameters
    ----------
    indptr, indices, data : arrays
        X by rows (``by_row``: CSR of X, n x p) or by columns (CSR of X', p x n).
    bounds : ndarray
        Row lanes of that CSR matrix (``sparse_products.row_lanes``).
    parts : ndarray of shape (lanes, width) or None
        The lanes' scatter buffer, the lanes running in threads; None runs the
        products on the calling thread (a separate specialisation, without threads).
    x_mean : ndarray of shape (p,)
    root : ndarray of shape (n,) or (0,)
        Square roots of the sample weights; empty for unit weights.
    B : ndarray of shape (n, t)
    damps : ndarray of shape (t,)
        ``sqrt(alpha)`` per column.
    atol, btol, conlim : float
    iter_lim : int

    Returns
    -------
    W : ndarray of shape (p, t)
    istop : ndarray of shape (t,)
        Why each column stopped (0: x = 0 is exact, 1-7 as in the module docstring).
    n_iter : ndarray of shape (t,)
    """
    n, t = B.shape
    p = x_mean.shape[0]
    W = np.zeros((p, t))
    istops = np.zeros(t, dtype=np.intp)
    n_iters = np.zeros(t, dtype=np.intp)
    u = np.empty(n)
    scaled = np.empty(n)
    work_n = np.zeros(n)
    v = np.zeros(p)
    w = np.empty(p)
    x = np.empty(p)
    work_p = np.zeros(p)
    ctol = 1.0 / conlim if conlim > 0 else 0.0
    for k in range(t):
        damp = damps[k]
        dampsq = damp * damp
        for j in range(p):  # loops, not slice assignments: far less to compile
            x[j] = 0.0
        bnorm = 0.0
        for i in range(n):
            u[i] = B[i, k]
            bnorm += u[i] * u[i]
        bnorm = math.sqrt(bnorm)
        beta = bnorm
        alfa = 0.0
        for j in range(p):
            v[j] = 0.0
        if beta > 0:
            alfa = _apply_at(indptr, indices, data, by_row, bounds, parts, x_mean, root, u,
                             1.0 / beta, 0.0, v, scaled, work_p)
        inv_alfa = 1.0 / alfa if alfa > 0 else 1.0
        shift = 0.0  # x_mean' v, for the next product with A
        for j in range(p):
            v[j] *= inv_alfa
            w[j] = v[j]
            shift += x_mean[j] * v[j]
        rhobar = alfa
        phibar = beta
        anorm = 0.0
        ddnorm = 0.0
        res2 = 0.0
        xxnorm = 0.0
        z = 0.0
        cs2 = -1.0
        sn2 = 0.0
        istop = 0
        itn = 0
        if alfa * beta != 0.0:
            while itn < iter_lim:
                itn += 1
                beta = _apply_a(indptr, indices, data, by_row, bounds, parts, shift, root,
                                v, alfa, u, work_n)
                inv_alfa = 1.0  # v's normalisation, applied in the update pass below
                if beta > 0:
                    anorm = math.sqrt(anorm * anorm + alfa * alfa + beta * beta + dampsq)
                    alfa = _apply_at(indptr, indices, data, by_row, bounds, parts, x_mean,
                                     root, u, 1.0 / beta, beta, v, scaled, work_p)
                    if alfa > 0:
                        inv_alfa = 1.0 / alfa
                # the damping's rotation, then the bidiagonal's
                psi = 0.0
                rhobar1 = rhobar
                if damp > 0:
                    rhobar1 = math.sqrt(rhobar * rhobar + dampsq)
                    psi = damp / rhobar1 * phibar
                    phibar = rhobar / rhobar1 * phibar
                cs, sn, rho = _givens(rhobar1, beta)
                theta = sn * alfa
                rhobar = -cs * alfa
                phi = cs * phibar
                phibar = sn * phibar
                tau = sn * phi
                step = phi / rho
                carry = -theta / rho
                inv_rho = 1.0 / rho
                # one pass: normalise v, step x, the next direction w, ||dk||, x_mean' v
                dk_sq = 0.0
                shift = 0.0
                for j in range(p):
                    vj = v[j] * inv_alfa
                    v[j] = vj
                    shift += x_mean[j] * vj
                    wj = w[j]
                    x[j] += step * wj
                    dk = inv_rho * wj
                    dk_sq += dk * dk
                    w[j] = vj + carry * wj
                ddnorm += dk_sq
                # ||x|| from the last row of the lower-bidiagonal factor
                delta = sn2 * rho
                gambar = -cs2 * rho
                rhs = phi - delta * z
                zbar = rhs / gambar
                xnorm = math.sqrt(xxnorm + zbar * zbar)
                gamma = math.sqrt(gambar * gambar + theta * theta)
                cs2 = gambar / gamma
                sn2 = theta / gamma
                z = rhs / gamma
                xxnorm += z * z
                acond = anorm * math.sqrt(ddnorm)
                res2 += psi * psi
                rnorm = math.sqrt(phibar * phibar + res2)
                arnorm = alfa * abs(tau)
                test1 = rnorm / bnorm
                test2 = arnorm / (anorm * rnorm + _EPS)
                test3 = 1.0 / (acond + _EPS)
                relative = test1 / (1.0 + anorm * xnorm / bnorm)
                rtol = btol + atol * anorm * xnorm / bnorm
                # the first test met in this order wins, as in the published code
                if test1 <= rtol:
                    istop = 1
                elif test2 <= atol:
                    istop = 2
                elif test3 <= ctol:
                    istop = 3
                elif 1.0 + relative <= 1.0:
                    istop = 4
                elif 1.0 + test2 <= 1.0:
                    istop = 5
                elif 1.0 + test3 <= 1.0:
                    istop = 6
                elif itn >= iter_lim:
                    istop = 7
                if istop != 0:
                    break
        for j in range(p):
            W[j, k] = x[j]
        istops[k] = istop
        n_iters[k] = itn
    return W, istops, n_iters
