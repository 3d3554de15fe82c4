"""Input validation shared by every estimator.

:func:`validate_data` is the one door data go through in ``fit``, ``predict``
and ``transform``: it turns lists, NumPy arrays and pandas objects into a
C-contiguous array of one float dtype (a new array whenever anything has to
change, so the caller's data are never modified), records or checks
``n_features_in_`` and ``feature_names_in_``, and raises errors worded the way
scikit-learn's checks (and its users) expect.
"""

import numbers
import threading
import warnings
import weakref
from contextlib import nullcontext

import numpy as np
import scipy.sparse as sp

from .._kernels.reductions import column_abs_max_and_nan
from .._kernels.work import BLAS_THREADED_DOT
from ..exceptions import DataConversionWarning, not_fitted_error
from ._threads import blas_single_thread

__all__ = [
    "FLOAT_DTYPES",
    "check_array",
    "check_consistent_length",
    "check_is_fitted",
    "check_sample_weight",
    "check_X_y",
    "cast_float_attributes",
    "check_float32_columns",
    "surely_finite",
    "check_magnitude",
    "column_or_1d",
    "input_float_dtype",
    "output_in_dtype",
    "power_of_two_scales",
    "power_of_two_unit",
    "squares_out_of_range",
    "num_samples",
    "validate_data",
]

FLOAT_DTYPES = (np.float64, np.float32)


def _is_pandas_df(X):
    return type(X).__module__.startswith("pandas") and hasattr(X, "columns") and hasattr(X, "iloc")


def _is_pandas_series(X):
    return type(X).__module__.startswith("pandas") and hasattr(X, "iloc") and not hasattr(X, "columns")


def _get_feature_names(X):
    """Column names of a DataFrame as an object array, or None."""
    if isinstance(X, np.ndarray) or not _is_pandas_df(X):
        return None
    names = np.asarray(X.columns, dtype=object)
    kinds = {type(n) for n in names}
    if not names.size or not any(isinstance(n, str) for n in names):
        return None
    if not all(isinstance(n, str) for n in names):
        raise TypeError(
            "Feature names are only supported if all input features have string names, "
            f"but your input has {sorted(t.__name__ for t in kinds)} as feature name / column "
            "name types. Convert the feature names to strings to use them."
        )
    return names


def num_samples(x):
    """Number of samples in an array-like, with a clear error for non-arrays."""
    if hasattr(x, "shape") and x.shape is not None:
        if len(x.shape) == 0:
            raise TypeError(f"Singleton array {x!r} cannot be considered a valid collection.")
        return x.shape[0]
    if not hasattr(x, "__len__"):
        raise TypeError(f"Expected sequence or array-like, got {type(x)}")
    return len(x)


def check_consistent_length(*arrays):
    """Raise ValueError unless all non-None arrays have the same first dimension."""
    lengths = [num_samples(a) for a in arrays if a is not None]
    if len(set(lengths)) > 1:
        raise ValueError(
            "Found input variables with inconsistent numbers of samples: "
            f"{[int(n) for n in lengths]}"
        )


def _to_numpy(array, dtype):
    if _is_pandas_df(array) or _is_pandas_series(array):
        try:
            return array.to_numpy(dtype=None)
        except (TypeError, ValueError):
            return np.asarray(array, dtype=object)
    return array


def _pick_dtype(orig_dtype, dtype):
    """Resolve the requested dtype: a tuple keeps the input dtype if listed."""
    if dtype is None:
        return None
    if isinstance(dtype, str) and dtype == "numeric":
        if orig_dtype is not None and orig_dtype.kind in "OUSb":
            return np.float64
        return None
    if isinstance(dtype, tuple | list):
        if orig_dtype is not None and any(orig_dtype == d for d in dtype):
            return None
        return dtype[0]
    return dtype


# The sums of squares of the last two contiguous float64 arrays checked by
# _assert_finite (X, then y), for check_magnitude on the same array object: one pass
# over X, not two. Per thread; an entry is used once, and held by a weak reference
# (an array freed since cannot be mistaken for a new one at the same address).
_LAST_SQUARES = threading.local()


def _remember_squares(array, squares):
    entries = [(ref, sq) for ref, sq in getattr(_LAST_SQUARES, "entries", [])
               if ref() is not None and ref() is not array]
    _LAST_SQUARES.entries = [*entries[-1:], (weakref.ref(array), squares)]


def _recall_squares(array):
    """The remembered sum of squares of this very array object (then forgotten), or None."""
    entries = getattr(_LAST_SQUARES, "entries", [])
    for k, (ref, squares) in enumerate(entries):
        if ref() is array:
            _LAST_SQUARES.entries = entries[:k] + entries[k + 1:]
            return squares
    return None


def _contiguous_float64(array):
    return (array.dtype == np.float64 and array.size > 0
            and (array.flags.c_contiguous or array.flags.f_contiguous))


