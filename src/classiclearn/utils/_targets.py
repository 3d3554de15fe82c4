"""Targets: what kind of target y is, and class-label encoding."""

import numpy as np

__all__ = [
    "as_2d_target",
    "check_classification_targets",
    "compute_class_weight",
    "encode_labels",
    "type_of_target",
    "unique_inverse",
]

# label spans (max - min) up to this many per sample are encoded by counting: the
# count array then stays of the order of y itself
_COUNTING_SPAN_PER_SAMPLE = 4
_COUNTING_SPAN_MIN = 1024


def _offsets(y):
    """``(y - min(y)) as intp`` and ``min(y)`` when y is 1-D and holds integers
    over a span small enough to count (booleans, integers, floats with integral
    values that the float type holds exactly), else None."""
    kind = y.dtype.kind
    if y.ndim != 1 or y.size == 0 or kind not in "biuf":
        return None
    if kind == "b":
        return y.view(np.uint8).astype(np.intp), 0
    lo, hi = y.min(), y.max()
    if kind == "f":
        exact = 2.0 ** (np.finfo(y.dtype).nmant + 1)  # integers beyond are spaced out
        if not (-exact <= lo and hi <= exact and lo == np.floor(lo)):  # also NaN
            return None
    span = float(hi) - float(lo) if kind == "f" else int(hi) - int(lo)
    if span > _COUNTING_SPAN_PER_SAMPLE * y.size + _COUNTING_SPAN_MIN:
        return None
    # in [0, span]: unsigned and float differences stay exact in y's dtype, signed
    # ones in int64 (int8's 127 - (-128) does not fit in int8)
    diff = y.astype(np.int64) - np.int64(lo) if kind == "i" else y - lo
    offsets = diff.astype(np.intp)
    if kind == "f" and not np.array_equal(offsets, diff):
        return None
    return offsets, lo


def unique_inverse(y):
    """The sorted distinct values of a 1-D array and each entry's index among them.

    The same as ``np.unique(y, return_inverse=True)``; labels that are integers
    (of an integer or float dtype) over a small span are counted, in linear
    time, instead of sorted.

    Parameters
    ----------
    y : ndarray of shape (n_samples,)

    Returns
    -------
    values : ndarray of shape (n_values,), y's dtype
    inverse : ndarray of shape (n_samples,), dtype intp

    Examples
    --------
    >>> values, inverse = unique_inverse(np.array([5, 3, 5, 9]))
    >>> values.tolist(), inverse.tolist()
    ([3, 5, 9], [1, 0, 1, 2])
    """
    y = np.asarray(y)
    found = _offsets(y)
    if found is None:
        values, inverse = np.unique(y, return_inverse=True)
        return values, inverse.astype(np.intp, copy=False).ravel()
    offsets, lo = found
    present = np.bincount(offsets) > 0
    values = np.flatnonzero(present).astype(y.dtype)
    if y.dtype.kind != "b":
        values += lo  # in y's dtype: exact

    rank = np.cumsum(present, dtype=np.intp) - 1
    return values, rank[offsets]


def _n_distinct(y):
    """The number of distinct values of y (any shape)."""
    flat = y.ravel()
    found = _offsets(flat)
    if found is None:
        return np.unique(flat).size
    return int(np.count_nonzero(np.bincount(found[0])))


def type_of_target(y):
    """Name the kind of target, as scikit-learn does.

    Parameters
    ----------
    y : array-like

    Returns
    -------
    str
        One of "binary", "multiclass", "continuous", "multiclass-multioutput",
        "continuous-multioutput", "multilabel-indicator", "unknown".

    Examples
    --------
    >>> type_of_target([0, 1, 1])
    'binary'
    >>> type_of_target([0.5, 1.5])
    'continuous'
    >>> type_of_target(["a", "b", "c"])
    'multiclass'
    """
    y = np.asarray(y) if not hasattr(y, "dtype") else np.asarray(y)
    if y.ndim > 2 or (y.dtype == object and y.size and not isinstance(y.flat[0], str)
                      and not np.isscalar(y.flat[0])):
        return "unknown"
    if y.ndim == 2 and y.shape[1] == 0:
        return "unknown"
    suffix = "-multioutput" if y.ndim == 2 and y.shape[1] > 1 else ""
    if y.ndim == 2 and y.shape[1] > 1 and y.dtype.kind in "biuf":
        values = np.unique(y)
        if values.size <= 2 and np.all(np.isin(values, [0, 1])):
            return "multilabel-indicator"
    if y.dtype.kind == "f":
        if not np.isfinite(y).all():
            return "continuous" + suffix
        if np.any(y != np.round(y)):
            return "continuous" + suffix
    if y.ndim == 2 and y.shape[1] > 1:
        return "multiclass" + suffix
    n_unique = _n_distinct(y) if y.size else 0
    if n_unique > 2:
        return "multiclass"
    return "binary"


