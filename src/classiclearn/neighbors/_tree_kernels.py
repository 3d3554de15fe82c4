"""numba kernels for KD-trees [Bentley 1975] and ball trees [Omohundro 1989] (seed 000 §3).

Trees are flat arrays (no objects): a complete binary tree of ``n_levels``
levels, node ``i`` has children ``2i + 1`` and ``2i + 2``, and owns the
training rows ``idx[node_start[i]:node_end[i]]``. A node splits at the median
of its coordinate of largest spread, so the tree is balanced and the leaves
(the last level) hold between ``leaf_size / 2`` and ``2 leaf_size`` rows
(roughly). Each node carries a bound on its rows:

- KD-tree (``kind == 0``): ``lower[i]`` and ``upper[i]``, the bounding box;
- ball tree (``kind == 1``): ``lower[i]`` the centroid and ``radius[i]``.

Kernels read the training rows through ``rows``: position ``t`` of the tree
order is row ``rows[t]`` of ``X``. Normally ``rows`` is ``idx`` itself and
``X`` the caller's array (no copy of the data); a caller may instead pass a
tree-ordered copy ``X[idx]`` with ``rows = arange(n)`` so that a leaf is one
contiguous block, or, for the Minkowski family, a feature-major tree-ordered
copy ``XT`` (d, n) (an empty (d, 0) array when there is none): a leaf's
distances are then summed one feature at a time over its columns, which
vectorises, in the same order as :func:`reduced_distance`, so the values are
the same. Queries are depth-first, nearer child first,
with a bounded max-heap per query point keyed on (distance, index), so ties
are broken by the lower training index and the answer never depends on the
traversal. Drivers run in parallel over query points (k-NN: numba threads;
radius queries: blocks of query points in Python threads); every query point
writes only its own output rows, so results do not depend on the number of threads.
"""

import numpy as np

from .._kernels.distances import (
    CHEBYSHEV,
    EUCLIDEAN,
    MANHATTAN,
    MINKOWSKI,
    SQEUCLIDEAN,
    combine_gap,
    distance_to_reduced,
    has_triangle_inequality,
    reduced_distance,
    reduced_to_distance,
)
from .._kernels.jit import njit, prange
from .._kernels.sorting import heap_sort, select_nth, sift_down
from .._kernels.work import TREE_QUERY_PROBE, TREE_QUERY_WORK

KD = 0
BALL = 1
# Relative slack on ball-tree bounds, so that rounding never prunes a point.
_SLACK = 1e-12
# Levels at the bottom of a ball tree whose radii are exact (see ball_node_bounds).
_EXACT_RADIUS_LEVELS = 6
# Queries answered on the calling thread before a query pass decides on threads,
# and the work (training points and nodes compared, times features) from which the
# rest of the pass, estimated from those first queries, runs in numba's threads.
_PROBE_QUERIES = TREE_QUERY_PROBE
_THREADED_WORK = TREE_QUERY_WORK


# ---------------------------------------------------------------------------
# build


@njit(cache=True, nogil=True)
def _max_spread_dim(X, idx, lo, hi):
    d = X.shape[1]
    mins = np.empty(d)
    maxs = np.empty(d)
    for f in range(d):
        mins[f] = X[idx[lo], f]
        maxs[f] = X[idx[lo], f]
    for t in range(lo + 1, hi):
        r = idx[t]
        for f in range(d):
            v = X[r, f]
            if v < mins[f]:
                mins[f] = v
            elif v > maxs[f]:
                maxs[f] = v
    best = 0
    spread = -1.0
    for f in range(d):
        s = maxs[f] - mins[f]
        if s > spread:
            spread = s
            best = f
    return best


@njit(cache=True, nogil=True)
def _select_nth_rows(X, dim, idx, nth):
    """:func:`~classiclearn._kernels.sorting.select_nth` with keys ``X[idx[t], dim]`` read in place (no key
    copy: used on the largest nodes, where a copy would cost memory)."""
    left = 0
    right = idx.shape[0] - 1
    while right > left:
        mid = (left + right) >> 1
        if X[idx[mid], dim] < X[idx[left], dim]:
            idx[mid], idx[left] = idx[left], idx[mid]
        if X[idx[right], dim] < X[idx[left], dim]:
            idx[right], idx[left] = idx[left], idx[right]
        if X[idx[right], dim] < X[idx[mid], dim]:
            idx[right], idx[mid] = idx[mid], idx[right]
        pivot = X[idx[mid], dim]
        i = left
        j = right
        while i <= j:
            while X[idx[i], dim] < pivot:
                i += 1
            while X[idx[j], dim] > pivot:
                j -= 1
            if i <= j:
                idx[i], idx[j] = idx[j], idx[i]
                i += 1
                j -= 1
        if nth <= j:
            right = j
        elif nth >= i:
            left = i
        else:
            break


