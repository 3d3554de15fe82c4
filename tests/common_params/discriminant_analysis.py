"""check_estimator settings for classiclearn.discriminant_analysis."""

CHECK_PARAMS = {
    "LinearDiscriminantAnalysis": [
        {},
        {"solver": "eigen", "shrinkage": "auto"},
        {"covariance_estimate": "unbiased"},
    ],
    "QuadraticDiscriminantAnalysis": [
        {},
        {"solver": "eigen", "shrinkage": 0.1},
        {"covariance_estimate": "unbiased"},
    ],
}

EXPECTED_FAILURES = {}