def _numba_next(estimator):
    """Whether the estimator's work after validation runs on numba's pool (most do)
    rather than on BLAS (those that say so with ``_blas_after_validation``)."""
    return not getattr(estimator, "_blas_after_validation", False)


def _sum_of_squares(array, numba_next=True):
    """Σ x² of a contiguous float64 array, in one pass (inf on overflow).

    On the pool the caller's work uses next: each pool's threads spin for a
    while after a pass and would take the cores from the other's. Small arrays
    go to BLAS, which runs them on the calling thread; larger ones to numba
    (:mod:`classiclearn._kernels.reductions`) when numba's kernels come next,
    else to BLAS on one thread: a memory-bound pass gains little from BLAS's
    threads, which would then spin into whatever runs after the caller (the next
    fit of a search loop, on numba's pool).
    """
    flat = array.ravel(order="K")
    large = flat.shape[0] > BLAS_THREADED_DOT
    if large and numba_next:
        from .._kernels.reductions import sum_of_squares

        return sum_of_squares(flat)
    with blas_single_thread() if large else nullcontext(), \
            np.errstate(over="ignore", invalid="ignore"):
        return float(np.dot(flat, flat))


def surely_finite(array, numba_next=True):
    """Whether one summing pass proves every entry of a float array finite.

    A finite sum (of squares, for contiguous float64: :func:`_sum_of_squares`,
    on numba's pool or BLAS as ``numba_next`` says) proves it without an n x p
    temporary; False means "not proven" (a non-finite entry, or only an
    overflowing sum), for the caller's exact check.

    Examples
    --------
    >>> import numpy as np
    >>> surely_finite(np.ones(3)), surely_finite(np.array([1.0, np.nan]))
    (True, False)
    """
    if _contiguous_float64(array):
        return bool(np.isfinite(_sum_of_squares(array, numba_next)))
    with np.errstate(over="ignore", invalid="ignore"):
        return bool(np.isfinite(array.sum()))


def _assert_finite(array, input_name, allow_nan, numba_next=True):
    if array.dtype.kind not in "fc":
        return
    # A finite sum (of squares for contiguous float64: one pass, kept for
    # check_magnitude) proves every entry finite without an n x p temporary; an
    # overflowing one only sends us to the exact check below.
    if _contiguous_float64(array):
        squares = _sum_of_squares(array, numba_next)
        _remember_squares(array, squares)
        if np.isfinite(squares):
            return
    else:
        with np.errstate(over="ignore", invalid="ignore"):
            if np.isfinite(array.sum()):
                return
    # with NaN allowed (missing values) only an infinity is an error: one pass for it
    if not allow_nan:
        if np.isfinite(array).all():
            return
        if np.isnan(array).any():
            raise ValueError(f"Input {input_name} contains NaN.")
    if np.isinf(array).any():
        raise ValueError(
            f"Input {input_name} contains infinity or a value too large for {array.dtype!r}."
        )


