"""cross_validate / cross_val_score / cross_val_predict / GridSearchCV against scikit-learn."""

import warnings

import numpy as np
import pytest

from classiclearn.base import BaseEstimator, ClassifierMixin
from classiclearn.datasets import load_iris
from classiclearn.model_selection import (
    FitFailedWarning,
    GridSearchCV,
    KFold,
    ParameterGrid,
    ParameterSampler,
    RandomizedSearchCV,
    StratifiedKFold,
    cross_val_predict,
    cross_val_score,
    cross_validate,
)
from classiclearn.naive_bayes import GaussianNB
from classiclearn.pipeline import make_pipeline
from classiclearn.preprocessing import StandardScaler

skms = pytest.importorskip("sklearn.model_selection")
sklm = pytest.importorskip("sklearn.linear_model")
sknb = pytest.importorskip("sklearn.naive_bayes")
sknn = pytest.importorskip("sklearn.neighbors")


@pytest.fixture(scope="module")
def iris():
    return load_iris(return_X_y=True)


def _folds(X, y, k=5):
    return list(StratifiedKFold(k, shuffle=True, random_state=0).split(X, y))


@pytest.mark.parametrize("make", [GaussianNB, sknb.GaussianNB])
def test_cross_validate_matches_sklearn_on_same_folds(iris, make):
    X, y = iris
    folds = _folds(X, y)
    scoring = ["accuracy", "f1_macro", "neg_log_loss", "roc_auc_ovr"]
    a = cross_validate(make(), X, y, cv=folds, scoring=scoring, return_train_score=True)
    b = skms.cross_validate(make(), X, y, cv=folds, scoring=scoring, return_train_score=True)
    for key in b:
        if key.endswith("_time"):
            assert a[key].shape == b[key].shape and np.all(a[key] >= 0)
        else:
            np.testing.assert_allclose(a[key], b[key], rtol=1e-9, err_msg=key)


def test_cross_val_score_default_cv_is_stratified_for_classifiers(iris):
    X, y = iris
    order = np.argsort(y, kind="stable")  # sorted labels: plain KFold would fail badly
    scores = cross_val_score(GaussianNB(), X[order], y[order], cv=3)
    theirs = skms.cross_val_score(GaussianNB(), X[order], y[order], cv=3)
    assert scores.mean() > 0.9
    assert abs(scores.mean() - theirs.mean()) < 0.05


def test_cross_validate_regression_dict_scoring_and_callable():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 3))
    y = X @ [1.0, -2.0, 0.5] + rng.normal(scale=0.1, size=60)
    folds = list(KFold(4, shuffle=True, random_state=0).split(X))

    def neg_max(est, X, y):
        return -float(np.max(np.abs(est.predict(X) - y)))

    scoring = {"r2": "r2", "mse": "neg_mean_squared_error", "worst": neg_max}
    a = cross_validate(sklm.Ridge(), X, y, cv=folds, scoring=scoring)
    b = skms.cross_validate(sklm.Ridge(), X, y, cv=folds, scoring=scoring)
    for key in ("test_r2", "test_mse", "test_worst"):
        np.testing.assert_allclose(a[key], b[key], rtol=1e-10)
    res = cross_validate(sklm.Ridge(), X, y, cv=folds, return_estimator=True,
                         return_indices=True)
    assert len(res["estimator"]) == 4 and hasattr(res["estimator"][0], "coef_")
    assert [te.tolist() for te in res["indices"]["test"]] == [te.tolist() for _, te in folds]


def test_n_jobs_gives_same_result(iris):
    X, y = iris
    a = cross_val_score(GaussianNB(), X, y, cv=5, n_jobs=1)
    b = cross_val_score(GaussianNB(), X, y, cv=5, n_jobs=2)
    np.testing.assert_array_equal(a, b)


def test_fit_params_are_indexed_per_fold(iris):
    X, y = iris
    w = np.ones(len(y))
    w[y == 0] = 3.0
    folds = _folds(X, y)
    a = cross_val_score(GaussianNB(), X, y, cv=folds, params={"sample_weight": w})
    b = skms.cross_val_score(GaussianNB(), X, y, cv=folds, params={"sample_weight": w})
    np.testing.assert_allclose(a, b)


