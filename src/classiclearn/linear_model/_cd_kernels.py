"""numba kernels for elastic-net coordinate descent (seed 000 §7).

Two forms of the same cyclic / randomised coordinate descent on

    1/2 w'Gw - q'w + 1/2 yy + l1 * sum_j pf_j |w_j| + l2/2 * sum_j pf_j w_j^2

- :func:`enet_cd_gram` works on the Gram matrix ``G = X'X`` and ``q = X'y``:
  one epoch costs O(p^2) whatever the number of samples, which is what makes
  the solver fast when n >> p, and a regularisation path shares ``G``;
- :func:`enet_cd_data` works on X (Fortran-ordered, see
  :func:`center_to_fortran`) and a residual vector, O(n p) per epoch.

Both stop on the duality gap of the elastic-net problem (when ``yy >= 0``)
or, when ``yy < 0`` is passed (a generic quadratic, e.g. a Newton step of
logistic regression), on the largest scaled coefficient change. They write
only into ``w`` (and ``H`` / ``R``), which the caller owns.
"""

import math

import numpy as np

from .._kernels.jit import njit


@njit(cache=True, nogil=True)
def soft_threshold(x, t):
    """The L1 proximal step: ``x`` shrunk towards zero by ``t``."""
    if x > t:
        return x - t
    if x < -t:
        return x + t
    return 0.0


@njit(cache=True, nogil=True)
def enet_gap(w, xtr, r_norm2, ry, l1, l2, pf, positive):
    """Duality gap of the elastic-net problem from residual quantities.

    ``xtr = X'r`` (length p), ``r_norm2 = r'r``, ``ry = r'y`` for the residual
    ``r = y - Xw``. Returns the gap (>= 0 up to rounding).
    """
    p = w.shape[0]
    l1norm = 0.0
    l2norm = 0.0
    dual_norm = 0.0
    for j in range(p):
        l1norm += pf[j] * abs(w[j])
        l2norm += pf[j] * w[j] * w[j]
        if pf[j] <= 0.0:
            continue
        xta = xtr[j] - l2 * pf[j] * w[j]
        v = xta / pf[j] if positive else abs(xta) / pf[j]
        if v > dual_norm:
            dual_norm = v
    if r_norm2 < 0.0:
        r_norm2 = 0.0
    if dual_norm > l1:
        const = l1 / dual_norm
        gap = 0.5 * (r_norm2 + r_norm2 * const * const)
    else:
        const = 1.0
        gap = r_norm2
    gap += l1 * l1norm - const * ry + 0.5 * l2 * (1.0 + const * const) * l2norm
    return gap


@njit(cache=True, nogil=True)
def enet_gap_gram(w, G_w, q, yy, l1, l2, pf, positive):
    """Duality gap from Gram quantities: ``G_w = G @ w``, ``q = X'y``, ``yy = y'y``."""
    p = w.shape[0]
    wq = 0.0
    wGw = 0.0
    for j in range(p):
        wq += w[j] * q[j]
        wGw += w[j] * G_w[j]
    return enet_gap(w, q - G_w, yy - 2.0 * wq + wGw, yy - wq, l1, l2, pf, positive)


