"""Linear support-vector classification: LinearSVC (seed 000 §8; seed 003).

Minimises ``P(w) + C sum_i loss(y_i (w'x_i + b))`` with ``P`` the L2
(``1/2 ||w||^2``) or L1 (``||w||_1``) penalty and the hinge or squared hinge
loss, one binary problem per class (one-vs-rest). As in liblinear the
intercept is an extra feature of constant value ``intercept_scaling`` and is
penalised with the weights.

Solvers:

- dual coordinate descent with shrinking (L2 penalty, both losses),
- on the primal (L2 penalty, squared hinge): a finite Newton method, as the
  objective is piecewise quadratic and Newton steps with an exact line search on
  the active set converge in a handful of BLAS-heavy iterations; and liblinear's
  trust-region Newton method (TRON, :mod:`classiclearn._kernels.tron`) where C is
  large for the rows' norms, or on dense rows whose Hessian costs more than
  conjugate gradients,
- coordinate descent with Newton steps (L1 penalty, squared hinge),
- ``multi_class="crammer_singer"``: one joint multiclass problem (Crammer
  and Singer, JMLR 2001) solved in the dual one sample at a time (Keerthi et
  al., KDD 2008), as liblinear's MCSVM_CS.
"""

import warnings
from contextlib import nullcontext
from numbers import Integral, Real

import numpy as np
import scipy.sparse as sp

from .._kernels.jit import start_parallel_runtime
from .._kernels.sparse_products import csr_gram_matvec, unsigned_csr
from .._kernels.tron import SQUARED_HINGE, l2_tron
from ..base import BaseEstimator, ClassifierMixin
from ..exceptions import ConvergenceWarning
from ..utils._linalg import solve_gram
from ..utils._linear import LinearClassifierMixin, linear_product
from ..utils._params import Interval, StrOptions
from ..utils._random import check_random_state
from ..utils._sparse import (
    csc_columns_with_constant,
    csr_with_constant,
    row_squared_norms,
    unsigned_arrays32,
)
from ..utils._targets import compute_class_weight, encode_labels
from ..utils._threads import (
    auto_n_jobs,
    blas_single_thread,
    numba_threads,
    pooled_map,
    small_lapack,
)
from ..utils.validation import (
    check_magnitude,
    check_sample_weight,
    validate_data,
)
from . import _linear_kernels as _k

# passes of the Crammer-Singer solver: liblinear's own limit, which scikit-learn's
# LinearSVC keeps whatever its max_iter (it does not pass it to this solver)
_CRAMMER_SINGER_PASSES = 100_000
# features (with the intercept) up to which the Newton method solves its steps with
# the Hessian itself
_HESSIAN_FEATURES = 3000
# up to this many features (with the intercept) the dense Newton method runs compiled
# whole, its Hessian and factorisation by compiled loops; above, by BLAS and LAPACK
# between interpreted steps (equal at about 100 features; compiled faster at 5 to 65,
# from 150 to 200,000 rows)
_COMPILED_NEWTON_FEATURES = 96
# entries of X from which the one-vs-rest problems of three or more classes are solved
# on all cores at once
_CLASS_THREADS_ENTRIES = 2_000


