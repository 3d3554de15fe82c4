"""check_estimator settings for classiclearn.preprocessing (see the package docstring)."""

CHECK_PARAMS = {
    # the checks transform data other than the fitted data: unseen floats are new categories
    "OneHotEncoder": {"handle_unknown": "ignore"},
    # identity without and with input validation
    "FunctionTransformer": [{}, {"validate": True}],
}

EXPECTED_FAILURES = {}
