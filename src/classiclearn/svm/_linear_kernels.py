"""numba kernels of LinearSVC (seed 000 §8, linear soft-margin SVM).

- :func:`dual_coordinate_descent`: dual coordinate descent with shrinking for
  the L2-penalised hinge and squared-hinge losses (Hsieh, Chang, Lin, Keerthi
  and Sundararajan, ICML 2008).
- :func:`l1_coordinate_descent`: coordinate descent with one-dimensional
  Newton steps and Armijo line search for the L1-penalised squared hinge loss
  (Yuan, Chang, Hsieh and Lin, JMLR 2010, "CDN").
- :func:`crammer_singer_dual_cd`: the Crammer-Singer multiclass SVM solved in
  the dual one sample (one K-variable sub-problem) at a time (Keerthi,
  Sundararajan, Chang, Hsieh and Lin, KDD 2008).

Both visit coordinates in a random order drawn from a small xorshift generator
seeded by the caller, so results are reproducible for a given seed.
"""

import numpy as np

from .._kernels.coordinates import (
    column_entry,
    column_span,
    l1_shrinkable,
    l1_violation,
    shuffle,
)
from .._kernels.jit import njit
from .._kernels.prefetch import prefetch1

# The dual passes visit CSR rows in a shuffled order, each a cache miss: they ask for the
# row a few samples ahead, and its start in indptr further ahead still. The hints are
# written out in each pass: as an inlined helper the same code ran the pass slower.
_ROWS_AHEAD = 4
_INDPTR_AHEAD = 12


# The row and column helpers below serve dense samples (the CSR / CSC arrays None)
# and sparse ones (the dense array None). Each branch tests the argument it reads
# against None: numba then compiles each version without the other's branch (a test
# on the other, non-None argument would keep both, and a runtime test makes the
# passes several times slower).

@njit(nogil=True, cache=True, inline="always")
def _row_dot(X, indptr, indices, data, bias, i, w):
    """``w . x_i`` for a dense row of X, or a CSR row (with ``bias`` as the
    value of a virtual last column when positive)."""
    s = 0.0
    if X is not None:
        for f in range(X.shape[1]):
            s += w[f] * X[i, f]
    if indptr is not None:
        for jj in range(indptr[i], indptr[i + 1]):
            s += data[jj] * w[indices[jj]]
        if bias > 0.0:
            s += bias * w[w.size - 1]
    return s


@njit(nogil=True, cache=True, inline="always")
def _row_axpy(X, indptr, indices, data, bias, i, step, w):
    """``w += step * x_i`` (row forms as in :func:`_row_dot`)."""
    if X is not None:
        for f in range(X.shape[1]):
            w[f] += step * X[i, f]
    if indptr is not None:
        for jj in range(indptr[i], indptr[i + 1]):
            w[indices[jj]] += step * data[jj]
        if bias > 0.0:
            w[w.size - 1] += step * bias


@njit(nogil=True, cache=True, inline="always")
def _row_sq_norm(X, indptr, indices, data, bias, i):
    s = 0.0
    if X is not None:
        for f in range(X.shape[1]):
            s += X[i, f] * X[i, f]
    if indptr is not None:
        for jj in range(indptr[i], indptr[i + 1]):
            s += data[jj] * data[jj]
        s += bias * bias
    return s


