"""Missing-value imputation by a per-feature statistic (mean, median, most frequent or a
constant), learned on the training part only so it can sit inside a cross-validated
pipeline.

(scikit-learn has this class in ``sklearn.impute``; classiclearn keeps it with
the other preprocessing transformers, and ``classiclearn.impute`` is not a
separate module.)
"""

import numbers
import warnings
from collections import Counter

import numpy as np
import scipy.sparse as sp

from ..base import BaseEstimator, TransformerMixin
from ..utils._dask import (
    DaskUnsupportedError,
    dask_blocks,
    fit_one_block_in_memory,
    record_input_features,
    reduce_blocks,
)
from ..utils._params import StrOptions
from ..utils._sparse import like_input, segment_sum
from ..utils.validation import check_is_fitted, validate_data
from . import _scaling_kernels as _k
from ._common import check_categorical_X, feature_names_in, is_missing

__all__ = ["SimpleImputer"]


def _is_nan_like(value):
    return value is None or bool(isinstance(value, numbers.Real) and np.isnan(value))


def _most_frequent(values):
    """Most frequent value; ties go to the smallest."""
    if values.dtype.kind in "iuf":
        # sorted runs: the first longest run holds the smallest of the most frequent
        ordered = np.sort(values)
        starts = np.flatnonzero(np.concatenate(([True], ordered[1:] != ordered[:-1])))
        lengths = np.diff(np.append(starts, ordered.size))
        return ordered[starts[np.argmax(lengths)]].item()
    counts = Counter(values.tolist())
    best = max(counts.values())
    return min(v for v, c in counts.items() if c == best)


def _most_frequent_of_counts(counts):
    """Most frequent value of a Counter (ties to the smallest), NaN when empty."""
    if not counts:
        return np.nan
    best = max(counts.values())
    return min(v for v, c in counts.items() if c == best)


def _imputer_block(est):
    """Per block and column: observed count, mean, value counts (most_frequent) and
    whether a value is missing."""
    import copy

    template = copy.copy(est)

    def block(X):
        X = np.asarray(X)
        p = X.shape[1]
        if X.shape[0] == 0:
            return np.zeros(p), np.zeros(p), [Counter() for _ in range(p)], np.zeros(p, bool)
        model = copy.copy(template)
        X = model._validate(X, reset=True)
        if X.dtype.kind not in "iuf":
            raise DaskUnsupportedError(
                "SimpleImputer on Dask input takes numeric data; encode other columns first."
            )
        if est.strategy != "most_frequent" and model._nan_fast_path(X):
            # NaN marks the missing values: the in-memory fit's one-pass kernel
            count, mean, _ = _k.column_weighted_moments(np.ascontiguousarray(X),
                                                        np.ones(X.shape[0]))
            return count, mean, [Counter() for _ in range(p)], count < X.shape[0]
        mask = model._mask(X)
        count = (~mask).sum(axis=0).astype(np.float64)
        sums = np.where(mask, 0.0, X).sum(axis=0)
        mean = np.where(count > 0, sums / np.where(count > 0, count, 1.0), 0.0)
        counters = [Counter(X[~mask[:, j], j].tolist()) if est.strategy == "most_frequent"
                    else Counter() for j in range(p)]
        return count, mean, counters, mask.any(axis=0)

    return block


def _merge_imputer_stats(a, b):
    na, ma, ca, ia = a
    nb, mb, cb, ib = b
    n = na + nb
    safe = np.where(n > 0, n, 1.0)
    mean = np.where(n > 0, ma + (mb - ma) * (nb / safe), 0.0)
    return n, mean, [x + y for x, y in zip(ca, cb, strict=True)], ia | ib


def _sparse_missing_mask(data, missing_values):
    """Which stored values of a sparse matrix are missing (``missing_values`` != 0)."""
    return np.isnan(data) if _is_nan_like(missing_values) else data == missing_values


def _kth_with_zeros(sorted_values, n_negative, n_zeros, k):
    """The k-th smallest of ``sorted_values`` with ``n_zeros`` zeros inserted."""
    if k < n_negative:
        return sorted_values[k]
    if k < n_negative + n_zeros:
        return 0.0
    return sorted_values[k - n_zeros]


