"""Compile classiclearn's numba kernels ahead of their first use.

numba compiles a kernel the first time it is called with new argument types and
keeps the machine code in classiclearn's kernel cache (see
:mod:`classiclearn._kernels.jit`), which outlives reinstalls and is shared by
every environment on the machine with the same kernel sources. On a machine
whose cache is empty, the first ``fit`` of an estimator therefore waits for its
kernels to compile (tens of seconds for the trees, forests, SVMs and mixtures).
:func:`precompile` pays that cost once, up front and on every core: it runs each
registered estimator's usual calls (``fit``, then each of ``predict``,
``predict_proba``, ``decision_function``, ``transform``, ``score_samples`` it
has) on small float64 data, dense and, for the estimators that take it, CSR,
spread over worker processes. Later processes load the kernels from the cache.

The command line runs it as ``classiclearn precompile``.
"""

import concurrent.futures
import multiprocessing
import time
from dataclasses import dataclass, field

import numpy as np

__all__ = ["PrecompileReport", "precompile"]

_ROWS = 120
_FEATURES = 6
_METHODS = ("predict", "predict_proba", "decision_function", "transform", "score_samples",
            "apply", "decision_path", "radius_neighbors")
# families whose estimators share kernels run in one worker, so a kernel compiles once
_SHARED_KERNELS = {"ensemble": "tree", "mixture": "cluster"}
# parameter values that compile kernels of their own, run after the defaults (each took
# seconds to compile at its first call, `python -m benchmarks --coldstart --variants`): the
# histogram trees' builders (the best splitter's, shared by the trees and random forests,
# and the random splitter's on bins, shared by the extra trees) and the absolute-error
# builder; the KD and ball trees (build, k-nearest and radius queries, shared by every
# neighbours estimator) and the Manhattan brute search; elkan's k-means, the rbf kernel
# of kernel ridge, the other covariance types of the mixtures, liblinear's L1 logistic
# regression (newGLMNET), its L2 one (TRON) and SAGA (its lazy-update kernels),
# LinearSVC's L1 solver; cost-complexity pruning (shared by the trees and forests),
# Crammer and Singer's multi-class LinearSVC and kernel PCA's centring of a kernel held
# in one triangle (ARPACK, and LAPACK from a few hundred rows), which compiled at their
# first call before
_VARIANTS = {"Ridge": ({"positive": True, "solver": "lbfgs"},),
             "DecisionTreeClassifier": ({"max_bins": 255}, {"ccp_alpha": 0.01}),
             "DecisionTreeRegressor": ({"criterion": "absolute_error"},),
             "ExtraTreesClassifier": ({"max_bins": 255},),
             "KNeighborsClassifier": ({"algorithm": "kd_tree"}, {"algorithm": "ball_tree"},
                                      {"metric": "manhattan"}),
             "RadiusNeighborsClassifier": ({"algorithm": "kd_tree"},
                                           {"algorithm": "ball_tree"},
                                           {"metric": "manhattan"}),
             "KMeans": ({"algorithm": "elkan"},),
             "KernelRidge": ({"kernel": "rbf"},),
             "LogisticRegression": ({"solver": "liblinear", "penalty": "l1"},
                                    {"solver": "liblinear"},
                                    {"solver": "liblinear", "dual": True},
                                    {"solver": "saga", "penalty": "l1"}),
             "SVC": ({"probability": True},),
             "LinearSVC": ({"penalty": "l1", "dual": False}, {"multi_class": "crammer_singer"}),
             "KernelPCA": ({"eigen_solver": "arpack", "n_components": 2},),
             "GaussianMixture": ({"covariance_type": "tied"}, {"covariance_type": "diag"},
                                 {"covariance_type": "spherical"})}
