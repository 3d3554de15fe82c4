"""More classification scores: Jaccard index, likelihood ratios, top-k accuracy and
the D² versions of log loss and Brier score, with scikit-learn's names and conventions.
"""

import warnings

import numpy as np

from ..exceptions import UndefinedMetricWarning
from ..utils._targets import type_of_target
from ..utils.validation import check_consistent_length, column_or_1d
from ._classification import (
    _average,
    _check_targets,
    _divide,
    _per_label_counts,
    _weights,
    brier_score_loss,
    confusion_matrix,
    log_loss,
)

__all__ = [
    "class_likelihood_ratios",
    "d2_brier_score",
    "d2_log_loss_score",
    "jaccard_score",
    "top_k_accuracy_score",
]


def jaccard_score(y_true, y_pred, *, labels=None, pos_label=1, average="binary",
                  sample_weight=None, zero_division="warn"):
    """Jaccard index ``|true ∩ predicted| / |true ∪ predicted|`` per label, averaged.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,) or label indicator matrices
    labels : array-like, optional
    pos_label : label, default=1
        The positive class when ``average="binary"``.
    average : {"binary", "micro", "macro", "weighted", "samples"} or None
    sample_weight : array-like of shape (n_samples,), optional
    zero_division : "warn", 0.0, 1.0 or np.nan, default="warn"
        The score of a label with an empty union.

    Returns
    -------
    float or ndarray

    Examples
    --------
    >>> round(jaccard_score([0, 1, 1, 1], [1, 1, 1, 0]), 4)
    0.5
    """
    kind, counts = _per_label_counts(y_true, y_pred, labels, pos_label, average, sample_weight)
    if kind == "samples":
        yt, yp, w = counts
        inter = (yt & yp).sum(axis=1)
        union = (yt | yp).sum(axis=1)
        per_sample = _divide(inter, union, zero_division, "Jaccard", True)
        return float(np.average(per_sample, weights=w))
    tp, pred, true = counts
    union = pred + true - tp
    if average == "micro":
        return float(_divide(tp.sum(), union.sum(), zero_division, "Jaccard", True))
    scores = _divide(tp, union, zero_division, "Jaccard", True)
    if average is None:
        return scores
    if average == "binary":
        return float(scores[0])
    return float(_average(scores, true if average == "weighted" else None))


def class_likelihood_ratios(y_true, y_pred, *, labels=None, sample_weight=None,
                            replace_undefined_by=np.nan):
    """Positive and negative likelihood ratios of a binary classification.

    ``LR+ = sensitivity / (1 - specificity)``, ``LR- = (1 - sensitivity) /
    specificity``; the positive class is the second of ``labels`` (or the
    larger label).

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
    labels : array-like of two labels, optional
    sample_weight : array-like of shape (n_samples,), optional
    replace_undefined_by : np.nan, 1.0 or dict, default=np.nan
        Value of a ratio whose denominator is 0 (no false positives for
        LR+, no true negatives for LR-); 1.0 means ``{"LR+": 1.0, "LR-":
        1.0}``.

    Returns
    -------
    (float, float)

    Examples
    --------
    >>> class_likelihood_ratios([0, 1, 0, 1, 0], [1, 1, 0, 0, 0])
    (1.5, 0.75)
    """
    kind, y_true, y_pred = _check_targets(y_true, y_pred)
    if kind != "binary":
        raise ValueError(
            "class_likelihood_ratios only supports binary classification problems, got "
            f"targets of type: {kind}"
        )
    if isinstance(replace_undefined_by, dict):
        if set(replace_undefined_by) != {"LR+", "LR-"}:
            raise ValueError("replace_undefined_by must be {'LR+': value, 'LR-': value}.")
        undefined_pos, undefined_neg = replace_undefined_by["LR+"], replace_undefined_by["LR-"]
    else:
        undefined_pos = undefined_neg = float(replace_undefined_by)
    cm = confusion_matrix(y_true, y_pred, labels=labels, sample_weight=sample_weight)
    tn, fp, fn, tp = (float(v) for v in cm.ravel())
    support_pos, support_neg = tp + fn, tn + fp
    if support_pos == 0:
        warnings.warn("No samples of the positive class are present in `y_true`. "
                      "`positive_likelihood_ratio` and `negative_likelihood_ratio` are both "
                      "set to be `np.nan`.", UndefinedMetricWarning, stacklevel=2)
        return float("nan"), float("nan")
    if fp == 0:
        warnings.warn("`positive_likelihood_ratio` is ill-defined (no false positives).",
                      UndefinedMetricWarning, stacklevel=2)
        positive = float(undefined_pos)
    else:
        positive = tp * support_neg / (fp * support_pos)
    if tn == 0:
        warnings.warn("`negative_likelihood_ratio` is ill-defined (no true negatives).",
                      UndefinedMetricWarning, stacklevel=2)
        negative = float(undefined_neg)
    else:
        negative = fn * support_neg / (tn * support_pos)
    return float(positive), float(negative)


