"""More feature scaling: by the largest absolute value, and by median and quantile range
(robust to outliers). Statistics ignore NaN, which transform keeps."""

import warnings
from numbers import Real

import numpy as np
import scipy.sparse as sp

from ..base import BaseEstimator, TransformerMixin
from ..utils._dask import dask_blocks, record_input_features, reduce_blocks
from ..utils._scale import handle_zeros_in_scale
from ..utils._sparse import column_max_abs, like_input, scale_columns
from ..utils._threads import available_cores, thread_map
from ..utils.validation import (
    FLOAT_DTYPES,
    cast_float_attributes,
    check_array,
    check_is_fitted,
    validate_data,
)
from . import _scaling_kernels as _k
from ._common import feature_names_in

__all__ = ["MaxAbsScaler", "RobustScaler"]


def _block_max_abs(X):
    """(rows, largest absolute value per feature ignoring NaN) of one row block."""
    X = check_array(X, dtype=FLOAT_DTYPES, ensure_all_finite="allow-nan", ensure_min_samples=0)
    if X.shape[0] == 0:  # an empty block: NaN, which fmax ignores
        return 0, np.full(X.shape[1], np.nan)
    return X.shape[0], _dense_max_abs(X)


def _dense_max_abs(X):
    """Largest absolute value per feature of a validated dense X, ignoring NaN."""
    return np.fmax.reduce(np.abs(X), axis=0).astype(np.float64)


def _merge_max_abs(a, b):
    return a[0] + b[0], np.fmax(a[1], b[1])


class _OneToOne(TransformerMixin, BaseEstimator):
    """Shared tags and names of scalers that map each feature to itself."""

    def __classiclearn_tags__(self):
        tags = super().__classiclearn_tags__()
        tags.allow_nan = True
        tags.preserves_dtype = ["float64", "float32"]
        return tags

    def get_feature_names_out(self, input_features=None):
        """Output feature names: the input names, unchanged.

        Returns
        -------
        ndarray of str
        """
        return feature_names_in(self, input_features)

    def _apply(self, X, offset, scale, clip=False):
        check_is_fitted(self)
        Xv = validate_data(self, X, reset=False, dtype=FLOAT_DTYPES,
                           ensure_all_finite="allow-nan")
        out = np.empty_like(Xv)
        _k.center_scale(Xv, offset.astype(Xv.dtype), scale.astype(Xv.dtype), out)
        if clip:
            np.clip(out, -1.0, 1.0, out=out)
        return out

    def _unapply(self, X, offset, scale):
        check_is_fitted(self)
        Xv = validate_data(self, X, reset=False, dtype=FLOAT_DTYPES,
                           ensure_all_finite="allow-nan", copy=True)
        Xv *= scale.astype(Xv.dtype)
        Xv += offset.astype(Xv.dtype)
        return Xv


class MaxAbsScaler(_OneToOne):
    """Scale each feature by its largest absolute value (keeps zeros and signs).

    Parameters
    ----------
    copy : bool, default=True
        Accepted for compatibility; inputs are never modified.
    clip : bool, default=False
        Clip transformed values of new data to [-1, 1].

    Attributes
    ----------
    max_abs_ : ndarray of shape (n_features,)
    scale_ : ndarray of shape (n_features,)
        ``max_abs_`` with zeros replaced by 1.
    n_samples_seen_ : int
    n_features_in_ : int
    feature_names_in_ : ndarray of str

    Examples
    --------
    >>> MaxAbsScaler().fit_transform([[-2.0], [1.0]]).ravel().tolist()
    [-1.0, 0.5]
    """

    _parameter_constraints = {"copy": ["boolean"], "clip": ["boolean"]}

    def __init__(self, *, copy=True, clip=False):
        self.copy = copy
        self.clip = clip

    def fit(self, X, y=None):
        """Compute the largest absolute value of each feature.

        Returns
        -------
        self
        """
        self.__dict__.pop("n_samples_seen_", None)
        return self.partial_fit(X, y)

    def partial_fit(self, X, y=None):
        """Update the largest absolute values with a batch.

        Returns
        -------
        self
        """
        first = not hasattr(self, "n_samples_seen_")
        if first:
            self._validate_params()
        X = validate_data(self, X, reset=first, dtype=FLOAT_DTYPES,
                          ensure_all_finite="allow-nan", accept_sparse=("csr", "csc"))
        max_abs = column_max_abs(X) if sp.issparse(X) else _dense_max_abs(X)
        if first:
            self.n_samples_seen_ = X.shape[0]
        else:
            max_abs = np.fmax(self.max_abs_, max_abs)
            self.n_samples_seen_ += X.shape[0]
        return self._set_max_abs(max_abs, X.dtype)

    def _fit_dask(self, X, y=None):
        """Exact fit on a Dask collection: per-block largest absolute values, merged."""
        self._validate_params()
        n, max_abs = reduce_blocks(_block_max_abs, _merge_max_abs, dask_blocks(X))
        record_input_features(self, X)
        self.n_samples_seen_ = int(n)
        return self._set_max_abs(max_abs)

    def _set_max_abs(self, max_abs, dtype=np.float64):
        self.max_abs_ = max_abs
        self.scale_ = handle_zeros_in_scale(max_abs, max_abs)
        cast_float_attributes(self, dtype, ("max_abs_", "scale_"))  # the input's dtype
        return self

    def __classiclearn_tags__(self):
        tags = super().__classiclearn_tags__()
        tags.sparse = True
        return tags

    def transform(self, X):
        """Divide each feature by its largest absolute value.

        Returns
        -------
        ndarray or sparse array of shape (n_samples, n_features)
            Sparse (in X's format and container) for sparse X.
        """
        if sp.issparse(X):
            check_is_fitted(self)
            Xv = validate_data(self, X, reset=False, dtype=FLOAT_DTYPES,
                               ensure_all_finite="allow-nan", accept_sparse=("csr", "csc"))
            out = scale_columns(Xv, 1.0 / self.scale_)
            if self.clip:
                np.clip(out.data, -1.0, 1.0, out=out.data)
            return like_input(out, X)
        return self._apply(X, np.zeros(len(self.scale_)) if hasattr(self, "scale_") else None,
                           getattr(self, "scale_", None), clip=self.clip)

    def inverse_transform(self, X):
        """Undo :meth:`transform`.

        Returns
        -------
        ndarray of shape (n_samples, n_features)
        """
        check_is_fitted(self)
        if sp.issparse(X):
            Xv = validate_data(self, X, reset=False, dtype=FLOAT_DTYPES,
                               ensure_all_finite="allow-nan", accept_sparse=("csr", "csc"))
            return like_input(scale_columns(Xv, self.scale_), X)
        return self._unapply(X, np.zeros(len(self.scale_)), self.scale_)