def check_array(
    array,
    *,
    input_name="X",
    dtype=FLOAT_DTYPES,
    ensure_2d=True,
    allow_nd=False,
    ensure_all_finite=True,
    ensure_min_samples=1,
    ensure_min_features=1,
    accept_sparse=False,
    copy=False,
    order="C",
    estimator=None,
    sort_indices=True,
):
    """Validate an array and return a clean NumPy copy or view.

    Parameters
    ----------
    array : array-like
        List, NumPy array, pandas DataFrame / Series, or (when
        ``accept_sparse``) a scipy sparse matrix.
    input_name : str, default="X"
        Name used in error messages.
    dtype : dtype, tuple of dtypes, "numeric" or None, default=(float64, float32)
        With a tuple, an input already of one of those dtypes keeps it;
        otherwise it is converted to the first. "numeric" keeps numeric input
        and converts object / string / bool input to float64.
    ensure_2d : bool, default=True
        Raise on 1-D input instead of accepting it.
    allow_nd : bool, default=False
        Accept arrays with more than two dimensions.
    ensure_all_finite : bool or "allow-nan", default=True
        Raise on NaN or infinity.
    ensure_min_samples, ensure_min_features : int, default=1
        Minimum sizes.
    accept_sparse : bool, str or list of str, default=False
        Which scipy sparse formats are accepted instead of rejected. True
        accepts any format and returns CSR; a format name ("csr", "csc",
        "coo") or a list of them keeps an input already in one of those formats
        and converts any other to the first. Sparse results are always scipy
        sparse *arrays* (``csr_array`` ...), whatever the input container, so
        that estimator code has one set of operator semantics; transformers
        hand their output back in the caller's container with
        :func:`classiclearn.utils._sparse.like_input`.
    copy : bool, default=False
        Always return a new array.
    order : {"C", "F", None}, default="C"
        Memory layout of the result.
    estimator : estimator or str, optional
        Used to name the estimator in messages.
    sort_indices : bool, default=True
        Sort the column (row) indices of each row (column) of CSR (CSC) input
        that is not sorted, so that fits sum in one order whatever the input
        container; :func:`validate_data` skips it outside ``fit``.

    Returns
    -------
    ndarray
        Never the caller's array if it had to change in any way.

    Examples
    --------
    >>> check_array([[1, 2], [3, 4]]).dtype
    dtype('float64')
    >>> check_array([[1.0, float("nan")]])
    Traceback (most recent call last):
    ...
    ValueError: Input X contains NaN.
    """
    owner = _owner_name(estimator)
    if array is None:
        raise ValueError(f"Expected 2D array for {input_name}, got None instead.")
    if sp.issparse(array):
        if not accept_sparse:
            raise TypeError(
                f"Sparse data was passed for {input_name}, but dense data is required{owner}. "
                "Use '.toarray()' to convert to a dense numpy array."
            )
        array = _as_sparse_array(array, accept_sparse, _pick_dtype(array.dtype, dtype), copy,
                                 sort_indices)
        _check_sizes(array, input_name, ensure_min_samples, ensure_min_features, owner)
        if ensure_all_finite:
            _assert_finite(array.data, input_name, ensure_all_finite == "allow-nan",
                           _numba_next(estimator))
        return array

    array = _to_numpy(array, dtype)
    if not hasattr(array, "dtype"):
        array = np.asarray(array)
    orig_dtype = getattr(array, "dtype", None)
    if not hasattr(orig_dtype, "kind"):
        orig_dtype = None
    if orig_dtype is not None and orig_dtype.kind == "c":
        raise ValueError("Complex data not supported")
    target = _pick_dtype(orig_dtype, dtype)
    if orig_dtype is not None and orig_dtype.kind in "biuf":
        result = np.asarray(array, dtype=target)  # a real array: no complex to catch
    else:
        with warnings.catch_warnings():
            warnings.simplefilter("error", np.exceptions.ComplexWarning)
            try:
                result = np.asarray(array, dtype=target)
            except np.exceptions.ComplexWarning as exc:
                raise ValueError("Complex data not supported") from exc
    if result.dtype.kind == "c":
        raise ValueError("Complex data not supported")
    if result.dtype.kind in "OUS" and dtype is not None and not isinstance(dtype, str):
        result = result.astype(np.float64)

    if ensure_2d:
        if result.ndim == 0:
            raise ValueError(
                f"Expected 2D array, got scalar array instead:\narray={result!r}.\n"
                "Reshape your data either using array.reshape(-1, 1) if your data has a "
                "single feature or array.reshape(1, -1) if it contains a single sample."
            )
        if result.ndim == 1:
            raise ValueError(
                f"Expected 2D array, got 1D array instead:\narray={result!r}.\n"
                "Reshape your data either using array.reshape(-1, 1) if your data has a "
                "single feature or array.reshape(1, -1) if it contains a single sample."
            )
    if result.ndim >= 3 and not allow_nd:
        raise ValueError(f"Found array with dim {result.ndim}{owner}. Expected <= 2.")

    if ensure_all_finite:
        _assert_finite(result, input_name, ensure_all_finite == "allow-nan",
                       _numba_next(estimator))
    _check_sizes(result, input_name, ensure_min_samples, ensure_min_features, owner)

    if order == "C":
        result = np.ascontiguousarray(result)
    elif order == "F":
        result = np.asfortranarray(result)
    if copy or _shares_memory(result, array):
        if copy or not result.flags.writeable:
            result = result.copy(order="K")
    return result


_SPARSE_ARRAY_TYPES = {"csr": sp.csr_array, "csc": sp.csc_array, "coo": sp.coo_array}


def _accepted_formats(accept_sparse):
    if accept_sparse is True:
        return ("csr", "csc", "coo")
    formats = (accept_sparse,) if isinstance(accept_sparse, str) else tuple(accept_sparse)
    unknown = [f for f in formats if f not in _SPARSE_ARRAY_TYPES]
    if unknown or not formats:
        raise ValueError(
            f"accept_sparse must be a bool or formats among {sorted(_SPARSE_ARRAY_TYPES)}, "
            f"got {accept_sparse!r}."
        )
    return formats


