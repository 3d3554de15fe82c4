"""The cells of the benchmark grid: one small table per family (issue 18).

Each :class:`benchmarks.grid.Spec` names a registered estimator, its data and
the parameter axes that change its algorithm; the grid takes every
combination of axes, sizes, widths and class counts (see
:func:`benchmarks.grid.build_cells`). ``tests/benchmarks/test_grid.py`` checks
that every registered estimator with a scikit-learn twin has a spec.
"""

import numpy as np

from benchmarks._grid_data import radius_for
from benchmarks.grid import QUADRATIC_MAX_ROWS, FromData, Spec

# our name -> scikit-learn's, where they differ
TWIN_NAMES = {"LeastSquaresClassifier": "RidgeClassifier"}

# registered estimators without a scikit-learn twin, and why
NO_TWIN = {
    "KernelDensityNB": "no scikit-learn class; its benchmark case builds one from KernelDensity",
}


# ---- scores -------------------------------------------------------------------------------

def transform_mean(est, X, y):
    """Mean absolute value of the transformed test rows (transformers have no score)."""
    out = est.transform(X)
    if hasattr(out, "toarray"):
        out = out.toarray()
    return float(np.nanmean(np.abs(np.asarray(out, dtype=np.float64))))


def mean_kneighbor_distance(est, X, y):
    return float(est.kneighbors(X[:1000])[0].mean())


def finite_r2(est, X, y):
    """R^2 over the test rows with a prediction (radius regressors leave lonely rows NaN)."""
    pred = est.predict(X)
    keep = np.isfinite(pred)
    resid, centred = y[keep] - pred[keep], y[keep] - y[keep].mean()
    return float(1.0 - resid @ resid / (centred @ centred))


def per_row_score(est, X, y):
    """Mean log-likelihood (GaussianMixture) or negative inertia per row (KMeans)."""
    return float(est.score(X) / (1 if hasattr(est, "covariances_") else X.shape[0]))


def explained_variance(est, X, y):
    return float(est.explained_variance_ratio_.sum())


def kernel_eigenvalues(est, X, y):
    return float(est.eigenvalues_.sum() / est.eigenvectors_.shape[0])


def radius(neighbours=15):
    """A radius holding about ``neighbours`` training rows, from the cell's data."""
    def compute(X_train, X_test, params):
        metric = params.get("metric", "euclidean")
        return radius_for(X_train, X_test, neighbours, "cityblock" if metric == "manhattan"
                          else metric)

    return FromData(f"~{neighbours} neighbours", compute)


# ---- builders of estimators that wrap others ----------------------------------------------

def around_logistic(cls, get, params):
    return cls(get("LogisticRegression")(), **params)


def logistic_pipeline(cls, get, params):
    return cls([("scale", get("StandardScaler")()), ("model", get("LogisticRegression")())],
               **params)


def grid_search(cls, get, params):
    return cls(get("LogisticRegression")(), {"C": [0.1, 1.0, 10.0]}, cv=3, **params)


def randomized_search(cls, get, params):
    return cls(get("Ridge")(), {"alpha": [0.01, 0.1, 1.0, 10.0, 100.0]}, n_iter=3, cv=3,
               random_state=0, **params)


class YOnly:
    """Adapts an estimator fitted on y alone (LabelEncoder) to ``fit(X, y)``."""

    def __init__(self, estimator):
        self.estimator = estimator

    def fit(self, X, y=None):
        self.estimator.fit(X)
        return self

    def transform(self, X):
        return self.estimator.transform(X)


def y_only(cls, get, params):
    return YOnly(cls(**params))


# ---- the tables ----------------------------------------------------------------------------

def _goal_when(key, value, goals):
    return lambda params: goals if params.get(key) == value else {}


def _goal_if_set(key, goals):
    return lambda params: goals if params.get(key) is not None else {}


TREE_ALGORITHMS = {"max_bins": [None, 255]}

NEIGHBORS = [
    Spec("KNeighborsClassifier",
         axes={"algorithm": ["brute", "kd_tree", "ball_tree"], "metric": ["euclidean", "manhattan"],
               "n_jobs": [1, -1]},
         goals=_goal_when("algorithm", "brute", {"predict": 0.33})),
    Spec("KNeighborsRegressor", data="regression",
         axes={"algorithm": ["brute", "kd_tree", "ball_tree"], "weights": ["uniform", "distance"]},
         fixed={"n_jobs": -1}, goals=_goal_when("algorithm", "brute", {"predict": 0.33})),
    Spec("RadiusNeighborsClassifier",
         axes={"algorithm": ["brute", "kd_tree", "ball_tree"], "metric": ["euclidean", "manhattan"],
               "radius": [radius()]},
         fixed={"n_jobs": -1, "outlier_label": "most_frequent"}, flips=2),
    Spec("RadiusNeighborsRegressor", data="regression",
         axes={"algorithm": ["brute", "kd_tree", "ball_tree"], "radius": [radius()]},
         fixed={"n_jobs": -1}, score=finite_r2),
    Spec("NearestNeighbors", data="unlabelled", methods=("kneighbors",),
         axes={"algorithm": ["brute", "kd_tree", "ball_tree"], "metric": ["euclidean", "manhattan"],
               "n_jobs": [1, -1]},
         score=mean_kneighbor_distance, score_tol=1e-9),
]