def _newton_squared_hinge(X, y, C, tol, max_iter, dense_tron=False, tron_rows=None):
    """Finite Newton method for ``1/2||w||^2 + sum C_i max(0, 1 - y_i w'x_i)^2``.

    The generalised Hessian ``I + 2 X_A' diag(C_A) X_A`` only depends on the
    active set A (samples with margin below one). With dense rows and at most
    ``_HESSIAN_FEATURES`` columns it is formed and updated with the rows that enter
    or leave A, so after the first iteration a Newton step costs a few
    matrix-vector products and one factorisation (Keerthi and DeCoste, JMLR 2005);
    otherwise each step is solved by conjugate gradients on Hessian-vector products.
    Small problems run compiled whole
    (:func:`_linear_kernels.newton_squared_hinge_dense`), where the interpreter's
    per-step calls would cost more than their arithmetic.

    Problems of small curvature or with many rows per feature
    (``_TRON_ONLY_CURVATURE``), and dense rows whose Hessian costs more than conjugate
    gradients (``dense_tron``, see :func:`_fit_storage`), are solved by liblinear's
    trust-region method (:func:`_tron`, its iterates; ``tron_rows``: X's arrays for
    it, shared by the one-vs-rest problems); where it has not settled within
    ``max_iter`` steps the Newton steps finish from its point.
    """
    n, d = X.shape
    # sparse rows come with conjugate gradients (see _fit_storage)
    direct = d <= _HESSIAN_FEATURES and not sp.issparse(X) and not dense_tron
    if direct and d <= _COMPILED_NEWTON_FEATURES:
        return _k.newton_squared_hinge_dense(np.ascontiguousarray(X), y, C, tol, max_iter)
    curvature = _loss_curvature(X, C)
    # the trust-region method alone: on dense rows past the exact Hessian, and wherever
    # the curvature, scaled by the features per row, is small (see _TRON_ONLY_CURVATURE)
    tron_only = (dense_tron or curvature * d / n <= _TRON_ONLY_CURVATURE
                 or n >= _TRON_ONLY_ROWS_PER_FEATURE * d)
    direct = direct and not tron_only
    n_pos = int(np.count_nonzero(y > 0))
    eps = tol * max(min(n_pos, n - n_pos), 1) / n
    w = np.zeros(d)
    it = 0
    if tron_only or curvature >= _TRON_FIRST_CURVATURE:
        # tron_only: the trust-region method for up to max_iter steps (dense rows past the
        # exact Hessian, 1,000 x 900, C=0.01: 8 steps, where the Newton-CG steps on CSR
        # rows took 107 products). Elsewhere, a large C for the rows' norms: the trust-region
        # method first (1,000 x 900, C=10: 16 steps against the Newton steps' 50, in far
        # less time; 500 x 450, C=100: the Newton steps on the exact Hessian took many
        # times liblinear's time); a problem it has not settled within _TRON_FIRST steps
        # goes to the Newton steps
        w_tr, it_tr, settled = _tron(X, y, C, eps,
                                     max_iter if tron_only else min(max_iter, _TRON_FIRST),
                                     tron_rows)
        if settled:
            return w_tr, it_tr
        if tron_only:
            w, it = w_tr, it_tr
    H = np.zeros((d, d)) if direct else None
    hessian_part = None if direct else _weighted_gram_product(X)
    # the stopping test is relative to the gradient at zero, 2 X'(-C y), as liblinear's:
    # the first one when the steps start there
    from_zero = not w.any()
    margin = np.zeros(n) if from_zero else X @ w
    g0 = None if from_zero else 2.0 * np.linalg.norm(X.T @ (C * y))
    act_old = np.zeros(n, dtype=bool)
    newton_steps = 0
    while newton_steps < max_iter:
        act = y * margin < 1.0
        r = np.where(act, C * (margin - y), 0.0)
        grad = w + 2.0 * (X.T @ r)
        gnorm = np.linalg.norm(grad)
        g0 = gnorm if g0 is None else g0
        if gnorm <= eps * g0 or gnorm == 0.0:
            break
        newton_steps += 1
        if direct:
            with small_lapack(d):
                _update_hessian(H, X, C, act & ~act_old, act_old & ~act)
            act_old = act
            step = -solve_gram(H.copy(), grad[:, None], np.ones(1))[:, 0]
        else:
            step = _conjugate_gradients(hessian_part, np.where(act, C, 0.0), grad,
                                        max(1e-2 * gnorm, 1e-12), _NEWTON_CG_STEPS)
        od = X @ step
        t = _k.exact_line_search(float(w @ step), float(step @ step), margin, od, y, C)
        w += t * step
        margin += t * od
    it += newton_steps
    if (not direct and not tron_only
            and _relative_duality_gap(X, w, margin, y, C) > _TRON_FALLBACK_GAP):
        # the inexact steps met the gradient test far from the optimum (large C): the
        # trust-region method run to its end, and the lower objective
        w_tr, it_tr, _ = _tron(X, y, C, eps, max_iter, tron_rows)
        if _objective(w_tr, X @ w_tr, y, C) < _objective(w, margin, y, C):
            return w_tr, it_tr
    return w, it


