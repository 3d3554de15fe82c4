"""Iterative ridge solvers: lsqr, sparse_cg, sag, saga, lbfgs (seed 000 §7).

Each solves, per target column, ``min ||A w - B||^2 + alpha ||w||^2`` where
A is the centred X scaled by ``sqrt(sw)`` and B the centred target scaled
the same way (sag / saga take the centred X and the weights themselves).
lsqr and sparse_cg see A only through products (:func:`centered_operator`),
so X is never copied. Each returns (W (p, t), n_iter (t,), converged (t,)
bool).
"""

from contextlib import nullcontext

import numpy as np
from scipy import optimize
from scipy.sparse import issparse
from scipy.sparse import linalg as splinalg

from .._kernels.jit import start_parallel_runtime
from .._kernels.sparse_products import row_lanes
from .._kernels.work import BLAS_THREADED_MATVEC, LOSS_PASS_THREADED, ROW_LANE_ENTRIES
from ..utils._sparse import column_deviations, csr_products, row_squared_norms
from ..utils._threads import SMALL_WORK, auto_n_jobs, blas_single_thread, pooled_map
from ._base import add_lanes, dense_row_lanes
from ._lsqr_kernels import lsqr_sparse
from ._ridge_kernels import squared_loss_grad, squared_loss_grad_lanes
from ._sag import fit_sag, sag_generator

# LSQR's stops other than the iteration limit (7) and the condition limit (3, 6)
_LSQR_CONVERGED = (0, 1, 2, 4, 5)
# scipy's default condition limit
_LSQR_CONLIM = 1e8
# LSQR steps a column is taken to need when choosing threads (sparse X: some tens at
# tol 1e-4, 30-60 at 1e-10)
_LSQR_STEPS_GUESS = 50


def centered_operator(X, x_mean, sw):
    """``A = diag(sqrt(sw)) (X - 1 x_mean')`` as a LinearOperator (X not copied)."""
    n, p = X.shape
    root = None if sw is None else np.sqrt(sw)
    product, t_product = csr_products(X)  # CSR X: in threads

    def matvec(v):
        v = np.ravel(v)
        out = product(v) - x_mean @ v
        return out if root is None else out * root

    def rmatvec(u):
        u = np.ravel(u)
        if root is not None:
            u = u * root
        return t_product(u) - x_mean * u.sum()

    return splinalg.LinearOperator((n, p), matvec=matvec, rmatvec=rmatvec, dtype=np.float64)


def centered_diagonal(X, x_mean, sw, dual):
    """Diagonal of ``A'A`` (per column) or, with ``dual``, of ``A A'`` (per row), for the
    A of :func:`centered_operator`, from X's stored values (no centred copy).

    It feeds the Jacobi preconditioner of :func:`solve_sparse_cg`, which needs it only
    positive: where a column's mean is large against its spread, cancellation makes the
    expansion inexact, and negative round-off is clipped to zero.
    """
    w = np.ones(X.shape[0]) if sw is None else sw
    if dual:
        row_sq = row_squared_norms(X)
        diagonal = w * (row_sq - 2.0 * (X @ x_mean) + x_mean @ x_mean)
    elif issparse(X):
        # sum_i w_i (x_ij - mean_j)^2 from the stored values (no X * X product)
        diagonal = column_deviations(X, sw, centre=x_mean)[1]
    else:
        col_sq = np.einsum("i,ij,ij->j", w, X, X)  # no n x p temporary
        col_sum = w @ X
        diagonal = col_sq - 2.0 * x_mean * col_sum + x_mean ** 2 * w.sum()
    return np.maximum(diagonal, 0.0)


