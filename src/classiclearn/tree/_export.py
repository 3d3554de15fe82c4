"""Text and matplotlib renderings of a fitted decision tree (seed 000 §11.1: trees are
readable rules). matplotlib is imported inside ``plot_tree`` only."""

import numpy as np

from ..base import is_classifier
from ..utils.validation import check_is_fitted

__all__ = ["export_text", "plot_tree", "register_for_sklearn_export"]


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


def plot_tree(decision_tree, *, max_depth=None, feature_names=None, class_names=None,
              label="all", filled=False, impurity=True, node_ids=False, proportion=False,
              rounded=False, precision=3, ax=None, fontsize=None):
    """Draw a fitted decision tree with matplotlib, one box per node.

    Each box shows the split (``feature <= threshold``), the impurity, the
    number of samples, the value and, with ``class_names``, the majority
    class; edges join parents to children, the root's labelled True (left:
    the split holds) and False. Same parameters and output as scikit-learn's
    ``sklearn.tree.plot_tree``.

    Parameters
    ----------
    decision_tree : DecisionTreeClassifier or DecisionTreeRegressor
        A fitted tree (for a forest, one of its ``estimators_``).
    max_depth : int, default=None
        Nodes deeper than this are drawn as one "(...)" box; None draws all.
    feature_names : list of str, default=None
        Names of the features; ``x[i]`` by default.
    class_names : list of str or True, default=None
        Names of the classes in the order of ``classes_``; True shows
        ``y[k]``; None shows no class line.
    label : {"all", "root", "none"}, default="all"
        Which boxes name their lines ("samples = 10" rather than "10").
    filled : bool, default=False
        Colour boxes by majority class (classifiers; stronger for purer
        nodes) or by value (regressors).
    impurity : bool, default=True
        Show the impurity of each node.
    node_ids : bool, default=False
        Show the node indices (as in ``tree_``).
    proportion : bool, default=False
        Show samples as a percentage of the root and classifier values as
        class fractions rather than weighted counts.
    rounded : bool, default=False
        Rounded box corners.
    precision : int, default=3
        Digits of thresholds, impurities and values.
    ax : matplotlib Axes, default=None
        Where to draw; the current axes by default. It is cleared first.
    fontsize : float, default=None
        Text size; chosen from the axes size and the tree size when None.

    Returns
    -------
    list of matplotlib.text.Annotation
        The node boxes in depth-first order (left child first), each child of
        the root followed by its edge label ("True" / "False").

    Notes
    -----
    scikit-learn's ``sklearn.tree.plot_tree`` and ``export_text`` accept only
    instances of scikit-learn's own tree classes, so they refuse classiclearn
    trees unless :func:`register_for_sklearn_export` was called; this function
    (and :func:`export_text`) draw them without scikit-learn. The texts are the
    same as scikit-learn's for the same tree.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from classiclearn.tree import DecisionTreeClassifier, plot_tree
    >>> clf = DecisionTreeClassifier().fit([[0.0], [1.0]], ["a", "b"])
    >>> len(plot_tree(clf))  # three nodes and the True / False labels
    5
    """
    check_is_fitted(decision_tree)
    _check_plot_args(max_depth, label, precision)
    import matplotlib.pyplot as plt

    tree = decision_tree.tree_
    if feature_names is not None:
        feature_names = list(feature_names)
        if len(feature_names) != tree.n_features:
            raise ValueError(
                f"Length of feature_names, {len(feature_names)} does not match number of "
                f"features, {tree.n_features}"
            )
    if ax is None:
        ax = plt.gca()
    ax.clear()
    ax.set_axis_off()
    depth_limit = np.inf if max_depth is None else max_depth
    slots, levels, order = _layout(tree, depth_limit)
    n_slots = max(slots.values()) + 1
    n_levels = max(levels.values()) + 1

    def position(node):
        return ((slots[node] + 0.5) / n_slots, 1.0 - (levels[node] + 0.5) / n_levels)

    text_options = {
        "feature_names": feature_names, "class_names": class_names, "label": label,
        "impurity": impurity, "node_ids": node_ids, "proportion": proportion,
        "precision": precision, "criterion": str(getattr(decision_tree, "criterion",
                                                          "impurity")),
        "classifier": is_classifier(decision_tree),
    }
    colour = _node_colours(tree, text_options["classifier"]) if filled else None
    if fontsize is None:
        width, height = ax.get_window_extent().size / ax.figure.dpi * 72.0
        fontsize = float(np.clip(min(width / (n_slots * 9.0), height / (n_levels * 7.0)), 3, 12))
    box = {"boxstyle": "round" if rounded else "square", "ec": "black"}
    annotations = []
    parent_of = {}
    for node in order:
        if tree.children_left[node] >= 0 and levels[node] < depth_limit + 1:
            parent_of[tree.children_left[node]] = node
            parent_of[tree.children_right[node]] = node
    for node in order:
        truncated = levels[node] > depth_limit
        text = "\n  (...)  \n" if truncated else _node_text(tree, node, text_options)
        style = dict(box)
        style["fc"] = "grey" if truncated else (colour(node) if filled else "white")
        common = {"xycoords": "axes fraction", "ha": "center", "va": "center",
                  "fontsize": fontsize, "bbox": style, "zorder": 3}
        xy = position(node)
        if node not in parent_of:
            annotations.append(ax.annotate(text, xy, **common))
            continue
        parent = position(parent_of[node])
        annotations.append(ax.annotate(
            text, parent, xytext=xy, textcoords="axes fraction",
            arrowprops={"arrowstyle": "<-", "shrinkA": 0, "shrinkB": 0}, **common,
        ))
        if parent_of[node] == 0:  # the root's edges say which side the split sends
            text, ha = ("True  ", "right") if node == tree.children_left[0] else ("  False",
                                                                                "left")
            middle = ((parent[0] + xy[0]) / 2, (parent[1] + xy[1]) / 2)
            annotations.append(ax.annotate(text, middle, xycoords="axes fraction", ha=ha,
                                           va="center", fontsize=fontsize))
    return annotations


