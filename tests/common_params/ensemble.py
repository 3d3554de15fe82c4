"""check_estimator settings for classiclearn.ensemble."""

_BOOTSTRAP_REASON = (
    "a bootstrap sample is random: drawing rows in proportion to integer weights "
    "(as scikit-learn 1.9 does) is equivalent to repeating rows in distribution only, "
    "not draw for draw; scikit-learn marks this check xfail for its forests too"
)

CHECK_PARAMS = {
    "RandomForestClassifier": [{"n_estimators": 5}, {"n_estimators": 5, "max_bins": 32,
                                                     "voting": "hard"}],
    "RandomForestRegressor": {"n_estimators": 5},
    "ExtraTreesClassifier": {"n_estimators": 5},
    "ExtraTreesRegressor": {"n_estimators": 5},
}
_BOOTSTRAP_CHECKS = {
    "check_sample_weight_equivalence_on_dense_data": _BOOTSTRAP_REASON,
    "check_sample_weight_equivalence_on_sparse_data": _BOOTSTRAP_REASON,
}
EXPECTED_FAILURES = {
    "RandomForestClassifier": _BOOTSTRAP_CHECKS,
    "RandomForestRegressor": _BOOTSTRAP_CHECKS,
}
