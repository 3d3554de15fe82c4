"""Fast settings for KernelRidge in scikit-learn's estimator checks."""

CHECK_PARAMS = {
    "KernelRidge": [{}, {"kernel": "rbf", "alpha": 0.1}],
}
EXPECTED_FAILURES = {}
