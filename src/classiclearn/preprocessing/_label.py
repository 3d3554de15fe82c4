"""Label encoding: class labels to the integers 0..n_classes-1 and back."""

import numpy as np

from ..base import BaseEstimator, TransformerMixin
from ..utils._targets import unique_inverse
from ..utils.validation import check_is_fitted, column_or_1d

__all__ = ["LabelEncoder", "label_binarize"]


class LabelEncoder(TransformerMixin, BaseEstimator):
    """Encode target labels as integers 0..n_classes-1 (sorted label order).

    It works on a target ``y`` (one dimension), not on features; like
    scikit-learn's, scikit-learn's ``check_estimator`` does not apply to it
    (its tags say it takes 1-D labels, not a 2-D X).

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        The sorted labels.

    Examples
    --------
    >>> le = LabelEncoder().fit(["paris", "tokyo", "paris", "amsterdam"])
    >>> le.classes_.tolist()
    ['amsterdam', 'paris', 'tokyo']
    >>> le.transform(["tokyo", "paris"]).tolist()
    [2, 1]
    >>> le.inverse_transform([0]).tolist()
    ['amsterdam']
    """

    def __init__(self):
        pass

    def __classiclearn_tags__(self):
        tags = super().__classiclearn_tags__()
        tags.requires_y = False
        return tags

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.two_d_array = False
        tags.target_tags.one_d_labels = True
        return tags

    def fit(self, y):
        """Learn the labels.

        Parameters
        ----------
        y : array-like of shape (n_samples,)

        Returns
        -------
        self
        """
        y = column_or_1d(y, warn=True)
        self.classes_ = np.unique(y)
        return self

    def fit_transform(self, y):
        """Learn the labels and encode ``y``.

        Returns
        -------
        ndarray of shape (n_samples,), int
        """
        y = column_or_1d(y, warn=True)
        self.classes_, codes = unique_inverse(y)
        return codes

    def transform(self, y):
        """Encode ``y``.

        Parameters
        ----------
        y : array-like of shape (n_samples,)

        Returns
        -------
        ndarray of shape (n_samples,), int

        Raises
        ------
        ValueError
            If ``y`` holds labels not seen in fit.
        """
        check_is_fitted(self)
        y = column_or_1d(y, dtype=self.classes_.dtype if np.asarray(y).dtype.kind == "O"
                         and self.classes_.dtype.kind != "O" else None, warn=True)
        if y.size == 0:
            return np.array([], dtype=np.intp)
        unseen = np.setdiff1d(y, self.classes_)
        if unseen.size:
            raise ValueError(f"y contains previously unseen labels: {unseen.tolist()}")
        return np.searchsorted(self.classes_, y).astype(np.intp)

    def inverse_transform(self, y):
        """Labels from codes.

        Parameters
        ----------
        y : array-like of shape (n_samples,), int

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        check_is_fitted(self)
        y = column_or_1d(y, warn=True)
        if y.size == 0:
            return np.array([], dtype=self.classes_.dtype)
        bad = np.setdiff1d(y, np.arange(len(self.classes_)))
        if bad.size:
            raise ValueError(f"y contains previously unseen labels: {bad.tolist()}")
        return self.classes_[np.asarray(y, dtype=np.intp)]


def label_binarize(y, *, classes, neg_label=0, pos_label=1):
    """One-vs-all indicator matrix of the labels ``y``.

    Parameters
    ----------
    y : array-like of shape (n_samples,)
    classes : array-like of shape (n_classes,)
        Column order.
    neg_label, pos_label : int, default=0, 1

    Returns
    -------
    ndarray of shape (n_samples, n_classes), int
        With two classes, a single column (the second class).

    Examples
    --------
    >>> label_binarize(["b", "a", "c"], classes=["a", "b", "c"]).tolist()
    [[0, 1, 0], [1, 0, 0], [0, 0, 1]]
    >>> label_binarize([1, 0], classes=[0, 1]).tolist()
    [[1], [0]]
    """
    if neg_label >= pos_label:
        raise ValueError(
            f"neg_label={neg_label} must be strictly less than pos_label={pos_label}."
        )
    y = column_or_1d(y)
    classes = np.asarray(classes)
    out = np.where(y[:, None] == classes[None, :], pos_label, neg_label).astype(int)
    if len(classes) == 2:
        return out[:, 1:]
    return out