@njit(nogil=True, cache=True)
def dual_coordinate_descent(X, indptr, indices, data, bias, d, y, C, squared, tol, max_iter,
                            seed):
    """Dual CD for ``min_w 1/2 ||w||^2 + sum_i C_i loss(y_i w'x_i)``.

    Parameters
    ----------
    X : ndarray of shape (n, d), C order, or None
        Dense samples (with the intercept column appended when fitted), or None
        when the samples are given in CSR form.
    indptr, indices, data : ndarray or None
        The CSR arrays of sparse samples (None for dense X).
    bias : float
        For CSR samples: the value of the virtual intercept column (0: none).
    d : int
        Number of coefficients (columns, with the intercept column).
    y : ndarray of shape (n,) of +1 / -1
    C : ndarray of shape (n,)
        Per-sample penalty weight.
    squared : bool
        Squared hinge (True) or hinge (False).
    tol : float
        Stop when the projected-gradient range is below tol.
    max_iter : int
    seed : int

    Returns
    -------
    w : ndarray of shape (d,)
    n_iter : int
    """
    n = y.shape[0]
    w = np.zeros(d)
    alpha = np.zeros(n)
    QD = np.empty(n)
    U = np.empty(n)
    Dii = np.empty(n)
    for i in range(n):
        s = _row_sq_norm(X, indptr, indices, data, bias, i)
        if squared:
            Dii[i] = 0.5 / C[i]
            U[i] = np.inf
        else:
            Dii[i] = 0.0
            U[i] = C[i]
        QD[i] = s + Dii[i]
    index = np.arange(n)
    active = n
    pg_max_old = np.inf
    pg_min_old = -np.inf
    state = np.array([np.uint64(seed) * np.uint64(2654435761) + np.uint64(88172645463325252)])
    it = 0
    while it < max_iter:
        pg_max_new = -np.inf
        pg_min_new = np.inf
        shuffle(index, active, state)
        s = 0
        while s < active:
            i = index[s]
            if indptr is not None:  # prefetch hints (see _ROWS_AHEAD)
                if s + _INDPTR_AHEAD < active:
                    prefetch1(indptr, index[s + _INDPTR_AHEAD])
                if s + _ROWS_AHEAD < active:
                    ahead = index[s + _ROWS_AHEAD]
                    start = indptr[ahead]
                    stop = indptr[ahead + 1]
                    for q in range(start, stop, 8):  # 8 float64 per 64-byte line
                        prefetch1(data, q)
                    for q in range(start, stop, 16):  # 16 uint32
                        prefetch1(indices, q)
            g = _row_dot(X, indptr, indices, data, bias, i, w)
            g = y[i] * g - 1.0 + Dii[i] * alpha[i]
            pg = 0.0
            if alpha[i] == 0.0:
                if g > pg_max_old:
                    active -= 1
                    index[s] = index[active]
                    index[active] = i
                    continue
                elif g < 0.0:
                    pg = g
            elif alpha[i] == U[i]:
                if g < pg_min_old:
                    active -= 1
                    index[s] = index[active]
                    index[active] = i
                    continue
                elif g > 0.0:
                    pg = g
            else:
                pg = g
            if pg > pg_max_new:
                pg_max_new = pg
            if pg < pg_min_new:
                pg_min_new = pg
            if abs(pg) > 1e-12:
                old = alpha[i]
                if QD[i] > 0.0:
                    new = min(max(old - g / QD[i], 0.0), U[i])
                else:  # an all-zero row with the hinge loss: the step is infinite
                    new = U[i] if g < 0.0 else 0.0
                alpha[i] = new
                _row_axpy(X, indptr, indices, data, bias, i, (new - old) * y[i], w)
            s += 1
        it += 1
        if pg_max_new - pg_min_new <= tol:
            if active == n:
                break
            active = n
            pg_max_old = np.inf
            pg_min_old = -np.inf
            continue
        pg_max_old = pg_max_new if pg_max_new > 0.0 else np.inf
        pg_min_old = pg_min_new if pg_min_new < 0.0 else -np.inf
    return w, it


