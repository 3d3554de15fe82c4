"""Which estimators the command line runs, with which defaults, in which pipeline.

Every classifier (or regressor) in ``classiclearn.all_estimators()`` that can be
built without arguments is a candidate, so new families appear in ``compare``
as soon as they are registered. Each runs in a pipeline
``TabularEncoder -> [StandardScaler] -> model``: one-hot encoding for every
model, imputation of missing numbers for the models that cannot take NaN (trees
and forests learn where missing values go, and get them as NaN), standardisation
for the methods whose results depend on the scale of the features (distances,
kernels, penalties, projections).
"""

import difflib
import inspect
import json
import math

import numpy as np

from .._tags import get_tags
from ..preprocessing._tabular import TabularEncoder, _numeric
from ._errors import CLIError

__all__ = [
    "DEFAULTS",
    "NO_SCALING",
    "build_pipeline",
    "candidate_models",
    "find_model",
    "parse_params",
]

# Methods that do not need standardised inputs: scale-invariant fits (trees split on
# thresholds, per-feature densities, affine-equivariant least squares and discriminants).
NO_SCALING = {
    "DecisionTreeClassifier",
    "DecisionTreeRegressor",
    "RandomForestClassifier",
    "RandomForestRegressor",
    "ExtraTreesClassifier",
    "ExtraTreesRegressor",
    "GaussianNB",
    "KernelDensityNB",
    "LinearDiscriminantAnalysis",
    "QuadraticDiscriminantAnalysis",
    "LinearRegression",
    "LeastSquaresClassifier",
    "MultinomialNB",
    "ComplementNB",
    "CategoricalNB",
}

# Models of counts need non-negative features (counts, frequencies, one-hot codes);
# CategoricalNB reads each feature as integer categories 0, 1, ... . compare offers
# them only on tables whose numeric columns suit them.
NON_NEGATIVE_ONLY = {"MultinomialNB", "ComplementNB"}
INTEGER_CATEGORIES_ONLY = {"CategoricalNB"}


def _radius(n_features):
    # on standardised data the typical distance between neighbours grows like sqrt(d)
    return round(max(1.0, math.sqrt(n_features)), 3)


# Defaults that differ from the estimator's own, for a fair first comparison.
# A value may be a function of the number of encoded features.
DEFAULTS = {
    "RandomForestClassifier": {"n_estimators": 100},
    "RandomForestRegressor": {"n_estimators": 100},
    "ExtraTreesClassifier": {"n_estimators": 100},
    "ExtraTreesRegressor": {"n_estimators": 100},
    "SVC": {"probability": False},
    "LogisticRegression": {"max_iter": 1000},
    "LinearSVC": {"max_iter": 5000},
    "RadiusNeighborsClassifier": {"radius": _radius, "outlier_label": "most_frequent"},
    "RadiusNeighborsRegressor": {"radius": _radius, "weights": "distance"},
}


def _registry(task):
    from .. import all_estimators

    kind = "classifier" if task == "classification" else "regressor"
    return all_estimators(type_filter=kind)


def _buildable(cls):
    try:
        est = cls()
    except TypeError:  # meta-estimators need an inner estimator
        return False
    tags = get_tags(est)
    return tags.single_output and not tags.pairwise


def _numeric_domain(X):
    """``(non_negative, non_negative_integers)`` for the numeric columns of a table
    (missing values ignored; one-hot codes of categorical columns are 0/1)."""
    numeric, _ = TabularEncoder()._columns(X)
    non_negative = integers = True
    for name in numeric:
        values = _numeric(X, name)
        values = values[~np.isnan(values)]
        if values.size and values.min() < 0:
            return False, False
        integers = integers and bool(np.all(values == np.round(values)))
    return non_negative, integers


def _suits_data(name, domain):
    if domain is None:
        return True
    non_negative, integers = domain
    if name in NON_NEGATIVE_ONLY:
        return non_negative
    if name in INTEGER_CATEGORIES_ONLY:
        return integers
    return True


def candidate_models(task, names=None, X=None):
    """The registered estimators ``compare`` runs for a task, optionally restricted.

    Parameters
    ----------
    task : {"classification", "regression"}
    names : list of str, optional
        Names from the user (case-insensitive). Unknown or inapplicable
        names raise :class:`CLIError`.
    X : DataFrame, optional
        The feature table; when given, the models of counts are offered only
        if its numeric columns are non-negative (integers for CategoricalNB).

    Returns
    -------
    list of (name, class)
    """
    domain = None if X is None else _numeric_domain(X)
    available = [
        (n, c) for n, c in _registry(task) if _buildable(c) and _suits_data(n, domain)
    ]
    if not available:
        raise CLIError(f"no {task} estimator is registered in this classiclearn build")
    if not names:
        return available
    by_lower = {n.lower(): (n, c) for n, c in available}
    chosen = []
    for name in names:
        hit = by_lower.get(name.lower())
        if hit is None:
            raise CLIError(_unknown_model_message(name, task, [n for n, _ in available]))
        if hit not in chosen:
            chosen.append(hit)
    return chosen


