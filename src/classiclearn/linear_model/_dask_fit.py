"""Least squares on Dask collections: merged centred moments, then the in-memory solve.

One pass over the row blocks gives the total weight, the means of X and y and
the centred co-moments of ``[X, y]`` (``utils._moments``, merged in block
order); ordinary least squares then refines its Cholesky solution with one
more pass of exact residual products (as the in-memory fit does), which also
gives the residual sum of squares; ridge solves its normal
equations directly. A collection with a single row block is computed and fitted
in memory, so it gives the in-memory result bit for bit.
"""

import numpy as np
from scipy import linalg

from ..utils._dask import (
    DaskUnsupportedError,
    add_parts,
    as_dask_array,
    dask_blocks,
    fit_one_block_in_memory,
    is_dask_collection,
    record_input_features,
    reduce_blocks,
)
from ..utils._moments import block_comoments, merge_comoments
from ..utils.validation import check_array

__all__ = ["fit_least_squares_dask", "path_moments_dask"]


def _block_arrays(X, y, w):
    X = check_array(X, dtype=np.float64, ensure_min_samples=0)
    Y = np.asarray(y, dtype=np.float64)
    Y = Y.reshape(-1, 1) if Y.ndim == 1 else Y
    if not np.all(np.isfinite(Y)):
        raise ValueError("Input y contains NaN or infinity.")
    w = None if w is None else np.asarray(w, dtype=np.float64)
    return X, Y, w


def _comoment_block(center):
    def block(X, y, w=None):
        X, Y, w = _block_arrays(X, y, w)
        return block_comoments((X, Y), w, center=center)

    return block


def _residual_block(W, x_mean, y_mean):
    """Per block: (Xc' w R, sum w R^2) for the residuals R = Yc - Xc W."""

    def block(X, y, w=None):
        X, Y, w = _block_arrays(X, y, w)
        Xc = X - x_mean
        R = (Y - y_mean) - Xc @ W
        wR = R if w is None else R * w[:, None]
        return Xc.T @ wR, np.einsum("ij,ij->j", wR, R)

    return block


def fit_least_squares_dask(est, X, y, sample_weight, solve):
    """Fit ``est`` (LinearRegression or Ridge) on Dask input.

    Parameters
    ----------
    est : estimator
        Has ``fit_intercept``; receives the fitted attributes.
    X, y, sample_weight : Dask collections (sample_weight may be None or NumPy)
    solve : callable
        ``solve(est, G, XtY, stats) -> None`` sets the coefficients from the
        centred Gram matrix, X'y and the moments; ``stats`` holds ``x_mean``,
        ``y_mean``, ``total``, ``was_1d``, ``blocks`` and ``n_features``.

    Returns
    -------
    est
    """
    if y is None:
        raise ValueError(f"{type(est).__name__} requires y to be passed, but the target y is None.")
    if fit_one_block_in_memory(est, X, y, sample_weight) is not None:
        return est
    X_arr = as_dask_array(X)
    blocks = dask_blocks(X_arr, y, sample_weight)
    total, mean, C = reduce_blocks(_comoment_block(est.fit_intercept), merge_comoments, blocks)
    if total <= 0:
        raise ValueError("The sample weights sum to zero; at least one must be positive.")
    p = int(X.shape[1])
    stats = {
        "x_mean": mean[:p], "y_mean": mean[p:], "total": total,
        "was_1d": getattr(y, "ndim", 1) == 1, "blocks": blocks, "n_features": p,
        "n_rows": int(sum(X_arr.chunks[0])), "comoments": C,
    }
    solve(est, C[:p, :p].copy(), C[:p, p:].copy(), stats)
    record_input_features(est, X)
    return est


