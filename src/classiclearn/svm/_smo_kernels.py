"""numba kernels of the SMO dual solver behind SVC and SVR (seed 000 §8).

The solver minimises the dual of a soft-margin support-vector machine in the
general form

    min_a  1/2 a' Q a + p' a   subject to  y' a = const,  0 <= a_t <= C_t,

with ``Q_st = y_s y_t K(x_{idx_s}, x_{idx_t})`` and ``y_t`` in {+1, -1}.
Classification has one variable per sample (``p = -1``); epsilon regression
has two per sample (``idx`` maps both to the sample).

Each iteration picks a pair of variables by second-order working-set
selection (Fan, Chen and Lin, JMLR 2005), solves the two-variable problem in
closed form and updates the gradient. The pairs, and so the iteration counts,
are libsvm's; the cost per iteration is two passes over the active prefix
(gradient update fused with the search for the maximal violations, then the
second-order choice), both vectorised, with the I_up / I_low membership of
each position kept in an int8 status that changes only for the pair updated.

As in libsvm, the problem lives in a permuted order: shrinking moves
variables stuck at a bound behind an active prefix of positions (swapping
the solver state, the rows of a private copy of the features and, lazily,
the cached kernel entries), so every loop runs over contiguous memory and a kernel row
is computed only for the active prefix (``Q_i[:active_size]``); a cached row
is extended when a longer prefix is needed (gradient rebuild, ``G_bar``).
Rows come from ``_smo_rows_kernels`` (kernel values and the row cache).
``G_bar`` (the part of the gradient due to variables at the upper bound)
rebuilds the gradient of the shrunk variables before the final optimality check.

Entry point: :func:`smo_solve`, whose arguments are named tuples: ``kernel``
(:data:`Kernel`), ``csr`` (:data:`Csr`, or None for dense samples: the dense
version is compiled without the sparse code), ``problem`` (:data:`Problem`) and
``settings`` (:data:`Settings`). The solver's state is a :data:`Variables` (in
position order) and a :data:`RowCache`.

The loop (:func:`_optimise`) and every kernel it calls per iteration are compiled
with ``_nrt=False``, without numba's runtime: no reference counting at all (it was
most of an iteration's cost on small data), and no allocation. :func:`smo_solve`
allocates the state and the row cache and lends them to the loop; the loop's kernels
return no array (a row is returned as its index in the cache, see
``_smo_rows_kernels.get_q``), and only the computation of a row the cache does not
hold, which allocates its work row, runs with the runtime (balanced reference counts
of its own).

What numba inlines (``inline="always"``): the steps of an iteration (``_take_step``,
``_scan``, ``_select_j``), which as calls passed every array as seven words (more
CPU per iteration), and the small helpers with one or two callers. Every separately
compiled kernel adds a fixed compile time to a first fit, and numba links each
kernel's callees into it and optimises them again, so the ones that ask for kernel
rows (:func:`get_q`, :func:`_reconstruct_gradient`) are compiled once each rather
than inlined, and :func:`smo_solve` is a Python function around the three kernels.
"""

from collections import namedtuple

import numpy as np

from .._kernels.jit import njit, start_parallel_runtime
from .._kernels.kernel_function_kernels import LINEAR, POLY, PRECOMPUTED, RBF, SIGMOID
from ._smo_rows_kernels import (
    PAR_WORK,
    Csr,
    Kernel,
    RowCache,
    exp_inplace,
    fresh_slot,
    gather_q,
    get_q,
    kernel_diagonal,
    kernel_values,
    new_row_cache,
    swap_cached,
    swap_samples,
    use_slot,
)

__all__ = ["LINEAR", "PAR_WORK", "POLY", "PRECOMPUTED", "RBF", "SIGMOID", "Csr", "Kernel", "Problem",
           "RowCache", "Settings", "Variables", "exp_inplace", "kernel_values", "smo_solve"]

