"""The random splitter of the CART builder (extremely randomized trees, seed 000
§11.3): one uniform threshold per candidate feature, the best of them kept.

``split_random`` for dense X and ``split_random_csc`` for sparse X (only a column's
stored values on the threshold's side of zero move, so a feature costs about its
stored entries at the node, not the node's size). The arguments are the named
tuples of ``_split_kernels``; both return a ``Split`` and reorder ``samples[a:b]``
so that the left part comes first.
"""

import numpy as np

from .._kernels.jit import njit
from . import _criteria_kernels as _c
from ._split_kernels import (
    FEATURE_THRESHOLD,
    ROW_GATHER_MAX,
    allowed,
    arrange_nonzeros,
    children_impurity,
    column_at_node,
    constant_feature,
    end_draw,
    end_draw_counts,
    evaluated_feature,
    feature_constraint,
    fill,
    finish_split,
    gather,
    gini_proxy,
    group_if_cheaper,
    index_node,
    larger_side,
    left_stats,
    move_left,
    next_feature,
    no_split,
    partition_rows,
    range_without_nan,
    split_arranged,
    stable_partition,
    start_draw,
)
from ._util_kernels import rand_int, rand_uniform


@njit(cache=True, nogil=True, inline="always")
def random_threshold(rng, mn, mx, nm):
    """A uniform threshold in ``[mn, mx)`` and, with missing values at the node, whether
    they go left (drawn after the threshold)."""
    thr = rand_uniform(rng, np.float64(mn), np.float64(mx))
    ml = nm > 0 and rand_int(rng, np.intp(0), np.intp(2)) == 1
    if thr == mx:
        thr = np.float64(mn)
    return thr, ml


@njit(cache=True, nogil=True, inline="always")
def random_candidate(data, rule, node, work, abs_work, pos, best_proxy, cst):
    """The proxy of the candidate putting ``samples[a:pos]`` left when it is valid (leaf
    sizes and weights), better than ``best_proxy`` and within the constraint ``cst``;
    else -inf."""
    a = node.a
    b = node.b
    if pos - a < rule.min_samples_leaf or b - pos < rule.min_samples_leaf:
        return -np.inf
    sl = work.sl
    sr = work.sr
    wl = left_stats(data.y, data.w, work.samples, work.sl, rule, node, pos)
    wr = node.wn - wl
    if wl < rule.min_weight_leaf or wr < rule.min_weight_leaf:
        return -np.inf
    for k in range(rule.S):
        sr[k] = node.stats[k] - sl[k]
    if abs_work is not None:
        il, ir = children_impurity(data.y, data.w, work.samples, sl, sr, rule, node, pos,
                                   wl, wr, abs_work)
        proxy = -wl * il - wr * ir
    else:
        proxy = _c.proxy_improvement(sl, sr, wl, wr, rule.crit, rule.n_outputs, rule.K,
                                     rule.n_classes)
    if proxy > best_proxy and allowed(rule, node, cst, sl, wl, wr):
        return proxy
    return -np.inf


@njit(cache=True, nogil=True, _nrt=False)
def _count_left(vals, yw, a, b, thr, ml, kb, n_classes, sl, lanes):
    """Counted candidate of :func:`split_random`'s fast path: ``sl`` = the class weights
    of the values ``<= thr`` (NaN too when ``ml``) among ``vals[a:b]`` from the keys
    ``yw`` (``lanes``: int64 scratch of at least 4 * n_classes); returns (number,
    weight) of them. Integer sums (exact, so any order is
    right), weights multiplied by the comparison (0 or 1) rather than selected: the
    loop has no branch on the comparison, which half the samples of a random threshold
    would mispredict."""
    cmask = (np.int64(1) << kb) - np.int64(1)
    nl = np.int64(0)
    wl_i = np.int64(0)
    if n_classes == 2:
        # class-1 weight; class 0 = total - class 1
        w1 = np.int64(0)
        for i in range(a, b):
            v = vals[i]
            m = np.int64((np.float64(v) <= thr) | (ml & (v != v)))
            key = yw[i]
            wi = (key >> kb) * m
            nl += m
            wl_i += wi
            w1 += wi * (key & cmask)
        sl[0] = np.float64(wl_i - w1)
        sl[1] = np.float64(w1)
    else:
        # four interleaved counters per class (``lanes``, 4 * n_classes int64): a
        # sample's update does not wait on the previous sample's to the same class.
        # The test for NaN has a loop of its own: in this loop it costs more than the loop
        for c in range(4 * n_classes):
            lanes[c] = 0
        if ml:
            for i in range(a, b):
                v = vals[i]
                m = np.int64((np.float64(v) <= thr) | (v != v))
                key = yw[i]
                wi = (key >> kb) * m
                nl += m
                wl_i += wi
                lanes[(i & 3) * n_classes + (key & cmask)] += wi
        else:
            for i in range(a, b):
                m = np.int64(np.float64(vals[i]) <= thr)
                key = yw[i]
                wi = (key >> kb) * m
                nl += m
                wl_i += wi
                lanes[(i & 3) * n_classes + (key & cmask)] += wi
        for c in range(n_classes):
            sl[c] = np.float64(lanes[c] + lanes[n_classes + c] + lanes[2 * n_classes + c]
                               + lanes[3 * n_classes + c])
    return nl, np.float64(wl_i)


