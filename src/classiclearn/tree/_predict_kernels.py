"""Walking fitted trees: leaves, predictions and decision paths, vectorised over rows.

The fast walks read a *compact* copy of the trees built at the start of each
prediction call (:func:`compact_nodes`; it is not kept, so a fitted model holds
its nodes once): one 16-byte record per node with fields ``threshold``
(float64), ``feature`` and ``left`` (int32), the right child stored at
``left + 1``, so a step is ``node = left + (x[feature] > threshold)`` with no
branch. A leaf points at itself (``left`` = its own index, ``feature`` 0,
``threshold`` +inf: finite rows stay put), so a walk needs no test per step:
eight slots walk eight rows, four steps at a time, and a slot whose row has
reached its leaf then takes the next row (:func:`walk_tree`): eight
independent chains of loads are in flight at once instead of one. ``orig``
maps a compact index back to the node's index in ``packed`` (leaf ids and
``value`` rows).

Forest sums (:func:`sum_value_narrow`) walk 8-byte records instead
(:func:`narrow_nodes`: float32 threshold rounded down, which compares float32
rows exactly as the float64 threshold does, and one uint32 for child and
feature); trees and rows too large for them take the 16-byte records.

Forests pass their trees' records concatenated; ``roots`` is the index of each
tree's root (the same in ``packed`` and in the compact copy, each tree keeping
its slot range). X is float32, C-contiguous. The kernels are serial and
release the GIL; ``_tree.walk_rows`` runs row chunks in Python threads. A
chunk is walked tree by tree (a tree's nodes stay in cache for all its rows;
smaller row blocks measured slower), each row summing the trees in their
fixed order, so results do not depend on the thread count.

Missing values cost the compact and narrow walks nothing per step: an X holding
NaN is walked as ``[X with NaN -> -inf | X with NaN -> +inf]`` (2 p columns),
and a node whose missing values go right reads its feature from the second half
(``shift``), so a NaN goes where ``missing_go_to_left`` says with the same single
comparison. A threshold of +inf (the split "NaN against the rest") is stored
as the largest float32, which every finite value passes and +inf does not.
:func:`plain_apply` / :func:`plain_sum_value` (few rows) read
``missing_go_to_left`` directly (one extra test, made only when
``x <= threshold`` fails).
"""

import numpy as np

from .._kernels.jit import njit
from .._kernels.prefetch import prefetch2

# rows per block of :func:`apply_trees`
_BLOCK = 16384
# rows ahead whose cache lines :func:`apply_trees` prefetches (walks of one tree gain;
# forests summing many trees do not)
_AHEAD = 32
# the largest float32: stands for a threshold of +inf in the walk records
FLOAT32_MAX = float(np.finfo(np.float32).max)


@njit(cache=True, nogil=True)
def compact_nodes(packed, roots, nodes, orig, miss, shift):
    """Fill the compact records ``nodes`` and the map ``orig`` (see the module notes).

    ``shift`` > 0 (rows with NaN, walked doubled): nodes with ``miss[node] == 0``
    read feature ``feature + shift``; ``miss`` is not read when ``shift`` is 0.

    ``packed``: (left, right, feature, threshold) records, children local to the
    tree, left < 0 at leaves. Each tree keeps its slot range; nodes are visited
    depth first (left subtree first) and each visited inner node gets the next
    two free slots for its children, so a left-going path stays in nearby
    memory (faster walks than a breadth-first layout).
    """
    t = roots.shape[0]
    stack_o = np.empty(64, dtype=np.intp)  # original (global) index
    stack_c = np.empty(64, dtype=np.intp)  # compact slot
    for k in range(t):
        r = roots[k]
        nxt = r + 1
        stack_o[0] = r
        stack_c[0] = r
        sp = 1
        while sp > 0:
            sp -= 1
            o = stack_o[sp]
            c = stack_c[sp]
            orig[c] = o
            rec = packed[o]
            if rec.left < 0:
                nodes[c].threshold = np.inf
                nodes[c].feature = 0
                nodes[c].left = c
                continue
            nodes[c].threshold = min(rec.threshold, FLOAT32_MAX)
            nodes[c].feature = rec.feature + (shift if shift != 0 and miss[o] == 0 else 0)
            nodes[c].left = nxt
            if sp + 2 > stack_o.shape[0]:
                stack_o = np.concatenate((stack_o, np.empty_like(stack_o)))
                stack_c = np.concatenate((stack_c, np.empty_like(stack_c)))
            stack_o[sp] = r + rec.right
            stack_c[sp] = nxt + 1
            stack_o[sp + 1] = r + rec.left
            stack_c[sp + 1] = nxt
            sp += 2
            nxt += 2


