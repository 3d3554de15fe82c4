"""5-fold cross-validation (fit + predict) on scikit-learn's bundled data sets.

What a user running a small model search pays per candidate: for each data set
and estimator, the best of three timings of a 5-fold loop, ours and
scikit-learn's in the same process, and their ratio. Classifiers run on iris,
wine, breast_cancer and digits (150-1,797 rows, no download; stratified folds);
regressors and the neighbour queries on diabetes and on three regression
targets read from the classification sets (a column predicted from the
others), each also standardised for the radius models. Timing rule of the
benchmark grid (``benchmarks._runner.LIBRARY_CONFIGS``): ours under default
threading, scikit-learn the faster of its default threading and BLAS on one
thread, a short pause before each timed loop:

    python -m benchmarks.real_data_cv [--only SUBSTRING] [--data SET] [--medians]

``--medians`` re-measures cells whose times are a few ms, where one best-of-three
after an idle pause swings with the machine: nine loops per library alternating,
back to back and after the pause, and the ratios of the medians and of the minima.
"""

import argparse
import time
import warnings

import numpy as np
import sklearn.discriminant_analysis as sk_discriminant
import sklearn.ensemble as sk_ensemble
import sklearn.kernel_ridge as sk_kernel_ridge
import sklearn.linear_model as sk_linear
import sklearn.naive_bayes as sk_nb
import sklearn.neighbors as sk_neighbors
import sklearn.svm as sk_svm
import sklearn.tree as sk_tree
from sklearn import datasets
from sklearn.model_selection import KFold, StratifiedKFold

from benchmarks._runner import LIBRARY_CONFIGS, SETTLE_SECONDS, _thread_configs
from benchmarks.cases.naive_bayes import _SklearnKernelDensityNB
from classiclearn import (
    discriminant_analysis,
    ensemble,
    kernel_ridge,
    linear_model,
    naive_bayes,
    neighbors,
    svm,
    tree,
)

CLASSIFICATION_SETS = {
    "iris": datasets.load_iris,
    "wine": datasets.load_wine,
    "breast_cancer": datasets.load_breast_cancer,
    "digits": datasets.load_digits,
}


def _column_target(load, column):
    """A regression set: ``column`` of a classification set predicted from the others."""
    def load_regression(return_X_y=True):
        X = load(return_X_y=True)[0]
        return np.delete(X, column, axis=1), X[:, column]
    return load_regression


REGRESSION_SETS = {
    "diabetes": datasets.load_diabetes,
    "wine:alcohol": _column_target(datasets.load_wine, 0),
    "breast_cancer:radius": _column_target(datasets.load_breast_cancer, 0),
    "iris:petal_length": _column_target(datasets.load_iris, 2),
}


class _TreeQuery:
    """fit builds a BallTree / KDTree on the rows, predict queries 5 neighbours."""

    def __init__(self, tree_class, **params):
        self.tree_class, self.params = tree_class, params

    def fit(self, X, y=None):
        self.tree_ = self.tree_class(X, **self.params)
        return self

    def predict(self, X):
        return self.tree_.query(X, k=5)


class _KNeighborsQuery:
    """predict asks a fitted NearestNeighbors for 5 neighbours of each row."""

    def __init__(self, estimator_class, **params):
        self.estimator_class, self.params = estimator_class, params

    def fit(self, X, y=None):
        self.model_ = self.estimator_class(**self.params).fit(X)
        return self

    def predict(self, X):
        return self.model_.kneighbors(X, 5)


def _adapter(adapter, ours, theirs):
    return (lambda **p: adapter(ours, **p)), (lambda **p: adapter(theirs, **p))


