"""Shared pieces of the linear models (seed 000 §4, §5).

Weighted centring without copying X (the Gram matrix of the centred data is
accumulated block by block with BLAS), the intercept from the means, and ``predict`` of the linear regressors (the linear
classifiers' decision function is in :mod:`classiclearn.utils._linear`).
"""

import math
import os
import threading
from contextlib import nullcontext

import numpy as np

from .._kernels.work import (
    BLAS_THREADED_DOT,
    BLAS_THREADED_MATVEC,
    BLOCKED_ROWS_THREADED,
    GRAM_PASS_WORK,
    ROW_LANE_ENTRIES,
)
from ..utils._linear import (  # noqa: F401 (the linear models' shared decision function)
    LinearClassifierMixin,
    finite_linear_output,
    linear_product,
    validate_predict_X,
)
from ..utils._moments import MAX_MEAN_TO_VAR
from ..utils._threads import auto_n_jobs, blas_single_thread, blocked_row_sums, pooled_map
from ..utils.validation import (
    cast_float_attributes,
    check_array,
    check_is_fitted,
)
from . import _cd_kernels as _cdk

_BLOCK_ROWS = 4096


def weighted_means(X, Y, sw):
    """Column means of X and Y (weighted by ``sw`` when given).

    Parameters
    ----------
    X : ndarray (n, p); Y : ndarray (n, t) or None; sw : ndarray (n,) or None.

    Returns
    -------
    x_mean : ndarray (p,); y_mean : ndarray (t,) or None
    """
    if sw is None:
        x_mean = X.mean(axis=0, dtype=np.float64)
        y_mean = None if Y is None else Y.mean(axis=0, dtype=np.float64)
    else:
        total = sw.sum()
        if total <= 0:
            raise ValueError("The sample weights sum to zero; at least one must be positive.")
        # one BLAS thread below BLAS_THREADED_MATVEC entries: a threaded product leaves
        # OpenBLAS's threads spinning, and the numba kernel of the fit that follows
        # (positive LinearRegression on 500 x 1,000) ran slower beside them
        threaded = X.size >= BLAS_THREADED_MATVEC or X.size < BLAS_THREADED_DOT
        with nullcontext() if threaded else blas_single_thread():
            x_mean = (sw @ X) / total
        # einsum's own loops, not BLAS: a threaded product of a few columns leaves
        # OpenBLAS's threads spinning, taking the cores from the numba passes that
        # follow (a weighted fit on sparse X, whose sw @ X is scipy's, ran far slower)
        y_mean = None if Y is None else np.einsum("i,ij->j", sw, Y) / total
    return x_mean, y_mean


def centered_gram(X, x_mean, sw, Y=None, y_mean=None):
    """``Xc' W Xc`` and ``Xc' W Yc`` for ``Xc = X - x_mean``, without copying X (a
    large unweighted ``X' X`` by :func:`split_gram`).

    Rows are processed in blocks, each centred (and scaled by ``sqrt(sw)``)
    into a small buffer, so the result has the accuracy of centring first.

    Parameters
    ----------
    X : ndarray (n, p) float64; x_mean : ndarray (p,) (zeros for no centring).
    sw : ndarray (n,) or None.
    Y : ndarray (n, t) or None; y_mean : ndarray (t,) or None.

    Returns
    -------
    G : ndarray (p, p); XtY : ndarray (p, t) or None; yy : ndarray (t,) or None
        ``yy`` is the weighted sum of squares of each centred target.
    """
    n, p = X.shape
    if sw is None and n > 0:
        # One BLAS product on X itself (no centred copy), then the rank-one
        # correction n * m m'. Exact in exact arithmetic; in floating point it
        # loses about log10(1 + mean^2 / var) digits, so it is used only when
        # no column has a mean much larger than its spread.
        G = _plain_gram(X)
        raw_sq = np.diag(G) / n
        var = raw_sq - x_mean**2
        if np.all(x_mean**2 <= MAX_MEAN_TO_VAR * np.maximum(var, 0.0)):
            G -= n * np.outer(x_mean, x_mean)
            if Y is None:
                return G, None, None
            XtY = X.T @ Y - n * np.outer(x_mean, y_mean)
            C = Y - y_mean
            return G, XtY, np.einsum("ij,ij->j", C, C)
    return _gram_of_centred_blocks(X, x_mean, sw, Y, y_mean)


