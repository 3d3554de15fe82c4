"""k nearest neighbours on partitioned (Dask) training data, by brute force.

``fit`` on a Dask array records its row blocks (and those of y), checking
shapes, chunks and the metric, without reading the data. A query then runs,
for every training block, the in-memory brute-force search on that block
alone (its local top k, with the global training indices and the targets of
those neighbours), and merges the blocks' candidates in block order: a
stable sort on the distance of the candidates laid out block after block
keeps, among equal distances, the lower training index first, which is the
in-memory tie rule, so the k nearest are exactly the in-memory ones. A
distance between two rows is computed from those two rows alone, so it does
not depend on the blocks.

NumPy queries give NumPy results (one ``compute``). Dask queries give lazy
results, one task per (query block, training block) and one merge per query
block; ``predict`` / ``predict_proba`` then finish each query block from its
neighbours' targets in the same graph (no nested computation inside tasks).
Each task runs numba and BLAS on one thread.
"""

import functools

import numpy as np

from .._kernels.distances import EUCLIDEAN, MINKOWSKI
from ..utils._dask import (
    DaskUnsupportedError,
    _single_threaded,
    as_dask_array,
    dask_blocks,
    record_input_features,
    target_classes,
)
from ..utils.validation import check_array, warn_column_vector_y
from ._brute import brute_kneighbors, brute_radius, sort_segments
from ._metrics import (
    ALL_METRICS,
    LINEAR_MAP_METRICS,
    distance_function,
    map_rows,
    resolve_metric,
    weight_scale,
)

__all__ = ["fit_dask", "kneighbors_lazy", "kneighbors_now", "lazy_row_method", "radius_now"]


class _Train:
    """The recorded training blocks: delayed (X block, y block) pairs, the global
    index of each block's first row, and how a block's targets are encoded."""

    def __init__(self, blocks, offsets, encode, y_meta):
        self.blocks = blocks
        self.offsets = offsets
        self.encode = encode
        self.y_meta = y_meta  # an empty array of y's dtype and trailing shape (or None)


def _refuse(est, what):
    raise DaskUnsupportedError(
        f"{type(est).__name__} with {what} has no distributed search on Dask training data "
        "(brute force with a named metric only); fit it on data in memory."
    )


def _refuse_ragged(est, what):
    raise DaskUnsupportedError(
        f"{type(est).__name__}: {what} queries give a sparse graph or ragged arrays, which "
        "have no lazy Dask form; pass the queries as NumPy arrays (e.g. one block at a time)."
    )


def fit_dask(est, X, y, targets=None):
    """Record the Dask training data of a k-neighbours estimator.

    Parameters
    ----------
    est : KNeighborsClassifier, KNeighborsRegressor or NearestNeighbors
    X : Dask array (n_samples, n_features), one column chunk
    y : Dask or NumPy array aligned with X's rows, or None
    targets : {None, "classes", "numeric"}
        What y holds (None: no targets, y ignored); for class labels,
        ``classes_`` is found by one pass over y.

    Returns
    -------
    est
    """
    from ._base import _check_n_neighbors, _is_bool_input  # _base imports this module

    est._validate_params()
    if targets is None:
        y = None
    elif y is None:
        raise ValueError(
            f"{type(est).__name__} requires y to be passed, but the target y is None."
        )
    X = as_dask_array(X)
    if X.ndim != 2:
        raise ValueError(f"Expected a 2-D Dask array for X, got {X.ndim} dimension(s).")
    n, d = int(sum(X.chunks[0])), int(X.shape[1])
    if n == 0:
        raise ValueError(f"Found array with 0 sample(s) (shape=({n}, {d})) while a minimum of 1 "
                         "is required.")
    if est.algorithm in ("kd_tree", "ball_tree"):
        _refuse(est, f"algorithm={est.algorithm!r}")
    # nan_euclidean: its distance rounds a rescaled reduced distance, which the merge
    # does not recompute, so equal distances could rank unlike in memory
    if (callable(est.metric) or est.metric in ("precomputed", "nan_euclidean")
            or est.metric not in ALL_METRICS):
        _refuse(est, f"metric={est.metric!r}")
    if distance_function(est.metric, est.metric_params, d, "brute") is not None:
        _refuse(est, f"metric={est.metric!r}")
    if y is not None and getattr(y, "ndim", 1) not in (1, 2):
        raise ValueError(f"y should be a 1d or 2d array, got an array of shape {y.shape}.")
    if y is not None and int(y.shape[0]) != n:
        raise ValueError(f"Found input variables with inconsistent numbers of samples: "
                         f"[{n}, {int(y.shape[0])}]")
    code, p, name, w = resolve_metric(est.metric, est.p, est.metric_params, "brute",
                                      n_features=d)
    est._bool_input = _is_bool_input(X)
    est._metric_code, est._p = code, p
    est.effective_metric_ = name
    if name in LINEAR_MAP_METRICS:
        est.effective_metric_params_ = dict(est.metric_params or {})
    elif w is not None:
        est.effective_metric_params_ = {"p": p, "w": w}
    else:
        est.effective_metric_params_ = {"p": p} if name == "minkowski" else {}
    est._scale = None if w is None else weight_scale(w, p)
    est._fit_method = "brute"
    est._function_metric = False
    est._sparse_index = est._tree = est._gemm_index = est._search_X = None
    est._fit_X = X
    est.n_samples_fit_ = n
    record_input_features(est, X)
    if getattr(est, "n_neighbors", None) is not None:
        _check_n_neighbors(est.n_neighbors)
    blocks = dask_blocks(X, y)
    offsets = np.concatenate([[0], np.cumsum(X.chunks[0])[:-1]]).astype(np.intp)
    encode = y_meta = None
    if targets == "classes":
        encode = _class_encoder(est, blocks, y)
    elif targets == "numeric":
        encode = _numeric_targets
        y_meta = np.empty((0,) + tuple(y.shape[1:]),
                          dtype=np.float64 if y.dtype.kind not in "fiub" else y.dtype)
    est._dask_train = _Train(blocks, offsets, encode, y_meta)
    return est


