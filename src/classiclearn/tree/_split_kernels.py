"""What the exact splitters of the CART builder share (seed 000 §11.1, §11.3).

The splitters: ``split_best`` / ``split_best_csc`` (``_best_split_kernels``: each
candidate feature's values at the node sorted, every threshold between two of them
scanned), ``split_random`` / ``split_random_csc`` (``_random_split_kernels``:
extremely randomized trees, one uniform threshold per candidate feature) and the
histogram splitter (``_hist_kernels``). Here are the pieces they share: the feature
draw and its constant-feature bookkeeping, gathering and partitioning values, the
candidate's statistics and impurities, and a sparse column's entries at a node.

Each splitter is a function of its own, so a tree compiles only the one it uses
(the builder picks it when numba compiles, see ``_build_kernels``). Their
arguments are named tuples built once per tree:

- :data:`Data`: the fit's arrays but X (``y`` float64 (n_samples, n_outputs) class
  indices or targets, ``w`` float64 weights, ``samples`` the rows used, ``n_classes``
  intp per output, ``nan_mask`` uint8 per feature: whether it has missing values);
- X: :data:`Dense` (``Xt`` float32 transposed (n_features, n_samples), ``Xr`` the
  same row-major) or :data:`Csc` (sparse X: CSC arrays, indices sorted within each
  column, float32 values, and the sparse splitters' buffers);
- :data:`Rule`: what a valid, better split is (criterion, leaf minimums,
  ``max_features``, monotonicity constraints, the statistics' length ``S``);
- :data:`Work`: buffers the splitters write (the node's samples and their values,
  the features and the draw's state, left / right statistics);
- :data:`SortWork` / :data:`RandomWork`: the best and the random splitter's own
  buffers; :data:`Presorted`: the best splitter's sorted lists (a histogram tree's
  exact nodes; an exact classification tree's subtrees);
- :data:`Node`: the node being split; a splitter returns a :data:`Split`.

``abs_work`` (:data:`AbsWork`) holds the absolute-error criterion's scratch, None
for every other criterion, whose splitters then leave the median
code out.
"""

from collections import namedtuple

import numpy as np

from .._kernels.jit import njit
from .._kernels.sorting import FEW_VALUES, sort_pairs
from . import _criteria_kernels as _c
from ._util_kernels import rand_int

FEATURE_THRESHOLD = 1e-7
SPLIT_BEST = 0
SPLIT_RANDOM = 1
# nodes of at least this many samples sort a feature's values by radix, smaller ones
# by comparison
RADIX_MIN = 256
# nodes of at most this many samples gather a feature's values from the row-major copy
# (a sample's features share cache lines that stay warm over the feature loop), larger
# ones from the transposed copy
ROW_GATHER_MAX = 16384
# the largest number of class bits of the random splitter's packed keys (``RandomWork``)
KEY_CLASS_BITS_MAX = 12

Data = namedtuple("Data", ["y", "w", "samples", "n_classes", "nan_mask"])
Dense = namedtuple("Dense", ["Xt", "Xr"])
# CSC X, then where each row sits in the node's ``samples`` (intp, n_samples) and a
# node's stored entries of one column (rows intp, values float32, as many as samples);
# ``by_value``: X's columns with their entries in increasing value order (rows, values;
# :func:`value_sorted_columns`), or None
Csc = namedtuple("Csc", ["indptr", "indices", "data", "pos", "nz_rows", "nz_vals", "by_rows",
                         "by_value"])
# sparse X by rows (CSR: ``indptr``, feature ``indices`` intp, ``data`` float32) and a
# node's stored entries grouped by feature (:func:`group_node_entries`): feature f's
# at ``rows`` / ``vals[start[f]:start[f + 1]]`` (as many as X's stored entries); in
# ``Csc.by_rows``, None when the columns' scans are always the cheaper way
ByRows = namedtuple("ByRows", ["indptr", "indices", "data", "start", "rows", "vals"])
Rule = namedtuple("Rule", ["crit", "splitter", "n_outputs", "K", "S", "n_classes",
                           "max_features", "min_samples_leaf", "min_weight_leaf", "mono",
                           "use_mono", "wn_total"])
Work = namedtuple("Work", ["samples", "features", "const_features", "rng", "draw", "vals",
                           "sl", "sr"])
