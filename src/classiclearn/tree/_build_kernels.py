"""Growing a CART tree (seed 000 §11.1) into flat arrays with numba.

One builder serves classification and regression, depth-first and best-first
growth, and the ``best`` (exact, sorted feature values) and ``random``
(extremely randomized, §11.3: one uniform threshold per candidate feature)
splitters. It releases the GIL, so forests grow trees in Python threads.

Inputs (see :func:`build_tree`): ``Xt`` is the float32 *transposed* data
(n_features, n_samples), C-contiguous, so gathering one feature is a
contiguous read, and ``Xr`` the same data row-major (n_samples, n_features):
the samples of a small node are scattered, and there the row-major layout
gathers all features of a node from a few cache lines (``ROW_GATHER_MAX``); ``y`` float64 (n_samples, n_outputs) holds class indices
(classification) or targets; ``w`` float64 sample weights; ``samples`` the
rows to use (positive weight only).

Sparse X (scikit-learn's sparse splitter): ``Xt`` and ``Xr`` are then empty
placeholders (``Xt`` of shape (n_features, 0)) and the CSC arrays ``sp_indptr``,
``sp_indices`` (sorted within each column) and ``sp_data`` (float32) hold the data;
a node's stored entries of one feature are found from the column
(:func:`_node_nonzeros`), the other values being zeros: a feature with none is
constant at once, and the best splitter moves and sorts the stored values only and
skips the run of zeros in its scan (:func:`_arrange_nonzeros`); the random
splitter partitions the stored values on the threshold's side of zero only, so a feature costs
about its stored entries at the node, not the node's size. Missing values and the histogram
splitter are not used with sparse X.

Output node arrays: ``inodes`` (node_count, 4) intp = left child, right child,
feature, n_node_samples (children -1 and feature -2 at leaves);
``fnodes`` (node_count, 3) float64 = threshold, impurity, weighted samples;
``value`` (node_count, n_outputs * K) = weighted class counts or means /
medians.
"""

import numpy as np

from .._kernels.jit import njit
from . import _criteria_kernels as _c
from . import _hist_kernels as _hk
from ._util_kernels import radix_sort_pairs, rand_int, rand_uniform, sort_pairs

FEATURE_THRESHOLD = 1e-7
EPSILON = np.finfo(np.float64).eps
SPLIT_BEST = 0
SPLIT_RANDOM = 1
RADIX_MIN = 256
ROW_GATHER_MAX = 16384
# numba freezes globals such as _hk.HYBRID_MIN into the compiled builder, and its cache is
# keyed on this file's text only: restate the value here whenever it changes (currently
# HYBRID_MIN = 128) so that cached builders are recompiled.


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


@njit(cache=True, nogil=True)
def fill(a, x):
    """``a[:] = x`` for a 1-D array."""
    for i in range(a.shape[0]):
        a[i] = x


@njit(cache=True, nogil=True)
def _move_left(sl, wl, cur, new_pos, b, samples, y, w, parent_stats, wn, crit, n_outputs, K):
    """Left statistics at ``new_pos`` from those at ``cur``: add ``samples[cur:new_pos]``,
    or, when fewer samples lie right of ``new_pos``, start from the node totals and
    remove ``samples[new_pos:b]`` (scikit-learn's order of summation).

    The per-sample updates are written out here (not calls to ``add_class_sample``):
    numba does not inline them, and a call per sample costs more than the update."""
    is_clf = crit < 10
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


@njit(cache=True, nogil=True)
def _children_impurity(y, w, samples, a, pos, b, sl, sr, wl, wr, parent_stats, crit,
                       n_outputs, K, n_classes, scratch):
    if scratch is not None:  # absolute error (see build_tree's ``abs_scratch``)
        il = _c.abs_impurity(y, w, samples, a, pos, n_outputs, scratch[2], scratch[3])
        ir = _c.abs_impurity(y, w, samples, pos, b, n_outputs, scratch[2], scratch[3])
        return il, ir
    if crit < 10:
        return (_c.stats_impurity(sl, wl, crit, n_outputs, K, n_classes),
                _c.stats_impurity(sr, wr, crit, n_outputs, K, n_classes))
    if crit == _c.POISSON:
        return (_c.poisson_loss(y, w, samples, a, pos, n_outputs, sl, wl),
                _c.poisson_loss(y, w, samples, pos, b, n_outputs, sr, wr))
    sq_left = 0.0
    for p in range(a, pos):
        s = samples[p]
        for o in range(n_outputs):
            v = y[s, o]
            sq_left += w[s] * v * v
    sq_total = 0.0
    for o in range(n_outputs):
        sq_total += parent_stats[n_outputs + o]
    il = sq_left / wl
    ir = (sq_total - sq_left) / wr
    for o in range(n_outputs):
        ml = sl[o] / wl
        mr = sr[o] / wr
        il -= ml * ml
        ir -= mr * mr
    return il / n_outputs, ir / n_outputs



