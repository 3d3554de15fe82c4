"""Preprocessing benchmark cases: scalers, polynomial features, one-hot encoding, imputation.

Transformers have no ``score``; each case scores by the mean absolute value of
the transformed test set, which must agree between the two libraries.
"""

import numpy as np

from benchmarks import _data
from benchmarks._case import Case


def _sk(module, name):
    import importlib

    return getattr(importlib.import_module(f"sklearn.{module}"), name)


def _ours(name):
    import classiclearn.preprocessing

    return getattr(classiclearn.preprocessing, name)


def _transform_mean(estimator, X_test, y_test):
    out = estimator.transform(X_test)
    if hasattr(out, "toarray"):
        out = out.toarray()
    return float(np.nanmean(np.abs(np.asarray(out, dtype=np.float64))))


def _categories(quick):
    n_train = 2_000 if quick else 200_000
    rng = np.random.default_rng(0)
    X = rng.integers(0, 30, size=(n_train + n_train // 5, 10))
    return X[:n_train], None, X[n_train:], None


def _with_nans(quick):
    X_train, _, X_test, _ = _data.regression(200_000, 50, quick=quick)
    rng = np.random.default_rng(1)
    X_train = np.where(rng.uniform(size=X_train.shape) < 0.1, np.nan, X_train)
    X_test = np.where(rng.uniform(size=X_test.shape) < 0.1, np.nan, X_test)
    return X_train, None, X_test, None


def _pipe_ours():
    from classiclearn.naive_bayes import GaussianNB
    from classiclearn.pipeline import make_pipeline

    return make_pipeline(_ours("StandardScaler")(), GaussianNB())


def _pipe_theirs():
    from sklearn.naive_bayes import GaussianNB
    from sklearn.pipeline import make_pipeline

    return make_pipeline(_sk("preprocessing", "StandardScaler")(), GaussianNB())


CASES = [
    Case(
        name="StandardScaler 500000x100",
        data=lambda quick: _data.regression(500_000, 100, quick=quick),
        ours=lambda: _ours("StandardScaler")(),
        theirs=lambda: _sk("preprocessing", "StandardScaler")(),
        methods=("transform",),
        score=_transform_mean,
        score_tol=1e-9,
        goals={"fit": 1.0, "transform": 1.0},
    ),
    Case(
        name="MinMaxScaler 500000x100",
        data=lambda quick: _data.regression(500_000, 100, quick=quick),
        ours=lambda: _ours("MinMaxScaler")(),
        theirs=lambda: _sk("preprocessing", "MinMaxScaler")(),
        methods=("transform",),
        score=_transform_mean,
        score_tol=1e-9,
        goals={"fit": 1.0, "transform": 1.0},
    ),
    Case(
        name="PolynomialFeatures deg 3 100000x20",
        data=lambda quick: _data.regression(100_000, 20, quick=quick),
        ours=lambda: _ours("PolynomialFeatures")(3),
        theirs=lambda: _sk("preprocessing", "PolynomialFeatures")(3),
        methods=("transform",),
        score=_transform_mean,
        score_tol=1e-6,
        goals={"transform": 1.0},
    ),
    Case(
        name="OneHotEncoder 200000x10 (30 levels)",
        data=_categories,
        ours=lambda: _ours("OneHotEncoder")(),
        theirs=lambda: _sk("preprocessing", "OneHotEncoder")(sparse_output=False),
        methods=("transform",),
        score=_transform_mean,
        score_tol=1e-12,
        goals={"fit": 1.0, "transform": 1.0},
    ),
    Case(
        name="SimpleImputer mean 200000x50 10% NaN",
        data=_with_nans,
        ours=lambda: _ours("SimpleImputer")(),
        theirs=lambda: _sk("impute", "SimpleImputer")(),
        methods=("transform",),
        score=_transform_mean,
        score_tol=1e-9,
        goals={"fit": 1.0, "transform": 1.0},
    ),
    Case(
        name="Pipeline StandardScaler+GaussianNB 200000x50",
        data=lambda quick: _data.classification(200_000, 50, 3, quick=quick),
        ours=_pipe_ours,
        theirs=_pipe_theirs,
        methods=("predict",),
        goals={"fit": 1.0, "predict": 1.0},
    ),
]
