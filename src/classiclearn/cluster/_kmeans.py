"""k-means clustering: Lloyd's and Elkan's algorithms, k-means++ seeding (seed 000 §12.1).

k-means minimises the inertia Σ_i w_i ||x_i - c_{l(i)}||² by alternating an
assignment step (each sample to its nearest centre) and an update step (each
centre to the weighted mean of its samples). Both steps run fused in one
parallel pass over fixed chunks of rows. Elkan's variant keeps an upper bound
on the distance to the assigned centre and a lower bound per centre, skipping
distance computations the triangle inequality rules out; it visits the same
sequence of centres as Lloyd's. Several initialisations (``n_init``) are run
and the one with the lowest inertia kept.

Sparse X (CSR) is clustered as it is, never densified nor centred (as in
scikit-learn): the kernels take its non-zeros, the distances come from
||x||² + ||c||² - 2 <x, c>.
"""

import warnings
from contextlib import contextmanager, nullcontext
from numbers import Integral, Real

import numpy as np
import scipy.sparse as sp

from .._kernels.jit import start_parallel_runtime
from ..base import BaseEstimator, ClusterMixin, TransformerMixin
from ..exceptions import ConvergenceWarning
from ..utils._dask import DaskUnsupportedError, fit_one_block_in_memory, record_input_features
from ..utils._params import Interval, StrOptions
from ..utils._random import check_random_state
from ..utils._sparse import column_mean_var, row_squared_norms
from ..utils._threads import (
    SMALL_WORK,
    LoopThreads,
    blas_single_thread,
    threads_for_work,
)
from ..utils.validation import (
    cast_float_attributes,
    check_array,
    check_is_fitted,
    check_magnitude,
    check_sample_weight,
    input_float_dtype,
    output_in_dtype,
    power_of_two_unit,
    validate_data,
)
from . import _kmeans_dask
from . import _kmeans_kernels as _k
from ._kmeans_parallel import kmeans_parallel

__all__ = ["KMeans", "kmeans_plusplus"]


@contextmanager
def _threads(n_jobs, work=None, threaded_from=SMALL_WORK):
    """numba thread context (all threads when ``n_jobs`` is None, one for work below
    ``threaded_from``), BLAS on one thread: the kernels call BLAS on row tiles from
    numba's threads, and a threaded BLAS there (wide rows: 256 x 2,000 tiles)
    oversubscribed the cores."""
    with threads_for_work(n_jobs, SMALL_WORK if work is None else work, threaded_from), \
            blas_single_thread():
        yield


def _rows(X, squared_norms=False):
    """The samples as the kernels' ``rows`` tuple (see ``_kmeans_kernels``):
    dense X with the dense marker for the CSR arrays, or the CSR arrays of a
    sparse X (intp indices) with an empty dense part. The squared row norms are filled for
    sparse X always (its distances need them), for dense X on request."""
    if sp.issparse(X):
        return (np.empty((0, X.shape[1])), np.ascontiguousarray(X.data, dtype=np.float64),
                X.indices.astype(np.intp), X.indptr.astype(np.intp), row_squared_norms(X))
    x_sq = np.einsum("ij,ij->i", X, X) if squared_norms else np.empty(0)
    return (X, np.empty(0), _k.DENSE_MARK, _k.DENSE_MARK, x_sq)


def _dense_rows(X, idx):
    """Rows ``idx`` of X as a dense float64 array (centres are dense)."""
    sub = X[idx]
    return sub.toarray() if sp.issparse(sub) else sub


def _kmeans_plusplus(X, n_clusters, sample_weight, random_state, n_local_trials=None,
                     rows=None):
    """Greedy k-means++ on validated float64 data (dense or CSR); returns (centers, indices).
    ``rows``: X's ``_rows(X, squared_norms=True)`` when the caller has them."""
    if n_local_trials is None:
        n_local_trials = 2 + int(np.log(n_clusters))
    indices = np.full(n_clusters, -1, dtype=np.intp)
    # random_state.choice(n, p=sample_weight / sum) without its checks and copies
    first = _k.weighted_pick(sample_weight, sample_weight.sum(), random_state.random_sample())
    # all candidates' uniform draws at once: the same numbers as one draw per centre
    uniforms = random_state.uniform(size=(n_clusters - 1, n_local_trials))
    if rows is None:
        rows = _rows(X, squared_norms=True)
    start_parallel_runtime()
    _k.kpp_seed(rows, X.shape[1], sample_weight, first, uniforms, indices)
    return _dense_rows(X, indices), indices