@njit(nogil=True, cache=True)
def l1_coordinate_descent(XT, indptr, indices, data, C, tol, max_iter, seed):
    """CDN for ``min_w ||w||_1 + sum_i C_i max(0, 1 - y_i w'x_i)^2``, with
    liblinear's shrinking: a feature at zero whose gradient lies well inside the
    penalty's reach leaves the passes, and all features are checked once more before
    the stop.

    The samples come signed, ``y_i x_i`` (as liblinear scales its columns): the passes
    then read no label.

    Parameters
    ----------
    XT : ndarray of shape (d, n), C order, or None
        Transposed signed samples (one feature per row); or None, and the columns are
        the CSC arrays ``indptr``, ``indices``, ``data`` (d columns; None for
        dense samples: numba compiles each version without the other's code).
    C : ndarray of shape (n,)
    tol : float
        Stop when the summed optimality violation falls below tol times its
        first value.
    max_iter : int
    seed : int

    Returns
    -------
    w : ndarray of shape (d,)
    n_iter : int
    """
    n = C.shape[0]
    d = 0
    if XT is not None:
        d = XT.shape[0]
    if indptr is not None:
        d = indptr.size - 1
    w = np.zeros(d)
    b = np.ones(n)  # 1 - y_i w'x_i
    xsq = np.empty(d)
    for j in range(d):
        s = 0.0
        start, stop = column_span(XT, indptr, j, n)
        for t in range(start, stop):
            i, x = column_entry(XT, indices, data, j, t)
            s += C[i] * x * x
        xsq[j] = s
    index = np.arange(d)
    state = np.array([np.uint64(seed) * np.uint64(2654435761) + np.uint64(88172645463325252)])
    viol_init = -1.0
    sigma = 0.01
    gmax_old = np.inf
    active = d
    it = 0
    while it < max_iter:
        shuffle(index, active, state)
        viol = 0.0
        gmax_new = 0.0
        s = 0
        while s < active:
            j = index[s]
            start, stop = column_span(XT, indptr, j, n)
            G = 0.0
            H = 0.0
            for t in range(start, stop):
                i, x = column_entry(XT, indices, data, j, t)
                if b[i] > 0.0:
                    v = C[i] * x
                    G -= v * b[i]
                    H += v * x
            G *= 2.0
            H = 2.0 * H
            if H < 1e-12:
                H = 1e-12
            wj = w[j]
            if l1_shrinkable(G, wj, gmax_old, n):
                active -= 1
                index[s], index[active] = index[active], index[s]
                continue
            v = l1_violation(G, wj)
            gmax_new = max(gmax_new, v)
            viol += v
            s += 1
            gp = G + 1.0
            gn = G - 1.0
            if gp <= H * wj:
                dj = -gp / H
            elif gn >= H * wj:
                dj = -gn / H
            else:
                dj = -wj
            if abs(dj) < 1e-12:
                continue
            delta = G * dj + abs(wj + dj) - abs(wj)
            lam = 1.0
            applied = 0.0  # the step b has been moved by (as liblinear, b moves with
            loss_old = 0.0  # each exact trial: no separate pass once one is accepted)
            for trial in range(30):
                # objective change for step lam * dj; first its upper bound from the
                # loss's curvature (at most 2 C_i x_i^2 per row): when the bound meets
                # the sufficient decrease, so does the change, and the pass is saved
                step = lam * dj
                change = abs(wj + step) - abs(wj)
                if change + G * step + xsq[j] * step * step <= sigma * lam * delta:
                    break
                move = step - applied
                loss_new = 0.0
                for t in range(start, stop):
                    i, x = column_entry(XT, indices, data, j, t)
                    if x != 0.0:
                        bi = b[i]
                        if trial == 0 and bi > 0.0:
                            loss_old += C[i] * bi * bi
                        bi -= move * x
                        b[i] = bi
                        if bi > 0.0:
                            loss_new += C[i] * bi * bi
                applied = step
                if change + loss_new - loss_old <= sigma * lam * delta:
                    break
                lam *= 0.5
            step = lam * dj
            w[j] = wj + step
            if step != applied:
                move = step - applied
                for t in range(start, stop):
                    i, x = column_entry(XT, indices, data, j, t)
                    b[i] -= move * x
        it += 1
        if viol_init < 0.0:
            viol_init = viol
        if viol <= tol * viol_init:
            if active == d:
                break
            active = d  # check the shrunk features once more
            gmax_old = np.inf
            continue
        gmax_old = gmax_new
    return w, it


@njit(nogil=True, cache=True, fastmath=True)
def add_weighted_gram(X, rows, c, scale, H):
    """``H += scale * sum_{i in rows} c_i x_i x_i'`` (serial, cache-blocked).

    Rows are gathered in blocks laid out feature-major so every entry of H is
    a contiguous dot product the compiler vectorises. Serial on purpose: on
    a busy machine a threaded BLAS product of this shape can be far slower
    than one core, and the finite Newton method needs it once plus small
    updates.
    """
    d = X.shape[1]
    n_rows = rows.shape[0]
    B = 1024
    P = np.empty((d, B))
    Q = np.empty((d, B))
    for start in range(0, n_rows, B):
        nb = min(B, n_rows - start)
        for k in range(nb):
            i = rows[start + k]
            ci = scale * c[i]
            for a in range(d):
                P[a, k] = X[i, a]
                Q[a, k] = ci * X[i, a]
        for a in range(d):
            for b in range(a, d):
                s = 0.0
                for k in range(nb):
                    s += Q[a, k] * P[b, k]
                H[a, b] += s
    for a in range(d):
        for b in range(a + 1, d):
            H[b, a] = H[a, b]


