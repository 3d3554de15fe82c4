"""Fast paths of the tree builder against plain references: binning against
``np.searchsorted`` and bin edges against ``np.percentile`` column by column, the random splitter's unpartitioned class counts (integer
weights) against scikit-learn's partitioning splitter."""

import numpy as np
import pytest

from classiclearn.tree import DecisionTreeClassifier, _binning

sk_tree = pytest.importorskip("sklearn.tree")


def _naive_bins(X, edges, n_bins):
    out = np.empty(X.shape, dtype=np.uint8)
    for j in range(X.shape[1]):
        k = n_bins[j] - 1
        out[:, j] = np.searchsorted(edges[j, :k], X[:, j].astype(np.float64), side="left")
    return out


@pytest.mark.parametrize("max_bins", [2, 10, 255])
def test_transform_bins_equals_searchsorted(max_bins):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(3000, 5)).astype(np.float32)
    X[:, 1] = np.round(X[:, 1])  # few distinct values
    X[:, 2] = 1.5  # constant
    X[:, 3] = rng.integers(0, 300, size=3000)  # more distinct values than bins
    edges, n_bins = _binning.fit_bins(X, max_bins, 0)
    assert n_bins[2] == 1
    assert (n_bins <= max_bins).all()
    got = _binning.transform_bins(X, (edges, n_bins))
    np.testing.assert_array_equal(got, _naive_bins(X, edges, n_bins))
    assert (got.max(axis=0) < n_bins).all()
    # values between and beyond the edges
    Z = rng.normal(scale=3.0, size=(500, 5)).astype(np.float32)
    np.testing.assert_array_equal(_binning.transform_bins(Z, (edges, n_bins)),
                                  _naive_bins(Z, edges, n_bins))


def _naive_edges(X, max_bins):
    """The bin edges, column by column with ``np.percentile`` (what ``fit_bins`` computes
    from one sort of all columns)."""
    edges = np.full((X.shape[1], max_bins + 1), np.inf)
    n_bins = np.zeros(X.shape[1], dtype=np.intp)
    qs = np.linspace(0, 100, max_bins + 1)[1:-1]
    for j in range(X.shape[1]):
        col = np.sort(X[:, j]).astype(np.float64)
        col = col[~np.isnan(col)]
        if col.size == 0:
            n_bins[j] = 1
            continue
        distinct = np.unique(col)
        if distinct.size <= max_bins:
            mids = distinct[:-1] / 2.0 + distinct[1:] / 2.0
        else:
            mids = np.unique(np.percentile(col, qs, method="midpoint"))
            mids = mids[mids < col[-1]]
        edges[j, :mids.size] = mids
        n_bins[j] = mids.size + 1
    return edges, n_bins


@pytest.mark.parametrize("max_bins", [2, 3, 32, 255])
@pytest.mark.parametrize("n_rows", [1, 2, 7, 300, 1001])
def test_fit_bins_equals_percentiles(max_bins, n_rows):
    rng = np.random.default_rng(n_rows)
    X = rng.normal(size=(n_rows, 6)).astype(np.float32)
    X[:, 1] = np.round(X[:, 1] * 3)  # few distinct values
    X[:, 2] = -0.5  # constant
    X[:, 3] = rng.integers(0, 400, size=n_rows)  # ties among many values
    X[rng.random(n_rows) < 0.2, 4] = np.nan
    X[:, 5] = np.nan if n_rows < 7 else X[:, 5]
    edges, n_bins = _binning.fit_bins(X, max_bins, 0)
    want_edges, want_n_bins = _naive_edges(X, max_bins)
    np.testing.assert_array_equal(n_bins, want_n_bins)
    np.testing.assert_array_equal(edges, want_edges)