# Nodes with more rows than this are partitioned without a copy of their keys.
_KEY_COPY_MAX = 1 << 16


@njit(cache=True, nogil=True)
def _split_node(X, idx, node_start, node_end, node):
    s = node_start[node]
    e = node_end[node]
    mid = s + (e - s) // 2
    if e - s > 1:
        dim = _max_spread_dim(X, idx, s, e)
        if e - s > _KEY_COPY_MAX:
            _select_nth_rows(X, dim, idx[s:e], mid - s)
        else:
            keys = np.empty(e - s)
            for u in range(s, e):
                keys[u - s] = X[idx[u], dim]
            select_nth(keys, idx[s:e], mid - s)
    node_start[2 * node + 1] = s
    node_end[2 * node + 1] = mid
    node_start[2 * node + 2] = mid
    node_end[2 * node + 2] = e


@njit(cache=True, nogil=True, parallel=True)
def partition_tree(X, n_levels, top_levels):
    """Median splits of ``X`` (float64, C-contiguous, (n, d)) into a complete tree.

    The first ``top_levels`` levels are split serially; then each of the
    ``2**top_levels`` subtrees is built by one thread (a single parallel
    region, so a busy machine does not make every level wait for a barrier).

    Returns ``idx`` (intp (n,), the row order), ``node_start``, ``node_end``
    (intp (2**n_levels - 1,)).
    """
    n = X.shape[0]
    n_nodes = 2**n_levels - 1
    # explicit loops, not np.arange / np.zeros: in a parallel kernel those
    # become parallel regions of their own
    idx = np.empty(n, dtype=np.intp)
    for u in range(n):
        idx[u] = u
    node_start = np.empty(n_nodes, dtype=np.intp)
    node_end = np.empty(n_nodes, dtype=np.intp)
    node_start[0] = 0
    node_end[0] = n
    top = min(top_levels, n_levels - 1)
    for level in range(top):
        for node in range(2**level - 1, 2 ** (level + 1) - 1):
            _split_node(X, idx, node_start, node_end, node)
    if n_levels - 1 > top:
        for t in prange(2**top):
            for level in range(top, n_levels - 1):
                width = 2 ** (level - top)
                first = 2**level - 1 + t * width
                for node in range(first, first + width):
                    _split_node(X, idx, node_start, node_end, node)
    return idx, node_start, node_end


@njit(cache=True, nogil=True)
def _leaf_box(Xs, rows, node_start, node_end, lower, upper, node):
    for f in range(Xs.shape[1]):
        lower[node, f] = np.inf
        upper[node, f] = -np.inf
    for t in range(node_start[node], node_end[node]):
        r = rows[t]
        for f in range(Xs.shape[1]):
            v = Xs[r, f]
            if v < lower[node, f]:
                lower[node, f] = v
            if v > upper[node, f]:
                upper[node, f] = v


@njit(cache=True, nogil=True, parallel=True)
def kd_node_bounds(Xs, rows, node_start, node_end, n_levels, serial):
    """Bounding boxes ``lower``, ``upper`` (n_nodes, d) of every node, from the
    rows ``Xs[rows]``: leaves directly (in parallel), inner nodes from
    their children."""
    n_nodes = node_start.shape[0]
    d = Xs.shape[1]
    lower = np.empty((n_nodes, d))
    upper = np.empty((n_nodes, d))
    first_leaf = 2 ** (n_levels - 1) - 1
    if serial:
        for node in range(first_leaf, n_nodes):
            _leaf_box(Xs, rows, node_start, node_end, lower, upper, node)
    else:
        for node in prange(first_leaf, n_nodes):
            _leaf_box(Xs, rows, node_start, node_end, lower, upper, node)
    for node in range(first_leaf - 1, -1, -1):
        a = 2 * node + 1
        b = a + 1
        for f in range(d):
            lower[node, f] = min(lower[a, f], lower[b, f])
            upper[node, f] = max(upper[a, f], upper[b, f])
    return lower, upper