def _gram_of_centred_blocks(X, x_mean, sw, Y=None, y_mean=None):
    """:func:`centered_gram` from centred (and weighted) row blocks of X and Y."""
    n, p = X.shape
    G = np.zeros((p, p))
    XtY = None if Y is None else np.zeros((p, Y.shape[1]))
    yy = None if Y is None else np.zeros(Y.shape[1])
    root = None if sw is None else np.sqrt(sw)
    for start in range(0, n, _BLOCK_ROWS):
        stop = min(n, start + _BLOCK_ROWS)
        B = X[start:stop] - x_mean
        if root is not None:
            B *= root[start:stop, None]
        G += B.T @ B
        if Y is not None:
            C = Y[start:stop] - y_mean
            if root is not None:
                C *= root[start:stop, None]
            XtY += B.T @ C
            yy += np.einsum("ij,ij->j", C, C)
    return G, XtY, yy


def fit_moments(est, X, Y, fit_intercept):
    """Means and centred cross-products of unweighted data in one pass over X.

    One row-wise pass over X (``_cd_kernels.column_moments``) gives the
    column sums of X (hence ``x_mean``) and ``X' Yc`` for the centred targets
    ``Yc = Y - y_mean``; X is never copied. The finiteness of X is read off
    these sums (a NaN or infinity makes its column's sum non-finite); only
    when one is not finite is X checked entry by entry, which raises the
    standard error. Call it on X validated with ``ensure_all_finite=False``.

    Parameters
    ----------
    est : estimator (named in error messages).
    X : ndarray (n, p) float64; Y : ndarray (n, t) float64, finite.
    fit_intercept : bool; without it the means are zeros and nothing is centred.

    Returns
    -------
    x_mean : ndarray (p,); y_mean : ndarray (t,)
    XtY : ndarray (p, t), ``(X - x_mean)' (Y - y_mean)``
    yy : ndarray (t,), the sums of squares of the centred targets.
    """
    y_mean, C = _centred_targets(Y, fit_intercept)
    if X.flags.c_contiguous:
        sums, XtY = _cdk.column_moments(X, C)
    else:
        sums, XtY = X.sum(axis=0), X.T @ C
    x_mean, XtY, yy = _finish_moments(est, X, sums, XtY, C, fit_intercept)
    return x_mean, y_mean, XtY, yy


def _centred_targets(Y, fit_intercept):
    """``y_mean`` and the centred targets ``Y - y_mean`` as a new C-ordered array."""
    if fit_intercept:
        y_mean = Y.mean(axis=0)
        return y_mean, np.ascontiguousarray(Y - y_mean)
    return np.zeros(Y.shape[1]), np.ascontiguousarray(Y)


def _finish_moments(est, X, sums, XtY, C, fit_intercept):
    """From column sums and ``X' C``: finiteness check, ``x_mean``, centred ``X' C``, ``C' C``."""
    with np.errstate(over="ignore", invalid="ignore"):
        finite = bool(np.all(np.isfinite(sums)) and np.all(np.isfinite(XtY)))
    if not finite:
        check_array(X, dtype=np.float64, estimator=est)
    yy = np.einsum("ij,ij->j", C, C)
    if not fit_intercept:
        return np.zeros(X.shape[1]), XtY, yy
    x_mean = sums / X.shape[0]
    XtY -= np.outer(x_mean, C.sum(axis=0))
    return x_mean, XtY, yy


def fast_centered_gram(X, x_mean):
    """``Xc' Xc`` for ``Xc = X - x_mean`` from one BLAS ``X' X`` (syrk), or from its
    column halves on our threads (:func:`split_gram`) for a large one.

    The rank-one correction ``n m m'`` is exact in exact arithmetic and used
    when no column has a mean much larger than its spread; otherwise the
    Gram matrix is accumulated from centred row blocks.
    """
    G = _plain_gram(X)
    if X.shape[0] > 0 and np.any(x_mean != 0.0):
        G = _centre_gram(X, G, x_mean)
    return G


