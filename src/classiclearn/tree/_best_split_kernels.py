"""The best splitter of the CART builder (seed 000 §11.1): each candidate feature's
values at the node sorted, every threshold between two distinct values scanned.

``split_best`` for dense X and ``split_best_csc`` for sparse X (scikit-learn's
sparse splitter: a node's stored entries of a column are found from the column,
the other values being zeros; a feature with none is constant at once, and only the
stored values are moved and sorted, the scan skipping the run of zeros). The
arguments are the named tuples of ``_split_kernels``; both return a ``Split`` and
reorder ``samples[a:b]`` so that the left part comes first.
"""

import math

import numpy as np

from .._kernels.jit import njit
from .._kernels.sorting import few_values_sort, radix_passes, radix_sort_pairs, sort_pairs
from . import _criteria_kernels as _c
from ._split_kernels import (
    FEATURE_THRESHOLD,
    RADIX_MIN,
    arrange_nonzeros,
    column_at_node,
    constant_feature,
    end_draw,
    end_draw_counts,
    evaluated_feature,
    feature_constraint,
    few_value_sums,
    fill,
    finish_split,
    gather,
    gini_proxy,
    group_if_cheaper,
    index_node,
    left_stats,
    move_left,
    move_nan_last,
    next_feature,
    no_split,
    partition_rows,
    shift_missing_left,
    split_arranged,
    start_draw,
    trailing_nan,
)
from ._util_kernels import rand_int

_INV_LN2 = 1.0 / math.log(2.0)
# relative margin between the entropy proxy from the k ln k table and the exact one
_XL_MARGIN = 1e-8


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def _table_entropy_proxy(xl, sl, stats, wl, wr, n_classes):
    """The entropy proxy ``-(w_L H_L + w_R H_R)`` in bits from the ``k ln k`` table
    ``xl`` (integer weights: ``w H = w ln w - sum_k v_k ln v_k``), for the left class
    sums ``sl`` of a node whose class sums are ``stats``."""
    nats = -xl[np.intp(wl)] - xl[np.intp(wr)]
    for k in range(n_classes):
        nats += xl[np.intp(sl[k])] + xl[np.intp(stats[k] - sl[k])]
    return nats * _INV_LN2


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def _sort_nan_last(vals, samples, a, b, has_nan, sort, try_few):
    """Sort ``vals[a:b]`` ascending with ``samples`` alongside, NaN moved last first (a
    radix sort from ``RADIX_MIN`` values; below, introsort; from 17 values, when
    ``try_few``, first a count of at most ``FEW_VALUES`` distinct values in a stable
    pass where they are that few); returns the number of NaN."""
    nm = move_nan_last(vals, samples, a, b) if has_nan else np.intp(0)
    m = b - nm - a
    if m >= RADIX_MIN:
        if try_few:
            radix_sort_pairs(vals, samples, a, b - nm, sort.rkeys[0], sort.rkeys[1],
                             sort.ridx, sort.rcnt)
        else:
            radix_passes(vals, samples, a, b - nm, sort.rkeys[0], sort.rkeys[1], sort.ridx,
                         sort.rcnt)
    elif m > 16:
        if not (try_few and few_values_sort(vals, samples, a, b - nm, sort.rkeys[0],
                                            sort.rkeys[1], sort.ridx, sort.rcnt)):
            sort_pairs(vals, samples, a, b - nm)
    elif m > 1:
        sort_pairs(vals, samples, a, b - nm)
    return nm