def _as_sparse_array(array, accept_sparse, dtype, copy, sort_indices=True):
    """One sparse array in an accepted format and dtype; a new one whenever anything changes."""
    formats = _accepted_formats(accept_sparse)
    if accept_sparse is True:
        formats = ("csr",)
    fmt = array.format if array.format in formats else formats[0]
    converted = _SPARSE_ARRAY_TYPES[fmt](array, dtype=dtype or array.dtype)
    # in its own format the array shares its indices with the conversion, and scipy
    # keeps the answer on the array: a second call on the same X does not scan again
    sorted_source = array if array.format == fmt else converted
    if sort_indices and fmt != "coo":
        if not sorted_source.has_sorted_indices:
            # one order of the entries of a row (column) whatever the input container,
            # so that every container gives the same sums, hence the same model
            converted = converted.sorted_indices()
        else:  # the answer kept on the new array too: a later check does not scan
            converted.has_sorted_indices = True
    if copy and converted is not array and _shares_sparse_buffers(converted, array):
        converted = converted.copy()
    return converted


def _shares_sparse_buffers(a, b):
    data_a, data_b = getattr(a, "data", None), getattr(b, "data", None)
    return isinstance(data_a, np.ndarray) and isinstance(data_b, np.ndarray) and (
        np.may_share_memory(data_a, data_b)
    )


def _shares_memory(a, b):
    return isinstance(b, np.ndarray) and np.may_share_memory(a, b)


def _check_sizes(array, input_name, min_samples, min_features, owner):
    shape = array.shape
    if min_samples > 0 and len(shape) >= 1:
        n = shape[0]
        if n < min_samples:
            raise ValueError(
                f"Found array with {n} sample(s) (shape={shape}) while a minimum of "
                f"{min_samples} is required{owner}."
            )
    if min_features > 0 and len(shape) == 2:
        if shape[1] < min_features:
            raise ValueError(
                f"Found array with {shape[1]} feature(s) (shape={shape}) while a minimum "
                f"of {min_features} is required{owner}."
            )


def _owner_name(estimator):
    if estimator is None:
        return ""
    name = estimator if isinstance(estimator, str) else type(estimator).__name__
    return f" by {name}"


def warn_column_vector_y(stacklevel):
    """The warning scikit-learn gives when a column vector y is raveled for a 1-D target.

    ``stacklevel`` counts from the caller of this function, as for ``warnings.warn``.
    """
    warnings.warn(
        "A column-vector y was passed when a 1d array was expected. Please change "
        "the shape of y to (n_samples, ), for example using ravel().",
        DataConversionWarning,
        stacklevel=stacklevel + 1,
    )


def column_or_1d(y, *, dtype=None, warn=False, input_name="y"):
    """Ravel a column vector to 1-D, warning if asked; raise on other shapes."""
    y = np.asarray(_to_numpy(y, None), dtype=dtype)
    if y.ndim == 1:
        return y
    if y.ndim == 2 and y.shape[1] == 1:
        if warn:
            warn_column_vector_y(stacklevel=3)
        return y[:, 0]
    raise ValueError(
        f"{input_name} should be a 1d array, got an array of shape {y.shape} instead."
    )


def _check_y(y, *, multi_output, y_numeric, estimator):
    if y is None:
        raise ValueError(
            f"{_bare_name(estimator)} requires y to be passed, but the target y is None."
        )
    if sp.issparse(y):
        raise TypeError("Sparse data was passed for y, but dense data is required.")
    if multi_output:
        y = check_array(
            y, input_name="y", dtype=None, ensure_2d=False, ensure_min_samples=0, order=None
        )
        if y.dtype.kind == "O" and y_numeric:
            y = y.astype(np.float64)
    else:
        y = column_or_1d(y, warn=True)
        if y.dtype.kind == "c":
            raise ValueError("Complex data not supported")
        if y_numeric and y.dtype.kind in "OUSb":
            y = y.astype(np.float64)
    if y.dtype.kind == "f":
        _assert_finite(y, "y", allow_nan=False)
    return y


def _bare_name(estimator):
    if estimator is None:
        return "This estimator"
    return estimator if isinstance(estimator, str) else type(estimator).__name__


def check_X_y(X, y, *, multi_output=False, y_numeric=False, **check_array_params):
    """Validate X and y together: X as :func:`check_array`, y as a target.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,) or (n_samples, n_outputs)
    multi_output : bool, default=False
        Accept a 2-D y. Otherwise a column vector is raveled with a
        :class:`~classiclearn.exceptions.DataConversionWarning`.
    y_numeric : bool, default=False
        Convert object / string y to float64 (regressors).
    **check_array_params
        Passed on to :func:`check_array` for X.

    Returns
    -------
    X, y : ndarray
    """
    estimator = check_array_params.get("estimator")
    if y is None:
        raise ValueError(
            f"{_bare_name(estimator)} requires y to be passed, but the target y is None."
        )
    X = check_array(X, **check_array_params)
    y = _check_y(y, multi_output=multi_output, y_numeric=y_numeric, estimator=estimator)
    check_consistent_length(X, y)
    return X, y