# The Newton method (either path) tries the trust-region method first where the loss's
# curvature, the mean of C_i ||x_i||^2 (the Hessian is I + 2 sum C_i x_i x_i' over the
# active rows), is at least _TRON_FIRST_CURVATURE, for at most _TRON_FIRST steps. On
# 1,000 x 900 (mean ||x||^2 934) the trust-region method took 16 steps at C=10, 125 at
# C=5, 570 at C=3 (longer than the Newton steps) and had not settled after 1,000 at
# C=1 and 2, where the Newton steps take about 30.
_TRON_FIRST_CURVATURE = 4000.0
_TRON_FIRST = 200
# The trust-region method alone, not the exact Hessian (dense rows) or the Newton-CG
# steps (CSR rows), where the curvature times features / rows is at most this. With a
# small C for the rows' norms the Hessian is near the identity, and a few
# conjugate-gradient products per step cost less than forming and factorising it or
# than Newton-CG's tighter steps; with fewer rows than features and a larger C the
# problem nears a hard margin, where the trust-region method takes hundreds of steps
# and Newton's few. With at least _TRON_ONLY_ROWS_PER_FEATURE rows per feature it
# never came near a hard margin, and took as long as the Hessian path or less at
# every C; on CSR rows, where the Newton-CG steps' active set can stay about as large
# as the features, it took far less time at C=10, and on easy problems (two
# Newton-CG steps) a little more. Its steps are liblinear's, so its time follows
# liblinear's. The crossovers were measured on dense and CSR X from 200 x 180 to
# 50,000 x 100 and C from 0.001 to 1,000 (benchmarks/results/svm.md, session 48).
_TRON_ONLY_CURVATURE = 100.0
_TRON_ONLY_ROWS_PER_FEATURE = 4
# conjugate-gradient products per Newton step (the steps need not be exact)
_NEWTON_CG_STEPS = 250


def _loss_curvature(X, C):
    """Mean of ``C_i ||x_i||^2`` over the rows of X (dense or CSR)."""
    return float(np.mean(C * row_squared_norms(X))) if X.shape[0] else 0.0


# relative duality gap of a conjugate-gradient Newton fit above which it is redone by
# the trust-region method: at 1,000 x 900 with C=100 the Newton steps met the gradient
# test at an objective of 4.32 (gap 0.88), the trust-region method at 0.60 as liblinear
# (optimum 0.4965)
_TRON_FALLBACK_GAP = 0.5


def _objective(w, margin, y, C):
    """``1/2||w||^2 + sum C_i max(0, 1 - y_i m_i)^2`` for the margins ``m = X w``."""
    viol = np.maximum(0.0, 1.0 - y * margin)
    return 0.5 * float(w @ w) + float(np.sum(C * viol * viol))


def _relative_duality_gap(X, w, margin, y, C):
    """``(P(w) - D(a)) / P(w)`` for the dual point ``a_i = 2 C_i max(0, 1 - y_i m_i)`` the
    optimality conditions map w to; ``P(w) - D(a)`` bounds ``P(w) - P*`` from above.
    ``D(a) = sum a - 1/2 ||X' (a y)||^2 - sum a^2 / (4 C)`` (the dual of the squared
    hinge loss), one pass over X."""
    viol = np.maximum(0.0, 1.0 - y * margin)
    a = 2.0 * C * viol
    v = X.T @ (a * y)
    loss = float(np.sum(C * viol * viol))  # sum a^2 / (4 C) is the loss again
    primal = 0.5 * float(w @ w) + loss
    dual = float(a.sum()) - 0.5 * float(v @ v) - loss
    return (primal - dual) / primal if primal > 0 else 0.0


def _tron(X, y, C, eps, max_iter, rows=None):
    """Trust-region Newton (Lin, Weng and Keerthi, JMLR 2008; liblinear's TRON,
    :func:`classiclearn._kernels.tron.l2_tron`) for ``1/2||w||^2 + sum C_i max(0, 1 -
    y_i w'x_i)^2`` from zero, over the dense rows or CSR X, until the gradient norm is
    ``eps`` times the first (liblinear's test). Returns (w, iterations, settled): the
    steps taken, counted as liblinear counts them, and whether the test was met (or the
    decrease vanished) within ``max_iter`` steps. ``rows``: X's arrays from
    :func:`_tron_rows`, when already made."""
    w = np.zeros(X.shape[1])
    rows = _tron_rows(X) if rows is None else rows
    # on the calling thread: without CSC columns only the rows' products could run in
    # parallel, which gained a few per cent at 500,000-1,500,000 stored entries and, at
    # 100,000-150,000, stalled repeated fits
    start_parallel_runtime()
    with numba_threads(1):
        n_iter, settled = l2_tron(SQUARED_HINGE, *rows, y, C, w, float(eps), int(max_iter))
    return w, n_iter, bool(settled)


