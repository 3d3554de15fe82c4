"""Classification scores: accuracy, misclassification rate, confusion matrix,
precision / recall / F, balanced accuracy and log loss (seed 000 §2).

Every function takes ``y_true`` first and the prediction second, accepts any
sortable labels (numbers or strings) and an optional ``sample_weight``, with
the same names, defaults and edge-case conventions as scikit-learn.
"""

import warnings

import numpy as np

from ..exceptions import UndefinedMetricWarning
from ..utils._targets import type_of_target
from ..utils.validation import check_consistent_length, column_or_1d

__all__ = [
    "UndefinedMetricWarning",
    "accuracy_score",
    "balanced_accuracy_score",
    "brier_score_loss",
    "classification_report",
    "confusion_matrix",
    "f1_score",
    "fbeta_score",
    "log_loss",
    "matthews_corrcoef",
    "precision_recall_fscore_support",
    "precision_score",
    "recall_score",
    "zero_one_loss",
]


def _weights(sample_weight, n):
    if sample_weight is None:
        return None
    w = column_or_1d(sample_weight, dtype=np.float64, input_name="sample_weight")
    if w.shape[0] != n:
        raise ValueError(
            "Found input variables with inconsistent numbers of samples: "
            f"[{n}, {w.shape[0]}]"
        )
    return w


def _check_targets(y_true, y_pred):
    """Validate a pair of classification targets and name their common type.

    Returns
    -------
    kind : {"binary", "multiclass", "multilabel-indicator"}
    y_true, y_pred : ndarray
    """
    check_consistent_length(y_true, y_pred)
    y_true, y_pred = np.asarray(y_true), np.asarray(y_pred)
    kinds = {type_of_target(y_true), type_of_target(y_pred)}
    if kinds == {"binary", "multiclass"}:
        kinds = {"multiclass"}
    if len(kinds) > 1:
        raise ValueError(
            f"Classification metrics can't handle a mix of {' and '.join(sorted(kinds))} "
            "targets"
        )
    kind = kinds.pop()
    if kind not in ("binary", "multiclass", "multilabel-indicator"):
        raise ValueError(f"{kind} is not supported")
    if kind in ("binary", "multiclass"):
        y_true = column_or_1d(y_true)
        y_pred = column_or_1d(y_pred)
        if kind == "binary":
            try:
                labels = np.union1d(y_true, y_pred)
            except TypeError as exc:
                raise TypeError(
                    "Labels in y_true and y_pred should be of the same type. Got "
                    f"y_true={np.unique(y_true)} and y_pred={np.unique(y_pred)}. Make sure "
                    "that the predictions provided by the classifier coincides with the true "
                    "labels."
                ) from exc
            if len(labels) > 2:
                kind = "multiclass"
    return kind, y_true, y_pred


def accuracy_score(y_true, y_pred, *, normalize=True, sample_weight=None):
    """Fraction (or count) of correct predictions.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,) or (n_samples, n_labels)
        A multilabel row counts as correct only if all its labels are.
    normalize : bool, default=True
        Return the fraction; otherwise the (weighted) count.
    sample_weight : array-like of shape (n_samples,), optional

    Returns
    -------
    float

    Examples
    --------
    >>> accuracy_score([0, 1, 1, 0], [0, 1, 0, 0])
    0.75
    """
    y_true = np.asarray(y_true)
    y_pred = np.asarray(y_pred)
    check_consistent_length(y_true, y_pred)
    if y_true.ndim == 2 and y_true.shape[1] == 1 and y_pred.ndim == 1:
        y_true = y_true[:, 0]
    if y_pred.ndim == 2 and y_pred.shape[1] == 1 and y_true.ndim == 1:
        y_pred = y_pred[:, 0]
    correct = y_true == y_pred
    if correct.ndim > 1:
        correct = correct.all(axis=1)
    w = _weights(sample_weight, correct.shape[0])
    if normalize:
        return float(np.average(correct, weights=w))
    return float(correct.sum() if w is None else np.dot(correct, w))


