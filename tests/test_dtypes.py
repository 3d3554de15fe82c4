"""float32 in, float32 out: every registered estimator with a scikit-learn twin.

Each estimator and its twin are fitted on the same float32 data. For every
output method the twin has (predict, predict_proba, predict_log_proba,
decision_function, transform, score_samples, inverse_transform) and every
fitted floating attribute, the dtype must be scikit-learn's; the values must
agree with scikit-learn's within float32 tolerance where the fit is
deterministic and both libraries reach the same model (``VALUE_PARITY``), and
with our own float64 fit on the same data everywhere else.
"""


import numpy as np
import pytest

from classiclearn import all_estimators
from estimator_cases import NO_TWIN
from estimator_cases import fit_case as _fit
from estimator_cases import make_data as _data
from estimator_cases import make_params as _params
from estimator_cases import twin_class as _twin_class

sklearn = pytest.importorskip("sklearn")

OUTPUT_METHODS = (
    "predict",
    "predict_proba",
    "predict_log_proba",
    "decision_function",
    "transform",
    "score_samples",
    "inverse_transform",
)

# Fits that both libraries compute deterministically to the same model:
# values are compared with scikit-learn's within float32 tolerance.
VALUE_PARITY = {
    "Binarizer", "DecisionTreeRegressor", "ElasticNet", "GaussianNB", "KernelPCA",
    "KernelRidge", "KNeighborsClassifier", "KNeighborsRegressor", "Lasso",
    "LinearDiscriminantAnalysis", "LinearRegression", "MaxAbsScaler", "MinMaxScaler",
    "NearestNeighbors", "Normalizer", "PCA", "PolynomialFeatures",
    "QuadraticDiscriminantAnalysis", "RadiusNeighborsClassifier", "RadiusNeighborsRegressor",
    "Ridge", "RobustScaler", "SimpleImputer", "StandardScaler", "BernoulliNB",
    "FunctionTransformer", "LogisticRegression", "OneVsRestClassifier", "Pipeline",
    "GridSearchCV", "SVR",
}


# More parameter values whose routes differ in what they keep in float32.
VARIANTS = [
    ("LinearDiscriminantAnalysis", {"solver": "eigen", "store_covariance": True}),
    ("LinearDiscriminantAnalysis", {"solver": "lsqr", "shrinkage": "auto"}),
    ("GaussianMixture", {"covariance_type": "tied"}),
    ("GaussianMixture", {"covariance_type": "diag"}),
    ("GaussianMixture", {"covariance_type": "spherical"}),
    ("PCA", {"whiten": True}),
    ("PCA", {"svd_solver": "randomized", "random_state": 0}),
    ("KMeans", {"algorithm": "elkan"}),
    ("KNeighborsRegressor", {"weights": "distance"}),
    ("RadiusNeighborsRegressor", {"weights": "distance"}),
    ("KernelRidge", {"kernel": "rbf"}),
    ("Ridge", {"solver": "svd"}),
    ("GaussianNB", {"var_smoothing": 1e-3}),
    ("Ridge", {"solver": "lsqr"}),
    ("Ridge", {"solver": "saga", "max_iter": 5000, "tol": 1e-8, "random_state": 0}),
    ("LogisticRegression", {"solver": "saga", "tol": 1e-8, "random_state": 0}),
    ("LogisticRegression", {"solver": "newton-cholesky"}),
    ("Lasso", {"positive": True}),
    ("LinearRegression", {"positive": True}),
    ("LinearSVC", {"multi_class": "crammer_singer"}),
]


def _twins():
    registry = dict(all_estimators())
    for name, cls in registry.items():
        if name not in NO_TWIN:
            yield pytest.param(name, cls, {}, id=name)
    for i, (name, extra) in enumerate(VARIANTS):
        yield pytest.param(name, registry[name], extra, id=f"{name}-{i}")


def _outputs(estimator, X, methods=OUTPUT_METHODS):
    """Output of each method in ``methods`` the estimator has."""
    out = {}
    for method in methods:
        if not hasattr(estimator, method):
            continue
        arg = X
        if method == "inverse_transform":
            if not hasattr(estimator, "transform"):
                continue
            arg = estimator.transform(X)
        out[method] = getattr(estimator, method)(arg)
    return out


def _twin_outputs(estimator, X):
    """scikit-learn's outputs, leaving out the methods its parameters disable."""
    out = {}
    for method in OUTPUT_METHODS:
        try:
            out.update(_outputs(estimator, X, (method,)))
        except (ValueError, AttributeError, NotImplementedError):  # e.g. no inverse_transform
            continue
    return out


