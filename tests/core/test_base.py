"""The estimator protocol: parameters, cloning, repr, tags and scikit-learn interop."""

import pickle

import numpy as np
import pytest

from classiclearn.base import BaseEstimator, ClassifierMixin, clone, is_classifier, is_regressor
from classiclearn.naive_bayes import GaussianNB


class Inner(BaseEstimator):
    def __init__(self, a=1, *, b="x"):
        self.a = a
        self.b = b


class Outer(BaseEstimator):
    def __init__(self, inner=None, c=0.5):
        self.inner = inner
        self.c = c


def test_get_params_shallow_and_deep():
    outer = Outer(inner=Inner(a=3))
    assert outer.get_params(deep=False) == {"c": 0.5, "inner": outer.inner}
    deep = outer.get_params()
    assert deep["inner__a"] == 3 and deep["inner__b"] == "x"


def test_set_params_nested_and_errors():
    outer = Outer(inner=Inner())
    assert outer.set_params(inner__a=7, c=2.0) is outer
    assert outer.inner.a == 7 and outer.c == 2.0
    with pytest.raises(ValueError, match="Invalid parameter 'zzz'"):
        outer.set_params(zzz=1)


def test_repr_shows_only_non_default_parameters():
    assert repr(Inner()) == "Inner()"
    assert repr(Inner(a=2, b="y")) == "Inner(a=2, b='y')"
    assert repr(GaussianNB(priors=np.array([0.5, 0.5]))).startswith("GaussianNB(priors=array(")


def test_clone_is_unfitted_and_deep():
    X = np.array([[0.0], [1.0], [2.0], [3.0]])
    fitted = GaussianNB(var_smoothing=1e-3).fit(X, [0, 0, 1, 1])
    copy = clone(fitted)
    assert copy.var_smoothing == 1e-3
    assert not hasattr(copy, "theta_")
    outer = Outer(inner=Inner(a=4))
    cloned = clone(outer)
    assert cloned.inner is not outer.inner and cloned.inner.a == 4


def test_clone_refuses_non_estimators():
    with pytest.raises(TypeError, match="get_params"):
        clone(object())


def test_var_args_are_refused():
    class Bad(BaseEstimator):
        def __init__(self, *args):
            self.args = args

    with pytest.raises(RuntimeError, match="explicitly"):
        Bad().get_params()


def test_estimator_kinds():
    assert is_classifier(GaussianNB()) and not is_regressor(GaussianNB())

    class Clf(ClassifierMixin, BaseEstimator):
        pass

    assert Clf().__classiclearn_tags__().estimator_type == "classifier"


def test_pickle_round_trip():
    X = np.array([[0.0], [1.0], [2.0], [3.0]])
    clf = GaussianNB().fit(X, [0, 0, 1, 1])
    again = pickle.loads(pickle.dumps(clf))
    np.testing.assert_array_equal(again.predict_proba(X), clf.predict_proba(X))


def test_sklearn_sees_our_estimators_as_its_own():
    from sklearn.base import clone as sk_clone
    from sklearn.base import is_classifier as sk_is_classifier
    from sklearn.model_selection import GridSearchCV, cross_val_score
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    X, y = np.random.default_rng(0).normal(size=(60, 3)), np.repeat([0, 1, 2], 20)
    X[y == 1] += 2
    assert sk_is_classifier(GaussianNB())
    assert sk_clone(GaussianNB(var_smoothing=0.1)).var_smoothing == 0.1
    pipe = make_pipeline(StandardScaler(), GaussianNB())
    assert cross_val_score(pipe, X, y, cv=3).mean() > 0.5
    search = GridSearchCV(GaussianNB(), {"var_smoothing": [1e-9, 1e-1]}, cv=3).fit(X, y)
    assert search.best_params_["var_smoothing"] in (1e-9, 1e-1)


def test_not_fitted_error_is_caught_by_both_libraries():
    from sklearn.exceptions import NotFittedError as SkNotFittedError

    from classiclearn.exceptions import NotFittedError

    for exc_type in (NotFittedError, SkNotFittedError, ValueError, AttributeError):
        with pytest.raises(exc_type, match="not fitted yet"):
            GaussianNB().predict([[0.0]])


def test_param_names_read_once_per_init_and_returned_as_copies():
    from classiclearn.base import _PARAM_NAMES, BaseEstimator

    class Two(BaseEstimator):
        def __init__(self, b=1, a=2):
            self.a, self.b = a, b

    names = Two._get_param_names()
    assert names == ["a", "b"] and Two.__init__ in _PARAM_NAMES
    names.append("c")  # the caller's list, not the cache
    assert Two._get_param_names() == ["a", "b"]
    assert Two(b=5).get_params() == {"a": 2, "b": 5}

    def other_init(self, z=0):
        self.z = z

    Two.__init__ = other_init  # a new __init__ is read afresh
    assert Two._get_param_names() == ["z"]
