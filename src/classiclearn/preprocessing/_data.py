"""Feature scaling: standardisation and min-max scaling (seed 000 §3, §7: features on
one scale before distances or penalties are taken).

Statistics are computed in float64 and ignore NaN (missing entries stay
missing); batches are merged exactly (weighted Chan-Golub-LeVeque update), so
``partial_fit`` over batches equals one ``fit``.
"""

import numpy as np
import scipy.sparse as sp

from ..base import BaseEstimator, TransformerMixin
from ..utils._dask import dask_blocks, record_input_features, reduce_blocks
from ..utils._scale import handle_zeros_in_scale
from ..utils._sparse import column_moments, like_input, scale_columns
from ..utils.validation import (
    FLOAT_DTYPES,
    cast_float_attributes,
    check_array,
    check_is_fitted,
    check_sample_weight,
    power_of_two_scales,
    squares_out_of_range,
    validate_data,
)
from . import _scaling_kernels as _k
from ._common import feature_names_in

__all__ = ["MinMaxScaler", "StandardScaler"]


def _weighted_moments(X, w):
    """Per feature: total weight, mean and sum of squared deviations, ignoring NaN."""
    return _k.column_weighted_moments(np.ascontiguousarray(X), w)


def _column_min_max(X):
    """Per-column minimum and maximum ignoring NaN (NaN for an all-NaN column)."""
    # fmin / fmax skip NaN at the speed of min / max on clean data; min / max reach a
    # NaN and run several times slower from there
    lo, hi = np.fmin.reduce(X, axis=0), np.fmax.reduce(X, axis=0)
    return lo.astype(np.float64), hi.astype(np.float64)


def _merge(n_a, mean_a, m2_a, n_b, mean_b, m2_b):
    n = n_a + n_b
    safe = np.where(n > 0, n, 1.0)
    delta = mean_b - mean_a
    mean = mean_a + delta * n_b / safe
    m2 = m2_a + m2_b + delta**2 * n_a * n_b / safe
    return n, np.where(n > 0, mean, 0.0), np.where(n > 0, m2, 0.0)


def _block_moments(X, w):
    """(weight, mean, squared deviations) per feature of one row block."""
    X = check_array(X, dtype=FLOAT_DTYPES, ensure_all_finite="allow-nan", ensure_min_samples=0)
    return _weighted_moments(X, check_sample_weight(w, X, dtype=np.float64))


def _merge_moments(a, b):
    return _merge(*a, *b)


def _block_min_max(X):
    """(rows, minimum, maximum) per feature of one row block, ignoring NaN."""
    X = check_array(X, dtype=FLOAT_DTYPES, ensure_all_finite="allow-nan", ensure_min_samples=0)
    if X.shape[0] == 0:  # an empty block: NaN, which fmin / fmax ignore
        return 0, np.full(X.shape[1], np.nan), np.full(X.shape[1], np.nan)
    return (X.shape[0],) + _column_min_max(X)


def _merge_min_max(a, b):
    return a[0] + b[0], np.fmin(a[1], b[1]), np.fmax(a[2], b[2])


def _samples_seen(count, weighted):
    if np.all(count == count[0]):
        value = count[0]
        return value if weighted else int(value)
    return count if weighted else count.astype(np.int64)


