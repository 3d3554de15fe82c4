"""SVC / SVR on scipy sparse input: scikit-learn parity (its libsvm sparse
solver on the same CSR data), sparse vs dense agreement, and the input left
untouched."""

import numpy as np
import pytest
import scipy.sparse as sp

from classiclearn.svm import SVC, SVR

sk_svm = pytest.importorskip("sklearn.svm")

KERNELS = [
    {"kernel": "linear"},
    {"kernel": "poly", "degree": 2, "coef0": 1.0},
    {"kernel": "rbf"},
    {"kernel": "sigmoid", "gamma": 0.2},
]


def _data(n=240, p=60, density=0.08, seed=0):
    rng = np.random.RandomState(seed)
    X = sp.random(n, p, density=density, random_state=rng, format="csr")
    w = rng.randn(p)
    score = X @ w
    y3 = np.digitize(score, np.quantile(score, [0.33, 0.66]))
    y_reg = score + 0.1 * rng.randn(n)
    X_test = sp.random(50, p, density=density, random_state=rng, format="csr")
    return X, y3, y_reg, X_test


def _dense(A):
    return A.toarray() if sp.issparse(A) else np.asarray(A)


@pytest.mark.parametrize("params", KERNELS, ids=lambda p: p["kernel"])
@pytest.mark.parametrize("n_classes", [2, 3])
def test_svc_sparse_matches_sklearn(params, n_classes):
    X, y3, _, X_test = _data()
    y = y3 if n_classes == 3 else (y3 > 0).astype(int)
    ours = SVC(**params).fit(X, y)
    ref = sk_svm.SVC(**params).fit(X, y)
    np.testing.assert_array_equal(ours.support_, ref.support_)
    assert sp.issparse(ours.dual_coef_) and sp.issparse(ours.support_vectors_)
    np.testing.assert_allclose(_dense(ours.dual_coef_), _dense(ref.dual_coef_),
                               rtol=1e-7, atol=1e-9)
    np.testing.assert_allclose(ours.intercept_, ref.intercept_, rtol=1e-7, atol=1e-9)
    np.testing.assert_allclose(_dense(ours.support_vectors_), _dense(ref.support_vectors_))
    np.testing.assert_allclose(ours.decision_function(X_test), ref.decision_function(X_test),
                               rtol=1e-7, atol=1e-9)
    np.testing.assert_array_equal(ours.predict(X_test), ref.predict(X_test))
    if params["kernel"] == "linear":
        np.testing.assert_allclose(_dense(ours.coef_), _dense(ref.coef_), rtol=1e-7, atol=1e-9)


@pytest.mark.parametrize("params", KERNELS, ids=lambda p: p["kernel"])
def test_svr_sparse_matches_sklearn(params):
    X, _, y, X_test = _data(seed=1)
    ours = SVR(C=2.0, epsilon=0.05, **params).fit(X, y)
    ref = sk_svm.SVR(C=2.0, epsilon=0.05, **params).fit(X, y)
    np.testing.assert_array_equal(ours.support_, ref.support_)
    np.testing.assert_allclose(_dense(ours.dual_coef_), _dense(ref.dual_coef_),
                               rtol=1e-7, atol=1e-9)
    np.testing.assert_allclose(ours.predict(X_test), ref.predict(X_test), rtol=1e-7, atol=1e-9)


@pytest.mark.parametrize("params", KERNELS, ids=lambda p: p["kernel"])
def test_sparse_and_dense_fits_agree(params):
    X, y3, y_reg, X_test = _data(seed=2)
    for Est, y in ((SVC, y3), (SVR, y_reg)):
        sparse_fit = Est(**params).fit(X, y)
        dense_fit = Est(**params).fit(X.toarray(), y)
        np.testing.assert_allclose(_dense(sparse_fit.dual_coef_), dense_fit.dual_coef_,
                                   rtol=1e-9, atol=1e-12)
        # every mix of sparse / dense fit and predict input
        for model in (sparse_fit, dense_fit):
            a = model.predict(X_test) if Est is SVR else model.decision_function(X_test)
            b = (model.predict(X_test.toarray()) if Est is SVR
                 else model.decision_function(X_test.toarray()))
            np.testing.assert_allclose(a, b, rtol=1e-9, atol=1e-12)


def test_sparse_input_not_modified_and_probability():
    X, y3, _, X_test = _data(seed=3)
    X = sp.csr_matrix(X)
    before = (X.data.copy(), X.indices.copy(), X.indptr.copy())
    model = SVC(probability=True, random_state=0).fit(X, y3)
    proba = model.predict_proba(X_test)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    dense = SVC(probability=True, random_state=0).fit(X.toarray(), y3)
    np.testing.assert_allclose(proba, dense.predict_proba(X_test.toarray()), rtol=1e-9)
    for a, b in zip(before, (X.data, X.indices, X.indptr)):
        np.testing.assert_array_equal(a, b)
    # attribute containers follow the input kind, as scikit-learn's
    assert isinstance(model.support_vectors_, sp.csr_matrix)
    sparse_array_fit = SVC().fit(sp.csr_array(X), y3)
    assert isinstance(sparse_array_fit.support_vectors_, sp.csr_array)


def test_sparse_precomputed_refused():
    K = sp.csr_matrix(np.eye(4))
    with pytest.raises(TypeError, match="Sparse precomputed"):
        SVC(kernel="precomputed").fit(K, [0, 1, 0, 1])
