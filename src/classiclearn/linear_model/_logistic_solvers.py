"""Solvers of penalised logistic regression (seed 000 §5, §9.1; seed 004).

All minimise, in "sum" scaling,

    F(W) = sum_i sw_i * nll_i(W) + l1 * ||W||_1 + l2 / 2 * ||W||^2

over coefficients W (K', p) and unpenalised intercepts (K'), with K' = 1 for
two classes (binomial) and K' = K for softmax. ``l1 = rho / C`` and
``l2 = (1 - rho) / C``. Solvers:

- :func:`fit_lbfgs`: L-BFGS (:mod:`classiclearn.utils._lbfgs`) on the smooth
  problem (l1 = 0);
- :func:`fit_newton`: Newton's method = IRLS (seed 004) with a line search;
- :func:`fit_newton_cd`: proximal Newton, each weighted least-squares step
  solved by the Gram coordinate descent of the elastic net (handles l1).

Each returns (W, b, n_iter, converged) with W (K', p) and b (K',).
"""

import threading
import warnings
from contextlib import contextmanager, nullcontext

import numpy as np
import scipy.sparse as sp
from scipy import linalg
from scipy.special import expit

from .._kernels import lbfgs as _lk
from .._kernels.sparse_products import row_lanes
from .._kernels.work import (
    GRAM_PASS_WORK,
    LOSS_PASS_THREADED,
    ROW_LANE_ENTRIES,
    ROW_TRANSCENDENTAL_COST,
)
from ..utils._lbfgs import minimize_lbfgs
from ..utils._sparse import (
    csc_columns_with_constant,
    csr_gram,
    csr_with_constant,
    gram_pair_work,
    unsigned_arrays32,
)
from ..utils._threads import (
    available_cores,
    blocked_row_sums,
    current_numba_threads,
    numba_threads,
)
from . import _cd_kernels as _cdk
from . import _logistic_kernels as _k
from ._base import add_lanes, centered_gram, dense_row_lanes
from ._coordinate_descent import _SparseProblem


class LogisticObjective:
    """The negative log-likelihood and its gradient for a fixed data set."""

    def __init__(self, X, y, sw, n_out, fit_intercept):
        self.X, self.sw = X, sw
        # nll_grad runs the fused one-pass kernels on dense C rows; on sparse X it goes
        # through scipy's products (L-BFGS takes the fused CSR pass, see FlatObjective)
        self.fused = not sp.issparse(X) and X.flags.c_contiguous
        self.n_out = n_out
        self.fit_intercept = fit_intercept
        self.p = X.shape[1]
        self.y = y.astype(np.float64) if n_out == 1 else y.astype(np.intp)
        # dF/dZ of nll_from_z and the one-pass nll and gradient: built on first use
        self._g = None
        self._loss_pass = None
        self.hessian_work = threading.local()  # buffers of _softmax_hessian

    @property
    def g(self):
        """dF/dZ written by :meth:`nll_from_z`: (n,) for K' = 1, else (n, K)."""
        if self._g is None:
            n = self.X.shape[0]
            self._g = np.empty(n) if self.n_out == 1 else np.empty((n, self.n_out))
        return self._g

    @property
    def loss_pass(self):
        """:class:`LossPass` over X (dense C-contiguous or CSR)."""
        if self._loss_pass is None:
            self._loss_pass = LossPass(self.X, self.y, self.sw, self.n_out)
        return self._loss_pass

    def linear(self, W, b):
        """Linear predictors, (n,) for K' = 1 else (n, K)."""
        if self.n_out == 1:
            return self.X @ W[0] + b[0]
        return self.X @ W.T + b

    def t_product(self, G):
        """``G.T @ X`` (G of shape (n,) or (n, k)), dense."""
        return G.T @ self.X

    def nll_from_z(self, Z):
        """Weighted negative log-likelihood and dF/dZ (in ``self.g``)."""
        if self.n_out == 1:
            return _k.binary_loss_grad(Z, self.y, self.sw, self.g)
        return _k.multinomial_loss_grad(Z, self.y, self.sw, self.g)

    def nll_grad(self, W, b):
        """(nll, grad_W (K', p), grad_b (K',))."""
        if self.fused:
            grad = np.empty((self.n_out, self.p + 1))
            if self.n_out == 1:
                nll = self.loss_pass(np.ascontiguousarray(W[0]), float(b[0]), grad[0])
            else:
                nll = self.loss_pass(np.ascontiguousarray(W), np.ascontiguousarray(b), grad)
            gb = grad[:, self.p] if self.fit_intercept else np.zeros(self.n_out)
            return nll, grad[:, :self.p], gb
        nll = self.nll_from_z(self.linear(W, b))
        if self.n_out == 1:
            gW = self.t_product(self.g)[None, :]
            gb = np.array([self.g.sum()])
        else:
            gW = self.t_product(self.g)
            gb = self.g.sum(axis=0)
        if not self.fit_intercept:
            gb = np.zeros_like(gb)
        return nll, gW, gb


