"""Metric names, their kernel codes, and which search algorithm can use which (seed 000 §3)."""

import math
import warnings

import numpy as np

from .._kernels import distances as _d
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
# Boolean metrics: nonzero is True (scikit-learn converts the data to booleans
# on the brute-force path, with a warning, and reads nonzero as True in its
# ball tree; the kernels do the latter for both).
BOOLEAN_METRICS = {
    "dice": _d.DICE,
    "jaccard": _d.JACCARD,
    "rogerstanimoto": _d.ROGERSTANIMOTO,
    "russellrao": _d.RUSSELLRAO,
    "sokalmichener": _d.ROGERSTANIMOTO,  # the same formula, as in scikit-learn
    "sokalsneath": _d.SOKALSNEATH,
    "yule": _d.YULE,
}
# Metrics of scikit-learn's BallTree beyond the KD-tree's (braycurtis and dice
# lack the triangle inequality: the ball tree visits every node for them, so
# its answer stays exact).
_BALL_EXTRA = {
    "braycurtis": _d.BRAYCURTIS,
    "canberra": _d.CANBERRA,
    "hamming": _d.HAMMING,
    **{name: BOOLEAN_METRICS[name] for name in (
        "dice", "jaccard", "rogerstanimoto", "russellrao", "sokalmichener", "sokalsneath"
    )},
}
BALL_METRICS = {**TREE_METRICS, **_BALL_EXTRA}
# scikit-learn 1.9's brute-force list (with SciPy >= 1.17 it has no
# sokalmichener, which only its ball tree computes)
BRUTE_METRICS = {
    **TREE_METRICS,
    **{name: code for name, code in _BALL_EXTRA.items() if name != "sokalmichener"},
    "cosine": COSINE,
    "correlation": _d.CORRELATION,
    "nan_euclidean": _d.NAN_EUCLIDEAN,
    "sqeuclidean": _d.SQEUCLIDEAN,
    "yule": _d.YULE,
}
# Metrics that are the euclidean distance after a linear map of the rows (scipy's
# and scikit-learn's definitions): seuclidean with variances V is euclidean on
# x / sqrt(V); mahalanobis with VI = L L' is euclidean on x L. The kernels search
# with the euclidean code on mapped rows.
LINEAR_MAP_METRICS = {"seuclidean": EUCLIDEAN, "mahalanobis": EUCLIDEAN}
BALL_METRICS.update(LINEAR_MAP_METRICS)
BRUTE_METRICS.update(LINEAR_MAP_METRICS)
_CODES = {**BALL_METRICS, **BRUTE_METRICS}
# Metrics given by a function of two rows, or haversine: their distance matrix is
# computed (by the function, or vectorised for haversine) and searched as
# precomputed distances.
FUNCTION_METRICS = ("haversine", "pyfunc")
ALL_METRICS = sorted(_CODES) + ["precomputed", *FUNCTION_METRICS]
VALID_METRICS = {
    "kd_tree": sorted(TREE_METRICS),
    "ball_tree": sorted(BALL_METRICS),
    "brute": sorted(BRUTE_METRICS) + ["precomputed"],
}
_TABLES = {"kd_tree": TREE_METRICS, "ball_tree": BALL_METRICS, "brute": BRUTE_METRICS}
# Pseudo-code used for precomputed distances: the values are used as they are.
PRECOMPUTED = MANHATTAN

_NAMES = {EUCLIDEAN: "euclidean", MANHATTAN: "manhattan", CHEBYSHEV: "chebyshev",
          MINKOWSKI: "minkowski", COSINE: "cosine"}


def distance_function(metric, metric_params, n_features, algorithm="auto"):
    """For haversine, ``"pyfunc"`` (``metric_params["func"]``) or a callable metric:
    a function ``(Q, X) -> distance matrix`` (else None).

    A callable (or ``func``) is called on every pair of rows, with the other
    ``metric_params`` as keyword arguments, as scikit-learn does. Haversine takes
    two features, latitude and longitude in radians.

    Examples
    --------
    >>> import numpy as np
    >>> d = distance_function("haversine", None, 2)
    >>> round(float(d(np.array([[0.0, 0.0]]), np.array([[0.0, np.pi / 2]]))[0, 0]), 6)
    1.570796
    """
    params = dict(metric_params or {})
    if metric == "haversine":
        if params:
            raise ValueError(f"metric='haversine' takes no metric_params; got {sorted(params)}.")
        if n_features != 2:
            raise ValueError(
                f"metric='haversine' needs two features (latitude, longitude in radians); "
                f"X has {n_features}."
            )
        return _haversine_matrix
    if metric == "pyfunc":
        if algorithm == "brute":  # scikit-learn: 'pyfunc' names its ball tree's metric
            raise ValueError(
                "Metric 'pyfunc' is not valid for algorithm 'brute' (it is the ball tree's "
                "name for a function metric); pass the function itself as metric=, or use "
                "algorithm='ball_tree' or 'auto'."
            )
        func = params.pop("func", None)
        if not callable(func):
            raise ValueError("metric='pyfunc' needs metric_params={'func': callable(x, y)}.")
    elif callable(metric):
        func = metric
    else:
        return None

    def pairwise(Q, X):
        out = np.empty((Q.shape[0], X.shape[0]))
        for i in range(Q.shape[0]):
            for j in range(X.shape[0]):
                out[i, j] = func(Q[i], X[j], **params)
        if not np.all(np.isfinite(out)) or np.any(out < 0):
            raise ValueError("The metric function returned a negative or non-finite distance.")
        return out

    return pairwise


