"""numba kernels for k-means: fused assign + update passes (Lloyd, Elkan) and k-means++ trials.

Every pass works on a fixed partition of the rows into chunks that depends only
on the number of rows (see :func:`chunk_layout`), never on the number of
threads. Each chunk writes its own partial sums; the caller adds the chunk
rows in order, so results are identical for every thread count.
All kernels take float64 C-contiguous arrays, write only their outputs and
are thread-safe.

Sparse input: the Elkan, inertia and k-means++ kernels take the samples as a
tuple ``rows = (X, data, indices, indptr, x_sq)``: dense X with the empty
uint8 arrays :data:`DENSE_MARK` in place of the CSR index arrays, or an empty
(0, p) X with the CSR arrays (intp indices) and the squared row norms. The
marker's type makes dense and sparse rows two compiled specialisations, each
compiled when first used, in which :func:`_is_dense` is a constant: the dense
one carries none of the sparse code (which made the Elkan pass slower).
Lloyd's pass and the assignment have sparse twins (``sparse_*``),
whose dot products gather the transposed centres at each non-zero.

Arrays are copied with loops, never by assigning an array to a slice: numba
compiles a shape-error formatter for each such assignment, which is most of
the first call's compile time of a small kernel.
"""

import math

import numpy as np
from numba import types
from numba.extending import overload

from .._kernels.jit import njit, prange

# the index arrays of dense rows (see the module docstring)
DENSE_MARK = np.empty(0, dtype=np.uint8)


def _is_dense(rows):
    """Compiled code only: True (a constant) when ``rows`` are dense samples."""
    raise NotImplementedError("compiled code only")


@overload(_is_dense, inline="always")
def _select_is_dense(rows):
    flag = rows[3].dtype == types.uint8

    def constant(rows):
        return flag

    return constant


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


@njit(cache=True, nogil=True, inline="always")
def _row_sq_dist(rows, i, C, c_sq, j):
    """||x_i - c_j||²: exact for dense rows; ||x||² + ||c||² - 2 <x, c> (clipped
    at 0) over the non-zeros of a sparse row."""
    X, data, indices, indptr, x_sq = rows
    if _is_dense(rows):
        return _sq_dist(X, i, C, j)
    s = 0.0
    for q in range(indptr[i], indptr[i + 1]):
        s += data[q] * C[j, indices[q]]
    d = x_sq[i] + c_sq[j] - 2.0 * s
    return d if d > 0.0 else 0.0


@njit(cache=True, nogil=True, inline="always")
def _add_row(rows, i, w, sums, c, j):
    """sums[c, j] += w x_i (dense or sparse row)."""
    X, data, indices, indptr, _ = rows
    if _is_dense(rows):
        for f in range(X.shape[1]):
            sums[c, j, f] += w * X[i, f]
    else:
        for q in range(indptr[i], indptr[i + 1]):
            sums[c, j, indices[q]] += w * data[q]


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


@njit(cache=True, nogil=True, inline="always")
def _shifted_tile_dots(X, origin, t0, rows, centers_t, rows_buf, buf):
    """Rows ``t0:t0 + rows`` of X - ``origin`` into ``rows_buf`` and their dot
    products with the centres into ``buf``; returns the filled part of ``buf``."""
    for r in range(rows):
        for f in range(X.shape[1]):
            rows_buf[r, f] = X[t0 + r, f] - origin[f]
    dots = buf[:rows]
    np.dot(rows_buf[:rows], centers_t, dots)
    return dots


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
            dots = _shifted_tile_dots(X, origin, t0, rows, centers_t, rows_buf, buf)
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
    k = centers_t.shape[1]
    size, n_chunks = chunk_layout(X.shape[0])
    for c in prange(n_chunks):
        buf = np.empty((_TILE, k))  # one product buffer per chunk, not per tile
        _lloyd_chunk(X, sample_weight, centers_t, centers_sq, labels, sums, wsums, c, size,
                     buf)


@njit(cache=True, nogil=True, inline="always")
def _lloyd_chunk(X, sample_weight, centers_t, centers_sq, labels, sums, wsums, c, size, buf):
    """Chunk ``c`` (rows ``c * size`` on) of :func:`lloyd_pass`; ``buf``: (_TILE, k)."""
    n, p = X.shape
    k = centers_t.shape[1]
    start = c * size
    stop = min(n, start + size)
    for j in range(k):
        wsums[c, j] = 0.0
        for f in range(p):
            sums[c, j, f] = 0.0
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