def zero_one_loss(y_true, y_pred, *, normalize=True, sample_weight=None):
    """Misclassification rate (or count): one minus the accuracy.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
    normalize : bool, default=True
        Return the fraction; otherwise the (weighted) number of errors.
    sample_weight : array-like of shape (n_samples,), optional

    Returns
    -------
    float

    Examples
    --------
    >>> zero_one_loss([0, 1, 1, 0], [0, 1, 0, 0])
    0.25
    """
    score = accuracy_score(y_true, y_pred, normalize=normalize, sample_weight=sample_weight)
    if normalize:
        return 1.0 - score
    total = len(np.asarray(y_true)) if sample_weight is None else np.sum(sample_weight)
    return float(total - score)


def _labels_and_index(y_true, y_pred, labels):
    """Label set and the index of each sample's true and predicted label (-1: absent)."""
    if labels is None:
        labels = np.union1d(y_true, y_pred)
    else:
        labels = np.asarray(labels)
        if labels.size == 0:
            raise ValueError("'labels' should contain at least one label.")
        if not np.isin(labels, y_true).any() and y_true.size:
            raise ValueError("At least one label specified must be in y_true")
    order = np.argsort(labels, kind="stable")
    sorted_labels = labels[order]

    def index(y):
        pos = np.searchsorted(sorted_labels, y)
        pos = np.clip(pos, 0, len(labels) - 1)
        found = sorted_labels[pos] == y
        return np.where(found, order[pos], -1)

    return labels, index(y_true), index(y_pred)


def confusion_matrix(y_true, y_pred, *, labels=None, sample_weight=None, normalize=None):
    """Confusion matrix C: ``C[i, j]`` counts samples of class i predicted as j.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
    labels : array-like of shape (n_classes,), optional
        Rows and columns, in this order; default all labels, sorted.
    sample_weight : array-like of shape (n_samples,), optional
    normalize : {"true", "pred", "all"}, default=None
        Divide by row sums, column sums or the total.

    Returns
    -------
    ndarray of shape (n_classes, n_classes)
        Integers without weights or normalization, floats otherwise.

    Examples
    --------
    >>> confusion_matrix(["a", "b", "b"], ["a", "a", "b"])
    array([[1, 0],
           [1, 1]])
    """
    kind, y_true, y_pred = _check_targets(y_true, y_pred)
    if kind not in ("binary", "multiclass"):
        raise ValueError(f"{kind} is not supported")
    if normalize not in ("true", "pred", "all", None):
        raise ValueError("normalize must be one of {'true', 'pred', 'all', None}")
    w = _weights(sample_weight, len(y_true))
    labels, ti, pi = _labels_and_index(y_true, y_pred, labels)
    k = len(labels)
    keep = (ti >= 0) & (pi >= 0)
    weights = None if w is None else w[keep]
    cm = np.bincount(ti[keep] * k + pi[keep], weights=weights, minlength=k * k).reshape(k, k)
    if sample_weight is None or np.asarray(sample_weight).dtype.kind in "iub":
        cm = cm.astype(np.int64)
    if normalize is None:
        return cm
    cm = cm.astype(np.float64)
    with np.errstate(all="ignore"):
        if normalize == "true":
            cm = cm / cm.sum(axis=1, keepdims=True)
        elif normalize == "pred":
            cm = cm / cm.sum(axis=0, keepdims=True)
        else:
            cm = cm / cm.sum()
    return np.nan_to_num(cm)


def _zero_division_value(zero_division):
    if isinstance(zero_division, str):
        if zero_division != "warn":
            raise ValueError(
                "zero_division must be 'warn', 0.0, 1.0 or np.nan; got " f"{zero_division!r}"
            )
        return 0.0
    if np.isnan(zero_division):
        return np.nan
    if zero_division not in (0, 1):
        raise ValueError(
            f"zero_division must be 'warn', 0.0, 1.0 or np.nan; got {zero_division!r}"
        )
    return float(zero_division)


def _divide(num, den, zero_division, what, warn):
    """num / den with ``zero_division`` where den is 0 (and a warning if asked)."""
    num = np.asarray(num, dtype=np.float64)
    den = np.asarray(den, dtype=np.float64)
    zero = den == 0
    out = np.divide(num, np.where(zero, 1.0, den))
    if zero.any():
        out = np.where(zero, _zero_division_value(zero_division), out)
        if warn and isinstance(zero_division, str):
            warnings.warn(
                f"{what} is ill-defined and being set to 0.0 in labels with no "
                f"{'predicted' if what.startswith('Precision') else 'true'} samples. Use "
                "`zero_division` parameter to control this behavior.",
                UndefinedMetricWarning,
                stacklevel=4,
            )
    return out