def solve_lsqr(X, x_mean, sw, B, alphas, tol, max_iter):
    """LSQR (Paige and Saunders) on the damped least-squares problem.

    ``damp = sqrt(alpha)`` makes LSQR minimise ``||A w - b||^2 + alpha ||w||^2`` for
    the A of :func:`centered_operator`; ``atol = btol = tol`` as scikit-learn. Sparse X
    runs the compiled iteration (:func:`._lsqr_kernels.lsqr_sparse`), dense X scipy's
    ``lsqr`` over BLAS products. ``max_iter=None`` is scipy's limit, twice the columns.
    """
    if issparse(X):
        return _solve_lsqr_sparse(X, x_mean, sw, B, alphas, tol, max_iter)
    A = centered_operator(X, x_mean, sw)
    p, t = A.shape[1], B.shape[1]
    W = np.empty((p, t))
    n_iter = np.empty(t, dtype=np.intp)
    ok = np.empty(t, dtype=bool)
    for k in range(t):
        out = splinalg.lsqr(A, B[:, k], damp=np.sqrt(alphas[k]), atol=tol, btol=tol,
                            iter_lim=max_iter)
        W[:, k] = out[0]
        n_iter[k] = out[2]
        ok[k] = out[1] in _LSQR_CONVERGED
    return W, n_iter, ok


def _solve_lsqr_sparse(X, x_mean, sw, B, alphas, tol, max_iter):
    """:func:`solve_lsqr` on sparse X: CSR by rows, CSC as the CSR of X'.

    The columns of B are independent problems: several are split between the cores,
    each solved with X's products on its thread (a call of the kernel in a kept pool
    thread; no synchronisation per step, as the products' row lanes would need), the
    same result, bit for bit, as one call over them all; a single column has its
    products in row lanes on numba's threads."""
    if X.format not in ("csr", "csc"):
        X = X.tocsr()
    n, p = X.shape
    by_row = X.format == "csr"
    major = (n, p) if by_row else (p, n)
    t = B.shape[1]
    # several columns: each on one thread, whole (one lane); one column: its products in
    # row lanes, on this thread when there is one lane (no threaded code compiled)
    if t == 1:
        bounds = row_lanes(X.indptr, major, ROW_LANE_ENTRIES)
    else:
        bounds = np.array([0, major[0]], dtype=np.intp)
    parts = np.empty((bounds.shape[0] - 1, major[1])) if bounds.shape[0] > 2 else None
    root = np.empty(0) if sw is None else np.sqrt(np.asarray(sw, dtype=np.float64))
    iter_lim = 2 * p if max_iter is None else int(max_iter)
    data = np.asarray(X.data, dtype=np.float64)
    x_mean = np.ascontiguousarray(x_mean, dtype=np.float64)
    B = np.ascontiguousarray(B, dtype=np.float64)
    damps = np.sqrt(np.asarray(alphas, dtype=np.float64))
    start_parallel_runtime()

    def solve(columns):
        return lsqr_sparse(X.indptr, X.indices, data, by_row, bounds, parts, x_mean, root,
                           np.ascontiguousarray(B[:, columns]), damps[columns], float(tol),
                           float(tol), _LSQR_CONLIM, iter_lim)

    threads = 1
    if t > 1:
        threads = min(t, auto_n_jobs(None, X.nnz * t * _LSQR_STEPS_GUESS, SMALL_WORK))
    if threads == 1:
        W, istop, n_iter = solve(np.arange(t))
    else:
        groups = [np.arange(first, t, threads) for first in range(threads)]
        W, istop, n_iter = np.empty((p, t)), np.empty(t, dtype=np.intp), np.empty(t, np.intp)
        for columns, (W_k, istop_k, n_iter_k) in zip(groups, pooled_map(solve, groups,
                                                                         threads)):
            W[:, columns], istop[columns], n_iter[columns] = W_k, istop_k, n_iter_k
    return W, n_iter, np.isin(istop, _LSQR_CONVERGED)


