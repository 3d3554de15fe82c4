"""Growing a CART tree (seed 000 §11.1) into flat arrays with numba.

One builder serves classification and regression, depth-first and best-first
growth, dense, sparse and binned X, and the ``best`` (exact, sorted feature values:
``_best_split_kernels``), ``random`` (extremely randomized, §11.3: one uniform
threshold per candidate feature: ``_random_split_kernels``) and histogram
(``_hist_kernels``) splitters. It releases the GIL, so forests grow trees in Python
threads.

Entry point: :func:`build_tree`, whose arguments are named tuples (defined in
``_split_kernels`` and here):

- ``data`` (:data:`Data`): ``y`` float64 (n_samples, n_outputs) class indices
  (classification) or targets, ``w`` float64 sample weights, ``samples`` the rows to
  use (positive weight only), ``n_classes`` intp per output, ``nan_mask`` uint8 per
  feature (whether it has missing values in the rows used);
- ``settings`` (:data:`Settings`): the estimator's growth parameters;
- X, one of ``dense`` (:data:`Dense`: ``Xt`` the float32 *transposed* data
  (n_features, n_samples), C-contiguous, so gathering one feature is a contiguous
  read, and ``Xr`` the same data row-major: the samples of a small node are
  scattered, and there the row-major layout gathers all features of a node from a
  few cache lines) and ``csc`` (:data:`Csc`: sparse X, CSC with indices sorted
  within each column and float32 values, scikit-learn's sparse splitter; no missing
  values, no histograms), the other None;
- ``bins`` (:data:`Bins`): binned X for the histogram splitter (``_hist_kernels``),
  or None;
- ``abs_work`` (:data:`AbsWork`): the absolute-error criterion's scratch, or None;
- ``sort`` (:data:`SortWork`) for the best splitter or ``rnd`` (:data:`RandomWork`)
  for the random one, the other None.

The None arguments are known when numba compiles: a tree compiles the node loop with
its own kind of X and its own splitter only (the first fit of a default tree does not
compile the random, sparse, histogram nor absolute-error code).

Output node arrays: ``inodes`` (node_count, 5) intp = left child, right child,
feature, n_node_samples, missing values go left (children -1 and feature -2 at
leaves); ``fnodes`` (node_count, 3) float64 = threshold, impurity, weighted samples;
``value`` (node_count, n_outputs * K) = weighted class counts or means / medians.
"""

from collections import namedtuple

import numpy as np

from .._kernels.jit import njit
from . import _criteria_kernels as _c
from . import _hist_kernels as _hk
from ._best_split_kernels import split_best, split_best_csc
from ._hist_kernels import Bins
from ._random_split_kernels import split_random, split_random_csc
from ._split_kernels import (
    DRAW_SLOTS,
    FEW_LANES,
    KEY_CLASS_BITS_MAX,
    RADIX_MIN,
    SPLIT_BEST,
    SPLIT_RANDOM,
    AbsWork,
    ByRows,
    Csc,
    Data,
    Dense,
    Node,
    Presorted,
    RandomWork,
    Rule,
    SortWork,
    Split,
    Work,
    no_split,
    partition_rows,
    value_sorted_columns,
)

__all__ = ["FEW_LANES", "KEY_CLASS_BITS_MAX", "RADIX_MIN", "SPLIT_BEST", "SPLIT_RANDOM", "AbsWork", "Bins",
           "ByRows", "Csc", "Data", "Coded", "Dense", "Presorted", "RandomWork", "Settings", "SortWork", "build_tree",
           "value_sorted_columns"]

EPSILON = np.finfo(np.float64).eps
# numba freezes globals such as _hk.HYBRID_MIN into the compiled builder: the kernel
# cache directory changes with the text of any kernel module (``_kernels/jit.py``), so
# cached builders are recompiled when such a value changes (currently HYBRID_MIN = 128)

# the estimator's growth parameters (``max_depth`` a large int for None, ``max_features``
# an int, ``min_weight_leaf`` an absolute weight, ``max_leaf_nodes`` -1 for None, ``seed``
# uint64 driving the feature draws and random thresholds, ``mono`` intp per feature or
# empty: monotonicity constraints -1 / 0 / 1, ``wn_total`` the weight that improvements
# are fractions of: 0.0 for the samples' own, the whole tree's for a subtree grown apart)
Settings = namedtuple("Settings", ["crit", "splitter", "max_features", "max_depth",
                                   "min_samples_leaf", "min_samples_split", "min_weight_leaf",
                                   "min_impurity_decrease", "max_leaf_nodes", "seed", "mono",
                                   "wn_total"])


