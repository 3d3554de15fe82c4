"""Principal component analysis (seed 000 §13.1).

The principal axes are the right singular vectors of the centred data X_c,
equivalently the eigenvectors of the covariance C = X_cᵀ X_c / (n - 1); the
explained variance of axis j is σ_j² / (n - 1). When there are many more
samples than features (n ≥ 3p) the p x p covariance is formed once (one BLAS
pass) and decomposed with a symmetric eigensolver, which costs about n p²
instead of the ≈ 4 n p² of an SVD; forming it squares the condition number,
so a guard falls back to the SVD when a kept eigenvalue is below 1e-6 of the
largest. The randomized solver (Halko, Martinsson & Tropp) runs a
few subspace iterations from a Gaussian start; the centring is applied
implicitly (a rank-one correction), never by copying X. Signs are fixed so
that the largest entry of each component is positive.
"""

import os
from numbers import Integral, Real

import numpy as np
import scipy.sparse as sp
from scipy import linalg
from scipy.linalg import lapack
from scipy.linalg.blas import dgemm, dgemv, dsymm, dsyrk
from scipy.special import gammaln

from .._kernels.gram import row_gram_upper
from .._kernels.kernel_functions import centred_product, scipy_product
from .._kernels.sparse_products import csr_gram_matvec, unsigned_csr
from .._kernels.work import EIGH_THREADED_ORDER, GRAM_PASS_WORK
from ..base import BaseEstimator, TransformerMixin
from ..utils._dask import fit_one_block_in_memory
from ..utils._params import Interval, StrOptions
from ..utils._random import check_random_state
from ..utils._sparse import csr_gram, gram_pair_work
from ..utils._threads import blas_single_thread, blocked_row_sums, small_lapack, svd_threads
from ..utils.validation import (
    cast_float_attributes,
    check_array,
    check_is_fitted,
    input_float_dtype,
    output_in_dtype,
    power_of_two_unit,
    validate_data,
)

__all__ = ["PCA"]

_EPS = np.finfo(np.float64).eps
# From this many multiply-adds (n p^2) XᵀX is summed over row blocks in threads.
_THREADED_GRAM_WORK = GRAM_PASS_WORK


def _is_float32(X):
    """Whether X is a float32 array (its outputs are then returned as float32)."""
    return getattr(X, "dtype", None) == np.float32


def _as_input_dtype(out, f32):
    """Computations run in float64; float32 inputs get float32 outputs, as in scikit-learn."""
    return out.astype(np.float32) if f32 else out


def _flip_rows(Vt, U=None):
    """Make the largest-magnitude entry of every row of Vt positive (U flipped alike)."""
    if Vt.shape[0] == 0:
        return Vt, U
    idx = np.argmax(np.abs(Vt), axis=1)
    signs = np.sign(Vt[np.arange(Vt.shape[0]), idx])
    signs[signs == 0] = 1.0
    Vt = Vt * signs[:, None]
    if U is not None:
        U = U * signs[None, : U.shape[1]]
    return Vt, U


# scikit-learn's floor of Minka's estimate: a rank whose last eigenvalue is below it
# scores -inf, and the discarded eigenvalues' mean is kept above it
_MLE_FLOOR = 1e-15


def _pair_sums(spectrum, rank_count):
    """For the pairs a < b of the descending ``spectrum`` (length p): the sums over
    b > a of ``log(s_a - s_b)`` for each a, and over a < b of ``log(1/s_b - 1/s_a)``
    for each b < ``rank_count``; rows of pairs at a time (O(p^2) work, O(p) memory
    per row)."""
    p = spectrum.shape[0]
    below = np.zeros(p)
    above = np.zeros(p)
    inv = 1.0 / spectrum
    stop = min(rank_count, p)
    for a in range(p - 1):
        below[a] = np.sum(np.log(spectrum[a] - spectrum[a + 1:]))
        if a + 1 < stop:
            above[a + 1:stop] += np.log(inv[a + 1:stop] - inv[a])
    return below, above


def _mle_dimension(spectrum, n_samples):
    """Minka's (2000) estimate of the PCA dimension: the rank of largest Laplace
    approximation of the PPCA evidence (scikit-learn's ``_infer_dimension``), each
    rank's terms from running sums over the spectrum (O(p^2) in all, where the
    textbook evaluation costs O(p^2) per rank).

    Examples
    --------
    >>> _mle_dimension(np.array([10.0, 8.0, 0.12, 0.11, 0.1]), 100)
    2
    """
    p = spectrum.shape[0]
    if p < 2:
        return 0
    s = np.asarray(spectrum, dtype=np.float64)
    r = np.arange(1, p)  # the candidate ranks
    # ranks whose last kept eigenvalue is below the floor score -inf (and their terms,
    # which may divide by zero, are never read)
    valid = s[:-1] >= _MLE_FLOOR
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        n_valid = int(np.count_nonzero(valid))
        k = p - r + 1
        # the uniform prior over the Stiefel manifold
        pu = -r * np.log(2.0) + np.cumsum(gammaln(k / 2.0) - np.log(np.pi) * k / 2.0)
        pl = -np.cumsum(np.log(s[:-1])) * n_samples / 2.0
        tail = np.cumsum(s[::-1])[::-1]  # tail[j] = s_j + ... + s_{p-1}
        v = np.maximum(_MLE_FLOOR, tail[1:] / (p - r))
        pv = -np.log(v) * n_samples * (p - r) / 2.0
        m = p * r - r * (r + 1.0) / 2.0
        pp = np.log(2.0 * np.pi) * (m + r) / 2.0
        # pa(r) = sum over a < r, b > a of log((s_a - s_b) (1/l_b - 1/l_a)) + log n, with
        # l_b = s_b below r and v_r from r on
        below, above = _pair_sums(s, n_valid + 1)
        pa = np.cumsum(below[:-1]) + np.cumsum(above[:-1])
        inv = 1.0 / s
        for i in range(n_valid):
            rank = i + 1
            pa[i] += (p - rank) * np.sum(np.log(1.0 / v[i] - inv[:rank]))
        pairs = r * p - r * (r + 1) / 2.0  # pairs a < r, b > a
        pa += pairs * np.log(n_samples)
        ll = pu + pl + pv + pp - pa / 2.0 - r * np.log(n_samples) / 2.0
    ll = np.where(valid, ll, -np.inf)
    return int(np.argmax(np.concatenate([[-np.inf], ll])))


# standard deviations of a component within which the mean's projection on it is
# subtracted from X's projection (transform), rather than X centred before it: at most
# about 12 bits of the projection cancel
_FOLDED_OFFSET_SPREADS = 4096.0

# rows whose mean is the shift of the dense Gram pass (_gram_and_column_sums)
_SHIFT_ROWS = 64
# standard deviations from zero within which a column's mean leaves the Gram matrix
# accurate enough uncentred: its rank-one centring by the mean then loses at most
# log2(1 + 256^2), about 16 bits, of each column's variance (a relative error near
# 1e-11; scikit-learn centres that way whatever the mean). Further out, the dense pass
# shifts X's rows first. A float32 X's Gram matrix may be summed from single-precision
# products (24 bits): there at most one bit is given up (one standard deviation).
_UNSHIFTED_MEANS = 256.0
_UNSHIFTED_MEANS_FLOAT32 = 1.0


