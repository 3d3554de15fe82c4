"""Ordinary least squares (seed 000 §4; inference table as in seed 004).

The weighted, centred design and the targets are factored together by one
QR decomposition, ``[Xc | Yc] = Q R``; the coefficients then come from the
small triangular factor (its SVD gives the minimum-norm solution when X is
rank deficient, never an inverse of X'X), and the residual sums of squares
and the unscaled covariance ``(Xc'WXc)^+`` for :meth:`LinearRegression.summary`
come from the same factor at no extra cost.
"""

from contextlib import nullcontext
from numbers import Real

import numpy as np
import scipy.sparse as sp
from scipy import linalg
from scipy.linalg import lapack
from scipy.linalg.blas import dgemm

from .._kernels.gram import row_gram_upper
from .._kernels.jit import start_parallel_runtime
from .._kernels.work import GRAM_PASS_WORK, NNLS_LANE_ENTRIES
from ..base import BaseEstimator, RegressorMixin
from ..utils._dask import add_parts
from ..utils._params import Interval
from ..utils._targets import as_2d_target
from ..utils._threads import (
    auto_n_jobs,
    available_cores,
    beside,
    blas_single_thread,
    pooled_map,
    small_lapack,
)
from ..utils.validation import (
    cast_float_attributes,
    check_is_fitted,
    check_sample_weight,
    input_float_dtype,
    power_of_two_scales,
    validate_data,
)
from . import _dask_fit
from ._base import (
    LinearPredictMixin,
    centered_gram,
    set_coef,
    weighted_means,
)
from ._inference import Deferred, parameter_cov
from ._inference_models import ols_inference, ols_summary, target_moments
from ._nnls_kernels import lawson_hanson
from ._ridge_solvers import solve_lsqr

_MAX_SUMMARY_FEATURES = 2000
# columns whose power-of-two scales (see _solve_ols) span at most this factor share one
_UNIFORM_SCALE_SPAN = 2.0**200
# relative singular-value cut of a float32 fit at least: a QR of float32 data leaves
# its null directions at about one float32 epsilon of the largest singular value
_FLOAT32_RANK_CUT = 4 * float(np.finfo(np.float32).eps)


# bytes of a block of the design factored at a time (tall-skinny QR): a block of
# [Xc | Yc] stays in cache while LAPACK factors it; at most _QR_BLOCK_ROWS rows
_QR_BLOCK_BYTES = 1 << 22
_QR_BLOCK_ROWS = 8192
_QR_BLOCK_MIN_ASPECT = 4
_EPS = float(np.finfo(np.float64).eps)
# a non-negative fit on no more rows than features runs beside the singular values of its
# design from this many rows, when the features are at most this many times the rows
# (the eigenvalues of the n x n A A' then take about as long as the fit)
_NNLS_BESIDE_ROWS = 256
_NNLS_BESIDE_WIDTH = 1.5


def _r_factor(A):
    """The upper-triangular ``R`` (``min(n, w)`` x ``w``) of ``A = QR`` (``A`` (n, w),
    Fortran order, overwritten); LAPACK's geqrf, without forming Q."""
    geqrf, = linalg.get_lapack_funcs(("geqrf",), (A,))
    qr, _, _, info = geqrf(A, overwrite_a=True)
    if info != 0:
        raise ValueError(f"LAPACK geqrf failed (info={info}).")
    return np.triu(qr[: min(A.shape)])


