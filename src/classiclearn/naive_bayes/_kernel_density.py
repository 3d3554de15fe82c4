"""Kernel-density naive Bayes (seed 004: Parzen windows with a Gaussian kernel).

Each class k and feature j gets a one-dimensional Gaussian kernel density
estimate of its training values,

    f_kj(x) = 1 / (n_k h_kj) Σ_{i in k} φ((x - x_ij) / h_kj),

and, features being independent given the class (the naive assumption),

    log P(k | x) = log P(k) + Σ_j log f_kj(x_j) + const,

which is not linear in x: the boundaries are curved (seed 004, "general
case"). ``bandwidth`` is the kernel standard deviation h, or a rule applied
per class and feature as ``scipy.stats.gaussian_kde`` does: Scott,
h = s n^(-1/5), or Silverman, h = s (3n/4)^(-1/5), with s the sample standard
deviation (ddof=1).

For large classes the densities are precomputed on a regular grid of step
h / 25 (the training values binned with 8-point Lagrange weights, which keep
their first eight moments, then an FFT convolution with the kernel truncated
at 10 bandwidths), and queries interpolate the log-density with 8-point
Lagrange polynomials: about 1e-9 relative error. Where the grid sums are
small (below 1e-7 of the largest: tails, gaps between clusters) or a query
lies off the grid, the kernel sum is exact, over training values sorted per
class and feature, from the nearest one outwards until the terms become
negligible (below exp(-40) of the largest).
"""

from numbers import Integral, Real

import numpy as np
from scipy import fft as sp_fft

from ..base import BaseEstimator, ClassifierMixin
from ..utils._params import Interval, StrOptions
from ..utils._targets import encode_labels
from ..utils._threads import numba_threads
from ..utils.validation import check_is_fitted, check_magnitude, validate_data
from . import _kde_kernels as _k
from ._posterior import PosteriorMixin

__all__ = ["KernelDensityNB"]

_CUTOFF = 10.0  # kernel truncation, in bandwidths (exp(-50) relative)
_STEP = 0.04  # grid step, in bandwidths
_PAD = 6.0  # grid margin beyond the training values, in bandwidths
_TRUST = 1e-7  # grid sums below this fraction of the largest use exact sums
_AUTO_MIN_SAMPLES = 500  # "auto" bins classes larger than this
_GRIDS_PER_BATCH = 256


