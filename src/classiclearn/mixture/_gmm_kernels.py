"""numba kernels for Gaussian mixtures: one fused pass for the E-step and the M-step moments.

Precisions enter as "Cholesky factors" U with precision = U Uᵀ, so the squared
Mahalanobis distance of x to component k is ||(x - μ_k) U_k||². Full models
pass U as (k, p, p) (upper triangular), diagonal and spherical models the
diagonal of U as (k, 1, p); tied models (one U) have their own pass,
:func:`tied_pass` (``em_pass`` with ``full`` also serves their initial M-step).

Rows are cut into chunks that depend only on the number of rows; each chunk
writes its own partial sums, which the caller adds in order, so results do not
depend on the number of threads. Inside a chunk, tiles of rows are copied
transposed (features x rows) so every inner loop runs over contiguous rows and
vectorises. float64, C-contiguous; thread-safe; writes only the outputs.
"""

import math

import numpy as np

from .._kernels.exp import exp_nonpositive_scalar
from .._kernels.jit import njit, prange

_LOG_2PI = math.log(2.0 * math.pi)
_TILE = 128  # rows per tile: fewer per-tile reductions; the tile buffers stay in L1/L2 (64 was slower)
# reassociation lets the row reductions vectorise; no finite-math assumptions
_FAST = {"reassoc", "contract"}