_AVERAGES = (None, "binary", "micro", "macro", "weighted", "samples")


def _per_label_counts(y_true, y_pred, labels, pos_label, average, sample_weight):
    """True positives, predicted and true totals per label, after target checks."""
    if average not in _AVERAGES:
        raise ValueError("average has to be one of " + str(_AVERAGES))
    kind, y_true, y_pred = _check_targets(y_true, y_pred)
    w = _weights(sample_weight, len(y_true))
    if kind == "multilabel-indicator":
        yt, yp = y_true.astype(bool), y_pred.astype(bool)
        n_labels = yt.shape[1]
        cols = np.arange(n_labels) if labels is None else np.asarray(labels, dtype=int)
        ww = np.ones(len(yt)) if w is None else w
        if average == "samples":
            return "samples", (yt[:, cols], yp[:, cols], ww)
        if average == "binary":
            raise ValueError(
                "Target is multilabel-indicator but average='binary'. Please choose another "
                "average setting, one of [None, 'micro', 'macro', 'weighted', 'samples']."
            )
        tp = ((yt & yp)[:, cols] * ww[:, None]).sum(axis=0)
        pred = (yp[:, cols] * ww[:, None]).sum(axis=0)
        true = (yt[:, cols] * ww[:, None]).sum(axis=0)
        return kind, (tp, pred, true)
    if average == "samples":
        raise ValueError(
            "Sample-based precision, recall, fscore is not meaningful outside multilabel "
            "classification. See the accuracy_score instead."
        )
    present = np.union1d(y_true, y_pred)
    if average == "binary":
        if kind == "binary":
            if pos_label not in present.tolist():
                if len(present) >= 2:
                    raise ValueError(
                        f"pos_label={pos_label!r} is not a valid label. It should be one of "
                        f"{present.tolist()}"
                    )
            labels = [pos_label]
        else:
            raise ValueError(
                f"Target is {kind} but average='binary'. Please choose another average "
                "setting, one of [None, 'micro', 'macro', 'weighted']."
            )
    elif pos_label not in (None, 1) and kind == "binary":
        warnings.warn(
            f"Note that pos_label (set to {pos_label!r}) is ignored when average != 'binary' "
            f"(got {average!r}). You may use labels=[pos_label] to specify a single positive "
            "class.",
            UserWarning,
            stacklevel=3,
        )
    if labels is None:
        labels = present
    labels = np.asarray(labels)
    if labels.dtype.kind not in "OUS" and present.dtype.kind in "OUS":
        labels = labels.astype(present.dtype)
    ww = np.ones(len(y_true)) if w is None else w
    k = len(labels)
    _, ti, pi = _labels_and_index(y_true, y_pred, labels) if k else (None, None, None)
    tp = np.bincount(ti[(ti == pi) & (ti >= 0)], weights=ww[(ti == pi) & (ti >= 0)],
                     minlength=k)
    pred = np.bincount(pi[pi >= 0], weights=ww[pi >= 0], minlength=k)
    true = np.bincount(ti[ti >= 0], weights=ww[ti >= 0], minlength=k)
    return kind, (tp, pred, true)