@njit(cache=True, nogil=True)
def enet_cd_gram(w, G, q, yy, l1, l2, pf, positive, max_iter, tol, orders, dw_tol):
    """Coordinate descent on the Gram form; updates ``w`` in place.

    Parameters
    ----------
    w : float64 (p,), start point, overwritten with the solution.
    G : float64 (p, p) C-contiguous, exactly symmetric positive semi-definite
        (column j is read as the contiguous row j).
    q : float64 (p,).
    yy : float, ``y'y`` (>= 0) for duality-gap stopping, or < 0 for
        coefficient-change stopping.
    l1, l2 : float, penalty strengths; pf : float64 (p,) penalty factors.
    positive : bool, constrain w >= 0.
    max_iter : int, epochs; tol : float, absolute gap (or change) tolerance.
    orders : intp (m, p), coordinate order of epoch e is ``orders[e % m]``.
    dw_tol : float, with gap stopping: the largest coefficient change of an epoch
        relative to the largest coefficient below which the gap is checked (as
        scikit-learn does; the gap is also checked after the last epoch). The gap
        test alone, with its tolerance in units of ``y'y``, can stop far from the
        optimum when the fit explains nearly all of ``y``.

    Returns
    -------
    (n_iter, gap)
    """
    p = w.shape[0]
    H = G @ w
    gap = np.inf
    n_iter = 0
    m = orders.shape[0]
    for epoch in range(max_iter):
        n_iter = epoch + 1
        order = orders[epoch % m]
        w_max = 0.0
        d_max = 0.0
        raw_w_max = 0.0
        raw_d_max = 0.0
        for jj in range(p):
            j = order[jj]
            gjj = G[j, j]
            if gjj == 0.0 and l2 * pf[j] == 0.0:
                continue
            wj = w[j]
            rho = q[j] - H[j] + gjj * wj
            if positive and rho < 0.0:
                new = 0.0
            else:
                new = soft_threshold(rho, l1 * pf[j]) / (gjj + l2 * pf[j])
            if new != wj:
                d = new - wj
                for k in range(p):
                    H[k] += G[j, k] * d
                w[j] = new
                raw_d_max = max(raw_d_max, abs(d))
                ad = abs(d) * math.sqrt(gjj) if gjj > 0.0 else abs(d)
                if ad > d_max:
                    d_max = ad
            raw_w_max = max(raw_w_max, abs(w[j]))
            aw = abs(w[j]) * math.sqrt(gjj) if gjj > 0.0 else abs(w[j])
            if aw > w_max:
                w_max = aw
        if yy >= 0.0:
            settled = raw_w_max == 0.0 or raw_d_max <= dw_tol * raw_w_max
            if settled or epoch == max_iter - 1:
                gap = enet_gap_gram(w, H, q, yy, l1, l2, pf, positive)
                if gap <= tol:
                    break
        else:
            gap = d_max
            if d_max <= tol * max(w_max, 1.0):
                break
    return n_iter, gap


# Reassociation and FMA contraction only (no "nnan" / "ninf" assumptions, so
# infinities and NaN keep their IEEE meaning), for a vectorised dot product.
# The compiled order is fixed: same result on every run.
_FAST = {"reassoc", "contract"}


@njit(cache=True, nogil=True, fastmath=_FAST)
def _col_dot(X, j, v):
    """``X[:, j] . v`` for a Fortran-ordered X (contiguous column)."""
    s = 0.0
    for i in range(X.shape[0]):
        s += X[i, j] * v[i]
    return s


@njit(cache=True, nogil=True, fastmath=_FAST)
def _axpy_dot(X, jp, dp, k, R):
    """``R -= dp * X[:, jp]`` then return ``X[:, k] . R``, in one pass."""
    s = 0.0
    for i in range(X.shape[0]):
        ri = R[i] - dp * X[i, jp]
        R[i] = ri
        s += X[i, k] * ri
    return s


@njit(cache=True, nogil=True, fastmath=_FAST)
def _axpy(X, jp, dp, R):
    for i in range(X.shape[0]):
        R[i] -= dp * X[i, jp]


# the data-form solvers cycle the active set alone when at most 1 / _ACTIVE_SHARE of
# the coefficients are non-zero (with half of them non-zero, the extra epochs of the
# active phases cost more than they save)
_ACTIVE_SHARE = 4


@njit(cache=True, nogil=True)
def _end_of_epoch(full, w_max, d_max, dw_tol, visited, changed, nonzero, passes, max_iter,
                  order, w, active, n_active, final=True):
    """The data-form solvers' bookkeeping after an epoch (see :func:`enet_cd_data`'s
    Notes); the gap is checked after the last epoch only when it is ``final``.

    Returns (check the gap, the epoch's products are X'r at the final r, the next epoch
    is full, the active list's length, passes so far)."""
    p = w.shape[0]
    settled = w_max == 0.0 or d_max / w_max <= dw_tol
    passes += 1.0 if full else min(1.0, (visited + changed) / p)
    check = (full and settled) or (final and passes >= max_iter)
    # a full epoch that changed nothing computed every X_j'r at the final r
    exact = full and changed == 0
    if full and nonzero * _ACTIVE_SHARE <= p:
        # the non-zero coordinates alone while they are few, in this epoch's order
        n_active = 0
        for jj in range(order.shape[0]):
            j = order[jj]
            if w[j] != 0.0:
                active[n_active] = j
                n_active += 1
        full = False
    elif not full:
        full = settled  # the active set settled: a full epoch lets a zero one enter
    return check, exact, full, n_active, passes


