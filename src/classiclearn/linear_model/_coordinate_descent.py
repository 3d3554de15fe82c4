"""Lasso and elastic net by coordinate descent (seed 000 §7).

Objective (scikit-learn's scaling)::

    1 / (2 n) ||y - X w||^2 + alpha * l1_ratio * ||w||_1
        + alpha * (1 - l1_ratio) / 2 * ||w||^2

Each coordinate update is a soft-threshold. When n > p and p is moderate the
solver works on the Gram matrix of the centred data (BLAS ``X'X`` over row
blocks shared by threads, with the means and ``X'y`` in the same pass; no
copy of X), so an epoch costs O(p^2) whatever n. For large X the estimators
compute that Gram matrix in float32 (less BLAS time) and certify the
result from the data: the exact float64 duality gap (one pass over X for
``X'r``) must be below the tolerance, else the solve is refined with the
exact gradient, and finally falls back to the float64 Gram matrix
(:class:`_Certified`). Otherwise it starts on a
centred (Fortran-ordered) copy of the data, O(n p) per epoch, and switches
to the Gram matrix if n > p and convergence needs many epochs. A path
(:func:`enet_path`) shares one Gram matrix across all alphas. Iterations stop
when the duality gap falls below ``tol * ||y_centred||^2``.
"""

import math
import warnings
from numbers import Integral, Real

import numpy as np
import scipy.sparse as sp

from .._kernels.coordinates import csr_column_subset
from ..base import BaseEstimator, RegressorMixin
from ..exceptions import ConvergenceWarning
from ..utils._dask import is_dask_collection
from ..utils._params import Interval, StrOptions
from ..utils._random import check_random_state
from ..utils._sparse import csc_columns_with_constant
from ..utils._targets import as_2d_target
from ..utils._threads import on_one_blas_thread
from ..utils.validation import (
    cast_float_attributes,
    check_array,
    check_magnitude,
    check_sample_weight,
    input_float_dtype,
    validate_data,
)
from . import _cd_kernels as _k
from . import _dask_fit
from ._base import (
    LinearPredictMixin,
    centered_gram,
    exact_residual_products,
    fast_centered_gram,
    fit_moments,
    moments_and_gram,
    moments_and_gram32,
    set_coef,
    weighted_means,
)

__all__ = ["ElasticNet", "Lasso", "enet_path", "lasso_path"]


# selection="random": distinct coordinate orders drawn up front, about this many entries
# in all (the epochs go through them in turn), and at least _RANDOM_ORDERS_MIN of them.
# Drawing them costs an argsort of that many random numbers, a few epochs' work at most.
_RANDOM_ORDER_ENTRIES = 1 << 14
_RANDOM_ORDERS_MIN = 8