@njit(cache=True, nogil=True, inline="always")
def _empty_clusters(weights):
    """Indices of the clusters of zero weight, ascending."""
    n_empty = 0
    for j in range(weights.shape[0]):
        n_empty += weights[j] == 0.0
    empty = np.empty(n_empty, dtype=np.intp)
    e = 0
    for j in range(weights.shape[0]):
        if weights[j] == 0.0:
            empty[e] = j
            e += 1
    return empty


@njit(cache=True, nogil=True)
def _relocate_empty_serial(X, sample_weight, centers, total, weights, labels):
    """The empty clusters (ascending) take the rows farthest from their centres (in
    descending distance, ties by row), as ``_kmeans._relocate_empty`` moves them."""
    n, p = X.shape
    empty = _empty_clusters(weights)
    n_empty = empty.shape[0]
    if n_empty == 0:
        return
    far = np.empty(n)
    for i in range(n):
        d = 0.0
        for f in range(p):
            t = X[i, f] - centers[labels[i], f]
            d += t * t
        far[i] = -d
    order = np.argsort(far, kind="mergesort")
    for e in range(n_empty):
        new_id = empty[e]
        idx = order[e]
        w = sample_weight[idx]
        old_id = labels[idx]
        for f in range(p):
            total[old_id, f] -= w * X[idx, f]
            total[new_id, f] = w * X[idx, f]
        weights[new_id] = w
        weights[old_id] -= w


@njit(cache=True, nogil=True)
def lloyd_serial(X, sample_weight, centers, max_passes, tol, labels, labels_old, sums, wsums):
    """Up to ``max_passes`` Lloyd iterations on the calling thread, each as the loop of
    ``_kmeans._kmeans_single`` runs it (the pass of :func:`lloyd_pass` chunk by chunk,
    the chunks' sums added in order, empty clusters relocated, the centres moved), for
    loops too small for threads, whose Python steps between passes cost more than the
    passes. ``centers`` (k, p) is updated in place, ``labels`` holds the last pass's and
    ``labels_old`` the previous pass's labels.

    Returns (passes, stop): stop 1 when a pass left every label as it was, 2 when the
    centres moved by at most ``tol`` (sum of squared shifts), 0 otherwise.
    """
    n, p = X.shape
    k = centers.shape[0]
    size, n_chunks = chunk_layout(n)
    buf = np.empty((_TILE, k))
    centers_t = np.empty((p, k))
    centers_sq = np.empty(k)
    total = np.empty((k, p))
    weights = np.empty(k)
    for it in range(max_passes):
        _transpose_centres(centers, centers_t, centers_sq)
        for c in range(n_chunks):
            _lloyd_chunk(X, sample_weight, centers_t, centers_sq, labels, sums, wsums, c, size,
                         buf)
        _add_chunks(sums, wsums, total, weights)
        _relocate_empty_serial(X, sample_weight, centers, total, weights, labels)
        stop = _move_centres(centers, total, weights, labels, labels_old, tol)
        if stop:
            return it + 1, stop
    return max_passes, 0


@njit(cache=True, nogil=True)
def sparse_lloyd_serial(data, indices, indptr, x_sq, sample_weight, centers, max_passes, tol,
                        labels, labels_old, sums, wsums, size):
    """:func:`lloyd_serial` on CSR rows (``indices``, ``indptr`` intp; ``x_sq`` their
    squared norms): the passes of :func:`sparse_lloyd_pass` with its chunks (``size``
    rows each, ``sums.shape[0]`` of them), the steps between them as
    ``_kmeans._kmeans_single`` takes them."""
    k, p = centers.shape
    buf = np.empty((_TILE, k))
    centers_t = np.empty((p, k))
    centers_sq = np.empty(k)
    total = np.empty((k, p))
    weights = np.empty(k)
    for it in range(max_passes):
        _transpose_centres(centers, centers_t, centers_sq)
        for c in range(sums.shape[0]):
            _sparse_lloyd_chunk(data, indices, indptr, sample_weight, centers_t, centers_sq,
                                labels, sums, wsums, c, size, buf)
        _add_chunks(sums, wsums, total, weights)
        _relocate_empty_sparse_serial(data, indices, indptr, x_sq, sample_weight, centers,
                                      total, weights, labels)
        stop = _move_centres(centers, total, weights, labels, labels_old, tol)
        if stop:
            return it + 1, stop
    return max_passes, 0