# From this many features (and GRAM_PASS_WORK multiply-adds) centered_gram and
# fast_centered_gram split X' X by column halves on our threads. Their callers keep BLAS
# on one thread (the coordinate descent, whose BLAS threads would spin beside numba's;
# LinearRegression's p x p algebra up to order 1,000), where a whole syrk runs on one
# core and the split, faster, about matches BLAS's own threads. Below, the blocked row
# pass (moments_and_gram) or a single product serves.
_SPLIT_GRAM_FEATURES = 256
_SPLIT_GRAM_WORK = GRAM_PASS_WORK


def _plain_gram(X):
    """``X' X`` of dense X: :func:`split_gram` for a large float64 one, else one product
    (numpy's syrk)."""
    n, p = X.shape
    n_threads = auto_n_jobs(None, n * p * p, _SPLIT_GRAM_WORK)
    if p >= _SPLIT_GRAM_FEATURES and n_threads > 1 and X.dtype == np.float64:
        return split_gram(X, n_threads)
    return X.T @ X


def split_gram(X, n_threads):
    """``X' X`` from the column halves ``X = [X1 | X2]``: ``X1' X2`` (gemm) in one task,
    ``X1' X1`` and ``X2' X2`` (syrk, as much work together) in the other, each one BLAS
    call on one thread, in up to ``n_threads`` of our threads. The result does not depend
    on the number of threads.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.arange(12.0).reshape(4, 3)
    >>> bool(np.array_equal(split_gram(X, 2), X.T @ X))
    True
    """
    p = X.shape[1]
    half = p // 2
    left, right = X[:, :half], X[:, half:]
    G = np.empty((p, p))

    def task(which):
        if which == 0:
            G[:half, half:] = left.T @ right
        else:
            G[:half, :half] = left.T @ left
            G[half:, half:] = right.T @ right

    with blas_single_thread():
        pooled_map(task, (0, 1), n_threads)
    G[half:, :half] = G[:half, half:].T
    return G


def _centre_gram(X, G, x_mean):
    """``X' X`` (``G``, updated in place when possible) turned into ``Xc' Xc``."""
    n = X.shape[0]
    var = np.diag(G) / n - x_mean**2
    if np.all(x_mean**2 <= MAX_MEAN_TO_VAR * np.maximum(var, 0.0)):
        G -= n * np.outer(x_mean, x_mean)
        return G
    return _gram_of_centred_blocks(X, x_mean, None)[0]


# Row blocks of the threaded Gram pass (:func:`moments_and_gram`): a block of
# 1024 rows x 200 features (1.6 MB) stays in a core's L2 cache between the
# moments kernel and the BLAS product that read it (larger and smaller blocks
# measured slower; see "Measurements behind constants" in benchmarks/RESULTS.md).
_GRAM_BLOCK_ROWS = 1024
# Consecutive blocks are summed in a fixed number of lanes (the work units
# handed to threads), then the lanes in order: memory of a few p x p partial
# sums, and a result that does not depend on the number of threads.
_GRAM_LANES = 8
# Below this many multiply-adds (n p^2) the threaded pass is not worth it;
# above _GRAM_MAX_FEATURES the multi-threaded BLAS product on the whole of X
# splits its large output well by itself.
_GRAM_THREADED_WORK = GRAM_PASS_WORK
_GRAM_MAX_FEATURES = 512
# Below BLOCKED_ROWS_THREADED rows the blocked pass runs on the calling thread; from
# this many multiply-adds and features on, BLAS's threaded syrk on the whole of X (after
# a separate moments pass) is faster than that (below, it was slower).
_GRAM_SERIAL_PASS_MAX_WORK = 100_000_000
_GRAM_SERIAL_PASS_MAX_FEATURES = 128


def _blocked_gram_pass(X):
    """Whether :func:`moments_and_gram` takes the blocked pass for X (n, p)."""
    n, p = X.shape
    work = n * p * p
    if not X.flags.c_contiguous or work < _GRAM_THREADED_WORK or p > _GRAM_MAX_FEATURES:
        return False
    return (n >= BLOCKED_ROWS_THREADED or work < _GRAM_SERIAL_PASS_MAX_WORK
            or p < _GRAM_SERIAL_PASS_MAX_FEATURES)


