"""Histogram splitter for CART trees: splits searched over per-node bin histograms.

Features are binned once (``_binning``) into at most 255 bins, stored row-major
as uint8 ``Xb`` (n_samples, n_features). A node's histogram ``H`` (n_features,
max_bins, 2 + S) holds per bin the sample count, the weight and the node
statistics of ``_criteria_kernels`` (class counts, or sums and sums of
squares). The split search scans the bins (cost O(bins) per feature instead of
O(n log n)); after a split the smaller child's histogram is built from its
samples and the larger one's is the parent's minus it (the subtraction trick),
so each level costs about half a pass over the data.

The tree growth itself is ``_build_kernels.build_tree`` (one builder for the
exact and histogram splitters); thresholds are the bins' upper edges, so the
tree predicts raw (unbinned) data.
"""

from collections import namedtuple

import numpy as np

from .._kernels.jit import njit
from . import _criteria_kernels as _c
from ._split_kernels import Split, trailing_nan
from ._util_kernels import rand_int

# X binned (uint8, n_samples x n_features), each feature's bin upper edges (float64,
# n_features x 256) and number of bins (intp), as ``_binning`` makes them
Bins = namedtuple("Bins", ["Xb", "edges", "n_bins"])
# histogram buffers (buffer, feature, bin, (count, weight, statistics)) and the ids of the
# free ones in ``free[:n_free]``
HistPool = namedtuple("HistPool", ["pool", "free", "n_free"])

EPSILON = np.finfo(np.float64).eps
# nodes smaller than this are split exactly (sorting raw values is cheaper than a
# histogram of n_features x max_bins cells, and exact)
HYBRID_MIN = 128


@njit(cache=True, nogil=True, _nrt=False)
def fill_hist(bins, data, rule, samples, a, b, H):
    """``H`` = the histogram of ``samples[a:b]`` (arguments: the named tuples of
    ``_split_kernels``)."""
    Xb = bins.Xb
    n_bins = bins.n_bins
    y = data.y
    w = data.w
    n_outputs = rule.n_outputs
    K = rule.K
    p = Xb.shape[1]
    # bins 0 .. n_bins[f] - 1 hold values, bin n_bins[f] the missing ones
    for f in range(p):
        for bb in range(n_bins[f] + 1):
            for k in range(H.shape[2]):
                H[f, bb, k] = 0.0
    is_clf = _c.is_classification(rule.crit)
    for i in range(a, b):
        s = samples[i]
        ws = w[s]
        for f in range(p):
            h = H[f, Xb[s, f]]
            h[0] += 1.0
            h[1] += ws
            if is_clf:
                for o in range(n_outputs):
                    h[2 + o * K + np.intp(y[s, o])] += ws
            else:
                for o in range(n_outputs):
                    v = y[s, o]
                    h[2 + o] += ws * v
                    h[2 + n_outputs + o] += ws * v * v


@njit(cache=True, nogil=True, inline="always")
def _add_bin(h, sl, S):
    for k in range(S):
        sl[k] += h[2 + k]
    return h[0], h[1]