# the same on sparse input: LinearSVC's sparse rows reach the dual's CSR kernel only
# with dual=True (the default primal makes small sparse X dense for its Hessian);
# elkan's k-means, newGLMNET, TRON's CSR rows, LinearSVC's L1 solver (on CSC columns),
# the absolute-error tree's exact splitter on CSC columns and the Manhattan distances
# between CSR rows have sparse specialisations of their own, which compiled at their
# first call before (`python -m benchmarks --coldstart --variants --sparse`)
_SPARSE_VARIANTS = {"LinearSVC": ({"dual": True}, {"penalty": "l1", "dual": False}),
                    "KMeans": ({"algorithm": "elkan"},),
                    "LogisticRegression": ({"solver": "liblinear", "penalty": "l1"},
                                           {"solver": "liblinear"},
                                           {"solver": "liblinear", "dual": True},
                                           {"solver": "saga", "penalty": "l1"}),
                    "DecisionTreeRegressor": ({"criterion": "absolute_error"},),
                    "KNeighborsClassifier": ({"metric": "manhattan"},),
                    "RadiusNeighborsClassifier": ({"metric": "manhattan"},)}

# size-dependent paths: the estimators whose first call on 20,000 or 200,000 rows
# compiled kernels the small data had not reached (`python -m benchmarks --coldstart
# --rows 20000 [--sparse]` and the same calls at 200,000 x 20: the logistic loss and
# gradient over row lanes, LinearSVC's dense rows made sparse, LSQR's products over row
# lanes on sparse X; the parallel passes of Lloyd's k-means (the mixtures' start too)
# and of Gaussian naive Bayes' moments, the Lasso's float32 Gram matrix and its exact
# residual products, the sums of squares of the input checks on threads; SVC's kernel
# values in blocks on threads, reached by predicting the training rows of 2,000, dense
# or CSR alike) run again on that many rows of _LARGE_FEATURES columns, dense (False)
# and / or CSR (True) with half the entries kept, labels of two classes
_LARGE_FEATURES = 24
_LARGE = {"LogisticRegression": (20_000, (False, True)), "SVC": (2_000, (False,)),
          "LinearSVC": (20_000, (False,)), "LinearRegression": (20_000, (True,)),
          "KMeans": (200_000, (False,)), "GaussianNB": (200_000, (False,)),
          "Lasso": (200_000, (False,))}
# the same for parameter values with paths of their own on many rows (rows, parameters,
# CSR or dense): positive Ridge's L-BFGS-B passes over row lanes ("auto" above 128
# features), and liblinear's TRON on CSR of at least 65,536 stored entries (its columns'
# parallel products); and on more columns than the small data's: a tree drawing fewer
# than an eighth of sparse X's features at a node (`max_features`, as on wide sparse X)
# groups no entries by row, a builder of its own for each splitter that the forests on
# such X share (compiled at their first call before)
_LARGE_VARIANTS = {"Ridge": ((20_000, {"positive": True, "solver": "lbfgs"}, False),),
                   "LogisticRegression": ((20_000, {"solver": "liblinear"}, True),),
                   "DecisionTreeClassifier": ((_ROWS, {"max_features": 1}, True),
                                              (_ROWS, {"max_features": 1, "splitter": "random"},
                                               True))}
# parameter values with a path of their own on X with more features than rows, run on
# _WIDE_SHAPE: the non-negative least squares of LinearRegression (Lawson-Hanson;
# seconds to compile at its first call) and the coordinate descent on the data's
# columns of Lasso and ElasticNet
_WIDE_SHAPE = (24, 60)
_WIDE_VARIANTS = {"LinearRegression": ({"positive": True},), "Lasso": ({},)}
_WIDE = -1  # the `large` of a job on the wide X
# no kernels of their own: the meta-estimators (their inner estimators are precompiled)
# and the target encoder
_SKIPPED = {"Pipeline", "GridSearchCV", "RandomizedSearchCV", "OneVsRestClassifier",
            "OneVsOneClassifier", "OutputCodeClassifier", "LabelEncoder"}