@njit(cache=True, nogil=True)
def _ball_radius(Xs, rows, node_start, node_end, centroid, radius, node, metric, p, exact):
    s = node_start[node]
    e = node_end[node]
    if e <= s:
        return
    for f in range(Xs.shape[1]):
        centroid[node, f] /= e - s
    if not exact:
        return
    r = 0.0
    for u in range(s, e):
        v = reduced_distance(Xs, rows[u], centroid, node, metric, p)
        if v > r:
            r = v
    radius[node] = reduced_to_distance(r, metric, p)


@njit(cache=True, nogil=True)
def _leaf_sum(Xs, rows, node_start, node_end, centroid, node):
    for t in range(node_start[node], node_end[node]):
        r = rows[t]
        for f in range(Xs.shape[1]):
            centroid[node, f] += Xs[r, f]


@njit(cache=True, nogil=True, parallel=True)
def ball_node_bounds(Xs, rows, node_start, node_end, n_levels, top_levels, metric, p, serial):
    """Centroid (n_nodes, d) and radius (n_nodes,) of every node: the mean of
    its rows and the largest distance from it to one of them (exact in the
    lowest ``_EXACT_RADIUS_LEVELS`` levels, an upper bound above). Coordinate sums
    go bottom-up (leaves, then children added); radii scan each node's rows,
    the first ``top_levels`` levels serially, then one thread per subtree."""
    n_nodes = node_start.shape[0]
    d = Xs.shape[1]
    centroid = np.empty((n_nodes, d))
    radius = np.empty(n_nodes)
    for node in range(n_nodes):
        radius[node] = 0.0
        for f in range(d):
            centroid[node, f] = 0.0
    first_leaf = 2 ** (n_levels - 1) - 1
    if serial:
        for node in range(first_leaf, n_nodes):
            _leaf_sum(Xs, rows, node_start, node_end, centroid, node)
    else:
        for node in prange(first_leaf, n_nodes):
            _leaf_sum(Xs, rows, node_start, node_end, centroid, node)
    for node in range(first_leaf - 1, -1, -1):
        for f in range(d):
            centroid[node, f] = centroid[2 * node + 1, f] + centroid[2 * node + 2, f]
    # the lowest levels get their exact radius (a scan of their rows); the
    # levels above a triangle-inequality bound from their children, so the
    # build reads every row only a few times
    exact_from = max(0, n_levels - _EXACT_RADIUS_LEVELS)
    top = min(top_levels, n_levels)
    for level in range(top):
        for node in range(2**level - 1, 2 ** (level + 1) - 1):
            _ball_radius(Xs, rows, node_start, node_end, centroid, radius, node, metric, p,
                         level >= exact_from)
    if n_levels > top:
        for t in prange(2**top):
            for level in range(top, n_levels):
                width = 2 ** (level - top)
                first = 2**level - 1 + t * width
                for node in range(first, first + width):
                    _ball_radius(Xs, rows, node_start, node_end, centroid, radius, node,
                                 metric, p, level >= exact_from)
    for node in range(2**exact_from - 2, -1, -1):
        r = 0.0
        for c in range(2 * node + 1, 2 * node + 3):
            if node_end[c] > node_start[c]:
                dc = reduced_to_distance(reduced_distance(centroid, node, centroid, c, metric, p),
                                         metric, p)
                r = max(r, (dc + radius[c]) * (1.0 + _SLACK))
        radius[node] = r
    return centroid, radius


# ---------------------------------------------------------------------------
# bounds and heap


@njit(cache=True, nogil=True)
def _in_family(metric):
    """Whether ``metric`` is of the Minkowski family (the inlined bounds below)."""
    return metric <= MINKOWSKI or metric == SQEUCLIDEAN


# The node bounds are small plain functions that LLVM inlines into the
# traversal loops. A call that is not inlined, or numba's inline="always" of a
# helper taking arrays, adds reference-count updates of every array argument at
# every node, which cost more than the bound itself; the other metrics' code
# stays behind a call of its own for the same reason.