@njit(cache=True, nogil=True)
def enet_cd_data(w, X, y, col_sq, l1, l2, positive, max_iter, dw_tol, tol, orders,
                 final=True):
    """Coordinate descent on the data form (all penalty factors 1).

    Parameters
    ----------
    w : float64 (p,), start point, overwritten.
    X : float64 (n, p) Fortran-contiguous (columns are contiguous).
    y : float64 (n,).
    col_sq : float64 (p,), squared norms of the columns of X.
    l1, l2, positive, max_iter, orders : as :func:`enet_cd_gram`.
    dw_tol : float, relative coefficient change below which the gap is checked.
    tol : float, absolute duality-gap tolerance.
    final : bool, whether the fit ends after ``max_iter`` epochs: the gap is then
        computed after the last one. Else (a budget, the solve goes on in another
        form) the last gap computed is returned (inf if none), so a gap test passed
        without the coefficients settling does not end the solve.

    Returns
    -------
    (n_iter, gap)

    Notes
    -----
    The residual update of a coordinate is deferred and fused with the
    product of the next coordinate (one pass over the residual instead of
    two).

    The epochs cycle the active set as glmnet does: after a full epoch (every
    coordinate) that leaves at most a quarter of the coefficients non-zero and
    does not end the fit, the epochs visit only the non-zero coefficients (a list made
    then, in that epoch's order) until their largest relative change is below
    ``dw_tol``, and a full epoch follows, which lets a zero coefficient enter. The duality gap is
    checked only after a full epoch that settled (a settled active phase says
    nothing about the zero coefficients), so the solution meets the gap test of
    the plain cyclic algorithm, while the epochs of the active phases pass over
    the active columns alone. The active set takes more epochs to converge than
    the plain cycle (some three times as many on 500 x 5,000), each a fraction of
    a full one: an active epoch counts towards ``max_iter`` and ``n_iter`` as the
    columns it visits plus those it updates (an update is a second pass over its
    column) over p, a full epoch as 1, so both bound the passes over X.
    """
    n, p = X.shape
    R = y.copy()
    for j in range(p):
        if w[j] != 0.0:
            _axpy(X, j, w[j], R)
    pf = np.ones(p)
    xtr = np.empty(p)
    gap = np.inf
    m = orders.shape[0]
    jp = -1
    dp = 0.0
    full = True
    active = np.empty(p, dtype=np.intp)
    n_active = 0
    passes = 0.0  # epochs counted by the share of the columns they visit
    epoch = 0
    while passes < max_iter:
        order = orders[epoch % m]
        epoch += 1
        visited = 0
        changed = 0
        nonzero = 0
        w_max = 0.0
        d_max = 0.0
        for jj in range(p if full else n_active):
            j = order[jj] if full else active[jj]
            if col_sq[j] == 0.0 or (not full and w[j] == 0.0):
                continue
            visited += 1
            wj = w[j]
            if jp >= 0:
                dot = _axpy_dot(X, jp, dp, j, R)
                jp = -1
            else:
                dot = _col_dot(X, j, R)
            xtr[j] = dot
            rho = dot + col_sq[j] * wj
            if positive and rho < 0.0:
                new = 0.0
            else:
                new = soft_threshold(rho, l1) / (col_sq[j] + l2)
            if new != wj:
                changed += 1
                d = new - wj
                jp = j
                dp = d
                w[j] = new
                if abs(d) > d_max:
                    d_max = abs(d)
            if w[j] != 0.0:
                nonzero += 1
                if abs(w[j]) > w_max:
                    w_max = abs(w[j])
        check, exact, full, n_active, passes = _end_of_epoch(
            full, w_max, d_max, dw_tol, visited, changed, nonzero, passes, max_iter, order,
            w, active, n_active, final)
        if check:
            if jp >= 0:
                _axpy(X, jp, dp, R)
                jp = -1
            for j in range(p):
                if col_sq[j] == 0.0:
                    xtr[j] = 0.0
                elif not exact:
                    xtr[j] = _col_dot(X, j, R)
            r_norm2 = 0.0
            ry = 0.0
            for i in range(n):
                r_norm2 += R[i] * R[i]
                ry += R[i] * y[i]
            gap = enet_gap(w, xtr, r_norm2, ry, l1, l2, pf, positive)
            if gap <= tol:
                break
    return min(int(math.ceil(passes)), max_iter), gap


