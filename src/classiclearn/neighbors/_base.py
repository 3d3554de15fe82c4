"""Shared machinery of the neighbours estimators (seed 000 §3).

``_NeighborsBase`` validates parameters, fits the search structure (brute
force, :class:`KDTree` or :class:`BallTree`) and answers k-nearest and radius
queries; the mixins give the public ``kneighbors*`` / ``radius_neighbors*``
methods. Weights (uniform, inverse distance, callable) are computed here too.

Tie rule: neighbours at exactly the same distance are ordered by training
index, lower first, so the ``k`` nearest are the ``k`` smallest
(distance, index) pairs. Zero-distance rule with ``weights="distance"``: when
some neighbours of a query are at distance 0, they share the whole weight
(weight 1 each) and the others get 0, so a query equal to a training point
gets that point's label or value.

Metrics: scikit-learn 1.9's names, on the algorithms its ``VALID_METRICS``
allows (the KD-tree: the Minkowski family; the ball tree: also braycurtis,
canberra, hamming and the boolean metrics; brute force: also correlation,
cosine, nan_euclidean, sqeuclidean, yule). ``algorithm="auto"`` follows
scikit-learn's choice for the metrics beyond the Minkowski family. Boolean
metrics read nonzero as True; brute force warns, as scikit-learn does, that
non-boolean data were converted. nan_euclidean accepts NaN in X (missing
coordinates). An undefined distance (0 / 0) is NaN and sorts last.
Weighted minkowski (``metric_params={"w": w}``) searches rows scaled by
``w ** (1 / p)``, where the plain distance is the weighted one.

Dask: the k-neighbours estimators fitted on a Dask array keep its row blocks
and search them by brute force block by block (``_dask``); k-neighbour
queries given as Dask arrays return lazy Dask arrays.
"""

import warnings
from numbers import Integral, Real

import numpy as np
import scipy.sparse as sp

from .._kernels.distances import COSINE, EUCLIDEAN, MANHATTAN, SQEUCLIDEAN
from .._kernels.work import NUMBA_PASS_WORK
from ..base import BaseEstimator
from ..exceptions import DataConversionWarning
from ..utils._dask import is_dask_collection
from ..utils._params import Interval, StrOptions
from ..utils._threads import auto_n_jobs, numba_threads
from ..utils.validation import (
    check_consistent_length,
    check_is_fitted,
    check_magnitude,
    validate_data,
)
from . import _dask
from ._ball_tree import BallTree
from ._binary_tree import _rows_to_objects
from ._brute import LazyGemmIndex, brute_kneighbors, brute_radius, brute_radius_sums
from ._kd_tree import KDTree
from ._metrics import (
    ALL_METRICS,
    BALL_METRICS,
    BOOLEAN_METRICS,
    LINEAR_MAP_METRICS,
    PRECOMPUTED,
    TREE_METRICS,
    distance_function,
    map_rows,
    resolve_metric,
    weight_scale,
)
from ._radius_kernels import GIVEN
from ._radius_sums import RadiusSums, fold_listed_in_pieces
from ._sparse import (
    SparseIndex,
    sparse_kneighbors,
    sparse_metric,
    sparse_radius,
    sparse_radius_sums,
)

_ALGORITHMS = {"auto", "ball_tree", "kd_tree", "brute"}
# Metrics searched with GEMM tiles by brute force.
_GEMM_CODES = (EUCLIDEAN, COSINE, SQEUCLIDEAN)
# Above this many features `auto` uses brute force: the GEMM tiles beat the trees.
_AUTO_BRUTE_FEATURES = 15
# Below this many training rows `auto` uses brute force (no tree to build).
_AUTO_BRUTE_SAMPLES = 512
# Euclidean distances by GEMM tiles beat the k-d tree's queries on up to about
# _GEMM_BRUTE_ROWS_PER_CELL * 2**n_features training rows (a k-d tree prunes less the
# more features there are; measured on Gaussian data, 3 to 15 features, 1,000 to
# 300,000 rows); the cap keeps the tree for data whose structure it exploits better.
_GEMM_BRUTE_ROWS_PER_CELL = 500
_GEMM_BRUTE_MAX_ROWS = 20_000
# The radius estimators fitted with a tree fold the rest of a query set by brute force
# once its first queries have at least 1 / _TREE_SCAN_SHARE of the training rows within
# the radius (from there, the tree's cost per neighbour found outweighs a scan of all
# the training rows).
_TREE_SCAN_SHARE = 8


