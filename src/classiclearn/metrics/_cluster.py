"""Clustering scores: the (adjusted) Rand index and the contingency matrix (seed 000 §12)."""

import numpy as np

from ..utils.validation import check_consistent_length, column_or_1d

__all__ = ["adjusted_rand_score", "contingency_matrix", "pair_confusion_matrix", "rand_score"]


def _check_labelings(labels_true, labels_pred):
    labels_true = column_or_1d(labels_true, input_name="labels_true")
    labels_pred = column_or_1d(labels_pred, input_name="labels_pred")
    check_consistent_length(labels_true, labels_pred)
    return labels_true, labels_pred


def contingency_matrix(labels_true, labels_pred):
    """Counts ``C[i, j]`` of samples in true class i and predicted cluster j.

    Parameters
    ----------
    labels_true, labels_pred : array-like of shape (n_samples,)

    Returns
    -------
    ndarray of shape (n_classes, n_clusters), int64

    Examples
    --------
    >>> contingency_matrix([0, 0, 1], [1, 1, 1])
    array([[2],
           [1]])
    """
    labels_true, labels_pred = _check_labelings(labels_true, labels_pred)
    _, ti = np.unique(labels_true, return_inverse=True)
    _, pi = np.unique(labels_pred, return_inverse=True)
    ti, pi = ti.ravel(), pi.ravel()
    nt = ti.max() + 1 if ti.size else 0
    npred = pi.max() + 1 if pi.size else 0
    return np.bincount(ti * npred + pi, minlength=nt * npred).reshape(nt, npred).astype(np.int64)


def pair_confusion_matrix(labels_true, labels_pred):
    """2x2 counts of ordered sample pairs by (same class?, same cluster?).

    Returns
    -------
    ndarray of shape (2, 2), int64
        ``[[not together in either, together in prediction only],
        [together in truth only, together in both]]``.

    Examples
    --------
    >>> pair_confusion_matrix([0, 0, 1, 1], [0, 0, 1, 1])
    array([[8, 0],
           [0, 4]])
    """
    labels_true, labels_pred = _check_labelings(labels_true, labels_pred)
    n = int(labels_true.shape[0])
    c = contingency_matrix(labels_true, labels_pred)
    n_c = [int(v) for v in c.sum(axis=1)]
    n_k = [int(v) for v in c.sum(axis=0)]
    sum_sq = sum(int(v) * int(v) for v in c.ravel())
    tp = sum_sq - n
    fp = sum(v * v for v in n_k) - sum_sq
    fn = sum(v * v for v in n_c) - sum_sq
    tn = n * n - fp - fn - sum_sq
    return np.array([[tn, fp], [fn, tp]], dtype=np.int64)


def rand_score(labels_true, labels_pred):
    """Rand index: the share of sample pairs on which the two labelings agree.

    Returns
    -------
    float

    Examples
    --------
    >>> rand_score([0, 0, 1, 2], [0, 0, 1, 1])
    0.8333333333333334
    """
    cm = pair_confusion_matrix(labels_true, labels_pred)
    agree = int(cm[0, 0]) + int(cm[1, 1])
    total = int(cm.sum())
    if total == 0 or agree == total:
        return 1.0
    return agree / total


def adjusted_rand_score(labels_true, labels_pred):
    """Rand index adjusted for chance (Hubert and Arabie 1985).

    1.0 for identical partitions (up to relabelling), about 0.0 for
    independent ones, possibly negative.

    Parameters
    ----------
    labels_true, labels_pred : array-like of shape (n_samples,)

    Returns
    -------
    float

    Examples
    --------
    >>> adjusted_rand_score([0, 0, 1, 1], [1, 1, 0, 0])
    1.0
    >>> round(adjusted_rand_score([0, 0, 1, 2], [0, 0, 1, 1]), 4)
    0.5714
    """
    cm = pair_confusion_matrix(labels_true, labels_pred)
    tn, fp, fn, tp = (int(v) for v in cm.ravel())
    if fn == 0 and fp == 0:
        return 1.0
    return 2.0 * (tp * tn - fn * fp) / ((tp + fn) * (fn + tn) + (tp + fp) * (fp + tn))
