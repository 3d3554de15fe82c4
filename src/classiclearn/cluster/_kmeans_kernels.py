"""numba kernels for k-means: fused assign + update passes (Lloyd, Elkan) and k-means++ trials.

Every pass works on a fixed partition of the rows into chunks that depends only
on the number of rows (see :func:`chunk_layout`), never on the number of
threads. Each chunk writes its own partial sums; the caller adds the chunk
rows in order, so results are identical for every thread count.
All kernels take float64 C-contiguous arrays, write only their outputs and
are thread-safe.
"""

import math

import numpy as np
from numba import njit, prange


@njit(cache=True, nogil=True)
def chunk_layout(n_samples):
    """Chunk size and number of chunks for ``n_samples`` rows (at most 128 chunks)."""
    size = max(256, (n_samples + 127) // 128)
    return size, (n_samples + size - 1) // size


@njit(cache=True, nogil=True, inline="always")
def _sq_dist(X, i, C, j):
    d = 0.0
    for f in range(X.shape[1]):
        t = X[i, f] - C[j, f]
        d += t * t
    return d


_TILE = 256  # rows per BLAS product: small enough that BLAS stays single-threaded


@njit(cache=True, nogil=True, inline="always")
def _nearest(dots, r, centers_sq):
    """Index of the centre minimising ||c||² - 2 <x_r, c> (first on ties)."""
    best = centers_sq[0] - 2.0 * dots[r, 0]
    bj = 0
    for j in range(1, centers_sq.shape[0]):
        d = centers_sq[j] - 2.0 * dots[r, j]
        if d < best:
            best = d
            bj = j
    return bj


@njit(cache=True, nogil=True, parallel=True)
def assign_shifted(X, origin, sample_weight, centers_t, centers_sq, labels, inertia_out):
    """Nearest centre of every row of X - ``origin`` (centres relative to origin), without a
    shifted copy of X: each tile is shifted into a small buffer before its BLAS product.

    ``inertia_out`` (n_chunks,) receives per chunk Σ w ||(x - origin) - c_label||² when it
    has n_chunks entries (``sample_weight`` (n,)); pass empty arrays to skip it.
    """
    n, p = X.shape
    k = centers_t.shape[1]
    size, n_chunks = chunk_layout(n)
    with_inertia = inertia_out.shape[0] == n_chunks
    for c in prange(n_chunks):
        stop = min(n, (c + 1) * size)
        rows_buf = np.empty((_TILE, p))
        buf = np.empty((_TILE, k))
        total = 0.0
        for t0 in range(c * size, stop, _TILE):
            rows = min(stop, t0 + _TILE) - t0
            for r in range(rows):
                for f in range(p):
                    rows_buf[r, f] = X[t0 + r, f] - origin[f]
            dots = buf[:rows]
            np.dot(rows_buf[:rows], centers_t, dots)
            for r in range(rows):
                bj = _nearest(dots, r, centers_sq)
                labels[t0 + r] = bj
                if with_inertia:
                    d = 0.0
                    for f in range(p):
                        t = rows_buf[r, f] - centers_t[f, bj]
                        d += t * t
                    total += sample_weight[t0 + r] * d
        if with_inertia:
            inertia_out[c] = total


@njit(cache=True, nogil=True, parallel=True)
def lloyd_pass(X, sample_weight, centers_t, centers_sq, labels, sums, wsums):
    """Assign every row to its nearest centre and accumulate per-chunk weighted sums.

    The nearest centre minimises ||c||² - 2 <x, c> (the expansion of the squared
    distance without the constant ||x||²); the dot products come from one small
    BLAS product per tile of rows. Callers centre X so the expansion stays accurate.

    Parameters
    ----------
    X : (n, p) float64; sample_weight : (n,) float64.
    centers_t : (p, k) float64, the centres transposed (C-contiguous).
    centers_sq : (k,) float64, squared norms of the centres.
    labels : (n,) intp, output: index of the nearest centre (first on ties).
    sums : (n_chunks, k, p) float64, output: per chunk, Σ w x over rows per label.
    wsums : (n_chunks, k) float64, output: per chunk, Σ w per label.

    Labels alone (and the inertia) come from :func:`assign_shifted`.
    """
    n = X.shape[0]
    k = centers_t.shape[1]
    p = X.shape[1]
    size, n_chunks = chunk_layout(n)
    for c in prange(n_chunks):
        start = c * size
        stop = min(n, start + size)
        buf = np.empty((_TILE, k))  # one product buffer per chunk, not per tile
        sums[c, :, :] = 0.0
        wsums[c, :] = 0.0
        for t0 in range(start, stop, _TILE):
            t1 = min(stop, t0 + _TILE)
            dots = buf[: t1 - t0]
            np.dot(X[t0:t1], centers_t, dots)
            for r in range(t1 - t0):
                bj = _nearest(dots, r, centers_sq)
                i = t0 + r
                labels[i] = bj
                w = sample_weight[i]
                wsums[c, bj] += w
                for f in range(p):
                    sums[c, bj, f] += w * X[i, f]


@njit(cache=True, nogil=True, parallel=True)
def elkan_init_bounds(X, centers, half_dist, labels, upper, lower):
    """Initial labels and Elkan bounds with the triangle inequality.

    Parameters
    ----------
    X : (n, p); centers : (k, p); half_dist : (k, k), half the centre-centre distances.
    labels : (n,) intp, output. upper : (n,), output: distance to the assigned centre.
    lower : (n, k), output: exact distance for every centre examined, 0 otherwise.
    """
    n = X.shape[0]
    k = centers.shape[0]
    for i in prange(n):
        for j in range(k):
            lower[i, j] = 0.0
        best_j = 0
        best = math.sqrt(_sq_dist(X, i, centers, 0))
        lower[i, 0] = best
        for j in range(1, k):
            if best > half_dist[best_j, j]:
                d = math.sqrt(_sq_dist(X, i, centers, j))
                lower[i, j] = d
                if d < best:
                    best = d
                    best_j = j
        labels[i] = best_j
        upper[i] = best


@njit(cache=True, nogil=True, parallel=True)
def elkan_pass(
    X, sample_weight, centers, half_dist, next_dist, shift, labels, upper, lower, sums, wsums, update
):
    """One Elkan assignment pass (bounds first moved by ``shift``) with per-chunk sums.

    Parameters
    ----------
    X, sample_weight, centers : as :func:`lloyd_pass`.
    half_dist : (k, k), half the distances between current centres.
    next_dist : (k,), half the distance from each centre to its nearest other centre.
    shift : (k,), how far each centre moved since the bounds were last valid.
    labels, upper, lower : (n,), (n,), (n, k), updated in place (the state of the method).
    sums, wsums, update : as :func:`lloyd_pass`.
    """
    n = X.shape[0]
    k = centers.shape[0]
    p = X.shape[1]
    size, n_chunks = chunk_layout(n)
    for c in prange(n_chunks):
        start = c * size
        stop = min(n, start + size)
        if update:
            sums[c, :, :] = 0.0
            wsums[c, :] = 0.0
        for i in range(start, stop):
            lab = labels[i]
            ub = upper[i] + shift[lab]
            for j in range(k):
                lb = lower[i, j] - shift[j]
                lower[i, j] = lb if lb > 0.0 else 0.0
            if next_dist[lab] < ub:
                tight = False
                for j in range(k):
                    if j != lab and ub > lower[i, j] and ub > half_dist[lab, j]:
                        if not tight:
                            ub = math.sqrt(_sq_dist(X, i, centers, lab))
                            lower[i, lab] = ub
                            tight = True
                            if not (ub > lower[i, j] and ub > half_dist[lab, j]):
                                continue
                        d = math.sqrt(_sq_dist(X, i, centers, j))
                        lower[i, j] = d
                        if d < ub:
                            lab = j
                            ub = d
            labels[i] = lab
            upper[i] = ub
            if update:
                w = sample_weight[i]
                wsums[c, lab] += w
                for f in range(p):
                    sums[c, lab, f] += w * X[i, f]


@njit(cache=True, nogil=True, parallel=True)
def chunk_inertia(X, sample_weight, centers, labels, out):
    """Per-chunk Σ w ||x - c_label||² into ``out`` (n_chunks,)."""
    n = X.shape[0]
    size, n_chunks = chunk_layout(n)
    for c in prange(n_chunks):
        s = 0.0
        for i in range(c * size, min(n, (c + 1) * size)):
            s += sample_weight[i] * _sq_dist(X, i, centers, labels[i])
        out[c] = s


@njit(cache=True, nogil=True, parallel=True)
def kpp_trials(X, x_sq, sample_weight, cand_t, cand_sq, closest, dist_out, pot_out):
    """k-means++ trials: clipped squared distances to candidate points and their potentials.

    Parameters
    ----------
    X : (n, p); x_sq : (n,), squared row norms; sample_weight : (n,);
    cand_t : (p, m), the candidate points transposed; cand_sq : (m,), their squared norms;
    closest : (n,), current squared distance of every row to its nearest chosen centre
    (+inf before the first centre).
    dist_out : (m, n), output: min(closest, ||x - candidate||²) (expanded, clipped at 0).
    pot_out : (n_chunks, m), output: per chunk, Σ_i w_i dist_out[t, i].
    """
    n = X.shape[0]
    m = cand_t.shape[1]
    size, n_chunks = chunk_layout(n)
    for c in prange(n_chunks):
        for t in range(m):
            pot_out[c, t] = 0.0
        stop = min(n, (c + 1) * size)
        buf = np.empty((_TILE, m))
        for t0 in range(c * size, stop, _TILE):
            t1 = min(stop, t0 + _TILE)
            dots = buf[: t1 - t0]
            np.dot(X[t0:t1], cand_t, dots)
            for r in range(t1 - t0):
                i = t0 + r
                w = sample_weight[i]
                for t in range(m):
                    d = x_sq[i] + cand_sq[t] - 2.0 * dots[r, t]
                    if d < 0.0:
                        d = 0.0
                    if closest[i] < d:
                        d = closest[i]
                    dist_out[t, i] = d
                    pot_out[c, t] += w * d


@njit(cache=True, nogil=True)
def _searchsorted_left(a, v):
    """First index i with a[i] >= v (len(a) when none), as numpy's searchsorted."""
    lo, hi = 0, a.shape[0]
    while lo < hi:
        mid = (lo + hi) >> 1
        if a[mid] < v:
            lo = mid + 1
        else:
            hi = mid
    return lo


@njit(cache=True, nogil=True)
def kpp_seed(X, x_sq, sample_weight, first, uniforms, indices):
    """Greedy k-means++ seeding after the first centre, in one call.

    Parameters
    ----------
    X : (n, p); x_sq : (n,), squared row norms; sample_weight : (n,).
    first : index of the first centre (drawn by the caller).
    uniforms : (k - 1, m) uniform [0, 1) draws, row c for centre c + 1 (the
        ``m`` local trials); drawn at once they equal successive draws.
    indices : (k,) intp, output: the chosen rows, ``indices[0] = first``.

    Each centre draws its ``m`` candidates with probability proportional to
    w_i D(x_i)² (inverse CDF on the running sum, as ``searchsorted``) and
    keeps the one with the lowest resulting potential; distances come from
    :func:`kpp_trials` (threaded).
    """
    n = X.shape[0]
    n_centers = indices.shape[0]
    m = uniforms.shape[1]
    size, n_chunks = chunk_layout(n)
    closest = np.full(n, np.inf)
    dist = np.empty((m, n))
    pots = np.empty((n_chunks, m))
    cumulative = np.empty(n)
    totals = np.empty(m)
    indices[0] = first
    dist1 = np.empty((1, n))
    pots1 = np.empty((n_chunks, 1))
    kpp_trials(X, x_sq, sample_weight, np.ascontiguousarray(X[first:first + 1].T),
               x_sq[first:first + 1], closest, dist1, pots1)
    closest[:] = dist1[0]
    potential = 0.0
    for c in range(n_chunks):
        potential += pots1[c, 0]
    cand = np.empty(m, dtype=np.intp)
    for c in range(1, n_centers):
        acc = 0.0
        for i in range(n):
            acc += sample_weight[i] * closest[i]
            cumulative[i] = acc
        for t in range(m):
            cand[t] = min(_searchsorted_left(cumulative, uniforms[c - 1, t] * potential), n - 1)
        cand_t = np.empty((X.shape[1], m))
        cand_sq = np.empty(m)
        for t in range(m):
            cand_sq[t] = x_sq[cand[t]]
            for f in range(X.shape[1]):
                cand_t[f, t] = X[cand[t], f]
        kpp_trials(X, x_sq, sample_weight, cand_t, cand_sq, closest, dist, pots)
        for t in range(m):
            totals[t] = 0.0
        for ch in range(n_chunks):
            for t in range(m):
                totals[t] += pots[ch, t]
        best = 0
        for t in range(1, m):
            if totals[t] < totals[best]:
                best = t
        potential = totals[best]
        closest[:] = dist[best]
        indices[c] = cand[best]


@njit(cache=True, nogil=True)
def weighted_pick(sample_weight, total, u):
    """The row ``RandomState.choice(n, p=sample_weight / total)`` returns for the draw ``u``.

    The same arithmetic as numpy's legacy ``choice``: the cumulative sum of
    the probabilities, normalised by its last value, searched (side right)
    for ``u``. Weights must be non-negative.
    """
    n = sample_weight.shape[0]
    last = 0.0
    for i in range(n):
        last += sample_weight[i] / total
    acc = 0.0
    for i in range(n):
        acc += sample_weight[i] / total
        if acc / last > u:
            return i
    return n - 1  # unreachable for u < 1 and finite weights with a positive sum


@njit(cache=True, nogil=True, parallel=True)
def centre_rows(X, out):
    """``out = X - mean`` (column means over fixed chunks); returns (mean, Σ out²)."""
    n, p = X.shape
    size, n_chunks = chunk_layout(n)
    part = np.zeros((n_chunks, p))
    for c in prange(n_chunks):
        for i in range(c * size, min(n, (c + 1) * size)):
            for f in range(p):
                part[c, f] += X[i, f]
    mean = np.zeros(p)
    for c in range(n_chunks):
        for f in range(p):
            mean[f] += part[c, f]
    for f in range(p):
        mean[f] /= n
    sq = np.zeros(n_chunks)
    for c in prange(n_chunks):
        s = 0.0
        for i in range(c * size, min(n, (c + 1) * size)):
            for f in range(p):
                d = X[i, f] - mean[f]
                out[i, f] = d
                s += d * d
        sq[c] = s
    total = 0.0
    for c in range(n_chunks):
        total += sq[c]
    return mean, total