def check_classification_targets(y):
    """Raise ValueError unless y is a classification target.

    Parameters
    ----------
    y : array-like
    """
    kind = type_of_target(y)
    if kind not in ("binary", "multiclass", "multiclass-multioutput", "multilabel-indicator"):
        raise ValueError(
            f"Unknown label type: {kind}. Maybe you are trying to fit a classifier, which "
            "expects discrete classes on a regression target with continuous values."
        )


def encode_labels(y, *, min_classes=2):
    """Sorted class labels and the index of each sample's class.

    Parameters
    ----------
    y : ndarray of shape (n_samples,)
        Any sortable labels (numbers, strings).
    min_classes : int, default=2
        Raise if fewer distinct classes are present.

    Returns
    -------
    classes : ndarray of shape (n_classes,)
    y_index : ndarray of shape (n_samples,), dtype intp

    Examples
    --------
    >>> classes, idx = encode_labels(["b", "a", "b"])
    >>> classes.tolist(), idx.tolist()
    (['a', 'b'], [1, 0, 1])
    """
    y = np.asarray(y)
    check_classification_targets(y)
    classes, y_index = unique_inverse(y)
    if classes.size < min_classes:
        raise ValueError(
            f"The target y needs samples of at least {min_classes} classes, but the data "
            f"contains only one class: {classes[0]!r}."
            if classes.size == 1
            else f"The target y needs samples of at least {min_classes} classes."
        )
    return classes, y_index


def compute_class_weight(class_weight, classes, y_index):
    """Weight of each class from a ``class_weight`` parameter.

    Parameters
    ----------
    class_weight : dict, "balanced" or None
        A dict maps class labels to weights (absent classes get 1);
        "balanced" gives ``n_samples / (n_classes * count)``.
    classes : ndarray of shape (n_classes,)
    y_index : ndarray of shape (n_samples,)
        Encoded labels.

    Returns
    -------
    ndarray of shape (n_classes,)

    Examples
    --------
    >>> compute_class_weight("balanced", np.array([0, 1]), np.array([0, 0, 0, 1]))
    array([0.66666667, 2.        ])
    """
    n_classes = len(classes)
    if class_weight is None:
        return np.ones(n_classes)
    if isinstance(class_weight, str):
        if class_weight != "balanced":
            raise ValueError(
                f"class_weight must be a dict, 'balanced' or None; got {class_weight!r}"
            )
        counts = np.bincount(y_index, minlength=n_classes).astype(np.float64)
        with np.errstate(divide="ignore"):
            return np.where(counts > 0, len(y_index) / (n_classes * counts), 0.0)
    weights = np.ones(n_classes)
    known = {c: i for i, c in enumerate(classes.tolist())}
    for label, w in class_weight.items():
        if label not in known:
            raise ValueError(f"The class label {label!r} in class_weight is not in y.")
        weights[known[label]] = float(w)
    return weights


def as_2d_target(y):
    """A target as a 2-D array, and whether it was 1-D.

    Parameters
    ----------
    y : ndarray of shape (n_samples,) or (n_samples, n_targets)

    Returns
    -------
    Y : ndarray of shape (n_samples, n_targets)
        A view of ``y`` with one column when ``y`` is 1-D, else ``y`` itself.
    was_1d : bool
        Whether ``y`` was 1-D (so predictions should be raveled back).

    Examples
    --------
    >>> Y, was_1d = as_2d_target(np.array([1.0, 2.0]))
    >>> Y.shape, was_1d
    ((2, 1), True)
    """
    if y.ndim == 1:
        return y.reshape(-1, 1), True
    return y, False


def check_partial_fit_classes(estimator, classes):
    """Set ``classes_`` on the first ``partial_fit`` call, check it on later ones.

    Parameters
    ----------
    estimator : estimator instance
        Gets ``classes_`` (the sorted unique ``classes``) on the first call.
    classes : array-like or None
        Required on the first call; when given later, it must be the same.

    Returns
    -------
    bool
        Whether this was the first call.

    Examples
    --------
    >>> class Est:
    ...     pass
    >>> est = Est()
    >>> check_partial_fit_classes(est, [2, 1]), est.classes_
    (True, array([1, 2]))
    >>> check_partial_fit_classes(est, None)
    False
    """
    first_call = not hasattr(estimator, "classes_")
    if classes is None:
        if first_call:
            raise ValueError("classes must be passed on the first call to partial_fit.")
        return False
    classes = np.unique(np.asarray(classes))
    if first_call:
        estimator.classes_ = classes
    elif not np.array_equal(estimator.classes_, classes):
        raise ValueError(
            f"`classes={classes!r}` is not the same as on last call to partial_fit, "
            f"was: {estimator.classes_!r}"
        )
    return first_call