def _tron_rows(X):
    """The arrays :func:`l2_tron` reads for X: the dense rows, or CSR X's index arrays
    made unsigned (converted once per fit, not once per one-vs-rest problem)."""
    if sp.issparse(X):
        # no CSC arrays: each Hessian product is one serial pass over the active rows
        # (the two parallel passes over every row, many short parallel regions per
        # step, stalled repeated fits)
        return (None, *unsigned_arrays32(X), None)
    return (np.ascontiguousarray(X, dtype=np.float64), None, None, None, None)


def _conjugate_gradients(hessian_part, weights, grad, tol, max_steps):
    """Conjugate gradients for the Newton step ``(I + 2 X' diag(weights) X) s = -grad``,
    ``X' diag(weights) X`` given by ``hessian_part`` (:func:`_weighted_gram_product`),
    from zero until the residual norm is ``tol`` or after ``max_steps`` products."""
    s = np.zeros_like(grad)
    r = -grad.copy()
    p = r.copy()
    rr = float(r @ r)
    for _ in range(max_steps):
        if np.sqrt(rr) <= tol:
            break
        Hp = p + 2.0 * hessian_part(weights, p)
        a = rr / float(p @ Hp)
        s += a * p
        r -= a * Hp
        rr_new = float(r @ r)
        p = r + (rr_new / rr) * p
        rr = rr_new
    return s


def _update_hessian(H, X, C, entering, leaving):
    """``H += 2 X_E' diag(C_E) X_E - 2 X_L' diag(C_L) X_L`` for the rows entering (E)
    and leaving (L) the active set, each product by BLAS (syrk on the rows scaled by
    the roots of their C)."""
    for rows, sign in ((entering, 2.0), (leaving, -2.0)):
        if rows.any():
            Xr = X[rows] * np.sqrt(C[rows])[:, None]
            H += sign * (Xr.T @ Xr)


def _weighted_gram_product(X):
    """``(weights, v) -> X' diag(weights) X v``. On CSR X one pass over X
    (:func:`csr_gram_matvec`, skipping the rows of weight 0: the samples outside the
    active set), its index arrays converted once for all the products."""
    if not sp.issparse(X):
        return lambda weights, v: X.T @ (weights * (X @ v))
    arrays = unsigned_csr(X)
    product = np.empty(X.shape[1])

    def weighted_gram_product(weights, v):
        csr_gram_matvec(*arrays, weights, v, product)
        return product

    return weighted_gram_product


def _crammer_singer(rows, y_idx, C, k, tol, max_iter, seed):
    """Weights (K, d) of the Crammer-Singer SVM, or (1, d) ``w_1 - w_0`` for two classes
    (``rows``: a :class:`_Rows`, dense or sparse)."""
    W = np.zeros((k, rows.n_coef))
    alpha = np.zeros((y_idx.shape[0], k))
    n_iter, _ = _k.crammer_singer_dual_cd(*rows.arrays(), y_idx.astype(np.intp), C, tol,
                                          max_iter, seed, W, alpha)
    if k == 2:
        W = (W[1] - W[0])[None, :]
    return W, int(n_iter)