@njit(cache=True, nogil=True, _nrt=False)
def scan_sorted(y, w, samples, vals, sl, sr, parent_stats, n_classes, tmp_s, tmp_v, abs_work,
                rule, node, nm, z_lo, z_hi, best_proxy, cst):
    """The best threshold of one feature whose values ``work.vals[a:b]`` are sorted, the
    ``nm`` missing ones last, and a sparse column's run of zeros in ``[z_lo, z_hi)``
    (-1, -1 for none): ``(proxy, threshold, missing_left)`` of the best candidate better
    than ``best_proxy``, or ``best_proxy`` itself when none is.

    Pass 0 puts the missing values right, its last candidate every non-missing value
    left (threshold +inf); pass 1 moves them to the front (left) and scans again.
    Used by :func:`split_best_csc`; :func:`split_best` holds the same loop written out.
    """
    a = node.a
    b = node.b
    wn = node.wn
    lower = node.lower
    upper = node.upper
    crit = rule.crit
    n_outputs = rule.n_outputs
    K = rule.K
    min_samples_leaf = rule.min_samples_leaf
    min_weight_leaf = rule.min_weight_leaf
    is_clf = _c.is_classification(crit)
    one_out = n_outputs == 1 and abs_work is None
    nc0 = n_classes[0]
    e = b - nm
    best_thr = 0.0
    best_ml = np.intp(0)
    for ps in range(1 if nm == 0 else 2):
        if ps == 1:
            shift_missing_left(samples, vals, a, b, nm, tmp_s, tmp_v)
        q = a if ps == 0 else a + nm
        q_end = e if ps == 0 else b
        inf_q = e if (nm > 0 and ps == 0) else np.intp(-1)
        if abs_work is not None:
            _c.abs_split_costs(y, w, samples, a, b, n_outputs, abs_work.cost, abs_work.tmp,
                               abs_work.yv, abs_work.wv, abs_work.h1, abs_work.h2,
                               abs_work.h3, abs_work.h4)
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
                # move_left per position costs several times the update itself)
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
                wl = move_left(sl, wl, cur, q, b, samples, y, w, parent_stats, wn, crit,
                                n_outputs, K)
            cur = q
            wr = wn - wl
            if wl < min_weight_leaf or wr < min_weight_leaf:
                continue
            if one_out and crit == _c.GINI:
                proxy = gini_proxy(sl, parent_stats, nc0, wl, wr)
            elif one_out and crit == _c.SQUARED_ERROR:
                # _c.mse_proxy
                s_l = sl[0]
                s_r = parent_stats[0] - s_l
                proxy = s_l * s_l / wl + s_r * s_r / wr
            elif abs_work is not None:
                proxy = -abs_work.cost[q - a]
            else:
                for k in range(rule.S):
                    sr[k] = parent_stats[k] - sl[k]
                proxy = _c.proxy_improvement(sl, sr, wl, wr, crit, n_outputs, K, n_classes)
            # a constrained candidate is checked only when it would be the best:
            # the same choice as rejecting it first (scikit-learn's order)
            if proxy > best_proxy and (cst == 0 or _c.monotone_ok(
                    sl, parent_stats, wl, wr, cst, lower, upper)):
                best_proxy = proxy
                # sum of halves between two values, or +inf for the candidate that
                # sends exactly the missing values right; missing values go the scan's
                # side, or (none at the node) to the larger child
                best_thr = np.inf if q == inf_q else vals[q - 1] / 2.0 + vals[q] / 2.0
                best_ml = ps if nm > 0 else (1 if q - a > b - q else 0)
    return best_proxy, best_thr, best_ml


@njit(cache=True, nogil=True, _nrt=False)
def presorted_list(pre, Xr, samples, f, a, b, has_nan, sort):
    """Make ``pre`` hold feature ``f``'s sorted list for the node ``samples[a:b]`` and
    return the list's offset (position ``i`` of the node at ``i - offset``). A list held
    for a range holding ``[a, b)`` is the node's already (kept by
    :func:`partition_presorted`); otherwise it is gathered and sorted for ``[a, b)``,
    missing values last: by X's bins, then within each bin (histogram trees), or by
    value as a node without lists sorts (exact trees, ``pre.codes`` empty)."""
    if pre.lo[f] <= a and b <= pre.hi[f]:
        return pre.lo[f]
    fs = pre.order[f]
    fv = pre.vals[f]
    codes = pre.codes
    counts = pre.counts
    m = b - a
    if codes.shape[1] == 0:
        # an exact tree: no bins, a comparison (or radix) sort of the node's values
        for i in range(m):
            s = samples[a + i]
            fs[i] = s
            fv[i] = Xr[s, f]
        _sort_nan_last(fv, fs, np.intp(0), m, has_nan, sort, True)
        pre.lo[f] = a
        pre.hi[f] = b
        return a
    # a counting sort on the rows' bins (missing values have the highest), then an
    # insertion sort of the values within each bin: nearly linear, where a comparison
    # sort of the values cost m log m
    for c in range(counts.shape[0]):
        counts[c] = 0
    for i in range(m):
        counts[np.intp(codes[samples[a + i], f]) + 1] += 1
    for c in range(1, counts.shape[0]):
        counts[c] += counts[c - 1]
    for i in range(m):
        s = samples[a + i]
        c = np.intp(codes[s, f])
        k = counts[c]
        counts[c] = k + 1
        fs[k] = s
        fv[k] = Xr[s, f]
    nm = trailing_nan(fv, np.intp(0), m) if has_nan else np.intp(0)
    for i in range(1, m - nm):
        v = fv[i]
        s = fs[i]
        j = i - 1
        while j >= 0 and fv[j] > v:
            fv[j + 1] = fv[j]
            fs[j + 1] = fs[j]
            j -= 1
        fv[j + 1] = v
        fs[j + 1] = s
    pre.lo[f] = a
    pre.hi[f] = b
    return a