@njit(cache=True, nogil=True, _nrt=False)
def _sum_left(vals, yv, a, b, thr, ml):
    """Regression counterpart of :func:`_count_left` (one output, unit weights): the
    number of the values ``<= thr`` (NaN too when ``ml``) among ``vals[a:b]`` and the
    sum of their targets ``yv``, in sample order. The targets are multiplied by the
    comparison (0 or 1), not selected: a select compiles to a branch, mispredicted on
    half the samples of a random threshold."""
    nl = np.int64(0)
    total = 0.0
    if ml:
        for i in range(a, b):
            v = vals[i]
            m = (np.float64(v) <= thr) | (v != v)
            nl += np.int64(m)
            total += yv[i] * np.float64(m)
    else:
        for i in range(a, b):
            m = np.float64(vals[i]) <= thr
            nl += np.int64(m)
            total += yv[i] * np.float64(m)
    return nl, total


@njit(cache=True, nogil=True, _nrt=False)
def split_random(dense, data, rule, node, work, rnd, abs_work):
    """Best of one random threshold per candidate feature (dense X), scikit-learn's
    random splitter; reorders the node's samples so the left part comes first.

    Missing values: their side is drawn with the threshold. ``rnd.fast`` (one output,
    classification, integer weights: unit, bootstrap counts): the class counts left of
    each threshold are summed over the node's samples in place, without partitioning
    them per candidate (:func:`_count_left`): the sums are exact integers, so they
    equal the partitioned (scikit-learn) ones whatever the order. ``rnd.yw[a:b]`` holds
    the node's keys ``(weight << kb) | class`` in sample order, and ``rnd.vals_b``
    receives the best candidate's values (buffers swapped with ``work.vals``) for the
    final stable partition. For regression (one output, unit weights, not
    absolute_error) ``rnd.yw`` holds the bits of the node's targets and the sums left
    of each threshold are taken the same way (:func:`_sum_left`): in sample order, not
    scikit-learn's partitioned order, so a candidate tied with another to the last bit
    may be chosen where scikit-learn's round-off picks the other."""
    # the arrays and scalars taken out of their tuples once per node
    Xt = dense.Xt
    Xr = dense.Xr
    nan_mask = data.nan_mask
    y = data.y
    w = data.w
    samples = work.samples
    features = work.features
    const_features = work.const_features
    rng = work.rng
    vals = work.vals
    sl = work.sl
    sr = work.sr
    stats = node.stats
    n_classes = rule.n_classes
    mono = rule.mono
    vals_b = rnd.vals_b
    yw = rnd.yw
    ywtmp = rnd.ywtmp
    sbest = rnd.sbest
    ridx = rnd.ridx
    fast = rnd.fast
    kb = rnd.kb
    max_features = rule.max_features
    use_mono = rule.use_mono
    crit = rule.crit
    n_outputs = rule.n_outputs
    K = rule.K
    S = rule.S
    msl = rule.min_samples_leaf
    mwl = rule.min_weight_leaf
    nc0 = n_classes[0]
    one_out = n_outputs == 1
    reg_fast = fast and crit >= _c.FIRST_REGRESSION
    yv = yw.view(np.float64)
    a = node.a
    b = node.b
    wn = node.wn
    lower = node.lower
    upper = node.upper
    best_proxy = -np.inf
    best_f = np.intp(-1)
    best_thr = 0.0
    best_wl = 0.0
    best_pos = b
    best_ml = np.intp(0)
    last_f = np.intp(-1)
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
        last_f = f
        nm = np.intp(0)
        if not nan_mask[f]:
            # only the range is needed: gathered in the same pass
            if b - a <= ROW_GATHER_MAX:
                mn = Xr[samples[a], f]
                mx = mn
                for i in range(a, b):
                    v = Xr[samples[i], f]
                    vals[i] = v
                    mn = min(mn, v)
                    mx = max(mx, v)
            else:
                xf = Xt[f]
                mn = xf[samples[a]]
                mx = mn
                for i in range(a, b):
                    v = xf[samples[i]]
                    vals[i] = v
                    mn = min(mn, v)
                    mx = max(mx, v)
        else:
            gather(Xt, Xr, f, samples, a, b, vals)
            nm, mn, mx = range_without_nan(vals, a, b)
        if b - nm == a or (nm == 0 and mx <= mn + FEATURE_THRESHOLD):
            t = n_known + n_found
            features[f_j], features[t] = features[t], features[f_j]
            n_found += 1
            continue
        f_i -= 1
        features[f_i], features[f_j] = features[f_j], features[f_i]
        thr = rand_uniform(rng, np.float64(mn), np.float64(mx))
        # missing values at the node: their side is drawn too (after the threshold)
        ml = nm > 0 and rand_int(rng, np.intp(0), np.intp(2)) == 1
        if thr == mx:
            thr = np.float64(mn)
        cst = mono[f] if use_mono else np.intp(0)
        if fast:
            if reg_fast:
                nl, sl[0] = _sum_left(vals, yv, a, b, thr, ml)
                wl = np.float64(nl)
            else:
                nl, wl = _count_left(vals, yw, a, b, thr, ml, kb, nc0, sl, ywtmp)
            pos = a + nl
            if pos - a < msl or b - pos < msl:
                continue
            wr = wn - wl
            if wl < mwl or wr < mwl:
                continue
            if crit == _c.GINI:
                proxy = gini_proxy(sl, stats, nc0, wl, wr)
            elif crit == _c.SQUARED_ERROR:
                r0 = stats[0] - sl[0]
                proxy = sl[0] * sl[0] / wl + r0 * r0 / wr
            else:
                for k in range(S):
                    sr[k] = stats[k] - sl[k]
                proxy = _c.proxy_improvement(sl, sr, wl, wr, crit, n_outputs, K, n_classes)
            if proxy > best_proxy and (cst == 0 or _c.monotone_ok(sl, stats, wl, wr, cst,
                                                                   lower, upper)):
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
        # Hoare partition of samples[a:b] on their values
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
        if pos - a < msl or b - pos < msl:
            continue
        fill(sl, 0.0)
        wl = move_left(sl, 0.0, a, pos, b, samples, y, w, stats, wn, crit, n_outputs, K)
        wr = wn - wl
        if wl < mwl or wr < mwl:
            continue
        for k in range(S):
            sr[k] = stats[k] - sl[k]
        if abs_work is not None:
            il, ir = children_impurity(y, w, samples, sl, sr, rule, node, pos, wl, wr,
                                       abs_work)
            proxy = -wl * il - wr * ir
        elif one_out and crit == _c.SQUARED_ERROR:
            # _c.mse_proxy (the same operations), and _c.gini's below: written out, a
            # call to proxy_improvement per candidate costs more than them
            proxy = sl[0] * sl[0] / wl + sr[0] * sr[0] / wr
        elif one_out and crit == _c.GINI:
            proxy = gini_proxy(sl, stats, nc0, wl, wr)
        else:
            proxy = _c.proxy_improvement(sl, sr, wl, wr, crit, n_outputs, K, n_classes)
        if proxy > best_proxy and (cst == 0 or _c.monotone_ok(sl, stats, wl, wr, cst, lower,
                                                               upper)):
            best_proxy = proxy
            best_f = f
            best_thr = thr
            best_ml = (1 if ml else 0) if nm > 0 else (1 if pos - a > b - pos else 0)
            best_pos = pos
    n_const = end_draw_counts(features, const_features, n_known, n_found)
    if best_f < 0:
        return no_split(node, n_const)
    nan_left = best_ml != 0
    if fast:
        pos = stable_partition(samples, yw, vals_b, a, b, best_thr, nan_left, ridx, ywtmp)
        if reg_fast:
            # the sums of y and y^2 left (the candidates summed y only)
            wl = left_stats(y, w, samples, sl, rule, node, pos)
        else:
            # the left statistics of the chosen candidate (exact integer sums)
            wl = best_wl
            for k in range(S):
                sl[k] = sbest[k]
    else:
        if last_f == best_f:
            # already partitioned on the best candidate (the last one drawn): kept as it
            # is, as scikit-learn does, so the children's samples keep its order
            pos = best_pos
        else:
            pos = partition_rows(Xr, best_f, best_thr, samples, a, b, samples, False,
                                 nan_left, np.float32(np.nan))
        wl = left_stats(y, w, samples, sl, rule, node, pos)
    return finish_split(y, w, samples, sl, sr, rule, node, abs_work, pos, best_f, best_thr,
                        best_ml, n_const, wl)


