"""numba kernel of the L-BFGS search direction (Nocedal & Wright, Alg. 7.4).

The two-loop recursion, with the pass over the direction of one step fused
with the dot product of the next, so that each stored pair is read twice
and the direction ``k + 1`` times per loop (instead of ``2k``).
"""

from .jit import njit

# Reassociation and FMA contraction only, as in the logistic kernels: lets LLVM
# vectorise the dot products; the compiled order is fixed, so results do not
# change from run to run.
_FAST = {"reassoc", "contract"}


@njit(cache=True, nogil=True, error_model="numpy", fastmath=_FAST)
def lbfgs_direction(g, S, Y, rho, rows, gamma, alpha, d):
    """Write the quasi-Newton direction ``d = -H g`` (two-loop recursion).

    Parameters
    ----------
    g : float64 (n,) the gradient.
    S, Y : float64 (m, n) C-contiguous, the stored steps ``s = x+ - x`` and
        gradient changes ``y = g+ - g``.
    rho : float64 (m,), ``rho[r] = 1 / (S[r] . Y[r])``.
    rows : intp (k,) the rows of S, Y in use, oldest first (k may be 0).
    gamma : float, the initial inverse Hessian is ``gamma * I``.
    alpha : float64 (>= k,) scratch (overwritten).
    d : float64 (n,) output (must not share memory with g, S or Y).

    Writes d and alpha only (allocates nothing: the caller owns the scratch).
    """
    n = g.shape[0]
    k = rows.shape[0]
    for j in range(n):
        d[j] = -g[j]
    if k == 0:
        if gamma != 1.0:
            for j in range(n):
                d[j] *= gamma
        return
    # first loop, newest pair first: d <- d - alpha_i y_i, alpha_i = rho_i s_i . d
    r = rows[k - 1]
    s = S[r]
    acc = 0.0
    for j in range(n):
        acc += s[j] * d[j]
    a = rho[r] * acc
    for t in range(k - 1, 0, -1):
        alpha[t] = a
        y = Y[rows[t]]
        r = rows[t - 1]
        s = S[r]
        acc = 0.0
        for j in range(n):
            d[j] -= a * y[j]
            acc += s[j] * d[j]
        a = rho[r] * acc
    alpha[0] = a
    # last update of the first loop, the scaling by gamma and the first dot
    # product of the second loop in one pass
    y = Y[rows[0]]
    acc = 0.0
    for j in range(n):
        d[j] = gamma * (d[j] - a * y[j])
        acc += y[j] * d[j]
    # second loop, oldest pair first: d <- d + (alpha_i - rho_i y_i . d) s_i
    for t in range(k):
        r = rows[t]
        c = alpha[t] - rho[r] * acc
        s = S[r]
        if t + 1 < k:
            y = Y[rows[t + 1]]
            acc = 0.0
            for j in range(n):
                d[j] += c * s[j]
                acc += y[j] * d[j]
        else:
            for j in range(n):
                d[j] += c * s[j]


@njit(cache=True, nogil=True, error_model="numpy", fastmath=_FAST)
def dot(a, b):
    """``a . b`` of two float64 (n,) C-contiguous arrays, on the calling thread.

    The optimizer's dot products go here rather than to BLAS: OpenBLAS splits
    a level-1 call over threads from 10,000 entries on, and on a busy machine
    waking the second thread can cost a scheduler tick (milliseconds) per call.
    """
    s = 0.0
    for j in range(a.shape[0]):
        s += a[j] * b[j]
    return s