# the dual problem: sample of each variable (intp), its sign (+1 / -1), linear term and
# upper bound (float64, each of shape (l,))
Problem = namedtuple("Problem", ["idx", "y", "p", "C"])
# ``max_iter`` <= 0: no limit; ``n_slots``: kernel rows the cache may hold; ``n_chunks``:
# parallel chunks per long kernel row (None: no row is long enough to be split, and the
# parallel code is not compiled); ``per_sample``: cache rows per sample (several
# variables share a sample, as in epsilon regression) instead of per variable
Settings = namedtuple("Settings", ["tol", "max_iter", "n_slots", "shrinking", "n_chunks",
                                   "per_sample"])
# the solver's state in position order (positions get swapped by shrinking): sign, linear
# term, bound, alpha, gradient, ``G_bar``, ``Q_tt``, sample and variable (``perm``) at
# each position, and its int8 I_up / I_low status (:func:`_status`)
Variables = namedtuple("Variables", ["y", "p", "C", "alpha", "G", "G_bar", "QD", "sid", "perm",
                                     "status"])

# a non-positive curvature ``quad`` of a pair is replaced by this (libsvm's TAU)
TAU = 1e-12
# iterations between two shrinking passes (fewer for fewer variables)
SHRINK_INTERVAL = 1000
# everything is unshrunk once the maximal violation falls below tol times this
UNSHRINK_FACTOR = 10.0
# the smallest swap log of the row cache (it holds at least one swap per variable)
SWAP_LOG_MIN = 1024
# bits of the int8 status: in I_up (may move towards a larger ``y a``), in I_low
IN_UP = 1
IN_LOW = 2


def smo_solve(kernel, csr, problem, settings):
    """Solve the SVM dual by SMO; see the module docstring.

    Parameters
    ----------
    kernel : Kernel
        ``X`` float64 (n, d): samples as rows, or the square Gram matrix when
        ``kind == PRECOMPUTED``, empty (0, 0) for sparse samples; ``sqnorm`` (n,)
        their squared norms; ``kind``, ``gamma``, ``coef0``, ``degree``.
        Not modified.
    csr : Csr or None
        Sparse samples: ``data``, ``indices``, ``indptr`` (float64, intp, intp) of
        the CSR matrix, ``rowmap`` ``np.arange(n)`` and ``buf`` zeros of
        n_features, both working buffers the solver writes; None for dense samples.
    problem : Problem
        ``idx`` (l,) intp the sample of each variable, ``y`` (l,) of +1 / -1,
        ``p`` (l,) the linear term, ``C`` (l,) the upper bounds (> 0).
    settings : Settings
        ``tol`` (stop when the maximal violating pair violates by less),
        ``max_iter`` (<= 0: none), ``n_slots`` (>= 2), ``shrinking``,
        ``n_chunks`` (1 or None: serial kernel rows), ``per_sample`` (``idx`` the identity
        when False).

    Returns
    -------
    alpha : ndarray of shape (l,)
    rho : float
        The decision function is ``sum_t y_t alpha_t K(x_t, x) - rho``.
    n_iter : int
    converged : bool

    Notes
    -----
    A Python function calling three kernels: numba links every kernel a kernel
    calls into it and optimises the whole again, so an outer kernel around the loop
    would compile the loop's machine code twice (seconds of a first fit).
    """
    v, kern, cache, permute_x = _prepare(kernel, problem, settings)
    start_parallel_runtime()
    it, converged = _optimise(v, kern, csr, cache, settings, permute_x)
    alpha, rho = _result(v)
    return alpha, rho, it, converged


@njit(nogil=True, cache=True, _nrt=True)
def _prepare(kernel, problem, settings):
    """The solver's state at alpha = 0, its row cache, its :data:`Kernel` and whether
    shrinking permutes the samples: (variables, kernel, cache, permute_x)."""
    m = problem.idx.shape[0]
    per_sample = settings.per_sample
    n_rows = kernel.sqnorm.shape[0] if per_sample else m
    cache = new_row_cache(max(2, settings.n_slots), n_rows, m, per_sample, settings.n_chunks,
                          max(SWAP_LOG_MIN, m))
    permute_x = (not per_sample) and kernel.kind != PRECOMPUTED
    v = _initial_variables(problem, kernel_diagonal(kernel))
    return v, _working_kernel(kernel, permute_x), cache, permute_x


