"""LDA and QDA against scikit-learn, closed forms and bad input."""

import warnings

import numpy as np
import pytest
from scipy import linalg

from classiclearn.discriminant_analysis import (
    LinearDiscriminantAnalysis,
    QuadraticDiscriminantAnalysis,
)

sk_da = pytest.importorskip("sklearn.discriminant_analysis")

SOLVER_SHRINKAGE = [
    ("svd", None),
    ("lsqr", None),
    ("lsqr", "auto"),
    ("lsqr", 0.3),
    ("eigen", None),
    ("eigen", "auto"),
    ("eigen", 0.7),
]


def _blobs(n=400, p=6, k=4, seed=0, scale=0.8):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, n)
    centres = rng.normal(size=(k, p)) * 2
    A = rng.normal(size=(p, p)) * 0.3 + np.eye(p)
    X = rng.normal(size=(n, p)) @ A * scale + centres[y]
    X_test = rng.normal(size=(60, p)) * 2
    return X, y, X_test


def _match_signs(a, b):
    signs = np.sign(np.sum(a * b, axis=0))
    signs[signs == 0] = 1
    return b * signs


@pytest.mark.parametrize("n_classes", [2, 3, 5])
@pytest.mark.parametrize("solver,shrinkage", SOLVER_SHRINKAGE)
def test_lda_parity_with_sklearn(n_classes, solver, shrinkage):
    X, y, X_test = _blobs(k=n_classes, seed=n_classes)
    ours = LinearDiscriminantAnalysis(solver=solver, shrinkage=shrinkage).fit(X, y)
    theirs = sk_da.LinearDiscriminantAnalysis(solver=solver, shrinkage=shrinkage).fit(X, y)
    np.testing.assert_allclose(ours.coef_, theirs.coef_, rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(ours.intercept_, theirs.intercept_, rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(ours.means_, theirs.means_, rtol=1e-10)
    np.testing.assert_allclose(ours.priors_, theirs.priors_)
    np.testing.assert_allclose(
        ours.predict_proba(X_test), theirs.predict_proba(X_test), rtol=0, atol=1e-6
    )
    np.testing.assert_allclose(
        ours.decision_function(X_test), theirs.decision_function(X_test), rtol=1e-6, atol=1e-7
    )
    np.testing.assert_array_equal(ours.predict(X_test), theirs.predict(X_test))
    if solver != "svd":
        np.testing.assert_allclose(ours.covariance_, theirs.covariance_, rtol=1e-8, atol=1e-12)
    if solver != "lsqr":
        t_ours, t_theirs = ours.transform(X_test), theirs.transform(X_test)
        assert t_ours.shape == t_theirs.shape == (len(X_test), n_classes - 1)
        np.testing.assert_allclose(_match_signs(t_theirs, t_ours), t_theirs, atol=1e-6)
        np.testing.assert_allclose(
            ours.explained_variance_ratio_, theirs.explained_variance_ratio_, atol=1e-8
        )


def test_lda_priors_n_components_store_covariance():
    X, y, X_test = _blobs(k=4, seed=3)
    kw = dict(priors=[0.1, 0.2, 0.3, 0.4], n_components=2, store_covariance=True)
    ours = LinearDiscriminantAnalysis(**kw).fit(X, y)
    theirs = sk_da.LinearDiscriminantAnalysis(**kw).fit(X, y)
    np.testing.assert_allclose(ours.predict_proba(X_test), theirs.predict_proba(X_test), atol=1e-6)
    np.testing.assert_allclose(ours.covariance_, theirs.covariance_, rtol=1e-8)
    np.testing.assert_allclose(ours.xbar_, theirs.xbar_, rtol=1e-10)
    t = ours.transform(X_test)
    assert t.shape == (len(X_test), 2)
    np.testing.assert_allclose(_match_signs(theirs.transform(X_test), t), theirs.transform(X_test),
                               atol=1e-6)
    with pytest.warns(UserWarning, match="Renormalizing"):
        LinearDiscriminantAnalysis(priors=[1, 1, 1, 1]).fit(X, y)


def test_lda_fisher_directions_solve_the_generalised_eigenproblem():
    # seed 002: the projections maximise w' S_B w / w' S_W w
    X, y, _ = _blobs(k=3, seed=7)
    lda = LinearDiscriminantAnalysis(solver="eigen").fit(X, y)
    means = np.array([X[y == k].mean(0) for k in range(3)])
    Sw = sum(np.cov(X[y == k].T, bias=True) * np.mean(y == k) for k in range(3))
    Sb = np.cov(X.T, bias=True) - Sw
    evals = linalg.eigh(Sb, Sw, eigvals_only=True)[::-1]
    w = lda.scalings_[:, :2]
    ratios = np.diag(w.T @ Sb @ w) / np.diag(w.T @ Sw @ w)
    np.testing.assert_allclose(ratios, evals[:2], rtol=1e-8)
    assert means.shape == lda.means_.shape
    np.testing.assert_allclose(lda.explained_variance_ratio_, evals[:2] / evals.sum(), rtol=1e-8)


def test_lda_svd_fast_route_equals_svd_route_when_ill_conditioned():
    rng = np.random.default_rng(2)
    X, y, _ = _blobs(n=600, p=5, k=3, seed=2)
    for eps in (1e-3, 1e-4, 1e-6, 0.0):
        X2 = np.column_stack([X, X[:, 0] + eps * rng.normal(size=len(X))])
        X_test = np.column_stack([X[:30], X[:30, 0]])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # collinear when eps = 0
            ours = LinearDiscriminantAnalysis().fit(X2, y)
        theirs = sk_da.LinearDiscriminantAnalysis().fit(X2, y)
        np.testing.assert_allclose(
            ours.predict_proba(X_test), theirs.predict_proba(X_test), atol=1e-6
        )
        np.testing.assert_allclose(ours.coef_, theirs.coef_, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("solver", ["svd", "lsqr", "eigen"])
def test_lda_collinear_features_do_not_crash(solver):
    X, y, _ = _blobs(k=3, seed=4)
    X2 = np.column_stack([X, 2 * X[:, 1], X[:, 0] - X[:, 2]])
    with pytest.warns(UserWarning, match="collinear"):
        lda = LinearDiscriminantAnalysis(solver=solver).fit(X2, y)
    assert np.isfinite(lda.coef_).all()
    assert lda.score(X2, y) > 0.7
    # predictions agree with the model fitted without the redundant columns
    plain = LinearDiscriminantAnalysis(solver=solver).fit(X, y)
    assert np.mean(lda.predict(X2) == plain.predict(X)) > 0.98


def test_lda_bad_input():
    X, y, _ = _blobs(k=3, seed=5)
    with pytest.raises(ValueError, match="n_components"):
        LinearDiscriminantAnalysis(n_components=3).fit(X, y)
    with pytest.raises(NotImplementedError, match="shrinkage"):
        LinearDiscriminantAnalysis(shrinkage="auto").fit(X, y)
    with pytest.raises(ValueError, match="priors"):
        LinearDiscriminantAnalysis(priors=[0.5, 0.5]).fit(X, y)
    lda = LinearDiscriminantAnalysis(solver="lsqr").fit(X, y)
    with pytest.raises(NotImplementedError, match="transform"):
        lda.transform(X)
    with pytest.raises(ValueError, match="more than the number of classes"):
        LinearDiscriminantAnalysis().fit(X[:2], [0, 1])


def test_lda_string_labels_and_binary_shapes():
    X, y, X_test = _blobs(k=2, seed=6)
    labels = np.array(["no", "yes"])[y]
    lda = LinearDiscriminantAnalysis().fit(X, labels)
    assert lda.coef_.shape == (1, X.shape[1]) and lda.intercept_.shape == (1,)
    assert lda.decision_function(X_test).shape == (len(X_test),)
    assert set(lda.predict(X_test)) <= {"no", "yes"}
    proba = lda.predict_proba(X_test)
    np.testing.assert_allclose(np.exp(lda.predict_log_proba(X_test)), proba, rtol=1e-12, atol=1e-300)
    np.testing.assert_allclose(proba.sum(1), 1.0)


@pytest.mark.parametrize("n_classes", [2, 3])
@pytest.mark.parametrize("reg_param", [0.0, 0.05, 0.5])
def test_qda_parity_with_sklearn(n_classes, reg_param):
    X, y, X_test = _blobs(n=500, k=n_classes, seed=10 + n_classes)
    kw = dict(reg_param=reg_param, store_covariance=True)
    ours = QuadraticDiscriminantAnalysis(**kw).fit(X, y)
    theirs = sk_da.QuadraticDiscriminantAnalysis(**kw).fit(X, y)
    np.testing.assert_allclose(ours.predict_proba(X_test), theirs.predict_proba(X_test), atol=1e-6)
    np.testing.assert_allclose(
        ours.decision_function(X_test), theirs.decision_function(X_test), rtol=1e-6, atol=1e-6
    )
    np.testing.assert_array_equal(ours.predict(X_test), theirs.predict(X_test))
    for a, b in zip(ours.covariance_, theirs.covariance_):
        np.testing.assert_allclose(a, b, rtol=1e-8, atol=1e-12)
    for a, b in zip(ours.scalings_, theirs.scalings_):
        np.testing.assert_allclose(a, b, rtol=1e-8)


@pytest.mark.parametrize("shrinkage", [None, "auto", 0.4])
def test_qda_eigen_parity_with_sklearn(shrinkage):
    X, y, X_test = _blobs(n=500, k=3, seed=20)
    ours = QuadraticDiscriminantAnalysis(solver="eigen", shrinkage=shrinkage).fit(X, y)
    theirs = sk_da.QuadraticDiscriminantAnalysis(solver="eigen", shrinkage=shrinkage).fit(X, y)
    np.testing.assert_allclose(ours.predict_proba(X_test), theirs.predict_proba(X_test), atol=1e-6)


def test_qda_priors_and_closed_form_density():
    X, y, X_test = _blobs(n=300, k=3, seed=21)
    priors = np.array([0.5, 0.3, 0.2])
    qda = QuadraticDiscriminantAnalysis(priors=priors).fit(X, y)
    from scipy.stats import multivariate_normal

    dens = np.column_stack([
        priors[k] * multivariate_normal(X[y == k].mean(0), np.cov(X[y == k].T, bias=True)).pdf(
            X_test
        )
        for k in range(3)
    ])
    np.testing.assert_allclose(
        qda.predict_proba(X_test), dens / dens.sum(1, keepdims=True), atol=1e-9
    )


def test_qda_ill_conditioned_class_matches_sklearn():
    rng = np.random.default_rng(3)
    X, y, _ = _blobs(n=600, p=4, k=2, seed=3)
    X2 = np.column_stack([X, 1e4 * rng.normal(size=len(X))])
    X_test = X2[:40] + 0.1 * rng.normal(size=(40, 5))
    ours = QuadraticDiscriminantAnalysis().fit(X2, y)
    theirs = sk_da.QuadraticDiscriminantAnalysis().fit(X2, y)
    np.testing.assert_allclose(ours.predict_proba(X_test), theirs.predict_proba(X_test), atol=1e-6)


def test_qda_singular_class_warns_and_regularises():
    X, y, _ = _blobs(n=300, k=3, seed=22)
    X2 = np.column_stack([X, X[:, 0] + X[:, 1]])
    with pytest.warns(UserWarning, match="singular"):
        qda = QuadraticDiscriminantAnalysis().fit(X2, y)
    assert np.isfinite(qda.predict_proba(X2)).all()
    assert qda.score(X2, y) > 0.7
    # fewer samples than features in one class
    Xs = np.vstack([X2, X2[:3] + 0.01])
    ys = np.concatenate([y, [7, 7, 7]])
    with pytest.warns(UserWarning, match="singular"):
        QuadraticDiscriminantAnalysis().fit(Xs, ys)


def test_qda_one_sample_class_is_a_clear_error():
    X, y, _ = _blobs(n=100, k=2, seed=23)
    X1 = np.vstack([X, X[:1]])
    y1 = np.concatenate([y, [9]])
    with pytest.raises(ValueError, match="only 1 sample in class 9"):
        QuadraticDiscriminantAnalysis().fit(X1, y1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        qda = QuadraticDiscriminantAnalysis(reg_param=0.1).fit(X1, y1)
    assert np.isfinite(qda.predict_proba(X1)).all()


@pytest.mark.parametrize("n_classes", [3, 20])
def test_class_statistics_against_numpy(n_classes):
    from classiclearn.discriminant_analysis._scatter import class_statistics

    rng = np.random.default_rng(30)
    X = rng.normal(size=(5000, 7)) + 1e4  # a large offset: centring must be accurate
    y = rng.integers(0, n_classes, 5000)
    counts, means, scatter = class_statistics(X, y, n_classes)
    _, _, pooled = class_statistics(X, y, n_classes, per_class=False)
    for k in range(n_classes):
        Xk = X[y == k]
        assert counts[k] == len(Xk)
        np.testing.assert_allclose(means[k], Xk.mean(0), rtol=1e-14)
        centred = Xk - Xk.mean(0)
        np.testing.assert_allclose(scatter[k], centred.T @ centred, rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(pooled[0], scatter.sum(0), rtol=1e-10, atol=1e-9)


def test_lda_store_covariance_with_frequency_priors():
    X, y, X_test = _blobs(k=3, seed=31)
    ours = LinearDiscriminantAnalysis(store_covariance=True).fit(X, y)
    theirs = sk_da.LinearDiscriminantAnalysis(store_covariance=True).fit(X, y)
    np.testing.assert_allclose(ours.covariance_, theirs.covariance_, rtol=1e-9)
    for solver in ("lsqr", "eigen"):
        kw = dict(solver=solver, priors=[0.6, 0.3, 0.1])
        ours = LinearDiscriminantAnalysis(**kw).fit(X, y)
        theirs = sk_da.LinearDiscriminantAnalysis(**kw).fit(X, y)
        np.testing.assert_allclose(ours.covariance_, theirs.covariance_, rtol=1e-9)
        np.testing.assert_allclose(
            ours.predict_proba(X_test), theirs.predict_proba(X_test), atol=1e-6
        )


def test_svd_fallback_only_when_the_scatter_is_ill_conditioned(monkeypatch):
    import classiclearn.discriminant_analysis._lda as lda_module

    shapes = []
    real_svd = linalg.svd

    def spy(a, *args, **kwargs):
        shapes.append(a.shape)
        return real_svd(a, *args, **kwargs)

    monkeypatch.setattr(lda_module.linalg, "svd", spy)  # the scipy.linalg module QDA uses too
    X, y, _ = _blobs(n=600, p=5, k=3, seed=2)
    LinearDiscriminantAnalysis().fit(X, y)
    assert shapes == [(3, 5)]  # only the small between-class SVD
    rng = np.random.default_rng(0)
    X2 = np.column_stack([X, X[:, 0] + 1e-4 * rng.normal(size=len(X))])
    shapes.clear()
    with pytest.warns(UserWarning, match="collinear"):
        LinearDiscriminantAnalysis().fit(X2, y)
    assert shapes[0] == (600, 6)  # the n x p SVD of the residuals
    shapes.clear()
    QuadraticDiscriminantAnalysis().fit(X, y)
    assert shapes == []
    X3 = np.column_stack([X, 1e4 * rng.normal(size=len(X))])
    QuadraticDiscriminantAnalysis().fit(X3, y)
    assert len(shapes) == 3 and all(s[1] == 6 for s in shapes)
