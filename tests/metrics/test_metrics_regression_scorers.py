"""Regression metrics and scorers against scikit-learn's twins."""

import numpy as np
import pytest

import classiclearn.metrics as ours

sk = pytest.importorskip("sklearn.metrics")

REG = [
    "mean_squared_error",
    "root_mean_squared_error",
    "mean_absolute_error",
    "mean_absolute_percentage_error",
    "r2_score",
    "explained_variance_score",
]


@pytest.mark.parametrize("name", REG)
def test_regression_metrics(name):
    rng = np.random.default_rng(0)
    yt = rng.normal(size=(40, 3))
    yp = yt + rng.normal(scale=0.5, size=(40, 3))
    w = rng.uniform(0.1, 2, size=40)
    f, g = getattr(ours, name), getattr(sk, name)
    assert f(yt[:, 0], yp[:, 0]) == pytest.approx(g(yt[:, 0], yp[:, 0]), rel=1e-12)
    assert f(yt[:, 0], yp[:, 0], sample_weight=w) == pytest.approx(
        g(yt[:, 0], yp[:, 0], sample_weight=w), rel=1e-12)
    outputs = ["raw_values", "uniform_average", [0.2, 0.3, 0.5]]
    if name in ("r2_score", "explained_variance_score"):
        outputs.append("variance_weighted")
    for mo in outputs:
        np.testing.assert_allclose(f(yt, yp, multioutput=mo), g(yt, yp, multioutput=mo),
                                   rtol=1e-12)


def test_median_and_max_error():
    rng = np.random.default_rng(1)
    yt, yp = rng.normal(size=31), rng.normal(size=31)
    assert ours.median_absolute_error(yt, yp) == pytest.approx(sk.median_absolute_error(yt, yp))
    assert ours.max_error(yt, yp) == pytest.approx(sk.max_error(yt, yp))


def test_r2_constant_target_force_finite():
    assert ours.r2_score([1.0, 1.0], [1.0, 1.0]) == 1.0
    assert ours.r2_score([1.0, 1.0], [1.0, 2.0]) == 0.0
    assert np.isnan(ours.r2_score([1.0, 1.0], [1.0, 1.0], force_finite=False))
    assert ours.r2_score([1.0, 1.0], [1.0, 2.0], force_finite=False) == -np.inf
    assert ours.explained_variance_score([1.0, 1.0], [1.0, 2.0]) == \
        sk.explained_variance_score([1.0, 1.0], [1.0, 2.0])


def test_regression_errors():
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        ours.mean_squared_error([1, 2], [1, 2, 3])
    with pytest.raises(ValueError, match="different number of output"):
        ours.mean_squared_error(np.ones((3, 2)), np.ones((3, 3)))
    with pytest.raises(ValueError, match="multioutput"):
        ours.r2_score([1, 2], [1, 2], multioutput="bad")


SCORER_NAMES_CLF = ["accuracy", "balanced_accuracy", "f1_macro", "f1_micro", "f1_weighted",
                    "precision_macro", "recall_weighted", "neg_log_loss", "roc_auc_ovr",
                    "roc_auc_ovo", "roc_auc_ovr_weighted", "matthews_corrcoef"]
SCORER_NAMES_BIN = ["f1", "precision", "recall", "roc_auc", "neg_log_loss", "accuracy",
                    "neg_brier_score", "average_precision"]
SCORER_NAMES_REG = ["r2", "neg_mean_squared_error", "neg_root_mean_squared_error",
                    "neg_mean_absolute_error", "explained_variance", "neg_max_error",
                    "neg_median_absolute_error"]


@pytest.fixture(scope="module")
def fitted():
    from sklearn.datasets import load_iris
    from sklearn.linear_model import LinearRegression, LogisticRegression

    X, y = load_iris(return_X_y=True)
    multi = LogisticRegression(max_iter=500).fit(X, y)
    yb = (y == 2).astype(int)
    binary = LogisticRegression(max_iter=500).fit(X, yb)
    reg = LinearRegression().fit(X[:, :3], X[:, 3])
    return X, y, yb, multi, binary, reg


@pytest.mark.parametrize("name", SCORER_NAMES_CLF)
def test_scorers_multiclass_match_sklearn(fitted, name):
    X, y, _, multi, _, _ = fitted
    assert ours.get_scorer(name)(multi, X, y) == pytest.approx(sk.get_scorer(name)(multi, X, y))


@pytest.mark.parametrize("name", SCORER_NAMES_BIN)
def test_scorers_binary_match_sklearn(fitted, name):
    X, _, yb, _, binary, _ = fitted
    assert ours.get_scorer(name)(binary, X, yb) == pytest.approx(
        sk.get_scorer(name)(binary, X, yb))


@pytest.mark.parametrize("name", SCORER_NAMES_REG)
def test_scorers_regression_match_sklearn(fitted, name):
    X, _, _, _, _, reg = fitted
    assert ours.get_scorer(name)(reg, X[:, :3], X[:, 3]) == pytest.approx(
        sk.get_scorer(name)(reg, X[:, :3], X[:, 3]))


def test_scorer_names_are_sklearn_names():
    assert set(ours.get_scorer_names()) <= set(sk.get_scorer_names())
    with pytest.raises(ValueError, match="not a valid scoring value"):
        ours.get_scorer("accuracy_score")


def test_check_scoring_and_make_scorer(fitted):
    X, y, _, multi, _, _ = fitted
    assert ours.check_scoring(multi)(multi, X, y) == multi.score(X, y)
    scorers = ours.check_scoring(multi, ["accuracy", "f1_macro"])
    assert set(scorers) == {"accuracy", "f1_macro"}
    with pytest.raises(ValueError, match="make_scorer"):
        ours.check_scoring(multi, ours.accuracy_score)
    with pytest.raises(TypeError, match="score"):
        ours.check_scoring(object())
    scorer = ours.make_scorer(ours.fbeta_score, beta=2, average="macro")
    assert scorer(multi, X, y) == pytest.approx(
        sk.fbeta_score(y, multi.predict(X), beta=2, average="macro"))
    loss = ours.make_scorer(ours.mean_absolute_error, greater_is_better=False)
    assert loss(multi, X, y) <= 0
    proba = ours.make_scorer(ours.log_loss, response_method="predict_proba",
                             greater_is_better=False)
    assert proba(multi, X, y) == pytest.approx(-sk.log_loss(y, multi.predict_proba(X)))


def test_adjusted_rand_scorer_on_clusterer():
    from sklearn.cluster import KMeans
    from sklearn.datasets import make_blobs

    X, y = make_blobs(n_samples=60, random_state=0)
    km = KMeans(3, n_init=3, random_state=0).fit(X)
    assert ours.get_scorer("adjusted_rand_score")(km, X, y) == pytest.approx(
        sk.get_scorer("adjusted_rand_score")(km, X, y))


def test_pairwise_names_reexported():
    pairwise = pytest.importorskip("classiclearn.metrics.pairwise")
    for name in ("euclidean_distances", "linear_kernel", "polynomial_kernel", "rbf_kernel",
                 "sigmoid_kernel", "cosine_similarity", "pairwise_kernels"):
        assert getattr(ours, name) is getattr(pairwise, name)
        assert name in ours.__all__