LINEAR_MODEL = [
    Spec("LinearRegression", data="regression"),
    Spec("Ridge", data="regression",
         axes={"solver": ["auto", "cholesky", "svd", "lsqr", "sparse_cg", "sag", "saga"]},
         fixed={"alpha": 10.0, "random_state": 0}, score_tol=1e-4,
         goals=_goal_when("solver", "auto", {"fit": 0.67})),
    Spec("Lasso", data="regression", axes={"alpha": [0.1, 1.0]},
         goals=lambda p: {"fit": 0.5}),
    Spec("ElasticNet", data="regression", axes={"alpha": [0.1, 1.0]},
         goals=lambda p: {"fit": 0.5}),
    Spec("LogisticRegression", classes=(2, 5), methods=("predict", "predict_proba"),
         axes={"solver": ["lbfgs", "newton-cholesky", "newton-cg", "sag", "saga", "liblinear"]},
         fixed={"random_state": 0}, flips=2,
         skip=lambda p, f, k: p["solver"] == "liblinear" and k > 2,
         goals=_goal_when("solver", "lbfgs", {"fit": 0.77})),
    Spec("Perceptron", classes=(2, 5), axes={"algorithm": ["online", "batch"]},
         ours_only=("algorithm",), fixed={"random_state": 0}, score_tol=0.05),
    Spec("LeastSquaresClassifier", classes=(2, 5), fixed={"alpha": 1.0}),
]

SVM = [
    Spec("SVC", classes=(2, 5), methods=("decision_function",),
         axes={"kernel": ["linear", "rbf", "poly", "sigmoid"]}, max_rows=QUADRATIC_MAX_ROWS,
         flips=2, max_repeats=2),
    Spec("SVR", data="regression", axes={"kernel": ["linear", "rbf", "poly"]},
         fixed={"C": 100.0, "epsilon": 1.0}, max_rows=QUADRATIC_MAX_ROWS, max_repeats=2),
    Spec("LinearSVC", classes=(2, 5), methods=("decision_function",),
         axes={"loss": ["squared_hinge", "hinge"]}, fixed={"random_state": 0}, flips=2),
]

TREE = [
    Spec("DecisionTreeClassifier", axes={"criterion": ["gini", "entropy"], **TREE_ALGORITHMS},
         ours_only=("max_bins",), fixed={"random_state": 0}, flips=3,
         goals=_goal_if_set("max_bins", {"fit": 0.2})),
    Spec("DecisionTreeRegressor", data="positive_regression",
         axes={"criterion": ["squared_error", "friedman_mse", "absolute_error", "poisson"],
               **TREE_ALGORITHMS},
         ours_only=("max_bins",), fixed={"random_state": 0}, score_tol=0.02,
         # the histogram splitter supports the squared-error criteria only (a clear error)
         skip=lambda p, f, k: p["max_bins"] is not None
         and p["criterion"] in ("absolute_error", "poisson"),
         goals=_goal_if_set("max_bins", {"fit": 0.2})),
]

_FOREST = {"fixed": {"random_state": 0}, "ours_only": ("max_bins",), "max_repeats": 1}
ENSEMBLE = [
    Spec("RandomForestClassifier", methods=("predict_proba",), flips=3,
         axes={"criterion": ["gini", "entropy"], **TREE_ALGORITHMS, "n_jobs": [1, -1]},
         goals=_goal_if_set("max_bins", {"fit": 0.33, "predict_proba": 0.5}), **_FOREST),
    Spec("RandomForestRegressor", data="regression", score_tol=0.02,
         axes={"criterion": ["squared_error", "friedman_mse"], **TREE_ALGORITHMS,
               "n_jobs": [1, -1]},
         goals=_goal_if_set("max_bins", {"fit": 0.33, "predict": 0.5}), **_FOREST),
    Spec("ExtraTreesClassifier", methods=("predict_proba",), flips=3,
         axes={"criterion": ["gini", "entropy"], **TREE_ALGORITHMS, "n_jobs": [1, -1]},
         goals=lambda p: {"fit": 0.67}, **_FOREST),
    Spec("ExtraTreesRegressor", data="regression", score_tol=0.02,
         axes={"criterion": ["squared_error", "friedman_mse"], **TREE_ALGORITHMS,
               "n_jobs": [1, -1]},
         goals=lambda p: {"fit": 0.67}, **_FOREST),
]