def _get_weights(dist, weights):
    """Weights of neighbours at distances ``dist`` (any shape) or None for uniform.

    ``"distance"`` gives 1 / d, except that in a row with a zero distance the
    zero-distance neighbours get 1 and the others 0 (2-D ``dist`` only; flat
    input is handled by the radius estimators)."""
    if weights in (None, "uniform"):
        return None
    if weights == "distance":
        with np.errstate(divide="ignore"):
            w = 1.0 / dist
        inf_mask = np.isinf(w)
        inf_row = np.any(inf_mask, axis=1)
        w[inf_row] = inf_mask[inf_row]
        return w
    return np.asarray(weights(dist), dtype=np.float64)


def _check_n_neighbors(n_neighbors):
    if isinstance(n_neighbors, bool) or not isinstance(n_neighbors, Integral):
        raise TypeError(
            f"n_neighbors does not take {type(n_neighbors)} value, enter integer value"
        )
    if n_neighbors <= 0:
        raise ValueError(f"Expected n_neighbors > 0. Got {n_neighbors}")
    return int(n_neighbors)


# Metrics that raise coordinates (or their differences) to a power: values near
# 1e300 overflow them, values near 1e-300 underflow them to ties at zero.
_POWER_METRICS = {"euclidean", "l2", "sqeuclidean", "minkowski", "seuclidean", "mahalanobis",
                  "cosine", "correlation"}


def _check_distance_range(est, X, *, fit):
    """A clear ValueError for data whose distances would overflow (or, in fit,
    underflow) rather than neighbours chosen among inf or zero distances."""
    name = est.effective_metric_
    if name not in _POWER_METRICS:
        return
    p = est._p if name == "minkowski" else 2.0
    power = p if np.isfinite(p) else 1.0
    check_magnitude(X, est, f"{name} distances", power=power, check_small=fit)


