"""Perceptron.partial_fit and the online fit against scikit-learn's: the same
coefficients after the same sequence of batches (one SGD epoch per call), and
the same fit (epochs, stopping), with and without shuffling, penalties, class
and sample weights."""

import warnings

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal

from classiclearn.linear_model import Perceptron
from classiclearn.linear_model import _perceptron_kernels as _k

sk_lm = pytest.importorskip("sklearn.linear_model")


def _data(n_classes, seed=0, n=90):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 4))
    score = X[:, 0] + 0.5 * X[:, 1] + 0.4 * rng.normal(size=n)
    y = np.digitize(score, np.linspace(-0.8, 0.8, n_classes - 1))
    return X, y


PARAMS = [
    {},
    {"shuffle": False},
    {"random_state": 7, "eta0": 0.3},
    {"penalty": "l2", "alpha": 0.01},
    {"penalty": "l1", "alpha": 0.01},
    {"penalty": "elasticnet", "alpha": 0.02, "l1_ratio": 0.4},
    {"fit_intercept": False},
]


@pytest.mark.parametrize("n_classes", [2, 3, 4])
@pytest.mark.parametrize("params", PARAMS)
@pytest.mark.parametrize("weights", [None, "class", "sample", "both"])
def test_three_batches_match_sklearn(n_classes, params, weights):
    X, y = _data(n_classes)
    rng = np.random.default_rng(1)
    params = dict(params)
    if weights in ("class", "both"):
        params["class_weight"] = {0: 2.0, 1: 0.5}
    ours = Perceptron(**params)
    theirs = sk_lm.Perceptron(**params)
    classes = np.arange(n_classes)
    for start in (0, 30, 60):
        rows = slice(start, start + 30)
        sw = rng.random(30) + 0.5 if weights in ("sample", "both") else None
        ours.partial_fit(X[rows], y[rows], classes=classes if start == 0 else None,
                         sample_weight=sw)
        theirs.partial_fit(X[rows], y[rows], classes=classes, sample_weight=sw)
        assert_allclose(ours.coef_, theirs.coef_, rtol=1e-12, atol=1e-12)
        assert_allclose(ours.intercept_, theirs.intercept_, rtol=1e-12, atol=1e-12)
    assert ours.t_ == theirs.t_ == 91.0
    assert ours.n_iter_ == theirs.n_iter_ == 1
    assert_array_equal(ours.classes_, theirs.classes_)
    assert_array_equal(ours.predict(X), theirs.predict(X))


def test_string_labels_batches_missing_classes_and_after_fit():
    X, y = _data(3, seed=2)
    labels = np.array(["a", "b", "c"])[y]
    ours = Perceptron(random_state=3)
    theirs = sk_lm.Perceptron(random_state=3)
    # the first batch holds only two of the three classes
    first = labels != "c"
    for mask in (first, ~first, np.ones(len(y), bool)):
        ours.partial_fit(X[mask], labels[mask], classes=["c", "a", "b"])
        theirs.partial_fit(X[mask], labels[mask], classes=["c", "a", "b"])
    assert_allclose(ours.coef_, theirs.coef_, rtol=1e-12, atol=1e-12)
    assert_array_equal(ours.predict(X), theirs.predict(X))
    # partial_fit continues from fit's coefficients (scikit-learn given the same start)
    fitted = Perceptron(max_iter=5, tol=None).fit(X, labels)
    start = sk_lm.Perceptron()
    start.classes_, start.n_features_in_, start.t_ = fitted.classes_, 4, 1.0
    start.coef_, start.intercept_ = fitted.coef_.copy(), fitted.intercept_.copy()
    fitted.partial_fit(X[:10], labels[:10])
    start.partial_fit(X[:10], labels[:10])
    assert_allclose(fitted.coef_, start.coef_, rtol=1e-12, atol=1e-12)
    assert_allclose(fitted.intercept_, start.intercept_, rtol=1e-12, atol=1e-12)


def test_one_call_is_one_shuffled_epoch_of_fit_updates():
    # naive reference: Rosenblatt's rule over scikit-learn's shuffled order
    X, y = _data(2, seed=4, n=40)
    clf = Perceptron(random_state=11, eta0=0.5).partial_fit(X, y, classes=[0, 1])
    rs = np.random.RandomState(11)
    rs.randint(1, np.iinfo(np.int32).max)
    order = _k.xorshift_order(40, int(rs.randint(np.iinfo(np.int32).max)))
    assert sorted(order.tolist()) == list(range(40))
    w, b = np.zeros(4), 0.0
    for i in order:
        t = 1.0 if y[i] == 1 else -1.0
        if t * (X[i] @ w + b) <= 0:
            w += 0.5 * t * X[i]
            b += 0.5 * t
    assert_allclose(clf.coef_[0], w, rtol=1e-13, atol=1e-13)
    assert_allclose(clf.intercept_[0], b, rtol=1e-13, atol=1e-13)


