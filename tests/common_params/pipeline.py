"""check_estimator settings for classiclearn.pipeline (see the package docstring)."""

from classiclearn.naive_bayes import GaussianNB
from classiclearn.preprocessing import StandardScaler

CHECK_PARAMS = {
    "Pipeline": {"steps": [("scaler", StandardScaler()), ("nb", GaussianNB())]},
}

EXPECTED_FAILURES = {}

# The search meta-estimators of classiclearn.model_selection (they wrap pipelines as often
# as not); kept here because this helper owns no common_params/model_selection.py.
CHECK_PARAMS["GridSearchCV"] = {
    "estimator": GaussianNB(),
    "param_grid": {"var_smoothing": [1e-9, 1e-6]},
    "cv": 2,
    "error_score": "raise",
}
CHECK_PARAMS["RandomizedSearchCV"] = {
    "estimator": GaussianNB(),
    "param_distributions": {"var_smoothing": [1e-9, 1e-6]},
    "n_iter": 2,
    "cv": 2,
    "error_score": "raise",
    "random_state": 0,
}