@njit(cache=True, nogil=True)
def _kd_lower(node, Q, i, lower, upper, metric, p):
    """Lower bound on the reduced distance from ``Q[i]`` to any row in ``node``'s box."""
    acc = 0.0
    for f in range(Q.shape[1]):
        q = Q[i, f]
        acc = combine_gap(acc, max(lower[node, f] - q, q - upper[node, f], 0.0), metric, p)
    return acc


@njit(cache=True, nogil=True)
def _kd_bounds(node, Q, i, lower, upper, metric, p):
    """(lower, upper) bounds on the reduced distance from ``Q[i]`` to any row in
    ``node``'s box, from one pass over its coordinates."""
    lo = 0.0
    hi = 0.0
    for f in range(Q.shape[1]):
        q = Q[i, f]
        below = lower[node, f] - q
        above = q - upper[node, f]
        lo = combine_gap(lo, max(below, above, 0.0), metric, p)
        hi = combine_gap(hi, max(abs(below), abs(above)), metric, p)
    return lo, hi


@njit(cache=True, nogil=True)
def _centre_distance(node, Q, i, centre, metric, p):
    """Distance (not reduced) from ``Q[i]`` to ``centre[node]`` for the Minkowski
    family: :func:`reduced_distance`'s value, folded with :func:`combine_gap`."""
    acc = 0.0
    for f in range(Q.shape[1]):
        acc = combine_gap(acc, abs(Q[i, f] - centre[node, f]), metric, p)
    return reduced_to_distance(acc, metric, p)


@njit(cache=True, nogil=True)
def _other_centre_distance(node, Q, i, centre, metric, p):
    """:func:`_centre_distance` for the other ball-tree metrics; ``nan`` for a metric
    without the triangle inequality (no ball bound: every node is visited)."""
    if not has_triangle_inequality(metric):
        return np.nan
    return reduced_to_distance(reduced_distance(Q, i, centre, node, metric, p), metric, p)


@njit(cache=True, nogil=True)
def _ball_lower(dc, r, metric, p):
    """Lower bound on the reduced distance to the rows of a ball of radius ``r``
    whose centre is at distance ``dc`` (0 when ``dc`` is nan)."""
    g = dc - r
    if not g > 0.0:
        return 0.0
    return distance_to_reduced(g * (1.0 - _SLACK), metric, p)


@njit(cache=True, nogil=True)
def _ball_upper(dc, r, metric, p):
    """Upper bound to go with :func:`_ball_lower` (``inf`` when ``dc`` is nan)."""
    if dc != dc:
        return np.inf
    return distance_to_reduced((dc + r) * (1.0 + _SLACK), metric, p)


# ---------------------------------------------------------------------------
# distances to the rows of a node


@njit(cache=True, nogil=True)
def _column_distances(Q, i, XT, s, e, out, o, metric, p, bound):
    """Reduced distances from ``Q[i]`` to the tree positions ``s:e``, read from the
    feature-major copy ``XT`` (d, n), into ``out[o:o + e - s]``; the Minkowski family
    only. One feature at a time over a run of columns (vectorised), each distance
    summed in feature order, so the values are :func:`reduced_distance`'s exactly.
    The general Minkowski distance (a ``pow`` per term, which does not vectorise)
    is summed one row at a time and may stop at any value ``> bound``: values
    ``<= bound`` are exact. Indices are unsigned: no negative-index check in the
    inner loop."""
    d = np.uintp(XT.shape[0])
    n = np.uintp(e - s)
    first = np.uintp(s)
    dst = out[o:o + e - s]
    qi = np.uintp(i)
    for c in range(n):
        dst[c] = 0.0
    if metric == EUCLIDEAN or metric == SQEUCLIDEAN:
        for f in range(d):
            q = Q[qi, f]
            for c in range(n):
                u = q - XT[f, first + c]
                dst[c] += u * u
    elif metric == MANHATTAN:
        for f in range(d):
            q = Q[qi, f]
            for c in range(n):
                dst[c] += abs(q - XT[f, first + c])
    elif metric == CHEBYSHEV:
        for f in range(d):
            q = Q[qi, f]
            for c in range(n):
                u = abs(q - XT[f, first + c])
                if u > dst[c]:
                    dst[c] = u
    else:
        for c in range(n):
            acc = 0.0
            for f in range(d):
                acc += abs(Q[qi, f] - XT[f, first + c]) ** p
                if acc > bound:
                    break
            dst[c] = acc


