"""check_estimator settings for classiclearn.ensemble (no expected failures)."""

CHECK_PARAMS = {
    "RandomForestClassifier": [{"n_estimators": 5}, {"n_estimators": 5, "max_bins": 32,
                                                     "voting": "hard"}],
    "RandomForestRegressor": {"n_estimators": 5},
    "ExtraTreesClassifier": {"n_estimators": 5},
    "ExtraTreesRegressor": {"n_estimators": 5},
}
EXPECTED_FAILURES = {}
