"""Class statistics shared by LDA and QDA: means, scatter matrices, shrinkage.

The fits of seed 000 §10.2-10.3 and seed 003 need, per class k, the mean m_k
and the scatter S_k = sum_{i in k} (x_i - m_k)(x_i - m_k)^T. Per class, its
rows are copied once into a buffer (a counting sort gives them), centred in
place, and one BLAS ``syrk`` product gives S_k (the pooled scatter alone goes
over the rows in blocks), so a fit costs O(n p^2) flops in matrix products
instead of the SVD of an n x p matrix. The Ledoit-Wolf shrinkage intensity needs, besides the covariance,
only sum_i ||z_i||^4 over the standardised rows, one more pass.
"""

import numpy as np

from .._kernels.gram import column_gram
from .._kernels.work import BLAS_THREADED_PRODUCT
from . import _scatter_kernels as _kernels

__all__ = [
    "blocked_matmul",
    "class_statistics",
    "ledoit_wolf_from_stats",
    "shrunk_covariance",
    "single_thread_rows",
]

# Row blocks of the scatter products. Small blocks keep each BLAS call on one
# thread (OpenBLAS threads a syrk only above ~200 x p): on busy cores threaded
# calls on large blocks wait for each other, while on an idle machine small
# blocks cost about the same as one large call.
_BLOCK_ROWS = 128