# radix sort keys / indices / counts, the missing values' moves (``tmp_s`` / ``tmp_v``)
# and a node's few distinct values with their sums (``few``, float64 (FEW_LANES * FEW_VALUES, 4);
# :func:`few_value_sums`)
SortWork = namedtuple("SortWork", ["rkeys", "ridx", "rcnt", "tmp_s", "tmp_v", "few"])
# a histogram tree's exact nodes (fewer than ``HYBRID_MIN`` samples, best splitter):
# feature f's values at the node range ``[lo[f], hi[f])``, sorted (missing ones last), in
# ``vals[f]``, their samples in ``order[f]``, both from position 0 (``lo[f] > hi[f]``:
# none held); ``left`` (uint8 per row, zero between splits) marks a split's left rows,
# ``tmp_s`` / ``tmp_v`` hold the right part of a list's partition; ``codes`` is X's bins
# (uint8 (n_samples, n_features); (0, 0) for an exact tree, whose lists are sorted by
# value) and ``counts`` (intp, 257) a counting sort's buckets;
# ``xlogx[k] = k ln k`` for the integer weights 0 .. total (entropy with integer weights,
# else empty)
Presorted = namedtuple("Presorted", ["order", "vals", "lo", "hi", "left", "tmp_s", "tmp_v",
                                     "codes", "counts", "xlogx"])
# ``fast``: counts left of a threshold summed without partitioning, on keys
# ``(weight << kb) | class`` kept in sample order in ``yw`` (see :func:`split_random`)
RandomWork = namedtuple("RandomWork", ["fast", "kb", "yw", "ywtmp", "vals_b", "sbest",
                                       "ridx"])
Node = namedtuple("Node", ["a", "b", "wn", "imp", "stats", "n_const", "lower", "upper"])
# the absolute-error criterion's scratch, float64 (n_samples + 1) each: split costs and
# the buffers of ``_util_kernels.prefix_abs_costs``
AbsWork = namedtuple("AbsWork", ["cost", "tmp", "yv", "wv", "h1", "h2", "h3", "h4"])
Split = namedtuple("Split", ["pos", "feature", "threshold", "improvement", "impurity_left",
                             "impurity_right", "n_const", "missing_left", "middle"])

# slots of the feature draw's state ``Work.draw`` (intp): features known constant from an
# ancestor, of them drawn, found constant at this node, not yet evaluated (the end of the
# undrawn block), features drawn in all
DRAW_KNOWN = 0
DRAW_DRAWN = 1
DRAW_FOUND = 2
DRAW_LEFT = 3
DRAW_VISITED = 4
DRAW_SLOTS = 5


# Explicit loops instead of slice assignments: each distinct slice assignment makes numba
# compile a generic helper, which costs seconds of compile time for no run-time gain.
@njit(cache=True, nogil=True, _nrt=False)
def fill(a, x):
    """``a[:] = x`` for a 1-D array."""
    for i in range(a.shape[0]):
        a[i] = x


# ---------------------------------------------------------------- the feature draw


@njit(cache=True, nogil=True, inline="always")
def start_draw(draw, n_const, n_features):
    """Start drawing a node's features: the ``n_const`` known constant ones sit in
    ``features[:n_const]`` (their order kept in ``const_features``) and count as visited
    without being evaluated, as in scikit-learn."""
    draw[DRAW_KNOWN] = n_const
    draw[DRAW_DRAWN] = 0
    draw[DRAW_FOUND] = 0
    draw[DRAW_LEFT] = n_features
    draw[DRAW_VISITED] = 0


@njit(cache=True, nogil=True, inline="always")
def next_feature(draw, features, rng, max_features):
    """Position in ``features`` of the next feature to evaluate (drawn without
    replacement), or -1 once ``max_features`` have been visited (more while only
    constant features were found) or none is left."""
    while draw[DRAW_LEFT] > draw[DRAW_KNOWN] + draw[DRAW_FOUND] and (
            draw[DRAW_VISITED] < max_features
            or draw[DRAW_VISITED] <= draw[DRAW_FOUND] + draw[DRAW_DRAWN]):
        draw[DRAW_VISITED] += 1
        n_drawn = draw[DRAW_DRAWN]
        f_j = rand_int(rng, n_drawn, draw[DRAW_LEFT] - draw[DRAW_FOUND])
        if f_j < draw[DRAW_KNOWN]:
            features[n_drawn], features[f_j] = features[f_j], features[n_drawn]
            draw[DRAW_DRAWN] = n_drawn + 1
            continue
        return f_j + draw[DRAW_FOUND]
    return np.intp(-1)


@njit(cache=True, nogil=True, inline="always")
def constant_feature(draw, features, f_j):
    """The feature at ``features[f_j]`` is constant at the node: into the constants' block."""
    t = draw[DRAW_KNOWN] + draw[DRAW_FOUND]
    features[f_j], features[t] = features[t], features[f_j]
    draw[DRAW_FOUND] += 1