@njit(cache=True, nogil=True, _nrt=False)
def split_random_csc(csc, data, rule, node, work, abs_work):
    """:func:`split_random` for sparse X (CSC ``csc``, no missing values): a column's
    stored entries at the node are arranged apart from its zeros, and a threshold
    moves only the stored values on its side of zero (``csc`` also holds the rows'
    positions and the entries' buffers)."""
    samples = work.samples
    vals = work.vals
    features = work.features
    rng = work.rng
    a = node.a
    b = node.b
    index_node(samples, a, b, csc.pos)
    grouped = group_if_cheaper(csc.by_rows, samples, a, b, rule.max_features,
                               csc.indptr[-1])
    nz_vals = csc.nz_vals
    best_proxy = -np.inf
    best_f = np.intp(-1)
    best_thr = 0.0
    best_pos = b
    best_ml = np.intp(0)
    last_f = np.intp(-1)
    start_draw(work.draw, node.n_const, data.nan_mask.shape[0])
    while True:
        f_j = next_feature(work.draw, features, rng, rule.max_features)
        if f_j < 0:
            break
        f = features[f_j]
        last_f = f
        cnt, _ = column_at_node(csc, csc.by_rows, csc.by_value, f, samples, a, b, grouped)
        z_lo = np.intp(-1)
        z_hi = np.intp(-1)
        if cnt == 0:  # all zeros at the node: constant, found without a pass over it
            vals[a] = 0.0
            vals[b - 1] = 0.0
            mn = np.float32(0.0)
            mx = mn
        else:
            z_lo, z_hi = arrange_nonzeros(cnt, csc.nz_rows, nz_vals, samples, a, b, vals,
                                          csc.pos, np.bool_(False))
            mn = nz_vals[0]
            mx = mn
            for t in range(cnt):
                mn = min(mn, nz_vals[t])
                mx = max(mx, nz_vals[t])
            if z_hi > z_lo:
                mn = min(mn, np.float32(0.0))
                mx = max(mx, np.float32(0.0))
        if mx <= mn + FEATURE_THRESHOLD:
            constant_feature(work.draw, features, f_j)
            continue
        evaluated_feature(work.draw, features, f_j)
        thr, _ = random_threshold(rng, mn, mx, np.intp(0))
        pos = split_arranged(samples, vals, csc.pos, a, b, z_lo, z_hi, thr)
        proxy = random_candidate(data, rule, node, work, abs_work, pos, best_proxy,
                                 feature_constraint(rule, f))
        if proxy > best_proxy:
            best_proxy = proxy
            best_f = f
            best_thr = thr
            best_ml = larger_side(node, pos)
            best_pos = pos
    n_const = end_draw(work.draw, features, work.const_features)
    if best_f < 0:
        return no_split(node, n_const)
    if last_f == best_f:
        # already partitioned on the best candidate (the last one drawn)
        pos = best_pos
    else:
        cnt, _ = column_at_node(csc, csc.by_rows, csc.by_value, best_f, samples, a, b, grouped)
        z_lo, z_hi = arrange_nonzeros(cnt, csc.nz_rows, nz_vals, samples, a, b, vals,
                                      csc.pos, np.bool_(False))
        pos = split_arranged(samples, vals, csc.pos, a, b, z_lo, z_hi, best_thr)
    wl = left_stats(data.y, data.w, work.samples, work.sl, rule, node, pos)
    return finish_split(data.y, data.w, work.samples, work.sl, work.sr, rule, node, abs_work,
                        pos, best_f, best_thr, best_ml, n_const, wl)