# entries of X from which the columns' medians and percentiles are taken in threads
# (NumPy's partition releases the GIL; below this a thread's start costs more)
ROBUST_THREADED_ENTRIES = 150_000


def _by_columns(statistic, X):
    """``statistic(X)`` (a per-column NumPy reduction over axis 0, last axis of the
    result = the columns) computed on column blocks in threads for large X: NumPy's
    partition releases the GIL, and each column's value is the same whatever the
    blocks."""
    n_threads = min(available_cores(), X.shape[1])
    if X.size < ROBUST_THREADED_ENTRIES or n_threads < 2:
        return statistic(X)
    bounds = np.linspace(0, X.shape[1], n_threads + 1).astype(int)
    parts = thread_map(lambda b: statistic(X[:, bounds[b]:bounds[b + 1]]), range(n_threads),
                       n_threads)
    return np.concatenate(parts, axis=-1)


def _lerp(a, b, t):
    """NumPy's linear interpolation of its percentiles (from the nearer end)."""
    diff = b - a
    return b - diff * (1.0 - t) if t >= 0.5 else a + diff * t


def _sparse_percentiles(X, quantiles):
    """Per column of sparse X: NumPy's (linear) percentiles ``quantiles`` (in %) of the
    column's values, implicit zeros included and stored NaN ignored (as scikit-learn's
    sparse RobustScaler takes them), from the sorted stored values only; an all-NaN
    column gives NaN. Returns an array (len(quantiles), n_features)."""
    X = sp.csc_array(X)
    n, p = X.shape
    fractions = np.true_divide(np.asarray(quantiles, dtype=np.float64), 100)
    out = np.empty((len(fractions), p))
    for j in range(p):
        values = X.data[X.indptr[j]:X.indptr[j + 1]].astype(np.float64)
        stored = values.shape[0]
        values = np.sort(values[~np.isnan(values)])
        zeros = n - stored  # implicit zeros
        m = values.shape[0] + zeros
        if m == 0:
            out[:, j] = np.nan
            continue
        n_neg = int(np.searchsorted(values, 0.0, side="left"))

        def element(k, values=values, n_neg=n_neg, zeros=zeros):
            # k-th of the column's sorted values with its implicit zeros merged in
            if k < n_neg:
                return values[k]
            return 0.0 if k < n_neg + zeros else values[k - zeros]

        for i, fraction in enumerate(fractions):
            virtual = (m - 1) * fraction
            below = min(max(int(np.floor(virtual)), 0), m - 1)
            above = min(below + 1, m - 1)
            out[i, j] = _lerp(element(below), element(above), virtual - np.floor(virtual))
    return out