def test_xorshift_order_known_values():
    # a hand-computed first draw: seed 1 -> 1 ^ (1 << 13) = 8193; ^ (8193 >> 17) = 8193;
    # ^ (8193 << 5) = 270369; position 0 swaps with 270369 % 5 = 4
    order = _k.xorshift_order(5, 1)
    assert order[0] == 4
    assert sorted(order.tolist()) == [0, 1, 2, 3, 4]
    assert_array_equal(_k.xorshift_order(1, 5), [0])


def test_partial_fit_errors():
    X, y = _data(2)
    with pytest.raises(ValueError, match="classes must be passed"):
        Perceptron().partial_fit(X, y)
    clf = Perceptron().partial_fit(X, y, classes=[0, 1])
    with pytest.raises(ValueError, match="not the same as on last call"):
        clf.partial_fit(X, y, classes=[0, 1, 2])
    with pytest.raises(ValueError, match="not in classes"):
        clf.partial_fit(X, y + 5)
    with pytest.raises(ValueError, match="features"):
        clf.partial_fit(X[:, :2], y)
    with pytest.raises(ValueError, match="balanced"):
        Perceptron(class_weight="balanced").partial_fit(X, y, classes=[0, 1])
    with pytest.raises(ValueError, match="early_stopping"):
        Perceptron(early_stopping=True).partial_fit(X, y, classes=[0, 1])
    with pytest.raises(ValueError, match="greater than one"):
        Perceptron().partial_fit(X, np.zeros(len(y)), classes=[0])
    X0 = X.copy()
    Perceptron().partial_fit(X, y, classes=[0, 1])
    assert_array_equal(X, X0)


FIT_PARAMS = PARAMS + [
    {"class_weight": "balanced", "random_state": 4},
    {"class_weight": {0: 2.0}},
    {"tol": None, "max_iter": 7},
    {"tol": 1e-2, "n_iter_no_change": 2},
    {"penalty": "l2", "alpha": 1e-4, "eta0": 0.1},
]


@pytest.mark.parametrize("n_classes", [2, 3, 4])
@pytest.mark.parametrize("params", FIT_PARAMS)
@pytest.mark.parametrize("weighted", [False, True])
def test_online_fit_matches_sklearn(n_classes, params, weighted):
    X, y = _data(n_classes, seed=8, n=200)
    sw = np.random.default_rng(9).random(200) + 0.5 if weighted else None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # both may stop at max_iter on these data
        ours = Perceptron(**params).fit(X, y, sample_weight=sw)
        theirs = sk_lm.Perceptron(**params).fit(X, y, sample_weight=sw)
    assert ours.n_iter_ == theirs.n_iter_
    assert ours.t_ == theirs.t_
    assert_allclose(ours.coef_, theirs.coef_, rtol=1e-12, atol=1e-12)
    assert_allclose(ours.intercept_, theirs.intercept_, rtol=1e-12, atol=1e-12)
    assert_array_equal(ours.predict(X), theirs.predict(X))


def test_warm_start_and_convergence_warning_as_sklearn():
    from classiclearn.exceptions import ConvergenceWarning

    X, y = _data(3, seed=10, n=200)
    ours = Perceptron(warm_start=True, max_iter=3)
    theirs = sk_lm.Perceptron(warm_start=True, max_iter=3)
    for _ in range(2):  # the second fit starts from the first one's coefficients
        with pytest.warns(ConvergenceWarning, match="Maximum number of iterations"):
            ours.fit(X, y)
        with pytest.warns(Warning, match="(?i)maximum number of iteration"):
            theirs.fit(X, y)
    assert_allclose(ours.coef_, theirs.coef_, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("params", PARAMS + [
    {"penalty": "l2", "alpha": 0.5},  # the weight scale is folded every ~30 samples
    {"penalty": "l2", "alpha": 1e-3, "early_stopping": True, "random_state": 2},
    {"penalty": "elasticnet", "alpha": 1e-3, "early_stopping": True},
])
def test_dense_fit_bit_for_bit_as_sklearn(params):
    # the dense pass computes four decision values at once and keeps the weights as
    # wscale * v: the weights must still be scikit-learn's to the last bit (301 rows, so
    # the last block is short; 37 columns, so the four-lane norms have a tail)
    rng = np.random.default_rng(3)
    X = rng.normal(size=(301, 37))
    y = (X[:, :3].sum(axis=1) + rng.normal(size=301) > 0).astype(int)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours = Perceptron(**params).fit(X, y)
        theirs = sk_lm.Perceptron(**params).fit(X, y)
    assert ours.n_iter_ == theirs.n_iter_
    assert_array_equal(ours.coef_, theirs.coef_)
    assert_array_equal(ours.intercept_, theirs.intercept_)
