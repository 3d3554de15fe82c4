"""Classification scores."""

import numpy as np

from ..utils.validation import check_consistent_length, column_or_1d

__all__ = ["accuracy_score"]


def _weights(sample_weight, n):
    if sample_weight is None:
        return None
    w = column_or_1d(sample_weight, dtype=np.float64, input_name="sample_weight")
    if w.shape[0] != n:
        raise ValueError(f"sample_weight has {w.shape[0]} entries, but y has {n} samples.")
    return w


def accuracy_score(y_true, y_pred, *, normalize=True, sample_weight=None):
    """Fraction (or count) of correct predictions.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
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
    correct = (y_true == y_pred)
    if correct.ndim > 1:
        correct = correct.all(axis=1)
    w = _weights(sample_weight, correct.shape[0])
    if normalize:
        return float(np.average(correct, weights=w))
    return float(correct.sum() if w is None else np.dot(correct, w))