@njit(cache=True, nogil=True, _nrt=False)
def partition_presorted(pre, samples, a, pos, b, min_split, features, n_const):
    """After the node ``[a, b)`` split at ``pos`` (``samples[a:pos]`` left): partition
    each sorted list held for a range holding the node, stably (left rows first, each part
    keeping its order, missing values last), so that it holds both children's. Skipped
    when neither child has ``min_split`` samples (both stay leaves). The lists of the
    features found constant at the node (``features[:n_const]``) are left as they are:
    any range of a list of equal values holds equal values, so a node below that draws
    such a feature (best-first and histogram trees pass no constants down) finds it
    constant again from the list without reading which rows it holds."""
    if pos - a < max(min_split, 2) and b - pos < max(min_split, 2):
        return
    left = pre.left
    tmp_s = pre.tmp_s
    tmp_v = pre.tmp_v
    for i in range(a, pos):
        left[samples[i]] = 1
    for t in range(n_const, features.shape[0]):
        f = features[t]
        lo = pre.lo[f]
        if lo > a or b > pre.hi[f]:
            continue
        fs = pre.order[f]
        fv = pre.vals[f]
        j = a - lo
        k = np.intp(0)
        # branch-free: each entry is written to the left part's next slot (never past
        # the one read) and to the right part's buffer, and one of the two advances
        for i in range(a - lo, b - lo):
            s = fs[i]
            v = fv[i]
            fs[j] = s
            fv[j] = v
            tmp_s[k] = s
            tmp_v[k] = v
            g = np.intp(left[s])
            j += g
            k += 1 - g
        for i in range(k):
            fs[j + i] = tmp_s[i]
            fv[j + i] = tmp_v[i]
    for i in range(a, pos):
        left[samples[i]] = 0


