"""Perceptron (online and batch) and LeastSquaresClassifier."""

import numpy as np
import pytest
from sklearn import linear_model as sk

from classiclearn.linear_model import LeastSquaresClassifier, Perceptron


def _separable(rng, k=2, n=60):
    centers = np.array([[0.0, 0.0], [6.0, 6.0], [-6.0, 6.0]])[:k]
    y = np.repeat(np.arange(k), n // k)
    return centers[y] + rng.normal(size=(len(y), 2)), y


@pytest.mark.parametrize("algorithm", ["online", "batch"])
@pytest.mark.parametrize("k", [2, 3])
def test_separable_data_learnt_exactly(rng, algorithm, k):
    X, y = _separable(rng, k)
    est = Perceptron(algorithm=algorithm, max_iter=500, tol=None).fit(X, y)
    np.testing.assert_array_equal(est.predict(X), y)
    assert est.coef_.shape == ((1, 2) if k == 2 else (k, 2))


def test_online_accuracy_close_to_sklearn(rng):
    X = rng.normal(size=(400, 5))
    y = (X[:, 0] + 0.5 * X[:, 1] + 0.3 * rng.normal(size=400) > 0).astype(int)
    ours = np.mean([Perceptron(random_state=s).fit(X, y).score(X, y) for s in range(5)])
    ref = np.mean([sk.Perceptron(random_state=s).fit(X, y).score(X, y) for s in range(5)])
    assert ours > 0.85 and abs(ours - ref) < 0.05


def test_same_random_state_same_result(rng):
    X, y = _separable(rng, 3)
    X = X + rng.normal(size=X.shape) * 2
    a = Perceptron(random_state=5, max_iter=30).fit(X, y)
    b = Perceptron(random_state=5, max_iter=30).fit(X, y)
    np.testing.assert_array_equal(a.coef_, b.coef_)
    np.testing.assert_array_equal(a.intercept_, b.intercept_)


def test_online_update_rule_by_hand():
    X = np.array([[1.0, 0.0], [0.0, 1.0]])
    y = np.array([0, 1])
    est = Perceptron(shuffle=False, max_iter=1, tol=None, eta0=0.5).fit(X, y)
    # sample 0 (target -1) at w=0: mistake -> w = -0.5 x0, b = -0.5;
    # sample 1 (target +1): f = -0.5 <= 0 -> w += 0.5 x1, b += 0.5.
    np.testing.assert_allclose(est.coef_, [[-0.5, 0.5]])
    np.testing.assert_allclose(est.intercept_, [0.0])


def test_batch_weight_two_is_row_twice(rng):
    X, y = _separable(rng, 2)
    X = X + rng.normal(size=X.shape) * 3
    sw = np.ones(len(y))
    sw[:7] = 2
    a = Perceptron(algorithm="batch", max_iter=40, tol=None).fit(X, y, sample_weight=sw)
    b = Perceptron(algorithm="batch", max_iter=40, tol=None).fit(
        np.vstack([X, X[:7]]), np.concatenate([y, y[:7]]))
    np.testing.assert_allclose(a.coef_, b.coef_)


def test_penalty_and_early_stopping(rng):
    X, y = _separable(rng, 2, n=200)
    est = Perceptron(penalty="l2", alpha=0.01, early_stopping=True, random_state=0).fit(X, y)
    assert est.score(X, y) > 0.95
    est = Perceptron(penalty="l1", alpha=0.01).fit(X, y)
    assert est.score(X, y) > 0.95


@pytest.mark.parametrize("k", [2, 3])
@pytest.mark.parametrize("alpha", [0.0, 2.0])
def test_least_squares_classifier_matches_indicator_regression(rng, k, alpha):
    X = rng.normal(size=(90, 4))
    y = rng.integers(0, k, 90)
    X[:, 0] += 2 * y
    est = LeastSquaresClassifier(alpha=alpha).fit(X, y)
    Y = np.eye(k)[y]
    Xc = X - X.mean(axis=0)
    B = np.linalg.solve(Xc.T @ Xc + alpha * np.eye(4), Xc.T @ (Y - Y.mean(axis=0)))
    b0 = Y.mean(axis=0) - X.mean(axis=0) @ B
    scores = X @ B + b0
    np.testing.assert_array_equal(est.predict(X), scores.argmax(axis=1))
    if k > 2:
        np.testing.assert_allclose(est.coef_, B.T, rtol=1e-8)
        np.testing.assert_allclose(est.decision_function(X), scores, rtol=1e-8, atol=1e-10)
    ref = sk.RidgeClassifier(alpha=alpha if alpha else 1e-12).fit(X, y)
    np.testing.assert_array_equal(est.predict(X), ref.predict(X))


@pytest.mark.parametrize("design", ["well_conditioned", "collinear", "square"])
def test_least_squares_classifier_dense_certificate_routes(rng, design, monkeypatch):
    # alpha = 0 needs no singular values: a well-conditioned design is certified by the
    # O(p^2) condition estimate of its scaled Cholesky factor (no eigenvalues); a
    # collinear or square one falls to the minimum-norm routes. Each gives the
    # minimum-norm least-squares solution of the indicators.
    from classiclearn.linear_model import _ols

    n, p = (60, 60) if design == "square" else (300, 40)
    X = rng.normal(size=(n, p))
    if design == "collinear":
        X[:, 1] = 2.0 * X[:, 0]
    y = rng.integers(0, 3, n)
    eigen_calls = []
    real = _ols._gram_eigenvalues_if_definite
    monkeypatch.setattr(_ols, "_gram_eigenvalues_if_definite",
                        lambda *a: eigen_calls.append(1) or real(*a))
    est = LeastSquaresClassifier().fit(X, y)
    assert eigen_calls == []
    Y = np.eye(3)[y]
    Xc, Yc = X - X.mean(axis=0), Y - Y.mean(axis=0)
    B = np.linalg.lstsq(Xc, Yc, rcond=1e-10)[0]
    np.testing.assert_allclose(est.coef_, B.T, rtol=1e-7, atol=1e-9)


def test_least_squares_classifier_errors(rng):
    X = rng.normal(size=(10, 2))
    with pytest.raises(ValueError, match="one class"):
        LeastSquaresClassifier().fit(X, np.ones(10))
    with pytest.raises(ValueError, match="Unknown label type"):
        LeastSquaresClassifier().fit(X, rng.normal(size=10))


def _early_stopping_problem(k, n=400, p=6, sparse=False):
    rng = np.random.default_rng(k)
    X = rng.normal(size=(n, p))
    y = (X[:, 0] + 0.8 * X[:, 1] + 0.6 * rng.normal(size=n) > 0).astype(int)
    if k == 3:
        y = y + (X[:, 2] > 0.7)
    if sparse:
        import scipy.sparse as sp

        X = sp.csr_matrix(np.where(rng.random(X.shape) < 0.5, X, 0.0))
    return X, y


@pytest.mark.parametrize("fraction", [0.1, 0.25, 0.33])
@pytest.mark.parametrize("seed", [0, 7])
@pytest.mark.parametrize("counts", [(50, 50), (91, 9, 23), (5, 17, 3, 11)])
def test_validation_mask_is_scikit_learns_hold_out(fraction, seed, counts):
    from sklearn.model_selection import StratifiedShuffleSplit

    from classiclearn.linear_model._perceptron import _validation_mask

    y = np.random.default_rng(seed).permutation(np.repeat(np.arange(len(counts)), counts))
    mask = _validation_mask(y, fraction, seed, np.ones(y.size))
    cv = StratifiedShuffleSplit(test_size=fraction, random_state=seed)
    _, val = next(cv.split(np.zeros((y.size, 1)), y))
    np.testing.assert_array_equal(np.flatnonzero(mask), np.sort(val))


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("k", [2, 3])
@pytest.mark.parametrize("params", [
    {}, {"penalty": "l2", "alpha": 1e-3}, {"penalty": "l1", "alpha": 1e-3},
    {"penalty": "elasticnet", "alpha": 1e-3, "l1_ratio": 0.3},
    {"class_weight": "balanced", "validation_fraction": 0.3},
    {"n_iter_no_change": 2, "tol": None}, {"shuffle": False, "random_state": 3},
])
def test_early_stopping_matches_sklearn(sparse, k, params):
    X, y = _early_stopping_problem(k, sparse=sparse)
    params = {"early_stopping": True, "random_state": 0, **params}
    ours = Perceptron(**params).fit(X, y)
    theirs = sk.Perceptron(**params).fit(X, y)
    assert ours.n_iter_ == theirs.n_iter_
    np.testing.assert_allclose(ours.coef_, theirs.coef_, rtol=1e-9, atol=1e-10)
    np.testing.assert_allclose(ours.intercept_, theirs.intercept_, rtol=1e-9, atol=1e-10)


@pytest.mark.parametrize("k", [2, 3])
def test_early_stopping_with_weights_and_a_generator_matches_sklearn(k):
    X, y = _early_stopping_problem(k, n=300)
    sw = np.random.default_rng(5).uniform(0.2, 3.0, y.size)
    ours = Perceptron(early_stopping=True, random_state=np.random.RandomState(4)).fit(
        X, y, sample_weight=sw)
    theirs = sk.Perceptron(early_stopping=True, random_state=np.random.RandomState(4)).fit(
        X, y, sample_weight=sw)
    assert ours.n_iter_ == theirs.n_iter_
    np.testing.assert_allclose(ours.coef_, theirs.coef_, rtol=1e-9, atol=1e-10)


def test_early_stopping_needs_two_samples_a_class():
    X = np.arange(12.0).reshape(6, 2)
    with pytest.raises(ValueError, match="least populated class in y has only 1 member"):
        Perceptron(early_stopping=True).fit(X, [0, 0, 0, 0, 0, 1])