@njit(cache=True, nogil=True, inline="always")
def _transpose_centres(centers, centers_t, centers_sq):
    """``centers_t`` = centresᵀ (p, k) and ``centers_sq`` their squared norms."""
    k, p = centers.shape
    for j in range(k):
        sq = 0.0
        for f in range(p):
            centers_t[f, j] = centers[j, f]
            sq += centers[j, f] * centers[j, f]
        centers_sq[j] = sq


@njit(cache=True, nogil=True, inline="always")
def _add_chunks(sums, wsums, total, weights):
    """``total`` / ``weights``: the chunks' sums and weights added in chunk order."""
    total[:] = 0.0
    weights[:] = 0.0
    for c in range(sums.shape[0]):
        for j in range(sums.shape[1]):
            weights[j] += wsums[c, j]
            for f in range(sums.shape[2]):
                total[j, f] += sums[c, j, f]


@njit(cache=True, nogil=True, inline="always")
def _move_centres(centers, total, weights, labels, labels_old, tol):
    """Centres to their clusters' means (in place; an empty one stays); returns 1 when
    no label changed since ``labels_old``, 2 when the centres moved by at most ``tol``
    (sum of squared shifts), else 0 after copying ``labels`` to ``labels_old``."""
    k, p = centers.shape
    moved = 0.0
    for j in range(k):
        if weights[j] > 0.0:
            shift = 0.0
            for f in range(p):
                new = total[j, f] / weights[j]
                t = new - centers[j, f]
                shift += t * t
                centers[j, f] = new
            moved += shift
    same = True
    for i in range(labels.shape[0]):
        if labels[i] != labels_old[i]:
            same = False
            break
    if same:
        return 1
    if moved <= tol:
        return 2
    for i in range(labels.shape[0]):
        labels_old[i] = labels[i]
    return 0


@njit(cache=True, nogil=True, parallel=True)
def lloyd_pass_shifted(X, origin, sample_weight, centers_t, centers_sq, labels, sums, wsums):
    """:func:`lloyd_pass` on the rows of X - ``origin`` without a shifted copy of X.

    Each tile is shifted into a small buffer before its BLAS product, so the
    shifted rows, labels and sums are bit for bit those of ``lloyd_pass`` on
    ``X - origin``. For a row block of a Dask collection, which would otherwise
    be centred again in every pass.
    """
    n, p = X.shape
    k = centers_t.shape[1]
    size, n_chunks = chunk_layout(n)
    for c in prange(n_chunks):
        stop = min(n, (c + 1) * size)
        rows_buf = np.empty((_TILE, p))
        buf = np.empty((_TILE, k))
        for j in range(k):
            wsums[c, j] = 0.0
            for f in range(p):
                sums[c, j, f] = 0.0
        for t0 in range(c * size, stop, _TILE):
            rows = min(stop, t0 + _TILE) - t0
            dots = _shifted_tile_dots(X, origin, t0, rows, centers_t, rows_buf, buf)
            for r in range(rows):
                bj = _nearest(dots, r, centers_sq)
                labels[t0 + r] = bj
                w = sample_weight[t0 + r]
                wsums[c, bj] += w
                for f in range(p):
                    sums[c, bj, f] += w * rows_buf[r, f]


@njit(cache=True, nogil=True, inline="always")
def _sparse_dots(data, indices, indptr, t0, t1, points_t, dots):
    """dots[r] = x_{t0 + r} · points (``points_t`` (p, m)) for the CSR rows t0:t1."""
    m = points_t.shape[1]
    for r in range(t1 - t0):
        for t in range(m):
            dots[r, t] = 0.0
        for q in range(indptr[t0 + r], indptr[t0 + r + 1]):
            v = data[q]
            pt = points_t[indices[q]]
            for t in range(m):
                dots[r, t] += v * pt[t]