class _NeighborsBase(BaseEstimator):
    """Parameters, fitting and raw queries shared by every neighbours estimator."""

    _parameter_constraints = {
        "n_neighbors": [Interval(Integral, 1, None, closed="left"), None],
        "radius": [Interval(Real, 0, None, closed="neither"), None],
        "algorithm": [StrOptions(_ALGORITHMS)],
        "leaf_size": [Interval(Integral, 1, None, closed="left")],
        "p": [Interval(Real, 0, None, closed="neither"), None],
        "metric": [StrOptions(set(ALL_METRICS)), "callable"],
        "metric_params": [dict, None],
        "n_jobs": [Integral, None],
    }

    def __classiclearn_tags__(self):
        tags = super().__classiclearn_tags__()
        tags.pairwise = self.metric == "precomputed"
        # precomputed distances are non-negative
        tags.positive_only_X = tags.pairwise
        tags.allow_nan = self.metric == "nan_euclidean"
        tags.sparse = self._sparse_metric_name() is not None
        return tags

    def _sparse_metric_name(self):
        """The distance used on sparse input, or None when the metric has none."""
        if callable(self.metric) or self.metric == "precomputed":
            return None
        try:
            return sparse_metric(self.metric, self.p)
        except ValueError:
            return None

    def _finite(self):
        """``ensure_all_finite`` for the data: NaN is a missing value for nan_euclidean."""
        return "allow-nan" if self.metric == "nan_euclidean" else True

    # -- fit ---------------------------------------------------------------

    def _choose_algorithm(self, X, p, name, w):
        if self.algorithm != "auto":
            return self.algorithm
        n, d = X.shape
        n_neighbors = getattr(self, "n_neighbors", None)
        many_neighbors = n_neighbors is not None and n_neighbors >= n // 2
        if self.metric not in TREE_METRICS or w is not None:
            # scikit-learn's rule: its ball tree for the metrics it has (weighted
            # minkowski too), unless many features or neighbours; else brute force
            if self.metric in BALL_METRICS and not (d > 15 or many_neighbors or p < 1):
                return "ball_tree"
            return "brute"
        if name == "cosine" or p < 1:
            return "brute"
        if d > _AUTO_BRUTE_FEATURES or n < _AUTO_BRUTE_SAMPLES or many_neighbors:
            return "brute"
        if name in ("euclidean", "sqeuclidean") and n < min(
                _GEMM_BRUTE_ROWS_PER_CELL * 2 ** d, _GEMM_BRUTE_MAX_ROWS):
            return "brute"
        return "kd_tree"

    def _fit(self, X, y="no_validation", *, y_numeric=False):
        """Validate and index ``X``; return the validated ``y`` (None if not given)."""
        self._validate_params()
        self._dask_train = None
        finite = self._finite()
        self._bool_input = self.metric in BOOLEAN_METRICS and _is_bool_input(X)
        # (no index sorting: the distances do not depend on the order of stored entries)
        checks = dict(dtype=np.float64, ensure_all_finite=finite, accept_sparse="csr",
                      sort_indices=False)
        if isinstance(y, str) and y == "no_validation":
            X = validate_data(self, X, **checks)
            y = None
        elif not y_numeric:
            X = validate_data(self, X, **checks)
            y = _check_class_target(self, X, y)
        else:
            X, y = validate_data(self, X, y, multi_output=True, y_numeric=y_numeric, **checks)
        self._sparse_index = None
        if sp.issparse(X):
            return self._fit_sparse(X, y)
        if self.metric == "precomputed":
            if X.shape[0] != X.shape[1]:
                raise ValueError(
                    f"Precomputed matrix must be square. Input is a {X.shape[0]}x{X.shape[1]} "
                    "matrix."
                )
            _check_precomputed_values(X)
        self._function_metric = (
            distance_function(self.metric, self.metric_params, X.shape[1], self.algorithm)
            is not None)
        if self._function_metric:
            return self._fit_function_metric(X, y)
        # checked as scikit-learn does ("auto": against its ball tree's list
        # for the metrics it has), then for the algorithm chosen
        _, p, name, w = resolve_metric(
            self.metric, self.p, self.metric_params, self.algorithm, n_features=X.shape[1]
        )
        method = self._choose_algorithm(X, p, name, w)
        self._metric_code, self._p, name, w = resolve_metric(
            self.metric, self.p, self.metric_params,
            self.algorithm if self.algorithm == "auto" else method, n_features=X.shape[1],
        )
        self.effective_metric_ = name
        _check_distance_range(self, X, fit=True)
        if name in LINEAR_MAP_METRICS:
            self.effective_metric_params_ = dict(self.metric_params or {})
        elif w is not None:
            self.effective_metric_params_ = {"p": self._p, "w": w}
        else:
            self.effective_metric_params_ = {"p": self._p} if name == "minkowski" else {}
        self._fit_method = method
        self._fit_X = X
        # weighted minkowski: the plain distance between rows scaled by w^(1/p)
        self._scale = None if w is None else weight_scale(w, self._p)
        search_X = self._scaled(X)
        self.n_samples_fit_ = X.shape[0]
        self._tree = None
        self._gemm_index = None
        with numba_threads(self.n_jobs):
            if method == "kd_tree":
                self._tree = KDTree(search_X, self.leaf_size, metric=name, p=self._p)
            elif method == "ball_tree":
                self._tree = BallTree(
                    search_X, self.leaf_size, metric=name if w is None else _code_name(
                        self._metric_code), p=self._p,
                )
            elif self._metric_code in _GEMM_CODES:
                self._gemm_index = LazyGemmIndex(search_X, self._metric_code)
        self._search_X = search_X
        return y

    def _brute_index(self):
        """The float32 GEMM index of the training rows for euclidean / cosine brute
        search, or None (see :class:`LazyGemmIndex`)."""
        return None if self._gemm_index is None else self._gemm_index.get()

    def _fit_sparse(self, X, y):
        """Sparse training rows: brute force with the metrics scikit-learn allows
        on sparse input (a tree algorithm falls back to brute force, with its warning)."""
        if callable(self.metric) or self.metric == "precomputed":
            raise TypeError(
                f"{type(self).__name__}(metric={self.metric!r}) does not take sparse input in "
                "classiclearn; pass a dense array."
            )
        name = sparse_metric(self.metric, self.p)
        if self.algorithm in ("kd_tree", "ball_tree"):
            warnings.warn("cannot use tree with sparse input: using brute force", UserWarning,
                          stacklevel=4)
        self.effective_metric_ = name if self.metric == "minkowski" else self.metric
        self.effective_metric_params_ = {k: v for k, v in (self.metric_params or {}).items()
                                         if k != "p"}
        self._function_metric = False
        self._metric_code, self._p, self._scale = None, 2.0, None
        self._fit_method = "brute"
        self._fit_X = self._search_X = X
        self.n_samples_fit_ = X.shape[0]
        self._tree = self._gemm_index = None
        self._sparse_index = SparseIndex(X, name)
        return y

    def _fit_function_metric(self, X, y):
        """A metric given by a function (a callable, 'pyfunc') or haversine: queries
        compute their distances to every training row and search them as precomputed
        distances. With algorithm='ball_tree' this is the ball tree's answer (exact
        search); 'kd_tree' is refused, as scikit-learn does."""
        if self.algorithm == "kd_tree":
            raise ValueError(
                f"Metric {self.metric!r} is not valid for algorithm 'kd_tree'; use 'brute', "
                "'ball_tree' or 'auto'."
            )
        self.effective_metric_ = self.metric
        self.effective_metric_params_ = dict(self.metric_params or {})
        self._metric_code, self._p, self._scale = PRECOMPUTED, 2.0, None
        self._fit_method = "brute"
        self._fit_X = self._search_X = X
        self.n_samples_fit_ = X.shape[0]
        self._tree = self._gemm_index = None
        return y

    def _function_distances(self, X):
        """Distances of the query rows to every training row, by the metric's function
        (rebuilt from the parameters, so a fitted model pickles)."""
        dist = distance_function(self.metric, self.metric_params, self._fit_X.shape[1])
        return dist(X, self._fit_X)

    def _scaled(self, X):
        return map_rows(X, self._scale)

    def _warn_boolean(self, X_is_bool):
        """scikit-learn's brute force converts data to booleans for its boolean
        metrics and says so when either side was not boolean."""
        if (
            self._fit_method == "brute" and self.metric in BOOLEAN_METRICS
            and not (X_is_bool and self._bool_input)
        ):
            warnings.warn(
                f"Data was converted to boolean for metric {self.metric}",
                DataConversionWarning,
                stacklevel=4,
            )

    # -- queries -----------------------------------------------------------

    def _check_query_X(self, X):
        is_bool = self.metric in BOOLEAN_METRICS and _is_bool_input(X)
        sparse_fit = getattr(self, "_sparse_index", None) is not None
        X = validate_data(self, X, reset=False, dtype=np.float64,
                          ensure_all_finite=self._finite(), accept_sparse=sparse_fit and "csr")
        if sparse_fit:
            return X
        if self.metric == "precomputed":
            _check_precomputed_values(X)
        else:
            _check_distance_range(self, X, fit=False)
        self._warn_boolean(is_bool)
        return X

    def _sparse_threads(self, X):
        """Threads of the sparse distance passes (the library's policy for n_jobs=None)."""
        return auto_n_jobs(self.n_jobs, self._sparse_index.Y.nnz * X.shape[0], NUMBA_PASS_WORK)

    def _brute_threads(self, X):
        """Threads of a dense brute-force search: the library's policy for n_jobs=None
        (every core once the distances' work pays for them; scikit-learn's brute search
        uses every core whatever its n_jobs), otherwise what n_jobs asks."""
        return auto_n_jobs(self.n_jobs, X.shape[0] * self.n_samples_fit_ * X.shape[1],
                           NUMBA_PASS_WORK)

    def _scan_radius_sums(self, X, radius, sums, per_row):
        """Fold the neighbours of the query rows ``X`` into ``sums`` by brute force, the
        same exact distances as the tree's, when they are at least 1 / _TREE_SCAN_SHARE
        of the training rows a query (``per_row``): the tree then prunes little, and
        its walk costs more than a scan of every row. Returns whether it did."""
        if per_row * _TREE_SCAN_SHARE < self.n_samples_fit_:
            return False
        n_threads = self._brute_threads(X)
        with numba_threads(n_threads):
            brute_radius_sums(self._scaled(X), self._search_X, radius, self._metric_code,
                              self._p, sums, n_threads=n_threads)
        return True

    def _lazy_row_method(self, name, X):
        """``name`` on Dask queries for a model fitted on Dask data (None otherwise:
        the generic block-wise method applies); see ``base``."""
        return _dask.lazy_row_method(self, name, X)

    def _kneighbors_raw(self, X, k, with_distances=True):
        if getattr(self, "_dask_train", None) is not None:
            return _dask.kneighbors_now(self, X, k)[:2]
        if getattr(self, "_sparse_index", None) is not None:
            with numba_threads(self._sparse_threads(X)):
                return sparse_kneighbors(self._sparse_index, sp.csr_array(X), k)
        if self._tree is not None:
            with numba_threads(self.n_jobs):
                return self._tree.query(self._scaled(X), k)
        n_threads = self._brute_threads(X)
        with numba_threads(n_threads):
            if self.metric == "precomputed":
                return brute_kneighbors(X, None, k, PRECOMPUTED, 2.0)
            if self._function_metric:
                return brute_kneighbors(self._function_distances(X), None, k, PRECOMPUTED, 2.0)
            return brute_kneighbors(
                self._scaled(X), self._search_X, k, self._metric_code, self._p,
                index=self._brute_index(), n_threads=n_threads,
                with_distances=with_distances,
            )

    def _radius_raw(self, X, radius, sort_results, sums=None):
        """(ind, dist, offsets) of the training rows within ``radius`` of the validated
        query rows ``X``; with ``sums`` (a :class:`RadiusSums`), the neighbours are
        folded into it instead, never all listed at once, and None is returned."""
        if getattr(self, "_dask_train", None) is not None:
            listed = _dask.radius_now(self, X, radius, sort_results)
            return listed if sums is None else sums.fold_listed(*listed, 0)
        if sums is not None and (self._tree is not None or sums.weighting == GIVEN):
            # searches that can only list their pairs: a piece of the queries at a time
            scan_rest = None
            if self._tree is not None and sums.weighting != GIVEN:
                def scan_rest(q0, per_row):
                    return self._scan_radius_sums(X[q0:], radius, sums.rows_from(q0), per_row)
            fold_listed_in_pieces(
                sums, lambda q0, q1: self._radius_raw(X[q0:q1], radius, False), X.shape[0],
                scan_rest)
            return None
        if getattr(self, "_sparse_index", None) is not None:
            with numba_threads(self._sparse_threads(X)):
                Q = sp.csr_array(X)
                if sums is None:
                    return sparse_radius(self._sparse_index, Q, radius, sort_results)
                return sparse_radius_sums(self._sparse_index, Q, radius, sums)
        if self._tree is not None:
            with numba_threads(self.n_jobs):
                return self._tree._radius_flat(self._scaled(X), radius, sort_results=sort_results)
        n_threads = self._brute_threads(X)
        if self.metric == "precomputed" or self._function_metric:
            args = (X if self.metric == "precomputed" else self._function_distances(X), None,
                    radius, PRECOMPUTED, 2.0)
            index = None
        else:
            args = (self._scaled(X), self._search_X, radius, self._metric_code, self._p)
            index = self._brute_index()
        with numba_threads(n_threads):
            if sums is None:
                return brute_radius(*args, sort_results=sort_results, index=index,
                                    n_threads=n_threads)
            return brute_radius_sums(*args, sums, index=index, n_threads=n_threads)