# center_to_fortran's tiles: columns by rows (a tile of X, 128 KB, stays in cache while
# its columns are written out one after another)
_TILE_COLUMNS = 32
_TILE_ROWS = 512


@njit(cache=True, nogil=True)
def center_to_fortran(X, x_mean, root_w, out, col_sq):
    """``out[i, j] = (X[i, j] - x_mean[j]) * root_w[i]``; ``col_sq[j] = ||out[:, j]||^2``.

    X C-contiguous (n, p); out Fortran-contiguous (n, p), written; root_w
    float64 (n,) (ones for no weights); col_sq float64 (p,), written.
    The copy goes tile by tile (:data:`_TILE_COLUMNS` columns by :data:`_TILE_ROWS` rows),
    a column of the tile at a time: the writes run down ``out``'s contiguous column and
    the strided reads stay within the cached tile (writing rows of the tile instead,
    scattered over as many columns, took several times as long). Each column is
    summed in row order.
    """
    n, p = X.shape
    for j in range(p):
        col_sq[j] = 0.0
    for j0 in range(0, p, _TILE_COLUMNS):
        j1 = min(p, j0 + _TILE_COLUMNS)
        for i0 in range(0, n, _TILE_ROWS):
            i1 = min(n, i0 + _TILE_ROWS)
            for j in range(j0, j1):
                mean = x_mean[j]
                acc = 0.0
                for i in range(i0, i1):
                    v = (X[i, j] - mean) * root_w[i]
                    out[i, j] = v
                    acc += v * v
                col_sq[j] += acc


_N_CHUNKS = 8


@njit(cache=True, nogil=True, fastmath=_FAST)
def _moments_rows(X, Y, lo, hi, s, q):
    p = X.shape[1]
    t = Y.shape[1]
    for i in range(lo, hi):
        x = X[i]
        for j in range(p):
            s[j] += x[j]
        for k in range(t):
            yk = Y[i, k]
            qk = q[k]
            for j in range(p):
                qk[j] += x[j] * yk