def _median_with_zeros(values, n_zeros):
    """Median of ``values`` together with ``n_zeros`` zeros, without materialising them."""
    n = values.size + n_zeros
    if n == 0:
        return np.nan
    v = np.sort(values)
    n_neg = int(np.searchsorted(v, 0.0))
    lo = _kth_with_zeros(v, n_neg, n_zeros, (n - 1) // 2)
    hi = _kth_with_zeros(v, n_neg, n_zeros, n // 2)
    return (lo + hi) / 2.0


def _most_frequent_with_zeros(values, n_zeros):
    """Most frequent of ``values`` plus ``n_zeros`` zeros; ties go to the smallest."""
    uniques, counts = np.unique(values, return_counts=True)
    if n_zeros:
        at = np.searchsorted(uniques, 0.0)
        if at < uniques.size and uniques[at] == 0.0:
            counts[at] += n_zeros
        else:
            uniques = np.insert(uniques, at, 0.0)
            counts = np.insert(counts, at, n_zeros)
    if uniques.size == 0:
        return np.nan
    return float(uniques[np.argmax(counts)])


def _fill_empty_statistics(stats, empty, imputer):
    """Statistics of features with no observed value: 0 (or the constant) when they are
    kept, NaN when they are dropped."""
    if not empty.any():
        return
    if not imputer.keep_empty_features:
        stats[empty] = np.nan
    elif imputer.strategy != "constant":
        stats[empty] = 0


class SimpleImputer(TransformerMixin, BaseEstimator):
    """Replace missing values by a per-feature statistic.

    Parameters
    ----------
    missing_values : int, float, str, None or np.nan, default=np.nan
        The placeholder of a missing value. With NaN (or None), both NaN and
        None count as missing in object columns.
    strategy : {"mean", "median", "most_frequent", "constant"} or callable
        "mean" and "median" need numeric data; "most_frequent" and
        "constant" also work on strings. A callable gets the observed values
        of one feature and returns the fill value.
    fill_value : str or number, default=None
        The value of the "constant" strategy (default 0 for numeric data,
        "missing_value" for strings).
    copy : bool, default=True
        Accepted for compatibility; inputs are never modified.
    add_indicator : bool, default=False
        Append one 0/1 column per feature that had missing values in fit.
    keep_empty_features : bool, default=False
        Keep features with no observed value in fit (filled with 0, or
        ``fill_value`` for "constant"); otherwise they are dropped.

    Attributes
    ----------
    statistics_ : ndarray of shape (n_features,)
        The fill value of each feature (NaN for empty features).
    indicator_features_ : ndarray of int or None
        Features that get an indicator column (``add_indicator``).
    n_features_in_ : int
    feature_names_in_ : ndarray of str

    Examples
    --------
    >>> import numpy as np
    >>> SimpleImputer().fit_transform([[1.0, np.nan], [3.0, 4.0]]).tolist()
    [[1.0, 4.0], [3.0, 4.0]]
    >>> SimpleImputer(strategy="most_frequent").fit_transform(
    ...     np.array([["a"], ["b"], ["b"], [None]], dtype=object)).ravel().tolist()
    ['a', 'b', 'b', 'b']
    """

    _parameter_constraints = {
        "missing_values": [numbers.Real, numbers.Integral, str, None],
        "strategy": [StrOptions({"mean", "median", "most_frequent", "constant"}), "callable"],
        "fill_value": "no_validation",
        "copy": ["boolean"],
        "add_indicator": ["boolean"],
        "keep_empty_features": ["boolean"],
    }

    def __init__(self, *, missing_values=np.nan, strategy="mean", fill_value=None, copy=True,
                 add_indicator=False, keep_empty_features=False):
        self.missing_values = missing_values
        self.strategy = strategy
        self.fill_value = fill_value
        self.copy = copy
        self.add_indicator = add_indicator
        self.keep_empty_features = keep_empty_features

    def __classiclearn_tags__(self):
        tags = super().__classiclearn_tags__()
        tags.allow_nan = _is_nan_like(self.missing_values)
        tags.imputes_nan = tags.allow_nan
        tags.preserves_dtype = ["float64", "float32"]
        tags.sparse = True
        return tags

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.string = True
        return tags

    def _validate(self, X, reset):
        X = check_categorical_X(self, X, reset=reset, allow_nan=True)
        if X.dtype.kind == "f" and not _is_nan_like(self.missing_values) and \
                np.isnan(X).any():
            raise ValueError("Input X contains NaN.")
        if X.dtype.kind in "iub":
            if _is_nan_like(self.missing_values):
                X = X.astype(np.float64)
        if X.dtype.kind == "O" and self.strategy in ("mean", "median"):
            try:
                X = np.where(is_missing(X, self.missing_values), np.nan, X).astype(np.float64)
            except (TypeError, ValueError) as exc:
                raise ValueError(
                    f"Cannot use {self.strategy} strategy with non-numeric data:\n{exc}"
                ) from exc
        if X.dtype.kind == "f" and not isinstance(self.missing_values, numbers.Real | None):
            raise ValueError(
                "'X' and 'missing_values' types are expected to be both numerical. Got "
                f"X.dtype={X.dtype} and type(missing_values)={type(self.missing_values)}."
            )
        return X

    def _mask(self, X):
        mask = is_missing(X, self.missing_values)
        if X.dtype.kind == "f":
            mask |= np.isnan(X)
        return mask

    def fit(self, X, y=None):
        """Learn the fill value of each feature.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : ignored

        Returns
        -------
        self
        """
        self._validate_params()
        if sp.issparse(X):
            return self._fit_sparse(X)
        X = self._validate(X, reset=True)
        if self._nan_fast_path(X) and self.strategy in ("mean", "median"):
            return self._fit_numeric_nan(X)
        mask = self._mask(X)
        numeric = X.dtype.kind in "iuf"
        fill = self.fill_value
        if self.strategy == "constant":
            if fill is None:
                fill = 0 if numeric else "missing_value"
            elif numeric and not isinstance(fill, numbers.Real):
                raise ValueError(
                    f"fill_value={fill!r} is invalid. Expected a numerical value when "
                    "imputing numerical data"
                )
        stats = np.empty(X.shape[1], dtype=np.float64 if numeric else object)
        empty = np.zeros(X.shape[1], dtype=bool)
        columns = range(X.shape[1])
        if self.strategy == "constant":  # no statistic: only which columns are empty
            stats[:] = fill
            empty = mask.all(axis=0)
            columns = ()
        for j in columns:
            observed = X[~mask[:, j], j]
            if observed.size == 0:
                empty[j] = True
                stats[j] = np.nan
                continue
            if self.strategy == "mean":
                stats[j] = observed.astype(np.float64).mean()
            elif self.strategy == "median":
                stats[j] = np.median(observed.astype(np.float64))
            elif self.strategy == "most_frequent":
                stats[j] = _most_frequent(observed)
            else:
                stats[j] = self.strategy(observed)
        _fill_empty_statistics(stats, empty, self)
        self.statistics_ = stats
        self._empty = empty & (not self.keep_empty_features)
        if self.add_indicator:
            self.indicator_features_ = np.flatnonzero(mask.any(axis=0))
        else:
            self.indicator_features_ = None
        return self

    def _fit_dask(self, X, y=None):
        """Fit on Dask input from per-block column statistics merged in block order:
        exact for "mean" (counts and means merged), "most_frequent" (value counts
        added) and "constant"; "median" would need every value of a column at once
        and is refused."""
        self._validate_params()
        if fit_one_block_in_memory(self, X) is not None:
            return self
        if self.strategy not in ("mean", "most_frequent", "constant"):
            raise DaskUnsupportedError(
                f"SimpleImputer(strategy={self.strategy!r}) on Dask input: an exact median "
                "needs every value of a column at once; use strategy='mean', "
                "'most_frequent' or 'constant', or fit on a sample in memory."
            )
        count, mean, counters, any_missing = reduce_blocks(
            _imputer_block(self), _merge_imputer_stats, dask_blocks(X))
        record_input_features(self, X)
        n_features = len(count)
        fill = self.fill_value
        if self.strategy == "constant":
            stats = np.full(n_features, 0.0 if fill is None else fill, dtype=np.float64)
        elif self.strategy == "mean":
            stats = np.where(count > 0, mean, np.nan)
        else:
            stats = np.array([_most_frequent_of_counts(c) for c in counters], dtype=np.float64)
        empty = count == 0
        _fill_empty_statistics(stats, empty, self)
        self.statistics_ = stats
        self._empty = empty & (not self.keep_empty_features)
        self.indicator_features_ = np.flatnonzero(any_missing) if self.add_indicator else None
        return self

    def _validate_sparse(self, X, reset):
        """Sparse X as float CSC; refuses ``missing_values=0`` (every implicit zero would
        be missing)."""
        if self.missing_values == 0:
            raise ValueError(
                "Imputation not possible when missing_values == 0 and input is sparse. "
                "Provide a dense array instead."
            )
        X = validate_data(self, X, reset=reset, accept_sparse="csc", dtype=(np.float64, np.float32),
                          ensure_all_finite="allow-nan" if _is_nan_like(self.missing_values)
                          else True)
        if not X.has_canonical_format:
            X = X.copy()  # the caller's matrix is left as it was
            X.sum_duplicates()
        return X

    def _fit_sparse(self, X):
        """Statistics of sparse X: implicit zeros are observed values (only stored entries
        can be missing). A callable strategy receives a column's observed values with its
        zeros."""
        X = self._validate_sparse(X, reset=True)
        n_rows, n_features = X.shape
        missing = _sparse_missing_mask(X.data, self.missing_values)
        any_missing = bool(missing.any())
        n_missing = (segment_sum(missing, X.indptr).astype(np.intp) if any_missing
                     else np.zeros(n_features, dtype=np.intp))
        count = n_rows - n_missing
        empty = count == 0
        if self.strategy == "constant":
            fill = 0.0 if self.fill_value is None else self.fill_value
            if not isinstance(fill, numbers.Real):
                raise ValueError(
                    f"fill_value={fill!r} is invalid. Expected a numerical value when "
                    "imputing numerical data"
                )
            stats = np.full(n_features, float(fill))
        elif self.strategy == "mean":
            observed = np.where(missing, 0.0, X.data) if any_missing else X.data
            sums = segment_sum(observed, X.indptr)
            stats = np.where(empty, np.nan, sums / np.maximum(count, 1))
        else:
            stats = np.array([self._sparse_column_statistic(X, missing, j, n_rows)
                              for j in range(n_features)], dtype=np.float64)
        _fill_empty_statistics(stats, empty, self)
        self.statistics_ = stats
        self._empty = empty & (not self.keep_empty_features)
        self.indicator_features_ = np.flatnonzero(n_missing) if self.add_indicator else None
        return self

    def _sparse_column_statistic(self, X, missing, j, n_rows):
        start, stop = X.indptr[j], X.indptr[j + 1]
        observed = X.data[start:stop][~missing[start:stop]]
        n_zeros = n_rows - (stop - start)
        if observed.size + n_zeros == 0:
            return np.nan
        if self.strategy == "median":
            return _median_with_zeros(observed, n_zeros)
        if self.strategy == "most_frequent":
            return _most_frequent_with_zeros(observed, n_zeros)
        return self.strategy(np.concatenate([observed, np.zeros(n_zeros, dtype=observed.dtype)]))

    def _transform_sparse(self, X):
        """Replace the stored missing values of sparse X; returns CSC in X's container kind,
        with the indicator columns appended as stored ones."""
        original = X
        X = self._validate_sparse(X, reset=False)
        given = getattr(original, "data", None)
        if isinstance(given, np.ndarray) and np.shares_memory(X.data, given):
            X = X.copy()  # (a conversion to CSC or float has made new arrays already)
        missing = _sparse_missing_mask(X.data, self.missing_values)
        at = np.flatnonzero(missing)
        columns = np.searchsorted(X.indptr, at, side="right") - 1  # of each missing entry
        indicator = self._sparse_indicator(X, at, columns) if self.add_indicator else None
        if at.size:
            X.data[at] = self.statistics_[columns].astype(X.dtype)
            X.eliminate_zeros()
        self._warn_empty_features(stacklevel=4)
        out = X[:, np.flatnonzero(~self._empty)] if self._empty.any() else X
        if indicator is not None:
            out = sp.hstack([out, indicator], format="csc")
        return like_input(out, original)

    def _sparse_indicator(self, X, at, columns):
        """0/1 CSC array of the missing entries (stored positions ``at``, in ``columns``)
        of the ``indicator_features_``."""
        position = np.full(X.shape[1], -1)
        position[self.indicator_features_] = np.arange(self.indicator_features_.size)
        keep = position[columns] >= 0
        return sp.csc_array(
            (np.ones(int(keep.sum()), dtype=X.dtype),
             (X.indices[at[keep]], position[columns[keep]])),
            shape=(X.shape[0], self.indicator_features_.size))

    def _warn_empty_features(self, stacklevel):
        if self._empty.any():
            warnings.warn(
                "Skipping features without any observed values: "
                f"{np.flatnonzero(self._empty).tolist()}. At least one non-missing value is "
                f"needed for imputation with strategy='{self.strategy}'.",
                UserWarning,
                stacklevel=stacklevel,
            )

    def _nan_fast_path(self, X):
        return X.dtype.kind == "f" and _is_nan_like(self.missing_values)

    def _fit_numeric_nan(self, X):
        """Mean or median of float data with NaN as the missing marker, vectorised."""
        X = np.ascontiguousarray(X)
        if self.strategy == "mean":
            count, stats, _ = _k.column_weighted_moments(X, np.ones(X.shape[0]))
            empty = count == 0
            stats = np.where(empty, np.nan, stats)
        else:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)
                stats = np.nanmedian(X, axis=0).astype(np.float64)
            empty = np.isnan(stats)
        if empty.any() and self.keep_empty_features:
            stats = np.where(empty, 0.0, stats)
        self.statistics_ = stats
        self._empty = empty & (not self.keep_empty_features)
        if self.add_indicator:
            self.indicator_features_ = np.flatnonzero(np.isnan(X).any(axis=0))
        else:
            self.indicator_features_ = None
        return self

    def transform(self, X):
        """Fill the missing values of X.

        Parameters
        ----------
        X : array-like or sparse matrix of shape (n_samples, n_features)

        Returns
        -------
        ndarray or sparse CSC array of shape (n_samples, n_features_out)
            Sparse X gives sparse output in its container kind. Features empty in fit are dropped (unless ``keep_empty_features``);
            indicator columns are appended with ``add_indicator``.
        """
        check_is_fitted(self)
        if sp.issparse(X):
            return self._transform_sparse(X)
        X = self._validate(X, reset=False)
        stats = self.statistics_
        if self._nan_fast_path(X) and stats.dtype.kind == "f":
            return self._transform_numeric_nan(X)
        mask = self._mask(X)
        if X.dtype.kind in "iub" and stats.dtype.kind == "f" and mask.any():
            X = X.astype(np.float64)
        out = X.astype(object) if stats.dtype == object and X.dtype != object else X.copy()
        self._warn_empty_features(stacklevel=3)
        rows, cols = np.nonzero(mask)
        if len(rows):
            values = stats[cols]
            if out.dtype.kind in "iu" and values.dtype.kind == "f":
                out = out.astype(np.float64)
            out[rows, cols] = values
        out = out[:, ~self._empty]
        if self.add_indicator:
            ind = mask[:, self.indicator_features_].astype(out.dtype if out.dtype != object
                                                           else np.float64)
            out = np.hstack([out, ind.astype(out.dtype)]) if out.dtype != object else \
                np.hstack([out, ind.astype(object)])
        return out

    def _transform_numeric_nan(self, X):
        X = np.ascontiguousarray(X)
        self._warn_empty_features(stacklevel=4)
        out = np.empty_like(X)
        _k.fill_nan(X, self.statistics_.astype(X.dtype), out)
        if self._empty.any():
            out = out[:, ~self._empty]
        if self.add_indicator:
            ind = np.isnan(X[:, self.indicator_features_]).astype(out.dtype)
            out = np.hstack([out, ind])
        return out

    def inverse_transform(self, X):
        """Put ``missing_values`` back where indicator columns are 1 (needs ``add_indicator``).

        Returns
        -------
        ndarray of shape (n_samples, n_features_in_)
        """
        check_is_fitted(self)
        if not self.add_indicator:
            raise ValueError(
                "'inverse_transform' works only when 'SimpleImputer' is instantiated with "
                f"'add_indicator=True'. Got 'add_indicator={self.add_indicator}' instead."
            )
        X = np.asarray(X)
        n_kept = int((~self._empty).sum())
        values, ind = X[:, :n_kept], X[:, n_kept:]
        out = np.full((X.shape[0], self.n_features_in_), self.missing_values,
                      dtype=values.dtype if values.dtype != object else object)
        out[:, ~self._empty] = values
        for k, j in enumerate(self.indicator_features_):
            out[ind[:, k].astype(bool), j] = self.missing_values
        return out

    def get_feature_names_out(self, input_features=None):
        """Kept input names, then ``missingindicator_<name>`` columns.

        Returns
        -------
        ndarray of str
        """
        names = feature_names_in(self, input_features)
        out = list(names[~self._empty])
        if self.add_indicator:
            out += [f"missingindicator_{names[j]}" for j in self.indicator_features_]
        return np.asarray(out, dtype=object)
