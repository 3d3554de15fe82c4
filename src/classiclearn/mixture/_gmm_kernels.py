"""numba kernels for Gaussian mixtures: fused E-step + first moments, and second moments.

Precisions enter as "Cholesky factors" U with precision = U Uᵀ, so the squared
Mahalanobis distance of x to component k is ||(x - μ_k) U_k||². Full and tied
models pass U as (k, p, p) (tied repeated per component); diagonal and spherical
models pass the diagonal of U as (k, p).
Rows are cut into chunks that depend only on the number of rows; each chunk
writes its own partial sums, which the caller adds in order, so results do not
depend on the number of threads. float64, C-contiguous; thread-safe; writes only
the outputs.
"""

import math

import numpy as np
from numba import njit, prange

_LOG_2PI = math.log(2.0 * math.pi)


@njit(cache=True, nogil=True)
def chunk_layout(n_samples):
    """Chunk size and number of chunks for ``n_samples`` rows (at most 64 chunks)."""
    size = max(256, (n_samples + 63) // 64)
    return size, (n_samples + size - 1) // size


@njit(cache=True, nogil=True, inline="always")
def _row_log_prob(X, i, means, prec, full, log_det, log_w, out, d, y):
    """Weighted log density of row i under every component into ``out`` (k,).

    ``d`` and ``y`` are (p,) work arrays. The full product (x - μ) U runs row by
    row of U so the inner loop is contiguous.
    """
    k, p = means.shape
    for c in range(k):
        s = 0.0
        if full:
            for f in range(p):
                d[f] = X[i, f] - means[c, f]
                y[f] = 0.0
            for f in range(p):
                df = d[f]
                for j in range(p):
                    y[j] += df * prec[c, f, j]
            for j in range(p):
                s += y[j] * y[j]
        else:
            for f in range(p):
                t = (X[i, f] - means[c, f]) * prec[c, 0, f]
                s += t * t
        out[c] = -0.5 * (p * _LOG_2PI + s) + log_det[c] + log_w[c]


@njit(cache=True, nogil=True, parallel=True)
def weighted_log_prob(X, means, prec, full, log_det, log_w, out):
    """log w_k + log N(x_i | μ_k, Σ_k) into ``out`` (n, k).

    ``prec`` is (k, p, p) when ``full`` else (k, 1, p) (the diagonal).
    """
    n, p = X.shape
    size, n_chunks = chunk_layout(n)
    for ch in prange(n_chunks):
        d = np.empty(p)
        y = np.empty(p)
        for i in range(ch * size, min(n, (ch + 1) * size)):
            _row_log_prob(X, i, means, prec, full, log_det, log_w, out[i], d, y)


@njit(cache=True, nogil=True, parallel=True)
def em_moments(X, means, prec, full, log_det, log_w, second, resp, ll_chunks, nk_chunks,
               s1_chunks, s2_chunks):
    """Fused E-step and all the moments the M-step needs, in one pass over X.

    Writes resp (n, k), the responsibilities; ll_chunks (n_chunks,), per-chunk
    Σ_i log p(x_i); nk_chunks (n_chunks, k), Σ_i r_ik; s1_chunks (n_chunks, k, p),
    Σ_i r_ik x_i; and, with d_ik = x_i - μ_k (the current means), s2_chunks:
    second == 1: (n_chunks, k, p, p), Σ_i r_ik d_ik d_ikᵀ (upper triangle mirrored);
    second == 2: (n_chunks, k, 1, p), Σ_i r_ik d_ik²; second == 0: untouched.
    The caller re-centres these on the new means exactly (no cancellation, since
    the shift is the small change of the means).
    """
    n, p = X.shape
    k = means.shape[0]
    size, n_chunks = chunk_layout(n)
    for ch in prange(n_chunks):
        ll = 0.0
        nk_chunks[ch, :] = 0.0
        s1_chunks[ch, :, :] = 0.0
        if second != 0:
            s2_chunks[ch, :, :, :] = 0.0
        row = np.empty(k)
        d = np.empty(p)
        y = np.empty(p)
        for i in range(ch * size, min(n, (ch + 1) * size)):
            _row_log_prob(X, i, means, prec, full, log_det, log_w, row, d, y)
            m = row[0]
            for c in range(1, k):
                if row[c] > m:
                    m = row[c]
            s = 0.0
            for c in range(k):
                s += math.exp(row[c] - m)
            norm = m + math.log(s)
            ll += norm
            for c in range(k):
                r = math.exp(row[c] - norm)
                resp[i, c] = r
                nk_chunks[ch, c] += r
                for f in range(p):
                    s1_chunks[ch, c, f] += r * X[i, f]
                if second == 1:
                    for f in range(p):
                        d[f] = X[i, f] - means[c, f]
                    for a in range(p):
                        ra = r * d[a]
                        for b in range(a, p):
                            s2_chunks[ch, c, a, b] += ra * d[b]
                elif second == 2:
                    for f in range(p):
                        t = X[i, f] - means[c, f]
                        s2_chunks[ch, c, 0, f] += r * t * t
        ll_chunks[ch] = ll
        if second == 1:
            for c in range(k):
                for a in range(p):
                    for b in range(a + 1, p):
                        s2_chunks[ch, c, b, a] = s2_chunks[ch, c, a, b]


@njit(cache=True, nogil=True, parallel=True)
def full_scatter(X, resp, means, out):
    """Per chunk Σ_i r_ik (x_i - μ_k)(x_i - μ_k)ᵀ into ``out`` (n_chunks, k, p, p)."""
    n, p = X.shape
    k = means.shape[0]
    size, n_chunks = chunk_layout(n)
    for ch in prange(n_chunks):
        out[ch, :, :, :] = 0.0
        d = np.empty(p)
        for i in range(ch * size, min(n, (ch + 1) * size)):
            for c in range(k):
                r = resp[i, c]
                if r == 0.0:
                    continue
                for f in range(p):
                    d[f] = X[i, f] - means[c, f]
                for a in range(p):
                    ra = r * d[a]
                    for b in range(a, p):
                        out[ch, c, a, b] += ra * d[b]
        for c in range(k):
            for a in range(p):
                for b in range(a + 1, p):
                    out[ch, c, b, a] = out[ch, c, a, b]


@njit(cache=True, nogil=True, parallel=True)
def diag_scatter(X, resp, means, out):
    """Per chunk Σ_i r_ik (x_if - μ_kf)² into ``out`` (n_chunks, k, p)."""
    n, p = X.shape
    k = means.shape[0]
    size, n_chunks = chunk_layout(n)
    for ch in prange(n_chunks):
        out[ch, :, :] = 0.0
        for i in range(ch * size, min(n, (ch + 1) * size)):
            for c in range(k):
                r = resp[i, c]
                for f in range(p):
                    t = X[i, f] - means[c, f]
                    out[ch, c, f] += r * t * t


_TILE = 256  # rows per BLAS product: small enough that BLAS stays single-threaded


@njit(cache=True, nogil=True, parallel=True)
def em_moments_full(X, means, prec, mu_prec, log_det, log_w, resp, ll_chunks, nk_chunks,
                    s1_chunks, s2_chunks):
    """:func:`em_moments` for full / tied precisions, with small BLAS products per tile.

    ``mu_prec`` is (k, p), μ_k U_k. Writes the same outputs as ``em_moments`` with
    ``second == 1``: per tile of rows, y = X U_k - μ_k U_k and the re-centred scatter
    (r ∘ d)ᵀ d are single-threaded matrix products.
    """
    n, p = X.shape
    k = means.shape[0]
    size, n_chunks = chunk_layout(n)
    for ch in prange(n_chunks):
        ll = 0.0
        nk_chunks[ch, :] = 0.0
        s1_chunks[ch, :, :] = 0.0
        s2_chunks[ch, :, :, :] = 0.0
        stop = min(n, (ch + 1) * size)
        for t0 in range(ch * size, stop, _TILE):
            t1 = min(stop, t0 + _TILE)
            m = t1 - t0
            Xt = X[t0:t1]
            lp = np.empty((m, k))
            for c in range(k):
                Y = np.dot(Xt, prec[c])
                for r in range(m):
                    s = 0.0
                    for j in range(p):
                        y = Y[r, j] - mu_prec[c, j]
                        s += y * y
                    lp[r, c] = -0.5 * (p * _LOG_2PI + s) + log_det[c] + log_w[c]
            for r in range(m):
                mx = lp[r, 0]
                for c in range(1, k):
                    if lp[r, c] > mx:
                        mx = lp[r, c]
                s = 0.0
                for c in range(k):
                    s += math.exp(lp[r, c] - mx)
                norm = mx + math.log(s)
                ll += norm
                for c in range(k):
                    resp[t0 + r, c] = math.exp(lp[r, c] - norm)
            D = np.empty((m, p))
            DW = np.empty((m, p))
            for c in range(k):
                for r in range(m):
                    w = resp[t0 + r, c]
                    nk_chunks[ch, c] += w
                    for f in range(p):
                        x = Xt[r, f]
                        s1_chunks[ch, c, f] += w * x
                        d = x - means[c, f]
                        D[r, f] = d
                        DW[r, f] = w * d
                s2_chunks[ch, c] += np.dot(DW.T, D)
        ll_chunks[ch] = ll
