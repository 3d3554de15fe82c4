"""The fitted tree: flat node arrays (seed 000 §11.1) and the operations on them.

A :class:`Tree` holds one array per node field, so that a model file can store
it without pickle and numba kernels walk it directly:

- ``children_left``, ``children_right`` (-1 at leaves), ``feature`` (-2 at
  leaves), ``threshold`` (a sample goes left when ``x[feature] <= threshold``);
- ``impurity``, ``n_node_samples``, ``weighted_n_node_samples``;
- ``value`` (n_nodes, n_outputs, max_n_classes): class fractions per output for
  classifiers, means (or medians for absolute_error) for regressors;
- ``missing_go_to_left`` (uint8 per node): whether samples with a missing value
  (NaN) in the split feature go left, as scikit-learn's; a split may be "NaN
  against the rest" (threshold +inf, missing values right). Model files written
  before missing values were learned hold zeros here, which is what those trees
  did with NaN (none reached them: NaN was refused);
- ``category_offset`` / ``category_bitsets``: room for categorical splits. For
  now every split is numeric, ``category_offset`` is None (when categorical
  splits come it becomes an intp array, -1 for a numeric split, else the first
  uint64 word of the node's category bitset).

The attribute names follow scikit-learn's ``tree_`` so that code inspecting
scikit-learn trees works on ours.
"""


import threading

import numpy as np
import scipy.sparse as sp

from .._kernels.work import TREE_WALK_ROWS
from .._tags import get_tags
from ..utils._threads import effective_n_jobs, pooled_map, row_chunks
from ..utils.validation import validate_data
from . import _predict_kernels as _pk
from . import _prune_kernels as _prk

__all__ = ["NodeArena", "Tree"]

# rows from which a single tree's walk is split over threads
_PARALLEL_ROWS = TREE_WALK_ROWS
# entries of a float64 X from which prediction casts and checks it in one pass of
# its own (predict_input; numpy's cast, then validation's check, read it twice), and
# from which that pass runs in threads
_FAST_CAST = 1 << 16
_THREADED_CAST = 1 << 20
# least rows of a chunk of a forest's walk: a chunk walks every tree, and each tree's
# leaf values are fetched once per chunk, so chunks must not be too small
_FOREST_CHUNK = 25_000
# below (rows x trees x this) nodes, walking ``packed`` directly beats building the
# walk records first: building them costs a pass over every node, which a few
# rows never pay back. A forest's plain walk of few rows runs on one thread while
# its records are built in threads; a single tree's are built on one
_PLAIN_STEPS = 64
_PLAIN_STEPS_TREE = 8


