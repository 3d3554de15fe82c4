"""Ranking scores: the ROC curve and the area under it (seed 000 §2).

The binary AUC is the trapezoidal area under the ROC curve built over the
distinct score values (ties give the diagonal segment, i.e. half credit).
Multiclass AUC is one-vs-rest (macro or prevalence-weighted) or the
one-vs-one average of Hand and Till (2001).
"""

from itertools import combinations

import numpy as np

from ..utils._targets import type_of_target
from ..utils.validation import check_consistent_length, column_or_1d

__all__ = ["auc", "average_precision_score", "precision_recall_curve", "roc_auc_score",
           "roc_curve"]


def auc(x, y):
    """Area under a curve by the trapezoidal rule (x monotonic).

    Parameters
    ----------
    x, y : array-like of shape (n,)

    Returns
    -------
    float

    Examples
    --------
    >>> auc([0, 0.5, 1], [0, 1, 1])
    0.75
    """
    x = column_or_1d(x, dtype=np.float64)
    y = column_or_1d(y, dtype=np.float64)
    check_consistent_length(x, y)
    if x.shape[0] < 2:
        raise ValueError(
            "At least 2 points are needed to compute area under curve, but x.shape = "
            f"{x.shape[0]}"
        )
    dx = np.diff(x)
    direction = 1
    if np.any(dx < 0):
        if np.all(dx <= 0):
            direction = -1
        else:
            raise ValueError(f"x is neither increasing nor decreasing : {x}.")
    return float(direction * np.trapezoid(y, x))


def _binary_counts(y_true, y_score, sample_weight):
    """Cumulative false and true positives at each distinct threshold (descending)."""
    order = np.argsort(y_score, kind="mergesort")[::-1]
    y_score = y_score[order]
    y_true = y_true[order]
    w = np.ones_like(y_score) if sample_weight is None else sample_weight[order]
    distinct = np.flatnonzero(np.diff(y_score))
    ends = np.r_[distinct, y_true.size - 1]
    tps = np.cumsum(y_true * w)[ends]
    fps = np.cumsum((1 - y_true) * w)[ends]
    return fps, tps, y_score[ends]


def roc_curve(y_true, y_score, *, pos_label=None, sample_weight=None, drop_intermediate=True):
    """Receiver operating characteristic: false and true positive rates per threshold.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels.
    y_score : array-like of shape (n_samples,)
        Scores, higher meaning more likely positive.
    pos_label : label, optional
        The positive class; default 1 for {0, 1} or {-1, 1} labels.
    sample_weight : array-like, optional
    drop_intermediate : bool, default=True
        Drop thresholds on straight segments of the curve.

    Returns
    -------
    fpr, tpr, thresholds : ndarray
        ``thresholds[0]`` is ``inf`` (nothing predicted positive).

    Examples
    --------
    >>> fpr, tpr, thr = roc_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> fpr.tolist(), tpr.tolist()
    ([0.0, 0.0, 0.5, 0.5, 1.0], [0.0, 0.5, 0.5, 1.0, 1.0])
    """
    y_true = column_or_1d(y_true)
    y_score = column_or_1d(y_score, dtype=np.float64)
    check_consistent_length(y_true, y_score)
    w = None if sample_weight is None else column_or_1d(sample_weight, dtype=np.float64)
    y01 = _binarize(y_true, pos_label)
    fps, tps, thr = _binary_counts(y01, y_score, w)
    if drop_intermediate and len(fps) > 2:
        keep = np.r_[True, np.logical_or(np.diff(fps, 2), np.diff(tps, 2)), True]
        fps, tps, thr = fps[keep], tps[keep], thr[keep]
    fps = np.r_[0.0, fps]
    tps = np.r_[0.0, tps]
    thr = np.r_[np.inf, thr]
    import warnings

    if fps[-1] <= 0:
        warnings.warn("No negative samples in y_true, false positive value should be "
                      "meaningless", UserWarning, stacklevel=2)
        fpr = np.full(fps.shape, np.nan)
    else:
        fpr = fps / fps[-1]
    if tps[-1] <= 0:
        warnings.warn("No positive samples in y_true, true positive value should be "
                      "meaningless", UserWarning, stacklevel=2)
        tpr = np.full(tps.shape, np.nan)
    else:
        tpr = tps / tps[-1]
    return fpr, tpr, thr