def _check_feature_names(estimator, X, reset):
    names = _get_feature_names(X)
    if reset:
        if names is not None:
            estimator.feature_names_in_ = names
        elif hasattr(estimator, "feature_names_in_"):
            del estimator.feature_names_in_
        return
    fitted = getattr(estimator, "feature_names_in_", None)
    if fitted is None and names is None:
        return
    cls = type(estimator).__name__
    if names is not None and fitted is None:
        warnings.warn(
            f"X has feature names, but {cls} was fitted without feature names", stacklevel=3
        )
        return
    if names is None and fitted is not None:
        warnings.warn(
            f"X does not have valid feature names, but {cls} was fitted with feature names",
            stacklevel=3,
        )
        return
    if len(fitted) != len(names) or np.any(fitted != names):
        fitted_set, new_set = set(fitted), set(names)
        unexpected = sorted(new_set - fitted_set)
        missing = sorted(fitted_set - new_set)
        message = "The feature names should match those that were passed during fit.\n"
        if unexpected:
            message += f"Feature names unseen at fit time:\n- {unexpected}\n"
        if missing:
            message += f"Feature names seen at fit time, yet now missing:\n- {missing}\n"
        if not unexpected and not missing:
            message += "Feature names must be in the same order as they were in fit.\n"
        raise ValueError(message)


def _check_n_features(estimator, X, reset):
    n_features = X.shape[1] if getattr(X, "ndim", 0) == 2 else None
    if reset:
        estimator.n_features_in_ = n_features
        return
    expected = getattr(estimator, "n_features_in_", None)
    if expected is None or n_features is None:
        return
    if n_features != expected:
        raise ValueError(
            f"X has {n_features} features, but {type(estimator).__name__} is expecting "
            f"{expected} features as input."
        )


def validate_data(
    estimator,
    X="no_validation",
    y="no_validation",
    *,
    reset=True,
    validate_separately=False,
    skip_check_array=False,
    multi_output=False,
    y_numeric=False,
    **check_params,
):
    """Validate X (and y) for an estimator and record or check its input shape.

    Parameters
    ----------
    estimator : estimator instance
        Receives ``n_features_in_`` and ``feature_names_in_`` when ``reset``.
    X : array-like or "no_validation"
    y : array-like, None or "no_validation"
        ``"no_validation"`` skips y; None with a supervised estimator raises
        "requires y to be passed".
    reset : bool, default=True
        True in ``fit`` (record the shape), False elsewhere (check it).
    validate_separately : bool, default=False
        Unused; accepted for signature compatibility.
    skip_check_array : bool, default=False
        Only check feature names and counts.
    multi_output, y_numeric : bool
        See :func:`check_X_y`.
    **check_params
        Passed on to :func:`check_array`.

    Returns
    -------
    X, or (X, y) when y is validated.
    """
    _check_feature_names(estimator, X, reset=reset)
    no_y = isinstance(y, str) and y == "no_validation"
    check_params.setdefault("estimator", estimator)
    check_params.setdefault("sort_indices", reset)
    if skip_check_array:
        out = X if no_y else (X, y)
    elif no_y:
        out = check_array(X, **check_params)
    else:
        out = check_X_y(X, y, multi_output=multi_output, y_numeric=y_numeric, **check_params)
    checked_X = out if no_y else out[0]
    if not reset or not (isinstance(X, str) and X == "no_validation"):
        _check_n_features(estimator, checked_X, reset=reset)
    return out


def input_float_dtype(X):
    """The float dtype scikit-learn keeps for ``X``: float32 when X holds float32 only.

    Estimators that compute in float64 call this on the raw input (array,
    sparse matrix or DataFrame) before validation, then cast their fitted
    floats (:func:`cast_float_attributes`) and outputs (:func:`output_in_dtype`)
    to it, so float32 in gives float32 out as in scikit-learn.

    Examples
    --------
    >>> import numpy as np
    >>> input_float_dtype(np.zeros((2, 2), dtype=np.float32))
    dtype('float32')
    >>> input_float_dtype([[1, 2]])
    dtype('float64')
    """
    dtype = getattr(X, "dtype", None)
    if dtype is None and hasattr(X, "dtypes"):  # a DataFrame: one dtype for all columns
        kinds = {str(d) for d in X.dtypes}
        dtype = kinds.pop() if len(kinds) == 1 else None
    try:
        is_32 = dtype is not None and np.dtype(dtype) == np.float32
    except TypeError:  # an extension dtype numpy does not know
        is_32 = False
    return np.dtype(np.float32) if is_32 else np.dtype(np.float64)