@njit(cache=True, nogil=True, _nrt=False)
def hist_split(H, bins, rule, node, work):
    """Best (feature, bin) split from the node histogram ``H`` (arguments: the named
    tuples of ``_split_kernels``).

    Monotonicity constraints (``rule.mono``, the node's value bounds ``lower`` /
    ``upper``) reject candidates as the exact splitters do.

    Bin ``n_bins[f]`` of feature ``f`` holds its missing values (NaN). With some
    at the node, the best splitter scans the bins with them on the right (the
    last candidate sends exactly the missing values right, threshold +inf), then
    on the left. Without, missing values at prediction follow the larger child. (The
    random splitter needs no histogram: it runs on the bins themselves, see
    ``_classes.binned_inputs``.)

    Returns (split, bin): a ``Split`` (its ``pos`` the node's end: the samples are not
    partitioned; feature -1 when no valid split exists) and the last bin going left.
    """
    n_bins = bins.n_bins
    edges = bins.edges
    parent_stats = node.stats
    wn = node.wn
    n_node = float(node.b - node.a)
    crit = rule.crit
    n_outputs = rule.n_outputs
    K = rule.K
    n_classes = rule.n_classes
    max_features = rule.max_features
    min_samples_leaf = rule.min_samples_leaf
    min_weight_leaf = rule.min_weight_leaf
    mono = rule.mono
    use_mono = rule.use_mono
    lower = node.lower
    upper = node.upper
    rng = work.rng
    features = work.features
    sl = work.sl
    sr = work.sr
    p = H.shape[0]
    S = sl.shape[0]
    mse_one = crit == _c.SQUARED_ERROR and n_outputs == 1
    best_proxy = -np.inf
    best_f = -1
    best_bin = -1
    best_ml = False
    n_visited = 0
    n_found = np.intp(0)
    f_i = p
    while f_i > n_found and (n_visited < max_features or n_visited <= n_found):
        n_visited += 1
        f_j = rand_int(rng, n_found, f_i)
        f = features[f_j]
        nb = n_bins[f]
        nm = H[f, nb, 0]
        lo_bin = np.intp(-1)
        hi_bin = np.intp(-1)
        for bb in range(nb):
            if H[f, bb, 0] > 0.0:
                if lo_bin < 0:
                    lo_bin = bb
                hi_bin = bb
        if lo_bin < 0 or (lo_bin == hi_bin and nm == 0.0):
            features[f_j], features[n_found] = features[n_found], features[f_j]
            n_found += 1
            continue
        f_i -= 1
        features[f_i], features[f_j] = features[f_j], features[f_i]
        # candidate bins of each pass (missing values right, then left): a split is
        # "bin <= bb" among the non-missing values
        last0 = hi_bin + 1 if nm > 0.0 else hi_bin
        for ps in range(2 if nm > 0.0 else 1):
            ml = ps == 1
            first = lo_bin
            last = min(last0, hi_bin) if ml else last0
            for k in range(S):
                sl[k] = 0.0
            wl = 0.0
            nl = 0.0
            if ml:
                c, ww = _add_bin(H[f, nb], sl, S)
                nl += c
                wl += ww
            for bb in range(lo_bin, first):
                c, ww = _add_bin(H[f, bb], sl, S)
                nl += c
                wl += ww
            for bb in range(first, last):
                h = H[f, bb]
                c, ww = _add_bin(h, sl, S)
                nl += c
                wl += ww
                if c == 0.0:
                    continue
                nr = n_node - nl
                if nl < min_samples_leaf or nr < min_samples_leaf:
                    continue
                wr = wn - wl
                if wl < min_weight_leaf or wr < min_weight_leaf:
                    continue
                if mse_one:
                    # _c.mse_proxy written out (the generic call per bin cost more
                    # than the scan)
                    s_r = parent_stats[0] - sl[0]
                    proxy = sl[0] * sl[0] / wl + s_r * s_r / wr
                else:
                    for k in range(S):
                        sr[k] = parent_stats[k] - sl[k]
                    proxy = _c.proxy_improvement(sl, sr, wl, wr, crit, n_outputs, K,
                                                 n_classes)
                if proxy > best_proxy and (not use_mono or _c.monotone_ok(
                        sl, parent_stats, wl, wr, mono[f], lower, upper)):
                    best_proxy = proxy
                    best_f = f
                    best_bin = bb
                    best_ml = ml if nm > 0.0 else nl > nr
    if best_f < 0:
        return Split(node.b, np.intp(-1), 0.0, 0.0, 0.0, 0.0, np.intp(0), np.intp(0), 0.0), \
            np.intp(-1)
    for k in range(S):
        sl[k] = 0.0
    wl = 0.0
    nb = n_bins[best_f]
    nm = H[best_f, nb, 0]
    if best_ml and nm > 0.0:
        wl += _add_bin(H[best_f, nb], sl, S)[1]
    hi_bin = np.intp(-1)
    for bb in range(best_bin + 1):
        h = H[best_f, bb]
        wl += _add_bin(h, sl, S)[1]
    for bb in range(nb):
        if H[best_f, bb, 0] > 0.0:
            hi_bin = bb
    wr = wn - wl
    for k in range(S):
        sr[k] = parent_stats[k] - sl[k]
    il = _c.stats_impurity(sl, wl, crit, n_outputs, K, n_classes)
    ir = _c.stats_impurity(sr, wr, crit, n_outputs, K, n_classes)
    improvement = (wn / rule.wn_total) * (node.imp - wr / wn * ir - wl / wn * il)
    # every non-missing value left and the missing ones right: threshold +inf
    thr = edges[best_f, best_bin]
    if nm > 0.0 and not best_ml and best_bin == hi_bin:
        thr = np.inf
    middle = sl[0] / (2.0 * wl) + sr[0] / (2.0 * wr)
    return Split(node.b, best_f, thr, improvement, il, ir, np.intp(0),
                 np.intp(1) if best_ml else np.intp(0), middle), best_bin