def positive_likelihood_ratio(y_true, y_pred):
    """LR+ with undefined values set to 1.0 (the ``positive_likelihood_ratio`` scorer)."""
    return class_likelihood_ratios(y_true, y_pred, replace_undefined_by=1.0)[0]


def negative_likelihood_ratio(y_true, y_pred):
    """LR- with undefined values set to 1.0 (the ``neg_negative_likelihood_ratio`` scorer)."""
    return class_likelihood_ratios(y_true, y_pred, replace_undefined_by=1.0)[1]


def top_k_accuracy_score(y_true, y_score, *, k=2, normalize=True, sample_weight=None,
                         labels=None):
    """Share of samples whose true class is among the ``k`` highest scores.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
    y_score : array-like of shape (n_samples,) or (n_samples, n_classes)
        Binary: the score of the positive class; multiclass: one column per
        class in the sorted order of ``labels`` (or of the labels in
        ``y_true``).
    k : int, default=2
    normalize : bool, default=True
        The (weighted) share; otherwise the (weighted) count.
    sample_weight : array-like of shape (n_samples,), optional
    labels : array-like, optional

    Returns
    -------
    float

    Examples
    --------
    >>> top_k_accuracy_score([0, 1, 2], [[0.5, 0.2, 0.3], [0.3, 0.4, 0.3], [0.6, 0.3, 0.1]],
    ...                      k=2)
    0.6666666666666666
    """
    y_true = column_or_1d(y_true)
    y_score = np.asarray(y_score, dtype=np.float64)
    check_consistent_length(y_true, y_score)
    kind = type_of_target(y_true)
    if kind == "binary" and labels is not None and len(labels) > 2:
        kind = "multiclass"
    if kind not in ("binary", "multiclass"):
        raise ValueError(f"y type must be 'binary' or 'multiclass', got '{kind}' instead.")
    classes = np.unique(y_true) if labels is None else np.asarray(labels)
    w = _weights(sample_weight, len(y_true))
    if kind == "binary":
        if y_score.ndim == 2 and y_score.shape[1] != 1:
            raise ValueError(
                f"`y_true` is binary while y_score is 2d with {y_score.shape[1]} classes. If "
                "`y_true` does not contain all the labels, `labels` must be provided."
            )
        y_score = y_score.ravel()
        encoded = np.searchsorted(classes, y_true)
        if k == 1:
            threshold = 0.5 if y_score.min() >= 0 and y_score.max() <= 1 else 0.0
            hits = (y_score > threshold).astype(np.int64) == encoded
        else:
            hits = np.ones(len(y_true), dtype=bool)
    else:
        if y_score.ndim != 2 or y_score.shape[1] != len(classes):
            raise ValueError(
                f"Number of classes in 'y_true' ({len(classes)}) not equal to the number of "
                f"classes in 'y_score' ({y_score.shape[1] if y_score.ndim == 2 else 1})."
            )
        if k >= len(classes):
            warnings.warn(f"'k' ({k}) greater than or equal to 'n_classes' ({len(classes)}) "
                          "will result in a perfect score and is therefore meaningless.",
                          UndefinedMetricWarning, stacklevel=2)
        encoded = np.searchsorted(classes, y_true)
        ranked = np.argsort(y_score, axis=1, kind="mergesort")[:, ::-1][:, :k]
        hits = (ranked == encoded[:, None]).any(axis=1)
    if normalize:
        return float(np.average(hits, weights=w))
    return float(np.sum(hits if w is None else hits * w))


