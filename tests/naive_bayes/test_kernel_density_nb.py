"""KernelDensityNB against a direct product of scipy.stats.gaussian_kde densities."""

import numpy as np
import pytest
from scipy.special import logsumexp
from scipy.stats import gaussian_kde

from classiclearn.naive_bayes import KernelDensityNB


def _reference_proba(X, y, X_test, bandwidth, priors=None):
    classes = np.unique(y)
    columns = []
    for k, c in enumerate(classes):
        Xc = X[y == c]
        log_p = np.log(np.mean(y == c) if priors is None else priors[k])
        for j in range(X.shape[1]):
            col = Xc[:, j]
            bw = bandwidth if isinstance(bandwidth, str) else bandwidth / col.std(ddof=1)
            log_p = log_p + gaussian_kde(col, bw_method=bw).logpdf(X_test[:, j])
        columns.append(log_p)
    jll = np.column_stack(columns)
    return np.exp(jll - logsumexp(jll, axis=1, keepdims=True))


def _data(n, seed):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    X = rng.normal(size=(n, 4))
    X[:, 0] += y
    X[:, 1] *= 1 + y
    X[:, 2] = np.where(y == 2, rng.exponential(size=n), X[:, 2])
    X_test = rng.normal(size=(300, 4)) * 2
    return X, y, X_test


@pytest.mark.parametrize("bandwidth", ["scott", "silverman", 0.3])
def test_exact_equals_product_of_gaussian_kde(bandwidth):
    X, y, X_test = _data(400, 0)
    clf = KernelDensityNB(bandwidth=bandwidth, algorithm="exact").fit(X, y)
    expected = _reference_proba(X, y, X_test, bandwidth)
    np.testing.assert_allclose(clf.predict_proba(X_test), expected, rtol=0, atol=1e-6)
    np.testing.assert_allclose(
        np.exp(clf.predict_log_proba(X_test)), clf.predict_proba(X_test), rtol=1e-12
    )


def test_priors_and_far_queries():
    X, y, X_test = _data(300, 1)
    priors = np.array([0.2, 0.5, 0.3])
    clf = KernelDensityNB(priors=priors).fit(X, y)
    far = np.vstack([X_test, 40 * np.ones((3, 4)), -35 * np.ones((3, 4))])
    expected = _reference_proba(X, y, far, "scott", priors=priors)
    proba = clf.predict_proba(far)
    assert np.isfinite(proba).all()
    np.testing.assert_allclose(proba, expected, atol=1e-6)


@pytest.mark.parametrize("bandwidth", ["scott", 0.25])
def test_binned_is_close_to_exact(bandwidth):
    X, y, X_test = _data(3000, 2)
    far = np.vstack([X_test, [[30.0, -30.0, 50.0, 8.0]]])
    exact = KernelDensityNB(bandwidth=bandwidth, algorithm="exact").fit(X, y)
    binned = KernelDensityNB(bandwidth=bandwidth, algorithm="binned").fit(X, y)
    np.testing.assert_allclose(binned.bandwidth_, exact.bandwidth_)
    assert (binned._grid_len > 0).all()  # every density has a grid
    np.testing.assert_allclose(binned.predict_proba(far), exact.predict_proba(far), atol=1e-8)
    np.testing.assert_allclose(
        binned.predict_joint_log_proba(far), exact.predict_joint_log_proba(far), atol=1e-7
    )
    np.testing.assert_array_equal(binned.predict(far), exact.predict(far))
    # "auto" bins these classes (more than 500 samples each)
    auto = KernelDensityNB(bandwidth=bandwidth).fit(X, y)
    np.testing.assert_array_equal(auto.predict_proba(far), binned.predict_proba(far))


def test_default_matches_gaussian_kde_on_the_benchmark_size():
    # the size (20,000 x 10, 5 classes): "auto" bins every class, and the
    # binned densities still give the probabilities of the exact kernel sums
    rng = np.random.default_rng(7)
    n, p = 20_000, 10
    y = rng.integers(0, 5, n)
    centres = rng.normal(size=(5, p)) * 1.5
    X = rng.normal(size=(n, p)) * (1.0 + 0.3 * y[:, None]) + centres[y]
    X[:, 0] = np.where(y == 1, rng.exponential(size=n), X[:, 0])  # a skewed density
    X_test = np.vstack([
        rng.normal(size=(100, p)) * 2.5 + centres[rng.integers(0, 5, 100)],
        [[12.0] * p, [-9.0] * p],  # far tails: exact sums
    ])
    clf = KernelDensityNB().fit(X, y)
    assert (clf._grid_len > 0).all()
    expected = _reference_proba(X, y, X_test, "scott")
    np.testing.assert_allclose(clf.predict_proba(X_test), expected, rtol=0, atol=1e-6)


def test_bandwidth_rules_and_constant_feature():
    X, y, _ = _data(200, 3)
    X[y == 0, 3] = 1.5  # constant within class 0
    clf = KernelDensityNB(bandwidth="silverman").fit(X, y)
    n0 = np.sum(y == 0)
    std = X[y == 0, 0].std(ddof=1)
    np.testing.assert_allclose(clf.bandwidth_[0, 0], std * (n0 * 3 / 4) ** (-1 / 5))
    assert clf.bandwidth_[0, 3] > 0
    assert np.isfinite(clf.predict_proba(X)).all()
    assert clf.score(X, y) > 0.6


def test_nonlinear_boundary_beats_gaussian_nb():
    # one class in the middle, the other on both sides: no single Gaussian per
    # class separates them, a kernel density does (seed 004, general case)
    rng = np.random.default_rng(4)
    x = rng.uniform(-3, 3, size=(600, 1))
    y = (np.abs(x[:, 0]) < 1).astype(int)
    clf = KernelDensityNB().fit(x, y)
    assert clf.score(x, y) > 0.95


def test_bad_input():
    X, y, _ = _data(100, 5)
    with pytest.raises(ValueError, match="priors"):
        KernelDensityNB(priors=[0.5, 0.5]).fit(X, y)
    with pytest.raises(ValueError, match="bandwidth"):
        KernelDensityNB(bandwidth=-1.0).fit(X, y)
    with pytest.raises(ValueError, match="bandwidth"):
        KernelDensityNB(bandwidth="normal").fit(X, y)
    clf = KernelDensityNB().fit(X, y)
    with pytest.raises(ValueError, match="features"):
        clf.predict(X[:, :2])
