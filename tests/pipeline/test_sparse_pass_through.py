"""Sparse X carried untouched through Pipeline, GridSearchCV, cross_val_score and the
multiclass wrappers (the text-classification workload of scikit-learn users)."""

import numpy as np
import pytest
import scipy.sparse as sp

from classiclearn.linear_model import LogisticRegression, Perceptron
from classiclearn.model_selection import GridSearchCV, cross_val_score
from classiclearn.multiclass import OneVsOneClassifier, OneVsRestClassifier
from classiclearn.naive_bayes import MultinomialNB
from classiclearn.pipeline import Pipeline
from classiclearn.preprocessing import MaxAbsScaler, Normalizer
from classiclearn.svm import LinearSVC
from classiclearn.tree import DecisionTreeClassifier


class _RefuseDense:
    """A step that fails if it is handed a dense array: proves nothing densified X."""

    def fit(self, X, y=None):
        assert sp.issparse(X), "X was densified before this step"
        return self

    def transform(self, X):
        assert sp.issparse(X), "X was densified before this step"
        return X

    def get_params(self, deep=True):
        return {}

    def set_params(self, **params):
        return self


def _text_like(n=300, p=400, n_classes=3, seed=0):
    X = sp.random(n, p, density=0.03, random_state=seed, format="csr")
    X.data = np.ceil(X.data * 4)
    w = np.random.default_rng(seed).normal(size=(p, n_classes))
    y = np.asarray((X @ w).argmax(axis=1)).ravel()
    return X, y


@pytest.mark.parametrize("final", [LogisticRegression(max_iter=500), LinearSVC(),
                                   MultinomialNB(), Perceptron(),
                                   DecisionTreeClassifier(random_state=0)])
def test_pipeline_carries_sparse_to_the_model(final):
    X, y = _text_like()
    steps = [("check", _RefuseDense())]
    if not isinstance(final, MultinomialNB):
        steps += [("norm", Normalizer()), ("scale", MaxAbsScaler()), ("check2", _RefuseDense())]
    pipe = Pipeline(steps + [("model", final)]).fit(X, y)
    assert pipe.score(X, y) > 0.6
    assert np.array_equal(pipe.predict(X), pipe.predict(X.tocsc()))


def test_grid_search_and_cross_validation_on_sparse():
    X, y = _text_like()
    search = GridSearchCV(Pipeline([("check", _RefuseDense()), ("svc", LinearSVC())]),
                          {"svc__C": [0.1, 1.0]}, cv=3).fit(X, y)
    assert search.best_params_["svc__C"] in (0.1, 1.0)
    scores = cross_val_score(MultinomialNB(), X, y, cv=3)
    assert scores.shape == (3,) and np.all(scores > 0.4)


@pytest.mark.parametrize("wrapper", [OneVsRestClassifier, OneVsOneClassifier])
def test_multiclass_wrappers_pass_sparse_through(wrapper):
    X, y = _text_like()
    model = wrapper(LinearSVC()).fit(X, y)
    dense = wrapper(LinearSVC()).fit(X.toarray(), y)
    np.testing.assert_array_equal(model.predict(X), dense.predict(X.toarray()))