class StandardScaler(TransformerMixin, BaseEstimator):
    """Standardise features: subtract the mean and divide by the standard deviation.

    Parameters
    ----------
    copy : bool, default=True
        Accepted for compatibility; inputs are never modified.
    with_mean : bool, default=True
        Centre the data.
    with_std : bool, default=True
        Scale to unit variance (population variance, ``ddof=0``).

    Attributes
    ----------
    scale_ : ndarray of shape (n_features,) or None
        Standard deviations (1 for constant features); None if not ``with_std``.
    mean_ : ndarray of shape (n_features,) or None
        Means; None if neither ``with_mean`` nor ``with_std``.
    var_ : ndarray of shape (n_features,) or None
        Variances; None if not ``with_std``.
    n_samples_seen_ : int, float or ndarray
        Samples (or total weight) seen per feature; an array when missing
        values make the counts differ between features.
    n_features_in_ : int
    feature_names_in_ : ndarray of str

    See Also
    --------
    MinMaxScaler : scale to a fixed range.

    Notes
    -----
    NaN entries are ignored in ``fit`` and kept in ``transform``. Sample
    weights act as repetition counts.

    Examples
    --------
    >>> import numpy as np
    >>> StandardScaler().fit_transform(np.array([[0.0], [2.0]])).ravel().tolist()
    [-1.0, 1.0]
    """

    _parameter_constraints = {
        "copy": ["boolean"],
        "with_mean": ["boolean"],
        "with_std": ["boolean"],
    }

    def __init__(self, *, copy=True, with_mean=True, with_std=True):
        self.copy = copy
        self.with_mean = with_mean
        self.with_std = with_std

    def __classiclearn_tags__(self):
        tags = super().__classiclearn_tags__()
        tags.allow_nan = True
        tags.sparse = not self.with_mean  # centring would fill in the zeros
        tags.preserves_dtype = ["float64", "float32"]
        return tags

    def _reset(self):
        for name in ("mean_", "var_", "scale_", "n_samples_seen_"):
            self.__dict__.pop(name, None)

    def fit(self, X, y=None, sample_weight=None):
        """Compute the mean and standard deviation of each feature.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : ignored
        sample_weight : array-like of shape (n_samples,), default=None

        Returns
        -------
        self
        """
        self._reset()
        return self.partial_fit(X, y, sample_weight)

    def partial_fit(self, X, y=None, sample_weight=None):
        """Update the statistics with a batch of samples.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : ignored
        sample_weight : array-like of shape (n_samples,), default=None

        Returns
        -------
        self
        """
        first = not hasattr(self, "n_samples_seen_")
        if first:
            self._validate_params()
        X = validate_data(self, X, reset=first, dtype=FLOAT_DTYPES,
                          ensure_all_finite="allow-nan", accept_sparse=("csr", "csc"))
        weighted = sample_weight is not None
        w = check_sample_weight(sample_weight, X, dtype=np.float64)
        if first:
            self._unit = None
        if sp.issparse(X):
            self._refuse_sparse_centring()
            count, mean, m2 = column_moments(X, w)
        else:
            count, mean, m2 = self._dense_moments(X, w, first)
        if not first:
            count, mean, m2 = _merge(self._count, self._mean, self._m2, count, mean, m2)
            weighted = weighted or self._weighted
        return self._set_moments(count, mean, m2, weighted)

    def _dense_moments(self, X, w, first):
        if self._unit is not None:
            X = X / self._unit
        count, mean, m2 = _weighted_moments(X, w)
        if first and squares_out_of_range(mean, m2):
            # features near 1e300 or 1e-300: moments of X divided by powers of two
            # (exact), so that squares neither overflow nor underflow
            self._unit = power_of_two_scales(X, means=mean)
            if self._unit is not None:
                count, mean, m2 = _weighted_moments(X / self._unit, w)
        return count, mean, m2

    def _refuse_sparse_centring(self):
        if self.with_mean:
            raise ValueError(
                "Cannot center sparse matrices: pass `with_mean=False` instead. See "
                "docstring for motivation and alternatives."
            )

    def _fit_dask(self, X, y=None, sample_weight=None):
        """Exact fit on a Dask collection: per-block moments merged in block order."""
        self._reset()
        self._validate_params()
        blocks = dask_blocks(X, sample_weight)
        count, mean, m2 = reduce_blocks(_block_moments, _merge_moments, blocks)
        record_input_features(self, X)
        self._unit = None
        return self._set_moments(count, mean, m2, sample_weight is not None)

    def _set_moments(self, count, mean, m2, weighted):
        """Fitted attributes from the merged moments of everything seen (in the
        units ``self._unit``: per-feature powers of two, None for 1)."""
        unit = 1.0 if self._unit is None else self._unit
        self._count, self._mean, self._m2, self._weighted = count, mean, m2, weighted
        self.n_samples_seen_ = _samples_seen(count, weighted)
        if self.with_mean or self.with_std:
            self.mean_ = mean * unit
        else:
            self.mean_ = None
        if self.with_std:
            with np.errstate(invalid="ignore", divide="ignore"):
                var = np.where(count > 0, m2 / np.where(count > 0, count, 1.0), 0.0)
            # rounding leaves a tiny variance on a constant feature: treat it as zero
            eps = np.finfo(np.float64).eps
            constant = var <= count * eps * var + (count * mean * eps) ** 2
            with np.errstate(over="ignore", under="ignore"):
                self.var_ = var * unit * unit  # inf (0) when not representable
            self.scale_ = np.where(constant, 1.0, handle_zeros_in_scale(np.sqrt(var)) * unit)
        else:
            self.var_ = None
            self.scale_ = None
        return self

    def transform(self, X, copy=None):
        """Standardise X.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        copy : bool, optional
            Accepted for compatibility.

        Returns
        -------
        ndarray of shape (n_samples, n_features), X's float dtype
        """
        check_is_fitted(self)
        Xv = validate_data(self, X, reset=False, dtype=FLOAT_DTYPES,
                           ensure_all_finite="allow-nan", accept_sparse=("csr", "csc"))
        if sp.issparse(Xv):
            self._refuse_sparse_centring()
            if not self.with_std:
                return like_input(Xv.copy(), X)
            return like_input(scale_columns(Xv, 1.0 / self.scale_), X)
        p = Xv.shape[1]
        offset = self.mean_ if self.with_mean else np.zeros(p)
        scale = self.scale_ if self.with_std else np.ones(p)
        out = np.empty_like(Xv)
        _k.center_scale(Xv, offset.astype(Xv.dtype), scale.astype(Xv.dtype), out)
        return out

    def inverse_transform(self, X, copy=None):
        """Undo :meth:`transform`.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        copy : bool, optional

        Returns
        -------
        ndarray of shape (n_samples, n_features)
        """
        check_is_fitted(self)
        Xv = validate_data(self, X, reset=False, dtype=FLOAT_DTYPES,
                           ensure_all_finite="allow-nan", copy=True,
                           accept_sparse=("csr", "csc"))
        if sp.issparse(Xv):
            self._refuse_sparse_centring()
            return like_input(scale_columns(Xv, self.scale_) if self.with_std else Xv, X)
        if self.with_std:
            Xv *= self.scale_.astype(Xv.dtype)
        if self.with_mean:
            Xv += self.mean_.astype(Xv.dtype)
        return Xv

    def fit_transform(self, X, y=None, sample_weight=None):
        """Fit, then standardise X.

        Returns
        -------
        ndarray of shape (n_samples, n_features)
        """
        return self.fit(X, y, sample_weight=sample_weight).transform(X)

    def get_feature_names_out(self, input_features=None):
        """Output feature names: the input names, unchanged.

        Returns
        -------
        ndarray of str
        """
        return feature_names_in(self, input_features)


