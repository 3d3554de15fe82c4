"""Trees and forests on sparse X: scikit-learn's sparse splitter (CSC), predictions
walked on the CSR rows. Classification trees equal scikit-learn's node for node; regression
trees are compared on their fit (scikit-learn's own sparse and dense trees differ there
in exact ties of the summed squared errors, which the order of the values decides)."""

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn import ensemble as sk_ensemble
from sklearn import tree as sk_tree

from classiclearn import ensemble, tree


def _data(n=400, p=40, density=0.15, seed=1):
    X = sp.random(n, p, density=density, random_state=seed, format="csc")
    X.data = np.round(X.data * 10 - 3)
    signal = np.asarray(X[:, :5].sum(axis=1)).ravel()
    y_class = (signal > 0).astype(int) + (X[:, 5].toarray().ravel() > 1)
    y_reg = signal + np.random.default_rng(seed).normal(size=n) * 0.1
    return X, y_class, y_reg


SETTINGS = [{}, {"splitter": "random"}, {"max_depth": 4}, {"max_features": 0.3},
            {"min_samples_leaf": 5}, {"criterion": "entropy"}]


def _same_nodes(ours, theirs):
    a, b = ours.tree_, theirs.tree_
    assert a.node_count == b.node_count
    np.testing.assert_array_equal(a.feature, b.feature)
    np.testing.assert_allclose(a.threshold, b.threshold)
    np.testing.assert_allclose(a.value, b.value)


@pytest.mark.parametrize("params", SETTINGS)
@pytest.mark.parametrize("fmt", ["csc", "csr"])
def test_classifier_tree_matches_sklearn_node_for_node(params, fmt):
    X, y, _ = _data()
    X = X.asformat(fmt)
    ours = tree.DecisionTreeClassifier(random_state=0, **params).fit(X, y)
    theirs = sk_tree.DecisionTreeClassifier(random_state=0, **params).fit(X, y)
    _same_nodes(ours, theirs)
    np.testing.assert_array_equal(ours.predict_proba(X), theirs.predict_proba(X))
    np.testing.assert_array_equal(ours.apply(X), theirs.apply(X))
    assert (ours.decision_path(X) != theirs.decision_path(X)).nnz == 0
    dense = tree.DecisionTreeClassifier(random_state=0, **params).fit(X.toarray(), y)
    _same_nodes(ours, dense)


@pytest.mark.parametrize("params", [p for p in SETTINGS if "criterion" not in p])
def test_regressor_tree_fits_as_sklearn(params):
    X, _, y = _data()
    ours = tree.DecisionTreeRegressor(random_state=0, **params).fit(X, y)
    theirs = sk_tree.DecisionTreeRegressor(random_state=0, **params).fit(X, y)
    assert abs(ours.tree_.node_count - theirs.tree_.node_count) <= 2
    assert ours.score(X, y) == pytest.approx(theirs.score(X, y), abs=1e-6)
    assert ours.tree_.feature[0] == theirs.tree_.feature[0]
    assert ours.tree_.threshold[0] == theirs.tree_.threshold[0]


@pytest.mark.parametrize("name", ["RandomForestClassifier", "ExtraTreesClassifier"])
def test_forest_classifiers_match_sklearn(name):
    X, y, _ = _data(n=600, p=60)
    extra = {"oob_score": True} if name.startswith("Random") else {}
    ours = getattr(ensemble, name)(n_estimators=8, random_state=0, **extra).fit(X, y)
    theirs = getattr(sk_ensemble, name)(n_estimators=8, random_state=0, **extra).fit(X, y)
    np.testing.assert_allclose(ours.predict_proba(X.tocsr()), theirs.predict_proba(X.tocsr()))
    np.testing.assert_array_equal(ours.apply(X), theirs.apply(X))
    if extra:
        assert ours.oob_score_ == pytest.approx(theirs.oob_score_)


@pytest.mark.parametrize("name", ["RandomForestRegressor", "ExtraTreesRegressor"])
def test_forest_regressors_fit_as_sklearn(name):
    X, _, y = _data(n=600, p=60)
    ours = getattr(ensemble, name)(n_estimators=8, random_state=0).fit(X, y)
    theirs = getattr(sk_ensemble, name)(n_estimators=8, random_state=0).fit(X, y)
    # tie-level differences in single trees add up to a few thousandths of R^2
    assert ours.score(X, y) == pytest.approx(theirs.score(X, y), abs=5e-3)


