"""PCA on Dask input: the covariance route and the randomized subspace iteration.

The exact solvers ('full', 'covariance_eigh', and 'auto' resolving to them, with
n_samples >= n_features) merge the centred co-moments of the row blocks in
block order (``utils._moments``) and decompose the covariance.

The randomized solver: the start matrix is drawn from ``random_state`` exactly as in memory (the
solver's first draw), and the iteration follows the in-memory one step for
step, X never collected:

- n >= 10 p (the in-memory Gram form): the centred co-moments of the row
  blocks, merged in block order (``utils._moments``), are the centred Gram
  matrix; the iteration then runs on it as in memory.
- otherwise: each product with the implicitly centred X is a pass over the
  blocks. ``(X - 1 m) Z`` stays in the blocks; it is orthonormalised by a
  tall-skinny QR (TSQR): every block factors its rows, ``Y_b = Q_b R_b``, the
  stacked small ``R_b`` are factored on the client, ``[R_1; R_2; ...] = P R``,
  and the orthonormal basis of Y is ``Q_b P_b`` block by block (``P_b``: the
  rows of P facing ``R_b``). A second pass recomputes ``Y_b`` and its local
  factor (the same arithmetic, so the same ``Q_b``) and sums
  ``(X_b - m)' Q_b P_b`` in block order. TSQR is as stable as a Householder
  QR of Y in one piece, whereas a Cholesky QR of ``Y'Y`` would square the
  condition number of Y, which the power iterations make large.

Every step is orthonormalised by QR, whatever ``power_iteration_normalizer``
says ('LU' and 'none' only rescale the same subspace in memory: in exact
arithmetic the iterates span the same range, so the results agree to
rounding). Two passes over the blocks per power iteration, two more for the
final projection, one for the means.
"""

import numpy as np
from scipy import linalg

from ..utils._dask import (
    DaskUnsupportedError,
    add_parts,
    as_dask_array,
    concat_parts,
    dask_blocks,
    record_input_features,
    reduce_blocks,
)
from ..utils._moments import block_comoments, merge_comoments
from ..utils._random import check_random_state
from ..utils.validation import check_array
from ._pca import (
    _randomized_gram_components,
    _randomized_on_gram,
    _resolve_n_components,
)

__all__ = ["fit"]


def _finite_block_comoments(X):
    """Centred co-moments of one row block of finite values."""
    return block_comoments(check_array(X, dtype=np.float64, ensure_min_samples=0))


def _block_moments(X):
    """(rows, column means, centred sums of squares) of one row block of finite values."""
    X = check_array(X, dtype=np.float64, ensure_min_samples=0)
    n = X.shape[0]
    if n == 0:
        return 0, np.zeros(X.shape[1]), np.zeros(X.shape[1])
    mean = X.sum(axis=0) / n
    D = X - mean
    return n, mean, np.einsum("ij,ij->j", D, D)


def _merge_moments(a, b):
    """Merge two blocks' (rows, means, centred sums of squares) exactly (Chan et al.)."""
    na, ma, sa = a
    nb, mb, sb = b
    if na == 0:
        return b
    if nb == 0:
        return a
    total = na + nb
    delta = mb - ma
    return total, ma + delta * (nb / total), sa + sb + delta**2 * (na * nb / total)


def _centred_product(X, Z, mZ):
    """``(X_b - m) Z`` for one block (the centring applied as ``m Z``)."""
    return np.asarray(X, dtype=np.float64) @ Z - mZ


def _local_qr(Y):
    """The economic QR factors of one block of Y (an empty block has none)."""
    if Y.shape[0] == 0:
        return np.empty((0, 0)), np.empty((0, Y.shape[1]))
    return linalg.qr(Y, mode="economic", check_finite=False)


def _tsqr_rotations(blocks, Z, mZ):
    """First TSQR pass for Y = (X - 1 m) Z: each block's R, factored together on the
    client; returns the rows of the stacked factor's Q facing each block."""

    def block(X):
        return [_local_qr(_centred_product(X, Z, mZ))[1]]

    Rs = reduce_blocks(block, concat_parts, blocks)
    P, _ = linalg.qr(np.vstack(Rs), mode="economic", check_finite=False)
    bounds = np.cumsum([0] + [R.shape[0] for R in Rs])
    return [P[lo:hi] for lo, hi in zip(bounds[:-1], bounds[1:], strict=True)]


