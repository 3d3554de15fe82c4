"""The compiled Lawson-Hanson NNLS: scipy's algorithm and path, its lanes, its limits,
and LinearRegression(positive=True) on wide X against scikit-learn."""

import numpy as np
import pytest
from scipy import optimize

from classiclearn.linear_model import LinearRegression
from classiclearn.linear_model._nnls_kernels import lawson_hanson
from classiclearn.linear_model._ols import nonnegative_lstsq


def _problem(rng, m, p, kind):
    A = rng.normal(size=(m, p))
    if kind == "duplicates" and p > 2:
        A[:, 1] = A[:, 0]
        A[:, p - 1] = 2.0 * A[:, 0]
    if kind == "consistent":  # b in the cone of the columns: residual zero, many solutions
        b = A @ (np.abs(rng.normal(size=p)) * (rng.random(p) < 0.4))
    else:
        b = rng.normal(size=m)
    return A - A.mean(axis=0), b - b.mean()


def _kernel(A, b, lanes, lane_work, max_iter=None):
    p = A.shape[1]
    return lawson_hanson(np.ascontiguousarray(A.T), b.copy(),
                         3 * p if max_iter is None else max_iter, lane_work, lanes)


@pytest.mark.parametrize("kind", ["noise", "consistent", "duplicates"])
@pytest.mark.parametrize("shape", [(40, 10), (30, 30), (20, 70), (8, 200), (60, 59)])
@pytest.mark.parametrize("lanes", [1, 2])
def test_equals_scipy_nnls(kind, shape, lanes):
    # the same entering columns, rejections and drops as scipy: the same x even where
    # several fit equally well (more columns than rows, a consistent b); lane_work 1 puts
    # every reflection and rotation pass in lanes
    rng = np.random.default_rng(shape[0] * 1000 + shape[1])
    for _ in range(4):
        A, b = _problem(rng, *shape, kind)
        ref = optimize.nnls(A, b)[0]
        x, converged = _kernel(A, b, lanes, 1)
        assert converged
        np.testing.assert_allclose(x, ref, rtol=1e-9, atol=1e-11)
        assert (x >= 0).all()


def test_drops_variables_as_scipy_does():
    # correlated columns make the inner loop step back and drop variables (the Givens
    # rotations applied a column at a time, in lanes or not)
    rng = np.random.default_rng(7)
    base = rng.normal(size=(50, 6))
    A = base @ rng.normal(size=(6, 120)) + 0.05 * rng.normal(size=(50, 120))
    b = rng.normal(size=50)
    ref = optimize.nnls(A, b)[0]
    for lanes in (1, 2):
        x, converged = _kernel(A, b, lanes, 1)
        assert converged
        np.testing.assert_allclose(x, ref, rtol=1e-8, atol=1e-10)


def test_kkt_conditions_hold():
    rng = np.random.default_rng(1)
    A = rng.normal(size=(80, 30))
    b = rng.normal(size=80)
    x, _ = _kernel(A, b, 1, 1 << 60)
    gradient = A.T @ (b - A @ x)  # the dual: <= 0 at zero, 0 where positive
    scale = np.abs(A).max() * np.abs(b).max() * 80
    assert (gradient[x == 0] <= 1e-10 * scale).all()
    np.testing.assert_allclose(gradient[x > 0], 0.0, atol=1e-10 * scale)


@pytest.mark.parametrize("scale", [1e-160, 1e150])
def test_extreme_scales_are_rescaled(scale):
    # squares beyond the float range (the dual products of 1e150 still within it): the
    # norms are taken again on scaled entries
    rng = np.random.default_rng(2)
    A = rng.normal(size=(12, 20))
    b = rng.normal(size=12)
    ref = optimize.nnls(A, b)[0]
    x, converged = _kernel(A * scale, b * scale, 1, 1 << 60)
    assert converged
    np.testing.assert_allclose(x, ref, rtol=1e-9, atol=1e-11)


def test_nothing_to_fit():
    A = np.zeros((5, 3))
    np.testing.assert_array_equal(nonnegative_lstsq(A, np.ones(5)), 0.0)
    rng = np.random.default_rng(0)
    A = rng.normal(size=(6, 4))
    # b opposed to every column: zero is optimal (every dual coefficient negative)
    np.testing.assert_array_equal(nonnegative_lstsq(A, -A.sum(axis=1) * 100), 0.0)


