"""CART decision trees (seed 000 §11.1) with minimal cost-complexity pruning.

A tree splits the node's samples on the (feature, threshold) pair that most
decreases the weighted impurity: gini ``1 - Σ p_k²``, entropy ``-Σ p_k log2
p_k`` or misclassification ``1 - max_k p_k`` for classification, squared or
absolute error for regression. Growth stops at the six limits of §11.1
(``max_depth``, ``min_samples_leaf``, ``min_samples_split``,
``max_leaf_nodes``, ``max_features``, ``min_impurity_decrease``); pruning
removes the weakest links up to ``ccp_alpha``. ``splitter="random"`` draws
one uniform threshold per candidate feature (extremely randomized trees,
§11.3). ``max_bins`` switches to the histogram splitter: features are binned
once into at most ``max_bins`` quantile bins and splits are searched over
per-node histograms, which is faster on large data and nearly as accurate (nodes
of fewer than 128 samples are split exactly, on sorted lists kept through the
splits below them; a large tree grows its subtrees in threads; the random
splitter draws its thresholds between bins without histograms).
Missing values (NaN) are learned per split, as scikit-learn 1.9 does (in the
histogram splitter they have their own bin); ``monotonic_cst`` rejects splits
against the constraints and clips node values, as scikit-learn's.
"""

import functools
import math
from collections import namedtuple
from numbers import Integral, Real

import numpy as np
import scipy.sparse as sp

from .._kernels.reductions import column_abs_max_and_nan
from .._kernels.sorting import FEW_VALUES
from .._tags import get_tags
from ..base import BaseEstimator, ClassifierMixin, RegressorMixin
from ..exceptions import InvalidParameterError
from ..utils._bunch import Bunch
from ..utils._params import Interval, StrOptions
from ..utils._random import check_random_state, seeded_state
from ..utils._targets import (
    check_classification_targets,
    compute_class_weight,
    unique_inverse,
)
from ..utils._threads import current_numba_threads, pooled_map
from ..utils.validation import (
    check_float32_columns,
    check_is_fitted,
    check_sample_weight,
    validate_data,
)
from . import _binning
from . import _build_kernels as _bk
from . import _hist_kernels as _hk
from ._tree import Tree, predict_input

__all__ = ["DecisionTreeClassifier", "DecisionTreeRegressor"]

CRITERIA = {
    "gini": 0,
    "entropy": 1,
    "log_loss": 1,
    "misclassification": 2,
    "squared_error": 10,
    # Friedman's improvement (w_R S_L - w_L S_R)^2 / (w_L w_R) orders a node's
    # splits as the variance decrease does (it is w_L w_R (mean_L - mean_R)^2,
    # and so is the decrease times w): grown as squared_error, as scikit-learn
    # (1.9) grows it, with the same rounding
    "friedman_mse": 10,
    "absolute_error": 12,
    "poisson": 13,
}
_MAX_DEPTH = np.iinfo(np.int32).max
# histogram trees of at least SUBTREE_ROWS samples grow their top SUBTREE_DEPTH levels,
# then the subtrees below them apart (in threads; see _grow_in_subtrees)
SUBTREE_ROWS = 2_000
SUBTREE_DEPTH = 3


def tree_seed(random_state):
    """Seed of the splitter's generator: ``randint(0, 2**31 - 1)`` of the random state
    (as scikit-learn draws it, so that equal ties resolve alike)."""
    if isinstance(random_state, Integral) and not isinstance(random_state, bool):
        rs = seeded_state(int(random_state))  # a forest's trees: a seed each
    else:
        rs = check_random_state(random_state)
    return int(rs.randint(0, 0x7FFFFFFF))


def resolve_params(est, n_samples, n_features, w_sum):
    """Turn an estimator's growth parameters into the kernels' integer form."""
    msl = est.min_samples_leaf
    if isinstance(msl, Integral):
        msl = int(msl)
    else:
        msl = int(math.ceil(msl * n_samples))
    mss = est.min_samples_split
    if isinstance(mss, Integral):
        if mss < 2:
            raise InvalidParameterError(
                f"The 'min_samples_split' parameter of {type(est).__name__} must be an int in "
                f"the range [2, inf) or a float in the range (0.0, 1.0]. Got {mss!r} instead."
            )
        mss = int(mss)
    else:
        mss = max(2, int(math.ceil(mss * n_samples)))
    mss = max(mss, 2 * msl)
    mf = est.max_features
    if mf is None:
        mf = n_features
    elif isinstance(mf, str):
        mf = max(1, int(np.sqrt(n_features) if mf == "sqrt" else np.log2(n_features)))
    elif isinstance(mf, Integral):
        if mf > n_features:
            raise ValueError(
                f"max_features must be in (0, n_features], got {mf} with "
                f"n_features = {n_features}."
            )
        mf = int(mf)
    else:
        mf = max(1, int(mf * n_features))
    max_depth = _MAX_DEPTH if est.max_depth is None else int(est.max_depth)
    mln = -1 if est.max_leaf_nodes is None else int(est.max_leaf_nodes)
    return dict(
        crit=CRITERIA[est.criterion],
        splitter=_bk.SPLIT_RANDOM if est.splitter == "random" else _bk.SPLIT_BEST,
        max_features=mf,
        max_depth=max_depth,
        min_samples_leaf=msl,
        min_samples_split=mss,
        min_weight_leaf=float(est.min_weight_fraction_leaf * w_sum),
        min_impurity_decrease=float(est.min_impurity_decrease),
        max_leaf_nodes=mln,
    )


