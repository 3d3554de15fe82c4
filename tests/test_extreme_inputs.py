"""Extreme but finite inputs: every registered estimator, X scaled near the float64 limits.

Each estimator is fitted on X * 1e300, on X * 1e-300 and on X with one column
times 1e300 and another times 1e-300 (float64). Fit and every output method
must either succeed with finite outputs or raise a ValueError whose message
names the problem: never a LinAlgError from LAPACK, an OverflowError, a NaN or
an infinity returned silently. For scale-equivariant methods the result must
also be the result on unscaled data, up to the scale.
"""

import numpy as np
import pytest

from classiclearn import all_estimators
from estimator_cases import fit_case, make_data, make_params

OUTPUT_METHODS = (
    "predict",
    "predict_proba",
    "predict_log_proba",
    "decision_function",
    "transform",
    "score_samples",
)

SCALES = {
    "unit": np.ones(4),
    "large": np.array([1e300, 1e300, 1e300, 1e300]),
    "tiny": np.array([1e-300, 1e-300, 1e-300, 1e-300]),
    "mixed": np.array([1e300, 1.0, 1e-300, 1.0]),
}


def _cases():
    for name, cls in all_estimators():
        if name == "LabelEncoder":
            continue
        for scale in ("large", "tiny", "mixed"):
            yield pytest.param(name, cls, scale, id=f"{name}-{scale}")


def _scaled_data(name, cls, scale):
    X, y = make_data(name, cls)
    X = X.astype(np.float64)
    if name not in ("BernoulliNB", "CategoricalNB"):  # binary or categorical features
        X = X * SCALES[scale]
    return X, y


def _params(name, scale):
    """The cases' parameters, with a radius in the units of the scaled data."""
    params = make_params(name, "classiclearn")
    if "radius" in params:
        params["radius"] *= SCALES[scale].max()
    return params


def _run(estimator, X, y, methods=OUTPUT_METHODS):
    """Fit and the output methods; a ValueError ends the run (returned, not raised)."""
    outputs = {}
    try:
        fit_case(estimator, X, y)
        for method in methods:
            if hasattr(estimator, method):
                outputs[method] = np.asarray(getattr(estimator, method)(X))
    except ValueError as error:
        if isinstance(error, np.linalg.LinAlgError):  # a ValueError, but from LAPACK
            raise
        return error, outputs
    return None, outputs


def _not_finite(method, value):
    if value.dtype.kind != "f":
        return False
    if method == "predict_log_proba":  # log(0) = -inf is the exact answer
        return bool(np.isnan(value).any() or np.isposinf(value).any())
    return not np.all(np.isfinite(value))


@pytest.mark.filterwarnings("ignore")
@pytest.mark.parametrize(("name", "cls", "scale"), list(_cases()))
def test_extreme_inputs_give_finite_results_or_a_clear_value_error(name, cls, scale):
    X, y = _scaled_data(name, cls, scale)
    error, outputs = _run(cls(**_params(name, scale)), X, y)
    if error is not None:  # a message that names the problem
        message = str(error)
        assert any(word in message for word in ("too large", "too small", "scale the")), message
    bad = [method for method, value in outputs.items() if _not_finite(method, value)]
    assert not bad, f"non-finite output from {bad}"


# Scale-equivariant estimators: method -> power of the scale their output carries.
EQUIVARIANT = {
    "LinearRegression": {"predict": 0},
    "LeastSquaresClassifier": {"predict": 0, "decision_function": 0},
    "GaussianNB": {"predict": 0, "predict_proba": 0},
    "LinearDiscriminantAnalysis": {"predict": 0, "predict_proba": 0, "transform": 0},
    "KNeighborsClassifier": {"predict": 0, "predict_proba": 0},
    "KNeighborsRegressor": {"predict": 0},
    "RadiusNeighborsClassifier": {"predict": 0, "predict_proba": 0},
    "RadiusNeighborsRegressor": {"predict": 0},
    "PCA": {"transform": 1},
    "KMeans": {"predict": 0, "transform": 1},
    "SVC": {"predict": 0, "decision_function": 0},
    "SVR": {"predict": 0},
    "DecisionTreeClassifier": {"predict": 0},
    "DecisionTreeRegressor": {"predict": 0},
    "RandomForestClassifier": {"predict": 0},
    "StandardScaler": {"transform": 0},
    "MinMaxScaler": {"transform": 0},
    "MaxAbsScaler": {"transform": 0},
    "RobustScaler": {"transform": 0},
}