def path_moments_dask(X, y):
    """``X'X``, ``X'y`` and ``y'y`` (about the origin: a path fits no intercept) of
    Dask X and y, merged over the row blocks in order, for ``enet_path``.

    Returns
    -------
    in_memory : tuple (X, y) of ndarrays or None
        X and y computed, when X has a single row block (its path is then the
        in-memory one, bit for bit).
    gram : tuple (n_samples, G, Xty, yy) or None
        None exactly when ``in_memory`` is given.
    """
    import dask

    if not is_dask_collection(X):
        raise TypeError(
            "enet_path: X is not a Dask collection but y is; pass both as Dask (or both as "
            "NumPy) arrays."
        )
    X_arr = as_dask_array(X)
    if is_dask_collection(y):
        y = as_dask_array(y, "y")
    if getattr(y, "ndim", 1) != 1:
        raise ValueError("enet_path takes a 1-D y; fit one target at a time.")
    if X_arr.ndim != 2:
        raise ValueError(f"Expected a 2-D Dask array for X, got {X_arr.ndim} dimension(s).")
    if y.shape[0] != X_arr.shape[0]:
        raise ValueError(
            f"X and y have inconsistent numbers of samples: {X_arr.shape[0]} != {y.shape[0]}"
        )
    if len(X_arr.chunks[0]) == 1:
        X_np, y_np = dask.compute(X_arr, y)
        return (np.asarray(X_np), np.asarray(y_np)), None
    blocks = dask_blocks(X_arr, y)
    _, _, C = reduce_blocks(_comoment_block(False), merge_comoments, blocks)
    p = int(X_arr.shape[1])
    n = int(sum(X_arr.chunks[0]))
    return None, (n, C[:p, :p].copy(), C[:p, p].copy(), float(C[p, p]))


def half_sum_log_weights(stats):
    """``1/2 sum log w`` over the positive sample weights (0 without weights): the
    weighted least-squares log-likelihood's term, from one pass over the blocks."""

    if all(block[2] is None for block in stats["blocks"]):
        return 0.0  # unit weights: no pass needed

    def block(X, y, w=None):
        if w is None:
            return (0.0,)
        w = np.asarray(w, dtype=np.float64)
        return (float(np.sum(np.log(w[w > 0]))),)

    (total,) = reduce_blocks(block, lambda a, b: (a[0] + b[0],), stats["blocks"])
    return 0.5 * total


def refine_and_rss(stats, W, cho, G):
    """One refinement step of a Cholesky solution and the residual sum of squares,
    from one pass over the blocks.

    The pass gives ``Xc' w R0`` and ``sum w R0^2`` for the residuals ``R0`` of
    ``W``; the step is ``d = G^-1 Xc' w R0`` and the refined residuals
    ``R0 - Xc d`` have ``sum w R^2 = sum w R0^2 - 2 d' Xc' w R0 + d' G d``: two
    small corrections to a sum of squares, so no cancellation and no second pass.
    """
    x_mean, y_mean, blocks = stats["x_mean"], stats["y_mean"], stats["blocks"]
    XtR, rss0 = reduce_blocks(_residual_block(W, x_mean, y_mean), add_parts, blocks)
    step = linalg.cho_solve(cho, XtR, check_finite=False)
    rss = (rss0 - 2.0 * np.einsum("ij,ij->j", step, XtR)
           + np.einsum("ij,ij->j", step, G @ step))
    return W + step, np.maximum(rss, 0.0)


def min_norm_solve(G, XtY, rcond):
    """Minimum-norm solution of the normal equations by an eigendecomposition of G.

    Returns W, rank, singular values of the (centred, weighted) design, M = G^+.
    """
    lam, V = linalg.eigh(G, check_finite=False)
    lam, V = lam[::-1], V[:, ::-1]
    lam = np.maximum(lam, 0.0)
    s = np.sqrt(lam)
    keep = s > rcond * (s[0] if s.size else 0.0)
    inv = np.where(keep, 1.0 / np.where(keep, lam, 1.0), 0.0)
    M = (V * inv) @ V.T
    return M @ XtY, int(keep.sum()), s, M


def refuse(est, what):
    raise DaskUnsupportedError(
        f"{type(est).__name__} with {what} has no distributed fit on Dask input; fit it on "
        "a sample that fits in memory, or use the default settings."
    )
