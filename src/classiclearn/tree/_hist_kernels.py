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

import numpy as np
from numba import njit

from . import _criteria_kernels as _c
from ._util_kernels import rand_int

EPSILON = np.finfo(np.float64).eps
# nodes smaller than this are split exactly (sorting raw values is cheaper than a
# histogram of n_features x max_bins cells, and exact)
HYBRID_MIN = 128


@njit(cache=True, nogil=True)
def fill_hist(Xb, n_bins, y, w, samples, a, b, crit, n_outputs, K, H):
    p = Xb.shape[1]
    for f in range(p):
        for bb in range(n_bins[f]):
            for k in range(H.shape[2]):
                H[f, bb, k] = 0.0
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
def hist_split(H, n_bins, edges, parent_stats, wn, n_node, wn_total, imp_parent, crit,
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
    n_found = np.intp(0)
    f_i = p
    while f_i > n_found and (n_visited < max_features or n_visited <= n_found):
        n_visited += 1
        f_j = rand_int(rng, n_found, f_i)
        f = features[f_j]
        nb = n_bins[f]
        lo_bin = np.intp(-1)
        hi_bin = np.intp(-1)
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
        for k in range(S):
            sl[k] = 0.0
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
            proxy = _c.proxy_improvement(sl, sr, wl, wr, crit, n_outputs, K, n_classes)
            if proxy > best_proxy:
                best_proxy = proxy
                best_f = f
                best_bin = bb
    if best_f < 0:
        return -1, -1, 0.0, 0.0, 0.0, 0.0
    for k in range(S):
        sl[k] = 0.0
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
def subtract_hist(big, small, n_bins):
    """``big -= small`` over the used bins (the sibling histogram by subtraction)."""
    for f in range(big.shape[0]):
        for bb in range(n_bins[f]):
            for k in range(big.shape[2]):
                big[f, bb, k] -= small[f, bb, k]


@njit(cache=True, nogil=True)
def bin_rows(X, edges, out):
    """``out[i, j]`` = the number of ``edges[j]`` below ``X[i, j]`` (``searchsorted``, side
    left): the bin of each value. ``X`` float32 (n, p); ``edges`` float64 (p, 256), each
    row ascending and padded with +inf; ``out`` uint8 (n, p). A branch-free binary search
    of 8 fixed steps per value."""
    n, p = X.shape
    for i in range(n):
        for j in range(p):
            x = np.float64(X[i, j])
            lo = np.intp(0)
            step = np.intp(128)
            while step > 0:
                lo += step * np.intp(edges[j, lo + step - 1] < x)
                step >>= 1
            out[i, j] = lo