@njit(cache=True, nogil=True)
def _row_distances(Q, i, Xs, rows, s, e, out, o, metric, p, bound):
    """Reduced distances from ``Q[i]`` to the rows ``Xs[rows[s:e]]`` into
    ``out[o:o + e - s]``, exactly :func:`reduced_distance`'s; the Euclidean and
    Manhattan ones four rows at a time (four independent sums in flight); the
    general Minkowski one may stop at any value ``> bound`` (as in
    :func:`_column_distances`)."""
    d = np.uintp(Xs.shape[1])
    qi = np.uintp(i)
    t = s
    if metric == EUCLIDEAN or metric == SQEUCLIDEAN or metric == MANHATTAN:
        squared = metric != MANHATTAN
        while t + 4 <= e:
            r0 = np.uintp(rows[t])
            r1 = np.uintp(rows[t + 1])
            r2 = np.uintp(rows[t + 2])
            r3 = np.uintp(rows[t + 3])
            v0 = 0.0
            v1 = 0.0
            v2 = 0.0
            v3 = 0.0
            if squared:
                for f in range(d):
                    q = Q[qi, f]
                    u0 = q - Xs[r0, f]
                    u1 = q - Xs[r1, f]
                    u2 = q - Xs[r2, f]
                    u3 = q - Xs[r3, f]
                    v0 += u0 * u0
                    v1 += u1 * u1
                    v2 += u2 * u2
                    v3 += u3 * u3
            else:
                for f in range(d):
                    q = Q[qi, f]
                    v0 += abs(q - Xs[r0, f])
                    v1 += abs(q - Xs[r1, f])
                    v2 += abs(q - Xs[r2, f])
                    v3 += abs(q - Xs[r3, f])
            c = o + t - s
            out[c] = v0
            out[c + 1] = v1
            out[c + 2] = v2
            out[c + 3] = v3
            t += 4
    if metric == MINKOWSKI:
        while t < e:
            r0 = np.uintp(rows[t])
            v0 = 0.0
            for f in range(d):
                v0 += abs(Q[qi, f] - Xs[r0, f]) ** p
                if v0 > bound:
                    break
            out[o + t - s] = v0
            t += 1
    while t < e:
        out[o + t - s] = reduced_distance(Q, i, Xs, rows[t], metric, p)
        t += 1


# ---------------------------------------------------------------------------
# queries


@njit(cache=True, nogil=True)
def _largest_leaf(node_start, node_end, n_levels):
    most = 1
    for node in range(2 ** (n_levels - 1) - 1, node_start.shape[0]):
        most = max(most, node_end[node] - node_start[node])
    return most


@njit(cache=True, nogil=True)
def _knn_one(kind, Xs, XT, rows, idx, node_start, node_end, n_levels, lower, upper, radius,
             Q, i, hd, hi, buf, metric, p):
    first_leaf = 2 ** (n_levels - 1) - 1
    stack_node = np.empty(2 * n_levels + 2, dtype=np.intp)
    stack_bound = np.empty(2 * n_levels + 2)
    stack_node[0] = 0
    stack_bound[0] = 0.0
    family = _in_family(metric)
    columns = XT.shape[1] > 0 and family
    sp = 1
    k = hd.shape[0]
    compared = 0
    while sp > 0:
        sp -= 1
        node = stack_node[sp]
        if stack_bound[sp] > hd[0]:
            continue
        if node >= first_leaf:
            s = node_start[node]
            e = node_end[node]
            compared += e - s
            if columns:
                _column_distances(Q, i, XT, s, e, buf, np.intp(0), metric, p, hd[0])
            else:
                _row_distances(Q, i, Xs, rows, s, e, buf, np.intp(0), metric, p, hd[0])
            for t in range(s, e):
                v = buf[t - s]
                if v <= hd[0]:
                    j = idx[t]
                    if v < hd[0] or j < hi[0]:
                        sift_down(hd, hi, np.intp(0), k, v, j)
            continue
        a = 2 * node + 1
        b = a + 1
        if kind == KD:
            ba = _kd_lower(a, Q, i, lower, upper, metric, p)
            bb = _kd_lower(b, Q, i, lower, upper, metric, p)
        else:
            if family:
                da = _centre_distance(a, Q, i, lower, metric, p)
                db = _centre_distance(b, Q, i, lower, metric, p)
            else:
                da = _other_centre_distance(a, Q, i, lower, metric, p)
                db = _other_centre_distance(b, Q, i, lower, metric, p)
            ba = _ball_lower(da, radius[a], metric, p)
            bb = _ball_lower(db, radius[b], metric, p)
        if ba <= bb:
            stack_node[sp] = b
            stack_bound[sp] = bb
            stack_node[sp + 1] = a
            stack_bound[sp + 1] = ba
        else:
            stack_node[sp] = a
            stack_bound[sp] = ba
            stack_node[sp + 1] = b
            stack_bound[sp + 1] = bb
        sp += 2
        compared += 2
    return compared


