"""Stateless row-wise and elementwise transforms: unit-norm rows and thresholding."""

from numbers import Real

import numpy as np

from ..base import BaseEstimator, TransformerMixin
from ..utils._params import StrOptions
from ..utils.validation import FLOAT_DTYPES, check_array, validate_data
from ._common import feature_names_in

__all__ = ["Binarizer", "Normalizer", "normalize"]


def normalize(X, norm="l2", *, axis=1, copy=True, return_norm=False):
    """Scale rows (``axis=1``) or columns (``axis=0``) to unit norm.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    norm : {"l1", "l2", "max"}, default="l2"
    axis : {0, 1}, default=1
    copy : bool, default=True
        Accepted for compatibility; the input is never modified.
    return_norm : bool, default=False
        Also return the norms.

    Returns
    -------
    ndarray, and the norms when ``return_norm``
        Zero rows are left unchanged.

    Examples
    --------
    >>> normalize([[3.0, 4.0], [0.0, 0.0]]).tolist()
    [[0.6, 0.8], [0.0, 0.0]]
    """
    if norm not in ("l1", "l2", "max"):
        raise ValueError(f"'{norm}' is not a supported norm")
    if axis not in (0, 1):
        raise ValueError("'axis' must be 0 or 1")
    X = check_array(X, dtype=FLOAT_DTYPES)
    A = X if axis == 1 else X.T
    if norm == "l1":
        norms = np.abs(A).sum(axis=1)
    elif norm == "l2":
        norms = np.sqrt(np.einsum("ij,ij->i", A, A))
    else:
        norms = np.abs(A).max(axis=1)
    safe = np.where(norms == 0, 1.0, norms).astype(X.dtype)
    out = A / safe[:, None]
    out = out if axis == 1 else out.T
    out = np.ascontiguousarray(out)
    return (out, norms) if return_norm else out


class _Stateless(TransformerMixin, BaseEstimator):
    def __classiclearn_tags__(self):
        tags = super().__classiclearn_tags__()
        tags.requires_fit = False
        tags.preserves_dtype = ["float64", "float32"]
        return tags

    def fit(self, X, y=None):
        """Check X and record its number of features (nothing is learned).

        Returns
        -------
        self
        """
        self._validate_params()
        validate_data(self, X, dtype=FLOAT_DTYPES)
        return self

    def get_feature_names_out(self, input_features=None):
        """Output feature names: the input names, unchanged.

        Returns
        -------
        ndarray of str
        """
        return feature_names_in(self, input_features)


class Normalizer(_Stateless):
    """Scale each sample (row) to unit norm.

    Parameters
    ----------
    norm : {"l1", "l2", "max"}, default="l2"
    copy : bool, default=True
        Accepted for compatibility; inputs are never modified.

    Attributes
    ----------
    n_features_in_ : int
    feature_names_in_ : ndarray of str

    Examples
    --------
    >>> Normalizer().fit_transform([[3.0, 4.0]]).tolist()
    [[0.6, 0.8]]
    """

    _parameter_constraints = {"norm": [StrOptions({"l1", "l2", "max"})], "copy": ["boolean"]}

    def __init__(self, norm="l2", *, copy=True):
        self.norm = norm
        self.copy = copy

    def transform(self, X, copy=None):
        """Scale each row of X to unit norm.

        Returns
        -------
        ndarray of shape (n_samples, n_features)
        """
        Xv = validate_data(self, X, reset=False, dtype=FLOAT_DTYPES)
        return normalize(Xv, norm=self.norm)


class Binarizer(_Stateless):
    """1 where a feature exceeds ``threshold``, else 0.

    Parameters
    ----------
    threshold : float, default=0.0
    copy : bool, default=True
        Accepted for compatibility; inputs are never modified.

    Attributes
    ----------
    n_features_in_ : int
    feature_names_in_ : ndarray of str

    Examples
    --------
    >>> Binarizer(threshold=1.0).fit_transform([[0.5, 2.0]]).tolist()
    [[0.0, 1.0]]
    """

    _parameter_constraints = {"threshold": [Real], "copy": ["boolean"]}

    def __init__(self, *, threshold=0.0, copy=True):
        self.threshold = threshold
        self.copy = copy

    def transform(self, X, copy=None):
        """Threshold X.

        Returns
        -------
        ndarray of shape (n_samples, n_features), X's float dtype
        """
        Xv = validate_data(self, X, reset=False, dtype=FLOAT_DTYPES)
        return (Xv > self.threshold).astype(Xv.dtype)