@njit(cache=True, nogil=True, inline="always")
def evaluated_feature(draw, features, f_j):
    """The feature at ``features[f_j]`` is evaluated: out of the undrawn block."""
    f_i = draw[DRAW_LEFT] - 1
    features[f_i], features[f_j] = features[f_j], features[f_i]
    draw[DRAW_LEFT] = f_i


@njit(cache=True, nogil=True, inline="always")
def end_draw(draw, features, const_features):
    """Restore the known constants' order and record the new ones; returns the number of
    constant features the children inherit."""
    return end_draw_counts(features, const_features, draw[DRAW_KNOWN], draw[DRAW_FOUND])


@njit(cache=True, nogil=True, _nrt=False)
def end_draw_counts(features, const_features, n_known, n_found):
    """:func:`end_draw` from the counts of known and newly found constant features (the
    dense splitters write the draw out with its state in local variables)."""
    for i in range(n_known):
        features[i] = const_features[i]
    for i in range(n_known, n_known + n_found):
        const_features[i] = features[i]
    return n_known + n_found


# ---------------------------------------------------------------- gathering values


@njit(cache=True, nogil=True, inline="always")
def gather(Xt, Xr, f, samples, a, b, vals):
    """``vals[a:b]`` = feature ``f`` of ``samples[a:b]``: from the row-major copy for
    small and middle-sized nodes, from the transposed one for large nodes."""
    if b - a <= ROW_GATHER_MAX:
        for i in range(a, b):
            vals[i] = Xr[samples[i], f]
    else:
        xf = Xt[f]
        for i in range(a, b):
            vals[i] = xf[samples[i]]


# :func:`few_value_sums`: its accumulators per distinct value (consecutive samples add
# into different lanes, so that a run of one value does not chain each addition on the
# last) and the slots of its hash table of values (a power of two, >= 2 * FEW_VALUES)
FEW_LANES = 4
FEW_SLOTS = 64
_NO_KEY = np.intp(-1)


@njit(cache=True, nogil=True, inline="always")
def _value_slot(keys, key):
    """The slot of ``key`` (a float32 bit pattern) in :func:`few_value_sums`' hash table
    ``keys``, or of the empty slot where it goes."""
    h = np.intp(((np.uint64(key) * np.uint64(0x9E3779B1)) >> np.uint64(26))
                & np.uint64(FEW_SLOTS - 1))
    while keys[h] != key and keys[h] != _NO_KEY:
        h = (h + 1) & (FEW_SLOTS - 1)
    return h


@njit(cache=True, nogil=True, inline="always")
def _value_code(keys, codes, table, bits, k, s):
    """The entry of a float32 bit pattern in :func:`few_value_sums`' table: a new one
    becomes entry ``k`` (``table[k, 3]`` the sample ``s`` it was met at); -1 for a new
    pattern past ``FEW_VALUES``."""
    key = np.intp(bits)
    h = _value_slot(keys, key)
    if keys[h] == _NO_KEY:
        if k == FEW_VALUES:
            return np.intp(-1)
        keys[h] = key
        codes[h] = k
        table[k, 3] = s
    return codes[h]


@njit(cache=True, nogil=True, _nrt=False)
def few_value_sums(Xt, Xr, f, samples, a, b, y, w, table, slots):
    """Feature ``f``'s distinct values at the node ``samples[a:b]`` (no missing value)
    with their samples' sums of ``w`` and ``w y[:, 0]`` and count, in increasing value
    order, where they are at most ``FEW_VALUES``: the r-th in ``table[r, 3]`` and its
    sums and count in ``table[r, :3]``. One pass over the node instead of a sort (a
    squared-error scan needs only these); returns the number of values, or 0 where
    they are more (found, for continuous values, within the first ``FEW_VALUES + 1``
    samples, before any sum).

    ``table``: float64 (FEW_LANES * FEW_VALUES, 4); ``slots``: intp (2, >= FEW_SLOTS),
    a hash table of bit patterns (open addressing) and their entries."""
    keys = slots[0]
    codes = slots[1]
    for h in range(FEW_SLOTS):
        keys[h] = _NO_KEY
    by_rows = b - a <= ROW_GATHER_MAX
    xr = Xr.view(np.uint32)
    xf = Xt[f].view(np.uint32)
    k = np.intp(0)
    # the values met first, or the verdict (a value past FEW_VALUES) where there are many
    for i in range(a, min(b, a + FEW_VALUES + 1)):
        s = samples[i]
        c = _value_code(keys, codes, table, xr[s, f] if by_rows else xf[s], k, s)
        if c < 0:
            return np.intp(0)
        k += c == k
    for r in range(FEW_LANES * k):
        table[r, 0] = 0.0
        table[r, 1] = 0.0
        table[r, 2] = 0.0
    for i in range(a, b):
        s = samples[i]
        c = _value_code(keys, codes, table, xr[s, f] if by_rows else xf[s], k, s)
        if c < 0:
            return np.intp(0)
        if c == k:
            for r in range(FEW_LANES * k, FEW_LANES * (k + 1)):
                table[r, 0] = 0.0
                table[r, 1] = 0.0
                table[r, 2] = 0.0
            k += 1
        r = FEW_LANES * c + (i & (FEW_LANES - 1))
        ws = w[s]
        table[r, 0] += ws
        table[r, 1] += ws * y[s, 0]
        table[r, 2] += 1.0
    for c in range(k):  # each value from the sample where it was first met
        table[c, 3] = np.float64(Xr[np.intp(table[c, 3]), f])
    # each value's lanes summed into its own row (row c <= lane row 4c: read first)
    for c in range(k):
        q = FEW_LANES * c
        for j in range(3):
            table[c, j] = (table[q, j] + table[q + 1, j]) + (table[q + 2, j] + table[q + 3, j])
    for r in range(1, k):  # insertion sort of the (at most FEW_VALUES) rows by value
        v, sw, swy, n = table[r, 3], table[r, 0], table[r, 1], table[r, 2]
        t = r - 1
        while t >= 0 and table[t, 3] > v:
            for j in range(4):
                table[t + 1, j] = table[t, j]
            t -= 1
        table[t + 1, 0] = sw
        table[t + 1, 1] = swy
        table[t + 1, 2] = n
        table[t + 1, 3] = v
    return k


