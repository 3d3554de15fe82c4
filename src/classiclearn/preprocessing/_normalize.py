"""Stateless row-wise and elementwise transforms: unit-norm rows and thresholding."""

from numbers import Real

import numpy as np
import scipy.sparse as sp

from ..base import BaseEstimator, TransformerMixin
from ..utils._params import StrOptions
from ..utils._sparse import like_input
from ..utils.validation import FLOAT_DTYPES, check_array, validate_data
from . import _scaling_kernels as _k
from ._common import feature_names_in

__all__ = ["Binarizer", "Normalizer", "normalize"]

_NORM_KINDS = {"l1": 0, "l2": 1, "max": 2}


def normalize(X, norm="l2", *, axis=1, copy=True, return_norm=False):
    """Scale rows (``axis=1``) or columns (``axis=0``) to unit norm.

    Parameters
    ----------
    X : array-like or sparse matrix of shape (n_samples, n_features)
        Sparse input gives sparse output (CSR for ``axis=1``, CSC for ``axis=0``),
        in X's container kind.
    norm : {"l1", "l2", "max"}, default="l2"
    axis : {0, 1}, default=1
    copy : bool, default=True
        Accepted for compatibility; the input is never modified.
    return_norm : bool, default=False
        Also return the norms.

    Returns
    -------
    ndarray or sparse array, and the norms when ``return_norm``
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
    if sp.issparse(X):
        return _normalize_sparse(X, norm, axis, return_norm)
    return _normalize_dense(check_array(X, dtype=FLOAT_DTYPES), norm, axis, return_norm)


def _normalize_dense(X, norm, axis, return_norm):
    """``normalize`` for a validated float ndarray."""
    if axis == 1 and X.flags.c_contiguous and X.size:
        out = np.empty_like(X)
        norms = np.empty(X.shape[0], dtype=X.dtype)
        _k.normalize_rows(X, out, _NORM_KINDS[norm], norms)
        return (out, norms) if return_norm else out
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


def _normalize_sparse(X, norm, axis, return_norm):
    """``normalize`` for sparse X: scales the stored values of each row (column)."""
    fmt = "csr" if axis == 1 else "csc"
    A = check_array(X, accept_sparse=fmt, dtype=FLOAT_DTYPES)
    if not A.has_canonical_format:  # duplicates summed on a copy, not the caller's X
        A = A.copy()
        A.sum_duplicates()
    norms = np.empty(A.shape[0 if axis == 1 else 1], dtype=A.dtype)
    data = np.empty_like(A.data)
    _k.normalize_segments(A.data, A.indptr, data, _NORM_KINDS[norm], norms)
    A = type(A)((data, A.indices.copy(), A.indptr.copy()), shape=A.shape)
    out = like_input(A, X)
    return (out, norms) if return_norm else out


class _Stateless(TransformerMixin, BaseEstimator):
    def __classiclearn_tags__(self):
        tags = super().__classiclearn_tags__()
        tags.requires_fit = False
        tags.preserves_dtype = ["float64", "float32"]
        tags.sparse = True
        return tags

    def fit(self, X, y=None):
        """Check X and record its number of features (nothing is learned).

        Returns
        -------
        self
        """
        self._validate_params()
        validate_data(self, X, dtype=FLOAT_DTYPES, accept_sparse=("csr", "csc"))
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
        ndarray or sparse CSR array of shape (n_samples, n_features)
            Sparse for sparse X, in X's container kind.
        """
        Xv = validate_data(self, X, reset=False, dtype=FLOAT_DTYPES, accept_sparse="csr")
        if sp.issparse(Xv):
            return like_input(normalize(Xv, norm=self.norm), X)
        return _normalize_dense(Xv, self.norm, 1, False)  # validated once, not twice


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
        ndarray or sparse array of shape (n_samples, n_features), X's float dtype
            Sparse X keeps its format (CSR or CSC) and container kind.

        Raises
        ------
        ValueError
            For sparse X with a negative threshold (every implicit zero would become 1).
        """
        Xv = validate_data(self, X, reset=False, dtype=FLOAT_DTYPES, accept_sparse=("csr", "csc"))
        if sp.issparse(Xv):
            return like_input(self._binarize_sparse(Xv), X)
        return (Xv > self.threshold).astype(Xv.dtype)

    def _binarize_sparse(self, X):
        if self.threshold < 0:
            raise ValueError("Cannot binarize a sparse matrix with threshold < 0")
        out = X.copy()
        out.data = (out.data > self.threshold).astype(out.dtype)
        out.eliminate_zeros()
        return out
