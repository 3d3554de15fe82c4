"""Prediction paths of forests and trees: chunked, threaded walks equal the plain per-tree walk."""

import numpy as np
import pytest

from classiclearn.ensemble import RandomForestClassifier, RandomForestRegressor
from classiclearn.tree import DecisionTreeClassifier


def _naive_apply(X32, tree):
    """Leaf of each row, walked one node at a time in NumPy (reference for the kernels)."""
    node = np.zeros(X32.shape[0], dtype=np.intp)
    rows = np.arange(X32.shape[0])
    while True:
        inner = tree.children_left[node] >= 0
        if not inner.any():
            return node
        r, nd = rows[inner], node[inner]
        go_left = X32[r, tree.feature[nd]] <= tree.threshold[nd]
        node[r] = np.where(go_left, tree.children_left[nd], tree.children_right[nd])


def _data(n_train=300, n_test=9000, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n_train + n_test, 6))
    y = (X[:, 0] + X[:, 1] ** 2 + 0.3 * rng.normal(size=len(X)) > 0.5).astype(int)
    return X[:n_train], y[:n_train], X[n_train:]


@pytest.mark.parametrize("voting", ["soft", "hard"])
def test_forest_proba_equals_per_tree_mean_for_any_n_jobs(voting):
    X, y, Xt = _data()
    forest = RandomForestClassifier(n_estimators=7, random_state=0, voting=voting).fit(X, y)
    X32 = Xt.astype(np.float32)
    if voting == "soft":
        ref = np.mean([e.tree_.predict(X32)[:, 0, :] for e in forest.estimators_], axis=0)
    else:
        votes = [np.eye(2)[np.argmax(e.tree_.predict(X32)[:, 0, :], axis=1)]
                 for e in forest.estimators_]
        ref = np.mean(votes, axis=0)
    outs = [forest.set_params(n_jobs=j).predict_proba(Xt) for j in (1, 2, -1)]
    np.testing.assert_allclose(outs[0], ref, rtol=0, atol=1e-12)
    for out in outs[1:]:
        np.testing.assert_array_equal(out, outs[0])
    leaves = forest.set_params(n_jobs=2).apply(Xt)
    for k, e in enumerate(forest.estimators_):
        np.testing.assert_array_equal(leaves[:, k], _naive_apply(X32, e.tree_))


def test_forest_regressor_n_jobs_invariant():
    X, y, Xt = _data(seed=1)
    reg = RandomForestRegressor(n_estimators=5, random_state=0).fit(X, X[:, 0] + y)
    a = reg.set_params(n_jobs=1).predict(Xt)
    b = reg.set_params(n_jobs=2).predict(Xt)
    np.testing.assert_array_equal(a, b)


def test_tree_threaded_apply_equals_serial_walk():
    X, y, Xt = _data(n_test=25_000, seed=2)
    tree = DecisionTreeClassifier(random_state=0).fit(X, y)
    X32 = np.ascontiguousarray(Xt, dtype=np.float32)
    serial = _naive_apply(X32, tree.tree_)
    np.testing.assert_array_equal(tree.apply(Xt), serial)
    expected = tree.classes_[np.argmax(tree.tree_.value[serial, 0, :], axis=1)]
    np.testing.assert_array_equal(tree.predict(Xt), expected)


@pytest.mark.parametrize("bounds", [(0, 40), (3, 4), (5, 12), (7, 7), (0, 8), (1, 17), (9, 40)])
def test_walk_kernels_equal_naive_walk_on_any_row_range(bounds):
    from classiclearn.tree import _predict_kernels as _pk
    from classiclearn.tree._tree import compact_forest

    X, y, Xt = _data(n_test=40, seed=3)
    forest = RandomForestRegressor(n_estimators=4, random_state=0).fit(X, X[:, 0] + y)
    packed, value, roots = forest._stacked()
    X32 = Xt.astype(np.float32)
    lo, hi = bounds
    naive = np.stack([_naive_apply(X32, e.tree_) + r
                      for e, r in zip(forest.estimators_, roots, strict=True)], axis=1)
    nodes, orig = compact_forest(packed, roots)
    leaves = np.full((40, 4), -1, dtype=np.intp)
    _pk.apply_trees(X32, nodes, orig, roots, lo, hi, leaves)
    np.testing.assert_array_equal(leaves[lo:hi], naive[lo:hi])
    assert (leaves[:lo] == -1).all() and (leaves[hi:] == -1).all()
    out = np.zeros((40, 1))
    _pk.sum_value(X32, nodes, orig, roots, value, False, np.ones(1, dtype=np.intp), lo, hi, out)
    expected = np.zeros((40, 1))
    for k in range(4):  # trees added in order, as the kernel does
        expected[lo:hi] += value[naive[lo:hi, k]]
    np.testing.assert_array_equal(out, expected)