@njit(cache=True, nogil=True, parallel=True)
def sparse_lloyd_pass(data, indices, indptr, sample_weight, centers_t, centers_sq, labels, sums,
                      wsums, size):
    """:func:`lloyd_pass` on CSR rows (``indices``, ``indptr`` intp): the dot
    products with the centres gather ``centers_t`` rows at the non-zeros, and
    the per-chunk sums add the non-zeros only. The chunks are ``size`` rows
    each, ``sums.shape[0]`` of them (the caller keeps them few: each chunk's
    sums are k x p, large next to sparse rows)."""
    k = centers_t.shape[1]
    for c in prange(sums.shape[0]):
        buf = np.empty((_TILE, k))
        _sparse_lloyd_chunk(data, indices, indptr, sample_weight, centers_t, centers_sq,
                            labels, sums, wsums, c, size, buf)


@njit(cache=True, nogil=True, inline="always")
def _sparse_lloyd_chunk(data, indices, indptr, sample_weight, centers_t, centers_sq, labels,
                        sums, wsums, c, size, buf):
    """Chunk ``c`` (rows ``c * size`` on) of :func:`sparse_lloyd_pass`; ``buf``:
    (_TILE, k)."""
    n = labels.shape[0]
    k = centers_t.shape[1]
    start = c * size
    stop = min(n, start + size)
    for j in range(k):
        wsums[c, j] = 0.0
        for f in range(sums.shape[2]):
            sums[c, j, f] = 0.0
    for t0 in range(start, stop, _TILE):
        t1 = min(stop, t0 + _TILE)
        dots = buf[: t1 - t0]
        _sparse_dots(data, indices, indptr, t0, t1, centers_t, dots)
        for r in range(t1 - t0):
            bj = _nearest(dots, r, centers_sq)
            i = t0 + r
            labels[i] = bj
            w = sample_weight[i]
            wsums[c, bj] += w
            for q in range(indptr[i], indptr[i + 1]):
                sums[c, bj, indices[q]] += w * data[q]


@njit(cache=True, nogil=True)
def _relocate_empty_sparse_serial(data, indices, indptr, x_sq, sample_weight, centers, total,
                                  weights, labels):
    """:func:`_relocate_empty_serial` on CSR rows: the distances to the centres from the
    non-zeros (``||x||^2 - 2 <x, c> + ||c||^2``, as ``_kmeans._relocate_empty`` forms
    them), the moved rows' non-zeros taken from one centre's sums and given to the
    other."""
    n = labels.shape[0]
    k, p = centers.shape
    empty = _empty_clusters(weights)
    n_empty = empty.shape[0]
    if n_empty == 0:
        return
    c_sq = np.empty(k)
    for j in range(k):
        sq = 0.0
        for f in range(p):
            sq += centers[j, f] * centers[j, f]
        c_sq[j] = sq
    far = np.empty(n)
    for i in range(n):
        dot = 0.0
        for q in range(indptr[i], indptr[i + 1]):
            dot += data[q] * centers[labels[i], indices[q]]
        far[i] = -(x_sq[i] - 2.0 * dot + c_sq[labels[i]])
    order = np.argsort(far, kind="mergesort")
    for e in range(n_empty):
        new_id = empty[e]
        idx = order[e]
        w = sample_weight[idx]
        old_id = labels[idx]
        for f in range(p):
            total[new_id, f] = 0.0
        for q in range(indptr[idx], indptr[idx + 1]):
            total[old_id, indices[q]] -= w * data[q]
            total[new_id, indices[q]] = w * data[q]
        weights[new_id] = w
        weights[old_id] -= w


@njit(cache=True, nogil=True, parallel=True)
def sparse_assign(data, indices, indptr, x_sq, sample_weight, centers_t, centers_sq, labels,
                  inertia_out):
    """Nearest centre of every CSR row (no centring: sparse rows stay sparse),
    and per chunk Σ w (||x||² + ||c||² - 2 <x, c>) (clipped at 0) into
    ``inertia_out`` when it has n_chunks entries (else skipped)."""
    n = labels.shape[0]
    k = centers_t.shape[1]
    size, n_chunks = chunk_layout(n)
    with_inertia = inertia_out.shape[0] == n_chunks
    for c in prange(n_chunks):
        stop = min(n, (c + 1) * size)
        buf = np.empty((_TILE, k))
        total = 0.0
        for t0 in range(c * size, stop, _TILE):
            t1 = min(stop, t0 + _TILE)
            dots = buf[: t1 - t0]
            _sparse_dots(data, indices, indptr, t0, t1, centers_t, dots)
            for r in range(t1 - t0):
                bj = _nearest(dots, r, centers_sq)
                labels[t0 + r] = bj
                if with_inertia:
                    d = x_sq[t0 + r] + centers_sq[bj] - 2.0 * dots[r, bj]
                    total += sample_weight[t0 + r] * (d if d > 0.0 else 0.0)
        if with_inertia:
            inertia_out[c] = total