def test_iteration_limit():
    rng = np.random.default_rng(3)
    A = rng.normal(size=(30, 20))
    b = rng.normal(size=30)
    _, converged = _kernel(A, b, 1, 1 << 60, max_iter=2)
    assert not converged
    x, converged = _kernel(A, b, 1, 1 << 60)
    assert converged


def test_inputs_are_not_modified():
    rng = np.random.default_rng(4)
    A = rng.normal(size=(10, 25))
    b = rng.normal(size=10)
    A0, b0 = A.copy(), b.copy()
    nonnegative_lstsq(A, b)
    np.testing.assert_array_equal(A, A0)
    np.testing.assert_array_equal(b, b0)


@pytest.mark.parametrize("shape", [(60, 60), (50, 150), (20, 400)])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("fit_intercept", [True, False])
def test_linear_regression_positive_on_wide_x_is_scikit_learns(shape, weighted, fit_intercept):
    from sklearn.linear_model import LinearRegression as SkLinearRegression

    rng = np.random.default_rng(shape[1])
    n, p = shape
    X = rng.normal(size=(n, p)) + 1.0
    y = X @ (np.abs(rng.normal(size=p)) * (rng.random(p) < 0.3)) + rng.normal(size=n)
    sw = rng.uniform(0.5, 2.0, n) if weighted else None
    ours = LinearRegression(positive=True, fit_intercept=fit_intercept).fit(X, y, sw)
    theirs = SkLinearRegression(positive=True, fit_intercept=fit_intercept).fit(X, y, sw)
    np.testing.assert_allclose(ours.coef_, theirs.coef_, rtol=1e-8, atol=1e-10)
    np.testing.assert_allclose(ours.intercept_, theirs.intercept_, rtol=1e-8, atol=1e-9)
    X_new = rng.normal(size=(30, p))
    np.testing.assert_allclose(ours.predict(X_new), theirs.predict(X_new), rtol=1e-8,
                               atol=1e-8)


def test_linear_regression_positive_several_targets():
    from sklearn.linear_model import LinearRegression as SkLinearRegression

    rng = np.random.default_rng(5)
    X = rng.normal(size=(40, 90))
    Y = X @ (np.abs(rng.normal(size=(90, 3))) * (rng.random((90, 3)) < 0.2))
    Y = Y + rng.normal(size=(40, 3))
    ours = LinearRegression(positive=True).fit(X, Y)
    theirs = SkLinearRegression(positive=True).fit(X, Y)
    assert ours.coef_.shape == (3, 90)
    np.testing.assert_allclose(ours.coef_, theirs.coef_, rtol=1e-8, atol=1e-10)


def test_nearly_square_fit_beside_its_singular_values_is_scikit_learns():
    # from 256 rows with at most 1.5 times as many features the kernel runs on a second
    # thread beside the eigenvalues of A A': the same coefficients, rank and values
    from scipy.linalg import svdvals
    from sklearn.linear_model import LinearRegression as SkLinearRegression

    from classiclearn.linear_model import _ols

    rng = np.random.default_rng(11)
    n, p = _ols._NNLS_BESIDE_ROWS, int(_ols._NNLS_BESIDE_WIDTH * _ols._NNLS_BESIDE_ROWS)
    X = rng.normal(size=(n, p))
    y = X @ (np.abs(rng.normal(size=p)) * (rng.random(p) < 0.3)) + rng.normal(size=n)
    ours = LinearRegression(positive=True).fit(X, y)
    theirs = SkLinearRegression(positive=True).fit(X, y)
    np.testing.assert_allclose(ours.coef_, theirs.coef_, rtol=1e-8, atol=1e-10)
    s = svdvals(X - X.mean(axis=0))
    np.testing.assert_allclose(ours.singular_[:n - 1], s[:n - 1], rtol=1e-8)
    assert ours.rank_ == n - 1


def test_beside_returns_both_results_and_raises_either_error():
    from classiclearn.utils._threads import beside

    def kernel(started):
        started()
        return "kernel"

    assert beside(kernel, lambda: "here") == ("kernel", "here")

    def failing_kernel(started):
        raise ValueError("kernel failed")

    with pytest.raises(ValueError, match="kernel failed"):
        beside(failing_kernel, lambda: None)

    def failing_here():
        raise KeyError("here failed")

    with pytest.raises(KeyError, match="here failed"):
        beside(kernel, failing_here)
