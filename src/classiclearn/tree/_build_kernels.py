"""Growing a CART tree (seed 000 §11.1) into flat arrays with numba.

One builder serves classification and regression, depth-first and best-first
growth, and the ``best`` (exact, sorted feature values) and ``random``
(extremely randomized, §11.3: one uniform threshold per candidate feature)
splitters. It releases the GIL, so forests grow trees in Python threads.

Inputs (see :func:`build_tree`): ``Xt`` is the float32 *transposed* data
(n_features, n_samples), C-contiguous, so gathering one feature is a
contiguous read; ``y`` float64 (n_samples, n_outputs) holds class indices
(classification) or targets; ``w`` float64 sample weights; ``samples`` the
rows to use (positive weight only).

Output node arrays: ``inodes`` (node_count, 4) intp = left child, right child,
feature, n_node_samples (children -1 and feature -2 at leaves);
``fnodes`` (node_count, 3) float64 = threshold, impurity, weighted samples;
``value`` (node_count, n_outputs * K) = weighted class counts or means /
medians.
"""

import numpy as np
from numba import njit

from . import _criteria_kernels as _c
from ._util_kernels import radix_sort_pairs, rand_int, rand_uniform, sort_pairs

FEATURE_THRESHOLD = 1e-7
EPSILON = np.finfo(np.float64).eps
SPLIT_BEST = 0
SPLIT_RANDOM = 1
RADIX_MIN = 256


@njit(cache=True, nogil=True)
def _grow(inodes, fnodes, value, cap):
    new_i = np.empty((cap, inodes.shape[1]), dtype=np.intp)
    new_f = np.empty((cap, fnodes.shape[1]), dtype=np.float64)
    new_v = np.empty((cap, value.shape[1]), dtype=np.float64)
    n = inodes.shape[0]
    new_i[:n] = inodes
    new_f[:n] = fnodes
    new_v[:n] = value
    return new_i, new_f, new_v


@njit(cache=True, nogil=True)
def _move_left(sl, wl, cur, new_pos, b, samples, y, w, parent_stats, wn, crit, n_outputs, K):
    """Left statistics at ``new_pos`` from those at ``cur``: add ``samples[cur:new_pos]``,
    or, when fewer samples lie right of ``new_pos``, start from the node totals and
    remove ``samples[new_pos:b]`` (scikit-learn's order of summation)."""
    is_clf = crit < 10
    if new_pos - cur <= b - new_pos:
        if is_clf:
            for p in range(cur, new_pos):
                s = samples[p]
                _c.add_class_sample(sl, y, s, w[s], n_outputs, K)
                wl += w[s]
        else:
            for p in range(cur, new_pos):
                s = samples[p]
                _c.add_reg_sample(sl, y, s, w[s], n_outputs)
                wl += w[s]
    else:
        sl[:] = parent_stats
        wl = wn
        if is_clf:
            for p in range(b - 1, new_pos - 1, -1):
                s = samples[p]
                _c.add_class_sample(sl, y, s, -w[s], n_outputs, K)
                wl -= w[s]
        else:
            for p in range(b - 1, new_pos - 1, -1):
                s = samples[p]
                _c.add_reg_sample(sl, y, s, -w[s], n_outputs)
                wl -= w[s]
    return wl


@njit(cache=True, nogil=True)
def _children_impurity(y, w, samples, a, pos, b, sl, sr, wl, wr, parent_stats, crit,
                       n_outputs, K, n_classes, scratch):
    if crit == _c.ABSOLUTE_ERROR:
        il = _c.abs_impurity(y, w, samples, a, pos, n_outputs, scratch[2], scratch[3])
        ir = _c.abs_impurity(y, w, samples, pos, b, n_outputs, scratch[2], scratch[3])
        return il, ir
    if crit < 10:
        return (_c.stats_impurity(sl, wl, crit, n_outputs, K, n_classes),
                _c.stats_impurity(sr, wr, crit, n_outputs, K, n_classes))
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