@njit(cache=True, nogil=True)
def chunk_layout(n_samples):
    """Chunk size and number of chunks for ``n_samples`` rows (at most 64 chunks)."""
    size = max(256, (n_samples + 63) // 64)
    return size, (n_samples + size - 1) // size


@njit(cache=True, nogil=True)
def _tile_deviations(XT, m, means, DT):
    """DT[c, f, r] = x_rf - μ_cf for the tile's ``m`` rows."""
    k, p = means.shape
    for c in range(k):
        for f in range(p):
            mu = means[c, f]
            for r in range(m):
                DT[c, f, r] = XT[f, r] - mu


@njit(cache=True, nogil=True, fastmath=_FAST)
def _tile_log_prob(XT, m, means, prec, full, const, DT, lp, s, y):
    """Weighted log densities of the tile's ``m`` rows into ``lp`` (k, TILE).

    ``XT`` (p, TILE) is the transposed tile; ``DT`` (k, p, TILE) receives
    x - μ_c for every component when ``full`` (diagonal models form the
    deviations on the fly); ``s`` and ``y`` (TILE,) are work space.
    """
    k, p = means.shape
    if full:
        _tile_deviations(XT, m, means, DT)
    for c in range(k):
        for r in range(m):
            s[r] = 0.0
        if full:
            for j in range(p):
                # y_j = Σ_{f <= j} d_f U_fj  (U upper triangular)
                for r in range(m):
                    y[r] = 0.0
                for f in range(j + 1):
                    u = prec[c, f, j]
                    for r in range(m):
                        y[r] += DT[c, f, r] * u
                for r in range(m):
                    s[r] += y[r] * y[r]
        else:
            for f in range(p):
                u = prec[c, 0, f]
                mu = means[c, f]
                for r in range(m):
                    t = (XT[f, r] - mu) * u
                    s[r] += t * t
        cc = const[c]
        for r in range(m):
            lp[c, r] = cc - 0.5 * s[r]


_LOG_GROUP = 16  # rows whose sums are multiplied before one log (each sum is in [1, k])


@njit(cache=True, nogil=True, fastmath={"contract"})
def _tile_responsibilities(lp, m, mx, s):
    """Turn the tile's weighted log densities ``lp`` (k, TILE) into unnormalised
    responsibilities exp(lp - max) in place; ``s`` gets 1 / Σ_c of them.

    Returns Σ_r log p(x_r) over the tile's ``m`` rows (log-sum-exp).
    """
    k = lp.shape[0]
    for r in range(m):
        mx[r] = lp[0, r]
    for c in range(1, k):
        for r in range(m):
            v = lp[c, r]
            mx[r] = v if v > mx[r] else mx[r]
    for r in range(m):
        s[r] = 0.0
    for c in range(k):
        for r in range(m):
            e = exp_nonpositive_scalar(lp[c, r] - mx[r])
            lp[c, r] = e
            s[r] += e
    ll = 0.0
    for r in range(m):
        ll += mx[r]
    for g in range(0, m, _LOG_GROUP):
        prod = 1.0
        for r in range(g, min(m, g + _LOG_GROUP)):
            prod *= s[r]
        ll += math.log(prod)
    for r in range(m):
        s[r] = 1.0 / s[r]
    return ll


@njit(cache=True, nogil=True)
def _load_tile(X, t0, m, XT, shift=None):
    """XT[f, r] = X[t0 + r, f] (minus ``shift[f]`` when given) for the tile's ``m`` rows."""
    p = X.shape[1]
    for r in range(m):
        for f in range(p):
            XT[f, r] = X[t0 + r, f] if shift is None else X[t0 + r, f] - shift[f]


@njit(cache=True, nogil=True, fastmath=_FAST)
def _first_moments(lp, s, XT, m, c, w, nk, s1):
    """Add component c's Σ r and Σ r x over the tile (r = lp[c] * s) to ``nk`` and ``s1``;
    ``w`` (TILE,) receives the responsibilities."""
    p = XT.shape[0]
    for r in range(m):
        w[r] = lp[c, r] * s[r]
    acc = 0.0
    for r in range(m):
        acc += w[r]
    nk[c] += acc
    for f in range(p):
        acc = 0.0
        for r in range(m):
            acc += w[r] * XT[f, r]
        s1[c, f] += acc


@njit(cache=True, nogil=True)
def _new_moments(k, p, full):
    """Zeroed per-chunk accumulators (nk, s1, s2) for :func:`_store_chunk_moments`.

    Allocated here, outside the parallel kernels: there every ``np.zeros``
    becomes a parallel loop of its own, compiled separately.
    """
    nk = np.zeros(k)
    s1 = np.zeros((k, p))
    s2 = np.zeros((k, p, p)) if full else np.zeros((k, 1, p))
    return nk, s1, s2


@njit(cache=True, nogil=True)
def _store_chunk_moments(ch, nk, s1, s2, full, nk_chunks, s1_chunks, s2_chunks):
    """Write chunk ``ch``'s moments; a full second moment (upper triangle accumulated)
    is stored symmetric (``s2`` may be empty when there is none)."""
    k, p = s1.shape
    for c in range(k):
        nk_chunks[ch, c] = nk[c]
        for f in range(p):
            s1_chunks[ch, c, f] = s1[c, f]
    if s2.shape[0] == 0:
        return
    for c in range(k):
        if full:
            for a in range(p):
                for b in range(a, p):
                    s2_chunks[ch, c, a, b] = s2[c, a, b]
                    s2_chunks[ch, c, b, a] = s2[c, a, b]
        else:
            for f in range(p):
                s2_chunks[ch, c, 0, f] = s2[c, 0, f]


@njit(cache=True, nogil=True)
def _write_rows(lp, m, mode, mx, s, out, t0):
    """The per-row outputs of the inference modes for the tile's ``m`` rows.

    mode 0: the weighted log densities ``lp`` into ``out`` (n, k); mode 3:
    the responsibilities (log-sum-exp normalised) into ``out`` (n, k); mode 4:
    log p(x) into ``out`` (n, 1).
    """
    k = lp.shape[0]
    if mode == 0:
        for r in range(m):
            for c in range(k):
                out[t0 + r, c] = lp[c, r]
        return
    _tile_responsibilities(lp, m, mx, s)
    if mode == 3:
        for r in range(m):
            for c in range(k):
                out[t0 + r, c] = lp[c, r] * s[r]
    else:
        for r in range(m):
            out[t0 + r, 0] = mx[r] - math.log(s[r])


@njit(cache=True, nogil=True, parallel=True, fastmath=_FAST)
def em_pass(X, means, prec, full, const, mode, out, ll_chunks, nk_chunks, s1_chunks,
            s2_chunks):
    """One pass over X: weighted log densities (mode 0), E-step moments (mode 1),
    the moments of given responsibilities (mode 2), responsibilities (mode 3)
    or log densities (mode 4).

    ``const`` (k,) is log w_c + log det U_c - p log(2π) / 2.
    mode 0: writes log w_c + log N(x_i | μ_c, Σ_c) into ``out`` (n, k); the
    other outputs are untouched. Modes 3 and 4 write the normalised
    responsibilities into ``out`` (n, k), or log p(x_i) into ``out`` (n, 1).
    mode 1: with r_ic the responsibilities and d_ic = x_i - μ_c (the current
    means), writes per chunk ll_chunks (n_chunks,) Σ_i log p(x_i); nk_chunks
    (n_chunks, k) Σ_i r_ic; s1_chunks (n_chunks, k, p) Σ_i r_ic x_i; and
    s2_chunks Σ_i r_ic d_ic d_icᵀ as (n_chunks, k, p, p) when ``full`` or
    Σ_i r_ic d_ic² as (n_chunks, k, 1, p) otherwise. ``out`` is untouched.
    mode 2: as mode 1 with the responsibilities read from ``out`` (n, k)
    (``prec`` and ``const`` unused; ll_chunks is zero).
    """
    n, p = X.shape
    k = means.shape[0]
    size, n_chunks = chunk_layout(n)
    for ch in prange(n_chunks):
        XT = np.empty((p, _TILE))
        DT = np.empty((k, p, _TILE) if full else (1, 1, 1))
        lp = np.empty((k, _TILE))
        s = np.empty(_TILE)
        y = np.empty(_TILE)
        mx = np.empty(_TILE)
        w = np.empty(_TILE)
        wd = np.empty(_TILE)
        ll = 0.0
        nk, s1, s2 = _new_moments(k, p, full)
        stop = min(n, (ch + 1) * size)
        for t0 in range(ch * size, stop, _TILE):
            m = min(stop, t0 + _TILE) - t0
            _load_tile(X, t0, m, XT)
            if mode == 2:
                if full:
                    _tile_deviations(XT, m, means, DT)
                for r in range(m):
                    s[r] = 1.0
                    for c in range(k):
                        lp[c, r] = out[t0 + r, c]
            else:
                _tile_log_prob(XT, m, means, prec, full, const, DT, lp, s, y)
            if mode == 0 or mode >= 3:
                _write_rows(lp, m, mode, mx, s, out, t0)
                continue
            if mode == 1:
                ll += _tile_responsibilities(lp, m, mx, s)
            for c in range(k):
                _first_moments(lp, s, XT, m, c, w, nk, s1)
                if full:
                    for a in range(p):
                        for r in range(m):
                            wd[r] = w[r] * DT[c, a, r]
                        for b in range(a, p):
                            acc = 0.0
                            for r in range(m):
                                acc += wd[r] * DT[c, b, r]
                            s2[c, a, b] += acc
                else:
                    for f in range(p):
                        mu = means[c, f]
                        acc = 0.0
                        for r in range(m):
                            d = XT[f, r] - mu
                            acc += w[r] * d * d
                        s2[c, 0, f] += acc
        if mode in (1, 2):
            ll_chunks[ch] = ll
            _store_chunk_moments(np.intp(ch), nk, s1, s2, full, nk_chunks, s1_chunks,
                                 s2_chunks)


@njit(cache=True, nogil=True, fastmath=_FAST)
def _tile_log_prob_rows(X, t0, m, means, prec, const, lp):
    """:func:`_tile_log_prob` of a diagonal model straight from the rows of
    C-contiguous X (no transposed tile): per row and component one reduction over
    the contiguous features."""
    k, p = means.shape
    for r in range(m):
        i = t0 + r
        for c in range(k):
            acc = 0.0
            for f in range(p):
                t = (X[i, f] - means[c, f]) * prec[c, 0, f]
                acc += t * t
            lp[c, r] = const[c] - 0.5 * acc


@njit(cache=True, nogil=True, parallel=True)
def diag_inference_pass(X, means, prec, const, mode, out):
    """:func:`em_pass`'s inference modes (0 weighted log densities, 3
    responsibilities, 4 log densities, into ``out``) for a diagonal or spherical
    model on C-contiguous X, row by row: X is read once, in order, and never
    copied transposed (the EM pass needs the transposed tiles for its moments;
    these modes do not)."""
    n = X.shape[0]
    k = means.shape[0]
    size, n_chunks = chunk_layout(n)
    for ch in prange(n_chunks):
        lp = np.empty((k, _TILE))
        s = np.empty(_TILE)
        mx = np.empty(_TILE)
        stop = min(n, (ch + 1) * size)
        for t0 in range(ch * size, stop, _TILE):
            m = min(stop, t0 + _TILE) - t0
            _tile_log_prob_rows(X, t0, m, means, prec, const, lp)
            _write_rows(lp, m, mode, mx, s, out, t0)


@njit(cache=True, nogil=True, parallel=True, fastmath=_FAST)
def tied_pass(X, shift, proj_means, U, const, mode, out, ll_chunks, nk_chunks, s1_chunks):
    """:func:`em_pass` for a tied covariance (one precision factor for every component).

    With z = x - ``shift``, ||(x - μ_c) U||² = ||z U - (μ_c - shift) U||²: the
    product z U is formed once per row and ``proj_means`` (k, p) holds
    (μ_c - shift) U, so each component costs p operations per row instead of
    p² / 2. ``U`` (p, p) is upper triangular; ``const`` as in :func:`em_pass`.
    modes 0, 3 and 4: write the weighted log densities, the responsibilities or
    the log densities into ``out``, as :func:`em_pass`.
    mode 1: writes per chunk ll_chunks Σ_i log p(x_i), nk_chunks Σ_i r_ic and
    s1_chunks Σ_i r_ic z_i; no second moments (the tied covariance follows
    from the total scatter of z, see ``GaussianMixture``).
    """
    n, p = X.shape
    k = proj_means.shape[0]
    size, n_chunks = chunk_layout(n)
    for ch in prange(n_chunks):
        ZT = np.empty((p, _TILE))
        YT = np.empty((p, _TILE))
        lp = np.empty((k, _TILE))
        s = np.empty(_TILE)
        mx = np.empty(_TILE)
        w = np.empty(_TILE)
        ll = 0.0
        nk, s1, _ = _new_moments(k, p, np.bool_(False))
        stop = min(n, (ch + 1) * size)
        for t0 in range(ch * size, stop, _TILE):
            m = min(stop, t0 + _TILE) - t0
            _load_tile(X, t0, m, ZT, shift)
            for j in range(p):
                for r in range(m):
                    YT[j, r] = 0.0
                for f in range(j + 1):
                    u = U[f, j]
                    for r in range(m):
                        YT[j, r] += ZT[f, r] * u
            for c in range(k):
                for r in range(m):
                    s[r] = 0.0
                for j in range(p):
                    mu = proj_means[c, j]
                    for r in range(m):
                        t = YT[j, r] - mu
                        s[r] += t * t
                cc = const[c]
                for r in range(m):
                    lp[c, r] = cc - 0.5 * s[r]
            if mode == 0 or mode >= 3:
                _write_rows(lp, m, mode, mx, s, out, t0)
                continue
            ll += _tile_responsibilities(lp, m, mx, s)
            for c in range(k):
                _first_moments(lp, s, ZT, m, c, w, nk, s1)
        if mode in (1, 2):
            ll_chunks[ch] = ll
            _store_chunk_moments(np.intp(ch), nk, s1, np.empty((0, 1, p)), np.bool_(False), nk_chunks,
                                 s1_chunks, np.empty((0, 1, 1, p)))


@njit(cache=True, nogil=True, parallel=True)
def label_moments(X, labels, centers, full, nk_chunks, s1_chunks, s2_chunks):
    """The M-step moments of hard responsibilities (one component per row), per chunk.

    With d_i = x_i - centers[labels[i]], writes nk_chunks (n_chunks, k) the
    row counts, s1_chunks (n_chunks, k, p) Σ x_i and s2_chunks Σ d_i d_iᵀ as
    (n_chunks, k, p, p) when ``full`` or Σ d_i² as (n_chunks, k, 1, p), over
    the rows of each label (the same chunks as :func:`em_pass`).
    """
    n, p = X.shape
    k = centers.shape[0]
    size, n_chunks = chunk_layout(n)
    for ch in prange(n_chunks):
        nk, s1, s2 = _new_moments(k, p, full)
        d = np.empty(p)
        for i in range(ch * size, min(n, (ch + 1) * size)):
            c = labels[i]
            nk[c] += 1.0
            for f in range(p):
                s1[c, f] += X[i, f]
                d[f] = X[i, f] - centers[c, f]
            if full:
                for a in range(p):
                    for b in range(a, p):
                        s2[c, a, b] += d[a] * d[b]
            else:
                for f in range(p):
                    s2[c, 0, f] += d[f] * d[f]
        _store_chunk_moments(np.intp(ch), nk, s1, s2, full, nk_chunks, s1_chunks, s2_chunks)