@njit(cache=True, nogil=True, inline="always")
def _gini_proxy(sl, parent_stats, nc0, wl, wr):
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
def _partition_rows(M, f, thr, samples, a, b, yw, swap_yw, nan_left, nan_code):
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

# per stored entry of a column, a scan of its entries costs about this many times less
# than one binary search per node sample
SPARSE_SCAN_RATIO = 8


@njit(cache=True, nogil=True)
def _index_node(samples, a, b, pos_of):
    """``pos_of[row]`` = the position of ``row`` in ``samples[a:b]``, for the node's rows;
    kept up to date by the sparse arrangement's swaps (:func:`_arrange_sorted`)."""
    for i in range(a, b):
        pos_of[samples[i]] = i


@njit(cache=True, nogil=True, inline="always")
def _in_node(pos_of, samples, a, b, r):
    q = pos_of[r]
    return q >= a and q < b and samples[q] == r


@njit(cache=True, nogil=True)
def _node_nonzeros(indptr, indices, data, f, samples, a, b, pos_of, nz_rows, nz_vals):
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


@njit(cache=True, nogil=True)
def _arrange_nonzeros(cnt, nz_rows, nz_vals, samples, a, b, vals, pos_of, sort):
    """Arrange ``samples[a:b]`` by a sparse column's values touching its stored entries
    only (as scikit-learn's sparse splitter): negative values swapped to the front,
    the others (stored zeros included) to the back, each part sorted when ``sort``;
    the node's implicit zeros stay in between, in any order, with ``vals`` set at the
    ends of their run only. Returns the run ``(z_lo, z_hi)``."""
    n_neg = 0
    for t in range(cnt):
        if nz_vals[t] < 0.0:
            _place(samples, vals, pos_of, nz_rows[t], nz_vals[t], a + n_neg)
            n_neg += 1
    n_pos = 0
    for t in range(cnt):
        if nz_vals[t] >= 0.0:
            n_pos += 1
            _place(samples, vals, pos_of, nz_rows[t], nz_vals[t], b - n_pos)
    z_lo = a + n_neg
    z_hi = b - n_pos
    if sort and n_neg > 1:
        sort_pairs(vals, samples, a, z_lo)
        _index_node(samples, a, z_lo, pos_of)
    if sort and n_pos > 1:
        sort_pairs(vals, samples, z_hi, b)
        _index_node(samples, z_hi, b, pos_of)
    if z_hi > z_lo:
        vals[z_lo] = 0.0
        vals[z_hi - 1] = 0.0
    return z_lo, z_hi


@njit(cache=True, nogil=True)
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


@njit(cache=True, nogil=True)
def _split_arranged(samples, vals, pos_of, a, b, z_lo, z_hi, thr):
    """Split position of ``samples[a:b]`` arranged by :func:`_arrange_nonzeros` (zeros in
    ``[z_lo, z_hi)``) on ``value <= thr``: only the stored values on the threshold's side
    of zero move."""
    if thr < 0.0:
        return _partition_indexed(samples, vals, pos_of, a, z_lo, thr)
    return _partition_indexed(samples, vals, pos_of, z_hi, b, thr)


@njit(cache=True, nogil=True)
def _move_nan_last(vals, samples, a, b):
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


@njit(cache=True, nogil=True)
def _range_without_nan(vals, a, b):
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


@njit(cache=True, nogil=True)
def _shift_missing_left(samples, vals, a, b, nm, tmp_s, tmp_v):
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