def design_r_factor(X, Y, x_mean, y_mean, sw):
    """``R`` of the centred, weighted design ``[Xc | Yc]`` (see :func:`_design`), without
    copying it whole: blocks of ``_QR_BLOCK_ROWS`` rows are factored one at a time in
    cache, then their stacked ``R`` factors (a tall-skinny QR). ``R`` is unique up to the
    signs of its rows, which no least-squares solution depends on."""
    n = X.shape[0]
    # the blocks in threads from GRAM_PASS_WORK (LAPACK releases the GIL), each on one
    # BLAS thread, stacked in block order: R does not depend on the threads
    width = X.shape[1] + Y.shape[1]
    tall = n >= 2 * _QR_BLOCK_MIN_ASPECT * width  # at least two blocks to share
    n_threads = available_cores() if tall and n * width * width >= GRAM_PASS_WORK else 1
    rows = _qr_block_rows(n, width, n_threads, X.dtype.itemsize)

    starts = range(0, n, rows)
    n_threads = min(n_threads, len(starts))

    def thread_r(first):
        # this thread's blocks (every n_threads-th) in one scratch array of its own:
        # a fresh array per block paid its page faults at every fit
        scratch = np.empty((rows, width), dtype=X.dtype, order="F")
        factors = []
        for lo in starts[first::n_threads]:
            hi = min(n, lo + rows)
            block_sw = None if sw is None else sw[lo:hi]
            A = scratch[: hi - lo]
            _design(X[lo:hi], Y[lo:hi], x_mean, y_mean, block_sw, out=A)
            factors.append(_r_factor(A))
        return factors

    with blas_single_thread():
        by_thread = pooled_map(thread_r, range(n_threads), n_threads)
        # block order: block i was the (i // n_threads)-th of thread i % n_threads
        parts = [by_thread[i % n_threads][i // n_threads] for i in range(len(starts))]
        if len(parts) == 1:  # one block: its R is the design's
            return parts[0]
        return _r_factor(np.asfortranarray(np.vstack(parts)))


def _qr_block_rows(n, width, n_threads, itemsize=8):
    """Rows per block of the tall-skinny QR: blocks of about ``_QR_BLOCK_BYTES`` (at most
    ``_QR_BLOCK_ROWS`` rows), as many blocks as a multiple of the threads and of equal
    size, so no thread factors one block more than another (five blocks on two threads
    took as long as six).

    Examples
    --------
    >>> _qr_block_rows(20_000, 201, 2), _qr_block_rows(20_000, 201, 1)
    (2500, 2500)
    """
    most = max(256, min(_QR_BLOCK_ROWS, _QR_BLOCK_BYTES // (itemsize * width)))
    # a block of fewer rows than a few times its width is a square-ish QR of its own,
    # and stacking such blocks' R factors doubles the work: factor the design whole
    most = max(most, _QR_BLOCK_MIN_ASPECT * width)
    n_blocks = max(1, -(-n // most))
    n_blocks += -n_blocks % n_threads
    return max(1, -(-n // n_blocks))


def lstsq_qr(R, n_samples, n_features, rcond=None):
    """Minimum-norm least squares from the triangular QR factor ``R`` of ``A = [X | Y]``
    (:func:`design_r_factor`).

    Parameters
    ----------
    R : ndarray (min(n, p + t), p + t).
    n_samples : int, n (sets the default cut-off).
    n_features : int, p.
    rcond : float, optional; relative singular-value cut-off.

    Returns
    -------
    W : ndarray (p, t); rss : ndarray (t,); rank : int; s : singular values of X;
    Vt : right singular vectors of X (rank-truncated rows)
    """
    n = n_samples
    p = n_features
    R1, B = R[:, :p], R[:, p:]
    U, s, Vt = linalg.svd(R1, full_matrices=False, check_finite=False)
    if rcond is None:
        rcond = np.finfo(np.float64).eps * max(n, p)
    keep = s > rcond * (s[0] if s.size else 0.0)
    rank = int(keep.sum())
    U, sk, Vt = U[:, keep], s[keep], Vt[keep]
    W = Vt.T @ ((U.T @ B) / sk[:, None])
    resid = B - R1 @ W
    rss = np.einsum("ij,ij->j", resid, resid)
    return W, rss, rank, s, Vt, sk


def _design(X, Y, x_mean, y_mean, sw, out=None):
    """Fortran scratch array ``[Xc | Yc]``, centred and weighted, in X's precision
    (float32 X: single precision, centred from float64 means); written into ``out``
    (Fortran, n x (p + t)) when given."""
    n, p = X.shape
    A = np.empty((n, p + Y.shape[1]), dtype=X.dtype, order="F") if out is None else out
    A[:, :p] = X
    A[:, p:] = Y
    A[:, :p] -= x_mean
    A[:, p:] -= y_mean
    if sw is not None:
        A *= np.sqrt(sw)[:, None]
    return A


def _residual_products(X, Y, W, x_mean, y_mean, sw):
    """``Xc' S R`` and ``sum S R^2`` for ``R = Yc - Xc W`` (S the weights), blockwise."""
    n, p = X.shape
    XtR = np.zeros_like(W)
    rss = np.zeros(W.shape[1])
    step = 4096
    for start in range(0, n, step):
        B = X[start:start + step] - x_mean
        Rb = (Y[start:start + step] - y_mean) - B @ W
        if sw is not None:
            Rw = Rb * sw[start:start + step, None]
        else:
            Rw = Rb
        XtR += B.T @ Rw
        rss += np.einsum("ij,ij->j", Rb, Rw)
    return XtR, rss


def _solve_ols(X, Y, x_mean, y_mean, sw, rcond, values=True):
    """Least squares on X with extreme columns divided by powers of two first.

    A column with values near 1e300 (or 1e-300) would overflow (or
    underflow) the Gram matrix; dividing it by a power of two is exact, the
    solution on the scaled columns maps back exactly (``W / d``), so the
    result is the least-squares solution of the data as given.

    Returns W (p, t), rss (t,), rank, singular values, and None or a
    :class:`~._inference.Deferred` (formed on first use) of ``(C, e)``, with
    ``(Xc'WXc)^+ = diag(e) C diag(e)``: ``e = 1 / d`` for the columns' scales ``d``
    (None where X needed none), so that summary() reads standard errors that the
    unscaled matrix would over- or underflow. The singular values may be None when
    ``values`` is false (a caller that needs W only).
    """
    d = power_of_two_scales(X, means=x_mean)
    if d is None:
        W, rss, rank, s, M = _solve_ols_scaled(X, Y, x_mean, y_mean, sw, rcond, values)
        return W, rss, rank, s, None if M is None else M.then(lambda C: (C, None))
    if d.max() <= _UNIFORM_SCALE_SPAN * d.min():
        # one scale for every column where their magnitudes allow it: the minimum-norm
        # solution of a rank-deficient design maps back exactly under a uniform scale
        # only (per-column scales change which solution has the least norm)
        d = np.full_like(d, d.max())
    W, rss, rank, s, M = _solve_ols_scaled(X / d, Y, x_mean / d, y_mean, sw, rcond, values)
    if s is not None and np.all(d == d[0]):
        s = s * d[0]
    elif s is not None:  # singular values of the design as given (LAPACK scales inside)
        s = linalg.svdvals(_design(X, np.zeros((X.shape[0], 0)), x_mean, np.zeros(0), sw),
                           check_finite=False)
    return W / d[:, None], rss, rank, s, None if M is None else M.then(lambda C: (C, 1.0 / d))


def _solve_ols_scaled(X, Y, x_mean, y_mean, sw, rcond, values=True):
    """Least squares: Cholesky on the Gram matrix with one refinement step when
    X is well conditioned (half the flops of QR, same accuracy after refining),
    otherwise the minimum-norm QR/SVD solution.

    Returns W (p, t), rss (t,), rank, singular values, M = (Xc'WXc)^+ (deferred) or
    None.
    """
    n, p = X.shape
    # no residual degrees of freedom: the n x n dual route (a centred square design has
    # rank n - 1 at most; an uncentred one may be certified on its Gram matrix first)
    centred = bool(x_mean.any())
    if n < p or (n == p and centred):
        return _solve_wide(X, Y, x_mean, y_mean, sw, rcond, values)
    if X.dtype == np.float32:
        # single precision, as scikit-learn's (LAPACK's sgelsd): one QR of the float32
        # design centred from float64 means; rank cut no finer than float32's rounding
        R = design_r_factor(X, Y, x_mean, y_mean, sw).astype(np.float64)
        return _solve_from_r(R, n, p, max(rcond, _FLOAT32_RANK_CUT))
    if n >= p:
        G, XtY, _ = centered_gram(X, x_mean, sw, Y, y_mean)
        if not values:  # no singular values wanted: an O(p^2) certificate
            solved = _solve_certified_gram(X, Y, x_mean, y_mean, sw, G, XtY)
            if solved is not None:
                return *solved, p, None, None
            if n == p:
                return _solve_wide(X, Y, x_mean, y_mean, sw, rcond, values)
            return _solve_from_r(design_r_factor(X, Y, x_mean, y_mean, sw), n, p, rcond)
        lam = _gram_eigenvalues_if_definite(G, rcond)
        if lam is not None:
            cho = linalg.cho_factor(G, lower=False, check_finite=False)
            W = linalg.cho_solve(cho, XtY, check_finite=False)
            XtR, _ = _residual_products(X, Y, W, x_mean, y_mean, sw)
            W += linalg.cho_solve(cho, XtR, check_finite=False)
            _, rss = _residual_products(X, Y, W, x_mean, y_mean, sw)
            s = np.sqrt(np.maximum(lam, 0.0))
            M = None
            if p <= _MAX_SUMMARY_FEATURES and Y.shape[1] == 1:  # summary() of one target
                M = Deferred(lambda: linalg.cho_solve(cho, np.eye(p), check_finite=False))
            return W, rss, p, s, M
        if n == p:
            return _solve_wide(X, Y, x_mean, y_mean, sw, rcond, values)
    return _solve_from_r(design_r_factor(X, Y, x_mean, y_mean, sw), n, p, rcond)


# LAPACK's estimate of the reciprocal condition number (1-norm) of the Gram matrix with
# its columns scaled to unit diagonal above which its Cholesky factor solves a fit that
# needs no singular values (LeastSquaresClassifier's, dense or sparse), as the
# eigenvalue test (_gram_eigenvalues_if_definite) requires of its eigenvalues
GRAM_RCOND = 1e-10


def scaled_cholesky_if_certified(G):
    """A solver ``B -> G^-1 B`` by the Cholesky factor of ``D^-1 G D^-1`` (``D`` the
    diagonal of roots of G's diagonal) where LAPACK's condition estimate from that factor
    (``dpocon``, O(p^2)) is above :data:`GRAM_RCOND`; else None. G is overwritten by the
    scaled matrix (one triangle read). An O(p^2) certificate in place of the
    eigenvalues' O(p^3), for callers that need no singular values; it reads the scaled
    matrix, so on its own it does not cut directions by their share of the largest
    singular value.

    Examples
    --------
    >>> import numpy as np
    >>> solve = scaled_cholesky_if_certified(np.array([[4.0, 2.0], [2.0, 9.0]]))
    >>> np.round(solve(np.array([[4.0], [2.0]])).ravel(), 12).tolist()
    [1.0, 0.0]
    >>> scaled_cholesky_if_certified(np.array([[1.0, 1.0], [1.0, 1.0]])) is None
    True
    """
    d = np.sqrt(np.maximum(np.diag(G), 0.0))
    if not np.all(d > 0):
        return None
    G /= d
    G /= d[:, None]
    norm1 = linalg.norm(G, 1, check_finite=False)  # LAPACK's lange, no copy
    try:
        factor = linalg.cho_factor(G, overwrite_a=True, check_finite=False)
    except linalg.LinAlgError:
        return None
    rcond, info = lapack.dpocon(factor[0], norm1)
    if info != 0 or not rcond > GRAM_RCOND:
        return None

    def solve(B):
        return linalg.cho_solve(factor, B / d[:, None], check_finite=False) / d[:, None]

    return solve


def _solve_certified_gram(X, Y, x_mean, y_mean, sw, G, XtY):
    """W (p, t) and the RSS from G's scaled Cholesky factor with one refinement step on
    the data's residuals, or None where :func:`scaled_cholesky_if_certified` fails."""
    solve = scaled_cholesky_if_certified(G)
    if solve is None:
        return None
    W = solve(XtY)
    XtR, _ = _residual_products(X, Y, W, x_mean, y_mean, sw)
    W += solve(XtR)
    _, rss = _residual_products(X, Y, W, x_mean, y_mean, sw)
    return W, rss


def _gram_eigenvalues_if_definite(G, rcond):
    """The eigenvalues of the Gram matrix ``G`` (descending) when its Cholesky route
    solves the least-squares problem as the minimum-norm one would: ``G`` well
    conditioned once its columns are scaled (refinement then recovers the accuracy),
    and no direction below the singular-value cut ``rcond``; else None."""
    d = np.sqrt(np.diag(G))
    if not np.all(d > 0):
        return None
    lam = linalg.eigvalsh(G, check_finite=False)[::-1]
    if not _keeps_every_direction(lam, rcond):
        return None
    # the scaled matrix's eigenvalue ratio is at least G's times min(d^2) / max(d^2):
    # its own eigenvalues are needed only when that bound does not settle the test
    bound = lam[-1] / lam[0] * (d.min() / d.max()) ** 2 if lam[0] > 0 else 0.0
    if not bound > 1e-10:
        ev = linalg.eigvalsh(G / d / d[:, None], check_finite=False)
        if not ev[0] > 1e-10 * ev[-1]:
            return None
    return lam


def _keeps_every_direction(lam, rcond):
    """Whether the singular-value cut ``rcond`` (relative to the largest, LAPACK gelsd's
    ``cond``, scikit-learn's ``tol``) keeps every direction of a design whose Gram
    matrix has the eigenvalues ``lam`` (descending): the smallest singular value clears
    the cut by a margin, and its square lies well above the eigenvalues' rounding
    (about 1e-16 of the largest), so the test cannot be misread. Otherwise the QR / SVD
    route decides the rank from the singular values themselves.

    Examples
    --------
    >>> _keeps_every_direction(np.array([4.0, 1.0]), 1e-6)
    True
    >>> _keeps_every_direction(np.array([1e12, 1e-3]), 1e-6)  # s ratio 3e-8 is cut
    False
    """
    return bool(lam[-1] > max(1.01 * rcond**2, 1e-10) * lam[0])


# The dual route of a wide design (no more rows than features) decides the rank from the
# eigenvalues of Xc Xc', whose rounding is about 1e-14 of the largest: it runs only
# when the singular-value cut is at least _WIDE_MIN_RCOND of the largest and no
# eigenvalue falls in the band _WIDE_GAP (relative to the largest) around noise and
# the cut, nor within 1% of a coarser cut, where the two could be confused; otherwise
# LAPACK's gelsd runs.
_WIDE_MIN_RCOND = 1e-7
_WIDE_GAP = (1e-13, 1e-10)


def _solve_wide(X, Y, x_mean, y_mean, sw, rcond, values=True):
    """Minimum-norm least squares for no more rows than features: ``W = Xc' (Xc Xc')^+ Yc``
    from the n x n ``K = Xc Xc'`` (one BLAS product), then one step of iterative
    refinement. Where ``K`` is certified to keep every direction (see
    :func:`_dual_factor_if_certified`) its Cholesky factor solves; otherwise its
    eigenpairs decide the rank, and LAPACK's gelsd (scikit-learn's solver) runs where
    the eigenvalues cannot tell it (see ``_WIDE_GAP``). No summary covariance: with no
    more rows than coefficients there are no residual degrees of freedom.

    Returns W (p, t), rss (t,), rank, singular values (n,; None when ``values`` is
    false and the Cholesky route solved), None.
    """
    if sw is None and X.dtype == np.float64 and not x_mean.any():
        A = X  # nothing to centre or weigh: X itself, only read below
    else:
        A = X - x_mean  # float64 whatever X's precision (x_mean is float64)
    B = Y - y_mean
    if sw is not None:
        root = np.sqrt(sw)[:, None]
        A *= root
        B = B * root
    K = row_gram_upper(A)
    certified = _dual_factor_if_certified(A, K, sw, rcond)
    if certified is not None:
        factor, rank = certified

        def dual_solve(R):
            # scipy's BLAS, the library of the factorisations beside it: numpy's threads
            # would still spin into them after a threaded product (A.T is the
            # Fortran view dgemm takes without a copy)
            return dgemm(1.0, A.T, linalg.cho_solve(factor, R, check_finite=False))

        s = None
        if values:
            lam = linalg.eigvalsh(K, lower=False, overwrite_a=True, check_finite=False)
            s = np.sqrt(np.maximum(lam[::-1], 0.0))
    else:
        lam, U = linalg.eigh(K, lower=False, driver="evd", overwrite_a=True,
                             check_finite=False)
        lam, U = lam[::-1], U[:, ::-1]
        top = lam[0] if lam.size and lam[0] > 0 else 0.0
        ratio = lam / top if top > 0 else np.zeros_like(lam)
        lo, hi = _WIDE_GAP
        cut = rcond**2  # the cut on the eigenvalues' ratio, squared singular values
        near_cut = (ratio > cut / 1.01) & (ratio < 1.01 * cut)
        # a cut finer than the eigenvalues resolve (rcond < _WIDE_MIN_RCOND) needs gelsd,
        # unless every eigenvalue is clearly above the gap: then all directions are kept
        # whatever the cut
        fine = rcond < _WIDE_MIN_RCOND and not (ratio.size and ratio[-1] >= hi)
        if top <= 0 or fine or np.any((ratio > lo) & (ratio < hi)) or np.any(near_cut):
            return _solve_wide_gelsd(A, B, rcond)
        keep = ratio > max(cut, lo)
        rank = int(keep.sum())
        Uk, inv = U[:, keep], 1.0 / lam[keep]

        def dual_solve(R):
            return A.T @ (Uk @ ((Uk.T @ R) * inv[:, None]))

        s = np.sqrt(np.maximum(lam, 0.0))
    W = dual_solve(B)
    # the residuals by scipy's BLAS, the library of the factorisations (A.T: A's
    # Fortran view, no copy)
    W += dual_solve(B - dgemm(1.0, A.T, W, trans_a=1))
    resid = B - dgemm(1.0, A.T, W, trans_a=1)
    rss = np.einsum("ij,ij->j", resid, resid)
    return W, rss, rank, s, None


def _dual_factor_if_certified(A, K, sw, rcond):
    """The Cholesky factor that solves the wide design's dual system as its eigenpairs
    would, with the rank, when every direction of ``A`` (n x p, n <= p) is kept; else None.

    A centred design has the null direction ``u`` (the root weights, normalised):
    ``A' u = 0`` up to the centring's rounding. Where ``|A' u|`` lies a hundred times
    below the cut (relative to the least the largest singular value can be), gelsd would
    drop it as well, and ``M = K + t u u'`` (t the trace of ``K``) has the eigenvalues
    of ``K`` on the other directions, with ``A' M^-1 = A' K^+``. Every one of those is certified to lie above ``g t``, where ``g`` is the
    larger of the eigen route's gap and its cut (both relative to the largest
    eigenvalue, itself at most ``t``), when the Cholesky factorisation of ``M - g t I``
    succeeds: its backward error, some ``n eps t``, is kept a tenth of the shift or less. The
    eigen route would then keep every such direction, and M's own factor solves.
    Two factorisations cost about a fifth of the eigenpairs."""
    n = A.shape[0]
    trace = float(np.trace(K))
    shift = max(_WIDE_GAP[1], 1.01 * rcond**2) * trace
    if not trace > 0 or not np.isfinite(trace) or shift < 10 * n * _EPS * trace:
        return None
    u = np.ones(n) if sw is None else np.sqrt(sw)
    u /= np.linalg.norm(u)
    # A' u without numpy's BLAS (its threads would spin into the factorisations)
    sums = A.sum(axis=0) / np.sqrt(n) if sw is None else np.einsum("ij,i->j", A, u)
    deflated = np.linalg.norm(sums) <= 0.01 * rcond * np.sqrt(trace / n)
    M = np.array(K, order="F")
    if deflated:  # the factorisations read the upper triangle only
        M += trace * np.outer(u, u)
    # the shifted factorisation on a copy: a failure (not positive definite) leaves the
    # certificate unproven
    shifted = M.copy(order="F")
    shifted.flat[::n + 1] -= shift
    _, info = lapack.dpotrf(shifted, lower=0, overwrite_a=1, clean=0)
    if info != 0:
        return None
    factor, info = lapack.dpotrf(M, lower=0, overwrite_a=1, clean=0)
    if info != 0:
        return None
    return (factor, False), n - int(deflated)


def _solve_wide_gelsd(A, B, rcond):
    """:func:`_solve_wide` by LAPACK's gelsd on the centred, weighted design ``A``."""
    # A is kept (not overwritten by LAPACK): the residuals below need it
    W, _, rank, s = linalg.lstsq(A, B, cond=rcond, lapack_driver="gelsd",
                                 check_finite=False)
    resid = B - A @ W
    return W, np.einsum("ij,ij->j", resid, resid), int(rank), s, None


def block_pivoting_nnls(G, c, solve_free, free=None):
    """Minimiser of ``1/2 x'Gx - c'x`` over ``x >= 0`` (G symmetric positive definite, or
    semidefinite with ``solve_free`` coping): block principal pivoting (Kim and Park,
    SIAM J. Sci. Comput. 2011). Each step splits the variables into a free set F, set
    to the unconstrained minimiser over F (``solve_free(F)``), and the rest, held at
    zero; every variable breaking its KKT condition (a free one negative, a held one
    with a negative gradient) changes sides at once, so a handful of steps settle
    hundreds of variables, each one factorisation of ``G`` restricted to F. When the
    number of such variables stops falling for three steps, one variable (the last)
    changes sides at a time, which ends the search. Returns None if it has not ended
    after ``3 p + 30`` steps (rounding), for the caller to fall back to Lawson-Hanson.
    The search starts from the free set ``free`` (a guess: any start ends the same),
    by default none.
    """
    p = c.shape[0]
    x = np.zeros(p)
    if free is None or not free.any():
        free = np.zeros(p, dtype=bool)
        grad = -c
    else:
        free = free.copy()
        x[free] = solve_free(free)
        grad = G @ x - c
        grad[free] = 0.0
    slack_y = 1e-12 * max(float(np.abs(c).max(initial=0.0)), np.finfo(np.float64).tiny)
    fewest, chances = p + 1, 3
    for _ in range(3 * p + 30):
        slack_x = 1e-12 * max(float(np.abs(x).max(initial=0.0)), np.finfo(np.float64).tiny)
        wrong = np.where(free, x < -slack_x, grad < -slack_y)
        count = int(wrong.sum())
        if count == 0:
            return np.maximum(x, 0.0)
        if count < fewest:
            fewest, chances = count, 3
        elif chances > 0:
            chances -= 1
        else:
            last = np.flatnonzero(wrong)[-1]
            wrong[:] = False
            wrong[last] = True
        free ^= wrong
        x = np.zeros(p)
        if free.any():
            x[free] = solve_free(free)
        grad = G @ x - c
        grad[free] = 0.0
    return None


def _cholesky_free_solve(G, c):
    """``solve_free`` of :func:`block_pivoting_nnls`: ``G_FF x = c_F`` by Cholesky."""
    def solve(free):
        factor = linalg.cho_factor(G[np.ix_(free, free)], check_finite=False)
        return linalg.cho_solve(factor, c[free], check_finite=False)
    return solve


class _DefiniteFreeSolver:
    """``solve_free`` of :func:`block_pivoting_nnls` for a positive definite G: while
    few variables are held at zero (H, the rest F), ``G_FF x = c_F`` comes from G's own
    Cholesky factor, made once: with ``z = G^-1 c`` and ``V = G^-1 E_H``,
    ``x = z_F - V_F (V_H^-1 z_H)`` (the minimiser over F is that of the whole problem
    with multipliers on H that hold ``x_H = 0``), O(p^2 |H|) per step instead of a
    new factorisation, O(|F|^3 / 3). Otherwise, or when its residual shows rounding
    (a nearly singular G), it factors ``G_FF`` itself (:func:`_cholesky_free_solve`).
    :meth:`unconstrained` is ``G^-1 c``, a start for the search."""

    def __init__(self, G, c):
        self.G, self.c = G, c
        self._direct = _cholesky_free_solve(G, c)
        self._factor = None  # G's factor and G^-1 c, made at the first step that uses them
        self._z = None

    def unconstrained(self):
        """``G^-1 c`` (G's factor is made at the first call and kept)."""
        if self._factor is None:
            self._factor = linalg.cho_factor(self.G, check_finite=False)
            self._z = linalg.cho_solve(self._factor, self.c, check_finite=False)
        return self._z

    def __call__(self, free):
        G, c = self.G, self.c
        p = c.shape[0]
        held = np.flatnonzero(~free)
        n_free = p - held.size
        if 6 * held.size * p * p >= n_free**3:
            return self._direct(free)
        z = self.unconstrained()
        if held.size == 0:
            return z.copy()
        E = np.zeros((p, held.size))
        E[held, np.arange(held.size)] = 1.0
        V = linalg.cho_solve(self._factor, E, check_finite=False)
        x = np.zeros(p)
        x[free] = z[free] - V[free] @ np.linalg.solve(V[held], z[held])
        residual = np.abs((G @ x - c)[free]).max(initial=0.0)
        scale = np.abs(c).max() + np.abs(G).max() * np.abs(x).max()
        if not residual <= 1e-10 * scale:
            return self._direct(free)
        return x[free]


def nonnegative_lstsq(A, b, on_one_thread=False, started=None):
    """``argmin ||A x - b||`` over ``x >= 0`` by Lawson and Hanson's active-set
    algorithm (:func:`~classiclearn.linear_model._nnls_kernels.lawson_hanson`), the
    algorithm and the path of scipy's ``optimize.nnls`` (and so the solution
    scikit-learn reports where several fit equally well), with its iteration limit
    of three times the number of columns.

    Parameters
    ----------
    A : ndarray of shape (m, p)
    b : ndarray of shape (m,)
    on_one_thread : bool, default=False
        Keep the kernel's passes on this thread (else they run in lanes on numba's
        threads once large enough).
    started : callable, optional
        Called just before the kernel starts (see :func:`~classiclearn.utils._threads.beside`).

    Returns
    -------
    ndarray of shape (p,)

    Examples
    --------
    >>> import numpy as np
    >>> x = nonnegative_lstsq(np.array([[1.0, 0.0], [1.0, 0.0], [0.0, 1.0]]),
    ...                       np.array([2.0, 1.0, -1.0]))
    >>> np.round(x, 12).tolist()
    [1.5, 0.0]
    """
    m, p = A.shape
    columns = np.array(A.T, dtype=np.float64, order="C")  # the kernel's scratch
    rhs = np.array(b, dtype=np.float64)
    lanes = 1 if on_one_thread else auto_n_jobs(None, m * p, NNLS_LANE_ENTRIES)
    start_parallel_runtime()
    if started is not None:
        started()
    x, converged = lawson_hanson(columns, rhs, 3 * p, NNLS_LANE_ENTRIES, lanes)
    if not converged:
        raise RuntimeError("Non-negative least squares reached its iteration limit "
                           f"({3 * p}, three per feature) without converging.")
    return x


def positive_ridge(X, Y, x_mean, y_mean, sw, alphas):
    """Non-negative ridge coefficients (p, t): block principal pivoting on the
    penalised normal equations ``(Xc'WXc + alpha I) w = Xc'WYc`` (the system the
    Cholesky solver of Ridge solves, positive definite for ``alpha > 0``), from one
    pass over X for the Gram matrix; a target with ``alpha = 0`` is fitted as
    :class:`LinearRegression` fits it (:func:`_solve_nnls`)."""
    n, p = X.shape
    # the Gram matrix on BLAS's threads once it is a large product, the p x p
    # factorisations on one thread (BLAS's threads would only spin)
    with small_lapack(p) if n * p * p < GRAM_PASS_WORK else nullcontext():
        G, C, _ = centered_gram(X, x_mean, sw, Y, y_mean)
    W = np.empty((p, Y.shape[1]))
    with small_lapack(p):
        for k in range(Y.shape[1]):
            if alphas[k] == 0:
                W[:, k] = _solve_nnls(X, Y[:, k:k + 1], x_mean, y_mean[k:k + 1], sw,
                                      0.0)[0][:, 0]
                continue
            Gk = G + alphas[k] * np.eye(p)
            solve = _DefiniteFreeSolver(Gk, C[:, k])
            # most variables are pushed up at zero (c > 0): most will be free, and the
            # search starts where the unconstrained solution is positive, from G's
            # factor, which the steps then share; else from none free (small F_s)
            start = None
            if 4 * np.count_nonzero(C[:, k] > 0) >= 3 * p:
                start = solve.unconstrained() > 0
            w = block_pivoting_nnls(Gk, C[:, k], solve, free=start)
            if w is None:  # rounding kept the pivoting going: Lawson-Hanson on the factor
                L = linalg.cholesky(Gk, lower=True, check_finite=False)
                w = nonnegative_lstsq(L.T, linalg.solve_triangular(L, C[:, k], lower=True))
            W[:, k] = w
    return W


def _solve_nnls(X, Y, x_mean, y_mean, sw, tol):
    """Non-negative least squares per target on the centred, weighted design.

    The design ``[Xc | Yc]`` is reduced to its triangular factor ``R = [R1 | B]``
    (:func:`design_r_factor`), and ``|Xc w - yc|^2 = |R1 w - b|^2`` for every ``w``.
    The variables left free come from block principal pivoting on ``R1'R1``
    (:func:`block_pivoting_nnls`); the coefficients on them are then the least-squares
    solution of ``R1`` restricted to them (QR, as accurate as a fit on X itself).
    Where the pivoting does not settle (a rank-deficient design), Lawson-Hanson's
    NNLS runs on ``R1``.

    Returns W (p, t), rss (t,), rank, singular values, None."""
    p = X.shape[1]
    if X.shape[0] <= p:
        return _solve_nnls_wide(X, Y, x_mean, y_mean, sw, tol)
    solved = _solve_nnls_gram(X, Y, x_mean, y_mean, sw, tol)
    if solved is not None:
        return solved
    R = design_r_factor(X, Y, x_mean, y_mean, sw)
    R1, B = R[:, :p], R[:, p:]
    G = R1.T @ R1
    W = np.zeros((p, Y.shape[1]))
    for k in range(Y.shape[1]):
        c = R1.T @ B[:, k]
        try:
            w = block_pivoting_nnls(G, c, _cholesky_free_solve(G, c))
        except linalg.LinAlgError:
            w = None
        if w is None:
            W[:, k] = nonnegative_lstsq(R1, B[:, k])
            continue
        free = w > 0
        if free.any():  # the coefficients on the free set from R1 itself
            W[free, k] = np.maximum(
                linalg.lstsq(R1[:, free], B[:, k], lapack_driver="gelsy",
                             check_finite=False)[0], 0.0)
    s = linalg.svdvals(R1, check_finite=False)
    resid = B - R1 @ W
    rank = int((s > tol * (s[0] if s.size else 0)).sum())
    return W, np.einsum("ij,ij->j", resid, resid), rank, s, None


def _solve_nnls_gram(X, Y, x_mean, y_mean, sw, tol):
    """:func:`_solve_nnls` from the Gram matrix ``Xc'WXc`` where it is certified well
    conditioned (:func:`_gram_eigenvalues_if_definite`, as the unconstrained fit's
    Cholesky route): block principal pivoting on it, then the coefficients on the free
    set by its Cholesky factor with one step of refinement from the data's residuals
    (the accuracy of a fit on X itself, as in :func:`_solve_ols_scaled`). Every
    direction is kept, so the rank is p and the singular values are the roots of the
    Gram matrix's eigenvalues. None where the certificate fails or the pivoting does
    not settle (the QR route then runs)."""
    p, t = X.shape[1], Y.shape[1]
    G, XtY, _ = centered_gram(X, x_mean, sw, Y, y_mean)
    lam = _gram_eigenvalues_if_definite(G, tol)
    if lam is None:
        return None
    W = np.zeros((p, t))
    for k in range(t):
        c = XtY[:, k]
        solve = _DefiniteFreeSolver(G, c)
        # the search starts where the unconstrained solution is positive (from G's
        # factor, which the steps holding few variables at zero then share)
        w = block_pivoting_nnls(G, c, solve, free=solve.unconstrained() > 0)
        if w is None:
            return None
        free = w > 0
        if free.any():
            cho = linalg.cho_factor(G[np.ix_(free, free)], check_finite=False)
            W[free, k] = linalg.cho_solve(cho, c[free], check_finite=False)
            XtR, _ = _residual_products(X, Y[:, k:k + 1], W[:, k:k + 1], x_mean,
                                        y_mean[k:k + 1], sw)
            W[free, k] += linalg.cho_solve(cho, XtR[free, 0], check_finite=False)
            W[free, k] = np.maximum(W[free, k], 0.0)
    _, rss = _residual_products(X, Y, W, x_mean, y_mean, sw)
    return W, rss, p, np.sqrt(np.maximum(lam, 0.0)), None


def _solve_nnls_wide(X, Y, x_mean, y_mean, sw, tol):
    """:func:`_solve_nnls` of a design with no more rows than features, whose ``R`` factor
    is no smaller than itself and whose Gram matrix is singular (the pivoting would not
    settle): Lawson-Hanson on the centred, weighted design itself, as scikit-learn's.

    The singular values come from the eigenvalues of ``A A'`` (n x n): less time than an
    SVD, each accurate to about ``eps s_max^2 / s``, ample for the rank at any tol
    above ~1e-7. On a nearly square design they cost about as much as the fit itself,
    and the fit's kernel then runs on a second thread beside them."""
    n, p = X.shape
    D = _design(X, Y, x_mean, y_mean, sw)
    A, B = D[:, :p], D[:, p:]

    def fit_targets(on_one_thread=False, started=None):
        return np.column_stack([nonnegative_lstsq(A, B[:, k], on_one_thread, started)
                                for k in range(B.shape[1])])

    def singular_values():
        lam = linalg.eigvalsh(row_gram_upper(A), lower=False, overwrite_a=True,
                              check_finite=False)[::-1]
        return np.sqrt(np.maximum(lam, 0.0))

    if (n >= _NNLS_BESIDE_ROWS and p <= _NNLS_BESIDE_WIDTH * n
            and auto_n_jobs(None, 1, 1) > 1):
        W, s = beside(lambda started: fit_targets(True, started), singular_values)
    else:
        W, s = fit_targets(), singular_values()
    resid = B - A @ W
    rank = int((s > tol * (s[0] if s.size else 0)).sum())
    return W, np.einsum("ij,ij->j", resid, resid), rank, s, None


def _solve_from_r(R, n, p, rcond):
    """Minimum-norm solution, RSS, rank, singular values and ``(Xc'WXc)^+`` (None above
    ``_MAX_SUMMARY_FEATURES``) from the design's QR factor ``R``."""
    W, rss, rank, s, Vt, sk = lstsq_qr(R, n, p, rcond)
    M = Deferred(lambda: (Vt.T / sk**2) @ Vt) if p <= _MAX_SUMMARY_FEATURES else None
    return W, rss, rank, s, M


def _solve_ols_dask(est, G, XtY, stats):
    """Coefficients and inference of OLS from merged moments (see ``_dask_fit``)."""
    p = G.shape[0]
    x_mean, y_mean = stats["x_mean"], stats["y_mean"]
    lam = _gram_eigenvalues_if_definite(G, est.tol)
    if lam is not None:
        cho = linalg.cho_factor(G, lower=False, check_finite=False)
        W = linalg.cho_solve(cho, XtY, check_finite=False)
        W, rss = _dask_fit.refine_and_rss(stats, W, cho, G)
        rank = p
        s = np.sqrt(np.maximum(lam, 0.0))
        M = linalg.cho_solve(cho, np.eye(p), check_finite=False)
    else:
        W, rank, s, M = _dask_fit.min_norm_solve(G, XtY, est.tol)
        _, rss = _dask_fit.reduce_blocks(
            _dask_fit._residual_block(W, x_mean, y_mean), add_parts, stats["blocks"])
    est.rank_ = rank
    est.singular_ = s
    set_coef(est, W, x_mean, y_mean, est.fit_intercept, stats["was_1d"])
    est._inference = None
    if stats["was_1d"] and p <= _MAX_SUMMARY_FEATURES:
        cov = parameter_cov(M, None, x_mean, stats["total"], est.fit_intercept)
        tss = float(stats["comoments"][p, p])  # about the mean, or zero without intercept
        est._inference = ols_inference(rss[0], tss, _dask_fit.half_sum_log_weights(stats),
                                       stats["n_rows"], rank, cov, est.fit_intercept)


class LinearRegression(LinearPredictMixin, RegressorMixin, BaseEstimator):
    """Ordinary least squares linear regression.

    Minimises the (weighted) residual sum of squares
    ``sum_i w_i (y_i - b0 - x_i' b)^2``.

    Parameters
    ----------
    fit_intercept : bool, default=True
        Fit ``intercept_`` (the data are centred first).
    copy_X : bool, default=True
        Kept for compatibility; X is never modified.
    tol : float, default=1e-6
        Kept for compatibility (used by scikit-learn's sparse solver only).
    n_jobs : int, default=None
        Kept for compatibility; BLAS decides the threads.
    positive : bool, default=False
        Constrain the coefficients to be non-negative (non-negative least
        squares).

    Attributes
    ----------
    coef_ : ndarray of shape (n_features,) or (n_targets, n_features)
    intercept_ : float or ndarray of shape (n_targets,)
    rank_ : int
        Rank of the centred design.
    singular_ : ndarray of shape (min(n_samples, n_features),)
        Singular values of the centred (weighted) design.
    n_features_in_ : int
    feature_names_in_ : ndarray of str

    See Also
    --------
    Ridge : least squares with an L2 penalty.

    Notes
    -----
    Seed 000 §4. Rank-deficient X gets the minimum-norm solution.
    :meth:`summary` gives the t table of seed 004.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0.0], [1.0], [2.0], [3.0]])
    >>> reg = LinearRegression().fit(X, 2 * X[:, 0] + 1)
    >>> round(float(reg.coef_[0]), 6), round(reg.intercept_, 6)
    (2.0, 1.0)
    """

    _sparse_input = True  # fit (LSQR) and predict take CSR / CSC input

    _parameter_constraints = {
        "fit_intercept": ["boolean"],
        "copy_X": ["boolean"],
        "tol": [Interval(Real, 0, None, closed="left")],
        "n_jobs": [None, Interval(Real, None, None)],
        "positive": ["boolean"],
    }

    def __init__(self, *, fit_intercept=True, copy_X=True, tol=1e-6, n_jobs=None,
                 positive=False):
        self.fit_intercept = fit_intercept
        self.copy_X = copy_X
        self.tol = tol
        self.n_jobs = n_jobs
        self.positive = positive

    def __classiclearn_tags__(self):
        tags = super().__classiclearn_tags__()
        tags.sparse = self._sparse_input
        tags.multi_output = True
        return tags

    def fit(self, X, y, sample_weight=None):
        """Fit the least-squares coefficients.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,) or (n_samples, n_targets)
        sample_weight : array-like of shape (n_samples,), default=None

        Returns
        -------
        self
        """
        self._validate_params()
        dtype = input_float_dtype(X)
        # a dense float32 X is factored in single precision (see _solve_ols_scaled);
        # sparse X and the non-negative fit copy it to float64
        keep32 = dtype == np.float32 and not sp.issparse(X) and not self.positive
        X, y = validate_data(self, X, y, dtype=[np.float64, np.float32] if keep32 else np.float64,
                             multi_output=True, y_numeric=True, accept_sparse=("csr", "csc"))
        y = np.asarray(y, dtype=np.float64)
        sw = None if sample_weight is None else check_sample_weight(sample_weight, X,
                                                                    dtype=np.float64)
        Y, was_1d = as_2d_target(y)
        p = X.shape[1]
        if self.fit_intercept:
            x_mean, y_mean = weighted_means(X, Y, sw)
        else:
            x_mean, y_mean = np.zeros(p), np.zeros(Y.shape[1])
        if sp.issparse(X):
            with blas_single_thread():  # the products run on numba's threads
                return self._fit_sparse(X, Y, x_mean, y_mean, sw, was_1d, dtype)
        # targets whose squares would over- or underflow are fitted divided by powers
        # of two (exact): the coefficients map back, the RSS stays in those units
        y_scales = power_of_two_scales(Y, means=y_mean)
        Ys, ys_mean = (Y, y_mean) if y_scales is None else (Y / y_scales, y_mean / y_scales)
        # the Gram pass and the QR's blocks run on our threads; the p x p work of modest
        # order, the summary's products included, on one BLAS thread (a threaded BLAS
        # call here left OpenBLAS's threads spinning, slowing the threads of the next
        # fit of a cross-validation)
        with small_lapack(p):
            solve = _solve_nnls if self.positive else _solve_ols
            W, rss, rank, s, M = solve(X, Ys, x_mean, ys_mean, sw, self.tol)
            if y_scales is not None:
                W = W * y_scales
            self._set_fit(W, rss, rank, s, M, x_mean, y_mean, sw, was_1d, dtype,
                          (Ys, ys_mean, 1.0 if y_scales is None else float(y_scales[0])))
        return self

    def _set_fit(self, W, rss, rank, s, M, x_mean, y_mean, sw, was_1d, dtype, scaled):
        """The fitted attributes and what summary() needs: the unscaled covariance,
        RSS, TSS, log-likelihoods. ``scaled`` is ``(Y / c, y_mean / c, c)`` with the
        power of two ``c`` that the RSS is in units of (1 for most targets)."""
        Ys, ys_mean, c = scaled
        n = Ys.shape[0]
        self.rank_ = rank
        self.singular_ = s
        set_coef(self, W, x_mean, y_mean, self.fit_intercept, was_1d, dtype)
        cast_float_attributes(self, dtype, ("singular_",))
        self._inference = None
        # no covariance without residual degrees of freedom: summary() says so
        no_df = n <= rank + int(self.fit_intercept)
        if was_1d and (M is not None or no_df):
            total = float(n if sw is None else sw.sum())
            fi = self.fit_intercept
            cov = None if M is None else M.then(
                lambda Ce: parameter_cov(*Ce, x_mean, total, fi))
            tss, half_log_w = target_moments(Ys[:, 0], float(ys_mean[0]), sw, fi)
            self._inference = ols_inference(rss[0], tss, half_log_w, n, rank, cov, fi,
                                            target_scale=c)

    def _fit_sparse(self, X, Y, x_mean, y_mean, sw, was_1d, dtype):
        """Sparse X, as scikit-learn: LSQR on the implicitly centred (and weighted)
        X with ``atol = btol = tol``; no rank, singular values or summary()."""
        if self.positive:
            raise TypeError("LinearRegression(positive=True) does not take sparse input; "
                            "pass a dense array.")
        B = Y - y_mean
        if sw is not None:
            B = B * np.sqrt(sw)[:, None]
        W, _, _ = solve_lsqr(X, x_mean, sw, B, np.zeros(B.shape[1]), self.tol, None)
        for name in ("rank_", "singular_"):
            self.__dict__.pop(name, None)
        set_coef(self, W, x_mean, y_mean, self.fit_intercept, was_1d, dtype)
        self._inference = None
        return self

    def _fit_dask(self, X, y, sample_weight=None):
        """Exact fit on Dask input: merged centred moments, Cholesky refined by a pass."""
        self._validate_params()
        if self.positive:
            _dask_fit.refuse(self, "positive=True")
        return _dask_fit.fit_least_squares_dask(self, X, y, sample_weight, _solve_ols_dask)

    def summary(self, alpha=0.05, *, cov_type="nonrobust", groups=None, X=None, y=None,
                sample_weight=None):
        """Coefficient table and fit statistics (seed 004; statsmodels' OLS/WLS).

        The residual variance is ``RSS / (n - k)`` (k coefficients with the
        intercept); the model-based covariance is ``sigma^2 (X'WX)^+``. With
        sample weights the statistics are those of weighted least squares
        (statsmodels ``WLS``: n counts rows, the log-likelihood gains
        ``1/2 sum log w``). Defined for single-target, unconstrained fits;
        penalised models (Ridge, Lasso) have no such table.

        Parameters
        ----------
        alpha : float, default=0.05
            The intervals have confidence ``1 - alpha``.
        cov_type : {"nonrobust", "HC0", "HC1", "HC2", "HC3", "cluster"}, default="nonrobust"
            Covariance of the estimates: model-based, heteroscedasticity-robust
            (White's HC0, its ``n / (n - k)`` version HC1, leverage-corrected
            HC2 and HC3) or cluster-robust (CRV1, t on ``G - 1`` degrees of
            freedom); statsmodels' ``get_robustcov_results``.
        groups : array-like of shape (n_samples,), default=None
            Cluster labels for ``cov_type="cluster"``.
        X, y, sample_weight : training data, default=None
            Needed by the robust covariances (per-sample residuals); checked
            against the fit.

        Returns
        -------
        CoefficientTable
            With ``log_likelihood``, ``deviance`` (RSS), ``null_deviance``
            (TSS), ``aic``, ``bic``, ``r2``, ``r2_adj``, ``f_test`` (Wald F of
            all slopes with the chosen covariance: the classical F when
            nonrobust) and ``lr_test`` (against the intercept-only model, or
            the zero model without an intercept).

        Examples
        --------
        >>> import numpy as np
        >>> rng = np.random.default_rng(0)
        >>> X = rng.normal(size=(50, 2))
        >>> y = X @ [1.0, 0.0] + rng.normal(size=50)
        >>> reg = LinearRegression().fit(X, y)
        >>> table = reg.summary()
        >>> table.names
        ['intercept', 'x0', 'x1']
        >>> bool(table.r2 > 0.3)
        True
        >>> robust = reg.summary(cov_type="HC3", X=X, y=y)
        >>> robust.std_err.shape
        (3,)
        """
        check_is_fitted(self)
        if getattr(self, "_inference", None) is None:
            raise ValueError(
                "summary() needs a single-target, unconstrained fit with at most "
                f"{_MAX_SUMMARY_FEATURES} features."
            )
        return ols_summary(self, alpha, cov_type, groups, X, y, sample_weight)