@njit(nogil=True, cache=True)
def solve_spd(A, b):
    """Solve ``A x = b`` for a symmetric positive definite A by Cholesky (serial)."""
    d = A.shape[0]
    L = np.zeros((d, d))
    for j in range(d):
        s = A[j, j]
        for k in range(j):
            s -= L[j, k] * L[j, k]
        if s <= 0.0:
            s = 1e-300
        L[j, j] = np.sqrt(s)
        for i in range(j + 1, d):
            s = A[i, j]
            for k in range(j):
                s -= L[i, k] * L[j, k]
            L[i, j] = s / L[j, j]
    z = np.empty(d)
    for i in range(d):
        s = b[i]
        for k in range(i):
            s -= L[i, k] * z[k]
        z[i] = s / L[i, i]
    x = np.empty(d)
    for i in range(d - 1, -1, -1):
        s = z[i]
        for k in range(i + 1, d):
            s -= L[k, i] * x[k]
        x[i] = s / L[i, i]
    return x


@njit(nogil=True, cache=True)
def newton_squared_hinge_dense(X, y, C, tol, max_iter):
    """The finite Newton method of ``_linear._newton_squared_hinge`` on dense rows with
    the Hessian itself, compiled whole: small problems take a handful of iterations of
    a few microseconds each, where the interpreter's per-step calls cost more than
    their arithmetic. Returns (w, iterations).

    X (n, d) C-contiguous, y (n,) in {-1, +1}, C (n,) positive.
    """
    n, d = X.shape
    w = np.zeros(d)
    margin = np.zeros(n)
    od = np.empty(n)
    grad = np.empty(d)
    H = np.zeros((d, d))
    act_old = np.zeros(n, dtype=np.bool_)
    entering = np.empty(n, dtype=np.intp)
    leaving = np.empty(n, dtype=np.intp)
    n_pos = 0
    for i in range(n):
        if y[i] > 0:
            n_pos += 1
    eps = tol * max(min(n_pos, n - n_pos), 1) / n
    g0 = -1.0
    it = 0
    while it < max_iter:
        for j in range(d):
            grad[j] = w[j]
        for i in range(n):
            if y[i] * margin[i] < 1.0:
                ri = 2.0 * C[i] * (margin[i] - y[i])
                for j in range(d):
                    grad[j] += ri * X[i, j]
        gnorm = 0.0
        for j in range(d):
            gnorm += grad[j] * grad[j]
        gnorm = np.sqrt(gnorm)
        if g0 < 0.0:
            g0 = gnorm
        if gnorm <= eps * g0 or gnorm == 0.0:
            break
        it += 1
        n_in = 0
        n_out = 0
        for i in range(n):
            now = y[i] * margin[i] < 1.0
            if now and not act_old[i]:
                entering[n_in] = i
                n_in += 1
            elif act_old[i] and not now:
                leaving[n_out] = i
                n_out += 1
            act_old[i] = now
        if n_in > 0:
            add_weighted_gram(X, entering[:n_in], C, 2.0, H)
        if n_out > 0:
            add_weighted_gram(X, leaving[:n_out], C, -2.0, H)
        Hreg = H.copy()
        for j in range(d):
            Hreg[j, j] += 1.0
        step = solve_spd(Hreg, grad)
        ws = 0.0
        ss = 0.0
        for j in range(d):
            step[j] = -step[j]
            ws += w[j] * step[j]
            ss += step[j] * step[j]
        for i in range(n):
            acc = 0.0
            for j in range(d):
                acc += X[i, j] * step[j]
            od[i] = acc
        t = exact_line_search(ws, ss, margin, od, y, C)
        for j in range(d):
            w[j] += t * step[j]
        for i in range(n):
            margin[i] += t * od[i]
    return w, it


@njit(nogil=True, cache=True)
def exact_line_search(ws, ss, margin, od, y, C):
    """Minimiser of the piecewise quadratic ``phi(t) = f(w + t s)``.

    ``ws = w's``, ``ss = s's``; ``margin = X w`` and ``od = X s``. Newton on
    the piecewise-linear derivative, which reaches the exact minimiser.
    """
    n = margin.shape[0]
    t = 1.0
    for _ in range(100):
        d1 = ws + t * ss
        d2 = ss
        for i in range(n):
            m = margin[i] + t * od[i]
            if y[i] * m < 1.0:
                d1 += 2.0 * C[i] * (m - y[i]) * od[i]
                d2 += 2.0 * C[i] * od[i] * od[i]
        if d2 <= 0.0:
            break
        t_new = t - d1 / d2
        if abs(t_new - t) <= 1e-12 * max(1.0, abs(t)):
            t = t_new
            break
        t = t_new
    return t