@njit(cache=True, nogil=True, inline="always")
def trailing_nan(vals, a, b):
    """The number of NaN at the end of ``vals[a:b]`` (NaN sorted last)."""
    nm = np.intp(0)
    while nm < b - a and vals[b - 1 - nm] != vals[b - 1 - nm]:
        nm += 1
    return nm


@njit(cache=True, nogil=True, _nrt=False)
def move_nan_last(vals, samples, a, b):
    """Move the NaN entries of ``vals[a:b]`` (``samples`` alike) to the end, with
    scikit-learn's order of swaps; return their number."""
    nm = np.intp(0)
    i = a
    ce = b - 1
    while i <= ce:
        if vals[ce] != vals[ce]:
            nm += 1
            ce -= 1
            continue
        if vals[i] != vals[i]:
            samples[i], samples[ce] = samples[ce], samples[i]
            vals[i], vals[ce] = vals[ce], vals[i]
            nm += 1
            ce -= 1
        i += 1
    return nm


@njit(cache=True, nogil=True, _nrt=False)
def range_without_nan(vals, a, b):
    """(number of NaN, min, max) of ``vals[a:b]`` over the non-NaN values, the first one
    setting both bounds (scikit-learn's random splitter); (n, inf, -inf) if all NaN."""
    nm = np.intp(0)
    mn = np.float32(np.inf)
    mx = np.float32(-np.inf)
    seen = False
    for i in range(a, b):
        v = vals[i]
        if v != v:
            nm += 1
        elif not seen:
            mn = v
            mx = v
            seen = True
        elif v < mn:
            mn = v
        elif v > mx:
            mx = v
    return nm, mn, mx


@njit(cache=True, nogil=True, _nrt=False)
def shift_missing_left(samples, vals, a, b, nm, tmp_s, tmp_v):
    """Move the last ``nm`` entries of ``samples[a:b]`` / ``vals[a:b]`` to the front, both
    blocks keeping their order."""
    e = b - nm
    for i in range(nm):
        tmp_s[i] = samples[e + i]
        tmp_v[i] = vals[e + i]
    for i in range(e - 1, a - 1, -1):
        samples[i + nm] = samples[i]
        vals[i + nm] = vals[i]
    for i in range(nm):
        samples[a + i] = tmp_s[i]
        vals[a + i] = tmp_v[i]


# ---------------------------------------------------------------- partitions


@njit(cache=True, nogil=True, inline="always")
def partition_rows(M, f, thr, samples, a, b, yw, swap_yw, nan_left, nan_code):
    """Move the rows of ``samples[a:b]`` with ``M[row, f] <= thr`` to the front
    (unstable, Hoare style; ``yw`` follows when ``swap_yw``); return the split position.

    Missing values (NaN in raw rows, the bin ``nan_code`` in binned rows) go to the
    front when ``nan_left``, else to the back."""
    lo = a
    hi = b
    while lo < hi:
        v = M[samples[lo], f]
        if v <= thr or (nan_left and (v != v or v == nan_code)):
            lo += 1
        else:
            hi -= 1
            samples[lo], samples[hi] = samples[hi], samples[lo]
            if swap_yw:
                yw[lo], yw[hi] = yw[hi], yw[lo]
    return hi


