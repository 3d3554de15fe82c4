"""Dask input: detection, validation of row blocks, exact block reductions, lazy prediction.

A fit that reduces to per-block statistics is written once as (block
function -> partial statistics, exact merge in block order, solve). An
in-memory array is one block; a Dask array is its row chunks. This module
walks the chunks of a Dask collection with public Dask APIs only
(``to_delayed``, ``delayed``, ``compute``, ``map_blocks``): the statistics of
each row block are computed by the scheduler the user has active (threads,
processes or a ``distributed.Client``), with numba and BLAS on one thread
inside each task, and merged on the client in block order, so a result
depends on the chunking only, never on worker timing.

Dask is never imported here at module level: a Dask collection can only
exist once its user has imported dask, so detection looks in ``sys.modules``.
"""

import functools
import sys
import warnings

import numpy as np

__all__ = [
    "DaskUnsupportedError",
    "add_parts",
    "as_dask_array",
    "concat_parts",
    "dask_arrays",
    "dask_blocks",
    "fit_one_block_in_memory",
    "record_input_features",
    "is_dask_collection",
    "lazy_method",
    "reduce_blocks",
    "target_classes",
]


class DaskUnsupportedError(TypeError):
    """An estimator with no distributed fit was given a Dask collection."""


def is_dask_collection(X):
    """Whether ``X`` is a Dask array, DataFrame or Series (without importing dask).

    Examples
    --------
    >>> is_dask_collection(np.zeros((2, 2)))
    False
    """
    if isinstance(X, np.ndarray):  # the common case, answered first
        return False
    array_mod = sys.modules.get("dask.array")
    if array_mod is not None and isinstance(X, array_mod.Array):
        return True
    frame_mod = sys.modules.get("dask.dataframe")
    return frame_mod is not None and isinstance(X, frame_mod.DataFrame | frame_mod.Series)


def as_dask_array(X, name="X"):
    """A Dask array with known row chunks and (for 2-D) one column chunk."""
    import dask.array as da

    if not isinstance(X, da.Array):  # a Dask DataFrame or Series
        # chunk sizes from the array's own graph: with ``lengths=True`` dask counts the
        # rows of partitions that its optimizer may merge later (column projection)
        X = X.to_dask_array().compute_chunk_sizes()
    if any(np.isnan(c) for c in X.chunks[0]):
        raise ValueError(
            f"{name} has unknown chunk sizes along its rows; compute them first "
            f"(e.g. {name}.compute_chunk_sizes())."
        )
    if X.ndim == 2 and len(X.chunks[1]) > 1:
        X = X.rechunk({1: -1})
    return X


def dask_arrays(X, y, kwargs):
    """X, y and the Dask keyword arguments of a fit as Dask arrays, converted once:
    a DataFrame's (or Series') chunk sizes cost a pass over its data, and its
    partitions are aligned with X's row blocks."""
    X = as_dask_array(X)
    y = _as_aligned_array(y, X.chunks[0], "y")
    kwargs = {k: _as_aligned_array(v, X.chunks[0], k) for k, v in kwargs.items()}
    return X, y, kwargs


def _as_aligned_array(other, rows, name):
    import dask.array as da

    if not is_dask_collection(other) or isinstance(other, da.Array):
        return other
    other = as_dask_array(other, name)
    if sum(other.chunks[0]) == sum(rows):
        other = other.rechunk({0: tuple(rows)})
    return other


def dask_blocks(X, *others, names=("X", "y", "sample_weight")):
    """The row blocks of ``X`` and of the aligned arrays ``others`` as delayed objects.

    Parameters
    ----------
    X : Dask array or DataFrame of shape (n_samples, n_features)
    *others : Dask or NumPy arrays of length n_samples, or None
        NumPy arrays are cut to X's row chunks; Dask ones must have the same
        row chunks as X.
    names : tuple of str
        Names used in error messages.

    Returns
    -------
    list of tuples
        One tuple per row block: ``(X_block, other_1_block, ...)``, each a
        ``Delayed`` block (a NumPy slice for NumPy input, None for None),
        which ``dask.delayed`` tasks receive computed.
    """
    X = as_dask_array(X, names[0])
    if X.ndim != 2:
        raise ValueError(f"Expected a 2-D Dask array for {names[0]}, got {X.ndim} dimension(s).")
    rows = X.chunks[0]
    if sum(rows) == 0:
        raise ValueError(
            f"Found array with 0 sample(s) (shape={tuple(X.shape)}) while a minimum of 1 is "
            "required."
        )
    bounds = np.concatenate([[0], np.cumsum(rows)]).astype(np.intp)
    columns = [_row_blocks(X)]
    for k, other in enumerate(others):
        name = names[k + 1] if k + 1 < len(names) else f"array {k + 1}"
        columns.append(_aligned_blocks(other, rows, bounds, name, names[0]))
    return list(zip(*columns, strict=True))


