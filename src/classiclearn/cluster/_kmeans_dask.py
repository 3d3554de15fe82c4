"""k-means on Dask collections: Lloyd's iterations with one exact pass over the blocks each.

The in-memory fit's steps, with each pass over the data split into row blocks
whose partial results are merged in block order on the client:

- the column means and the total sum of squares (the data are centred on the
  means, and ``tol`` is scaled by the mean variance, as in memory);
- greedy k-means++ with the same random draws as in memory: the first centre
  by numpy's weighted pick, then per centre the candidates found by inverse
  CDF on the running sum of w D(x)² (each block searches its own share, given
  the sums of the blocks before it) and the potentials of the candidates from
  one more pass. The rows drawn are the in-memory rows unless a draw falls
  within rounding of a boundary of the running sum;
- one Lloyd pass per iteration (labels, weighted sums and weights per
  cluster), empty clusters moved to the farthest points as in memory, and
  stopping on the squared shift of the centres;
- a final assignment pass for ``inertia_`` with the final centres.

``labels_`` is a lazy Dask array (the labels of the final centres): it has
one entry per row, so it is not computed behind the user's back.
"""

import numpy as np

from ..utils._dask import as_dask_array, concat_parts, dask_blocks, reduce_blocks
from ..utils.validation import check_array
from . import _kmeans_kernels as _k
from ._kmeans_parallel import kmeans_parallel

__all__ = ["fit_kmeans_dask"]


def _block(X, w, x_mean):
    """The centred block and its weights (ones when none were given)."""
    Xc = check_array(X, dtype=np.float64, ensure_min_samples=0) - x_mean
    w = np.ones(Xc.shape[0]) if w is None else np.asarray(w, dtype=np.float64)
    return np.ascontiguousarray(Xc), w


# ------------------------------------------------------------------ moments
def _moments_block(X, w=None):
    X = check_array(X, dtype=np.float64, ensure_min_samples=0)
    n = X.shape[0]
    mean = X.mean(axis=0) if n else np.zeros(X.shape[1])
    m2 = ((X - mean) ** 2).sum(axis=0)
    total_w = float(n if w is None else np.sum(w))
    if w is not None and np.any(np.asarray(w) < 0):
        raise ValueError("Negative values in data passed to sample_weight.")
    return n, mean, m2, total_w


def _merge_moments(a, b):
    na, ma, sa, wa = a
    nb, mb, sb, wb = b
    n = na + nb
    if n == 0:
        return a
    delta = mb - ma
    return n, ma + delta * (nb / n), sa + sb + delta**2 * (na * nb / n), wa + wb


# ------------------------------------------------------------------ k-means++
def _closest(Xc, centers):
    """Squared distance of each row to its nearest centre (+inf with no centre), from
    the coordinate differences, as the in-memory k-means++ measures it."""
    out = np.empty(Xc.shape[0])
    _k.closest_sq_dist(Xc, np.ascontiguousarray(centers, dtype=np.float64), out)
    return out


def _potential_block(x_mean, centers):
    def block(X, w=None):
        Xc, w = _block(X, w, x_mean)
        return (float(np.sum(w * _closest(Xc, centers))),)

    return block


def _locate_block(x_mean, centers, targets, offsets):
    """Per block: for each target, the first row (within the block) whose running
    sum of w D² reaches it (or -1), with that row (centred)."""

    def block(X, w=None, b=0):
        Xc, w = _block(X, w, x_mean)
        values = w if centers is None else w * _closest(Xc, centers)
        cumulative = offsets[b] + np.cumsum(values)
        found = []
        for t in targets:
            i = int(np.searchsorted(cumulative, t, side="left"))
            found.append((i, Xc[i].copy()) if i < len(cumulative) else (-1, None))
        last = (Xc.shape[0] - 1, Xc[-1].copy()) if Xc.shape[0] else (-1, None)
        return [(found, last)]

    return block


def _trial_block(x_mean, chosen, candidates):
    """Per block: Σ w D² with each candidate added to the chosen centres."""

    def block(X, w=None):
        Xc, w = _block(X, w, x_mean)
        closest = _closest(Xc, chosen)
        out = np.empty(candidates.shape[0])
        for t in range(candidates.shape[0]):
            d = _closest(Xc, candidates[t:t + 1])
            out[t] = np.sum(w * np.minimum(closest, d))
        return [out]

    return block