def solve_sparse_cg(A, B, alphas, tol, max_iter, diagonal):
    """Conjugate gradients on the normal equations, never forming ``A'A``.

    A is a LinearOperator. Primal ``(A'A + alpha I) w = A'b`` when p <= n, else the dual
    ``(A A' + alpha I) d = b``, ``w = A'd`` (scikit-learn's choice); ``diagonal`` is the
    system matrix's diagonal without alpha (:func:`centered_diagonal`).

    The iteration is preconditioned by that diagonal (Jacobi): on data whose columns
    differ in scale by orders of magnitude, as word counts do, the plain iteration needs
    many times more steps. scipy's ``cg`` stops on the unpreconditioned residual, so the
    stopping rule, ``||r|| <= tol ||rhs||``, and the accuracy are those of the plain
    iteration (scikit-learn's).
    """
    n, p = A.shape
    t = B.shape[1]
    W = np.empty((p, t))
    n_iter = np.zeros(t, dtype=np.intp)
    ok = np.empty(t, dtype=bool)
    dual = p > n
    size = n if dual else p
    for k in range(t):
        alpha = alphas[k]
        if dual:
            def matvec(v, alpha=alpha):
                return A.matvec(A.rmatvec(v)) + alpha * np.ravel(v)
            rhs = B[:, k]
        else:
            def matvec(v, alpha=alpha):
                return A.rmatvec(A.matvec(v)) + alpha * np.ravel(v)
            rhs = A.rmatvec(B[:, k])
        op = splinalg.LinearOperator((size, size), matvec=matvec, dtype=np.float64)
        scale = diagonal + alpha
        inverse = np.divide(1.0, scale, out=np.ones_like(scale), where=scale > 0)
        jacobi = splinalg.LinearOperator((size, size), matvec=lambda v, d=inverse: np.ravel(v) * d,
                                         dtype=np.float64)
        counter = _Counter()
        sol, info = splinalg.cg(op, rhs, rtol=tol, atol=0.0, maxiter=max_iter, M=jacobi,
                                callback=counter)
        if info < 0:
            raise ValueError(f"sparse_cg failed (scipy cg error code {info}).")
        W[:, k] = A.rmatvec(sol) if dual else sol
        n_iter[k] = counter.count
        ok[k] = info == 0
    return W, n_iter, ok


class _Counter:
    def __init__(self):
        self.count = 0

    def __call__(self, _):
        self.count += 1


def solve_sag(Xc, Yc, sw, alphas, tol, max_iter, random_state, saga, fit_intercept=False):
    """SAG / SAGA on the half squared error: centred dense data without intercept, or
    sparse data (CSR rows, lazy updates) with ``fit_intercept`` fitting an unpenalised
    intercept, which is not returned (the caller sets it from the weighted means)."""
    p, t = Xc.shape[1], Yc.shape[1]
    W = np.empty((p, t))
    n_iter = np.empty(t, dtype=np.intp)
    ok = np.empty(t, dtype=bool)
    if not issparse(Xc):
        Xc = np.ascontiguousarray(Xc)
    rng = sag_generator(random_state)
    sw = np.ones(Xc.shape[0]) if sw is None else sw
    for k in range(t):
        w, _, n_iter[k], ok[k] = fit_sag(Xc, Yc[:, k], sw, np.zeros((1, p)), np.zeros(1),
                                         loss="squared", alpha=alphas[k], beta=0.0,
                                         fit_intercept=fit_intercept, max_iter=max_iter,
                                         tol=tol, rng=rng, saga=saga)
        W[:, k] = w[0]
    return W, n_iter, ok


def solve_lbfgs(A, B, alphas, tol, max_iter, positive):
    """L-BFGS-B on ``1/2 ||A w - b||^2 + alpha/2 ||w||^2``, bounds ``w >= 0`` if positive."""
    # each step is two matrix-vector products: below BLAS_THREADED_MATVEC entries BLAS's
    # threads cost more to wake than they save, and then spin beside the next step
    # (a LinearOperator, sparse X's implicitly centred operator, runs its products on
    # numba's threads)
    small = not isinstance(A, np.ndarray) or A.size <= BLAS_THREADED_MATVEC

    def objective(k):
        b, alpha = B[:, k], alphas[k]

        def fun(w):
            r = A @ w - b
            return 0.5 * (r @ r) + 0.5 * alpha * (w @ w), A.T @ r + alpha * w

        return fun

    with blas_single_thread() if small else nullcontext():
        return _lbfgs_per_target(objective, A.shape[1], B.shape[1], tol, max_iter, positive)