class LinearSVC(LinearClassifierMixin, ClassifierMixin, BaseEstimator):
    """Linear support-vector classification (one-vs-rest for several classes).

    Parameters
    ----------
    penalty : {'l1', 'l2'}, default='l2'
    loss : {'hinge', 'squared_hinge'}, default='squared_hinge'
    dual : 'auto' or bool, default='auto'
        Solve the dual (coordinate descent) or the primal (Newton for the L2
        penalty, coordinate descent for L1). 'auto' picks the primal when
        there are more samples than features and the combination allows it,
        on dense and sparse input alike. The Newton method solves its steps
        with a features x features Hessian of dense rows up to 3,000 features,
        else by conjugate gradients (on CSR rows when they are mostly zero: a
        dense X with at most a quarter non-zero entries is fitted as CSR, as
        liblinear stores every X; a small sparse X is made dense).
    tol : float, default=1e-4
        Stopping tolerance.
    C : float, default=1.0
        Weight of the loss (> 0).
    multi_class : {'ovr', 'crammer_singer'}, default='ovr'
        'ovr': one binary problem per class. 'crammer_singer': one joint
        problem, ``1/2 sum_m |w_m|^2 + sum_i C_i max_m ([m != y_i] + w_m'x_i -
        w_{y_i}'x_i)``, solved by dual coordinate descent over the samples
        (``penalty``, ``loss`` and ``dual`` are then ignored, as in
        scikit-learn). With two classes ``coef_`` is ``w_1 - w_0``.
    fit_intercept : bool, default=True
    intercept_scaling : float, default=1.0
        Value of the constant feature carrying the (penalised) intercept.
    class_weight : dict or 'balanced', default=None
    verbose : int, default=0
        Unused.
    random_state : int, RandomState instance or None, default=None
        Order of the coordinates in coordinate descent.
    max_iter : int, default=1000
        Passes of the one-vs-rest solvers. The Crammer-Singer solver runs up
        to 100,000 passes whatever ``max_iter``, as scikit-learn's LinearSVC
        runs liblinear's (the convergence warning still compares its passes
        with ``max_iter``, as scikit-learn's does).

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    coef_ : ndarray of shape (1, n_features) or (n_classes, n_features)
    intercept_ : ndarray of shape (1,) or (n_classes,), or 0.0 without intercept
    n_iter_ : int
        Largest iteration count over the binary problems.
    n_features_in_ : int
    feature_names_in_ : ndarray

    See Also
    --------
    SVC : kernel SVM (also with ``kernel='linear'``).

    Notes
    -----
    Seed 000 §8: the soft-margin SVM is hinge loss plus an L2 penalty on w.

    Examples
    --------
    >>> from classiclearn.svm import LinearSVC
    >>> X = [[0.0, 0.0], [1.0, 1.0], [0.0, 1.0], [1.0, 0.0]]
    >>> LinearSVC().fit(X, [0, 1, 0, 1]).predict([[0.9, 0.1]]).tolist()
    [1]
    """

    _sparse_input = True

    _parameter_constraints = {
        "penalty": [StrOptions({"l1", "l2"})],
        "loss": [StrOptions({"hinge", "squared_hinge"})],
        "dual": ["boolean", StrOptions({"auto"})],
        "tol": [Interval(Real, 0.0, None, closed="neither")],
        "C": [Interval(Real, 0.0, None, closed="neither")],
        "multi_class": [StrOptions({"ovr", "crammer_singer"})],
        "fit_intercept": ["boolean"],
        "intercept_scaling": [Interval(Real, 0, None, closed="neither")],
        "class_weight": [StrOptions({"balanced"}), dict, None],
        "verbose": [Interval(Integral, 0, None, closed="left"), "boolean"],
        "random_state": ["random_state"],
        "max_iter": [Interval(Integral, 0, None, closed="left")],
    }

    def __init__(
        self,
        penalty="l2",
        loss="squared_hinge",
        *,
        dual="auto",
        tol=1e-4,
        C=1.0,
        multi_class="ovr",
        fit_intercept=True,
        intercept_scaling=1.0,
        class_weight=None,
        verbose=0,
        random_state=None,
        max_iter=1000,
    ):
        self.penalty = penalty
        self.loss = loss
        self.dual = dual
        self.tol = tol
        self.C = C
        self.multi_class = multi_class
        self.fit_intercept = fit_intercept
        self.intercept_scaling = intercept_scaling
        self.class_weight = class_weight
        self.verbose = verbose
        self.random_state = random_state
        self.max_iter = max_iter

    def _resolve_dual(self, X):
        if self.penalty == "l1" and self.loss == "hinge":
            raise ValueError(
                "Unsupported set of arguments: The combination of penalty='l1' and "
                "loss='hinge' is not supported."
            )
        primal_ok = self.loss == "squared_hinge"
        dual_ok = self.penalty == "l2"
        if self.dual == "auto":
            if X.shape[0] < X.shape[1]:
                return dual_ok
            return not primal_ok
        if self.dual and not dual_ok:
            raise ValueError(
                "Unsupported set of arguments: The combination of penalty='l1' and "
                "loss='squared_hinge' is not supported when dual=True."
            )
        if not self.dual and not primal_ok:
            raise ValueError(
                "Unsupported set of arguments: The combination of penalty='l2' and "
                "loss='hinge' is not supported when dual=False."
            )
        return bool(self.dual)

    def fit(self, X, y, sample_weight=None):
        """Fit the linear SVM.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
        sample_weight : array-like of shape (n_samples,), default=None
            Multiplies C per sample.

        Returns
        -------
        self
        """
        self._validate_params()
        X, y = validate_data(self, X, y, dtype=np.float64, order="C", accept_sparse="csr")
        check_magnitude(X, self, "penalised hinge loss", power=2, check_small=False)
        sw = check_sample_weight(sample_weight, X, dtype=np.float64)
        self.classes_, y_idx = encode_labels(y)
        crammer_singer = self.multi_class == "crammer_singer"
        dual = True if crammer_singer else self._resolve_dual(X)
        cw = compute_class_weight(self.class_weight, self.classes_, y_idx)
        Cs = self.C * sw
        keep = (Cs > 0) & (cw[y_idx] > 0)
        if not keep.all():
            X, y_idx, Cs = X[keep], y_idx[keep], Cs[keep]
        if X.shape[0] == 0:
            raise ValueError("Invalid input - all samples have zero or negative weights.")
        hessian = not (crammer_singer or dual or self.penalty == "l1") and \
            X.shape[1] + 1 <= _HESSIAN_FEATURES
        bias = self.intercept_scaling if self.fit_intercept else 0.0
        storage, dense_tron = _fit_storage(X, hessian)
        rows = _Rows(storage, bias)
        Xa = rows.dense
        k = len(self.classes_)
        rng = check_random_state(self.random_state)
        seed = int(rng.randint(np.iinfo(np.int32).max))
        if crammer_singer:
            W, n_iter = _crammer_singer(rows, y_idx, Cs * cw[y_idx], k, float(self.tol),
                                        _CRAMMER_SINGER_PASSES, seed)
            self._set_fitted(W, n_iter)
            return self
        columns = rows.columns() if self.penalty == "l1" else None
        if not (self.penalty == "l1" or dual) and Xa is None:
            Xa = rows.with_intercept_csr()
        targets = [1] if k == 2 else list(range(k))
        # the trust-region method's unsigned CSR arrays, shared by the problems
        tron_rows = _tron_rows(Xa) if len(targets) > 1 and sp.issparse(Xa) else None

        def solve_one_vs_rest(c):
            yc = np.where(y_idx == c, 1.0, -1.0)
            # as liblinear: in one-vs-rest the rest keeps the plain C
            Cc = Cs * (cw[y_idx] if k == 2 else np.where(y_idx == c, cw[c], 1.0))
            if self.penalty == "l1":
                return _k.l1_coordinate_descent(*_signed(columns, yc), Cc, float(self.tol),
                                                int(self.max_iter), seed)
            if dual:
                return _k.dual_coordinate_descent(*rows.arrays(), yc, Cc,
                                                  self.loss == "squared_hinge",
                                                  float(self.tol), int(self.max_iter), seed)
            return _newton_squared_hinge(Xa, yc, Cc, float(self.tol), int(self.max_iter),
                                         dense_tron, tron_rows)

        # the one-vs-rest problems are independent: on the cores at once (each the same
        # whatever the number of threads)
        n_threads = auto_n_jobs(None, X.shape[0] * X.shape[1], _CLASS_THREADS_ENTRIES)
        with blas_single_thread() if n_threads > 1 and len(targets) > 1 else nullcontext():
            solved = pooled_map(solve_one_vs_rest, targets, n_threads)
        self._set_fitted(np.asarray([w for w, _ in solved]), int(max(it for _, it in solved)))
        return self

    def _set_fitted(self, W, n_iter):
        self.n_iter_ = n_iter
        if self.n_iter_ >= self.max_iter:
            warnings.warn(
                "Liblinear failed to converge, increase the number of iterations.",
                ConvergenceWarning,
                stacklevel=3,
            )
        if self.fit_intercept:
            self.coef_ = np.ascontiguousarray(W[:, :-1])
            self.intercept_ = self.intercept_scaling * W[:, -1]
        else:
            self.coef_ = W
            self.intercept_ = 0.0

    def _linear_product(self, X):
        """``X @ coef_.T`` by einsum, not BLAS: a product with so few columns is
        memory-bound and a threaded BLAS call only adds synchronisation cost."""
        if sp.issparse(X):
            return linear_product(X, self.coef_)
        return np.einsum("ij,kj->ik", X, self.coef_)