class _Fails(ClassifierMixin, BaseEstimator):
    def __init__(self, fail=True):
        self.fail = fail

    def fit(self, X, y):
        if self.fail:
            raise RuntimeError("boom")
        self.classes_ = np.unique(y)
        return self

    def predict(self, X):
        return np.full(len(X), self.classes_[0])


def test_error_score(iris):
    X, y = iris
    with pytest.raises(RuntimeError, match="boom"):
        cross_val_score(_Fails(), X, y, cv=3, error_score="raise")
    with pytest.raises(ValueError, match="All the 3 fits failed"):
        cross_val_score(_Fails(), X, y, cv=3)
    grid = GridSearchCV(_Fails(), {"fail": [True, False]}, cv=3)
    with pytest.warns(FitFailedWarning, match="3 fits failed out of a total of 6"):
        grid.fit(X, y)
    assert np.isnan(grid.cv_results_["mean_test_score"][0])
    assert grid.best_params_ == {"fail": False}


@pytest.mark.parametrize("method", ["predict", "predict_proba", "predict_log_proba"])
def test_cross_val_predict_matches_sklearn(iris, method):
    X, y = iris
    folds = _folds(X, y)
    a = cross_val_predict(GaussianNB(), X, y, cv=folds, method=method)
    b = skms.cross_val_predict(GaussianNB(), X, y, cv=folds, method=method)
    np.testing.assert_allclose(a, b, rtol=1e-10)
    with pytest.raises(ValueError, match="partitions"):
        cross_val_predict(GaussianNB(), X, y, cv=[(np.arange(100), np.arange(100, 120))])


def test_cross_val_predict_missing_class_in_fold():
    X = np.arange(12, dtype=float).reshape(-1, 1)
    y = np.array([0] * 5 + [1] * 5 + [2] * 2)
    folds = [(np.arange(10), np.arange(10, 12)), (np.r_[0:4, 6:12], np.arange(4, 6)),
             (np.arange(2, 12), np.arange(0, 2)), (np.r_[0:2, 4:12], np.arange(2, 4)),
             (np.r_[0:6, 8:12], np.arange(6, 8)), (np.r_[0:8, 10:12], np.arange(8, 10))]
    proba = cross_val_predict(sknb.GaussianNB(), X, y, cv=folds, method="predict_proba")
    assert proba.shape == (12, 3)
    np.testing.assert_allclose(proba[10:, 2], 0.0)


@pytest.mark.parametrize("grid", [
    {"n_neighbors": [1, 5, 15, 40]},
    [{"n_neighbors": [3, 9]}, {"n_neighbors": [25], "weights": ["distance"]}],
])
def test_grid_search_matches_sklearn(iris, grid):
    X, y = iris
    folds = _folds(X, y, 3)
    kw = dict(cv=folds, scoring="accuracy", return_train_score=True)
    a = GridSearchCV(sknn.KNeighborsClassifier(), grid, **kw).fit(X, y)
    b = skms.GridSearchCV(sknn.KNeighborsClassifier(), grid, **kw).fit(X, y)
    assert a.best_params_ == b.best_params_
    assert a.best_score_ == pytest.approx(b.best_score_)
    assert a.best_index_ == b.best_index_
    for key in b.cv_results_:
        if "time" in key:
            continue
        if key.startswith("param_"):
            assert list(a.cv_results_[key]) == list(b.cv_results_[key]), key
        elif key == "params":
            assert a.cv_results_[key] == b.cv_results_[key]
        else:
            np.testing.assert_allclose(a.cv_results_[key], b.cv_results_[key], err_msg=key)
    np.testing.assert_array_equal(a.predict(X), b.predict(X))
    np.testing.assert_allclose(a.predict_proba(X), b.predict_proba(X))
    assert a.score(X, y) == pytest.approx(b.score(X, y))
    assert a.n_features_in_ == 4 and list(a.classes_) == [0, 1, 2]