@njit(cache=True, nogil=True, parallel=True)
def elkan_init_bounds(rows, centers, c_sq, half_dist, labels, upper, lower):
    """Initial labels and Elkan bounds with the triangle inequality.

    Parameters
    ----------
    rows : the samples (see the module docstring); centers : (k, p);
    c_sq : (k,), the centres' squared norms (read for sparse rows only);
    half_dist : (k, k), half the centre-centre distances.
    labels : (n,) intp, output. upper : (n,), output: distance to the assigned centre.
    lower : (n, k), output: exact distance for every centre examined, 0 otherwise.
    """
    n = labels.shape[0]
    k = centers.shape[0]
    for i in prange(n):
        for j in range(k):
            lower[i, j] = 0.0
        best_j = 0
        best = math.sqrt(_row_sq_dist(rows, i, centers, c_sq, np.intp(0)))
        lower[i, 0] = best
        for j in range(1, k):
            if best > half_dist[best_j, j]:
                d = math.sqrt(_row_sq_dist(rows, i, centers, c_sq, j))
                lower[i, j] = d
                if d < best:
                    best = d
                    best_j = j
        labels[i] = best_j
        upper[i] = best


@njit(cache=True, nogil=True, parallel=True)
def elkan_pass(
    rows, sample_weight, centers, c_sq, half_dist, next_dist, shift, labels, upper, lower, sums,
    wsums, update, size
):
    """One Elkan assignment pass (bounds first moved by ``shift``) with per-chunk sums.

    Parameters
    ----------
    rows : the samples (see the module docstring).
    sample_weight, centers : as :func:`lloyd_pass`; c_sq : (k,), as :func:`elkan_init_bounds`.
    half_dist : (k, k), half the distances between current centres.
    next_dist : (k,), half the distance from each centre to its nearest other centre.
    shift : (k,), how far each centre moved since the bounds were last valid.
    labels, upper, lower : (n,), (n,), (n, k), updated in place (the state of the method).
    sums, wsums, update : as :func:`lloyd_pass`; ``sums.shape[0]`` chunks of ``size`` rows.
    """
    n = labels.shape[0]
    k = centers.shape[0]
    n_chunks = sums.shape[0]
    for c in prange(n_chunks):
        start = c * size
        stop = min(n, start + size)
        if update:
            for j in range(k):
                wsums[c, j] = 0.0
                for f in range(sums.shape[2]):
                    sums[c, j, f] = 0.0
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
                            ub = math.sqrt(_row_sq_dist(rows, i, centers, c_sq, lab))
                            lower[i, lab] = ub
                            tight = True
                            if not (ub > lower[i, j] and ub > half_dist[lab, j]):
                                continue
                        d = math.sqrt(_row_sq_dist(rows, i, centers, c_sq, j))
                        lower[i, j] = d
                        if d < ub:
                            lab = j
                            ub = d
            labels[i] = lab
            upper[i] = ub
            if update:
                w = sample_weight[i]
                wsums[c, lab] += w
                _add_row(rows, i, w, sums, c, lab)


@njit(cache=True, nogil=True, parallel=True)
def chunk_inertia(rows, sample_weight, centers, c_sq, labels, out):
    """Per-chunk Σ w ||x - c_label||² into ``out`` (n_chunks,); ``rows`` and
    ``c_sq`` as :func:`elkan_init_bounds`."""
    n = labels.shape[0]
    size, n_chunks = chunk_layout(n)
    for c in prange(n_chunks):
        s = 0.0
        for i in range(c * size, min(n, (c + 1) * size)):
            s += sample_weight[i] * _row_sq_dist(rows, i, centers, c_sq, labels[i])
        out[c] = s


