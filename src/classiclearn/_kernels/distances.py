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
sqeuclidean 5   sum (x - y)^2         reduced
braycurtis 6    sum |x-y| / sum |x|+|y| reduced (0 when 0 / 0)
canberra   7    sum |x-y| / (|x|+|y|) reduced (0 / 0 terms are 0)
correlation 8   1 - cos(x - mean, y - mean) reduced
hamming    9    share of x_f != y_f   reduced
nan_euclid. 10  d / n_present * sum   sqrt(reduced), over coordinates
                over present coords   present in both rows
jaccard    11   boolean, see below    reduced
dice       12
rogerstanimoto 13 (also sokalmichener)
russellrao 14
sokalsneath 15
yule       16
========== ==== ===================== ======================

Cosine expects rows already scaled to unit length (zero rows stay zero).
The boolean metrics (codes 11-16) read a coordinate as True when it is
nonzero, as scikit-learn's ``DistanceMetric`` does and as its conversion of
data to booleans does; with ``tt``, ``tf``, ``ft``, ``ff`` the counts of
coordinates (True, True) ... and ``neq = tf + ft``, over ``d`` coordinates:
jaccard ``neq / (tt + neq)`` (0 for two all-False rows), dice
``neq / (2 tt + neq)``, rogerstanimoto ``2 neq / (d + neq)``, russellrao
``(d - tt) / d``, sokalsneath ``neq / (tt / 2 + neq)``, yule
``2 tf ft / (tt ff + tf ft)`` (0 when ``tf ft = 0``), the definitions of
scipy.spatial.distance and scikit-learn. Braycurtis follows scikit-learn's
``DistanceMetric`` (``|x| + |y|`` in the denominator), which its neighbours
estimators use.

A distance that is undefined (0 / 0: dice or sokalsneath between two
all-False rows, correlation with a constant row, nan_euclidean with no
coordinate present in both rows) has the reduced value ``inf``, so it sorts
after every defined one, and :func:`reduced_to_distance` turns it into NaN,
the value scipy and scikit-learn report. All functions are pure, thread-safe
and never write into their inputs.
"""

import math

import numpy as np
from numba import types
from numba.extending import overload

from .jit import njit

EUCLIDEAN = 0
MANHATTAN = 1
CHEBYSHEV = 2
MINKOWSKI = 3
COSINE = 4
SQEUCLIDEAN = 5
BRAYCURTIS = 6
CANBERRA = 7
CORRELATION = 8
HAMMING = 9
NAN_EUCLIDEAN = 10
JACCARD = 11
DICE = 12
ROGERSTANIMOTO = 13
RUSSELLRAO = 14
SOKALSNEATH = 15
YULE = 16


@njit(cache=True, nogil=True, inline="always")
def reduced_distance(X, i, Y, j, metric, p):
    """Reduced distance between rows ``X[i]`` and ``Y[j]`` (same dtype, same width)."""
    d = X.shape[1]
    acc = 0.0
    if metric == EUCLIDEAN or metric == SQEUCLIDEAN:
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
    elif metric == COSINE:
        for f in range(d):
            acc += X[i, f] * Y[j, f]
        acc = 1.0 - acc
        if acc < 0.0:
            acc = 0.0
        elif acc > 2.0:
            acc = 2.0
    else:
        acc = _extended_reduced_distance(X, i, Y, j, metric)
    return acc


def kernel_code(code):
    """A metric code as the kernels take it.

    The metrics from ``BRAYCURTIS`` on are passed as ``np.int32``, the others
    as a Python int (int64 in numba): the kernels are compiled once for the
    classic metrics, whose specialisation does not contain the extra
    metrics' code (it would double their compile time), and once more, only
    when first used, for the extra ones; each still dispatches on the code.
    """
    code = int(code)
    return np.int32(code) if code >= BRAYCURTIS else code


def _extended_reduced_distance(X, i, Y, j, metric):
    """Compiled code only: :func:`other_reduced_distance` when ``metric`` is an
    int32 (an extra metric, see :func:`kernel_code`), nothing otherwise."""
    raise NotImplementedError("compiled code only")


def _is_extended(metric_type):
    """At typing: whether a code's numba type marks an extra metric (int32)."""
    return isinstance(metric_type, types.Integer) and metric_type.bitwidth == 32