@njit(cache=True, nogil=True)
def _knn_query(kind, Xs, XT, rows, idx, node_start, node_end, n_levels, lower, upper, radius,
               Q, i, hd, hi, leaf_max, metric, p):
    n = idx.shape[0]
    for c in range(hd.shape[0]):
        hd[c] = np.inf
        hi[c] = n
    buf = np.empty(leaf_max)
    compared = _knn_one(kind, Xs, XT, rows, idx, node_start, node_end, n_levels, lower, upper,
                        radius, Q, i, hd, hi, buf, metric, p)
    heap_sort(hd, hi)
    for c in range(hd.shape[0]):
        hd[c] = reduced_to_distance(hd[c], metric, p)
    return compared


@njit(cache=True, nogil=True)
def rest_threaded(compared, n_probed, n_rest, n_features):
    """Whether the queries left after ``n_probed`` ones that compared ``compared``
    points and nodes take enough work to run in threads (waking numba's pool costs
    more than a pass of small queries, up to milliseconds after idle time)."""
    if n_rest < 2 or n_probed == 0:
        return False
    return compared * n_features * n_rest >= _THREADED_WORK * n_probed


@njit(cache=True, nogil=True, parallel=True)
def query_knn(kind, Xs, XT, rows, idx, node_start, node_end, n_levels, lower, upper, radius,
              Q, order, k, metric, p):
    """The ``k`` nearest training rows of every row of ``Q`` (float64, C).

    Query rows are taken in the sequence ``order`` (a permutation; a spatial
    order lets each thread's consecutive queries reuse the leaves in cache).
    The first ``_PROBE_QUERIES`` run on the calling thread; the rest run in
    numba's threads when the work they measured, scaled to the remaining
    queries, reaches ``_THREADED_WORK`` (results never depend on it).

    Returns ``dist`` (float64 (m, k), true distances, ascending) and ``ind``
    (intp (m, k)); equal distances are ordered by training index. Thread-safe.
    """
    m = Q.shape[0]
    dist = np.empty((m, k))
    ind = np.empty((m, k), dtype=np.intp)
    leaf_max = _largest_leaf(node_start, node_end, n_levels)
    n_probed = min(m, _PROBE_QUERIES)
    compared = 0
    for ii in range(n_probed):
        i = order[ii]
        compared += _knn_query(kind, Xs, XT, rows, idx, node_start, node_end, n_levels, lower,
                               upper, radius, Q, i, dist[i], ind[i], leaf_max, metric, p)
    if rest_threaded(compared, n_probed, m - n_probed, Q.shape[1]):
        for ii in prange(n_probed, m):
            i = order[ii]
            _knn_query(kind, Xs, XT, rows, idx, node_start, node_end, n_levels, lower, upper,
                       radius, Q, i, dist[i], ind[i], leaf_max, metric, p)
    else:
        for ii in range(n_probed, m):
            i = order[ii]
            _knn_query(kind, Xs, XT, rows, idx, node_start, node_end, n_levels, lower, upper,
                       radius, Q, i, dist[i], ind[i], leaf_max, metric, p)
    return dist, ind


@njit(cache=True, nogil=True)
def _grown(a, need):
    """``a`` itself if it holds ``need`` entries, else a copy of at least twice its size."""
    if need <= a.shape[0]:
        return a
    b = np.empty(max(need, 2 * a.shape[0]), dtype=a.dtype)
    b[: a.shape[0]] = a
    return b


