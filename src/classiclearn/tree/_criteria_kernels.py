"""Split criteria of CART (seed 000 §11.1) as numba functions on node statistics.

Node statistics ``stats`` are a float64 vector:

- classification (gini, entropy, misclassification): weighted class counts,
  ``stats[o * K + c]`` for output ``o`` and class ``c`` (``K`` = largest number
  of classes over the outputs);
- regression (squared_error, absolute_error, poisson; friedman_mse is grown as
  squared_error): weighted
  sums ``stats[o]`` and weighted sums of squares ``stats[n_outputs + o]``.

Impurities follow scikit-learn's definitions (entropy in bits, averages over
outputs) so that fitted trees agree with it.
"""

import math

import numpy as np

from .._kernels.jit import njit
from ._util_kernels import prefix_abs_costs, weighted_median

GINI = 0
ENTROPY = 1
MISCLASSIFICATION = 2
SQUARED_ERROR = 10
ABSOLUTE_ERROR = 12
POISSON = 13
# criterion ids below this one are classification criteria (class counts as statistics);
# the others are regression criteria (sums and sums of squares)
FIRST_REGRESSION = SQUARED_ERROR
# scikit-learn's bound below which a Poisson node's sum of y counts as zero
EPSILON = np.finfo(np.float64).eps

_LN2 = math.log(2.0)


@njit(cache=True, nogil=True, inline="always")
def is_classification(crit):
    """Whether criterion ``crit`` is a classification criterion."""
    return crit < FIRST_REGRESSION


@njit(cache=True, nogil=True, _nrt=False)
def add_class_sample(stats, y, s, ws, n_outputs, K):
    """Add sample ``s`` with weight ``ws`` to class counts (negative weight removes)."""
    for o in range(n_outputs):
        stats[o * K + np.intp(y[s, o])] += ws


@njit(cache=True, nogil=True, _nrt=False)
def add_reg_sample(stats, y, s, ws, n_outputs):
    """Add sample ``s`` with weight ``ws`` to regression sums (negative weight removes)."""
    for o in range(n_outputs):
        v = y[s, o]
        stats[o] += ws * v
        stats[n_outputs + o] += ws * v * v


@njit(cache=True, nogil=True, _nrt=False)
def add_sample(stats, y, s, ws, crit, n_outputs, K):
    """Add sample ``s`` with weight ``ws`` to ``stats`` (use a negative weight to remove)."""
    if is_classification(crit):
        add_class_sample(stats, y, s, ws, n_outputs, K)
    else:
        add_reg_sample(stats, y, s, ws, n_outputs)


@njit(cache=True, nogil=True, _nrt=False)
def node_stats(y, w, samples, a, b, crit, n_outputs, K, stats):
    """Fill ``stats`` with the statistics of ``samples[a:b]``; return their total weight."""
    for k in range(stats.shape[0]):
        stats[k] = 0.0
    wn = 0.0
    # per-sample updates written out: numba does not inline small helper calls here
    if is_classification(crit):
        for i in range(a, b):
            s = samples[i]
            ws = w[s]
            wn += ws
            for o in range(n_outputs):
                stats[o * K + np.intp(y[s, o])] += ws
    else:
        for i in range(a, b):
            s = samples[i]
            ws = w[s]
            wn += ws
            for o in range(n_outputs):
                v = y[s, o]
                stats[o] += ws * v
                stats[n_outputs + o] += ws * v * v
    return wn


@njit(cache=True, nogil=True, _nrt=False)
def gini(stats, wn, n_outputs, K, n_classes):
    """Gini index ``1 - sum_k p_k^2``, averaged over outputs."""
    tot = 0.0
    for o in range(n_outputs):
        sq = 0.0
        for c in range(n_classes[o]):
            v = stats[o * K + c]
            sq += v * v
        tot += 1.0 - sq / (wn * wn)
    return tot / n_outputs


