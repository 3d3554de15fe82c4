"""OneVsRestClassifier / OneVsOneClassifier.partial_fit against scikit-learn's
wrappers, with our Perceptron and with scikit-learn's SGDClassifier inside."""

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal

from classiclearn.discriminant_analysis import LinearDiscriminantAnalysis
from classiclearn.linear_model import Perceptron
from classiclearn.multiclass import OneVsOneClassifier, OneVsRestClassifier

sk_lm = pytest.importorskip("sklearn.linear_model")
sk_mc = pytest.importorskip("sklearn.multiclass")

WRAPPERS = [
    (OneVsRestClassifier, sk_mc.OneVsRestClassifier),
    (OneVsOneClassifier, sk_mc.OneVsOneClassifier),
]


def _data(n_classes, seed=0, n=120):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 4))
    score = X[:, 0] + 0.5 * X[:, 1] + 0.3 * rng.normal(size=n)
    return X, np.digitize(score, np.linspace(-1.0, 1.0, n_classes - 1))


def _inner(kind, ours):
    if kind == "perceptron":
        return Perceptron(random_state=1) if ours else sk_lm.Perceptron(random_state=1)
    return sk_lm.SGDClassifier(random_state=1, alpha=0.01)


@pytest.mark.parametrize("wrappers", WRAPPERS, ids=["ovr", "ovo"])
@pytest.mark.parametrize("inner", ["perceptron", "sgd"])
@pytest.mark.parametrize("n_classes", [2, 3, 4])
def test_three_batches_match_sklearn(wrappers, inner, n_classes):
    ours_cls, theirs_cls = wrappers
    X, y = _data(n_classes)
    ours = ours_cls(_inner(inner, True))
    theirs = theirs_cls(_inner(inner, False))
    classes = np.arange(n_classes)
    for start in (0, 40, 80):
        rows = slice(start, start + 40)
        ours.partial_fit(X[rows], y[rows], classes=classes if start == 0 else None)
        theirs.partial_fit(X[rows], y[rows], classes=classes)
    assert len(ours.estimators_) == len(theirs.estimators_)
    for a, b in zip(ours.estimators_, theirs.estimators_):
        assert_allclose(a.coef_, b.coef_, rtol=1e-12, atol=1e-12)
        assert_allclose(a.intercept_, b.intercept_, rtol=1e-12, atol=1e-12)
    assert_array_equal(ours.classes_, theirs.classes_)
    assert_array_equal(ours.predict(X), theirs.predict(X))
    assert_allclose(ours.decision_function(X), theirs.decision_function(X), rtol=1e-10,
                    atol=1e-10)
    assert ours.n_features_in_ == 4


@pytest.mark.parametrize("wrappers", WRAPPERS, ids=["ovr", "ovo"])
def test_batches_missing_classes_and_string_labels(wrappers):
    ours_cls, theirs_cls = wrappers
    X, y = _data(3, seed=3)
    labels = np.array(["x", "y", "z"])[y]
    ours = ours_cls(Perceptron(random_state=2))
    theirs = theirs_cls(sk_lm.Perceptron(random_state=2))
    masks = [labels != "z", labels != "x", np.ones(len(y), bool)]
    for mask in masks:
        ours.partial_fit(X[mask], labels[mask], classes=["x", "y", "z"])
        # scikit-learn's one-vs-one builds its 0/1 targets with zeros_like(y), which
        # fails on string labels: it gets the codes (the same sorted order)
        theirs.partial_fit(X[mask], y[mask], classes=[0, 1, 2])
    for a, b in zip(ours.estimators_, theirs.estimators_):
        assert_allclose(a.coef_, b.coef_, rtol=1e-12, atol=1e-12)
    assert_array_equal(ours.predict(X), np.array(["x", "y", "z"])[theirs.predict(X)])


def test_ovo_passes_sliced_sample_weight():
    X, y = _data(3, seed=5)
    w = np.random.default_rng(6).random(len(y)) + 0.5
    ovo = OneVsOneClassifier(Perceptron(random_state=4))
    ovo.partial_fit(X, y, classes=[0, 1, 2], sample_weight=w)
    # the pair (0, 2) classifier saw exactly the rows of classes 0 and 2, weighted
    rows = np.flatnonzero((y == 0) | (y == 2))
    ref = Perceptron(random_state=4).partial_fit(
        X[rows], (y[rows] == 2).astype(int), classes=[0, 1], sample_weight=w[rows]
    )
    assert_allclose(ovo.estimators_[1].coef_, ref.coef_, rtol=1e-13)


@pytest.mark.parametrize("wrapper", [OneVsRestClassifier, OneVsOneClassifier])
def test_partial_fit_errors_and_availability(wrapper):
    X, y = _data(3)
    assert not hasattr(wrapper(LinearDiscriminantAnalysis()), "partial_fit")
    clf = wrapper(Perceptron())
    with pytest.raises(ValueError, match="classes must be passed"):
        clf.partial_fit(X, y)
    clf.partial_fit(X, y, classes=[0, 1, 2])
    with pytest.raises(ValueError, match="Mini-batch contains"):
        clf.partial_fit(X, y + 1)
    with pytest.raises(ValueError, match="not the same as on last call"):
        clf.partial_fit(X, y, classes=[0, 1])
    with pytest.raises(ValueError, match="features"):
        clf.partial_fit(X[:, :3], y)