class Tree:
    """Array representation of a fitted binary decision tree.

    Parameters
    ----------
    inodes : ndarray of shape (n_nodes, 4 or 5), dtype intp
        left child, right child, feature, n_node_samples and, if present,
        missing_go_to_left.
    fnodes : ndarray of shape (n_nodes, 3)
        threshold, impurity, weighted_n_node_samples.
    value : ndarray of shape (n_nodes, n_outputs * K)
    n_features : int
    n_classes : ndarray of shape (n_outputs,), dtype intp
        Ones for regression.
    max_depth : int
    is_classifier : bool
        Whether ``value`` holds weighted class counts, normalised here to
        fractions.

    Examples
    --------
    >>> import numpy as np
    >>> from classiclearn.tree import DecisionTreeClassifier
    >>> t = DecisionTreeClassifier().fit([[0.0], [1.0]], [0, 1]).tree_
    >>> t.node_count, t.children_left.tolist(), float(t.threshold[0])
    (3, [1, -1, -1], 0.5)
    """

    def __init__(self, inodes, fnodes, value, n_features, n_classes, max_depth,
                 is_classifier, arena=None):
        n_nodes = inodes.shape[0]
        self.n_features = int(n_features)
        self.n_classes = np.asarray(n_classes, dtype=np.intp)
        self.n_outputs = int(self.n_classes.shape[0])
        self.max_n_classes = int(self.n_classes.max())
        value = value.reshape(n_nodes, self.n_outputs, -1)
        packed = out = None
        if arena is not None:
            packed, out = arena.slots(n_nodes)
            out = out.reshape(value.shape)
        self.packed = pack_nodes(inodes[:, 0], inodes[:, 1], inodes[:, 2], fnodes[:, 0],
                                 packed)
        self.n_node_samples = np.ascontiguousarray(inodes[:, 3])
        self.impurity = np.ascontiguousarray(fnodes[:, 1])
        self.weighted_n_node_samples = np.ascontiguousarray(fnodes[:, 2])
        if is_classifier:
            totals = value.sum(axis=2, keepdims=True)
            totals[totals == 0] = 1.0
            value = np.divide(value, totals, out=out)
        elif out is not None:
            out[...] = value
            value = out
        self.value = np.ascontiguousarray(value)
        self.missing_go_to_left = np.zeros(n_nodes, dtype=np.uint8)
        if inodes.shape[1] > 4:
            self.missing_go_to_left[:] = inodes[:, 4] != 0
        self.category_offset = None
        self.category_bitsets = None
        self.max_depth = int(max_depth)
        self.walk_cache = WalkCache()

    # the split fields are views of the packed node records (one copy in memory)
    @property
    def children_left(self):
        """Left child of each node (-1 at leaves)."""
        return self.packed["left"]

    @property
    def children_right(self):
        """Right child of each node (-1 at leaves)."""
        return self.packed["right"]

    @property
    def feature(self):
        """Split feature of each node (-2 at leaves)."""
        return self.packed["feature"]

    @property
    def threshold(self):
        """Split threshold of each node (-2 at leaves)."""
        return self.packed["threshold"]

    @property
    def node_count(self):
        """Number of nodes."""
        return int(self.children_left.shape[0])

    @property
    def capacity(self):
        """Number of nodes (arrays are trimmed to size)."""
        return self.node_count

    @property
    def n_leaves(self):
        """Number of leaves."""
        return int(np.count_nonzero(self.children_left < 0))

    @property
    def nbytes(self):
        """Memory held by the node arrays, in bytes."""
        return sum(
            a.nbytes
            for a in (self.packed, self.impurity, self.n_node_samples,
                      self.weighted_n_node_samples, self.value, self.missing_go_to_left)
        )

    def apply(self, X):
        """Index of the leaf each row of X (float32, C-contiguous) falls in.

        Large inputs are cut into row chunks walked in threads, one per core.
        """
        n = X.shape[0]
        return apply_forest(X, self.packed, np.zeros(1, dtype=np.intp),
                            1 if n < _PARALLEL_ROWS else -1,
                            lambda: self.missing_go_to_left, self._walk_cache()).reshape(n)

    def _walk_cache(self):
        return kept_walk_cache(self, "walk_cache")

    def predict(self, X):
        """Leaf value of each row: array (n_samples, n_outputs, max_n_classes)."""
        return self.value[self.apply(X)]

    def decision_path(self, X):
        """Sparse CSR indicator (n_samples, n_nodes) of the nodes each row visits."""
        zero = np.zeros(1, dtype=np.intp)
        return forest_decision_path(X, self.packed, zero, zero, self.node_count,
                                    1 if X.shape[0] < _PARALLEL_ROWS else -1,
                                    lambda: self.missing_go_to_left, self._walk_cache())

    def compute_feature_importances(self, normalize=True):
        """Total weighted impurity decrease brought by each feature (MDI)."""
        out = np.zeros(self.n_features)
        inner = np.flatnonzero(self.children_left >= 0)
        if inner.size:
            le = self.children_left[inner]
            ri = self.children_right[inner]
            w = self.weighted_n_node_samples
            imp = self.impurity
            dec = w[inner] * imp[inner] - w[le] * imp[le] - w[ri] * imp[ri]
            np.add.at(out, self.feature[inner], dec)
        out /= self.weighted_n_node_samples[0]
        if normalize:
            total = out.sum()
            if total > 0.0:
                out /= total
        return out

    def compute_node_depths(self):
        """Depth of every node (root 0)."""
        return _prk.node_depths(np.ascontiguousarray(self.children_left),
                                np.ascontiguousarray(self.children_right))

    def pruning_path(self):
        """Effective alphas and total leaf impurities of the weakest-link sequence."""
        alphas, imps, steps, _, _ = _prk.prune(np.ascontiguousarray(self.children_left),
                                               np.ascontiguousarray(self.children_right),
                                               self.impurity, self.weighted_n_node_samples,
                                               np.inf)
        return alphas[:steps].copy(), imps[:steps].copy()

    def pruned(self, ccp_alpha):
        """A new Tree pruned at ``ccp_alpha`` (nodes renumbered in pre-order)."""
        left = np.ascontiguousarray(self.children_left)
        right = np.ascontiguousarray(self.children_right)
        _, _, _, keep, leafed = _prk.prune(left, right, self.impurity,
                                           self.weighted_n_node_samples, float(ccp_alpha))
        if keep.all() and not leafed.any():
            return self
        order, depth = _prk.kept_preorder(left, right, leafed)
        new_id = np.full(self.node_count, -1, dtype=np.intp)
        new_id[order] = np.arange(order.size)
        internal = (self.children_left[order] >= 0) & ~leafed[order]
        inodes = np.empty((order.size, 5), dtype=np.intp)
        inodes[:, 0] = np.where(internal, new_id[self.children_left[order]], -1)
        inodes[:, 1] = np.where(internal, new_id[self.children_right[order]], -1)
        inodes[:, 2] = np.where(internal, self.feature[order], -2)
        inodes[:, 3] = self.n_node_samples[order]
        inodes[:, 4] = np.where(internal, self.missing_go_to_left[order], 0)
        fnodes = np.empty((order.size, 3))
        fnodes[:, 0] = np.where(internal, self.threshold[order], -2.0)
        fnodes[:, 1] = self.impurity[order]
        fnodes[:, 2] = self.weighted_n_node_samples[order]
        value = self.value[order].reshape(order.size, -1)
        return Tree(inodes, fnodes, value, self.n_features, self.n_classes, depth, False)


