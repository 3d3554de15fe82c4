"""SAG / SAGA on sparse rows (lazy updates): the same iterates as on the dense rows,
and scikit-learn's fit on the same sparse data."""

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn import linear_model as sk

from classiclearn.linear_model import LogisticRegression


def _problem(n_classes, seed=0):
    X = sp.random(400, 60, density=0.1, random_state=seed, format="csr")
    X.data *= 3.0
    w = np.random.default_rng(seed).normal(size=(60, n_classes))
    return X, np.asarray((X @ w).argmax(axis=1)).ravel()


SETTINGS = [
    {"solver": "sag"},
    {"solver": "saga"},
    {"solver": "saga", "penalty": "l1", "C": 0.5},
    {"solver": "saga", "penalty": "elasticnet", "l1_ratio": 0.5},
    {"solver": "saga", "fit_intercept": False},
    {"solver": "sag", "class_weight": "balanced"},
]


@pytest.mark.parametrize("n_classes", [2, 3])
@pytest.mark.parametrize("params", SETTINGS)
def test_sparse_iterates_equal_dense(n_classes, params):
    X, y = _problem(n_classes)
    sw = np.random.default_rng(1).uniform(0.5, 2.0, X.shape[0])
    sparse = LogisticRegression(random_state=0, max_iter=300, **params).fit(X, y, sw)
    dense = LogisticRegression(random_state=0, max_iter=300, **params).fit(X.toarray(), y, sw)
    np.testing.assert_allclose(sparse.coef_, dense.coef_, rtol=1e-9, atol=1e-11)
    np.testing.assert_allclose(sparse.intercept_, dense.intercept_, rtol=1e-9, atol=1e-11)
    np.testing.assert_array_equal(sparse.n_iter_, dense.n_iter_)


@pytest.mark.parametrize("params", SETTINGS[:4])
def test_sparse_fit_matches_sklearn(params):
    X, y = _problem(3, seed=2)
    ours = LogisticRegression(random_state=0, tol=1e-8, max_iter=5000, **params).fit(X, y)
    theirs = sk.LogisticRegression(random_state=0, tol=1e-8, max_iter=5000, **params).fit(X, y)
    np.testing.assert_allclose(ours.coef_, theirs.coef_, rtol=1e-4, atol=1e-4)
    np.testing.assert_array_equal(ours.predict(X), theirs.predict(X))


@pytest.mark.parametrize("penalty", [{"penalty": "l1"},
                                     {"penalty": "elasticnet", "l1_ratio": 0.3},
                                     {"penalty": "elasticnet", "l1_ratio": 0.9}])
@pytest.mark.parametrize("C", [0.05, 1.0, 50.0])
@pytest.mark.parametrize("n_classes", [2, 3])
def test_sparse_l1_catch_up_in_one_move_equals_dense(penalty, C, n_classes):
    # rare features (long stretches between a feature's rows) and every penalty
    # regime: weights that keep their sign, reach zero, or cross it between visits
    rng = np.random.default_rng(7)
    X = sp.random(600, 150, density=0.03, random_state=7, format="csr",
                  data_rvs=rng.standard_normal)
    X.data *= 2.0
    y = np.asarray((X @ rng.normal(size=(150, n_classes))).argmax(axis=1)).ravel()
    kw = dict(solver="saga", C=C, random_state=0, max_iter=200, tol=1e-6, **penalty)
    sparse = LogisticRegression(**kw).fit(X, y)
    dense = LogisticRegression(**kw).fit(X.toarray(), y)
    np.testing.assert_allclose(sparse.coef_, dense.coef_, rtol=1e-8, atol=1e-10)
    np.testing.assert_allclose(sparse.intercept_, dense.intercept_, rtol=1e-8, atol=1e-10)
    np.testing.assert_array_equal(sparse.n_iter_, dense.n_iter_)