def precision_recall_fscore_support(y_true, y_pred, *, beta=1.0, labels=None, pos_label=1,
                                    average=None, warn_for=("precision", "recall",
                                                            "f-score"),
                                    sample_weight=None, zero_division="warn"):
    """Precision, recall, F-beta and support, per label or averaged.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,) or multilabel indicator
    beta : float, default=1.0
        Weight of recall in the F score.
    labels : array-like, optional
        Labels to include (and their order when ``average=None``).
    pos_label : int, float, bool or str, default=1
        The positive class with ``average="binary"``.
    average : {"binary", "micro", "macro", "weighted", "samples"} or None
        None returns per-label arrays; "micro" pools the counts; "macro"
        averages labels equally; "weighted" by support.
    warn_for : tuple of str
        Which scores warn when ill-defined.
    sample_weight : array-like of shape (n_samples,), optional
    zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
        Value of a score whose denominator is zero.

    Returns
    -------
    precision, recall, fbeta : float or ndarray
    support : None (when averaged) or ndarray of int

    Examples
    --------
    >>> p, r, f, s = precision_recall_fscore_support([0, 1, 1, 2], [0, 1, 2, 2])
    >>> f.round(3).tolist(), s.tolist()
    ([1.0, 0.667, 0.667], [1, 2, 1])
    """
    if beta < 0:
        raise ValueError("beta should be >=0 in the F-beta score")
    _zero_division_value(zero_division)
    kind, counts = _per_label_counts(y_true, y_pred, labels, pos_label, average,
                                     sample_weight)
    if kind == "samples":
        return _samples_average(*counts, beta, zero_division)
    tp, pred, true = counts
    if average == "micro":
        tp, pred, true = (np.array([a.sum()]) for a in (tp, pred, true))
    b2 = beta**2
    precision = _divide(tp, pred, zero_division, "Precision", "precision" in warn_for)
    recall = _divide(tp, true, zero_division, "Recall", "recall" in warn_for)
    if np.isinf(beta):
        f = recall
    else:
        denom = b2 * true + pred
        f = _divide((1 + b2) * tp, denom, zero_division, "F-score",
                    "f-score" in warn_for and "precision" not in warn_for)
        # with some true or predicted samples but no hit the F score is 0, not undefined
        f = np.where((denom > 0) & (tp == 0), 0.0, f)
    if average == "weighted":
        weights = true
        if weights.sum() == 0:
            zd = _zero_division_value(zero_division)
            return zd, zd, zd, None
    elif average is None:
        weights = None
        support = true
        if sample_weight is None or np.all(np.asarray(true) == np.round(true)):
            support = np.asarray(true).astype(np.int64)
        return precision, recall, f, support
    else:
        weights = None
    if average == "binary" and len(precision) == 1 or average == "micro":
        return float(precision[0]), float(recall[0]), float(f[0]), None
    return (_average(precision, weights), _average(recall, weights), _average(f, weights),
            None)


def _average(values, weights):
    values = np.asarray(values, dtype=np.float64)
    if values.size == 0:
        return np.nan
    if weights is None:
        return float(np.mean(values))
    return float(np.average(values, weights=weights))


def _samples_average(yt, yp, w, beta, zero_division):
    tp = (yt & yp).sum(axis=1)
    pred, true = yp.sum(axis=1), yt.sum(axis=1)
    b2 = beta**2
    p = _divide(tp, pred, zero_division, "Precision", True)
    r = _divide(tp, true, zero_division, "Recall", True)
    denom = b2 * true + pred
    f = _divide((1 + b2) * tp, denom, zero_division, "F-score", False)
    f = np.where((denom > 0) & (tp == 0), 0.0, f)
    return (float(np.average(p, weights=w)), float(np.average(r, weights=w)),
            float(np.average(f, weights=w)), None)


def fbeta_score(y_true, y_pred, *, beta, labels=None, pos_label=1, average="binary",
                sample_weight=None, zero_division="warn"):
    """F-beta score: ``(1 + beta²) P R / (beta² P + R)``.

    Parameters are those of :func:`precision_recall_fscore_support`.

    Returns
    -------
    float or ndarray

    Examples
    --------
    >>> round(fbeta_score([0, 1, 1, 1], [0, 1, 0, 0], beta=2), 4)
    0.3846
    """
    _, _, f, _ = precision_recall_fscore_support(
        y_true, y_pred, beta=beta, labels=labels, pos_label=pos_label, average=average,
        warn_for=("f-score",), sample_weight=sample_weight, zero_division=zero_division,
    )
    return f


def f1_score(y_true, y_pred, *, labels=None, pos_label=1, average="binary",
             sample_weight=None, zero_division="warn"):
    """F1 score, the harmonic mean of precision and recall.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
    labels : array-like, optional
    pos_label : label, default=1
    average : {"binary", "micro", "macro", "weighted", "samples"} or None
    sample_weight : array-like, optional
    zero_division : {"warn", 0.0, 1.0, np.nan}

    Returns
    -------
    float or ndarray

    Examples
    --------
    >>> f1_score([0, 1, 1, 1], [0, 1, 1, 0])
    0.8
    >>> round(f1_score([0, 1, 2, 2], [0, 2, 2, 2], average="macro"), 4)
    0.6
    """
    return fbeta_score(y_true, y_pred, beta=1.0, labels=labels, pos_label=pos_label,
                       average=average, sample_weight=sample_weight,
                       zero_division=zero_division)