def moments_and_gram(est, X, Y, fit_intercept, n_threads=None):
    """:func:`fit_moments` and :func:`fast_centered_gram` in one threaded pass.

    X is cut into fixed blocks of rows; for each block the moments kernel
    (column sums and ``X' Yc``) and a single-threaded BLAS ``X_b' X_b``
    (syrk) run back to back while the block is still in cache. Runs of
    consecutive blocks (lanes) are shared among Python threads and their
    partial sums added in lane order, so the result does not depend on the
    number of threads. On two
    cores this is faster than one multi-threaded syrk on the whole of X (whose
    threads split only the small p x p output), and it does not busy-wait
    when the machine is loaded.

    Parameters
    ----------
    est : estimator (named in error messages).
    X : ndarray (n, p) float64, or float32 (read block by block in float64, no copy of
        X on the threaded pass); Y : ndarray (n, t) float64, finite.
    fit_intercept : bool.
    n_threads : int or None
        None: all cores.

    Returns
    -------
    x_mean, y_mean, XtY, yy : as :func:`fit_moments`.
    G : ndarray (p, p), ``Xc' Xc`` for the centred X (X itself without
        intercept).
    """
    n, p = X.shape
    if not _blocked_gram_pass(X):
        X = np.asarray(X, dtype=np.float64)
        x_mean, y_mean, XtY, yy = fit_moments(est, X, Y, fit_intercept)
        return x_mean, y_mean, XtY, yy, fast_centered_gram(X, x_mean)
    y_mean, C = _centred_targets(Y, fit_intercept)

    def block_moments(lo, hi):
        B = X[lo:hi]
        if B.dtype != np.float64:  # a float32 X: in float64 one cached block at a time
            B = B.astype(np.float64)
        s, q = _cdk.column_moments(B, C[lo:hi])
        return s, q, B.T @ B

    if n_threads is None:
        n_threads = os.cpu_count() or 1
    sums, XtY, G = blocked_row_sums(block_moments, n, n_threads, _GRAM_BLOCK_ROWS, _GRAM_LANES)
    x_mean, XtY, yy = _finish_moments(est, X, sums, XtY, C, fit_intercept)
    if fit_intercept:
        G = _centre_gram(X, G, x_mean)
    return x_mean, y_mean, XtY, yy, G


# Row blocks of the float32 Gram pass (:func:`moments_and_gram32`): the
# float32 copy of a block (1.6 MB at 200 features) stays in a core's L2 cache
# for the BLAS product that reads it (block sizes compared in "Measurements
# behind constants", benchmarks/RESULTS.md).
_GRAM32_BLOCK_ROWS = 2048
_GRAM32_LANES = 8


def moments_and_gram32(est, X, Y, fit_intercept, n_threads=None):
    """:func:`moments_and_gram` with the Gram matrix from float32 row blocks.

    One threaded pass over fixed row blocks: a numba kernel reads each block
    once for the float64 moments (column sums, ``X' Yc``) and writes it,
    minus a shift, as float32 into a per-thread buffer; a single-threaded
    BLAS float32 ``B' B`` (ssyrk, faster than dsyrk) follows while
    the buffer is in cache, and the block products are summed in float64 in
    fixed lanes (thread-count independent). The shift (the mean of the first
    block) keeps float32 products from cancelling when a column's mean is
    large; the exact float64 means then correct the result to
    ``Xc' Xc`` by a rank-one update.

    The Gram matrix is only accurate to about 1e-6 relative: it must serve
    as an approximate Hessian whose result is certified from the data
    (``_coordinate_descent`` checks the exact duality gap with
    :func:`exact_residual_products` and refines).

    Returns
    -------
    None when the threaded pass does not apply (small or non-C-ordered X,
    p > 512) or the float32 products overflow; else ``x_mean, y_mean, XtY,
    yy, G, C`` with ``C`` the centred targets (C-ordered).
    """
    n, p = X.shape
    if (not X.flags.c_contiguous or n * p * p < _GRAM_THREADED_WORK
            or p > _GRAM_MAX_FEATURES):
        return None
    y_mean, C = _centred_targets(Y, fit_intercept)
    shift = X[:_GRAM32_BLOCK_ROWS].mean(axis=0) if fit_intercept else np.zeros(p)
    buffers = threading.local()

    def block(lo, hi):
        buf = getattr(buffers, "buf", None)
        if buf is None:
            buf = buffers.buf = np.empty((_GRAM32_BLOCK_ROWS, p), dtype=np.float32)
        s, q = _cdk.moments_to_float32(X, C, lo, hi, shift, buf)
        B = buf[:hi - lo]
        with np.errstate(over="ignore", invalid="ignore"):  # overflow: checked below
            return s, q, B.T @ B

    if n_threads is None:
        n_threads = os.cpu_count() or 1
    sums, XtY, G = blocked_row_sums(block, n, n_threads, _GRAM32_BLOCK_ROWS, _GRAM32_LANES)
    x_mean, XtY, yy = _finish_moments(est, X, sums, XtY, C, fit_intercept)
    if not np.all(np.isfinite(G)):
        return None
    if fit_intercept:
        d = x_mean - shift
        G -= n * np.outer(d, d)
    return x_mean, y_mean, XtY, yy, G, C