@njit(cache=True, nogil=True, _nrt=False)
def stable_partition(samples, yw, vals, a, b, thr, nan_left, ridx, ywtmp):
    """Stable partition of ``samples[a:b]`` (``yw`` along) on the kept values ``vals`` of
    the chosen candidate, branch-free, the right part through ``ridx`` / ``ywtmp``: the
    samples of every node stay in ascending row order, so the gathers of its children
    sweep memory forwards (prefetch- and TLB-friendly). Returns the split position."""
    lo = a
    k = np.intp(0)
    for i in range(a, b):
        s = samples[i]
        t = yw[i]
        v = vals[i]
        m = (np.float64(v) <= thr) | (nan_left & (v != v))
        samples[lo] = s
        yw[lo] = t
        ridx[k] = s
        ywtmp[k] = t
        lo += np.intp(1) if m else np.intp(0)
        k += np.intp(0) if m else np.intp(1)
    pos = lo
    for i in range(k):
        samples[pos + i] = ridx[i]
        yw[pos + i] = ywtmp[i]
    return pos


# ---------------------------------------------------------------- statistics and proxies


@njit(cache=True, nogil=True, _nrt=False)
def move_left(sl, wl, cur, new_pos, b, samples, y, w, parent_stats, wn, crit, n_outputs, K):
    """Left statistics at ``new_pos`` from those at ``cur``: add ``samples[cur:new_pos]``,
    or, when fewer samples lie right of ``new_pos``, start from the node totals and
    remove ``samples[new_pos:b]`` (scikit-learn's order of summation).

    The per-sample updates are written out here (not calls to ``add_class_sample``):
    numba does not inline them, and a call per sample costs more than the update."""
    is_clf = _c.is_classification(crit)
    if new_pos - cur <= b - new_pos:
        lo = cur
        hi = new_pos
        sign = 1.0
    else:
        for k in range(sl.shape[0]):
            sl[k] = parent_stats[k]
        wl = wn
        lo = new_pos
        hi = b
        sign = -1.0
    if is_clf and n_outputs == 1:
        if sign > 0.0:
            for p in range(lo, hi):
                s = samples[p]
                ws = w[s]
                sl[np.intp(y[s, 0])] += ws
                wl += ws
        else:
            for p in range(hi - 1, lo - 1, -1):
                s = samples[p]
                ws = w[s]
                sl[np.intp(y[s, 0])] -= ws
                wl -= ws
    elif sign > 0.0:
        for p in range(lo, hi):
            s = samples[p]
            ws = w[s]
            for o in range(n_outputs):
                v = y[s, o]
                if is_clf:
                    sl[o * K + np.intp(v)] += ws
                else:
                    sl[o] += ws * v
                    sl[n_outputs + o] += ws * v * v
            wl += ws
    else:
        for p in range(hi - 1, lo - 1, -1):
            s = samples[p]
            ws = -w[s]
            for o in range(n_outputs):
                v = y[s, o]
                if is_clf:
                    sl[o * K + np.intp(v)] += ws
                else:
                    sl[o] += ws * v
                    sl[n_outputs + o] += ws * v * v
            wl += ws
    return wl


@njit(cache=True, nogil=True, inline="always")
def left_stats(y, w, samples, sl, rule, node, pos):
    """``sl`` = the statistics of ``samples[a:pos]``; returns their weight."""
    fill(sl, 0.0)
    return move_left(sl, 0.0, node.a, pos, node.b, samples, y, w, node.stats, node.wn,
                     rule.crit, rule.n_outputs, rule.K)


@njit(cache=True, nogil=True, _nrt=False)
def children_impurity(y, w, samples, sl, sr, rule, node, pos, wl, wr, abs_work):
    """Impurities of ``samples[a:pos]`` and ``samples[pos:b]`` from their statistics (the
    samples themselves for absolute error and Poisson)."""
    a = node.a
    b = node.b
    n_outputs = rule.n_outputs
    crit = rule.crit
    if abs_work is not None:
        il = _c.abs_impurity(y, w, samples, a, pos, n_outputs, abs_work.yv, abs_work.wv)
        ir = _c.abs_impurity(y, w, samples, pos, b, n_outputs, abs_work.yv, abs_work.wv)
    elif _c.is_classification(crit):
        il = _c.stats_impurity(sl, wl, crit, n_outputs, rule.K, rule.n_classes)
        ir = _c.stats_impurity(sr, wr, crit, n_outputs, rule.K, rule.n_classes)
    elif crit == _c.POISSON:
        il = _c.poisson_loss(y, w, samples, a, pos, n_outputs, sl, wl)
        ir = _c.poisson_loss(y, w, samples, pos, b, n_outputs, sr, wr)
    else:
        il, ir = _mse_children(y, w, samples, sl, sr, node.stats, a, pos, n_outputs, wl, wr)
    return il, ir


