"""Unconstrained L-BFGS with a strong-Wolfe line search (Nocedal & Wright).

The limited-memory BFGS method of Nocedal & Wright, "Numerical
Optimization" (2nd ed.), Alg. 7.5, its direction by the two-loop recursion
(Alg. 7.4, kernel :func:`classiclearn._kernels.lbfgs.lbfgs_direction`) and
its step by the line search of Alg. 3.5 / 3.6 (bracketing, then zoom by
safeguarded cubic interpolation). Every work vector is allocated once: the
objective writes its gradient into a buffer it is given, and the stored
pairs live in two preallocated ``(m + 1, n)`` arrays. The vector algebra
runs on the calling thread (numba kernels and NumPy ufuncs, no BLAS).

The stopping rules are those of scipy's L-BFGS-B without bounds, so that a
``tol`` means the same to both.
"""

import math
from typing import NamedTuple

import numpy as np

from .._kernels.lbfgs import dot, lbfgs_direction

__all__ = ["LbfgsResult", "minimize_lbfgs"]

_EPS = np.finfo(np.float64).eps


class LbfgsResult(NamedTuple):
    """What :func:`minimize_lbfgs` returns."""

    x: np.ndarray
    fun: float
    grad: np.ndarray
    n_iter: int
    n_fev: int
    converged: bool
    message: str


def _inf_norm(v):
    return max(float(v.max()), -float(v.min())) if v.size else 0.0


def _cubic_minimiser(a, fa, ga, b, fb, gb):
    """Minimiser of the cubic through (a, fa, ga) and (b, fb, gb), or NaN.

    Nocedal & Wright, eq. (3.59).
    """
    d1 = ga + gb - 3.0 * (fa - fb) / (a - b)
    disc = d1 * d1 - ga * gb
    if not disc >= 0.0:  # also NaN
        return math.nan
    d2 = math.copysign(math.sqrt(disc), b - a)
    denom = gb - ga + 2.0 * d2
    if denom == 0.0:
        return math.nan
    return b - (b - a) * (gb + d2 - d1) / denom


class _Line:
    """phi(t) = f(x + t d) and phi'(t), evaluated into the trial buffers."""

    def __init__(self, fun, x, d, x_new, g_new):
        self.fun, self.x, self.d, self.x_new, self.g_new = fun, x, d, x_new, g_new
        self.n_fev = 0
        self.last = None
        self.f = math.nan

    def __call__(self, t):
        np.multiply(self.d, t, out=self.x_new)
        self.x_new += self.x
        f = float(self.fun(self.x_new, self.g_new))
        self.n_fev += 1
        self.last, self.f = t, f
        return f, dot(self.g_new, self.d)


def _zoom(phi, f0, g0, lo, hi, c1, c2, budget):
    """Alg. 3.6: shrink the bracket ``lo``, ``hi`` (each (t, f, g)) to a strong-Wolfe step.

    ``lo`` satisfies sufficient decrease and has the lower value; returns
    (step, True), or (the lowest point found, False) when ``budget``
    evaluations or the bracket run out.
    """
    for _ in range(budget):
        (t_lo, f_lo, g_lo), (t_hi, f_hi, g_hi) = lo, hi
        width = abs(t_hi - t_lo)
        if width <= 1e-12 * max(t_lo, t_hi):
            return t_lo, False
        left, right = min(t_lo, t_hi), max(t_lo, t_hi)
        t = math.nan
        if math.isfinite(f_hi):
            t = _cubic_minimiser(t_lo, f_lo, g_lo, t_hi, f_hi, g_hi)
        if not left + 0.1 * width <= t <= right - 0.1 * width:  # also NaN
            t = 0.5 * (t_lo + t_hi)
        f, g = phi(t)
        if not math.isfinite(f) or f > f0 + c1 * t * g0 or f >= f_lo:
            hi = (t, f, g)
        else:
            if abs(g) <= -c2 * g0:
                return t, True
            if g * (t_hi - t_lo) >= 0:
                hi = lo
            lo = (t, f, g)
    return lo[0], False


def _wolfe_search(phi, f0, g0, t0, c1, c2, max_ls):
    """Alg. 3.5: a step satisfying the strong Wolfe conditions, or None.

    When the search fails after finding a point of sufficient decrease, the
    lowest such point is returned (the caller's update test then decides
    whether the pair is kept); None means no decrease was found.
    """
    prev = (0.0, f0, g0)
    t = t0
    for i in range(max_ls):
        f, g = phi(t)
        if not math.isfinite(f) or f > f0 + c1 * t * g0 or (i > 0 and f >= prev[1]):
            step, _ = _zoom(phi, f0, g0, prev, (t, f, g), c1, c2, max_ls - i - 1)
            return step if step > 0 else None
        if abs(g) <= -c2 * g0:
            return t
        if g >= 0:
            return _zoom(phi, f0, g0, (t, f, g), prev, c1, c2, max_ls - i - 1)[0]
        # extrapolate: the cubic's minimiser, kept in [t + 1.1 (t - t_prev), t + 4 (t - t_prev)]
        t_prev = prev[0]
        low, high = t + 1.1 * (t - t_prev), t + 4.0 * (t - t_prev)
        t_next = _cubic_minimiser(t_prev, prev[1], prev[2], t, f, g)
        prev = (t, f, g)
        t = min(max(t_next, low), high) if math.isfinite(t_next) else high
    return prev[0] if prev[0] > 0 else None


