"""Seed 003's unbiased covariance estimates for LDA (1/(n - K), pooled) and QDA
(1/(n_k - 1), per class), checked against the formulas computed by hand."""

import numpy as np
import pytest

from classiclearn.discriminant_analysis import (
    LinearDiscriminantAnalysis,
    QuadraticDiscriminantAnalysis,
)


def _three_classes(seed=0, n=(15, 25, 12), p=3):
    rng = np.random.default_rng(seed)
    A = rng.normal(size=(p, p))
    X = np.vstack([rng.normal(2 * k, 1.0, size=(m, p)) @ A for k, m in enumerate(n)])
    y = np.repeat(["a", "b", "c"], n)
    return X, y


def _scatter(Xk):
    D = Xk - Xk.mean(axis=0)
    return D.T @ D


def _pooled(X, y, divisor):
    return sum(_scatter(X[y == k]) for k in np.unique(y)) / divisor


def _lda_scores(x, X, y, cov, priors):
    """δ_k(x) = x^T Σ^{-1} μ_k - ½ μ_k^T Σ^{-1} μ_k + log π_k (seed 000 §10.2)."""
    inv = np.linalg.inv(cov)
    mus = [X[y == k].mean(axis=0) for k in np.unique(y)]
    return np.column_stack([
        x @ inv @ mu - 0.5 * mu @ inv @ mu + np.log(pk) for mu, pk in zip(mus, priors)
    ])


@pytest.mark.parametrize("solver", ["svd", "lsqr", "eigen"])
@pytest.mark.parametrize("priors", [None, [0.5, 0.3, 0.2]])
def test_lda_unbiased_pooled_covariance(solver, priors):
    X, y = _three_classes()
    n, K = len(y), 3
    clf = LinearDiscriminantAnalysis(
        solver=solver, priors=priors, store_covariance=True, covariance_estimate="unbiased"
    ).fit(X, y)
    cov = _pooled(X, y, n - K)
    np.testing.assert_allclose(clf.covariance_, cov, rtol=1e-12)
    pri = np.bincount(np.unique(y, return_inverse=True)[1]) / n if priors is None else priors
    x = np.random.default_rng(1).normal(2, 3, size=(20, 3))
    expected = _lda_scores(x, X, y, cov, pri)
    # the svd solver's scores are centred at the grand mean: equal up to a term that
    # is the same for every class, so compare differences between classes
    got = clf.decision_function(x)
    np.testing.assert_allclose(got - got[:, :1], expected - expected[:, :1], rtol=1e-9, atol=1e-9)
    post = np.exp(expected - expected.max(axis=1, keepdims=True))
    np.testing.assert_allclose(
        clf.predict_proba(x), post / post.sum(axis=1, keepdims=True), atol=1e-10
    )


@pytest.mark.parametrize("solver", ["svd", "lsqr", "eigen"])
def test_lda_biased_default_is_one_over_n(solver):
    X, y = _three_classes()
    clf = LinearDiscriminantAnalysis(solver=solver, store_covariance=True).fit(X, y)
    np.testing.assert_allclose(clf.covariance_, _pooled(X, y, len(y)), rtol=1e-12)


def test_lda_unbiased_binary_and_projection():
    X, y = _three_classes()
    keep = y != "c"
    X2, y2 = X[keep], y[keep]
    clf = LinearDiscriminantAnalysis(covariance_estimate="unbiased").fit(X2, y2)
    cov = _pooled(X2, y2, len(y2) - 2)
    expected = _lda_scores(X2, X2, y2, cov, [np.mean(y2 == "a"), np.mean(y2 == "b")])
    np.testing.assert_allclose(
        clf.decision_function(X2), expected[:, 1] - expected[:, 0], rtol=1e-9, atol=1e-9
    )
    # the Fisher directions whiten the unbiased within-class covariance
    for solver in ("svd", "eigen"):
        lda = LinearDiscriminantAnalysis(solver=solver, covariance_estimate="unbiased").fit(X, y)
        Z = lda.scalings_[:, :2]
        np.testing.assert_allclose(Z.T @ _pooled(X, y, len(y) - 3) @ Z, np.eye(2), atol=1e-9)


@pytest.mark.parametrize("solver", ["svd", "eigen"])
@pytest.mark.parametrize("reg_param", [0.0, 0.3])
def test_qda_unbiased_class_covariances(solver, reg_param):
    X, y = _three_classes()
    clf = QuadraticDiscriminantAnalysis(
        solver=solver, reg_param=reg_param, store_covariance=True,
        covariance_estimate="unbiased",
    ).fit(X, y)
    x = np.random.default_rng(2).normal(2, 3, size=(20, 3))
    scores = []
    for k, cov_k in zip(np.unique(y), clf.covariance_):
        Xk = X[y == k]
        S = _scatter(Xk) / (len(Xk) - 1)  # np.cov's default ddof=1
        np.testing.assert_allclose(S, np.cov(Xk, rowvar=False), rtol=1e-12)
        if solver == "eigen":  # covariance_ holds the estimate before reg_param
            np.testing.assert_allclose(cov_k, S, rtol=1e-10, atol=1e-12)
        S = (1 - reg_param) * S + reg_param * np.eye(3)
        if solver == "svd":
            np.testing.assert_allclose(cov_k, S, rtol=1e-10, atol=1e-12)
        d = x - Xk.mean(axis=0)
        # δ_k(x) = -½ log|Σ_k| - ½ (x - μ_k)^T Σ_k^{-1} (x - μ_k) + log π_k
        scores.append(
            -0.5 * np.linalg.slogdet(S)[1]
            - 0.5 * np.einsum("ij,ij->i", d @ np.linalg.inv(S), d)
            + np.log(np.mean(y == k))
        )
    expected = np.column_stack(scores)
    np.testing.assert_allclose(clf.decision_function(x), expected, rtol=1e-9, atol=1e-9)


def test_qda_biased_default_matches_sklearn_and_one_over_n_k():
    sk_da = pytest.importorskip("sklearn.discriminant_analysis")
    X, y = _three_classes()
    ours = QuadraticDiscriminantAnalysis(store_covariance=True).fit(X, y)
    theirs = sk_da.QuadraticDiscriminantAnalysis(store_covariance=True).fit(X, y)
    for k, (a, b) in enumerate(zip(ours.covariance_, theirs.covariance_)):
        Xk = X[y == np.unique(y)[k]]
        np.testing.assert_allclose(a, _scatter(Xk) / len(Xk), rtol=1e-10)
        np.testing.assert_allclose(a, b, rtol=1e-10)
    unbiased = QuadraticDiscriminantAnalysis(covariance_estimate="unbiased").fit(X, y)
    assert not np.allclose(unbiased.decision_function(X), ours.decision_function(X))


def test_bad_combinations():
    X, y = _three_classes()
    for cls in (LinearDiscriminantAnalysis, QuadraticDiscriminantAnalysis):
        with pytest.raises(ValueError, match="cannot be combined with shrinkage"):
            cls(solver="eigen", shrinkage=0.2, covariance_estimate="unbiased").fit(X, y)
        with pytest.raises(ValueError, match="covariance_estimate"):
            cls(covariance_estimate="ddof1").fit(X, y)
    X1 = np.vstack([X, [[0.0, 0.0, 0.0]]])
    y1 = np.append(y, "d")
    with pytest.raises(ValueError, match="needs 2 per class"):
        QuadraticDiscriminantAnalysis(reg_param=0.5, covariance_estimate="unbiased").fit(X1, y1)