class _SupervisedNeighborsBase(_NeighborsBase):
    """``fit`` and the predict preambles shared by the k-nearest and radius
    classifiers and regressors: the ``weights`` parameter, storing the
    targets, and the weighted neighbours of the query points."""

    _parameter_constraints = {
        **_NeighborsBase._parameter_constraints,
        "weights": [StrOptions({"uniform", "distance"}), "callable", None],
    }
    # regressors: numeric (multi-output) targets; classifiers: class labels
    _numeric_targets = False

    def fit(self, X, y):
        """Store the training set, index it and keep the targets.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features), or (n_samples, n_samples)
            if ``metric="precomputed"``
        y : array-like of shape (n_samples,) or (n_samples, n_outputs)

        Returns
        -------
        self
        """
        self._set_targets(self._fit(X, y, y_numeric=self._numeric_targets))
        return self

    def _set_targets(self, y):
        self._y = y

    def _knn_targets(self, X, with_distances=True):
        """(distances (m, k), targets (m, k) or (m, k, n_outputs)) of the k nearest
        (class codes for classifiers); from the Dask training blocks for a model
        fitted on Dask data. Without ``with_distances`` (an unweighted vote) the
        distances may be left unset and the neighbours of a row in any order."""
        check_is_fitted(self)
        if getattr(self, "_dask_train", None) is not None and X is not None:
            dist, _, targets = _dask.kneighbors_now(self, self._check_query_X(X),
                                                    self.n_neighbors)
            return dist, targets
        if with_distances or X is None or self.n_neighbors > self.n_samples_fit_:
            dist, ind = self.kneighbors(X)  # (which also refuses too many neighbours)
        else:
            dist, ind = self._kneighbors_raw(self._check_query_X(X), self.n_neighbors,
                                             with_distances=False)
        return dist, self._y[ind]

    def _radius_sums(self, X, cols, vals, n_cols):
        """:class:`RadiusSums` of the neighbours within ``radius`` of the query rows
        ``X`` (of each training row, itself left out, for None) over the targets
        given by ``cols`` and ``vals``."""
        check_is_fitted(self)
        if X is None or is_dask_collection(X):
            ind, dist, offsets = self._radius_flat(X, None, False)
            sums = RadiusSums(offsets.shape[0] - 1, cols, vals, n_cols, self.weights, self.n_jobs)
            sums.fold_listed(ind, dist, offsets, 0)
            return sums
        X = self._check_query_X(X)
        sums = RadiusSums(X.shape[0], cols, vals, n_cols, self.weights, self.n_jobs)
        self._radius_raw(X, float(self.radius), False, sums=sums)
        return sums