def precision_score(y_true, y_pred, *, labels=None, pos_label=1, average="binary",
                    sample_weight=None, zero_division="warn"):
    """Precision: the share of predicted positives that are positive.

    Parameters are those of :func:`f1_score`.

    Returns
    -------
    float or ndarray

    Examples
    --------
    >>> precision_score([0, 1, 1, 0], [1, 1, 1, 0])
    0.6666666666666666
    """
    p, _, _, _ = precision_recall_fscore_support(
        y_true, y_pred, labels=labels, pos_label=pos_label, average=average,
        warn_for=("precision",), sample_weight=sample_weight, zero_division=zero_division,
    )
    return p


def recall_score(y_true, y_pred, *, labels=None, pos_label=1, average="binary",
                 sample_weight=None, zero_division="warn"):
    """Recall (sensitivity): the share of positives predicted positive.

    Parameters are those of :func:`f1_score`.

    Returns
    -------
    float or ndarray

    Examples
    --------
    >>> recall_score([0, 1, 1, 0], [1, 1, 0, 0])
    0.5
    """
    _, r, _, _ = precision_recall_fscore_support(
        y_true, y_pred, labels=labels, pos_label=pos_label, average=average,
        warn_for=("recall",), sample_weight=sample_weight, zero_division=zero_division,
    )
    return r


def balanced_accuracy_score(y_true, y_pred, *, sample_weight=None, adjusted=False):
    """Mean recall over the classes present in ``y_true``.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
    sample_weight : array-like, optional
    adjusted : bool, default=False
        Rescale so that chance scores 0 and perfect scores 1.

    Returns
    -------
    float

    Examples
    --------
    >>> balanced_accuracy_score([0, 0, 0, 1], [0, 0, 0, 0])
    0.5
    """
    cm = confusion_matrix(y_true, y_pred, sample_weight=sample_weight).astype(np.float64)
    true = cm.sum(axis=1)
    present = true > 0
    if not present.all():
        warnings.warn("y_pred contains classes not in y_true", UserWarning, stacklevel=2)
    score = float(np.mean(np.diag(cm)[present] / true[present]))
    if adjusted:
        chance = 1.0 / present.sum()
        score = (score - chance) / (1 - chance)
    return score


def matthews_corrcoef(y_true, y_pred, *, sample_weight=None):
    """Matthews correlation coefficient (multiclass form of Gorodkin 2004).

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
    sample_weight : array-like, optional

    Returns
    -------
    float
        In [-1, 1]; 0.0 when undefined.

    Examples
    --------
    >>> round(matthews_corrcoef([1, 1, 1, 0], [1, 0, 1, 1]), 4)
    -0.3333
    """
    cm = confusion_matrix(y_true, y_pred, sample_weight=sample_weight).astype(np.float64)
    t, p = cm.sum(axis=1), cm.sum(axis=0)
    c, s = np.trace(cm), cm.sum()
    cov_ytyp = c * s - t @ p
    cov_ypyp = s**2 - p @ p
    cov_ytyt = s**2 - t @ t
    if cov_ypyp * cov_ytyt == 0:
        return 0.0
    return float(cov_ytyp / np.sqrt(cov_ytyt * cov_ypyp))