def cast_float_attributes(estimator, dtype, names):
    """Cast the fitted floating attributes ``names`` of ``estimator`` to float32.

    Nothing happens unless ``dtype`` is float32; arrays of another kind
    (labels, counts of integers) and missing attributes are left alone, a
    Python float becomes a NumPy float32 as in scikit-learn.

    Examples
    --------
    >>> import numpy as np
    >>> class Model:
    ...     coef_ = np.array([1.0, 2.0])
    >>> model = Model()
    >>> cast_float_attributes(model, np.float32, ("coef_", "intercept_"))
    >>> model.coef_.dtype
    dtype('float32')
    """
    if np.dtype(dtype) != np.float32:
        return
    for name in names:
        value = getattr(estimator, name, None)
        if isinstance(value, np.ndarray) and value.dtype.kind == "f":
            setattr(estimator, name, value.astype(np.float32))
        elif isinstance(value, float):
            setattr(estimator, name, np.float32(value))


def output_in_dtype(result, X, fitted):
    """``result`` cast to float32 when both the input ``X`` and the model are float32.

    ``fitted`` is a fitted float array (or its dtype) that tells the model's
    dtype; the output dtype is NumPy's promotion of it and X's float dtype,
    which is what scikit-learn's own arithmetic gives.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.ones((2, 2), dtype=np.float32)
    >>> output_in_dtype(np.zeros(2), X, np.zeros(2, dtype=np.float32)).dtype
    dtype('float32')
    >>> output_in_dtype(np.zeros(2), X, np.zeros(2)).dtype
    dtype('float64')
    """
    model = fitted if isinstance(fitted, np.dtype) else np.asarray(fitted).dtype
    if (isinstance(result, np.ndarray) and result.dtype == np.float64
            and model == np.float32 and input_float_dtype(X) == np.float32):
        return result.astype(np.float32)
    return result


def _max_abs(X):
    """Largest |x| of a dense or sparse array (0 when empty), without an |X| temporary."""
    data = X.data if sp.issparse(X) else X
    if data.size == 0:
        return 0.0
    return float(max(np.max(data), -np.min(data)))


def _out_of_range(max_abs, power, n_terms, check_small, info=np.finfo(np.float64)):
    """'large' when ``n_terms * max_abs**power`` overflows, 'small' when
    ``max_abs**power`` falls below the normal range (every product or square
    of the data would lose all precision), else None: :func:`_flagged` of one value."""
    flagged, small = _flagged(max_abs, power, n_terms, info)
    if not flagged[0]:
        return None
    if small[0]:
        return "small" if check_small else None
    return "large"


def _surely_in_range(X, power, n_terms, check_small, info, numba_next=True):
    """Whether the sum of squares S of a contiguous float64 X already proves
    :func:`_out_of_range` None: sqrt(S / X.size) <= max|x| <= sqrt(S) bound the
    largest value from both sides. One BLAS pass instead of a max and a min;
    False (look at max|x| itself) when the bounds do not decide."""
    if sp.issparse(X) or not _contiguous_float64(X):
        return False
    squares = _recall_squares(X)  # X just validated by check_array: its pass's sum
    if squares is None:
        squares = _sum_of_squares(X, numba_next)
    if not np.isfinite(squares) or squares == 0.0:
        return False
    half_power = 0.5 * power
    if half_power * np.log(squares) + np.log(max(n_terms, 1)) > np.log(info.max):
        return False
    return not check_small or (
        half_power * np.log(squares / X.size) >= np.log(info.tiny) - np.log(info.eps))


def check_magnitude(X, estimator, what, *, power=2, check_small=True):
    """Raise a ValueError when X's values are too large or too small for ``what``.

    For methods that square the data (distances, variances, kernels, Gram
    matrices): when ``n_features * max|x|**power`` overflows, or when even
    ``max|x|**power`` is below the normal floating-point range, the
    computation would return inf, NaN or all-zero results; this names the
    problem instead. Finite values only (non-finite input is the business of
    :func:`check_array`).

    Parameters
    ----------
    X : ndarray or sparse matrix, validated.
    estimator : estimator instance or name (for the message).
    what : str
        What overflows, e.g. "squared distances".
    power : int, default=2
    check_small : bool, default=True
        Also refuse data whose every value is too small.

    Examples
    --------
    >>> import numpy as np
    >>> check_magnitude(np.ones((2, 2)), "KMeans", "squared distances")
    >>> check_magnitude(np.full((2, 2), 1e300), "KMeans", "squared distances")
    Traceback (most recent call last):
    ...
    ValueError: X contains values too large for the squared distances of KMeans \
(max |x| = 1e+300); scale the features (e.g. with StandardScaler).
    """
    info = np.finfo(X.dtype if X.dtype.kind == "f" else np.float64)  # float32 overflows sooner
    n_terms = X.shape[1] if X.ndim == 2 else 1
    if _surely_in_range(X, power, n_terms, check_small, info, _numba_next(estimator)):
        return
    max_abs = _max_abs(X)
    problem = _out_of_range(max_abs, power, n_terms, check_small, info)
    if problem is not None:
        name = _bare_name(estimator)
        raise ValueError(
            f"X contains values too {problem} for the {what} of {name} "
            f"(max |x| = {max_abs:.3g}); scale the features (e.g. with StandardScaler)."
        )