def _float_attributes(estimator):
    attrs = {}
    for key in vars(estimator):
        if not key.endswith("_") or key.startswith("_"):
            continue
        value = getattr(estimator, key)
        if isinstance(value, np.ndarray) and value.dtype.kind == "f":
            attrs[key] = value
    return attrs


def _dtype_mismatches(ours, theirs):
    bad = []
    for key, value in theirs.items():
        if key not in ours or not hasattr(value, "dtype") or value.dtype.kind != "f":
            continue
        if np.asarray(ours[key]).dtype != value.dtype:
            bad.append(f"{key}: {np.asarray(ours[key]).dtype} != {value.dtype}")
    return bad


def _fitted_pair(name, cls, extra):
    X, y = _data(name, cls)
    if X is None:
        pytest.skip("LabelEncoder takes labels, not a float matrix")
    ours = _fit(cls(**_params(name, "classiclearn"), **extra), X, y)
    theirs = _fit(_twin_class(name, cls)(**_params(name, "sklearn"), **extra), X, y)
    return X, y, ours, theirs


@pytest.mark.parametrize(("name", "cls", "extra"), list(_twins()))
def test_float32_outputs_and_attributes_keep_scikit_learns_dtype(name, cls, extra):
    X, _, ours, theirs = _fitted_pair(name, cls, extra)
    expected = _twin_outputs(theirs, X)
    bad = _dtype_mismatches(_outputs(ours, X, tuple(expected)), expected)
    bad += _dtype_mismatches(_float_attributes(ours), _float_attributes(theirs))
    assert not bad, bad


def _close(a, b, rtol):
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    if a.shape != b.shape:
        return False
    scale = max(np.max(np.abs(b), initial=0.0), 1.0)
    return np.allclose(a, b, rtol=rtol, atol=rtol * scale)


@pytest.mark.parametrize(("name", "cls", "extra"), list(_twins()))
def test_float32_values_agree_within_float32_tolerance(name, cls, extra):
    X, y, ours, theirs = _fitted_pair(name, cls, extra)
    methods = tuple(_twin_outputs(theirs, X))
    got = _outputs(ours, X, methods)
    if name in VALUE_PARITY:
        reference = _outputs(theirs, X, methods)
    else:
        ours64 = _fit(cls(**_params(name, "classiclearn"), **extra), X.astype(np.float64), y)
        reference = _outputs(ours64, X.astype(np.float64), methods)
    bad = [m for m in reference if m in got and not _close(got[m], reference[m], 1e-4)]
    assert not bad, bad


@pytest.mark.parametrize("name", ["LinearRegression", "Ridge", "Lasso", "KernelRidge", "PCA"])
def test_float32_model_on_float64_input_and_float64_targets_follow_scikit_learn(name):
    cls = dict(all_estimators())[name]
    X, y = _data(name, cls)
    y = y.astype(np.float64)
    ours = _fit(cls(**_params(name, "classiclearn")), X, y)
    theirs = _fit(_twin_class(name, cls)(**_params(name, "sklearn")), X, y)
    X64 = X.astype(np.float64)
    bad = _dtype_mismatches(_outputs(ours, X64), _twin_outputs(theirs, X64))
    bad += _dtype_mismatches(_float_attributes(ours), _float_attributes(theirs))
    assert not bad, bad


def test_float32_dataframe_counts_as_float32():
    pd = pytest.importorskip("pandas")
    from classiclearn.linear_model import LinearRegression

    X, y = _data("LinearRegression", LinearRegression)
    frame = pd.DataFrame(X, columns=list("abcd"))
    model = LinearRegression().fit(frame, y)
    assert model.coef_.dtype == np.float32
    assert model.predict(frame).dtype == np.float32
    mixed = frame.astype({"a": np.float64})
    assert LinearRegression().fit(mixed, y).coef_.dtype == np.float64


@pytest.mark.parametrize(("name", "cls", "extra"), list(_twins()))
def test_float32_fit_transform_keeps_scikit_learns_dtype(name, cls, extra):
    if not hasattr(cls, "fit_transform") or name == "LabelEncoder":
        pytest.skip("no fit_transform on a float matrix")
    X, y = _data(name, cls)
    try:
        theirs = _twin_class(name, cls)(**_params(name, "sklearn"), **extra).fit_transform(X, y)
    except (AttributeError, NotImplementedError):  # not available with these parameters
        pytest.skip("scikit-learn's twin has no fit_transform here")
    ours = cls(**_params(name, "classiclearn"), **extra).fit_transform(X, y)
    assert ours.dtype == theirs.dtype