def _orders(selection, p, max_iter, random_state):
    """Coordinate orders (m, p) of the epochs: epoch e takes ``orders[e % m]``.

    Examples
    --------
    >>> _orders("cyclic", 3, 100, None).tolist()
    [[0, 1, 2]]
    >>> _orders("random", 900, 1000, 0).shape
    (19, 900)
    """
    if selection == "cyclic":
        return np.arange(p, dtype=np.intp)[None, :]
    rng = check_random_state(random_state)
    wanted = max(_RANDOM_ORDERS_MIN, -(-_RANDOM_ORDER_ENTRIES // max(p, 1)))
    m = int(max(1, min(max_iter, wanted)))
    return np.argsort(rng.random_sample((m, p)), axis=1).astype(np.intp)


# Largest n_features for which precompute="auto" starts on the Gram matrix.
# The Gram matrix costs n p^2 / 2 compute-bound BLAS operations; the data
# form a centred copy plus about two memory-bound passes over X per epoch,
# each operation roughly 8 times dearer. The Gram matrix wins for p up to
# about 16 * (epochs + 3), ~256 for a typical ten-odd epochs.
_GRAM_MAX_FEATURES = 256


def _mode(precompute, n, p):
    """Which form of coordinate descent to start with: "gram" or "data"."""
    if precompute is True:
        return "gram"
    if precompute == "auto" and n > p and p <= _GRAM_MAX_FEATURES:
        return "gram"
    return "data"


# Bytes of X up to which the data form's epochs run from cache (measured: the
# single-threaded Gram matrix took as long as p / 6-10 epochs up to 12 MB of X, and
# p / 24-28 epochs of a memory-bound X from 40 MB on)
_CD_CACHED_BYTES = 16 << 20


def _switch_after(precompute, n, p):
    """Epochs of the data form after which to switch to the Gram form.

    The Gram matrix (n p^2 / 2 BLAS operations) costs as much as about p / 6
    epochs of the data form (2 n p operations each) while X stays in cache, and
    about p / 24 once the epochs are memory-bound. Switching after that many
    epochs costs at most twice the better of the two forms, whatever the
    number of epochs convergence needs. Only for ``precompute="auto"`` and n > p.

    Examples
    --------
    >>> _switch_after("auto", 1000, 900), _switch_after("auto", 20_000, 960)
    (150, 40)
    """
    if precompute == "auto" and n > p:
        cached = 8 * n * p <= _CD_CACHED_BYTES
        return max(8, p // (6 if cached else 24))
    return None


class _Problem:
    """The centred, weighted problem in the form the kernels take."""

    @classmethod
    def from_gram(cls, G, XtY, yy):
        """The problem given its centred Gram matrix, X'y and y'y (no data)."""
        problem = cls.__new__(cls)
        problem.mode, problem.switch_after = "gram", None
        problem.p = G.shape[0]
        problem.pf = np.ones(problem.p)
        problem.G, problem.XtY, problem.yy = G, XtY, yy
        return problem

    def __init__(self, X, Y, x_mean, y_mean, sw, mode, switch_after=None, moments=None,
                 gram=None):
        self.mode = mode
        self.switch_after = switch_after
        self.p = X.shape[1]
        self.pf = np.ones(self.p)
        if mode == "gram":
            if gram is not None:
                self.G = gram
                self.XtY, self.yy = moments
            elif moments is not None and sw is None:
                self.XtY, self.yy = moments
                self.G = fast_centered_gram(X, x_mean)
            else:
                self.G, self.XtY, self.yy = centered_gram(X, x_mean, sw, Y, y_mean)
        else:
            self.A = np.empty(X.shape, order="F")
            self.col_sq = np.empty(self.p)
            root = np.ones(X.shape[0]) if sw is None else np.sqrt(sw)
            _k.center_to_fortran(np.ascontiguousarray(X), x_mean, root, self.A, self.col_sq)
            B = Y - y_mean
            if sw is not None:
                B = B * np.sqrt(sw)[:, None]
            self.B = np.asfortranarray(B)
            self.yy = np.einsum("ij,ij->j", B, B)
            self.XtY = None if moments is None or sw is not None else moments[0]

    def xty(self, k):
        """``X'y`` of target k (for the alpha grid)."""
        if self.XtY is not None:
            return self.XtY[:, k]
        return self.A.T @ self.B[:, k]

    def solve(self, k, w, l1, l2, positive, max_iter, tol, orders):
        """Solve for target k from start ``w`` (overwritten); return (n_iter, gap)."""
        abs_tol = tol * self.yy[k]
        if self.mode == "gram":
            return _k.enet_cd_gram(w, self.G, np.ascontiguousarray(self.XtY[:, k]),
                                   float(self.yy[k]), l1, l2, self.pf, positive,
                                   max_iter, abs_tol, orders, tol)
        budget = max_iter if self.switch_after is None else min(max_iter, self.switch_after)
        n_iter, gap = _k.enet_cd_data(w, self.A, np.ascontiguousarray(self.B[:, k]), self.col_sq,
                                      l1, l2, positive, budget, tol, abs_tol, orders,
                                      budget == max_iter)
        if gap <= abs_tol or n_iter >= max_iter:
            return n_iter, gap
        # Slow convergence: finish on the Gram matrix of the centred copy.
        self.mode = "gram"
        self.G = self.A.T @ self.A
        self.XtY = self.A.T @ self.B
        self.A = None
        more, gap = self.solve(k, w, l1, l2, positive, max_iter - n_iter, tol, orders)
        return n_iter + more, gap


class _SparseProblem:
    """The centred, weighted problem on sparse X, centred implicitly: the CSC
    values scaled by the roots of the weights, the column sums and squared
    norms of the centred columns, never a dense or centred copy of X.

    ``A'b`` comes first, from X as it is given: it feeds the alpha grid and shows
    when w = 0 is the solution (no coefficient's gradient exceeds the L1 penalty),
    which then needs neither the CSC copy nor an epoch. The copy is made when a
    target first needs the coordinate steps.

    With ``working_sets`` (a single fit with cyclic selection) and CSR X of at least
    ``_WORKING_SET_MIN_ENTRIES`` stored entries, a target is
    first solved on working sets of columns (:meth:`_solve_on_working_sets`): only
    their CSC arrays are made, and each round checks the optimality conditions of
    every column on the full problem, so the result meets the same duality-gap test."""

    def __init__(self, X, Y, x_mean, y_mean, sw, working_sets=False):
        n, self.p = X.shape
        self.X = X
        self.working_sets = (working_sets and X.format == "csr"
                             and _WORKING_SET_MIN_ENTRIES <= X.nnz < 2**32)
        self.weighted = sw is not None
        self.pf = np.ones(self.p)
        self.root = np.ones(n) if sw is None else np.sqrt(sw)
        self.total = float(self.root @ self.root)
        self.mu = np.asarray(x_mean, dtype=np.float64)
        self.B = np.asfortranarray((Y - y_mean) * self.root[:, None])
        self.yy = np.einsum("ij,ij->j", self.B, self.B)
        # A'B = X' diag(root) B - mu (root' B)
        weighted = self.B * self.root[:, None] if self.weighted else self.B
        self.XtB = np.asarray(X.T @ weighted) - np.outer(self.mu, self.root @ self.B)
        self.indptr = None

    def _columns(self):
        """The CSC arrays and the column quantities of the coordinate kernel."""
        # unsigned 32-bit indices (numba checks a signed index for a negative value at
        # every access); CSR through one compiled counting sort; X's values only read
        self.indptr, self.indices, data = csc_columns_with_constant(self.X)
        self.S, self.q, self.col_sq = self._column_quantities(self.indptr, self.indices,
                                                              data, self.mu)

    def _column_quantities(self, indptr, indices, data, mu):
        """For CSC arrays of some columns and their centring ``mu``: the values scaled by
        the roots of the weights (S), the weighted column sums (q) and the squared norms
        of the centred, weighted columns, as :func:`_cd_kernels.enet_cd_sparse` takes
        them."""
        S = data * self.root[indices] if self.weighted else data
        q, squares = np.empty(mu.shape[0]), np.empty(mu.shape[0])
        _k.csc_weighted_sums(indptr, indices, S, self.root, q, squares)
        return S, q, np.maximum(squares - 2.0 * mu * q + mu**2 * self.total, 0.0)

    def xty(self, k):
        """``A'b`` of target k (for the alpha grid)."""
        return self.XtB[:, k]

    def solve(self, k, w, l1, l2, positive, max_iter, tol, orders, gap=True):
        """Solve for target k from start ``w`` (overwritten); return (n_iter, gap).
        Stops when the largest change of an epoch is below ``tol`` times the largest
        weight and, with ``gap``, the duality gap below ``tol`` times ``y'y``."""
        xtb = self.XtB[:, k]
        if _zero_is_optimal(xtb, w, l1, positive):
            # w = 0 meets the optimality conditions: no epoch (the first would change
            # nothing), its gap from A'b (r = b)
            return 0, _k.enet_gap(w, xtb, self.yy[k], self.yy[k], l1, l2, self.pf, positive)
        spent = 0.0
        if self.indptr is None and self.working_sets and gap and orders.shape[0] == 1:
            finished, spent, gap_value = self._solve_on_working_sets(k, w, l1, l2, positive,
                                                                     max_iter, tol)
            if finished:
                return min(math.ceil(spent), max_iter), gap_value
        if self.indptr is None:
            self._columns()
        gap_tol = tol * self.yy[k] if gap else np.inf
        n_iter, gap_value = _k.enet_cd_sparse(
            w, self.indptr, self.indices, self.S, self.q, self.mu,
            np.ascontiguousarray(self.B[:, k]), self.root, self.col_sq, l1, l2, positive,
            max(max_iter - math.ceil(spent), 1), tol, gap_tol, orders)
        return min(math.ceil(spent) + int(n_iter), max_iter), gap_value

    def _solve_on_working_sets(self, k, w, l1, l2, positive, max_iter, tol):
        """Solve target k on growing sets of columns, as glmnet's strong sets and celer
        do. The first set holds the columns that violate their optimality condition at
        the start (``|A_j'r| > l1``, or a non-zero start value); each round solves the
        problem restricted to the set (CSC arrays of its columns alone, from one pass
        over the CSR arrays), then computes every column's ``A_j'r`` (one pass) and the
        duality gap of the full problem. It stops when that gap meets the tolerance;
        otherwise the violating columns join the set.

        Returns (finished, passes, gap): passes count the restricted epochs by the
        share of the columns they hold plus one per full product. Not finished when
        the set holds more than ``1 / _WORKING_SET_SHARE`` of the columns (the whole
        CSC copy is then as cheap), or when no column joins while the gap is still
        above the tolerance (rounding between the running and the recomputed
        residual); ``w`` then holds the last restricted solution, a warm start for
        the full problem."""
        p = self.p
        b = np.ascontiguousarray(self.B[:, k])
        gap_tol = tol * self.yy[k]
        g = self.XtB[:, k]
        in_set = np.zeros(p, dtype=bool)
        passes, gap, m = 0.0, np.inf, 0
        while True:
            score = g if positive else np.abs(g)
            in_set |= (score > l1) | (w != 0.0)
            m_before = m
            chosen = np.flatnonzero(in_set)
            m = chosen.size
            if m == m_before or m * _WORKING_SET_SHARE > p:
                return False, passes, gap
            position = np.full(p, m, dtype=np.uintp)
            position[chosen] = np.arange(m, dtype=np.uintp)
            X = self.X
            indptr, indices, data = csr_column_subset(X.indptr, X.indices, X.data, position,
                                                      np.uintp(m))
            mu = self.mu[chosen]
            S, q, col_sq = self._column_quantities(indptr, indices, data, mu)
            w_set = w[chosen]
            budget = max(int((max_iter - passes) * p / m), 1)
            n_iter, _ = _k.enet_cd_sparse(w_set, indptr, indices, S, q, mu, b, self.root,
                                          col_sq, l1, l2, positive, budget, tol, gap_tol,
                                          np.arange(m, dtype=np.intp)[None, :])
            w[chosen] = w_set
            r = _k.sparse_centred_residual(indptr, indices, S, w_set, mu, b, self.root)
            g = self._gradient(r)
            passes += int(n_iter) * m / p + 1.0
            gap = _k.enet_gap(w, g, float(r @ r), float(r @ b), l1, l2, self.pf, positive)
            if gap <= gap_tol or passes >= max_iter:
                return True, passes, gap

    def _gradient(self, r):
        """``A'r`` over every column: ``X' diag(root) r - mu (root' r)``, one pass."""
        u = r * self.root if self.weighted else r
        return np.asarray(self.X.T @ u) - self.mu * float(self.root @ r)


# Working sets on CSR X (see _SparseProblem._solve_on_working_sets): past this share
# of the columns (1 / _WORKING_SET_SHARE) the whole CSC copy is made instead, and
# below this many stored entries it always is (a round's own cost, a few tens of
# microseconds, is then that of the copy).
_WORKING_SET_SHARE = 4
_WORKING_SET_MIN_ENTRIES = 50_000


def _zero_is_optimal(xty, w, l1, positive):
    """Whether ``w`` is zero and meets the optimality conditions there (no column's
    ``A_j'b`` beyond the L1 penalty): the solution, without an epoch."""
    return not w.any() and (xty.max() if positive else np.abs(xty).max()) <= l1


class _DenseWorkingSets:
    """Coordinate descent on growing sets of columns of dense X with more rows than
    columns (unweighted, cyclic, no L2 part), for solutions with few non-zero
    coefficients.

    The first set holds the :data:`_FIRST_SET` columns that violate their optimality
    condition at zero the most (``|A_j'b| - l1``). Each round solves the problem
    restricted to the set on the set's own Gram matrix (``n m^2`` for m columns,
    against ``n p^2 / 2`` for the whole one), then computes every column's ``A_j'r``,
    ``r'r`` and ``r'y`` from the data in one pass, and with them the exact duality gap
    of the full problem. It stops when that gap meets the tolerance; else the columns
    violating their condition the most join the set, at most as many as it holds (the
    set at most doubles), with every non-zero coefficient's column.

    When the next set would hold more than ``1 / _WORKING_SET_SHARE`` of the columns,
    or after a round more than :data:`_DENSE_SHARE` of the columns outside the set
    still violate (both signs of a dense solution), or none does while the gap is above
    the tolerance, the whole Gram matrix finishes from the set's solution (``full()``
    makes that problem).
    """

    def __init__(self, X, C, x_mean, XtY, yy, full):
        self.X, self.C, self.x_mean = X, C, x_mean
        self.XtY, self.yy = XtY, yy
        self.full = full
        self.whole = None
        self.p = X.shape[1]
        self.pf = np.ones(self.p)

    def solve(self, k, w, l1, l2, positive, max_iter, tol, orders):
        """Solve for target k from start ``w`` (overwritten); return (n_iter, gap)."""
        xty = self.XtY[:, k]
        yy = float(self.yy[k])
        if _zero_is_optimal(xty, w, l1, positive):
            return 0, _k.enet_gap(w, xty, yy, yy, l1, l2, self.pf, positive)
        finished, passes, gap = self._solve_on_working_sets(k, w, l1, l2, positive,
                                                            max_iter, tol)
        n_iter = min(math.ceil(passes), max_iter)
        if finished:
            return n_iter, gap
        if self.whole is None:
            self.whole = self.full()
        more, gap = self.whole.solve(k, w, l1, l2, positive, max(max_iter - n_iter, 1), tol,
                                     orders)
        return min(n_iter + int(more), max_iter), gap

    def _solve_on_working_sets(self, k, w, l1, l2, positive, max_iter, tol):
        """Returns (finished, passes, gap) as the sparse version does: passes count the
        restricted epochs by the share of the columns they hold plus one per pass over
        X; not finished leaves the last restricted solution in ``w``."""
        p = self.p
        y = np.ascontiguousarray(self.C[:, k])
        yy = float(self.yy[k])
        gap_tol = tol * yy
        g = self.XtY[:, k]
        in_set = w != 0.0
        passes, gap, m = 0.0, np.inf, 0
        while True:
            excess = (g if positive else np.abs(g)) - l1
            outside = np.flatnonzero((excess > 0.0) & ~in_set)
            if passes and (outside.size == 0 or outside.size > _DENSE_SHARE * (p - m)):
                return False, passes, gap
            room = max(m, _FIRST_SET)
            if (m + min(room, outside.size)) * _WORKING_SET_SHARE > p:
                return False, passes, gap
            if outside.size > room:
                outside = outside[np.argpartition(-excess[outside], room - 1)[:room]]
            in_set[outside] = True
            chosen = np.flatnonzero(in_set)
            m = chosen.size
            A = self.X[:, chosen]
            A -= self.x_mean[chosen]
            G = A.T @ A
            w_set = w[chosen]
            budget = max(int((max_iter - passes) * p / m), 1)
            n_iter, _ = _k.enet_cd_gram(w_set, G, np.ascontiguousarray(self.XtY[chosen, k]),
                                        yy, l1, l2, self.pf[:m], positive, budget, gap_tol,
                                        np.arange(m, dtype=np.intp)[None, :], tol)
            w[chosen] = w_set
            g, rr, ry = exact_residual_products(self.X, self.x_mean, y, w)
            passes += int(n_iter) * m / p + 1.0
            gap = _k.enet_gap(w, g, rr, ry, l1, l2, self.pf, positive)
            if gap <= gap_tol or passes >= max_iter:
                return True, passes, gap


# The working sets on dense X (see _DenseWorkingSets): the columns of the first set; the
# fewest columns for which the sets are tried (at 100-160 columns they gained nothing); the
# most entries of X (float64 X of 4 MB: beyond, each round's passes over X run from memory
# and the whole float32 Gram matrix was faster); the share of the columns violating their
# condition at zero above which the solution is taken as dense from the start (1,000 x 200,
# a tenth informative: alpha 0.1 197 of 200 violating, 148 in the solution; alpha 1 178, 20).
_FIRST_SET = 16
_WORKING_SET_MIN_FEATURES = 192
_WORKING_SET_MAX_ENTRIES = 2**19
_VIOLATING_AT_ZERO = 0.9
# the share of the columns outside the working set that, still violating their
# condition after a round, marks a dense solution (see _DenseWorkingSets)
_DENSE_SHARE = 0.75


def _few_violators(XtY, l1, positive):
    """Whether, for every target, at most :data:`_VIOLATING_AT_ZERO` of the columns
    violate their optimality condition at zero (``|A_j'b| > l1``)."""
    excess = (XtY if positive else np.abs(XtY)) > l1
    return bool(np.all(excess.sum(axis=0) <= _VIOLATING_AT_ZERO * XtY.shape[0]))


# Rounds of refinement on the float32 Gram matrix before falling back to the
# float64 one (each round: coordinate descent, then one exact pass over X).
_REFINE_ROUNDS = 4


class _Certified:
    """Gram-form coordinate descent on a float32 Gram matrix, certified from the data.

    The float32 ``G`` (about 1e-6 relative error, see
    ``_base.moments_and_gram32``) serves as an approximate Hessian. After
    coordinate descent converges on it, one exact float64 pass over X gives
    ``X'r``, ``r'r`` and ``r'y`` at the iterate, hence the exact duality gap
    of the true problem; the solve stops only when that gap is below the
    tolerance. Otherwise the next round works on the quadratic model with the
    exact gradient at the iterate and ``G`` as its Hessian (iterative
    refinement: each round gains the factor of G's relative error times the
    conditioning). After a few rounds without a certificate the float64
    Gram matrix is computed and the usual solver finishes.
    """

    def __init__(self, X, C, x_mean, XtY, yy, G, est):
        self.X, self.C, self.x_mean = X, C, x_mean
        self.XtY, self.yy, self.G = XtY, yy, G
        self.est = est
        self.pf = np.ones(X.shape[1])
        self.exact = None

    def solve(self, k, w, l1, l2, positive, max_iter, tol, orders):
        """Solve for target k from start ``w`` (overwritten); return (n_iter, exact gap)."""
        abs_tol = tol * self.yy[k]
        y = np.ascontiguousarray(self.C[:, k])
        q = np.ascontiguousarray(self.XtY[:, k])
        yy = float(self.yy[k])
        start = w.copy()
        n_iter = 0
        gap = np.inf
        for _ in range(_REFINE_ROUNDS):
            it, _ = _k.enet_cd_gram(w, self.G, q, yy, l1, l2, self.pf, positive,
                                    max_iter - n_iter, abs_tol, orders, tol)
            n_iter += int(it)
            g, rr, ry = exact_residual_products(self.X, self.x_mean, y, w)
            gap = _k.enet_gap(w, g, rr, ry, l1, l2, self.pf, positive)
            if gap <= abs_tol or n_iter >= max_iter:
                return n_iter, gap
            # The quadratic model at w: exact gradient g, Hessian G.
            Gw = self.G @ w
            q = g + Gw
            yy = max(rr + 2.0 * (w @ g) + w @ Gw, 0.0)
        # No certificate: finish on the float64 Gram matrix.
        if self.exact is None:
            self.exact = fast_centered_gram(self.X, self.x_mean)
        if not np.isfinite(gap):
            w[:] = start
        more, gap = _k.enet_cd_gram(w, self.exact, np.ascontiguousarray(self.XtY[:, k]),
                                    float(self.yy[k]), l1, l2, self.pf, positive,
                                    max(max_iter - n_iter, 1), abs_tol, orders, tol)
        return n_iter + int(more), gap


def _solve_enet_dask(est, G, XtY, stats):
    """ElasticNet / Lasso from merged moments (see ``_dask_fit``)."""
    n = stats["n_rows"]
    scale = n / stats["total"]  # weights rescaled to sum to n_samples
    G *= scale
    XtY = XtY * scale
    yy = np.diag(stats["comoments"])[stats["n_features"]:] * scale
    problem = _Problem.from_gram(G, XtY, yy)
    l1r = est._get_l1_ratio()
    l1 = est.alpha * l1r * n
    l2 = est.alpha * (1.0 - l1r) * n
    orders = _orders(est.selection, problem.p, est.max_iter, est.random_state)
    est._solve_targets(problem, stats["x_mean"], stats["y_mean"], n, stats["was_1d"], l1, l2,
                       orders)


class ElasticNet(LinearPredictMixin, RegressorMixin, BaseEstimator):
    """Linear regression with combined L1 and L2 penalties.

    Parameters
    ----------
    alpha : float, default=1.0
        Overall penalty strength.
    l1_ratio : float, default=0.5
        Share of the L1 penalty, in [0, 1].
    fit_intercept : bool, default=True
    precompute : bool or "auto", default="auto"
        True: work on the Gram matrix of the centred data (an epoch then costs
        O(p^2) whatever n). False: work on a centred copy of the data (O(n p)
        per epoch). "auto": when n_samples > n_features, the Gram matrix if
        n_features <= 256, else start on the data and finish on the Gram
        matrix when convergence needs more than about n_features / 16 epochs;
        the data otherwise.
    max_iter : int, default=1000
        Maximum number of epochs. Where the solver works on X (sparse X, or more
        features than rows) and at most a quarter of the coefficients are non-zero, it
        cycles those alone between full epochs; such an epoch counts as the share of
        the columns it passes over, so the limit bounds the passes over X.
    copy_X : bool, default=True
        Kept for compatibility; X is never modified.
    tol : float, default=1e-4
        Stop when the duality gap is below ``tol * ||y - mean(y)||^2``.
    warm_start : bool, default=False
        Start from the previous ``coef_``.
    positive : bool, default=False
        Constrain the coefficients to be non-negative.
    random_state : int, RandomState instance or None, default=None
        Seed of the coordinate order when ``selection="random"``.
    selection : {"cyclic", "random"}, default="cyclic"

    Attributes
    ----------
    coef_ : ndarray of shape (n_features,) or (n_targets, n_features)
    intercept_ : float or ndarray of shape (n_targets,)
    n_iter_ : int or list of int
        Epochs run, counted as ``max_iter`` counts them.
    dual_gap_ : float or ndarray of shape (n_targets,)
        Final duality gap (of the 1/(2n)-scaled objective).
    n_features_in_ : int
    feature_names_in_ : ndarray of str

    See Also
    --------
    Lasso, Ridge, enet_path

    Notes
    -----
    Seed 000 §7. Coordinate descent with duality-gap stopping, compiled with
    numba.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0.0, 1.0], [1.0, 0.0], [2.0, 1.0], [3.0, 0.0]])
    >>> reg = ElasticNet(alpha=0.1).fit(X, X[:, 0])
    >>> bool(reg.coef_[0] > 0.8)
    True
    """

    _parameter_constraints = {
        "alpha": [Interval(Real, 0, None, closed="left")],
        "l1_ratio": [Interval(Real, 0, 1, closed="both")],
        "fit_intercept": ["boolean"],
        "precompute": ["boolean", StrOptions({"auto"})],
        "max_iter": [Interval(Integral, 1, None, closed="left")],
        "copy_X": ["boolean"],
        "tol": [Interval(Real, 0, None, closed="left")],
        "warm_start": ["boolean"],
        "positive": ["boolean"],
        "random_state": ["random_state"],
        "selection": [StrOptions({"cyclic", "random"})],
    }

    def __init__(self, alpha=1.0, *, l1_ratio=0.5, fit_intercept=True, precompute="auto",
                 max_iter=1000, copy_X=True, tol=1e-4, warm_start=False, positive=False,
                 random_state=None, selection="cyclic"):
        self.alpha = alpha
        self.l1_ratio = l1_ratio
        self.fit_intercept = fit_intercept
        self.precompute = precompute
        self.max_iter = max_iter
        self.copy_X = copy_X
        self.tol = tol
        self.warm_start = warm_start
        self.positive = positive
        self.random_state = random_state
        self.selection = selection

    _sparse_input = True  # fit and predict take sparse input (CSC for the fit)

    def __classiclearn_tags__(self):
        tags = super().__classiclearn_tags__()
        tags.sparse = self._sparse_input
        tags.multi_output = True
        return tags

    def _get_l1_ratio(self):
        return self.l1_ratio

    @on_one_blas_thread
    def fit(self, X, y, sample_weight=None):
        """Fit the model by coordinate descent.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,) or (n_samples, n_targets)
        sample_weight : float or array-like of shape (n_samples,), default=None
            Weights, rescaled internally to sum to n_samples.

        Returns
        -------
        self
        """
        self._validate_params()
        dtype = input_float_dtype(X)
        X, y = validate_data(self, X, y, dtype=np.float64, multi_output=True, y_numeric=True,
                             ensure_all_finite=False, order=None, accept_sparse=("csr", "csc"))
        check_magnitude(X, self, "penalised least squares", power=2, check_small=False)
        y = np.asarray(y, dtype=np.float64)
        n, p = X.shape
        sw = None
        if sample_weight is not None:
            sw = check_sample_weight(sample_weight, X, dtype=np.float64)
            if sw.sum() <= 0:
                raise ValueError("The sample weights sum to zero.")
            sw = sw * (n / sw.sum())
        Y, was_1d = as_2d_target(y)
        t = Y.shape[1]
        mode = _mode(self.precompute, n, p)
        l1r = self._get_l1_ratio()
        l1 = self.alpha * l1r * n
        l2 = self.alpha * (1.0 - l1r) * n
        orders = _orders(self.selection, p, self.max_iter, self.random_state)
        if sp.issparse(X):
            # as scikit-learn: sparse X is always solved on the data, centred implicitly
            check_array(X, dtype=np.float64, estimator=self, accept_sparse=("csr", "csc"))
            if self.fit_intercept:
                x_mean, y_mean = weighted_means(X, Y, sw)
            else:
                x_mean, y_mean = np.zeros(p), np.zeros(t)
            problem = _SparseProblem(X, Y, x_mean, y_mean, sw, working_sets=True)
        elif self._working_sets_apply(X, sw, mode, l2, orders):
            # working sets of columns first: a sparse solution needs no whole Gram matrix
            x_mean, y_mean, XtY, yy = fit_moments(self, X, Y, self.fit_intercept)
            C = Y - y_mean

            def whole():
                return self._whole_gram_problem(X, Y, C, x_mean, y_mean, XtY, yy)

            problem = (_DenseWorkingSets(X, C, x_mean, XtY, yy, whole)
                       if _few_violators(XtY, l1, self.positive) else whole())
        else:
            problem, x_mean, y_mean = self._dense_problem(X, Y, sw, mode)
        self._solve_targets(problem, x_mean, y_mean, n, was_1d, l1, l2, orders)
        cast_float_attributes(self, dtype, ("coef_", "intercept_"))
        return self

    def _working_sets_apply(self, X, sw, mode, l2, orders):
        """Whether dense X is solved on working sets of columns first
        (:class:`_DenseWorkingSets`): unweighted, more rows than columns with the Gram
        matrix chosen by ``precompute="auto"``, cyclic, C-ordered, of the sizes where the
        sets were measured to pay, and the lasso only (an L2 part keeps correlated
        columns in together, and its solutions were too dense for the sets to pay)."""
        n, p = X.shape
        return (sw is None and mode == "gram" and self.precompute == "auto" and l2 == 0.0
                and orders.shape[0] == 1 and X.flags.c_contiguous
                and _WORKING_SET_MIN_FEATURES <= p and n * p <= _WORKING_SET_MAX_ENTRIES)

    def _dense_problem(self, X, Y, sw, mode):
        """(problem, x_mean, y_mean) of dense X on the whole Gram matrix or the data:
        the moments (and Gram matrix) from one pass where unweighted."""
        n, p = X.shape
        t = Y.shape[1]
        moments = gram = None
        if sw is None and mode == "gram":
            # One threaded pass: means, X'y, the finiteness of X and a float32
            # X'X, the solution certified from the data below.
            pass32 = moments_and_gram32(self, X, Y, self.fit_intercept)
            if pass32 is not None:
                x_mean, y_mean, XtY, yy, G32, C = pass32
                return _Certified(X, C, x_mean, XtY, yy, G32, self), x_mean, y_mean
            # One threaded pass: means, X'y, the finiteness of X and X'X.
            x_mean, y_mean, XtY, yy, gram = moments_and_gram(self, X, Y, self.fit_intercept)
            moments = (XtY, yy)
        elif sw is None:
            # One pass: means, X'y and the finiteness of X.
            x_mean, y_mean, XtY, yy = fit_moments(self, X, Y, self.fit_intercept)
            moments = (XtY, yy)
        else:
            check_array(X, dtype=np.float64, estimator=self)
            if self.fit_intercept:
                x_mean, y_mean = weighted_means(X, Y, sw)
            else:
                x_mean, y_mean = np.zeros(p), np.zeros(t)
        problem = _Problem(X, Y, x_mean, y_mean, sw, mode,
                           _switch_after(self.precompute, n, p), moments, gram)
        return problem, x_mean, y_mean

    def _whole_gram_problem(self, X, Y, C, x_mean, y_mean, XtY, yy):
        """The problem on the whole Gram matrix of unweighted dense X, given its moments:
        float32, certified from the data, where that pass applies."""
        pass32 = moments_and_gram32(self, X, Y, self.fit_intercept)
        if pass32 is not None:
            return _Certified(X, C, x_mean, XtY, yy, pass32[4], self)
        return _Problem(X, Y, x_mean, y_mean, None, "gram", None, (XtY, yy))

    def _fit_dask(self, X, y, sample_weight=None):
        """Exact fit on Dask input: merged centred moments (weights rescaled to sum
        to n_samples, as in memory), then coordinate descent on the Gram matrix."""
        self._validate_params()
        return _dask_fit.fit_least_squares_dask(self, X, y, sample_weight, _solve_enet_dask)

    def _solve_targets(self, problem, x_mean, y_mean, n, was_1d, l1, l2, orders):
        """Coordinate descent for every target, convergence warnings, fitted attributes."""
        p, t = len(x_mean), len(y_mean)
        W = np.zeros((p, t))
        if self.warm_start and hasattr(self, "coef_"):
            prev = np.asarray(self.coef_, dtype=np.float64).reshape(t, -1)
            if prev.shape == (t, p):
                W[:] = prev.T
        n_iters, gaps = [], []
        for k in range(t):
            w = np.ascontiguousarray(W[:, k])
            n_iter, gap = problem.solve(k, w, l1, l2, self.positive, self.max_iter, self.tol,
                                        orders)
            W[:, k] = w
            n_iters.append(int(n_iter))
            gaps.append(gap / n)
            if gap > self.tol * problem.yy[k] and problem.yy[k] > 0:
                warnings.warn(
                    f"Objective did not converge. The duality gap is {gap / n:.3e} after "
                    f"{n_iter} iterations (tolerance {self.tol * problem.yy[k] / n:.3e}). "
                    "Increase max_iter or alpha, or scale the features.",
                    ConvergenceWarning,
                    stacklevel=2,
                )
        set_coef(self, W, x_mean, y_mean, self.fit_intercept, was_1d)
        self.n_iter_ = n_iters[0] if was_1d else n_iters
        self.dual_gap_ = gaps[0] if was_1d else np.asarray(gaps)
        return self


class Lasso(ElasticNet):
    """Linear regression with an L1 penalty (the lasso).

    Minimises ``1/(2n) ||y - X w||^2 + alpha ||w||_1``.

    Parameters
    ----------
    alpha : float, default=1.0
    fit_intercept : bool, default=True
    precompute : bool or "auto", default="auto"
    copy_X : bool, default=True
    max_iter : int, default=1000
    tol : float, default=1e-4
    warm_start : bool, default=False
    positive : bool, default=False
    random_state : int, RandomState instance or None, default=None
    selection : {"cyclic", "random"}, default="cyclic"

    Attributes
    ----------
    coef_, intercept_, n_iter_, dual_gap_, n_features_in_, feature_names_in_
        As :class:`ElasticNet`.

    See Also
    --------
    ElasticNet, lasso_path

    Notes
    -----
    Seed 000 §7 (the lasso sets coefficients exactly to zero).

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0.0, 1.0], [1.0, 0.0], [2.0, 1.0], [3.0, 0.0]])
    >>> Lasso(alpha=0.1).fit(X, X[:, 0]).coef_.round(3).tolist()
    [0.92, 0.0]
    """

    _parameter_constraints = {
        k: v for k, v in ElasticNet._parameter_constraints.items() if k != "l1_ratio"
    }

    def __init__(self, alpha=1.0, *, fit_intercept=True, precompute="auto", copy_X=True,
                 max_iter=1000, tol=1e-4, warm_start=False, positive=False, random_state=None,
                 selection="cyclic"):
        self.alpha = alpha
        self.fit_intercept = fit_intercept
        self.precompute = precompute
        self.copy_X = copy_X
        self.max_iter = max_iter
        self.tol = tol
        self.warm_start = warm_start
        self.positive = positive
        self.random_state = random_state
        self.selection = selection

    def _get_l1_ratio(self):
        return 1.0


def enet_path(X, y, *, l1_ratio=0.5, eps=1e-3, n_alphas=100, alphas=None, precompute="auto",
              Xy=None, copy_X=True, coef_init=None, verbose=False, return_n_iter=False,
              positive=False, check_input=True, tol=1e-4, max_iter=1000, selection="cyclic",
              random_state=None):
    """Elastic-net coefficients along a decreasing grid of alphas.

    No intercept is fitted (centre X and y first if you need one), as in
    scikit-learn. Each fit starts from the previous one, and the Gram matrix
    is computed once for the whole path.

    Parameters
    ----------
    X : array-like, sparse matrix or Dask array/DataFrame of shape (n_samples, n_features)
        Dask input (with y as a Dask array or Series of the same row chunks, or
        NumPy) is reduced block by block to ``X'X``, ``X'y`` and ``y'y``, merged
        in block order; the path then runs on that Gram matrix in memory.
    y : array-like of shape (n_samples,)
    l1_ratio : float, default=0.5
    eps : float, default=1e-3
        ``alpha_min / alpha_max`` of the automatic grid.
    n_alphas : int, default=100
    alphas : array-like or int, default=None
        The grid (sorted decreasing) or its length; None builds ``n_alphas``
        values log-spaced from ``alpha_max`` (the smallest alpha with all
        coefficients zero).
    precompute : bool or "auto", default="auto"
    Xy : array-like of shape (n_features,), default=None
        Accepted for compatibility; recomputed.
    copy_X, verbose, check_input : bool
        Accepted for compatibility.
    coef_init : array-like of shape (n_features,), default=None
    return_n_iter : bool, default=False
    positive : bool, default=False
    tol, max_iter, selection, random_state
        As :class:`ElasticNet`.

    Returns
    -------
    alphas : ndarray of shape (n_alphas,)
    coefs : ndarray of shape (n_features, n_alphas)
    dual_gaps : ndarray of shape (n_alphas,)
    n_iters : list of int, when ``return_n_iter``

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    >>> a, coefs, _ = enet_path(X, np.array([1.0, 0.0, 1.0]), n_alphas=5)
    >>> coefs.shape
    (2, 5)
    """
    if is_dask_collection(X) or is_dask_collection(y):
        in_memory, gram = _dask_fit.path_moments_dask(X, y)
        if gram is None:  # one row block: the in-memory path on it, bit for bit
            X, y = in_memory
        else:
            n, G, Xty, yy = gram
            problem = _Problem.from_gram(G, Xty[:, None], np.array([yy]))
            return _run_path(problem, n, l1_ratio, eps, n_alphas, alphas, coef_init,
                             return_n_iter, positive, tol, max_iter, selection, random_state)
    X = check_array(X, dtype=np.float64, ensure_all_finite=False, order=None,
                    accept_sparse=("csr", "csc"))
    y = check_array(y, dtype=np.float64, ensure_2d=False, input_name="y")
    if y.ndim != 1:
        raise ValueError("enet_path takes a 1-D y; fit one target at a time.")
    if y.shape[0] != X.shape[0]:
        raise ValueError(
            f"X and y have inconsistent numbers of samples: {X.shape[0]} != {y.shape[0]}"
        )
    n, p = X.shape
    use_gram = precompute is True or (precompute == "auto" and n > p)
    # One pass: X'y, the finiteness of X (no intercept: nothing is centred)
    # and, for the Gram form, X'X.
    if sp.issparse(X):
        check_array(X, dtype=np.float64, accept_sparse=("csr", "csc"))
        problem = _SparseProblem(X, y[:, None], np.zeros(p), np.zeros(1), None)
    elif use_gram:
        *_, Xty, yy, gram = moments_and_gram(None, X, y[:, None], False)
    else:
        _, _, Xty, yy = fit_moments(None, X, y[:, None], False)
        gram = None
    if not sp.issparse(X):
        problem = _Problem(X, y[:, None], np.zeros(p), np.zeros(1), None,
                           "gram" if use_gram else "data", moments=(Xty, yy), gram=gram)
    return _run_path(problem, n, l1_ratio, eps, n_alphas, alphas, coef_init, return_n_iter,
                     positive, tol, max_iter, selection, random_state)


def _run_path(problem, n, l1_ratio, eps, n_alphas, alphas, coef_init, return_n_iter, positive,
              tol, max_iter, selection, random_state):
    """The alpha grid and the warm-started solves of :func:`enet_path` on ``problem``
    (in memory, sparse, or the Gram matrix merged from Dask blocks)."""
    p = problem.p
    if isinstance(alphas, Integral) and not isinstance(alphas, bool):
        n_alphas, alphas = int(alphas), None
    if alphas is None:
        if l1_ratio <= 0:
            raise ValueError("An automatic alpha grid needs l1_ratio > 0; pass alphas.")
        Xty = problem.xty(0)
        top = (Xty.max() if positive else np.abs(Xty).max()) / (n * l1_ratio)
        if top <= np.finfo(float).resolution:
            alphas = np.full(n_alphas, np.finfo(float).resolution)
        else:
            alphas = np.geomspace(top, top * eps, num=n_alphas)
    else:
        alphas = np.sort(np.asarray(alphas, dtype=np.float64).ravel())[::-1]
    orders = _orders(selection, p, max_iter, random_state)
    w = np.zeros(p) if coef_init is None else np.array(coef_init, dtype=np.float64).ravel()
    coefs = np.empty((p, alphas.size))
    gaps = np.empty(alphas.size)
    n_iters = []
    for i, a in enumerate(alphas):
        n_iter, gap = problem.solve(0, w, a * l1_ratio * n, a * (1 - l1_ratio) * n, positive,
                                    max_iter, tol, orders)
        coefs[:, i] = w
        gaps[i] = gap
        n_iters.append(int(n_iter))
        if gap > tol * problem.yy[0] and problem.yy[0] > 0:
            warnings.warn(
                f"Objective did not converge at alpha={a:.4g}: duality gap {gap:.3e}.",
                ConvergenceWarning,
                stacklevel=3,  # the caller of enet_path
            )
    if return_n_iter:
        return alphas, coefs, gaps, n_iters
    return alphas, coefs, gaps


def lasso_path(X, y, *, eps=1e-3, n_alphas=100, alphas=None, precompute="auto", Xy=None,
               copy_X=True, coef_init=None, verbose=False, return_n_iter=False, positive=False,
               tol=1e-4, max_iter=1000, selection="cyclic", random_state=None):
    """Lasso coefficients along a decreasing grid of alphas.

    :func:`enet_path` with ``l1_ratio=1``; see it for the parameters.

    Returns
    -------
    alphas : ndarray of shape (n_alphas,)
    coefs : ndarray of shape (n_features, n_alphas)
    dual_gaps : ndarray of shape (n_alphas,)

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    >>> a, coefs, _ = lasso_path(X, np.array([1.0, 0.0, 1.0]), n_alphas=3)
    >>> bool(np.all(coefs[:, 0] == 0))
    True
    """
    return enet_path(X, y, l1_ratio=1.0, eps=eps, n_alphas=n_alphas, alphas=alphas,
                     precompute=precompute, Xy=Xy, copy_X=copy_X, coef_init=coef_init,
                     verbose=verbose, return_n_iter=return_n_iter, positive=positive,
                     tol=tol, max_iter=max_iter, selection=selection,
                     random_state=random_state)
