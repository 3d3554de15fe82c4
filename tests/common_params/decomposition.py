"""Fast settings for the decomposition family in scikit-learn's estimator checks."""

CHECK_PARAMS = {
    "PCA": [
        {},
        {"n_components": 2, "svd_solver": "randomized", "random_state": 0},
        {"n_components": 2, "svd_solver": "full", "whiten": True},
    ],
    "KernelPCA": [
        {},
        {"n_components": 2, "kernel": "rbf", "fit_inverse_transform": True},
    ],
}
EXPECTED_FAILURES = {}