def _is_extended_value(metric):
    """Compiled code only: True (a constant) when ``metric`` is an extra metric's code."""
    raise NotImplementedError("compiled code only")


@overload(_is_extended_value, inline="always")
def _select_is_extended(metric):
    flag = _is_extended(metric)

    def constant(metric):
        return flag

    return constant


@overload(_extended_reduced_distance)
def _select_extended(X, i, Y, j, metric):
    if _is_extended(metric):
        def with_extra_metrics(X, i, Y, j, metric):
            return other_reduced_distance(X, i, Y, j, metric)

        return with_extra_metrics

    def classic_only(X, i, Y, j, metric):
        return 0.0

    return classic_only


@njit(cache=True, nogil=True, inline="always")
def other_reduced_distance(X, i, Y, j, metric):
    """Reduced distance for the codes from ``BRAYCURTIS`` on (inlined only into
    the int32 specialisation of the kernels, see :func:`kernel_code`)."""
    d = X.shape[1]
    if metric == BRAYCURTIS:
        num = 0.0
        den = 0.0
        for f in range(d):
            num += abs(X[i, f] - Y[j, f])
            den += abs(X[i, f]) + abs(Y[j, f])
        return num / den if den > 0.0 else 0.0
    if metric == CANBERRA:
        acc = 0.0
        for f in range(d):
            den = abs(X[i, f]) + abs(Y[j, f])
            if den > 0.0:
                acc += abs(X[i, f] - Y[j, f]) / den
        return acc
    if metric == CORRELATION:
        return _correlation(X, i, Y, j)
    if metric == HAMMING:
        n_neq = 0
        for f in range(d):
            n_neq += np.int64(X[i, f] != Y[j, f])
        return n_neq / d
    if metric == NAN_EUCLIDEAN:
        acc = 0.0
        present = 0
        for f in range(d):
            t = X[i, f] - Y[j, f]
            if not math.isnan(t):
                acc += t * t
                present += 1
        return acc * (d / present) if present > 0 else math.inf
    return _boolean_distance(X, i, Y, j, metric)


@njit(cache=True, nogil=True)
def _correlation(X, i, Y, j):
    d = X.shape[1]
    mx = 0.0
    my = 0.0
    for f in range(d):
        mx += X[i, f]
        my += Y[j, f]
    mx /= d
    my /= d
    xy = 0.0
    xx = 0.0
    yy = 0.0
    for f in range(d):
        a = X[i, f] - mx
        b = Y[j, f] - my
        xy += a * b
        xx += a * a
        yy += b * b
    if xx == 0.0 or yy == 0.0:
        return math.inf
    acc = 1.0 - xy / math.sqrt(xx * yy)
    if acc < 0.0:
        return 0.0
    if acc > 2.0:
        return 2.0
    return acc


@njit(cache=True, nogil=True)
def _boolean_distance(X, i, Y, j, metric):
    """The boolean metrics, nonzero read as True (see the module docstring)."""
    d = X.shape[1]
    tt = 0
    na = 0
    nb = 0
    for f in range(d):  # branch-free counts (vectorised)
        a = np.int64(X[i, f] != 0.0)
        b = np.int64(Y[j, f] != 0.0)
        tt += a & b
        na += a
        nb += b
    tf = na - tt
    ft = nb - tt
    neq = tf + ft
    if metric == JACCARD:
        return neq / (tt + neq) if tt + neq > 0 else 0.0
    if metric == DICE:
        return neq / (2.0 * tt + neq) if tt + neq > 0 else math.inf
    if metric == ROGERSTANIMOTO:
        return 2.0 * neq / (d + neq)
    if metric == RUSSELLRAO:
        return (d - tt) / d
    if metric == SOKALSNEATH:
        return neq / (0.5 * tt + neq) if tt + neq > 0 else math.inf
    # yule
    half_r = tf * ft
    if half_r == 0:
        return 0.0
    ff = d - tt - neq
    return 2.0 * half_r / (tt * ff + half_r)


