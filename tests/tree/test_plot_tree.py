"""classiclearn.tree.plot_tree (issue 16 item 6): nodes, texts and options, drawn with Agg."""

import subprocess
import sys

import numpy as np
import pytest

from classiclearn.datasets import load_iris
from classiclearn.tree import DecisionTreeClassifier, DecisionTreeRegressor, plot_tree

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

FEATURES = ["sepal length", "sepal width", "petal length", "petal width"]


@pytest.fixture
def ax():
    fig, axes = plt.subplots(figsize=(8, 6))
    yield axes
    plt.close(fig)


@pytest.fixture(scope="module")
def iris_tree():
    X, y = load_iris(return_X_y=True)
    return DecisionTreeClassifier(max_depth=3, random_state=0).fit(X, y), X, y


def _box_texts(annotations):
    return [a.get_text() for a in annotations if a.get_text().strip() not in ("True", "False")]


def test_one_box_per_node_and_the_root_edge_labels(iris_tree, ax):
    clf, _, _ = iris_tree
    annotations = plot_tree(clf, ax=ax)
    boxes = _box_texts(annotations)
    assert len(boxes) == clf.tree_.node_count
    assert len(annotations) == clf.tree_.node_count + 2
    assert [a.get_text().strip() for a in annotations].count("True") == 1
    # the boxes are the axes' annotations, root first, and the axes are off
    assert boxes[0].startswith("x[3] <= 0.8") or boxes[0].startswith("x[2] <= 2.45")
    assert set(ax.texts) >= set(annotations)
    assert not ax.axison


def test_node_text_lines(iris_tree, ax):
    clf, _, _ = iris_tree
    tree = clf.tree_
    boxes = _box_texts(plot_tree(clf, ax=ax, feature_names=FEATURES,
                                 class_names=["setosa", "versicolor", "virginica"]))
    root = boxes[0].split("\n")
    assert root[0] == f"{FEATURES[tree.feature[0]]} <= {round(float(tree.threshold[0]), 3)}"
    assert root[1] == f"gini = {round(float(tree.impurity[0]), 3)}"
    assert root[2] == "samples = 150"
    assert root[3] == "value = [50, 50, 50]"
    assert root[4] == "class = setosa"
    leaves = [b for b in boxes if "<=" not in b]
    assert len(leaves) == tree.n_leaves


def test_max_depth_draws_truncated_boxes(iris_tree, ax):
    clf, _, _ = iris_tree
    annotations = plot_tree(clf, ax=ax, max_depth=1)
    texts = [a.get_text() for a in annotations]
    depths = clf.tree_.compute_node_depths() if hasattr(clf.tree_, "compute_node_depths") \
        else None
    truncated = sum("(...)" in t for t in texts)
    full = sum("samples" in t for t in texts)
    if depths is not None:
        depths = np.asarray(depths) - (1 if np.min(depths) == 1 else 0)
        assert full == int(np.sum(depths <= 1))
        assert truncated == int(np.sum(depths == 2))
    assert truncated >= 1


def test_label_proportion_and_node_ids(iris_tree, ax):
    clf, _, _ = iris_tree
    boxes = _box_texts(plot_tree(clf, ax=ax, label="root", proportion=True, node_ids=True,
                                 impurity=False, precision=2))
    assert boxes[0].split("\n")[0] == "node #0"
    assert "samples = 100.0%" in boxes[0]
    assert "value = [0.33, 0.33, 0.33]" in boxes[0]
    assert boxes[1].split("\n")[0] == "#1"
    assert "samples" not in boxes[1] and "gini" not in boxes[1]


def test_filled_colours_follow_purity(iris_tree, ax):
    clf, _, _ = iris_tree
    annotations = plot_tree(clf, ax=ax, filled=True, rounded=True)
    boxes = [a for a in annotations if "samples" in a.get_text()]
    alphas = [a.get_bbox_patch().get_facecolor()[3] for a in boxes]
    assert alphas[0] == pytest.approx(0.0)  # the root is an even mix of three classes
    pure = [a for a, b in zip(alphas, boxes, strict=True) if "gini = 0.0\n" in b.get_text()]
    assert pure and all(a == pytest.approx(1.0) for a in pure)


def test_regressor_values(ax):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 2))
    y = 3.0 * X[:, 0] + rng.normal(size=40)
    reg = DecisionTreeRegressor(max_depth=2, random_state=0).fit(X, y)
    boxes = _box_texts(plot_tree(reg, ax=ax, filled=True))
    assert len(boxes) == reg.tree_.node_count
    assert boxes[0].split("\n")[1].startswith("squared_error = ")
    assert boxes[0].endswith(f"value = {round(float(y.mean()), 3)}")


def test_same_texts_as_sklearn(iris_tree, ax):
    sk_tree = pytest.importorskip("sklearn.tree")
    clf, X, y = iris_tree
    theirs_clf = sk_tree.DecisionTreeClassifier(max_depth=3, random_state=0).fit(X, y)
    np.testing.assert_array_equal(clf.tree_.feature, theirs_clf.tree_.feature)
    kwargs = {"feature_names": FEATURES, "class_names": True, "filled": True}
    ours = [a.get_text() for a in plot_tree(clf, ax=ax, **kwargs)]
    fig, other = plt.subplots()
    try:
        theirs = [a.get_text() for a in sk_tree.plot_tree(theirs_clf, ax=other, **kwargs)]
    finally:
        plt.close(fig)
    assert ours == theirs


def test_bad_arguments(iris_tree, ax):
    clf, _, _ = iris_tree
    with pytest.raises(ValueError, match="label must be"):
        plot_tree(clf, ax=ax, label="some")
    with pytest.raises(ValueError, match="Length of feature_names"):
        plot_tree(clf, ax=ax, feature_names=["a"])
    with pytest.raises(ValueError, match="max_depth must be"):
        plot_tree(clf, ax=ax, max_depth=-1)


def test_importing_the_tree_family_leaves_matplotlib_out():
    code = "import sys, classiclearn.tree; print('matplotlib' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "False"


def test_sklearn_export_functions_after_registration():
    pytest.importorskip("sklearn")
    code = """
import matplotlib
matplotlib.use("Agg")
import numpy as np
import sklearn.tree as sk
from classiclearn.datasets import load_iris
from classiclearn.tree import (DecisionTreeClassifier, DecisionTreeRegressor, export_text,
                               plot_tree, register_for_sklearn_export)
X, y = load_iris(return_X_y=True)
clf = DecisionTreeClassifier(max_depth=3, random_state=0).fit(X, y)
try:
    sk.export_text(clf)
    raise SystemExit("scikit-learn accepted the tree before registration")
except ValueError:
    pass
register_for_sklearn_export()
assert sk.export_text(clf) == export_text(clf)
import matplotlib.pyplot as plt
theirs = [a.get_text() for a in sk.plot_tree(clf, ax=plt.subplots()[1])]
ours = [a.get_text() for a in plot_tree(clf, ax=plt.subplots()[1])]
assert theirs == ours
reg = DecisionTreeRegressor(max_depth=2).fit(X, X[:, 0])
assert "digraph Tree" in sk.export_graphviz(reg)
print("ok")
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == "ok"
