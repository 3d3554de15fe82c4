"""Metric names, their kernel codes, and which search algorithm can use which (seed 000 §3)."""

import math
import warnings

import numpy as np

from .._kernels.distances import CHEBYSHEV, COSINE, EUCLIDEAN, MANHATTAN, MINKOWSKI

TREE_METRICS = {
    "euclidean": EUCLIDEAN,
    "l2": EUCLIDEAN,
    "manhattan": MANHATTAN,
    "cityblock": MANHATTAN,
    "l1": MANHATTAN,
    "chebyshev": CHEBYSHEV,
    "infinity": CHEBYSHEV,
    "minkowski": MINKOWSKI,
    "p": MINKOWSKI,
}
BRUTE_METRICS = {**TREE_METRICS, "cosine": COSINE}
ALL_METRICS = sorted(BRUTE_METRICS) + ["precomputed"]
VALID_METRICS = {
    "kd_tree": sorted(TREE_METRICS),
    "ball_tree": sorted(TREE_METRICS),
    "brute": ALL_METRICS,
}
# Pseudo-code used for precomputed distances: the values are used as they are.
PRECOMPUTED = MANHATTAN

_NAMES = {EUCLIDEAN: "euclidean", MANHATTAN: "manhattan", CHEBYSHEV: "chebyshev",
          MINKOWSKI: "minkowski", COSINE: "cosine"}


def resolve_metric(metric, p=2, metric_params=None, algorithm="brute"):
    """Kernel code and exponent for a metric name, checked against an algorithm.

    Parameters
    ----------
    metric : str
    p : float or None
        Minkowski exponent (ignored by other metrics); ``metric_params["p"]``
        takes precedence, with a warning, as in scikit-learn.
    metric_params : dict or None
        Only ``{"p": value}`` is understood.
    algorithm : {"brute", "kd_tree", "ball_tree"}

    Returns
    -------
    code : int
        One of the codes of :mod:`classiclearn._kernels.distances`.
    p : float
        The Minkowski exponent (2.0 when irrelevant).
    name : str
        The effective metric name ("minkowski" with p=2 becomes "euclidean").
    """
    params = dict(metric_params or {})
    if "p" in params:
        if p is not None and p != params["p"]:
            warnings.warn(
                "Parameter p is found in metric_params. The corresponding parameter from "
                "__init__ is ignored.",
                SyntaxWarning,
                stacklevel=3,
            )
        p = params.pop("p")
    if params:
        raise ValueError(
            f"metric_params {sorted(params)} are not supported; only 'p' is understood."
        )
    if metric == "precomputed":
        if algorithm != "brute":
            raise ValueError(
                f"metric='precomputed' needs algorithm='brute' (or 'auto'), got {algorithm!r}."
            )
        return PRECOMPUTED, 2.0, "precomputed"
    table = BRUTE_METRICS if algorithm == "brute" else TREE_METRICS
    if metric not in table:
        raise ValueError(
            f"Metric {metric!r} is not valid for algorithm {algorithm!r}; valid metrics are "
            f"{VALID_METRICS[algorithm]}."
        )
    code = table[metric]
    if code != MINKOWSKI:
        return code, 2.0, _NAMES[code]
    p = 2.0 if p is None else float(p)
    if not p > 0 or math.isnan(p):
        raise ValueError(f"p must be greater than 0 for the minkowski metric, got {p}.")
    if p < 1 and algorithm != "brute":
        raise ValueError(
            f"p={p} < 1 does not give a metric (no triangle inequality), so "
            f"algorithm={algorithm!r} cannot use it; use algorithm='brute'."
        )
    if p == 1:
        return MANHATTAN, 2.0, "manhattan"
    if p == 2:
        return EUCLIDEAN, 2.0, "euclidean"
    if math.isinf(p):
        return CHEBYSHEV, 2.0, "chebyshev"
    return MINKOWSKI, p, "minkowski"


def to_reduced(r, code, p):
    """Reduced distance (see ``_kernels.distances``) of a distance ``r``."""
    r = np.asarray(r, dtype=np.float64)
    if code == EUCLIDEAN:
        return r * r
    if code == MINKOWSKI:
        return r**p
    return r