@njit(nogil=True, cache=True, _nrt=True)
def _result(v):
    """(alpha in the input order of the variables, rho)."""
    return _alpha_by_variable(v), _offset(v)


@njit(nogil=True, cache=True, _nrt=True, inline="always")
def _working_kernel(kernel, permute_x):
    """The solver's :data:`Kernel`: with ``permute_x`` on private copies of the
    samples and norms, which shrinking permutes."""
    if permute_x:
        return Kernel(kernel.X.copy(), kernel.sqnorm.copy(), kernel.kind, kernel.gamma,
                      kernel.coef0, kernel.degree)
    return kernel


@njit(nogil=True, cache=True, _nrt=True, inline="always")
def _initial_variables(problem, diag):
    """:data:`Variables` at alpha = 0 in the input order (``diag``: K(x_s, x_s))."""
    idx = problem.idx
    y = problem.y.copy()
    C = problem.C.copy()
    m = idx.shape[0]
    QD = np.empty(m)
    for t in range(m):
        QD[t] = diag[idx[t]]
    status = np.empty(m, dtype=np.int8)
    for t in range(m):
        status[t] = _status(y[t], 0.0, C[t])
    return Variables(y, problem.p.copy(), C, np.zeros(m), problem.p.copy(), np.zeros(m), QD,
                     idx.copy(), np.arange(m), status)


@njit(nogil=True, cache=True, _nrt=False, inline="always")
def _row_ref(i, length, per_sample, y, sid, slot_of, row_len, applied, counters, stamp, rows,
             gather, scratch, kern, csr, cache):
    """Where position ``i``'s row ``Q_i`` is: an index into ``gather`` per sample, into
    ``rows`` per variable. An up-to-date cached row is taken (per sample: gathered)
    directly; otherwise :func:`get_q` computes or completes it."""
    slot = fresh_slot(i, length, per_sample, sid, slot_of, row_len, applied, counters)
    if slot < 0:
        return get_q(i, length, kern, csr, y, sid, cache)
    use_slot(slot, stamp, counters)
    if per_sample:
        return gather_q(i, length, y, sid, rows[slot], gather, counters, scratch)
    return slot


