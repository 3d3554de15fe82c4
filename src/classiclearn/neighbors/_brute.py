"""Brute-force neighbour search (seed 000 §3): every query against every training row.

Euclidean and cosine distances use BLAS: for a block of queries ``Q_b`` and a
chunk of training rows ``Y_c`` one GEMM gives ``Q_b Y_c^T``, and a numba kernel
folds ``|y|^2 - 2 <q, y>`` (``-<q, y>`` for unit rows) straight into a bounded
top-k heap per query, so memory stays at one tile whatever the data size. The
``k`` survivors get their distance recomputed exactly. Other metrics scan the
training rows in numba, stopping each distance early once it cannot enter the
heap. Radius queries build a tile of full rows per query block, count, then
fill.
"""

import numpy as np

from .._kernels.distances import COSINE, EUCLIDEAN
from . import _brute_kernels as _k
from ._metrics import PRECOMPUTED, to_reduced

# Query rows per block and training rows per chunk for the fused GEMM + top-k.
_QUERY_BLOCK = 256
_TRAIN_CHUNK = 4096
# Elements of one radius tile (float64): 32 MB.
_RADIUS_TILE = 1 << 22
_EPS = np.finfo(np.float64).eps


def unit_rows(X):
    """Rows scaled to unit euclidean length (zero rows stay zero), a new array."""
    norms = np.sqrt(np.einsum("ij,ij->i", X, X))
    norms[norms == 0.0] = 1.0
    return X / norms[:, None]


def squared_norms(X):
    """Squared euclidean norm of every row."""
    return np.einsum("ij,ij->i", X, X)


def _gemm_knn(Q, Y, k, code, p, add, scale):
    m = Q.shape[0]
    n = Y.shape[0]
    dist = np.empty((m, k))
    ind = np.empty((m, k), dtype=np.intp)
    chunk = min(n, max(_TRAIN_CHUNK, k))
    block = min(m, _QUERY_BLOCK)
    buf = np.empty(block * chunk)
    for q0 in range(0, m, block):
        q1 = min(m, q0 + block)
        Qb = Q[q0:q1]
        hd = np.full((q1 - q0, k), np.inf)
        hi = np.full((q1 - q0, k), n, dtype=np.intp)
        for c0 in range(0, n, chunk):
            c1 = min(n, c0 + chunk)
            tile = buf[: (q1 - q0) * (c1 - c0)].reshape(q1 - q0, c1 - c0)
            np.dot(Qb, Y[c0:c1].T, out=tile)
            _k.tile_update_heaps(tile, add, scale, c0, hd, hi)
        _k.finalize_heaps(Qb, Y, hd, hi, code, p, True)
        dist[q0:q1] = hd
        ind[q0:q1] = hi
    return dist, ind


