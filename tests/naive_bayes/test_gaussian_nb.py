"""GaussianNB against scikit-learn and against its closed form."""

import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer, load_iris
from sklearn.naive_bayes import GaussianNB as SkGaussianNB

from classiclearn.naive_bayes import GaussianNB


@pytest.mark.parametrize("loader", [load_iris, load_breast_cancer])
@pytest.mark.parametrize("var_smoothing", [1e-9, 1e-3])
def test_matches_sklearn(loader, var_smoothing):
    X, y = loader(return_X_y=True)
    ours = GaussianNB(var_smoothing=var_smoothing).fit(X, y)
    theirs = SkGaussianNB(var_smoothing=var_smoothing).fit(X, y)
    np.testing.assert_allclose(ours.theta_, theirs.theta_, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(ours.var_, theirs.var_, rtol=1e-10)
    np.testing.assert_allclose(ours.predict_proba(X), theirs.predict_proba(X), atol=1e-8)
    np.testing.assert_allclose(
        ours.predict_log_proba(X), theirs.predict_log_proba(X), rtol=1e-8, atol=1e-8
    )
    np.testing.assert_array_equal(ours.predict(X), theirs.predict(X))


def test_matches_sklearn_with_priors_and_weights(rng):
    X = rng.normal(size=(200, 4))
    y = rng.integers(0, 3, size=200)
    w = rng.uniform(0.1, 3.0, size=200)
    priors = [0.2, 0.5, 0.3]
    ours = GaussianNB(priors=priors).fit(X, y, sample_weight=w)
    theirs = SkGaussianNB(priors=priors).fit(X, y, sample_weight=w)
    np.testing.assert_allclose(ours.theta_, theirs.theta_, rtol=1e-10)
    np.testing.assert_allclose(ours.class_var_ + theirs.epsilon_, theirs.var_, rtol=1e-8)
    np.testing.assert_allclose(ours.class_prior_, priors)


def test_partial_fit_equals_fit(rng):
    X = rng.normal(size=(300, 5)) * [1, 10, 100, 0.1, 1]
    y = rng.choice(["a", "b", "c"], size=300)
    full = GaussianNB().fit(X, y)
    batched = GaussianNB()
    for start in range(0, 300, 70):
        batched.partial_fit(X[start : start + 70], y[start : start + 70], classes=["a", "b", "c"])
    np.testing.assert_allclose(batched.theta_, full.theta_, rtol=1e-12)
    np.testing.assert_allclose(batched.class_var_, full.class_var_, rtol=1e-10)
    np.testing.assert_allclose(batched.class_count_, full.class_count_)


def test_weight_two_equals_row_twice(rng):
    X = rng.normal(size=(40, 3))
    y = rng.integers(0, 2, size=40)
    w = rng.integers(0, 3, size=40)
    weighted = GaussianNB().fit(X, y, sample_weight=w)
    repeated = GaussianNB().fit(np.repeat(X, w, axis=0), np.repeat(y, w))
    np.testing.assert_allclose(weighted.theta_, repeated.theta_, rtol=1e-12)
    np.testing.assert_allclose(weighted.var_, repeated.var_, rtol=1e-10)


def test_closed_form_log_posterior(rng):
    X = rng.normal(size=(50, 2))
    y = (X[:, 0] > 0).astype(int)
    clf = GaussianNB(var_smoothing=0.0).fit(X, y)
    x = np.array([[0.3, -1.2]])
    log_joint = []
    for k in (0, 1):
        mask = y == k
        mu, var = X[mask].mean(axis=0), X[mask].var(axis=0)
        log_lik = -0.5 * np.sum(np.log(2 * np.pi * var) + (x[0] - mu) ** 2 / var)
        log_joint.append(np.log(mask.mean()) + log_lik)
    np.testing.assert_allclose(clf.predict_joint_log_proba(x)[0], log_joint, rtol=1e-12)


def test_shared_variance_gives_a_linear_decision(rng):
    X = np.vstack([rng.normal(0, 1, size=(100, 3)), rng.normal(1, 2, size=(100, 3))])
    y = np.repeat([0, 1], 100)
    clf = GaussianNB(shared_variance=True).fit(X, y)
    np.testing.assert_allclose(clf.var_[0], clf.var_[1])
    pooled = (X[y == 0].var(axis=0) * 100 + X[y == 1].var(axis=0) * 100) / 200
    np.testing.assert_allclose(clf.var_[0], pooled + clf.epsilon_, rtol=1e-10)
    # log-odds is affine in x: second differences along any line vanish.
    grid = np.linspace(-3, 3, 7)[:, None] * np.array([[1.0, -0.5, 2.0]])
    jll = clf.predict_joint_log_proba(grid)
    log_odds = jll[:, 1] - jll[:, 0]
    np.testing.assert_allclose(np.diff(log_odds, 2), 0.0, atol=1e-10)


def test_string_labels_and_inputs_untouched(rng):
    X = rng.normal(size=(30, 2))
    y = np.array(["no", "yes"] * 15)
    X_before, y_before = X.copy(), y.copy()
    clf = GaussianNB().fit(X, y)
    assert set(clf.predict(X)) <= {"no", "yes"}
    np.testing.assert_array_equal(X, X_before)
    np.testing.assert_array_equal(y, y_before)


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"var_smoothing": -1.0}, "var_smoothing"),
        ({"priors": [0.5, 0.6]}, "sum of the priors"),
        ({"priors": [1.0]}, "priors has 1 values"),
    ],
)
def test_bad_parameters(params, message):
    X = np.array([[0.0], [1.0], [2.0], [3.0]])
    with pytest.raises(ValueError, match=message):
        GaussianNB(**params).fit(X, [0, 0, 1, 1])


