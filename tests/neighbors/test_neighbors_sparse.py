"""Sparse input for the neighbours: brute force with the metrics scikit-learn allows."""

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn import neighbors as sk
from sklearn.metrics import pairwise

from classiclearn import neighbors as cn

METRICS = ["minkowski", "euclidean", "l2", "cosine", "manhattan", "l1", "cityblock"]


def _data(seed=0):
    X = sp.csr_matrix(sp.random(300, 40, density=0.15, random_state=seed) * 3)
    Q = sp.csr_matrix(sp.random(50, 40, density=0.15, random_state=seed + 1) * 3)
    return X, Q


@pytest.mark.parametrize("metric", METRICS)
def test_kneighbors_and_radius_match_sklearn(metric):
    X, Q = _data()
    ours = cn.NearestNeighbors(n_neighbors=5, metric=metric).fit(X)
    theirs = sk.NearestNeighbors(n_neighbors=5, metric=metric).fit(X)
    d_ours, i_ours = ours.kneighbors(Q)
    d_theirs, i_theirs = theirs.kneighbors(Q)
    np.testing.assert_allclose(d_ours, d_theirs, atol=1e-12)
    np.testing.assert_array_equal(i_ours, i_theirs)
    r_ours = ours.radius_neighbors(Q, radius=2.0, sort_results=True)
    r_theirs = theirs.radius_neighbors(Q, radius=2.0, sort_results=True)
    for a, b in zip(r_ours[1], r_theirs[1], strict=True):
        np.testing.assert_array_equal(a, b)
    assert ours.effective_metric_ == theirs.effective_metric_


@pytest.mark.parametrize("metric", ["euclidean", "cosine", "manhattan"])
def test_distances_are_exact_on_wide_text_rows(metric):
    # 20,000 columns: the exact distances, nearest first, ties by index
    rng = np.random.default_rng(0)
    X = sp.random(2000, 20_000, density=0.002, random_state=0, format="csr")
    X.data = rng.integers(1, 4, X.nnz).astype(float)
    Q = X[:30] + sp.random(30, 20_000, density=0.001, random_state=1, format="csr")
    d, i = cn.NearestNeighbors(n_neighbors=4, metric=metric).fit(X).kneighbors(Q)
    full = pairwise.pairwise_distances(Q, X, metric=metric)
    order = np.lexsort((np.tile(np.arange(X.shape[0]), (30, 1)), full), axis=1)[:, :4]
    np.testing.assert_allclose(d, np.take_along_axis(full, order, axis=1), atol=1e-10)


@pytest.mark.parametrize("cls_ours, cls_theirs, numeric", [
    (cn.KNeighborsClassifier, sk.KNeighborsClassifier, False),
    (cn.KNeighborsRegressor, sk.KNeighborsRegressor, True),
    (cn.RadiusNeighborsClassifier, sk.RadiusNeighborsClassifier, False),
    (cn.RadiusNeighborsRegressor, sk.RadiusNeighborsRegressor, True),
])
@pytest.mark.parametrize("weights", ["uniform", "distance"])
def test_estimators_predict_as_sklearn(cls_ours, cls_theirs, numeric, weights):
    X, Q = _data(2)
    y = np.random.default_rng(2).normal(size=300) if numeric else np.arange(300) % 3
    kw = {"weights": weights}
    if "Radius" in cls_ours.__name__:
        kw["radius"] = 6.0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours = cls_ours(**kw).fit(X, y).predict(Q)
        theirs = cls_theirs(**kw).fit(X, y).predict(Q)
    np.testing.assert_allclose(ours, theirs, atol=1e-12)


def test_trees_fall_back_to_brute_force_and_bad_metrics_are_named():
    X, Q = _data()
    y = np.arange(300) % 2
    with pytest.warns(UserWarning, match="cannot use tree with sparse input"):
        est = cn.KNeighborsClassifier(algorithm="kd_tree").fit(X, y)
    assert est._fit_method == "brute"
    with pytest.raises(ValueError, match="not valid for sparse input"):
        cn.KNeighborsClassifier(metric="chebyshev").fit(X, y)
    assert "cosine" in cn.VALID_METRICS_SPARSE["brute"]


def test_dense_queries_on_a_sparse_fit_and_inputs_untouched():
    X, Q = _data()
    before = X.copy()
    est = cn.NearestNeighbors(n_neighbors=3).fit(X)
    np.testing.assert_array_equal(est.kneighbors(Q.toarray())[1], est.kneighbors(Q)[1])
    assert abs(X - before).sum() == 0