# (label, our class, scikit-learn's class, parameters, standardise X)
CLASSIFIERS = [
    ("Perceptron", linear_model.Perceptron, sk_linear.Perceptron, {}, False),
    ("LogisticRegression", linear_model.LogisticRegression, sk_linear.LogisticRegression,
     {"max_iter": 1000}, False),
    ("KNeighborsClassifier brute", neighbors.KNeighborsClassifier,
     sk_neighbors.KNeighborsClassifier, {"algorithm": "brute"}, False),
    ("KNeighborsClassifier ball_tree", neighbors.KNeighborsClassifier,
     sk_neighbors.KNeighborsClassifier, {"algorithm": "ball_tree"}, False),
    ("KNeighborsClassifier kd_tree", neighbors.KNeighborsClassifier,
     sk_neighbors.KNeighborsClassifier, {"algorithm": "kd_tree"}, False),
    ("RadiusNeighborsClassifier", neighbors.RadiusNeighborsClassifier,
     sk_neighbors.RadiusNeighborsClassifier,
     {"radius": 3.0, "outlier_label": "most_frequent"}, True),
    ("SVC linear", svm.SVC, sk_svm.SVC, {"kernel": "linear"}, False),
    ("SVC rbf", svm.SVC, sk_svm.SVC, {}, False),
    ("LinearSVC", svm.LinearSVC, sk_svm.LinearSVC, {"random_state": 0}, True),
    ("LeastSquaresClassifier", linear_model.LeastSquaresClassifier, sk_linear.RidgeClassifier,
     {"alpha": 1.0}, False),  # RidgeClassifier's default; ours is 0 (plain least squares)
    ("LinearDiscriminantAnalysis", discriminant_analysis.LinearDiscriminantAnalysis,
     sk_discriminant.LinearDiscriminantAnalysis, {}, False),
    ("QuadraticDiscriminantAnalysis", discriminant_analysis.QuadraticDiscriminantAnalysis,
     sk_discriminant.QuadraticDiscriminantAnalysis, {"reg_param": 0.1}, False),
    ("GaussianNB", naive_bayes.GaussianNB, sk_nb.GaussianNB, {}, False),
    ("BernoulliNB", naive_bayes.BernoulliNB, sk_nb.BernoulliNB, {}, True),
    ("KernelDensityNB", naive_bayes.KernelDensityNB, _SklearnKernelDensityNB, {}, False),
    ("MultinomialNB", naive_bayes.MultinomialNB, sk_nb.MultinomialNB, {}, False),
    ("DecisionTreeClassifier", tree.DecisionTreeClassifier, sk_tree.DecisionTreeClassifier,
     {"random_state": 0}, False),
    ("RandomForestClassifier", ensemble.RandomForestClassifier,
     sk_ensemble.RandomForestClassifier, {"random_state": 0}, False),
    ("ExtraTreesClassifier", ensemble.ExtraTreesClassifier, sk_ensemble.ExtraTreesClassifier,
     {"random_state": 0}, False),
]

REGRESSORS = [
    ("LinearRegression", linear_model.LinearRegression, sk_linear.LinearRegression, {}, False),
    ("Ridge", linear_model.Ridge, sk_linear.Ridge, {}, False),
    ("Lasso", linear_model.Lasso, sk_linear.Lasso, {"alpha": 0.1}, True),
    ("ElasticNet", linear_model.ElasticNet, sk_linear.ElasticNet, {"alpha": 0.1}, True),
    ("KNeighborsRegressor brute", neighbors.KNeighborsRegressor,
     sk_neighbors.KNeighborsRegressor, {"algorithm": "brute"}, False),
    ("KNeighborsRegressor kd_tree", neighbors.KNeighborsRegressor,
     sk_neighbors.KNeighborsRegressor, {"algorithm": "kd_tree"}, False),
    ("RadiusNeighborsRegressor", neighbors.RadiusNeighborsRegressor,
     sk_neighbors.RadiusNeighborsRegressor, {"radius": 3.0}, True),
    ("SVR rbf", svm.SVR, sk_svm.SVR, {}, True),
    ("KernelRidge rbf", kernel_ridge.KernelRidge, sk_kernel_ridge.KernelRidge,
     {"kernel": "rbf"}, True),
    ("DecisionTreeRegressor", tree.DecisionTreeRegressor, sk_tree.DecisionTreeRegressor,
     {"random_state": 0}, False),
    ("RandomForestRegressor", ensemble.RandomForestRegressor, sk_ensemble.RandomForestRegressor,
     {"random_state": 0}, False),
    ("ExtraTreesRegressor", ensemble.ExtraTreesRegressor, sk_ensemble.ExtraTreesRegressor,
     {"random_state": 0}, False),
    ("NearestNeighbors kneighbors",
     *_adapter(_KNeighborsQuery, neighbors.NearestNeighbors, sk_neighbors.NearestNeighbors),
     {}, False),
    ("KDTree query", *_adapter(_TreeQuery, neighbors.KDTree, sk_neighbors.KDTree), {}, False),
    ("BallTree query", *_adapter(_TreeQuery, neighbors.BallTree, sk_neighbors.BallTree),
     {}, False),
]