@njit(cache=True, nogil=True, _nrt=False)
def split_best(dense, data, rule, node, work, sort, abs_work, pre):
    """Best split of ``samples[a:b]`` over sorted feature values (dense X); reorders the
    node's samples so the left part comes first.

    ``pre`` (:data:`Presorted`, else None): a feature's values are sorted once at the
    first node of a subtree that draws it, and its sorted list is partitioned with each
    split below (:func:`partition_presorted`) instead of sorted again at every node: a
    sort per subtree and feature rather than per node. Histogram trees use it in their
    exact nodes; exact classification trees with integer weights in every node up to
    the lists' width (their class counts sum exactly in any order, so the tree does not
    change; ``binned`` is False there, which keeps the generic scan, the arithmetic
    scikit-learn's trees share).

    A squared-error node of ``RADIX_MIN`` samples or more whose feature takes at most
    ``FEW_VALUES`` values there (integer codes, ratings, binary columns) is scanned from
    its values' sums (:func:`few_value_sums`, one pass) instead of sorted: the same
    candidates, rules and choice.

    Missing values (features with ``nan_mask[f]``), as scikit-learn >= 1.9 does: the
    node's NaN rows move to the end and the sorted values are scanned with them on the
    right, then on the left. The scan is :func:`scan_sorted`'s loop written out (the
    feature draw too): called per feature with its dozen arrays, the helper made deep
    trees fit slower. A change to the scan goes into both. Without missing values at the node,
    missing values at prediction follow the larger child (by sample count).
    Monotonicity constraints reject a candidate whose children's values are out of
    order or outside the node's ``[lower, upper]``, as in scikit-learn."""
    # the arrays and scalars taken out of their tuples once per node
    Xt = dense.Xt
    Xr = dense.Xr
    nan_mask = data.nan_mask
    y = data.y
    w = data.w
    samples = work.samples
    vals = work.vals
    features = work.features
    const_features = work.const_features
    rng = work.rng
    sl = work.sl
    sr = work.sr
    stats = node.stats
    n_classes = rule.n_classes
    mono = rule.mono
    tmp_s = sort.tmp_s
    tmp_v = sort.tmp_v
    few = sort.few
    max_features = rule.max_features
    use_mono = rule.use_mono
    a = node.a
    b = node.b
    wn = node.wn
    lower = node.lower
    upper = node.upper
    crit = rule.crit
    n_outputs = rule.n_outputs
    K = rule.K
    min_samples_leaf = rule.min_samples_leaf
    min_weight_leaf = rule.min_weight_leaf
    is_clf = _c.is_classification(crit)
    one_out = n_outputs == 1 and abs_work is None
    # several outputs, squared error: the sums' updates and the proxy written out too
    many_mse = n_outputs > 1 and crit == _c.SQUARED_ERROR and abs_work is None
    nc0 = n_classes[0]
    z_lo = np.intp(-1)
    z_hi = np.intp(-1)
    best_proxy = -np.inf
    best_f = np.intp(-1)
    best_thr = 0.0
    best_ml = np.intp(0)
    # the k ln k table of the presorted entropy scan (``stats`` stands in when none)
    xl = stats
    use_xl = False
    binned = False
    xl_margin = 0.0
    if pre is not None:
        xl = pre.xlogx
        use_xl = xl.shape[0] > 0
        binned = pre.codes.shape[1] > 0
        if use_xl:
            # far above the rounding of either proxy (relative 1e-13 for a million classes)
            xl_margin = _XL_MARGIN * (xl[np.intp(wn)] + 1.0)
    # the feature draw (see _split_kernels.next_feature), written out
    n_known = node.n_const
    n_drawn = np.intp(0)
    n_found = np.intp(0)
    f_i = nan_mask.shape[0]
    n_visited = 0
    while f_i > n_known + n_found and (n_visited < max_features
                                       or n_visited <= n_found + n_drawn):
        n_visited += 1
        f_j = rand_int(rng, n_drawn, f_i - n_found)
        if f_j < n_known:
            features[n_drawn], features[f_j] = features[f_j], features[n_drawn]
            n_drawn += 1
            continue
        f_j += n_found
        f = features[f_j]
        cst = mono[f] if use_mono else np.intp(0)
        n_few = np.intp(0)
        # the feature's sorted values and their samples at [sa, sb) of fv / fs: a
        # presorted list, or the node's own buffers sorted here; or, for a squared-error
        # scan of a feature of at most FEW_VALUES values at the node, those values and
        # their sums (``few``, no sort)
        if pre is not None and b - a <= pre.order.shape[1]:
            off = presorted_list(pre, Xr, samples, f, a, b, nan_mask[f] != 0, sort)
            listed = True
            fs = pre.order[f]
            fv = pre.vals[f]
            sa = a - off
            sb = b - off
            nm = trailing_nan(fv, sa, sb) if nan_mask[f] else np.intp(0)
        else:
            listed = False
            fs = samples
            fv = vals
            sa = a
            sb = b
            # from RADIX_MIN samples: below, the sort's running sums keep scikit-learn's
            # order of additions, which decides exact ties between equally good splits
            # (features splitting a small node alike) as scikit-learn's do more often
            by_values = (one_out and crit == _c.SQUARED_ERROR and cst == 0
                         and nan_mask[f] == 0 and b - a >= RADIX_MIN)
            if by_values:
                n_few = few_value_sums(Xt, Xr, f, samples, a, b, y, w, few, sort.rcnt)
            if n_few > 0:
                nm = np.intp(0)
            else:
                gather(Xt, Xr, f, samples, a, b, vals)
                nm = _sort_nan_last(vals, samples, a, b, nan_mask[f] != 0, sort,
                                    not by_values)
        e = sb - nm
        if n_few > 0:
            constant = few[n_few - 1, 3] <= few[0, 3] + FEATURE_THRESHOLD
        else:
            constant = e == sa or (nm == 0 and fv[e - 1] <= fv[sa] + FEATURE_THRESHOLD)
        if constant:
            t = n_known + n_found
            features[f_j], features[t] = features[t], features[f_j]
            n_found += 1
            continue
        f_i -= 1
        features[f_i], features[f_j] = features[f_j], features[f_i]
        s_proxy = best_proxy
        s_thr = 0.0
        s_ml = np.intp(0)
        if n_few > 0:
            # the feature's few values in order with their sums: a candidate between
            # each two (the generic scan's candidates, rules and choice; its sums come
            # per value, not per sample)
            n_left = 0.0
            s_l = 0.0
            wl = 0.0
            for r in range(n_few - 1):
                wl += few[r, 0]
                s_l += few[r, 1]
                n_left += few[r, 2]
                if few[r + 1, 3] <= few[r, 3] + FEATURE_THRESHOLD:
                    continue
                if n_left < min_samples_leaf or b - a - n_left < min_samples_leaf:
                    continue
                wr = wn - wl
                if wl < min_weight_leaf or wr < min_weight_leaf:
                    continue
                s_r = stats[0] - s_l
                proxy = s_l * s_l / wl + s_r * s_r / wr
                if proxy > s_proxy:
                    s_proxy = proxy
                    s_thr = few[r, 3] / 2.0 + few[r + 1, 3] / 2.0
                    s_ml = 1 if n_left > b - a - n_left else 0
        elif listed and binned and one_out and nm == 0 and cst == 0 and (
                crit == _c.SQUARED_ERROR or (crit == _c.ENTROPY and use_xl)):
            # a presorted list (histogram trees), one output, squared error or entropy
            # with integer weights: one forward pass (the generic scan's order of
            # additions, which scikit-learn's trees share, matters to exact trees only).
            # Squared error keeps its sum in a scalar; entropy takes w H = w ln w -
            # sum_k v_k ln v_k from the k ln k table (no logarithm, no division), in nats
            # scaled to the generic proxy's bits
            mse = crit == _c.SQUARED_ERROR
            fill(sl, 0.0)
            s_l = 0.0
            wl = 0.0
            for q in range(sa + 1, sb):
                s = fs[q - 1]
                ws = w[s]
                if mse:
                    s_l += ws * y[s, 0]
                else:
                    sl[np.intp(y[s, 0])] += ws
                wl += ws
                if fv[q] <= fv[q - 1] + FEATURE_THRESHOLD:
                    continue
                if q - sa < min_samples_leaf or sb - q < min_samples_leaf:
                    continue
                wr = wn - wl
                if wl < min_weight_leaf or wr < min_weight_leaf:
                    continue
                if mse:
                    s_r = stats[0] - s_l
                    proxy = s_l * s_l / wl + s_r * s_r / wr
                else:
                    proxy = _table_entropy_proxy(xl, sl, stats, wl, wr, nc0)
                if proxy > s_proxy:
                    s_proxy = proxy
                    s_thr = fv[q - 1] / 2.0 + fv[q] / 2.0
                    s_ml = 1 if q - sa > sb - q else 0
        else:
            for ps in range(1 if nm == 0 else 2):
                if ps == 1:
                    shift_missing_left(fs, fv, sa, sb, nm, tmp_s, tmp_v)
                q = sa if ps == 0 else sa + nm
                q_end = e if ps == 0 else sb
                inf_q = e if (nm > 0 and ps == 0) else np.intp(-1)
                if abs_work is not None:
                    _c.abs_split_costs(y, w, fs, sa, sb, n_outputs, abs_work.cost, abs_work.tmp,
                                       abs_work.yv, abs_work.wv, abs_work.h1, abs_work.h2,
                                       abs_work.h3, abs_work.h4)
                fill(sl, 0.0)
                wl = 0.0
                cur = sa
                while q < q_end:
                    q += 1
                    if q > z_lo and q < z_hi:  # a sparse column's run of zeros: no candidate
                        q = z_hi
                    while q < q_end and fv[q] <= fv[q - 1] + FEATURE_THRESHOLD:
                        q += 1
                        if q > z_lo and q < z_hi:
                            q = z_hi
                    if q >= sb:
                        break
                    if q - sa < min_samples_leaf or sb - q < min_samples_leaf:
                        continue
                    if one_out and q - cur <= sb - q:
                        # the common forward step, written out for one output (a call to
                        # move_left per position costs several times the update itself)
                        if is_clf:
                            for p in range(cur, q):
                                s = fs[p]
                                ws = w[s]
                                sl[np.intp(y[s, 0])] += ws
                                wl += ws
                        else:
                            # the sum of squares is not needed by the proxy
                            for p in range(cur, q):
                                s = fs[p]
                                ws = w[s]
                                sl[0] += ws * y[s, 0]
                                wl += ws
                    elif many_mse and cst == 0:
                        # move_left's two directions and order of additions, the sums
                        # only (the proxy needs no sum of squares)
                        if q - cur <= sb - q:
                            for p in range(cur, q):
                                s = fs[p]
                                ws = w[s]
                                for o in range(n_outputs):
                                    sl[o] += ws * y[s, o]
                                wl += ws
                        else:
                            for o in range(n_outputs):
                                sl[o] = stats[o]
                            wl = wn
                            for p in range(sb - 1, q - 1, -1):
                                s = fs[p]
                                ws = -w[s]
                                for o in range(n_outputs):
                                    sl[o] += ws * y[s, o]
                                wl += ws
                    else:
                        wl = move_left(sl, wl, cur, q, sb, fs, y, w, stats, wn, crit,
                                        n_outputs, K)
                    cur = q
                    wr = wn - wl
                    if wl < min_weight_leaf or wr < min_weight_leaf:
                        continue
                    if one_out and crit == _c.GINI:
                        proxy = gini_proxy(sl, stats, nc0, wl, wr)
                    elif one_out and crit == _c.SQUARED_ERROR:
                        # _c.mse_proxy
                        s_l = sl[0]
                        s_r = stats[0] - s_l
                        proxy = s_l * s_l / wl + s_r * s_r / wr
                    elif many_mse and cst == 0:
                        # _c.mse_proxy, same order of additions
                        p_l = 0.0
                        p_r = 0.0
                        for o in range(n_outputs):
                            s_l = sl[o]
                            s_r = stats[o] - s_l
                            p_l += s_l * s_l
                            p_r += s_r * s_r
                        proxy = p_l / wl + p_r / wr
                    elif abs_work is not None:
                        proxy = -abs_work.cost[q - a]
                    elif one_out and use_xl and crit == _c.ENTROPY and _table_entropy_proxy(
                            xl, sl, stats, wl, wr, nc0) + xl_margin < s_proxy:
                        # the proxy from the k ln k table (lookups, no logarithm) puts
                        # the candidate below the best by more than both computations'
                        # rounding: it cannot be the best, and skips the exact value
                        # (scikit-learn's arithmetic, which decides ties, is kept for
                        # every other candidate)
                        proxy = -np.inf
                    else:
                        for k in range(rule.S):
                            sr[k] = stats[k] - sl[k]
                        proxy = _c.proxy_improvement(sl, sr, wl, wr, crit, n_outputs, K,
                                                     n_classes)
                    # a constrained candidate is checked only when it would be the best:
                    # the same choice as rejecting it first (scikit-learn's order)
                    if proxy > s_proxy and (cst == 0 or _c.monotone_ok(
                            sl, stats, wl, wr, cst, lower, upper)):
                        s_proxy = proxy
                        # sum of halves between two values, or +inf for the candidate that
                        # sends exactly the missing values right; missing values go the scan's
                        # side, or (none at the node) to the larger child
                        s_thr = np.inf if q == inf_q else fv[q - 1] / 2.0 + fv[q] / 2.0
                        s_ml = ps if nm > 0 else (1 if q - sa > sb - q else 0)
        if nm > 0 and listed:
            # the missing values back to the end of the presorted list
            shift_missing_left(fs, fv, sa, sb, sb - sa - nm, tmp_s, tmp_v)
        proxy, thr, ml = s_proxy, s_thr, s_ml
        if proxy > best_proxy:
            best_proxy = proxy
            best_f = f
            best_thr = thr
            best_ml = ml
    n_const = end_draw_counts(features, const_features, n_known, n_found)
    if best_f < 0:
        return no_split(node, n_const)
    pos = partition_rows(Xr, best_f, best_thr, samples, a, b, samples, False, best_ml != 0,
                         np.float32(np.nan))
    if pre is not None and b - a <= pre.order.shape[1]:
        partition_presorted(pre, samples, a, pos, b, 2 * min_samples_leaf, features,
                            n_const)
    wl = left_stats(y, w, samples, sl, rule, node, pos)
    return finish_split(y, w, samples, sl, sr, rule, node, abs_work, pos, best_f, best_thr,
                        best_ml, n_const, wl)