@njit(cache=True, nogil=True)
def _split_node(Xt, y, w, samples, a, b, wn, wn_total, imp_parent, parent_stats, crit,
                splitter, n_outputs, K, n_classes, max_features, min_samples_leaf,
                min_weight_leaf, rng, features, const_features, n_const, vals, sl, sr,
                scratch, rkeys, ridx, rcnt):
    """Best split of ``samples[a:b]``; reorders it so the left part comes first.

    Returns (pos, feature, threshold, improvement, impurity_left, impurity_right,
    n_constant_features); ``pos == b`` when no valid split exists.
    """
    n_features = Xt.shape[0]
    best_proxy = -np.inf
    best_f = -1
    best_thr = 0.0
    S = sl.shape[0]
    use_abs = crit == _c.ABSOLUTE_ERROR
    is_clf = crit < 10
    # Features are drawn without replacement; features known to be constant in
    # an ancestor sit in features[:n_known] (their order kept in const_features)
    # and count as visited without being evaluated, as in scikit-learn.
    n_known = n_const
    n_drawn = 0
    n_found = 0
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
        for i in range(a, b):
            vals[i] = Xt[f, samples[i]]
        if splitter == SPLIT_BEST:
            if b - a >= RADIX_MIN:
                radix_sort_pairs(vals, samples, a, b, rkeys[0], rkeys[1], ridx, rcnt)
            else:
                sort_pairs(vals, samples, a, b)
            constant = vals[b - 1] <= vals[a] + FEATURE_THRESHOLD
        else:
            mn = vals[a]
            mx = vals[a]
            for i in range(a + 1, b):
                v = vals[i]
                if v < mn:
                    mn = v
                elif v > mx:
                    mx = v
            constant = mx <= mn + FEATURE_THRESHOLD
        if constant:
            features[f_j], features[n_total] = features[n_total], features[f_j]
            n_found += 1
            n_total += 1
            continue
        f_i -= 1
        features[f_i], features[f_j] = features[f_j], features[f_i]

        if splitter == SPLIT_BEST:
            if use_abs:
                _c.abs_split_costs(y, w, samples, a, b, n_outputs, scratch[0], scratch[1],
                                   scratch[2], scratch[3], scratch[4], scratch[5],
                                   scratch[6], scratch[7])
            sl[:] = 0.0
            wl = 0.0
            cur = a
            q = a
            while True:
                q += 1
                while q < b and vals[q] <= vals[q - 1] + FEATURE_THRESHOLD:
                    q += 1
                if q >= b:
                    break
                if q - a < min_samples_leaf or b - q < min_samples_leaf:
                    continue
                if q - cur <= b - q:
                    if is_clf:
                        for p in range(cur, q):
                            s = samples[p]
                            _c.add_class_sample(sl, y, s, w[s], n_outputs, K)
                            wl += w[s]
                    else:
                        for p in range(cur, q):
                            s = samples[p]
                            _c.add_reg_sample(sl, y, s, w[s], n_outputs)
                            wl += w[s]
                else:
                    wl = _move_left(sl, wl, cur, q, b, samples, y, w, parent_stats, wn, crit,
                                    n_outputs, K)
                cur = q
                wr = wn - wl
                if wl < min_weight_leaf or wr < min_weight_leaf:
                    continue
                for k in range(S):
                    sr[k] = parent_stats[k] - sl[k]
                if crit == _c.GINI:
                    proxy = -wr * _c.gini(sr, wr, n_outputs, K, n_classes) - wl * _c.gini(
                        sl, wl, n_outputs, K, n_classes)
                elif crit == _c.ENTROPY:
                    proxy = -wr * _c.entropy(sr, wr, n_outputs, K, n_classes) - wl * (
                        _c.entropy(sl, wl, n_outputs, K, n_classes))
                elif crit == _c.MISCLASSIFICATION:
                    proxy = -wr * _c.misclassification(sr, wr, n_outputs, K, n_classes) - wl * (
                        _c.misclassification(sl, wl, n_outputs, K, n_classes))
                elif crit == _c.SQUARED_ERROR:
                    proxy = _c.mse_proxy(sl, sr, wl, wr, n_outputs)
                elif crit == _c.FRIEDMAN_MSE:
                    proxy = _c.friedman_proxy(sl, sr, wl, wr, n_outputs)
                else:
                    proxy = -scratch[0][q - a]
                if proxy > best_proxy:
                    best_proxy = proxy
                    best_f = f
                    best_thr = vals[q - 1] / 2.0 + vals[q] / 2.0
        else:
            thr = rand_uniform(rng, np.float64(mn), np.float64(mx))
            if thr == mx:
                thr = np.float64(mn)
            lo = a
            hi = b
            while lo < hi:
                if vals[lo] <= thr:
                    lo += 1
                else:
                    hi -= 1
                    vals[lo], vals[hi] = vals[hi], vals[lo]
                    samples[lo], samples[hi] = samples[hi], samples[lo]
            pos = hi
            if pos - a < min_samples_leaf or b - pos < min_samples_leaf:
                continue
            sl[:] = 0.0
            wl = _move_left(sl, 0.0, a, pos, b, samples, y, w, parent_stats, wn, crit,
                            n_outputs, K)
            wr = wn - wl
            if wl < min_weight_leaf or wr < min_weight_leaf:
                continue
            for k in range(S):
                sr[k] = parent_stats[k] - sl[k]
            if use_abs:
                il, ir = _children_impurity(y, w, samples, a, pos, b, sl, sr, wl, wr,
                                            parent_stats, crit, n_outputs, K, n_classes,
                                            scratch)
                proxy = -wl * il - wr * ir
            else:
                proxy = _c.proxy_improvement(sl, sr, wl, wr, crit, n_outputs, K, n_classes)
            if proxy > best_proxy:
                best_proxy = proxy
                best_f = f
                best_thr = thr
    features[:n_known] = const_features[:n_known]
    const_features[n_known:n_known + n_found] = features[n_known:n_known + n_found]
    if best_f < 0:
        return b, -2, -2.0, 0.0, 0.0, 0.0, n_total
    # partition samples[a:b] on the chosen split
    lo = a
    hi = b
    while lo < hi:
        if Xt[best_f, samples[lo]] <= best_thr:
            lo += 1
        else:
            hi -= 1
            samples[lo], samples[hi] = samples[hi], samples[lo]
    pos = hi
    sl[:] = 0.0
    wl = _move_left(sl, 0.0, a, pos, b, samples, y, w, parent_stats, wn, crit, n_outputs, K)
    wr = wn - wl
    for k in range(S):
        sr[k] = parent_stats[k] - sl[k]
    il, ir = _children_impurity(y, w, samples, a, pos, b, sl, sr, wl, wr, parent_stats, crit,
                                n_outputs, K, n_classes, scratch)
    improvement = (wn / wn_total) * (imp_parent - wr / wn * ir - wl / wn * il)
    return pos, best_f, best_thr, improvement, il, ir, n_total


