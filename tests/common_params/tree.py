"""check_estimator settings for classiclearn.tree (no expected failures)."""

CHECK_PARAMS = {
    "DecisionTreeClassifier": {},
    "DecisionTreeRegressor": [{}, {"criterion": "absolute_error"}],
}
EXPECTED_FAILURES = {}
