"""A table to one float matrix: impute, one-hot encode, optionally standardise (the
first step of the command line's pipelines).

:class:`TabularEncoder` turns a table (a pandas DataFrame, or a 2-D array) with
numeric and categorical columns into one float matrix. It is the first step of
every pipeline ``classiclearn compare`` and ``classiclearn fit`` build, so that
everything it learns (medians, most frequent categories, the category lists,
means and standard deviations) is learned inside each cross-validation fold
from the training rows only and never leaks across folds.

This module imports only NumPy: model files that hold a ``TabularEncoder`` load
without pandas.
"""

import warnings

import numpy as np
import scipy.sparse as sp

from ..base import BaseEstimator, TransformerMixin
from ..utils.validation import check_is_fitted

__all__ = ["TabularEncoder"]


def _is_frame(X):
    return hasattr(X, "columns") and hasattr(X, "iloc")


def _column(X, name):
    if _is_frame(X):
        return X[name].to_numpy()
    return np.asarray(X)[:, name]


def _numeric(X, name):
    """A column as float64 with NaN for missing values (pandas NA included)."""
    if _is_frame(X):
        try:
            # a copy: pandas may hand out a read-only view of its data
            return np.array(X[name].to_numpy(dtype=np.float64, na_value=np.nan))
        except (TypeError, ValueError):
            pass
    return _as_float(_column(X, name), name)


def _as_float(values, name):
    if values.dtype.kind in "biuf":
        return values.astype(np.float64)  # always a copy
    out = np.empty(len(values), dtype=np.float64)
    for i, v in enumerate(values):
        if v is None or (isinstance(v, float) and v != v) or type(v).__name__ == "NAType":
            out[i] = np.nan
            continue
        try:
            out[i] = float(v)
        except (TypeError, ValueError):
            raise ValueError(
                f"column {name!r} is numeric in the training data but holds {v!r}"
            ) from None
    return out


def _as_labels(values):
    """Category labels as an object array of str, with None for missing values."""
    out = np.empty(len(values), dtype=object)
    for i, v in enumerate(values):
        if v is None or (isinstance(v, float) and v != v) or type(v).__name__ == "NAType":
            out[i] = None
        elif isinstance(v, float) and v.is_integer():
            out[i] = str(int(v))
        else:
            out[i] = str(v)
    return out


def _categorical(values):
    """Whether a column (NumPy array or pandas Series) holds categories rather than numbers."""
    dtype = values.dtype
    return getattr(dtype, "kind", "O") not in "iuf" or str(dtype) in ("category", "string")