DECOMPOSITION = [
    Spec("PCA", data="unlabelled", methods=("transform",), features=(10, 100, 300),
         axes={"n_components": [2, 10, 50, 200],
               "svd_solver": ["full", "covariance_eigh", "randomized", "arpack"]},
         fixed={"random_state": 0}, score=explained_variance,
         skip=lambda p, f, k: p["n_components"] > f
         or (p["svd_solver"] == "arpack" and p["n_components"] >= f),
         goals=_goal_when("svd_solver", "full", {"fit": 0.1})),
    # the kernel matrix, not the width, sets the cost: one width
    Spec("KernelPCA", data="unlabelled", methods=("transform",), features=(20,),
         axes={"kernel": ["rbf", "poly"], "n_components": [2, 20, 200],
               "eigen_solver": ["auto", "randomized"]},
         fixed={"random_state": 0}, score=kernel_eigenvalues, score_tol=1e-6,
         max_rows=QUADRATIC_MAX_ROWS, max_repeats=1, goals=lambda p: {"fit": 0.33}),
]

KERNEL_RIDGE = [
    Spec("KernelRidge", data="regression", axes={"kernel": ["linear", "rbf", "poly"]},
         max_rows=QUADRATIC_MAX_ROWS, max_repeats=2),
]

DISCRIMINANT_ANALYSIS = [
    Spec("LinearDiscriminantAnalysis", classes=(2, 5),
         axes={"solver": ["svd", "lsqr", "eigen"], "shrinkage": [None, "auto"]},
         skip=lambda p, f, k: p["solver"] == "svd" and p["shrinkage"] is not None),
    # a full-rank covariance per class needs more rows per class than features (the
    # runner's warm-up fits 300 rows: 60 per class at 5 classes)
    Spec("QuadraticDiscriminantAnalysis", classes=(2, 5), features=(10, 50),
         axes={"reg_param": [0.0, 0.01]}),
]

MIXTURE = [
    Spec("GaussianMixture", data="blobs",
         axes={"covariance_type": ["full", "tied", "diag", "spherical"], "n_components": [3, 8]},
         fixed={"random_state": 0}, score=per_row_score, score_tol=1e-2),
]

CLUSTER = [
    Spec("KMeans", data="blobs", axes={"algorithm": ["lloyd", "elkan"], "n_clusters": [3, 8, 32]},
         fixed={"n_init": 1, "random_state": 0}, score=per_row_score, score_tol=1e-2),
]

NAIVE_BAYES = [
    Spec("GaussianNB", classes=(2, 5), methods=("predict", "predict_proba")),
    Spec("BernoulliNB", classes=(2, 5), methods=("predict", "predict_proba")),
    Spec("MultinomialNB", data="counts", classes=(2, 5), methods=("predict", "predict_proba")),
    Spec("ComplementNB", data="counts", classes=(2, 5), axes={"norm": [False, True]}),
    Spec("CategoricalNB", data="categorical", classes=(2, 5),
         methods=("predict", "predict_proba")),
]

_TRANSFORM = {"data": "regression", "methods": ("transform",), "score": transform_mean,
              "score_tol": 1e-9}
PREPROCESSING = [
    Spec("StandardScaler", **_TRANSFORM),
    Spec("MinMaxScaler", **_TRANSFORM),
    Spec("MaxAbsScaler", **_TRANSFORM),
    Spec("RobustScaler", **_TRANSFORM),
    Spec("Normalizer", axes={"norm": ["l1", "l2", "max"]}, **_TRANSFORM),
    Spec("Binarizer", **_TRANSFORM),
    Spec("PolynomialFeatures", features=(5, 20), axes={"degree": [2, 3]}, **_TRANSFORM),
    Spec("FunctionTransformer", axes={"validate": [False, True]}, fixed={"func": np.abs},
         **_TRANSFORM),
    Spec("SimpleImputer", **{**_TRANSFORM, "data": "nans"},
         axes={"strategy": ["mean", "median", "most_frequent"]}),
    Spec("OneHotEncoder", **{**_TRANSFORM, "data": "categories"}, features=(10, 30),
         fixed={"sparse_output": False}),
    Spec("LabelEncoder", **{**_TRANSFORM, "data": "labels"}, features=(10,), build=y_only),
]

MULTICLASS = [
    Spec("OneVsRestClassifier", classes=(3, 8), axes={"n_jobs": [1, -1]},
         build=around_logistic, flips=2),
    Spec("OneVsOneClassifier", classes=(3, 8), axes={"n_jobs": [1, -1]},
         build=around_logistic, flips=2),
    Spec("OutputCodeClassifier", classes=(3, 8), fixed={"code_size": 1.5, "random_state": 0},
         build=around_logistic, flips=3),
]

MODEL_SELECTION = [
    Spec("GridSearchCV", classes=(2, 5), axes={"n_jobs": [1, -1]}, build=grid_search, flips=2),
    Spec("RandomizedSearchCV", data="regression", axes={"n_jobs": [1, -1]},
         build=randomized_search, score_tol=1e-4),
]

PIPELINE = [
    Spec("Pipeline", classes=(2, 5), build=logistic_pipeline, flips=2),
]

SPECS = [
    *NEIGHBORS, *LINEAR_MODEL, *SVM, *TREE, *ENSEMBLE, *DECOMPOSITION, *KERNEL_RIDGE,
    *DISCRIMINANT_ANALYSIS, *MIXTURE, *CLUSTER, *NAIVE_BAYES, *PREPROCESSING, *MULTICLASS,
    *MODEL_SELECTION, *PIPELINE,
]