def _check_class_target(estimator, X, y):
    """Class labels as an array of any dtype (strings kept), checked against X."""
    if y is None:
        raise ValueError(
            f"{type(estimator).__name__} requires y to be passed, but the target y is None."
        )
    if sp.issparse(y):
        raise TypeError("Sparse data was passed for y, but dense data is required.")
    y = np.asarray(y)
    if y.ndim not in (1, 2):
        raise ValueError(f"y should be a 1d or 2d array, got an array of shape {y.shape}.")
    if y.dtype.kind == "c":
        raise ValueError("Complex data not supported")
    if y.dtype.kind == "f" and not np.isfinite(y).all():
        raise ValueError(
            "Input y contains NaN." if np.isnan(y).any() else "Input y contains infinity."
        )
    check_consistent_length(X, y)
    return y


def _is_bool_input(X):
    """Whether the data as given are boolean (scikit-learn keeps their dtype)."""
    dtype = getattr(X, "dtype", None)
    if dtype is None and hasattr(X, "dtypes"):
        return all(np.dtype(t) == np.bool_ for t in X.dtypes)
    if dtype is None:
        dtype = np.asarray(X).dtype
    return dtype == np.bool_


def _code_name(code):
    return {EUCLIDEAN: "euclidean", MANHATTAN: "manhattan"}.get(code, "minkowski")


