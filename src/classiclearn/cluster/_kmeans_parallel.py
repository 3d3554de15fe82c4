"""k-means|| seeding (Bahmani et al., "Scalable k-means++", 2012).

Greedy k-means++ picks one centre per pass over the data; on data split into
blocks (Dask) that is ``n_clusters`` passes. k-means|| instead samples many
candidates per pass, each row independently with probability
``min(1, l w D(x)² / φ)`` (``l = 2 n_clusters``, ``φ = Σ w D²``), for a fixed
number of rounds, then weights every candidate by the weight of the rows
closest to it and reclusters the few weighted candidates in memory (greedy
k-means++, then Lloyd's iterations). It is an approximation of k-means++ and
runs only when asked for (``KMeans(init="k-means||")``).

The random numbers are a hash of ``random_state``, the round and the global
row index, not a stream consumed block by block: the sample does not depend
on how the rows are split into blocks (in memory, one block) nor on which
worker ran which block, only on the data and the seed.

Every pass is written against ``run(block_fn, merge_fn)``: ``block_fn(Xc, w,
start)`` gets one block of centred rows, their weights and the global index
of its first row; ``merge_fn`` merges two blocks' results in block order.
"""

import numpy as np
import scipy.sparse as sp

from ..utils._sparse import row_squared_norms

__all__ = ["N_ROUNDS", "kmeans_parallel", "row_uniforms"]

N_ROUNDS = 5
_ROW_CHUNK = 4096
_MASK53 = np.uint64((1 << 53) - 1)


def row_uniforms(key, start, stop):
    """Uniform floats in [0, 1) for rows ``start..stop-1``: splitmix64 of ``key + row``.

    Examples
    --------
    >>> a = row_uniforms(7, 0, 5)
    >>> bool(np.all(row_uniforms(7, 2, 5) == a[2:])), bool(np.all((a >= 0) & (a < 1)))
    (True, True)
    """
    z = np.arange(start, stop, dtype=np.uint64) + np.uint64(key % (1 << 64))
    z += np.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z ^= z >> np.uint64(31)
    return (z >> np.uint64(11)).astype(np.float64) * (1.0 / (1 << 53))


def _dense(rows):
    """Selected rows (a few candidates) as a dense array; sparse X stays sparse otherwise."""
    return rows.toarray() if sp.issparse(rows) else rows


def _closest(Xc, centers):
    """Squared distance to, and index of, each row's nearest centre (rows in chunks)."""
    n = Xc.shape[0]
    dist = np.empty(n)
    index = np.empty(n, dtype=np.intp)
    c_sq = np.einsum("ij,ij->i", centers, centers)
    for lo in range(0, n, _ROW_CHUNK):
        block = Xc[lo:lo + _ROW_CHUNK]
        d = (row_squared_norms(block)[:, None] + c_sq[None, :]
             - 2.0 * np.asarray(block @ centers.T))
        rows = block.shape[0]
        index[lo:lo + rows] = np.argmin(d, axis=1)
        dist[lo:lo + rows] = np.maximum(d[np.arange(rows), index[lo:lo + rows]], 0.0)
    return dist, index


def _first_centre(run, key):
    """One row drawn with probability proportional to its weight: the row with the
    smallest -log(u) / w (exponential race; chunk-independent)."""

    def block(Xc, w, start):
        keys = np.full(len(w), np.inf)
        positive = w > 0
        keys[positive] = -np.log1p(-row_uniforms(key, start, start + len(w))[positive]) / w[positive]
        if len(keys) == 0 or not np.isfinite(keys).any():
            return (np.inf, None)
        i = int(np.argmin(keys))
        return (float(keys[i]), _dense(Xc[[i]])[0].copy())

    best = run(block, lambda a, b: b if b[0] < a[0] else a)
    return best[1][None, :]


def _cost(run, centers):
    def block(Xc, w, start):
        return float(np.sum(w * _closest(Xc, centers)[0])) if len(w) else 0.0

    return run(block, lambda a, b: a + b)


def _sample(run, centers, key, scale):
    """Rows drawn with probability min(1, scale w D²), as a (m, p) array."""

    def block(Xc, w, start):
        if len(w) == 0:
            return [_dense(Xc[:0])]
        u = row_uniforms(key, start, start + len(w))
        drawn = u < scale * w * _closest(Xc, centers)[0]
        return [_dense(Xc[np.flatnonzero(drawn)])]

    parts = run(block, lambda a, b: a + b)
    return np.vstack(parts)


def _weights(run, candidates):
    def block(Xc, w, start):
        if len(w) == 0:
            return np.zeros(len(candidates))
        return np.bincount(_closest(Xc, candidates)[1], weights=w, minlength=len(candidates))

    return run(block, lambda a, b: a + b)


def _round_keys(rng):
    base = int(rng.randint(0, 2**62))
    return [base + (r << 48) for r in range(N_ROUNDS + 2)]


def kmeans_parallel(run, n_clusters, rng, recluster):
    """k-means|| centres (in the blocks' centred coordinates).

    Parameters
    ----------
    run : callable
        ``run(block_fn, merge_fn)``, see the module docstring.
    n_clusters : int
    rng : numpy.random.RandomState
        One integer is drawn from it (the hash key).
    recluster : callable
        ``recluster(candidates, weights, n_clusters, rng) -> centres``: the
        in-memory weighted k-means of the candidates.

    Returns
    -------
    ndarray of shape (n_clusters, n_features)
    """
    keys = _round_keys(rng)
    oversampling = 2.0 * n_clusters
    candidates = _first_centre(run, keys[0])
    for r in range(1, N_ROUNDS + 1):
        phi = _cost(run, candidates)
        if not phi > 0.0:  # every row sits on a candidate
            break
        drawn = _sample(run, candidates, keys[r], oversampling / phi)
        candidates = np.vstack([candidates, drawn])
    candidates = np.unique(candidates, axis=0)
    weights = _weights(run, candidates)
    keep = weights > 0
    candidates, weights = candidates[keep], weights[keep]
    if len(candidates) <= n_clusters:
        # fewer distinct candidates than clusters: every one is a centre, the
        # rest repeat the heaviest (KMeans then reports the duplicate points)
        extra = np.argsort(-weights, kind="stable")[: n_clusters - len(candidates)]
        fill = np.resize(candidates[extra] if len(extra) else candidates,
                         (n_clusters - len(candidates), candidates.shape[1]))
        return np.vstack([candidates, fill])
    return recluster(np.ascontiguousarray(candidates), weights, n_clusters, rng)
