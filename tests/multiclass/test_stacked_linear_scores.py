"""The wrappers score binary linear models of ours as one product (X validated and
read once): the same scores and predictions as asking each model, which is what
they do for any other binary classifier."""

import numpy as np
import pytest
import scipy.sparse as sp
from numpy.testing import assert_allclose, assert_array_equal

from classiclearn.linear_model import LeastSquaresClassifier, LogisticRegression, Perceptron
from classiclearn.multiclass import OneVsRestClassifier, OutputCodeClassifier
from classiclearn.svm import LinearSVC
from classiclearn.utils._linear import stacked_decision_functions


def _data(n_classes=4, n=300, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 5))
    score = X[:, 0] + 0.5 * X[:, 1] + 0.3 * rng.normal(size=n)
    return X, np.digitize(score, np.linspace(-1.0, 1.0, n_classes - 1))


def _one_by_one(estimators, X):
    return np.column_stack([e.decision_function(X) for e in estimators])


@pytest.mark.parametrize("inner", [LogisticRegression(), LeastSquaresClassifier(alpha=0.3),
                                   Perceptron(random_state=0),
                                   LogisticRegression(fit_intercept=False)],
                         ids=["logistic", "least_squares", "perceptron", "no_intercept"])
@pytest.mark.parametrize("sparse", [False, True], ids=["dense", "csr"])
def test_stacked_scores_equal_each_model(inner, sparse):
    X, y = _data()
    Xq = sp.csr_matrix(X) if sparse and not isinstance(inner, LeastSquaresClassifier) else X
    book = [[1, 0, 0, 1, 1], [0, 1, 0, 1, 0], [0, 0, 1, 0, 1], [1, 1, 1, 0, 0]]
    for wrapper in (OneVsRestClassifier(inner), OutputCodeClassifier(inner, code_book=book)):
        wrapper.fit(Xq, y)
        stacked = stacked_decision_functions(wrapper.estimators_, Xq)
        assert stacked is not None
        assert_allclose(stacked, _one_by_one(wrapper.estimators_, Xq), rtol=1e-12,
                        atol=1e-12)
    ovr = OneVsRestClassifier(inner).fit(Xq, y)
    each = _one_by_one(ovr.estimators_, Xq)
    ecoc = OutputCodeClassifier(inner, code_book=book).fit(Xq, y)
    codes = _one_by_one(ecoc.estimators_, Xq)
    distances = ((codes[:, None, :] - ecoc.code_book_[None]) ** 2).sum(axis=2)
    assert_array_equal(ecoc.predict(Xq), ecoc.classes_[np.argmin(distances, axis=1)])
    assert_array_equal(ovr.predict(Xq), ovr.classes_[np.argmax(each, axis=1)])
    assert_allclose(ovr.decision_function(Xq), each, rtol=1e-12, atol=1e-12)


def test_other_models_are_asked_one_by_one():
    X, y = _data()
    svc = OneVsRestClassifier(LinearSVC()).fit(X, y)  # its own product
    assert stacked_decision_functions(svc.estimators_, X) is None
    logistic = OneVsRestClassifier(LogisticRegression()).fit(X, y)
    mixed = [logistic.estimators_[0], svc.estimators_[1]]
    assert stacked_decision_functions(mixed, X) is None
    multi = LogisticRegression().fit(X, y)  # several classes in one model
    assert stacked_decision_functions([multi], X) is None
    assert stacked_decision_functions([], X) is None
    # a class present in every sample: a constant predictor among the models
    y_all = np.where(np.arange(len(y)) % 2 == 0, 0, 1)
    with pytest.warns(UserWarning, match="present in all training examples"):
        ovr = OneVsRestClassifier(LogisticRegression()).fit(
            X, np.column_stack([y_all, np.ones_like(y_all)]))
    assert stacked_decision_functions(ovr.estimators_, X) is None


def test_stacked_scores_refuse_bad_X_like_each_model():
    X, y = _data()
    ovr = OneVsRestClassifier(LogisticRegression()).fit(X, y)
    bad = X.copy()
    bad[3, 2] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        ovr.predict(bad)
    with pytest.raises(ValueError, match="features"):
        ovr.predict(X[:, :3])
