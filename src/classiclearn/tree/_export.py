"""Text rendering of a fitted decision tree (seed 000 §11.1: trees are readable rules)."""

import numpy as np

from ..base import is_classifier
from ..utils.validation import check_is_fitted

__all__ = ["export_text"]


def export_text(decision_tree, *, feature_names=None, class_names=None, max_depth=10,
                spacing=3, decimals=2, show_weights=False):
    """The rules of a fitted tree as indented text, one line per node.

    Parameters
    ----------
    decision_tree : DecisionTreeClassifier or DecisionTreeRegressor
    feature_names : list of str, default=None
        Names of the features; "feature_i" by default.
    class_names : list of str, default=None
        Names of the classes (classifiers), in the order of ``classes_``.
    max_depth : int, default=10
        Deeper branches are shown as "truncated branch of depth d".
    spacing : int, default=3
        Width of one indentation level.
    decimals : int, default=2
        Digits shown for thresholds and values.
    show_weights : bool, default=False
        Show the weighted class counts at classifier leaves.

    Returns
    -------
    str

    Examples
    --------
    >>> from classiclearn.tree import DecisionTreeClassifier, export_text
    >>> clf = DecisionTreeClassifier().fit([[0.0], [1.0]], ["a", "b"])
    >>> print(export_text(clf, feature_names=["x"]))
    |--- x <= 0.50
    |   |--- class: a
    |--- x >  0.50
    |   |--- class: b
    <BLANKLINE>
    """
    check_is_fitted(decision_tree)
    tree = decision_tree.tree_
    clf = is_classifier(decision_tree)
    if spacing <= 0:
        raise ValueError(f"spacing must be > 0, given {spacing}")
    if max_depth < 0:
        raise ValueError(f"max_depth bust be >= 0, given {max_depth}")
    if decimals < 0:
        raise ValueError(f"decimals must be >= 0, given {decimals}")
    if feature_names is not None:
        feature_names = list(feature_names)
        if len(feature_names) != tree.n_features:
            raise ValueError(
                f"feature_names must contain {tree.n_features} elements, got "
                f"{len(feature_names)}"
            )
    else:
        feature_names = [f"feature_{i}" for i in range(tree.n_features)]
    if clf:
        classes = decision_tree.classes_
        if class_names is None:
            class_names = classes
        elif len(class_names) != len(classes):
            raise ValueError(
                "When `class_names` is an array, it should contain as many items as "
                f"`decision_tree.classes_`. Got {len(class_names)} while the tree was fitted "
                f"with {len(classes)} classes."
            )
    lines = []

    def fmt(v):
        return f"{v:.{decimals}f}"

    def leaf_text(node):
        value = tree.value[node][0] if tree.n_outputs == 1 else tree.value[node].T[0]
        if clf:
            if tree.n_outputs == 1:
                value = value[: tree.n_classes[0]]
            text = ""
            if show_weights:
                w = tree.weighted_n_node_samples[node]
                text = " weights: [" + ", ".join(fmt(v * w) for v in value) + "]"
            k = int(np.argmax(value))
            name = class_names[k] if tree.n_outputs == 1 else k
            return text + " class: " + str(name)
        return " value: [" + ", ".join(fmt(v) for v in np.atleast_1d(value)) + "]"

    def depth_below(node):
        if tree.children_left[node] < 0:
            return 1
        return 1 + max(depth_below(tree.children_left[node]),
                       depth_below(tree.children_right[node]))

    stack = [(0, 1, None)]
    while stack:
        node, depth, line = stack.pop()
        if line is not None:
            lines.append(line)
            continue
        indent = ("|" + " " * spacing) * depth
        indent = indent[:-spacing] + "-" * spacing
        if depth <= max_depth + 1:
            if tree.children_left[node] >= 0:
                name = feature_names[tree.feature[node]]
                thr = fmt(tree.threshold[node])
                stack.append((tree.children_right[node], depth + 1, None))
                stack.append((None, None, f"{indent} {name} >  {thr}"))
                stack.append((tree.children_left[node], depth + 1, None))
                stack.append((None, None, f"{indent} {name} <= {thr}"))
            else:
                lines.append(indent + leaf_text(node))
        else:
            d = depth_below(node)
            if d == 1:
                lines.append(indent + leaf_text(node))
            else:
                lines.append(f"{indent} truncated branch of depth {d}")
    return "\n".join(lines) + "\n"