def _check_precomputed_values(X):
    if np.any(X < 0):
        raise ValueError("Negative values in data passed to precomputed distance matrix.")


class KNeighborsMixin:
    """``kneighbors`` and ``kneighbors_graph``."""

    def kneighbors(self, X=None, n_neighbors=None, return_distance=True):
        """Find the k nearest neighbours of each query point.

        Parameters
        ----------
        X : array-like of shape (n_queries, n_features), or (n_queries, n_samples_fit)
            if ``metric="precomputed"``, default=None
            Query points. None means the training points, each excluding itself.
            A Dask array (or None after a fit on Dask data) gives lazy Dask
            arrays, one block per query block.
        n_neighbors : int, default=None
            Number of neighbours; defaults to the constructor's value.
        return_distance : bool, default=True

        Returns
        -------
        neigh_dist : ndarray of shape (n_queries, n_neighbors)
            Only when ``return_distance``.
        neigh_ind : ndarray of shape (n_queries, n_neighbors)
            Indices of the nearest training points, nearest first; ties by index.
        """
        check_is_fitted(self)
        if n_neighbors is None:
            n_neighbors = self.n_neighbors
        n_neighbors = _check_n_neighbors(n_neighbors)
        query_is_train = X is None
        dask_train = getattr(self, "_dask_train", None) is not None
        if is_dask_collection(X) or (query_is_train and dask_train):
            # lazy, one merge per query block
            n_fit = self.n_samples_fit_
            n_q = n_fit if query_is_train else X.shape[0]
            if n_neighbors + query_is_train > n_fit:
                raise ValueError(
                    "Expected n_neighbors <= n_samples_fit, but n_neighbors = "
                    f"{n_neighbors + query_is_train}, n_samples_fit = {n_fit}, "
                    f"n_samples = {n_q}"
                )
            return _dask.kneighbors_lazy(self, X, n_neighbors, return_distance)
        if query_is_train:
            X = self._fit_X
            self._warn_boolean(self._bool_input)
            n_neighbors += 1
        else:
            X = self._check_query_X(X)
        n_fit = self.n_samples_fit_
        if n_neighbors > n_fit:
            if query_is_train:
                n_neighbors -= 1
            raise ValueError(
                "Expected n_neighbors <= n_samples_fit, but n_neighbors = "
                f"{n_neighbors}, n_samples_fit = {n_fit}, n_samples = {X.shape[0]}"
            )
        dist, ind = self._kneighbors_raw(X, n_neighbors)
        if query_is_train:
            n_q = X.shape[0]
            mask = ind != np.arange(n_q)[:, None]
            missing_self = np.all(mask, axis=1)
            mask[missing_self, n_neighbors - 1] = False
            ind = ind[mask].reshape(n_q, n_neighbors - 1)
            dist = dist[mask].reshape(n_q, n_neighbors - 1)
        return (dist, ind) if return_distance else ind

    def kneighbors_graph(self, X=None, n_neighbors=None, mode="connectivity"):
        """Sparse graph of k-neighbours: row i has the neighbours of query i.

        Parameters
        ----------
        X : array-like, default=None
            As in :meth:`kneighbors`.
        n_neighbors : int, default=None
        mode : {"connectivity", "distance"}, default="connectivity"
            Ones, or the distances, as stored values.

        Returns
        -------
        scipy.sparse.csr_matrix of shape (n_queries, n_samples_fit)
        """
        if mode not in ("connectivity", "distance"):
            raise ValueError(
                f'Unsupported mode, must be one of "connectivity", or "distance" but got '
                f'"{mode}" instead'
            )
        if is_dask_collection(X) or (X is None and getattr(self, "_dask_train", None)
                                     is not None):
            _dask._refuse_ragged(self, "kneighbors_graph")
        dist, ind = self.kneighbors(X, n_neighbors, return_distance=True)
        n_q, k = ind.shape
        data = np.ones(n_q * k) if mode == "connectivity" else dist.ravel()
        indptr = np.arange(0, n_q * k + 1, k)
        return sp.csr_matrix((data, ind.ravel(), indptr), shape=(n_q, self.n_samples_fit_))


