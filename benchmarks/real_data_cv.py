"""5-fold cross-validation (fit + predict) on scikit-learn's bundled data sets.

What a user running a small model search pays per candidate: for each data set
(iris, wine, breast_cancer, digits: 150-1,797 rows, no download) and estimator,
the best of three timings of a stratified 5-fold loop, ours and scikit-learn's in
the same process, and their ratio. Run with BLAS on one thread for stable
figures on a shared machine:

    OPENBLAS_NUM_THREADS=1 python -m benchmarks.real_data_cv
"""

import time
import warnings

import numpy as np
import sklearn.ensemble as sk_ensemble
import sklearn.linear_model as sk_linear
import sklearn.naive_bayes as sk_nb
import sklearn.neighbors as sk_neighbors
import sklearn.svm as sk_svm
import sklearn.tree as sk_tree
from sklearn import datasets
from sklearn.model_selection import StratifiedKFold

from classiclearn import ensemble, linear_model, naive_bayes, neighbors, svm, tree

DATA_SETS = {
    "iris": datasets.load_iris,
    "wine": datasets.load_wine,
    "breast_cancer": datasets.load_breast_cancer,
    "digits": datasets.load_digits,
}

# (label, our class, scikit-learn's class, parameters)
ESTIMATORS = [
    ("Perceptron", linear_model.Perceptron, sk_linear.Perceptron, {}),
    ("LogisticRegression", linear_model.LogisticRegression, sk_linear.LogisticRegression,
     {"max_iter": 1000}),
    ("KNeighborsClassifier brute", neighbors.KNeighborsClassifier,
     sk_neighbors.KNeighborsClassifier, {"algorithm": "brute"}),
    ("KNeighborsClassifier ball_tree", neighbors.KNeighborsClassifier,
     sk_neighbors.KNeighborsClassifier, {"algorithm": "ball_tree"}),
    ("KNeighborsClassifier kd_tree", neighbors.KNeighborsClassifier,
     sk_neighbors.KNeighborsClassifier, {"algorithm": "kd_tree"}),
    ("SVC linear", svm.SVC, sk_svm.SVC, {"kernel": "linear"}),
    ("SVC rbf", svm.SVC, sk_svm.SVC, {}),
    ("GaussianNB", naive_bayes.GaussianNB, sk_nb.GaussianNB, {}),
    ("DecisionTreeClassifier", tree.DecisionTreeClassifier, sk_tree.DecisionTreeClassifier,
     {"random_state": 0}),
    ("RandomForestClassifier", ensemble.RandomForestClassifier,
     sk_ensemble.RandomForestClassifier, {"random_state": 0}),
    ("ExtraTreesClassifier", ensemble.ExtraTreesClassifier, sk_ensemble.ExtraTreesClassifier,
     {"random_state": 0}),
]


def cv_seconds(cls, params, X, y, repeats=3):
    """Best of ``repeats`` timings of a stratified 5-fold fit + predict loop."""
    folds = list(StratifiedKFold(5, shuffle=True, random_state=0).split(X, y))
    best = np.inf
    for _ in range(repeats):
        start = time.perf_counter()
        for train, test in folds:
            cls(**params).fit(X[train], y[train]).predict(X[test])
        best = min(best, time.perf_counter() - start)
    return best


def main():
    warnings.simplefilter("ignore")
    ratios = []
    for data_name, load in DATA_SETS.items():
        X, y = load(return_X_y=True)
        for label, ours, theirs, params in ESTIMATORS:
            cv_seconds(ours, params, X, y, repeats=1)  # compiles
            t_ours = cv_seconds(ours, params, X, y)
            t_theirs = cv_seconds(theirs, params, X, y)
            ratios.append(t_ours / t_theirs)
            flag = "  SLOWER" if t_ours > t_theirs else ""
            print(f"{data_name:14s} {label:31s} ours {t_ours * 1e3:9.1f} ms  scikit-learn "
                  f"{t_theirs * 1e3:9.1f} ms  ratio {t_ours / t_theirs:.2f}{flag}")
    print(f"{len(ratios)} cells: median ratio {np.median(ratios):.2f}, worst {max(ratios):.2f}, "
          f"{sum(r > 1.0 for r in ratios)} above 1.0")


if __name__ == "__main__":
    main()
