"""Perceptron and LeastSquaresClassifier on sparse input: scikit-learn's sparse SGD pass
(the same coefficients), and the least-squares fit of the dense case."""

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn import linear_model as sk

from classiclearn.linear_model import LeastSquaresClassifier, Perceptron


def _problem(n, p, n_classes, seed=0):
    X = sp.random(n, p, density=0.05, random_state=seed, format="csr")
    w = np.random.default_rng(seed).normal(size=(p, n_classes))
    return X, np.asarray((X @ w).argmax(axis=1)).ravel()


SETTINGS = [
    {},
    {"penalty": "l2", "alpha": 1e-3},
    {"penalty": "l1", "alpha": 1e-3},
    {"penalty": "elasticnet", "alpha": 1e-4},
    {"fit_intercept": False},
    {"class_weight": "balanced"},
    {"shuffle": False, "max_iter": 7, "tol": None},
]


@pytest.mark.parametrize("n_classes", [2, 3])
@pytest.mark.parametrize("params", SETTINGS)
def test_perceptron_sparse_matches_sklearn(n_classes, params):
    X, y = _problem(400, 120, n_classes)
    sw = np.random.default_rng(1).uniform(0.5, 2.0, X.shape[0])
    ours = Perceptron(**params).fit(X, y, sample_weight=sw)
    theirs = sk.Perceptron(**params).fit(X, y, sample_weight=sw)
    np.testing.assert_allclose(ours.coef_, theirs.coef_, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(ours.intercept_, theirs.intercept_, rtol=1e-9, atol=1e-12)
    assert ours.n_iter_ == theirs.n_iter_
    np.testing.assert_array_equal(ours.predict(X), theirs.predict(X))


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("params", [{}, {"penalty": "elasticnet", "alpha": 1e-4}])
def test_perceptron_outputs_fitted_in_threads_match_sklearn(sparse, params, monkeypatch):
    # five one-vs-rest outputs over two threads (each output on its own, with its own
    # intercepts): scikit-learn's coefficients, as on one thread
    from classiclearn.linear_model import _perceptron

    monkeypatch.setattr(_perceptron, "SMALL_WORK", 0)
    X, y = _problem(400, 120, 5)
    X = X if sparse else X.toarray()
    threaded = Perceptron(n_jobs=2, **params).fit(X, y)
    serial = Perceptron(n_jobs=1, **params).fit(X, y)
    theirs = sk.Perceptron(**params).fit(X, y)
    np.testing.assert_array_equal(threaded.coef_, serial.coef_)
    np.testing.assert_array_equal(threaded.intercept_, serial.intercept_)
    assert threaded.n_iter_ == serial.n_iter_ == theirs.n_iter_
    np.testing.assert_allclose(threaded.coef_, theirs.coef_, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(threaded.intercept_, theirs.intercept_, rtol=1e-9, atol=1e-12)


def test_perceptron_sparse_partial_fit_matches_sklearn():
    X, y = _problem(300, 80, 3)
    classes = np.unique(y)
    ours = Perceptron(penalty="l1", alpha=1e-3)
    theirs = sk.Perceptron(penalty="l1", alpha=1e-3)
    for part in (slice(0, 150), slice(150, 300)):
        ours.partial_fit(X[part], y[part], classes=classes)
        theirs.partial_fit(X[part], y[part], classes=classes)
    np.testing.assert_allclose(ours.coef_, theirs.coef_, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(ours.intercept_, theirs.intercept_, rtol=1e-9, atol=1e-12)


def test_perceptron_batch_algorithm_sparse_equals_dense():
    X, y = _problem(200, 40, 2)
    sparse = Perceptron(algorithm="batch").fit(X, y)
    dense = Perceptron(algorithm="batch").fit(X.toarray(), y)
    np.testing.assert_allclose(sparse.coef_, dense.coef_, rtol=1e-10)


@pytest.mark.parametrize("params", [{}, {"penalty": "l2", "alpha": 1e-3},
                                    {"penalty": "l1", "alpha": 1e-3}])
def test_perceptron_early_stopping_sparse_matches_sklearn(params):
    # scikit-learn's sparse pass (its own intercept decay) and its hold-out
    X, y = _problem(300, 60, 3)
    ours = Perceptron(early_stopping=True, random_state=0, **params).fit(X, y)
    theirs = sk.Perceptron(early_stopping=True, random_state=0, **params).fit(X, y)
    np.testing.assert_allclose(ours.coef_, theirs.coef_, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(ours.intercept_, theirs.intercept_, rtol=1e-9, atol=1e-12)
    assert ours.n_iter_ == theirs.n_iter_


@pytest.mark.parametrize("params", [{}, {"alpha": 1.0}, {"fit_intercept": False},
                                    {"class_weight": "balanced", "alpha": 0.1}])
@pytest.mark.parametrize("n_classes", [2, 3])
def test_least_squares_classifier_sparse_equals_dense(params, n_classes):
    X, _ = _problem(300, 40, n_classes)
    y = np.random.default_rng(2).integers(0, n_classes, X.shape[0])
    sw = np.random.default_rng(3).uniform(0.5, 2.0, X.shape[0])
    sparse = LeastSquaresClassifier(**params).fit(X.tocsc(), y, sample_weight=sw)
    dense = LeastSquaresClassifier(**params).fit(X.toarray(), y, sample_weight=sw)
    np.testing.assert_allclose(sparse.coef_, dense.coef_, rtol=1e-7, atol=1e-8)
    np.testing.assert_allclose(sparse.intercept_, dense.intercept_, rtol=1e-7, atol=1e-8)
    np.testing.assert_array_equal(sparse.predict(X), dense.predict(X.toarray()))


@pytest.mark.parametrize("route", ["gram", "lsqr"])
@pytest.mark.parametrize("params", [{}, {"alpha": 1.0}, {"fit_intercept": False, "alpha": 0.3}])
def test_least_squares_classifier_sparse_routes(route, params, monkeypatch):
    from classiclearn.linear_model import _least_squares

    calls = []
    gram = _least_squares._solve_sparse_gram
    monkeypatch.setattr(_least_squares, "_solve_sparse_gram",
                        lambda *a: calls.append(1) or gram(*a))
    if route == "lsqr":
        monkeypatch.setattr(_least_squares, "_SPARSE_GRAM_FEATURES", 0)
    X, _ = _problem(500, 30, 3)
    y = np.random.default_rng(4).integers(0, 3, X.shape[0])
    sw = np.random.default_rng(5).uniform(0.5, 2.0, X.shape[0])
    sparse = LeastSquaresClassifier(**params).fit(X.tocsr(), y, sample_weight=sw)
    dense = LeastSquaresClassifier(**params).fit(X.toarray(), y, sample_weight=sw)
    assert len(calls) == (route == "gram")
    # the normal equations are the dense fit's; LSQR stops at its tolerance
    tol = dict(rtol=1e-10, atol=1e-12) if route == "gram" else dict(rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(sparse.coef_, dense.coef_, **tol)
    np.testing.assert_allclose(sparse.intercept_, dense.intercept_, **tol)


def test_least_squares_classifier_sparse_gram_declines_what_it_cannot_solve():
    from classiclearn.linear_model import _least_squares

    X, _ = _problem(400, 20, 2)
    y = np.random.default_rng(6).integers(0, 2, X.shape[0])
    Y = np.eye(2)[y]
    x_mean = np.asarray(X.mean(axis=0)).ravel()
    # a repeated column: alpha = 0 has no Cholesky factor (LSQR's minimum norm instead)
    twice = sp.hstack([X, X[:, :1]]).tocsr()
    mean2 = np.append(x_mean, x_mean[0])
    assert _least_squares._solve_sparse_gram(twice, Y, mean2, Y.mean(0), None, 0.0) is None
    fit = LeastSquaresClassifier().fit(twice, y)
    dense = LeastSquaresClassifier().fit(twice.toarray(), y)
    np.testing.assert_allclose(fit.coef_, dense.coef_, rtol=1e-6, atol=1e-8)
    # a column far from zero with little spread: centring by a rank-one term would cancel
    shifted = sp.csr_matrix(np.column_stack([X.toarray(), 1e9 + np.arange(400) % 3]))
    mean3 = np.asarray(shifted.mean(axis=0)).ravel()
    assert _least_squares._solve_sparse_gram(shifted, Y, mean3, Y.mean(0), None, 1.0) is None


def test_least_squares_classifier_sparse_as_ridge_classifier():
    from sklearn.linear_model import RidgeClassifier

    X, _ = _problem(2000, 50, 4)
    y = np.random.default_rng(7).integers(0, 4, X.shape[0])
    ours = LeastSquaresClassifier(alpha=1.0).fit(X, y)
    theirs = RidgeClassifier(alpha=1.0, solver="cholesky").fit(X.toarray(), y)
    # its targets are 2 * (one of K) - 1
    np.testing.assert_allclose(2 * ours.coef_, theirs.coef_, rtol=1e-8, atol=1e-10)
    np.testing.assert_allclose(2 * ours.intercept_ - 1, theirs.intercept_, rtol=1e-8,
                               atol=1e-10)
    np.testing.assert_array_equal(ours.predict(X), theirs.predict(X.toarray()))