# the solvers' work, per unit below, for choosing dense or CSR rows (_fit_storage): a
# Hessian of dense rows costs n p^2 multiply-adds; conjugate gradients on CSR rows
# about this many passes over the stored entries, plus a fixed cost in calls
_CG_PASSES = 800
_CG_FIXED = 3e7
# coordinate descent (dual, L1) and conjugate gradients on dense rows read every
# entry: CSR rows pay when at most this fraction is non-zero
_SPARSE_FIT_DENSITY = 0.25
# entries below which dense X is fitted as it is (counting its zeros is a pass)
_SPARSE_FIT_ENTRIES = 100_000
# entries up to which sparse X is made dense for the Hessian of the primal method
_DENSE_FIT_ENTRIES = 20_000_000


def _signed(columns, y):
    """The column kernel's arrays (see ``_Rows.columns``) with each sample's entries
    times its label ``y_i`` (+1 or -1), as liblinear signs its columns once per binary
    problem: a copy, the shared columns are kept."""
    XT, indptr, indices, data = columns
    if XT is not None:
        return XT * y, None, None, None
    return None, indptr, indices, data * y[indices]


def _fit_storage(X, hessian):
    """X as the solver reads it fastest, and whether the primal problem is solved by
    the trust-region method on dense rows: ``(rows, dense_tron)``.

    The rows are CSR (as liblinear stores every X: the passes skip zeros) or dense.
    ``hessian``: whether the primal Newton method may form its features x features
    Hessian from dense rows, which it does where that costs less than conjugate
    gradients. Where it does not, dense X that is not mostly zeros keeps its dense rows
    for the trust-region method (``dense_tron``), whose products read them faster than
    CSR arrays (a third of the bytes, in SIMD lanes, with no conversion); mostly-zero
    X goes to CSR.
    """
    n, d = X.shape
    if not sp.issparse(X) and X.size < _SPARSE_FIT_ENTRIES:
        return X, False
    indptr = None if sp.issparse(X) else _k.row_nonzeros(np.ascontiguousarray(X))
    nnz = X.nnz if indptr is None else int(indptr[-1])
    mostly_zero = nnz <= _SPARSE_FIT_DENSITY * n * d
    dense = n * d * d <= _CG_PASSES * nnz + _CG_FIXED if hessian else not mostly_zero
    if sp.issparse(X):
        return (X.toarray() if dense and n * d <= _DENSE_FIT_ENTRIES else X), False
    if dense:
        return X, False
    if hessian and not mostly_zero:
        return X, True
    indices, data = _k.dense_to_csr(np.ascontiguousarray(X), indptr)
    return sp.csr_array((data, indices, indptr), shape=X.shape), False


