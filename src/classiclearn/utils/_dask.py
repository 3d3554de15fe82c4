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

import sys
import warnings

import numpy as np

__all__ = [
    "DaskUnsupportedError",
    "dask_blocks",
    "is_dask_collection",
    "lazy_method",
    "reduce_blocks",
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
    array_mod = sys.modules.get("dask.array")
    if array_mod is not None and isinstance(X, array_mod.Array):
        return True
    frame_mod = sys.modules.get("dask.dataframe")
    return frame_mod is not None and isinstance(X, frame_mod.DataFrame | frame_mod.Series)


def _as_array(X, name):
    """A Dask array with known row chunks and (for 2-D) one column chunk."""
    import dask.array as da

    if not isinstance(X, da.Array):  # a Dask DataFrame or Series
        X = X.to_dask_array(lengths=True)
    if any(np.isnan(c) for c in X.chunks[0]):
        raise ValueError(
            f"{name} has unknown chunk sizes along its rows; compute them first "
            f"(e.g. {name}.compute_chunk_sizes(), or to_dask_array(lengths=True) for a "
            "DataFrame)."
        )
    if X.ndim == 2 and len(X.chunks[1]) > 1:
        X = X.rechunk({1: -1})
    return X


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
        ``dask.delayed`` object (or None for a None input).
    """
    X = _as_array(X, names[0])
    if X.ndim != 2:
        raise ValueError(f"Expected a 2-D Dask array for {names[0]}, got {X.ndim} dimension(s).")
    rows = X.chunks[0]
    bounds = np.concatenate([[0], np.cumsum(rows)]).astype(np.intp)
    columns = [X.to_delayed().ravel()]
    for k, other in enumerate(others):
        name = names[k + 1] if k + 1 < len(names) else f"array {k + 1}"
        columns.append(_aligned_blocks(other, rows, bounds, name, names[0]))
    return list(zip(*columns, strict=True))


def _aligned_blocks(other, rows, bounds, name, x_name):
    if other is None:
        return [None] * len(rows)
    if is_dask_collection(other):
        other = _as_array(other, name)
        if tuple(other.chunks[0]) != tuple(rows):
            raise ValueError(
                f"{name} and {x_name} must have the same row chunks; got "
                f"{tuple(other.chunks[0])} and {tuple(rows)}. Rechunk one of them, "
                f"e.g. {name}.rechunk({{0: {x_name}.chunks[0]}})."
            )
        return list(other.to_delayed().ravel()) if other.ndim == 1 else [
            row[0] for row in other.to_delayed()]
    other = np.asarray(other)
    if other.shape[0] != bounds[-1]:
        raise ValueError(
            f"{name} has {other.shape[0]} samples but {x_name} has {bounds[-1]}."
        )
    return [other[lo:hi] for lo, hi in zip(bounds[:-1], bounds[1:], strict=True)]


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

    task = dask.delayed(_single_threaded(block_fn))
    parts = dask.compute(*[task(*block) for block in blocks])
    merged = parts[0]
    for part in parts[1:]:
        merged = merge_fn(merged, part)
    return merged


def _output_meta(method, n_features, dtype):
    """Shape (after the rows) and dtype of ``method`` on one row of zeros."""
    probe = np.zeros((1, n_features), dtype=dtype)
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        out = np.asarray(method(probe))
    return out.shape[1:], out.dtype


def lazy_method(method, X, n_features):
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
    X = _as_array(X, "X")
    if X.ndim != 2:
        raise ValueError(f"Expected a 2-D Dask array for X, got {X.ndim} dimension(s).")
    tail, dtype = _output_meta(method, n_features,
                               X.dtype if X.dtype.kind == "f" else np.float64)
    run = _single_threaded(method)
    if len(tail) == 0:
        return X.map_blocks(run, dtype=dtype, drop_axis=1, chunks=(X.chunks[0],))
    if len(tail) == 1:
        return X.map_blocks(run, dtype=dtype, chunks=(X.chunks[0], (tail[0],)))
    raise ValueError("Lazy prediction supports outputs of at most two dimensions.")