@njit(cache=True, nogil=True, fastmath=_FAST)
def column_moments(X, Y):
    """Column sums of X and ``X' Y`` in one row-wise pass over a C-ordered X.

    X float64 (n, p) C-contiguous; Y float64 (n, t) C-contiguous. Rows are
    cut into a fixed number of chunks whose partial results are added in
    order (shorter accumulation chains than one running sum).

    Returns
    -------
    sums : float64 (p,); XtY : float64 (p, t)
    """
    n, p = X.shape
    t = Y.shape[1]
    S = np.zeros((_N_CHUNKS, p))
    Q = np.zeros((_N_CHUNKS, t, p))
    for c in range(_N_CHUNKS):
        _moments_rows(X, Y, c * n // _N_CHUNKS, (c + 1) * n // _N_CHUNKS, S[c], Q[c])
    sums = np.zeros(p)
    XtY = np.zeros((p, t))
    for c in range(_N_CHUNKS):
        for j in range(p):
            sums[j] += S[c, j]
        for k in range(t):
            for j in range(p):
                XtY[j, k] += Q[c, k, j]
    return sums, XtY


@njit(cache=True, nogil=True, fastmath=_FAST)
def moments_to_float32(X, Y, lo, hi, shift, out):
    """Rows ``lo:hi`` of X: column sums, ``X' Y`` and ``X - shift`` in float32.

    X float64 (n, p) C-contiguous; Y float64 (n, t) C-contiguous; shift
    float64 (p,); out float32 (>= hi - lo, p) C-contiguous, its first
    ``hi - lo`` rows written. The sums are of X itself, in float64.

    Returns
    -------
    sums : float64 (p,); XtY : float64 (p, t)
    """
    p = X.shape[1]
    t = Y.shape[1]
    s = np.zeros(p)
    q = np.zeros((t, p))
    for i in range(lo, hi):
        x = X[i]
        o = out[i - lo]
        for j in range(p):
            s[j] += x[j]
            o[j] = np.float32(x[j] - shift[j])
        for k in range(t):
            yk = Y[i, k]
            qk = q[k]
            for j in range(p):
                qk[j] += x[j] * yk
    return s, q.T.copy()


@njit(cache=True, nogil=True, fastmath=_FAST)
def residual_products(X, x_mean, y, w, lo, hi):
    """Exact residual quantities of rows ``lo:hi``, in float64, from the data.

    For ``r = y - (X - x_mean) w`` over the rows ``lo:hi`` returns
    ``(Xc' r (p,), r'r, r'y)``: what the duality gap needs, without the
    cancellation of the Gram form. X float64 (n, p) C-contiguous.
    """
    p = X.shape[1]
    g = np.zeros(p)
    xc = np.empty(p)
    rr = 0.0
    ry = 0.0
    for i in range(lo, hi):
        x = X[i]
        for j in range(p):
            xc[j] = x[j] - x_mean[j]
        # The reduction reads only (no store the compiler must check for
        # aliasing at run time), so its vectorised order never changes.
        d = 0.0
        for j in range(p):
            d += xc[j] * w[j]
        r = y[i] - d
        rr += r * r
        ry += r * y[i]
        for j in range(p):
            g[j] += xc[j] * r
    return g, np.array([rr]), np.array([ry])


@njit(cache=True, nogil=True)
def _sparse_col_dot(indptr, indices, S, j, v):
    s = 0.0
    for jj in range(indptr[j], indptr[j + 1]):
        s += S[jj] * v[indices[jj]]
    return s


@njit(cache=True, nogil=True)
def _sparse_centred_dot(indptr, indices, S, q, mu, j, R, c, T, W):
    """``A_j . r`` for ``A = diag(root) (X - 1 mu')`` and ``r = R + c root`` (see
    :func:`enet_cd_sparse`)."""
    return _sparse_col_dot(indptr, indices, S, j, R) + c * q[j] - mu[j] * (T + c * W)


@njit(cache=True, nogil=True)
def csc_weighted_sums(indptr, indices, S, root, q, squares):
    """Per CSC column j: ``q[j] = sum_i root_i S_ij`` and ``squares[j] = sum_i S_ij^2``
    over its stored entries (in one pass, in stored order)."""
    for j in range(indptr.shape[0] - 1):
        a = 0.0
        b = 0.0
        for t in range(indptr[j], indptr[j + 1]):
            v = S[t]
            a += root[indices[t]] * v
            b += v * v
        q[j] = a
        squares[j] = b


@njit(cache=True, nogil=True)
def sparse_centred_residual(indptr, indices, S, w, mu, B, root):
    """``r = B - A w`` for ``A = diag(root) (X - 1 mu')``, given ``S``, the CSC values
    of ``diag(root) X`` (see :func:`enet_cd_sparse`); only the columns with a
    non-zero coefficient are read."""
    r = B.copy()
    c = 0.0
    for j in range(w.shape[0]):
        wj = w[j]
        if wj != 0.0:
            for t in range(indptr[j], indptr[j + 1]):
                r[indices[t]] -= wj * S[t]
            c += wj * mu[j]
    if c != 0.0:
        for i in range(r.shape[0]):
            r[i] += c * root[i]
    return r


@njit(cache=True, nogil=True)
def enet_cd_sparse(w, indptr, indices, S, q, mu, B, root, col_sq, l1, l2, positive, max_iter,
                   dw_tol, tol, orders):
    """Coordinate descent on sparse data centred implicitly (all penalty factors 1).

    The problem is that of :func:`enet_cd_data` with ``A = diag(root) (X - 1 mu')``,
    given X in CSC form with its stored values scaled by the row weights'
    roots (``S``), never densified nor centred. The residual is kept as
    ``r = R + c root`` with ``R = B - sum_j w_j S_j`` (changed only on a
    column's stored rows), ``c = mu . w`` and ``T = root . R``, so a
    coordinate step costs O(nnz of its column).

    Parameters
    ----------
    w : float64 (p,), start point, overwritten.
    indptr, indices, S : CSC arrays of ``diag(root) X``.
    q : float64 (p,), ``root . S_j`` (the weighted column sums).
    mu : float64 (p,), the centring (zeros without intercept).
    B : float64 (n,), ``root * (y - y_mean)``.
    root : float64 (n,), square roots of the sample weights.
    col_sq : float64 (p,), ``||A_j||^2``.
    l1, l2, positive, max_iter, dw_tol, tol, orders : as :func:`enet_cd_data`.

    Returns
    -------
    (n_iter, gap)

    Notes
    -----
    The epochs cycle the active set, as those of :func:`enet_cd_data`.
    """
    p = w.shape[0]
    n = B.shape[0]
    W = 0.0
    for i in range(n):
        W += root[i] * root[i]
    R = B.copy()
    c = 0.0
    for j in range(p):
        if w[j] != 0.0:
            for jj in range(indptr[j], indptr[j + 1]):
                R[indices[jj]] -= w[j] * S[jj]
            c += w[j] * mu[j]
    T = 0.0
    for i in range(n):
        T += root[i] * R[i]
    rootB = 0.0
    for i in range(n):
        rootB += root[i] * B[i]
    pf = np.ones(p)
    xtr = np.empty(p)
    gap = np.inf
    m = orders.shape[0]
    full = True
    active = np.empty(p, dtype=np.intp)
    n_active = 0
    passes = 0.0  # epochs counted by the share of the columns they visit
    epoch = 0
    while passes < max_iter:
        order = orders[epoch % m]
        epoch += 1
        visited = 0
        changed = 0
        nonzero = 0
        w_max = 0.0
        d_max = 0.0
        for jj in range(p if full else n_active):
            j = order[jj] if full else active[jj]
            if col_sq[j] == 0.0 or (not full and w[j] == 0.0):
                continue
            visited += 1
            wj = w[j]
            dot = _sparse_centred_dot(indptr, indices, S, q, mu, j, R, c, T, W)
            xtr[j] = dot
            rho = dot + col_sq[j] * wj
            if positive and rho < 0.0:
                new = 0.0
            else:
                new = soft_threshold(rho, l1) / (col_sq[j] + l2)
            if new != wj:
                changed += 1
                d = new - wj
                for kk in range(indptr[j], indptr[j + 1]):
                    R[indices[kk]] -= d * S[kk]
                T -= d * q[j]
                c += d * mu[j]
                w[j] = new
                if abs(d) > d_max:
                    d_max = abs(d)
            if w[j] != 0.0:
                nonzero += 1
                if abs(w[j]) > w_max:
                    w_max = abs(w[j])
        check, exact, full, n_active, passes = _end_of_epoch(
            full, w_max, d_max, dw_tol, visited, changed, nonzero, passes, max_iter, order,
            w, active, n_active)
        if check:
            for j in range(p):
                if col_sq[j] == 0.0:
                    xtr[j] = 0.0
                elif not exact:
                    xtr[j] = _sparse_centred_dot(indptr, indices, S, q, mu, j, R, c, T, W)
            r_norm2 = 2.0 * c * T + c * c * W
            ry = c * rootB
            for i in range(n):
                r_norm2 += R[i] * R[i]
                ry += R[i] * B[i]
            gap = enet_gap(w, xtr, r_norm2, ry, l1, l2, pf, positive)
            if gap <= tol:
                break
    return min(int(math.ceil(passes)), max_iter), gap
