"""numba kernel of Lawson and Hanson's non-negative least squares (NNLS; Lawson and
Hanson, *Solving Least Squares Problems*, 1974, chapter 23).

:func:`lawson_hanson` minimises ``||A x - b||`` over ``x >= 0`` by the active-set
algorithm of the book, step for step as scipy's ``optimize.nnls`` (which
scikit-learn's ``LinearRegression(positive=True)`` calls) takes it: the same choice of
the entering column (the largest dual coefficient, the first on ties), the same test
of its independence, the same order of the variables and the same iteration limit.
When the solution is not unique (more features than rows, a residual of zero), the
one reached is therefore the one scikit-learn reports.

A is held by columns (``cols[j]`` is column j, contiguous), and each entering column's
Householder reflection is applied to every column still at zero in one pass that also
takes that column's next dual coefficient; those columns are independent, so the pass
runs in lanes of columns on numba's threads when it is large enough.
"""

import math

import numpy as np

from .._kernels.jit import njit, prange

# a sum of squares outside [_TINY, _HUGE] is taken again with scaled entries
_TINY = 1e-290
_HUGE = 1e290
# independence test of an entering column: its new diagonal element must exceed this
# many spacings of the norm of the part above it (the book's test, as scipy's)
_INDEPENDENCE_SPACINGS = 100.0


@njit(cache=True, nogil=True, fastmath={"reassoc", "contract"})
def _dot(u, v, lo, hi):
    """``u[lo:hi] . v[lo:hi]``, summed in SIMD lanes.

    The loops of these kernels run over slices from index 0: an index that starts at a
    run-time ``lo`` could be negative as far as numba knows, and its wrap-around test
    on every access keeps LLVM from vectorising the loop."""
    a = u[lo:hi]
    c = v[lo:hi]
    total = 0.0
    for i in range(a.shape[0]):
        total += a[i] * c[i]
    return total


@njit(cache=True, nogil=True)
def _norm(u, lo, hi):
    """Euclidean norm of ``u[lo:hi]``, rescaled where the squares over- or underflow."""
    ss = _dot(u, u, lo, hi)
    if _TINY <= ss <= _HUGE or ss == 0.0 and hi <= lo:
        return math.sqrt(ss)
    scale = 0.0
    for i in range(lo, hi):
        scale = max(scale, abs(u[i]))
    if scale == 0.0 or not math.isfinite(scale):
        return scale
    ss = 0.0
    for i in range(lo, hi):
        t = u[i] / scale
        ss += t * t
    return scale * math.sqrt(ss)


@njit(cache=True, nogil=True, fastmath={"reassoc", "contract"})
def _reflect(c, v, tau, lo, b):
    """``c[lo:m] = (I - tau u u') c[lo:m]`` for ``u = (1, v[lo+1:m])``; returns the
    new ``c[lo+1:m] . b[lo+1:m]`` (the column's next dual coefficient), summed as the
    entries are updated."""
    m = b.shape[0]
    t = tau * (c[lo] + _dot(v, c, lo + 1, m))
    c[lo] -= t
    below = c[lo + 1:m]
    u = v[lo + 1:m]
    rhs = b[lo + 1:m]
    dual = 0.0
    for i in range(below.shape[0]):
        below[i] -= t * u[i]
        dual += below[i] * rhs[i]
    return dual


@njit(cache=True, nogil=True)
def _reflect_range(cols, order, first, last, j, tau, lo, b, w):
    """Reflect the columns ``order[first:last]`` by column j's reflection at row ``lo``
    and take each one's dual coefficient on the rows below ``lo``."""
    v = cols[j]
    for k in range(first, last):
        w[order[k]] = _reflect(cols[order[k]], v, tau, lo, b)