NODE_RECORD = np.dtype([("left", np.intp), ("right", np.intp), ("feature", np.intp),
                        ("threshold", np.float64)])


def pack_nodes(left, right, feature, threshold, packed=None):
    """One (left, right, feature, threshold) record per node for fast walks (into
    ``packed`` when given)."""
    if packed is None:
        packed = np.empty(left.shape[0], dtype=NODE_RECORD)
    packed["left"] = left
    packed["right"] = right
    packed["feature"] = feature
    packed["threshold"] = threshold
    return packed


class NodeArena:
    """Shared node records and values for the trees of one forest, handed out as the
    trees are grown, so that :func:`stack_trees` finds them stacked already.

    Copying every tree into fresh shared arrays after the fit doubled the memory the
    fit writes (a forest of 100 trees of 100,000 nodes: 400 MB more, whose first
    touch costs the kernel's page faults). The arena's first block is sized from the
    first tree placed (its size times the trees still to come, with a margin); a
    tree that does not fit opens another block, and :func:`stack_trees` then copies
    as before. Trees are placed in the order they finish (threads), each at its own
    offset: the walks find a tree by its root offset, so results do not depend on
    the placement. Thread-safe.

    Parameters
    ----------
    n_trees : int
        Trees to be placed.
    width : int
        Values per node (outputs times the largest class count).
    """

    _MARGIN = 1.1  # room for trees larger than the estimate
    _SPARE = 1024  # nodes

    def __init__(self, n_trees, width):
        self._lock = threading.Lock()
        self._n_left = int(n_trees)
        self._width = int(width)
        self._placed = 0
        self._nodes = 0
        self._block = None  # (records, values) of the current block
        self._used = 0

    def slots(self, n_nodes):
        """A tree's ``(records, values)``: views of the current block (values of
        shape (n_nodes, width))."""
        with self._lock:
            self._n_left -= 1
            self._placed += 1
            self._nodes += n_nodes
            if self._block is None or self._used + n_nodes > self._block[0].shape[0]:
                mean = self._nodes / self._placed
                capacity = int(mean * self._n_left * self._MARGIN) + n_nodes + self._SPARE
                self._block = (np.empty(capacity, dtype=NODE_RECORD),
                               np.empty((capacity, self._width)))
                self._used = 0
            start = self._used
            self._used += n_nodes
            records, values = self._block
        return records[start:start + n_nodes], values[start:start + n_nodes]