@njit(cache=True, nogil=True, _nrt=False)
def _mse_children(y, w, samples, sl, sr, stats, a, pos, n_outputs, wl, wr):
    """The squared-error impurities of :func:`children_impurity` (``stats`` the node's)."""
    sq_left = 0.0
    for p in range(a, pos):
        s = samples[p]
        for o in range(n_outputs):
            v = y[s, o]
            sq_left += w[s] * v * v
    sq_total = 0.0
    for o in range(n_outputs):
        sq_total += stats[n_outputs + o]
    il = sq_left / wl
    ir = (sq_total - sq_left) / wr
    for o in range(n_outputs):
        ml = sl[o] / wl
        mr = sr[o] / wr
        il -= ml * ml
        ir -= mr * mr
    return il / n_outputs, ir / n_outputs


@njit(cache=True, nogil=True, inline="always")
def gini_proxy(sl, parent_stats, nc0, wl, wr):
    """Gini impurity proxy of a split from the left class sums ``sl`` (one output):
    ``_c.gini`` on both children, the same operations in the same order."""
    sq_l = 0.0
    sq_r = 0.0
    for k in range(nc0):
        v = sl[k]
        sq_l += v * v
        u = parent_stats[k] - v
        sq_r += u * u
    return -wr * (1.0 - sq_r / (wr * wr)) - wl * (1.0 - sq_l / (wl * wl))


@njit(cache=True, nogil=True, inline="always")
def allowed(rule, node, cst, sl, wl, wr):
    """Whether a candidate respects the monotonicity constraint ``cst`` of its feature."""
    return cst == 0 or _c.monotone_ok(sl, node.stats, wl, wr, cst, node.lower, node.upper)


@njit(cache=True, nogil=True, inline="always")
def feature_constraint(rule, f):
    """The monotonicity constraint of feature ``f`` (0 when there are none)."""
    return rule.mono[f] if rule.use_mono else np.intp(0)


@njit(cache=True, nogil=True, inline="always")
def no_split(node, n_const):
    """The :data:`Split` of a node with no valid split."""
    return Split(node.b, np.intp(-2), -2.0, 0.0, 0.0, 0.0, n_const, np.intp(0), 0.0)


@njit(cache=True, nogil=True, inline="always")
def finish_split(y, w, samples, sl, sr, rule, node, abs_work, pos, f, thr, ml, n_const, wl):
    """The :data:`Split` putting ``samples[a:pos]`` (statistics ``sl``, weight ``wl``)
    left: children's impurities (``sr`` the right statistics), the weighted impurity
    decrease and the middle value (the mean of the children's first-statistic values,
    which bounds the children under a constraint)."""
    wn = node.wn
    wr = wn - wl
    for k in range(rule.S):
        sr[k] = node.stats[k] - sl[k]
    il, ir = children_impurity(y, w, samples, sl, sr, rule, node, pos, wl, wr, abs_work)
    improvement = (wn / rule.wn_total) * (node.imp - wr / wn * ir - wl / wn * il)
    middle = sl[0] / (2.0 * wl) + sr[0] / (2.0 * wr)
    return Split(pos, f, thr, improvement, il, ir, n_const, np.intp(ml), middle)


@njit(cache=True, nogil=True, inline="always")
def larger_side(node, pos):
    """1 when ``samples[a:pos]`` is the larger child (missing values at prediction go
    there when none were seen at the node), else 0."""
    return np.intp(1) if pos - node.a > node.b - pos else np.intp(0)


# ---------------------------------------------------------------- sparse columns

# per stored entry of a column, a scan of its entries costs about this many times less
# than one binary search per node sample
SPARSE_SCAN_RATIO = 8


@njit(cache=True, nogil=True, _nrt=False)
def index_node(samples, a, b, pos_of):
    """``pos_of[row]`` = the position of ``row`` in ``samples[a:b]``, for the node's rows;
    kept up to date by the sparse arrangement's swaps (:func:`_arrange_sorted`)."""
    for i in range(a, b):
        pos_of[samples[i]] = i


@njit(cache=True, nogil=True, inline="always")
def _in_node(pos_of, samples, a, b, r):
    q = pos_of[r]
    return q >= a and q < b and samples[q] == r