@njit(cache=True, nogil=True, _nrt=False)
def entropy(stats, wn, n_outputs, K, n_classes):
    """Entropy in bits ``-sum_k p_k log2 p_k``, averaged over outputs."""
    tot = 0.0
    for o in range(n_outputs):
        for c in range(n_classes[o]):
            v = stats[o * K + c]
            if v > 0.0:
                p = v / wn
                tot -= p * (math.log(p) / _LN2)
    return tot / n_outputs


@njit(cache=True, nogil=True, _nrt=False)
def misclassification(stats, wn, n_outputs, K, n_classes):
    """Misclassification rate ``1 - max_k p_k``, averaged over outputs."""
    tot = 0.0
    for o in range(n_outputs):
        mx = 0.0
        for c in range(n_classes[o]):
            v = stats[o * K + c]
            if v > mx:
                mx = v
        tot += 1.0 - mx / wn
    return tot / n_outputs


@njit(cache=True, nogil=True, _nrt=False)
def squared_error(stats, wn, n_outputs):
    """Weighted variance, averaged over outputs."""
    sq = 0.0
    for o in range(n_outputs):
        sq += stats[n_outputs + o]
    imp = sq / wn
    for o in range(n_outputs):
        m = stats[o] / wn
        imp -= m * m
    return imp / n_outputs


@njit(cache=True, nogil=True, _nrt=False)
def poisson_loss(y, w, samples, a, b, n_outputs, sums, wn):
    """Half Poisson deviance of ``samples[a:b]`` per unit weight, averaged over outputs:
    ``sum w y log(y / mean)`` summed sample by sample as scikit-learn does (0 for a
    constant y exactly; +inf when a sum of y is not positive)."""
    loss = 0.0
    for o in range(n_outputs):
        if sums[o] <= EPSILON:
            loss = np.inf
            break
        mean = sums[o] / wn
        for p in range(a, b):
            s = samples[p]
            v = y[s, o]
            if v > 0.0:
                loss += w[s] * v * math.log(v / mean)
    return loss / (wn * n_outputs)


@njit(cache=True, nogil=True, _nrt=False)
def poisson_proxy(sl, sr, wl, wr, n_outputs):
    """``sum_o S_L log(S_L / w_L) + S_R log(S_R / w_R)`` (-inf when a child's sum of
    y is not positive: such a split is never taken)."""
    tot = 0.0
    for o in range(n_outputs):
        if sl[o] <= EPSILON or sr[o] <= EPSILON:
            return -np.inf
        tot += sl[o] * math.log(sl[o] / wl) + sr[o] * math.log(sr[o] / wr)
    return tot


@njit(cache=True, nogil=True, _nrt=False)
def stats_impurity(stats, wn, crit, n_outputs, K, n_classes):
    """Impurity of a node from its statistics (not for absolute_error and poisson,
    which need the samples)."""
    if crit == GINI:
        imp = gini(stats, wn, n_outputs, K, n_classes)
    elif crit == ENTROPY:
        imp = entropy(stats, wn, n_outputs, K, n_classes)
    elif crit == MISCLASSIFICATION:
        imp = misclassification(stats, wn, n_outputs, K, n_classes)
    else:
        imp = squared_error(stats, wn, n_outputs)
    return imp


@njit(cache=True, nogil=True, _nrt=False)
def mse_proxy(sl, sr, wl, wr, n_outputs):
    """``sum_o S_L^2 / w_L + S_R^2 / w_R``: orders splits like the variance decrease."""
    pl = 0.0
    pr = 0.0
    for o in range(n_outputs):
        pl += sl[o] * sl[o]
        pr += sr[o] * sr[o]
    return pl / wl + pr / wr