@njit(nogil=True, cache=True, _nrt=False)
def _optimise(v, kern, csr, cache, settings, permute_x):
    """The SMO iterations, then the gradient of any variable still shrunk rebuilt;
    returns (iterations, converged). Compiled without numba's runtime, as are the
    kernels it calls (they borrow the arrays :func:`smo_solve` owns): only the
    computation of a row the cache does not hold allocates (its work row)."""
    m = v.y.shape[0]
    tol = settings.tol
    active_size = m
    unshrink = np.bool_(False)
    counter = min(m, SHRINK_INTERVAL) + 1
    it = 0
    converged = False
    scanned = False
    gmax = -np.inf
    gmax2 = -np.inf
    i_next = -1
    # the per-iteration steps take these arrays, unpacked once, rather than the
    # named tuples (small kernels, each testable on plain arrays)
    y = v.y
    C = v.C
    alpha = v.alpha
    G = v.G
    QD = v.QD
    sid = v.sid
    status = v.status
    scratch = cache.scratch
    rows = cache.rows
    no_row = rows[0]
    # a cached row that is up to date is taken (per sample: gathered) here directly;
    # get_q (which takes the tuples) only computes or completes rows
    per_sample = settings.per_sample
    gather = cache.gather
    slot_of = cache.slot_of
    row_len = cache.row_len
    applied = cache.applied
    stamp = cache.stamp
    counters = cache.counters
    while True:
        if settings.max_iter > 0 and it >= settings.max_iter:
            break
        counter -= 1
        if counter == 0:
            counter = min(m, SHRINK_INTERVAL)
            if settings.shrinking:
                active_size, unshrink = _shrink(active_size, unshrink, tol, v, kern, csr,
                                                permute_x, cache)
                scanned = False
        i = i_next
        if not scanned:
            gmax, i, gmax2 = _scan(active_size, y, status, G, no_row, no_row, 0.0, 0.0,
                                   np.bool_(False), scratch)
        j = -1
        if gmax > -np.inf:
            ref = _row_ref(i, active_size, per_sample, y, sid, slot_of, row_len, applied,
                           counters, stamp, rows, gather, scratch, kern, csr, cache)
            Q_i = gather[ref] if per_sample else rows[ref]
            j = _select_j(active_size, y, status, G, QD, Q_i, i, gmax, gmax2, tol, scratch[2])
        if j < 0:
            if active_size == m:
                converged = True
                break
            # optimal on the active set: rebuild the whole gradient and look again
            # (the next pass; shrinking resumes after the step that follows it)
            active_size = _reconstruct_gradient(active_size, v, kern, csr, cache)
            scanned = False
            counter = 2
            continue
        it += 1
        # Q_i is the row the choice of j used: fetching Q_j leaves it in place (the
        # least recently used slot, or the other gather buffer, takes Q_j)
        ref = _row_ref(j, active_size, per_sample, y, sid, slot_of, row_len, applied, counters,
                       stamp, rows, gather, scratch, kern, csr, cache)
        Q_j = gather[ref] if per_sample else rows[ref]
        old_ai = alpha[i]
        old_aj = alpha[j]
        gmax, i_next, gmax2 = _take_step(i, j, active_size, y, alpha, C, G, QD, status, Q_i,
                                         Q_j, scratch)
        if (old_ai >= C[i]) != (alpha[i] >= C[i]):
            _update_g_bar(i, old_ai >= C[i], C[i], v, kern, csr, cache)
        if (old_aj >= C[j]) != (alpha[j] >= C[j]):
            _update_g_bar(j, old_aj >= C[j], C[j], v, kern, csr, cache)
        scanned = True
    if active_size < m:
        _reconstruct_gradient(active_size, v, kern, csr, cache)
    return it, converged


@njit(nogil=True, cache=True, _nrt=False, inline="always")
def _take_step(i, j, active_size, y, alpha, C, G, QD, status, Q_i, Q_j, scratch):
    """Solve the two-variable problem of (i, j) (rows ``Q_i``, ``Q_j``), update
    alpha, status and the gradient; returns the next (gmax, i, gmax2)."""
    old_ai = alpha[i]
    old_aj = alpha[j]
    Ci = C[i]
    Cj = C[j]
    if y[i] != y[j]:
        ai, aj = _step_opposite_signs(old_ai, old_aj, Ci, Cj, G[i], G[j],
                                      QD[i] + QD[j] + 2.0 * Q_i[j])
    else:
        ai, aj = _step_same_signs(old_ai, old_aj, Ci, Cj, G[i], G[j],
                                  QD[i] + QD[j] - 2.0 * Q_i[j])
    alpha[i] = ai
    alpha[j] = aj
    status[i] = _status(y[i], ai, Ci)
    status[j] = _status(y[j], aj, Cj)
    # gradient update fused with the next iteration's maximal violations
    return _scan(active_size, y, status, G, Q_i, Q_j, ai - old_ai, aj - old_aj,
                 np.bool_(True), scratch)


@njit(nogil=True, cache=True, _nrt=False, inline="always")
def _step_opposite_signs(ai, aj, Ci, Cj, Gi, Gj, quad):
    """New (alpha_i, alpha_j) for y_i != y_j: the unconstrained step along
    ``alpha_i - alpha_j = const``, clipped to the box."""
    if quad <= 0.0:
        quad = TAU
    delta = (-Gi - Gj) / quad
    diff = ai - aj
    ai += delta
    aj += delta
    if diff > 0.0:
        if aj < 0.0:
            aj = 0.0
            ai = diff
    else:
        if ai < 0.0:
            ai = 0.0
            aj = -diff
    if diff > Ci - Cj:
        if ai > Ci:
            ai = Ci
            aj = Ci - diff
    else:
        if aj > Cj:
            aj = Cj
            ai = Cj + diff
    return ai, aj