@njit(cache=True, nogil=True)
def _evaluate(Xt, y, w, samples, a, b, depth, imp, wn_total, crit, splitter, n_outputs, K,
              n_classes, max_features, max_depth, min_samples_leaf, min_samples_split,
              min_weight_leaf, min_impurity_decrease, rng, features, const_features, n_const,
              vals, stats, sl, sr, scratch, rkeys, ridx, rcnt, value_row):
    """Statistics, value and split of the node ``samples[a:b]``.

    Returns (is_leaf, pos, feature, threshold, improvement, impurity, wn,
    impurity_left, impurity_right, n_constant_features). ``imp`` < 0 means: compute it here.
    """
    wn = _c.node_stats(y, w, samples, a, b, crit, n_outputs, K, stats)
    n = b - a
    if crit < 10:
        for k in range(stats.shape[0]):
            value_row[k] = stats[k]
    elif crit == _c.ABSOLUTE_ERROR:
        _c.abs_medians(y, w, samples, a, b, n_outputs, scratch[2], scratch[3], value_row)
    else:
        for o in range(n_outputs):
            value_row[o] = stats[o] / wn
    if imp < 0.0:
        if crit == _c.ABSOLUTE_ERROR:
            imp = _c.abs_impurity(y, w, samples, a, b, n_outputs, scratch[2], scratch[3])
        else:
            imp = _c.stats_impurity(stats, wn, crit, n_outputs, K, n_classes)
    is_leaf = (
        depth >= max_depth
        or n < min_samples_split
        or n < 2 * min_samples_leaf
        or wn < 2.0 * min_weight_leaf
        or imp <= EPSILON
    )
    if is_leaf:
        return True, b, -2, -2.0, 0.0, imp, wn, 0.0, 0.0, n_const
    pos, f, thr, improvement, il, ir, n_total = _split_node(
        Xt, y, w, samples, a, b, wn, wn_total, imp, stats, crit, splitter, n_outputs, K,
        n_classes, max_features, min_samples_leaf, min_weight_leaf, rng, features,
        const_features, n_const, vals, sl, sr, scratch, rkeys, ridx, rcnt,
    )
    if pos >= b or improvement + EPSILON < min_impurity_decrease:
        return True, b, -2, -2.0, 0.0, imp, wn, 0.0, 0.0, n_total
    return False, pos, f, thr, improvement, imp, wn, il, ir, n_total