def _unshifted_means(dtype):
    """:data:`_UNSHIFTED_MEANS`, or its float32 bound for a float32 X."""
    return _UNSHIFTED_MEANS_FLOAT32 if dtype == np.float32 else _UNSHIFTED_MEANS


def _first_rows_shift(X):
    """The shift of a dense X's Gram pass, or None for no shift: None when the mean of
    X's first :data:`_SHIFT_ROWS` rows is within :data:`_UNSHIFTED_MEANS` (float32:
    :data:`_UNSHIFTED_MEANS_FLOAT32`) of their standard deviations of zero in every
    column (or not finite, left to the
    finiteness check), else that mean in X's dtype. Near the column means for most
    data, so the centring that follows (a rank-one correction by ``mean - shift``)
    loses little; where it is far from them (rows sorted by a feature)
    :func:`_centred_gram` centres exactly instead. Shifting costs a write of every
    block of X before its product, so unshifted passes are taken where they can."""
    first = X[:_SHIFT_ROWS]
    shift = first.mean(axis=0, dtype=np.float64)
    if not np.all(np.isfinite(shift)):
        return None
    spread = first.std(axis=0, dtype=np.float64)
    if np.all(np.abs(shift) <= _unshifted_means(X.dtype) * spread):
        return None
    return shift.astype(X.dtype)


def _gram_and_column_sums(X, shift=None):
    """(X - shift)ᵀ(X - shift) and the column sums of X in one pass. Sparse X is never
    shifted (``shift`` ignored): a sparse product whose (p, p) result is made dense."""
    n, p = X.shape
    if sp.issparse(X):
        return csr_gram(X), _column_sums(X)
    if X.dtype == np.float64 or not X.flags.c_contiguous or n * p * p < _THREADED_GRAM_WORK:
        X = np.asarray(X, dtype=np.float64)
        return _shifted_gram_in_blocks(X, None if shift is None else
                                       np.asarray(shift, dtype=np.float64))

    def block(lo, hi):
        # a float32 X: each block's products in single precision (as scikit-learn forms
        # the whole matrix), the blocks and the column sums added in float64
        rows = X[lo:hi]
        B = rows if shift is None else rows - shift
        return (B.T @ B).astype(np.float64), rows.sum(axis=0, dtype=np.float64)

    return blocked_row_sums(block, n, os.cpu_count() or 1)


# bytes of the rows shifted at a time by _shifted_gram_in_blocks (one reused buffer)
_GRAM_BLOCK_BYTES = 2 << 20


# columns from which an unshifted C-contiguous X's Gram matrix is one symmetric rank-k
# update over all of X (one triangle of the products) rather than a sum over row blocks
_WHOLE_SYRK_FEATURES = 150


def _unshifted_gram(X):
    """``Xᵀ X`` and the column sums of a C-contiguous float64 X, by one ``dsyrk`` and one
    ``dgemv`` of scipy's BLAS on the Fortran view ``Xᵀ`` (no copy); the triangle that
    ``dsyrk`` leaves out is mirrored from the other."""
    upper = np.triu(dsyrk(1.0, X.T))
    G = upper + np.triu(upper, 1).T
    sums = dgemv(1.0, X.T, np.ones(X.shape[0]))
    return G, sums


