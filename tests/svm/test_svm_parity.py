"""SVC and SVR against scikit-learn (libsvm) at tol=1e-6.

Must hold (issue 5): the same support set on well-posed problems,
decision_function within 1e-3 relative, identical predictions on >= 99.5% of
test points, for every kernel, binary and multiclass, with and without class
weights; SVR predictions within 1e-3.
"""

import numpy as np
import pytest

from classiclearn.svm import SVC, SVR

sksvm = pytest.importorskip("sklearn.svm")
datasets = pytest.importorskip("sklearn.datasets")

KERNELS = ["linear", "poly", "rbf", "sigmoid"]


def _data(n_classes, seed=0, n=240):
    X, y = datasets.make_classification(
        n_samples=n + 120, n_features=6, n_informative=4, n_redundant=1,
        n_classes=n_classes, n_clusters_per_class=1, random_state=seed,
    )
    X = (X - X.mean(0)) / X.std(0)
    return X[:n], y[:n], X[n:]


def _rel_close(a, b, rtol=1e-3):
    scale = max(1.0, float(np.abs(b).max()))
    assert np.abs(a - b).max() <= rtol * scale, np.abs(a - b).max()


def _assert_parity(ours, theirs, X, Xt, kept=None):
    # scikit-learn numbers support vectors after dropping zero-weight samples;
    # ours index the caller's rows
    sk_support = theirs.support_ if kept is None else kept[theirs.support_]
    np.testing.assert_array_equal(ours.support_, sk_support)
    np.testing.assert_array_equal(ours.n_support_, theirs.n_support_)
    np.testing.assert_allclose(ours.support_vectors_, theirs.support_vectors_)
    _rel_close(ours.dual_coef_, theirs.dual_coef_)
    _rel_close(ours.intercept_, theirs.intercept_)
    for A in (X, Xt):
        _rel_close(ours.decision_function(A), theirs.decision_function(A))
        assert np.mean(ours.predict(A) == theirs.predict(A)) >= 0.995


@pytest.mark.parametrize("n_classes", [2, 3])
@pytest.mark.parametrize("kernel", KERNELS)
def test_svc_parity(kernel, n_classes):
    X, y, Xt = _data(n_classes)
    params = dict(kernel=kernel, C=0.7, tol=1e-6)
    if kernel == "sigmoid":
        params.update(gamma=0.05, coef0=-0.5)
    if kernel == "poly":
        params.update(degree=2, coef0=1.0)
    ours = SVC(**params).fit(X, y)
    theirs = sksvm.SVC(**params).fit(X, y)
    _assert_parity(ours, theirs, X, Xt)
    if kernel == "linear":
        _rel_close(ours.coef_, theirs.coef_)


@pytest.mark.parametrize("n_classes", [2, 4])
@pytest.mark.parametrize("class_weight", ["balanced", "dict"])
def test_svc_parity_class_weight(class_weight, n_classes):
    X, y, Xt = _data(n_classes, seed=1)
    keep = (y != 0) | (np.arange(y.size) % 3 == 0)  # make class 0 rarer
    X, y = X[keep], y[keep]
    cw = {0: 3.0, 1: 0.5} if class_weight == "dict" else "balanced"
    for kernel in ("rbf", "linear"):
        params = dict(kernel=kernel, C=2.0, tol=1e-6, class_weight=cw, gamma="auto")
        _assert_parity(SVC(**params).fit(X, y), sksvm.SVC(**params).fit(X, y), X, Xt)


def test_svc_parity_sample_weight():
    X, y, Xt = _data(3, seed=2)
    sw = np.random.default_rng(0).uniform(0.1, 3.0, size=y.size)
    sw[:10] = 0.0
    params = dict(C=1.5, tol=1e-6)
    ours = SVC(**params).fit(X, y, sample_weight=sw)
    theirs = sksvm.SVC(**params).fit(X, y, sample_weight=sw)
    _assert_parity(ours, theirs, X, Xt, kept=np.flatnonzero(sw > 0))