def recluster_candidates(candidates, weights, n_clusters, rng):
    """The last step of k-means||: weighted greedy k-means++ on the candidates, then
    Lloyd's iterations on them (tolerance 1e-4 of their mean variance)."""
    centers, _ = _kmeans_plusplus(candidates, n_clusters, weights, rng)
    spread = np.average((candidates - np.average(candidates, axis=0, weights=weights)) ** 2,
                        axis=0, weights=weights)
    _, _, centers, _ = _kmeans_single(candidates, weights, centers, 300,
                                      1e-4 * float(spread.mean()), "lloyd")
    return centers


def kmeans_plusplus(
    X, n_clusters, *, sample_weight=None, x_squared_norms=None, random_state=None,
    n_local_trials=None,
):
    """Choose initial centres by greedy k-means++ seeding.

    The first centre is a sample drawn with probability proportional to its
    weight; each further centre is the best (lowest resulting potential) of
    ``n_local_trials`` samples drawn with probability proportional to
    w_i D(x_i)², D the distance to the nearest centre chosen so far
    (Arthur & Vassilvitskii, 2007).

    Parameters
    ----------
    X : {array-like, sparse matrix} of shape (n_samples, n_features)
    n_clusters : int
    sample_weight : array-like of shape (n_samples,), default=None
    x_squared_norms : ignored
        Accepted for compatibility with scikit-learn.
    random_state : int, RandomState instance or None, default=None
    n_local_trials : int, default=None
        Candidates per step; ``2 + int(log(n_clusters))`` by default.

    Returns
    -------
    centers : ndarray of shape (n_clusters, n_features)
    indices : ndarray of shape (n_clusters,)
        Row of X each centre was taken from.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0.0, 0.0], [0.1, 0.0], [5.0, 5.0], [5.1, 5.0]])
    >>> centers, idx = kmeans_plusplus(X, 2, random_state=0)
    >>> sorted(int(i) // 2 for i in idx)
    [0, 1]
    """
    X = check_array(X, dtype=np.float64, accept_sparse="csr")
    sample_weight = check_sample_weight(sample_weight, X, dtype=np.float64)
    if X.shape[0] < n_clusters:
        raise ValueError(
            f"n_samples={X.shape[0]} should be >= n_clusters={n_clusters}."
        )
    if n_local_trials is not None and n_local_trials < 1:
        raise ValueError(f"n_local_trials is set to {n_local_trials} but should be >= 1.")
    rng = check_random_state(random_state)
    return _kmeans_plusplus(X, n_clusters, sample_weight, rng, n_local_trials)


def _center_stats(sums, wsums):
    """Reduce per-chunk sums in chunk order."""
    return sums.sum(axis=0), wsums.sum(axis=0)


def _relocate_empty(X, sample_weight, centers_old, sums, weights, labels):
    """Move each empty cluster to the sample farthest from its centre (in place on sums)."""
    empty = np.flatnonzero(weights == 0)
    if empty.size == 0:
        return
    if sp.issparse(X):
        # ||x||² - 2 <x, c_l> + ||c_l||² per row, from the non-zeros only
        row = np.repeat(np.arange(X.shape[0]), np.diff(X.indptr))
        dots = np.bincount(row, weights=X.data * centers_old[labels[row], X.indices],
                           minlength=X.shape[0])
        d = row_squared_norms(X) - 2.0 * dots + (centers_old**2).sum(axis=1)[labels]
    else:
        d = ((X - centers_old[labels]) ** 2).sum(axis=1)
    far = np.argsort(-d, kind="stable")[: empty.size]
    for new_id, idx in zip(empty, far):
        w = sample_weight[idx]
        old_id = labels[idx]
        x = _dense_rows(X, [idx])[0]
        sums[old_id] -= w * x
        sums[new_id] = w * x
        weights[new_id] = w
        weights[old_id] -= w