@njit(nogil=True, cache=True, _nrt=False, inline="always")
def _step_same_signs(ai, aj, Ci, Cj, Gi, Gj, quad):
    """New (alpha_i, alpha_j) for y_i == y_j: the unconstrained step along
    ``alpha_i + alpha_j = const``, clipped to the box."""
    if quad <= 0.0:
        quad = TAU
    delta = (Gi - Gj) / quad
    total = ai + aj
    ai -= delta
    aj += delta
    if total > Ci:
        if ai > Ci:
            ai = Ci
            aj = total - Ci
    else:
        if aj < 0.0:
            aj = 0.0
            ai = total
    if total > Cj:
        if aj > Cj:
            aj = Cj
            ai = total - Cj
    else:
        if ai < 0.0:
            ai = 0.0
            aj = total
    return ai, aj


@njit(nogil=True, cache=True, _nrt=False, inline="always")
def _update_g_bar(t, was_at_bound, c, v, kern, csr, cache):
    """Keep ``G_bar`` (the gradient part of the variables at the upper bound
    ``c``) current after alpha_t left the bound (``was_at_bound``) or reached it."""
    m = v.y.shape[0]
    ref = get_q(t, m, kern, csr, v.y, v.sid, cache)
    Q_t = cache.gather[ref] if cache.per_sample else cache.rows[ref]
    G_bar = v.G_bar
    if was_at_bound:
        for k in range(m):
            G_bar[k] -= c * Q_t[k]
    else:
        for k in range(m):
            G_bar[k] += c * Q_t[k]


@njit(nogil=True, cache=True, _nrt=False, inline="always")
def _offset(v):
    """rho: the mean of ``y G`` over the free variables, else the midpoint of the
    bounds the others set."""
    y = v.y
    ub = np.inf
    lb = -np.inf
    n_free = 0
    s_free = 0.0
    for t in range(y.shape[0]):
        yG = y[t] * v.G[t]
        if v.alpha[t] >= v.C[t]:
            if y[t] < 0:
                ub = min(ub, yG)
            else:
                lb = max(lb, yG)
        elif v.alpha[t] <= 0.0:
            if y[t] > 0:
                ub = min(ub, yG)
            else:
                lb = max(lb, yG)
        else:
            n_free += 1
            s_free += yG
    return s_free / n_free if n_free > 0 else (ub + lb) / 2.0


@njit(nogil=True, cache=True, _nrt=True, inline="always")
def _alpha_by_variable(v):
    """alpha in the input order of the variables."""
    m = v.alpha.shape[0]
    out = np.empty(m)
    for t in range(m):
        out[v.perm[t]] = v.alpha[t]
    return out


# Shrinking.


@njit(nogil=True, cache=True, _nrt=False, inline="always")
def _shrink(active_size, unshrink, tol, v, kern, csr, permute_x, cache):
    """Move variables stuck at a bound behind the active prefix; returns
    (active_size, unshrink). Once close to optimal, everything is unshrunk once."""
    gm1, gm2 = _shrink_thresholds(active_size, v.y, v.C, v.alpha, v.G)
    if not unshrink and gm1 + gm2 <= tol * UNSHRINK_FACTOR:
        unshrink = np.bool_(True)
        active_size = _reconstruct_gradient(active_size, v, kern, csr, cache)
    active_size = _shrink_active_set(active_size, gm1, gm2, v, kern, csr, permute_x, cache)
    return active_size, unshrink