@njit(cache=True, nogil=True, inline="always")
def _prefetch_rows(X, a, b):
    # every cache line of rows a:b (the last column too: rows need not start on a line)
    m = X.shape[1]
    step = max(1, 64 // X.itemsize)
    for j in range(a, b):
        for f in range(0, m, step):
            prefetch2(X, j, f)
        prefetch2(X, j, m - 1)


@njit(cache=True, nogil=True, inline="always")
def _step(X, i, nodes, c):
    a = nodes[c]
    return a.left + (np.float32(X[i, a.feature]) > a.threshold)


@njit(cache=True, nogil=True, inline="always")
def _settle(nodes, r, c, s, nxt, hi, leaves, lo):
    # a slot whose row reached its leaf records it and takes the next row; returns
    # (node, row, next row, whether the slot is idle: at a leaf with no row left)
    if nodes[c].left != c:
        return c, s, nxt, False
    leaves[s - lo] = c
    if nxt < hi:
        return r, nxt, nxt + 1, False
    return c, s, nxt, True


@njit(cache=True, nogil=True)
def walk_tree(X, nodes, r, lo, hi, leaves):
    """Compact leaf index of rows ``lo:hi`` in the tree rooted at ``r``, into ``leaves[: hi - lo]``.

    Eight slots each walk one row; every four steps (branch-free, a leaf stays
    put) a slot whose row has reached its leaf records it and takes the next
    row, so the slots stay busy and eight chains of loads are in flight. An
    idle slot keeps its last row and re-records the same leaf. Walking groups
    of eight rows in lock-step until all eight are at their leaves wastes a
    third of the steps when a forest sums its trees; for a single tree the
    lock-step walk with rows prefetched (:func:`apply_trees`) is the faster one.
    """
    s0 = lo
    s1 = lo + 1 if lo + 1 < hi else lo
    s2 = lo + 2 if lo + 2 < hi else lo
    s3 = lo + 3 if lo + 3 < hi else lo
    s4 = lo + 4 if lo + 4 < hi else lo
    s5 = lo + 5 if lo + 5 < hi else lo
    s6 = lo + 6 if lo + 6 < hi else lo
    s7 = lo + 7 if lo + 7 < hi else lo
    nxt = min(lo + 8, hi)
    c0 = c1 = c2 = c3 = c4 = c5 = c6 = c7 = r
    while True:
        for _ in range(4):
            c0 = _step(X, s0, nodes, c0)
            c1 = _step(X, s1, nodes, c1)
            c2 = _step(X, s2, nodes, c2)
            c3 = _step(X, s3, nodes, c3)
            c4 = _step(X, s4, nodes, c4)
            c5 = _step(X, s5, nodes, c5)
            c6 = _step(X, s6, nodes, c6)
            c7 = _step(X, s7, nodes, c7)
        c0, s0, nxt, d0 = _settle(nodes, r, c0, s0, nxt, hi, leaves, lo)
        c1, s1, nxt, d1 = _settle(nodes, r, c1, s1, nxt, hi, leaves, lo)
        c2, s2, nxt, d2 = _settle(nodes, r, c2, s2, nxt, hi, leaves, lo)
        c3, s3, nxt, d3 = _settle(nodes, r, c3, s3, nxt, hi, leaves, lo)
        c4, s4, nxt, d4 = _settle(nodes, r, c4, s4, nxt, hi, leaves, lo)
        c5, s5, nxt, d5 = _settle(nodes, r, c5, s5, nxt, hi, leaves, lo)
        c6, s6, nxt, d6 = _settle(nodes, r, c6, s6, nxt, hi, leaves, lo)
        c7, s7, nxt, d7 = _settle(nodes, r, c7, s7, nxt, hi, leaves, lo)
        if d0 and d1 and d2 and d3 and d4 and d5 and d6 and d7:
            return


@njit(cache=True, nogil=True)
def _walk8(X, i, nodes, r):
    # rows i..i+7 through the tree rooted at r, in lock-step; compact leaf indices
    c0 = c1 = c2 = c3 = c4 = c5 = c6 = c7 = r
    while True:
        n0 = _step(X, i, nodes, c0)
        n1 = _step(X, i + 1, nodes, c1)
        n2 = _step(X, i + 2, nodes, c2)
        n3 = _step(X, i + 3, nodes, c3)
        n4 = _step(X, i + 4, nodes, c4)
        n5 = _step(X, i + 5, nodes, c5)
        n6 = _step(X, i + 6, nodes, c6)
        n7 = _step(X, i + 7, nodes, c7)
        if ((n0 == c0) & (n1 == c1) & (n2 == c2) & (n3 == c3) & (n4 == c4) & (n5 == c5)
                & (n6 == c6) & (n7 == c7)):
            return c0, c1, c2, c3, c4, c5, c6, c7
        c0, c1, c2, c3, c4, c5, c6, c7 = n0, n1, n2, n3, n4, n5, n6, n7


@njit(cache=True, nogil=True)
def _walk1(X, i, nodes, r):
    c = r
    while True:
        n = _step(X, i, nodes, c)
        if n == c:
            return c
        c = n


@njit(cache=True, nogil=True)
def apply_trees(X, nodes, orig, roots, lo, hi, out):
    """Leaf index (in ``packed``, global) of rows ``lo:hi`` in every tree, into ``out``.

    ``out`` has shape (n_samples, n_trees). Serial and GIL-free; callers run row
    chunks in threads.
    """
    t = roots.shape[0]
    for b0 in range(lo, hi, _BLOCK):
        b1 = min(b0 + _BLOCK, hi)
        for k in range(t):
            r = roots[k]
            i = b0
            while i + 8 <= b1:
                if i + _AHEAD + 8 <= b1:
                    _prefetch_rows(X, i + _AHEAD, i + _AHEAD + 8)
                leaves = _walk8(X, i, nodes, r)
                for g in range(8):
                    out[i + g, k] = orig[leaves[g]]
                i += 8
            while i < b1:
                out[i, k] = orig[_walk1(X, i, nodes, r)]
                i += 1


@njit(cache=True, nogil=True, inline="always")
def _add_leaf(out, i, value, leaf, hard, n_classes, K):
    v = value.shape[1]
    if hard:
        for o in range(n_classes.shape[0]):
            best = 0
            for cl in range(1, n_classes[o]):
                if value[leaf, o * K + cl] > value[leaf, o * K + best]:
                    best = cl
            out[i, o * K + best] += 1.0
    else:
        for j in range(v):
            out[i, j] += value[leaf, j]


@njit(cache=True, nogil=True)
def sum_value(X, nodes, orig, roots, value, hard, n_classes, lo, hi, out):
    """Add, for rows ``lo:hi``, every tree's leaf value into ``out`` (n_samples, V).

    With ``hard``, each tree contributes a one-hot vote for its leaf's first
    largest class per output instead of its value (hard voting). Tree by tree
    over the chunk; each row sums the trees in their fixed order, so the result
    does not depend on how rows are cut into chunks. Serial and GIL-free;
    callers run row chunks in threads.
    """
    t = roots.shape[0]
    K = value.shape[1] // n_classes.shape[0]
    leaves = np.empty(max(hi - lo, 0), dtype=np.intp)
    if hi <= lo:
        return
    for k in range(t):
        walk_tree(X, nodes, roots[k], lo, hi, leaves)
        for i in range(lo, hi):
            _add_leaf(out, i, value, orig[leaves[i - lo]], hard, n_classes, K)


@njit(cache=True, nogil=True)
def threshold32(t):
    """The largest float32 at most ``t``: for every float32 ``x``, ``x > t`` (compared in
    float64) equals ``x > threshold32(t)`` (compared in float32), NaN and infinities too."""
    t32 = np.float32(t)
    if np.float64(t32) > t:
        t32 = np.nextafter(t32, np.float32(-np.inf))
    return t32


@njit(cache=True, nogil=True)
def narrow_nodes(packed, roots, k0, k1, fb, nodes, bits, miss, shift):
    """Fill the 8-byte records ``nodes`` of trees ``k0:k1`` (``bits``: their uint32 view).

    The same layout as :func:`compact_nodes` (children adjacent, depth first,
    each tree in its slot range) in 8 bytes: ``thr`` (float32,
    :func:`threshold32` of the threshold, so the step compares exactly as
    float64 does) and ``w`` (uint32): the left child's index local to its tree
    shifted left by ``fb`` bits, or-ed with the feature (below ``2**fb``). A
    leaf points at itself with ``thr`` a quiet NaN (no row goes right) whose
    22 payload bits hold the leaf's index in ``packed`` local to its tree, so a
    walk reads its leaf's ``packed`` index from the record it stops on (no map
    back). Callers check that the local indices and features fit in 32 bits
    and that trees have at most ``2**22`` nodes. ``miss``, ``shift``: as in
    :func:`compact_nodes`.
    """
    stack_o = np.empty(64, dtype=np.intp)
    stack_c = np.empty(64, dtype=np.intp)
    for k in range(k0, k1):
        r = roots[k]
        nxt = r + 1
        stack_o[0] = r
        stack_c[0] = r
        sp = 1
        while sp > 0:
            sp -= 1
            o = stack_o[sp]
            c = stack_c[sp]
            rec = packed[o]
            if rec.left < 0:
                bits[2 * c] = np.uint32(0x7FC00000 | (o - r))
                nodes[c].w = np.uint32((c - r) << fb)
                continue
            nodes[c].thr = threshold32(min(rec.threshold, FLOAT32_MAX))
            feat = rec.feature + (shift if shift != 0 and miss[o] == 0 else 0)
            nodes[c].w = np.uint32(((nxt - r) << fb) | feat)
            if sp + 2 > stack_o.shape[0]:
                stack_o = np.concatenate((stack_o, np.empty_like(stack_o)))
                stack_c = np.concatenate((stack_c, np.empty_like(stack_c)))
            stack_o[sp] = r + rec.right
            stack_c[sp] = nxt + 1
            stack_o[sp + 1] = r + rec.left
            stack_c[sp + 1] = nxt
            sp += 2
            nxt += 2


@njit(cache=True, nogil=True, inline="always")
def _step_n(X, i, nodes, c, r, fb, fm):
    a = nodes[c]
    w = a.w
    return r + np.intp(w >> fb) + (X[i, np.intp(w & fm)] > a.thr)


@njit(cache=True, nogil=True, inline="always")
def _settle_n(nodes, bits, r, c, s, nxt, hi, leaves, lo, fb):
    if r + np.intp(nodes[c].w >> fb) != c:
        return c, s, nxt, False
    leaves[s - lo] = r + np.intp(bits[2 * c] & 0x3FFFFF)
    if nxt < hi:
        return r, nxt, nxt + 1, False
    return c, s, nxt, True


@njit(cache=True, nogil=True)
def walk_tree_narrow(X, nodes, bits, fb, r, lo, hi, leaves):
    """:func:`walk_tree` on the 8-byte records of :func:`narrow_nodes`; ``leaves``
    receives indices in ``packed`` (global).

    Half the bytes per node: more of a tree stays in the near caches, and the
    leaf's ``packed`` index is read off its record instead of through a map.
    """
    fm = np.uint32((1 << fb) - 1)
    s0 = lo
    s1 = lo + 1 if lo + 1 < hi else lo
    s2 = lo + 2 if lo + 2 < hi else lo
    s3 = lo + 3 if lo + 3 < hi else lo
    s4 = lo + 4 if lo + 4 < hi else lo
    s5 = lo + 5 if lo + 5 < hi else lo
    s6 = lo + 6 if lo + 6 < hi else lo
    s7 = lo + 7 if lo + 7 < hi else lo
    nxt = min(lo + 8, hi)
    c0 = c1 = c2 = c3 = c4 = c5 = c6 = c7 = r
    while True:
        for _ in range(4):
            c0 = _step_n(X, s0, nodes, c0, r, fb, fm)
            c1 = _step_n(X, s1, nodes, c1, r, fb, fm)
            c2 = _step_n(X, s2, nodes, c2, r, fb, fm)
            c3 = _step_n(X, s3, nodes, c3, r, fb, fm)
            c4 = _step_n(X, s4, nodes, c4, r, fb, fm)
            c5 = _step_n(X, s5, nodes, c5, r, fb, fm)
            c6 = _step_n(X, s6, nodes, c6, r, fb, fm)
            c7 = _step_n(X, s7, nodes, c7, r, fb, fm)
        c0, s0, nxt, d0 = _settle_n(nodes, bits, r, c0, s0, nxt, hi, leaves, lo, fb)
        c1, s1, nxt, d1 = _settle_n(nodes, bits, r, c1, s1, nxt, hi, leaves, lo, fb)
        c2, s2, nxt, d2 = _settle_n(nodes, bits, r, c2, s2, nxt, hi, leaves, lo, fb)
        c3, s3, nxt, d3 = _settle_n(nodes, bits, r, c3, s3, nxt, hi, leaves, lo, fb)
        c4, s4, nxt, d4 = _settle_n(nodes, bits, r, c4, s4, nxt, hi, leaves, lo, fb)
        c5, s5, nxt, d5 = _settle_n(nodes, bits, r, c5, s5, nxt, hi, leaves, lo, fb)
        c6, s6, nxt, d6 = _settle_n(nodes, bits, r, c6, s6, nxt, hi, leaves, lo, fb)
        c7, s7, nxt, d7 = _settle_n(nodes, bits, r, c7, s7, nxt, hi, leaves, lo, fb)
        if d0 and d1 and d2 and d3 and d4 and d5 and d6 and d7:
            return


@njit(cache=True, nogil=True)
def sum_value_narrow(X, nodes, bits, fb, roots, value, hard, n_classes, lo, hi, out):
    """:func:`sum_value` on the 8-byte records of :func:`narrow_nodes`."""
    t = roots.shape[0]
    K = value.shape[1] // n_classes.shape[0]
    leaves = np.empty(max(hi - lo, 0), dtype=np.intp)
    if hi <= lo:
        return
    for k in range(t):
        walk_tree_narrow(X, nodes, bits, fb, roots[k], lo, hi, leaves)
        for i in range(lo, hi):
            _add_leaf(out, i, value, leaves[i - lo], hard, n_classes, K)


@njit(cache=True, nogil=True)
def apply_trees_narrow(X, nodes, bits, fb, roots, lo, hi, out):
    """:func:`apply_trees` on the 8-byte records of :func:`narrow_nodes`."""
    fm = np.uint32((1 << fb) - 1)
    t = roots.shape[0]
    for b0 in range(lo, hi, _BLOCK):
        b1 = min(b0 + _BLOCK, hi)
        for k in range(t):
            r = roots[k]
            i = b0
            while i + 8 <= b1:
                if i + _AHEAD + 8 <= b1:
                    _prefetch_rows(X, i + _AHEAD, i + _AHEAD + 8)
                c0 = c1 = c2 = c3 = c4 = c5 = c6 = c7 = r
                while True:
                    n0 = _step_n(X, i, nodes, c0, r, fb, fm)
                    n1 = _step_n(X, i + 1, nodes, c1, r, fb, fm)
                    n2 = _step_n(X, i + 2, nodes, c2, r, fb, fm)
                    n3 = _step_n(X, i + 3, nodes, c3, r, fb, fm)
                    n4 = _step_n(X, i + 4, nodes, c4, r, fb, fm)
                    n5 = _step_n(X, i + 5, nodes, c5, r, fb, fm)
                    n6 = _step_n(X, i + 6, nodes, c6, r, fb, fm)
                    n7 = _step_n(X, i + 7, nodes, c7, r, fb, fm)
                    if ((n0 == c0) & (n1 == c1) & (n2 == c2) & (n3 == c3) & (n4 == c4)
                            & (n5 == c5) & (n6 == c6) & (n7 == c7)):
                        break
                    c0, c1, c2, c3, c4, c5, c6, c7 = n0, n1, n2, n3, n4, n5, n6, n7
                out[i, k] = r + np.intp(bits[2 * c0] & 0x3FFFFF)
                out[i + 1, k] = r + np.intp(bits[2 * c1] & 0x3FFFFF)
                out[i + 2, k] = r + np.intp(bits[2 * c2] & 0x3FFFFF)
                out[i + 3, k] = r + np.intp(bits[2 * c3] & 0x3FFFFF)
                out[i + 4, k] = r + np.intp(bits[2 * c4] & 0x3FFFFF)
                out[i + 5, k] = r + np.intp(bits[2 * c5] & 0x3FFFFF)
                out[i + 6, k] = r + np.intp(bits[2 * c6] & 0x3FFFFF)
                out[i + 7, k] = r + np.intp(bits[2 * c7] & 0x3FFFFF)
                i += 8
            while i < b1:
                c = r
                while True:
                    nc = _step_n(X, i, nodes, c, r, fb, fm)
                    if nc == c:
                        break
                    c = nc
                out[i, k] = r + np.intp(bits[2 * c] & 0x3FFFFF)
                i += 1


@njit(cache=True, nogil=True, inline="always")
def _plain_leaf(X, i, packed, miss, r):
    # a NaN fails ``x <= threshold`` and then goes left where ``miss`` says so: the
    # missing-value test costs nothing on the rows that go left
    node = r
    while packed[node].left >= 0:
        rec = packed[node]
        x = np.float32(X[i, rec.feature])
        if x <= rec.threshold or (x != x and miss[node]):
            node = r + rec.left
        else:
            node = r + rec.right
    return node


@njit(cache=True, nogil=True)
def plain_apply(X, packed, miss, roots, lo, hi, out):
    """Global leaf of rows ``lo:hi`` in every tree, walked on ``packed`` itself (no compact
    copy to build: cheaper when there are few rows for the nodes). ``miss`` (uint8 per
    node, as ``packed``): whether a node sends missing values (NaN) left; rows with NaN
    walk only here. Serial and GIL-free."""
    for i in range(lo, hi):
        for k in range(roots.shape[0]):
            out[i, k] = _plain_leaf(X, i, packed, miss, roots[k])


@njit(cache=True, nogil=True)
def plain_sum_value(X, packed, miss, roots, value, hard, n_classes, lo, hi, out):
    """:func:`sum_value` of rows ``lo:hi`` walked on ``packed`` itself (see
    :func:`plain_apply`)."""
    K = value.shape[1] // n_classes.shape[0]
    for i in range(lo, hi):
        for k in range(roots.shape[0]):
            _add_leaf(out, i, value, _plain_leaf(X, i, packed, miss, roots[k]), hard,
                      n_classes, K)


@njit(cache=True, nogil=True, inline="always")
def _scatter_row(indptr, indices, data, i, buf, mark):
    """Row i of a CSR X into the feature-indexed ``buf``, its features marked ``i`` in
    ``mark`` (so earlier rows' entries need no clearing). Entries in any order;
    duplicate entries of a feature are summed (scipy's meaning of them)."""
    for t in range(np.uintp(indptr[i]), np.uintp(indptr[i + 1])):
        f = np.uintp(indices[t])
        if mark[f] == i:
            buf[f] += data[t]
        else:
            buf[f] = data[t]
            mark[f] = i


@njit(cache=True, nogil=True, inline="always")
def _scattered_leaf(buf, mark, i, packed, r):
    # unsigned node and feature positions: no negative-index wrap-around per step
    node = np.uintp(r)
    while packed[node].left >= 0:
        rec = packed[node]
        f = np.uintp(rec.feature)
        x = buf[f] if mark[f] == i else np.float32(0.0)
        if x <= rec.threshold:
            node = np.uintp(r + rec.left)
        else:
            node = np.uintp(r + rec.right)
    return np.intp(node)


@njit(cache=True, nogil=True)
def csr_apply(indptr, indices, data, n_features, packed, roots, lo, hi, out):
    """:func:`plain_apply` for rows ``lo:hi`` of a sparse CSR X (float32 data, finite):
    each row is scattered into a feature-indexed buffer once (its stored entries), then
    walked with one lookup per step, as scikit-learn walks sparse rows."""
    buf = np.empty(n_features, dtype=np.float32)
    mark = np.full(n_features, -1, dtype=np.intp)
    for i in range(lo, hi):
        _scatter_row(indptr, indices, data, i, buf, mark)
        for k in range(roots.shape[0]):
            out[i, k] = _scattered_leaf(buf, mark, i, packed, roots[k])


@njit(cache=True, nogil=True)
def csr_sum_value(indptr, indices, data, n_features, packed, roots, value, hard, n_classes,
                  lo, hi, out):
    """:func:`sum_value` of rows ``lo:hi`` of a sparse CSR X (see :func:`csr_apply`)."""
    K = value.shape[1] // n_classes.shape[0]
    buf = np.empty(n_features, dtype=np.float32)
    mark = np.full(n_features, -1, dtype=np.intp)
    for i in range(lo, hi):
        _scatter_row(indptr, indices, data, i, buf, mark)
        for k in range(roots.shape[0]):
            _add_leaf(out, i, value, _scattered_leaf(buf, mark, i, packed, roots[k]), hard,
                      n_classes, K)


@njit(cache=True, nogil=True)
def parents_depths(packed, roots):
    """Parent (global index; -1 at a root) and depth (0 at a root) of every node of the
    trees in ``packed`` (children local to each tree rooted at ``roots``)."""
    parent = np.full(packed.shape[0], -1, dtype=np.intp)
    depth = np.zeros(packed.shape[0], dtype=np.intp)
    stack = np.empty(64, dtype=np.intp)
    for k in range(roots.shape[0]):
        r = roots[k]
        stack[0] = r
        top = 1
        while top > 0:
            top -= 1
            o = stack[top]
            if packed[o].left < 0:
                continue
            if top + 2 > stack.shape[0]:
                stack = np.concatenate((stack, np.empty_like(stack)))
            for child in (r + packed[o].left, r + packed[o].right):
                parent[child] = o
                depth[child] = depth[o] + 1
                stack[top] = child
                top += 1
    return parent, depth


@njit(cache=True, nogil=True)
def path_offsets(leaves, depth):
    """CSR ``indptr`` of the decision paths of rows whose leaves (global, one column per
    tree) are ``leaves``: a row visits its leaf's depth + 1 nodes in each tree."""
    n, t = leaves.shape
    indptr = np.empty(n + 1, dtype=np.intp)
    indptr[0] = 0
    for i in range(n):
        total = indptr[i] + t
        for k in range(t):
            total += depth[leaves[i, k]]
        indptr[i + 1] = total
    return indptr


@njit(cache=True, nogil=True)
def fill_paths(leaves, parent, depth, roots, columns, indptr, lo, hi, indices):
    """Write the nodes rows ``lo:hi`` visit into ``indices`` (CSR, ``indptr`` from the
    leaves' depths): for each row, tree after tree, the path from the root down to
    the row's leaf (``leaves``: global, one column per tree), climbed up from the leaf
    by ``parent`` and written back to front; tree k's node g is numbered
    ``columns[k] + g - roots[k]``. A climb has a known length: no branch to guess,
    unlike a walk down."""
    for i in range(lo, hi):
        start = indptr[i]
        for k in range(roots.shape[0]):
            shift = columns[k] - roots[k]
            node = leaves[i, k]
            d = depth[node]
            for q in range(start + d, start - 1, -1):
                indices[q] = shift + node
                node = parent[node]
            start += d + 1


@njit(cache=True, nogil=True)
def split_missing_rows(X, out, lo, hi):
    """Rows ``lo:hi`` of float32 ``X`` (n, p) into ``out`` (n, 2 p): NaN as -inf in the
    first p columns, as +inf in the last p (see the module notes)."""
    p = X.shape[1]
    for i in range(lo, hi):
        for j in range(p):
            v = X[i, j]
            if v != v:
                out[i, j] = -np.inf
                out[i, p + j] = np.inf
            else:
                out[i, j] = v
                out[i, p + j] = v


@njit(cache=True, nogil=True)
def cast_rows_float32(X, out, lo, hi, allow_nan):
    """Write rows ``lo:hi`` of float64 ``X`` into float32 ``out``; the number of
    non-finite results with ``allow_nan`` (infinities), else 0 or 1 (whether any
    value is not finite).

    A value beyond float32's range becomes infinite and is counted, as it is
    when the whole array is cast and then checked.
    """
    p = X.shape[1]
    bad = 0
    if allow_nan:
        for i in range(lo, hi):
            for j in range(p):
                v = np.float32(X[i, j])
                out[i, j] = v
                bad += abs(v) == np.inf
        return bad
    # v - v is 0 for finite v, NaN for NaN and infinities: one sum tells, without a
    # test per value (a test with the NaN term in this loop cost more than the loop)
    total = np.float32(0.0)
    for i in range(lo, hi):
        for j in range(p):
            v = np.float32(X[i, j])
            out[i, j] = v
            total += v - v
    return 0 if total == 0.0 else 1