@njit(cache=True, nogil=True, parallel=True)
def _reflect_lanes(cols, order, first, j, tau, lo, b, w, n_lanes):
    """:func:`_reflect_range` over ``order[first:]`` in ``n_lanes`` lanes of columns."""
    count = order.shape[0] - first
    for lane in prange(n_lanes):
        _reflect_range(cols, order, first + lane * count // n_lanes,
                       first + (lane + 1) * count // n_lanes, j, tau, lo, b, w)


@njit(cache=True, nogil=True)
def _duals(cols, order, first, b, w):
    """Dual coefficients ``w[j] = cols[j][first:] . b[first:]`` of the zero set."""
    m = b.shape[0]
    for k in range(first, order.shape[0]):
        w[order[k]] = _dot(cols[order[k]], b, first, m)


@njit(cache=True, nogil=True)
def _back_substitute(cols, order, size, b, z):
    """``z[:size]`` solving the triangular system of the set's columns (row i of the
    triangle in the ``order[i]``-th column) with right-hand side ``b[:size]``."""
    for i in range(size):
        z[i] = b[i]
    for k in range(size):
        ip = size - 1 - k
        if k != 0:
            prev = cols[order[ip + 1]]
            for i in range(ip + 1):
                z[i] -= prev[i] * z[ip + 1]
        z[ip] /= cols[order[ip]][ip]


@njit(cache=True, nogil=True)
def _entering_reflection(c, size, m):
    """Householder reflection taking ``c[size:m]`` to ``(beta, 0, ...)`` with
    ``beta >= 0``: returns ``(beta, tau, v0)`` where the reflection is
    ``I - tau u u'``, ``u = (1, c[size+1:m] / v0)`` (``v0 = 0``: the identity or a sign
    flip of the first entry, nothing to scale)."""
    x0 = c[size]
    tail = _norm(c, size + 1, m)
    if tail == 0.0:
        if x0 >= 0.0:
            return x0, 0.0, 0.0
        return -x0, 2.0, 0.0
    beta = math.hypot(x0, tail)
    # v0 = x0 - beta, without cancellation when x0 > 0
    v0 = x0 - beta if x0 <= 0.0 else -(tail / (x0 + beta)) * tail
    return beta, -v0 / beta, v0


@njit(cache=True, nogil=True)
def _rotate(c, rotations, lo, count):
    """Apply the first ``count`` Givens rotations of ``rotations`` (cosines in row 0,
    sines in row 1), the q-th to the entries ``lo + q`` and ``lo + q + 1`` of c."""
    seg = c[lo:lo + count + 1]
    for q in range(count):
        cc = rotations[0, q]
        ss = rotations[1, q]
        top = seg[q]
        seg[q] = cc * top + ss * seg[q + 1]
        seg[q + 1] = -ss * top + cc * seg[q + 1]


@njit(cache=True, nogil=True)
def _rotate_range(cols, order, first, last, rotations, lo, count):
    for k in range(first, last):
        _rotate(cols[order[k]], rotations, lo, count)


@njit(cache=True, nogil=True, parallel=True)
def _rotate_lanes(cols, order, first, rotations, lo, count, n_lanes):
    """:func:`_rotate_range` over ``order[first:]`` in ``n_lanes`` lanes of columns."""
    total = order.shape[0] - first
    for lane in prange(n_lanes):
        _rotate_range(cols, order, first + lane * total // n_lanes,
                      first + (lane + 1) * total // n_lanes, rotations, lo, count)


@njit(cache=True, nogil=True)
def _drop_from_set(cols, order, b, x, size, jj, rotations, lane_work, n_lanes):
    """Move the variable at position ``jj`` of the set of ``size`` to the zero set;
    returns the new size.

    The triangle is restored by Givens rotations of the rows ``jj..size-1``, the q-th
    zeroing the subdiagonal entry of the set's column that moves from position
    ``jj + q + 1`` to ``jj + q``, and applied to every column and to b. Each column
    takes the rotations in that order, so they are applied a column at a time (the
    set's later columns as each rotation is formed, the rest after): contiguous
    entries, and the zero set in lanes. The columns before position ``jj`` hold
    zeros in those rows and are left alone."""
    i = order[jj]
    x[i] = 0.0
    count = size - 1 - jj
    for q in range(count):
        ii = order[jj + q + 1]
        order[jj + q] = ii
        c = cols[ii]
        _rotate(c, rotations, jj, q)
        f = c[jj + q]
        g = c[jj + q + 1]
        r = math.hypot(f, g)
        rotations[0, q] = f / r if r != 0.0 else 1.0
        rotations[1, q] = g / r if r != 0.0 else 0.0
        c[jj + q] = r
        c[jj + q + 1] = 0.0
    order[size - 1] = i
    _rotate(b, rotations, jj, count)
    p, m = cols.shape
    if n_lanes > 1 and (count + 1) * (p - size + 1) * 4 >= lane_work:
        _rotate_lanes(cols, order, size - 1, rotations, jj, count, n_lanes)
    else:
        _rotate_range(cols, order, size - 1, p, rotations, jj, count)
    return size - 1


@njit(cache=True, nogil=True)
def lawson_hanson(cols, b, max_iter, lane_work, n_lanes):
    """Non-negative least squares ``min ||A x - b||, x >= 0`` (Lawson and Hanson).

    Parameters
    ----------
    cols : float64 array (p, m), C-contiguous
        The columns of A (m x p), one per row; overwritten by the algorithm's
        transformed columns.
    b : float64 array (m,)
        Overwritten by the transformed right-hand side.
    max_iter : int
        Limit on the iterations of the inner loop (scipy's default: ``3 p``).
    lane_work : int
        Entries of a reflection pass from which it runs in lanes.
    n_lanes : int
        Lanes of such a pass (1: always on this thread).

    Returns
    -------
    x : float64 array (p,)
    converged : bool
        False when ``max_iter`` was reached.
    """
    p, m = cols.shape
    x = np.zeros(p)
    w = np.zeros(p)
    z = np.zeros(max(m, 1))
    order = np.arange(p)
    rotations = np.empty((2, max(m, 1)))
    size = 0
    iteration = 0
    stale_duals = True
    while size < min(m, p):
        if stale_duals:
            _duals(cols, order, size, b, w)
        # the entering column: the largest positive dual coefficient whose column is
        # independent of the set's and whose new coefficient comes out positive
        while True:
            wmax = 0.0
            at = 0
            for k in range(size, p):
                if w[order[k]] > wmax:
                    wmax = w[order[k]]
                    at = k
            if wmax <= 0.0:
                return x, True
            j = order[at]
            c = cols[j]
            above = _norm(c, np.intp(0), size)
            spacing = np.nextafter(above, 2.0 * above) - above if above > 0.0 else 0.0
            if _norm(c, size, m) > _INDEPENDENCE_SPACINGS * spacing:
                beta, tau, v0 = _entering_reflection(c, size, m)
                # the reflection's vector below row `size` is c / v0 (zero when v0 is)
                scale = 1.0 / v0 if v0 != 0.0 else 0.0
                vb = 0.0
                for i in range(size + 1, m):
                    vb += c[i] * scale * b[i]
                tauvtb = tau * (b[size] + vb)
                if (b[size] - tauvtb) / beta > 0.0:
                    break
            w[j] = 0.0
        # accept column j: store its reflection, apply it to b and to the zero set
        b[size] -= tauvtb
        for i in range(size + 1, m):
            c[i] *= scale
            b[i] -= tauvtb * c[i]
        order[at] = order[size]
        order[size] = j
        size += 1
        if size < p:
            if n_lanes > 1 and (m - size + 1) * (p - size) >= lane_work:
                _reflect_lanes(cols, order, size, j, tau, size - 1, b, w, n_lanes)
            else:
                _reflect_range(cols, order, size, p, j, tau, size - 1, b, w)
        c[size - 1] = beta
        for i in range(size, m):
            c[i] = 0.0
        w[j] = 0.0
        stale_duals = False
        _back_substitute(cols, order, size, b, z)
        # inner loop: step back towards the last feasible point while the new
        # coefficients are not all positive
        while True:
            iteration += 1
            if iteration >= max_iter:
                return x, False
            alpha = 2.0
            leaving = 0
            for ip in range(size):
                if z[ip] <= 0.0:
                    xk = x[order[ip]]
                    t = -xk / (z[ip] - xk)
                    if alpha > t:
                        alpha = t
                        leaving = ip
            if alpha == 2.0:
                break
            for ip in range(size):
                k = order[ip]
                x[k] += alpha * (z[ip] - x[k])
            size = _drop_from_set(cols, order, b, x, size, leaving, rotations,
                                  lane_work, n_lanes)
            # round-off may leave other coefficients of the set at or below zero
            ip = 0
            while ip < size:
                if x[order[ip]] <= 0.0:
                    size = _drop_from_set(cols, order, b, x, size, ip, rotations,
                                          lane_work, n_lanes)
                    ip = 0
                else:
                    ip += 1
            stale_duals = True
            _back_substitute(cols, order, size, b, z)
        for ip in range(size):
            x[order[ip]] = z[ip]
    return x, True