class RadiusNeighborsMixin:
    """``radius_neighbors`` and ``radius_neighbors_graph``."""

    def _radius_flat(self, X, radius, sort_results):
        check_is_fitted(self)
        if radius is None:
            radius = self.radius
        if isinstance(radius, bool) or not isinstance(radius, Real) or not radius > 0:
            raise ValueError(f"radius must be a positive number, got {radius!r}.")
        query_is_train = X is None
        if is_dask_collection(X) or (query_is_train
                                     and getattr(self, "_dask_train", None) is not None):
            _dask._refuse_ragged(self, "radius")
        if query_is_train:
            X = self._fit_X
            self._warn_boolean(self._bool_input)
        else:
            X = self._check_query_X(X)
        ind, dist, offsets = self._radius_raw(X, float(radius), sort_results)
        if query_is_train:
            rows = np.repeat(np.arange(X.shape[0]), np.diff(offsets))
            keep = ind != rows
            ind, dist = ind[keep], dist[keep]
            counts = np.bincount(rows[keep], minlength=X.shape[0])
            offsets = np.zeros(X.shape[0] + 1, dtype=np.intp)
            np.cumsum(counts, out=offsets[1:])
        return ind, dist, offsets

    def radius_neighbors(self, X=None, radius=None, return_distance=True, sort_results=False):
        """Training points within ``radius`` (inclusive) of each query point.

        Parameters
        ----------
        X : array-like, default=None
            Query points; None means the training points, each excluding itself.
        radius : float, default=None
            Defaults to the constructor's value; must be > 0.
        return_distance : bool, default=True
        sort_results : bool, default=False
            Sort each result by (distance, index); needs ``return_distance``.
            Unsorted results are in index order (brute force) or tree order.

        Returns
        -------
        neigh_dist : object ndarray of shape (n_queries,)
            Arrays of distances; only when ``return_distance``.
        neigh_ind : object ndarray of shape (n_queries,)
            Arrays of training indices.
        """
        if sort_results and not return_distance:
            raise ValueError("return_distance must be True if sort_results is True.")
        ind, dist, offsets = self._radius_flat(X, radius, sort_results)
        out_i, out_d = _rows_to_objects(ind, dist if return_distance else None, offsets)
        return (out_d, out_i) if return_distance else out_i

    def radius_neighbors_graph(self, X=None, radius=None, mode="connectivity",
                               sort_results=False):
        """Sparse graph of radius neighbours.

        Parameters
        ----------
        X : array-like, default=None
        radius : float, default=None
        mode : {"connectivity", "distance"}, default="connectivity"
        sort_results : bool, default=False

        Returns
        -------
        scipy.sparse.csr_matrix of shape (n_queries, n_samples_fit)
        """
        if mode not in ("connectivity", "distance"):
            raise ValueError(
                f'Unsupported mode, must be one of "connectivity", or "distance" but got '
                f'"{mode}" instead'
            )
        ind, dist, offsets = self._radius_flat(X, radius, sort_results)
        data = np.ones(ind.shape[0]) if mode == "connectivity" else dist
        return sp.csr_matrix(
            (data, ind, offsets), shape=(offsets.shape[0] - 1, self.n_samples_fit_)
        )


def _warn_no_neighbors():
    warnings.warn(
        "One or more samples have no neighbors within specified radius; predicting NaN.",
        stacklevel=3,
    )


