"""Minimal cost-complexity pruning (seed 000 §11.1, "pruning") on flat tree arrays.

The weakest link is pruned repeatedly: the internal node t with the smallest
``g(t) = (R(t) - R(T_t)) / (|leaves(T_t)| - 1)``, where ``R`` is the weighted
impurity ``n_t / n * impurity(t)``. The sequence of these ``g`` is the pruning
path; pruning at ``ccp_alpha`` stops before the first ``g > ccp_alpha``.
"""

import numpy as np

from .._kernels.jit import njit


@njit(cache=True, nogil=True, inline="always")
def _before(a1, i1, a2, i2):
    """Heap order: the smaller alpha, then the smaller node index."""
    return a1 < a2 or (a1 == a2 and i1 < i2)


@njit(cache=True, nogil=True)
def _heap_push(keys, ids, size, a, i):
    """Push (a, i) on the binary min-heap ``keys`` / ``ids`` of ``size`` entries (grown
    when full); returns the arrays and the new size."""
    if size == keys.shape[0]:
        grown_keys = np.empty(2 * size + 16)
        grown_ids = np.empty(2 * size + 16, dtype=np.intp)
        grown_keys[:size] = keys[:size]
        grown_ids[:size] = ids[:size]
        keys, ids = grown_keys, grown_ids
    pos = size
    while pos > 0:
        up = (pos - 1) // 2
        if not _before(a, i, keys[up], ids[up]):
            break
        keys[pos] = keys[up]
        ids[pos] = ids[up]
        pos = up
    keys[pos] = a
    ids[pos] = i
    return keys, ids, size + 1


@njit(cache=True, nogil=True)
def _heap_pop(keys, ids, size):
    """Remove the heap's first entry; returns its (alpha, node) and the new size."""
    a, i = keys[0], ids[0]
    size -= 1
    last_a, last_i = keys[size], ids[size]
    pos = 0
    while True:
        child = 2 * pos + 1
        if child >= size:
            break
        if child + 1 < size and _before(keys[child + 1], ids[child + 1], keys[child],
                                        ids[child]):
            child += 1
        if not _before(keys[child], ids[child], last_a, last_i):
            break
        keys[pos] = keys[child]
        ids[pos] = ids[child]
        pos = child
    if size > 0:
        keys[pos] = last_a
        ids[pos] = last_i
    return a, i, size


@njit(cache=True, nogil=True, inline="always")
def _link_alpha(r_node, r_branch, n_leaves, i):
    """The effective alpha ``g(t)`` of internal node ``i`` in the current tree."""
    return (r_node[i] - r_branch[i]) / (n_leaves[i] - 1)


@njit(cache=True, nogil=True)
def prune(left, right, impurity, weighted_n, ccp_alpha):
    """Run weakest-link pruning until the effective alpha exceeds ``ccp_alpha``.

    The weakest link is the candidate with the smallest ``g(t)``, the smallest node
    index among equal ones (as a scan in node order finds it). The candidates' ``g``
    sit in a min-heap; pruning a node changes ``g`` of its ancestors only, whose new
    values are pushed, and an entry that no longer holds its node's current value
    (or whose node was pruned) is dropped when it surfaces: each step costs the
    depth of the tree times log n instead of a scan of every node.

    Returns (alphas, impurities, n_steps, keep, leafed): the path's alphas and
    total leaf impurities (valid up to ``n_steps``), a mask of the nodes kept
    and a mask of the kept internal nodes turned into leaves.
    """
    n = left.shape[0]
    total = weighted_n[0]
    r_node = np.empty(n)
    for i in range(n):
        r_node[i] = weighted_n[i] * impurity[i] / total
    parent = np.full(n, -1, dtype=np.intp)
    is_leaf = np.zeros(n, dtype=np.bool_)
    for i in range(n):
        if left[i] < 0:
            is_leaf[i] = True
        else:
            parent[left[i]] = i
            parent[right[i]] = i
    n_leaves = np.zeros(n, dtype=np.intp)
    r_branch = np.zeros(n)
    for leaf in range(n):
        if not is_leaf[leaf]:
            continue
        r_branch[leaf] = r_node[leaf]
        cur = r_node[leaf]
        node = leaf
        while node != 0:
            p = parent[node]
            r_branch[p] += cur
            n_leaves[p] += 1
            node = p
    candidate = ~is_leaf
    in_subtree = np.ones(n, dtype=np.bool_)
    leafed = np.zeros(n, dtype=np.bool_)
    alphas = np.empty(n + 1)
    imps = np.empty(n + 1)
    alphas[0] = 0.0
    imps[0] = r_branch[0]
    steps = 1
    stack = np.empty(n, dtype=np.intp)
    keys = np.empty(n + 16)
    ids = np.empty(n + 16, dtype=np.intp)
    size = 0
    for i in range(n):
        if candidate[i]:
            keys, ids, size = _heap_push(keys, ids, size,
                                         _link_alpha(r_node, r_branch, n_leaves, i), i)
    while candidate[0] and size > 0:
        eff, pruned, size = _heap_pop(keys, ids, size)
        if not candidate[pruned] or eff != _link_alpha(r_node, r_branch, n_leaves, pruned):
            continue  # a pruned node's entry, or a value since changed
        if ccp_alpha < eff:
            break
        top = 0
        stack[top] = pruned
        top += 1
        while top > 0:
            top -= 1
            node = stack[top]
            if not in_subtree[node]:
                continue
            candidate[node] = False
            in_subtree[node] = False
            if left[node] >= 0:
                stack[top] = left[node]
                stack[top + 1] = right[node]
                top += 2
        in_subtree[pruned] = True
        leafed[pruned] = True
        n_pruned = n_leaves[pruned] - 1
        n_leaves[pruned] = 0
        r_diff = r_node[pruned] - r_branch[pruned]
        r_branch[pruned] = r_node[pruned]
        node = parent[pruned]
        while node != -1:
            n_leaves[node] -= n_pruned
            r_branch[node] += r_diff
            keys, ids, size = _heap_push(keys, ids, size,
                                         _link_alpha(r_node, r_branch, n_leaves, node), node)
            node = parent[node]
        alphas[steps] = eff
        imps[steps] = r_branch[0]
        steps += 1
    return alphas, imps, steps, in_subtree, leafed


@njit(cache=True, nogil=True)
def kept_preorder(left, right, leafed):
    """The nodes left after pruning, in pre-order (left subtree first), and the pruned
    tree's depth: the walk from the root stops at leaves and at internal nodes turned
    into leaves (``leafed``)."""
    n = left.shape[0]
    order = np.empty(n, dtype=np.intp)
    stack = np.empty(n + 1, dtype=np.intp)
    stack_depth = np.empty(n + 1, dtype=np.intp)
    stack[0] = 0
    stack_depth[0] = 0
    top = 1
    count = 0
    depth = 0
    while top > 0:
        top -= 1
        node = stack[top]
        d = stack_depth[top]
        order[count] = node
        count += 1
        if d > depth:
            depth = d
        if left[node] >= 0 and not leafed[node]:
            stack[top] = right[node]
            stack_depth[top] = d + 1
            stack[top + 1] = left[node]
            stack_depth[top + 1] = d + 1
            top += 2
    return order[:count].copy(), depth


@njit(cache=True, nogil=True)
def node_depths(left, right):
    """Depth of every node (root 0); children are numbered after their parent."""
    depth = np.zeros(left.shape[0], dtype=np.intp)
    for i in range(left.shape[0]):
        if left[i] >= 0:
            depth[left[i]] = depth[i] + 1
            depth[right[i]] = depth[i] + 1
    return depth