@njit(cache=True, nogil=True)
def _split_node(Xt, Xr, sp_indptr, sp_indices, sp_data, sp_pos, sp_nz_rows, sp_nz_vals, y, w,
                samples, a, b, wn, wn_total, imp_parent, parent_stats, crit,
                splitter, n_outputs, K, n_classes, max_features, min_samples_leaf,
                min_weight_leaf, rng, features, const_features, n_const, vals, sl, sr,
                scratch, rkeys, ridx, rcnt, fast_rand, yw, ywtmp, vals_b, kb, sbest,
                nan_mask, tmp_s, tmp_v, mono, use_mono, lower, upper):
    """Best split of ``samples[a:b]``; reorders it so the left part comes first.

    Monotonicity constraints (``use_mono``; ``mono[f]`` in {-1, 0, 1}, on the first
    statistic: first class's fraction or mean): a candidate on a constrained
    feature whose children values are out of order or outside ``[lower, upper]``
    is rejected, as in scikit-learn.

    Missing values (features with ``nan_mask[f]``), as scikit-learn >= 1.9 does:
    the best splitter moves the node's NaN rows to the end, scans the sorted
    values with them on the right (the last candidate puts every non-missing
    value left: threshold +inf), then moves them to the front (``tmp_s`` /
    ``tmp_v`` scratch) and scans again with them on the left; the random
    splitter draws which side they take. Without missing values at the node,
    missing values at prediction follow the larger child (by sample count).

    ``fast_rand`` (random splitter, one output, classification, integer weights:
    unit, bootstrap counts): the class counts left of each random threshold are
    summed over the node's samples in place, without partitioning them per
    candidate: the sums are exact integers, so they equal the partitioned
    (scikit-learn) ones whatever the order. ``yw[a:b]`` holds the node's keys
    ``(weight << kb) | class`` in sample order (contiguous reads; the final stable
    partition moves them with the samples, ``ywtmp`` its scratch), and
    ``vals_b`` receives the best candidate's values (buffers swapped with ``vals``).

    Returns (pos, feature, threshold, improvement, impurity_left, impurity_right,
    n_constant_features, missing_go_to_left, middle_value); ``pos == b`` when no valid
    split exists; ``middle_value`` (the mean of the children's first-statistic values)
    bounds the children under a constraint.
    """
    n_features = Xt.shape[0]
    # ``sp_indptr is None`` (dense X) is known when numba compiles: the sparse
    # branches are left out of the dense version, and the dense ones kept
    if sp_indptr is not None:
        _index_node(samples, a, b, sp_pos)
    best_proxy = -np.inf
    best_f = -1
    best_thr = 0.0
    best_wl = 0.0
    best_pos = b
    best_ml = np.intp(0)
    last_f = -1
    nan_left = False
    S = sl.shape[0]
    is_clf = crit < 10
    one_out = n_outputs == 1 and scratch is None
    nc0 = n_classes[0]
    cmask = (np.int64(1) << kb) - np.int64(1)
    # Features are drawn without replacement; features known to be constant in
    # an ancestor sit in features[:n_known] (their order kept in const_features)
    # and count as visited without being evaluated, as in scikit-learn.
    n_known = n_const
    n_drawn = np.intp(0)
    n_found = np.intp(0)
    n_total = n_known
    f_i = n_features
    n_visited = 0
    while f_i > n_total and (n_visited < max_features or n_visited <= n_found + n_drawn):
        n_visited += 1
        f_j = rand_int(rng, n_drawn, f_i - n_found)
        if f_j < n_known:
            features[n_drawn], features[f_j] = features[f_j], features[n_drawn]
            n_drawn += 1
            continue
        f_j += n_found
        f = features[f_j]
        last_f = f
        xf = Xt[f]
        nm = np.intp(0)
        # gather the node's values: from the row-major copy for small and middle-sized
        # nodes (a sample's features share cache lines that stay warm over the feature
        # loop), from the transposed one for large nodes
        presorted = False
        z_lo = np.intp(-1)
        z_hi = np.intp(-1)
        if sp_indptr is not None:
            cnt = _node_nonzeros(sp_indptr, sp_indices, sp_data, f, samples, a, b, sp_pos,
                                 sp_nz_rows, sp_nz_vals)
            if cnt == 0:  # all zeros at the node: constant, found without a pass over it
                vals[a] = 0.0
                vals[b - 1] = 0.0
                mn = np.float32(0.0)
                mx = mn
            else:
                z_lo, z_hi = _arrange_nonzeros(cnt, sp_nz_rows, sp_nz_vals, samples, a, b,
                                               vals, sp_pos, splitter == SPLIT_BEST)
                if splitter == SPLIT_RANDOM:
                    mn = sp_nz_vals[0]
                    mx = mn
                    for t in range(cnt):
                        mn = min(mn, sp_nz_vals[t])
                        mx = max(mx, sp_nz_vals[t])
                    if z_hi > z_lo:
                        mn = min(mn, np.float32(0.0))
                        mx = max(mx, np.float32(0.0))
            presorted = True
        elif splitter == SPLIT_RANDOM and not nan_mask[f]:
            # the random splitter needs only the range: gathered in the same pass
            if b - a <= ROW_GATHER_MAX:
                mn = Xr[samples[a], f]
                mx = mn
                for i in range(a, b):
                    v = Xr[samples[i], f]
                    vals[i] = v
                    mn = min(mn, v)
                    mx = max(mx, v)
            else:
                mn = xf[samples[a]]
                mx = mn
                for i in range(a, b):
                    v = xf[samples[i]]
                    vals[i] = v
                    mn = min(mn, v)
                    mx = max(mx, v)
        elif b - a <= ROW_GATHER_MAX:
            for i in range(a, b):
                vals[i] = Xr[samples[i], f]
        else:
            for i in range(a, b):
                vals[i] = xf[samples[i]]
        if nan_mask[f]:
            if splitter == SPLIT_RANDOM:
                nm, mn, mx = _range_without_nan(vals, a, b)
            else:
                nm = _move_nan_last(vals, samples, a, b)
        e = b - nm
        if splitter == SPLIT_BEST:
            if presorted:
                pass
            elif e - a >= RADIX_MIN:
                radix_sort_pairs(vals, samples, a, e, rkeys[0], rkeys[1], ridx, rcnt)
            elif e > a:
                sort_pairs(vals, samples, a, e)
            constant = e == a or (nm == 0 and vals[e - 1] <= vals[a] + FEATURE_THRESHOLD)
            mn = vals[a]
            mx = vals[e - 1]
        else:
            constant = e == a or (nm == 0 and mx <= mn + FEATURE_THRESHOLD)
        if constant:
            features[f_j], features[n_total] = features[n_total], features[f_j]
            n_found += 1
            n_total += 1
            continue
        f_i -= 1
        features[f_i], features[f_j] = features[f_j], features[f_i]

        if splitter == SPLIT_BEST:
            # pass 0: missing values (samples[e:b]) right, the last candidate (q == e) putting
            # every non-missing value left; pass 1: missing values moved to the front, left
            for ps in range(1 if nm == 0 else 2):
                if ps == 1:
                    _shift_missing_left(samples, vals, a, b, nm, tmp_s, tmp_v)
                q = a if ps == 0 else a + nm
                q_end = e if ps == 0 else b
                inf_q = e if (nm > 0 and ps == 0) else np.intp(-1)
                if scratch is not None:
                    _c.abs_split_costs(y, w, samples, a, b, n_outputs, scratch[0], scratch[1],
                                       scratch[2], scratch[3], scratch[4], scratch[5],
                                       scratch[6], scratch[7])
                fill(sl, 0.0)
                wl = 0.0
                cur = a
                while q < q_end:
                    q += 1
                    if q > z_lo and q < z_hi:  # a sparse column's run of zeros: no candidate
                        q = z_hi
                    while q < q_end and vals[q] <= vals[q - 1] + FEATURE_THRESHOLD:
                        q += 1
                        if q > z_lo and q < z_hi:
                            q = z_hi
                    if q >= b:
                        break
                    if q - a < min_samples_leaf or b - q < min_samples_leaf:
                        continue
                    if one_out and q - cur <= b - q:
                        # the common forward step, written out for one output (a call to
                        # _move_left per position costs several times the update itself)
                        if is_clf:
                            for p in range(cur, q):
                                s = samples[p]
                                ws = w[s]
                                sl[np.intp(y[s, 0])] += ws
                                wl += ws
                        else:
                            # the sum of squares is not needed by the proxy
                            for p in range(cur, q):
                                s = samples[p]
                                ws = w[s]
                                sl[0] += ws * y[s, 0]
                                wl += ws
                    else:
                        wl = _move_left(sl, wl, cur, q, b, samples, y, w, parent_stats, wn, crit,
                                        n_outputs, K)
                    cur = q
                    wr = wn - wl
                    if wl < min_weight_leaf or wr < min_weight_leaf:
                        continue
                    if one_out and crit == _c.GINI:
                        proxy = _gini_proxy(sl, parent_stats, nc0, wl, wr)
                    elif one_out and crit == _c.SQUARED_ERROR:
                        # _c.mse_proxy
                        s_l = sl[0]
                        s_r = parent_stats[0] - s_l
                        proxy = s_l * s_l / wl + s_r * s_r / wr
                    elif scratch is not None:
                        proxy = -scratch[0][q - a]
                    else:
                        for k in range(S):
                            sr[k] = parent_stats[k] - sl[k]
                        proxy = _c.proxy_improvement(sl, sr, wl, wr, crit, n_outputs, K,
                                                     n_classes)
                    # a constrained candidate is checked only when it would be the best:
                    # the same choice as rejecting it first (scikit-learn's order)
                    if proxy > best_proxy and (not use_mono or _c.monotone_ok(
                            sl, parent_stats, wl, wr, mono[f], lower, upper)):
                        best_proxy = proxy
                        best_f = f
                        # sum of halves between two values, or +inf for the candidate
                        # that sends exactly the missing values right; missing values go
                        # the scan's side, or (none at the node) to the larger child
                        best_thr = np.inf if q == inf_q else vals[q - 1] / 2.0 + vals[q] / 2.0
                        best_ml = ps if nm > 0 else (1 if q - a > b - q else 0)
        else:
            thr = rand_uniform(rng, np.float64(mn), np.float64(mx))
            # missing values at the node: their side is drawn too (after the threshold)
            ml = nm > 0 and rand_int(rng, np.intp(0), np.intp(2)) == 1
            if thr == mx:
                thr = np.float64(mn)
            if fast_rand:
                # integer sums (exact, so any order is right): the loop vectorizes and
                # has no branch on the comparison
                nl = np.int64(0)
                wl_i = np.int64(0)
                if nc0 == 2:
                    # class-1 weight; class 0 = total - class 1
                    w1 = np.int64(0)
                    for i in range(a, b):
                        v = vals[i]
                        m = (np.float64(v) <= thr) | (ml & (v != v))
                        key = yw[i]
                        wi = key >> kb
                        nl += np.int64(1) if m else np.int64(0)
                        wl_i += wi if m else np.int64(0)
                        w1 += wi * (key & cmask) if m else np.int64(0)
                    sl[0] = np.float64(wl_i - w1)
                    sl[1] = np.float64(w1)
                else:
                    fill(sl, 0.0)
                    for i in range(a, b):
                        v = vals[i]
                        if np.float64(v) <= thr or (ml and v != v):
                            key = yw[i]
                            wi = key >> kb
                            nl += 1
                            wl_i += wi
                            sl[key & cmask] += np.float64(wi)
                wl = np.float64(wl_i)
                pos = a + nl
                if pos - a < min_samples_leaf or b - pos < min_samples_leaf:
                    continue
                wr = wn - wl
                if wl < min_weight_leaf or wr < min_weight_leaf:
                    continue
                if crit == _c.GINI:
                    proxy = _gini_proxy(sl, parent_stats, nc0, wl, wr)
                else:
                    for k in range(S):
                        sr[k] = parent_stats[k] - sl[k]
                    proxy = _c.proxy_improvement(sl, sr, wl, wr, crit, n_outputs, K,
                                                 n_classes)
                if proxy > best_proxy and (not use_mono or _c.monotone_ok(
                        sl, parent_stats, wl, wr, mono[f], lower, upper)):
                    best_proxy = proxy
                    best_f = f
                    best_thr = thr
                    best_ml = (1 if ml else 0) if nm > 0 else (1 if pos - a > b - pos else 0)
                    best_wl = wl
                    for k in range(S):
                        sbest[k] = sl[k]
                    # keep the best candidate's values for the final partition
                    vals, vals_b = vals_b, vals
                continue
            if sp_indptr is not None:
                pos = _split_arranged(samples, vals, sp_pos, a, b, z_lo, z_hi, thr)
            else:
                lo = a
                hi = b
                while lo < hi:
                    v = vals[lo]
                    if v <= thr or (ml and v != v):
                        lo += 1
                    else:
                        hi -= 1
                        vals[lo], vals[hi] = vals[hi], vals[lo]
                        samples[lo], samples[hi] = samples[hi], samples[lo]
                pos = hi
            if pos - a < min_samples_leaf or b - pos < min_samples_leaf:
                continue
            fill(sl, 0.0)
            wl = _move_left(sl, 0.0, a, pos, b, samples, y, w, parent_stats, wn, crit,
                            n_outputs, K)
            wr = wn - wl
            if wl < min_weight_leaf or wr < min_weight_leaf:
                continue
            for k in range(S):
                sr[k] = parent_stats[k] - sl[k]
            if scratch is not None:
                il, ir = _children_impurity(y, w, samples, a, pos, b, sl, sr, wl, wr,
                                            parent_stats, crit, n_outputs, K, n_classes,
                                            scratch)
                proxy = -wl * il - wr * ir
            else:
                proxy = _c.proxy_improvement(sl, sr, wl, wr, crit, n_outputs, K, n_classes)
            if proxy > best_proxy and (not use_mono or _c.monotone_ok(
                    sl, parent_stats, wl, wr, mono[f], lower, upper)):
                best_proxy = proxy
                best_f = f
                best_thr = thr
                best_ml = (1 if ml else 0) if nm > 0 else (1 if pos - a > b - pos else 0)
                best_pos = pos
    for i in range(n_known):
        features[i] = const_features[i]
    for i in range(n_known, n_known + n_found):
        const_features[i] = features[i]
    if best_f < 0:
        return b, -2, -2.0, 0.0, 0.0, 0.0, n_total, np.intp(0), 0.0
    # partition samples[a:b] on the chosen split
    nan_left = best_ml != 0
    if fast_rand:
        # stable (branch-free, right parts through ridx / ywtmp) on the kept values of the
        # best candidate: the samples of every node stay in ascending row order, so the
        # gathers of its children sweep memory forwards (prefetch- and TLB-friendly; the
        # unpartitioned counts do not depend on order), and the packed class / weight
        # keys ``yw`` move along with them
        lo = a
        k = np.intp(0)
        for i in range(a, b):
            s = samples[i]
            t = yw[i]
            v = vals_b[i]
            m = (np.float64(v) <= best_thr) | (nan_left & (v != v))
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
    elif splitter == SPLIT_RANDOM and last_f == best_f:
        # already partitioned on the best candidate (the last one drawn): kept as it is,
        # as scikit-learn does, so the children's samples keep its order
        pos = best_pos
    elif sp_indptr is not None:
        cnt = _node_nonzeros(sp_indptr, sp_indices, sp_data, best_f, samples, a, b, sp_pos,
                             sp_nz_rows, sp_nz_vals)
        z_lo, z_hi = _arrange_nonzeros(cnt, sp_nz_rows, sp_nz_vals, samples, a, b, vals,
                                       sp_pos, np.bool_(False))
        pos = _split_arranged(samples, vals, sp_pos, a, b, z_lo, z_hi, best_thr)
    else:
        pos = _partition_rows(Xr, best_f, best_thr, samples, a, b, yw, False, nan_left,
                              np.float32(np.nan))
    if fast_rand:
        # the left statistics of the chosen candidate (exact integer sums)
        wl = best_wl
        for k in range(S):
            sl[k] = sbest[k]
    else:
        fill(sl, 0.0)
        wl = _move_left(sl, 0.0, a, pos, b, samples, y, w, parent_stats, wn, crit, n_outputs,
                        K)
    wr = wn - wl
    for k in range(S):
        sr[k] = parent_stats[k] - sl[k]
    il, ir = _children_impurity(y, w, samples, a, pos, b, sl, sr, wl, wr, parent_stats, crit,
                                n_outputs, K, n_classes, scratch)
    improvement = (wn / wn_total) * (imp_parent - wr / wn * ir - wl / wn * il)
    middle = sl[0] / (2.0 * wl) + sr[0] / (2.0 * wr)
    return pos, best_f, best_thr, improvement, il, ir, n_total, np.intp(best_ml), middle