@dataclass
class PrecompileReport:
    """What :func:`precompile` did.

    Attributes
    ----------
    seconds : dict of str to float
        Wall time of each estimator's calls (compiling plus the tiny fits), in the
        worker that ran them.
    errors : dict of str to str
        Estimators whose calls failed, with the error (their kernels may be partly
        compiled; nothing else is affected).
    cache_dir : str
        The kernel cache that was filled.
    wall_seconds : float
        Wall time of the whole run.
    """

    seconds: dict = field(default_factory=dict)
    errors: dict = field(default_factory=dict)
    cache_dir: str = ""
    wall_seconds: float = 0.0


def _data(rng, tags):
    """Small X and y suited to the estimator's tags (non-negative counts if required)."""
    X = rng.normal(size=(_ROWS, _FEATURES))
    if tags.positive_only_X:
        X = np.abs(np.round(2.0 * X))
    kind = tags.estimator_type
    if kind == "classifier":
        y = np.arange(_ROWS) % 3
    else:
        y = X @ rng.normal(size=_FEATURES) + 0.1 * rng.normal(size=_ROWS)
    return X, y


def _large_data(rng, tags, sparse, rows):
    """X of (rows, _LARGE_FEATURES), half its entries zero when ``sparse``, and y (two
    classes for a classifier)."""
    X = rng.normal(size=(rows, _LARGE_FEATURES))
    if sparse:
        X[rng.random(X.shape) < 0.5] = 0.0
    if tags.estimator_type == "classifier":
        return X, (X[:, 0] + 0.5 * rng.normal(size=rows) > 0).astype(int)
    return X, X @ rng.normal(size=_LARGE_FEATURES) + 0.1 * rng.normal(size=rows)


def _run_estimator(cls, sparse, params=None, large=0):
    """Fit ``cls(**params)`` and call each of its prediction methods (on the small data,
    on ``large`` rows of :func:`_large_data`, or with ``large == -1`` on the wide X of
    :data:`_WIDE_SHAPE`); returns elapsed seconds."""
    import scipy.sparse as sp

    from ._tags import get_tags

    start = time.perf_counter()
    est = cls(**(params or {}))
    tags = get_tags(est)
    rng = np.random.default_rng(0)
    if large == _WIDE:
        X = rng.normal(size=_WIDE_SHAPE)
        y = X @ np.abs(rng.normal(size=_WIDE_SHAPE[1])) + rng.normal(size=_WIDE_SHAPE[0])
    else:
        X, y = _large_data(rng, tags, sparse, large) if large else _data(rng, tags)
    if (params or {}).get("solver") == "liblinear":
        y = y % 2  # liblinear's logistic regression refuses more than two classes
    if sparse:
        X = sp.csr_matrix(X)
    if tags.requires_y or tags.estimator_type in ("classifier", "regressor"):
        est.fit(X, y)
    else:
        est.fit(X)
    for method in _METHODS:
        if hasattr(est, method):
            try:
                getattr(est, method)(X)
            except (TypeError, ValueError):
                pass  # a method that refuses this input, as scikit-learn's does (e.g.
                # PCA.score_samples on sparse X): nothing of it to compile
    return time.perf_counter() - start


def _run_group(jobs):
    """Worker entry point: run (name, sparse, params, large rows, 0 or _WIDE) jobs in order;
    {label: seconds or error}."""
    from .utils.discovery import all_estimators

    classes = dict(all_estimators())
    out = {}
    for name, sparse, params, large in jobs:
        shown = ", ".join(f"{k}={v!r}" for k, v in params.items())
        label = f"{name}({shown})" if params else name
        label = f"{label} (sparse)" if sparse else label
        label = f"{label} ({large} rows)" if large > 0 else label
        label = f"{label} (wide)" if large == _WIDE else label
        try:
            out[label] = _run_estimator(classes[name], sparse, params, large)
        except Exception as exc:  # a failed call leaves the other estimators' kernels
            out[label] = f"{type(exc).__name__}: {exc}".splitlines()[0]
    return out


