"""Growing a CART tree (seed 000 §11.1) into flat arrays with numba.

One builder serves classification and regression, depth-first and best-first
growth, dense, sparse and binned X, and the ``best`` (exact, sorted feature values:
``_best_split_kernels``), ``random`` (extremely randomized, §11.3: one uniform
threshold per candidate feature: ``_random_split_kernels``) and histogram
(``_hist_kernels``) splitters. It releases the GIL, so forests grow trees in Python
threads.

Entry points: :func:`build_tree_best` and :func:`build_tree_random`, one per exact
splitter, so that a tree compiles the node loop with its own splitter only. Their
arguments are named tuples (see ``_split_kernels``): ``data`` (:data:`Data`: ``Xt``
the float32 *transposed* data (n_features, n_samples), C-contiguous, so gathering
one feature is a contiguous read, ``Xr`` the same data row-major (n_samples,
n_features): the samples of a small node are scattered, and there the row-major
layout gathers all features of a node from a few cache lines; ``y`` float64
(n_samples, n_outputs) class indices (classification) or targets; ``w`` float64
sample weights; ``samples`` the rows to use (positive weight only); ``n_classes``;
``nan_mask``), ``settings`` (:data:`Settings`, the estimator's parameters),
``csc`` (:data:`Csc`, sparse X, or None), ``bins`` (:data:`Bins`, the histogram
splitter's binned X, or None) and ``abs_work`` (:data:`AbsWork`, the
absolute-error criterion's scratch, or None).

Sparse X (scikit-learn's sparse splitter): ``Xt`` and ``Xr`` are then empty
placeholders (``Xt`` of shape (n_features, 0)) and ``csc`` holds the data (indices
sorted within each column, float32 values); missing values and the histogram
splitter are not used with sparse X.

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
    KEY_CLASS_BITS_MAX,
    RADIX_MIN,
    SPLIT_BEST,
    SPLIT_RANDOM,
    AbsWork,
    Csc,
    Data,
    Dense,
    Node,
    RandomWork,
    Rule,
    SortWork,
    Work,
    no_split,
    partition_rows,
)

__all__ = ["KEY_CLASS_BITS_MAX", "RADIX_MIN", "SPLIT_BEST", "SPLIT_RANDOM", "AbsWork", "Bins", "Csc", "Data", "Dense", "Settings",
           "RandomWork", "SortWork", "build_tree"]

EPSILON = np.finfo(np.float64).eps
# numba freezes globals such as _hk.HYBRID_MIN into the compiled builder: the kernel
# cache directory changes with the text of any kernel module (``_kernels/jit.py``), so
# cached builders are recompiled when such a value changes (currently HYBRID_MIN = 128)

# the estimator's growth parameters (``max_depth`` a large int for None, ``max_features``
# an int, ``min_weight_leaf`` an absolute weight, ``max_leaf_nodes`` -1 for None, ``seed``
# uint64 driving the feature draws and random thresholds, ``mono`` intp per feature or
# empty: monotonicity constraints -1 / 0 / 1)
Settings = namedtuple("Settings", ["crit", "splitter", "max_features", "max_depth",
                                   "min_samples_leaf", "min_samples_split", "min_weight_leaf",
                                   "min_impurity_decrease", "max_leaf_nodes", "seed", "mono"])


@njit(cache=True, nogil=True)
def _grow(inodes, fnodes, value, cap):
    new_i = np.empty((cap, inodes.shape[1]), dtype=np.intp)
    new_f = np.empty((cap, fnodes.shape[1]), dtype=np.float64)
    new_v = np.empty((cap, value.shape[1]), dtype=np.float64)
    n = inodes.shape[0]
    copy_rows(new_i, inodes, n)
    copy_rows(new_f, fnodes, n)
    copy_rows(new_v, value, n)
    return new_i, new_f, new_v


# Explicit loops instead of slice assignments and row copies: each distinct slice
# assignment makes numba compile a generic helper, which costs seconds of compile
# time per kernel for no run-time gain.
@njit(cache=True, nogil=True)
def copy_rows(dst, src, n):
    """``dst[:n] = src[:n]`` for 2-D arrays."""
    for i in range(n):
        for j in range(src.shape[1]):
            dst[i, j] = src[i, j]


@njit(cache=True, nogil=True)
def swap_rows(a, i, k):
    """Exchange rows ``i`` and ``k`` of a 2-D array."""
    for j in range(a.shape[1]):
        t = a[i, j]
        a[i, j] = a[k, j]
        a[k, j] = t


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
def _largest(a):
    m = a[0]
    for i in range(a.shape[0]):
        m = max(m, a[i])
    return m


@njit(cache=True, nogil=True, inline="always")
def _c_stats_len(settings, data):
    """Length ``S`` of the node statistics (``_criteria_kernels``)."""
    n_outputs = data.y.shape[1]
    if _c.is_classification(settings.crit):
        return n_outputs * _largest(data.n_classes)
    return 2 * n_outputs


@njit(cache=True, nogil=True, inline="always")
def _split_exact(dense, csc, data, rule, node, work, sort, rnd, abs_work):
    """The node's split by the tree's exact splitter.

    Of ``dense`` / ``csc`` and of ``sort`` / ``rnd`` one is None, known when numba
    compiles: it leaves out a branch testing a None argument, so each tree holds one
    splitter's code (a test on a non-None argument keeps both branches, hence the
    tests on both of each pair and the final return, never reached)."""
    if dense is not None:
        if sort is not None:
            return split_best(dense, data, rule, node, work, sort, abs_work)
        if rnd is not None:
            return split_random(dense, data, rule, node, work, rnd, abs_work)
    if csc is not None:
        if sort is not None:
            return split_best_csc(csc, data, rule, node, work, sort, abs_work)
        if rnd is not None:
            return split_random_csc(csc, data, rule, node, work, abs_work)
    return no_split(node, node.n_const)


@njit(cache=True, nogil=True)
def _partition_bins(bins, f, bn, samples, a, b, rnd, nan_left):
    """Partition ``samples[a:b]`` on ``bin <= bn`` of feature ``f`` (the random
    splitter's keys along); returns the split position."""
    nan_code = np.float32(bins.n_bins[f])
    if rnd is not None:
        return partition_rows(bins.Xb, f, bn, samples, a, b, rnd.yw, rnd.fast, nan_left,
                              nan_code)
    return partition_rows(bins.Xb, f, bn, samples, a, b, samples, False, nan_left, nan_code)


@njit(cache=True, nogil=True)
def build_tree(data, settings, dense, csc, bins, abs_work, sort, rnd):
    """Grow one tree; depth-first, or best-first when ``max_leaf_nodes > 0``.

    ``samples`` is copied, not modified. ``bins`` switches on the histogram splitter
    (see ``_hist_kernels``): nodes with fewer than ``HYBRID_MIN`` samples are always
    split exactly. ``sort`` (best splitter) or ``rnd`` (random splitter) is None.

    numba compiles one version per kind of tree (dense, sparse, histogram; best or
    random splitter; absolute error or not), each without the other kinds' code: the
    None arguments are known at compile time. Within a kind the arguments always have
    the same types, so every estimator shares that version.

    ``nan_mask`` (uint8, n_features) marks the features with missing values (NaN)
    in the rows used; ``inodes`` then holds in column 4 whether a node's missing
    values go left. ``mono`` (intp, n_features, or empty): monotonicity
    constraints, -1 / 0 / 1 per feature on the first statistic (one output; binary
    classification: the first class's fraction); node values are clipped to the
    bounds the constrained splits above them set.
    """
    y = data.y
    w = data.w
    n_classes = data.n_classes
    crit = settings.crit
    mono = settings.mono
    max_depth = settings.max_depth
    min_samples_leaf = settings.min_samples_leaf
    min_samples_split = settings.min_samples_split
    min_weight_leaf = settings.min_weight_leaf
    min_impurity_decrease = settings.min_impurity_decrease
    max_leaf_nodes = settings.max_leaf_nodes
    n_outputs = y.shape[1]
    n_features = data.nan_mask.shape[0]
    K = _largest(n_classes)
    S = _c_stats_len(settings, data)
    V = n_outputs * K
    # integer constants passed to other kernels are typed intp up front: numba would
    # otherwise compile a separate version of the callee for each literal value
    zero = np.intp(0)
    one = np.intp(1)
    minus1 = np.intp(-1)
    samples = data.samples.copy()
    n = samples.shape[0]
    rng = np.empty(1, dtype=np.uint64)
    rng[0] = settings.seed
    stats = np.empty(S)
    # a flag computed (not a literal False later set True): numba would otherwise
    # compile the splitters a second time for the literal
    n_mono = 0
    for f in range(mono.shape[0]):
        if mono[f] != 0:
            n_mono += 1
    use_mono = n_mono > 0
    wn_total, int_w = _weight_total(w, samples)
    rule = Rule(crit, settings.splitter, n_outputs, K, S, n_classes, settings.max_features,
                min_samples_leaf, min_weight_leaf, mono, use_mono, wn_total)
    work = Work(samples, np.arange(n_features), np.arange(n_features), rng,
                np.empty(DRAW_SLOTS, dtype=np.intp), np.empty(n, dtype=np.float32),
                np.empty(S), np.empty(S))
    sl = work.sl
    sr = work.sr
    # histogram buffers (n_features x bins x (count, weight, stats)), reused via a free list
    if bins is not None:
        pool = np.empty((8, bins.Xb.shape[1], bins.edges.shape[1], S + 2))
    else:
        pool = np.empty((1, 1, 1, 1))
    n_pool = pool.shape[0]
    free = np.empty(n_pool, dtype=np.intp)
    for i in range(n_pool):
        free[i] = n_pool - 1 - i
    n_free = n_pool

    cap = np.intp(64)
    inodes = np.empty((cap, 5), dtype=np.intp)
    fnodes = np.empty((cap, 3))
    value = np.empty((cap, V))
    count = np.intp(0)
    depth_reached = np.intp(0)
    best_first = max_leaf_nodes > 0
    max_split_nodes = max_leaf_nodes - 1

    # nodes waiting for evaluation (popped last-first): start, end, depth, parent, is_left,
    # n_constant_features, histogram id (-1: none) ; impurity (-1: unknown)
    st_i = np.empty((64, 7), dtype=np.intp)
    # impurity (-1: unknown), lower and upper bound of the node value (monotonic_cst)
    st_f = np.empty((64, 3))
    # children's statistics and weight from the parent's split (classification with
    # integer weights: exact sums, equal to a fresh pass); column 0 < 0: unknown
    reuse_stats = _c.is_classification(crit) and int_w
    st_s = np.empty((64, S + 1))
    root_h = minus1
    if bins is not None and n >= _hk.HYBRID_MIN:
        n_free -= 1
        root_h = free[n_free]
        _hk.fill_hist(bins.Xb, bins.n_bins, y, w, samples, zero, n, crit, n_outputs, K,
                      pool[root_h])
    st_i[0, 0] = 0
    st_i[0, 1] = n
    st_i[0, 2] = 0
    st_i[0, 3] = -1
    st_i[0, 4] = 0
    st_i[0, 5] = 0
    st_i[0, 6] = root_h
    st_f[0, 0] = -1.0
    st_f[0, 1] = -np.inf
    st_f[0, 2] = np.inf
    st_s[0, 0] = -1.0
    top = np.intp(1)
    # best-first frontier of evaluated nodes, a max-heap on the improvement:
    # node, start, end, pos, depth, n_const, left hist, right hist ;
    # improvement, impurity_left, impurity_right, is_leaf
    fr_i = np.empty((64, 8), dtype=np.intp)
    fr_f = np.empty((64, 7))
    n_front = np.intp(0)
    while True:
        # depth-first: evaluate a node when popped; best-first: evaluate both children
        # (left first) of the node just expanded, then queue them by improvement
        while top > 0:
            top -= 1
            a = st_i[top, 0]
            b = st_i[top, 1]
            depth = st_i[top, 2]
            parent = st_i[top, 3]
            is_left = st_i[top, 4]
            n_const = st_i[top, 5]
            hid = st_i[top, 6]
            if count >= cap:
                cap *= 2
                inodes, fnodes, value = _grow(inodes, fnodes, value, cap)
            node = count
            count += 1
            if parent >= 0:
                if is_left:
                    inodes[parent, 0] = node
                else:
                    inodes[parent, 1] = node
            # the node's statistics, value, impurity and split (samples[a:b] left
            # partitioned, left part first)
            vrow = value[node]
            if st_s[top, 0] >= 0.0:
                for k in range(S):
                    stats[k] = st_s[top, k]
                wn = st_s[top, S]
            else:
                wn = _c.node_stats(y, w, samples, a, b, crit, n_outputs, K, stats)
            if _c.is_classification(crit):
                for k in range(V):
                    vrow[k] = stats[k]
            elif abs_work is not None:
                _c.abs_medians(y, w, samples, a, b, n_outputs, abs_work.yv, abs_work.wv, vrow)
            else:
                for o in range(n_outputs):
                    vrow[o] = stats[o] / wn
            lower = st_f[top, 1]
            upper = st_f[top, 2]
            if use_mono:
                # clip the value (binary classification: the first class's fraction,
                # counts here) to the bounds of the constrained splits above
                v0 = vrow[0] / wn if _c.is_classification(crit) else vrow[0]
                if v0 < lower or v0 > upper:
                    v0 = lower if v0 < lower else upper
                    if _c.is_classification(crit):
                        vrow[0] = v0 * wn
                        vrow[1] = (1.0 - v0) * wn
                    else:
                        vrow[0] = v0
            imp = st_f[top, 0]
            if imp < 0.0:
                if abs_work is not None:
                    imp = _c.abs_impurity(y, w, samples, a, b, n_outputs, abs_work.yv,
                                          abs_work.wv)
                elif crit == _c.POISSON:
                    imp = _c.poisson_loss(y, w, samples, a, b, n_outputs, stats, wn)
                else:
                    imp = _c.stats_impurity(stats, wn, crit, n_outputs, K, n_classes)
            nn = b - a
            # once best-first growth has used its budget, new nodes stay leaves
            is_leaf = (
                depth >= max_depth
                or (best_first and max_split_nodes <= 0)
                or nn < min_samples_split
                or nn < 2 * min_samples_leaf
                or wn < 2.0 * min_weight_leaf
                or imp <= EPSILON
            )
            pos = b
            f = minus1
            thr = -2.0
            ml = zero
            middle = 0.0
            improvement = 0.0
            il = 0.0
            ir = 0.0
            nd = Node(a, b, wn, imp, stats, n_const, lower, upper)
            if bins is not None and not is_leaf and hid >= 0:
                split, bn = _hk.hist_split(pool[hid], bins, rule, nd, work)
                f = split.feature
                thr = split.threshold
                improvement = split.improvement
                il = split.impurity_left
                ir = split.impurity_right
                middle = split.middle
                if f >= 0 and improvement + EPSILON >= min_impurity_decrease:
                    ml = split.missing_left
                    pos = _partition_bins(bins, f, bn, samples, a, b, rnd, ml != 0)
                else:
                    is_leaf = True
            elif not is_leaf:
                split = _split_exact(dense, csc, data, rule, nd, work, sort, rnd, abs_work)
                pos = split.pos
                f = split.feature
                thr = split.threshold
                improvement = split.improvement
                il = split.impurity_left
                ir = split.impurity_right
                n_const = split.n_const
                ml = split.missing_left
                middle = split.middle
                if pos >= b or improvement + EPSILON < min_impurity_decrease:
                    is_leaf = True
            if is_leaf:
                pos = b
                ml = zero
                f = minus1 - 1
                thr = -2.0
                improvement = 0.0
                il = 0.0
                ir = 0.0
            if bins is not None:
                n_const = zero
            if depth > depth_reached:
                depth_reached = depth
            inodes[node, 0] = -1
            inodes[node, 1] = -1
            inodes[node, 2] = f
            inodes[node, 3] = b - a
            inodes[node, 4] = ml
            fnodes[node, 0] = thr
            fnodes[node, 1] = imp
            fnodes[node, 2] = wn
            left_h = minus1
            right_h = minus1
            if bins is not None and hid >= 0:
                need_l = not is_leaf and pos - a >= _hk.HYBRID_MIN
                need_r = not is_leaf and b - pos >= _hk.HYBRID_MIN
                if need_l or need_r:
                    # smaller child from its samples, larger by subtraction in the parent's
                    # buffer
                    if n_free == 0:
                        pc = pool.shape[0]
                        bigger = np.empty((2 * pc, pool.shape[1], pool.shape[2],
                                           pool.shape[3]))
                        for i in range(pc):
                            for ff in range(pool.shape[1]):
                                for bb in range(pool.shape[2]):
                                    for kk in range(pool.shape[3]):
                                        bigger[i, ff, bb, kk] = pool[i, ff, bb, kk]
                        pool = bigger
                        free = np.empty(2 * pc, dtype=np.intp)
                        for i in range(pc):
                            free[i] = pc + i
                        n_free = pc
                    n_free -= 1
                    small = free[n_free]
                    if pos - a <= b - pos:
                        _hk.fill_hist(bins.Xb, bins.n_bins, y, w, samples, a, pos, crit,
                                      n_outputs, K, pool[small])
                        left_h = small
                        right_h = hid
                    else:
                        _hk.fill_hist(bins.Xb, bins.n_bins, y, w, samples, pos, b, crit,
                                      n_outputs, K, pool[small])
                        left_h = hid
                        right_h = small
                    _hk.subtract_hist(pool[hid], pool[small], bins.n_bins)
                    if not need_l:
                        free[n_free] = left_h
                        n_free += 1
                        left_h = minus1
                    if not need_r:
                        free[n_free] = right_h
                        n_free += 1
                        right_h = minus1
                else:
                    free[n_free] = hid
                    n_free += 1
            if best_first:
                if n_front >= fr_i.shape[0]:
                    bigger_i = np.empty((2 * fr_i.shape[0], 8), dtype=np.intp)
                    bigger_f = np.empty((2 * fr_i.shape[0], 7))
                    copy_rows(bigger_i, fr_i, n_front)
                    copy_rows(bigger_f, fr_f, n_front)
                    fr_i = bigger_i
                    fr_f = bigger_f
                k = n_front
                n_front += 1
                fr_i[k, 0] = node
                fr_i[k, 1] = a
                fr_i[k, 2] = b
                fr_i[k, 3] = pos
                fr_i[k, 4] = depth
                fr_i[k, 5] = n_const
                fr_i[k, 6] = left_h
                fr_i[k, 7] = right_h
                fr_f[k, 0] = improvement if not is_leaf else 0.0
                fr_f[k, 1] = il
                fr_f[k, 2] = ir
                fr_f[k, 3] = 1.0 if is_leaf else 0.0
                fr_f[k, 4] = lower
                fr_f[k, 5] = upper
                fr_f[k, 6] = middle
                while k > 0:
                    par = (k - 1) // 2
                    if fr_f[par, 0] < fr_f[k, 0]:
                        swap_rows(fr_i, par, k)
                        swap_rows(fr_f, par, k)
                        k = par
                    else:
                        break
            elif not is_leaf:
                if top + 2 > st_i.shape[0]:
                    st_i, st_f = _grow_stack(st_i, st_f, top)
                    bigger_s = np.empty((st_i.shape[0], S + 1))
                    copy_rows(bigger_s, st_s, top)
                    st_s = bigger_s
                ll, lu, rl, ru = _child_bounds(mono[f] if use_mono else zero, lower, upper,
                                               middle)
                # right first so that the left child is processed (numbered) first
                _push_child(st_i, st_f, top, pos, b, depth + 1, node, zero, n_const, right_h,
                            ir, rl, ru)
                _push_child(st_i, st_f, top + 1, a, pos, depth + 1, node, one, n_const, left_h,
                            il, ll, lu)
                if reuse_stats:
                    wl = 0.0
                    wr = 0.0
                    for k in range(K):
                        wl += sl[k]
                        wr += sr[k]
                    for k in range(S):
                        st_s[top, k] = sr[k]
                        st_s[top + 1, k] = sl[k]
                    st_s[top, S] = wr
                    st_s[top + 1, S] = wl
                else:
                    st_s[top, 0] = -1.0
                    st_s[top + 1, 0] = -1.0
                top += 2
        if not best_first:
            break
        # best-first: pop the frontier node with the largest improvement and expand it
        expanded = False
        while n_front > 0:
            n_front -= 1
            # the top record moves to index n_front (now outside the heap)
            swap_rows(fr_i, zero, n_front)
            swap_rows(fr_f, zero, n_front)
            rec_i = fr_i[n_front]
            rec_f = fr_f[n_front]
            k = zero
            while True:
                c1 = 2 * k + 1
                if c1 >= n_front:
                    break
                if c1 + 1 < n_front and fr_f[c1 + 1, 0] > fr_f[c1, 0]:
                    c1 += 1
                if fr_f[c1, 0] > fr_f[k, 0]:
                    swap_rows(fr_i, c1, k)
                    swap_rows(fr_f, c1, k)
                    k = c1
                else:
                    break
            node = rec_i[0]
            if rec_f[3] > 0.5 or max_split_nodes <= 0:
                inodes[node, 0] = -1
                inodes[node, 1] = -1
                inodes[node, 2] = -2
                inodes[node, 4] = 0
                fnodes[node, 0] = -2.0
                continue
            max_split_nodes -= 1
            # right below left on the stack: the left child is evaluated (numbered) first;
            # no constant features are passed down (scikit-learn's best-first builder
            # starts each split search from zero known constants)
            ll, lu, rl, ru = _child_bounds(mono[inodes[node, 2]] if use_mono else zero,
                                           rec_f[4], rec_f[5], rec_f[6])
            _push_child(st_i, st_f, zero, rec_i[3], rec_i[2], rec_i[4] + 1, node, zero,
                        zero, rec_i[7], rec_f[2], rl, ru)
            _push_child(st_i, st_f, one, rec_i[1], rec_i[3], rec_i[4] + 1, node, one,
                        zero, rec_i[6], rec_f[1], ll, lu)
            st_s[0, 0] = -1.0
            st_s[1, 0] = -1.0
            top = 2
            expanded = True
            break
        if not expanded:
            break
    out_i = np.empty((count, 5), dtype=np.intp)
    out_f = np.empty((count, 3))
    out_v = np.empty((count, V))
    copy_rows(out_i, inodes, count)
    copy_rows(out_f, fnodes, count)
    copy_rows(out_v, value, count)
    return out_i, out_f, out_v, depth_reached


@njit(cache=True, nogil=True)
def _push_child(st_i, st_f, t, a, b, depth, parent, is_left, n_const, hid, imp, lower,
                upper):
    st_i[t, 0] = a
    st_i[t, 1] = b
    st_i[t, 2] = depth
    st_i[t, 3] = parent
    st_i[t, 4] = is_left
    st_i[t, 5] = n_const
    st_i[t, 6] = hid
    st_f[t, 0] = imp
    st_f[t, 1] = lower
    st_f[t, 2] = upper


@njit(cache=True, nogil=True)
def _grow_stack(st_i, st_f, top):
    bigger_i = np.empty((2 * st_i.shape[0], st_i.shape[1]), dtype=np.intp)
    bigger_f = np.empty((2 * st_i.shape[0], st_f.shape[1]))
    copy_rows(bigger_i, st_i, top)
    copy_rows(bigger_f, st_f, top)
    return bigger_i, bigger_f


@njit(cache=True, nogil=True)
def _child_bounds(cst, lower, upper, middle):
    """(left lower, left upper, right lower, right upper) value bounds of the children of
    a split on a feature with monotonicity constraint ``cst`` (scikit-learn's rule)."""
    if cst > 0:
        return lower, middle, middle, upper
    if cst < 0:
        return middle, upper, lower, middle
    return lower, upper, lower, upper