# Scale-equivariant in exact arithmetic, but they refuse data whose squares
# leave the floating-point range with a ValueError (allowed by the contract);
# the test then checks that error.
REFUSED = {
    "KNeighborsClassifier": "euclidean distances",
    "KNeighborsRegressor": "euclidean distances",
    "RadiusNeighborsClassifier": "euclidean distances",
    "RadiusNeighborsRegressor": "euclidean distances",
    # trees compare features in float32, as scikit-learn's: beyond its range
    "DecisionTreeClassifier": "float32",
    "DecisionTreeRegressor": "float32",
    "RandomForestClassifier": "float32",
}


# Equivariant to a scale per feature too (checked on the mixed columns).
PER_FEATURE = {"LinearRegression", "LeastSquaresClassifier", "StandardScaler", "MinMaxScaler",
               "MaxAbsScaler", "RobustScaler"}


def _equivariant_cases():
    registry = dict(all_estimators())
    for name in EQUIVARIANT:
        for scale in ("large", "tiny", "mixed") if name in PER_FEATURE else ("large", "tiny"):
            yield pytest.param(name, registry[name], scale, id=f"{name}-{scale}")


@pytest.mark.filterwarnings("ignore")
@pytest.mark.parametrize(("name", "cls", "scale"), list(_equivariant_cases()))
def test_scale_equivariant_estimators_give_the_unscaled_result_up_to_the_scale(name, cls, scale):
    X, y = _scaled_data(name, cls, scale)
    methods = tuple(EQUIVARIANT[name])
    error, outputs = _run(cls(**_params(name, scale)), X, y, methods)
    if name in REFUSED:
        assert error is not None and REFUSED[name] in str(error), repr(error)
        return
    assert error is None, repr(error)
    X1, _ = make_data(name, cls)
    _, reference = _run(cls(**_params(name, "unit")), X1.astype(np.float64), y, methods)
    s = SCALES[scale][0]  # power-1 outputs are only checked for uniform scales
    for method, power in EQUIVARIANT[name].items():
        got, want = outputs[method], reference[method]
        if got.dtype.kind != "f":
            np.testing.assert_array_equal(got, want, err_msg=method)
        else:
            np.testing.assert_allclose(got / s**power, want, rtol=1e-7, atol=1e-9,
                                       err_msg=method)


# Penalised fits are not scale-equivariant (the penalty does not scale with X):
# no exact rescaling exists, so data whose squares overflow are refused
# (values near 1e-300 are fine: the penalty dominates, as it should).
PENALISED = [
    ("Ridge", {}), ("Ridge", {"solver": "lsqr"}), ("Ridge", {"solver": "sag"}),
    ("Lasso", {"alpha": 0.01}), ("ElasticNet", {}), ("LogisticRegression", {}),
    ("LogisticRegression", {"solver": "saga"}), ("LinearSVC", {}),
    ("LeastSquaresClassifier", {"alpha": 1.0}),
]


@pytest.mark.parametrize(("name", "extra"), PENALISED)
def test_penalised_linear_fits_refuse_overflowing_data(name, extra):
    cls = dict(all_estimators())[name]
    X, y = _scaled_data(name, cls, "large")
    with pytest.raises(ValueError, match="too large for the penalised"):
        cls(**extra).fit(X, y)