def _groups(names, sparse):
    """Jobs grouped by kernel-sharing family, the largest group first."""
    from ._tags import get_tags
    from .utils.discovery import all_estimators

    groups = {}
    for name, cls in all_estimators():
        if name in _SKIPPED or (names is not None and name not in names):
            continue
        family = cls.__module__.split(".")[1]
        group = groups.setdefault(_SHARED_KERNELS.get(family, family), [])
        group.append((name, False, {}, 0))
        takes_sparse = sparse and get_tags(cls()).sparse
        if takes_sparse:
            group.append((name, True, {}, 0))
            group.extend((name, True, params, 0) for params in _SPARSE_VARIANTS.get(name, ()))
        group.extend((name, False, params, 0) for params in _VARIANTS.get(name, ()))
        group.extend((name, False, params, _WIDE) for params in _WIDE_VARIANTS.get(name, ()))
        group.extend((name, on_csr, params, rows)
                     for rows, params, on_csr in _LARGE_VARIANTS.get(name, ())
                     if takes_sparse or not on_csr)
        rows, formats = _LARGE.get(name, (0, ()))
        group.extend((name, on_csr, {}, rows) for on_csr in formats
                     if takes_sparse or not on_csr)
    return sorted(groups.values(), key=len, reverse=True)


def precompile(estimators=None, *, sparse=True, n_jobs=-1, verbose=False):
    """Compile the numba kernels of classiclearn's estimators into the kernel cache.

    Parameters
    ----------
    estimators : list of str, optional
        Estimator class names (default: every registered estimator except the
        meta-estimators, which have no kernels of their own).
    sparse : bool, default=True
        Also run the estimators that accept scipy sparse input on a CSR matrix
        (their sparse kernels are separate).
    n_jobs : int, default=-1
        Worker processes; -1 uses every core this process may run on.
    verbose : bool, default=False
        Print each estimator's time as its worker finishes.

    Returns
    -------
    PrecompileReport

    Examples
    --------
    >>> report = precompile(["CategoricalNB"], sparse=False, n_jobs=1)
    >>> sorted(report.seconds)
    ['CategoricalNB']
    """
    from ._kernels.jit import kernel_cache_dir
    from .utils._threads import available_cores

    if estimators is not None:
        from .utils.discovery import all_estimators

        known = {name for name, _ in all_estimators()}
        unknown = sorted(set(estimators) - known)
        if unknown:
            raise ValueError(f"unknown estimator name(s): {', '.join(unknown)}; "
                             f"expected names of classiclearn estimators, e.g. 'SVC'")
    start = time.perf_counter()
    groups = _groups(None if estimators is None else set(estimators), sparse)
    workers = available_cores() if n_jobs in (None, -1) else int(n_jobs)
    if workers < 1:
        raise ValueError(f"n_jobs must be -1 or a positive integer; got {n_jobs!r}")
    report = PrecompileReport(cache_dir=str(kernel_cache_dir()))
    results = []
    if workers == 1 or len(groups) == 1:
        for jobs in groups:
            results.append(_run_group(jobs))
            _record(report, results[-1], verbose)
    else:
        context = multiprocessing.get_context("spawn")
        with concurrent.futures.ProcessPoolExecutor(min(workers, len(groups)),
                                                    mp_context=context) as pool:
            futures = [pool.submit(_run_group, jobs) for jobs in groups]
            for future in concurrent.futures.as_completed(futures):
                _record(report, future.result(), verbose)
    report.wall_seconds = time.perf_counter() - start
    return report


def _record(report, result, verbose):
    for label, value in result.items():
        if isinstance(value, str):
            report.errors[label] = value
        else:
            report.seconds[label] = value
        if verbose:
            shown = f"{value:.1f} s" if not isinstance(value, str) else f"failed: {value}"
            print(f"{label}: {shown}", flush=True)