def _class_encoder(est, blocks, y):
    """``classes_`` / ``outputs_2d_`` from one pass over y's blocks, and the
    function that turns a block of labels into class codes."""
    if y.ndim == 2 and y.shape[1] == 1:
        warn_column_vector_y(stacklevel=4)
        blocks[:] = [(Xb, yb[:, 0]) for Xb, yb in blocks]
        outputs_2d = False
    else:
        outputs_2d = y.ndim == 2
    classes = target_classes(blocks, multi_output=True)
    est.outputs_2d_ = outputs_2d
    est.classes_ = classes if outputs_2d else classes[0]
    return functools.partial(_class_codes, classes=classes, outputs_2d=outputs_2d)


def _class_codes(y, classes, outputs_2d):
    y = np.asarray(y)
    y2 = y.reshape(-1, 1) if y.ndim == 1 else y
    codes = np.empty(y2.shape, dtype=np.intp)
    for j, c in enumerate(classes):
        codes[:, j] = np.searchsorted(c, y2[:, j])
    return codes if outputs_2d else codes[:, 0]


def _numeric_targets(y):
    """A block of numeric targets, checked finite (integer and float32 kept, as
    the in-memory fit keeps them)."""
    y = np.asarray(y)
    return check_array(y, dtype=None if y.dtype.kind in "fiub" else np.float64,
                       ensure_2d=False, ensure_min_samples=0, input_name="y")


def _block_knn(Q, X, y, offset, k, settings):
    """The k nearest rows of one training block (k at most its size), with global
    indices and their encoded targets (None without targets)."""
    code, p, scale, finite, encode = settings
    X = check_array(X, dtype=np.float64, ensure_all_finite=finite, ensure_min_samples=0)
    m = Q.shape[0]
    if X.shape[0] == 0:
        return np.empty((m, 0)), np.empty((m, 0), dtype=np.intp), None, np.empty((m, 0))
    kk = min(k, X.shape[0])
    Y = np.ascontiguousarray(map_rows(X, scale))
    dist, ind = brute_kneighbors(Q, Y, kk, code, p, n_threads=1)
    targets = None if encode is None else encode(y)[ind]
    return dist, ind + offset, targets, _ranking_key(Q, Y, dist, ind, code, p)


def _ranking_key(Q, Y, dist, ind, code, p):
    """The values the in-memory search ranks by: the reduced distances (squared
    euclidean, sum of p-th powers), recomputed for the candidates in the kernels'
    order of operations (coordinate by coordinate, no fused multiply-add), for the
    metrics whose distance is a rounded function of them (two reduced distances one
    unit apart can round to one distance); None for the others (their distance is
    the reduced one)."""
    if code not in (EUCLIDEAN, MINKOWSKI):
        return None
    acc = np.zeros(dist.shape)
    for f in range(Q.shape[1]):
        t = np.abs(Q[:, f, None] - Y[:, f][ind])
        acc += t * t if code == EUCLIDEAN else t**p
    return acc


