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

For large classes the densities are precomputed on a regular grid (linear
binning of the training values, then an FFT convolution with the kernel
truncated at 10 bandwidths), and queries interpolate the log-density between
grid nodes; in the far tails, where the grid sum is tiny (below 1e-8 kernel
heights), the kernel sum is computed exactly.
"""

from numbers import Integral, Real

import numpy as np

from ..base import BaseEstimator, ClassifierMixin
from ..utils._params import Interval, StrOptions
from ..utils._targets import encode_labels
from ..utils._threads import numba_threads
from ..utils.validation import check_is_fitted, validate_data
from . import _kde_kernels as _k
from ._posterior import PosteriorMixin

__all__ = ["KernelDensityNB"]

_CUTOFF = 10.0  # kernel truncation, in bandwidths (exp(-50) relative)
_MIN_LOG_GRID = float(np.log(1e-8))  # trust grid sums above this
_MAX_STEP = 0.05  # grid step at most this many bandwidths, else exact
_AUTO_MIN_SAMPLES = 500  # "auto" bins classes larger than this
_FFT_FLOOR = 1e-11  # FFT round-off is ~1e-16 x the largest sum; smaller sums are not kept
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
        "exact" sums the kernels over the training values at every query;
        "binned" precomputes each density on a grid of ``grid_size`` nodes
        (relative error of the density about 1e-4); "auto" bins the classes
        with more than 500 samples.
    grid_size : int, default=2048
        Grid nodes per class and feature for the binned densities.
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
        self, *, bandwidth="scott", priors=None, algorithm="auto", grid_size=2048, n_jobs=None
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
        self.classes_, y_index = encode_labels(y)
        n_classes = len(self.classes_)
        counts = np.bincount(y_index, minlength=n_classes)
        order = np.argsort(y_index, kind="stable")
        self._offsets = np.concatenate(([0], np.cumsum(counts))).astype(np.intp)
        self._Xt = np.ascontiguousarray(X[order].T)
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
            block = self._Xt[:, self._offsets[k] : self._offsets[k + 1]]
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
        G = int(self.grid_size)
        if self.algorithm == "exact":
            wanted = np.zeros(n_classes, dtype=bool)
        elif self.algorithm == "binned":
            wanted = np.ones(n_classes, dtype=bool)
        else:
            wanted = counts > _AUTO_MIN_SAMPLES
        lo = np.zeros((n_classes, n_features))
        delta = np.ones((n_classes, n_features))
        use = np.zeros((n_classes, n_features), dtype=bool)
        for k in range(n_classes):
            if not wanted[k]:
                continue
            block = self._Xt[:, self._offsets[k] : self._offsets[k + 1]]
            pad = _CUTOFF * self.bandwidth_[k]
            low = block.min(axis=1) - pad
            high = block.max(axis=1) + pad
            lo[k] = low
            delta[k] = (high - low) / (G - 1)
            use[k] = delta[k] <= _MAX_STEP * self.bandwidth_[k]
        self._lo, self._delta, self._use_grid = lo, delta, use
        self._log_grid = np.full((n_classes, n_features, G if use.any() else 2), -np.inf)
        tasks = [(k, j) for k in range(n_classes) for j in range(n_features) if use[k, j]]
        for start in range(0, len(tasks), _GRIDS_PER_BATCH):
            self._fill_grids(tasks[start : start + _GRIDS_PER_BATCH], G)

    def _fill_grids(self, tasks, G):
        """Linear binning, then an FFT convolution with the truncated kernel."""
        steps = np.array([self._delta[k, j] / self.bandwidth_[k, j] for k, j in tasks])
        half = int(min(np.ceil(_CUTOFF / steps.min()), G - 1))
        L = 1 << int(np.ceil(np.log2(G + 2 * half + 1)))
        counts = np.zeros((len(tasks), G))
        for t, (k, j) in enumerate(tasks):
            column = self._Xt[j, self._offsets[k] : self._offsets[k + 1]]
            u = (column - self._lo[k, j]) / self._delta[k, j]
            b = np.clip(np.floor(u).astype(np.intp), 0, G - 2)
            f = np.clip(u - b, 0.0, 1.0)
            counts[t] = np.bincount(b, 1.0 - f, G) + np.bincount(b + 1, f, G)
        r = np.arange(L)
        r = np.where(r < L // 2, r, r - L)[None, :] * steps[:, None]  # offsets in bandwidths
        r2 = np.minimum(r * r, _CUTOFF**2 + 1.0)  # no underflowing exp (slow) beyond the cut
        kernel = np.exp(-0.5 * r2)
        kernel[r2 > _CUTOFF**2] = 0.0
        sums = np.fft.irfft(np.fft.rfft(counts, L) * np.fft.rfft(kernel), L)[:, :G]
        with np.errstate(divide="ignore", invalid="ignore"):
            logs = np.where(sums > _FFT_FLOOR, np.log(np.maximum(sums, _FFT_FLOOR)), -np.inf)
        for t, (k, j) in enumerate(tasks):
            self._log_grid[k, j] = logs[t]

    def predict_joint_log_proba(self, X):
        """log P(k) + Σ_j log f_kj(x_j) for each sample and class.

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
        """
        check_is_fitted(self)
        X = validate_data(self, X, reset=False, dtype=np.float64)
        with np.errstate(divide="ignore"):
            log_prior = np.log(self.class_prior_)
        with numba_threads(self.n_jobs):
            return _k.kde_joint_log_likelihood(
                X, self._Xt, self._offsets, self.bandwidth_, self._log_grid, self._lo,
                self._delta, self._use_grid, log_prior, _MIN_LOG_GRID,
            )
