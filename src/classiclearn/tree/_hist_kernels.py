"""Histogram splitter for CART trees: splits searched over per-node bin histograms.

Features are binned once (``_binning``) into at most 255 bins, stored row-major
as uint8 ``Xb`` (n_samples, n_features). A node's histogram ``H`` (n_features,
max_bins, 2 + S) holds per bin the sample count, the weight and the node
statistics of ``_criteria_kernels`` (class counts, or sums and sums of
squares). The split search scans the bins (cost O(bins) per feature instead of
O(n log n)); after a split the smaller child's histogram is built from its
samples and the larger one's is the parent's minus it (the subtraction trick),
so each level costs about half a pass over the data.

Output arrays are those of ``_build_kernels.build_tree``; thresholds are the
bins' upper edges, so the tree predicts raw (unbinned) data.
"""

import numpy as np
from numba import njit

from . import _build_kernels as _bk
from . import _criteria_kernels as _c
from ._util_kernels import rand_int

EPSILON = np.finfo(np.float64).eps
# nodes smaller than this are split exactly (sorting raw values is cheaper than a
# histogram of n_features x max_bins cells, and exact)
HYBRID_MIN = 1024


@njit(cache=True, nogil=True)
def _fill_hist(Xb, n_bins, y, w, samples, a, b, crit, n_outputs, K, H):
    p = Xb.shape[1]
    for f in range(p):
        H[f, : n_bins[f]] = 0.0
    is_clf = crit < 10
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


@njit(cache=True, nogil=True)
def _proxy(sl, sr, wl, wr, crit, n_outputs, K, n_classes):
    if crit == _c.GINI:
        return -wr * _c.gini(sr, wr, n_outputs, K, n_classes) - wl * _c.gini(
            sl, wl, n_outputs, K, n_classes)
    if crit == _c.ENTROPY:
        return -wr * _c.entropy(sr, wr, n_outputs, K, n_classes) - wl * _c.entropy(
            sl, wl, n_outputs, K, n_classes)
    if crit == _c.MISCLASSIFICATION:
        return -wr * _c.misclassification(sr, wr, n_outputs, K, n_classes) - wl * (
            _c.misclassification(sl, wl, n_outputs, K, n_classes))
    if crit == _c.FRIEDMAN_MSE:
        return _c.friedman_proxy(sl, sr, wl, wr, n_outputs)
    return _c.mse_proxy(sl, sr, wl, wr, n_outputs)


@njit(cache=True, nogil=True)
def _hist_split(H, n_bins, edges, parent_stats, wn, n_node, wn_total, imp_parent, crit,
                splitter, n_outputs, K, n_classes, max_features, min_samples_leaf,
                min_weight_leaf, rng, features, sl, sr):
    """Best (feature, bin) split from the node histogram.

    Returns (feature, bin, threshold, improvement, impurity_left, impurity_right)
    with feature -1 when no valid split exists.
    """
    p = H.shape[0]
    S = sl.shape[0]
    best_proxy = -np.inf
    best_f = -1
    best_bin = -1
    n_visited = 0
    n_found = 0
    f_i = p
    while f_i > n_found and (n_visited < max_features or n_visited <= n_found):
        n_visited += 1
        f_j = rand_int(rng, n_found, f_i)
        f = features[f_j]
        nb = n_bins[f]
        lo_bin = -1
        hi_bin = -1
        for bb in range(nb):
            if H[f, bb, 0] > 0.0:
                if lo_bin < 0:
                    lo_bin = bb
                hi_bin = bb
        if lo_bin == hi_bin:
            features[f_j], features[n_found] = features[n_found], features[f_j]
            n_found += 1
            continue
        f_i -= 1
        features[f_i], features[f_j] = features[f_j], features[f_i]
        if splitter == 1:
            first = rand_int(rng, lo_bin, hi_bin)
            last = first + 1
        else:
            first = lo_bin
            last = hi_bin
        sl[:] = 0.0
        wl = 0.0
        nl = 0.0
        for bb in range(lo_bin, first):
            h = H[f, bb]
            nl += h[0]
            wl += h[1]
            for k in range(S):
                sl[k] += h[2 + k]
        for bb in range(first, last):
            h = H[f, bb]
            nl += h[0]
            wl += h[1]
            for k in range(S):
                sl[k] += h[2 + k]
            if h[0] == 0.0:
                continue
            nr = n_node - nl
            if nl < min_samples_leaf or nr < min_samples_leaf:
                continue
            wr = wn - wl
            if wl < min_weight_leaf or wr < min_weight_leaf:
                continue
            for k in range(S):
                sr[k] = parent_stats[k] - sl[k]
            proxy = _proxy(sl, sr, wl, wr, crit, n_outputs, K, n_classes)
            if proxy > best_proxy:
                best_proxy = proxy
                best_f = f
                best_bin = bb
    if best_f < 0:
        return -1, -1, 0.0, 0.0, 0.0, 0.0
    sl[:] = 0.0
    wl = 0.0
    for bb in range(best_bin + 1):
        h = H[best_f, bb]
        wl += h[1]
        for k in range(S):
            sl[k] += h[2 + k]
    wr = wn - wl
    for k in range(S):
        sr[k] = parent_stats[k] - sl[k]
    il = _c.stats_impurity(sl, wl, crit, n_outputs, K, n_classes)
    ir = _c.stats_impurity(sr, wr, crit, n_outputs, K, n_classes)
    improvement = (wn / wn_total) * (imp_parent - wr / wn * ir - wl / wn * il)
    return best_f, best_bin, edges[best_f, best_bin], improvement, il, ir