@pytest.mark.parametrize("n_classes", [2, 3])
def test_svc_parity_precomputed_and_callable(n_classes):
    X, y, Xt = _data(n_classes, seed=3)
    K, Kt = X @ X.T, Xt @ X.T
    ours = SVC(kernel="precomputed", tol=1e-6).fit(K, y)
    theirs = sksvm.SVC(kernel="precomputed", tol=1e-6).fit(K, y)
    np.testing.assert_array_equal(ours.support_, theirs.support_)
    _rel_close(ours.decision_function(Kt), theirs.decision_function(Kt))

    def kern(A, B):
        return (A @ B.T + 1.0) ** 2

    ours = SVC(kernel=kern, tol=1e-6, C=0.1).fit(X, y)
    theirs = sksvm.SVC(kernel=kern, tol=1e-6, C=0.1).fit(X, y)
    np.testing.assert_array_equal(ours.support_, theirs.support_)
    _rel_close(ours.decision_function(Xt), theirs.decision_function(Xt))
    assert np.mean(ours.predict(Xt) == theirs.predict(Xt)) >= 0.995


@pytest.mark.parametrize("shape", ["ovo", "ovr"])
def test_svc_decision_shape_and_break_ties(shape):
    X, y, Xt = _data(4, seed=4)
    params = dict(tol=1e-6, decision_function_shape=shape)
    ours = SVC(**params).fit(X, y)
    theirs = sksvm.SVC(**params).fit(X, y)
    d_o, d_t = ours.decision_function(Xt), theirs.decision_function(Xt)
    assert d_o.shape == d_t.shape == (Xt.shape[0], 6 if shape == "ovo" else 4)
    _rel_close(d_o, d_t)
    if shape == "ovr":
        bt_o = SVC(break_ties=True, **params).fit(X, y).predict(Xt)
        bt_t = sksvm.SVC(break_ties=True, **params).fit(X, y).predict(Xt)
        assert np.mean(bt_o == bt_t) >= 0.995


@pytest.mark.parametrize("kernel", KERNELS)
def test_svr_parity(kernel):
    X, y = datasets.make_regression(n_samples=260, n_features=5, noise=3.0, random_state=0)
    X = (X - X.mean(0)) / X.std(0)
    y = (y - y.mean()) / y.std()
    Xtr, ytr, Xt = X[:200], y[:200], X[200:]
    params = dict(kernel=kernel, C=3.0, epsilon=0.05, tol=1e-6)
    if kernel == "sigmoid":
        params.update(gamma=0.05, coef0=-1.0)
    if kernel == "poly":
        params.update(degree=2, coef0=1.0)
    ours = SVR(**params).fit(Xtr, ytr)
    theirs = sksvm.SVR(**params).fit(Xtr, ytr)
    np.testing.assert_array_equal(ours.support_, theirs.support_)
    _rel_close(ours.dual_coef_, theirs.dual_coef_)
    for A in (Xtr, Xt):
        np.testing.assert_allclose(ours.predict(A), theirs.predict(A), atol=1e-3, rtol=1e-3)
    sw = np.random.default_rng(1).uniform(0.2, 2.0, size=ytr.size)
    ours = SVR(**params).fit(Xtr, ytr, sample_weight=sw)
    theirs = sksvm.SVR(**params).fit(Xtr, ytr, sample_weight=sw)
    np.testing.assert_allclose(ours.predict(Xt), theirs.predict(Xt), atol=1e-3, rtol=1e-3)
    if kernel == "linear":
        _rel_close(ours.coef_, theirs.coef_)


def test_svr_precomputed():
    X, y = datasets.make_regression(n_samples=120, n_features=4, noise=1.0, random_state=1)
    y = y / y.std()
    K = X @ X.T
    ours = SVR(kernel="precomputed", tol=1e-6).fit(K, y)
    theirs = sksvm.SVR(kernel="precomputed", tol=1e-6).fit(K, y)
    np.testing.assert_allclose(ours.predict(K), theirs.predict(K), atol=1e-3, rtol=1e-3)