@njit(cache=True, nogil=True)
def build_tree(Xt, Xr, sp_indptr, sp_indices, sp_data, y, w, samples, n_classes, K, crit,
               splitter, max_features, max_depth, min_samples_leaf, min_samples_split,
               min_weight_leaf, min_impurity_decrease, max_leaf_nodes, seed, Xb, edges, n_bins,
               nan_mask, mono, abs_scratch):
    """Grow one tree; depth-first, or best-first when ``max_leaf_nodes > 0``.

    Parameters are scalars as in the estimator (``max_depth`` a large int for
    None, ``max_features`` an int, ``min_weight_leaf`` an absolute weight,
    ``K`` the largest number of classes, 1 for regression). ``samples`` is
    copied, not modified. ``seed`` (uint64) drives the feature draws and random
    thresholds. ``Xb`` (uint8, n_samples x n_features), ``edges`` and ``n_bins``
    switch on the histogram splitter (see ``_hist_kernels``); pass None for the
    three for the exact one. ``sp_indptr``, ``sp_indices``, ``sp_data``: CSC X (see
    the module docstring), or None for dense X. Nodes with fewer than
    ``HYBRID_MIN`` samples are always split exactly. Thread-safe.

    numba compiles one version per kind of tree (dense exact, sparse, histogram),
    each without the other kinds' code: the None arguments are known at compile
    time. Within a kind the arguments always have the same types, so every
    estimator shares that version. ``abs_scratch`` is a float64 (8, n_samples + 1)
    buffer for the absolute-error criterion and None for every other criterion,
    whose trees are then compiled without the median code.

    ``nan_mask`` (uint8, n_features) marks the features with missing values (NaN)
    in the rows used; ``inodes`` then holds in column 4 whether a node's missing
    values go left (see :func:`_split_node`). ``mono`` (intp, n_features, or empty):
    monotonicity constraints, -1 / 0 / 1 per feature on the first statistic (one
    output; binary classification: the first class's fraction); node values are
    clipped to the bounds the constrained splits above them set.

    Returns (inodes, fnodes, value, max_depth_reached).
    """
    n_outputs = y.shape[1]
    n_features = Xt.shape[0]
    S = n_outputs * K if crit < 10 else 2 * n_outputs
    V = n_outputs * K
    # integer constants passed to other kernels are typed intp up front: numba would
    # otherwise compile a separate version of the callee for each literal value
    zero = np.intp(0)
    one = np.intp(1)
    minus1 = np.intp(-1)
    samples = samples.copy()
    n = samples.shape[0]
    rng = np.empty(1, dtype=np.uint64)
    rng[0] = seed
    features = np.arange(n_features)
    const_features = np.arange(n_features)
    vals = np.empty(n, dtype=Xt.dtype)
    # conditions on ``sp_indptr is None`` / ``Xb is None`` are decided when numba
    # compiles (dead-branch pruning): dense, sparse and histogram trees each get a
    # version holding only their own splitter
    # (only the None version is pruned: the sparse version's buffers start as the
    # CSC arrays, of the same types, so that they never become optional)
    sp_pos = sp_indptr
    sp_nz_rows = sp_indices
    sp_nz_vals = sp_data
    if sp_indptr is not None:
        sp_pos = np.full(y.shape[0], -1, dtype=np.intp)
        sp_nz_rows = np.empty(n, dtype=np.intp)
        sp_nz_vals = np.empty(n, dtype=Xt.dtype)
    stats = np.empty(S)
    sl = np.empty(S)
    sr = np.empty(S)
    sbest = np.empty(S)
    scratch = abs_scratch
    r = n if (splitter == SPLIT_BEST and n >= RADIX_MIN) else 1
    rkeys = np.empty((2, r), dtype=np.uint32)
    # the random splitter's stable partition also uses ridx
    ridx = np.empty(n if splitter == SPLIT_RANDOM else r, dtype=np.intp)
    rcnt = np.empty((4, 256), dtype=np.intp)
    # a flag computed (not a literal False later set True): numba would otherwise
    # compile the splitters a second time for the literal
    n_mono = 0
    for f in range(mono.shape[0]):
        if mono[f] != 0:
            n_mono += 1
    use_mono = n_mono > 0
    any_nan = False
    for f in range(n_features):
        if nan_mask[f]:
            any_nan = True
    tmp_s = np.empty(n if any_nan else 1, dtype=np.intp)
    tmp_v = np.empty(n if any_nan else 1, dtype=Xt.dtype)
    wn_total = 0.0
    int_w = True
    for i in range(n):
        ws = w[samples[i]]
        wn_total += ws
        if ws != np.floor(ws):
            int_w = False
    int_w = int_w and wn_total < 2.0 ** 50
    # random splitter, classification, one output, integer weights: class counts without
    # partitioning (see _split_node) on keys (weight << kb) | class kept in sample order
    kb = np.int64(1)
    while (np.int64(1) << kb) < K:
        kb += 1
    # (not for sparse X, whose random splits move only stored values)
    fast_rand = (splitter == SPLIT_RANDOM and crit < 10 and n_outputs == 1 and int_w
                 and sp_indptr is None
                 and kb <= 12)
    m_r = n if fast_rand else 1
    yw = np.empty(m_r, dtype=np.int64)
    ywtmp = np.empty(m_r, dtype=np.int64)
    vals_b = np.empty(m_r, dtype=Xt.dtype)
    if fast_rand:
        for i in range(n):
            s = samples[i]
            yw[i] = (np.int64(w[s]) << kb) | np.int64(y[s, 0])
    # histogram buffers (n_features x bins x (count, weight, stats)), reused via a free list
    if Xb is not None:
        pool = np.empty((8, Xb.shape[1], edges.shape[1], S + 2))
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
    reuse_stats = crit < 10 and int_w
    st_s = np.empty((64, S + 1))
    root_h = minus1
    if Xb is not None and n >= _hk.HYBRID_MIN:
        n_free -= 1
        root_h = free[n_free]
        _hk.fill_hist(Xb, n_bins, y, w, samples, zero, n, crit, n_outputs, K,
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
            # once best-first growth has used its budget, new nodes stay leaves
            # the node's statistics, value, impurity and split (samples[a:b] left
            # partitioned, left part first)
            vrow = value[node]
            if st_s[top, 0] >= 0.0:
                for k in range(S):
                    stats[k] = st_s[top, k]
                wn = st_s[top, S]
            else:
                wn = _c.node_stats(y, w, samples, a, b, crit, n_outputs, K, stats)
            if crit < 10:
                for k in range(V):
                    vrow[k] = stats[k]
            elif abs_scratch is not None:
                _c.abs_medians(y, w, samples, a, b, n_outputs, scratch[2], scratch[3], vrow)
            else:
                for o in range(n_outputs):
                    vrow[o] = stats[o] / wn
            lower = st_f[top, 1]
            upper = st_f[top, 2]
            if use_mono:
                # clip the value (binary classification: the first class's fraction,
                # counts here) to the bounds of the constrained splits above
                v0 = vrow[0] / wn if crit < 10 else vrow[0]
                if v0 < lower or v0 > upper:
                    v0 = lower if v0 < lower else upper
                    if crit < 10:
                        vrow[0] = v0 * wn
                        vrow[1] = (1.0 - v0) * wn
                    else:
                        vrow[0] = v0
            imp = st_f[top, 0]
            if imp < 0.0:
                if abs_scratch is not None:
                    imp = _c.abs_impurity(y, w, samples, a, b, n_outputs, scratch[2],
                                          scratch[3])
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
            if Xb is not None and not is_leaf and hid >= 0:
                f, bn, thr, improvement, il, ir, h_ml, middle = _hk.hist_split(
                    pool[hid], n_bins, edges, stats, wn, float(nn), wn_total, imp, crit,
                    splitter, n_outputs, K, n_classes, max_features, min_samples_leaf,
                    min_weight_leaf, rng, features, sl, sr, mono, use_mono, lower, upper)
                if f >= 0 and improvement + EPSILON >= min_impurity_decrease:
                    pos = _partition_rows(Xb, f, bn, samples, a, b, yw, fast_rand, h_ml,
                                          np.float32(n_bins[f]))
                    ml = one if h_ml else zero
                else:
                    is_leaf = True
            elif not is_leaf:
                pos, f, thr, improvement, il, ir, n_const, ml, middle = _split_node(
                    Xt, Xr, sp_indptr, sp_indices, sp_data, sp_pos, sp_nz_rows, sp_nz_vals,
                    y, w, samples, a, b, wn,
                    wn_total, imp, stats, crit, splitter,
                    n_outputs, K, n_classes, max_features, min_samples_leaf, min_weight_leaf,
                    rng, features, const_features, n_const, vals, sl, sr, scratch, rkeys,
                    ridx, rcnt, fast_rand, yw, ywtmp, vals_b, kb, sbest, nan_mask, tmp_s,
                    tmp_v, mono, use_mono, lower, upper)
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
            if Xb is not None:
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
            if Xb is not None and hid >= 0:
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
                        _hk.fill_hist(Xb, n_bins, y, w, samples, a, pos, crit, n_outputs, K,
                                      pool[small])
                        left_h = small
                        right_h = hid
                    else:
                        _hk.fill_hist(Xb, n_bins, y, w, samples, pos, b, crit, n_outputs, K,
                                      pool[small])
                        left_h = hid
                        right_h = small
                    _hk.subtract_hist(pool[hid], pool[small], n_bins)
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