def test_sparse_decision_paths_equal_dense_and_sklearn():
    X, y, _ = _data()
    X = sp.csr_matrix(X)
    dense = X.toarray()
    ours = tree.DecisionTreeClassifier(random_state=0).fit(X, y)
    theirs = sk_tree.DecisionTreeClassifier(random_state=0).fit(X, y)
    path = ours.decision_path(X)
    assert (path != ours.decision_path(dense)).nnz == 0
    assert (path != theirs.decision_path(X)).nnz == 0
    forest = ensemble.RandomForestClassifier(n_estimators=3, random_state=0).fit(X, y)
    (indicator, ptr), (from_dense, _) = forest.decision_path(X), forest.decision_path(dense)
    assert indicator.shape == (X.shape[0], ptr[-1]) and ptr.shape == (4,)
    assert (indicator != from_dense).nnz == 0


def test_histogram_splitter_refuses_sparse_by_name():
    X, y, _ = _data()
    with pytest.raises(ValueError, match="max_bins=16"):
        tree.DecisionTreeClassifier(max_bins=16).fit(X, y)
    with pytest.raises(ValueError, match="max_bins=16"):
        ensemble.RandomForestClassifier(max_bins=16, n_estimators=2).fit(X, y)


def test_sparse_fit_keeps_input_unchanged():
    X, y, _ = _data()
    X = sp.csr_matrix(X)
    before = X.copy()
    tree.DecisionTreeClassifier(random_state=0).fit(X, y)
    assert (X != before).nnz == 0 and X.format == "csr"


def test_group_node_entries_gives_each_columns_entries_at_the_node():
    # the counting sort of a node's entries by feature, against the columns themselves
    from classiclearn.tree import _classes
    from classiclearn.tree._split_kernels import group_node_entries

    X, _, _ = _data(n=300, p=30, density=0.2)
    by_rows = _classes.rows_for_grouping(_classes.sparse_rows(X, max_features=30), 30)
    assert by_rows is not None
    samples = np.random.default_rng(0).permutation(300).astype(np.intp)
    a, b = 40, 90  # the node: samples[40:90]
    assert group_node_entries(by_rows, samples, a, b, 30, X.nnz)
    node = set(samples[a:b].tolist())
    Xc = sp.csc_array(X)
    for f in range(30):
        lo, hi = by_rows.start[f], by_rows.start[f + 1]
        got = sorted(zip(by_rows.rows[lo:hi].tolist(), by_rows.vals[lo:hi].tolist()))
        col = Xc[:, [f]].tocoo()
        want = sorted((int(r), float(np.float32(v))) for r, v in zip(col.row, col.data)
                      if r in node)
        assert got == want
    # a node holding most of X's entries is left to the columns' scans
    assert not group_node_entries(by_rows, samples, 0, 300, 30, X.nnz)


@pytest.mark.parametrize("params", [{}, {"splitter": "random"}, {"criterion": "entropy"}])
def test_grouped_node_entries_grow_the_same_classifier_tree(params, monkeypatch):
    # trees that try every feature group deep nodes' entries by feature: the same tree
    # as the columns' scans alone (the way scikit-learn's splitter reads them)
    from classiclearn.tree import _classes

    X, y, _ = _data(n=600, p=60, density=0.1, seed=3)
    grouped = tree.DecisionTreeClassifier(random_state=0, **params).fit(X, y)
    monkeypatch.setattr(_classes, "rows_for_grouping", lambda rows, n_features: None)
    scanned = tree.DecisionTreeClassifier(random_state=0, **params).fit(X, y)
    _same_nodes(grouped, scanned)
    assert _classes.sparse_rows(X, max_features=7) is None  # sqrt(60): scans only


def test_predict_on_unsorted_rows_with_duplicate_entries():
    # each row's entries reversed and every value split into two equal duplicates (whose
    # sum is the value exactly): the walks sum duplicates, so every output is unchanged
    X, y, _ = _data(n=300, p=20, density=0.3, seed=5)
    R = sp.csr_array(X)
    indptr, indices, data = [0], [], []
    for i in range(R.shape[0]):
        for t in range(R.indptr[i + 1] - 1, R.indptr[i] - 1, -1):
            indices += [R.indices[t]] * 2
            data += [R.data[t] / 2] * 2
        indptr.append(len(indices))
    messy = sp.csr_array((np.array(data), np.array(indices), np.array(indptr)), shape=R.shape)
    assert messy.nnz == 2 * R.nnz and not messy.has_canonical_format
    for model in (tree.DecisionTreeClassifier(random_state=0),
                  ensemble.ExtraTreesClassifier(n_estimators=5, random_state=0)):
        model.fit(R, y)
        np.testing.assert_array_equal(model.apply(messy), model.apply(R))
        np.testing.assert_array_equal(model.predict_proba(messy), model.predict_proba(R))
