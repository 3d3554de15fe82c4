"""Shared helpers of the preprocessing transformers: feature names out and
validation of categorical (string or numeric) input. (Pandas / polars output
comes from :class:`classiclearn.base.TransformerMixin`.)"""

import numbers

import numpy as np
import scipy.sparse as sp

from ..utils.validation import (
    _check_feature_names,
    _check_n_features,
    _is_pandas_df,
    check_is_fitted,
)

__all__ = ["check_categorical_X", "feature_names_in", "is_missing"]


def feature_names_in(estimator, input_features=None):
    """Input feature names: ``input_features``, ``feature_names_in_`` or x0, x1, ...

    Parameters
    ----------
    estimator : fitted transformer
    input_features : array-like of str, optional

    Returns
    -------
    ndarray of str (object dtype)
    """
    check_is_fitted(estimator, "n_features_in_")
    fitted = getattr(estimator, "feature_names_in_", None)
    n = estimator.n_features_in_
    if input_features is None:
        if fitted is not None:
            return np.asarray(fitted, dtype=object)
        return np.asarray([f"x{i}" for i in range(n)], dtype=object)
    names = np.asarray(input_features, dtype=object)
    if fitted is not None and (len(names) != len(fitted) or np.any(names != fitted)):
        raise ValueError("input_features is not equal to feature_names_in_")
    if len(names) != n:
        raise ValueError(
            f"input_features should have length equal to number of features ({n}), got "
            f"{len(names)}"
        )
    return names


def is_missing(values, missing_values):
    """Boolean mask of entries equal to ``missing_values`` (NaN and None aware)."""
    values = np.asarray(values)
    nan_like = missing_values is None or (
        isinstance(missing_values, numbers.Real) and np.isnan(missing_values)
    )
    if values.dtype.kind == "f":
        if nan_like:
            return np.isnan(values)
        return values == missing_values
    if values.dtype.kind in "iub":
        if nan_like:
            return np.zeros(values.shape, dtype=bool)
        return values == missing_values
    flat = values.ravel()
    if nan_like:
        mask = np.fromiter(
            (v is None or (isinstance(v, float) and v != v) or type(v).__name__ == "NAType"
             for v in flat),
            dtype=bool, count=flat.size,
        )
    else:
        mask = np.fromiter(
            (isinstance(v, type(missing_values)) and v == missing_values for v in flat),
            dtype=bool, count=flat.size,
        )
    return mask.reshape(values.shape)


def check_categorical_X(estimator, X, *, reset, allow_nan=True):
    """Validate X that may hold strings: a 2-D numeric or object array.

    Records or checks ``n_features_in_`` / ``feature_names_in_`` like
    ``validate_data``, but never converts strings to numbers.
    """
    if sp.issparse(X):
        raise TypeError(
            "Sparse data was passed for X, but dense data is required. Use '.toarray()' to "
            "convert to a dense numpy array."
        )
    if X is None:
        raise ValueError("Expected 2D array for X, got None instead.")
    _check_feature_names(estimator, X, reset=reset)
    if _is_pandas_df(X):
        columns = [X.iloc[:, j].to_numpy() for j in range(X.shape[1])]
        if all(c.dtype.kind in "biuf" for c in columns) and columns:
            Xa = np.column_stack(columns) if X.shape[0] else np.empty((0, len(columns)))
        else:
            Xa = np.empty(X.shape, dtype=object)
            for j, c in enumerate(columns):
                Xa[:, j] = c
    else:
        Xa = np.asarray(X)
        if Xa.dtype.kind in "US":
            Xa = Xa.astype(object)
    if Xa.dtype.kind == "c":
        raise ValueError("Complex data not supported")
    if Xa.ndim == 0 or Xa.ndim == 1:
        raise ValueError(
            f"Expected 2D array, got {'scalar' if Xa.ndim == 0 else '1D'} array instead:\n"
            f"array={Xa!r}.\nReshape your data either using array.reshape(-1, 1) if your data "
            "has a single feature or array.reshape(1, -1) if it contains a single sample."
        )
    if Xa.ndim > 2:
        raise ValueError(f"Found array with dim {Xa.ndim}. Expected <= 2.")
    if Xa.shape[0] < 1:
        raise ValueError(
            f"Found array with 0 sample(s) (shape={Xa.shape}) while a minimum of 1 is required"
            f" by {type(estimator).__name__}."
        )
    if Xa.shape[1] < 1:
        raise ValueError(
            f"Found array with 0 feature(s) (shape={Xa.shape}) while a minimum of 1 is "
            f"required by {type(estimator).__name__}."
        )
    if Xa.dtype.kind == "f":
        if np.isinf(Xa).any():
            raise ValueError(f"Input X contains infinity or a value too large for {Xa.dtype!r}.")
        if not allow_nan and np.isnan(Xa).any():
            raise ValueError("Input X contains NaN.")
    _check_n_features(estimator, Xa, reset=reset)
    return Xa
