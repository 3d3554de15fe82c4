"""Fast settings for the cluster family in scikit-learn's estimator checks."""

CHECK_PARAMS = {
    "KMeans": [
        {"n_clusters": 2, "n_init": 10, "max_iter": 20, "random_state": 0},
        {"n_clusters": 2, "n_init": 10, "max_iter": 20, "random_state": 0, "algorithm": "elkan"},
    ],
}
EXPECTED_FAILURES = {}