def test_one_class_and_unknown_partial_fit_label():
    X = np.array([[0.0], [1.0]])
    with pytest.raises(ValueError, match="one class"):
        GaussianNB().fit(X, [1, 1])
    clf = GaussianNB().partial_fit(X, [0, 1], classes=[0, 1])
    with pytest.raises(ValueError, match="do not exist"):
        clf.partial_fit(X, [0, 2])
    with pytest.raises(ValueError, match="classes must be passed"):
        GaussianNB().partial_fit(X, [0, 1])


def _three_gaussians(rng, n=(60, 80, 50), p=4):
    scales = (0.5, 1.0, 2.0)
    X = np.vstack([
        rng.normal(k, s, size=(m, p)) * (1 + np.arange(p)) for k, (m, s) in
        enumerate(zip(n, scales))
    ])
    y = np.repeat([0, 1, 2], n)
    return X, y


def _seed_naive_bayes_scores(x, X, y, shared):
    """Seed 000 §10.1 by hand: Σ_k = σ_k² I (shared: σ² I), maximum-likelihood
    σ_k² = Σ_{i in k} ||x_i - μ_k||² / (p N_k), σ² = Σ_k N_k σ_k² / N; the score is
    -||x||²/(2σ_k²) + x·μ_k/σ_k² - ||μ_k||²/(2σ_k²) - p log σ_k + log P(k), plus the
    normal density's -p/2 log(2π) so it equals log p(x, C_k)."""
    p = X.shape[1]
    classes = np.unique(y)
    mus = [X[y == k].mean(axis=0) for k in classes]
    sig2 = np.array([np.sum((X[y == k] - mu) ** 2) / (p * np.sum(y == k))
                     for k, mu in zip(classes, mus)])
    if shared:
        counts = np.array([np.sum(y == k) for k in classes])
        sig2 = np.full(len(classes), counts @ sig2 / counts.sum())
    scores = []
    for k, mu, s2 in zip(classes, mus, sig2):
        W = -1.0 / (2 * s2)  # W_k = -I / (2 σ_k²)
        w = mu / s2
        w0 = -mu @ mu / (2 * s2) - p * np.log(np.sqrt(s2)) + np.log(np.mean(y == k))
        scores.append(W * np.sum(x**2, axis=1) + x @ w + w0 - p / 2 * np.log(2 * np.pi))
    return np.column_stack(scores), sig2