@njit(cache=True, nogil=True, _nrt=False)
def subtract_hist(big, small, n_bins):
    """``big -= small`` over the used bins (the sibling histogram by subtraction)."""
    for f in range(big.shape[0]):
        for bb in range(n_bins[f] + 1):
            for k in range(big.shape[2]):
                big[f, bb, k] -= small[f, bb, k]


@njit(cache=True, nogil=True, inline="always")
def new_hist_pool(bins, S, n):
    """The histograms' :data:`HistPool` for a tree of ``n`` samples: buffers of
    (n_features, bins, (count, weight, ``S`` statistics)), reused through a free list
    (none without ``bins`` or below ``HYBRID_MIN`` samples)."""
    n_pool = 8 if bins is not None and n >= HYBRID_MIN else 0
    if bins is not None:
        n_cells = np.intp(1)  # the most bins of a feature, its missing-value bin included
        for f in range(bins.n_bins.shape[0]):
            n_cells = max(n_cells, bins.n_bins[f] + 1)
        pool = np.empty((n_pool, bins.Xb.shape[1], n_cells, S + 2))
    else:
        pool = np.empty((n_pool, 1, 1, 1))
    free = np.empty(n_pool, dtype=np.intp)
    for i in range(n_pool):
        free[i] = n_pool - 1 - i
    return HistPool(pool, free, np.intp(n_pool))


@njit(cache=True, nogil=True)
def grown_hist_pool(pool):
    """The :data:`HistPool` of twice the buffers of ``pool``, whose buffers are all in
    use (copied, same ids): the new ones free."""
    pc = pool.shape[0]
    n_new = max(pc, 1)
    bigger = np.empty((pc + n_new, pool.shape[1], pool.shape[2], pool.shape[3]))
    for i in range(pc):
        for ff in range(pool.shape[1]):
            for bb in range(pool.shape[2]):
                for kk in range(pool.shape[3]):
                    bigger[i, ff, bb, kk] = pool[i, ff, bb, kk]
    free = np.empty(pc + n_new, dtype=np.intp)
    for i in range(n_new):
        free[i] = pc + n_new - 1 - i
    return HistPool(bigger, free, np.intp(n_new))