def _shared_stack(trees):
    """(packed, value, roots) when every tree's records and values are views of the
    same two arrays at matching offsets (trees placed by a :class:`NodeArena`, or
    stacked before), else None."""
    records, values = trees[0].packed.base, trees[0].value.base
    if not (isinstance(records, np.ndarray) and isinstance(values, np.ndarray)):
        return None  # own arrays, or unpickled ones (whose base is their bytes)
    if (records.dtype != NODE_RECORD or records.ndim != 1 or values.ndim != 2
            or not values.flags.c_contiguous):
        return None
    roots = np.empty(len(trees), dtype=np.intp)
    end = 0
    for k, t in enumerate(trees):
        if t.packed.base is not records or t.value.base is not values:
            return None
        start, rest = divmod(t.packed.ctypes.data - records.ctypes.data,
                             NODE_RECORD.itemsize)
        value_start, value_rest = divmod(t.value.ctypes.data - values.ctypes.data,
                                         values.strides[0])
        if rest or value_rest or start != value_start or t.value.size != (
                t.node_count * values.shape[1]):
            return None
        roots[k] = start
        end = max(end, start + t.node_count)
    return records[:end], values[:end], roots


def stack_trees(trees):
    """Put the trees' node records and values into two shared arrays.

    Each tree's ``packed`` and ``value`` become views of the shared arrays (so a
    forest holds its nodes once). Child indices stay local to their tree; the
    kernels add the tree's root offset. Trees already sharing two arrays (placed
    by a :class:`NodeArena`) are not copied: their offsets are the roots.

    Returns (packed, value, roots).
    """
    shared = _shared_stack(trees) if trees else None
    if shared is not None:
        return shared
    sizes = np.array([t.node_count for t in trees], dtype=np.intp)
    roots = np.zeros(len(trees), dtype=np.intp)
    roots[1:] = np.cumsum(sizes)[:-1]
    packed = np.concatenate([t.packed for t in trees])
    value = np.concatenate([t.value.reshape(t.node_count, -1) for t in trees])
    for t, r, m in zip(trees, roots, sizes, strict=True):
        t.packed = packed[r : r + m]
        t.value = value[r : r + m].reshape(t.value.shape)
    return packed, value, roots


def float32_rows(X, n_jobs, allow_nan=False):
    """Float64 C-contiguous ``X`` cast to float32 in threads, or None if it is not finite
    (NaN accepted with ``allow_nan``).

    One pass instead of numpy's cast then finiteness check; None sends the
    caller to the standard validation, which raises the usual error.
    """
    out = np.empty(X.shape, dtype=np.float32)
    counts = []
    walk_rows(lambda lo, hi: counts.append(_pk.cast_rows_float32(X, out, lo, hi,
                                                                 bool(allow_nan))),
              X.shape[0], n_jobs)
    return None if sum(counts) else out


def predict_input(estimator, X, n_jobs=-1):
    """``X`` validated for prediction: float32, C-contiguous, finite (NaN allowed when
    the estimator's tags allow it).

    The same checks and errors as ``validate_data(estimator, X, reset=False,
    dtype=np.float32)``; a large float64 array is cast and checked in one
    threaded pass (:func:`float32_rows`) instead of a cast and a check.
    """
    if sp.issparse(X):
        return _sparse_predict_input(estimator, X)
    finite = "allow-nan" if get_tags(estimator).allow_nan else True
    if (isinstance(X, np.ndarray) and X.dtype == np.float64 and X.ndim == 2
            and X.flags.c_contiguous and X.size >= _FAST_CAST):
        checked = validate_data(estimator, X, reset=False, ensure_all_finite=False)
        if checked.dtype == np.float64 and checked.flags.c_contiguous:
            out = float32_rows(checked, n_jobs if X.size >= _THREADED_CAST else 1,
                               finite == "allow-nan")
            if out is not None:
                return out
    X = validate_data(estimator, X, reset=False, dtype=np.float32, ensure_all_finite=finite)
    return np.ascontiguousarray(X, dtype=np.float32)


def _sparse_predict_input(estimator, X):
    """Sparse X for prediction: CSR, float32 values, finite. Its entries may be in
    any order within a row and repeated: the walks scatter each row, summing
    duplicates (no sorted copy of X)."""
    return validate_data(estimator, X, reset=False, dtype=np.float32, accept_sparse="csr")


def _csr_parts(X):
    """(indptr, indices, data, n_features) of CSR X as the sparse walks take them."""
    return (X.indptr.astype(np.intp, copy=False), X.indices.astype(np.intp, copy=False),
            np.ascontiguousarray(X.data, dtype=np.float32), X.shape[1])