def monotonic_constraints(est, n_features, n_outputs, n_classes, is_clf):
    """``est.monotonic_cst`` checked (scikit-learn's errors) and in the kernels' form: an
    intp array, -1 / 0 / 1 per feature on the value the builder constrains (the first
    class's fraction for classifiers, hence the sign flip), or empty for None."""
    if est.monotonic_cst is None:
        return np.empty(0, dtype=np.intp)
    if n_outputs > 1:
        raise ValueError("Monotonicity constraints are not supported with multiple outputs.")
    cst = np.asarray(est.monotonic_cst)
    if cst.ndim != 1 or cst.shape[0] != n_features:
        raise ValueError(
            f"monotonic_cst has shape {cst.shape[0] if cst.ndim else cst.shape} but the input "
            f"data X has {n_features} features."
        )
    if not np.all(np.isin(cst, (-1, 0, 1))):
        raise ValueError(
            "monotonic_cst must be None or an array-like of -1, 0 or 1, but got "
            f"{np.unique(cst)}"
        )
    if est.criterion == "absolute_error":
        # a deliberate gap: the constraint would need the children's medians per candidate
        raise ValueError("monotonic_cst is not supported with criterion='absolute_error'.")
    cst = cst.astype(np.intp)
    if is_clf:
        if int(np.max(n_classes)) > 2:
            raise ValueError(
                "Monotonicity constraints are not supported with multiclass classification"
            )
        cst = -cst
    return np.ascontiguousarray(cst)


_NO_MONO = np.empty(0, dtype=np.intp)


def _plain(a, dtype):
    """``a`` as a writeable C-contiguous array of ``dtype``: the one layout the kernels are
    compiled for (readonly or strided inputs would each compile another version)."""
    if a.dtype != dtype or not a.flags.c_contiguous or not a.flags.writeable:
        a = np.array(a, dtype=dtype, order="C")
    return a


def csc_arrays(X):
    """(indptr, indices, data) of sparse X as the tree builder takes them: CSC with
    sorted indices, intp indices and float32 values; views of X's arrays when they are
    so already (the matrix :func:`prepare_sparse_fit` returns, shared by a forest's
    trees), so growing a tree copies nothing."""
    X = sp.csc_array(X)
    if not X.has_sorted_indices:
        X = X.sorted_indices()
    return (X.indptr.astype(np.intp, copy=False), X.indices.astype(np.intp, copy=False),
            np.ascontiguousarray(X.data, dtype=np.float32))


# a node's entries are grouped by feature only in trees that try at least this share
# of the features at each node (below it the columns' scans read less; see
# _split_kernels.group_node_entries)
GROUPING_MIN_FEATURE_SHARE = 0.125


def sparse_rows(X, max_features):
    """Sparse X by rows for grouping a node's entries by feature: CSR arrays (intp
    indptr and indices, float32 values), made once per fit and shared by a forest's
    trees; None when the trees try too few features per node for the grouping to pay
    (:data:`GROUPING_MIN_FEATURE_SHARE`)."""
    if X.nnz == 0 or max_features < GROUPING_MIN_FEATURE_SHARE * X.shape[1]:
        return None
    R = sp.csr_array(X)
    return (R.indptr.astype(np.intp, copy=False), R.indices.astype(np.intp, copy=False),
            np.ascontiguousarray(R.data, dtype=np.float32))


def rows_for_grouping(rows, n_features):
    """:data:`_build_kernels.ByRows`: the CSR arrays of :func:`sparse_rows` (or None)
    with one tree's grouping buffers."""
    if rows is None:
        return None
    indptr, indices, data = rows
    return _bk.ByRows(indptr, indices, data, np.empty(n_features + 1, dtype=np.intp),
                      np.empty(data.shape[0], dtype=np.intp),
                      np.empty(data.shape[0], dtype=np.float32))


def _value_order(columns, splitter, max_features, n_features):
    """The columns' entries in value order (``_split_kernels.value_sorted_columns``) for
    the best splitter trying at least half the features at a node: sorting each column
    once costs about one node's sorts at the root, and spares them in the nodes that
    hold a good part of a column. None otherwise."""
    if splitter != _bk.SPLIT_BEST or 2 * max_features < n_features:
        return None
    return _bk.value_sorted_columns(*columns)


def prepare_sparse_fit(est, X):
    """Sparse X for a tree fit: its CSC arrays once (shared by a forest's trees), no
    missing values; the histogram splitter (``max_bins``) refuses sparse X by name."""
    if getattr(est, "max_bins", None) is not None:
        raise ValueError(
            f"{type(est).__name__}(max_bins={est.max_bins}) bins a dense copy of X; sparse X "
            "is split exactly: use max_bins=None, or pass X.toarray() if it fits in memory."
        )
    indptr, indices, data = csc_arrays(X)
    return sp.csc_array((data, indices, indptr), shape=X.shape)


def missing_mask(X):
    """uint8 per feature: whether the column holds a NaN (scikit-learn's
    ``missing_values_in_feature_mask``); none for sparse X (finite by validation)."""
    if sp.issparse(X):
        return np.zeros(X.shape[1], dtype=np.uint8)
    return column_abs_max_and_nan(X)[1].astype(np.uint8)


def sort_work(data):
    """The best splitter's buffers (``_build_kernels.SortWork``): radix sort keys, indices
    and counts (also the counting sort's of nodes of few distinct values, from 17
    samples), and the moves of missing values (when some feature has them)."""
    n = data.samples.shape[0]
    r = n if n > 16 else 1
    m = n if data.nan_mask.any() else 1
    return _bk.SortWork(np.empty((2, r), dtype=np.uint32), np.empty(r, dtype=np.intp),
                        np.empty((4, 256), dtype=np.intp), np.empty(m, dtype=np.intp),
                        np.empty(m, dtype=np.float32),
                        np.empty((_bk.FEW_LANES * FEW_VALUES, 4)))


# sorted-list entries (features x rows) an exact tree may hold: nodes of up to this
# many entries / n_features rows keep their features' sorted lists (12 bytes an entry)
EXACT_LIST_ENTRIES = 4_000_000
# X's bins of an exact tree's sorted lists: none (the lists are sorted by value)
_NO_CODES = np.empty((0, 0), dtype=np.uint8)


