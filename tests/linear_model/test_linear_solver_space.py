"""Every solver scikit-learn accepts is accepted here and fits the same model.

The option lists are read from scikit-learn's own parameter constraints, so a
solver added on either side shows up here as a failure, not as a silent gap.
"""

import warnings

import numpy as np
import pytest
from sklearn import linear_model as sk
from sklearn import svm as sksvm

from classiclearn.linear_model import LogisticRegression, Ridge
from classiclearn.svm import LinearSVC


def _options(cls, name):
    for constraint in cls._parameter_constraints[name]:
        if hasattr(constraint, "options"):
            return sorted(constraint.options)
    raise AssertionError(f"{cls.__name__}.{name} has no string options")


def _quiet_fit(est, X, y):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return est.fit(X, y)


@pytest.mark.parametrize("solver", _options(sk.LogisticRegression, "solver"))
@pytest.mark.parametrize("k", [2, 3])
def test_every_logistic_solver(rng, solver, k):
    if solver == "liblinear" and k > 2:
        pytest.skip("liblinear is binary only on both sides (refusal tested elsewhere)")
    X = rng.normal(size=(120, 3))
    y = rng.integers(0, k, 120)
    X[:, 0] += y
    kw = dict(solver=solver, C=0.5, tol=1e-10, max_iter=20_000, random_state=0)
    ours = _quiet_fit(LogisticRegression(**kw), X, y)
    theirs = _quiet_fit(sk.LogisticRegression(**kw), X, y)
    np.testing.assert_allclose(ours.predict_proba(X), theirs.predict_proba(X), atol=1e-6)


@pytest.mark.parametrize("solver", _options(sk.Ridge, "solver"))
def test_every_ridge_solver(rng, solver):
    X = rng.normal(size=(80, 4)) + 2.0
    y = X @ np.array([1.0, -0.5, 2.0, 0.3]) + rng.normal(size=80)
    kw = dict(alpha=0.7, solver=solver, tol=1e-12, max_iter=100_000, random_state=0,
              positive=solver == "lbfgs")
    ours = _quiet_fit(Ridge(**kw), X, y)
    theirs = _quiet_fit(sk.Ridge(**kw), X, y)
    np.testing.assert_allclose(ours.coef_, theirs.coef_, rtol=1e-7)
    np.testing.assert_allclose(ours.intercept_, theirs.intercept_, rtol=1e-7)


@pytest.mark.parametrize("multi_class", _options(sksvm.LinearSVC, "multi_class"))
def test_every_linear_svc_multi_class(rng, multi_class):
    centres = 3.0 * rng.normal(size=(3, 3))
    y = rng.integers(0, 3, 120)
    X = centres[y] + rng.normal(size=(120, 3))
    kw = dict(multi_class=multi_class, tol=1e-10, max_iter=100_000, random_state=0)
    ours = _quiet_fit(LinearSVC(**kw), X, y)
    theirs = _quiet_fit(sksvm.LinearSVC(**kw), X, y)
    np.testing.assert_allclose(ours.coef_, theirs.coef_, atol=1e-6)
