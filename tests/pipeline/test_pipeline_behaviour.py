"""Pipeline and make_pipeline: parameters, pass-through methods, slicing, parity."""

import numpy as np
import pytest

from classiclearn.base import clone
from classiclearn.datasets import load_iris
from classiclearn.naive_bayes import GaussianNB
from classiclearn.pipeline import Pipeline, make_pipeline
from classiclearn.preprocessing import (
    MinMaxScaler,
    OneHotEncoder,
    PolynomialFeatures,
    SimpleImputer,
    StandardScaler,
)

skpipe = pytest.importorskip("sklearn.pipeline")
skpre = pytest.importorskip("sklearn.preprocessing")
sknb = pytest.importorskip("sklearn.naive_bayes")


@pytest.fixture(scope="module")
def iris():
    return load_iris(return_X_y=True)


def test_matches_sklearn_pipeline(iris):
    X, y = iris
    ours = Pipeline([("scale", StandardScaler()), ("nb", GaussianNB())]).fit(X, y)
    theirs = skpipe.Pipeline([("scale", skpre.StandardScaler()),
                              ("nb", sknb.GaussianNB())]).fit(X, y)
    np.testing.assert_array_equal(ours.predict(X), theirs.predict(X))
    np.testing.assert_allclose(ours.predict_proba(X), theirs.predict_proba(X), rtol=1e-7,
                               atol=1e-12)
    np.testing.assert_allclose(ours.predict_log_proba(X), theirs.predict_log_proba(X),
                               rtol=1e-7, atol=1e-12)
    assert ours.score(X, y) == pytest.approx(theirs.score(X, y))
    np.testing.assert_array_equal(ours.classes_, theirs.classes_)
    assert ours.n_features_in_ == 4


def test_params_get_set_and_clone():
    pipe = make_pipeline(StandardScaler(), GaussianNB())
    params = pipe.get_params()
    assert params["standardscaler__with_mean"] is True
    assert params["gaussiannb"] is pipe.steps[1][1]
    pipe.set_params(standardscaler__with_mean=False, gaussiannb__var_smoothing=1e-3)
    assert pipe.steps[0][1].with_mean is False
    assert pipe.named_steps["gaussiannb"].var_smoothing == 1e-3
    pipe.set_params(standardscaler=MinMaxScaler())
    assert isinstance(pipe[0], MinMaxScaler)
    pipe.set_params(standardscaler="passthrough")
    cloned = clone(pipe)
    assert cloned.steps[1][1] is not pipe.steps[1][1]
    assert cloned.get_params()["gaussiannb__var_smoothing"] == 1e-3
    with pytest.raises(ValueError, match="Invalid parameter"):
        pipe.set_params(nosuchstep__x=1)


def test_fit_does_not_touch_steps_and_exposes_fitted_clones(iris):
    X, y = iris
    scaler, nb = StandardScaler(), GaussianNB()
    pipe = Pipeline([("scale", scaler), ("nb", nb)]).fit(X, y)
    assert not hasattr(scaler, "mean_") and not hasattr(nb, "classes_")
    assert hasattr(pipe.named_steps["scale"], "mean_")
    assert hasattr(pipe["nb"], "theta_") and hasattr(pipe[-1], "theta_")
    head = pipe[:-1]
    assert isinstance(head, Pipeline) and len(head) == 1
    np.testing.assert_allclose(head.transform(X), StandardScaler().fit_transform(X))
    assert len(pipe) == 2


def test_available_methods_follow_final_step(iris):
    X, y = iris
    clf = make_pipeline(StandardScaler(), GaussianNB())
    assert hasattr(clf, "predict_proba") and not hasattr(clf, "transform")
    assert not hasattr(clf, "decision_function")
    tr = make_pipeline(StandardScaler(), PolynomialFeatures(2))
    assert hasattr(tr, "transform") and not hasattr(tr, "predict")
    Xt = tr.fit_transform(X)
    assert Xt.shape == (150, 15)
    np.testing.assert_allclose(tr.transform(X), Xt)
    names = tr.get_feature_names_out()
    assert names[0] == "1" and names[-1] == "x3^2"
    scale2 = make_pipeline(StandardScaler(), MinMaxScaler())
    np.testing.assert_allclose(scale2.inverse_transform(scale2.fit_transform(X)), X, atol=1e-12)


def test_passthrough_and_fit_params(iris):
    X, y = iris
    pipe = Pipeline([("a", "passthrough"), ("b", None), ("nb", GaussianNB())]).fit(X, y)
    np.testing.assert_array_equal(pipe.predict(X), GaussianNB().fit(X, y).predict(X))
    w = np.where(y == 0, 5.0, 1.0)
    pipe = make_pipeline(StandardScaler(), GaussianNB())
    pipe.fit(X, y, gaussiannb__sample_weight=w)
    ref = GaussianNB().fit(StandardScaler().fit_transform(X), y, sample_weight=w)
    np.testing.assert_allclose(pipe[-1].class_count_, ref.class_count_)
    with pytest.raises(ValueError, match="stepname__parameter"):
        pipe.fit(X, y, sample_weight=w)
    only = Pipeline([("scale", StandardScaler()), ("end", "passthrough")])
    np.testing.assert_allclose(only.fit_transform(X), StandardScaler().fit_transform(X))


def test_validation_errors(iris):
    X, y = iris
    with pytest.raises(TypeError, match="intermediate steps"):
        Pipeline([("nb", GaussianNB()), ("scale", StandardScaler())]).fit(X, y)
    with pytest.raises(ValueError, match="not unique"):
        Pipeline([("a", StandardScaler()), ("a", GaussianNB())]).fit(X, y)
    with pytest.raises(ValueError, match="__"):
        Pipeline([("a__b", StandardScaler()), ("c", GaussianNB())]).fit(X, y)
    from classiclearn.exceptions import NotFittedError

    with pytest.raises(NotFittedError):
        make_pipeline(StandardScaler(), GaussianNB()).predict(X)


def test_make_pipeline_names_and_repeats():
    pipe = make_pipeline(StandardScaler(), StandardScaler(), GaussianNB())
    assert [n for n, _ in pipe.steps] == ["standardscaler-1", "standardscaler-2", "gaussiannb"]


def test_mixed_data_pipeline_with_imputer_and_encoder():
    pd = pytest.importorskip("pandas")
    df = pd.DataFrame({"colour": ["red", "blue", None, "red", "blue", "red"] * 5})
    y = np.array([0, 1, 1, 0, 1, 0] * 5)
    pipe = make_pipeline(SimpleImputer(strategy="most_frequent"), OneHotEncoder(),
                         GaussianNB())
    pipe.fit(df, y)
    assert pipe.score(df, y) > 0.8
    assert pipe.__classiclearn_tags__().allow_nan
    assert not make_pipeline(StandardScaler(), GaussianNB()).__classiclearn_tags__().allow_nan


def test_sklearn_steps_inside_our_pipeline_and_tags(iris):
    X, y = iris
    pipe = make_pipeline(skpre.StandardScaler(), sknb.GaussianNB()).fit(X, y)
    assert pipe.score(X, y) > 0.9
    tags = pipe.__sklearn_tags__()
    assert tags.estimator_type == "classifier"
    from classiclearn.base import is_classifier

    assert is_classifier(pipe)
