"""Distance functions shared by numba kernels (seed 000 §3: metrics for neighbourhoods).

Every metric is identified by an integer code so one compiled kernel serves all
of them. Kernels work with the *reduced* distance, a monotone transform that is
cheaper to compute:

========== ==== ===================== ======================
metric     code reduced distance      distance
========== ==== ===================== ======================
euclidean  0    sum (x - y)^2         sqrt(reduced)
manhattan  1    sum |x - y|           reduced
chebyshev  2    max |x - y|           reduced
minkowski  3    sum |x - y|^p         reduced^(1/p)
cosine     4    1 - <x, y> (unit rows) reduced
========== ==== ===================== ======================

Cosine expects rows already scaled to unit length (zero rows stay zero). All
functions are pure, thread-safe and never write into their inputs.
"""

import math

from numba import njit

EUCLIDEAN = 0
MANHATTAN = 1
CHEBYSHEV = 2
MINKOWSKI = 3
COSINE = 4


@njit(cache=True, nogil=True, inline="always")
def reduced_distance(X, i, Y, j, metric, p):
    """Reduced distance between rows ``X[i]`` and ``Y[j]`` (same dtype, same width)."""
    d = X.shape[1]
    acc = 0.0
    if metric == EUCLIDEAN:
        for f in range(d):
            t = X[i, f] - Y[j, f]
            acc += t * t
    elif metric == MANHATTAN:
        for f in range(d):
            acc += abs(X[i, f] - Y[j, f])
    elif metric == CHEBYSHEV:
        for f in range(d):
            t = abs(X[i, f] - Y[j, f])
            if t > acc:
                acc = t
    elif metric == MINKOWSKI:
        for f in range(d):
            acc += abs(X[i, f] - Y[j, f]) ** p
    else:
        for f in range(d):
            acc += X[i, f] * Y[j, f]
        acc = 1.0 - acc
        if acc < 0.0:
            acc = 0.0
        elif acc > 2.0:
            acc = 2.0
    return acc


@njit(cache=True, nogil=True, inline="always")
def reduced_distance_bounded(X, i, Y, j, metric, p, bound):
    """Like :func:`reduced_distance`, but may stop early and return any value
    ``> bound`` once the running sum is known to exceed ``bound``.

    Values ``<= bound`` are exact (identical to :func:`reduced_distance`).
    """
    d = X.shape[1]
    acc = 0.0
    if metric == EUCLIDEAN:
        for f in range(d):
            t = X[i, f] - Y[j, f]
            acc += t * t
            if acc > bound:
                return acc
    elif metric == MANHATTAN:
        for f in range(d):
            acc += abs(X[i, f] - Y[j, f])
            if acc > bound:
                return acc
    elif metric == CHEBYSHEV:
        for f in range(d):
            t = abs(X[i, f] - Y[j, f])
            if t > acc:
                acc = t
                if acc > bound:
                    return acc
    elif metric == MINKOWSKI:
        for f in range(d):
            acc += abs(X[i, f] - Y[j, f]) ** p
            if acc > bound:
                return acc
    else:
        return reduced_distance(X, i, Y, j, metric, p)
    return acc


@njit(cache=True, nogil=True, inline="always")
def reduced_to_distance(r, metric, p):
    """Distance from a reduced distance."""
    if metric == EUCLIDEAN:
        return math.sqrt(r)
    if metric == MINKOWSKI:
        return r ** (1.0 / p)
    return r


@njit(cache=True, nogil=True, inline="always")
def distance_to_reduced(dist, metric, p):
    """Reduced distance from a distance (monotone inverse of :func:`reduced_to_distance`)."""
    if metric == EUCLIDEAN:
        return dist * dist
    if metric == MINKOWSKI:
        return dist**p
    return dist


@njit(cache=True, nogil=True, inline="always")
def combine_gap(acc, gap, metric, p):
    """Fold one per-coordinate gap ``gap >= 0`` into a running reduced distance."""
    if metric == EUCLIDEAN:
        return acc + gap * gap
    if metric == MANHATTAN:
        return acc + gap
    if metric == CHEBYSHEV:
        return acc if acc >= gap else gap
    return acc + gap**p