# X's bins for the random splitter of a histogram tree: ``dense`` a :data:`Dense` of each
# value's bin as float32 (NaN kept), ``edges`` the bins' upper edges (float64 (n_features,
# >= max_bins), as ``_binning.fit_bins`` gives them)
Coded = namedtuple("Coded", ["dense", "edges"])

# the tree's node arrays while it grows (``inodes``, ``fnodes``, ``value``, rows doubled
# when full) and as returned, with the samples in their final order (each node's at
# consecutive positions, a left child's before its sibling's)
GrownTree = namedtuple("GrownTree", ["inodes", "fnodes", "value", "max_depth", "samples"])
# columns of ``inodes`` (intp) and ``fnodes`` (float64)
NODE_LEFT = 0
NODE_RIGHT = 1
NODE_FEATURE = 2
NODE_N_SAMPLES = 3
NODE_MISSING_LEFT = 4
NODE_INT_FIELDS = 5
NODE_THRESHOLD = 0
NODE_IMPURITY = 1
NODE_WEIGHT = 2
NODE_FLOAT_FIELDS = 3
# a leaf's children, feature and threshold (scikit-learn's markers)
NO_CHILD = -1
LEAF_FEATURE = -2
LEAF_THRESHOLD = -2.0
# an impurity or statistics not known yet (computed when the node is evaluated)
UNKNOWN = -1.0
FIRST_ROWS = 64
# the most node rows allocated before growing (the arrays double beyond)
NODE_ROWS_UPFRONT = 1 << 22

# the stack of nodes waiting for evaluation, popped last first: arrays ``st_ints`` /
# ``st_floats`` in the columns below, ``st_stats`` the node's statistics and weight
# (column S) when its parent's split gave them exactly (classification with integer
# weights), column 0 UNKNOWN otherwise
ST_START = 0
ST_END = 1
ST_DEPTH = 2
ST_PARENT = 3
ST_IS_LEFT = 4
ST_N_CONST = 5
ST_HIST = 6  # the node's histogram in the pool, -1: none
ST_INT_FIELDS = 7
ST_IMPURITY = 0
ST_LOWER = 1  # bounds of the node's value (monotonicity constraints)
ST_UPPER = 2
ST_FLOAT_FIELDS = 3

# best-first growth: evaluated nodes waiting for expansion, a max-heap on improvement
Frontier = namedtuple("Frontier", ["ints", "floats"])
FR_NODE = 0
FR_START = 1
FR_END = 2
FR_POS = 3
FR_DEPTH = 4
FR_N_CONST = 5
FR_LEFT_HIST = 6
FR_RIGHT_HIST = 7
FR_INT_FIELDS = 8
FR_IMPROVEMENT = 0
FR_IMPURITY_LEFT = 1
FR_IMPURITY_RIGHT = 2
FR_IS_LEAF = 3
FR_LOWER = 4
FR_UPPER = 5
FR_MIDDLE = 6
FR_FLOAT_FIELDS = 7


# Explicit loops instead of slice assignments and row copies: each distinct slice
# assignment makes numba compile a generic helper, which costs seconds of compile
# time per kernel for no run-time gain.
@njit(cache=True, nogil=True, _nrt=False)
def copy_rows(dst, src, n):
    """``dst[:n] = src[:n]`` for 2-D arrays."""
    for i in range(n):
        for j in range(src.shape[1]):
            dst[i, j] = src[i, j]


@njit(cache=True, nogil=True, _nrt=False)
def graft_rows(inodes, fnodes, value, at, src_i, src_f, src_v, offset):
    """Copy a grown subtree's node rows into the whole tree's arrays from row ``at``, its
    child links moved by ``offset`` (where its root lands)."""
    for i in range(src_i.shape[0]):
        for j in range(src_i.shape[1]):
            inodes[at + i, j] = src_i[i, j]
        for side in (NODE_LEFT, NODE_RIGHT):
            if src_i[i, side] >= 0:
                inodes[at + i, side] += offset
        for j in range(src_f.shape[1]):
            fnodes[at + i, j] = src_f[i, j]
        for j in range(src_v.shape[1]):
            value[at + i, j] = src_v[i, j]


@njit(cache=True, nogil=True, _nrt=False)
def swap_rows(a, i, k):
    """Exchange rows ``i`` and ``k`` of a 2-D array."""
    for j in range(a.shape[1]):
        t = a[i, j]
        a[i, j] = a[k, j]
        a[k, j] = t


