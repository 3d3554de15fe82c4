"""compare offers the naive Bayes models of counts only on tables that suit them."""

import numpy as np
import pytest

from classiclearn.cli._errors import CLIError
from classiclearn.cli._models import build_pipeline, candidate_models

pd = pytest.importorskip("pandas")

COUNT_MODELS = {"MultinomialNB", "ComplementNB", "CategoricalNB"}


def _names(X):
    return {n for n, _ in candidate_models("classification", X=X)}


def _table(values, with_category=True):
    frame = pd.DataFrame(values, columns=[f"x{j}" for j in range(values.shape[1])])
    if with_category:
        frame["colour"] = np.where(np.arange(len(frame)) % 3, "red", "blue")
    return frame


def test_negative_column_excludes_every_count_model():
    rng = np.random.default_rng(0)
    X = _table(rng.normal(size=(30, 3)))
    assert not (_names(X) & COUNT_MODELS)
    assert "GaussianNB" in _names(X)
    with pytest.raises(CLIError, match="MultinomialNB needs non-negative features"):
        candidate_models("classification", ["MultinomialNB"], X=X)


def test_non_negative_reals_allow_multinomial_and_complement_only():
    rng = np.random.default_rng(1)
    X = _table(rng.uniform(0, 5, size=(30, 3)))
    X.iloc[2, 0] = np.nan  # missing values are imputed, not counted as negative
    names = _names(X)
    assert {"MultinomialNB", "ComplementNB"} <= names and "CategoricalNB" not in names


def test_integer_table_allows_categorical_nb_with_every_category_known():
    rng = np.random.default_rng(2)
    values = rng.integers(0, 4, size=(60, 3)).astype(float)
    values[0, 1] = 6.0
    X = _table(values)
    y = rng.integers(0, 2, 60)
    assert COUNT_MODELS <= _names(X)
    pipe = build_pipeline("CategoricalNB", dict(candidate_models("classification", X=X))[
        "CategoricalNB"], X)
    assert pipe.steps[-1][1].min_categories == 7
    assert len(pipe.steps) == 2  # no standardisation in front of a count model
    # a fold without the rare category still predicts the full table
    pipe.fit(X.iloc[1:], y[1:])
    assert pipe.predict(X).shape == (60,)
