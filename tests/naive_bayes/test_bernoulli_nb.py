"""BernoulliNB: seed 004's linear decision, scikit-learn parity, partial_fit."""

import itertools

import numpy as np
import pytest
import scipy.sparse as sp

from classiclearn.naive_bayes import BernoulliNB

sk_nb = pytest.importorskip("sklearn.naive_bayes")


def _edf_counter_data(seed=0, n=400):
    """Seed 004's EDF example: 4 power classes, 3 binary features
    (electrical heating, house, drying machine)."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 4, n)
    p_one = np.array([[0.1, 0.3, 0.2], [0.4, 0.5, 0.4], [0.7, 0.6, 0.7], [0.9, 0.8, 0.85]])
    X = (rng.uniform(size=(n, 3)) < p_one[y]).astype(int)
    return X, np.array([3, 6, 9, 12])[y]


def test_seed004_decision_is_linear_with_closed_form_log_odds():
    X, y = _edf_counter_data()
    clf = BernoulliNB(alpha=0.0, binarize=None).fit(X, y)
    N = len(y)
    for k, label in enumerate(clf.classes_):
        Xk = X[y == label]
        N_k = len(Xk)
        pi = Xk.sum(axis=0) / N_k  # n_ki / N_k
        # y_k(x) = sum_i [x_i ln pi_ki + (1 - x_i) ln(1 - pi_ki)] + ln N_k / N
        weights = np.log(pi) - np.log(1 - pi)
        bias = np.sum(np.log(1 - pi)) + np.log(N_k / N)
        np.testing.assert_allclose(clf.coef_[k], weights, rtol=1e-12)
        np.testing.assert_allclose(clf.intercept_[k], bias, rtol=1e-12)
    # the decision on every binary x is exactly the affine function x @ W.T + b
    grid = np.array(list(itertools.product([0, 1], repeat=3)))
    jll = clf.predict_joint_log_proba(grid)
    np.testing.assert_allclose(jll, grid @ clf.coef_.T + clf.intercept_, rtol=1e-12)
    direct = np.array([
        [
            np.sum(x * np.log(pk) + (1 - x) * np.log(1 - pk)) + np.log(np.mean(y == lab))
            for pk, lab in zip(np.exp(clf.feature_log_prob_), clf.classes_)
        ]
        for x in grid
    ])
    np.testing.assert_allclose(jll, direct, rtol=1e-12)
    # pairwise log-odds are affine: second differences along each axis vanish
    log_odds = jll[:, 1] - jll[:, 0]
    for i in range(3):
        step = 2 ** (2 - i)
        diffs = [log_odds[j + step] - log_odds[j] for j in range(8) if not (j // step) % 2]
        np.testing.assert_allclose(diffs, diffs[0], rtol=1e-12)


def test_zero_frequency_with_alpha_zero_is_handled():
    X = np.array([[1, 0], [1, 1], [0, 0], [0, 1]])
    clf = BernoulliNB(alpha=0.0, binarize=None).fit(X, [0, 0, 1, 1])
    proba = clf.predict_proba([[1, 0], [0, 1]])
    np.testing.assert_allclose(proba, [[1.0, 0.0], [0.0, 1.0]])


@pytest.mark.parametrize(
    "params",
    [{}, {"alpha": 0.3, "binarize": 0.5}, {"fit_prior": False},
     {"class_prior": [0.2, 0.3, 0.5]}, {"alpha": 1e-12, "force_alpha": True}],
)
def test_parity_with_sklearn(params):
    rng = np.random.default_rng(1)
    X = rng.normal(size=(300, 8))
    y = rng.integers(0, 3, 300)
    X += y[:, None] * 0.3
    w = rng.uniform(0, 2, 300)
    X_test = rng.normal(size=(50, 8))
    ours = BernoulliNB(**params).fit(X, y, sample_weight=w)
    theirs = sk_nb.BernoulliNB(**params).fit(X, y, sample_weight=w)
    np.testing.assert_allclose(ours.predict_proba(X_test), theirs.predict_proba(X_test),
                               rtol=0, atol=1e-8)
    np.testing.assert_allclose(ours.predict_log_proba(X_test),
                               theirs.predict_log_proba(X_test), rtol=1e-8)
    np.testing.assert_allclose(ours.feature_log_prob_, theirs.feature_log_prob_, rtol=1e-12)
    np.testing.assert_allclose(ours.class_log_prior_, theirs.class_log_prior_, rtol=1e-12)
    np.testing.assert_allclose(ours.feature_count_, theirs.feature_count_, rtol=1e-12)


def test_sparse_input_and_partial_fit_equal_fit():
    rng = np.random.default_rng(2)
    X = np.maximum(rng.normal(size=(240, 6)), 0)
    y = rng.integers(0, 3, 240)
    dense = BernoulliNB().fit(X, y)
    sparse = BernoulliNB().fit(sp.csr_matrix(X), y)
    np.testing.assert_allclose(dense.predict_proba(X), sparse.predict_proba(sp.csr_matrix(X)))
    online = BernoulliNB()
    theirs = sk_nb.BernoulliNB()
    for start in range(0, 240, 80):
        online.partial_fit(X[start:start + 80], y[start:start + 80], classes=[0, 1, 2])
        theirs.partial_fit(X[start:start + 80], y[start:start + 80], classes=[0, 1, 2])
    np.testing.assert_allclose(online.predict_proba(X), dense.predict_proba(X), rtol=1e-12)
    np.testing.assert_allclose(online.predict_proba(X), theirs.predict_proba(X), atol=1e-8)


def test_sample_weight_is_repetition():
    X, y = _edf_counter_data(seed=3, n=60)
    w = np.arange(60) % 3
    weighted = BernoulliNB().fit(X, y, sample_weight=w)
    repeated = BernoulliNB().fit(np.repeat(X, w, axis=0), np.repeat(y, w))
    np.testing.assert_allclose(weighted.predict_proba(X), repeated.predict_proba(X), rtol=1e-12)


def test_bad_input():
    X, y = _edf_counter_data(seed=4, n=50)
    with pytest.raises(ValueError, match="classes must be passed"):
        BernoulliNB().partial_fit(X, y)
    with pytest.raises(ValueError, match="priors"):
        BernoulliNB(class_prior=[0.5, 0.5]).fit(X, y)
    with pytest.raises(ValueError, match="alpha"):
        BernoulliNB(alpha=-1.0).fit(X, y)
    clf = BernoulliNB().partial_fit(X, y, classes=np.unique(y))
    with pytest.raises(ValueError, match="do not exist"):
        clf.partial_fit(X[:2], [99, 99])
    with pytest.warns(UserWarning, match="alpha too small"):
        BernoulliNB(alpha=0.0, force_alpha=False).fit(X, y)
