"""numba kernels of the squared loss on implicitly centred dense X (seed 000 §7).

One pass over the rows ``lo:hi`` forms the residuals ``r_i = (x_i - m).w - (y_i - c)``
and, from each row while it is in cache, ``(X - m)'(sw r)``: the value and gradient of
``1/2 sum sw_i r_i^2`` that L-BFGS-B asks for at every step, where two matrix-vector
products would read X twice. X is centred entry by entry as it is read (the rounding
of a centred copy, without the copy). The ``_lanes`` version runs fixed row lanes in
numba's threads, each into its own buffer (the caller adds them in order).
"""

from .._kernels.jit import njit, prange

# Reassociation and FMA contraction only (the logistic kernels' setting): the dot
# product and the update vectorise; the compiled order is fixed, so results do not
# change from run to run.
_FAST = {"reassoc", "contract"}


@njit(cache=True, nogil=True, error_model="numpy", fastmath=_FAST)
def squared_loss_grad(X, m, w, y, c, sw, lo, hi, grad):
    """Half the weighted sum of squared centred residuals over the rows ``lo:hi`` of X,
    and its gradient.

    Rows are taken four at a time: their four dot products share each load of ``w``
    and ``m``, and one pass over ``grad`` adds their four terms.

    Parameters
    ----------
    X : float64 (n, p) C-contiguous; m : float64 (p,) X's centre; w : float64 (p,);
    y : float64 (n,); c : float, y's centre; sw : float64 (n,) weights;
    lo, hi : int, the rows;
    grad : float64 (p,) output: ``sum sw_i r_i (x_i - m)`` over these rows.

    Returns
    -------
    float, ``1/2 sum sw_i r_i^2`` over these rows.
    """
    p = X.shape[1]
    for j in range(p):
        grad[j] = 0.0
    total = 0.0
    i = lo
    while i + 4 <= hi:
        x0 = X[i]
        x1 = X[i + 1]
        x2 = X[i + 2]
        x3 = X[i + 3]
        z0 = 0.0
        z1 = 0.0
        z2 = 0.0
        z3 = 0.0
        for j in range(p):
            wj = w[j]
            mj = m[j]
            z0 += (x0[j] - mj) * wj
            z1 += (x1[j] - mj) * wj
            z2 += (x2[j] - mj) * wj
            z3 += (x3[j] - mj) * wj
        r0 = z0 - (y[i] - c)
        r1 = z1 - (y[i + 1] - c)
        r2 = z2 - (y[i + 2] - c)
        r3 = z3 - (y[i + 3] - c)
        g0 = sw[i] * r0
        g1 = sw[i + 1] * r1
        g2 = sw[i + 2] * r2
        g3 = sw[i + 3] * r3
        total += (g0 * r0 + g1 * r1) + (g2 * r2 + g3 * r3)
        for j in range(p):
            mj = m[j]
            grad[j] += (g0 * (x0[j] - mj) + g1 * (x1[j] - mj)) + (
                g2 * (x2[j] - mj) + g3 * (x3[j] - mj))
        i += 4
    while i < hi:
        xi = X[i]
        z = 0.0
        for j in range(p):
            z += (xi[j] - m[j]) * w[j]
        r = z - (y[i] - c)
        g = sw[i] * r
        total += g * r
        for j in range(p):
            grad[j] += g * (xi[j] - m[j])
        i += 1
    return 0.5 * total


@njit(cache=True, nogil=True, parallel=True)
def squared_loss_grad_lanes(X, m, w, y, c, sw, bounds, parts, totals):
    """:func:`squared_loss_grad` over the lanes of rows ``bounds[l]:bounds[l + 1]`` in
    numba's threads, lane ``l`` into ``parts[l]`` and ``totals[l]``."""
    for lane in prange(parts.shape[0]):
        totals[lane] = squared_loss_grad(X, m, w, y, c, sw, bounds[lane], bounds[lane + 1],
                                         parts[lane])