def _shifted_gram_in_blocks(X, shift):
    """:func:`_gram_and_column_sums` of a dense float64 X: row blocks of about
    :data:`_GRAM_BLOCK_BYTES` shifted into one reused buffer, each block's ``B' B`` added
    by scipy's BLAS (on its threads; from the Fortran view of the block, no copy) and
    its column sums by a product with ones; the sums of X are those of the shifted
    rows plus ``n shift``.

    scipy's BLAS is that of the eigensolver next: numpy's threads, still spinning
    after a threaded product of their own, made the eigh after the Gram pass many
    times slower. One pass in the calling thread with BLAS's threads in each product
    was faster than fresh shifted blocks summed in our threads on one BLAS thread each.
    """
    n, p = X.shape
    if shift is None and X.flags.c_contiguous and p >= _WHOLE_SYRK_FEATURES:
        return _unshifted_gram(X)
    rows = max(1, min(n, max(_GRAM_BLOCK_BYTES // (8 * max(p, 1)), 256)))
    buffer = np.empty((rows, p))
    ones = np.ones(rows)
    G = np.zeros((p, p), order="F")
    sums = np.zeros(p)
    for lo in range(0, n, rows):
        hi = min(n, lo + rows)
        if shift is None and X.flags.c_contiguous:
            block = X[lo:hi]
        elif shift is None:
            block = buffer[:hi - lo]
            np.copyto(block, X[lo:hi])
        else:
            block = buffer[:hi - lo]
            np.subtract(X[lo:hi], shift, out=block)
        G = dgemm(1.0, block.T, block.T, beta=1.0, c=G, overwrite_c=True, trans_b=1)
        sums += dgemv(1.0, block.T, ones[:hi - lo])
    if shift is not None:
        sums += n * shift
    return G, sums


def _centred_gram(X, mean, gram=None, shift=None):
    """(X - mean)ᵀ (X - mean); ``gram``, when given, is (X - shift)ᵀ(X - shift) already
    at hand (``shift`` None: zeros), and is reused.

    With ``d = mean - shift``, the Gram matrix is ``gram - n d dᵀ``. When every column's
    ``|d_j|`` is within :data:`_UNSHIFTED_MEANS` of its standard deviations, that loses
    at most about 16 bits of its variance over exact centring (float32 X: within one,
    one bit); the dense pass is
    shifted by the mean of the first rows (:func:`_first_rows_shift`) wherever the
    means lie further out, so ``d`` is small for most data, offsets included. A column
    equal to the shift in every row (a constant column, shifted) has mean ``shift``
    exactly. Otherwise (rows sorted by a feature, a near-constant column), and when no
    Gram matrix is at hand, the rows are centred by ``mean`` itself in the same
    blocked pass (one pass; blocks added in a fixed order).
    """
    n, p = X.shape
    if gram is not None:
        C = gram
        d = mean if shift is None else mean - shift
        zero = np.diag(C) == 0
        d = np.where(zero, 0.0, d)
        spread = np.diag(C) - n * d**2  # n var_j, roughly
        if sp.issparse(X) or (n > 1 and np.all((spread > 0) | zero)
                              and np.all(n * d**2 <= _unshifted_means(X.dtype)**2 * spread)):
            # (sparse X is never centred: the rank-one correction, as scikit-learn)
            C -= n * np.outer(d, d)
            return C
    if sp.issparse(X):
        C = csr_gram(X)
        C -= n * np.outer(mean, mean)
        return C
    return _gram_and_column_sums(X, np.asarray(mean, dtype=X.dtype))[0]


def _column_sums(X):
    """Column sums of a dense or sparse X as a 1-D ndarray. A float64 C-contiguous X
    is summed as ``1ᵀ X`` by BLAS: NumPy's sum over the rows of a C array runs one
    short inner loop per row, several times slower on few columns (the same
    additions, row by row, in both)."""
    if isinstance(X, np.ndarray) and X.dtype == np.float64 and X.flags.c_contiguous:
        # on one BLAS thread: a pass over memory that threads barely speed up, and
        # threads left spinning after it slow the factorisations or products that follow
        with blas_single_thread():
            return np.ones(X.shape[0]) @ X
    return np.asarray(X.sum(axis=0)).ravel()


def _sparse_total_variance(X, mean):
    """Σ_j var(X[:, j]) (ddof=1) of a CSR or CSC X around its column means,
    from the non-zeros (deviations, two-pass accurate) and the implicit zeros,
    without converting the format."""
    n, p = X.shape
    if X.format == "csr":
        col = X.indices
    else:
        col = np.repeat(np.arange(p), np.diff(X.indptr))
    dev = X.data - mean[col]
    stored = np.bincount(col, minlength=p)
    sq = float(dev @ dev) + float((n - stored) @ (mean**2))
    return sq / (n - 1)


def _covariance_eigh(X, mean, gram=None, shift=None):
    """Eigen-decomposition of the covariance; returns (eigvals descending, Vt)."""
    n = X.shape[0]
    C = _centred_gram(X, mean, gram, shift)
    C /= n - 1
    evals, evecs = linalg.eigh(C, overwrite_a=True, check_finite=False, driver="evd")
    evals = evals[::-1].copy()
    Vt = evecs[:, ::-1].T
    np.maximum(evals, 0.0, out=evals)
    return evals, Vt


def _extreme_unit(X, gram):
    """1.0, or a power of two to divide X by when its squares overflow or underflow.

    On the covariance route the Gram matrix shows it (not finite, or a
    largest diagonal below the normal range); elsewhere X is scanned.
    """
    if gram is not None:
        top = np.max(np.diag(gram), initial=0.0)
        if np.isfinite(top) and top > np.finfo(np.float64).tiny / _EPS:
            return 1.0
    if sp.issparse(X):
        return 1.0  # the Gram matrix of sparse X is formed: its checks stand
    return power_of_two_unit(X)


# rows per column from which the covariance route is taken for every component: an X of
# lower rank (redundant columns are common) makes its smallest eigenvalues rounding
# noise, the route is then not trusted and the SVD runs after it, and from there the
# Gram matrix and eigenproblem cost a small part of that SVD
_COVARIANCE_ALL_MIN_ASPECT = 3


def _covariance_route(solver, n, p, nc, dtype=np.float64):
    """Whether an exact solver starts from the covariance matrix rather than an SVD:
    ``covariance_eigh``, and ``full`` on X with at least as many rows as columns (the
    p x p eigenproblem costs a fraction of the SVD of X). For (nearly) every component,
    and for float32 X (whose Gram matrix may be summed from single-precision
    products, and whose SVD runs in float64), only from
    :data:`_COVARIANCE_ALL_MIN_ASPECT` rows per column: the smallest eigenvalues are
    those least often trusted (:func:`_covariance_route_reliable`)."""
    if solver == "covariance_eigh":
        return True
    if solver != "full" or n < p:
        return False
    asks_all = nc is None or (isinstance(nc, Integral) and nc >= p - 1)
    if asks_all or dtype == np.float32:
        return n >= _COVARIANCE_ALL_MIN_ASPECT * p
    return True


def _explained(evals, nc, n_samples, lim):
    """(explained variance ratios, resolved number of components) of a spectrum."""
    total = evals.sum()
    ratio = evals / total if total > 0 else np.zeros_like(evals)
    return ratio, _resolve_n_components(nc, evals, ratio, n_samples, lim)


def _row_gram_route(solver, n, p, nc):
    """Whether the exact solver starts from the rows' centred Gram matrix (X with no
    more rows than columns) rather than an SVD. Not for (nearly) every component of
    a square-ish X: the smallest of those are then too small against the largest for
    the route (random rows give such a spectrum), and it would only delay the SVD."""
    if solver != "full" or n > p:
        return False
    asks_all = nc is None or (isinstance(nc, Integral) and nc >= n - 1)
    return not asks_all or p >= _ROW_GRAM_MIN_ASPECT * n


# columns per row from which the row Gram route is taken for every component: from
# there random rows keep the smallest eigenvalue above 1e-6 of the largest
_ROW_GRAM_MIN_ASPECT = 1.25


def _row_gram_eigh(Xc):
    """Eigendecomposition of the rows' Gram matrix of the centred X, over n - 1: its
    eigenvalues are the covariance's nonzero ones (descending) and its eigenvectors U
    the left singular vectors of Xc, whose right ones are ``U^T Xc / S``
    (:func:`_right_vectors`). The n x n problem costs far less than the SVD of Xc
    when n <= p."""
    n = Xc.shape[0]
    G = row_gram_upper(Xc)
    G /= n - 1
    evals, U = linalg.eigh(G, lower=False, overwrite_a=True, check_finite=False,
                           driver="evd")
    evals = np.maximum(evals[::-1], 0.0)
    return evals, U[:, ::-1]


def _right_vectors(Xc, U, S):
    """``(U^T Xc) / S[:, None]`` by scipy's BLAS, the eigensolver's library (see
    :func:`classiclearn._kernels.gram.row_gram_upper`)."""
    V = dgemm(1.0, Xc.T, U)  # Xc^T U, Fortran (p, k)
    V /= S
    return np.ascontiguousarray(V.T)


def _row_gram_components(Xc, evals, U, nc):
    """The first ``nc`` rows of Vt from the eigenpairs of the rows' Gram matrix
    (:func:`_row_gram_eigh`), or None when the route is not reliable for them.

    Directions without variance (n centred rows sum to zero, so at least the n-th;
    more when the rows are dependent) have eigenvalues at rounding level and no
    direction the Gram matrix can give: when they are asked for, they are completed
    with orthonormal vectors orthogonal to the others (LAPACK's SVD returns some
    such vectors too), and their eigenvalues become the variance along them.
    Returns ``(Vt, evals)``, ``evals`` a copy with those eigenvalues replaced.
    Eigenvalues between that level and the reliable range
    (:func:`_covariance_route_reliable`) send the caller to the SVD.
    """
    n, p = Xc.shape
    top = evals[0] if evals.size else 0.0
    if top <= 0:
        return None
    n_varying = min(nc, int(np.sum(evals > max(n, p) * _EPS * top)))
    if not _covariance_route_reliable(evals, n_varying):
        return None
    S = np.sqrt(evals[:n_varying] * (n - 1))
    Vt = _right_vectors(Xc, U[:, :n_varying], S)
    if nc > n_varying:
        rest = _orthonormal_completion(Vt, nc - n_varying)
        projections = Xc @ rest.T
        variances = np.einsum("ij,ij->j", projections, projections) / (n - 1)
        order = np.argsort(-variances, kind="stable")
        evals = evals.copy()
        evals[n_varying:nc] = variances[order]
        Vt = np.vstack([Vt, rest[order]])
    return Vt, evals


def _orthonormal_completion(Vt, k):
    """``k`` orthonormal rows orthogonal to the orthonormal rows of Vt (r of them; r + k
    at most the number of columns).

    At most r vectors: fixed pseudo-random vectors with Vt's span projected out twice,
    then orthonormalised (4 r k p products). More: columns r .. r + k - 1 of the
    orthogonal factor of the Householder QR of ``Vt^T``, applied to unit vectors
    without forming it (2 r^2 p + 4 r k p).
    """
    r, p = Vt.shape
    with blas_single_thread():
        if k <= r:
            Z = np.random.default_rng(0).standard_normal((p, k))
            for _ in range(2):
                Z -= Vt.T @ (Vt @ Z)
            Q, _ = linalg.qr(Z, mode="economic", check_finite=False)
            return np.ascontiguousarray(Q.T)
        qr, tau, _, _ = lapack.dgeqrf(np.asfortranarray(Vt.T))
        E = np.zeros((p, k), order="F")
        E[np.arange(r, r + k), np.arange(k)] = 1.0
        lwork = int(lapack.dormqr("L", "N", qr, tau, E, lwork=-1)[1][0])
        Q, _, _ = lapack.dormqr("L", "N", qr, tau, E, lwork=lwork, overwrite_c=1)
    return np.ascontiguousarray(Q.T)


def _covariance_route_reliable(evals, n_keep):
    """Whether eigenvectors from the covariance are as good as from an SVD.

    Forming C squares the condition number: the kept eigenvalues lose about
    eps λ_1 / λ_j in relative accuracy and the eigenvectors a factor
    sqrt(λ_1 / λ_j) over an SVD. Trust the route while λ_j ≥ 1e-6 λ_1 for every
    kept component (relative error ≲ 1e-10, amplification ≤ 1e3).
    """
    if evals.size == 0 or n_keep == 0:
        return True
    top = evals[0]
    return bool(top > 0 and evals[min(n_keep, evals.size) - 1] >= 1e-6 * top)


# ARPACK on the p x p centred Gram matrix (formed once) instead of on X when X is
# dense and p <= n and p <= this: each Lanczos product costs p^2, not 2 n p
_ARPACK_GRAM_MAX = 2048


def _arpack_on_covariance(X, mean, nc, tol, rng):
    """ARPACK's Lanczos run on ``Xc' Xc``: the same iteration that scipy's ``svds``
    runs on the operator ``Xc' Xc`` for a tall X, with the Gram matrix formed once
    for dense X, and for sparse X as ``X'(X v) - n m (m'v)`` from one pass over the
    stored entries per product (:func:`_sparse_centred_gram_operator`).
    Returns (singular values descending, Vt), or None when a kept component is so
    small against the first that squaring the condition number would cost accuracy
    (the caller then runs ``svds`` on X)."""
    from scipy.sparse.linalg import eigsh

    C = _sparse_centred_gram_operator(X, mean) if sp.issparse(X) else _centred_gram(X, mean)
    v0 = rng.uniform(-1, 1, size=C.shape[0])
    evals, evecs = eigsh(C, k=nc, tol=tol, v0=v0, which="LM")
    order = np.argsort(evals)[::-1]
    evals = np.maximum(evals[order], 0.0)
    if not _covariance_route_reliable(evals, nc):
        return None
    return np.sqrt(evals), np.ascontiguousarray(evecs[:, order].T)


def _components_from_row_gram(X, mean, nc):
    """The leading ``nc`` singular values and right vectors of the centred sparse X
    from the eigendecomposition of its rows' centred Gram matrix ``Xc Xc'`` (n x n,
    formed from the sparse product ``X X'`` without centring X): for X with more
    columns than rows, exact where ARPACK iterates. ``Vt = U' Xc / S``. Returns None
    when a kept component is too small against the first for the squared condition
    number (see :func:`_covariance_route_reliable`)."""
    n = X.shape[0]
    K = (X @ X.T).toarray()
    row_means = X @ mean
    K -= row_means[:, None]
    K -= row_means[None, :]
    K += mean @ mean
    if 2 * nc > n:  # most of the spectrum: divide and conquer on all of it
        evals, U = linalg.eigh(K, overwrite_a=True, check_finite=False, driver="evd")
        evals, U = evals[n - nc:], U[:, n - nc:]
    else:
        evals, U = linalg.eigh(K, overwrite_a=True, check_finite=False,
                               subset_by_index=[n - nc, n - 1], driver="evr")
    evals, U = np.maximum(evals[::-1], 0.0), U[:, ::-1]
    if not _covariance_route_reliable(evals, nc) or evals[-1] <= 0.0:
        return None
    S = np.sqrt(evals)
    Vt = (X.T @ U - np.outer(mean, U.sum(axis=0))) / S
    return S, np.ascontiguousarray(Vt.T)


# sparse X with more columns than rows (at most _ROW_GRAM_MAX) takes the rows' Gram
# matrix under svd_solver='auto' when at least this share of its rank is asked for:
# ARPACK then needs a Lanczos basis of about twice as many vectors, each product a
# pass over X, where the n x n eigendecomposition costs about n^3 / 3 once
_ROW_GRAM_MAX = 4096
_ROW_GRAM_SHARE = 0.05
# ... and when the sparse product X X' (:func:`gram_pair_work` with ``outer``) costs at
# most this many times nc passes over X: ARPACK needs at least about 2 nc products with
# X and X' (denser X goes to ARPACK)
_ROW_GRAM_WORK = 0.25


def _sparse_centred_gram_operator(X, mean):
    """``Xc' Xc`` of sparse X as a LinearOperator, X never centred or copied densely."""
    from scipy.sparse.linalg import LinearOperator

    n, p = X.shape
    arrays = unsigned_csr(sp.csr_array(X))
    ones = np.ones(n)
    scaled_mean = n * mean

    def matvec(v):
        v = np.ravel(v)
        out = np.empty(p)
        csr_gram_matvec(*arrays, ones, v, out)
        out -= scaled_mean * (mean @ v)
        return out

    return LinearOperator((p, p), matvec=matvec, rmatvec=matvec, dtype=np.float64)


def _resolve_n_components(nc, evals, ratio, n_samples, lim):
    if nc == "mle":
        return _mle_dimension(evals, n_samples)
    if not isinstance(nc, Integral):
        return min(int(np.searchsorted(np.cumsum(ratio), nc, side="right")) + 1, lim)
    return nc


# Thin products with X are bound by reading X: below this many columns one costs
# about as much as with it (measured on 500-2,000 x 1,000-5,000).
_THIN_PRODUCT_MIN_COLUMNS = 40
# rows per (thin product's column x product) up to which the row Gram route of the
# randomized solver is taken (:func:`_randomized_on_row_gram`)
_ROW_GRAM_RANDOMIZED_SHARE = 1.0


def _randomized_on_gram(n, p):
    """Whether the randomized solver iterates on the p x p centred Gram matrix."""
    return n >= 10 * p


def _randomized_gram_components(G, omega, n_components, n_iter):
    """Randomized subspace iteration on the centred Gram matrix ``G``, started from
    ``omega``; returns (singular values, Vt) of the top ``n_components``."""
    Q = omega
    for _ in range(n_iter):
        Q, _ = linalg.qr(G @ Q, mode="economic", check_finite=False)
    Q, _ = linalg.qr(G @ Q, mode="economic", check_finite=False)
    # Rayleigh-Ritz on the sketch
    T = Q.T @ G @ Q
    evals, W = linalg.eigh((T + T.T) / 2.0)
    order = np.argsort(evals)[::-1][:n_components]
    V = Q @ W[:, order]
    S = np.sqrt(np.maximum(evals[order], 0.0))
    return S, V.T


def _randomized_components(X, mean, n_components, n_oversamples, n_iter, normalizer, rng):
    """Top right singular vectors of X - mean by randomized subspace iteration."""
    n, p = X.shape
    size = min(n_components + n_oversamples, p)
    omega = rng.normal(size=(p, size))
    if _randomized_on_gram(n, p):
        # Gram form: iterate on the p x p covariance (one pass over X in all)
        with small_lapack(p):
            return _randomized_gram_components(_centred_gram(X, mean), omega, n_components,
                                               n_iter)
    if _randomized_on_row_gram(n, p, size, n_iter):
        Xc = np.subtract(X, mean, dtype=np.float64)
        return _randomized_on_row_gram_components(Xc, omega, n_components, n_iter, normalizer)
    return _randomized_on_data(X, mean, omega, n_components, n_iter, normalizer)


def _randomized_on_row_gram(n, p, size, n_iter):
    """Whether the randomized solver iterates on the n x n Gram matrix of the centred
    rows: wide X whose one Gram pass (n^2 p multiply-adds, BLAS-3) costs less than the
    2 n_iter + 2 thin products with X (n p size each, bound by reading X; counted as
    at least :data:`_THIN_PRODUCT_MIN_COLUMNS` columns)."""
    if n > p or n > _ROW_GRAM_MAX:
        return False
    per_pass = max(size, _THIN_PRODUCT_MIN_COLUMNS)
    return n <= _ROW_GRAM_RANDOMIZED_SHARE * (2 * n_iter + 2) * per_pass


def _normalise_columns(Y, normalizer):
    """The randomized solver's normalisation of the block Y (a basis of its span)."""
    if normalizer == "LU":
        return linalg.lu(Y, permute_l=True, check_finite=False, overwrite_a=True)[0]
    if normalizer == "QR":
        return linalg.qr(Y, mode="economic", check_finite=False, overwrite_a=True)[0]
    return Y


def _randomized_on_row_gram_components(Xc, omega, n_components, n_iter, normalizer):
    """:func:`_randomized_components` for wide X on the rows' Gram matrix ``G = Xc Xc'``:
    the sketch ``Y = Xc omega`` is iterated as ``Y <- G Y`` (the product by ``Xc'`` then
    ``Xc`` of the data route in one; the same subspace ``G^q Xc omega``, normalised once
    per step instead of twice), then the top right singular vectors come from the SVD
    of ``Xc' Q`` (p x size) for the orthonormal basis Q of the sketch, as on the data
    route. ``Xc`` is the centred X (a copy it may keep). All of it is scipy's BLAS: the
    Gram pass on its threads when large, the thin steps on one."""
    G = row_gram_upper(Xc)  # the upper triangle, Fortran: what symm reads
    with blas_single_thread():
        Y = dgemm(1.0, Xc.T, omega, trans_a=1)  # Xc omega, (n, size)
        for _ in range(n_iter):
            Y = dsymm(1.0, G, _normalise_columns(Y, normalizer), side=0, lower=0)
        Q, _ = linalg.qr(Y, mode="economic", check_finite=False, overwrite_a=True)
        W, S, _ = linalg.svd(dgemm(1.0, Xc.T, Q), full_matrices=False, check_finite=False)
    return S[:n_components], np.ascontiguousarray(W[:, :n_components].T)


def _products_with(X):
    """``(B -> X B, B -> X' B)``: for dense float64 X in scipy's BLAS, from a Fortran
    view of X (no copy of a C- or Fortran-ordered X). That is the BLAS of the
    factorisations between the products and of the transform after the fit: numpy's
    threads, still spinning after products of their own, made a transform right after
    a randomized fit many times slower."""
    if sp.issparse(X) or X.dtype != np.float64:
        return (lambda B: X @ B), (lambda B: X.T @ B)
    view = X.flags.c_contiguous  # X.T is Fortran-ordered
    F = X.T if view else np.asfortranarray(X)
    return ((lambda B: dgemm(1.0, F, B, trans_a=int(view))),
            (lambda B: dgemm(1.0, F, B, trans_a=int(not view))))


def _randomized_on_data(X, mean, omega, n_components, n_iter, normalizer):
    """:func:`_randomized_components` iterating on the implicitly centred X itself."""
    col_mean = mean[None, :]
    x_dot, xt_dot = _products_with(X)

    def a_dot(B):  # (X - 1 m) B
        return x_dot(B) - col_mean @ B

    def at_dot(B):  # (X - 1 m)ᵀ B
        return xt_dot(B) - col_mean.T @ B.sum(axis=0, keepdims=True)

    # the factorisations of tall, thin blocks (n_components + n_oversamples columns) on
    # one BLAS thread: threads only synchronise there (and then spin beside the next
    # product, which keeps them)
    def normalised(Y):
        with blas_single_thread():
            return _normalise_columns(Y, normalizer)

    Y = a_dot(omega)
    for _ in range(n_iter):
        if normalizer == "none":
            Z = at_dot(Y)
            Y = a_dot(Z)
        else:
            Y = a_dot(normalised(at_dot(normalised(Y))))
    with blas_single_thread():
        Q, _ = linalg.qr(Y, mode="economic", check_finite=False)
    B = at_dot(Q).T
    with blas_single_thread():
        _, S, Vt = linalg.svd(B, full_matrices=False, check_finite=False)
    return S[:n_components], Vt[:n_components]


class PCA(TransformerMixin, BaseEstimator):
    """Principal component analysis.

    Parameters
    ----------
    n_components : int, float, 'mle' or None, default=None
        Components to keep: an int; a float in (0, 1), the smallest number
        whose explained variance ratio exceeds it; 'mle', Minka's estimate;
        None, all (``min(n_samples, n_features)``).
    copy : bool, default=True
        Unused: the input is never modified.
    whiten : bool, default=False
        Scale the projections to unit variance.
    svd_solver : {'auto', 'full', 'covariance_eigh', 'arpack', 'randomized'}, default='auto'
        'full': exact, by the covariance eigensolver when n ≥ 3p and it is
        accurate enough, else an SVD; 'covariance_eigh': always the covariance
        route; 'randomized': randomized subspace iteration; 'arpack': ARPACK
        on the centred data; 'auto' picks as scikit-learn does, except on sparse X
        with more columns than rows (at most 4,096) when at least 5% of the rank is
        asked for: the components then come exactly from the eigendecomposition of
        the rows' centred Gram matrix (n x n) where ARPACK would iterate with a basis
        of twice as many vectors (``_fit_svd_solver`` still reads 'arpack', what
        scikit-learn's choice would be; ARPACK runs when a kept component is too
        small against the first for that route's accuracy).
    tol : float, default=0.0
        Tolerance of 'arpack'.
    iterated_power : int or 'auto', default='auto'
        Power iterations of 'randomized' (7 when n_components < 0.1 min(n, p), else 4).
    n_oversamples : int, default=10
        Extra random directions of 'randomized'.
    power_iteration_normalizer : {'auto', 'QR', 'LU', 'none'}, default='auto'
    random_state : int, RandomState instance or None, default=None

    Attributes
    ----------
    components_ : ndarray of shape (n_components, n_features)
    explained_variance_ : ndarray of shape (n_components,)
    explained_variance_ratio_ : ndarray of shape (n_components,)
    singular_values_ : ndarray of shape (n_components,)
    mean_ : ndarray of shape (n_features,)
    n_components_ : int
    n_samples_ : int
    noise_variance_ : float
        Mean of the discarded variances (the PPCA noise level).
    n_features_in_ : int
    feature_names_in_ : ndarray of str

    See Also
    --------
    KernelPCA : non-linear components through a kernel.

    Notes
    -----
    Seed 000 §13.1. ``score_samples`` is the log-likelihood under the
    probabilistic PCA model with covariance W Wᵀ + σ² I (Tipping & Bishop).

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[-1.0, -1.0], [-2.0, -1.0], [-3.0, -2.0], [1.0, 1.0], [2.0, 1.0], [3.0, 2.0]])
    >>> pca = PCA(n_components=2).fit(X)
    >>> pca.explained_variance_ratio_.round(4).tolist()
    [0.9924, 0.0076]
    """

    # its products after validation (projections, SVDs) run on BLAS's threads
    _blas_after_validation = True

    _parameter_constraints = {
        "n_components": [
            Interval(Integral, 0, None, closed="left"),
            Interval(Real, 0, 1, closed="neither"),
            StrOptions({"mle"}),
            None,
        ],
        "copy": ["boolean"],
        "whiten": ["boolean"],
        "svd_solver": [StrOptions({"auto", "full", "covariance_eigh", "arpack", "randomized"})],
        "tol": [Interval(Real, 0, None, closed="left")],
        "iterated_power": [Interval(Integral, 0, None, closed="left"), StrOptions({"auto"})],
        "n_oversamples": [Interval(Integral, 1, None, closed="left")],
        "power_iteration_normalizer": [StrOptions({"auto", "QR", "LU", "none"})],
        "random_state": ["random_state"],
    }

    def __init__(
        self,
        n_components=None,
        *,
        copy=True,
        whiten=False,
        svd_solver="auto",
        tol=0.0,
        iterated_power="auto",
        n_oversamples=10,
        power_iteration_normalizer="auto",
        random_state=None,
    ):
        self.n_components = n_components
        self.copy = copy
        self.whiten = whiten
        self.svd_solver = svd_solver
        self.tol = tol
        self.iterated_power = iterated_power
        self.n_oversamples = n_oversamples
        self.power_iteration_normalizer = power_iteration_normalizer
        self.random_state = random_state

    def _choose_solver(self, n, p, sparse=False):
        nc = self.n_components
        if sparse:
            # as scikit-learn: sparse X is fitted by ARPACK on the implicitly
            # centred operator, or by the covariance matrix
            if self.svd_solver not in ("auto", "arpack", "covariance_eigh"):
                raise TypeError(
                    'PCA only support sparse inputs with the "arpack" and "covariance_eigh" '
                    f'solvers, while "{self.svd_solver}" was passed. See TruncatedSVD for a '
                    "possible alternative."
                )
            return "arpack" if self.svd_solver == "auto" else self.svd_solver
        if self.svd_solver != "auto":
            return self.svd_solver
        if p <= 1_000 and n >= 10 * p:
            return "covariance_eigh"
        if max(n, p) <= 500 or nc == "mle":
            return "full"
        if isinstance(nc, Integral) and 1 <= nc < 0.8 * min(n, p):
            return "randomized"
        return "full"

    def _check_n_components(self, solver, n, p):
        nc = self.n_components
        lim = min(n, p)
        if nc == "mle":
            if solver not in ("full", "covariance_eigh"):
                raise ValueError(f"n_components='mle' cannot be used with svd_solver='{solver}'")
            if n < p:
                raise ValueError("n_components='mle' is only supported if n_samples >= n_features")
            return nc
        if nc is None:
            return lim - 1 if solver == "arpack" else lim
        if isinstance(nc, Integral):
            if solver in ("full", "covariance_eigh"):
                if not 0 <= nc <= lim:
                    raise ValueError(
                        f"n_components={nc} must be between 0 and min(n_samples, n_features)="
                        f"{lim} with svd_solver='{solver}'"
                    )
            elif solver == "randomized":
                if not 1 <= nc <= lim:
                    raise ValueError(
                        f"n_components={nc} must be between 1 and min(n_samples, n_features)="
                        f"{lim} with svd_solver='{solver}'"
                    )
            elif not 1 <= nc < lim:
                raise ValueError(
                    f"n_components={nc} must be strictly less than min(n_samples, n_features)="
                    f"{lim} with svd_solver='{solver}'"
                )
            return int(nc)
        if solver not in ("full", "covariance_eigh"):
            raise ValueError(
                f"n_components={nc} must be of type int when greater than or equal to 1, was "
                f"of type={type(nc)!r} with svd_solver='{solver}'"
            )
        return nc

    def __classiclearn_tags__(self):
        tags = super().__classiclearn_tags__()
        tags.preserves_dtype = ["float64", "float32"]
        # as scikit-learn: the solvers that take sparse X (implicit centring)
        tags.sparse = self.svd_solver in ("auto", "arpack", "covariance_eigh")
        return tags

    def _fit(self, X):
        self._validate_params()
        # finiteness is checked below: on the covariance route the column sums of
        # the Gram pass show it without a separate scan of X
        dtype = input_float_dtype(X)
        # a dense float32 X is kept as it is on the covariance route (its Gram matrix is
        # summed in float64 block by block), else copied to float64
        keep32 = dtype == np.float32 and not sp.issparse(X)
        X = validate_data(self, X, dtype=[np.float64, np.float32] if keep32 else np.float64,
                          ensure_min_samples=2, ensure_all_finite=False,
                          accept_sparse=["csr", "csc"])
        n, p = X.shape
        solver = self._choose_solver(n, p, sp.issparse(X))
        nc = self._check_n_components(solver, n, p)
        covariance = _covariance_route(solver, n, p, nc, X.dtype)
        if X.dtype != np.float64 and not covariance:
            X = X.astype(np.float64)
        self._fit_svd_solver = solver
        gram = sums = shift = None
        if covariance:
            shift = None if sp.issparse(X) else _first_rows_shift(X)
            with np.errstate(over="ignore", invalid="ignore"):  # extreme values: below
                gram, sums = _gram_and_column_sums(X, shift)
        if sums is None or not np.all(np.isfinite(sums)):
            # the usual error for NaN / inf (finite sums mean finite entries)
            check_array(X, dtype=np.float64, estimator=self, input_name="X",
                        accept_sparse=["csr", "csc"])
            gram, sums = None, _column_sums(X)
        X_given, unit = X, _extreme_unit(X, gram)
        if unit != 1.0:
            # values near 1e300 or 1e-300: fit on X divided by a power of two
            # (exact), then give the attributes back in X's units
            X = X / unit
            if gram is not None:
                shift = _first_rows_shift(X)
            gram, sums = (_gram_and_column_sums(X, shift) if gram is not None
                          else (None, _column_sums(X)))
        self.mean_ = sums / n
        if solver in ("full", "covariance_eigh"):
            self._fit_exact(X, nc, solver, covariance, gram, shift)
        else:
            self._fit_truncated(X, nc, solver)
        if unit != 1.0:
            self._to_data_units(unit)
        X = X_given
        self.n_samples_ = n
        self._n_features_out = self.n_components_
        cast_float_attributes(self, dtype, ("mean_", "components_", "explained_variance_",
                                            "explained_variance_ratio_", "singular_values_",
                                            "noise_variance_"))
        return X

    def _to_data_units(self, unit):
        """Attributes of a fit on ``X / unit`` turned into those of X (variances
        may round to inf or 0: then whitening uses the singular values)."""
        unit = np.float64(unit)
        self.mean_ = self.mean_ * unit
        self.singular_values_ = self.singular_values_ * unit
        with np.errstate(over="ignore", under="ignore"):
            self.explained_variance_ = self.explained_variance_ * unit * unit
            self.noise_variance_ = self.noise_variance_ * unit * unit

    def _component_scales(self):
        """Standard deviation along each component, ``sqrt(explained_variance_)``,
        from the singular values when the variance itself is not representable."""
        scale = np.sqrt(np.asarray(self.explained_variance_, dtype=np.float64))
        lost = ~np.isfinite(scale) | ((scale == 0) & (self.singular_values_ > 0))
        if lost.any():
            scale[lost] = (np.asarray(self.singular_values_, dtype=np.float64)[lost]
                           / np.sqrt(max(self.n_samples_ - 1, 1)))
        return scale

    def _fit_exact(self, X, nc, solver, covariance, gram=None, shift=None):
        n, p = X.shape
        lim = min(n, p)
        Vt = None
        if covariance:
            with small_lapack(p, EIGH_THREADED_ORDER):
                evals, Vt = _covariance_eigh(X, self.mean_, gram, shift)
            ratio, nc_resolved = _explained(evals, nc, n, lim)
            if solver == "full" and not _covariance_route_reliable(evals, nc_resolved):
                Vt = None
            else:
                S = np.sqrt(evals * (n - 1))
        Xc = None
        if _row_gram_route(solver, n, p, nc):
            Xc = X - self.mean_
            with small_lapack(n, EIGH_THREADED_ORDER):
                evals, U = _row_gram_eigh(Xc)
            ratio, nc_resolved = _explained(evals, nc, n, lim)
            found = _row_gram_components(Xc, evals, U, nc_resolved)
            if found is not None:
                Vt, evals = found
                ratio = _explained(evals, nc_resolved, n, lim)[0]
                S = np.sqrt(evals * (n - 1))
        if Vt is None:
            if Xc is None:
                Xc = X - self.mean_
            with svd_threads(n, p):
                _, S, Vt = linalg.svd(Xc, full_matrices=False, overwrite_a=True,
                                      check_finite=False)
            evals = S**2 / (n - 1)
            ratio, nc_resolved = _explained(evals, nc, n, lim)
        self._store_exact(evals, ratio, S, Vt, nc_resolved, lim)

    def _store_exact(self, evals, ratio, S, Vt, nc, lim):
        """Fitted attributes of an exact solve (all eigenvalues known)."""
        Vt, _ = _flip_rows(Vt)
        self.noise_variance_ = float(evals[nc:].mean()) if nc < lim else 0.0
        self.n_components_ = nc
        self.components_ = np.ascontiguousarray(Vt[:nc])
        self.explained_variance_ = evals[:nc].copy()
        self.explained_variance_ratio_ = ratio[:nc].copy()
        self.singular_values_ = S[:nc].copy()

    def _fit_dask(self, X, y=None):
        """Fit on Dask input. The exact solvers take the covariance route: centred
        co-moments merged over the row blocks in order, then the eigendecomposition.
        The randomized solver runs its subspace iteration with block products
        (``_pca_dask``)."""
        self._validate_params()
        if fit_one_block_in_memory(self, X) is not None:
            return self
        from . import _pca_dask  # imports this module

        return _pca_dask.fit(self, X)

    def _fit_truncated(self, X, nc, solver):
        n, p = X.shape
        rng = check_random_state(self.random_state)
        found = None
        if solver == "arpack" and p <= n and (sp.issparse(X) or p <= _ARPACK_GRAM_MAX):
            with small_lapack(p):
                found = _arpack_on_covariance(X, self.mean_, nc, self.tol, rng)
        elif (solver == "arpack" and self.svd_solver == "auto" and sp.issparse(X)
              and p > n and n <= _ROW_GRAM_MAX and nc >= _ROW_GRAM_SHARE * n
              and gram_pair_work(X, outer=True) <= _ROW_GRAM_WORK * nc * X.nnz):
            with small_lapack(n):
                found = _components_from_row_gram(X, self.mean_, nc)
        if found is not None:
            S, Vt = found
        elif solver == "arpack":
            from scipy.sparse.linalg import LinearOperator, svds

            m = self.mean_[None, :]
            op = LinearOperator(
                (n, p),
                matvec=lambda v: X @ v - (m @ v),
                rmatvec=lambda v: X.T @ v - m.T @ np.atleast_1d(v.sum(axis=0)),
                matmat=lambda B: X @ B - m @ B,
                rmatmat=lambda B: X.T @ B - m.T @ B.sum(axis=0, keepdims=True),
                dtype=np.float64,
            )
            v0 = rng.uniform(-1, 1, size=min(n, p))
            _, S, Vt = svds(op, k=nc, tol=self.tol, v0=v0)
            order = np.argsort(S)[::-1]
            S, Vt = S[order], Vt[order]
        else:
            n_iter = self._power_iterations(nc, n, p)
            normalizer = self.power_iteration_normalizer
            if normalizer == "auto":
                normalizer = "none" if n_iter <= 2 else "LU"
            S, Vt = _randomized_components(
                X, self.mean_, nc, self.n_oversamples, n_iter, normalizer, rng
            )
        if sp.issparse(X):
            total = _sparse_total_variance(X, self.mean_)
        else:
            total = float(np.var(X, ddof=1, axis=0).sum())
        self._store_truncated(S, Vt, total, n, p, nc)

    def _power_iterations(self, nc, n, p):
        """Number of power iterations of the randomized solver."""
        if self.iterated_power == "auto":
            return 7 if nc < 0.1 * min(n, p) else 4
        return self.iterated_power

    def _store_truncated(self, S, Vt, total, n, p, nc):
        """Fitted attributes of a truncated solve (``total``: the summed variances)."""
        Vt, _ = _flip_rows(Vt)
        evals = S**2 / (n - 1)
        self.n_components_ = nc
        self.components_ = np.ascontiguousarray(Vt)
        self.explained_variance_ = evals
        self.explained_variance_ratio_ = evals / total if total > 0 else np.zeros_like(evals)
        self.singular_values_ = S.copy()
        lim = min(n, p)
        self.noise_variance_ = (total - evals.sum()) / (lim - nc) if nc < lim else 0.0

    def fit(self, X, y=None):
        """Fit the model to X.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
        y : ignored

        Returns
        -------
        self
        """
        self._fit(X)
        return self

    def fit_transform(self, X, y=None):
        """Fit the model and return the projections of X.

        Returns
        -------
        ndarray of shape (n_samples, n_components_)
        """
        f32 = _is_float32(X)
        X = self._fit(X)
        return _as_input_dtype(self._project(X), f32)

    def _project(self, X):
        """(X - mean) C' (whitened if asked), in X's float dtype: a float32 X is
        projected in float32 (one single-precision product, as scikit-learn does),
        any other in float64."""
        dtype = X.dtype if X.dtype == np.float32 else np.float64
        CT = np.asarray(self.components_, dtype=dtype).T
        mean = np.asarray(self.mean_, dtype=dtype)
        offset = mean @ CT
        if sp.issparse(X) or np.all(np.abs(offset)
                                    <= _FOLDED_OFFSET_SPREADS * self._component_scales()):
            # X C' - mean C' (no centred copy of X): the mean's projection is within
            # 4,096 standard deviations of each component, so at most ~12 bits cancel
            # (sparse X is never centred, as in scikit-learn, which folds every X)
            Xt = scipy_product(X, CT)  # the BLAS of the fit's LAPACK
            Xt -= offset
        else:
            Xt = centred_product(X, mean, CT)
        if self.whiten:
            scale = self._component_scales()
            scale[scale < 1e-300] = 1.0
            Xt /= scale.astype(dtype)
        return Xt

    def transform(self, X):
        """Project X on the principal components.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples, n_components_)
        """
        check_is_fitted(self)
        f32 = _is_float32(X)
        if f32 and not sp.issparse(X):
            # float32 in, float32 out: projected without a float64 copy of X
            return self._project(validate_data(self, X, reset=False, dtype=np.float32))
        X = validate_data(self, X, reset=False, dtype=np.float64, accept_sparse=["csr", "csc"])
        return _as_input_dtype(self._project(X), f32)

    def inverse_transform(self, X):
        """Map projections back to the input space.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_components_)

        Returns
        -------
        ndarray of shape (n_samples, n_features)
        """
        check_is_fitted(self)
        f32 = _is_float32(X)
        X = np.asarray(X, dtype=np.float64)
        if self.whiten:
            out = X @ (self._component_scales()[:, None] * self.components_) + self.mean_
        else:
            out = X @ self.components_ + self.mean_
        return _as_input_dtype(out, f32)

    def get_covariance(self):
        """Model covariance W Wᵀ + σ² I of the probabilistic PCA.

        Returns
        -------
        ndarray of shape (n_features, n_features)
        """
        check_is_fitted(self)
        comps = self.components_
        ev = self.explained_variance_
        if self.whiten:
            comps = comps * np.sqrt(ev[:, None])
        diff = np.where(ev > self.noise_variance_, ev - self.noise_variance_, 0.0)
        cov = (comps.T * diff) @ comps
        cov.flat[:: cov.shape[0] + 1] += self.noise_variance_
        return cov

    def get_precision(self):
        """Inverse of :meth:`get_covariance`, by the matrix inversion lemma.

        Returns
        -------
        ndarray of shape (n_features, n_features)
        """
        check_is_fitted(self)
        p = self.components_.shape[1]
        if self.n_components_ == 0:
            return np.eye(p) / self.noise_variance_
        if self.noise_variance_ == 0.0 or self.n_components_ == p:
            return linalg.inv(self.get_covariance())
        comps = self.components_
        ev = self.explained_variance_
        if self.whiten:
            comps = comps * np.sqrt(ev[:, None])
        diff = np.where(ev > self.noise_variance_, ev - self.noise_variance_, 0.0)
        s2 = self.noise_variance_
        # (σ²I + Wᵀ D W)⁻¹ = I/σ² - Wᵀ (D⁻¹ + W Wᵀ/σ²)⁻¹ W / σ⁴
        inner = comps @ comps.T / s2
        with np.errstate(divide="ignore"):
            inner.flat[:: inner.shape[0] + 1] += 1.0 / diff
        try:
            inner_inv = linalg.inv(inner, check_finite=False)
        except linalg.LinAlgError:
            inner_inv = linalg.pinv(inner)
        prec = -(comps.T @ inner_inv @ comps) / s2**2
        prec.flat[:: p + 1] += 1.0 / s2
        return prec

    def score_samples(self, X):
        """Log-likelihood of each sample under the probabilistic PCA model.

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        check_is_fitted(self)
        X_in = X
        X = validate_data(self, X, reset=False, dtype=np.float64)
        Xr = X - self.mean_
        p = X.shape[1]
        with np.errstate(all="ignore"):
            try:
                prec = self.get_precision()
            except ValueError:  # singular or non-finite model covariance: the message below
                prec = np.full((p, p), np.nan)
            _, logdet = np.linalg.slogdet(prec)
            ll = -0.5 * np.sum(Xr * (Xr @ prec), axis=1) - 0.5 * (p * np.log(2 * np.pi) - logdet)
        if not np.all(np.isfinite(ll)):
            raise ValueError(
                "The log-likelihoods of PCA are not finite: the model variances of these "
                f"data are not representable (explained variances {self.explained_variance_!r},"
                f" noise variance {self.noise_variance_!r}); scale the features."
            )
        return output_in_dtype(ll, X_in, self.components_)

    def score(self, X, y=None):
        """Mean log-likelihood of X under the probabilistic PCA model.

        Returns
        -------
        float
        """
        return float(np.mean(self.score_samples(X)))

    def get_feature_names_out(self, input_features=None):
        """Output names ``pca0``, ``pca1``, ...

        Returns
        -------
        ndarray of str
        """
        check_is_fitted(self)
        return np.asarray([f"pca{i}" for i in range(self._n_features_out)], dtype=object)