def _binarize(y_true, pos_label):
    classes = np.unique(y_true)
    if pos_label is None:
        if len(classes) > 2:
            raise ValueError("y_true takes value in more than two classes; multiclass format "
                             "is not supported")
        if classes.dtype.kind in "OUS" or not (
            np.array_equal(classes, [0, 1]) or np.array_equal(classes, [-1, 1])
            or np.array_equal(classes, [0]) or np.array_equal(classes, [1])
            or np.array_equal(classes, [-1])
        ):
            raise ValueError(
                f"y_true takes value in {set(classes.tolist())} and pos_label is not "
                "specified: either make y_true take value in {0, 1} or {-1, 1} or pass "
                "pos_label explicitly."
            )
        pos_label = 1
    return (y_true == pos_label).astype(np.float64)


def _binary_auc(y01, y_score, sample_weight, max_fpr=None):
    if len(np.unique(y01)) != 2:
        raise ValueError(
            "Only one class is present in y_true. ROC AUC score is not defined in that case."
        )
    fps, tps, _ = _binary_counts(y01, y_score, sample_weight)
    fpr = np.r_[0.0, fps] / fps[-1]
    tpr = np.r_[0.0, tps] / tps[-1]
    if max_fpr is None or max_fpr == 1:
        return float(np.trapezoid(tpr, fpr))
    if not 0 < max_fpr <= 1:
        raise ValueError(f"Expected max_fpr in range (0, 1], got: {max_fpr!r}")
    stop = np.searchsorted(fpr, max_fpr, side="right")
    x_interp = [fpr[stop - 1], fpr[stop]]
    y_interp = [tpr[stop - 1], tpr[stop]]
    tpr = np.r_[tpr[:stop], np.interp(max_fpr, x_interp, y_interp)]
    fpr = np.r_[fpr[:stop], max_fpr]
    partial = np.trapezoid(tpr, fpr)
    min_area = 0.5 * max_fpr**2
    max_area = max_fpr
    return float(0.5 * (1 + (partial - min_area) / (max_area - min_area)))


def roc_auc_score(y_true, y_score, *, average="macro", sample_weight=None, max_fpr=None,
                  multi_class="raise", labels=None):
    """Area under the ROC curve.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_labels)
        Binary, multiclass or multilabel-indicator labels.
    y_score : array-like of shape (n_samples,) or (n_samples, n_classes)
        Binary: the score of the larger label (a 2-column probability array
        is also accepted, its second column is used). Multiclass:
        probabilities summing to one, columns in sorted label order.
    average : {"macro", "weighted", "micro", None}, default="macro"
        Averaging of per-class (multilabel, ovr) scores.
    sample_weight : array-like, optional
    max_fpr : float in (0, 1], optional
        Binary only: standardised partial AUC up to this false positive rate
        (McClish correction).
    multi_class : {"raise", "ovr", "ovo"}, default="raise"
        Required for a multiclass target.
    labels : array-like, optional
        Multiclass: the labels indexing the columns of ``y_score``.

    Returns
    -------
    float

    Examples
    --------
    >>> roc_auc_score([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    0.75
    """
    y_true_arr = np.asarray(y_true)
    y_score = np.asarray(y_score, dtype=np.float64)
    check_consistent_length(y_true_arr, y_score)
    w = None if sample_weight is None else column_or_1d(sample_weight, dtype=np.float64)
    kind = type_of_target(y_true_arr)
    if kind == "binary" and y_true_arr.ndim == 2:
        kind = "multilabel-indicator" if y_true_arr.shape[1] > 1 else kind
    if kind == "multiclass" or (kind == "binary" and y_score.ndim == 2 and y_score.shape[1] > 2):
        return _multiclass_auc(column_or_1d(y_true_arr), y_score, labels, multi_class,
                               average, w, max_fpr)
    if kind == "binary":
        y_true_1d = column_or_1d(y_true_arr)
        classes = np.unique(y_true_1d)
        if len(classes) > 2:
            raise ValueError("Multiclass format is not supported")
        if y_score.ndim == 2:
            if y_score.shape[1] == 2:
                y_score = y_score[:, 1]
            elif y_score.shape[1] == 1:
                y_score = y_score[:, 0]
        y01 = (y_true_1d == classes[-1]).astype(np.float64)
        if len(classes) == 1:
            y01 = np.zeros_like(y01)
        return _binary_auc(y01, y_score, w, max_fpr)
    if kind == "multilabel-indicator":
        if max_fpr is not None and max_fpr != 1:
            raise ValueError("Partial AUC computation not available in multilabel setting.")
        yt = y_true_arr.astype(np.float64)
        if average == "micro":
            ww = None if w is None else np.repeat(w, yt.shape[1])
            return _binary_auc(yt.ravel(), y_score.ravel(), ww)
        scores = np.array([_binary_auc(yt[:, j], y_score[:, j], w) for j in
                           range(yt.shape[1])])
        return _average_scores(scores, average, yt.sum(axis=0) if w is None else
                               (yt * w[:, None]).sum(axis=0))
    raise ValueError(f"{kind} format is not supported")