@njit(nogil=True, cache=True, _nrt=False, inline="always")
def _shrink_thresholds(active_size, y, C, alpha, G):
    """(gm1, gm2): the largest violations over I_up and I_low by label, which a
    variable at a bound must exceed to be shrunk."""
    gm1 = -np.inf
    gm2 = -np.inf
    for t in range(active_size):
        up = alpha[t] >= C[t]
        low = alpha[t] <= 0.0
        if y[t] > 0:
            if not up and -G[t] >= gm1:
                gm1 = -G[t]
            if not low and G[t] >= gm2:
                gm2 = G[t]
        else:
            if not up and -G[t] >= gm2:
                gm2 = -G[t]
            if not low and G[t] >= gm1:
                gm1 = G[t]
    return gm1, gm2


@njit(nogil=True, cache=True, _nrt=False, inline="always")
def _be_shrunk(t, gm1, gm2, y, C, alpha, G):
    if alpha[t] >= C[t]:
        return -G[t] > gm1 if y[t] > 0 else -G[t] > gm2
    if alpha[t] <= 0.0:
        return G[t] > gm2 if y[t] > 0 else G[t] > gm1
    return False


@njit(nogil=True, cache=True, _nrt=False)
def _shrink_active_set(active_size, gm1, gm2, v, kern, csr, permute_x, cache):
    """Swap each shrinkable variable of the active prefix with the last active one
    that is not; returns the new active size."""
    y = v.y
    C = v.C
    alpha = v.alpha
    G = v.G
    t = np.intp(0)
    while t < active_size:
        if _be_shrunk(t, gm1, gm2, y, C, alpha, G):
            active_size -= 1
            while active_size > t:
                if not _be_shrunk(active_size, gm1, gm2, y, C, alpha, G):
                    _swap(t, active_size, v, kern, csr, permute_x, cache)
                    break
                active_size -= 1
        t += 1
    return active_size


@njit(nogil=True, cache=True, _nrt=False)
def _swap(i, j, v, kern, csr, permute_x, cache):
    """Exchange positions i and j of the problem (state, samples, cached entries)."""
    for arr in (v.y, v.p, v.C, v.alpha, v.G, v.G_bar, v.QD):
        arr[i], arr[j] = arr[j], arr[i]
    v.sid[i], v.sid[j] = v.sid[j], v.sid[i]
    v.perm[i], v.perm[j] = v.perm[j], v.perm[i]
    v.status[i], v.status[j] = v.status[j], v.status[i]
    if permute_x:
        swap_samples(i, j, kern, csr)
    swap_cached(i, j, cache)


@njit(nogil=True, cache=True, _nrt=False)
def _reconstruct_gradient(active_size, v, kern, csr, cache):
    """Rebuild the gradient of the shrunk variables from G_bar and the free
    variables; returns the new active size (all variables)."""
    m = v.y.shape[0]
    if active_size == m:
        return m
    for t in range(active_size, m):
        v.G[t] = v.G_bar[t] + v.p[t]
    n_free = 0
    for t in range(active_size):
        if 0.0 < v.alpha[t] < v.C[t]:
            n_free += 1
    if n_free * m > 2 * active_size * (m - active_size):
        _add_free_part_by_shrunk_rows(active_size, v, kern, csr, cache)
    else:
        _add_free_part_by_free_rows(active_size, v, kern, csr, cache)
    return m


@njit(nogil=True, cache=True, _nrt=False, inline="always")
def _add_free_part_by_shrunk_rows(active_size, v, kern, csr, cache):
    """``G_t += sum over free s of alpha_s Q_ts`` for the shrunk t, one row per t."""
    alpha = v.alpha
    C = v.C
    for i in range(active_size, v.y.shape[0]):
        ref = get_q(i, active_size, kern, csr, v.y, v.sid, cache)
        Q_i = cache.gather[ref] if cache.per_sample else cache.rows[ref]
        for t in range(active_size):
            if 0.0 < alpha[t] < C[t]:
                v.G[i] += alpha[t] * Q_i[t]