def check_float32_columns(X, estimator):
    """Refuse float64 data with a feature wholly below float32's precise range.

    Estimators that compare features in float32 (the trees, as scikit-learn's)
    would see such a feature (every |x| below about 1e-31, e.g. data near
    1e-300) rounded to zero or to a few bits, and learn nothing from it
    without a word. Values too large for float32 are refused by
    :func:`check_array` when X is cast.

    Examples
    --------
    >>> import numpy as np
    >>> check_float32_columns(np.ones((2, 2)), "DecisionTreeClassifier")
    >>> check_float32_columns(np.full((2, 2), 1e-300), "DecisionTreeClassifier")
    Traceback (most recent call last):
    ...
    ValueError: X has 2 feature(s) with values too small for the float32 comparisons ...
    """
    if not (isinstance(X, np.ndarray) and X.dtype == np.float64 and X.ndim == 2 and X.size):
        return
    col_max, _ = column_abs_max_and_nan(X)  # NaN (missing values) ignored
    limit = np.finfo(np.float32).tiny / np.finfo(np.float32).eps
    lost = np.flatnonzero((col_max > 0) & (col_max < limit))
    if lost.size:
        j = lost[0]
        raise ValueError(
            f"X has {lost.size} feature(s) with values too small for the float32 comparisons "
            f"of {_bare_name(estimator)} (feature {j}: max |x| = {col_max[j]:.3g}, below "
            f"{limit:.3g}); scale the features (e.g. with StandardScaler)."
        )


def _nan_max_abs(X, axis=None):
    """Largest |x| ignoring NaN (0 for an all-NaN column). fmax / fmin skip NaN at the
    speed of max / min on clean data; max / min reach a NaN and run several times
    slower from there."""
    with np.errstate(invalid="ignore"):
        top, bottom = np.fmax.reduce(X, axis=axis), np.fmin.reduce(X, axis=axis)
    top, bottom = np.nan_to_num(top, nan=0.0), np.nan_to_num(bottom, nan=0.0)
    return np.maximum(top, -bottom)


def _power_of_two_above(max_abs):
    """The power of two nearest above each |value| (1 for 0)."""
    _, exponents = np.frexp(max_abs)
    return np.where(max_abs > 0, np.ldexp(1.0, exponents), 1.0)


def squares_out_of_range(mean, sq):
    """Whether moments taken in place say the data's squares left the float range.

    ``mean`` and ``sq`` (sums or means of squared deviations, any shape): not
    finite (overflow), a positive ``sq`` below the normal range, or a zero
    ``sq`` beside a nonzero mean too small to square (underflow). A caller that
    sees True rescales (:func:`power_of_two_scales`) and recomputes; the
    common case costs nothing more than the moments themselves.

    Examples
    --------
    >>> squares_out_of_range([1.0], [2.0])
    False
    >>> squares_out_of_range([1e-300], [0.0])
    True
    """
    info = np.finfo(np.float64)
    mean, sq = np.abs(np.asarray(mean, dtype=np.float64)), np.asarray(sq, dtype=np.float64)
    if not (np.all(np.isfinite(mean)) and np.all(np.isfinite(sq))):
        return True
    small = info.tiny / info.eps
    return bool(np.any((sq > 0) & (sq < small))
                or np.any((sq == 0) & (mean > 0) & (mean < np.sqrt(small))))


def power_of_two_unit(X, *, power=2):
    """One power of two to divide X by when its squares would leave the float range, else 1.0.

    For methods equivariant to a global scale (PCA, k-means, LDA): dividing
    by a power of two is exact in floating point, so the fit on ``X / unit``
    maps back exactly. 1.0 (no copy needed) unless ``n_features * max|x|**power``
    overflows or ``max|x|**power`` underflows; costs one read of X.

    Examples
    --------
    >>> import numpy as np
    >>> power_of_two_unit(np.ones((3, 2)))
    1.0
    >>> power_of_two_unit(np.full((3, 2), 1e300)) == 2.0 ** 997
    True
    """
    if X.size == 0:
        return 1.0
    max_abs = float(_nan_max_abs(X))
    if not np.isfinite(max_abs) or _out_of_range(max_abs, power, X.shape[1], True) is None:
        return 1.0
    return float(_power_of_two_above(np.array(max_abs)))