def _unknown_model_message(name, task, valid):
    from .. import all_estimators

    registered = {n.lower(): (n, c) for n, c in all_estimators()}
    if name.lower() in registered:
        real, cls = registered[name.lower()]
        other = "regression" if task == "classification" else "classification"
        if any(n == real for n, _ in _registry(other)):
            return f"{real} is a model for {other}, not {task} (see --task)"
        if real in NON_NEGATIVE_ONLY | INTEGER_CATEGORIES_ONLY:
            return (
                f"{real} needs non-negative features"
                + (" coded as integer categories" if real in INTEGER_CATEGORIES_ONLY else "")
                + "; this table's numeric columns do not qualify"
            )
        if not _buildable(cls):
            return (
                f"{real} needs an inner estimator or data of another kind; compare and fit "
                "run stand-alone predictive models only"
            )
        return f"{real} is not a {task} model"
    close = difflib.get_close_matches(name, valid, n=3, cutoff=0.5)
    hint = f"; did you mean {', '.join(close)}?" if close else ""
    return f"unknown {task} model {name!r}{hint} (available: {', '.join(valid)})"


def find_model(name, task):
    """Look up one model by name (case-insensitive) for ``classiclearn fit``."""
    return candidate_models(task, [name])[0]


def parse_params(pairs):
    """Parse ``k=v`` strings: JSON values (numbers, true/false/null, lists), else text.

    Examples
    --------
    >>> parse_params(["C=10", "kernel=rbf", "fit_intercept=false", "hidden=[3, 4]"])
    {'C': 10, 'kernel': 'rbf', 'fit_intercept': False, 'hidden': [3, 4]}
    """
    out = {}
    for pair in pairs or []:
        key, sep, text = pair.partition("=")
        key = key.strip()
        if not sep or not key.isidentifier():
            raise CLIError(f"--param expects NAME=VALUE, got {pair!r}")
        text = text.strip()
        python_words = {"True": True, "False": False, "None": None}
        if text in python_words:
            value = python_words[text]
        else:
            try:
                value = json.loads(text)
            except json.JSONDecodeError:
                value = text
        out[key] = value
    return out


def _has_param(cls, name):
    return name in inspect.signature(cls.__init__).parameters


def make_estimator(name, cls, *, n_features, seed=None, params=None):
    """An instance with the command line's defaults, the seed, then the user's params."""
    kwargs = {}
    for key, value in DEFAULTS.get(name, {}).items():
        if _has_param(cls, key):
            kwargs[key] = value(n_features) if callable(value) else value
    if seed is not None and _has_param(cls, "random_state"):
        kwargs["random_state"] = seed
    est = cls(**kwargs)
    params = params or {}
    valid = est.get_params(deep=False)
    unknown = [k for k in params if k not in valid]
    if unknown:
        raise CLIError(
            f"unknown parameter {unknown[0]!r} for {name} (valid: {', '.join(sorted(valid))})"
        )
    est.set_params(**params)
    return est


def _category_count(X, numeric):
    highest = [np.nanmax(_numeric(X, name)) for name in numeric]
    return int(max([1.0, *highest])) + 1


def _scaler(*, sparse=False):
    try:
        from ..preprocessing import StandardScaler
    except ImportError:
        return None
    # centring a sparse matrix would fill in its zeros; the models given
    # sparse input are translation-invariant or fit an intercept
    return StandardScaler(with_mean=not sparse)


def keeps_one_hot_sparse(est, n_categories):
    """Whether the pipeline of ``est`` encodes categories as a sparse matrix.

    So it does when the table has many categories (at least
    ``TabularEncoder.SPARSE_MIN_CATEGORIES`` one-hot columns) and the model
    takes sparse input; otherwise the encoded table is dense.
    """
    return (
        n_categories >= TabularEncoder.SPARSE_MIN_CATEGORIES
        and get_tags(est).sparse
    )


def build_pipeline(name, cls, X, *, seed=None, params=None):
    """``TabularEncoder -> [StandardScaler] -> model`` for the feature table X.

    The column kinds (numeric or categorical) are fixed here from the whole
    table's dtypes, so every fold encodes the same columns; everything learned
    from values happens inside ``fit``.
    """
    from ..pipeline import Pipeline

    probe = TabularEncoder()
    numeric, categorical = probe._columns(X)
    n_categories = sum(int(X[c].nunique()) for c in categorical)
    n_features = len(numeric) + n_categories
    est = make_estimator(name, cls, n_features=n_features, seed=seed, params=params)
    if name in INTEGER_CATEGORIES_ONLY and not (params or {}).get("min_categories"):
        # every fold knows the table's categories (the domain, not the labels)
        est.set_params(min_categories=_category_count(X, numeric))
    sparse = keeps_one_hot_sparse(est, n_categories)
    scale = name not in NO_SCALING
    scaler = _scaler(sparse=sparse) if scale else None
    # models that learn where missing values go (trees, forests) see them as NaN
    encoder = TabularEncoder(
        numeric_columns=numeric,
        categorical_columns=categorical,
        numeric_impute=None if get_tags(est).allow_nan else "median",
        standardize=scale and scaler is None,
        sparse_output=sparse,
    )
    steps = [("prep", encoder)]
    if scaler is not None:
        steps.append(("scale", scaler))
    steps.append(("model", est))
    return Pipeline(steps)