def single_thread_rows(n_inner, n_out):
    """Rows per block so that a (rows x n_inner) @ (n_inner x n_out) product stays on
    one BLAS thread (OpenBLAS threads products above ~2.6e5 multiply-adds)."""
    return max(8, BLAS_THREADED_PRODUCT // max(1, n_inner * n_out))


def blocked_matmul(X, W, out=None):
    """``X @ W`` computed in row blocks that each stay on one BLAS thread."""
    n = X.shape[0]
    if out is None:
        out = np.empty((n, W.shape[1]))
    step = single_thread_rows(W.shape[0], W.shape[1])
    for start in range(0, n, step):
        np.matmul(X[start : start + step], W, out=out[start : start + step])
    return out


def _order_by_class(y_index, n_classes):
    counts = np.bincount(y_index, minlength=n_classes)
    order = np.argsort(y_index, kind="stable")
    bounds = np.concatenate(([0], np.cumsum(counts)))
    return counts, order, bounds


def _class_blocks(X, y_index, n_classes):
    """Yield (k, read-only view of rows of class k), at most ``_BLOCK_ROWS`` at a time.

    The rows are gathered by class once (one copy of X), then cut in blocks.
    """
    _, order, bounds = _order_by_class(y_index, n_classes)
    X_sorted = X[order]
    for k in range(n_classes):
        for start in range(bounds[k], bounds[k + 1], _BLOCK_ROWS):
            yield k, X_sorted[start : min(start + _BLOCK_ROWS, bounds[k + 1])]


def class_counts_means(X, y_index, n_classes):
    """Per-class counts and means alone (no scatter), as :func:`class_statistics`."""
    X = np.ascontiguousarray(X, dtype=np.float64)
    return _kernels.class_means(X, np.ascontiguousarray(y_index, dtype=np.intp), n_classes)


def class_statistics(X, y_index, n_classes, *, per_class=True):
    """Per-class counts, means and centred scatter matrices.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features), float64, C-contiguous
    y_index : ndarray of shape (n_samples,), intp in [0, n_classes)
    n_classes : int
    per_class : bool, default=True
        If False, only the pooled within-class scatter is computed (returned
        with shape (1, p, p)), one BLAS product per block of rows.

    Returns
    -------
    counts : ndarray of shape (n_classes,), int
    means : ndarray of shape (n_classes, n_features)
    scatter : ndarray of shape (n_classes, n_features, n_features)
        ``sum (x_i - m_k)(x_i - m_k)^T`` over the rows of class k; with
        ``per_class=False`` shape (1, n_features, n_features), their sum.
    """
    n_samples, n_features = X.shape
    X = np.ascontiguousarray(X, dtype=np.float64)
    y_index = np.ascontiguousarray(y_index, dtype=np.intp)
    if per_class:
        return _per_class_statistics(X, y_index, n_classes)
    counts, means = class_counts_means(X, y_index, n_classes)
    S = np.zeros((n_features, n_features))
    for start in range(0, n_samples, _BLOCK_ROWS):
        block = X[start : start + _BLOCK_ROWS] - means[y_index[start : start + _BLOCK_ROWS]]
        S += block.T @ block
    return counts, means, ((S + S.T) / 2.0)[None]


def _per_class_statistics(X, y_index, n_classes):
    """Per class: copy its rows into one buffer (summing them on the way), centre
    the block in place while it is in cache, correct the mean by the residual
    sum, then one ``A.T @ A`` product (BLAS ``syrk``, :func:`column_gram`)."""
    n_features = X.shape[1]
    counts = np.bincount(y_index, minlength=n_classes)
    order, bounds = _kernels.class_order(y_index, counts)
    means = np.zeros((n_classes, n_features))
    scatter = np.zeros((n_classes, n_features, n_features))
    buffer = np.empty((max(int(counts.max()), 1), n_features))
    for k in range(n_classes):
        n_k = int(counts[k])
        if n_k == 0:
            continue
        segment = buffer[:n_k]
        mean = _kernels.gather_rows(X, order[bounds[k] : bounds[k + 1]], segment) / n_k
        resid = _kernels.centre_rows(segment, mean) / n_k  # the mean's rounding error
        S = column_gram(segment)
        S -= n_k * np.outer(resid, resid)
        means[k] = mean + resid
        scatter[k] = (S + S.T) / 2.0
    return counts, means, scatter


def class_fourth_moments(X, y_index, n_classes, means, scales, grand_mean, grand_scale):
    """Sums of ||z_i||^4 of standardised rows, per class and over all rows.

    ``z_i = (x_i - means[k]) / scales[k]`` for the per-class sums and
    ``(x_i - grand_mean) / grand_scale`` for the total; the Ledoit-Wolf
    intensity needs these (sklearn's ``beta_``).

    Returns
    -------
    per_class : ndarray of shape (n_classes,)
    total : float
    """
    per_class = np.zeros(n_classes)
    total = 0.0
    for k, block in _class_blocks(X, y_index, n_classes):
        z = (block - means[k]) / scales[k]
        per_class[k] += np.sum(np.einsum("ij,ij->i", z, z) ** 2)
        z = (block - grand_mean) / grand_scale
        total += np.sum(np.einsum("ij,ij->i", z, z) ** 2)
    return per_class, total


def standard_scale(cov_diag):
    """Standard deviations from variances, with zero replaced by one (StandardScaler)."""
    scale = np.sqrt(np.maximum(cov_diag, 0.0))
    scale[scale == 0.0] = 1.0
    return scale


def ledoit_wolf_from_stats(cov, n_samples, fourth, scale):
    """Ledoit-Wolf shrinkage of the standardised rows, in the units of the data.

    The shrinkage is estimated on the standardised rows (covariance ``cov / (s s')``),
    as scikit-learn's ``_cov`` does, and the shrunk covariance mapped back:
    ``(1 - a) cov + a mu diag(s^2)`` with ``mu`` the mean standardised variance. The
    standardised matrix is formed once, for its sum of squares; the result is one
    more pass over ``cov`` (no products of the scales as matrices).

    Parameters
    ----------
    cov : ndarray of shape (p, p)
        Empirical (1/n) covariance of the centred rows.
    n_samples : int
    fourth : float
        ``sum_i ||z_i||^4`` over the standardised rows ``z_i``.
    scale : ndarray of shape (p,)
        The standard deviations of :func:`standard_scale`.

    Returns
    -------
    shrunk : ndarray of shape (p, p)
    shrinkage : float
    """
    p = cov.shape[0]
    if p == 1:
        return cov.copy(), 0.0
    n = float(n_samples)
    inv = 1.0 / scale
    diag = np.diag(cov) * inv * inv
    mu = diag.sum() / p
    work = cov * inv[:, None]
    work *= inv
    delta_ = float(np.einsum("ij,ij->", work, work))
    beta = (fourth / n - delta_) / (p * n)
    delta = (delta_ - 2.0 * mu * diag.sum() + p * mu**2) / p
    beta = min(beta, delta)
    shrinkage = 0.0 if beta == 0 else beta / delta
    np.multiply(cov, 1.0 - shrinkage, out=work)
    work.flat[:: p + 1] += shrinkage * mu * scale * scale
    return work, shrinkage


def shrunk_covariance(cov, shrinkage):
    """``(1 - s) * cov + s * (trace(cov) / p) * I``."""
    p = cov.shape[0]
    mu = np.trace(cov) / p
    out = (1.0 - shrinkage) * cov
    out.flat[:: p + 1] += shrinkage * mu
    return out


def class_covariances(X, y_index, counts, means, scatter, shrinkage):
    """Per-class covariance estimates and the total one, as sklearn's ``_cov``.

    Parameters
    ----------
    shrinkage : None, "auto" or float

    Returns
    -------
    covs : ndarray of shape (n_classes, p, p)
        Empirical (1/n_k) covariances, shrunk as asked.
    total : ndarray of shape (p, p)
        The covariance of all rows about the grand mean, shrunk the same way.
    """
    n_classes, p = means.shape
    n = counts.sum()
    grand_mean = counts @ means / n
    dev = means - grand_mean
    total = (scatter.sum(axis=0) + (dev.T * counts) @ dev) / n
    total = (total + total.T) / 2.0
    if scatter.shape[0] != n_classes:  # pooled only: no per-class covariances
        return None, total
    safe = np.maximum(counts, 1)[:, None, None]
    covs = scatter / safe
    if shrinkage is None:
        return covs, total
    if isinstance(shrinkage, str):  # "auto": Ledoit-Wolf on standardised data
        scales = np.array([standard_scale(np.diag(c)) for c in covs])
        grand_scale = standard_scale(np.diag(total))
        fourth_k, fourth_t = class_fourth_moments(
            X, y_index, n_classes, means, scales, grand_mean, grand_scale
        )
        out = np.empty_like(covs)
        for k in range(n_classes):
            out[k], _ = ledoit_wolf_from_stats(covs[k], max(counts[k], 1), fourth_k[k],
                                               scales[k])
        shrunk, _ = ledoit_wolf_from_stats(total, n, fourth_t, grand_scale)
        return out, shrunk
    s = float(shrinkage)
    return np.array([shrunk_covariance(c, s) for c in covs]), shrunk_covariance(total, s)