@njit(cache=True, nogil=True, _nrt=False)
def proxy_improvement(sl, sr, wl, wr, crit, n_outputs, K, n_classes):
    """A quantity that orders the splits of one node like the impurity decrease.

    The branches call small criterion functions so that each inlines into the
    caller's loop."""
    if crit == GINI:
        proxy = -wr * gini(sr, wr, n_outputs, K, n_classes) - wl * gini(
            sl, wl, n_outputs, K, n_classes)
    elif crit == ENTROPY:
        proxy = -wr * entropy(sr, wr, n_outputs, K, n_classes) - wl * entropy(
            sl, wl, n_outputs, K, n_classes)
    elif crit == MISCLASSIFICATION:
        proxy = -wr * misclassification(sr, wr, n_outputs, K, n_classes) - wl * (
            misclassification(sl, wl, n_outputs, K, n_classes))
    elif crit == POISSON:
        proxy = poisson_proxy(sl, sr, wl, wr, n_outputs)
    else:
        proxy = mse_proxy(sl, sr, wl, wr, n_outputs)
    return proxy


@njit(cache=True, nogil=True, _nrt=False)
def abs_impurity(y, w, samples, a, b, n_outputs, bv, bw):
    """absolute_error impurity of ``samples[a:b]``: mean over outputs of
    ``sum w |y - median| / sum w``. ``bv, bw`` are scratch of length >= b - a."""
    n = b - a
    tot = 0.0
    wn = 0.0
    for o in range(n_outputs):
        wn = 0.0
        for i in range(n):
            s = samples[a + i]
            bv[i] = y[s, o]
            bw[i] = w[s]
            wn += w[s]
        med = weighted_median(bv, bw, n)
        c = 0.0
        for i in range(n):
            c += bw[i] * abs(bv[i] - med)
        tot += c
    return tot / (wn * n_outputs)


@njit(cache=True, nogil=True, _nrt=False)
def abs_medians(y, w, samples, a, b, n_outputs, bv, bw, out):
    """Weighted median of each output over ``samples[a:b]`` into ``out``."""
    n = b - a
    for o in range(n_outputs):
        for i in range(n):
            s = samples[a + i]
            bv[i] = y[s, o]
            bw[i] = w[s]
        out[o] = weighted_median(bv, bw, n)


@njit(cache=True, nogil=True, _nrt=False)
def abs_split_costs(y, w, idx, a, b, n_outputs, cost, tmp, yv, wv, h1, h2, h3, h4):
    """For each split position p in (a, b], ``cost[p - a]`` receives the summed
    absolute deviations of the left part ``idx[a:p]`` plus the right part
    ``idx[p:b]``, summed over outputs. Scratch arrays have length >= b - a + 1."""
    n = b - a
    for k in range(n + 1):
        cost[k] = 0.0
    for o in range(n_outputs):
        for i in range(n):
            s = idx[a + i]
            yv[i] = y[s, o]
            wv[i] = w[s]
        prefix_abs_costs(yv, wv, n, tmp, h1, h2, h3, h4)
        for k in range(n + 1):
            cost[k] += tmp[k]
        for i in range(n):
            s = idx[b - 1 - i]
            yv[i] = y[s, o]
            wv[i] = w[s]
        prefix_abs_costs(yv, wv, n, tmp, h1, h2, h3, h4)
        for k in range(n + 1):
            cost[k] += tmp[n - k]


@njit(cache=True, nogil=True, _nrt=False)
def monotone_ok(sl, parent_stats, wl, wr, cst, lower, upper):
    """Whether a candidate split respects the monotonicity constraint ``cst`` (-1, 0, 1)
    of its feature: the children's values (first statistic over weight: the first
    class's fraction, or the mean) in order and inside the node's ``[lower, upper]``
    (scikit-learn's ``check_monotonicity``; always true for ``cst == 0``)."""
    if cst == 0:
        return True
    vl = sl[0] / wl
    vr = (parent_stats[0] - sl[0]) / wr
    return (vl >= lower and vr >= lower and vl <= upper and vr <= upper
            and (vl - vr) * cst <= 0.0)