def _check_plot_args(max_depth, label, precision):
    if max_depth is not None and (not isinstance(max_depth, int | np.integer) or max_depth < 0):
        raise ValueError(f"max_depth must be None or an int >= 0; got {max_depth!r}")
    if label not in ("all", "root", "none"):
        raise ValueError(f"label must be 'all', 'root' or 'none'; got {label!r}")
    if not isinstance(precision, int | np.integer) or precision < 0:
        raise ValueError(f"precision must be an int >= 0; got {precision!r}")


def _layout(tree, depth_limit):
    """Horizontal slot and depth of each drawn node, and the drawing order.

    Leaves (and "(...)" boxes) take consecutive slots from left to right; an
    inner node sits midway between its leftmost and rightmost slots.
    """
    slots, levels, order = {}, {}, []
    next_slot = 0
    # explicit stack: (node, depth, expanded?)
    stack = [(0, 0, False)]
    while stack:
        node, depth, expanded = stack.pop()
        inner = tree.children_left[node] >= 0 and depth <= depth_limit
        if expanded:
            left, right = tree.children_left[node], tree.children_right[node]
            slots[node] = (slots[left] + slots[right]) / 2.0
            continue
        levels[node] = depth
        order.append(node)
        if not inner:
            slots[node] = next_slot
            next_slot += 1
            continue
        stack.append((node, depth, True))
        stack.append((tree.children_right[node], depth + 1, False))
        stack.append((tree.children_left[node], depth + 1, False))
    return slots, levels, order


def _round(value, precision):
    return round(float(value), precision)