def _haversine_matrix(Q, X):
    """Great-circle distances (radians on the unit sphere) between rows (lat, lon)."""
    dlat = Q[:, None, 0] - X[None, :, 0]
    dlon = Q[:, None, 1] - X[None, :, 1]
    a = np.sin(dlat / 2.0) ** 2 + np.cos(Q[:, None, 0]) * np.cos(X[None, :, 0]) * np.sin(
        dlon / 2.0) ** 2
    return 2.0 * np.arcsin(np.sqrt(np.clip(a, 0.0, 1.0)))


def checked_algorithm(metric, algorithm):
    """The table a metric is checked against, as scikit-learn does: with
    ``"auto"``, the ball tree's for its metrics, else brute force's."""
    if algorithm != "auto":
        return algorithm
    if metric in BALL_METRICS:
        return "ball_tree"
    return "brute"


def resolve_metric(metric, p=2, metric_params=None, algorithm="brute", n_features=None):
    """Kernel code and exponent for a metric name, checked against an algorithm.

    Parameters
    ----------
    metric : str
    p : float or None
        Minkowski exponent (ignored by other metrics); ``metric_params["p"]``
        takes precedence, with a warning, as in scikit-learn.
    metric_params : dict or None
        ``"p"``, and ``"w"`` (non-negative feature weights) for minkowski.
    algorithm : {"brute", "kd_tree", "ball_tree", "auto"}
        ``"auto"`` checks the metric as scikit-learn does before choosing.
    n_features : int, optional
        Checked against the length of ``w``.

    Returns
    -------
    code : int
        One of the codes of :mod:`classiclearn._kernels.distances`.
    p : float
        The Minkowski exponent (2.0 when irrelevant).
    name : str
        The effective metric name ("minkowski" with p=2 becomes "euclidean",
        unless weighted).
    w : ndarray or None
        Minkowski weights. The weighted distance ``(sum w_f |x_f - y_f|^p)^(1/p)``
        is the plain one between rows scaled by ``w ** (1 / p)``: callers
        scale, and search with ``code``.
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
    w = params.pop("w", None) if metric in ("minkowski", "p") else None
    if metric in LINEAR_MAP_METRICS:
        checked = checked_algorithm(metric, algorithm)
        if metric not in _TABLES[checked]:
            raise ValueError(
                f"Metric {metric!r} is not valid for algorithm {checked!r}; valid metrics are "
                f"{VALID_METRICS[checked]}."
            )
        return EUCLIDEAN, 2.0, metric, _linear_map(metric, params, n_features)
    if params:
        raise ValueError(
            f"metric_params {sorted(params)} are not supported for metric {metric!r}; only "
            "'p' (and 'w' for minkowski, 'V' for seuclidean, 'VI' or 'V' for mahalanobis) "
            "are understood."
        )
    if metric == "precomputed":
        if algorithm not in ("brute", "auto"):
            raise ValueError(
                f"metric='precomputed' needs algorithm='brute' (or 'auto'), got {algorithm!r}."
            )
        return PRECOMPUTED, 2.0, "precomputed", None
    checked = checked_algorithm(metric, algorithm)
    if metric not in _TABLES[checked]:
        raise ValueError(
            f"Metric {metric!r} is not valid for algorithm {checked!r}; valid metrics are "
            f"{VALID_METRICS[checked]}."
        )
    # the extra metrics' codes as np.int32: their own kernel specialisation
    code = _d.kernel_code(_CODES[metric])
    if code != MINKOWSKI:
        return code, 2.0, _NAMES.get(code, metric), None
    p = 2.0 if p is None else float(p)
    if not p > 0 or math.isnan(p):
        raise ValueError(f"p must be greater than 0 for the minkowski metric, got {p}.")
    if p < 1 and algorithm in ("kd_tree", "ball_tree"):
        raise ValueError(
            f"p={p} < 1 does not give a metric (no triangle inequality), so "
            f"algorithm={algorithm!r} cannot use it; use algorithm='brute'."
        )
    if w is not None:
        return (*_weighted_code(p, algorithm), "minkowski", _check_weights(w, n_features))
    if p == 1:
        return MANHATTAN, 2.0, "manhattan", None
    if p == 2:
        return EUCLIDEAN, 2.0, "euclidean", None
    if math.isinf(p):
        return CHEBYSHEV, 2.0, "chebyshev", None
    return MINKOWSKI, p, "minkowski", None


def _weighted_code(p, algorithm):
    if algorithm == "kd_tree":
        raise ValueError(
            "algorithm='kd_tree' is not valid for metric='minkowski' with a weight "
            "parameter 'w': try algorithm='ball_tree' or algorithm='brute' instead."
        )
    if math.isinf(p):
        raise ValueError(
            "Weighted minkowski needs a finite p (for p=inf use metric='chebyshev' "
            "without weights)."
        )
    # p itself is kept (the kernels ignore it for these codes): it scales w
    if p == 1:
        return MANHATTAN, p
    if p == 2:
        return EUCLIDEAN, p
    return MINKOWSKI, p


def _check_weights(w, n_features):
    w = np.asarray(w, dtype=np.float64)
    if w.ndim != 1:
        raise ValueError(f"w must be 1-dimensional, got shape {w.shape}.")
    if not np.all(np.isfinite(w)):
        raise ValueError("w must contain only finite values.")
    if np.any(w < 0):
        raise ValueError("w cannot contain negative weights")
    if n_features is not None and w.shape[0] != n_features:
        raise ValueError(
            f"The size of w must match the number of features ({n_features}). "
            f"Currently len(w)={w.shape[0]}."
        )
    return w


def _linear_map(metric, params, n_features):
    """What turns ``metric`` into the euclidean distance: weights 1 / V (seuclidean:
    rows scaled by 1 / sqrt(V)), or a matrix L with L L' = VI (mahalanobis: rows
    mapped to x L)."""
    if metric == "seuclidean":
        if set(params) != {"V"}:
            raise ValueError("metric='seuclidean' needs metric_params={'V': variances} (one "
                             "positive variance per feature).")
        V = np.asarray(params["V"], dtype=np.float64)
        if V.ndim != 1 or (n_features is not None and V.shape[0] != n_features):
            raise ValueError(f"V must be a 1-D array with one variance per feature; got shape "
                             f"{V.shape}.")
        if not np.all(np.isfinite(V)) or np.any(V <= 0):
            raise ValueError("V must hold finite, positive variances.")
        return 1.0 / V  # euclidean weights: the rows are scaled by their square roots
    if set(params) not in ({"VI"}, {"V"}):
        raise ValueError("metric='mahalanobis' needs metric_params={'VI': inverse covariance} "
                         "or {'V': covariance} (a positive definite matrix).")
    M = np.asarray(params.get("VI", params.get("V")), dtype=np.float64)
    if M.ndim != 2 or M.shape[0] != M.shape[1] or (
            n_features is not None and M.shape[0] != n_features):
        raise ValueError(f"The mahalanobis matrix must be square with one row per feature; got "
                         f"shape {M.shape}.")
    if "V" in params:
        M = np.linalg.inv(M)
    try:
        return np.linalg.cholesky((M + M.T) / 2.0)
    except np.linalg.LinAlgError as exc:
        raise ValueError("The mahalanobis matrix must be positive definite.") from exc


def weight_scale(w, p):
    """The map of the rows that turns a weighted metric into the plain one: column
    factors ``w ** (1 / p)`` (weighted minkowski, seuclidean), or the matrix of
    mahalanobis from :func:`resolve_metric` as it is."""
    if w.ndim == 2:
        return w
    return w ** (1.0 / p)


def map_rows(X, scale):
    """Rows of X under the map of :func:`weight_scale` (None: X itself)."""
    if scale is None:
        return X
    return X @ scale if scale.ndim == 2 else X * scale


def to_reduced(r, code, p):
    """Reduced distance (see ``_kernels.distances``) of a distance ``r``."""
    r = np.asarray(r, dtype=np.float64)
    if code in (EUCLIDEAN, _d.NAN_EUCLIDEAN):
        return r * r
    if code == MINKOWSKI:
        return r**p
    return r