class LossPass:
    """The nll and its gradient in one pass over the rows of X, in lanes.

    X is C-contiguous dense or CSR. Its rows are cut into lanes of about
    :data:`ROW_LANE_ENTRIES` entries (dense: multiply-adds, counting a row's
    exp and log as :data:`ROW_TRANSCENDENTAL_COST`; CSR: stored entries,
    :func:`~classiclearn._kernels.sparse_products.row_lanes`), fixed by X alone;
    each lane sums into its own gradient buffer (the fused kernels of
    :mod:`._logistic_kernels`, binomial for K' = 1 output, softmax otherwise), in
    numba's threads, and the lanes are then added in order, so the result does
    not depend on the thread count. One lane (small X) runs on the calling thread,
    and so do all the lanes of a pass below
    :data:`~classiclearn._kernels.work.LOSS_PASS_THREADED` (the same sums in the same
    order): there waking numba's sleeping OpenMP workers for the first parallel
    region after an idle pause costs more than a second thread saves over a whole fit.

    Gradient layouts: binary ``(p + 1,)``; softmax ``(K, p + 1)`` for dense X
    (W (K, p) by class) and ``(p + 1, K)`` for CSR X (W (p, K) by feature).
    """

    def __init__(self, X, y, sw, n_out):
        self.y, self.sw, self.n_rows = y, sw, X.shape[0]
        p = X.shape[1]
        if sp.issparse(X):
            self.arrays = (X.indptr, X.indices, X.data)
            # at most one lane per p K' stored entries: each lane's buffer holds p K' sums
            self.bounds = row_lanes(X.indptr, (X.shape[0], p * n_out), ROW_LANE_ENTRIES)
            work = X.nnz * n_out * 2 + X.shape[0] * n_out * ROW_TRANSCENDENTAL_COST
            shape = (p + 1,) if n_out == 1 else (p + 1, n_out)
            kernels = ((_k.csr_binary_loss_grad, _k.csr_binary_loss_grad_lanes) if n_out == 1
                       else (_k.csr_multinomial_loss_grad, _k.csr_multinomial_loss_grad_lanes))
        else:
            self.arrays = (X,)
            # a row costs, per output, its p multiply-adds twice and an exp (a log)
            work = X.shape[0] * n_out * (2 * p + ROW_TRANSCENDENTAL_COST)
            self.bounds = dense_row_lanes(X.shape[0], work, ROW_LANE_ENTRIES)
            shape = (p + 1,) if n_out == 1 else (n_out, p + 1)
            kernels = ((_k.binary_fused_loss_grad, _k.binary_fused_loss_grad_lanes)
                       if n_out == 1 else
                       (_k.multinomial_fused_loss_grad, _k.multinomial_fused_loss_grad_lanes))
        self.one, self.lanes = kernels
        n_lanes = self.bounds.shape[0] - 1
        self.parts = np.empty((n_lanes, *shape)) if n_lanes > 1 else None
        self.totals = np.empty(n_lanes)
        self.serial = work < LOSS_PASS_THREADED
        self.on_one_thread = False  # numba already set to one thread by serial_solve

    @contextmanager
    def serial_solve(self):
        """Context for a solve of many passes: numba set to one thread once for all of
        them when the passes run serially, instead of once per pass."""
        if not self.serial or self.parts is None or self.on_one_thread:
            yield
            return
        with numba_threads(1):
            self.on_one_thread = True
            try:
                yield
            finally:
                self.on_one_thread = False

    def __call__(self, W, b, grad):
        """The nll; its gradient in W and b into ``grad`` (layouts: see the class)."""
        if self.parts is None:
            return self.one(*self.arrays, W, b, self.y, self.sw, 0, self.n_rows, grad)
        one_thread = self.serial and not self.on_one_thread
        with numba_threads(1) if one_thread else nullcontext():
            self.lanes(*self.arrays, W, b, self.y, self.sw, self.bounds, self.parts,
                       self.totals)
        return add_lanes(self.parts, self.totals, grad)


class FlatObjective:
    """``scale * F`` and its gradient on one flat parameter vector (for L-BFGS).

    The vector holds the coefficients and the intercepts in the layout the
    products read and write without copies of size ``K' p``: rows
    ``[W_k, b_k]`` ((K', p + 1), C order) for dense X (the fused kernels'
    layout), columns ``[W'; b]`` ((p + 1, K'), C order) for sparse X (the CSR
    pass's layout: coefficients by feature). For one output
    both are ``[w, b]``. Without an intercept the b entries stay 0 (their
    gradient is set to 0).
    """

    def __init__(self, obj, l2, scale):
        self.obj, self.l2, self.scale = obj, l2, scale
        self.K, self.p = obj.n_out, obj.p
        self.csr = sp.issparse(obj.X)
        self.scratch = np.empty(self.K * self.p if self.csr else self.p)

    def pack(self, W, b):
        K, p = self.K, self.p
        if self.csr:
            theta = np.empty((p + 1, K))
            theta[:p] = W.T
            theta[p] = b if self.obj.fit_intercept else 0.0
        else:
            theta = np.empty((K, p + 1))
            theta[:, :p] = W
            theta[:, p] = b if self.obj.fit_intercept else 0.0
        return theta.ravel()

    def unpack(self, theta):
        """(W (K', p), b (K',)), new arrays."""
        K, p = self.K, self.p
        if self.csr:
            t = theta.reshape(p + 1, K)
            return np.ascontiguousarray(t[:p].T), t[p].copy()
        t = theta.reshape(K, p + 1)
        return np.ascontiguousarray(t[:, :p]), t[:, p].copy()

    def __call__(self, theta, grad):
        obj, K, p = self.obj, self.K, self.p
        if self.csr:
            t, g2 = theta.reshape(p + 1, K), grad.reshape(p + 1, K)
            if K == 1:
                nll = obj.loss_pass(theta[:p], float(theta[p]), grad)
            else:
                nll = obj.loss_pass(t[:p], t[p], g2)
            pairs = [(theta[:K * p], grad[:K * p])]  # the coefficients lead the vector
        else:
            t, g2 = theta.reshape(K, p + 1), grad.reshape(K, p + 1)
            if K == 1 and obj.fused:
                nll = obj.loss_pass(theta[:p], float(theta[p]), grad)
                W = theta[:p]
            else:
                W, b = np.ascontiguousarray(t[:, :p]), np.ascontiguousarray(t[:, p])
                if obj.fused:
                    nll = obj.loss_pass(W, b, g2)
                else:
                    nll, g2[:, :p], g2[:, p] = obj.nll_grad(W, b)
            pairs = [(W.reshape(K, p)[k], g2[k, :p]) for k in range(K)]
        if not obj.fit_intercept:
            g2[p if self.csr else (slice(None), p)] = 0.0
        if self.l2 > 0:
            for w, gw in pairs:  # contiguous 1-D pieces
                nll += 0.5 * self.l2 * _lk.dot(w, w)
                tmp = np.multiply(w, self.l2, out=self.scratch[:w.shape[0]])
                gw += tmp
        grad *= self.scale
        return nll * self.scale