def _node_text(tree, node, options):
    show = options["label"] == "all" or (options["label"] == "root" and node == 0)
    precision = options["precision"]
    lines = []
    if options["node_ids"]:
        lines.append(("node #" if show else "#") + str(node))
    if tree.children_left[node] >= 0:
        feature = tree.feature[node]
        names = options["feature_names"]
        name = names[feature] if names is not None else f"x[{feature}]"
        lines.append(f"{name} <= {_round(tree.threshold[node], precision)}")
    if options["impurity"]:
        lines.append(("" if not show else f"{options['criterion']} = ")
                     + str(_round(tree.impurity[node], precision)))
    if options["proportion"]:
        share = 100.0 * tree.n_node_samples[node] / float(tree.n_node_samples[0])
        samples = f"{round(share, 1)}%"
    else:
        samples = str(int(tree.n_node_samples[node]))
    lines.append(("samples = " if show else "") + samples)
    value = tree.value[node][0] if tree.n_outputs == 1 else tree.value[node]
    classifier = options["classifier"]
    if classifier and not options["proportion"]:
        value = value * tree.weighted_n_node_samples[node]
    lines.append(("value = " if show else "") + _value_text(value, classifier, options))
    class_names = options["class_names"]
    if class_names is not None and classifier and tree.n_outputs == 1:
        k = int(np.argmax(value))
        name = f"y[{k}]" if class_names is True else str(class_names[k])
        lines.append(("class = " if show else "") + name)
    return "\n".join(lines)


def _value_text(value, classifier, options):
    precision = options["precision"]
    value = np.asarray(value, dtype=float)
    if not classifier and value.size == 1:
        return str(_round(value.ravel()[0], precision))
    if classifier and not options["proportion"] and np.all(np.mod(value, 1) == 0):
        items = value.astype(np.int64)
    else:
        items = np.round(value, precision)
    if items.ndim == 1:
        return "[" + ", ".join(str(v) for v in items.tolist()) + "]"
    return "\n".join("[" + ", ".join(str(v) for v in row) + "]" for row in items.tolist())


def _node_colours(tree, classifier):
    """A function node -> RGBA: hue of the majority class, stronger for purer nodes
    (classifiers); one hue, stronger for larger values (regressors)."""
    from matplotlib.colors import hsv_to_rgb

    values = tree.value[:, 0, :]
    if classifier:
        n_classes = values.shape[1]
        hues = np.linspace(0.0, 1.0, n_classes, endpoint=False) + 0.05

        def colour(node):
            fractions = values[node] / max(values[node].sum(), 1e-300)
            k = int(np.argmax(fractions))
            top = np.sort(fractions)[::-1]
            second = top[1] if len(top) > 1 else 0.0
            strength = (top[0] - second) / (1.0 - second) if second < 1.0 else 0.0
            r, g, b = hsv_to_rgb((hues[k] % 1.0, 0.6, 0.95))
            return (r, g, b, float(np.clip(strength, 0.0, 1.0)))

        return colour
    low, high = float(values[:, 0].min()), float(values[:, 0].max())
    span = high - low if high > low else 1.0
    r, g, b = hsv_to_rgb((0.08, 0.6, 0.95))
    return lambda node: (r, g, b, float((values[node, 0] - low) / span))


def register_for_sklearn_export():
    """Let scikit-learn's ``plot_tree``, ``export_text`` and ``export_graphviz`` take
    classiclearn trees.

    scikit-learn's export functions accept only instances of its own tree
    classes. Those are abstract base classes, so this registers classiclearn's
    ``DecisionTreeClassifier`` and ``DecisionTreeRegressor`` as their virtual
    subclasses (``isinstance`` then holds; nothing else changes, and in
    scikit-learn 1.9 only the export functions look). It imports
    scikit-learn, and lasts for the rest of the session. Without it, use
    :func:`plot_tree` and :func:`export_text` here.

    Examples
    --------
    >>> from classiclearn.tree import DecisionTreeClassifier
    >>> register_for_sklearn_export()  # doctest: +SKIP
    >>> from sklearn.tree import export_graphviz  # doctest: +SKIP
    >>> dot = export_graphviz(DecisionTreeClassifier().fit([[0.0], [1.0]], [0, 1]))  # doctest: +SKIP
    """
    from sklearn.tree import DecisionTreeClassifier as SklearnClassifier
    from sklearn.tree import DecisionTreeRegressor as SklearnRegressor

    from ._classes import DecisionTreeClassifier, DecisionTreeRegressor

    SklearnClassifier.register(DecisionTreeClassifier)
    SklearnRegressor.register(DecisionTreeRegressor)