def _precomputed_knn(D, k):
    m, n = D.shape
    dist = np.empty((m, k))
    ind = np.empty((m, k), dtype=np.intp)
    add = np.zeros(n)
    block = max(1, min(m, _RADIUS_TILE // max(n, 1)))
    for q0 in range(0, m, block):
        q1 = min(m, q0 + block)
        hd = np.full((q1 - q0, k), np.inf)
        hi = np.full((q1 - q0, k), n, dtype=np.intp)
        _k.tile_update_heaps(D[q0:q1], add, 1.0, 0, hd, hi)
        _k.finalize_heaps(D[q0:q1], D[q0:q1], hd, hi, PRECOMPUTED, 2.0, False)
        dist[q0:q1] = hd
        ind[q0:q1] = hi
    return dist, ind


def brute_kneighbors(Q, Y, k, code, p, *, Y_sqnorm=None, Y_unit=None):
    """k nearest rows of ``Y`` for every row of ``Q``.

    Parameters
    ----------
    Q : ndarray (m, d) float64 C-contiguous; for ``code == PRECOMPUTED`` and a
        precomputed search, pass the distance matrix (m, n) as ``Q`` and
        ``Y=None``.
    Y : ndarray (n, d) float64 C-contiguous, or None (precomputed).
    k : int, 1 <= k <= n.
    code, p : metric code and Minkowski exponent.
    Y_sqnorm, Y_unit : optional cached ``squared_norms(Y)`` / ``unit_rows(Y)``.

    Returns
    -------
    dist : (m, k) float64, ascending; ind : (m, k) intp; ties by index.
    """
    if Y is None:
        return _precomputed_knn(Q, k)
    if code == EUCLIDEAN:
        add = squared_norms(Y) if Y_sqnorm is None else Y_sqnorm
        return _gemm_knn(Q, Y, k, code, p, add, -2.0)
    if code == COSINE:
        Yu = unit_rows(Y) if Y_unit is None else Y_unit
        return _gemm_knn(unit_rows(Q), Yu, k, code, p, np.zeros(Y.shape[0]), -1.0)
    return _k.scan_knn(Q, Y, k, code, p)


def brute_radius(Q, Y, r, code, p, *, sort_results=False, Y_sqnorm=None, Y_unit=None):
    """Rows of ``Y`` within distance ``r[i]`` of each ``Q[i]`` (flat CSR-like output).

    ``Y=None`` means ``Q`` is a precomputed (m, n) distance matrix.

    Returns
    -------
    ind : intp (total,), ascending training index within each query (or by
        (distance, index) with ``sort_results``);
    dist : float64 (total,);
    offsets : intp (m + 1,).
    """
    m = Q.shape[0]
    n = Q.shape[1] if Y is None else Y.shape[0]
    r = np.broadcast_to(np.asarray(r, dtype=np.float64), (m,))
    if Y is None:
        r_red = r
    else:
        r_red = to_reduced(r, code, p)
    zeros_n = np.zeros(n)
    if code == EUCLIDEAN and Y is not None:
        add = squared_norms(Y) if Y_sqnorm is None else Y_sqnorm
        Qn = squared_norms(Q)
        slack_all = 4.0 * (Q.shape[1] + 4) * _EPS * (Qn + (add.max() if n else 0.0))
        Qx, Yx, scale, recompute = Q, Y, -2.0, True
    elif code == COSINE and Y is not None:
        add = np.ones(n)
        Qn = np.zeros(m)
        slack_all = np.full(m, 4.0 * (Q.shape[1] + 4) * _EPS)
        Qx, Yx, scale, recompute = unit_rows(Q), (unit_rows(Y) if Y_unit is None else Y_unit), -1.0, True
    else:
        add = zeros_n
        Qn = np.zeros(m)
        slack_all = np.zeros(m)
        Qx, Yx, scale, recompute = Q, Y, 1.0, False
    block = max(1, min(m, _RADIUS_TILE // max(n, 1)))
    parts_i, parts_d, parts_c = [], [], []
    for q0 in range(0, m, block):
        q1 = min(m, q0 + block)
        if Y is None:
            tile = Q[q0:q1]
        elif recompute:
            tile = Qx[q0:q1] @ Yx.T
        else:
            tile = _k.pairwise_reduced(Qx[q0:q1], Yx, code, p)
        args = (tile, add, scale, Qn[q0:q1], r_red[q0:q1], slack_all[q0:q1],
                Qx[q0:q1], Yx if Yx is not None else Qx[q0:q1], code, p, recompute)
        counts = _k.tile_radius_count(*args)
        offsets = np.zeros(q1 - q0 + 1, dtype=np.intp)
        np.cumsum(counts, out=offsets[1:])
        ind, dist = _k.tile_radius_fill(*args, offsets)
        parts_i.append(ind)
        parts_d.append(dist)
        parts_c.append(counts)
    counts = np.concatenate(parts_c) if parts_c else np.zeros(0, dtype=np.intp)
    offsets = np.zeros(m + 1, dtype=np.intp)
    np.cumsum(counts, out=offsets[1:])
    ind = np.concatenate(parts_i) if parts_i else np.zeros(0, dtype=np.intp)
    dist = np.concatenate(parts_d) if parts_d else np.zeros(0)
    if sort_results:
        _k.sort_segments(ind, dist, offsets)
    return ind, dist, offsets