def test_single_leaf_trees_predict_their_value():
    X, _, Xt = _data(n_test=30, seed=4)
    reg = RandomForestRegressor(n_estimators=3, random_state=0).fit(X, np.full(len(X), 2.5))
    assert all(e.tree_.node_count == 1 for e in reg.estimators_)
    np.testing.assert_array_equal(reg.predict(Xt), np.full(30, 2.5))
    np.testing.assert_array_equal(reg.apply(Xt), np.zeros((30, 3), dtype=np.intp))


def test_threshold32_compares_float32_rows_as_float64_does():
    from classiclearn.tree._predict_kernels import threshold32

    rng = np.random.default_rng(5)
    x32 = np.concatenate([rng.normal(scale=s, size=400).astype(np.float32)
                          for s in (1e-30, 1e-3, 1.0, 1e6, 1e38)])
    # midpoints of neighbouring float32 values (not float32 themselves), float32 values,
    # and thresholds beyond the float32 range
    t = np.concatenate([(x32[:-1].astype(np.float64) + x32[1:]) / 2,
                        (x32.astype(np.float64) + np.nextafter(x32, np.float32(np.inf))) / 2,
                        x32.astype(np.float64), [0.0, -0.0, 1e39, -1e39, 1e-50, -1e-50]])
    x = np.concatenate([x32, np.nextafter(x32, np.float32(np.inf)), [0.0, -0.0, np.inf, -np.inf,
                                                                       np.nan]]).astype(np.float32)
    t32 = np.array([threshold32(v) for v in t], dtype=np.float32)
    assert t32.dtype == np.float32
    for j in range(0, t.shape[0], 97):
        np.testing.assert_array_equal(x.astype(np.float64) > t[j], x > t32[j])


@pytest.mark.parametrize("bounds", [(0, 40), (3, 4), (5, 12), (7, 7), (0, 8), (1, 17), (9, 40)])
def test_narrow_walk_equals_naive_walk_on_any_row_range(bounds):
    from classiclearn.tree import _predict_kernels as _pk
    from classiclearn.tree._tree import narrow_forest

    X, y, Xt = _data(n_test=40, seed=6)
    forest = RandomForestClassifier(n_estimators=5, random_state=0).fit(X, y)
    packed, value, roots = forest._stacked()
    X32 = Xt.astype(np.float32)
    lo, hi = bounds
    naive = np.stack([_naive_apply(X32, e.tree_) + r
                      for e, r in zip(forest.estimators_, roots, strict=True)], axis=1)
    for n_threads in (1, 2):
        nodes, bits, fb = narrow_forest(packed, roots, X.shape[1], n_threads)
        assert fb == 3
        leaves = np.full((40, 5), -1, dtype=np.intp)
        _pk.apply_trees_narrow(X32, nodes, bits, fb, roots, lo, hi, leaves)
        np.testing.assert_array_equal(leaves[lo:hi], naive[lo:hi])
        assert (leaves[:lo] == -1).all() and (leaves[hi:] == -1).all()
        for k in range(5):
            leaves = np.full(40, -1, dtype=np.intp)
            _pk.walk_tree_narrow(X32, nodes, bits, fb, roots[k], lo, hi, leaves)
            np.testing.assert_array_equal(leaves[: hi - lo], naive[lo:hi, k])
        for hard in (False, True):
            out = np.zeros((40, 2))
            _pk.sum_value_narrow(X32, nodes, bits, fb, roots, value, hard,
                                 np.array([2], dtype=np.intp), lo, hi, out)
            expected = np.zeros((40, 2))
            for k in range(5):
                v = value[naive[lo:hi, k]]
                expected[lo:hi] += np.eye(2)[np.argmax(v, axis=1)] if hard else v
            np.testing.assert_array_equal(out, expected)


