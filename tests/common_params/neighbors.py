"""check_estimator settings for classiclearn.neighbors: each k-NN estimator is also
checked with precomputed distances (as scikit-learn does for its own)."""

CHECK_PARAMS = {
    "KNeighborsClassifier": [{}, {"n_neighbors": 2}, {"metric": "precomputed"}],
    "KNeighborsRegressor": [{}, {"n_neighbors": 2}, {"metric": "precomputed"}],
    "NearestNeighbors": [{}, {"algorithm": "kd_tree"}, {"algorithm": "ball_tree"}],
    "RadiusNeighborsClassifier": [{}, {"algorithm": "ball_tree", "weights": "distance"}],
    "RadiusNeighborsRegressor": [{}, {"algorithm": "kd_tree", "weights": "distance"}],
}

EXPECTED_FAILURES = {}