@njit(cache=True, nogil=True, parallel=True)
def kpp_trials(rows, sample_weight, cand_t, cand_sq, closest, dist_out, pot_out):
    """k-means++ trials: clipped squared distances to candidate points and their potentials.

    Parameters
    ----------
    rows : the samples (see the module docstring; ``x_sq`` is required here);
    sample_weight : (n,);
    cand_t : (p, m), the candidate points transposed; cand_sq : (m,), their squared norms;
    closest : (n,), current squared distance of every row to its nearest chosen centre
    (+inf before the first centre).
    dist_out : (m, n), output: min(closest, ||x - candidate||²) (expanded, clipped at 0).
    pot_out : (n_chunks, m), output: per chunk, Σ_i w_i dist_out[t, i].
    """
    X, data, indices, indptr, x_sq = rows
    n = x_sq.shape[0]
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
            if _is_dense(rows):
                np.dot(X[t0:t1], cand_t, dots)
            else:
                _sparse_dots(data, indices, indptr, t0, t1, cand_t, dots)
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
def closest_sq_dist(X, centers, out):
    """``out[i]``: squared distance of row i of X to its nearest row of ``centers``
    (+inf with no centre), summed over coordinate differences."""
    n, p = X.shape
    for i in range(n):
        best = np.inf
        for j in range(centers.shape[0]):
            d = 0.0
            for f in range(p):
                t = X[i, f] - centers[j, f]
                d += t * t
            if d < best:
                best = d
        out[i] = best


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


@njit(cache=True, nogil=True, inline="always")
def _put_row(rows, i, out_t, t, keep):
    """Column t of ``out_t`` (p, m) = row i (``keep`` 1), or back to zero where
    a sparse row has entries (``keep`` 0; dense rows are simply overwritten)."""
    X, data, indices, indptr, _ = rows
    if _is_dense(rows):
        if keep != 0.0:
            for f in range(X.shape[1]):
                out_t[f, t] = X[i, f]
    else:
        for q in range(indptr[i], indptr[i + 1]):
            out_t[indices[q], t] = 0.0
        if keep != 0.0:
            for q in range(indptr[i], indptr[i + 1]):
                out_t[indices[q], t] += data[q]


@njit(cache=True, nogil=True)
def kpp_seed(rows, n_features, sample_weight, first, uniforms, indices):
    """Greedy k-means++ seeding after the first centre, in one call.

    Parameters
    ----------
    rows : the samples (see the module docstring; ``x_sq`` is required here);
    n_features : int; sample_weight : (n,).
    first : index of the first centre (drawn by the caller).
    uniforms : (k - 1, m) uniform [0, 1) draws, row c for centre c + 1 (the
        ``m`` local trials); drawn at once they equal successive draws.
    indices : (k,) intp, output: the chosen rows, ``indices[0] = first``.

    Each centre draws its ``m`` candidates with probability proportional to
    w_i D(x_i)² (inverse CDF on the running sum, as ``searchsorted``) and
    keeps the one with the lowest resulting potential; distances come from
    :func:`kpp_trials` (threaded).
    """
    X, data, indices_x, indptr, x_sq = rows
    n = x_sq.shape[0]
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
    cand_t = np.zeros((n_features, m))
    cand_sq = np.empty(m)
    first_t = np.zeros((n_features, 1))
    _put_row(rows, first, first_t, np.intp(0), 1.0)
    kpp_trials(rows, sample_weight, first_t, x_sq[first:first + 1], closest, dist1, pots1)
    for i in range(n):  # loops, not slice assignments (see the module docstring)
        closest[i] = dist1[0, i]
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
        for t in range(m):
            cand_sq[t] = x_sq[cand[t]]
            _put_row(rows, cand[t], cand_t, t, 1.0)
        kpp_trials(rows, sample_weight, cand_t, cand_sq, closest, dist, pots)
        for t in range(m):
            _put_row(rows, cand[t], cand_t, t, 0.0)
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
        for i in range(n):
            closest[i] = dist[best, i]
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
    part = np.empty((n_chunks, p))
    for c in prange(n_chunks):
        for f in range(p):
            part[c, f] = 0.0
        for i in range(c * size, min(n, (c + 1) * size)):
            for f in range(p):
                part[c, f] += X[i, f]
    mean = np.empty(p)
    for f in range(p):
        m = 0.0
        for c in range(n_chunks):
            m += part[c, f]
        mean[f] = m / n
    sq = np.empty(n_chunks)
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