def _average_scores(scores, average, support):
    if average is None:
        return scores
    if average == "macro":
        return float(np.mean(scores))
    if average == "weighted":
        return float(np.average(scores, weights=support))
    raise ValueError(f"average must be one of ('micro', 'macro', 'weighted', None); got "
                     f"{average!r}")


def _multiclass_auc(y_true, y_score, labels, multi_class, average, w, max_fpr):
    if multi_class == "raise":
        raise ValueError("multi_class must be in ('ovo', 'ovr')")
    if multi_class not in ("ovr", "ovo"):
        raise ValueError(
            f"multi_class='{multi_class}' is not supported for multiclass ROC AUC, "
            "multi_class must be in ('ovo', 'ovr')"
        )
    if max_fpr is not None and max_fpr != 1.0:
        raise ValueError(
            "Partial AUC computation not available in multiclass setting, 'max_fpr' must be "
            f"set to `None`, received `max_fpr={max_fpr}` instead"
        )
    if average not in ("macro", "weighted", None) or (multi_class == "ovo" and average is None):
        raise ValueError(f"average must be one of ('macro', 'weighted') for multiclass "
                         f"problems; got {average!r}")
    if y_score.ndim != 2:
        raise ValueError("y_score must be 2-D (n_samples, n_classes) for a multiclass target")
    if not np.allclose(y_score.sum(axis=1), 1.0):
        raise ValueError(
            "Target scores need to be probabilities for multiclass roc_auc, i.e. they should "
            "sum up to 1.0 over classes"
        )
    if labels is not None:
        classes = np.asarray(labels)
        if len(np.unique(classes)) != len(classes):
            raise ValueError("Parameter 'labels' must be unique")
        if not np.array_equal(np.sort(classes), classes):
            raise ValueError("Parameter 'labels' must be ordered")
        if len(classes) != y_score.shape[1]:
            raise ValueError(
                f"Number of given labels, {len(classes)}, not equal to the number of columns "
                f"in 'y_score', {y_score.shape[1]}"
            )
        if not np.isin(y_true, classes).all():
            raise ValueError("'y_true' contains labels not in parameter 'labels'")
    else:
        classes = np.unique(y_true)
        if len(classes) != y_score.shape[1]:
            raise ValueError(
                "Number of classes in y_true not equal to the number of columns in 'y_score'"
            )
    idx = np.searchsorted(classes, y_true)
    k = len(classes)
    if multi_class == "ovr":
        ww = np.ones(len(y_true)) if w is None else w
        scores = np.array([_binary_auc((idx == j).astype(np.float64), y_score[:, j], w)
                           for j in range(k)])
        support = np.array([ww[idx == j].sum() for j in range(k)])
        return _average_scores(scores, average, support)
    if w is not None:
        raise ValueError("sample_weight is not supported for multiclass one-vs-one ROC AUC, "
                         "'sample_weight' must be None in this case.")
    pair_scores, prevalence = [], []
    for a, b in combinations(range(k), 2):
        mask = (idx == a) | (idx == b)
        ya = (idx[mask] == a).astype(np.float64)
        auc_ab = _binary_auc(ya, y_score[mask, a], None)
        auc_ba = _binary_auc(1 - ya, y_score[mask, b], None)
        pair_scores.append(0.5 * (auc_ab + auc_ba))
        prevalence.append(mask.mean())
    if average == "weighted":
        return float(np.average(pair_scores, weights=prevalence))
    return float(np.mean(pair_scores))


