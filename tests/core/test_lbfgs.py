"""classiclearn's L-BFGS: the two-loop kernel against the BFGS matrix, the line search's
Wolfe conditions, and optima of problems with a known answer."""

import numpy as np
import pytest
from scipy import optimize

from classiclearn._kernels.lbfgs import lbfgs_direction
from classiclearn.utils._lbfgs import _Line, _wolfe_search, minimize_lbfgs


def _bfgs_inverse(S, Y, rows, gamma):
    """The inverse Hessian approximation built pair by pair (N&W eq. 6.17), oldest first."""
    n = S.shape[1]
    H = gamma * np.eye(n)
    for r in rows:
        s, y = S[r], Y[r]
        rho = 1.0 / (s @ y)
        V = np.eye(n) - rho * np.outer(y, s)
        H = V.T @ H @ V + rho * np.outer(s, s)
    return H


@pytest.mark.parametrize("rows", [[], [2], [3, 0, 1], [1, 2, 3, 4, 0]])
def test_two_loop_direction_is_minus_the_bfgs_matrix_times_g(rng, rows):
    n, m = 7, 5
    A = rng.normal(size=(n, n))
    Hess = A @ A.T + np.eye(n)  # pairs of a convex quadratic: s . y > 0
    S = rng.normal(size=(m, n))
    Y = S @ Hess
    rho = 1.0 / np.einsum("ij,ij->i", S, Y)
    g = rng.normal(size=n)
    gamma = 0.7
    d = np.empty(n)
    lbfgs_direction(g, S, Y, rho, np.array(rows, dtype=np.intp), gamma, np.empty(m), d)
    np.testing.assert_allclose(d, -_bfgs_inverse(S, Y, rows, gamma) @ g, rtol=1e-10, atol=1e-12)


def test_wolfe_search_returns_a_strong_wolfe_step():
    # phi(t) = f(x0 + t d) for f(x) = sum(exp(x) - 2 x) from x0 = 3 along d = -1 (minimum at
    # t = 3 - log 2); an initial step of 0.01 forces extrapolation, one of 50 a zoom
    def fun(x, g):
        g[:] = np.exp(x) - 2.0
        return float(np.sum(np.exp(x) - 2.0 * x))

    x, d = np.full(3, 3.0), np.full(3, -1.0)
    g0 = np.empty(3)
    f0 = fun(x, g0)
    slope = float(g0 @ d)
    for t0 in (0.01, 1.0, 50.0):
        line = _Line(fun, x, d, np.empty(3), np.empty(3))
        t = _wolfe_search(line, f0, slope, t0, 1e-3, 0.9, 50)
        f, g = line(t)
        assert f <= f0 + 1e-3 * t * slope
        assert abs(g) <= 0.9 * abs(slope)


def _rosenbrock(x, g):
    g[:] = optimize.rosen_der(x)
    return float(optimize.rosen(x))


@pytest.mark.parametrize("n", [2, 10])
def test_rosenbrock_reaches_its_minimum(n):
    x0 = np.full(n, -1.2)
    x0[1::2] = 1.0
    res = minimize_lbfgs(_rosenbrock, x0, max_iter=2000, gtol=1e-9)
    assert res.converged
    np.testing.assert_allclose(res.x, np.ones(n), atol=1e-6)
    # scipy's L-BFGS-B takes 38 and 75 iterations here: no slower method hides behind
    # the right answer
    assert res.n_iter <= {2: 50, 10: 100}[n]


def test_quadratic_with_known_minimiser(rng):
    n = 40
    Q, _ = np.linalg.qr(rng.normal(size=(n, n)))
    H = Q @ np.diag(np.logspace(0, 3, n)) @ Q.T  # condition number 1e3
    x_star = rng.normal(size=n)

    def fun(x, g):  # written around x* so that f -> 0 keeps its digits near the optimum
        np.dot(H, x - x_star, out=g)
        return float(0.5 * (x - x_star) @ g)

    x0 = np.zeros(n)
    # ftol=0: only the gradient test stops it, |x - x*| <= |g| / lambda_min = |g|
    res = minimize_lbfgs(fun, x0, max_iter=1000, gtol=1e-8, ftol=0.0)
    assert res.converged and res.message == "gradient below gtol"
    np.testing.assert_allclose(res.x, x_star, rtol=0, atol=1e-7)
    np.testing.assert_array_equal(x0, 0.0)  # the start is not modified


def test_stopping_rules():
    x0 = np.array([-1.2, 1.0])
    start = minimize_lbfgs(_rosenbrock, np.ones(2), gtol=1e-5)
    assert start.converged and start.n_iter == 0 and start.n_fev == 1
    capped = minimize_lbfgs(_rosenbrock, x0, max_iter=3, gtol=1e-12)
    assert not capped.converged and capped.n_iter == 3
    assert capped.fun < _rosenbrock(x0, np.empty(2))  # every iteration decreases f
    loose = minimize_lbfgs(_rosenbrock, x0, max_iter=1000, gtol=1e-2)
    assert loose.converged and np.max(np.abs(loose.grad)) <= 1e-2
    g = np.empty(2)
    assert _rosenbrock(loose.x, g) == loose.fun
    np.testing.assert_array_equal(g, loose.grad)