def _with_block_index(blocks):
    return [block + (b,) for b, block in enumerate(blocks)]


def _block_sums(blocks, x_mean, centers):
    """Σ w D² of each block (or Σ w with ``centers`` None), in block order."""
    if centers is None:
        def fn(X, w=None):
            return ([float(np.sum(_block(X, w, x_mean)[1]))],)
    else:
        potential = _potential_block(x_mean, centers)

        def fn(X, w=None):
            return ([potential(X, w)[0]],)
    (sums,) = reduce_blocks(fn, lambda a, b: (a[0] + b[0],), blocks)
    return np.asarray(sums)


def _locate(blocks, x_mean, centers, targets, sums=None):
    """The rows at which the running sum over all blocks first reaches each target
    (``sums``: each block's Σ w D², when a previous pass has them)."""
    if sums is None:
        sums = _block_sums(blocks, x_mean, centers)
    offsets = np.concatenate([[0.0], np.cumsum(sums)[:-1]])
    found = reduce_blocks(_locate_block(x_mean, centers, targets, offsets), concat_parts,
                          _with_block_index(blocks))
    rows = []
    for t in range(len(targets)):
        row = next((f[0][t][1] for f in found if f[0][t][0] >= 0), None)
        if row is None:  # beyond the last running sum: the last row, as in memory
            row = next(f[1][1] for f in reversed(found) if f[1][0] >= 0)
        rows.append(row)
    return np.array(rows), sums.sum()


def _kmeans_plusplus(blocks, x_mean, n_clusters, total_w, rng):
    n_local_trials = 2 + int(np.log(n_clusters))
    # numpy's weighted first pick: the running sum of w / total, normalised by its end
    u0 = rng.random_sample()
    first, _ = _locate(blocks, x_mean, None, [u0 * total_w])
    chosen = first
    sums = _block_sums(blocks, x_mean, chosen)
    potential = sums.sum()
    uniforms = rng.uniform(size=(n_clusters - 1, n_local_trials))
    for c in range(1, n_clusters):
        candidates, _ = _locate(blocks, x_mean, chosen, uniforms[c - 1] * potential, sums)
        # each block's potentials: the best candidate's are the next step's block sums
        per_block = np.array(reduce_blocks(_trial_block(x_mean, chosen, candidates), concat_parts,
                                           blocks))
        totals = per_block[0].copy()
        for row in per_block[1:]:  # in block order, as the totals were always added
            totals += row
        best = int(np.argmin(totals))
        potential = totals[best]
        sums = per_block[:, best]
        chosen = np.vstack([chosen, candidates[best:best + 1]])
    return chosen


# ------------------------------------------------------------------ k-means||
def _block_starts(X):
    """Global index of the first row of each row block."""
    rows = as_dask_array(X).chunks[0]
    return np.concatenate([[0], np.cumsum(rows)[:-1]]).astype(np.int64)


def _kmeans_parallel(blocks, starts, x_mean, n_clusters, rng):
    from ._kmeans import recluster_candidates

    def run(block_fn, merge_fn):
        def block(X, w=None, start=0):
            Xc, w = _block(X, w, x_mean)
            return block_fn(Xc, w, int(start))

        with_starts = [b + (s,) for b, s in zip(blocks, starts, strict=True)]
        return reduce_blocks(block, merge_fn, with_starts)

    return kmeans_parallel(run, n_clusters, rng, recluster_candidates)


# ------------------------------------------------------------------ Lloyd
def _lloyd_block(x_mean, centers, with_distances):
    centers_t = np.ascontiguousarray(centers.T)
    centers_sq = np.einsum("ij,ij->i", centers, centers)

    def block(X, w=None):
        k, p = centers.shape
        n = X.shape[0]
        if n == 0:
            return np.zeros((k, p)), np.zeros(k), np.zeros(k), np.zeros(0), [], 0.0
        size, n_chunks = _k.chunk_layout(n)
        sums = np.empty((n_chunks, k, p))
        wsums = np.empty((n_chunks, k))
        labels = np.empty(n, dtype=np.intp)
        if not with_distances:
            # the block was checked by the moments pass; centred tile by tile
            X = np.ascontiguousarray(X, dtype=np.float64)
            w = np.ones(n) if w is None else np.asarray(w, dtype=np.float64)
            _k.lloyd_pass_shifted(X, x_mean, w, centers_t, centers_sq, labels, sums, wsums)
            return sums.sum(axis=0), wsums.sum(axis=0), None, None, [], 0.0
        Xc, w = _block(X, w, x_mean)
        _k.lloyd_pass(Xc, w, centers_t, centers_sq, labels, sums, wsums)
        counts = np.bincount(labels, minlength=k).astype(np.float64)
        d = ((Xc - centers[labels]) ** 2).sum(axis=1)
        inertia = float(np.sum(w * d))
        return sums.sum(axis=0), wsums.sum(axis=0), counts, d, [(Xc, w, labels)], inertia

    return block