@pytest.mark.parametrize("variance", ["per_class", "scalar"])
def test_seed_isotropic_variances_match_the_formula(rng, variance):
    X, y = _three_gaussians(rng)
    x = rng.normal(1, 2, size=(25, X.shape[1]))
    clf = GaussianNB(variance=variance, var_smoothing=0.0).fit(X, y)
    expected, sig2 = _seed_naive_bayes_scores(x, X, y, shared=variance == "scalar")
    np.testing.assert_allclose(clf.var_, np.repeat(sig2[:, None], X.shape[1], axis=1), rtol=1e-12)
    np.testing.assert_allclose(clf.predict_joint_log_proba(x), expected, rtol=1e-11)
    post = np.exp(expected - expected.max(axis=1, keepdims=True))
    np.testing.assert_allclose(clf.predict_proba(x), post / post.sum(axis=1, keepdims=True),
                               rtol=1e-10, atol=1e-14)


def test_scalar_variance_decision_is_linear(rng):
    X, y = _three_gaussians(rng)
    clf = GaussianNB(variance="scalar", var_smoothing=0.0).fit(X, y)
    s2 = clf.var_[0, 0]
    x = rng.normal(size=(30, X.shape[1]))
    # log-odds against class 0: x·(μ_k - μ_0)/σ² + a constant
    jll = clf.predict_joint_log_proba(x)
    for k in (1, 2):
        slope = (clf.theta_[k] - clf.theta_[0]) / s2
        const = (jll[:, k] - jll[:, 0]) - x @ slope
        np.testing.assert_allclose(const, const[0], atol=1e-9)


def test_shared_feature_equals_the_old_shared_variance_flag(rng):
    X, y = _three_gaussians(rng)
    w = rng.uniform(0.5, 2.0, len(y))
    old = GaussianNB(shared_variance=True).fit(X, y, sample_weight=w)
    new = GaussianNB(variance="shared_feature").fit(X, y, sample_weight=w)
    both = GaussianNB(variance="shared_feature", shared_variance=True).fit(X, y, sample_weight=w)
    np.testing.assert_array_equal(old.var_, new.var_)
    np.testing.assert_array_equal(both.var_, new.var_)
    pooled = sum(w[y == k].sum() * np.average(
        (X[y == k] - np.average(X[y == k], axis=0, weights=w[y == k])) ** 2, axis=0,
        weights=w[y == k]) for k in range(3)) / w.sum()
    np.testing.assert_allclose(new.var_[1], pooled + new.epsilon_, rtol=1e-12)
    with pytest.raises(ValueError, match="cannot be combined with variance='per_class'"):
        GaussianNB(variance="per_class", shared_variance=True).fit(X, y)
    with pytest.raises(ValueError, match="variance"):
        GaussianNB(variance="diagonal").fit(X, y)


@pytest.mark.parametrize("variance", ["per_class", "scalar", "shared_feature"])
def test_tied_variances_partial_fit_equals_fit(rng, variance):
    X, y = _three_gaussians(rng)
    # var_smoothing=0: epsilon_ comes from the first batch alone, as in scikit-learn
    once = GaussianNB(variance=variance, var_smoothing=0.0).fit(X, y)
    batched = GaussianNB(variance=variance, var_smoothing=0.0)
    order = rng.permutation(len(y))
    for part in np.array_split(order, 3):
        batched.partial_fit(X[part], y[part], classes=[0, 1, 2])
    np.testing.assert_allclose(batched.var_, once.var_, rtol=1e-10)
    np.testing.assert_allclose(batched.predict_proba(X), once.predict_proba(X), atol=1e-10)