def _kmeans_single(X, sample_weight, centers_init, max_iter, tol, algorithm, rows=None,
                   loop=None):
    """One k-means run from ``centers_init``; returns (labels, inertia, centers, n_iter).
    ``rows``: X's ``_rows(X)`` when the caller has them (a sparse X's are copies);
    ``loop``: the :class:`LoopThreads` of the passes (by default the calling thread's
    setting for every pass)."""
    n_samples = X.shape[0]
    n_clusters = centers_init.shape[0]
    size, n_chunks = _sum_layout(X)
    sums = np.empty((n_chunks, n_clusters, X.shape[1]))
    wsums = np.empty((n_chunks, n_clusters))
    centers = np.array(centers_init, dtype=np.float64, order="C")
    labels = np.empty(n_samples, dtype=np.intp)
    labels_old = np.full(n_samples, -1, dtype=np.intp)
    elkan = algorithm == "elkan"
    if rows is None:
        rows = _rows(X)
    if elkan:
        upper = np.empty(n_samples)
        lower = np.empty((n_samples, n_clusters))
        half = _half_center_distances(centers)
        _k.elkan_init_bounds(rows, centers, _sq_norms(centers), half, labels, upper, lower)
        shift = np.zeros(n_clusters)
    strict = False
    n_iter = 0
    first = 1
    if not elkan and loop is not None:
        # the passes the loop runs on one thread, with the steps between them, compiled
        serial = min(max_iter, loop.serial_passes())
        if serial > 0:
            if sp.issparse(X):
                n_iter, stop = _k.sparse_lloyd_serial(*rows[1:5], sample_weight, centers,
                                                      serial, tol, labels, labels_old, sums,
                                                      wsums, size)
            else:
                n_iter, stop = _k.lloyd_serial(X, sample_weight, centers, serial, tol,
                                               labels, labels_old, sums, wsums)
            loop.skip(n_iter)
            strict = stop == 1
            first = max_iter + 1 if stop else n_iter + 1
    for n_iter in range(first, max_iter + 1):  # noqa: B007 (n_iter is read after the loop)
        with nullcontext() if loop is None else loop.next_pass():
            if elkan:
                half = _half_center_distances(centers)
                next_dist = _next_center_distances(half)
                _k.elkan_pass(
                    rows, sample_weight, centers, _sq_norms(centers), half, next_dist, shift,
                    labels, upper, lower, sums, wsums, True, size,
                )
            elif sp.issparse(X):
                _k.sparse_lloyd_pass(*rows[1:4], sample_weight, *_t_sq(centers), labels, sums,
                                     wsums, size)
            else:
                _k.lloyd_pass(X, sample_weight, *_t_sq(centers), labels, sums, wsums)
        total, weights = _center_stats(sums, wsums)
        _relocate_empty(X, sample_weight, centers, total, weights, labels)
        new_centers = centers.copy()
        nz = weights > 0
        new_centers[nz] = total[nz] / weights[nz, None]
        shift = np.sqrt(((new_centers - centers) ** 2).sum(axis=1))
        centers = new_centers
        if np.array_equal(labels, labels_old):
            strict = True
            break
        if (shift**2).sum() <= tol:
            break
        labels_old[:] = labels
    if strict:
        return labels, _inertia(rows, sample_weight, centers, labels), centers, n_iter
    if elkan:
        half = _half_center_distances(centers)
        _k.elkan_pass(
            rows, sample_weight, centers, _sq_norms(centers), half,
            _next_center_distances(half), shift, labels, upper, lower, sums, wsums, False, size,
        )
        return labels, _inertia(rows, sample_weight, centers, labels), centers, n_iter
    # labels of the final centres and their inertia in one pass (dense X is centred already)
    labels, inertia = _assign(X, np.zeros(X.shape[1]), centers, sample_weight, rows)
    return labels, inertia, centers, n_iter