def _standardised(X):
    scale = X.std(axis=0)
    return (X - X.mean(axis=0)) / np.where(scale > 0, scale, 1.0)


def cv_seconds(cls, params, X, y, folds, repeats=3, configs=("default",)):
    """Best of ``repeats`` timings of a 5-fold fit + predict loop over ``folds``,
    over the thread configurations ``configs`` (names of
    :func:`benchmarks._runner._thread_configs`), each timing after a pause."""
    settings = _thread_configs()
    best = np.inf
    for _ in range(repeats):
        for config in configs:
            time.sleep(SETTLE_SECONDS)
            with settings[config]():
                start = time.perf_counter()
                for train, test in folds:
                    cls(**params).fit(X[train], y[train]).predict(X[test])
                best = min(best, time.perf_counter() - start)
    return best


def _loop(cls, params, X, y, folds):
    for train, test in folds:
        cls(**params).fit(X[train], y[train]).predict(X[test])


def median_ratios(ours, theirs, params, X, y, folds, loops=9):
    """{pause: (median ours, median theirs, ratio of medians, ratio of minima)} for loops
    back to back (pause 0) and after ``SETTLE_SECONDS``, ours and theirs alternating
    (both libraries under default threading)."""
    _loop(ours, params, X, y, folds)
    _loop(theirs, params, X, y, folds)
    out = {}
    for pause in (0.0, SETTLE_SECONDS):
        times = {ours: [], theirs: []}
        for _ in range(loops):
            for cls in (ours, theirs):
                time.sleep(pause)
                start = time.perf_counter()
                _loop(cls, params, X, y, folds)
                times[cls].append(time.perf_counter() - start)
        mo, mt = np.median(times[ours]), np.median(times[theirs])
        out[pause] = (mo, mt, mo / mt, min(times[ours]) / min(times[theirs]))
    return out


def run(data_sets, estimators, splitter, only, ratios, data=None, medians=False):
    """Time every estimator on every data set; append the ratios, print a line each."""
    for data_name, load in data_sets.items():
        if data and data != data_name:
            continue
        X_raw, y = load(return_X_y=True)
        folds = list(splitter.split(X_raw, y))
        for label, ours, theirs, params, standardise in estimators:
            if only and only not in label:
                continue
            X = _standardised(X_raw) if standardise else X_raw
            if medians:
                m = median_ratios(ours, theirs, params, X, y, folds)
                ratios.append(m[0.0][2])
                print(f"{data_name:20s} {label:31s} " + " | ".join(
                    f"{'back to back' if pause == 0 else 'after idle'} ours {mo * 1e3:6.1f} ms "
                    f"scikit-learn {mt * 1e3:6.1f} ms ratio {r:.2f} (minima {rmin:.2f})"
                    for pause, (mo, mt, r, rmin) in m.items()), flush=True)
                continue
            cv_seconds(ours, params, X, y, folds, repeats=1)  # compiles
            t_ours = cv_seconds(ours, params, X, y, folds, configs=LIBRARY_CONFIGS["ours"])
            t_theirs = cv_seconds(theirs, params, X, y, folds,
                                  configs=LIBRARY_CONFIGS["theirs"])
            ratios.append(t_ours / t_theirs)
            flag = "  SLOWER" if t_ours > t_theirs else ""
            print(f"{data_name:20s} {label:31s} ours {t_ours * 1e3:9.1f} ms  scikit-learn "
                  f"{t_theirs * 1e3:9.1f} ms  ratio {t_ours / t_theirs:.2f}{flag}", flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="", help="time only estimators whose label has this")
    parser.add_argument("--data", default=None, help="only this data set (e.g. wine:alcohol)")
    parser.add_argument("--medians", action="store_true",
                        help="medians of nine loops, back to back and after a pause")
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    ratios = []
    run(CLASSIFICATION_SETS, CLASSIFIERS, StratifiedKFold(5, shuffle=True, random_state=0),
        args.only, ratios, args.data, args.medians)
    run(REGRESSION_SETS, REGRESSORS, KFold(5, shuffle=True, random_state=0), args.only, ratios,
        args.data, args.medians)
    if not ratios:
        print("no cell matched")
        return
    kind = "median ratio back to back" if args.medians else "median ratio"
    print(f"{len(ratios)} cells: {kind} {np.median(ratios):.2f}, worst {max(ratios):.2f}, "
          f"{sum(r > 1.0 for r in ratios)} above 1.0")


if __name__ == "__main__":
    main()