def _centred_transpose_product(blocks, Z, mean, mZ, rotations):
    """Second TSQR pass: ``(X - 1 m)' Q`` for the orthonormal basis Q of
    ``(X - 1 m) Z``, summed over the blocks in order."""

    def block(X, P):
        X = np.asarray(X, dtype=np.float64)
        Q = _local_qr(_centred_product(X, Z, mZ))[0] @ P
        return X.T @ Q, Q.sum(axis=0)

    tasks = [(b[0], P) for b, P in zip(blocks, rotations, strict=True)]
    XtQ, colsum = reduce_blocks(block, add_parts, tasks)
    return XtQ - np.outer(mean, colsum)


def _sketch_components(blocks, mean, omega, n_components, n_iter):
    """Randomized subspace iteration with block products (the in-memory loop,
    normalised by QR); returns (singular values, Vt)."""

    def at_dot_basis(Z):  # (X - 1 m)' qr((X - 1 m) Z).Q
        mZ = mean @ Z
        return _centred_transpose_product(blocks, Z, mean, mZ, _tsqr_rotations(blocks, Z, mZ))

    Z = omega
    for _ in range(n_iter):
        Z, _ = linalg.qr(at_dot_basis(Z), mode="economic", check_finite=False)
    B = at_dot_basis(Z).T
    _, S, Vt = linalg.svd(B, full_matrices=False, check_finite=False)
    return S[:n_components], Vt[:n_components]


def fit(pca, X):
    """Fit ``pca`` on the Dask collection X (several row blocks).

    Returns
    -------
    pca
    """
    X_arr = as_dask_array(X)
    n, p = int(sum(X_arr.chunks[0])), int(X_arr.shape[1])
    solver = pca._choose_solver(n, p)
    if solver != "randomized" and (solver not in ("full", "covariance_eigh") or n < p):
        raise DaskUnsupportedError(
            f"PCA on Dask input is fitted by the covariance route (svd_solver='auto', "
            f"'full' or 'covariance_eigh' with n_samples >= n_features) or by "
            f"svd_solver='randomized'; got svd_solver={pca.svd_solver!r} resolved to "
            f"{solver!r} with {n} samples and {p} features. Fit on a sample in memory "
            "for the other solvers."
        )
    if n < 2:
        raise ValueError(f"Found array with {n} sample(s) while a minimum of 2 is required.")
    nc = pca._check_n_components(solver, n, p)
    if solver == "randomized":
        _fit_randomized(pca, X_arr, nc)
    else:
        _fit_covariance(pca, X_arr, nc)
    record_input_features(pca, X)
    pca.n_samples_ = n
    pca._n_features_out = pca.n_components_
    return pca


def _fit_covariance(pca, X, nc):
    """The exact fit from the centred co-moments merged over the blocks."""
    n, p = int(sum(X.chunks[0])), int(X.shape[1])
    _, mean, C = reduce_blocks(_finite_block_comoments, merge_comoments, dask_blocks(X))
    pca._fit_svd_solver = "covariance_eigh"
    pca.mean_ = mean
    evals, evecs = linalg.eigh(C / (n - 1), check_finite=False, driver="evd")
    evals = np.maximum(evals[::-1], 0.0)
    Vt = evecs[:, ::-1].T
    total_var = evals.sum()
    ratio = evals / total_var if total_var > 0 else np.zeros_like(evals)
    lim = min(n, p)
    nc = _resolve_n_components(nc, evals, ratio, n, lim)
    pca._store_exact(evals, ratio, np.sqrt(evals * (n - 1)), Vt, nc, lim)


def _fit_randomized(pca, X, nc):
    """Fit ``pca`` (svd_solver resolved to 'randomized') on the Dask array X.

    Parameters
    ----------
    pca : PCA
        Receives ``mean_`` and the attributes of a truncated fit.
    X : Dask array of shape (n_samples, n_features), one column chunk
    nc : int
        The number of components, checked.
    """
    n, p = int(sum(X.chunks[0])), int(X.shape[1])
    rng = check_random_state(pca.random_state)
    size = min(nc + pca.n_oversamples, p)
    n_iter = pca._power_iterations(nc, n, p)
    blocks = dask_blocks(X)
    if _randomized_on_gram(n, p):
        _, mean, C = reduce_blocks(_finite_block_comoments, merge_comoments, blocks)
        omega = rng.normal(size=(p, size))
        S, Vt = _randomized_gram_components(C, omega, nc, n_iter)
        total = float(np.trace(C)) / (n - 1)
    else:
        _, mean, squares = reduce_blocks(_block_moments, _merge_moments, blocks)
        omega = rng.normal(size=(p, size))
        S, Vt = _sketch_components(blocks, mean, omega, nc, n_iter)
        total = float(squares.sum()) / (n - 1)
    pca.mean_ = mean
    pca._fit_svd_solver = "randomized"
    pca._store_truncated(S, Vt, total, n, p, nc)