@njit(nogil=True, cache=True)
def _crammer_singer_subproblem(B, A, label, c, D, beta, k):
    """Solve ``min_b 1/2 A |b|^2 + B'b`` s.t. ``sum(b) = 0``, ``b_m <= c [m == label]``
    over the first ``k`` variables (``label >= k``: the label is not among them).

    KKT: ``b_m = min(C_m, (theta - B_m) / A)``; with ``D_m = B_m + A C_m`` the
    sum constraint reads ``sum_m max(0, D_m - theta) = A c``, solved over the
    D sorted in descending order (an insertion sort: k is the number of classes).
    D is scratch (at least k); the solution goes to beta[:k].
    """
    for m in range(k):
        v = B[m] + A * c if m == label else B[m]
        q = m
        while q > 0 and D[q - 1] < v:
            D[q] = D[q - 1]
            q -= 1
        D[q] = v
    theta = D[0] - A * c
    r = 1
    while r < k and theta < r * D[r]:
        theta += D[r]
        r += 1
    theta /= r
    # theta now holds (sum of the r largest D - A c) / r: the KKT multiplier
    for m in range(k):
        cm = c if m == label else 0.0
        v = (theta - B[m]) / A
        beta[m] = cm if cm < v else v


@njit(nogil=True, cache=True, inline="always")
def _shrinkable(alpha_im, bound, g, gmin):
    """Whether a variable at its bound with a gradient below the smallest free one
    leaves the sample's active set (liblinear's ``be_shrunk``)."""
    return alpha_im == bound and g < gmin


@njit(nogil=True, cache=True)
def _shrink_classes(alpha_i, slots, G, label, c, gmin, k):
    """Move the active variables of one sample that can be shrunk past its first
    ``k`` slots (``slots``: class of each slot, ``G``: their gradients; both
    permuted alike). Returns (active count, the label's slot)."""
    m = 0
    while m < k:
        if _shrinkable(alpha_i[slots[m]], c if m == label else 0.0, G[m], gmin):
            k -= 1
            while k > m:
                if not _shrinkable(alpha_i[slots[k]], c if k == label else 0.0, G[k], gmin):
                    slots[m], slots[k] = slots[k], slots[m]
                    G[m], G[k] = G[k], G[m]
                    if label == k:
                        label = m
                    elif label == m:
                        label = k
                    break
                k -= 1
        m += 1
    return k, label