def exact_residual_products(X, x_mean, y, w, n_threads=None):
    """``Xc' r``, ``r' r`` and ``r' y`` for ``r = y - (X - x_mean) w``, from the data.

    One threaded pass over fixed row blocks (thread-count independent sums),
    all in float64: the quantities of an exact duality gap.

    Parameters
    ----------
    X : ndarray (n, p) float64 C-contiguous; x_mean : ndarray (p,)
    y : ndarray (n,) float64 contiguous (centred target); w : ndarray (p,)

    Returns
    -------
    g : ndarray (p,); rr : float; ry : float
    """
    if n_threads is None:
        n_threads = os.cpu_count() or 1
    g, rr, ry = blocked_row_sums(
        lambda lo, hi: _cdk.residual_products(X, x_mean, y, w, lo, hi),
        X.shape[0], n_threads, _GRAM32_BLOCK_ROWS, _GRAM32_LANES)
    return g, float(rr[0]), float(ry[0])


def dense_row_lanes(n_rows, work, lane_work=ROW_LANE_ENTRIES):
    """Bounds (intp, lanes + 1) of the row lanes of a fused pass over dense X: up to 8
    equal lanes of about ``lane_work`` of the pass's ``work``, fixed by X's shape alone
    (so the lanes' sums, added in order by :func:`add_lanes`, do not depend on the
    thread count); one lane for small X."""
    n_lanes = max(1, min(8, work // lane_work, max(n_rows, 1)))
    return np.linspace(0, n_rows, n_lanes + 1).astype(np.intp)


def add_lanes(parts, totals, out):
    """``out`` = the lanes' buffers ``parts`` added in lane order; returns the lanes'
    ``totals`` summed exactly (``math.fsum``)."""
    out[...] = parts[0]
    for part in parts[1:]:
        out += part
    return math.fsum(totals)


def centered_copy(X, x_mean, sw, order="C"):
    """A new array ``(X - x_mean) * sqrt(sw)[:, None]``."""
    A = np.empty(X.shape, order=order)
    np.subtract(X, x_mean, out=A)
    if sw is not None:
        A *= np.sqrt(sw)[:, None]
    return A


def set_coef(est, W, x_mean, y_mean, fit_intercept, was_1d, dtype=np.float64):
    """Store ``coef_`` (t, p) or (p,) and ``intercept_`` from W (p, t).

    ``dtype`` is the input's float dtype (:func:`input_float_dtype`): with
    float32 input both are stored in float32, as scikit-learn does.
    """
    coef = np.ascontiguousarray(W.T)
    if fit_intercept:
        intercept = y_mean - coef @ x_mean
    else:
        intercept = np.zeros(coef.shape[0])
    if was_1d:
        est.coef_ = coef[0]
        est.intercept_ = float(intercept[0])
    else:
        est.coef_ = coef
        est.intercept_ = intercept
    cast_float_attributes(est, dtype, ("coef_", "intercept_"))


class LinearPredictMixin:
    """``predict`` for the linear regressors: ``X @ coef_.T + intercept_``."""

    def predict(self, X):
        """Predict with the fitted linear model.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,) or (n_samples, n_targets)
        """
        check_is_fitted(self)
        X = validate_predict_X(self, X)
        with np.errstate(over="ignore", invalid="ignore"):
            out = linear_product(X, self.coef_)
            out += self.intercept_
        return finite_linear_output(self, out, X)