def _row_blocks(X):
    """The row blocks of a Dask array as delayed objects, from one optimised graph
    (``to_delayed``): tasks built from them in every pass of an iterative fit
    then neither slice nor re-optimise the array's graph."""
    if X.ndim == 2 and len(X.chunks[1]) > 1:
        X = X.rechunk({1: -1})
    return list(X.to_delayed().reshape(-1))


def _aligned_blocks(other, rows, bounds, name, x_name):
    if other is None:
        return [None] * len(rows)
    if is_dask_collection(other):
        other = _as_aligned_array(other, rows, name)
        if tuple(other.chunks[0]) != tuple(rows):
            raise ValueError(
                f"{name} and {x_name} must have the same row chunks; got "
                f"{tuple(other.chunks[0])} and {tuple(rows)}. Rechunk one of them, "
                f"e.g. {name}.rechunk({{0: {x_name}.chunks[0]}})."
            )
        return _row_blocks(other)
    other = np.asarray(other)
    if other.shape[0] != bounds[-1]:
        raise ValueError(
            f"{name} has {other.shape[0]} samples but {x_name} has {bounds[-1]}."
        )
    return [other[lo:hi] for lo, hi in zip(bounds[:-1], bounds[1:], strict=True)]


def record_input_features(estimator, X):
    """Set ``n_features_in_`` (and ``feature_names_in_`` for a DataFrame with string
    column names) from a Dask collection, as ``validate_data`` does for NumPy input."""
    estimator.n_features_in_ = int(X.shape[1])
    columns = getattr(X, "columns", None)
    if columns is not None and len(columns) and all(isinstance(c, str) for c in columns):
        estimator.feature_names_in_ = np.asarray(list(columns), dtype=object)
    else:
        estimator.__dict__.pop("feature_names_in_", None)


def fit_one_block_in_memory(estimator, X, y=None, sample_weight=None):
    """Fit ``estimator`` in memory when ``X`` has a single row block (which then fits
    in memory by definition), so such input gives the in-memory result bit for bit.

    Returns
    -------
    estimator or None
        None when X has several row blocks.
    """
    import dask

    X_arr = as_dask_array(X)
    if len(X_arr.chunks[0]) != 1:
        return None
    given = [v for v in (y, sample_weight) if v is not None]
    computed = dask.compute(X_arr, *given)
    X_np, rest = np.asarray(computed[0]), list(computed[1:])
    args = () if y is None else (np.asarray(rest.pop(0)),)
    kwargs = {} if sample_weight is None else {"sample_weight": np.asarray(rest.pop(0))}
    estimator.fit(X_np, *args, **kwargs)
    record_input_features(estimator, X)
    return estimator


def _check_columns(estimator, X):
    """A Dask DataFrame at predict time must have the fitted columns, in order."""
    columns = getattr(X, "columns", None)
    fitted = getattr(estimator, "feature_names_in_", None)
    if columns is None or fitted is None:
        return
    if list(columns) != list(fitted):
        raise ValueError(
            "The feature names should match those that were passed during fit: "
            f"got {list(columns)}, expected {list(fitted)}."
        )


def add_parts(a, b):
    """Merge of two blocks' statistics given as tuples: element by element sums
    (None entries stay None)."""
    return tuple(None if x is None else x + y for x, y in zip(a, b, strict=True))


def concat_parts(a, b):
    """Merge of two blocks' results given as lists: one list, in block order."""
    return a + b