def power_of_two_scales(X, *, power=2, means=None):
    """Per-column powers of two that bring X's columns into a safe range, or None.

    None when every column's ``max|x|**power`` (times the number of rows) is
    representable, which is the common case. Otherwise each column's scale
    is the power of two nearest above its largest |value| (1 for a zero
    column): dividing by it is exact in floating point, so a method
    equivariant to per-feature scales (least squares, standardisation) fitted
    on ``X / scales`` gives the exact result for X once mapped back.

    A first read of X finds the overall largest |x|; only when it is out of
    range, or when a column mean in ``means`` (optional, e.g. already
    computed by the caller) is tiny, are the columns scanned one by one.

    Examples
    --------
    >>> import numpy as np
    >>> power_of_two_scales(np.ones((3, 2))) is None
    True
    >>> power_of_two_scales(np.array([[1e300, 1.0], [-1e300, 3.0]]))[1]
    np.float64(4.0)
    """
    if X.size == 0:
        return None
    n = X.shape[0]
    overall = float(_nan_max_abs(X))
    if not np.isfinite(overall):
        return None
    tiny_means = means is not None and bool(_flagged(means, power, n)[1].any())
    if _out_of_range(overall, power, n, True) is None and not tiny_means:
        return None
    max_abs = _nan_max_abs(X, axis=0)
    if not _flagged(max_abs, power, n)[0].any():
        return None
    return _power_of_two_above(max_abs)


def _flagged(values, power, n_terms, info=np.finfo(np.float64)):
    """The range test of :func:`_out_of_range` (``check_small``) on each of ``values``
    (non-finite and zero values pass), in one vectorised pass: a Python call per
    column would cost microseconds each on wide X. Returns masks of the flagged
    entries and of those flagged 'small'."""
    m = np.abs(np.ravel(np.asarray(values, dtype=np.float64)))
    usable = np.isfinite(m) & (m != 0.0)
    log_power = power * np.log(np.where(usable, m, 1.0))
    large = usable & (log_power + np.log(max(n_terms, 1)) > np.log(info.max))
    small = usable & ~large & (log_power < np.log(info.tiny) - np.log(info.eps))
    return large | small, small


def check_is_fitted(estimator, attributes=None, *, msg=None):
    """Raise :class:`~classiclearn.exceptions.NotFittedError` if not fitted.

    Parameters
    ----------
    estimator : estimator instance
    attributes : str or list of str, optional
        Attributes that must exist; by default any attribute ending in "_".
    msg : str, optional
        Message with an optional ``%(name)s`` placeholder.
    """
    if isinstance(estimator, type):
        raise TypeError(f"{estimator} is a class, not an instance.")
    if attributes is not None:
        names = [attributes] if isinstance(attributes, str) else list(attributes)
        fitted = all(hasattr(estimator, a) for a in names)
    elif hasattr(estimator, "__sklearn_is_fitted__"):
        fitted = estimator.__sklearn_is_fitted__()
    else:
        fitted = any(k.endswith("_") and not k.startswith("__") for k in vars(estimator))
    if not fitted:
        if msg is None:
            msg = (
                "This %(name)s instance is not fitted yet. Call 'fit' with appropriate "
                "arguments before using this estimator."
            )
        raise not_fitted_error(msg % {"name": type(estimator).__name__})


def check_sample_weight(
    sample_weight, X, *, dtype=None, ensure_non_negative=True, allow_all_zero=False, copy=False
):
    """Validate ``sample_weight`` against X and return a float array.

    Parameters
    ----------
    sample_weight : None, float or array-like of shape (n_samples,)
        None gives ones; a scalar gives a constant array.
    X : ndarray of shape (n_samples, ...)
    dtype : dtype, optional
        Defaults to X's float dtype, else float64.
    ensure_non_negative : bool, default=True
        Raise on negative weights.
    allow_all_zero : bool, default=False
        Accept weights that are all zero.
    copy : bool, default=False
        Kept for signature compatibility: the result never shares memory
        with the caller's array.

    Returns
    -------
    ndarray of shape (n_samples,)
        A new array (the caller's is never modified).

    Examples
    --------
    >>> check_sample_weight(None, [[0.0], [1.0]])
    array([1., 1.])
    """
    n = num_samples(X)
    if dtype is None:
        dtype = X.dtype if getattr(X, "dtype", None) in FLOAT_DTYPES else np.float64
    if sample_weight is None:
        return np.ones(n, dtype=dtype)
    if isinstance(sample_weight, numbers.Number):
        return np.full(n, sample_weight, dtype=dtype)
    w = check_array(
        sample_weight,
        input_name="sample_weight",
        dtype=dtype,
        ensure_2d=False,
        ensure_min_samples=0,
        order="C",
    )
    if w.ndim != 1:
        raise ValueError(f"Sample weights must be 1D array or scalar, got shape {w.shape}")
    if w.shape[0] != n:
        raise ValueError(f"sample_weight.shape == {w.shape}, expected {(n,)}!")
    if ensure_non_negative and (w < 0).any():
        raise ValueError("Negative values in data passed to sample_weight")
    if not allow_all_zero and n and not w.any():
        raise ValueError("Sample weights must contain at least one non-zero number.")
    if isinstance(sample_weight, np.ndarray) and np.may_share_memory(w, sample_weight):
        w = w.copy()
    return w
