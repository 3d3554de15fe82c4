"""Tree and forest fits on small data, ours against scikit-learn in one process.

On a few hundred to a few thousand rows the fixed cost of a node and of a tree
decides the fit time. Prints, per estimator and size, the best of five fit
times (single trees: of 20 fits each) and their ratio. To compare two versions
of classiclearn, run it with each first on ``PYTHONPATH``:

    PYTHONPATH=<sources> python -m benchmarks.tree_small_fits
"""

import time

import numpy as np
import sklearn.ensemble as sk_ensemble
import sklearn.tree as sk_tree
from sklearn.datasets import make_classification, make_regression

from classiclearn import ensemble, tree

ESTIMATORS = [
    ("ExtraTreesRegressor", "regression", ensemble, sk_ensemble, {"n_estimators": 100}),
    ("RandomForestRegressor", "regression", ensemble, sk_ensemble, {"n_estimators": 100}),
    ("DecisionTreeRegressor", "regression", tree, sk_tree, {}),
    ("ExtraTreesClassifier", "classification", ensemble, sk_ensemble, {"n_estimators": 100}),
    ("RandomForestClassifier", "classification", ensemble, sk_ensemble, {"n_estimators": 100}),
    ("DecisionTreeClassifier", "classification", tree, sk_tree, {}),
]


def _best_fit_time(cls, params, X, y, fits_per_time, repeats=5):
    best = np.inf
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(fits_per_time):
            cls(**params).fit(X, y)
        best = min(best, (time.perf_counter() - start) / fits_per_time)
    return best


def main():
    for n_rows in (500, 2000):
        data = {"regression": make_regression(n_rows, 10, random_state=0),
                "classification": make_classification(n_rows, 10, random_state=0)}
        for name, kind, ours_module, their_module, params in ESTIMATORS:
            X, y = data[kind]
            fits = 1 if params else 20
            params = {**params, "random_state": 0}
            ours = getattr(ours_module, name)
            theirs = getattr(their_module, name)
            ours(**params).fit(X, y)  # compiles
            t_ours = _best_fit_time(ours, params, X, y, fits)
            t_theirs = _best_fit_time(theirs, params, X, y, fits)
            print(f"{name} {n_rows}x10: ours {t_ours * 1e3:.2f} ms, scikit-learn "
                  f"{t_theirs * 1e3:.2f} ms, ratio {t_ours / t_theirs:.2f}")


if __name__ == "__main__":
    main()