@njit(cache=True, nogil=True, _nrt=False)
def child_hists(bins, data, rule, samples, pool, free, n_free, h, a, pos, b, is_leaf):
    """The histograms of the children ``samples[a:pos]`` and ``samples[pos:b]`` of the
    node whose histogram is ``pool[h]``: the smaller child's from its samples (in a buffer
    taken from ``free[:n_free]``, which must not be empty), the larger's by subtraction in
    the parent's buffer; only for children of at least ``HYBRID_MIN`` samples (the others
    are split exactly), buffers no longer needed going back to the free list. Returns
    (n_free, left id, right id), -1 for none. Allocates nothing."""
    need_l = not is_leaf and pos - a >= HYBRID_MIN
    need_r = not is_leaf and b - pos >= HYBRID_MIN
    if not (need_l or need_r):
        free[n_free] = h
        return n_free + 1, np.intp(-1), np.intp(-1)
    n_free -= 1
    small = free[n_free]
    if pos - a <= b - pos:
        fill_hist(bins, data, rule, samples, a, pos, pool[small])
        left_h = small
        right_h = h
    else:
        fill_hist(bins, data, rule, samples, pos, b, pool[small])
        left_h = h
        right_h = small
    subtract_hist(pool[h], pool[small], bins.n_bins)
    if not need_l:
        free[n_free] = left_h
        n_free += 1
        left_h = np.intp(-1)
    if not need_r:
        free[n_free] = right_h
        n_free += 1
        right_h = np.intp(-1)
    return n_free, left_h, right_h


@njit(cache=True, nogil=True)
def bin_rows(X, edges, nan_bin, out):
    """``out[i, j]`` = the number of ``edges[j]`` below ``X[i, j]`` (``searchsorted``, side
    left): the bin of each value, ``nan_bin[j]`` for NaN. ``X`` float32 (n, p); ``edges``
    float64 (p, 256), each row ascending and padded with +inf; ``out`` uint8 (n, p). A
    branch-free binary search of 8 fixed steps per value."""
    n, p = X.shape
    for i in range(n):
        for j in range(p):
            x = np.float64(X[i, j])
            if x != x:
                out[i, j] = nan_bin[j]
                continue
            lo = np.intp(0)
            step = np.intp(128)
            while step > 0:
                lo += step * np.intp(edges[j, lo + step - 1] < x)
                step >>= 1
            out[i, j] = lo


@njit(cache=True, nogil=True)
def column_edges(cols, max_bins, fractions, edges, n_bins):
    """Bin edges of each row of ``cols`` (float32 (n_features, m), each row ascending, NaN
    last) into ``edges[j]`` (float64, +inf beyond the last edge) and ``n_bins[j]``.

    With at most ``max_bins`` distinct values, the midpoints between consecutive ones;
    otherwise ``np.percentile(col, 100 * fractions, method="midpoint")`` of the non-NaN
    values (numpy's arithmetic), kept once each and below the maximum. A column of NaN
    only has one bin."""
    m = cols.shape[1]
    for j in range(cols.shape[0]):
        col = cols[j]
        nv = m - trailing_nan(col, np.intp(0), m)
        if nv == 0:
            n_bins[j] = 1
            continue
        n_distinct = np.intp(1)
        for i in range(1, nv):
            if col[i] != col[i - 1]:
                n_distinct += 1
        k = np.intp(0)
        if n_distinct <= max_bins:
            prev = np.float64(col[0])
            for i in range(1, nv):
                if col[i] != col[i - 1]:
                    cur = np.float64(col[i])
                    edges[j, k] = prev / 2.0 + cur / 2.0
                    k += 1
                    prev = cur
            n_bins[j] = n_distinct
            continue
        qv = np.empty(fractions.shape[0])
        for i in range(fractions.shape[0]):
            v = (nv - 1) * fractions[i]
            virtual = 0.5 * (np.floor(v) + np.ceil(v))
            lo = np.intp(np.floor(virtual))
            hi = lo + 1
            if virtual >= nv - 1:
                lo = nv - 1
                hi = nv - 1
            a = np.float64(col[lo])
            b = np.float64(col[hi])
            diff = b - a
            qv[i] = b - diff * 0.5 if virtual % 1 != 0 else a + diff * 0.0
        for i in range(1, qv.shape[0]):
            if qv[i] < qv[i - 1]:
                qv.sort()
                break
        top = np.float64(col[nv - 1])
        for i in range(qv.shape[0]):
            if qv[i] < top and (k == 0 or qv[i] != edges[j, k - 1]):
                edges[j, k] = qv[i]
                k += 1
        n_bins[j] = k + 1