def solve_lbfgs_dense(X, Y, x_mean, y_mean, sw, alphas, tol, max_iter):
    """Non-negative :func:`solve_lbfgs` on dense X, centred (``x_mean``, ``y_mean``) and
    weighted (``sw``) as it is read: each step's value and gradient in one pass over X
    (:class:`SquaredLossPass`), where ``A w`` and ``A' r`` read a centred copy twice."""
    n, p = X.shape
    weights = np.ones(n) if sw is None else sw

    def objective(k):
        loss = SquaredLossPass(X, x_mean, Y[:, k], y_mean[k], weights)
        grad = np.empty(p)
        alpha = alphas[k]

        def fun(w):
            f = loss(w, grad)
            return f + 0.5 * alpha * (w @ w), grad + alpha * w

        return fun

    # scipy's steps between the passes run on BLAS, whose threads would spin beside
    # numba's
    with blas_single_thread():
        return _lbfgs_per_target(objective, p, Y.shape[1], tol, max_iter, True)


def _lbfgs_per_target(objective, p, t, tol, max_iter, positive):
    """scipy's L-BFGS-B from zero on ``objective(k)`` (value and gradient) per target, with
    scikit-learn's stops (``tol`` for both the gradient and the relative decrease)."""
    W = np.empty((p, t))
    n_iter = np.empty(t, dtype=np.intp)
    ok = np.empty(t, dtype=bool)
    bounds = optimize.Bounds(np.zeros(p), np.full(p, np.inf)) if positive else None
    options = {} if max_iter is None else {"maxiter": max_iter}
    for k in range(t):
        res = optimize.minimize(objective(k), np.zeros(p), method="L-BFGS-B", jac=True,
                                tol=tol, bounds=bounds, options=options)
        W[:, k] = res.x
        n_iter[k] = res.nit
        ok[k] = res.success
    return W, n_iter, ok


class SquaredLossPass:
    """``1/2 sum sw_i r_i^2`` and its gradient in one pass over the rows of dense X, in
    lanes, for the centred residuals ``r_i = (x_i - m).w - (y_i - c)``.

    The rows are cut into up to 8 lanes of about :data:`ROW_LANE_ENTRIES` multiply-adds
    (a row costs 2 p), fixed by X's shape alone; each lane sums into its own buffer in
    numba's threads (:func:`._ridge_kernels.squared_loss_grad_lanes`) and the lanes are
    added in order, so the result does not depend on the thread count. A pass below
    :data:`~classiclearn._kernels.work.LOSS_PASS_THREADED` multiply-adds is one lane on
    the calling thread, as the logistic loss's passes are: between scipy's L-BFGS-B
    steps, a parallel region per pass cost more than the second thread saved.
    """

    def __init__(self, X, m, y, c, sw):
        self.args = (np.ascontiguousarray(X), m)
        self.y, self.c, self.sw = np.ascontiguousarray(y), c, sw
        n, p = X.shape
        work = n * 2 * p
        self.bounds = (dense_row_lanes(n, work) if work >= LOSS_PASS_THREADED
                       else np.array([0, n], dtype=np.intp))
        n_lanes = self.bounds.shape[0] - 1
        self.parts = np.empty((n_lanes, p)) if n_lanes > 1 else None
        self.totals = np.empty(n_lanes)

    def __call__(self, w, grad):
        """The loss; its gradient in w into ``grad`` (p,)."""
        X, m = self.args
        if self.parts is None:
            return squared_loss_grad(X, m, w, self.y, self.c, self.sw, 0, X.shape[0], grad)
        squared_loss_grad_lanes(X, m, w, self.y, self.c, self.sw, self.bounds, self.parts,
                                self.totals)
        return add_lanes(self.parts, self.totals, grad)