@njit(nogil=True, cache=True, _nrt=False, inline="always")
def _add_free_part_by_free_rows(active_size, v, kern, csr, cache):
    """The same sums, one row per free variable."""
    m = v.y.shape[0]
    alpha = v.alpha
    for i in range(active_size):
        if 0.0 < alpha[i] < v.C[i]:
            ref = get_q(i, m, kern, csr, v.y, v.sid, cache)
            Q_i = cache.gather[ref] if cache.per_sample else cache.rows[ref]
            a = alpha[i]
            for t in range(active_size, m):
                v.G[t] += a * Q_i[t]


# Working-set selection. The textbook loops branch on the label and bound
# status of every variable and carry one running maximum (a compare-and-select
# chain of several cycles per element); here each step is an element-wise
# pass the compiler vectorises, writing the candidate values to a scratch
# row, then a reduction over eight interleaved lanes, then a backward scan
# for the last position attaining the extremum: the same pair as the
# sequential ``>=`` / ``<=`` loops of libsvm, with bit-for-bit the same values
# (comparisons, selects and exact sign flips only). The pass that finds the
# maximal violations is fused with the gradient update of the previous
# iteration, so the active gradient is read once per iteration.


@njit(nogil=True, cache=True, _nrt=False)
def _status(yt, a, c):
    """Bit IN_UP: the variable is in I_up (may move towards the larger ``y a``),
    bit IN_LOW: in I_low."""
    below = a < c
    above = a > 0.0
    if yt > 0.0:
        return np.int8(below * IN_UP + above * IN_LOW)
    return np.int8(above * IN_UP + below * IN_LOW)


@njit(nogil=True, cache=True, _nrt=False)
def _max8(x, n):
    """max of ``x[:n]`` (-inf when empty) over eight independent lanes."""
    b0 = b1 = b2 = b3 = b4 = b5 = b6 = b7 = -np.inf
    n8 = n - n % 8
    for t in range(0, n8, 8):
        v = x[t]
        b0 = v if v > b0 else b0
        v = x[t + 1]
        b1 = v if v > b1 else b1
        v = x[t + 2]
        b2 = v if v > b2 else b2
        v = x[t + 3]
        b3 = v if v > b3 else b3
        v = x[t + 4]
        b4 = v if v > b4 else b4
        v = x[t + 5]
        b5 = v if v > b5 else b5
        v = x[t + 6]
        b6 = v if v > b6 else b6
        v = x[t + 7]
        b7 = v if v > b7 else b7
    b0 = b1 if b1 > b0 else b0
    b2 = b3 if b3 > b2 else b2
    b4 = b5 if b5 > b4 else b4
    b6 = b7 if b7 > b6 else b6
    b0 = b2 if b2 > b0 else b0
    b4 = b6 if b6 > b4 else b4
    b0 = b4 if b4 > b0 else b0
    for t in range(n8, n):
        v = x[t]
        b0 = v if v > b0 else b0
    return b0


@njit(nogil=True, cache=True, _nrt=False)
def _last_equal(x, n, v):
    """Largest t < n with ``x[t] == v`` (-1 if none); blocks of eight are
    tested without branches first."""
    t = n
    while t >= 8:
        t -= 8
        if ((x[t] == v) | (x[t + 1] == v) | (x[t + 2] == v) | (x[t + 3] == v)
                | (x[t + 4] == v) | (x[t + 5] == v) | (x[t + 6] == v) | (x[t + 7] == v)):
            for s in range(t + 7, t - 1, -1):
                if x[s] == v:
                    return s
    for s in range(t - 1, -1, -1):
        if x[s] == v:
            return s
    return -1


@njit(nogil=True, cache=True, _nrt=False, inline="always")
def _pair_objective(active_size, y, st, G, QD, Q_i, yi, qdi, gmax, obj):
    """Second-order gain ``(gmax + y_t G_t)^2 / quad_it`` of each candidate j,
    negated (``-inf`` where t is not a candidate, so the best is the max)."""
    yi2 = 2.0 * yi
    for t in range(active_size):
        yt = y[t]
        ok = (st[t] & IN_LOW) != 0
        grad_diff = gmax + yt * G[t]
        quad = qdi + QD[t] - yi2 * yt * Q_i[t]
        quad = quad if quad > 0.0 else TAU
        o = (grad_diff * grad_diff) / quad
        obj[t] = o if (ok & (grad_diff > 0.0)) else -np.inf


