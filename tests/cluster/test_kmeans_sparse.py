"""KMeans on scipy sparse input: scikit-learn parity with the same seeds
(k-means++ and random init, Lloyd and Elkan), sparse vs dense agreement,
and the input left untouched."""

import numpy as np
import pytest
import scipy.sparse as sp

from classiclearn.cluster import KMeans, kmeans_plusplus

sk_cluster = pytest.importorskip("sklearn.cluster")


def _data(seed=0, n=600, p=50, density=0.08):
    rng = np.random.RandomState(seed)
    X = sp.random(n, p, density=density, random_state=rng, format="csr")
    # a few dense-ish groups so that the clustering is not arbitrary
    X = X + sp.csr_matrix((rng.randint(0, 4, n)[:, None] == np.arange(4)) * 0.5 @
                          sp.random(4, p, density=0.3, random_state=rng).toarray())
    return sp.csr_matrix(X)


@pytest.mark.parametrize("algorithm", ["lloyd", "elkan"])
@pytest.mark.parametrize("init", ["k-means++", "random"])
def test_kmeans_sparse_matches_sklearn(algorithm, init):
    X = _data()
    w = np.random.RandomState(5).uniform(0.5, 2.0, X.shape[0])
    kw = {"n_clusters": 6, "init": init, "algorithm": algorithm, "random_state": 3, "n_init": 2}
    ours = KMeans(**kw).fit(X, sample_weight=w)
    ref = sk_cluster.KMeans(**kw).fit(X, sample_weight=w)
    np.testing.assert_array_equal(ours.labels_, ref.labels_)
    np.testing.assert_allclose(ours.inertia_, ref.inertia_, rtol=1e-10)
    np.testing.assert_allclose(ours.cluster_centers_, ref.cluster_centers_, rtol=1e-9, atol=1e-12)
    assert ours.n_iter_ == ref.n_iter_
    X_new = _data(seed=1)[:80]
    np.testing.assert_array_equal(ours.predict(X_new), ref.predict(X_new))
    np.testing.assert_allclose(ours.transform(X_new), ref.transform(X_new), rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(ours.score(X_new), ref.score(X_new), rtol=1e-10)


@pytest.mark.parametrize("algorithm", ["lloyd", "elkan"])
def test_kmeans_sparse_and_dense_agree(algorithm):
    X = _data(seed=2)
    before = (X.data.copy(), X.indices.copy(), X.indptr.copy())
    sparse_fit = KMeans(5, algorithm=algorithm, random_state=0).fit(X)
    dense_fit = KMeans(5, algorithm=algorithm, random_state=0).fit(X.toarray())
    np.testing.assert_array_equal(sparse_fit.labels_, dense_fit.labels_)
    np.testing.assert_allclose(sparse_fit.inertia_, dense_fit.inertia_, rtol=1e-10)
    np.testing.assert_allclose(sparse_fit.cluster_centers_, dense_fit.cluster_centers_,
                               rtol=1e-9, atol=1e-12)
    # a dense fit predicts sparse rows and the other way round
    np.testing.assert_array_equal(dense_fit.predict(X), sparse_fit.predict(X.toarray()))
    np.testing.assert_allclose(dense_fit.transform(X), sparse_fit.transform(X.toarray()),
                               rtol=1e-9, atol=1e-12)
    for a, b in zip(before, (X.data, X.indices, X.indptr)):
        np.testing.assert_array_equal(a, b)


def test_kmeans_plusplus_sparse_same_seeds():
    X = _data(seed=4)
    ours_c, ours_i = kmeans_plusplus(X, 7, random_state=2)
    ref_c, ref_i = sk_cluster.kmeans_plusplus(X, 7, random_state=2)
    np.testing.assert_array_equal(ours_i, ref_i)
    assert isinstance(ours_c, np.ndarray)
    np.testing.assert_allclose(ours_c, ref_c.toarray() if sp.issparse(ref_c) else ref_c)


def test_kmeans_parallel_init_sparse_equals_dense():
    """k-means|| (ours only) seeds the same centres from sparse and dense rows."""
    X = _data(seed=6)
    sparse_fit = KMeans(5, init="k-means||", random_state=0).fit(X)
    dense_fit = KMeans(5, init="k-means||", random_state=0).fit(X.toarray())
    np.testing.assert_array_equal(sparse_fit.labels_, dense_fit.labels_)
    np.testing.assert_allclose(sparse_fit.inertia_, dense_fit.inertia_, rtol=1e-10)
