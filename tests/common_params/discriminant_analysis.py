"""check_estimator settings for classiclearn.discriminant_analysis."""

CHECK_PARAMS = {
    "LinearDiscriminantAnalysis": [{}, {"solver": "eigen", "shrinkage": "auto"}],
    "QuadraticDiscriminantAnalysis": [{}, {"solver": "eigen", "shrinkage": 0.1}],
}

EXPECTED_FAILURES = {}