def test_grid_search_pipeline_multimetric_refit(iris):
    X, y = iris
    pipe = make_pipeline(StandardScaler(), GaussianNB())
    search = GridSearchCV(pipe, {"gaussiannb__var_smoothing": [1e-9, 1e-2, 10.0]},
                          scoring={"acc": "accuracy", "f1": "f1_macro"}, refit="f1", cv=4)
    search.fit(X, y)
    assert search.multimetric_
    assert "mean_test_acc" in search.cv_results_ and "rank_test_f1" in search.cv_results_
    assert search.best_estimator_.named_steps["gaussiannb"].var_smoothing == \
        search.best_params_["gaussiannb__var_smoothing"]
    assert hasattr(search, "predict_proba") and not hasattr(search, "transform")
    with pytest.raises(ValueError, match="refit"):
        GridSearchCV(pipe, {"gaussiannb__var_smoothing": [1e-9]},
                     scoring=["accuracy", "f1_macro"]).fit(X, y)
    no_refit = GridSearchCV(GaussianNB(), {"var_smoothing": [1e-9]}, refit=False).fit(X, y)
    with pytest.raises(AttributeError, match="refit=False"):
        no_refit.predict(X)


def test_sklearn_grid_search_on_our_pipeline(iris):
    X, y = iris
    pipe = make_pipeline(StandardScaler(), GaussianNB())
    search = skms.GridSearchCV(pipe, {"gaussiannb__var_smoothing": [1e-9, 1e-3]}, cv=3)
    search.fit(X, y)
    assert search.best_score_ > 0.9


def test_parameter_grid_and_sampler():
    grid = ParameterGrid({"b": [1, 2], "a": ["x", "y", "z"]})
    assert len(grid) == 6
    assert list(grid) == list(skms.ParameterGrid({"b": [1, 2], "a": ["x", "y", "z"]}))
    assert [grid[i] for i in range(6)] == list(grid)
    with pytest.raises(TypeError, match="needs to be a list"):
        ParameterGrid({"a": 1})
    scipy_stats = pytest.importorskip("scipy.stats")
    draws = list(ParameterSampler({"C": scipy_stats.uniform(0, 1), "k": [1, 2]}, 5,
                                  random_state=0))
    assert len(draws) == 5 and all(0 <= d["C"] <= 1 for d in draws)
    again = list(ParameterSampler({"C": scipy_stats.uniform(0, 1), "k": [1, 2]}, 5,
                                  random_state=0))
    assert draws == again
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert len(list(ParameterSampler({"k": [1, 2]}, 5, random_state=0))) == 2


def test_randomized_search(iris):
    X, y = iris
    s = RandomizedSearchCV(GaussianNB(), {"var_smoothing": np.logspace(-9, 0, 10)}, n_iter=4,
                           cv=3, random_state=0).fit(X, y)
    assert len(s.cv_results_["params"]) == 4
    s2 = RandomizedSearchCV(GaussianNB(), {"var_smoothing": np.logspace(-9, 0, 10)},
                            n_iter=4, cv=3, random_state=0).fit(X, y)
    assert s.cv_results_["params"] == s2.cv_results_["params"]


def test_validation_curve_matches_sklearn(iris):
    from classiclearn.model_selection import validation_curve

    X, y = iris
    folds = _folds(X, y, 3)
    kw = dict(param_name="n_neighbors", param_range=[1, 5, 25], cv=folds)
    a = validation_curve(sknn.KNeighborsClassifier(), X, y, **kw)
    b = skms.validation_curve(sknn.KNeighborsClassifier(), X, y, **kw)
    for x, z in zip(a, b):
        np.testing.assert_allclose(x, z)


@pytest.mark.parametrize("sizes", [np.linspace(0.2, 1.0, 4), [10, 50, 90]])
def test_learning_curve_matches_sklearn(iris, sizes):
    from classiclearn.model_selection import learning_curve

    X, y = iris
    folds = _folds(X, y, 3)
    a = learning_curve(sknb.GaussianNB(), X, y, train_sizes=sizes, cv=folds,
                       return_times=True)
    b = skms.learning_curve(sknb.GaussianNB(), X, y, train_sizes=sizes, cv=folds,
                            return_times=True)
    for x, z in zip(a[:3], b[:3]):
        np.testing.assert_allclose(x, z)
    assert a[3].shape == b[3].shape
    c = learning_curve(GaussianNB(), X, y, train_sizes=[0.5, 1.0], cv=3, shuffle=True,
                       random_state=0)
    assert c[1].shape == (2, 3)