class MinMaxScaler(TransformerMixin, BaseEstimator):
    """Scale each feature to a given range, by default [0, 1].

    ``X_scaled = (X - data_min_) * scale_ + feature_range[0]``.

    Parameters
    ----------
    feature_range : tuple (min, max), default=(0, 1)
    copy : bool, default=True
        Accepted for compatibility; inputs are never modified.
    clip : bool, default=False
        Clip transformed values of new data to ``feature_range``.

    Attributes
    ----------
    min_ : ndarray of shape (n_features,)
        Per-feature offset: ``X * scale_ + min_``.
    scale_ : ndarray of shape (n_features,)
    data_min_, data_max_, data_range_ : ndarray of shape (n_features,)
    n_samples_seen_ : int
    n_features_in_ : int
    feature_names_in_ : ndarray of str

    Examples
    --------
    >>> MinMaxScaler().fit_transform([[1.0], [3.0], [2.0]]).ravel().tolist()
    [0.0, 1.0, 0.5]
    """

    _parameter_constraints = {
        "feature_range": [tuple],
        "copy": ["boolean"],
        "clip": ["boolean"],
    }

    def __init__(self, feature_range=(0, 1), *, copy=True, clip=False):
        self.feature_range = feature_range
        self.copy = copy
        self.clip = clip

    def __classiclearn_tags__(self):
        tags = super().__classiclearn_tags__()
        tags.allow_nan = True
        tags.preserves_dtype = ["float64", "float32"]
        return tags

    def fit(self, X, y=None):
        """Compute the per-feature minimum and maximum.

        Returns
        -------
        self
        """
        self._reset()
        return self.partial_fit(X, y)

    def _reset(self):
        for name in ("data_min_", "data_max_", "n_samples_seen_"):
            self.__dict__.pop(name, None)

    def partial_fit(self, X, y=None):
        """Update the minimum and maximum with a batch.

        Returns
        -------
        self
        """
        first = not hasattr(self, "n_samples_seen_")
        if first:
            self._validate_params()
            lo, hi = self.feature_range
            if lo >= hi:
                raise ValueError(
                    "Minimum of desired feature range must be smaller than maximum. Got "
                    f"{self.feature_range}."
                )
        X = validate_data(self, X, reset=first, dtype=FLOAT_DTYPES,
                          ensure_all_finite="allow-nan")
        data_min, data_max = _column_min_max(X)
        if first:
            self.n_samples_seen_ = X.shape[0]
        else:
            data_min = np.fmin(self.data_min_, data_min)
            data_max = np.fmax(self.data_max_, data_max)
            self.n_samples_seen_ += X.shape[0]
        return self._set_range(data_min, data_max, X.dtype)

    def _fit_dask(self, X, y=None):
        """Exact fit on a Dask collection: per-block minima and maxima, merged."""
        self._reset()
        self._validate_params()
        lo, hi = self.feature_range
        if lo >= hi:
            raise ValueError(
                "Minimum of desired feature range must be smaller than maximum. Got "
                f"{self.feature_range}."
            )
        n, data_min, data_max = reduce_blocks(_block_min_max, _merge_min_max, dask_blocks(X))
        record_input_features(self, X)
        self.n_samples_seen_ = int(n)
        return self._set_range(data_min, data_max)

    def _set_range(self, data_min, data_max, dtype=np.float64):
        """Fitted attributes from the minima and maxima (in ``dtype``, the input's
        float dtype, as scikit-learn stores them)."""
        lo, hi = self.feature_range
        self.data_min_ = data_min
        self.data_max_ = data_max
        self.data_range_ = data_max - data_min
        magnitude = np.fmax(np.abs(data_min), np.abs(data_max))
        self.scale_ = (hi - lo) / handle_zeros_in_scale(self.data_range_, magnitude)
        self.min_ = lo - data_min * self.scale_
        cast_float_attributes(self, dtype, ("data_min_", "data_max_", "data_range_", "scale_",
                                              "min_"))
        return self

    def transform(self, X):
        """Scale X to ``feature_range``.

        Returns
        -------
        ndarray of shape (n_samples, n_features), X's float dtype
        """
        check_is_fitted(self)
        X_in = X
        X = validate_data(self, X, reset=False, dtype=FLOAT_DTYPES,
                          ensure_all_finite="allow-nan")
        Xv = np.empty_like(X)
        _k.scale_shift(X, self.scale_.astype(X.dtype), self.min_.astype(X.dtype), Xv)
        X = X_in
        if self.clip:
            np.clip(Xv, self.feature_range[0], self.feature_range[1], out=Xv)
        return Xv

    def inverse_transform(self, X):
        """Undo :meth:`transform`.

        Returns
        -------
        ndarray of shape (n_samples, n_features)
        """
        check_is_fitted(self)
        Xv = validate_data(self, X, reset=False, dtype=FLOAT_DTYPES,
                           ensure_all_finite="allow-nan", copy=True)
        Xv -= self.min_.astype(Xv.dtype)
        Xv /= self.scale_.astype(Xv.dtype)
        return Xv

    def get_feature_names_out(self, input_features=None):
        """Output feature names: the input names, unchanged.

        Returns
        -------
        ndarray of str
        """
        return feature_names_in(self, input_features)
