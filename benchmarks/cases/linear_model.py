"""Linear-model benchmark cases (issue 3): 50,000 x 200 regression, 50,000 x 100
logistic regression with 2 and 5 classes, and a 100-alpha lasso path."""

from benchmarks import _data
from benchmarks._case import Case


def _sk(name):
    import sklearn.linear_model

    return getattr(sklearn.linear_model, name)

def _ours(name):
    import classiclearn.linear_model

    return getattr(classiclearn.linear_model, name)

def _regression(quick):
    return _data.regression(50_000, 200, quick=quick, noise=10.0)

def _classification(k):
    return lambda quick: _data.classification(50_000, 100, k, quick=quick)

class _PathRunner:
    """Wraps a lasso_path function as an estimator: fit computes the path,
    score is the test R^2 of the least-penalised model (data are centred)."""

    def __init__(self, path_fn, **kwargs):
        self.path_fn = path_fn
        self.kwargs = kwargs

    def fit(self, X, y):
        self.alphas_, self.coefs_, _ = self.path_fn(X, y, **self.kwargs)
        return self

    def predict(self, X):
        return X @ self.coefs_[:, -1]

    def score(self, X, y):
        resid = y - self.predict(X)
        return 1.0 - resid @ resid / ((y - y.mean()) @ (y - y.mean()))

def _our_path():
    import classiclearn.linear_model as lm

    return _PathRunner(lm.lasso_path, n_alphas=100)

def _their_path():
    import sklearn.linear_model as lm

    return _PathRunner(lm.lasso_path, alphas=100)

CASES = [
    Case(
        name="LinearRegression 50000x200",
        data=_regression,
        ours=lambda: _ours("LinearRegression")(),
        theirs=lambda: _sk("LinearRegression")(),
        goals={"fit": 1.0, "predict": 1.0},
    ),
    Case(
        name="Ridge 50000x200",
        data=_regression,
        ours=lambda: _ours("Ridge")(alpha=10.0),
        theirs=lambda: _sk("Ridge")(alpha=10.0),
        goals={"fit": 0.67, "predict": 1.0},
    ),
    Case(
        name="Lasso 50000x200",
        data=_regression,
        ours=lambda: _ours("Lasso")(alpha=1.0),
        theirs=lambda: _sk("Lasso")(alpha=1.0),
        goals={"fit": 0.5, "predict": 1.0},
    ),
    Case(
        name="ElasticNet 50000x200",
        data=_regression,
        ours=lambda: _ours("ElasticNet")(alpha=1.0, l1_ratio=0.5),
        theirs=lambda: _sk("ElasticNet")(alpha=1.0, l1_ratio=0.5),
        goals={"fit": 0.5, "predict": 1.0},
    ),
    Case(
        name="lasso_path 100 alphas 50000x200",
        data=_regression,
        ours=_our_path,
        theirs=_their_path,
        goals={"fit": 0.2},
        repeats=2,
    ),
    Case(
        name="LogisticRegression lbfgs 50000x100 2 classes",
        data=_classification(2),
        ours=lambda: _ours("LogisticRegression")(),
        theirs=lambda: _sk("LogisticRegression")(),
        methods=("predict", "predict_proba"),
        goals={"fit": 0.77, "predict": 1.0, "predict_proba": 1.0},
    ),
    Case(
        name="LogisticRegression lbfgs 50000x100 5 classes",
        data=_classification(5),
        ours=lambda: _ours("LogisticRegression")(),
        theirs=lambda: _sk("LogisticRegression")(),
        methods=("predict", "predict_proba"),
        goals={"fit": 0.77, "predict": 1.0, "predict_proba": 1.0},
    ),
    Case(
        name="LogisticRegression newton 50000x100 2 classes",
        data=_classification(2),
        ours=lambda: _ours("LogisticRegression")(solver="newton"),
        theirs=lambda: _sk("LogisticRegression")(solver="newton-cholesky"),
        goals={"fit": 1.0, "predict": 1.0},
    ),
    Case(
        name="LogisticRegression l1 50000x100 2 classes",
        data=_classification(2),
        ours=lambda: _ours("LogisticRegression")(penalty="l1", C=0.1, solver="newton-cd"),
        theirs=lambda: _sk("LogisticRegression")(l1_ratio=1.0, C=0.1, solver="liblinear"),
        goals={"fit": 1.0, "predict": 1.0},
    ),
    Case(
        name="Perceptron 50000x100 5 classes",
        data=_classification(5),
        ours=lambda: _ours("Perceptron")(),
        theirs=lambda: _sk("Perceptron")(),
        goals={"fit": 1.0, "predict": 1.0},
        score_tol=0.05,
    ),
    Case(
        name="LeastSquaresClassifier 50000x100 5 classes",
        data=_classification(5),
        ours=lambda: _ours("LeastSquaresClassifier")(alpha=1.0),
        theirs=lambda: _sk("RidgeClassifier")(alpha=1.0),
        goals={"fit": 1.0, "predict": 1.0},
    ),
]

# Issue 16: the solvers that reproduce scikit-learn's (moderate sizes: the
# stochastic solvers run epochs over the data in a scalar loop on both sides).
def _moderate_classification(k):
    return lambda quick: _data.classification(20_000, 50, k, quick=quick)


def _moderate_regression(quick):
    return _data.regression(20_000, 100, quick=quick, noise=10.0)


def _logistic_case(label, k, ours_params, theirs_params):
    return Case(
        name=f"LogisticRegression {label} 20000x50 {k} classes",
        data=_moderate_classification(k),
        ours=lambda: _ours("LogisticRegression")(**ours_params),
        theirs=lambda: _sk("LogisticRegression")(**theirs_params),
        methods=("predict_proba",),
        goals={"fit": 1.0},
        score_tol=2e-3,
    )


for _k in (2, 5):
    for _solver in ("sag", "saga", "newton-cg"):
        _params = {"solver": _solver, "random_state": 0}
        CASES.append(_logistic_case(_solver, _k, _params, _params))
    CASES.append(_logistic_case(
        "saga elasticnet", _k,
        {"solver": "saga", "penalty": "elasticnet", "l1_ratio": 0.5, "C": 0.1, "random_state": 0},
        {"solver": "saga", "l1_ratio": 0.5, "C": 0.1, "random_state": 0}))

for _solver in ("lsqr", "sparse_cg", "sag", "saga"):
    CASES.append(Case(
        name=f"Ridge {_solver} 20000x100",
        data=_moderate_regression,
        ours=lambda s=_solver: _ours("Ridge")(alpha=10.0, solver=s, random_state=0),
        theirs=lambda s=_solver: _sk("Ridge")(alpha=10.0, solver=s, random_state=0),
        goals={"fit": 1.0},
    ))