def test_forest_falls_back_to_wide_records(monkeypatch):
    import classiclearn.tree._tree as _tree

    X, y, Xt = _data(seed=7)
    forest = RandomForestClassifier(n_estimators=4, random_state=0).fit(X, y)
    packed, _, roots = forest._stacked()
    assert _tree.narrow_forest(packed, roots, 2**31, 1) is None  # features need 31 bits
    fast = forest.predict_proba(Xt), forest.apply(Xt)
    monkeypatch.setattr(_tree, "narrow_forest", lambda *args: None)
    np.testing.assert_array_equal(forest.predict_proba(Xt), fast[0])
    np.testing.assert_array_equal(forest.apply(Xt), fast[1])


def test_unpickled_forest_restacks_its_trees_once():
    import pickle

    X, y, Xt = _data(seed=8)
    forest = RandomForestClassifier(n_estimators=3, random_state=0).fit(X, y)
    expected = forest.predict_proba(Xt)
    loaded = pickle.loads(pickle.dumps(forest))
    np.testing.assert_array_equal(loaded.predict_proba(Xt), expected)
    packed, value, _ = loaded._stacked()
    assert loaded._stacked()[0] is packed  # kept, not rebuilt per call
    for e in loaded.estimators_:  # the trees are views of the shared arrays
        assert np.shares_memory(e.tree_.packed, packed)
        assert np.shares_memory(e.tree_.value, value)


@pytest.mark.parametrize("voting", ["soft", "hard"])
def test_few_rows_walk_the_packed_nodes_like_the_compact_walk(voting, monkeypatch):
    import classiclearn.tree._tree as _tree

    X, y, Xt = _data(seed=9)
    forest = RandomForestClassifier(n_estimators=6, random_state=0, voting=voting).fit(X, y)
    tree = DecisionTreeClassifier(random_state=0).fit(X, y)
    for steps in ("_PLAIN_STEPS", "_PLAIN_STEPS_TREE"):
        monkeypatch.setattr(_tree, steps, 10**9)  # never the plain walk
    expected = forest.predict_proba(Xt[:7]), forest.apply(Xt[:7]), tree.apply(Xt[:7])
    forest._walk_cache().clear()  # no kept records: they would be walked whatever the rows
    tree.tree_.walk_cache.clear()
    for steps in ("_PLAIN_STEPS", "_PLAIN_STEPS_TREE"):
        monkeypatch.setattr(_tree, steps, 0)  # always the plain walk
    got = forest.predict_proba(Xt[:7]), forest.apply(Xt[:7]), tree.apply(Xt[:7])
    assert "narrow" not in forest._walk_cache() and "narrow" not in tree.tree_.walk_cache
    for a, b in zip(expected, got, strict=True):
        np.testing.assert_array_equal(a, b)
    naive = np.stack([_naive_apply(Xt[:7].astype(np.float32), e.tree_)
                      for e in forest.estimators_], axis=1)
    np.testing.assert_array_equal(got[1], naive)


def test_forest_nodes_are_written_where_the_forest_keeps_them():
    # the arena: every tree's records and values are views of the shared arrays from
    # the fit on (no copy after it), in any placement order, with the same predictions
    from classiclearn.ensemble import ExtraTreesRegressor

    X, _, Xt = _data(seed=9)
    y = X[:, 0] + X[:, 1] ** 2
    forests = [ExtraTreesRegressor(n_estimators=6, random_state=0, n_jobs=n_jobs).fit(X, y)
               for n_jobs in (1, 2)]
    for forest in forests:
        packed, value, roots = forest._stacked()
        assert packed.shape[0] == sum(e.tree_.node_count for e in forest.estimators_)
        for e, r in zip(forest.estimators_, roots, strict=True):
            assert np.shares_memory(e.tree_.packed, packed)
            assert np.shares_memory(e.tree_.value, value)
            np.testing.assert_array_equal(packed[r:r + e.tree_.node_count], e.tree_.packed)
        X32 = Xt.astype(np.float32)
        ref = np.mean([e.tree_.predict(X32)[:, 0, 0] for e in forest.estimators_], axis=0)
        np.testing.assert_allclose(forest.predict(Xt), ref, rtol=1e-12)
    np.testing.assert_array_equal(forests[0].predict(Xt), forests[1].predict(Xt))
    np.testing.assert_array_equal(forests[0].apply(Xt), forests[1].apply(Xt))


def test_node_arena_opens_a_block_for_a_tree_larger_than_estimated():
    from classiclearn.tree._tree import NODE_RECORD, NodeArena

    arena = NodeArena(3, 2)
    first = arena.slots(10)  # sizes the block for 3 trees of about 10 nodes
    big = arena.slots(5000)
    last = arena.slots(7)
    assert first[0].dtype == NODE_RECORD and first[1].shape == (10, 2)
    assert first[0].base is not big[0].base  # a new block
    assert last[0].base is big[0].base and not np.shares_memory(last[0], big[0])
    assert last[1].shape == (7, 2)