@njit(nogil=True, cache=True, _nrt=False, inline="always")
def _select_j(n, y, st, G, QD, Q_i, i, gmax, gmax2, tol, obj):
    """Second-order choice of j for the maximal violator i found by ``_scan``
    (``Q_i`` its row); -1 at optimality."""
    _pair_objective(n, y, st, G, QD, Q_i, y[i], QD[i], gmax, obj)
    best = _max8(obj, n)
    if gmax + gmax2 < tol or best == -np.inf:
        return -1
    return _last_equal(obj, n, best)


@njit(nogil=True, cache=True, _nrt=False, inline="always")
def _scan(n, y, st, G, Q_i, Q_j, dai, daj, update, scratch):
    """(gmax, i, gmax2) over the first ``n`` positions: the largest
    ``-y_t G_t`` over I_up with the last position attaining it, and the
    largest ``y_t G_t`` over I_low. With ``update`` the same pass first does
    ``G_t += Q_i[t] dai + Q_j[t] daj``. The candidate values go to
    ``scratch[0]`` (-inf outside I_up) and ``scratch[1]`` (outside I_low)."""
    vu = scratch[0]
    vl = scratch[1]
    ninf = -np.inf
    for t in range(n):
        g = G[t]
        if update:
            g = g + (Q_i[t] * dai + Q_j[t] * daj)
            G[t] = g
        g = y[t] * g
        s = st[t]
        vu[t] = -g if (s & IN_UP) != 0 else ninf
        vl[t] = g if (s & IN_LOW) != 0 else ninf
    gmax = _max8(vu, n)
    gmax2 = _max8(vl, n)
    i = _last_equal(vu, n, gmax) if gmax > ninf else -1
    return gmax, i, gmax2


@njit(nogil=True, cache=True, _nrt=True)
def solve_subsets(X, sqnorm, kind, gamma, coef0, degree, rows, starts, y, p, C, problems,
                  tol, max_iter, cache_bytes, shrinking, alpha, rho, n_iter, converged):
    """Solve several classification problems on subsets of the rows of a dense ``X``
    in one call (no GIL taken between them), each as :func:`smo_solve` would.

    Problem ``q`` is made of the samples ``rows[starts[q]:starts[q + 1]]`` of ``X``
    (``sqnorm``: the squared norms of X's rows; ``kind`` not PRECOMPUTED), with the
    signs, linear terms and bounds at the same places of ``y``, ``p`` and ``C``; it is
    solved with serial kernel rows and a row cache of ``cache_bytes``. Only the
    problems listed in ``problems`` are solved: their ``alpha`` (at the same places as
    their rows), ``rho``, ``n_iter`` and ``converged`` (indexed by problem) are written.
    """
    per_sample = False
    for q in problems:
        a = starts[q]
        b = starts[q + 1]
        n = b - a
        Xs = np.empty((n, X.shape[1]))
        sq = np.empty(n)
        for t in range(n):
            Xs[t] = X[rows[a + t]]
            sq[t] = sqnorm[rows[a + t]]
        kernel = Kernel(Xs, sq, kind, gamma, coef0, degree)
        problem = Problem(np.arange(n), y[a:b].copy(), p[a:b].copy(), C[a:b].copy())
        n_slots = int(max(2.0, min(float(n), cache_bytes // max(1, 4 * n))))
        settings = Settings(tol, max_iter, n_slots, shrinking, None, per_sample)
        v, kern, cache, permute_x = _prepare(kernel, problem, settings)
        it, ok = _optimise(v, kern, None, cache, settings, permute_x)
        alpha_q, rho_q = _result(v)
        alpha[a:b] = alpha_q
        rho[q] = rho_q
        n_iter[q] = it
        converged[q] = ok
