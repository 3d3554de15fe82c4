"""Shipped data sets and generators against scikit-learn's twins."""

import numpy as np
import pytest

from classiclearn.datasets import (
    Bunch,
    load_breast_cancer,
    load_iris,
    load_saheart,
    make_blobs,
    make_circles,
    make_classification,
    make_moons,
    make_regression,
)

skd = pytest.importorskip("sklearn.datasets")


@pytest.mark.parametrize("name", ["load_iris", "load_breast_cancer", "load_wine"])
def test_loaders_match_sklearn(name):
    import classiclearn.datasets as ours

    a, b = getattr(ours, name)(), getattr(skd, name)()
    np.testing.assert_array_equal(a.data, b.data)
    np.testing.assert_array_equal(a.target, b.target)
    assert list(a.feature_names) == list(b.feature_names)
    assert list(a.target_names) == list(b.target_names)
    assert "Source" in a.DESCR and "CC BY 4.0" in a.DESCR
    X, y = getattr(ours, name)(return_X_y=True)
    assert X.shape == b.data.shape and y.dtype.kind == "i"


@pytest.mark.parametrize("scaled", [True, False])
def test_load_diabetes_matches_sklearn(scaled):
    from classiclearn.datasets import load_diabetes

    a, b = load_diabetes(scaled=scaled), skd.load_diabetes(scaled=scaled)
    np.testing.assert_allclose(a.data, b.data, rtol=1e-6, atol=1e-10)
    np.testing.assert_allclose(a.target, b.target)
    assert list(a.feature_names) == list(b.feature_names)
    assert load_diabetes(as_frame=True).frame.shape == (442, 11)


def test_as_frame():
    pd = pytest.importorskip("pandas")
    bunch = load_iris(as_frame=True)
    ref = skd.load_iris(as_frame=True)
    assert isinstance(bunch.data, pd.DataFrame) and isinstance(bunch.target, pd.Series)
    assert bunch.frame.columns.tolist() == ref.frame.columns.tolist()
    X, y = load_breast_cancer(return_X_y=True, as_frame=True)
    assert X.shape == (569, 30) and y.name == "target"


def test_saheart():
    b = load_saheart()
    assert b.data.shape == (462, 9) and int(b.target.sum()) == 160
    assert list(b.feature_names)[4] == "famhist"
    assert set(np.unique(b.data[:, 4])) == {0.0, 1.0}
    df = load_saheart(as_frame=True).frame
    assert df.columns[-1] == "chd"


def test_bunch():
    b = Bunch(a=1)
    b.c = 2
    assert b["c"] == 2 and b.a == 1 and sorted(dir(b)) == ["a", "c"]
    with pytest.raises(AttributeError):
        _ = b.missing


@pytest.mark.parametrize("kw", [
    dict(),
    dict(n_classes=3, n_informative=3, n_redundant=1, n_repeated=2, n_clusters_per_class=1),
    dict(weights=[0.9], flip_y=0.0),
    dict(n_features=6, n_informative=4, n_redundant=0, class_sep=3.0, hypercube=False),
])
def test_make_classification_shapes_and_properties(kw):
    n = 2000
    X, y = make_classification(n_samples=n, random_state=0, **kw)
    Xs, ys = skd.make_classification(n_samples=n, random_state=0, **kw)
    assert X.shape == Xs.shape and y.shape == ys.shape
    assert set(np.unique(y)) == set(np.unique(ys))
    counts, counts_sk = np.bincount(y), np.bincount(ys)
    assert np.all(np.abs(counts - counts_sk) <= 0.03 * n)
    again = make_classification(n_samples=n, random_state=0, **kw)
    np.testing.assert_array_equal(X, again[0])
    # redundant features are linear combinations of informative ones: the rank shows it
    n_inf = kw.get("n_informative", 2)
    n_red = kw.get("n_redundant", 2)
    n_rep = kw.get("n_repeated", 0)
    n_useless = X.shape[1] - n_inf - n_red - n_rep
    assert np.linalg.matrix_rank(X) == n_inf + n_useless == np.linalg.matrix_rank(Xs)


def test_make_classification_separability():
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import cross_val_score

    for sep in (0.5, 2.0):
        X, y = make_classification(500, 5, n_informative=3, n_redundant=0, class_sep=sep,
                                   flip_y=0, random_state=1)
        Xs, ys = skd.make_classification(500, 5, n_informative=3, n_redundant=0,
                                         class_sep=sep, flip_y=0, random_state=1)
        a = cross_val_score(LogisticRegression(), X, y, cv=3).mean()
        b = cross_val_score(LogisticRegression(), Xs, ys, cv=3).mean()
        assert abs(a - b) < 0.12
    with pytest.raises(ValueError, match="2\\*\\*n_informative"):
        make_classification(n_informative=1, n_redundant=0, n_classes=3)
    with pytest.raises(ValueError, match="sum to less"):
        make_classification(n_features=3, n_informative=2, n_redundant=2)


@pytest.mark.parametrize("n_targets", [1, 3])
def test_make_regression(n_targets):
    X, y, coef = make_regression(n_samples=200, n_features=8, n_informative=3,
                                 n_targets=n_targets, bias=2.5, noise=0.0, coef=True,
                                 random_state=0)
    Xs, ys, coefs = skd.make_regression(n_samples=200, n_features=8, n_informative=3,
                                        n_targets=n_targets, bias=2.5, coef=True,
                                        random_state=0)
    assert X.shape == Xs.shape and y.shape == ys.shape and coef.shape == coefs.shape
    np.testing.assert_allclose(X @ coef + 2.5, y, rtol=1e-12)
    nonzero = (np.atleast_2d(coef.T).T != 0).any(axis=1).sum()
    assert nonzero == 3
    Xn, yn, cn = make_regression(n_samples=4000, n_features=5, n_informative=5, noise=2.0,
                                 coef=True, random_state=1)
    assert np.std(yn - Xn @ cn) == pytest.approx(2.0, rel=0.05)
    Xl, _ = make_regression(n_samples=100, n_features=30, effective_rank=5, random_state=0)
    s = np.linalg.svd(Xl, compute_uv=False)
    assert s[10] < 0.5 * s[0]


def test_make_blobs():
    X, y, centers = make_blobs(n_samples=[100, 200, 300], centers=None, n_features=3,
                               cluster_std=[0.5, 1.0, 2.0], random_state=0,
                               return_centers=True)
    assert X.shape == (600, 3) and np.bincount(y).tolist() == [100, 200, 300]
    for k, std in enumerate([0.5, 1.0, 2.0]):
        np.testing.assert_allclose(X[y == k].mean(axis=0), centers[k], atol=4 * std / 10)
        assert X[y == k].std(axis=0).mean() == pytest.approx(std, rel=0.15)
    X, y = make_blobs(n_samples=10, random_state=0)
    Xs, ys = skd.make_blobs(n_samples=10, random_state=0)
    assert X.shape == Xs.shape and np.bincount(y).tolist() == np.bincount(ys).tolist()
    with pytest.raises(ValueError, match="consistent"):
        make_blobs(n_samples=[1, 2], centers=[[0, 0]])


def test_moons_and_circles():
    X, y = make_moons(101, noise=0.1, random_state=0)
    Xs, ys = skd.make_moons(101, noise=0.1, random_state=0)
    assert X.shape == Xs.shape and np.bincount(y).tolist() == np.bincount(ys).tolist()
    X, y = make_circles(100, factor=0.5, random_state=0)
    r = np.linalg.norm(X, axis=1)
    np.testing.assert_allclose(r[y == 0], 1.0)
    np.testing.assert_allclose(r[y == 1], 0.5)
