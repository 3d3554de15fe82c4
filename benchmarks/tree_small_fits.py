"""Tree and forest fits on small data, ours against scikit-learn in one process.

On a few hundred to a few thousand rows the fixed cost of a node and of a tree
decides the fit time. Prints, per estimator and size, the best of five fit
times (single trees: of 20 fits each) and their ratio. To compare two versions
of classiclearn, run it with each first on ``PYTHONPATH``:

    PYTHONPATH=<sources> python -m benchmarks.tree_small_fits

``--max-bins 255`` fits our histogram trees (scikit-learn's exact trees with the
same other parameters, as the benchmark grid compares them); ``--shapes
500x10,500x100`` sets the data sizes, ``--only`` a comma-separated list of
estimator names, ``--n-jobs`` the forests' (both libraries').
"""

import argparse
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


def _shape(text):
    rows, features = text.lower().split("x")
    return int(rows), int(features)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-bins", type=int, default=None,
                        help="our trees' max_bins (scikit-learn's stay exact)")
    parser.add_argument("--shapes", default="500x10,2000x10",
                        help="comma-separated ROWSxFEATURES (default 500x10,2000x10)")
    parser.add_argument("--only", default="", help="comma-separated estimator names")
    parser.add_argument("--n-jobs", type=int, default=None, help="the forests' n_jobs")
    args = parser.parse_args(argv)
    only = {s for s in args.only.split(",") if s}
    label = "" if args.max_bins is None else f" max_bins={args.max_bins}"
    for n_rows, n_features in map(_shape, args.shapes.split(",")):
        data = {"regression": make_regression(n_rows, n_features, random_state=0),
                "classification": make_classification(n_rows, n_features, random_state=0)}
        for name, kind, ours_module, their_module, params in ESTIMATORS:
            if only and name not in only:
                continue
            X, y = data[kind]
            fits = 1 if params else 20
            params = {**params, "random_state": 0}
            if "n_estimators" in params and args.n_jobs is not None:
                params["n_jobs"] = args.n_jobs
            ours_params = {**params, "max_bins": args.max_bins}
            ours = getattr(ours_module, name)
            theirs = getattr(their_module, name)
            ours(**ours_params).fit(X, y)  # compiles
            t_ours = _best_fit_time(ours, ours_params, X, y, fits)
            t_theirs = _best_fit_time(theirs, params, X, y, fits)
            print(f"{name}{label} {n_rows}x{n_features}: ours {t_ours * 1e3:.2f} ms, "
                  f"scikit-learn {t_theirs * 1e3:.2f} ms, ratio {t_ours / t_theirs:.2f}",
                  flush=True)


if __name__ == "__main__":
    main()