@njit(cache=True, nogil=True, _nrt=False)
def split_best_csc(csc, data, rule, node, work, sort, abs_work):
    """:func:`split_best` for sparse X (CSC ``csc``, no missing values): a column's
    stored entries at the node are arranged and sorted apart from its zeros, whose run
    the scan skips (``csc`` also holds the rows' positions and the entries' buffers)."""
    y = data.y
    w = data.w
    samples = work.samples
    vals = work.vals
    features = work.features
    a = node.a
    b = node.b
    index_node(samples, a, b, csc.pos)
    grouped = group_if_cheaper(csc.by_rows, samples, a, b, rule.max_features,
                               csc.indptr[-1])
    best_proxy = -np.inf
    best_f = np.intp(-1)
    best_thr = 0.0
    best_ml = np.intp(0)
    start_draw(work.draw, node.n_const, data.nan_mask.shape[0])
    while True:
        f_j = next_feature(work.draw, features, work.rng, rule.max_features)
        if f_j < 0:
            break
        f = features[f_j]
        cnt, in_order = column_at_node(csc, csc.by_rows, csc.by_value, f, samples, a, b, grouped)
        z_lo = np.intp(-1)
        z_hi = np.intp(-1)
        if cnt == 0:  # all zeros at the node: constant, found without a pass over it
            vals[a] = 0.0
            vals[b - 1] = 0.0
        else:
            z_lo, z_hi = arrange_nonzeros(cnt, csc.nz_rows, csc.nz_vals, samples, a, b,
                                          vals, csc.pos, np.bool_(True), in_order)
        if vals[b - 1] <= vals[a] + FEATURE_THRESHOLD:
            constant_feature(work.draw, features, f_j)
            continue
        evaluated_feature(work.draw, features, f_j)
        proxy, thr, ml = scan_sorted(y, w, samples, vals, work.sl, work.sr, node.stats,
                                     rule.n_classes, sort.tmp_s, sort.tmp_v, abs_work, rule,
                                     node, np.intp(0), z_lo, z_hi, best_proxy,
                                     feature_constraint(rule, f))
        if proxy > best_proxy:
            best_proxy = proxy
            best_f = f
            best_thr = thr
            best_ml = ml
    n_const = end_draw(work.draw, features, work.const_features)
    if best_f < 0:
        return no_split(node, n_const)
    cnt, in_order = column_at_node(csc, csc.by_rows, csc.by_value, best_f, samples, a, b, grouped)
    z_lo, z_hi = arrange_nonzeros(cnt, csc.nz_rows, csc.nz_vals, samples, a, b, vals,
                                  csc.pos, np.bool_(False))
    pos = split_arranged(samples, vals, csc.pos, a, b, z_lo, z_hi, best_thr)
    wl = left_stats(data.y, data.w, work.samples, work.sl, rule, node, pos)
    return finish_split(data.y, data.w, work.samples, work.sl, work.sr, rule, node, abs_work,
                        pos, best_f, best_thr, best_ml, n_const, wl)