@njit(cache=True, nogil=True)
def _radius_one(kind, Xs, XT, rows, idx, node_start, node_end, n_levels, lower, upper, radius,
                Q, i, ri, stack, buf, ind, red, total, work, metric, p):
    """Append the training rows within reduced distance ``ri`` of ``Q[i]`` to
    ``ind``, ``red`` from position ``total``; returns the new end, or -1 when the
    arrays are too short (nothing else then means anything). Adds the nodes and
    points it compared to ``work[0]``."""
    first_leaf = 2 ** (n_levels - 1) - 1
    family = _in_family(metric)
    columns = XT.shape[1] > 0 and family
    room = ind.shape[0]
    stack[0] = 0
    sp = 1
    while sp > 0:
        sp -= 1
        node = stack[sp]
        work[0] += 1
        if kind == KD:
            lo, hi = _kd_bounds(node, Q, i, lower, upper, metric, p)
        else:
            if family:
                dc = _centre_distance(node, Q, i, lower, metric, p)
            else:
                dc = _other_centre_distance(node, Q, i, lower, metric, p)
            lo = _ball_lower(dc, radius[node], metric, p)
            hi = _ball_upper(dc, radius[node], metric, p)
        if lo > ri:
            continue
        s = node_start[node]
        e = node_end[node]
        if hi <= ri or node >= first_leaf:
            work[0] += e - s
        if hi <= ri:
            if total + e - s > room:
                return -1
            if columns:
                _column_distances(Q, i, XT, s, e, red, total, metric, p, np.inf)
            else:
                _row_distances(Q, i, Xs, rows, s, e, red, total, metric, p, np.inf)
            for t in range(s, e):
                ind[total] = idx[t]
                total += 1
            continue
        if node >= first_leaf:
            if total + e - s > room:
                return -1
            if columns:
                _column_distances(Q, i, XT, s, e, buf, np.intp(0), metric, p, ri)
            else:
                _row_distances(Q, i, Xs, rows, s, e, buf, np.intp(0), metric, p, ri)
            for t in range(s, e):
                v = buf[t - s]
                if v <= ri:
                    ind[total] = idx[t]
                    red[total] = v
                    total += 1
            continue
        stack[sp] = 2 * node + 2
        stack[sp + 1] = 2 * node + 1
        sp += 2
    return total


@njit(cache=True, nogil=True)
def query_radius_block(kind, Xs, XT, rows, idx, node_start, node_end, n_levels, lower, upper,
                       radius, Q, queries, r, metric, p):
    """The training rows within reduced distance ``r[i]`` of each ``Q[i]``, for the
    query rows ``queries`` in that sequence, in one traversal per query.

    Returns ``(counts, ind, red, compared)``: ``counts[c]`` results for
    ``queries[c]``, their indices and reduced distances one query after the other,
    each query's in tree order, and the number of nodes and points compared. A caller
    runs blocks of queries in threads and puts the results in query order with
    :func:`place_radius_results`.
    """
    stack = np.empty(2 * n_levels + 2, dtype=np.intp)
    buf = np.empty(_largest_leaf(node_start, node_end, n_levels))
    counts = np.empty(queries.shape[0], dtype=np.intp)
    ind = np.empty(64 * queries.shape[0] + 64, dtype=np.intp)
    red = np.empty(ind.shape[0])
    work = np.zeros(1, dtype=np.intp)
    total = 0
    for c in range(queries.shape[0]):
        i = queries[c]
        end = -1
        while end < 0:
            end = _radius_one(kind, Xs, XT, rows, idx, node_start, node_end, n_levels, lower,
                              upper, radius, Q, i, r[i], stack, buf, ind, red, total, work,
                              metric, p)
            if end < 0:  # more room, then this query again
                ind = _grown(ind, 2 * ind.shape[0])
                red = _grown(red, 2 * red.shape[0])
        counts[c] = end - total
        total = end
    return counts, ind[:total], red[:total], work[0]


@njit(cache=True, nogil=True)
def place_radius_results(counts, ind, red, queries, offsets, out_ind, out_dist, metric, p):
    """Copy a block's results (:func:`query_radius_block`) to their queries' segments
    ``offsets[i]:offsets[i + 1]`` of the flat outputs, as true distances."""
    src = 0
    for c in range(queries.shape[0]):
        dst = offsets[queries[c]]
        for t in range(counts[c]):
            out_ind[dst + t] = ind[src + t]
            out_dist[dst + t] = reduced_to_distance(red[src + t], metric, p)
        src += counts[c]