def log_loss(y_true, y_pred, *, normalize=True, sample_weight=None, labels=None):
    """Cross-entropy of predicted probabilities (the negative log-likelihood).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
    y_pred : array-like of shape (n_samples, n_classes) or (n_samples,)
        Probabilities, columns in the sorted order of ``labels`` (or of the
        labels in ``y_true``); a 1-D array is the probability of the
        positive (larger) class. Clipped to [eps, 1 - eps].
    normalize : bool, default=True
        Mean over samples; otherwise the sum.
    sample_weight : array-like, optional
    labels : array-like, optional
        All class labels, when ``y_true`` may miss some.

    Returns
    -------
    float

    Examples
    --------
    >>> round(log_loss([0, 1, 1], [[0.9, 0.1], [0.2, 0.8], [0.3, 0.7]]), 4)
    0.2284
    """
    y_pred = np.asarray(y_pred, dtype=np.float64)
    y_true_arr = column_or_1d(y_true)
    check_consistent_length(y_true_arr, y_pred)
    if y_pred.ndim > 2:
        raise ValueError(f"y_pred must be 1-D or 2-D; got shape {y_pred.shape}")
    classes = np.unique(y_true_arr if labels is None else np.asarray(labels))
    if len(classes) == 1:
        if labels is None:
            raise ValueError(
                f"y_true contains only one label ({classes[0]}). Please provide the list of all "
                "expected class labels explicitly through the labels argument."
            )
        raise ValueError(
            "The labels array needs to contain at least two labels for log_loss, got "
            f"{classes}."
        )
    if not np.isin(y_true_arr, classes).all():
        raise ValueError(f"y_true contains values {np.setdiff1d(y_true_arr, classes)} not "
                         f"belonging to the passed labels {classes}.")
    if y_pred.ndim == 1:
        y_pred = y_pred[:, None]
    if y_pred.shape[1] == 1:
        y_pred = np.column_stack([1 - y_pred[:, 0], y_pred[:, 0]])
    if y_pred.shape[1] != len(classes):
        if labels is None:
            raise ValueError(
                "y_true and y_pred contain different number of classes "
                f"{len(classes)}, {y_pred.shape[1]}. Please provide the true labels "
                f"explicitly through the labels argument. Classes found in y_true: {classes}"
            )
        raise ValueError(
            "The number of classes in labels is different from that in y_pred. Classes "
            f"found in labels: {classes}"
        )
    if np.any(y_pred < 0) or np.any(y_pred > 1):
        raise ValueError("y_prob contains values lower than 0 or greater than 1.")
    if not np.allclose(y_pred.sum(axis=1), 1.0, rtol=np.sqrt(np.finfo(np.float64).eps)):
        warnings.warn(
            "The y_prob values do not sum to one. Make sure to pass probabilities.",
            UserWarning,
            stacklevel=2,
        )
    eps = np.finfo(y_pred.dtype).eps
    y_pred = np.clip(y_pred, eps, 1 - eps)
    idx = np.searchsorted(classes, y_true_arr)
    losses = -np.log(y_pred[np.arange(len(idx)), idx])
    w = _weights(sample_weight, len(idx))
    if normalize:
        return float(np.average(losses, weights=w))
    return float(losses.sum() if w is None else losses @ w)


def brier_score_loss(y_true, y_proba, *, sample_weight=None, pos_label=None, labels=None,
                     scale_by_half="auto"):
    """Mean squared difference between predicted probabilities and the one-hot truth.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
    y_proba : array-like of shape (n_samples,) or (n_samples, n_classes)
        Binary: the probability of the positive class (or two columns);
        multiclass: one column per class in sorted label order.
    sample_weight : array-like, optional
    pos_label : label, optional
        Binary positive class; default the larger label.
    labels : array-like, optional
        All class labels (multiclass).
    scale_by_half : bool or "auto", default="auto"
        Halve the sum over classes; "auto" does so for binary problems, which
        gives the usual binary Brier score in [0, 1].

    Returns
    -------
    float

    Examples
    --------
    >>> round(brier_score_loss([0, 1, 1, 0], [0.1, 0.9, 0.8, 0.3]), 4)
    0.0375
    """
    y_true = column_or_1d(y_true)
    y_proba = np.asarray(y_proba, dtype=np.float64)
    check_consistent_length(y_true, y_proba)
    if np.any(y_proba < 0) or np.any(y_proba > 1):
        raise ValueError("y_prob contains values less than 0 or greater than 1.")
    classes = np.unique(y_true if labels is None else np.asarray(labels))
    binary = y_proba.ndim == 1 or y_proba.shape[1] <= 2
    if binary:
        if len(classes) > 2:
            raise ValueError("y_true has more than two classes; pass one probability "
                             "column per class for a multiclass Brier score.")
        if pos_label is None:
            pos_label = classes[-1]
        p = y_proba if y_proba.ndim == 1 else y_proba[:, -1]
        y01 = (y_true == pos_label).astype(np.float64)
        per_sample = 2.0 * (p - y01) ** 2
    else:
        if y_proba.shape[1] != len(classes):
            raise ValueError(
                f"The number of classes in labels ({len(classes)}) does not match the number "
                f"of columns of y_proba ({y_proba.shape[1]})."
            )
        onehot = (y_true[:, None] == classes[None, :]).astype(np.float64)
        per_sample = ((y_proba - onehot) ** 2).sum(axis=1)
    half = binary if scale_by_half == "auto" else bool(scale_by_half)
    if half:
        per_sample = per_sample / 2.0
    w = _weights(sample_weight, len(y_true))
    return float(np.average(per_sample, weights=w))