def precision_recall_curve(y_true, y_score, *, pos_label=None, sample_weight=None,
                           drop_intermediate=False):
    """Precision and recall at every distinct score threshold.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels.
    y_score : array-like of shape (n_samples,)
    pos_label : label, optional
        Default 1 for {0, 1} or {-1, 1} labels.
    sample_weight : array-like, optional
    drop_intermediate : bool, default=False
        Drop thresholds where the precision-recall curve does not turn.

    Returns
    -------
    precision, recall : ndarray
        In order of increasing threshold, ending with precision 1, recall 0.
    thresholds : ndarray

    Examples
    --------
    >>> p, r, t = precision_recall_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> p.round(3).tolist(), r.tolist()
    ([0.5, 0.667, 0.5, 1.0, 1.0], [1.0, 1.0, 0.5, 0.5, 0.0])
    """
    y_true = column_or_1d(y_true)
    y_score = column_or_1d(y_score, dtype=np.float64)
    check_consistent_length(y_true, y_score)
    w = None if sample_weight is None else column_or_1d(sample_weight, dtype=np.float64)
    fps, tps, thr = _binary_counts(_binarize(y_true, pos_label), y_score, w)
    if drop_intermediate and len(fps) > 2:
        # keep a point only where the true positive count changes next to it
        keep = np.concatenate([[True], (np.diff(tps[:-1]) != 0) | (np.diff(tps[1:]) != 0),
                               [True]])
        fps, tps, thr = fps[keep], tps[keep], thr[keep]
    ps = tps + fps
    precision = np.divide(tps, ps, out=np.zeros_like(tps), where=ps != 0)
    if tps[-1] == 0:
        import warnings

        warnings.warn("No positive class found in y_true, recall is set to one for all "
                      "thresholds.", UserWarning, stacklevel=2)
        recall = np.ones_like(tps)
    else:
        recall = tps / tps[-1]
    return (np.r_[precision[::-1], 1.0], np.r_[recall[::-1], 0.0], thr[::-1])


def average_precision_score(y_true, y_score, *, average="macro", pos_label=1,
                            sample_weight=None):
    """Average precision: ``sum_n (R_n - R_{n-1}) P_n`` over thresholds (no interpolation).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_labels)
        Binary labels, or a multilabel indicator (or multiclass labels with a
        2-D ``y_score``, one-vs-rest).
    y_score : array-like
    average : {"macro", "weighted", "micro", None}, default="macro"
    pos_label : label, default=1
    sample_weight : array-like, optional

    Returns
    -------
    float or ndarray

    Examples
    --------
    >>> round(average_precision_score([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]), 4)
    0.8333
    """
    y_true_arr = np.asarray(y_true)
    y_score = np.asarray(y_score, dtype=np.float64)
    w = None if sample_weight is None else column_or_1d(sample_weight, dtype=np.float64)

    def binary_ap(yt, ys, pl):
        precision, recall, _ = precision_recall_curve(yt, ys, pos_label=pl, sample_weight=w)
        return float(max(0.0, -np.sum(np.diff(recall) * precision[:-1])))

    kind = type_of_target(y_true_arr)
    if kind == "binary" and y_true_arr.ndim == 1:
        present = np.unique(y_true_arr)
        if len(present) == 2 and pos_label not in present.tolist():
            raise ValueError(
                f"pos_label={pos_label} is not a valid label. It should be one of {present}"
            )
        return binary_ap(y_true_arr, y_score.ravel() if y_score.ndim == 2 and
                         y_score.shape[1] == 1 else y_score, pos_label)
    if kind == "multiclass":
        classes = np.unique(y_true_arr)
        y_true_arr = (y_true_arr[:, None] == classes[None, :]).astype(int)
    if y_true_arr.ndim != 2:
        raise ValueError(f"{kind} format is not supported")
    if average == "micro":
        ww = None if w is None else np.repeat(w, y_true_arr.shape[1])
        precision, recall, _ = precision_recall_curve(y_true_arr.ravel(), y_score.ravel(),
                                                      sample_weight=ww)
        return float(max(0.0, -np.sum(np.diff(recall) * precision[:-1])))
    scores = np.array([binary_ap(y_true_arr[:, j], y_score[:, j], 1)
                       for j in range(y_true_arr.shape[1])])
    support = y_true_arr.sum(axis=0) if w is None else (y_true_arr * w[:, None]).sum(axis=0)
    return _average_scores(scores, average, support)