def _prior(y_true, sample_weight):
    w = np.ones(len(y_true)) if sample_weight is None else np.asarray(sample_weight, float)
    _, index = np.unique(y_true, return_inverse=True)
    counts = np.bincount(index.ravel(), weights=w)
    return counts / w.sum()


def d2_log_loss_score(y_true, y_pred, *, sample_weight=None, labels=None):
    """Share of log loss explained: ``1 - log_loss(model) / log_loss(class frequencies)``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
    y_pred : array-like of shape (n_samples, n_classes) or (n_samples,)
    sample_weight : array-like of shape (n_samples,), optional
    labels : array-like, optional

    Returns
    -------
    float

    Examples
    --------
    >>> round(d2_log_loss_score([0, 1, 1], [[0.9, 0.1], [0.2, 0.8], [0.3, 0.7]]), 4)
    0.6412
    """
    y_true = column_or_1d(y_true)
    if len(y_true) < 2:
        warnings.warn("D^2 score is not well-defined with less than two samples.",
                      UndefinedMetricWarning, stacklevel=2)
        return float("nan")
    numerator = log_loss(y_true, y_pred, sample_weight=sample_weight, labels=labels)
    null = np.tile(_prior(y_true, sample_weight), (len(y_true), 1))
    denominator = log_loss(y_true, null, sample_weight=sample_weight, labels=labels)
    return float(1.0 - numerator / denominator)


def d2_brier_score(y_true, y_proba, *, sample_weight=None, pos_label=None, labels=None):
    """Share of Brier score explained: ``1 - Brier(model) / Brier(class frequencies)``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
    y_proba : array-like of shape (n_samples,) or (n_samples, n_classes)
    sample_weight : array-like of shape (n_samples,), optional
    pos_label : label, optional
    labels : array-like, optional

    Returns
    -------
    float

    Examples
    --------
    >>> round(d2_brier_score([0, 1, 1, 0], [0.1, 0.9, 0.8, 0.3]), 4)
    0.85
    """
    y_true = column_or_1d(y_true)
    y_proba = np.asarray(y_proba, dtype=np.float64)
    if len(y_true) < 2:
        warnings.warn("D^2 score is not well-defined with less than two samples.",
                      UndefinedMetricWarning, stacklevel=2)
        return float("nan")
    kwargs = {"sample_weight": sample_weight, "pos_label": pos_label, "labels": labels}
    numerator = brier_score_loss(y_true, y_proba, **kwargs)
    classes = np.unique(y_true if labels is None else np.asarray(labels))
    w = np.ones(len(y_true)) if sample_weight is None else np.asarray(sample_weight, float)
    prior = np.array([w[y_true == c].sum() for c in classes]) / w.sum()
    if y_proba.ndim == 1:
        positive = classes[-1] if pos_label is None else pos_label
        null = np.full(len(y_true), prior[np.flatnonzero(classes == positive)[0]])
    else:
        null = np.tile(prior, (len(y_true), 1))
    denominator = brier_score_loss(y_true, null, **kwargs)
    if denominator == 0:
        return 1.0 if numerator == 0 else 0.0
    return float(1.0 - numerator / denominator)