def minimize_lbfgs(fun, x0, *, max_iter=100, gtol=1e-5, ftol=64 * _EPS, m=10, max_ls=50,
                   c1=1e-3, c2=0.9):
    """Minimise a smooth function by L-BFGS (no bounds).

    Parameters
    ----------
    fun : callable ``fun(x, grad) -> float``
        The objective at ``x`` (float64 (n,)); writes its gradient into
        ``grad`` (float64 (n,)). It must not keep references to either array:
        both are work buffers that later calls overwrite.
    x0 : ndarray of shape (n,)
        The starting point (not modified).
    max_iter : int, default=100
        Largest number of iterations (line searches that moved x).
    gtol : float, default=1e-5
        Converged when the largest absolute gradient entry is at most gtol
        (scipy's ``pgtol``), at the start or after an iteration.
    ftol : float, default=64 * machine epsilon
        Converged when an iteration lowers f by at most
        ``ftol * max(|f_old|, |f|, 1)`` (scipy's ``factr * eps``).
    m : int, default=10
        Number of stored pairs (scipy's ``maxcor``).
    max_ls : int, default=50
        Largest number of function evaluations per line search.
    c1, c2 : float, default=1e-3, 0.9
        Sufficient-decrease and curvature constants of the strong Wolfe
        conditions (those of scipy's line search).

    Returns
    -------
    LbfgsResult
        ``x``, ``fun``, ``grad`` at the last iterate, ``n_iter``, ``n_fev``,
        ``converged`` (a gtol or ftol test passed) and a ``message``.

    Notes
    -----
    The first step, and the first after the memory is cleared, is steepest
    descent with trial step ``1 / ||g||_2``; later trial steps are 1. A pair
    (s, y) is stored only when ``s . y > eps * y . y`` (as L-BFGS-B), which
    keeps the inverse Hessian approximation positive definite; the initial
    matrix is ``gamma I`` with ``gamma = s . y / y . y`` of the newest pair.
    A line search that finds no decrease clears the memory and retries along
    the steepest descent; a second failure stops (not converged), as in
    L-BFGS-B. Unlike L-BFGS-B the direction comes from the two-loop recursion
    rather than the compact representation (the same direction without
    bounds), and the line search is Alg. 3.5 / 3.6 of Nocedal & Wright
    rather than Moré & Thuente's, so iterates may differ from scipy's in the
    last digits or by an iteration or two.

    Examples
    --------
    >>> import numpy as np
    >>> def f(x, g):
    ...     g[:] = 2.0 * (x - 3.0)
    ...     return float(np.sum((x - 3.0) ** 2))
    >>> res = minimize_lbfgs(f, np.zeros(2), gtol=1e-10)
    >>> np.round(res.x, 8), res.converged
    (array([3., 3.]), True)
    """
    x = np.array(x0, dtype=np.float64).ravel()
    n = x.shape[0]
    g = np.empty(n)
    x_new, g_new, d = np.empty(n), np.empty(n), np.empty(n)
    S, Y = np.empty((m + 1, n)), np.empty((m + 1, n))
    rho, alpha = np.zeros(m + 1), np.empty(m + 1)
    used = []  # rows of S and Y in use, oldest first; one row is always free
    gamma = 1.0
    f = float(fun(x, g))
    n_fev = 1
    if _inf_norm(g) <= gtol:
        return LbfgsResult(x, f, g, 0, n_fev, True, "gradient below gtol at the start")
    n_iter = 0
    converged, message = False, "max_iter reached"
    line = _Line(fun, x, d, x_new, g_new)
    while n_iter < max_iter:
        if used:
            lbfgs_direction(g, S, Y, rho, np.array(used, dtype=np.intp), gamma, alpha, d)
            t0 = 1.0
            slope = dot(g, d)
        if not used or not slope < 0:  # no memory, or a direction that is not descent
            used, gamma = [], 1.0
            np.negative(g, out=d)
            slope = -dot(g, g)
            t0 = 1.0 / math.sqrt(-slope)
        line.x = x
        line.d = d
        t = _wolfe_search(line, f, slope, t0, c1, c2, max_ls)
        n_fev = n_fev + line.n_fev
        line.n_fev = 0
        if t is None:
            if used:  # retry along the steepest descent
                used = []
                continue
            message = "the line search found no decrease"
            break
        if line.last != t:
            line(t)
            n_fev += 1
            line.n_fev = 0
        n_iter += 1
        free = next(r for r in range(m + 1) if r not in used)
        s, y = S[free], Y[free]
        np.subtract(x_new, x, out=s)
        np.subtract(g_new, g, out=y)
        x, x_new = x_new, x
        g, g_new = g_new, g
        line.x_new, line.g_new = x_new, g_new
        f_old, f = f, line.f
        if _inf_norm(g) <= gtol:
            converged, message = True, "gradient below gtol"
            break
        if f_old - f <= ftol * max(abs(f_old), abs(f), 1.0):
            converged, message = True, "relative reduction of f below ftol"
            break
        sy, yy = dot(s, y), dot(y, y)
        if sy > _EPS * yy:
            if len(used) == m:
                used.pop(0)
            used.append(free)
            rho[free] = 1.0 / sy
            gamma = sy / yy
    return LbfgsResult(x, f, g, n_iter, n_fev, converged, message)