def _merge_knn(parts, k, self_offset=None):
    """The k nearest among the blocks' candidates, laid out in block order: a stable
    sort on the distance keeps the lower training index first among equal
    distances. ``self_offset``: the queries are training rows from this global
    index on, each dropping itself (as ``kneighbors(None)``)."""
    dist = np.concatenate([part[0] for part in parts], axis=1)
    ind = np.concatenate([part[1] for part in parts], axis=1)
    has_targets = any(part[2] is not None for part in parts)
    keys = [part[0] if part[3] is None else part[3] for part in parts]
    order = np.argsort(np.concatenate(keys, axis=1), axis=1, kind="stable")[:, :k]
    dist = np.take_along_axis(dist, order, axis=1)
    ind = np.take_along_axis(ind, order, axis=1)
    targets = None
    if has_targets:
        T = np.concatenate([part[2] for part in parts if part[2] is not None], axis=1)
        pick = order if T.ndim == 2 else order[:, :, None]
        targets = np.take_along_axis(T, pick, axis=1)
    if self_offset is not None:
        m = ind.shape[0]
        mask = ind != (self_offset + np.arange(m))[:, None]
        missing_self = np.all(mask, axis=1)
        mask[missing_self, k - 1] = False
        dist = dist[mask].reshape(m, k - 1)
        ind = ind[mask].reshape(m, k - 1)
        if targets is not None:
            targets = targets[mask].reshape((m, k - 1) + targets.shape[2:])
    return dist, ind, targets


def _settings(est):
    return (est._metric_code, est._p, est._scale, est._finite(), est._dask_train.encode)


def _prepared_queries(Q, settings, finite):
    Q = check_array(Q, dtype=np.float64, ensure_all_finite=finite, ensure_min_samples=0)
    return np.ascontiguousarray(map_rows(Q, settings[2]))


def kneighbors_now(est, Q, k):
    """(dist, ind, targets) of the k nearest training rows for validated NumPy
    queries ``Q``: one computation over the training blocks."""
    import dask

    settings = _settings(est)
    Q = dask.delayed(_prepared_queries(Q, settings, est._finite()))  # one copy in the graph
    train = est._dask_train
    task = dask.delayed(_single_threaded(_block_knn))
    parts = dask.compute(*[task(Q, Xb, yb, off, k, settings)
                           for (Xb, yb), off in zip(train.blocks, train.offsets, strict=True)])
    return _merge_knn(list(parts), k)


def _block_radius(Q, X, offset, radius, settings):
    """Rows of one training block within ``radius`` of each query (brute force),
    in index order: (global indices, distances, per-query counts)."""
    code, p, scale, finite, _ = settings
    X = check_array(X, dtype=np.float64, ensure_all_finite=finite, ensure_min_samples=0)
    if X.shape[0] == 0:
        return np.empty(0, dtype=np.intp), np.empty(0), np.zeros(Q.shape[0], dtype=np.intp)
    Y = np.ascontiguousarray(map_rows(X, scale))
    ind, dist, offsets = brute_radius(Q, Y, radius, code, p)
    return ind + offset, dist, np.diff(offsets)


def radius_now(est, Q, radius, sort_results):
    """(ind, dist, offsets) of the training rows within ``radius`` of the validated
    NumPy queries ``Q``, as the in-memory brute force gives them: each query's rows
    laid out block after block, hence in index order (or sorted by (distance,
    index) with ``sort_results``)."""
    import dask

    settings = _settings(est)
    Q = dask.delayed(_prepared_queries(Q, settings, est._finite()))
    train = est._dask_train
    task = dask.delayed(_single_threaded(_block_radius))
    parts = dask.compute(*[task(Q, Xb, off, radius, settings)
                           for (Xb, _), off in zip(train.blocks, train.offsets, strict=True)])
    counts = np.array([part[2] for part in parts])  # (blocks, queries)
    offsets = np.zeros(counts.shape[1] + 1, dtype=np.intp)
    np.cumsum(counts.sum(axis=0), out=offsets[1:])
    # where each block's piece of query i starts in the output
    starts = offsets[:-1] + np.cumsum(counts, axis=0) - counts
    ind = np.empty(offsets[-1], dtype=np.intp)
    dist = np.empty(offsets[-1])
    for (b_ind, b_dist, b_counts), b_starts in zip(parts, starts, strict=True):
        within = np.arange(b_ind.shape[0]) - np.repeat(np.cumsum(b_counts) - b_counts, b_counts)
        at = np.repeat(b_starts, b_counts) + within
        ind[at] = b_ind
        dist[at] = b_dist
    if sort_results:
        sort_segments(ind, dist, offsets)
    return ind, dist, offsets