@njit(nogil=True, cache=True, fastmath={"reassoc", "contract"})
def crammer_singer_dual_cd(X, indptr, indices, data, bias, d, y, C, tol, max_iter, seed, W,
                           alpha):
    """Dual coordinate descent of the Crammer-Singer multiclass SVM, with shrinking.

    Minimises ``1/2 sum_m |w_m|^2 + sum_i C_i max_m (e_im + w_m'x_i - w_{y_i}'x_i)``
    (``e_im = [m != y_i]``) through its dual: ``w_m = sum_i alpha_im x_i`` with
    ``sum_m alpha_im = 0`` and ``alpha_im <= C_i [m == y_i]``. Each step
    solves the sub-problem of one sample exactly over its active classes; the
    active samples are visited in a random order per pass.

    Shrinking (Keerthi et al., as liblinear): a class whose variable sits at its
    bound with a gradient below the smallest gradient of the sample's free
    variables leaves the sample's active set, and a sample with at most one
    active class leaves the pass. Once a pass's largest KKT violation
    ``max_m G_m - min_{m: alpha_im < C_im} G_m`` falls below a shrinking
    tolerance (``max(10 tol, 1)``, halved at each such pass down to ``tol``),
    every sample and class is active again; the fit stops after a pass over all
    of them whose violation is below ``tol``.

    Parameters
    ----------
    X, indptr, indices, data, bias, d : the rows, dense or CSR with a virtual
    intercept column (as :func:`dual_coordinate_descent` takes them);
    y : intp (n,) class indices;
    C : float64 (n,) per-sample C; tol : float; max_iter : passes;
    seed : int for the visiting order; W : float64 (K, d) zeros, output;
    alpha : float64 (n, K) zeros, output.

    Returns
    -------
    (passes, converged)
    """
    n = y.shape[0]
    K = W.shape[0]
    state = np.empty(1, dtype=np.uint64)
    state[0] = np.uint64(seed) * np.uint64(2654435761) + np.uint64(88172645463325252)
    index = np.arange(n)
    sqnorm = np.empty(n)
    for i in range(n):
        sqnorm[i] = _row_sq_norm(X, indptr, indices, data, bias, i)
    slots = np.empty((n, K), dtype=np.intp)
    for i in range(n):
        for m in range(K):
            slots[i, m] = m
    n_active = np.full(n, K, dtype=np.intp)
    label_slot = y.copy()
    G = np.empty(K)
    B = np.empty(K)
    D = np.empty(K)
    beta = np.empty(K)
    active = n
    eps_shrink = max(10.0 * tol, 1.0)
    from_all = True
    passes = 0
    while passes < max_iter:
        passes += 1
        shuffle(index, active, state)
        worst = -np.inf
        s = 0
        while s < active:
            i = index[s]
            if indptr is not None:  # prefetch hints (see _ROWS_AHEAD)
                if s + _INDPTR_AHEAD < active:
                    prefetch1(indptr, index[s + _INDPTR_AHEAD])
                if s + _ROWS_AHEAD < active:
                    ahead = index[s + _ROWS_AHEAD]
                    start = indptr[ahead]
                    stop = indptr[ahead + 1]
                    for q in range(start, stop, 8):
                        prefetch1(data, q)
                    for q in range(start, stop, 16):
                        prefetch1(indices, q)
            A = sqnorm[i]
            if A == 0.0:
                s += 1
                continue
            k = n_active[i]
            label = label_slot[i]
            ci = C[i]
            for m in range(k):
                G[m] = (0.0 if m == label else 1.0) + _row_dot(X, indptr, indices, data, bias,
                                                                i, W[slots[i, m]])
            gmax = -np.inf
            gmin = np.inf
            for m in range(k):
                if G[m] > gmax:
                    gmax = G[m]
                cm = ci if m == label else 0.0
                if alpha[i, slots[i, m]] < cm and G[m] < gmin:
                    gmin = G[m]
            k, label = _shrink_classes(alpha[i], slots[i], G, label, ci, gmin, k)
            n_active[i] = k
            label_slot[i] = label
            if k <= 1:
                active -= 1
                index[s], index[active] = index[active], index[s]
                continue
            s += 1
            violation = gmax - gmin
            if violation <= 1e-12:
                continue
            if violation > worst:
                worst = violation
            for m in range(k):
                B[m] = G[m] - A * alpha[i, slots[i, m]]
            _crammer_singer_subproblem(B, A, label, ci, D, beta, k)
            for m in range(k):
                cls = slots[i, m]
                delta = beta[m] - alpha[i, cls]
                if delta != 0.0:
                    alpha[i, cls] = beta[m]
                    _row_axpy(X, indptr, indices, data, bias, i, delta, W[cls])
        if worst < eps_shrink:
            if worst < tol and from_all:
                return passes, True
            active = n
            n_active[:] = K
            eps_shrink = max(eps_shrink / 2.0, tol)
            from_all = True
        else:
            from_all = False
    return passes, False


@njit(cache=True, nogil=True)
def row_nonzeros(X):
    """CSR ``indptr`` of the non-zero entries of C-contiguous float64 X (one pass)."""
    n, d = X.shape
    indptr = np.empty(n + 1, dtype=np.int64)
    indptr[0] = 0
    for i in range(n):
        count = 0
        for j in range(d):
            count += X[i, j] != 0.0
        indptr[i + 1] = indptr[i] + count
    return indptr


@njit(cache=True, nogil=True)
def dense_to_csr(X, indptr):
    """CSR (indices, data) of the non-zero entries of C-contiguous float64 X, row by
    row in column order, placed by ``indptr`` (:func:`row_nonzeros`)."""
    n, d = X.shape
    indices = np.empty(indptr[n], dtype=np.int32)
    data = np.empty(indptr[n])
    for i in range(n):
        q = indptr[i]
        for j in range(d):
            v = X[i, j]
            if v != 0.0:
                indices[q] = j
                data[q] = v
                q += 1
    return indices, data