def _naive_path(X32, tree):
    """Nodes each row visits, root first, walked one row at a time (reference)."""
    paths = []
    for x in X32:
        node, path = 0, [0]
        while tree.children_left[node] >= 0:
            go_left = x[tree.feature[node]] <= tree.threshold[node] or (
                np.isnan(x[tree.feature[node]]) and tree.missing_go_to_left[node])
            node = tree.children_left[node] if go_left else tree.children_right[node]
            path.append(node)
        paths.append(path)
    return paths


@pytest.mark.parametrize("n_jobs", [1, 2])
@pytest.mark.parametrize("with_nan", [False, True])
def test_forest_decision_path_is_each_trees_root_to_leaf_path(n_jobs, with_nan):
    from sklearn.ensemble import RandomForestClassifier as SkForest

    X, y, Xt = _data(n_train=400, n_test=5000)
    if with_nan:
        X, Xt = X.copy(), Xt.copy()
        X[::9, 1] = np.nan
        Xt[::5, 0] = np.nan
    params = {"n_estimators": 5, "max_depth": 7 if with_nan else None, "random_state": 0}
    forest = RandomForestClassifier(n_jobs=n_jobs, **params).fit(X, y)
    indicator, ptr = forest.decision_path(Xt)
    rows = [0, 1, 4999] + list(range(100, 5000, 997))
    X32 = Xt[rows].astype(np.float32)
    for k, est in enumerate(forest.estimators_):
        block = indicator[rows][:, ptr[k]:ptr[k + 1]]
        for r, path in enumerate(_naive_path(X32, est.tree_)):
            np.testing.assert_array_equal(block[r].indices, path)
    theirs_indicator, theirs_ptr = SkForest(n_jobs=n_jobs, **params).fit(X, y).decision_path(Xt)
    np.testing.assert_array_equal(ptr, theirs_ptr)
    assert (indicator != theirs_indicator).nnz == 0
    np.testing.assert_array_equal(indicator.indptr, theirs_indicator.indptr)


def test_kept_walk_records_are_built_once_rows_add_up_and_pickled_empty():
    import pickle

    import classiclearn.tree._tree as _tree

    X, y, Xt = _data(n_train=2000, seed=10)
    tree = DecisionTreeClassifier(random_state=0).fit(X, y)
    cache = tree.tree_.walk_cache
    few = Xt[:3]
    calls_to_build = -(-tree.tree_.node_count // (3 * _tree._PLAIN_STEPS_TREE))
    expected = tree.predict_proba(few)
    assert "narrow" not in cache and cache["plain_walks"][1] == 3
    for _ in range(calls_to_build - 2):
        np.testing.assert_array_equal(tree.predict_proba(few), expected)
    assert "narrow" not in cache
    np.testing.assert_array_equal(tree.predict_proba(few), expected)  # pays off now
    records = cache["narrow"][1]
    np.testing.assert_array_equal(tree.predict_proba(few), expected)
    assert cache["narrow"][1] is records  # kept
    np.testing.assert_array_equal(tree.apply(Xt), _naive_apply(Xt.astype(np.float32),
                                                               tree.tree_))
    loaded = pickle.loads(pickle.dumps(tree))
    assert len(loaded.tree_.walk_cache) == 0
    np.testing.assert_array_equal(loaded.predict_proba(few), expected)
    forest = RandomForestClassifier(n_estimators=3, random_state=0).fit(X, y)
    forest.predict_proba(Xt)
    assert "narrow" in forest._walk_cache()
    assert len(pickle.loads(pickle.dumps(forest))._walk_cache()) == 0


def test_forest_rebuilds_kept_records_when_its_trees_change():
    X, y, Xt = _data(seed=11)
    forest = RandomForestClassifier(n_estimators=4, random_state=0).fit(X, y)
    forest.predict_proba(Xt)
    forest.estimators_ = forest.estimators_[:2]
    expected = np.mean([e.predict_proba(Xt) for e in forest.estimators_], axis=0)
    np.testing.assert_allclose(forest.predict_proba(Xt), expected)
    indicator, ptr = forest.decision_path(Xt)
    assert ptr.shape == (3,) and indicator.shape[1] == ptr[-1]