def _neighbors_of_blocks(est, X, k, query_is_train):
    """Delayed (dist, ind, targets) of every row block of the Dask queries ``X``,
    and the row chunks."""
    import dask

    settings = _settings(est)
    finite = est._finite()
    train = est._dask_train
    search = dask.delayed(_single_threaded(_block_knn))
    prepare = dask.delayed(functools.partial(_prepared_queries, settings=settings,
                                             finite=finite))
    merge = dask.delayed(_merge_knn)
    rows = X.chunks[0]
    starts = np.concatenate([[0], np.cumsum(rows)[:-1]]).astype(np.intp)
    out = []
    for b, start in enumerate(starts):
        Q = prepare(X.blocks[b])
        parts = [search(Q, Xb, yb, off, k, settings)
                 for (Xb, yb), off in zip(train.blocks, train.offsets, strict=True)]
        out.append(merge(parts, k, int(start) if query_is_train else None))
    return out, rows


def _checked_queries(est, X):
    from ..utils._dask import _check_columns

    if X is None:
        return est._fit_X
    _check_columns(est, X)
    X = as_dask_array(X)
    if X.ndim != 2:
        raise ValueError(f"Expected a 2-D Dask array for X, got {X.ndim} dimension(s).")
    if int(X.shape[1]) != est.n_features_in_:
        raise ValueError(f"X has {X.shape[1]} features, but {type(est).__name__} is expecting "
                         f"{est.n_features_in_} features as input.")
    return X


def kneighbors_lazy(est, X, k, return_distance):
    """``kneighbors`` of Dask queries (or of the Dask training rows, X=None) as lazy
    Dask arrays, one merge per query block. In-memory models search each query
    block with their own in-memory index."""
    import dask.array as da

    import dask

    query_is_train = X is None
    X = _checked_queries(est, X)
    if getattr(est, "_dask_train", None) is not None:
        blocks, rows = _neighbors_of_blocks(est, X, k + query_is_train, query_is_train)
    else:
        method = _single_threaded(functools.partial(_memory_kneighbors, est, k=k))
        blocks = [dask.delayed(method)(X.blocks[b]) for b in range(len(X.chunks[0]))]
        rows = X.chunks[0]
    dist = [da.from_delayed(blk[0], shape=(r, k), dtype=np.float64)
            for blk, r in zip(blocks, rows, strict=True)]
    ind = [da.from_delayed(blk[1], shape=(r, k), dtype=np.intp)
           for blk, r in zip(blocks, rows, strict=True)]
    ind = da.concatenate(ind, axis=0)
    return (da.concatenate(dist, axis=0), ind) if return_distance else ind


def _memory_kneighbors(est, Q, k):
    if Q.shape[0] == 0:
        return np.empty((0, k)), np.empty((0, k), dtype=np.intp)
    return est.kneighbors(Q, k)


def _finish(parts, finisher):
    dist, _, targets = parts
    return finisher(dist, targets)


def lazy_row_method(est, name, X):
    """A row method (``predict``, ``predict_proba``) of a model fitted on Dask data,
    on Dask queries: lazy, finished per query block from its neighbours' targets.
    None for a model fitted in memory (the generic block-wise method applies)."""
    import dask.array as da

    import dask

    if getattr(est, "_dask_train", None) is None:
        return None
    finisher = est._neighbors_finisher(name)
    if finisher is None:
        raise DaskUnsupportedError(
            f"{type(est).__name__}.{name} on Dask queries has no distributed version for a "
            "model fitted on Dask data (multi-output probabilities); pass NumPy queries."
        )
    X = _checked_queries(est, X)
    k = est.n_neighbors
    # output shape and dtype from one made-up neighbourhood
    first = np.asarray(finisher(np.ones((1, k)), _probe_targets(est, k)))
    blocks, rows = _neighbors_of_blocks(est, X, k, False)
    finish = dask.delayed(functools.partial(_finish, finisher=finisher))
    pieces = [da.from_delayed(finish(blk), shape=(r,) + first.shape[1:], dtype=first.dtype)
              for blk, r in zip(blocks, rows, strict=True)]
    return da.concatenate(pieces, axis=0)


def _probe_targets(est, k):
    meta = est._dask_train.y_meta
    if meta is not None:  # a regressor
        return np.zeros((1, k) + meta.shape[1:], dtype=meta.dtype)
    shape = (1, k, len(est.classes_)) if est.outputs_2d_ else (1, k)
    return np.zeros(shape, dtype=np.intp)