class KernelDensityNB(PosteriorMixin, ClassifierMixin, BaseEstimator):
    """Naive Bayes with one Gaussian kernel density per class and feature.

    Parameters
    ----------
    bandwidth : float, "scott" or "silverman", default="scott"
        Kernel standard deviation in the units of the features (a float), or
        the rule giving it per class and feature from the sample standard
        deviation and class size.
    priors : array-like of shape (n_classes,), default=None
        Class priors; by default the class frequencies.
    algorithm : {"auto", "exact", "binned"}, default="auto"
        "exact" sums the kernels over the training values at every query
        (leaving out terms below exp(-40) times the largest); "binned"
        precomputes each density on a grid of step ``bandwidth / 25``
        (relative error of the density about 1e-9, exact sums in the tails);
        "auto" bins the classes with more than 500 samples.
    grid_size : int, default=16384
        The most grid nodes of one class and feature; a density whose grid
        (its range plus 6 bandwidths on each side, in steps of bandwidth / 25)
        would need more is summed exactly.
    n_jobs : int, default=None
        Threads used by the compiled kernels.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    class_count_ : ndarray of shape (n_classes,)
    class_prior_ : ndarray of shape (n_classes,)
    bandwidth_ : ndarray of shape (n_classes, n_features)
        The kernel standard deviation of each class and feature.
    n_features_in_ : int
    feature_names_in_ : ndarray of str

    See Also
    --------
    GaussianNB : one normal density per class and feature.

    Notes
    -----
    A class and feature whose values are all equal would have a zero
    bandwidth under the rules; its bandwidth is raised to 1e-3 times the
    feature's overall standard deviation (or 1e-3 if that is zero too).

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0.0], [0.2], [0.4], [3.0], [3.3], [3.5]])
    >>> clf = KernelDensityNB().fit(X, [0, 0, 0, 1, 1, 1])
    >>> clf.predict([[0.1], [3.2]]).tolist()
    [0, 1]
    """

    _parameter_constraints = {
        "bandwidth": [Interval(Real, 0, None, closed="neither"), StrOptions({"scott", "silverman"})],
        "priors": ["array-like", None],
        "algorithm": [StrOptions({"auto", "exact", "binned"})],
        "grid_size": [Interval(Integral, 16, None, closed="left")],
        "n_jobs": [Integral, None],
    }

    def __init__(
        self, *, bandwidth="scott", priors=None, algorithm="auto", grid_size=16384, n_jobs=None
    ):
        self.bandwidth = bandwidth
        self.priors = priors
        self.algorithm = algorithm
        self.grid_size = grid_size
        self.n_jobs = n_jobs

    def fit(self, X, y):
        """Store the training values per class and build the density grids.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)

        Returns
        -------
        self
        """
        self._validate_params()
        X, y = validate_data(self, X, y, dtype=np.float64)
        check_magnitude(X, self, "kernel densities", power=2)
        self.classes_, y_index = encode_labels(y)
        n_classes = len(self.classes_)
        counts = np.bincount(y_index, minlength=n_classes)
        order = np.argsort(y_index, kind="stable")
        self._offsets = np.concatenate(([0], np.cumsum(counts))).astype(np.intp)
        Xs = X[order].T  # (n_features, n_samples), values of each class sorted
        for k in range(n_classes):
            Xs[:, self._offsets[k] : self._offsets[k + 1]].sort(axis=1)
        self._Xs = np.ascontiguousarray(Xs)
        self.class_count_ = counts.astype(np.float64)
        self.class_prior_ = self._priors(counts)
        self.bandwidth_ = self._bandwidths(X)
        self._build_grids(counts)
        return self

    def _priors(self, counts):
        n_classes = len(counts)
        if self.priors is None:
            return counts / counts.sum()
        priors = np.asarray(self.priors, dtype=np.float64).ravel()
        if priors.shape != (n_classes,):
            raise ValueError(f"priors has {priors.size} values, but there are {n_classes} classes.")
        if (priors < 0).any():
            raise ValueError("priors must be non-negative.")
        if not np.isclose(priors.sum(), 1.0):
            raise ValueError(f"The sum of the priors should be 1; got {priors.sum()}.")
        return priors

    def _bandwidths(self, X):
        n_classes = len(self.classes_)
        n_features = X.shape[1]
        overall = X.std(axis=0)
        floor = np.where(overall > 0, 1e-3 * overall, 1e-3)
        if not isinstance(self.bandwidth, str):
            h = np.full((n_classes, n_features), float(self.bandwidth))
            return h
        h = np.empty((n_classes, n_features))
        for k in range(n_classes):
            block = self._Xs[:, self._offsets[k] : self._offsets[k + 1]]
            n_k = block.shape[1]
            std = block.std(axis=1, ddof=1) if n_k > 1 else np.zeros(n_features)
            if self.bandwidth == "scott":
                factor = n_k ** (-1.0 / 5.0)
            else:
                factor = (n_k * 3.0 / 4.0) ** (-1.0 / 5.0)
            h[k] = std * factor
        return np.maximum(h, floor)

    def _build_grids(self, counts):
        n_classes, n_features = self.bandwidth_.shape
        if self.algorithm == "exact":
            wanted = np.zeros(n_classes, dtype=bool)
        elif self.algorithm == "binned":
            wanted = np.ones(n_classes, dtype=bool)
        else:
            wanted = counts > _AUTO_MIN_SAMPLES
        lo = np.zeros((n_classes, n_features))
        delta = np.ones((n_classes, n_features))
        grid_start = np.zeros((n_classes, n_features), dtype=np.intp)
        grid_len = np.zeros((n_classes, n_features), dtype=np.intp)
        tasks, total = [], 0
        for k in range(n_classes):
            if not wanted[k] or counts[k] == 0:
                continue
            block = self._Xs[:, self._offsets[k] : self._offsets[k + 1]]
            h = self.bandwidth_[k]
            low = block[:, 0] - _PAD * h
            n_nodes = np.ceil((block[:, -1] + _PAD * h - low) / (_STEP * h)) + 1
            for j in range(n_features):
                if not n_nodes[j] <= self.grid_size:
                    continue
                lo[k, j] = low[j]
                delta[k, j] = _STEP * h[j]
                grid_start[k, j] = total
                grid_len[k, j] = int(n_nodes[j])
                total += grid_len[k, j]
                tasks.append((k, j))
        self._lo, self._delta = lo, delta
        self._grid_start, self._grid_len = grid_start, grid_len
        self._log_grid = np.full(max(total, 1), -np.inf)
        for start in range(0, len(tasks), _GRIDS_PER_BATCH):
            self._fill_grids(tasks[start : start + _GRIDS_PER_BATCH])

    def _fill_grids(self, tasks):
        """Lagrange binning, then an FFT convolution with the truncated kernel."""
        task_class = np.array([k for k, _ in tasks], dtype=np.intp)
        task_feature = np.array([j for _, j in tasks], dtype=np.intp)
        lengths = self._grid_len[task_class, task_feature]
        half = int(np.ceil(_CUTOFF / _STEP))
        L = sp_fft.next_fast_len(int(lengths.max()) + half + 1, real=True)
        counts = np.zeros((len(tasks), L))
        _k.bin_values(
            self._Xs, self._offsets, task_class, task_feature, self._lo, self._delta, counts
        )
        r = np.arange(L)
        r = np.where(r < L // 2, r, r - L) * _STEP  # offsets in bandwidths
        kernel = np.where(np.abs(r) <= _CUTOFF, np.exp(-0.5 * np.minimum(r * r, 101.0)), 0.0)
        sums = sp_fft.irfft(sp_fft.rfft(counts, axis=1) * sp_fft.rfft(kernel), L, axis=1)
        for t, (k, j) in enumerate(tasks):
            n_nodes = lengths[t]
            s = sums[t, :n_nodes]
            trusted = s > _TRUST * s.max()
            logs = np.full(n_nodes, -np.inf)
            logs[trusted] = np.log(s[trusted])
            first = self._grid_start[k, j]
            self._log_grid[first : first + n_nodes] = logs

    def predict_joint_log_proba(self, X):
        """log P(k) + Σ_j log f_kj(x_j) for each sample and class.

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
        """
        check_is_fitted(self)
        X = validate_data(self, X, reset=False, dtype=np.float64)
        check_magnitude(X, self, "kernel densities", power=2, check_small=False)
        with np.errstate(divide="ignore"):
            log_prior = np.log(self.class_prior_)
        with numba_threads(self.n_jobs):
            return _k.kde_joint_log_likelihood(
                X, self._Xs, self._offsets, self.bandwidth_, self._log_grid,
                self._grid_start, self._grid_len, self._lo, self._delta, log_prior,
            )