@njit(cache=True, nogil=True)
def _node_rows(n, settings):
    """First capacity of the node arrays: the most nodes the tree can have (2 * leaves
    - 1; leaves at most n / min_samples_leaf, max_leaf_nodes, 2**max_depth), up to
    ``NODE_ROWS_UPFRONT`` (beyond it they double as they fill). Pages never written
    cost nothing, and no node is copied on the way."""
    leaves = max(1, n // max(1, settings.min_samples_leaf))
    if settings.max_leaf_nodes > 0:
        leaves = min(leaves, settings.max_leaf_nodes)
    if settings.max_depth < 62:
        leaves = min(leaves, np.intp(1) << settings.max_depth)
    return max(FIRST_ROWS, min(2 * leaves - 1, NODE_ROWS_UPFRONT))


@njit(cache=True, nogil=True)
def _doubled(a, n):
    """A 2-D array of twice the rows of ``a``, its first ``n`` rows copied."""
    bigger = np.empty((2 * a.shape[0], a.shape[1]), dtype=a.dtype)
    copy_rows(bigger, a, n)
    return bigger


@njit(cache=True, nogil=True, inline="always")
def _weight_total(w, samples):
    """(total weight of ``samples``, whether every weight is an integer and the total
    below 2**50, so that integer sums of them are exact)."""
    wn_total = 0.0
    int_w = True
    for i in range(samples.shape[0]):
        ws = w[samples[i]]
        wn_total += ws
        if ws != np.floor(ws):
            int_w = False
    return wn_total, int_w and wn_total < 2.0 ** 50


@njit(cache=True, nogil=True, inline="always")
def _rule(data, settings, wn_total):
    """The :data:`Rule` of the splitters."""
    n_outputs = data.y.shape[1]
    K = data.n_classes[0]
    for o in range(n_outputs):
        K = max(K, data.n_classes[o])
    S = n_outputs * K if _c.is_classification(settings.crit) else 2 * n_outputs
    mono = settings.mono
    # a flag computed (not a literal False later set True): numba would otherwise
    # compile the splitters a second time for the literal
    n_mono = 0
    for f in range(mono.shape[0]):
        if mono[f] != 0:
            n_mono += 1
    return Rule(settings.crit, settings.splitter, n_outputs, K, S, data.n_classes,
                settings.max_features, settings.min_samples_leaf, settings.min_weight_leaf,
                mono, n_mono > 0, wn_total)


@njit(cache=True, nogil=True, inline="always")
def _work(samples, rule, seed, n_features):
    """The splitters' :data:`Work` buffers."""
    rng = np.empty(1, dtype=np.uint64)
    rng[0] = seed
    return Work(samples, np.arange(n_features), np.arange(n_features), rng,
                np.empty(DRAW_SLOTS, dtype=np.intp),
                np.empty(samples.shape[0], dtype=np.float32), np.empty(rule.S),
                np.empty(rule.S))


@njit(cache=True, nogil=True, _nrt=False)
def _known_stats(st_stats, top, S, stats):
    """``stats`` = the statistics of the node at ``stack[top]`` given by its parent's
    split; returns its weight."""
    for k in range(S):
        stats[k] = st_stats[top, k]
    return st_stats[top, S]


@njit(cache=True, nogil=True, _nrt=False)
def _node_impurity(y, w, samples, a, b, stats, wn, rule, abs_work):
    """The impurity of ``samples[a:b]`` (statistics ``stats``, weight ``wn``): needed for
    the root only, the children's come from their parent's split."""
    if abs_work is not None:
        return _c.abs_impurity(y, w, samples, a, b, rule.n_outputs, abs_work.yv, abs_work.wv)
    if rule.crit == _c.POISSON:
        return _c.poisson_loss(y, w, samples, a, b, rule.n_outputs, stats, wn)
    return _c.stats_impurity(stats, wn, rule.crit, rule.n_outputs, rule.K, rule.n_classes)


@njit(cache=True, nogil=True, error_model="numpy", _nrt=False)
def _set_value(value, i, stats, wn, lower, upper, is_clf, n_outputs, K, use_mono, y, w,
               samples, a, b, abs_work):
    """``value[i]`` = the node's value: weighted class counts, means or (absolute error)
    medians; under monotonicity constraints clipped to the node's bounds ``[lower,
    upper]`` (binary classification: the first class's fraction).

    ``error_model="numpy"``: no division-by-zero checks (``wn`` is positive)."""
    if is_clf:
        for k in range(n_outputs * K):
            value[i, k] = stats[k]
    elif abs_work is not None:
        _c.abs_medians(y, w, samples, a, b, n_outputs, abs_work.yv, abs_work.wv, value[i])
    else:
        for o in range(n_outputs):
            value[i, o] = stats[o] / wn
    if use_mono:
        v0 = value[i, 0] / wn if is_clf else value[i, 0]
        if v0 < lower or v0 > upper:
            v0 = lower if v0 < lower else upper
            if is_clf:
                value[i, 0] = v0 * wn
                value[i, 1] = (1.0 - v0) * wn
            else:
                value[i, 0] = v0


@njit(cache=True, nogil=True, inline="always")
def _coded_split(split, edges):
    """A split drawn between bins (X's bins as values, :data:`Coded`) with its threshold
    turned into the raw values' edge: "bin <= t" is "x <= edges[f, floor(t)]"; +inf
    (missing values alone on the right) stays."""
    if split.feature < 0 or not np.isfinite(split.threshold):
        return split
    thr = edges[split.feature, np.intp(np.floor(split.threshold))]
    return Split(split.pos, split.feature, thr, split.improvement, split.impurity_left,
                 split.impurity_right, split.n_const, split.missing_left, split.middle)


@njit(cache=True, nogil=True, _nrt=False)
def _partition_bins(bins, f, bn, samples, a, b, nan_left):
    """Partition ``samples[a:b]`` on ``bin <= bn`` of feature ``f``; returns the split
    position."""
    nan_code = np.float32(bins.n_bins[f])
    return partition_rows(bins.Xb, f, bn, samples, a, b, samples, False, nan_left, nan_code)


@njit(cache=True, nogil=True, inline="always")
def _record(inodes, fnodes, i, node, split):
    """Node ``i``'s fields (children linked later)."""
    inodes[i, NODE_LEFT] = NO_CHILD
    inodes[i, NODE_RIGHT] = NO_CHILD
    inodes[i, NODE_FEATURE] = split.feature
    inodes[i, NODE_N_SAMPLES] = node.b - node.a
    inodes[i, NODE_MISSING_LEFT] = split.missing_left
    fnodes[i, NODE_THRESHOLD] = split.threshold
    fnodes[i, NODE_IMPURITY] = node.imp
    fnodes[i, NODE_WEIGHT] = node.wn


@njit(cache=True, nogil=True, inline="always")
def _make_leaf(inodes, fnodes, i):
    """Turn node ``i``, evaluated as split, into a leaf (best-first growth)."""
    inodes[i, NODE_LEFT] = NO_CHILD
    inodes[i, NODE_RIGHT] = NO_CHILD
    inodes[i, NODE_FEATURE] = LEAF_FEATURE
    inodes[i, NODE_MISSING_LEFT] = 0
    fnodes[i, NODE_THRESHOLD] = LEAF_THRESHOLD


@njit(cache=True, nogil=True, inline="always")
def _push_node(st_ints, st_floats, st_stats, t, a, b, depth, parent, is_left, n_const, hist,
               imp, lower, upper):
    """Put a node waiting for evaluation at row ``t`` of the stack's arrays (statistics
    unknown)."""
    st_ints[t, ST_START] = a
    st_ints[t, ST_END] = b
    st_ints[t, ST_DEPTH] = depth
    st_ints[t, ST_PARENT] = parent
    st_ints[t, ST_IS_LEFT] = is_left
    st_ints[t, ST_N_CONST] = n_const
    st_ints[t, ST_HIST] = hist
    st_floats[t, ST_IMPURITY] = imp
    st_floats[t, ST_LOWER] = lower
    st_floats[t, ST_UPPER] = upper
    st_stats[t, 0] = UNKNOWN


@njit(cache=True, nogil=True, inline="always")
def _child_bounds(cst, lower, upper, middle):
    """(left lower, left upper, right lower, right upper) value bounds of the children of
    a split on a feature with monotonicity constraint ``cst`` (scikit-learn's rule)."""
    if cst > 0:
        return lower, middle, middle, upper
    if cst < 0:
        return middle, upper, lower, middle
    return lower, upper, lower, upper


@njit(cache=True, nogil=True, _nrt=False)
def _push_children(st_ints, st_floats, st_stats, top, i, node_a, node_b, lower, upper, pos,
                   imp_l, imp_r, middle, cst, depth, n_const, left_h, right_h, reuse_stats,
                   sl, sr, K, S):
    """Put node ``i``'s children (``[node_a, pos)`` and ``[pos, node_b)``) at rows ``top``
    (right) and ``top + 1`` (left, evaluated and numbered first) of the stack's arrays
    (grown by the caller), with the children's statistics when ``reuse_stats`` (exact
    sums: the splitter's ``sl`` / ``sr``)."""
    ll, lu, rl, ru = _child_bounds(cst, lower, upper, middle)
    _push_node(st_ints, st_floats, st_stats, top, pos, node_b, depth + 1, i, np.intp(0),
               n_const, right_h, imp_r, rl, ru)
    _push_node(st_ints, st_floats, st_stats, top + 1, node_a, pos, depth + 1, i, np.intp(1),
               n_const, left_h, imp_l, ll, lu)
    if reuse_stats:
        wl = 0.0
        wr = 0.0
        for k in range(K):
            wl += sl[k]
            wr += sr[k]
        for k in range(S):
            st_stats[top, k] = sr[k]
            st_stats[top + 1, k] = sl[k]
        st_stats[top, S] = wr
        st_stats[top + 1, S] = wl


@njit(cache=True, nogil=True, inline="always")
def _push_frontier(front, n_front, i, node, split, depth, n_const, left_h, right_h):
    """Queue evaluated node ``i`` for best-first expansion (the frontier has room: see
    :func:`_frontier_room`)."""
    is_leaf = split.pos >= node.b
    fi = front.ints
    ff = front.floats
    k = n_front
    fi[k, FR_NODE] = i
    fi[k, FR_START] = node.a
    fi[k, FR_END] = node.b
    fi[k, FR_POS] = split.pos
    fi[k, FR_DEPTH] = depth
    fi[k, FR_N_CONST] = n_const
    fi[k, FR_LEFT_HIST] = left_h
    fi[k, FR_RIGHT_HIST] = right_h
    ff[k, FR_IMPROVEMENT] = split.improvement
    ff[k, FR_IMPURITY_LEFT] = split.impurity_left
    ff[k, FR_IMPURITY_RIGHT] = split.impurity_right
    ff[k, FR_IS_LEAF] = 1.0 if is_leaf else 0.0
    ff[k, FR_LOWER] = node.lower
    ff[k, FR_UPPER] = node.upper
    ff[k, FR_MIDDLE] = split.middle
    while k > 0:
        par = (k - 1) // 2
        if ff[par, FR_IMPROVEMENT] < ff[k, FR_IMPROVEMENT]:
            swap_rows(fi, par, k)
            swap_rows(ff, par, k)
            k = par
        else:
            break


@njit(cache=True, nogil=True, inline="always")
def _frontier_room(front, n_front):
    """The frontier, doubled when it has no room for one more record."""
    if n_front >= front.ints.shape[0]:
        return Frontier(_doubled(front.ints, n_front), _doubled(front.floats, n_front))
    return front


@njit(cache=True, nogil=True, _nrt=False)
def _pop_frontier(front, n_front):
    """Take the frontier's largest improvement out of the heap of ``n_front`` records: it
    moves to row ``n_front - 1``, which is returned."""
    fi = front.ints
    ff = front.floats
    n_front -= 1
    swap_rows(fi, np.intp(0), n_front)
    swap_rows(ff, np.intp(0), n_front)
    k = np.intp(0)
    while True:
        c1 = 2 * k + 1
        if c1 >= n_front:
            break
        if c1 + 1 < n_front and ff[c1 + 1, FR_IMPROVEMENT] > ff[c1, FR_IMPROVEMENT]:
            c1 += 1
        if ff[c1, FR_IMPROVEMENT] > ff[k, FR_IMPROVEMENT]:
            swap_rows(fi, c1, k)
            swap_rows(ff, c1, k)
            k = c1
        else:
            break
    return n_front


@njit(cache=True, nogil=True, inline="always")
def _expand_best(front, n_front, inodes, fnodes, st_ints, st_floats, st_stats, mono, use_mono,
                 budget):
    """Best-first growth: pop frontier nodes until one can be split (the rest become
    leaves) and push its children on the stack (left above right, evaluated and
    numbered first; no constant features passed down, as scikit-learn's best-first
    builder).

    Returns (n_front, nodes on the stack: 0 when growth is over, budget of splits)."""
    while n_front > 0:
        n_front = _pop_frontier(front, n_front)
        fi = front.ints[n_front]
        ff = front.floats[n_front]
        i = fi[FR_NODE]
        if ff[FR_IS_LEAF] > 0.5 or budget <= 0:
            _make_leaf(inodes, fnodes, i)
            continue
        budget -= 1
        cst = mono[inodes[i, NODE_FEATURE]] if use_mono else np.intp(0)
        ll, lu, rl, ru = _child_bounds(cst, ff[FR_LOWER], ff[FR_UPPER], ff[FR_MIDDLE])
        depth = fi[FR_DEPTH] + 1
        _push_node(st_ints, st_floats, st_stats, np.intp(0), fi[FR_POS], fi[FR_END], depth, i,
                   np.intp(0), np.intp(0), fi[FR_RIGHT_HIST], ff[FR_IMPURITY_RIGHT], rl, ru)
        _push_node(st_ints, st_floats, st_stats, np.intp(1), fi[FR_START], fi[FR_POS], depth,
                   i, np.intp(1), np.intp(0), fi[FR_LEFT_HIST], ff[FR_IMPURITY_LEFT], ll, lu)
        return n_front, np.intp(2), budget
    return n_front, np.intp(0), budget


# the node loop's state between its calls (:func:`_grow`), intp, and why it returned:
# the stack is empty, or the tree's, the stack's or the frontier's arrays are full, or
# the histogram pool has no free buffer (the caller grows them and calls again)
GS_TOP = 0
GS_COUNT = 1
GS_DEPTH = 2
GS_FRONT = 3
GS_BUDGET = 4
GS_FREE = 5  # free histogram buffers (their ids in ``free[:n]``)
GS_FIELDS = 6
GROWN = 0
FULL_NODES = 1
FULL_STACK = 2
FULL_FRONT = 3
FULL_HISTS = 4


@njit(cache=True, nogil=True, _nrt=False)
def _grow(data, settings, rule, dense, csc, bins, abs_work, sort, rnd, pre, codes, work, stats,
          reuse_stats, inodes, fnodes, value, st_ints, st_floats, st_stats, front, pool,
          free, state):
    """:func:`build_tree`'s node loop: evaluate the nodes on the stack (depth-first: their
    children pushed; best-first: queued on the frontier) until it is empty or an array
    is full; returns why it stopped (``GROWN`` or ``FULL_*``), the loop's counters kept
    in ``state`` (``GS_*``).

    A node holding a histogram (``ST_HIST``: histogram trees, ``bins``, nodes of at
    least ``HYBRID_MIN`` samples) is split on it (``pool[h]``), and its children's
    histograms taken from the free buffers ``free[:state[GS_FREE]]``; the others are
    split exactly (``dense`` / ``csc``, ``sort`` / ``rnd``).

    Compiled without numba's runtime (``_nrt=False``, see ``refcounts``): no
    reference counting per node. It allocates nothing; the caller grows the arrays."""
    y = data.y
    w = data.w
    samples = work.samples
    sl = work.sl
    sr = work.sr
    max_depth = settings.max_depth
    min_samples_split = settings.min_samples_split
    min_samples_leaf = settings.min_samples_leaf
    min_weight_leaf = settings.min_weight_leaf
    min_impurity_decrease = settings.min_impurity_decrease
    best_first = settings.max_leaf_nodes > 0
    crit = rule.crit
    n_outputs = rule.n_outputs
    K = rule.K
    S = rule.S
    mono = rule.mono
    use_mono = rule.use_mono
    is_clf = _c.is_classification(crit)
    zero = np.intp(0)
    minus1 = np.intp(-1)
    top = state[GS_TOP]
    count = state[GS_COUNT]
    depth_reached = state[GS_DEPTH]
    n_front = state[GS_FRONT]
    budget = state[GS_BUDGET]
    n_free = state[GS_FREE]
    status = GROWN
    while top > 0:
        if count >= inodes.shape[0]:
            status = FULL_NODES
            break
        if best_first and n_front >= front.ints.shape[0]:
            status = FULL_FRONT
            break
        if top + 1 > st_ints.shape[0]:  # the node's children replace it, one row more
            status = FULL_STACK
            break
        if bins is not None and st_ints[top - 1, ST_HIST] >= 0 and n_free == 0:
            status = FULL_HISTS  # its children may need one buffer
            break
        top -= 1
        i = count
        count += 1
        parent = st_ints[top, ST_PARENT]
        if parent >= 0:
            side = NODE_LEFT if st_ints[top, ST_IS_LEFT] else NODE_RIGHT
            inodes[parent, side] = i
        depth = st_ints[top, ST_DEPTH]
        hist = st_ints[top, ST_HIST]
        a = st_ints[top, ST_START]
        b = st_ints[top, ST_END]
        # the node's statistics, from its parent's split when known
        if st_stats[top, 0] >= 0.0:
            wn = _known_stats(st_stats, top, S, stats)
        else:
            wn = _c.node_stats(y, w, samples, a, b, crit, n_outputs, K, stats)
        imp = st_floats[top, ST_IMPURITY]
        if imp < 0.0:
            imp = _node_impurity(y, w, samples, a, b, stats, wn, rule, abs_work)
        node = Node(a, b, wn, imp, stats, st_ints[top, ST_N_CONST],
                    st_floats[top, ST_LOWER], st_floats[top, ST_UPPER])
        _set_value(value, i, stats, wn, node.lower, node.upper, is_clf, n_outputs, K,
                   use_mono, y, w, samples, a, b, abs_work)
        # the node's split (its samples partitioned, left part first), or a leaf's
        # (pos = b): nodes at the limits (once best-first growth has used its budget,
        # new nodes stay leaves), pure or without a valid split whose impurity decrease
        # reaches min_impurity_decrease stay leaves
        split = no_split(node, node.n_const)
        nn = b - a
        if not (depth >= max_depth or (best_first and budget <= 0)
                or nn < min_samples_split or nn < 2 * min_samples_leaf
                or wn < 2.0 * min_weight_leaf or imp <= EPSILON):
            if bins is not None and hist >= 0:
                # a node with a histogram is split on it
                hs, bn = _hk.hist_split(pool[hist], bins, rule, node, work)
                if hs.feature >= 0 and hs.improvement + EPSILON >= min_impurity_decrease:
                    pos = _partition_bins(bins, hs.feature, bn, samples, a, b,
                                          hs.missing_left != 0)
                    split = Split(pos, hs.feature, hs.threshold, hs.improvement,
                                  hs.impurity_left, hs.impurity_right, hs.n_const,
                                  hs.missing_left, hs.middle)
            else:
                # the exact splitter: of dense / csc and of sort / rnd one is None, known
                # when numba compiles, which leaves out a branch testing a None argument
                # (a test on a non-None one keeps both branches: hence the tests on both
                # of each pair)
                if dense is not None:
                    if sort is not None:
                        split = split_best(dense, data, rule, node, work, sort, abs_work, pre)
                    if rnd is not None:
                        if codes is not None and nn >= _hk.HYBRID_MIN:
                            split = _coded_split(
                                split_random(codes.dense, data, rule, node, work, rnd,
                                             abs_work), codes.edges)
                        else:
                            split = split_random(dense, data, rule, node, work, rnd,
                                                 abs_work)
                if csc is not None:
                    if sort is not None:
                        split = split_best_csc(csc, data, rule, node, work, sort, abs_work)
                    if rnd is not None:
                        split = split_random_csc(csc, data, rule, node, work, abs_work)
                if split.pos < b and split.improvement + EPSILON < min_impurity_decrease:
                    split = no_split(node, node.n_const)
        is_leaf = split.pos >= b
        # histogram trees pass no constant features down (a feature in one bin at a node
        # may still vary below it)
        n_const = zero if bins is not None or codes is not None else split.n_const
        _record(inodes, fnodes, i, node, split)
        depth_reached = max(depth_reached, depth)
        left_h = minus1
        right_h = minus1
        if bins is not None and hist >= 0:
            # children at the depth limit stay leaves: no histograms for them
            n_free, left_h, right_h = _hk.child_hists(bins, data, rule, samples, pool, free,
                                                      n_free, hist, a, split.pos, b,
                                                      is_leaf or depth + 1 >= max_depth)
        if best_first:
            _push_frontier(front, n_front, i, node, split, depth, n_const, left_h, right_h)
            n_front += 1
        elif not is_leaf:
            cst = mono[split.feature] if use_mono else zero
            _push_children(st_ints, st_floats, st_stats, top, i, a, b, node.lower,
                           node.upper, split.pos, split.impurity_left,
                           split.impurity_right, split.middle, cst, depth, n_const,
                           left_h, right_h, reuse_stats, sl, sr, K, S)
            top += 2
    state[GS_TOP] = top
    state[GS_COUNT] = count
    state[GS_DEPTH] = depth_reached
    state[GS_FRONT] = n_front
    state[GS_BUDGET] = budget
    state[GS_FREE] = n_free
    return status


@njit(cache=True, nogil=True)
def build_tree(data, settings, dense, csc, bins, abs_work, sort, rnd, pre, codes):
    """Grow one tree; depth-first, or best-first when ``max_leaf_nodes > 0``.

    Arguments: see the module docstring; ``sort`` (best splitter) or ``rnd`` (random
    splitter) is None; ``pre`` (:data:`Presorted`) the best splitter's sorted lists in a
    histogram tree's exact nodes, else None; ``codes`` (:data:`Coded`) the bins of X for
    the random splitter of a histogram tree (nodes of at least ``HYBRID_MIN`` samples
    draw their thresholds between bins, the others between raw values), else None.
    ``data.samples`` is copied, not modified. Nodes of a histogram tree (``bins``) with
    fewer than ``HYBRID_MIN`` samples are split exactly.

    numba compiles one version per kind of tree (dense, sparse, histogram; best or
    random splitter; absolute error or not), each without the other kinds' code: the
    None arguments are known at compile time. Within a kind the arguments always have
    the same types, so every estimator shares that version.

    ``data.nan_mask`` (uint8, n_features) marks the features with missing values (NaN)
    in the rows used. ``settings.mono`` (intp, n_features, or empty): monotonicity
    constraints, -1 / 0 / 1 per feature on the first statistic (one output; binary
    classification: the first class's fraction); node values are clipped to the
    bounds the constrained splits above them set.

    Returns a :data:`GrownTree` (node arrays trimmed to the node count, depth reached).
    Thread-safe.
    """
    # integer constants passed to other kernels are typed intp up front: numba would
    # otherwise compile a separate version of the callee for each literal value
    zero = np.intp(0)
    minus1 = np.intp(-1)
    samples = data.samples.copy()
    n = samples.shape[0]
    wn_total, int_w = _weight_total(data.w, samples)
    if settings.wn_total > 0.0:
        wn_total = settings.wn_total
    rule = _rule(data, settings, wn_total)
    work = _work(samples, rule, settings.seed, data.nan_mask.shape[0])
    n_outputs = rule.n_outputs
    S = rule.S
    stats = np.empty(S)
    # children's statistics from the parent's split (classification with integer
    # weights: exact sums, equal to a fresh pass)
    reuse_stats = _c.is_classification(rule.crit) and int_w
    # the tree's node arrays and the stack's, doubled when full
    rows = _node_rows(n, settings)
    inodes = np.empty((rows, NODE_INT_FIELDS), dtype=np.intp)
    fnodes = np.empty((rows, NODE_FLOAT_FIELDS))
    value = np.empty((rows, n_outputs * rule.K))
    st_ints = np.empty((FIRST_ROWS, ST_INT_FIELDS), dtype=np.intp)
    st_floats = np.empty((FIRST_ROWS, ST_FLOAT_FIELDS))
    st_stats = np.empty((FIRST_ROWS, S + 1))
    front = Frontier(np.empty((FIRST_ROWS, FR_INT_FIELDS), dtype=np.intp),
                     np.empty((FIRST_ROWS, FR_FLOAT_FIELDS)))
    hists = _hk.new_hist_pool(bins, S, n)
    pool = hists.pool
    free = hists.free
    n_free = hists.n_free
    root_h = minus1
    if bins is not None and n >= _hk.HYBRID_MIN:
        n_free -= 1
        root_h = free[n_free]
        _hk.fill_hist(bins, data, rule, samples, zero, n, pool[root_h])
    _push_node(st_ints, st_floats, st_stats, zero, zero, n, zero, minus1, zero, zero, root_h,
               UNKNOWN, -np.inf, np.inf)
    best_first = settings.max_leaf_nodes > 0
    mono = rule.mono
    use_mono = rule.use_mono
    state = np.empty(GS_FIELDS, dtype=np.intp)
    state[GS_TOP] = 1
    state[GS_COUNT] = 0
    state[GS_DEPTH] = 0
    state[GS_FRONT] = 0
    state[GS_BUDGET] = settings.max_leaf_nodes - 1  # splits left to best-first growth
    state[GS_FREE] = n_free
    while True:
        # depth-first: evaluate a node when popped; best-first: evaluate both children
        # (left first) of the node just expanded, then queue them by improvement. The
        # loop runs without reference counts, called again after growing the array it
        # found full
        while True:
            status = _grow(data, settings, rule, dense, csc, bins, abs_work, sort, rnd, pre,
                           codes, work, stats, reuse_stats, inodes, fnodes, value, st_ints,
                           st_floats, st_stats, front, pool, free, state)
            if status == FULL_NODES:
                inodes = _doubled(inodes, state[GS_COUNT])
                fnodes = _doubled(fnodes, state[GS_COUNT])
                value = _doubled(value, state[GS_COUNT])
            elif status == FULL_STACK:
                st_ints = _doubled(st_ints, state[GS_TOP])
                st_floats = _doubled(st_floats, state[GS_TOP])
                st_stats = _doubled(st_stats, state[GS_TOP])
            elif status == FULL_FRONT:
                front = _frontier_room(front, state[GS_FRONT])
            elif status == FULL_HISTS:
                hists = _hk.grown_hist_pool(pool)
                pool = hists.pool
                free = hists.free
                state[GS_FREE] = hists.n_free
            else:
                break
        if not best_first:
            break
        n_front, top, budget = _expand_best(front, state[GS_FRONT], inodes, fnodes, st_ints,
                                            st_floats, st_stats, mono, use_mono,
                                            state[GS_BUDGET])
        state[GS_FRONT] = n_front
        state[GS_TOP] = top
        state[GS_BUDGET] = budget
        if top == 0:
            break
    count = state[GS_COUNT]
    depth_reached = state[GS_DEPTH]
    # the node fields are views (the caller copies them column by column into the
    # tree's arrays); the values, which the tree may keep as they are, are trimmed
    out = GrownTree(inodes[:count], fnodes[:count], np.empty((count, value.shape[1])),
                    depth_reached, samples)
    copy_rows(out.value, value, count)
    return out
