"""Estimator cases shared by the float32 and extreme-input tests.

For every registered estimator: constructor keyword arguments usable with
classiclearn's class and with scikit-learn's twin (``lib`` names the library),
small float32 data of the right kind (labels for classifiers, a float32 target
for regressors) and the twin's class.
"""

import importlib

import numpy as np

# estimators without a scikit-learn twin
NO_TWIN = {"KernelDensityNB", "LeastSquaresClassifier"}
# twins living under another scikit-learn module than classiclearn's family
TWIN_MODULES = {
    "KernelRidge": "sklearn.kernel_ridge",
    "OneVsRestClassifier": "sklearn.multiclass",
    "OneVsOneClassifier": "sklearn.multiclass",
    "OutputCodeClassifier": "sklearn.multiclass",
    "Pipeline": "sklearn.pipeline",
    "LinearDiscriminantAnalysis": "sklearn.discriminant_analysis",
    "QuadraticDiscriminantAnalysis": "sklearn.discriminant_analysis",
    "SimpleImputer": "sklearn.impute",
    "LabelEncoder": "sklearn.preprocessing",
}


def inner_classifier(lib):
    return importlib.import_module(f"{lib}.linear_model").LogisticRegression(max_iter=500)


# estimators that take non-negative counts
COUNT_DATA = {"MultinomialNB", "ComplementNB", "CategoricalNB"}


def make_params(name, lib):
    """Constructor keyword arguments used for both libraries."""
    seeded = {"random_state": 0}
    if name in ("OneVsRestClassifier", "OneVsOneClassifier"):
        return {"estimator": inner_classifier(lib)}
    if name == "OutputCodeClassifier":
        return {"estimator": inner_classifier(lib), "random_state": 0}
    if name == "Pipeline":
        pre = importlib.import_module(f"{lib}.preprocessing")
        return {"steps": [("scale", pre.StandardScaler()), ("model", inner_classifier(lib))]}
    if name in ("GridSearchCV", "RandomizedSearchCV"):
        key = "param_grid" if name == "GridSearchCV" else "param_distributions"
        extra = {"random_state": 0, "n_iter": 2} if name == "RandomizedSearchCV" else {}
        return {"estimator": inner_classifier(lib), key: {"C": [0.1, 1.0]}, "cv": 3, **extra}
    if name in ("KMeans",):
        return {"n_clusters": 3, "n_init": 1, "random_state": 0, "init": "random"}
    if name == "GaussianMixture":
        return {"n_components": 2, "random_state": 0}
    if name in ("RandomForestClassifier", "RandomForestRegressor", "ExtraTreesClassifier",
                "ExtraTreesRegressor"):
        return {"n_estimators": 5, "random_state": 0}
    if name in ("DecisionTreeClassifier", "DecisionTreeRegressor"):
        return seeded
    if name in ("SVC",):
        return {"probability": True, "random_state": 0}
    if name == "KernelPCA":
        return {"n_components": 2, "fit_inverse_transform": True}
    if name == "PCA":
        return {"n_components": 2}
    if name in ("RadiusNeighborsClassifier", "RadiusNeighborsRegressor"):
        return {"radius": 3.0}
    if name == "LogisticRegression":
        return {"max_iter": 500}
    if name == "Perceptron":
        return {"random_state": 0}
    if name == "LinearSVC":
        return {"random_state": 0}
    return {}


def twin_class(name, cls):
    family = cls.__module__.split(".")[1]
    module = TWIN_MODULES.get(name, f"sklearn.{family}")
    return getattr(importlib.import_module(module), name)


def make_data(name, cls):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 4)).astype(np.float32)
    X[:, 1] += 2.0
    if name == "LabelEncoder":
        return None, None
    kind = getattr(cls, "_estimator_type", None)
    if kind == "classifier" or name in ("GridSearchCV", "RandomizedSearchCV", "Pipeline"):
        y = (X[:, 0] + 0.5 * X[:, 2] > 0).astype(np.intp) + (X[:, 3] > 1.0)
    else:
        y = (X @ np.array([1.0, -2.0, 0.5, 0.0], dtype=np.float32) + 0.1).astype(np.float32)
    if name == "BernoulliNB":
        X = (X > 0).astype(np.float32)
    if name in COUNT_DATA:  # non-negative counts (categories for CategoricalNB)
        X = np.floor(np.abs(X) * 2.0).astype(np.float32)
    return X, y


def fit_case(estimator, X, y):
    """Fit an estimator on ``X`` (and ``y`` unless None)."""
    return estimator.fit(X) if y is None else estimator.fit(X, y)