class TabularEncoder(TransformerMixin, BaseEstimator):
    """Impute missing values, one-hot encode categorical columns, optionally standardise.

    Parameters
    ----------
    numeric_columns : list of str or int, default=None
        Columns read as numbers. With both lists None, the column kinds are
        taken from the dtypes seen in ``fit`` (object, string, category and
        bool columns are categorical).
    categorical_columns : list of str or int, default=None
        Columns one-hot encoded (one 0/1 column per category seen in ``fit``;
        a category not seen in ``fit`` encodes as all zeros).
    numeric_impute : {"median", "mean"} or None, default="median"
        Value that replaces a missing number (learned in ``fit``); None keeps
        missing numbers as NaN (for models that learn where they go, such as
        trees and forests). A missing category is replaced by the most frequent
        category.
    standardize : bool, default=False
        Centre and scale every output column to unit variance (constant
        columns are only centred). With sparse output the columns are only
        scaled, since centring would fill in the zeros.
    sparse_output : bool or "auto", default=False
        Return a scipy ``csr_array`` instead of a dense array. "auto" does so
        when the one-hot columns number at least ``SPARSE_MIN_CATEGORIES``,
        so a table with high-cardinality columns does not become a dense
        matrix with one column per category.

    Attributes
    ----------
    numeric_columns_, categorical_columns_ : list
        The columns used, in output order.
    n_features_in_ : int
        Number of columns read.
    feature_names_in_ : ndarray of str
        Names of the columns read (numeric then categorical), when fitted on a
        DataFrame with string column names.
    fill_values_ : ndarray of shape (n_numeric,)
        Imputation value of each numeric column.
    categories_ : list of ndarray of str
        Sorted categories of each categorical column.
    fill_categories_ : list of str
        Most frequent category of each categorical column.
    mean_, scale_ : ndarray of shape (n_features_out,) or None
        Standardisation parameters (when ``standardize``).
    feature_names_out_ : ndarray of str
        Output column names (``col`` or ``col=category``).

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[1.0, 2.0], [np.nan, 4.0], [3.0, 6.0]])
    >>> TabularEncoder().fit_transform(X)
    array([[1., 2.],
           [2., 4.],
           [3., 6.]])
    """

    SPARSE_MIN_CATEGORIES = 100

    def __init__(
        self,
        numeric_columns=None,
        categorical_columns=None,
        *,
        numeric_impute="median",
        standardize=False,
        sparse_output=False,
    ):
        self.numeric_columns = numeric_columns
        self.categorical_columns = categorical_columns
        self.numeric_impute = numeric_impute
        self.standardize = standardize
        self.sparse_output = sparse_output

    def _columns(self, X):
        if _is_frame(X):
            names = list(X.columns)
        else:
            names = list(range(np.asarray(X).shape[1]))
        if self.numeric_columns is None and self.categorical_columns is None:
            numeric, categorical = [], []
            for name in names:
                values = X[name] if _is_frame(X) else _column(X, name)
                (categorical if _categorical(values) else numeric).append(name)
            return numeric, categorical
        return list(self.numeric_columns or []), list(self.categorical_columns or [])

    def fit(self, X, y=None):
        """Learn imputation values, categories and scaling from X.

        Returns
        -------
        self
        """
        if self.numeric_impute not in ("median", "mean", None):
            raise ValueError(
                "numeric_impute must be 'median', 'mean' or None; got "
                f"{self.numeric_impute!r}"
            )
        if not _is_frame(X):
            X = np.asarray(X)
            if X.ndim != 2:
                raise ValueError(f"Expected 2D array, got {X.ndim}D array instead.")
        numeric, categorical = self._columns(X)
        self._check_present(X, numeric + categorical)
        fills = []
        for name in numeric:
            values = _numeric(X, name)
            finite = values[~np.isnan(values)]
            if self.numeric_impute is None:
                fills.append(np.nan)
            elif finite.size == 0:
                fills.append(0.0)
            elif self.numeric_impute == "median":
                fills.append(float(np.median(finite)))
            else:
                fills.append(float(np.mean(finite)))
        categories, fill_categories = [], []
        for name in categorical:
            labels = _as_labels(_column(X, name))
            seen = [v for v in labels if v is not None]
            if seen:
                cats, counts = np.unique(np.array(seen, dtype=object), return_counts=True)
                fill = cats[int(np.argmax(counts))]
            else:
                cats, fill = np.array(["missing"], dtype=object), "missing"
            categories.append(np.asarray(cats, dtype=object))
            fill_categories.append(str(fill))
        self.numeric_columns_ = numeric
        self.categorical_columns_ = categorical
        self.fill_values_ = np.asarray(fills, dtype=np.float64)
        self.categories_ = categories
        self.fill_categories_ = fill_categories
        self.n_features_in_ = len(numeric) + len(categorical)
        used = numeric + categorical
        self.__dict__.pop("feature_names_in_", None)
        if _is_frame(X) and all(isinstance(c, str) for c in used):
            self.feature_names_in_ = np.asarray(used, dtype=object)
        out_names = [str(n) for n in numeric]
        for name, cats in zip(categorical, categories):
            out_names.extend(f"{name}={c}" for c in cats)
        self.feature_names_out_ = np.asarray(out_names, dtype=object)
        self.sparse_output_ = self._decide_sparse(categories)
        self.mean_ = self.scale_ = None
        if self.standardize:
            Z = self._encode(X)
            if self.sparse_output_:
                self._fit_sparse_scale(Z)
                return self
            if self.numeric_impute is None:
                with warnings.catch_warnings():
                    # a column with no value at all (kept NaN) is centred by 0
                    warnings.simplefilter("ignore", RuntimeWarning)
                    self.mean_ = np.nan_to_num(np.nanmean(Z, axis=0))
                    scale = np.nan_to_num(np.nanstd(Z, axis=0))
            else:
                self.mean_ = Z.mean(axis=0)
                scale = Z.std(axis=0)
            scale[scale == 0.0] = 1.0
            self.scale_ = scale
        return self

    def _decide_sparse(self, categories):
        if self.sparse_output not in (True, False, "auto"):
            raise ValueError(
                f"sparse_output must be True, False or 'auto'; got {self.sparse_output!r}"
            )
        if self.sparse_output == "auto":
            return sum(len(c) for c in categories) >= self.SPARSE_MIN_CATEGORIES
        return bool(self.sparse_output)

    def _fit_sparse_scale(self, Z):
        from ..utils._sparse import column_mean_var

        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            _, var = column_mean_var(sp.csc_array(Z))
        scale = np.sqrt(var)
        scale[~(scale > 0.0)] = 1.0
        self.mean_ = np.zeros_like(scale)
        self.scale_ = scale

    def _check_present(self, X, names):
        if _is_frame(X):
            missing = [n for n in names if n not in X.columns]
        else:
            width = X.shape[1]
            missing = [n for n in names if not (isinstance(n, int) and 0 <= n < width)]
        if missing:
            raise ValueError(f"the data lack the column(s) {missing}")

    def _encode(self, X):
        """The encoded matrix: dense, or CSR when ``sparse_output_``."""
        n = X.shape[0]
        n_numeric = len(self.numeric_columns_)
        width = n_numeric + sum(len(c) for c in self.categories_)
        numbers = np.empty((n, n_numeric), dtype=np.float64)
        for j, name in enumerate(self.numeric_columns_):
            values = _numeric(X, name)
            values[np.isnan(values)] = self.fill_values_[j]
            numbers[:, j] = values
        hot_rows, hot_cols = self._one_hot_positions(X, n_numeric)
        if getattr(self, "sparse_output_", False):
            rows, cols = np.nonzero(numbers)
            rows = np.concatenate([rows, hot_rows])
            cols = np.concatenate([cols, hot_cols])
            data = np.concatenate([numbers[np.nonzero(numbers)], np.ones(len(hot_rows))])
            return sp.csr_array((data, (rows, cols)), shape=(n, width))
        Z = np.zeros((n, width), dtype=np.float64)
        Z[:, :n_numeric] = numbers
        Z[hot_rows, hot_cols] = 1.0
        return Z

    def _one_hot_positions(self, X, offset):
        """Row and output-column index of every 1 of the one-hot block."""
        all_rows, all_cols = [], []
        for name, cats, fill in zip(
            self.categorical_columns_, self.categories_, self.fill_categories_
        ):
            labels = _as_labels(_column(X, name))
            labels[[v is None for v in labels]] = fill
            index = {c: k for k, c in enumerate(cats)}
            codes = np.fromiter((index.get(v, -1) for v in labels), dtype=np.int64,
                                count=len(labels))
            known = np.flatnonzero(codes >= 0)
            all_rows.append(known)
            all_cols.append(offset + codes[known])
            offset += len(cats)
        if not all_rows:
            return np.empty(0, dtype=np.int64), np.empty(0, dtype=np.int64)
        return np.concatenate(all_rows), np.concatenate(all_cols)

    def transform(self, X):
        """Encode X with what ``fit`` learned.

        Returns
        -------
        ndarray or csr_array of shape (n_samples, n_features_out)
        """
        check_is_fitted(self)
        if not _is_frame(X):
            X = np.asarray(X)
            if X.ndim != 2:
                raise ValueError(f"Expected 2D array, got {X.ndim}D array instead.")
        self._check_present(X, self.numeric_columns_ + self.categorical_columns_)
        Z = self._encode(X)
        if self.standardize and sp.issparse(Z):
            return sp.csr_array(Z @ sp.diags_array(1.0 / self.scale_))
        if self.standardize:
            Z -= self.mean_
            Z /= self.scale_
        return Z

    def get_feature_names_out(self, input_features=None):
        """Names of the output columns.

        Returns
        -------
        ndarray of str
        """
        check_is_fitted(self)
        return self.feature_names_out_.copy()