def fit_lbfgs(obj, W0, b0, l2, max_iter, tol, scale):
    """L-BFGS on ``scale * F`` (scale = 1 / sum(sw), as scikit-learn).

    classiclearn's own L-BFGS (:func:`classiclearn.utils._lbfgs.minimize_lbfgs`)
    with scipy's defaults and scikit-learn's settings: 10 pairs, gtol = tol on
    the largest gradient entry, ftol = 64 eps, at most 50 evaluations per
    line search.
    """
    fun = FlatObjective(obj, l2, scale)
    # every evaluation is one loss pass (dense C rows or CSR; other layouts go through
    # nll_grad's BLAS products)
    passes = obj.loss_pass.serial_solve() if fun.csr or obj.fused else nullcontext()
    with passes:
        res = minimize_lbfgs(fun, fun.pack(W0, b0), max_iter=max_iter, gtol=tol,
                             ftol=64 * np.finfo(float).eps, m=10, max_ls=50)
    W, b = fun.unpack(res.x)
    return W, b, res.n_iter, res.converged


def _hessian(obj, W, b, Z=None):
    """Hessian of the nll in (W, b) stacked per output as [W_k, b_k] (``Z``: the linear
    outputs at (W, b) when known)."""
    X, sw = obj.X, obj.sw
    K, p = W.shape
    q = p + 1
    if Z is None:
        Z = obj.linear(W, b)
    if K == 1:
        prob = expit(Z)
        h = prob * (1.0 - prob)
        h *= sw
        return _block(X, h, h.sum(), h @ X)
    Zs = Z - Z.max(axis=1, keepdims=True)
    P = np.exp(Zs)
    P /= P.sum(axis=1, keepdims=True)
    if obj.fused and X.shape[0] >= 2 * K * q and np.all(sw >= 0):  # dense C rows
        return _softmax_hessian(X, P, sw, obj.hessian_work)
    H = np.empty((K * q, K * q))
    for k in range(K):
        for m in range(k, K):
            h = sw * P[:, k] * ((1.0 if k == m else 0.0) - P[:, m])
            blk = _block(X, h, h.sum(), h @ X)
            H[k * q:(k + 1) * q, m * q:(m + 1) * q] = blk
            H[m * q:(m + 1) * q, k * q:(k + 1) * q] = blk.T
    return H


# entries (rows x features) per block of the weighted X'X of the Hessian: a scaled
# block of 512 KB stays in cache, and few features still make blocks of thousands of
# rows (1,024-row blocks of 200,000 x 10 cost more in Python per block than in BLAS)
_HESSIAN_BLOCK_ENTRIES = 65_536
_HESSIAN_MIN_BLOCK_ROWS = 256


