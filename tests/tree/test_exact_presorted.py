"""Exact classification trees on sorted lists kept per subtree (``_classes.presorted_work``
without bins): each feature's values are sorted once per subtree and partitioned with
every split, instead of sorted at every node. The trees must still be scikit-learn's,
node for node, whatever the lists' width (nodes wider than it sort as before)."""

import numpy as np
import pytest

sk_tree = pytest.importorskip("sklearn.tree")
sk_datasets = pytest.importorskip("sklearn.datasets")

from test_tree_parity import assert_same_tree  # noqa: E402

from classiclearn.tree import (  # noqa: E402
    DecisionTreeClassifier,
    DecisionTreeRegressor,
    _classes,  # noqa: E402
)


def _digits():
    X, y = sk_datasets.load_digits(return_X_y=True)
    return X[:700], y[:700]  # integer pixels: many ties, constant columns


def _with_nan():
    rng = np.random.default_rng(3)
    X = rng.integers(0, 6, size=(400, 5)).astype(float)
    y = (X[:, 0] + X[:, 1] > 5).astype(int) + (X[:, 2] > 3)
    X[rng.random(X.shape) < 0.15] = np.nan
    return X, y


def _three_levels():
    # integer codes of three levels: features turn constant a split or two down, and
    # their lists are then left unpartitioned below (children inherit constants)
    rng = np.random.default_rng(4)
    X = np.round(rng.normal(size=(1500, 8)) / 2)
    y = (X[:, 0] + X[:, 1] - X[:, 2] + rng.normal(size=1500) > 0).astype(int)
    return X, y


DATA = {"digits": _digits, "nan": _with_nan, "three_levels": _three_levels}
PARAMS = [
    {},
    {"criterion": "entropy"},
    {"max_leaf_nodes": 15},
    {"min_samples_leaf": 3, "max_depth": 7},
    {"max_features": 0.6},
]


@pytest.mark.parametrize("width_entries", [None, 600, 3000])
@pytest.mark.parametrize("params", PARAMS, ids=lambda p: ",".join(p) or "default")
@pytest.mark.parametrize("name", sorted(DATA))
def test_presorted_exact_classifier_equals_sklearn(monkeypatch, name, params, width_entries):
    if width_entries is not None:
        # lists of a few rows: the top nodes sort their values, the subtrees below
        # keep lists (both paths in one tree)
        monkeypatch.setattr(_classes, "EXACT_LIST_ENTRIES", width_entries)
    X, y = DATA[name]()
    ours = DecisionTreeClassifier(random_state=1, **params).fit(X, y)
    theirs = sk_tree.DecisionTreeClassifier(random_state=1, **params).fit(X, y)
    assert_same_tree(ours, theirs)
    np.testing.assert_array_equal(ours.predict(X), theirs.predict(X))


def test_presorted_with_integer_weights_and_several_outputs_equals_sklearn():
    X, y = _digits()
    counts = np.random.default_rng(5).integers(0, 3, size=len(y)).astype(float)
    ours = DecisionTreeClassifier(random_state=0).fit(X, y, sample_weight=counts)
    theirs = sk_tree.DecisionTreeClassifier(random_state=0).fit(X, y, sample_weight=counts)
    assert_same_tree(ours, theirs)
    Y = np.column_stack([y, y % 3])
    ours = DecisionTreeClassifier(random_state=0, max_depth=8).fit(X, Y)
    theirs = sk_tree.DecisionTreeClassifier(random_state=0, max_depth=8).fit(X, Y)
    assert_same_tree(ours, theirs)


@pytest.mark.parametrize("weighted", [False, True])
def test_entropy_from_the_xlogx_table_keeps_sklearns_ties(weighted):
    """The exact entropy scan skips the logarithms of candidates that the k ln k table
    puts clearly below the best: with duplicated columns (every split tied with its
    copy's) and integer weights, the tree is still scikit-learn's, node for node."""
    X, y = _digits()
    X = np.hstack([X[:, 20:36], X[:, 20:36]])
    w = None
    if weighted:
        w = np.random.default_rng(6).integers(1, 4, size=len(y)).astype(float)
    for seed in range(3):
        kw = dict(criterion="entropy", random_state=seed)
        ours = DecisionTreeClassifier(**kw).fit(X, y, sample_weight=w)
        theirs = sk_tree.DecisionTreeClassifier(**kw).fit(X, y, sample_weight=w)
        assert_same_tree(ours, theirs)


def test_monotonic_constraints_on_presorted_lists_equal_sklearn():
    X, y = _with_nan()
    X = np.nan_to_num(X)
    y = (y > 0).astype(int)
    cst = [1, 1, -1, 0, 0]
    ours = DecisionTreeClassifier(random_state=0, monotonic_cst=cst).fit(X, y)
    theirs = sk_tree.DecisionTreeClassifier(random_state=0, monotonic_cst=cst).fit(X, y)
    assert_same_tree(ours, theirs)


def test_which_exact_trees_keep_sorted_lists():
    X, y = _digits()
    settings_of = {}

    def spy(data, settings):
        settings_of["taken"] = original(data, settings)
        return settings_of["taken"]

    original = _classes._presorts_exactly
    cases = [
        (DecisionTreeClassifier(), {}, True),
        (DecisionTreeClassifier(max_features=0.5), {}, True),
        (DecisionTreeClassifier(max_features="sqrt"), {}, False),  # 8 of 64 features
        (DecisionTreeClassifier(), {"sample_weight": np.full(len(y), 0.5)}, False),
        (DecisionTreeRegressor(), {}, False),  # sums of targets depend on their order
    ]
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(_classes, "_presorts_exactly", spy)
        for est, fit_params, expected in cases:
            settings_of.clear()
            est.fit(X, y.astype(float) if est._estimator_type == "regressor" else y,
                    **fit_params)
            assert settings_of["taken"] is expected, est
