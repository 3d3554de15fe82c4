"""``compare`` / ``fit`` pipelines: NaN reaches the models that learn where missing values go."""

import numpy as np
import pytest

pd = pytest.importorskip("pandas")

from classiclearn.cli._models import build_pipeline  # noqa: E402
from classiclearn.cli._prep import TabularEncoder  # noqa: E402
from classiclearn.ensemble import RandomForestClassifier  # noqa: E402
from classiclearn.naive_bayes import GaussianNB  # noqa: E402
from classiclearn.tree import DecisionTreeClassifier  # noqa: E402


def _table():
    rng = np.random.default_rng(0)
    x = rng.normal(size=60)
    x[::4] = np.nan
    return pd.DataFrame({"x": x, "c": ["a", "b", None] * 20}), (np.isnan(x)).astype(int)


def test_encoder_keeps_missing_numbers_when_asked():
    X, _ = _table()
    Z = TabularEncoder(numeric_impute=None).fit_transform(X)
    np.testing.assert_array_equal(np.isnan(Z[:, 0]), X["x"].isna().to_numpy())
    assert not np.isnan(Z[:, 1:]).any()  # a missing category still takes the most frequent
    Zs = TabularEncoder(numeric_impute=None, standardize=True).fit_transform(X)
    assert np.isnan(Zs[:, 0]).sum() == X["x"].isna().sum()
    assert abs(np.nanmean(Zs[:, 0])) < 1e-12
    with pytest.raises(ValueError, match="numeric_impute"):
        TabularEncoder(numeric_impute="zero").fit(X)


@pytest.mark.parametrize("cls", [DecisionTreeClassifier, RandomForestClassifier, GaussianNB])
def test_pipeline_imputes_only_for_models_that_refuse_nan(cls):
    X, y = _table()
    pipe = build_pipeline(cls.__name__, cls, X, seed=0)
    native = cls is not GaussianNB
    assert pipe.steps[0][1].numeric_impute == (None if native else "median")
    pipe.fit(X, y)
    if native:
        # "x is missing" is the target: a model that sees NaN learns it exactly
        assert pipe.score(X, y) == 1.0