def _weighted_gram(X, h):
    """``X' diag(h) X`` for dense X. From ``GRAM_PASS_WORK`` multiply-adds (n p²) by
    row blocks in threads: one BLAS product per block of ``_HESSIAN_BLOCK_ENTRIES``
    scaled entries, added in a fixed order (no n x p scaled copy, and the result does
    not depend on the thread count); below it, one product."""
    nonneg = bool(np.all(h >= 0))

    def block(lo, hi):
        B = X[lo:hi]
        if nonneg:
            A = B * np.sqrt(h[lo:hi])[:, None]
            return (A.T @ A,)  # symmetric product: BLAS syrk, half the flops
        return ((B * h[lo:hi, None]).T @ B,)

    n, p = X.shape
    if n * p * p < GRAM_PASS_WORK:
        return block(0, n)[0]
    rows = max(_HESSIAN_MIN_BLOCK_ROWS, _HESSIAN_BLOCK_ENTRIES // p)
    return blocked_row_sums(block, n, available_cores(), rows)[0]


# entries (rows x classes x (features + 1)) of one row block of the softmax Hessian's
# stacked rows: a block of 2 MB stays in cache for its product
_SOFTMAX_BLOCK_ENTRIES = 262_144
_SOFTMAX_MIN_BLOCKS = 8


def _softmax_hessian(X, P, sw, work=None):
    """The softmax nll Hessian in (W, b), stacked per class as [W_k, b_k], dense X.

    ``H = sum_i sw_i (diag(P_i) - P_i P_i') (x) x_i x_i'`` with ``x_i`` the row
    and a 1. Off the diagonal blocks this is ``-A'A``, A's rows
    ``sqrt(sw_i) P_i (x) x_i``: one symmetric product per row block instead of
    one weighted product per pair of classes. Diagonal block k is computed
    from its own weights ``sw P_k (1 - P_k)`` (as a difference of two sums it
    would lose its digits where P_k is near 1). Blocks of rows are added in a
    fixed order, in threads from ``GRAM_PASS_WORK`` multiply-adds, as
    :func:`_weighted_gram`. For X taller than wide in ``K (p + 1)`` columns (the
    caller's condition): on fewer rows the products per pair of classes, which
    skip the blocks below the diagonal, cost less.

    ``work`` (a ``threading.local``) keeps each thread's stacked-row buffers
    from one call to the next (the Newton iterations): fresh buffers of a
    megabyte or more cost page faults on every block.
    """
    n, p = X.shape
    K = P.shape[1]
    q = p + 1
    rows = max(32, _SOFTMAX_BLOCK_ENTRIES // (K * q))
    if n * (K * q) ** 2 >= GRAM_PASS_WORK:
        # heavy blocks (K q multiply-adds per entry): threads pay off from two
        # blocks, so the rows are cut into up to _SOFTMAX_MIN_BLOCKS blocks, each of
        # at least K q rows (a thinner block costs more in adding its K q x K q part
        # than it saves)
        rows = max(K * q, min(rows, -(-n // _SOFTMAX_MIN_BLOCKS)))
    work = threading.local() if work is None else work

    def block(lo, hi):
        buffers = getattr(work, "buffers", None)
        if buffers is None or buffers[0].shape != (rows, K * q):
            buffers = work.buffers = (np.empty((rows, K * q)), np.empty((K, rows, q)))
        A, D = buffers
        m = hi - lo
        _k.softmax_hessian_rows(X, P, sw, lo, hi, A, D)
        H = A[:m].T @ A[:m]
        np.negative(H, out=H)
        for k in range(K):
            H[k * q:(k + 1) * q, k * q:(k + 1) * q] = D[k, :m].T @ D[k, :m]
        return (H,)

    if n * (K * q) ** 2 < GRAM_PASS_WORK:
        H = block(0, min(n, rows))[0]
        for lo in range(rows, n, rows):
            H += block(lo, min(n, lo + rows))[0]
        return H
    return blocked_row_sums(block, n, available_cores(), rows,
                            min_threaded_rows=2 * rows)[0]


def _block(X, h, hsum, hX):
    p = X.shape[1]
    out = np.empty((p + 1, p + 1))
    if sp.issparse(X):  # the p x p block is dense whatever X is
        out[:p, :p] = csr_gram(X, h)
    else:
        out[:p, :p] = _weighted_gram(X, h)
    out[:p, p] = hX
    out[p, :p] = hX
    out[p, p] = hsum
    return out


def _softmax_shifts(K, p, fit_intercept, l2):
    """The directions along which the softmax objective is flat, one per row.

    Adding the same number to coefficient j of every class changes no
    probability; the penalty rules that out for the coefficients when l2 > 0,
    never for the (unpenalised) intercepts. Rows index the stacked
    [W_k, b_k] parameters; none for two classes (K = 1).
    """
    q = p + 1
    columns = [p] if fit_intercept else []
    if l2 == 0:
        columns = list(range(p)) + columns
    if K == 1 or not columns:
        return np.zeros((0, K * q))
    shifts = np.zeros((len(columns), K * q))
    for row, j in enumerate(columns):
        shifts[row, j::q] = 1.0
    return shifts


def _newton_step(H, g, shifts):
    """The minimum-norm solution of ``H s = g`` for a PSD Hessian H (overwritten).

    ``shifts`` (rows) span directions known to be in the null space of H, with
    g orthogonal to them. Adding ``c * shifts' shifts`` makes H definite
    without changing the solution on its range, and the step has no component
    along the shifts, as the minimum-norm one; Cholesky then solves it. When
    H is singular in other directions as well (separation, collinear
    columns), the minimum-norm step by least squares.
    """
    if shifts.shape[0]:
        scale = max(np.abs(np.diag(H)).max(), 1.0)
        for shift in shifts:  # H += scale * shift shift', on the shift's support only
            support = np.flatnonzero(shift)
            H[np.ix_(support, support)] += scale * np.outer(shift[support], shift[support])
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", linalg.LinAlgWarning)
            factor = linalg.cho_factor(H, check_finite=False)
        diag = np.abs(np.diag(factor[0]))
        if diag.min() <= 1e-7 * diag.max():  # numerically singular
            raise linalg.LinAlgError
        return linalg.cho_solve(factor, g, check_finite=False)
    except (linalg.LinAlgError, linalg.LinAlgWarning, ValueError):
        return linalg.lstsq(H, g, check_finite=False, cond=1e-12)[0]


def fit_newton(obj, W0, b0, l2, max_iter, tol):
    """Newton / IRLS with a backtracking line search (smooth problems only).

    Stops when the largest gradient entry of ``F / sum(sw)`` is below ``tol``.
    """
    K, p = W0.shape
    q = p + 1
    W, b = W0.copy(), b0.copy()
    scale = 1.0 / obj.sw.sum()
    fi = obj.fit_intercept

    last = {}  # the linear outputs of the last point valued (the Hessian's next point)

    def value(W, b):
        last["Z"] = Z = obj.linear(W, b)
        return obj.nll_from_z(Z) + 0.5 * l2 * np.vdot(W, W)

    keep = np.ones(K * q, dtype=bool)  # the parameters solved for (no intercepts if none)
    if not fi:
        keep[np.arange(K) * q + p] = False
    shifts = _softmax_shifts(K, p, fi, l2)[:, keep]
    f = value(W, b)
    converged = False
    n_iter = 0
    for n_iter in range(1, max_iter + 1):
        _, gW, gb = obj.nll_grad(W, b)
        gW = gW + l2 * W
        grad = np.concatenate([gW, gb[:, None]], axis=1).ravel()
        if np.max(np.abs(grad)) * scale <= tol:
            converged = True
            n_iter -= 1
            break
        H = _hessian(obj, W, b, last.pop("Z", None))
        for k in range(K):
            H[k * q:k * q + p, k * q:k * q + p][np.diag_indices(p)] += l2
        Hk, gk = (H, grad) if fi else (H[np.ix_(keep, keep)], grad[keep])
        step = _newton_step(Hk, gk, shifts)
        full = np.zeros(K * q)
        full[keep] = step
        D = full.reshape(K, q)
        slope = -np.dot(grad, full)
        if -slope <= 64 * np.finfo(float).eps * max(abs(f), 1.0):
            # the step's expected decrease is below the objective's rounding, where the
            # line search's test is noise (it halved such steps, leaving a gradient of
            # 4e-9 for a tol of 1e-14): near the optimum the whole Newton step squares
            # the error, and the fit ends after it
            W, b = W - D[:, :p], b - D[:, p]
            converged = True
            break
        t = 1.0
        for _ in range(60):
            Wn, bn = W - t * D[:, :p], b - t * D[:, p]
            fn = value(Wn, bn)
            if np.isfinite(fn) and fn <= f + 1e-4 * t * slope:
                break
            last.pop("Z", None)  # the point is not taken
            t *= 0.5
        else:
            # No decrease is possible any more: at the optimum up to rounding
            # unless the gradient is still far from zero.
            converged = np.max(np.abs(grad)) * scale <= max(tol, 1e-6)
            break
        W, b, f_old, f = Wn, bn, f, fn
        if abs(f_old - f) <= 64 * np.finfo(float).eps * max(abs(f), 1.0):
            converged = True  # the objective no longer changes in float64
            break
    return W, b, n_iter, converged


# proximal Newton's inner coordinate descent: the first model solved to a change of
# _INNER_FIRST, the next ones to _INNER_FORCING times the last step (relative)
_INNER_FIRST = 1e-3
_INNER_FORCING = 1e-2
# sparse X: the Gram form up to _CD_GRAM_FEATURES features, costed at _CD_EPOCHS epochs
_CD_GRAM_FEATURES = 2048
_CD_EPOCHS = 20


def _pen(W, l1, l2):
    return l1 * np.abs(W).sum() + 0.5 * l2 * np.vdot(W, W)


def fit_newton_cd(obj, W0, b0, l1, l2, max_iter, tol, inner_max_iter=1000):
    """Proximal Newton with coordinate descent on each quadratic model.

    For two classes, each step solves the weighted elastic-net least squares
    of IRLS exactly (Gram coordinate descent, intercept by weighted centring);
    for K classes it cycles over the classes (block proximal Newton), each
    block step followed by a backtracking line search on F. Stops when the
    largest coefficient change of a full sweep is below ``tol * max(1, |W|)``.

    Each model is solved to a tolerance on its coefficients' change that follows the
    last step (``_INNER_FORCING`` times its size, from ``_INNER_FIRST`` down to
    ``min(1e-8, tol / 100)``), as liblinear tightens its inner tolerance.

    Dense X: coordinate descent on the Gram form of each model (features x features).
    Sparse X: the same where the Gram matrix is cheap (:func:`_sparse_gram_pays`), else
    coordinate descent on the data (the CSC columns, centred implicitly), each step
    costing a column's stored entries, for any number of features.
    """
    K, p = W0.shape
    X, sw = obj.X, obj.sw
    W, b = W0.copy(), b0.copy()
    fi = obj.fit_intercept
    pf = np.ones(p)
    orders = np.arange(p, dtype=np.intp)[None, :]
    inner_floor = min(1e-8, tol * 1e-2)
    inner_tol = max(inner_floor, _INNER_FIRST)
    zeros_p = np.zeros(p)
    sparse = sp.issparse(X)
    data_form = sparse and not _sparse_gram_pays(X, fi)
    X_csc = sp.csc_array(X) if data_form else None

    def value(W, b):
        return obj.nll_from_z(obj.linear(W, b)) + _pen(W, l1, l2)

    f = value(W, b)
    converged = False
    n_iter = 0
    for it in range(1, max_iter + 1):
        n_iter = it
        biggest = 0.0
        for k in range(K):
            Z = obj.linear(W, b)
            obj.nll_from_z(Z)
            if K == 1:
                eta = Z
                prob = 1.0 / (1.0 + np.exp(-eta))
                g = obj.g.copy()
            else:
                eta = Z[:, k]
                Zs = Z - Z.max(axis=1, keepdims=True)
                P = np.exp(Zs)
                P /= P.sum(axis=1, keepdims=True)
                prob = P[:, k]
                g = obj.g[:, k].copy()
            h = np.maximum(sw * prob * (1.0 - prob), 1e-12 * sw)
            r = h * eta - g  # = h * working response
            hsum = h.sum()
            x_mean = np.asarray(X.T @ h).ravel() / hsum if fi else zeros_p
            v = W[k].copy()  # the kernels write into v: never a view of W
            if data_form:
                # the weighted least squares on the data (CSC columns, centred
                # implicitly): no features x features matrix, as many features as X has
                model = _SparseProblem(X_csc, (r / h)[:, None], x_mean,
                                       np.array([r.sum() / hsum if fi else 0.0]), h)
                # stopped on the coefficients' change, as the Gram form below
                model.solve(0, v, l1, l2, False, inner_max_iter, inner_tol, orders, gap=False)
            else:
                G = csr_gram(X, h) if sparse else centered_gram(X, x_mean, h)[0]
                qv = np.asarray(X.T @ r).ravel() - x_mean * r.sum()
                _cdk.enet_cd_gram(v, G, qv, -1.0, l1, l2, pf, False, inner_max_iter,
                                  inner_tol, orders, 0.0)
            c = (r.sum() / hsum - x_mean @ v) if fi else 0.0
            dW = v - W[k]
            db = c - b[k]
            # Armijo on F along the block direction (proximal Newton).
            dz = X @ dW + db
            decrease = g @ dz + _pen(v, l1, l2) - _pen(W[k], l1, l2)
            t = 1.0
            Wn, bn = W.copy(), b.copy()
            for _ in range(40):
                Wn[k] = W[k] + t * dW
                bn[k] = b[k] + t * db
                fn = value(Wn, bn)
                if np.isfinite(fn) and fn <= f + 1e-4 * t * min(decrease, 0.0) + 1e-12 * abs(f):
                    break
                t *= 0.5
            else:
                continue
            change = t * max(np.max(np.abs(dW)) if p else 0.0, abs(db))
            biggest = max(biggest, change)
            W, b, f = Wn, bn, fn
        scale = max(1.0, np.max(np.abs(W)) if W.size else 1.0)
        if biggest <= tol * scale:
            converged = True
            break
        # the next models solved as far as the steps now need (an inexact Newton
        # method's forcing terms): early models loosely, to the floor as steps vanish
        inner_tol = max(inner_floor, min(inner_tol, _INNER_FORCING * biggest / scale))
    return W, b, n_iter, converged


def _sparse_gram_pays(X, fit_intercept):
    """Whether coordinate descent on each quadratic model of sparse X costs less on its
    Gram matrix (built from each row's pairs of entries, then epochs of p^2) than on the
    data (epochs over the stored entries); never for more than ``_CD_GRAM_FEATURES``
    features, nor with an intercept (the data form centres exactly)."""
    p = X.shape[1]
    if fit_intercept or p > _CD_GRAM_FEATURES:
        return False
    gram_work = gram_pair_work(X) + _CD_EPOCHS * p * p
    return gram_work <= _CD_EPOCHS * 2 * X.nnz


# dense X with at most this share of non-zero entries goes to the column kernels as CSC
_GLMNET_DENSE_SHARE = 0.5


def _glmnet_columns(X, fit_intercept, intercept_scaling):
    """(XT, indptr, indices, data) of the column kernels: X's columns (and the constant
    intercept column) transposed dense, or as CSC arrays with unsigned indices when X is
    sparse or holds few non-zeros (as liblinear keeps every X: its feature passes then
    skip the zeros)."""
    n = X.shape[0]
    s = float(intercept_scaling)
    if not sp.issparse(X):
        if np.count_nonzero(X) <= _GLMNET_DENSE_SHARE * X.size:
            from .._kernels.coordinates import dense_to_csc

            return (None, *dense_to_csc(np.asarray(X, dtype=np.float64),
                                        s if fit_intercept else 0.0))
        XT = np.empty((X.shape[1] + int(fit_intercept), n))
        XT[:X.shape[1]] = X.T
        if fit_intercept:
            XT[-1] = s
        return XT, None, None, None
    return None, *csc_columns_with_constant(X, s if fit_intercept else 0.0)


def _fit_l1_glmnet(X, y, sw, W0, b0, l1, fit_intercept, intercept_scaling, max_iter, tol):
    """liblinear's L1 logistic regression (two classes): newGLMNET on
    ``min_v |v|_1 + sum_i (sw_i / l1) nll_i`` over ``v = (w, b / s)``, stopped as
    liblinear stops it (the summed violation below ``tol * max(min(n+, n-), 1) / n``
    times its first value). Returns (W, b, n_iter, converged)."""
    from . import _liblinear_kernels as _lk

    labels, C, v, eps = _liblinear_start(y, sw, W0, b0, l1, fit_intercept,
                                         intercept_scaling, tol)
    columns = _glmnet_columns(X, fit_intercept, intercept_scaling)
    n_iter = _lk.l1_logistic_glmnet(*columns, labels, C, v, eps, int(max_iter), 0)
    return _liblinear_solution(v, n_iter, max_iter, fit_intercept, intercept_scaling)


def _liblinear_start(y, sw, W0, b0, strength, fit_intercept, intercept_scaling, tol):
    """liblinear's problem from ours: labels +-1, the per-sample penalties of the loss
    ``C_i = sw_i / strength``, the start ``v = (w, b / s)`` and the stopping factor
    ``tol * max(min(n+, n-), 1) / n``."""
    labels = np.where(np.asarray(y) > 0, 1.0, -1.0)
    n = labels.shape[0]
    n_pos = int(np.count_nonzero(labels > 0))
    eps = tol * max(min(n_pos, n - n_pos), 1) / n
    v = np.array(W0[0], dtype=np.float64)
    if fit_intercept:
        v = np.append(v, b0[0] / intercept_scaling)
    C = np.ascontiguousarray(sw, dtype=np.float64) / strength
    return labels, C, v, float(eps)


def _liblinear_solution(v, n_iter, max_iter, fit_intercept, intercept_scaling):
    """(W, b, n_iter, converged) from liblinear's solution ``v = (w, b / s)``."""
    if fit_intercept:
        return v[None, :-1].copy(), np.array([v[-1] * intercept_scaling]), n_iter, \
            n_iter < max_iter
    return v[None, :], np.zeros(1), n_iter, n_iter < max_iter


def _hessian_product(obj, P, h, V, vb):
    """Hessian of the nll times the direction (V (K', p), vb (K',)).

    P: class probabilities (n, K) for softmax; h: ``sw p (1 - p)`` (n,) for
    two classes. Returns (HV, Hvb) without the penalty term; one fused pass
    over a C-contiguous X (the products are memory-bound for few classes).
    """
    X, sw = obj.X, obj.sw
    if obj.fused:
        p = X.shape[1]
        out = np.empty((obj.n_out, p + 1))
        if obj.n_out == 1:
            _k.binary_hessian_product(X, h, np.ascontiguousarray(V[0]), float(vb[0]), out[0])
        else:
            _k.multinomial_hessian_product(X, P, sw, np.ascontiguousarray(V), vb, out)
        return out[:, :p], out[:, p]
    if obj.n_out == 1:
        r = h * obj.linear(V, vb)
        return obj.t_product(r)[None, :], np.array([r.sum()])
    Z = obj.linear(V, vb)
    R = P * (Z - np.einsum("ik,ik->i", P, Z)[:, None])
    R *= sw[:, None]
    return obj.t_product(R), R.sum(axis=0)


def _probabilities(obj, W, b):
    Z = obj.linear(W, b)
    if obj.n_out == 1:
        prob = np.empty_like(Z)
        pos = Z >= 0
        prob[pos] = 1.0 / (1.0 + np.exp(-Z[pos]))
        e = np.exp(Z[~pos])
        prob[~pos] = e / (1.0 + e)
        return None, obj.sw * prob * (1.0 - prob)
    Z -= Z.max(axis=1, keepdims=True)
    P = np.exp(Z)
    P /= P.sum(axis=1, keepdims=True)
    return P, None


def _truncated_cg(hess_prod, grad, tol, max_inner):
    """Approximate ``H d = -grad`` by conjugate gradients (H symmetric PSD).

    Stops when the residual's L1 norm is at most ``tol`` or on a direction
    of non-positive curvature (then returns the iterate so far, or the
    steepest-descent direction on the first step).
    """
    d = np.zeros_like(grad)
    r = -grad
    q = r.copy()
    rr = r @ r
    for i in range(max_inner):
        if np.abs(r).sum() <= tol:
            break
        Hq = hess_prod(q)
        curv = q @ Hq
        if curv <= 1e-16 * (q @ q):
            if i == 0:
                d = -grad
            break
        a = rr / curv
        d += a * q
        r -= a * Hq
        rr_new = r @ r
        q = r + (rr_new / rr) * q
        rr = rr_new
    return d


def _wolfe_step(value_grad, W, b, Dw, db, d, f, slope, t0):
    """A step length along (Dw, db) (flat: ``d``) from the trial ``t0`` meeting the
    strong Wolfe conditions (sufficient decrease 1e-4, curvature 0.9), as scikit-learn's
    Newton-CG steps; Armijo backtracking from ``t0`` where none is found. Returns
    ``(W, b, f, grad)`` at the new point, or None."""
    cache = {}

    def at(t):
        if t not in cache:
            Wt, bt = W + t * Dw, b + t * db
            cache[t] = value_grad(Wt, bt) + (Wt, bt)
        return cache[t]

    t = _strong_wolfe(lambda t: at(t)[0], lambda t: float(at(t)[1] @ d), f, slope, t0)
    if t is None:
        t = t0
        for _ in range(60):
            fn = at(t)[0]
            if np.isfinite(fn) and fn <= f + 1e-4 * t * slope:
                break
            t *= 0.5
        else:
            return None
    fn, gn, Wn, bn = at(t)
    return Wn, bn, fn, gn


def _strong_wolfe(phi, dphi, f0, slope0, t, c1=1e-4, c2=0.9, max_steps=20):
    """Step length meeting the strong Wolfe conditions for ``phi`` (``phi(0) = f0``,
    ``phi'(0) = slope0 < 0``) from the trial ``t``: Nocedal and Wright's algorithms 3.5
    and 3.6 (bracketing by doubling, zoom by bisection). None when none is found."""
    t_prev, f_prev = 0.0, f0
    lo = hi = None
    for i in range(max_steps):
        ft = phi(t)
        if not np.isfinite(ft) or ft > f0 + c1 * t * slope0 or (i > 0 and ft >= f_prev):
            lo, hi = t_prev, t
            break
        dt = dphi(t)
        if abs(dt) <= -c2 * slope0:
            return t
        if dt >= 0:
            lo, hi = t, t_prev
            break
        t_prev, f_prev, t = t, ft, 2.0 * t
    if lo is None:
        return None
    for _ in range(max_steps):
        t = 0.5 * (lo + hi)
        ft = phi(t)
        if not np.isfinite(ft) or ft > f0 + c1 * t * slope0 or ft >= phi(lo):
            hi = t
            continue
        dt = dphi(t)
        if abs(dt) <= -c2 * slope0:
            return t
        if dt * (hi - lo) >= 0:
            hi = lo
        lo = t
    return None


def fit_newton_cg(obj, W0, b0, l2, max_iter, tol, max_inner=200):
    """Truncated Newton (Newton-CG) on ``F / sum(sw)`` (smooth problems only).

    Each outer step solves the Newton system approximately by conjugate
    gradients on Hessian-vector products (two passes over X per product,
    the Hessian is never formed), to the forcing tolerance
    ``min(0.5, sqrt(|g|_1)) |g|_1``; the step is a strong Wolfe line search's from
    MINPACK's first trial step (:func:`_wolfe_step`), as scikit-learn's Newton-CG
    takes it: on ill-conditioned problems the path, and so the number of Hessian
    products, follows theirs (digits: 12 outer steps and 137 products on both sides;
    full steps with backtracking had taken 15 and 361).
    Stops when the largest gradient entry is at most ``tol``, or
    when the objective no longer changes in float64 (a tighter ``tol`` than
    the rounding of F allows).
    """
    K, p = W0.shape
    W, b = W0.copy(), b0.copy()
    scale = 1.0 / obj.sw.sum()
    fi = obj.fit_intercept

    def value_grad(W, b):
        nll, gW, gb = obj.nll_grad(W, b)
        f = (nll + 0.5 * l2 * np.vdot(W, W)) * scale
        g = np.concatenate([(gW + l2 * W).ravel(), gb if fi else np.zeros(0)]) * scale
        return f, g

    def split(v):
        V = v[:K * p].reshape(K, p)
        vb = v[K * p:] if fi else np.zeros(K)
        return V, vb

    f, grad = value_grad(W, b)
    f_prev = None
    converged = False
    n_iter = 0
    for n_iter in range(1, max_iter + 1):
        absgrad = np.abs(grad)
        if absgrad.max() <= tol:
            converged = True
            n_iter -= 1
            break
        P, h = _probabilities(obj, W, b)

        def hess_prod(v, P=P, h=h):
            V, vb = split(v)
            HV, Hvb = _hessian_product(obj, P, h, V, vb)
            out = (HV + l2 * V).ravel()
            if fi:
                out = np.concatenate([out, Hvb])
            return out * scale

        gsum = absgrad.sum()
        d = _truncated_cg(hess_prod, grad, min(0.5, np.sqrt(gsum)) * gsum, max_inner)
        slope = grad @ d
        if slope >= 0:
            d, slope = -grad, -(grad @ grad)
        Dw, db = split(d)
        # the first trial step as MINPACK's line search (scikit-learn's) guesses it from
        # the last decrease of the objective: a full step where that is large
        t0 = 1.0
        if f_prev is not None:
            t0 = min(1.0, 1.01 * 2.0 * (f - f_prev) / slope)
        stepped = _wolfe_step(value_grad, W, b, Dw, db, d, f, slope,
                              t0 if t0 > 0.0 else 1.0)
        if stepped is None:
            converged = absgrad.max() <= max(tol, 1e-8)
            break
        f_prev = f
        W, b, f, grad = stepped
        if abs(f_prev - f) <= 64 * np.finfo(float).eps * max(abs(f), 1.0):
            converged = True  # the objective no longer changes in float64
            break
    return W, b, n_iter, converged


def _liblinear_rows(X, fit_intercept, intercept_scaling, with_columns=True):
    """(X, indptr, indices, data, columns) of the L2 solvers' row passes: dense rows (C
    order, with the constant intercept column), or the CSR arrays (indptr uintp, indices
    uint32, with the constant column as stored entries) when X is sparse, and then,
    ``with_columns`` from ``PARALLEL_ENTRIES`` stored entries with threads to run on, its
    CSC arrays too (TRON's X'u by columns in parallel, the same sums as the rows'
    scatter)."""
    from .._kernels.tron import PARALLEL_ENTRIES

    s = float(intercept_scaling)
    if sp.issparse(X):
        rows = csr_with_constant(X, s) if fit_intercept else sp.csr_array(X)
        columns = None
        if with_columns and rows.nnz >= PARALLEL_ENTRIES and current_numba_threads() > 1:
            columns = csc_columns_with_constant(X, s if fit_intercept else 0.0)
        return (None, *unsigned_arrays32(rows), columns)
    if not fit_intercept:
        return np.ascontiguousarray(X, dtype=np.float64), None, None, None, None
    Xa = np.empty((X.shape[0], X.shape[1] + 1))
    Xa[:, :-1] = X
    Xa[:, -1] = s
    return Xa, None, None, None, None


def _fit_l2_dual(X, y, sw, W0, b0, l2, fit_intercept, intercept_scaling, max_iter, tol):
    """liblinear's dual solver of L2 logistic regression (``dual=True``): coordinate
    descent on the dual variables, stopped as liblinear stops it (every coordinate's
    derivative below ``tol``). Returns (W, b, n_iter, converged)."""
    from . import _liblinear_kernels as _lk

    labels, C, v, _ = _liblinear_start(y, sw, W0, b0, l2, fit_intercept,
                                       intercept_scaling, tol)
    rows = _liblinear_rows(X, fit_intercept, intercept_scaling, with_columns=False)[:4]
    n_iter = _lk.l2_logistic_dual_cd(*rows, labels, C, v, float(tol), int(max_iter), 0)
    return _liblinear_solution(v, n_iter, max_iter, fit_intercept, intercept_scaling)


def _fit_l2_tron(X, y, sw, W0, b0, l2, fit_intercept, intercept_scaling, max_iter, tol):
    """liblinear's L2 logistic regression (two classes): TRON, its trust-region Newton
    method, on ``min_v |v|^2 / 2 + sum_i (sw_i / l2) nll_i`` over ``v = (w, b / s)``,
    stopped as liblinear stops it (the gradient's norm below
    ``tol * max(min(n+, n-), 1) / n`` times its norm at zero). Returns
    (W, b, n_iter, converged)."""
    from .._kernels.jit import start_parallel_runtime
    from .._kernels.tron import LOGISTIC, l2_tron

    start_parallel_runtime()
    labels, C, v, eps = _liblinear_start(y, sw, W0, b0, l2, fit_intercept,
                                         intercept_scaling, tol)
    rows = _liblinear_rows(X, fit_intercept, intercept_scaling)
    n_iter, _ = l2_tron(LOGISTIC, *rows, labels, C, v, eps, int(max_iter))
    return _liblinear_solution(v, n_iter, max_iter, fit_intercept, intercept_scaling)


def fit_liblinear(X, y, sw, W0, b0, l1, l2, fit_intercept, intercept_scaling, max_iter,
                  tol, dual=False):
    """liblinear's binary objective: the intercept is a penalised weight.

    Minimises ``sum_i sw_i nll_i + l1 |v|_1 + l2 / 2 |v|^2`` over
    ``v = (w, b / s)``, i.e. X gets a constant column ``s = intercept_scaling``
    and the intercept ``b = s v_p`` is shrunk with the weights, by liblinear's own
    methods and stopping rules: the L2 problem by TRON, a trust-region Newton method
    with conjugate gradients (:func:`_fit_l2_tron`), or with ``dual`` by coordinate
    descent on its dual (:func:`_fit_l2_dual`), the L1 problem (``l2 = 0``) by
    newGLMNET, a proximal Newton method with coordinate descent
    (:func:`_fit_l1_glmnet`). Sparse X gets the constant column as stored entries.
    """
    if l1 > 0:
        return _fit_l1_glmnet(X, y, sw, W0, b0, l1, fit_intercept, intercept_scaling,
                              max_iter, tol)
    if dual:
        return _fit_l2_dual(X, y, sw, W0, b0, l2, fit_intercept, intercept_scaling,
                            max_iter, tol)
    return _fit_l2_tron(X, y, sw, W0, b0, l2, fit_intercept, intercept_scaling, max_iter,
                        tol)