def _lloyd_pass(blocks, x_mean, centers, keep_rows, with_distances=True):
    """Sums and weights per cluster; with distances also the counts, the inertia and
    the ``keep_rows`` rows of each block farthest from their centres."""
    block_fn = _lloyd_block(x_mean, centers, with_distances)

    def fn(X, w=None):
        sums, wsums, counts, d, rows, inertia = block_fn(X, w)
        if not with_distances:
            return sums, wsums, 0.0, 0.0, []
        return sums, wsums, counts, inertia, _farthest(d, rows, keep_rows)

    def merge(a, b):
        return a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3], a[4] + b[4]

    return reduce_blocks(fn, merge, blocks)


def _farthest(d, rows, keep):
    """The ``keep`` rows of a block farthest from their centre: (distance, row, w, label)."""
    if keep == 0 or not rows:
        return []
    Xc, w, labels = rows[0]
    order = np.argsort(-d, kind="stable")[:keep]
    return [(float(d[i]), Xc[i].copy(), float(w[i]), int(labels[i])) for i in order]


def _relocate_empty(sums, weights, candidates):
    """Move each empty cluster to one of the farthest rows, as the in-memory fit does
    (farthest first; a row is taken from its cluster's sums)."""
    empty = np.flatnonzero(weights == 0)
    ranked = sorted(range(len(candidates)), key=lambda i: -candidates[i][0])
    for new_id, idx in zip(empty, ranked, strict=False):
        _, x, w, old_id = candidates[idx]
        sums[old_id] -= w * x
        sums[new_id] = w * x
        weights[new_id] = w
        weights[old_id] -= w


def _run(blocks, x_mean, centers, max_iter, tol):
    k = centers.shape[0]
    n_iter = 0
    for n_iter in range(1, max_iter + 1):  # noqa: B007 (read after the loop)
        sums, weights, _, _, _ = _lloyd_pass(blocks, x_mean, centers, 0, with_distances=False)
        if np.any(weights == 0):  # rare: one more pass for the farthest rows
            sums, weights, _, _, far = _lloyd_pass(blocks, x_mean, centers, keep_rows=k)
            _relocate_empty(sums, weights, far)
        new_centers = centers.copy()
        nz = weights > 0
        new_centers[nz] = sums[nz] / weights[nz, None]
        shift_sq = ((new_centers - centers) ** 2).sum()
        centers = new_centers
        if shift_sq <= tol:
            break
    _, _, counts, inertia, _ = _lloyd_pass(blocks, x_mean, centers, keep_rows=0)
    return centers, inertia, n_iter, counts


def fit_kmeans_dask(est, X, sample_weight, rng, n_init, init_array):
    """Fit ``est`` (KMeans) on Dask input; returns (centres, inertia, n_iter, counts, x_mean)."""
    blocks = dask_blocks(X, sample_weight)
    n, x_mean, m2, total_w = reduce_blocks(_moments_block, _merge_moments, blocks)
    if n < est.n_clusters:
        raise ValueError(f"n_samples={n} should be >= n_clusters={est.n_clusters}.")
    if total_w <= 0:
        raise ValueError("The sum of sample_weight must be positive.")
    tol = m2.sum() / (n * x_mean.shape[0]) * est.tol if est.tol > 0 else 0.0
    best = None
    for _ in range(n_init):
        if init_array is not None:
            centers0 = init_array - x_mean
        elif est.init == "k-means||":
            centers0 = _kmeans_parallel(blocks, _block_starts(X), x_mean, est.n_clusters, rng)
        else:
            centers0 = _kmeans_plusplus(blocks, x_mean, est.n_clusters, total_w, rng)
        run = _run(blocks, x_mean, np.ascontiguousarray(centers0), est.max_iter, tol)
        if best is None or run[1] < best[1]:
            best = run
    centers, inertia, n_iter, counts = best
    return centers + x_mean, inertia, n_iter, counts, x_mean