class RobustScaler(_OneToOne):
    """Centre by the median and scale by a quantile range (interquartile by default).

    Sparse X is taken with ``with_centering=False`` (centring would fill in its zeros,
    as scikit-learn refuses): the quantile range counts the implicit zeros, and
    transform scales the stored values only.

    Parameters
    ----------
    with_centering : bool, default=True
    with_scaling : bool, default=True
    quantile_range : tuple (q_min, q_max), default=(25.0, 75.0)
        Percentiles (0 < q_min < q_max < 100) whose difference is the scale.
    copy : bool, default=True
        Accepted for compatibility; inputs are never modified.
    unit_variance : bool, default=False
        Rescale so that normally distributed features get variance 1.

    Attributes
    ----------
    center_ : ndarray of shape (n_features,) or None
    scale_ : ndarray of shape (n_features,) or None
    n_features_in_ : int
    feature_names_in_ : ndarray of str

    Examples
    --------
    >>> RobustScaler().fit_transform([[1.0], [2.0], [3.0], [100.0]]).ravel().round(3).tolist()
    [-0.059, -0.02, 0.02, 3.824]
    """

    _parameter_constraints = {
        "with_centering": ["boolean"],
        "with_scaling": ["boolean"],
        "quantile_range": [tuple],
        "copy": ["boolean"],
        "unit_variance": ["boolean"],
    }

    def __init__(self, *, with_centering=True, with_scaling=True,
                 quantile_range=(25.0, 75.0), copy=True, unit_variance=False):
        self.with_centering = with_centering
        self.with_scaling = with_scaling
        self.quantile_range = quantile_range
        self.copy = copy
        self.unit_variance = unit_variance

    def fit(self, X, y=None):
        """Compute the median and quantile range of each feature.

        Returns
        -------
        self
        """
        self._validate_params()
        q_min, q_max = self.quantile_range
        if not (isinstance(q_min, Real) and isinstance(q_max, Real)
                and 0 <= q_min <= q_max <= 100):
            raise ValueError(f"Invalid quantile range: {self.quantile_range}")
        X = validate_data(self, X, dtype=FLOAT_DTYPES, ensure_all_finite="allow-nan",
                          accept_sparse=("csr", "csc"))
        if sp.issparse(X):
            return self._fit_sparse(X, q_min, q_max)
        # without NaN, NumPy's plain median and percentile give the same values as
        # the NaN-aware ones, from one partition of all columns at once (the NaN-aware
        # ones of a 2-D array work column by column)
        has_nan = X.dtype.kind == "f" and bool(np.isnan(X).any())
        median, percentile = ((np.nanmedian, np.nanpercentile) if has_nan
                              else (np.median, np.percentile))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            if self.with_centering:
                self.center_ = _by_columns(lambda B: median(B, axis=0), X).astype(np.float64)
            else:
                self.center_ = None
            if self.with_scaling:
                lo, hi = _by_columns(lambda B: percentile(B, [q_min, q_max], axis=0), X)
                self.scale_ = self._range_scale(lo, hi, q_min, q_max)
            else:
                self.scale_ = None
        cast_float_attributes(self, X.dtype, ("center_",))  # scikit-learn: scale_ float64
        return self

    def _fit_sparse(self, X, q_min, q_max):
        self._refuse_sparse_centring()
        self.center_ = None
        self.scale_ = None
        if self.with_scaling:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)
                lo, hi = _sparse_percentiles(X, [q_min, q_max])
                self.scale_ = self._range_scale(lo, hi, q_min, q_max)
        return self

    def _range_scale(self, lo, hi, q_min, q_max):
        """The scale from the columns' quantiles (zero ranges replaced)."""
        scale = handle_zeros_in_scale(hi - lo, np.fmax(np.abs(lo), np.abs(hi)))
        if self.unit_variance:
            from scipy.stats import norm

            adjust = norm.ppf(q_max / 100.0) - norm.ppf(q_min / 100.0)
            scale = scale / adjust
        return scale

    def _refuse_sparse_centring(self):
        if self.with_centering:
            raise ValueError(
                "Cannot center sparse matrices: use `with_centering=False` instead. See "
                "docstring for motivation and alternatives."
            )

    def __classiclearn_tags__(self):
        tags = super().__classiclearn_tags__()
        tags.sparse = not self.with_centering
        return tags

    def _offset_scale(self):
        check_is_fitted(self)
        p = self.n_features_in_
        offset = self.center_ if self.with_centering else np.zeros(p)
        scale = self.scale_ if self.with_scaling else np.ones(p)
        return np.nan_to_num(offset), scale

    def transform(self, X):
        """Centre and scale X.

        Returns
        -------
        ndarray of shape (n_samples, n_features), or sparse for sparse X
        """
        if sp.issparse(X):
            return self._scale_sparse(X, inverse=False)
        return self._apply(X, *self._offset_scale())

    def _scale_sparse(self, X, inverse):
        check_is_fitted(self)
        self._refuse_sparse_centring()
        Xv = validate_data(self, X, reset=False, dtype=FLOAT_DTYPES,
                           ensure_all_finite="allow-nan", accept_sparse=("csr", "csc"))
        if not self.with_scaling:
            return like_input(Xv.copy(), X)
        return like_input(scale_columns(Xv, self.scale_ if inverse else 1.0 / self.scale_), X)

    def inverse_transform(self, X):
        """Undo :meth:`transform`.

        Returns
        -------
        ndarray of shape (n_samples, n_features), or sparse for sparse X
        """
        if sp.issparse(X):
            return self._scale_sparse(X, inverse=True)
        return self._unapply(X, *self._offset_scale())