@njit(cache=True, nogil=True, _nrt=False)
def node_nonzeros(indptr, indices, data, f, samples, a, b, pos_of, nz_rows, nz_vals):
    """The stored entries of column ``f`` at the node's rows, into ``nz_rows[:cnt]`` /
    ``nz_vals[:cnt]``; returns ``cnt``. Scans the column's entries against the node's
    positions when the column is short against the node, else binary-searches each node
    sample's row in the column's sorted indices."""
    start = indptr[f]
    stop = indptr[f + 1]
    cnt = 0
    if stop - start <= SPARSE_SCAN_RATIO * (b - a):
        for t in range(start, stop):
            r = indices[t]
            if _in_node(pos_of, samples, a, b, r):
                nz_rows[cnt] = r
                nz_vals[cnt] = data[t]
                cnt += 1
    elif stop > start:
        column = indices[start:stop]
        for i in range(a, b):
            r = samples[i]
            k = np.searchsorted(column, r)
            if k < column.shape[0] and column[k] == r:
                nz_rows[cnt] = r
                nz_vals[cnt] = data[start + k]
                cnt += 1
    return cnt


@njit(cache=True, nogil=True)
def value_sorted_columns(indptr, indices, data):
    """The CSC entries of each column reordered by increasing value (ties in row
    order): (rows intp, values float32). A node whose rows hold a good part of a column
    then finds its entries sorted by one scan (:func:`node_nonzeros_sorted`)."""
    rows = np.empty_like(indices)
    vals = np.empty_like(data)
    for f in range(indptr.shape[0] - 1):
        lo = indptr[f]
        hi = indptr[f + 1]
        order = np.argsort(data[lo:hi], kind="mergesort")
        for t in range(hi - lo):
            rows[lo + t] = indices[lo + order[t]]
            vals[lo + t] = data[lo + order[t]]
    return rows, vals


@njit(cache=True, nogil=True, _nrt=False)
def node_nonzeros_sorted(indptr, rows, vals, f, samples, a, b, pos_of, nz_rows, nz_vals):
    """:func:`node_nonzeros`'s scan of column ``f`` against the node's positions over
    the column's value-sorted entries (``rows``, ``vals``): the node's entries come out
    in increasing value order. Returns ``cnt``."""
    cnt = 0
    for t in range(indptr[f], indptr[f + 1]):
        r = rows[t]
        if _in_node(pos_of, samples, a, b, r):
            nz_rows[cnt] = r
            nz_vals[cnt] = vals[t]
            cnt += 1
    return cnt


@njit(cache=True, nogil=True, _nrt=False)
def group_node_entries(by_rows, samples, a, b, n_try, nnz_total):
    """Group the stored entries of the node's rows ``samples[a:b]`` by feature (a
    counting sort through ``by_rows``, see :data:`ByRows`) when that costs less than
    the columns' scans of :func:`node_nonzeros`; returns whether it did.

    The scans read about ``n_try / p`` of X's ``nnz_total`` stored entries (more when
    features turn out constant); the grouping reads the node's entries twice and
    the p offsets twice. Deep in a tree that tries most features, the node's rows
    hold a small part of X's entries and the grouping wins by that factor."""
    ip = by_rows.indptr
    start = by_rows.start
    p = start.shape[0] - 1
    nnz_node = 0
    for i in range(a, b):
        r = samples[i]
        nnz_node += ip[r + 1] - ip[r]
    if (2 * nnz_node + 2 * p) * p >= n_try * nnz_total:
        return False
    feats = by_rows.indices
    for f in range(p + 1):
        start[f] = 0
    for i in range(a, b):
        r = samples[i]
        for q in range(np.uintp(ip[r]), np.uintp(ip[r + 1])):
            start[np.uintp(feats[q]) + 1] += 1
    for f in range(p):
        start[f + 1] += start[f]
    # start[f] is then the next free slot of feature f; afterwards it is its end
    rows = by_rows.rows
    vals = by_rows.vals
    data = by_rows.data
    for i in range(a, b):
        r = samples[i]
        for q in range(np.uintp(ip[r]), np.uintp(ip[r + 1])):
            f = np.uintp(feats[q])
            t = start[f]
            rows[t] = r
            vals[t] = data[q]
            start[f] = t + 1
    for f in range(p, 0, -1):
        start[f] = start[f - 1]
    start[0] = 0
    return True


