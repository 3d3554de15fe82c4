"""Fast settings for the mixture family in scikit-learn's estimator checks."""

CHECK_PARAMS = {
    "GaussianMixture": [
        {"n_components": 2, "max_iter": 50, "random_state": 0},
        {"n_components": 2, "max_iter": 50, "random_state": 0, "covariance_type": "diag"},
    ],
}
EXPECTED_FAILURES = {}
