"""Every linear classifier predicts through the one shared decision function (issue #21)."""

import numpy as np
import pytest

from classiclearn._tags import get_tags
from classiclearn.discriminant_analysis import LinearDiscriminantAnalysis
from classiclearn.linear_model import LeastSquaresClassifier, LogisticRegression, Perceptron
from classiclearn.svm import LinearSVC
from classiclearn.utils._linear import LinearClassifierMixin

LINEAR = [LogisticRegression, Perceptron, LeastSquaresClassifier, LinearSVC,
          LinearDiscriminantAnalysis]


@pytest.mark.parametrize("cls", LINEAR, ids=lambda c: c.__name__)
def test_one_decision_function(cls):
    # (BaseEstimator wraps row methods for Dask input, so compare where they come from)
    for name in ("decision_function", "predict"):
        method = getattr(cls, name)
        assert method.__qualname__ == f"LinearClassifierMixin.{name}"
        assert method.__module__ == LinearClassifierMixin.__module__
    assert get_tags(cls()).linear_decision


@pytest.mark.parametrize("cls", LINEAR, ids=lambda c: c.__name__)
@pytest.mark.parametrize("n_classes", [2, 3])
def test_decision_is_the_linear_function(cls, n_classes, rng):
    X = rng.normal(size=(90, 4))
    y = np.arange(90) % n_classes
    est = cls().fit(X, y)
    scores = est.decision_function(X)
    expected = X @ np.atleast_2d(est.coef_).T + est.intercept_
    np.testing.assert_allclose(scores, expected[:, 0] if n_classes == 2 else expected,
                               rtol=1e-12, atol=1e-12)
    picked = (scores > 0).astype(int) if n_classes == 2 else scores.argmax(axis=1)
    np.testing.assert_array_equal(est.predict(X), est.classes_[picked])