def _single_threaded(block_fn):
    """``block_fn`` run with numba and BLAS on one thread (inside a Dask task)."""
    from ._threads import blas_single_thread, numba_threads

    def run(*blocks):
        with numba_threads(1), blas_single_thread():
            return block_fn(*blocks)

    return run


def reduce_blocks(block_fn, merge_fn, blocks):
    """Compute ``block_fn`` on every row block and merge the results in block order.

    Parameters
    ----------
    block_fn : callable
        ``block_fn(*arrays_of_one_block) -> statistics``; runs inside a Dask
        task with numba and BLAS on one thread.
    merge_fn : callable
        ``merge_fn(stats_a, stats_b) -> stats``: exact, applied left to right in
        block order on the client.
    blocks : list of tuples
        From :func:`dask_blocks`.

    Returns
    -------
    The merged statistics.
    """
    import dask

    # no tokenising of the function (a closure over arrays) or of NumPy arguments,
    # and no re-optimising of the blocks' graph: both cost milliseconds per pass
    task = dask.delayed(_single_threaded(block_fn), pure=False, traverse=False)
    parts = dask.compute(*[task(*block) for block in blocks], optimize_graph=False)
    merged = parts[0]
    for part in parts[1:]:
        merged = merge_fn(merged, part)
    return merged


def _block_target_classes(y, multi_output):
    from ._targets import check_classification_targets
    from .validation import column_or_1d

    y = np.asarray(y) if multi_output else column_or_1d(y)
    check_classification_targets(y)
    columns = y.reshape(-1, 1) if y.ndim == 1 else y
    return [np.unique(columns[:, j]) for j in range(columns.shape[1])]


def _merge_target_classes(a, b):
    return [np.union1d(u, v) for u, v in zip(a, b, strict=True)]


def target_classes(blocks, multi_output=False):
    """The sorted classes of y over the row blocks of :func:`dask_blocks` (X, y, ...),
    in a pass that reads y's blocks only.

    Returns
    -------
    list of ndarray
        One array of classes per output (one for a 1-D y; ``multi_output=False``
        asks for a 1-D y, as ``column_or_1d`` does).
    """
    return reduce_blocks(functools.partial(_block_target_classes, multi_output=multi_output),
                         _merge_target_classes, [(block[1],) for block in blocks])


def _output_meta(method, X, n_features, dtype):
    """Shape (after the rows) and dtype of ``method``'s output: from one row of
    zeros, or, when the method refuses that row (e.g. an unknown category), from
    the first row of X (computing only what that row needs)."""
    probe = np.zeros((1, n_features), dtype=dtype)
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        try:
            out = np.asarray(method(probe))
        except ValueError:
            out = np.asarray(method(np.asarray(X[:1].compute())))
    return out.shape[1:], out.dtype


def lazy_method(method, X, n_features, estimator=None):
    """``method`` applied block by block to the Dask array ``X``: a lazy Dask array.

    Parameters
    ----------
    method : callable
        A bound prediction method (``predict``, ``transform``, ...) that takes
        a NumPy block and returns an array with one row per input row.
    X : Dask array or DataFrame
    n_features : int
        Number of columns the method expects (to probe its output shape).

    Returns
    -------
    dask.array.Array
        Row chunks equal to X's; computed only when the caller computes it.
    """
    if estimator is not None:
        _check_columns(estimator, X)
    X = as_dask_array(X, "X")
    if X.ndim != 2:
        raise ValueError(f"Expected a 2-D Dask array for X, got {X.ndim} dimension(s).")
    tail, dtype = _output_meta(method, X, n_features,
                               X.dtype if X.dtype.kind == "f" else np.float64)

    def without_name_warning(block):
        if block.shape[0] == 0:  # an empty block: estimators refuse zero rows
            return np.empty((0,) + tail, dtype=dtype)
        # the columns were checked once above; blocks arrive as plain arrays
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message="X does not have valid feature names")
            return method(block)

    run = _single_threaded(without_name_warning)
    if len(tail) == 0:
        return X.map_blocks(run, dtype=dtype, drop_axis=1, chunks=(X.chunks[0],))
    if len(tail) == 1:
        return X.map_blocks(run, dtype=dtype, chunks=(X.chunks[0], (tail[0],)))
    raise ValueError("Lazy prediction supports outputs of at most two dimensions.")