@njit(cache=True, nogil=True)
def _take(pool, free, n_free):
    """Index of a free histogram buffer (growing the pool when none is left)."""
    if n_free == 0:
        cap = pool.shape[0]
        bigger = np.empty((2 * cap, pool.shape[1], pool.shape[2], pool.shape[3]))
        bigger[:cap] = pool
        free_big = np.empty(2 * cap, dtype=np.intp)
        for i in range(cap):
            free_big[i] = cap + i
        return bigger, free_big, cap, True
    return pool, free, n_free, False


@njit(cache=True, nogil=True)
def build_hist_tree(Xb, edges, n_bins, Xt, y, w, samples, n_classes, crit, splitter,
                    max_features, max_depth, min_samples_leaf, min_samples_split,
                    min_weight_leaf, min_impurity_decrease, max_leaf_nodes, seed):
    """Grow one tree with the histogram splitter (depth-first, or best-first when
    ``max_leaf_nodes > 0``). ``Xb`` uint8 (n_samples, n_features) C-contiguous,
    ``edges`` float64 (n_features, max_bins), ``n_bins`` intp; ``Xt`` the float32
    transposed raw data, used to split nodes smaller than ``HYBRID_MIN`` exactly.
    Thread-safe.

    Returns (inodes, fnodes, value, max_depth_reached) as ``build_tree``.
    """
    n_outputs = y.shape[1]
    p = Xb.shape[1]
    B = edges.shape[1]
    K = 1
    for o in range(n_outputs):
        if n_classes[o] > K:
            K = n_classes[o]
    is_clf = crit < 10
    S = n_outputs * K if is_clf else 2 * n_outputs
    V = n_outputs * K
    samples = samples.copy()
    n = samples.shape[0]
    rng = np.empty(1, dtype=np.uint64)
    rng[0] = seed
    features = np.arange(p)
    stats = np.empty(S)
    sl = np.empty(S)
    sr = np.empty(S)
    wn_total = 0.0
    for i in range(n):
        wn_total += w[samples[i]]
    const_features = np.arange(p)
    vals = np.empty(n, dtype=Xt.dtype)
    scratch = np.empty((8, 1))
    r = n if n >= _bk.RADIX_MIN else 1
    rkeys = np.empty((2, r), dtype=np.uint32)
    ridx = np.empty(r, dtype=np.intp)
    rcnt = np.empty((4, 256), dtype=np.intp)
    pool = np.empty((8, p, B, S + 2))
    free = np.arange(8)[::-1].copy()
    n_free = 8

    cap = 64
    inodes = np.empty((cap, 4), dtype=np.intp)
    fnodes = np.empty((cap, 3))
    value = np.empty((cap, V))
    count = 0
    depth_reached = 0
    best_first = max_leaf_nodes > 0
    max_split_nodes = max_leaf_nodes - 1

    # records: start, end, depth, parent, is_left, hist id ; impurity
    rec_i = np.empty((64, 6), dtype=np.intp)
    rec_f = np.empty((64, 2))  # impurity, priority
    n_rec = 1
    rec_i[0, 0] = 0
    rec_i[0, 1] = n
    rec_i[0, 2] = 0
    rec_i[0, 3] = -1
    rec_i[0, 4] = 0
    if n >= HYBRID_MIN:
        n_free -= 1
        rec_i[0, 5] = free[n_free]
        _fill_hist(Xb, n_bins, y, w, samples, 0, n, crit, n_outputs, K, pool[rec_i[0, 5]])
    else:
        rec_i[0, 5] = -1
    rec_f[0, 0] = -1.0
    rec_f[0, 1] = 0.0
    while n_rec > 0:
        # depth-first: last record; best-first: record with the largest priority
        r = n_rec - 1
        if best_first:
            for j in range(n_rec - 1):
                if rec_f[j, 1] > rec_f[r, 1]:
                    r = j
        a = rec_i[r, 0]
        b = rec_i[r, 1]
        depth = rec_i[r, 2]
        parent = rec_i[r, 3]
        is_left = rec_i[r, 4]
        hid = rec_i[r, 5]
        imp = rec_f[r, 0]
        n_rec -= 1
        rec_i[r] = rec_i[n_rec]
        rec_f[r] = rec_f[n_rec]

        if count >= cap:
            cap *= 2
            new_i = np.empty((cap, 4), dtype=np.intp)
            new_f = np.empty((cap, 3))
            new_v = np.empty((cap, V))
            new_i[:count] = inodes[:count]
            new_f[:count] = fnodes[:count]
            new_v[:count] = value[:count]
            inodes = new_i
            fnodes = new_f
            value = new_v
        node = count
        count += 1
        if parent >= 0:
            if is_left:
                inodes[parent, 0] = node
            else:
                inodes[parent, 1] = node
        if depth > depth_reached:
            depth_reached = depth
        wn = _c.node_stats(y, w, samples, a, b, crit, n_outputs, K, stats)
        if is_clf:
            for k in range(V):
                value[node, k] = stats[k]
        else:
            for o in range(n_outputs):
                value[node, o] = stats[o] / wn
        if imp < 0.0:
            imp = _c.stats_impurity(stats, wn, crit, n_outputs, K, n_classes)
        nn = b - a
        inodes[node, 0] = -1
        inodes[node, 1] = -1
        inodes[node, 2] = -2
        inodes[node, 3] = nn
        fnodes[node, 0] = -2.0
        fnodes[node, 1] = imp
        fnodes[node, 2] = wn
        is_leaf = (
            depth >= max_depth
            or nn < min_samples_split
            or nn < 2 * min_samples_leaf
            or wn < 2.0 * min_weight_leaf
            or imp <= EPSILON
            or (best_first and max_split_nodes <= 0)
        )
        f = -1
        pos = b
        if not is_leaf and hid < 0:
            pos, f, thr, improvement, il, ir, _ = _bk._split_node(
                Xt, y, w, samples, a, b, wn, wn_total, imp, stats, crit, splitter, n_outputs,
                K, n_classes, max_features, min_samples_leaf, min_weight_leaf, rng, features,
                const_features, 0, vals, sl, sr, scratch, rkeys, ridx, rcnt)
            if pos >= b or improvement + EPSILON < min_impurity_decrease:
                is_leaf = True
        elif not is_leaf:
            f, bn, thr, improvement, il, ir = _hist_split(
                pool[hid], n_bins, edges, stats, wn, float(nn), wn_total, imp, crit, splitter,
                n_outputs, K, n_classes, max_features, min_samples_leaf, min_weight_leaf, rng,
                features, sl, sr)
            if f < 0 or improvement + EPSILON < min_impurity_decrease:
                is_leaf = True
        if is_leaf:
            if hid >= 0:
                free[n_free] = hid
                n_free += 1
            continue
        if best_first:
            max_split_nodes -= 1
        inodes[node, 2] = f
        fnodes[node, 0] = thr
        left_h = -1
        right_h = -1
        if hid >= 0:
            lo = a
            hi = b
            while lo < hi:
                if Xb[samples[lo], f] <= bn:
                    lo += 1
                else:
                    hi -= 1
                    samples[lo], samples[hi] = samples[hi], samples[lo]
            pos = hi
            need_l = pos - a >= HYBRID_MIN
            need_r = b - pos >= HYBRID_MIN
            if need_l or need_r:
                # smaller child from its samples, larger by subtraction in the parent's buffer
                pool, free, n_free, grown = _take(pool, free, n_free)
                n_free -= 1
                small = free[n_free]
                if pos - a <= b - pos:
                    _fill_hist(Xb, n_bins, y, w, samples, a, pos, crit, n_outputs, K,
                               pool[small])
                    left_h = small
                    right_h = hid
                else:
                    _fill_hist(Xb, n_bins, y, w, samples, pos, b, crit, n_outputs, K,
                               pool[small])
                    left_h = hid
                    right_h = small
                big = pool[hid]
                sm = pool[small]
                for ff in range(p):
                    for bb in range(n_bins[ff]):
                        for k in range(S + 2):
                            big[ff, bb, k] -= sm[ff, bb, k]
                if not need_l:
                    free[n_free] = left_h
                    n_free += 1
                    left_h = -1
                if not need_r:
                    free[n_free] = right_h
                    n_free += 1
                    right_h = -1
            else:
                free[n_free] = hid
                n_free += 1
        if n_rec + 2 > rec_i.shape[0]:
            bi = np.empty((2 * rec_i.shape[0], 6), dtype=np.intp)
            bf = np.empty((2 * rec_i.shape[0], 2))
            bi[:n_rec] = rec_i[:n_rec]
            bf[:n_rec] = rec_f[:n_rec]
            rec_i = bi
            rec_f = bf
        # right pushed first: depth-first pops the left child next
        for side in range(2):
            rec_i[n_rec, 0] = pos if side == 0 else a
            rec_i[n_rec, 1] = b if side == 0 else pos
            rec_i[n_rec, 2] = depth + 1
            rec_i[n_rec, 3] = node
            rec_i[n_rec, 4] = side
            rec_i[n_rec, 5] = right_h if side == 0 else left_h
            rec_f[n_rec, 0] = ir if side == 0 else il
            rec_f[n_rec, 1] = -float(count + n_rec)
            n_rec += 1
        if best_first:
            # priority of a child: the improvement of its own best split
            for j in range(n_rec - 2, n_rec):
                ca = rec_i[j, 0]
                cb = rec_i[j, 1]
                cw = _c.node_stats(y, w, samples, ca, cb, crit, n_outputs, K, stats)
                pr = -1.0
                cn = cb - ca
                if (rec_i[j, 2] < max_depth and cn >= min_samples_split
                        and cn >= 2 * min_samples_leaf and cw >= 2.0 * min_weight_leaf
                        and rec_f[j, 0] > EPSILON):
                    state = rng[0]
                    if rec_i[j, 5] >= 0:
                        ff, bn2, t2, imp2, l2, r2 = _hist_split(
                            pool[rec_i[j, 5]], n_bins, edges, stats, cw, float(cn), wn_total,
                            rec_f[j, 0], crit, splitter, n_outputs, K, n_classes,
                            max_features, min_samples_leaf, min_weight_leaf, rng, features,
                            sl, sr)
                    else:
                        p2, ff, t2, imp2, l2, r2, _ = _bk._split_node(
                            Xt, y, w, samples, ca, cb, cw, wn_total, rec_f[j, 0], stats, crit,
                            splitter, n_outputs, K, n_classes, max_features, min_samples_leaf,
                            min_weight_leaf, rng, features, const_features, 0, vals, sl, sr,
                            scratch, rkeys, ridx, rcnt)
                    rng[0] = state
                    if ff >= 0:
                        pr = imp2
                rec_f[j, 1] = pr
    return inodes[:count].copy(), fnodes[:count].copy(), value[:count].copy(), depth_reached
