"""Shared machinery of the kernel SVMs (seed 000 §8, §14): kernel set-up,
calling the SMO solver, and blocked GEMM-based evaluation of the decision
function ``sum_s c_s K(x, sv_s) + b``.
"""

import numpy as np
import scipy.sparse as sp

from .._kernels.jit import start_parallel_runtime
from .._kernels.kernel_functions import kernel_matrix
from .._kernels.work import KERNEL_BLAS_FEATURES
from ..utils._sparse import row_squared_norms
from ..utils._threads import effective_n_jobs, pooled_map, small_lapack
from . import _smo_kernels as _k

KERNEL_IDS = {
    "linear": _k.LINEAR,
    "poly": _k.POLY,
    "rbf": _k.RBF,
    "sigmoid": _k.SIGMOID,
    "precomputed": _k.PRECOMPUTED,
}


def resolve_gamma(gamma, X):
    """Numeric gamma from 'scale', 'auto' or a float."""
    if isinstance(gamma, str):
        if gamma == "scale":
            if sp.issparse(X):
                # E[x^2] - E[x]^2 over all n x p entries, zeros included
                size = X.shape[0] * X.shape[1]
                var = float((X.data**2).sum() / size - (X.data.sum() / size) ** 2) if size else 0.0
            else:
                var = float(X.var()) if X.size else 0.0
            return 1.0 / (X.shape[1] * var) if var != 0.0 else 1.0
        return 1.0 / X.shape[1]
    return float(gamma)


def training_matrix(est, X):
    """Matrix the solver works on: X itself, or a Gram matrix for precomputed / callable."""
    kernel = est.kernel
    if callable(kernel):
        K = kernel(X, X)
        K = np.asarray(K.toarray() if sp.issparse(K) else K, dtype=np.float64)
        if K.shape != (X.shape[0], X.shape[0]):
            raise ValueError(
                f"The callable kernel must return an array of shape ({X.shape[0]}, "
                f"{X.shape[0]}), got {K.shape}."
            )
        return np.ascontiguousarray(K), _k.PRECOMPUTED
    if kernel == "precomputed":
        if X.shape[0] != X.shape[1]:
            raise ValueError(
                "Precomputed matrix must be a square matrix. Input is a "
                f"{X.shape[0]}x{X.shape[1]} matrix."
            )
        return X, _k.PRECOMPUTED
    return X, KERNEL_IDS[kernel]