def classification_report(y_true, y_pred, *, labels=None, target_names=None,
                          sample_weight=None, digits=2, output_dict=False,
                          zero_division="warn"):
    """Text (or dict) report of precision, recall, F1 and support per class.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
    labels : array-like, optional
    target_names : list of str, optional
        Display names of ``labels``.
    sample_weight : array-like, optional
    digits : int, default=2
    output_dict : bool, default=False
        Return a nested dict instead of text.
    zero_division : {"warn", 0.0, 1.0, np.nan}

    Returns
    -------
    str or dict

    Examples
    --------
    >>> rep = classification_report([0, 1, 1], [0, 1, 0], output_dict=True)
    >>> rep["accuracy"]
    0.6666666666666666
    """
    _, y_true_a, y_pred_a = _check_targets(y_true, y_pred)
    if labels is None:
        labels = np.union1d(y_true_a, y_pred_a)
        all_labels = True
    else:
        labels = np.asarray(labels)
        all_labels = set(labels.tolist()) >= set(np.union1d(y_true_a, y_pred_a).tolist())
    if target_names is None:
        target_names = [str(lab) for lab in labels]
    elif len(target_names) != len(labels):
        raise ValueError(
            f"Number of classes, {len(labels)}, does not match size of target_names, "
            f"{len(target_names)}. Try specifying the labels parameter"
        )
    p, r, f, s = precision_recall_fscore_support(
        y_true_a, y_pred_a, labels=labels, average=None, sample_weight=sample_weight,
        zero_division=zero_division,
    )
    headers = ["precision", "recall", "f1-score", "support"]
    rows = {name: dict(zip(headers, [float(a), float(b), float(c), s_])) for
            name, a, b, c, s_ in zip(target_names, p, r, f, s.tolist())}
    averages = {}
    if all_labels:
        averages["accuracy"] = accuracy_score(y_true_a, y_pred_a, sample_weight=sample_weight)
    else:
        mp, mr, mf, _ = precision_recall_fscore_support(
            y_true_a, y_pred_a, labels=labels, average="micro", sample_weight=sample_weight,
            zero_division=zero_division)
        averages["micro avg"] = {"precision": mp, "recall": mr, "f1-score": mf,
                                 "support": s.sum().item()}
    for avg in ("macro", "weighted"):
        ap, ar, af, _ = precision_recall_fscore_support(
            y_true_a, y_pred_a, labels=labels, average=avg, sample_weight=sample_weight,
            zero_division=zero_division)
        averages[f"{avg} avg"] = {"precision": ap, "recall": ar, "f1-score": af,
                                  "support": s.sum().item()}
    if output_dict:
        return {**rows, **averages}
    width = max([len(n) for n in target_names] + [len("weighted avg"), digits])
    head = f"{'':>{width}} " + "".join(f" {h:>9}" for h in headers)
    lines = [head, ""]

    def row_text(name, row):
        vals = "".join(f" {row[h]:>9.{digits}f}" for h in headers[:3])
        return f"{name:>{width}} {vals} {row['support']:>9}"

    for name, row in rows.items():
        lines.append(row_text(name, row))
    lines.append("")
    for name, row in averages.items():
        if name == "accuracy":
            total = s.sum().item()
            lines.append(f"{name:>{width}} {'':>10}{'':>10} {row:>9.{digits}f} {total:>9}")
            continue
        lines.append(row_text(name, row))
    return "\n".join(lines) + "\n"