@njit(cache=True, nogil=True, _nrt=False)
def column_at_node(csc, by_rows, by_value, f, samples, a, b, grouped):
    """The stored entries of column ``f`` at the node into ``csc.nz_rows[:cnt]`` /
    ``csc.nz_vals[:cnt]``; returns ``(cnt, in_value_order)``. From the node's grouped
    entries when ``grouped`` (:func:`group_node_entries` ran for this node), else from
    the column: its value-sorted copy when it has one and the column is short against
    the node (:func:`node_nonzeros_sorted`), else :func:`node_nonzeros`. ``by_rows`` and
    ``by_value`` are ``csc.by_rows`` and ``csc.by_value``, passed apart so that numba
    leaves their paths out when they are None."""
    if by_rows is None or not grouped:
        if by_value is not None:
            if csc.indptr[f + 1] - csc.indptr[f] <= SPARSE_SCAN_RATIO * (b - a):
                return node_nonzeros_sorted(csc.indptr, by_value[0], by_value[1], f, samples,
                                            a, b, csc.pos, csc.nz_rows, csc.nz_vals), True
        return node_nonzeros(csc.indptr, csc.indices, csc.data, f, samples, a, b, csc.pos,
                             csc.nz_rows, csc.nz_vals), False
    lo = by_rows.start[f]
    hi = by_rows.start[f + 1]
    nz_rows = csc.nz_rows
    nz_vals = csc.nz_vals
    for t in range(lo, hi):
        nz_rows[t - lo] = by_rows.rows[t]
        nz_vals[t - lo] = by_rows.vals[t]
    return hi - lo, False


@njit(cache=True, nogil=True, _nrt=False)
def group_if_cheaper(by_rows, samples, a, b, n_try, nnz_total):
    """:func:`group_node_entries` for the node when ``by_rows`` (``Csc.by_rows``) is
    given (numba leaves the call out when it is None)."""
    if by_rows is None:
        return False
    else:
        return group_node_entries(by_rows, samples, a, b, n_try, nnz_total)


@njit(cache=True, nogil=True, inline="always")
def _place(samples, vals, pos_of, r, v, k):
    """Swap row ``r`` into position ``k`` (value ``v``), keeping ``pos_of`` right."""
    q = pos_of[r]
    other = samples[k]
    samples[q] = other
    pos_of[other] = q
    vals[q] = vals[k]
    samples[k] = r
    pos_of[r] = k
    vals[k] = v


@njit(cache=True, nogil=True, _nrt=False)
def arrange_nonzeros(cnt, nz_rows, nz_vals, samples, a, b, vals, pos_of, sort,
                     in_order=False):
    """Arrange ``samples[a:b]`` by a sparse column's values touching its stored entries
    only (as scikit-learn's sparse splitter): negative values swapped to the front,
    the others (stored zeros included) to the back, each part sorted when ``sort``
    (already, when the entries come ``in_order`` of value: the non-negative ones are
    then placed from the largest down); the node's implicit zeros stay in between, in
    any order, with ``vals`` set at the ends of their run only. Returns the run
    ``(z_lo, z_hi)``."""
    n_neg = 0
    for t in range(cnt):
        if nz_vals[t] < 0.0:
            _place(samples, vals, pos_of, nz_rows[t], nz_vals[t], a + n_neg)
            n_neg += 1
    n_pos = 0
    for u in range(cnt):
        t = cnt - 1 - u if in_order else u
        if nz_vals[t] >= 0.0:
            n_pos += 1
            _place(samples, vals, pos_of, nz_rows[t], nz_vals[t], b - n_pos)
    z_lo = a + n_neg
    z_hi = b - n_pos
    if in_order:
        sort = False
    if sort and n_neg > 1:
        sort_pairs(vals, samples, a, z_lo)
        index_node(samples, a, z_lo, pos_of)
    if sort and n_pos > 1:
        sort_pairs(vals, samples, z_hi, b)
        index_node(samples, z_hi, b, pos_of)
    if z_hi > z_lo:
        vals[z_lo] = 0.0
        vals[z_hi - 1] = 0.0
    return z_lo, z_hi


@njit(cache=True, nogil=True, _nrt=False)
def _partition_indexed(samples, vals, pos_of, lo, hi, thr):
    """Hoare partition of ``samples[lo:hi]`` on ``vals <= thr`` keeping ``pos_of`` right;
    returns the split position."""
    while lo < hi:
        if vals[lo] <= thr:
            lo += 1
        else:
            hi -= 1
            r = samples[lo]
            samples[lo] = samples[hi]
            samples[hi] = r
            pos_of[samples[lo]] = lo
            pos_of[r] = hi
            vals[lo], vals[hi] = vals[hi], vals[lo]
    return hi


@njit(cache=True, nogil=True, _nrt=False)
def split_arranged(samples, vals, pos_of, a, b, z_lo, z_hi, thr):
    """Split position of ``samples[a:b]`` arranged by :func:`arrange_nonzeros` (zeros in
    ``[z_lo, z_hi)``) on ``value <= thr``: only the stored values on the threshold's side
    of zero move."""
    if thr < 0.0:
        return _partition_indexed(samples, vals, pos_of, a, z_lo, thr)
    return _partition_indexed(samples, vals, pos_of, z_hi, b, thr)