def solve_dual(est, M, kernel_id, rows, y, p, C, sample_of=None, serial_rows=False):
    """Run SMO on the sub-problem made of the samples ``rows`` of M.

    Parameters
    ----------
    est : fitted-in-progress estimator (reads gamma, coef0, degree, tol, ...)
    M : ndarray
        Training features, or the full Gram matrix for a precomputed kernel.
    kernel_id : int
    rows : ndarray of intp
        Samples taking part.
    y, p, C : ndarray of shape (l,)
        Sign, linear term and bound of each variable.
    sample_of : ndarray of shape (l,), optional
        Position in ``rows`` of each variable's sample (default: identity).
    serial_rows : bool, default=False
        Never split kernel rows over threads (the caller runs problems in
        parallel already).

    Returns
    -------
    alpha, rho, n_iter, converged
    """
    csr = None
    if kernel_id == _k.PRECOMPUTED:
        Xs = np.ascontiguousarray(M[np.ix_(rows, rows)])
        sq = np.zeros(len(rows))
    elif sp.issparse(M):
        Ms = M[rows]  # CSR rows of the sub-problem (a copy of their non-zeros only)
        csr = _k.Csr(np.ascontiguousarray(Ms.data, dtype=np.float64), Ms.indices.astype(np.intp),
                     Ms.indptr.astype(np.intp), np.arange(len(rows), dtype=np.intp),
                     np.zeros(M.shape[1]))
        Xs = np.empty((0, 0))
        sq = row_squared_norms(Ms)
    else:
        Xs = np.ascontiguousarray(M[rows])
        sq = np.einsum("ij,ij->i", Xs, Xs)
    n = len(rows)
    n_chunks = None if serial_rows else _row_chunks(kernel_id, n, Xs, csr)
    per_sample = sample_of is not None
    # rows are float32: as many as fit in cache_size MB
    n_slots = int(max(2, min(n, est.cache_size * 2**20 // max(1, 4 * n))))
    idx = np.arange(len(y), dtype=np.intp) if sample_of is None else sample_of
    max_iter = int(est.max_iter)
    kernel = _k.Kernel(Xs, sq, kernel_id, float(est._gamma), float(est.coef0), int(est.degree))
    problem = _k.Problem(np.ascontiguousarray(idx, dtype=np.intp),
                         np.ascontiguousarray(y, dtype=np.float64),
                         np.ascontiguousarray(p, dtype=np.float64),
                         np.ascontiguousarray(C, dtype=np.float64))
    settings = _k.Settings(float(est.tol), max_iter if max_iter > 0 else -1, n_slots,
                           bool(est.shrinking), n_chunks, per_sample)
    return _k.smo_solve(kernel, csr, problem, settings)


def batches_dense(M, kernel_id):
    """Whether :func:`solve_classifications` can take problems on ``M``: dense samples
    with a built-in kernel (a precomputed or sparse ``M`` goes through
    :func:`solve_dual`)."""
    return kernel_id != _k.PRECOMPUTED and not sp.issparse(M)


def needs_parallel_rows(kernel_id, M, n):
    """Whether a lone problem of ``n`` samples of ``M`` splits its kernel rows over threads."""
    return _row_chunks(kernel_id, n, M, None) is not None


def solve_classifications(est, M, kernel_id, subsets, n_positive, C, n_threads):
    """Solve one classification dual per subset of the samples of a dense ``M``.

    Problem ``q`` is made of the samples ``subsets[q]``, the first ``n_positive[q]``
    of them of the class +1, the others -1, each bounded by ``C[sample]``. The
    problems run in numba without the GIL, several per call (in ``n_threads`` of the
    kept threads, the largest first): the per-problem Python around :func:`solve_dual`
    (its arrays, named tuples and three kernel calls) cost as much as the solving on
    small problems, and its GIL hand-offs held two threads back. Each problem is solved
    as :func:`solve_dual` solves it (serial kernel rows), whatever the grouping.

    Returns
    -------
    list of (alpha, rho, n_iter, converged), one per subset
    """
    X = np.ascontiguousarray(M, dtype=np.float64)
    sizes = np.array([len(rows) for rows in subsets], dtype=np.intp)
    starts = np.zeros(len(subsets) + 1, dtype=np.intp)
    np.cumsum(sizes, out=starts[1:])
    rows = np.concatenate(subsets).astype(np.intp, copy=False)
    y = np.concatenate([np.where(np.arange(size) < first, 1.0, -1.0)
                        for size, first in zip(sizes, n_positive)])
    bounds = np.ascontiguousarray(C[rows], dtype=np.float64)
    p = -np.ones(rows.size)
    sqnorm = np.einsum("ij,ij->i", X, X)
    alpha = np.zeros(rows.size)
    rho = np.zeros(len(subsets))
    n_iter = np.zeros(len(subsets), dtype=np.int64)
    converged = np.zeros(len(subsets), dtype=np.bool_)
    max_iter = int(est.max_iter)
    settings = (float(est.tol), max_iter if max_iter > 0 else -1,
                float(est.cache_size * 2**20), bool(est.shrinking))

    start_parallel_runtime()  # here, before the pool's threads call the kernel

    def solve(group):
        _k.solve_subsets(X, sqnorm, kernel_id, float(est._gamma), float(est.coef0),
                         int(est.degree), rows, starts, y, p, bounds, group, *settings,
                         alpha, rho, n_iter, converged)

    pooled_map(solve, _problem_groups(sizes, n_threads), n_threads)
    return [(alpha[starts[q]:starts[q + 1]], float(rho[q]), int(n_iter[q]), bool(converged[q]))
            for q in range(len(subsets))]


def _problem_groups(sizes, n_threads):
    """Problems dealt, largest first, into about four groups per thread (handed out
    as threads free up); one group when serial."""
    order = np.argsort(-(sizes.astype(np.float64) ** 2), kind="stable").astype(np.intp)
    n_groups = 1 if n_threads <= 1 else min(order.size, 4 * n_threads)
    return [order[g::n_groups] for g in range(n_groups)]


def _row_chunks(kernel_id, n, Xs, csr):
    """Threads per kernel row of the solver, or None when no row of the ``n``
    samples is long enough to be split (the solver is then compiled without
    the parallel code)."""
    if kernel_id == _k.PRECOMPUTED:
        return None
    n_chunks = min(8, effective_n_jobs(-1))
    # multiply-adds per kernel entry, as the solver counts them
    width = Xs.shape[1] if csr is None else max(1, csr.data.shape[0] // max(1, n))
    if n_chunks <= 1 or n * width < _k.PAR_WORK:
        return None
    return int(n_chunks)


def _dense(K):
    """A user kernel's (rows x support vectors) values as a float64 ndarray."""
    return np.asarray(K.toarray() if sp.issparse(K) else K, dtype=np.float64)


def _kernel_matrix(est, kernel, Xq, SV, sv_sqnorm):
    """K(Xq, SV) for a built-in kernel, dense or sparse rows (the shared kernel functions)."""
    return kernel_matrix(Xq, SV, kernel, gamma=est._gamma, coef0=est.coef0,
                         degree=int(est.degree), y_sq=sv_sqnorm)


def kernel_values(est, Xq, SV):
    """``K(Xq, SV)`` (dense float64) for a built-in kernel."""
    return _dense(_kernel_matrix(est, est.kernel, Xq, SV, None))


def decision_values(est, X, coef_t, intercept):
    """``K(X, support vectors) @ coef_t + intercept`` on row blocks of X.

    Built-in kernels: a BLAS product for the dot products, an in-place numba
    pass for the kernel values, and a second BLAS product with the dual
    coefficients (all one-vs-one pairs at once). For a precomputed kernel
    ``X`` already holds kernel values to the training samples.
    """
    n = X.shape[0]
    n_sv = max(1, est.support_.shape[0])
    block = max(1, min(n, (64 * 2**20) // (8 * n_sv)))
    coef_t = np.ascontiguousarray(coef_t, dtype=np.float64)
    intercept = np.ascontiguousarray(intercept, dtype=np.float64)
    out = np.empty((n, coef_t.shape[1]))
    with small_lapack(X.shape[1], KERNEL_BLAS_FEATURES):
        _decision_blocks(est, X, coef_t, intercept, block, out)
    return out


def _decision_blocks(est, X, coef_t, intercept, block, out):
    n = X.shape[0]
    for start in range(0, n, block):
        Xb = X[start:start + block]
        if est.kernel == "precomputed":
            K = Xb[:, est.support_]
        elif callable(est.kernel):
            K = _dense(est.kernel(Xb, est._sv_for_kernel))
        else:
            K = _kernel_matrix(est, est.kernel, Xb, est._sv_for_kernel, est._sv_sqnorm)
        np.matmul(K, coef_t, out=out[start:start + block])
        out[start:start + block] += intercept