def _forest_walk_rows(roots):
    """Fewest rows per thread of a sparse walk through ``roots.shape[0]`` trees: a
    row's walk costs about as many steps as the trees are deep, times the trees."""
    return max(64, 2048 // roots.shape[0])


def _forest_chunk_rows(n_rows, roots, n_jobs):
    """Least rows per chunk of a forest's summed walk: ``_FOREST_CHUNK``, or fewer when
    that would leave a thread idle (each thread then takes an equal share, down to the
    rows worth a thread's start, :func:`_forest_walk_rows`)."""
    share = -(-n_rows // max(1, effective_n_jobs(n_jobs)))
    return max(_forest_walk_rows(roots), min(_FOREST_CHUNK, share))


def walk_rows(kernel, n_rows, n_jobs, min_rows=2048):
    """Run ``kernel(lo, hi)`` over row chunks in ``n_jobs`` threads (kernels release the GIL).

    About four chunks per thread (at least ``min_rows`` rows each), handed out
    as threads free up, so a thread slowed by other load does not hold the rest.
    The threads are the library's kept pool (the walks are leaf work: they start no
    threads of their own).
    """
    n_threads = effective_n_jobs(n_jobs)
    pooled_map(lambda b: kernel(*b), row_chunks(n_rows, n_threads, min_rows), n_threads)


COMPACT_RECORD = np.dtype([("threshold", np.float64), ("feature", np.int32),
                           ("left", np.int32)])


def compact_forest(packed, roots, miss=None, shift=0):
    """Compact walk records and their map back to ``packed`` (see ``_predict_kernels``;
    ``miss`` and ``shift`` > 0 for rows with NaN walked doubled, :func:`missing_rows`).

    Built for each prediction call and then dropped (a small part of a walk's time),
    so the fitted model keeps a single copy of its nodes.
    """
    if packed.shape[0] >= 2**31:
        raise ValueError("Too many nodes in the trees for prediction (2**31 or more).")
    nodes = np.empty(packed.shape[0], dtype=COMPACT_RECORD)
    orig = np.empty(packed.shape[0], dtype=np.intp)
    _pk.compact_nodes(packed, roots, nodes, orig, _NO_MISSING if miss is None else miss,
                      int(shift))
    return nodes, orig


# ``missing_go_to_left`` stand-in for rows without NaN (the walks never read it then)
_NO_MISSING = np.zeros(1, dtype=np.uint8)


class WalkCache(dict):
    """What a fitted tree or forest keeps between prediction calls: its 8-byte walk
    records (built by the first call that walks them; 8 bytes per node), the count
    of rows walked without them (:func:`_walks_plain`) and the nodes' parents and
    depths (decision paths). Its trees do not change after fit;
    the entries are keyed by the node array they were built from. Pickled empty:
    the first calls after loading build them again."""

    def __reduce__(self):
        return (type(self), ())

    def get_or_build(self, name, key, build):
        """The entry ``name`` if it was built for ``key``, else ``build()`` kept as it."""
        kept = self.get(name)
        if kept is None or kept[0] != key:
            kept = self[name] = (key, build())
        return kept[1]


def kept_walk_cache(owner, attribute):
    """``owner``'s :class:`WalkCache` in ``attribute``; a model unpickled from before
    the cache existed gets one on first use."""
    cache = owner.__dict__.get(attribute)
    if cache is None:
        cache = WalkCache()
        setattr(owner, attribute, cache)
    return cache


def node_array_key(packed, *extra):
    """Identity of a node array (its memory and length) for :class:`WalkCache` entries."""
    return (packed.__array_interface__["data"][0], packed.shape[0], *extra)


def missing_rows(X, n_jobs):
    """``([X with NaN -> -inf | X with NaN -> +inf], p)``: the doubled rows that the
    compact walks read for X holding NaN (see ``_predict_kernels``)."""
    out = np.empty((X.shape[0], 2 * X.shape[1]), dtype=np.float32)
    walk_rows(lambda lo, hi: _pk.split_missing_rows(X, out, lo, hi), X.shape[0], n_jobs)
    return out, X.shape[1]


def has_nan(X):
    """Whether float32 ``X`` holds a NaN (``min`` propagates NaN: one fast pass)."""
    return X.size > 0 and bool(np.isnan(X.min()))


def forest_missing(trees, roots, n_nodes):
    """The trees' ``missing_go_to_left`` at their places in :func:`stack_trees`' arrays
    (``n_nodes`` long; each tree's from its root offset)."""
    out = np.zeros(n_nodes, dtype=np.uint8)
    for t, r in zip(trees, roots, strict=True):
        out[r:r + t.node_count] = t.missing_go_to_left
    return out


def apply_forest(X, packed, roots, n_jobs, miss, cache=None):
    """Global leaf index of every row in every tree: array (n_samples, n_trees).

    ``miss``: a callable returning the nodes' ``missing_go_to_left`` (as ``packed``),
    called only when X holds NaN: X is then walked doubled (:func:`missing_rows`).
    ``cache``: the model's :class:`WalkCache`, or None to keep nothing.
    """
    out = np.empty((X.shape[0], roots.shape[0]), dtype=np.intp)
    if sp.issparse(X):
        parts = _csr_parts(X)
        walk_rows(lambda lo, hi: _pk.csr_apply(*parts, packed, roots, lo, hi, out),
                  X.shape[0], n_jobs, _forest_walk_rows(roots))
        return out
    nan = has_nan(X)
    m = miss() if nan else _NO_MISSING
    # a single tree on rows with NaN: the plain walk's NaN test per node costs less
    # than doubling the rows for the compact walk
    if (nan and roots.shape[0] == 1) or _walks_plain(X, packed, roots, nan, cache):
        walk_rows(lambda lo, hi: _pk.plain_apply(X, packed, m, roots, lo, hi, out),
                  X.shape[0], n_jobs)
        return out
    X, shift = missing_rows(X, n_jobs) if nan else (X, 0)
    narrow = _narrow_records(packed, roots, X.shape[1], n_jobs, m, shift, cache)
    if narrow is None:
        nodes, orig = compact_forest(packed, roots, m, shift)
        walk_rows(lambda lo, hi: _pk.apply_trees(X, nodes, orig, roots, lo, hi, out),
                  X.shape[0], n_jobs)
    else:
        nodes, bits, fb = narrow
        walk_rows(lambda lo, hi: _pk.apply_trees_narrow(X, nodes, bits, fb, roots, lo, hi, out),
                  X.shape[0], n_jobs)
    return out


def forest_decision_path(X, packed, roots, columns, n_columns, n_jobs, miss, cache):
    """Sparse CSR indicator (n_samples, n_columns) of the nodes each row of X (as
    :func:`apply_forest` takes it) visits in every tree; tree k's nodes are columns
    ``columns[k]:``; ``cache``: the model's :class:`WalkCache`.

    The leaves come from the fast walks, the paths from climbing up from them by the
    nodes' parents (``_predict_kernels.fill_paths``), so each row's length is known
    first and the rows are written in place, in threads. Indices are int32 when they
    fit, as scipy would make them (it checks and copies wider ones)."""
    leaves = apply_forest(X, packed, roots, n_jobs, miss, cache)
    parent, depth = cache.get_or_build("parents", node_array_key(packed),
                                       lambda: _pk.parents_depths(packed, roots))
    n = leaves.shape[0]
    indptr = _pk.path_offsets(leaves, depth)
    narrow = max(int(indptr[n]), n_columns) < 2**31
    if narrow:
        indptr = indptr.astype(np.int32)
    indices = np.empty(indptr[n], dtype=np.int32 if narrow else np.intp)
    walk_rows(lambda lo, hi: _pk.fill_paths(leaves, parent, depth, roots, columns, indptr,
                                            lo, hi, indices), n, n_jobs)
    data = np.ones(indices.shape[0], dtype=np.intp)
    return sp.csr_matrix((data, indices, indptr), shape=(n, n_columns))


NARROW_RECORD = np.dtype([("thr", np.float32), ("w", np.uint32)])


def _walks_plain(X, packed, roots, nan, cache):
    """Whether to walk ``packed`` itself rather than build walk records first: for
    few rows per node, unless the model keeps records already (rows without NaN).

    With a cache, the rows of earlier calls walked plain count too: once they add
    up to what pays for the records, these are built and kept, so a model asked
    for a few rows at a time pays at most about twice the cheaper of the two."""
    walks = X.shape[0] * roots.shape[0]
    steps = _PLAIN_STEPS_TREE if roots.shape[0] == 1 else _PLAIN_STEPS
    if nan or cache is None:
        return walks * steps < packed.shape[0]
    key = node_array_key(packed, X.shape[1])
    if cache.get("narrow", (None,))[0] == key:
        return False
    before = cache.get("plain_walks")
    walks += before[1] if before is not None and before[0] == key else 0
    if walks * steps < packed.shape[0]:
        cache["plain_walks"] = (key, walks)
        return True
    return False


def _narrow_records(packed, roots, n_features, n_jobs, miss, shift, cache):
    """:func:`narrow_forest`'s records, kept in ``cache`` for rows without NaN."""
    n_threads = effective_n_jobs(n_jobs)
    if shift or cache is None:
        return narrow_forest(packed, roots, n_features, n_threads, miss, shift)
    return cache.get_or_build(
        "narrow", node_array_key(packed, n_features),
        lambda: narrow_forest(packed, roots, n_features, n_threads))


def narrow_forest(packed, roots, n_features, n_threads, miss=None, shift=0):
    """8-byte walk records, their uint32 view and the feature bit count (see
    ``_predict_kernels.narrow_nodes``), or None when a tree's local node indices
    and the features do not fit in 32 bits together or a tree has more than
    ``2**22`` nodes.

    Built for each prediction call (trees split over ``n_threads`` threads) and
    then dropped, so the fitted model keeps a single copy of its nodes.
    """
    n = packed.shape[0]
    fb = max(0, int(n_features) - 1).bit_length()
    sizes = np.diff(np.append(roots, n))
    lb = max(0, int(sizes.max()) - 1).bit_length() if sizes.size else 0
    if fb + lb > 32 or lb > 22:
        return None
    nodes = np.empty(n, dtype=NARROW_RECORD)
    bits = nodes.view(np.uint32)
    t = roots.shape[0]
    n_parts = min(t, 4 * n_threads) if n >= 100_000 else 1
    parts = [(t * p // n_parts, t * (p + 1) // n_parts) for p in range(n_parts)]
    m = _NO_MISSING if miss is None else miss
    pooled_map(lambda b: _pk.narrow_nodes(packed, roots, b[0], b[1], fb, nodes, bits, m,
                                          int(shift)), parts,
               n_threads)
    return nodes, bits, fb


def mean_forest_value(X, packed, value, roots, hard, n_classes, n_jobs, miss, cache=None):
    """Mean over trees of each row's leaf value (or one-hot votes): array (n_samples, V).

    ``miss``: a callable returning the nodes' ``missing_go_to_left`` (as ``packed``),
    called only when X holds NaN; ``cache``: as in :func:`apply_forest`.
    """
    out = np.zeros((X.shape[0], value.shape[1]))
    if sp.issparse(X):
        parts = _csr_parts(X)
        walk_rows(lambda lo, hi: _pk.csr_sum_value(*parts, packed, roots, value, hard,
                                                   n_classes, lo, hi, out),
                  X.shape[0], n_jobs, _forest_walk_rows(roots))
        out /= roots.shape[0]
        return out
    nan = has_nan(X)
    m = miss() if nan else _NO_MISSING
    if _walks_plain(X, packed, roots, nan, cache):
        walk_rows(lambda lo, hi: _pk.plain_sum_value(X, packed, m, roots, value, hard,
                                                     n_classes, lo, hi, out),
                  X.shape[0], n_jobs)
        out /= roots.shape[0]
        return out
    X, shift = missing_rows(X, n_jobs) if nan else (X, 0)
    narrow = _narrow_records(packed, roots, X.shape[1], n_jobs, m, shift, cache)
    if narrow is None:
        nodes, orig = compact_forest(packed, roots, m, shift)
        walk_rows(lambda lo, hi: _pk.sum_value(X, nodes, orig, roots, value, hard, n_classes,
                                               lo, hi, out),
                  X.shape[0], n_jobs)
    else:
        nodes, bits, fb = narrow
        walk_rows(lambda lo, hi: _pk.sum_value_narrow(X, nodes, bits, fb, roots, value, hard,
                                                      n_classes, lo, hi, out),
                  X.shape[0], n_jobs, _forest_chunk_rows(X.shape[0], roots, n_jobs))
    out /= roots.shape[0]
    return out