def _sum_layout(X):
    """(rows per chunk, chunks) of the passes that sum the rows per cluster.

    Dense X: the kernels' fixed layout. Sparse X: at most 8 chunks, because
    each chunk's sums are a dense k x p block that would outweigh the sparse
    rows (zeroing and adding 128 of them costs more than the pass). Either
    way the layout depends on the number of rows only, never on threads.
    """
    n = X.shape[0]
    if not sp.issparse(X):
        return _k.chunk_layout(n)
    n_chunks = max(1, min(8, n // 256))
    return (n + n_chunks - 1) // n_chunks, n_chunks


def _sq_norms(points):
    return np.einsum("ij,ij->i", points, points)


def _t_sq(points):
    """Points transposed (p, m) and their squared norms, as the kernels take them."""
    return np.ascontiguousarray(points.T), np.einsum("ij,ij->i", points, points)


def _half_center_distances(centers):
    sq = (centers**2).sum(axis=1)
    d2 = sq[:, None] + sq[None, :] - 2.0 * centers @ centers.T
    np.maximum(d2, 0.0, out=d2)
    np.fill_diagonal(d2, 0.0)
    return np.ascontiguousarray(np.sqrt(d2) / 2.0)


def _next_center_distances(half):
    if half.shape[0] == 1:
        return np.full(1, np.inf)
    return np.ascontiguousarray(np.partition(half, kth=1, axis=0)[1])


def _inertia(rows, sample_weight, centers, labels):
    """Weighted inertia of the samples ``rows`` (see ``_rows``) with these labels."""
    size, n_chunks = _k.chunk_layout(labels.shape[0])
    out = np.empty(n_chunks)
    _k.chunk_inertia(rows, sample_weight, centers, _sq_norms(centers), labels, out)
    return float(out.sum())


def _assign(X, origin, centers, sample_weight=None, rows=None):
    """Labels of the rows of X - origin (centres relative to origin), and with
    ``sample_weight`` the weighted inertia; no shifted copy of X is made
    (sparse X: the centres are moved back by ``origin`` instead). ``rows``: a
    sparse X's ``_rows(X)`` when the caller has them."""
    labels = np.empty(X.shape[0], dtype=np.intp)
    size, n_chunks = _k.chunk_layout(X.shape[0])
    if sample_weight is None:
        sample_weight, inertia = np.empty(0), np.empty(0)
    else:
        inertia = np.empty(n_chunks)
    if sp.issparse(X):
        if rows is None:
            # the rows' squared norms only enter the inertia, not the labels
            x_sq = row_squared_norms(X) if inertia.size else np.empty(0)
            rows = (None, np.ascontiguousarray(X.data, dtype=np.float64),
                    X.indices.astype(np.intp, copy=False),
                    X.indptr.astype(np.intp, copy=False), x_sq)
        absolute = np.ascontiguousarray(centers + origin)
        _k.sparse_assign(*rows[1:], sample_weight, *_t_sq(absolute), labels, inertia)
    else:
        _k.assign_shifted(X, origin, sample_weight, *_t_sq(centers), labels, inertia)
    return labels, float(inertia.sum())


class KMeans(ClusterMixin, TransformerMixin, BaseEstimator):
    """K-means clustering.

    Parameters
    ----------
    n_clusters : int, default=8
        Number of clusters.
    init : {'k-means++', 'k-means||', 'random'}, callable or array-like of shape \
(n_clusters, n_features), default='k-means++'
        'k-means++': greedy k-means++ seeding; 'k-means||': the scalable
        approximation of k-means++ (Bahmani et al., 2012; not in scikit-learn):
        a few passes that each sample about ``2 n_clusters`` candidates, then
        an in-memory k-means of the weighted candidates; on Dask input it takes
        about a dozen passes over the data instead of one per centre, and its
        result does not depend on the chunking; 'random': ``n_clusters`` distinct
        rows drawn at random; an array: the initial centres; a callable
        ``init(X, n_clusters, random_state)`` returning centres.
    n_init : 'auto' or int, default='auto'
        Number of runs with different seeds; the lowest inertia wins. 'auto'
        is 1 for 'k-means++' and array init, 10 for 'random' and callables.
    max_iter : int, default=300
        Maximum iterations of one run.
    tol : float, default=1e-4
        Convergence when the summed squared centre shift falls to
        ``tol`` times the mean feature variance.
    verbose : int, default=0
        Unused; accepted for compatibility.
    random_state : int, RandomState instance or None, default=None
    copy_x : bool, default=True
        Unused: the input is never modified.
    algorithm : {'lloyd', 'elkan'}, default='lloyd'
        Lloyd's algorithm, or Elkan's triangle-inequality acceleration (same
        result, fewer distance computations when clusters are well separated).
    n_jobs : int, default=None
        Threads of the numba passes; None uses all. Results do not depend on it.

    Attributes
    ----------
    cluster_centers_ : ndarray of shape (n_clusters, n_features)
    labels_ : ndarray of shape (n_samples,)
    inertia_ : float
        Weighted sum of squared distances of samples to their closest centre.
    n_iter_ : int
        Iterations of the best run.
    n_features_in_ : int
    feature_names_in_ : ndarray of str

    See Also
    --------
    kmeans_plusplus : the seeding on its own.
    classiclearn.mixture.GaussianMixture : soft clustering with covariances.

    Notes
    -----
    Seed 000 §12.1. Lloyd: l(i) = argmin_j ||x_i - c_j||², then
    c_j = Σ_{l(i)=j} w_i x_i / Σ_{l(i)=j} w_i; stop when labels no longer change
    or the centres move less than the tolerance. An empty cluster is moved to
    the sample farthest from its centre.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[1.0, 2.0], [1.0, 4.0], [1.0, 0.0], [10.0, 2.0], [10.0, 4.0], [10.0, 0.0]])
    >>> km = KMeans(n_clusters=2, random_state=0).fit(X)
    >>> sorted(km.cluster_centers_[:, 0].tolist())
    [1.0, 10.0]
    """

    _parameter_constraints = {
        "n_clusters": [Interval(Integral, 1, None, closed="left")],
        "init": [StrOptions({"k-means++", "k-means||", "random"}), "callable", "array-like"],
        "n_init": [StrOptions({"auto"}), Interval(Integral, 1, None, closed="left")],
        "max_iter": [Interval(Integral, 1, None, closed="left")],
        "tol": [Interval(Real, 0, None, closed="left")],
        "verbose": [Interval(Integral, 0, None, closed="left"), "boolean"],
        "random_state": ["random_state"],
        "copy_x": ["boolean"],
        "algorithm": [StrOptions({"lloyd", "elkan"})],
        "n_jobs": [Integral, None],
    }

    def __init__(
        self,
        n_clusters=8,
        *,
        init="k-means++",
        n_init="auto",
        max_iter=300,
        tol=1e-4,
        verbose=0,
        random_state=None,
        copy_x=True,
        algorithm="lloyd",
        n_jobs=None,
    ):
        self.n_clusters = n_clusters
        self.init = init
        self.n_init = n_init
        self.max_iter = max_iter
        self.tol = tol
        self.verbose = verbose
        self.random_state = random_state
        self.copy_x = copy_x
        self.algorithm = algorithm
        self.n_jobs = n_jobs

    def __classiclearn_tags__(self):
        tags = super().__classiclearn_tags__()
        tags.sparse = True
        return tags

    def _init_centers(self, X, sample_weight, rng, rows=None):
        init = self.init
        if isinstance(init, str) and init == "k-means++":
            centers, _ = _kmeans_plusplus(X, self.n_clusters, sample_weight, rng, rows=rows)
        elif isinstance(init, str) and init == "k-means||":
            centers = kmeans_parallel(lambda block_fn, merge_fn: block_fn(X, sample_weight, 0),
                                      self.n_clusters, rng, recluster_candidates)
        elif isinstance(init, str) and init == "random":
            idx = rng.choice(
                X.shape[0], size=self.n_clusters, replace=False,
                p=sample_weight / sample_weight.sum(),
            )
            centers = _dense_rows(X, idx)
        elif callable(init):
            centers = check_array(init(X, self.n_clusters, random_state=rng), dtype=np.float64)
            self._check_init_shape(centers, X)
        else:
            centers = self._init_array
        return np.ascontiguousarray(centers, dtype=np.float64)

    def _check_init_shape(self, centers, X):
        if centers.shape[0] != self.n_clusters:
            raise ValueError(
                f"The shape of the initial centers {centers.shape} does not match "
                f"the number of clusters {self.n_clusters}."
            )
        if centers.shape[1] != X.shape[1]:
            raise ValueError(
                f"The shape of the initial centers {centers.shape} does not match "
                f"the number of features of the data {X.shape[1]}."
            )

    def fit(self, X, y=None, sample_weight=None):
        """Compute k-means clustering.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
        y : ignored
        sample_weight : array-like of shape (n_samples,), default=None
            Weight of each sample (a weight of 2 counts the sample twice).

        Returns
        -------
        self
        """
        self._validate_params()
        dtype = input_float_dtype(X)
        X = validate_data(self, X, dtype=np.float64, accept_sparse="csr")
        sample_weight = check_sample_weight(sample_weight, X, dtype=np.float64)
        n_samples = X.shape[0]
        if n_samples < self.n_clusters:
            raise ValueError(f"n_samples={n_samples} should be >= n_clusters={self.n_clusters}.")
        if sample_weight.sum() <= 0:
            raise ValueError("The sum of sample_weight must be positive.")
        init = self.init
        is_array = not isinstance(init, str) and not callable(init)
        if is_array:
            self._init_array = check_array(init, dtype=np.float64, copy=True)
            self._check_init_shape(self._init_array, X)
        if self.n_init == "auto":
            n_init = 10 if (isinstance(init, str) and init == "random") or callable(init) else 1
        else:
            n_init = self.n_init
        if is_array and n_init != 1:
            warnings.warn(
                "Explicit initial center position passed: performing only one init in "
                f"{type(self).__name__} instead of n_init={n_init}.",
                RuntimeWarning,
                stacklevel=2,
            )
            n_init = 1
        rng = check_random_state(self.random_state)
        best = None
        # values near 1e300 or 1e-300: cluster X divided by a power of two (exact,
        # the same clustering), so that the squared distances stay representable
        unit = 1.0 if sp.issparse(X) else power_of_two_unit(X)
        if unit != 1.0:
            X = X / unit
            if is_array:
                self._init_array = self._init_array / unit
        if sp.issparse(X):
            check_magnitude(X, self, "squared distances", check_small=False)
        work = (X.nnz if sp.issparse(X) else X.size) * self.n_clusters
        # made before _threads sets one thread
        loop = LoopThreads(self.n_jobs, work,
                           dense=self.algorithm == "lloyd" and not sp.issparse(X))
        # the fit's other passes (centring, k-means++) on threads from the work a pass of
        # the loop takes them at (dense Lloyd passes: see DENSE_LOOP_PASS_THREADED)
        with _threads(self.n_jobs, work, loop.threaded_pass):
            if sp.issparse(X):
                # sparse X stays as it is (centring would fill it in)
                x_mean = np.zeros(X.shape[1])
                tol = float(np.mean(column_mean_var(X)[1])) * self.tol
            else:
                # Work on centred data: the assignment uses ||c||² - 2 <x, c>, accurate near 0.
                centred = np.empty(X.shape)
                x_mean, sum_sq = _k.centre_rows(X, centred)
                X = centred
                # tolerance: tol times the mean feature variance
                tol = sum_sq / X.size * self.tol if self.tol > 0 else 0.0
            if is_array:
                self._init_array = self._init_array - x_mean
            # a sparse X's kernel arrays (intp copies, squared row norms) once for all runs
            rows = _rows(X, squared_norms=True) if sp.issparse(X) else None
            for _ in range(n_init):
                centers0 = self._init_centers(X, sample_weight, rng, rows)
                run = _kmeans_single(X, sample_weight, centers0, self.max_iter, tol,
                                     self.algorithm, rows, loop)
                if best is None or run[1] < best[1]:
                    best = run
        if is_array:
            del self._init_array
        labels, inertia, centers, n_iter = best
        centers = (centers + x_mean) * unit
        self._x_mean, self._unit = x_mean * unit, unit
        with np.errstate(over="ignore", under="ignore"):  # inf (0) if not representable
            inertia = float(np.float64(inertia) * np.float64(unit) * np.float64(unit))
        distinct = int(np.count_nonzero(np.bincount(labels, minlength=self.n_clusters)))
        if distinct < self.n_clusters:
            warnings.warn(
                f"Number of distinct clusters ({distinct}) found smaller than "
                f"n_clusters ({self.n_clusters}). Possibly due to duplicate points in X.",
                ConvergenceWarning,
                stacklevel=2,
            )
        self.cluster_centers_ = centers
        self._n_features_out = centers.shape[0]
        self.labels_ = labels
        self.inertia_ = inertia
        self.n_iter_ = n_iter
        cast_float_attributes(self, dtype, ("cluster_centers_",))
        return self

    def _fit_dask(self, X, y=None, sample_weight=None):
        """Fit on Dask input: k-means++ and Lloyd's iterations with one exact pass
        over the blocks per step (see ``_kmeans_dask``); ``labels_`` stays lazy."""
        self._validate_params()
        if fit_one_block_in_memory(self, X, sample_weight=sample_weight) is not None:
            return self
        init = self.init
        init_array = None
        if isinstance(init, str) and init == "random" or callable(init):
            raise DaskUnsupportedError(
                f"KMeans(init={init!r}) has no distributed version on Dask input: use "
                "init='k-means++' or an array of initial centres."
            )
        if not isinstance(init, str):
            init_array = check_array(init, dtype=np.float64, copy=True)
            if init_array.shape != (self.n_clusters, X.shape[1]):
                raise ValueError(
                    f"The shape of the initial centers {init_array.shape} does not match "
                    f"the number of clusters {self.n_clusters} and features {X.shape[1]}."
                )
        n_init = 1 if self.n_init == "auto" or init_array is not None else self.n_init
        rng = check_random_state(self.random_state)
        centers, inertia, n_iter, counts, x_mean = _kmeans_dask.fit_kmeans_dask(
            self, X, sample_weight, rng, n_init, init_array)
        record_input_features(self, X)
        self._x_mean = x_mean
        distinct = int(np.count_nonzero(counts))
        if distinct < self.n_clusters:
            warnings.warn(
                f"Number of distinct clusters ({distinct}) found smaller than "
                f"n_clusters ({self.n_clusters}). Possibly due to duplicate points in X.",
                ConvergenceWarning,
                stacklevel=3,
            )
        self.cluster_centers_ = centers
        self._n_features_out = centers.shape[0]
        self.inertia_ = float(inertia)
        self.n_iter_ = n_iter
        self.labels_ = self.predict(X)  # lazy: one label per row
        return self

    def _check_test_data(self, X):
        check_is_fitted(self)
        return validate_data(self, X, reset=False, dtype=np.float64, accept_sparse="csr")

    def _origin_and_centres(self, X):
        """The training mean and the centres relative to it (for accurate assignments)."""
        origin = getattr(self, "_x_mean", np.zeros(X.shape[1]))
        return origin, np.ascontiguousarray(self.cluster_centers_ - origin, dtype=np.float64)

    def _in_fit_units(self, X):
        """X, origin and relative centres divided by the fit's power-of-two unit
        (1 unless the training data were near 1e300 or 1e-300), and the unit;
        data too large for the squared distances are refused."""
        origin, centers = self._origin_and_centres(X)
        unit = getattr(self, "_unit", 1.0)
        if unit != 1.0:
            X, origin, centers = X / unit, origin / unit, centers / unit
        shifted = unit != 1.0 and not sp.issparse(X)
        check_magnitude(X - origin if shifted else X, self, "squared distances",
                        check_small=False)
        return X, origin, centers, unit

    def predict(self, X):
        """Index of the closest centre for each sample.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)

        Returns
        -------
        labels : ndarray of shape (n_samples,)
        """
        X, origin, centers, _ = self._in_fit_units(self._check_test_data(X))
        with _threads(self.n_jobs, _size(X) * self.n_clusters):
            return _assign(X, origin, centers)[0]

    def fit_predict(self, X, y=None, sample_weight=None):
        """Fit and return the cluster index of each sample.

        Returns
        -------
        labels : ndarray of shape (n_samples,)
        """
        return self.fit(X, sample_weight=sample_weight).labels_

    def transform(self, X):
        """Euclidean distances of each sample to every centre.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples, n_clusters)
        """
        X_in = X
        X = self._check_test_data(X)
        origin, centers = self._origin_and_centres(X)
        return output_in_dtype(_distances(X, origin, centers), X_in, self.cluster_centers_)

    def fit_transform(self, X, y=None, sample_weight=None):
        """Fit, then return the distances to the centres.

        Returns
        -------
        ndarray of shape (n_samples, n_clusters)
        """
        return self.fit(X, sample_weight=sample_weight).transform(X)

    def score(self, X, y=None, sample_weight=None):
        """Opposite of the inertia of X on the fitted centres.

        Returns
        -------
        float
        """
        X = self._check_test_data(X)
        sample_weight = check_sample_weight(sample_weight, X, dtype=np.float64)
        X, origin, centers, unit = self._in_fit_units(X)
        with _threads(self.n_jobs, _size(X) * self.n_clusters):
            inertia = _assign(X, origin, centers, sample_weight)[1]
        with np.errstate(over="ignore", under="ignore"):
            inertia = float(np.float64(inertia) * np.float64(unit) * np.float64(unit))
        if not np.isfinite(inertia):
            raise ValueError(
                "The inertia of X on the fitted centres is too large to represent "
                "(beyond 1.8e308); scale the features (e.g. with StandardScaler)."
            )
        return -inertia

    def get_feature_names_out(self, input_features=None):
        """Output names ``kmeans0``, ``kmeans1``, ...

        Returns
        -------
        ndarray of str
        """
        check_is_fitted(self)
        return np.asarray([f"kmeans{i}" for i in range(self._n_features_out)], dtype=object)


def _size(X):
    """Stored values of X (its non-zeros when sparse): the work of a pass."""
    return X.nnz if sp.issparse(X) else X.size


def _distances(X, origin, centers):
    """Euclidean distances of the rows of X to the centres (given relative to ``origin``).

    X is shifted by ``origin`` (the training mean, so that ``|a|^2 - 2 <a, c>
    + |c|^2`` does not cancel) and everything divided by the largest absolute
    value, so the squares neither overflow near 1e308 nor underflow near
    1e-308; the distances are scaled back at the end. Sparse X is not shifted
    (that would fill it in): ||x||² - 2 <x, c> + ||c||² with absolute centres.
    """
    if sp.issparse(X):
        C = centers + origin
        d2 = row_squared_norms(X)[:, None] - 2.0 * np.asarray(X @ C.T) + (C**2).sum(axis=1)
        np.maximum(d2, 0.0, out=d2)
        return np.sqrt(d2)
    with np.errstate(over="ignore", invalid="ignore"):
        A = X - origin
    scale = max(np.abs(A).max(initial=0.0), np.abs(centers).max(initial=0.0))
    if not np.isfinite(scale):
        raise ValueError(
            "X contains values too large for the distances of KMeans (max |x| = "
            f"{np.abs(X).max():.3g} relative to the training mean); scale the features."
        )
    if scale == 0.0:
        return np.zeros((X.shape[0], centers.shape[0]))
    A /= scale
    C = centers / scale
    d2 = (A**2).sum(axis=1)[:, None] - 2.0 * (A @ C.T) + (C**2).sum(axis=1)[None, :]
    np.maximum(d2, 0.0, out=d2)
    return np.sqrt(d2) * scale
