"""Nearest-neighbour benchmark cases (issue 4): tree queries and builds, brute force.

Both libraries get all cores (``n_jobs=-1``); scikit-learn's brute force uses
its OpenMP pool regardless.
"""

import numpy as np

from benchmarks import _data
from benchmarks._case import Case


def _sk(name):
    import sklearn.neighbors

    return getattr(sklearn.neighbors, name)


def _ours(name):
    import classiclearn.neighbors

    return getattr(classiclearn.neighbors, name)


def _gaussian(n_train, n_features, n_test, quick):
    if quick:
        n_train, n_test = min(n_train, 2_000), min(n_test, 500)
    rng = np.random.default_rng(0)
    X = rng.normal(size=(n_train + n_test, n_features))
    return X[:n_train], None, X[n_train:], None


def _mean_distance(est, X, y):
    return float(est.kneighbors(X[:1000])[0].mean())


def _knn_case(algorithm, n_train, n_features, goals):
    return Case(
        name=f"KNeighborsClassifier {algorithm} {n_train}x{n_features} 10000 queries k=5",
        data=lambda quick: _data.classification(
            n_train, n_features, 3, n_test=10_000, quick=quick
        ),
        ours=lambda: _ours("KNeighborsClassifier")(5, algorithm=algorithm, n_jobs=-1),
        theirs=lambda: _sk("KNeighborsClassifier")(5, algorithm=algorithm, n_jobs=-1),
        methods=("predict",),
        goals=goals,
    )


def _build_case(algorithm):
    return Case(
        name=f"NearestNeighbors {algorithm} build 2000000x3, 10000 queries k=5",
        data=lambda quick: _gaussian(2_000_000, 3, 10_000, quick),
        ours=lambda: _ours("NearestNeighbors")(n_neighbors=5, algorithm=algorithm, n_jobs=-1),
        theirs=lambda: _sk("NearestNeighbors")(n_neighbors=5, algorithm=algorithm, n_jobs=-1),
        methods=("kneighbors",),
        score=_mean_distance,
        score_tol=1e-9,
        goals={"fit": 1.0, "kneighbors": 1.0},
    )


def _radius_case(algorithm):
    # a radius of about the 15th neighbour's distance in 10 Gaussian dimensions
    return Case(
        name=f"RadiusNeighborsClassifier {algorithm} 20000x10 5000 queries radius=2.7",
        data=lambda quick: _data.classification(20_000, 10, 3, n_test=5_000, quick=quick),
        ours=lambda: _ours("RadiusNeighborsClassifier")(
            radius=2.7, algorithm=algorithm, outlier_label="most_frequent", n_jobs=-1),
        theirs=lambda: _sk("RadiusNeighborsClassifier")(
            radius=2.7, algorithm=algorithm, outlier_label="most_frequent", n_jobs=-1),
        methods=("predict",),
        goals={"fit": 1.0, "predict": 1.0},
    )


CASES = [
    _knn_case("kd_tree", 100_000, 10, {"fit": 1.0, "predict": 1.0}),
    _knn_case("ball_tree", 100_000, 10, {"fit": 1.0, "predict": 1.0}),
    _knn_case("brute", 50_000, 50, {"predict": 0.33}),
    Case(
        name="NearestNeighbors auto 50000x20 10000 queries k=5",
        data=lambda quick: _gaussian(50_000, 20, 10_000, quick),
        ours=lambda: _ours("NearestNeighbors")(n_neighbors=5, n_jobs=-1),
        theirs=lambda: _sk("NearestNeighbors")(n_neighbors=5, n_jobs=-1),
        methods=("kneighbors",),
        score=_mean_distance,
        score_tol=1e-9,
        goals={"kneighbors": 0.33},
    ),
    _build_case("kd_tree"),
    _build_case("ball_tree"),
    _radius_case("kd_tree"),
    _radius_case("ball_tree"),
]