def has_triangle_inequality(metric):
    """Whether the metric obeys the triangle inequality, so that a ball bound
    ``d(q, centre) - radius`` is a valid lower bound (braycurtis and dice
    do not). Compiled code only; a constant True for the classic metrics."""
    return metric != BRAYCURTIS and metric != DICE


@overload(has_triangle_inequality, inline="always")
def _select_triangle(metric):
    if _is_extended(metric):
        def extra_metric(metric):
            return metric != BRAYCURTIS and metric != DICE

        return extra_metric

    def classic_metric(metric):
        return True

    return classic_metric


@njit(cache=True, nogil=True)
def reduced_distances(X, i, Y, rows, m, metric, p, out):
    """``out[c] = reduced_distance(X, i, Y, rows[c], metric, p)`` for ``c < m``, the same
    values to the last bit. Euclidean pairs go four at a time: four sums side by side in
    one pass over the coordinates, each in :func:`reduced_distance`'s order, where a
    single sum waits on each of its additions (wide rows: several times faster)."""
    c = 0
    if metric == EUCLIDEAN or metric == SQEUCLIDEAN:
        d = X.shape[1]
        while c + 4 <= m:
            j0 = rows[c]
            j1 = rows[c + 1]
            j2 = rows[c + 2]
            j3 = rows[c + 3]
            a0 = 0.0
            a1 = 0.0
            a2 = 0.0
            a3 = 0.0
            for f in range(d):
                x = X[i, f]
                t0 = x - Y[j0, f]
                t1 = x - Y[j1, f]
                t2 = x - Y[j2, f]
                t3 = x - Y[j3, f]
                a0 += t0 * t0
                a1 += t1 * t1
                a2 += t2 * t2
                a3 += t3 * t3
            out[c] = a0
            out[c + 1] = a1
            out[c + 2] = a2
            out[c + 3] = a3
            c += 4
    for u in range(c, m):
        out[u] = reduced_distance(X, i, Y, rows[u], metric, p)


@njit(cache=True, nogil=True, inline="always")
def reduced_distance_bounded(X, i, Y, j, metric, p, bound):
    """Like :func:`reduced_distance`, but may stop early and return any value
    ``> bound`` once the running sum is known to exceed ``bound``.

    Values ``<= bound`` are exact (identical to :func:`reduced_distance`).
    """
    d = X.shape[1]
    acc = 0.0
    if metric == EUCLIDEAN or metric == SQEUCLIDEAN:
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
    """Distance from a reduced distance (``inf`` for an undefined one becomes NaN)."""
    if metric == EUCLIDEAN:
        return math.sqrt(r)
    if metric == MINKOWSKI:
        return r ** (1.0 / p)
    return _extended_to_distance(r, metric)


def _extended_to_distance(r, metric):
    """Compiled code only: the extra metrics' part of :func:`reduced_to_distance`."""
    raise NotImplementedError("compiled code only")


@overload(_extended_to_distance, inline="always")
def _select_to_distance(r, metric):
    if _is_extended(metric):
        def extra_metric(r, metric):
            if r == math.inf and (
                metric == DICE or metric == SOKALSNEATH or metric == CORRELATION
                or metric == NAN_EUCLIDEAN
            ):
                return math.nan
            if metric == NAN_EUCLIDEAN:
                return math.sqrt(r)
            return r

        return extra_metric

    def classic_metric(r, metric):
        return r

    return classic_metric


@njit(cache=True, nogil=True, inline="always")
def distance_to_reduced(dist, metric, p):
    """Reduced distance from a distance (monotone inverse of :func:`reduced_to_distance`)."""
    if metric == EUCLIDEAN or (_is_extended_value(metric) and metric == NAN_EUCLIDEAN):
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