@njit(cache=True, nogil=True)
def build_tree(Xt, y, w, samples, n_classes, crit, splitter, max_features, max_depth,
               min_samples_leaf, min_samples_split, min_weight_leaf, min_impurity_decrease,
               max_leaf_nodes, seed):
    """Grow one tree; depth-first, or best-first when ``max_leaf_nodes > 0``.

    Parameters are scalars as in the estimator (``max_depth`` a large int for
    None, ``max_features`` an int, ``min_weight_leaf`` an absolute weight).
    ``samples`` is copied, not modified. ``seed`` (uint64) drives the feature
    draws and random thresholds. Thread-safe.

    Returns (inodes, fnodes, value, max_depth_reached).
    """
    n_outputs = y.shape[1]
    n_features = Xt.shape[0]
    K = 1
    for o in range(n_outputs):
        if n_classes[o] > K:
            K = n_classes[o]
    S = n_outputs * K if crit < 10 else 2 * n_outputs
    V = n_outputs * K
    samples = samples.copy()
    n = samples.shape[0]
    rng = np.empty(1, dtype=np.uint64)
    rng[0] = seed
    features = np.arange(n_features)
    const_features = np.arange(n_features)
    vals = np.empty(n, dtype=Xt.dtype)
    stats = np.empty(S)
    sl = np.empty(S)
    sr = np.empty(S)
    m = n + 1 if crit == _c.ABSOLUTE_ERROR else 1
    scratch = np.empty((8, m))
    r = n if (splitter == SPLIT_BEST and n >= RADIX_MIN) else 1
    rkeys = np.empty((2, r), dtype=np.uint32)
    ridx = np.empty(r, dtype=np.intp)
    rcnt = np.empty((4, 256), dtype=np.intp)
    wn_total = 0.0
    for i in range(n):
        wn_total += w[samples[i]]

    cap = 64
    inodes = np.empty((cap, 4), dtype=np.intp)
    fnodes = np.empty((cap, 3))
    value = np.empty((cap, V))
    count = 0
    depth_reached = 0

    if max_leaf_nodes <= 0:
        # depth-first: a stack of (start, end, depth, parent, is_left) + impurity
        stack_i = np.empty((64, 6), dtype=np.intp)
        stack_f = np.empty(64)
        stack_i[0, 0] = 0
        stack_i[0, 1] = n
        stack_i[0, 2] = 0
        stack_i[0, 3] = -1
        stack_i[0, 4] = 0
        stack_i[0, 5] = 0
        stack_f[0] = -1.0
        top = 1
        while top > 0:
            top -= 1
            a = stack_i[top, 0]
            b = stack_i[top, 1]
            depth = stack_i[top, 2]
            parent = stack_i[top, 3]
            is_left = stack_i[top, 4]
            n_const = stack_i[top, 5]
            if count >= cap:
                cap *= 2
                inodes, fnodes, value = _grow(inodes, fnodes, value, cap)
            node = count
            count += 1
            res = _evaluate(Xt, y, w, samples, a, b, depth, stack_f[top], wn_total, crit,
                            splitter, n_outputs, K, n_classes, max_features, max_depth,
                            min_samples_leaf, min_samples_split, min_weight_leaf,
                            min_impurity_decrease, rng, features, const_features, n_const,
                            vals, stats, sl, sr, scratch, rkeys, ridx, rcnt, value[node])
            is_leaf, pos, f, thr, improvement, imp, wn, il, ir, n_const = res
            if depth > depth_reached:
                depth_reached = depth
            if parent >= 0:
                if is_left:
                    inodes[parent, 0] = node
                else:
                    inodes[parent, 1] = node
            inodes[node, 0] = -1
            inodes[node, 1] = -1
            inodes[node, 2] = f
            inodes[node, 3] = b - a
            fnodes[node, 0] = thr
            fnodes[node, 1] = imp
            fnodes[node, 2] = wn
            if not is_leaf:
                if top + 2 > stack_i.shape[0]:
                    bigger_i = np.empty((2 * stack_i.shape[0], 6), dtype=np.intp)
                    bigger_f = np.empty(2 * stack_i.shape[0])
                    bigger_i[:top] = stack_i[:top]
                    bigger_f[:top] = stack_f[:top]
                    stack_i = bigger_i
                    stack_f = bigger_f
                # right first so that the left child is processed (numbered) first
                stack_i[top, 0] = pos
                stack_i[top, 1] = b
                stack_i[top, 2] = depth + 1
                stack_i[top, 3] = node
                stack_i[top, 4] = 0
                stack_i[top, 5] = n_const
                stack_f[top] = ir
                top += 1
                stack_i[top, 0] = a
                stack_i[top, 1] = pos
                stack_i[top, 2] = depth + 1
                stack_i[top, 3] = node
                stack_i[top, 4] = 1
                stack_i[top, 5] = n_const
                stack_f[top] = il
                top += 1
        return inodes[:count].copy(), fnodes[:count].copy(), value[:count].copy(), depth_reached

    # best-first: every node is evaluated when created and waits in a max-heap
    # keyed by its impurity improvement; popping expands it while leaves remain.
    fr_i = np.empty((64, 6), dtype=np.intp)  # node, start, end, pos, depth, n_const
    fr_f = np.empty((64, 4))  # improvement, impurity_left, impurity_right, is_leaf
    n_front = 0
    max_split_nodes = max_leaf_nodes - 1
    # evaluate root
    res = _evaluate(Xt, y, w, samples, 0, n, 0, -1.0, wn_total, crit, splitter, n_outputs, K,
                    n_classes, max_features, max_depth, min_samples_leaf, min_samples_split,
                    min_weight_leaf, min_impurity_decrease, rng, features, const_features, 0,
                    vals, stats, sl, sr, scratch, rkeys, ridx, rcnt, value[0])
    pending_parent = -1
    pending_left = 0
    # the root and later children are added through the same block below
    todo_a = np.empty(2, dtype=np.intp)
    todo_b = np.empty(2, dtype=np.intp)
    todo_imp = np.empty(2)
    n_todo = 0
    depth = 0
    parent_const = 0
    first = True
    while True:
        if not first:
            if n_front == 0:
                break
            # pop the record with the largest improvement
            best = 0
            n_front -= 1
            rec_i = fr_i[0].copy()
            rec_f = fr_f[0].copy()
            fr_i[0] = fr_i[n_front]
            fr_f[0] = fr_f[n_front]
            k = 0
            while True:
                c1 = 2 * k + 1
                if c1 >= n_front:
                    break
                if c1 + 1 < n_front and fr_f[c1 + 1, 0] > fr_f[c1, 0]:
                    c1 += 1
                if fr_f[c1, 0] > fr_f[k, 0]:
                    tmp_i = fr_i[c1].copy()
                    tmp_f = fr_f[c1].copy()
                    fr_i[c1] = fr_i[k]
                    fr_f[c1] = fr_f[k]
                    fr_i[k] = tmp_i
                    fr_f[k] = tmp_f
                    k = c1
                else:
                    break
            best += 0
            node = rec_i[0]
            is_leaf = rec_f[3] > 0.5 or max_split_nodes <= 0
            if is_leaf:
                inodes[node, 0] = -1
                inodes[node, 1] = -1
                inodes[node, 2] = -2
                fnodes[node, 0] = -2.0
                continue
            max_split_nodes -= 1
            pending_parent = node
            todo_a[0] = rec_i[1]
            todo_b[0] = rec_i[3]
            todo_a[1] = rec_i[3]
            todo_b[1] = rec_i[2]
            todo_imp[0] = rec_f[1]
            todo_imp[1] = rec_f[2]
            n_todo = 2
            depth = rec_i[4] + 1
            parent_const = rec_i[5]
        else:
            n_todo = 1
        for t in range(n_todo):
            if count >= cap:
                cap *= 2
                inodes, fnodes, value = _grow(inodes, fnodes, value, cap)
            node = count
            count += 1
            if first:
                a = 0
                b = n
            else:
                a = todo_a[t]
                b = todo_b[t]
                res = _evaluate(Xt, y, w, samples, a, b, depth, todo_imp[t], wn_total, crit,
                                splitter, n_outputs, K, n_classes, max_features, max_depth,
                                min_samples_leaf, min_samples_split, min_weight_leaf,
                                min_impurity_decrease, rng, features, const_features,
                                parent_const, vals, stats, sl, sr, scratch, rkeys, ridx,
                                rcnt, value[node])
                pending_left = 1 if t == 0 else 0
                if pending_left:
                    inodes[pending_parent, 0] = node
                else:
                    inodes[pending_parent, 1] = node
            is_leaf, pos, f, thr, improvement, imp, wn, il, ir, n_const = res
            if depth > depth_reached:
                depth_reached = depth
            inodes[node, 0] = -1
            inodes[node, 1] = -1
            inodes[node, 2] = f
            inodes[node, 3] = b - a
            fnodes[node, 0] = thr
            fnodes[node, 1] = imp
            fnodes[node, 2] = wn
            # push onto the frontier
            if n_front >= fr_i.shape[0]:
                bigger_i = np.empty((2 * fr_i.shape[0], 6), dtype=np.intp)
                bigger_f = np.empty((2 * fr_i.shape[0], 4))
                bigger_i[:n_front] = fr_i[:n_front]
                bigger_f[:n_front] = fr_f[:n_front]
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
            fr_f[k, 0] = improvement if not is_leaf else 0.0
            fr_f[k, 1] = il
            fr_f[k, 2] = ir
            fr_f[k, 3] = 1.0 if is_leaf else 0.0
            while k > 0:
                par = (k - 1) // 2
                if fr_f[par, 0] < fr_f[k, 0]:
                    tmp_i = fr_i[par].copy()
                    tmp_f = fr_f[par].copy()
                    fr_i[par] = fr_i[k]
                    fr_f[par] = fr_f[k]
                    fr_i[k] = tmp_i
                    fr_f[k] = tmp_f
                    k = par
                else:
                    break
        first = False
    # the depth actually reached is that of the deepest node kept
    return inodes[:count].copy(), fnodes[:count].copy(), value[:count].copy(), depth_reached