def _presorts_exactly(data, settings):
    """Whether an exact tree keeps sorted lists (``presorted_work``) instead of sorting
    its nodes' values: for classification with integer weights (bootstrap counts
    included), whose class counts sum exactly in any order, so that the tree is the one
    scikit-learn grows, node for node; and when at least half the features are drawn at
    a node (every split partitions all the lists held, where a node sorts only the
    features it draws)."""
    if settings.crit >= CRITERIA["squared_error"]:
        return False
    if 2 * settings.max_features < data.nan_mask.shape[0]:
        return False
    return _integer_weight_total(data) is not None


def _integer_weight_total(data):
    """The total of the weights used (``data.w[data.samples]``) when every one is an
    integer and the total below 2**31 (bootstrap counts, unit weights), else None."""
    ws = data.w[data.samples]
    total = float(ws.sum())
    if total >= 2.0**31 or not np.all(ws == np.floor(ws)):
        return None
    return total


def _exact_list_width(data):
    n_features = data.nan_mask.shape[0]
    return int(min(data.samples.shape[0], max(2, EXACT_LIST_ENTRIES // max(n_features, 1))))


def presorted_work(data, codes, xlogx, width=None):
    """The best splitter's sorted lists (``_build_kernels.Presorted``): a list of at
    most ``width`` entries per feature (histogram trees' exact nodes: ``HYBRID_MIN``), a
    flag per row, X's bins ``codes`` to sort by (none for an exact tree, whose lists are
    sorted by value), and ``xlogx`` (:func:`_xlogx_table`: with the entropy criterion
    and integer weights, bootstrap counts included, ``k ln k`` up to their total, else
    empty): the histogram trees' scan takes its proxy from it, the exact scan skips the
    logarithms of the candidates whose proxy from it is clearly below the best."""
    n_features = data.nan_mask.shape[0]
    width = _hk.HYBRID_MIN if width is None else width
    return _bk.Presorted(np.empty((n_features, width), dtype=np.intp),
                         np.empty((n_features, width), dtype=np.float32),
                         np.zeros(n_features, dtype=np.intp),
                         np.full(n_features, -1, dtype=np.intp),
                         np.zeros(data.y.shape[0], dtype=np.uint8),
                         np.empty(width, dtype=np.intp), np.empty(width, dtype=np.float32),
                         codes, np.empty(257, dtype=np.intp),
                         xlogx)


def _xlogx_table(data, crit):
    """``k ln k`` for k = 0 .. the total weight, when the criterion is entropy and every
    weight used is an integer (their total below 2**31); else empty."""
    if crit != CRITERIA["entropy"] or data.y.shape[1] != 1:
        return np.empty(0)
    total = _integer_weight_total(data)
    return np.empty(0) if total is None else _xlogx(int(total))


@functools.lru_cache(maxsize=8)
def _xlogx(n):
    """``k ln k`` for k = 0 .. n (0 ln 0 = 0), shared (the kernels only read it; left
    writable, as a read-only array would compile the builder again): a forest's
    bootstrap samples all weigh n_samples in total, so its trees share one table."""
    k = np.arange(n + 1, dtype=np.float64)
    k[0] = 1.0
    table = k * np.log(k)
    table[0] = 0.0
    return table


def random_work(data, crit, sparse):
    """The random splitter's buffers (``_build_kernels.RandomWork``). With one output,
    classification, integer weights (their total below 2**50, so that sums of them are
    exact) and dense X, its fast path counts classes without partitioning, on keys
    ``(weight << kb) | class`` kept in sample order (``kb`` bits hold a class); with one
    output, regression (not absolute_error), unit weights and dense X, it sums targets
    kept in sample order (their bits in the int64 keys)."""
    samples = data.samples
    n = samples.shape[0]
    K = int(data.n_classes.max())
    kb = 1
    while (1 << kb) < K:
        kb += 1
    ws = data.w[samples]
    one_dense = data.y.shape[1] == 1 and not sparse
    if crit < CRITERIA["squared_error"]:
        int_w = bool(np.all(ws == np.floor(ws))) and float(ws.sum()) < 2.0**50
        fast = one_dense and int_w and kb <= _bk.KEY_CLASS_BITS_MAX
    else:
        fast = (one_dense and crit != CRITERIA["absolute_error"]
                and bool(np.all(ws == 1.0)))
    m = n if fast else 1
    if fast and crit >= CRITERIA["squared_error"]:
        # the targets' bits (unit weights: no weight to keep), moved with the samples
        yw = np.ascontiguousarray(data.y[samples, 0], dtype=np.float64).view(np.int64)
    elif fast:
        yw = (ws.astype(np.int64) << kb) | data.y[samples, 0].astype(np.int64)
    else:
        yw = np.empty(1, dtype=np.int64)
    S = data.y.shape[1] * K if crit < CRITERIA["squared_error"] else 2 * data.y.shape[1]
    # ywtmp: the stable partition's right part, and _count_left's class counters
    return _bk.RandomWork(bool(fast), kb, yw, np.empty(max(m, 4 * K), dtype=np.int64),
                          np.empty(m, dtype=np.float32), np.empty(S), np.empty(n, dtype=np.intp))


# binned X handed to the random splitter: each value's bin (float32, NaN kept), by rows
# and by columns, and the bins' upper edges (see binned_inputs)
BinCodes = namedtuple("BinCodes", ["rows", "cols", "edges"])


def binned_inputs(X, mapper, splitter):
    """X binned by ``mapper`` (``_binning.fit_bins``) for a histogram tree's fit: the
    ``binned`` argument of :func:`grow_tree`.

    The best splitter searches per-node histograms: ``(X_binned uint8, edges, n_bins)``.
    The random splitter needs no histogram (one threshold per candidate feature): its
    nodes of at least ``HYBRID_MIN`` samples run the exact random splitter on the bins
    themselves (a :data:`BinCodes`: a threshold drawn uniformly between a node's lowest
    and highest bin picks one of the boundaries between them, each as likely), at the
    exact random splitter's cost rather than a histogram of every feature per node; the
    smaller nodes draw between raw values, as the best splitter's small nodes split
    exactly. The bins as float32 take two copies of X's size."""
    codes = _binning.transform_bins(X, mapper)
    if splitter != "random":
        return (codes,) + tuple(mapper)
    coded = codes.astype(np.float32)
    missing = np.isnan(X)
    if missing.any():
        coded[missing] = np.nan
    return BinCodes(coded, np.ascontiguousarray(coded.T), mapper[0])


def grow_tree(Xt, X, y, w, n_classes, p, seed, is_clf, n_features, binned=None,
              nan_mask=None, arena=None, subtrees=True):
    """Grow one :class:`Tree` on prepared arrays (see ``_build_kernels.build_tree``).

    ``Xt`` is the float32 data transposed (n_features, n_samples) and ``X`` the same
    data row-major (both C-contiguous; the builder gathers from whichever layout is
    cheaper for a node's size). For sparse ``X`` (CSC, :func:`prepare_sparse_fit`),
    ``Xt`` is X by rows (:func:`sparse_rows`) or None. ``binned`` is ``(X_binned,
    bin_thresholds, n_bins)`` for the histogram splitter, a :data:`BinCodes` (X's bins
    for the random splitter, :func:`binned_inputs`), else None. ``nan_mask`` (see
    :func:`missing_mask`) is computed from X when None. ``arena``: the forest's
    ``_tree.NodeArena`` holding the tree's records and values, or None. ``subtrees``:
    whether a large histogram tree may grow as a top and subtrees in threads
    (:func:`_grow_in_subtrees`); a forest, whose trees grow in threads already, passes
    False. Rows with zero weight are left out. Releases the GIL.
    """
    if nan_mask is None:
        nan_mask = missing_mask(X)
    samples = np.flatnonzero(w > 0).astype(np.intp)
    bins = None
    codes = None
    if isinstance(binned, BinCodes):
        codes = _bk.Coded(_bk.Dense(binned.cols, binned.rows), _plain(binned.edges, np.float64))
    elif binned is not None:
        if p["splitter"] == _bk.SPLIT_RANDOM:
            raise ValueError("the random splitter takes binned X as BinCodes "
                             "(binned_inputs), not histograms")
        Xb, edges, n_bins = binned
        bins = _bk.Bins(_plain(Xb, np.uint8), _plain(edges, np.float64), _plain(n_bins, np.intp))
    n_classes = _plain(n_classes, np.intp)
    dense = csc = None
    n_rows = y.shape[0]
    if sp.issparse(X):
        # with the sparse splitters' buffers: rows' positions, a column's entries at a node
        # and X by rows where grouping a node's entries by feature can pay
        columns = csc_arrays(X)
        csc = _bk.Csc(*columns, np.full(n_rows, -1, dtype=np.intp),
                      np.empty(samples.shape[0], dtype=np.intp),
                      np.empty(samples.shape[0], dtype=np.float32),
                      rows_for_grouping(Xt, X.shape[1]),
                      _value_order(columns, p["splitter"], p["max_features"], X.shape[1]))
    else:
        dense = _bk.Dense(_plain(Xt, np.float32), _plain(X, np.float32))
    data = _bk.Data(_plain(y, np.float64), _plain(w, np.float64), samples, n_classes,
                    _plain(nan_mask, np.uint8))
    settings = _bk.Settings(
        int(p["crit"]), int(p["splitter"]), int(p["max_features"]), int(p["max_depth"]),
        int(p["min_samples_leaf"]), int(p["min_samples_split"]), float(p["min_weight_leaf"]),
        float(p["min_impurity_decrease"]), int(p["max_leaf_nodes"]), np.uint64(seed),
        _plain(p.get("monotonic", _NO_MONO), np.intp), 0.0)
    if subtrees and _grows_in_subtrees(settings, bins, samples.shape[0]):
        grown = _grow_in_subtrees(data, settings, dense, bins)
    else:
        grown = _build(data, settings, dense, csc, bins, codes)
    return Tree(grown.inodes, grown.fnodes, grown.value, n_features, n_classes,
                grown.max_depth, is_clf, arena)


def _build(data, settings, dense, csc, bins, codes=None):
    """``_build_kernels.build_tree`` with its splitter's buffers, allocated per call (the
    subtrees of :func:`_grow_in_subtrees` grow at once, each in its own)."""
    # the absolute-error criterion's scratch (None: the other criteria compile without it)
    abs_work = (_bk.AbsWork(*np.empty((8, data.samples.shape[0] + 1)))
                if settings.crit == CRITERIA["absolute_error"] else None)
    # the splitter's own buffers; the other splitter's None leaves its code out of the
    # compiled builder
    if settings.splitter == _bk.SPLIT_RANDOM:
        sort, rnd = None, random_work(data, settings.crit, csc is not None)
    else:
        sort, rnd = sort_work(data), None
    pre = None
    if sort is not None and (bins is not None or dense is not None):
        table = _xlogx_table(data, settings.crit)
        if bins is not None:
            pre = presorted_work(data, bins.Xb, table)
        elif _presorts_exactly(data, settings):
            pre = presorted_work(data, _NO_CODES, table, _exact_list_width(data))
        elif table.size:
            # no lists (few features drawn at a node: forests), only the entropy's table
            pre = presorted_work(data, _NO_CODES, table, 0)
    return _bk.build_tree(data, settings, dense, csc, bins, abs_work, sort, rnd, pre, codes)


def _grows_in_subtrees(settings, bins, n_samples):
    """Whether a tree grows as a top and subtrees (:func:`_grow_in_subtrees`): histogram
    trees of at least ``SUBTREE_ROWS`` samples, grown depth-first, without monotonicity
    constraints, deeper than the top. Decided by the data and parameters alone, never by
    the number of threads, so that a tree does not depend on it."""
    return (bins is not None and n_samples >= SUBTREE_ROWS and settings.max_leaf_nodes < 0
            and not settings.mono.any() and settings.max_depth > SUBTREE_DEPTH)


def _grow_in_subtrees(data, settings, dense, bins):
    """Grow a histogram tree's top ``SUBTREE_DEPTH`` levels, then the subtree below each
    node at that depth apart, in threads (numba's thread count: one inside a forest's
    threads), and graft them on the top.

    Each subtree draws from a generator of its own, seeded from the tree's seed and its
    place, and takes its improvements as fractions of the whole tree's weight: the tree is
    the same whatever the thread count or the order the subtrees finish in."""
    top = _build(data, settings._replace(max_depth=SUBTREE_DEPTH), dense, None, bins)
    roots = _subtree_roots(top.inodes, SUBTREE_DEPTH)
    wn_root = float(top.fnodes[0, _bk.NODE_WEIGHT])

    def grow(k):
        node, a, b = roots[k]
        sub = settings._replace(max_depth=settings.max_depth - SUBTREE_DEPTH,
                                seed=np.uint64(_subtree_seed(int(settings.seed), k)),
                                wn_total=wn_root)
        return _build(data._replace(samples=top.samples[a:b]), sub, dense, None, bins)

    # the largest subtrees first, so that the threads finish together
    order = sorted(range(len(roots)), key=lambda k: roots[k][1] - roots[k][2])
    grown = pooled_map(grow, order, current_numba_threads())
    subtrees = {roots[k][0]: g for k, g in zip(order, grown)}
    depth = max([top.max_depth] + [SUBTREE_DEPTH + g.max_depth for g in grown])
    return _bk.GrownTree(*_graft(top, subtrees), depth, top.samples)


def _subtree_roots(inodes, depth):
    """``(node, start, end)`` of the top's nodes at ``depth`` (leaves there for the depth
    limit alone) and their samples' positions, children's ranges following their
    parent's (left first)."""
    roots = []
    stack = [(0, 0, int(inodes[0, _bk.NODE_N_SAMPLES]), 0)]
    while stack:
        node, a, b, d = stack.pop()
        left, right = inodes[node, _bk.NODE_LEFT], inodes[node, _bk.NODE_RIGHT]
        if left >= 0:
            mid = a + int(inodes[left, _bk.NODE_N_SAMPLES])
            stack.append((right, mid, b, d + 1))
            stack.append((left, a, mid, d + 1))
        elif d == depth:
            roots.append((node, a, b))
    return roots


def _subtree_seed(seed, k):
    """The generator seed of subtree ``k`` of a tree seeded ``seed`` (a nonzero 32-bit
    value, mixed so that neighbouring seeds and places do not share streams)."""
    x = (seed * 0x9E3779B1 + (k + 1) * 0x85EBCA77) & 0xFFFFFFFF
    x ^= x >> 15
    x = (x * 0x2C1B3C6D) & 0xFFFFFFFF
    x ^= x >> 12
    return x or 1


def _graft(top, subtrees):
    """The node arrays of the top with ``subtrees[node]`` (``GrownTree``) in place of
    each of those nodes, numbered in depth-first order, left first."""
    ids = {}
    order = []
    count = 0
    stack = [0]
    while stack:
        node = stack.pop()
        ids[node] = count
        order.append(node)
        if node in subtrees:
            count += subtrees[node].inodes.shape[0]
            continue
        count += 1
        left, right = top.inodes[node, _bk.NODE_LEFT], top.inodes[node, _bk.NODE_RIGHT]
        if left >= 0:
            stack.extend((right, left))
    inodes = np.empty((count, top.inodes.shape[1]), dtype=np.intp)
    fnodes = np.empty((count, top.fnodes.shape[1]))
    value = np.empty((count, top.value.shape[1]))
    for node in order:
        at = ids[node]
        if node in subtrees:
            sub = subtrees[node]
            _bk.graft_rows(inodes, fnodes, value, at, sub.inodes, sub.fnodes, sub.value, at)
            continue
        _bk.graft_rows(inodes, fnodes, value, at, top.inodes[node:node + 1],
                       top.fnodes[node:node + 1], top.value[node:node + 1], 0)
        left, right = top.inodes[node, _bk.NODE_LEFT], top.inodes[node, _bk.NODE_RIGHT]
        if left >= 0:
            inodes[at, _bk.NODE_LEFT] = ids[int(left)]
            inodes[at, _bk.NODE_RIGHT] = ids[int(right)]
    return inodes, fnodes, value


_COMMON_CONSTRAINTS = {
    "splitter": [StrOptions({"best", "random"})],
    "max_depth": [Interval(Integral, 1, None, closed="left"), None],
    "min_samples_split": [
        Interval(Integral, 2, None, closed="left"),
        Interval(Real, 0.0, 1.0, closed="right"),
    ],
    "min_samples_leaf": [
        Interval(Integral, 1, None, closed="left"),
        Interval(Real, 0.0, 1.0, closed="neither"),
    ],
    "min_weight_fraction_leaf": [Interval(Real, 0.0, 0.5, closed="both")],
    "max_features": [
        Interval(Integral, 1, None, closed="left"),
        Interval(Real, 0.0, 1.0, closed="right"),
        StrOptions({"sqrt", "log2"}),
        None,
    ],
    "random_state": ["random_state"],
    "max_leaf_nodes": [Interval(Integral, 2, None, closed="left"), None],
    "min_impurity_decrease": [Interval(Real, 0.0, None, closed="left")],
    "ccp_alpha": [Interval(Real, 0.0, None, closed="left")],
    "max_bins": [Interval(Integral, 2, 255, closed="both"), None],
    "monotonic_cst": ["array-like", None],
}


def check_max_bins(est):
    """The histogram splitter does not support absolute_error nor poisson (their
    statistics are not sums over the bins)."""
    if est.max_bins is not None and est.criterion in ("absolute_error", "poisson"):
        raise ValueError("max_bins (histogram splitter) does not support "
                         f"criterion={est.criterion!r}.")


def check_poisson_target(est, y):
    """The Poisson criterion needs non-negative targets with a positive sum (scikit-learn's
    checks and messages)."""
    if getattr(est, "criterion", None) != "poisson":
        return
    if np.any(y < 0):
        raise ValueError("Some value(s) of y are negative which is not allowed for Poisson "
                         "regression.")
    if np.sum(y) <= 0:
        raise ValueError("Sum of y is not positive which is necessary for Poisson regression.")


def encode_class_targets(y):
    """Per-output sorted classes and the float64 class-index matrix."""
    check_classification_targets(y)
    y2 = y.reshape(-1, 1) if y.ndim == 1 else y
    classes, codes = [], np.empty(y2.shape, dtype=np.float64)
    for o in range(y2.shape[1]):
        c, inv = unique_inverse(y2[:, o])
        classes.append(c)
        codes[:, o] = inv
    return classes, codes


def expanded_class_weight(class_weight, classes, codes, sample_weight=None):
    """Per-sample weight from ``class_weight`` (product over outputs).

    With ``sample_weight``, "balanced" uses weighted class counts (as the forests do).
    """
    n_outputs = codes.shape[1]
    if isinstance(class_weight, dict) or class_weight is None:
        cws = [class_weight] * n_outputs
        if isinstance(class_weight, dict) and n_outputs > 1:
            raise ValueError(
                "For multi-output, class_weight should be a list of dicts, or 'balanced'."
            )
    elif isinstance(class_weight, str):
        cws = [class_weight] * n_outputs
    else:
        cws = list(class_weight)
        if len(cws) != n_outputs:
            raise ValueError(
                "For multi-output, number of elements in class_weight should match number of "
                "outputs."
            )
    out = np.ones(codes.shape[0])
    for o in range(n_outputs):
        yi = codes[:, o].astype(np.intp)
        if cws[o] == "balanced" and sample_weight is not None:
            counts = np.bincount(yi, weights=sample_weight, minlength=len(classes[o]))
            with np.errstate(divide="ignore"):
                cw = counts.sum() / (len(classes[o]) * counts)
            out *= cw[yi]
        else:
            out *= compute_class_weight(cws[o], classes[o], yi)[yi]
    return out


def validate_X_y(est, X, y, numeric_y):
    """X as float32 C-contiguous (recording n_features_in_; NaN allowed when the
    estimator's tags allow it) and y as a 1-D or 2-D array.

    y keeps its labels (strings included) for classifiers and becomes float64
    for regressors.
    """
    if y is None:
        raise ValueError(
            f"{type(est).__name__} requires y to be passed, but the target y is None."
        )
    if sp.issparse(X):
        # scikit-learn's sparse splitter: CSC, finite values only
        X = validate_data(est, X, dtype=np.float32, accept_sparse="csc")
    else:
        check_float32_columns(X, est)
        finite = "allow-nan" if get_tags(est).allow_nan else True
        X = validate_data(est, X, dtype=np.float32, ensure_all_finite=finite)
        X = np.ascontiguousarray(X, dtype=np.float32)
    if sp.issparse(y):
        raise TypeError("Sparse data was passed for y, but dense data is required.")
    if hasattr(y, "to_numpy") and hasattr(y, "iloc"):
        y = y.to_numpy()
    y = np.asarray(y)
    if y.ndim == 0 or y.ndim > 2:
        raise ValueError(f"y should be a 1d or 2d array, got an array of shape {y.shape}.")
    if y.shape[0] != X.shape[0]:
        raise ValueError(
            "Found input variables with inconsistent numbers of samples: "
            f"[{X.shape[0]}, {y.shape[0]}]"
        )
    if y.dtype.kind == "c":
        raise ValueError("Complex data not supported")
    if numeric_y:
        y = y.astype(np.float64)
    if y.dtype.kind == "f" and not np.isfinite(y).all():
        raise ValueError("Input y contains NaN or infinity.")
    return X, y


class BaseDecisionTree(BaseEstimator):
    """Shared fit / predict machinery of the two decision trees."""

    _is_clf = False

    def __classiclearn_tags__(self):
        tags = super().__classiclearn_tags__()
        tags.multi_output = True
        tags.allow_nan = True
        tags.sparse = self.max_bins is None  # the histogram splitter bins a dense copy
        return tags

    def _prepare_X(self, X, reset):
        X = validate_data(self, X, reset=reset, dtype=np.float32) if not reset else X
        return np.ascontiguousarray(X, dtype=np.float32)

    def _fit(self, X, y, sample_weight=None):
        self._validate_params()
        X, y = validate_X_y(self, X, y, numeric_y=not self._is_clf)
        n_samples, n_features = X.shape
        if y.ndim == 2 and y.shape[1] == 0:
            raise ValueError("y has 0 outputs.")
        sw = check_sample_weight(sample_weight, X, dtype=np.float64)
        if self._is_clf:
            classes, codes = encode_class_targets(y)
            n_classes = np.array([len(c) for c in classes], dtype=np.intp)
            if self.class_weight is not None:
                sw = sw * expanded_class_weight(self.class_weight, classes, codes)
        else:
            codes = np.asarray(y, dtype=np.float64).reshape(n_samples, -1)
            n_classes = np.ones(codes.shape[1], dtype=np.intp)
            check_poisson_target(self, codes)
        codes = np.ascontiguousarray(codes)
        if sw.sum() <= 0:
            raise ValueError("Sum of sample_weight must be positive.")
        self.n_outputs_ = codes.shape[1]
        p = resolve_params(self, n_samples, n_features, sw.sum())
        p["monotonic"] = monotonic_constraints(self, n_features, self.n_outputs_, n_classes,
                                               self._is_clf)
        self.max_features_ = p["max_features"]
        seed = tree_seed(self.random_state)
        binned = None
        check_max_bins(self)
        if sp.issparse(X):
            X = prepare_sparse_fit(self, X)
            Xt = sparse_rows(X, p["max_features"])
        elif self.max_bins is not None:
            mapper = _binning.fit_bins(X, self.max_bins, seed)
            binned = binned_inputs(X, mapper, self.splitter)
        if not sp.issparse(X):
            Xt = np.ascontiguousarray(X.T)
        tree = grow_tree(Xt, X, codes, sw, n_classes, p, seed, self._is_clf, n_features, binned,
                         missing_mask(X))
        if self.ccp_alpha > 0.0:
            tree = tree.pruned(self.ccp_alpha)
        self.tree_ = tree
        if self._is_clf:
            if self.n_outputs_ == 1:
                self.classes_ = classes[0]
                self.n_classes_ = int(n_classes[0])
            else:
                self.classes_ = classes
                self.n_classes_ = n_classes.copy()
        return self

    def _X_predict(self, X):
        check_is_fitted(self)
        return predict_input(self, X)

    def apply(self, X):
        """Index of the leaf that each sample falls in.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        X = self._X_predict(X)
        return self.tree_.apply(X)

    def decision_path(self, X):
        """Indicator of the nodes each sample goes through.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        scipy.sparse.csr_matrix of shape (n_samples, n_nodes)
        """
        X = self._X_predict(X)
        return self.tree_.decision_path(X)

    def get_depth(self):
        """Depth of the tree (a single leaf has depth 0)."""
        check_is_fitted(self)
        return self.tree_.max_depth

    def get_n_leaves(self):
        """Number of leaves of the tree."""
        check_is_fitted(self)
        return self.tree_.n_leaves

    @property
    def feature_importances_(self):
        """Normalised total impurity decrease brought by each feature (MDI)."""
        check_is_fitted(self)
        return self.tree_.compute_feature_importances()

    def cost_complexity_pruning_path(self, X, y, sample_weight=None):
        """Effective alphas of minimal cost-complexity pruning.

        The tree is grown on (X, y) with the current parameters and no pruning;
        then its weakest links are removed one by one.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,) or (n_samples, n_outputs)
        sample_weight : array-like of shape (n_samples,), default=None

        Returns
        -------
        Bunch
            ``ccp_alphas`` (increasing) and ``impurities`` (total weighted leaf
            impurity of the subtree at each alpha).
        """
        from ..base import clone

        est = clone(self).set_params(ccp_alpha=0.0)
        est.fit(X, y, sample_weight=sample_weight)
        alphas, imps = est.tree_.pruning_path()
        return Bunch(ccp_alphas=alphas, impurities=imps)


class DecisionTreeClassifier(ClassifierMixin, BaseDecisionTree):
    """A CART classification tree.

    Parameters
    ----------
    criterion : {"gini", "entropy", "log_loss", "misclassification"}, default="gini"
        Impurity measure. "misclassification" is ``1 - max_k p_k`` (§11.1),
        which scikit-learn lacks.
    splitter : {"best", "random"}, default="best"
        "best": exact search over the sorted values of each candidate
        feature; "random": one uniform random threshold per candidate feature.
    max_depth : int, default=None
        Maximum depth; None grows until the other limits stop it.
    min_samples_split : int or float, default=2
        Minimum number of samples (or fraction of them) to split a node.
    min_samples_leaf : int or float, default=1
        Minimum number of samples (or fraction) in each leaf.
    min_weight_fraction_leaf : float, default=0.0
        Minimum fraction of the total sample weight in each leaf.
    max_features : int, float, {"sqrt", "log2"} or None, default=None
        Number of features drawn (without replacement) as candidates at each
        split.
    random_state : int, RandomState or None, default=None
        Drives feature draws and random thresholds.
    max_leaf_nodes : int, default=None
        Grow best-first (largest impurity decrease first) up to this many
        leaves.
    min_impurity_decrease : float, default=0.0
        Split only if the weighted impurity decrease
        ``N_t / N * (imp - N_R / N_t * imp_R - N_L / N_t * imp_L)`` reaches it.
    class_weight : dict, list of dict, "balanced" or None, default=None
        Weights of the classes, multiplied into ``sample_weight``.
    ccp_alpha : float, default=0.0
        Complexity parameter of minimal cost-complexity pruning.
    max_bins : int in [2, 255] or None, default=None
        If set, the histogram splitter: features binned once into at most
        ``max_bins`` quantile bins (the ``splitter`` parameter then only
        chooses between the best bin boundary and a random one; nodes of fewer
        than 128 samples split on raw values). From 2,000 samples the tree grows
        its top three levels, then the subtrees below them in threads, each with
        a random stream of its own: the tree depends on ``random_state``, not on
        the thread count.
    monotonic_cst : array-like of int of shape (n_features,), default=None
        Monotonicity constraint per feature: 1 increasing, -1 decreasing, 0
        none (as scikit-learn's; binary classification constrains the
        probability of the positive class; not with multiple outputs, more
        than two classes or ``criterion="absolute_error"``).

    Attributes
    ----------
    classes_ : ndarray or list of ndarray
    n_classes_ : int or ndarray
    n_outputs_ : int
    max_features_ : int
    tree_ : Tree
        The fitted node arrays.
    feature_importances_ : ndarray of shape (n_features,)
    n_features_in_ : int
    feature_names_in_ : ndarray, only with string column names

    See Also
    --------
    DecisionTreeRegressor
    classiclearn.ensemble.RandomForestClassifier

    Notes
    -----
    X is converted to float32 once (as scikit-learn does), so thresholds are
    midpoints of float32 values.

    Missing values (NaN in X) are handled as scikit-learn 1.9 does: at each
    split the samples missing the split feature go to the side that improves
    the criterion most (or, with the random splitter, a side drawn at random),
    recorded in ``tree_.missing_go_to_left``; a split may also separate the
    missing values from all others (threshold +inf, missing values right). At
    prediction, a NaN in a feature never missing at a node during training
    goes to the child that received more samples.

    Examples
    --------
    >>> from classiclearn.tree import DecisionTreeClassifier
    >>> X = [[0.0], [1.0], [2.0], [3.0]]
    >>> clf = DecisionTreeClassifier(random_state=0).fit(X, [0, 0, 1, 1])
    >>> clf.predict([[0.5], [2.5]]).tolist(), clf.get_depth()
    ([0, 1], 1)
    """

    _is_clf = True
    _parameter_constraints = {
        **_COMMON_CONSTRAINTS,
        "criterion": [StrOptions({"gini", "entropy", "log_loss", "misclassification"})],
        "class_weight": [dict, list, StrOptions({"balanced"}), None],
    }

    def __init__(self, *, criterion="gini", splitter="best", max_depth=None,
                 min_samples_split=2, min_samples_leaf=1, min_weight_fraction_leaf=0.0,
                 max_features=None, random_state=None, max_leaf_nodes=None,
                 min_impurity_decrease=0.0, class_weight=None, ccp_alpha=0.0, max_bins=None,
                 monotonic_cst=None):
        self.criterion = criterion
        self.splitter = splitter
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.min_weight_fraction_leaf = min_weight_fraction_leaf
        self.max_features = max_features
        self.random_state = random_state
        self.max_leaf_nodes = max_leaf_nodes
        self.min_impurity_decrease = min_impurity_decrease
        self.class_weight = class_weight
        self.ccp_alpha = ccp_alpha
        self.max_bins = max_bins
        self.monotonic_cst = monotonic_cst

    def fit(self, X, y, sample_weight=None, check_input=True):
        """Grow (and prune) the tree.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,) or (n_samples, n_outputs)
        sample_weight : array-like of shape (n_samples,), default=None
        check_input : bool, default=True
            Accepted for compatibility; input is always checked.

        Returns
        -------
        self
        """
        return self._fit(X, y, sample_weight)

    def predict_proba(self, X):
        """Class probabilities: the class fractions of the leaf.

        Returns
        -------
        ndarray of shape (n_samples, n_classes), or a list of them per output
        """
        X = self._X_predict(X)
        proba = self.tree_.predict(X)
        if self.n_outputs_ == 1:
            return proba[:, 0, : self.n_classes_].copy()
        return [proba[:, o, : self.n_classes_[o]].copy() for o in range(self.n_outputs_)]

    def predict_log_proba(self, X):
        """Logarithm of :meth:`predict_proba`."""
        proba = self.predict_proba(X)
        with np.errstate(divide="ignore"):
            if self.n_outputs_ == 1:
                return np.log(proba)
            return [np.log(p) for p in proba]

    def predict(self, X):
        """Most frequent (weighted) class of the leaf.

        Returns
        -------
        ndarray of shape (n_samples,) or (n_samples, n_outputs)
        """
        X = self._X_predict(X)
        leaves = self.tree_.apply(X)
        value = self.tree_.value
        if self.n_outputs_ == 1:
            return self.classes_[_leaf_classes(value, 0, self.n_classes_, leaves)]
        out = [self.classes_[o][_leaf_classes(value, o, self.n_classes_[o], leaves)]
               for o in range(self.n_outputs_)]
        return np.stack(out, axis=1)


def _leaf_classes(value, output, n_classes, leaves):
    """Index of the first largest class of each row's leaf: from the rows' own leaves
    when they are fewer than the nodes, else from every node's, looked up per row."""
    if leaves.shape[0] < value.shape[0]:
        return np.argmax(value[leaves, output, :n_classes], axis=1)
    return np.argmax(value[:, output, :n_classes], axis=1)[leaves]


class DecisionTreeRegressor(RegressorMixin, BaseDecisionTree):
    """A CART regression tree.

    Parameters
    ----------
    criterion : {"squared_error", "friedman_mse", "absolute_error", "poisson"}, \
default="squared_error"
        Squared error (leaf mean), Friedman's improvement score (the same
        splits as squared error, and grown as it), or absolute error (leaf
        weighted median).
    splitter, max_depth, min_samples_split, min_samples_leaf, \
min_weight_fraction_leaf, max_features, random_state, max_leaf_nodes, \
min_impurity_decrease, ccp_alpha, max_bins, monotonic_cst
        As in :class:`DecisionTreeClassifier` (``monotonic_cst`` constrains the
        prediction).

    Attributes
    ----------
    n_outputs_ : int
    max_features_ : int
    tree_ : Tree
    feature_importances_ : ndarray of shape (n_features,)
    n_features_in_ : int
    feature_names_in_ : ndarray, only with string column names

    See Also
    --------
    DecisionTreeClassifier
    classiclearn.ensemble.RandomForestRegressor

    Examples
    --------
    >>> from classiclearn.tree import DecisionTreeRegressor
    >>> reg = DecisionTreeRegressor(max_depth=1).fit([[0.0], [1.0], [2.0], [3.0]],
    ...                                             [1.0, 1.0, 3.0, 3.0])
    >>> reg.predict([[0.2], [2.8]]).tolist()
    [1.0, 3.0]
    """

    _parameter_constraints = {
        **_COMMON_CONSTRAINTS,
        "criterion": [StrOptions({"squared_error", "friedman_mse", "absolute_error",
                                  "poisson"})],
    }

    def __init__(self, *, criterion="squared_error", splitter="best", max_depth=None,
                 min_samples_split=2, min_samples_leaf=1, min_weight_fraction_leaf=0.0,
                 max_features=None, random_state=None, max_leaf_nodes=None,
                 min_impurity_decrease=0.0, ccp_alpha=0.0, max_bins=None, monotonic_cst=None):
        self.criterion = criterion
        self.splitter = splitter
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.min_weight_fraction_leaf = min_weight_fraction_leaf
        self.max_features = max_features
        self.random_state = random_state
        self.max_leaf_nodes = max_leaf_nodes
        self.min_impurity_decrease = min_impurity_decrease
        self.ccp_alpha = ccp_alpha
        self.max_bins = max_bins
        self.monotonic_cst = monotonic_cst

    fit = DecisionTreeClassifier.fit

    def predict(self, X):
        """Leaf mean (or median) of each sample.

        Returns
        -------
        ndarray of shape (n_samples,) or (n_samples, n_outputs)
        """
        X = self._X_predict(X)
        value = self.tree_.predict(X)[:, :, 0]
        return value[:, 0].copy() if self.n_outputs_ == 1 else value