class _Rows:
    """The training rows as the dual coordinate descent reads them: a dense
    array with the intercept column appended, or the CSR arrays of sparse X
    with the intercept as a virtual last column of value ``bias``."""


    def __init__(self, X, bias):
        self.sparse = sp.issparse(X)
        self.bias = float(bias)
        self.n_coef = X.shape[1] + (1 if bias > 0 else 0)
        if self.sparse:
            self.csr = X
            self.dense = None
            return
        if bias > 0:
            Xa = np.empty((X.shape[0], X.shape[1] + 1))
            Xa[:, :-1] = X
            Xa[:, -1] = bias
        else:
            Xa = X
        self.dense = np.ascontiguousarray(Xa)

    def with_intercept_csr(self):
        """Sparse X with the intercept column stored (CSR), for the primal Newton method:
        each row's entries, then the intercept's."""
        if self.bias <= 0:
            return sp.csr_array(self.csr)
        return csr_with_constant(self.csr, self.bias)

    def columns(self):
        """(XT, indptr, indices, data) for the column-wise L1 kernel: the dense rows
        transposed, or CSC arrays of sparse X with the intercept column stored."""
        if not self.sparse:
            return np.ascontiguousarray(self.dense.T), None, None, None
        return None, *csc_columns_with_constant(self.csr, max(self.bias, 0.0))

    def arrays(self):
        """(X, indptr, indices, data, bias, d) for the row kernels: the dense rows and
        None for the CSR arrays, or None for X (numba compiles a dense and a sparse
        version, each without the other's code). The index arrays are unsigned (numba
        checks a signed index for a negative value at every access, which slowed the
        dual passes), the column indices on 32 bits."""
        if not self.sparse:
            return self.dense, None, None, None, 0.0, self.n_coef
        return (None, *unsigned_arrays32(self.csr), self.bias, self.n_coef)