@pytest.mark.parametrize("n_classes", [2, 4])
def test_random_splitter_integer_weights_equals_sklearn(n_classes):
    rng = np.random.default_rng(n_classes)
    X = rng.normal(size=(400, 6))
    y = (X[:, 0] + X[:, 1] * X[:, 2] + rng.normal(size=400) > 0).astype(int)
    if n_classes == 4:
        y = y + 2 * (X[:, 3] > 0.3)
    w = rng.integers(0, 4, size=400).astype(float)  # bootstrap-like counts, zeros included
    for seed in range(3):
        ours = DecisionTreeClassifier(splitter="random", random_state=seed).fit(
            X, y, sample_weight=w)
        theirs = sk_tree.DecisionTreeClassifier(splitter="random", random_state=seed).fit(
            X, y, sample_weight=w)
        a, b = ours.tree_, theirs.tree_
        assert a.node_count == b.node_count
        np.testing.assert_array_equal(a.feature, b.feature)
        np.testing.assert_allclose(a.threshold, b.threshold, rtol=0, atol=1e-12)
        np.testing.assert_allclose(a.value, b.value, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(a.impurity, b.impurity, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("max_bins", [None, 32])
@pytest.mark.parametrize("n_classes", [2, 3])
def test_random_splitter_fast_counts_equal_partitioning_path(max_bins, n_classes):
    # unit weights take the unpartitioned integer counts (keys kept in sample order, moved
    # by the stable partition and by the histogram nodes' partition); halved weights are
    # not integers and take the partitioning path: the same thresholds are drawn, so the
    # trees must be equal, with values scaled by 0.5
    rng = np.random.default_rng(n_classes)
    X = rng.normal(size=(1500, 6))
    y = (X[:, 0] + X[:, 1] * X[:, 2] + rng.normal(size=1500) > 0).astype(int)
    if n_classes == 3:
        y = y + (X[:, 3] > 0.5)
    for seed in range(2):
        params = dict(splitter="random", random_state=seed, max_bins=max_bins)
        a = DecisionTreeClassifier(**params).fit(X, y).tree_
        b = DecisionTreeClassifier(**params).fit(X, y, sample_weight=np.full(1500, 0.5)).tree_
        assert a.node_count == b.node_count
        np.testing.assert_array_equal(a.feature, b.feature)
        np.testing.assert_array_equal(a.threshold, b.threshold)
        np.testing.assert_array_equal(a.n_node_samples, b.n_node_samples)
        np.testing.assert_allclose(a.weighted_n_node_samples, 2 * b.weighted_n_node_samples)


@pytest.mark.parametrize("kind", ["classifier", "regressor"])
def test_random_splitter_real_weights_equals_sklearn(kind):
    # the partitioning path (real weights, regression): when the best candidate is the
    # last one drawn the samples stay as partitioned, as in scikit-learn, so the children
    # sum their weights in the same order and pure-node round-off matches
    from classiclearn.tree import DecisionTreeRegressor

    rng = np.random.default_rng(0)
    X = rng.normal(size=(400, 6))
    t = X[:, 0] + X[:, 1] * X[:, 2] + rng.normal(size=400)
    w = rng.random(400) * 2
    ours_cls, sk_cls = ((DecisionTreeClassifier, sk_tree.DecisionTreeClassifier)
                        if kind == "classifier"
                        else (DecisionTreeRegressor, sk_tree.DecisionTreeRegressor))
    y = (t > 0).astype(int) if kind == "classifier" else t
    for seed in range(5):
        a = ours_cls(splitter="random", random_state=seed).fit(X, y, sample_weight=w).tree_
        b = sk_cls(splitter="random", random_state=seed).fit(X, y, sample_weight=w).tree_
        assert a.node_count == b.node_count
        np.testing.assert_array_equal(a.feature, b.feature)
        np.testing.assert_allclose(a.threshold, b.threshold, rtol=0, atol=1e-12)
        np.testing.assert_allclose(a.value, b.value, rtol=1e-9, atol=1e-12)


def test_large_float64_prediction_input_cast_in_one_pass():
    # predict_input: a large float64 X is cast to float32 and checked in threads;
    # same predictions as a float32 X, same errors as the standard validation
    from classiclearn.ensemble import RandomForestClassifier
    from classiclearn.tree import DecisionTreeClassifier
    from classiclearn.tree._tree import _FAST_CAST, float32_rows

    rng = np.random.default_rng(3)
    X = rng.normal(size=(_FAST_CAST // 20 + 7, 20))
    y = (X[:, 0] + X[:, 1] > 0).astype(int)
    for est in (DecisionTreeClassifier(random_state=0),
                RandomForestClassifier(n_estimators=3, random_state=0)):
        est.fit(X, y)
        np.testing.assert_array_equal(est.predict_proba(X),
                                      est.predict_proba(X.astype(np.float32)))
    np.testing.assert_array_equal(float32_rows(X, 2), X.astype(np.float32))
    for bad in [np.inf, 1e300]:
        Z = X.copy()
        Z[-1, 5] = bad
        assert float32_rows(Z, 2) is None
        with pytest.raises(ValueError, match="infinity"), np.errstate(over="ignore"):
            est.predict(Z)
    # trees learn where missing values go: NaN is accepted, through the same checks
    Z = X.copy()
    Z[-1, 5] = np.nan
    assert float32_rows(Z, 2) is None
    np.testing.assert_array_equal(float32_rows(Z, 2, allow_nan=True), Z.astype(np.float32))
    np.testing.assert_array_equal(est.predict(Z), est.predict(Z.astype(np.float32)))
    Z[-2, 3] = np.inf
    assert float32_rows(Z, 2, allow_nan=True) is None
