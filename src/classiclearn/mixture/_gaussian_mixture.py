"""Gaussian mixture models fitted by expectation-maximisation (seed 000 §12.2).

The density is p(x) = Σ_k w_k N(x | μ_k, Σ_k). EM alternates the E-step,
responsibilities r_ik = w_k N(x_i | μ_k, Σ_k) / p(x_i) computed in log space,
and the M-step, w_k = N_k / n, μ_k = Σ_i r_ik x_i / N_k and
Σ_k = Σ_i r_ik (x_i - μ_k)(x_i - μ_k)ᵀ / N_k + reg_covar I (N_k = Σ_i r_ik);
each step cannot decrease the average log-likelihood, which is the lower
bound reported. Covariances are full, tied (one shared), diagonal or
spherical; densities are evaluated through Cholesky factors of the
precisions. The E-step and the first moments of the M-step run fused in one
parallel pass; several initialisations keep the highest likelihood.
"""

import warnings
from numbers import Integral, Real

import numpy as np
from scipy import linalg
from scipy.linalg import lapack

from ..base import BaseEstimator
from ..exceptions import ConvergenceWarning
from ..utils._dask import (
    DaskUnsupportedError,
    add_parts,
    as_dask_array,
    dask_blocks,
    fit_one_block_in_memory,
    record_input_features,
    reduce_blocks,
)
from ..utils._moments import block_comoments, merge_comoments
from ..utils._params import Interval, StrOptions
from ..utils._random import check_random_state
from ..utils._threads import small_lapack, threads_for_work
from ..utils.validation import (
    cast_float_attributes,
    check_array,
    check_is_fitted,
    check_magnitude,
    input_float_dtype,
    output_in_dtype,
    validate_data,
)
from . import _gmm_blas as _blas
from . import _gmm_kernels as _k

__all__ = ["GaussianMixture"]

_EPS10 = 10 * np.finfo(np.float64).eps
_NO_OUT = np.empty((0, 0))

_ILL_DEFINED = (
    "Fitting the mixture model failed because some components have ill-defined empirical "
    "covariance (for instance caused by singleton or collapsed samples). Try to decrease "
    "the number of components, increase reg_covar, or scale the input data."
)


def _em_pass(X, means, prec, full, const, *outputs):
    """:func:`_gmm_kernels.em_pass`, or its BLAS twin for a full model of many features."""
    if _blas.uses_blas(full, *X.shape):
        _blas.em_pass(X, means, prec, full, const, *outputs)
    else:
        _k.em_pass(X, means, prec, full, const, *outputs)


def _tied_pass(X, shift, proj, U, const, *outputs):
    """:func:`_gmm_kernels.tied_pass`, or its BLAS twin for many features."""
    if _blas.uses_blas_tied(X.shape[1]):
        _blas.tied_pass(X, shift, proj, U, const, *outputs)
    else:
        _k.tied_pass(X, shift, proj, U, const, *outputs)


def _label_moments(X, labels, centers, full, nk_c, s1_c, s2_c):
    """:func:`_gmm_kernels.label_moments`, or its BLAS twin (see :func:`_em_pass`)."""
    if _blas.uses_blas(full, *X.shape):
        _blas.label_moments(X, labels, centers, nk_c, s1_c, s2_c)
    else:
        _k.label_moments(X, labels, centers, full, nk_c, s1_c, s2_c)


def _moment_buffers(n, p, k, second, one_chunk, alloc=np.empty):
    """The per-chunk outputs (ll, nk, s1, s2) of a moments pass over ``n`` rows: chunks
    as :func:`_gmm_kernels.chunk_layout` cuts the rows, or one when the pass is BLAS's
    (:mod:`._gmm_blas` writes whole sums). ``second``: "full" (k, p, p) or "diag"
    (k, 1, p) second moments, or None (none: a tied model's E-step)."""
    n_chunks = 1 if one_chunk else _k.chunk_layout(n)[1]
    s2_shape = {"full": (k, p, p), "diag": (k, 1, p), None: (k, 0, 0)}[second]
    return (alloc(n_chunks), alloc((n_chunks, k)), alloc((n_chunks, k, p)),
            alloc((n_chunks, *s2_shape)))


def _finite_comoments(X):
    return block_comoments(check_array(X, dtype=np.float64, ensure_min_samples=0))


def _label_moments_block(centers, full):
    """Per block: the M-step moments of the k-means labels (summed over its chunks)."""

    def block(X, labels):
        X = check_array(X, dtype=np.float64, ensure_min_samples=0)
        k, p = centers.shape
        _, nk_c, s1_c, s2_c = _moment_buffers(X.shape[0], p, k, "full" if full else "diag",
                                              _blas.uses_blas(full, X.shape[0], p), np.zeros)
        if X.shape[0]:
            _label_moments(X, np.asarray(labels, dtype=np.intp), centers, full,
                             nk_c, s1_c, s2_c)
        return nk_c.sum(axis=0), s1_c.sum(axis=0), s2_c.sum(axis=0)

    return block


def _e_pass_block(est, tied):
    """Per block: the E-step sums (log-likelihood, N_k, first and second moments)."""
    import copy

    model = copy.copy(est)  # the current parameters, shipped to the workers

    def block(X):
        X = check_array(X, dtype=np.float64, ensure_min_samples=0)
        buffers = model._buffers(X.shape[0], X.shape[1])
        for b in buffers:
            b.fill(0.0)
        if X.shape[0]:
            model._e_pass(X, tied, buffers)
        ll_c, nk_c, s1_c, s2_c = buffers
        return (ll_c.sum(), nk_c.sum(axis=0), s1_c.sum(axis=0),
                None if tied is not None else s2_c.sum(axis=0))

    return block


def _precision_cholesky(covariances, covariance_type):
    """Cholesky factors U of the precisions (precision = U Uᵀ) from covariances."""
    if covariance_type in ("full", "tied"):
        covs = covariances if covariance_type == "full" else covariances[None]
        out = np.empty_like(covs)
        for c, cov in enumerate(covs):
            try:
                chol = linalg.cholesky(cov, lower=True)
            except linalg.LinAlgError:
                raise ValueError(_ILL_DEFINED) from None
            # inverse of the triangular factor by LAPACK's trtri (a third of a general
            # inverse's work; trsm against the identity pays a thread wake-up)
            inv, info = lapack.dtrtri(chol, lower=1)
            if info != 0:
                raise ValueError(_ILL_DEFINED)
            out[c] = np.triu(inv.T)
        return out if covariance_type == "full" else out[0]
    if np.any(np.less_equal(covariances, 0.0)):
        raise ValueError(_ILL_DEFINED)
    return 1.0 / np.sqrt(covariances)


def _precision_cholesky_from_precisions(precisions, covariance_type):
    if covariance_type == "full":
        return np.stack([linalg.cholesky(prec, lower=True) for prec in precisions])
    if covariance_type == "tied":
        return linalg.cholesky(precisions, lower=True)
    return np.sqrt(precisions)


def _kernel_precisions(prec_chol, covariance_type, n_features):
    """(prec, full, log_det) in :func:`_gmm_kernels.em_pass`'s layout (full, diag or
    spherical; tied models go through ``tied_pass``)."""
    if covariance_type == "full":
        prec = np.ascontiguousarray(prec_chol)
        log_det = np.log(np.diagonal(prec, axis1=1, axis2=2)).sum(axis=1)
        return prec, True, log_det
    if covariance_type == "diag":
        prec = np.ascontiguousarray(prec_chol[:, None, :])
        return prec, False, np.log(prec_chol).sum(axis=1)
    prec = np.ascontiguousarray(np.repeat(prec_chol[:, None, None], n_features, axis=2))
    return prec, False, n_features * np.log(prec_chol)


class GaussianMixture(BaseEstimator):
    """Gaussian mixture model fitted by EM.

    Parameters
    ----------
    n_components : int, default=1
        Number of mixture components.
    covariance_type : {'full', 'tied', 'diag', 'spherical'}, default='full'
        One full covariance per component, one full covariance shared by all,
        one diagonal covariance per component, or one variance per component.
    tol : float, default=1e-3
        Stop when the lower bound (mean log-likelihood) gains less than this.
    reg_covar : float, default=1e-6
        Added to the covariance diagonals; keeps a collapsed component
        positive definite.
    max_iter : int, default=100
        EM iterations per initialisation.
    n_init : int, default=1
        Initialisations; the one with the highest lower bound is kept.
    init_params : {'kmeans', 'k-means++', 'random', 'random_from_data'}, default='kmeans'
        Initial responsibilities: k-means labels, k-means++ seeds, random
        proportions, or random samples as means.
    weights_init, means_init, precisions_init : array-like, default=None
        User-supplied initial weights (n_components,), means
        (n_components, n_features) and precisions (shape by covariance type).
    random_state : int, RandomState instance or None, default=None
    warm_start : bool, default=False
        Start from the previous fit's parameters (and run one initialisation).
    verbose : int, default=0
        Unused; accepted for compatibility.
    verbose_interval : int, default=10
        Unused; accepted for compatibility.

    Attributes
    ----------
    weights_ : ndarray of shape (n_components,)
    means_ : ndarray of shape (n_components, n_features)
    covariances_ : ndarray
        (k, p, p) full, (p, p) tied, (k, p) diag, (k,) spherical.
    precisions_ : ndarray
        Inverses of the covariances, same shapes.
    precisions_cholesky_ : ndarray
        Cholesky factors of the precisions, same shapes.
    converged_ : bool
    n_iter_ : int
    lower_bound_ : float
        Mean log-likelihood of the training data at the best run's last step.
    lower_bounds_ : list of float
        The lower bound at every iteration of the best run.
    n_features_in_ : int
    feature_names_in_ : ndarray of str

    See Also
    --------
    classiclearn.cluster.KMeans : hard clustering, used for the default initialisation.

    Notes
    -----
    Seed 000 §12.2. All densities are computed in log space with
    log N(x | μ, Σ) = -½ (p log 2π + ||(x - μ) U||²) + log det U, U the
    Cholesky factor of the precision, and responsibilities by log-sum-exp.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[1.0, 2.0], [1.0, 4.0], [1.0, 0.0], [10.0, 2.0], [10.0, 4.0], [10.0, 0.0]])
    >>> gm = GaussianMixture(n_components=2, random_state=0).fit(X)
    >>> sorted(gm.means_[:, 0].round(6).tolist())
    [1.0, 10.0]
    """

    _parameter_constraints = {
        "n_components": [Interval(Integral, 1, None, closed="left")],
        "covariance_type": [StrOptions({"full", "tied", "diag", "spherical"})],
        "tol": [Interval(Real, 0.0, None, closed="left")],
        "reg_covar": [Interval(Real, 0.0, None, closed="left")],
        "max_iter": [Interval(Integral, 0, None, closed="left")],
        "n_init": [Interval(Integral, 1, None, closed="left")],
        "init_params": [StrOptions({"kmeans", "random", "random_from_data", "k-means++"})],
        "weights_init": ["array-like", None],
        "means_init": ["array-like", None],
        "precisions_init": ["array-like", None],
        "random_state": ["random_state"],
        "warm_start": ["boolean"],
        "verbose": [Interval(Integral, 0, None, closed="left"), "boolean"],
        "verbose_interval": [Interval(Integral, 1, None, closed="left")],
    }

    def __init__(
        self,
        n_components=1,
        *,
        covariance_type="full",
        tol=1e-3,
        reg_covar=1e-6,
        max_iter=100,
        n_init=1,
        init_params="kmeans",
        weights_init=None,
        means_init=None,
        precisions_init=None,
        random_state=None,
        warm_start=False,
        verbose=0,
        verbose_interval=10,
    ):
        self.n_components = n_components
        self.covariance_type = covariance_type
        self.tol = tol
        self.reg_covar = reg_covar
        self.max_iter = max_iter
        self.n_init = n_init
        self.init_params = init_params
        self.weights_init = weights_init
        self.means_init = means_init
        self.precisions_init = precisions_init
        self.random_state = random_state
        self.warm_start = warm_start
        self.verbose = verbose
        self.verbose_interval = verbose_interval

    # ------------------------------------------------------------------ checks
    def _check_initial_parameters(self, n_features):
        k, ctype = self.n_components, self.covariance_type
        self._weights_init = self._means_init = self._precisions_init = None
        if self.weights_init is not None:
            w = check_array(self.weights_init, dtype=np.float64, ensure_2d=False, input_name="weights")
            if w.shape != (k,):
                raise ValueError(
                    f"The parameter 'weights' should have the shape of ({k},), but got {w.shape}"
                )
            if np.any(w < 0) or np.any(w > 1):
                raise ValueError(
                    "The parameter 'weights' should be in the range [0, 1], but got "
                    f"max value {w.max():.5f}, min value {w.min():.5f}"
                )
            if not np.allclose(np.abs(1.0 - w.sum()), 0.0):
                raise ValueError(
                    f"The parameter 'weights' should be normalized, but got sum(weights) = "
                    f"{w.sum():.5f}"
                )
            self._weights_init = w
        if self.means_init is not None:
            m = check_array(self.means_init, dtype=np.float64, input_name="means")
            if m.shape != (k, n_features):
                raise ValueError(
                    f"The parameter 'means' should have the shape of {(k, n_features)}, "
                    f"but got {m.shape}"
                )
            self._means_init = m
        if self.precisions_init is not None:
            shapes = {
                "full": (k, n_features, n_features),
                "tied": (n_features, n_features),
                "diag": (k, n_features),
                "spherical": (k,),
            }
            prec = check_array(
                self.precisions_init, dtype=np.float64, ensure_2d=False, allow_nd=True,
                input_name="precisions",
            )
            if prec.shape != shapes[ctype]:
                raise ValueError(
                    f"The parameter '{ctype} precision' should have the shape of "
                    f"{shapes[ctype]}, but got {prec.shape}"
                )
            mats = prec if ctype == "full" else prec[None] if ctype == "tied" else None
            if mats is None:
                if np.any(prec <= 0.0):
                    raise ValueError(f"'{ctype} precision' should be positive")
            else:
                for mat in mats:
                    if not np.allclose(mat, mat.T) or np.any(linalg.eigvalsh(mat) <= 0.0):
                        raise ValueError(
                            f"'{ctype} precision' should be symmetric, positive-definite"
                        )
            self._precisions_init = prec

    # ------------------------------------------------------------- parameters
    def _estimate_parameters(self, X, resp):
        """M-step from given responsibilities (n, k)."""
        ctype = self.covariance_type
        n, p = X.shape
        k = self.n_components
        resp = np.ascontiguousarray(resp)
        nk_true = resp.sum(axis=0)
        means = (resp.T @ X) / (nk_true + _EPS10)[:, None]
        full = ctype in ("full", "tied")
        prec = np.empty((k, p, p) if full else (k, 1, p))
        ll_c, nk_c, s1_c, s2_c = _moment_buffers(n, p, k, "full" if full else "diag",
                                                 _blas.uses_blas(full, n, p))
        _em_pass(X, means, prec, full, np.zeros(k), 2, resp, ll_c, nk_c, s1_c, s2_c)
        nk, means, cov = self._m_step_from_moments(
            nk_c.sum(axis=0), s1_c.sum(axis=0), s2_c.sum(axis=0), means
        )
        if ctype == "tied":
            # Rows whose responsibilities do not sum to one (seed-point initialisations)
            # contribute their raw second moment, as in the uncentred form
            # (XᵀX - Σ_k N_k μ_k μ_kᵀ) used by scikit-learn.
            rest = 1.0 - resp.sum(axis=1)
            if np.any(np.abs(rest) > 1e-12):
                cov += (X * rest[:, None]).T @ X / nk.sum()
        return nk, means, cov

    def _label_parameters(self, X, labels, centers):
        """M-step from hard responsibilities given as labels (moments around ``centers``)."""
        n, p = X.shape
        k = self.n_components
        full = self.covariance_type in ("full", "tied")
        _, nk_c, s1_c, s2_c = _moment_buffers(n, p, k, "full" if full else "diag",
                                              _blas.uses_blas(full, n, p))
        _label_moments(X, labels, np.ascontiguousarray(centers), full, nk_c, s1_c, s2_c)
        return self._m_step_from_moments(nk_c.sum(axis=0), s1_c.sum(axis=0), s2_c.sum(axis=0),
                                         centers)

    def _m_step_from_moments(self, nk_true, s1, s2, means_old):
        """Exact M-step from the fused pass: re-centre Σ r d dᵀ (d = x - μ_old) on the new means."""
        ctype = self.covariance_type
        p = s1.shape[1]
        nk = nk_true + _EPS10
        means = s1 / nk[:, None]
        delta = means - means_old
        rd = s1 - nk_true[:, None] * means_old  # Σ_i r_ik d_ik
        if ctype in ("full", "tied"):
            scatter = (
                s2
                - rd[:, :, None] * delta[:, None, :]
                - delta[:, :, None] * rd[:, None, :]
                + nk_true[:, None, None] * delta[:, :, None] * delta[:, None, :]
            )
            if ctype == "full":
                cov = scatter / nk[:, None, None]
                for c in range(self.n_components):
                    cov[c].flat[:: p + 1] += self.reg_covar
            else:
                cov = scatter.sum(axis=0) / nk.sum()
                cov.flat[:: p + 1] += self.reg_covar
        else:
            sq = s2[:, 0, :] - 2.0 * rd * delta + nk_true[:, None] * delta**2
            cov = sq / nk[:, None] + self.reg_covar
            if ctype == "spherical":
                cov = cov.mean(axis=1)
        return nk, means, cov

    def _set_m_step(self, n, nk, means, cov):
        self.weights_ = nk / nk.sum()
        self.means_ = means
        self.covariances_ = cov
        self.precisions_cholesky_ = _precision_cholesky(cov, self.covariance_type)

    def _initialize(self, X, rng):
        n, _ = X.shape
        k = self.n_components
        if self.init_params == "kmeans":
            from ..cluster import KMeans

            km = KMeans(k, n_init=1, random_state=rng).fit(X)
            params = self._label_parameters(X, km.labels_, km.cluster_centers_)
        else:
            params = self._estimate_parameters(X, self._initial_resp(X, rng))
        self._set_initial(n, *params)

    def _initial_resp(self, X, rng):
        """Initial responsibilities (n, k) of the non-k-means initialisations."""
        n, _ = X.shape
        k = self.n_components
        if self.init_params == "random":
            resp = rng.uniform(size=(n, k))
            resp /= resp.sum(axis=1)[:, None]
            return resp
        resp = np.zeros((n, k))
        if self.init_params == "random_from_data":
            idx = rng.choice(n, size=k, replace=False)
        else:
            from ..cluster import kmeans_plusplus

            _, idx = kmeans_plusplus(X, k, random_state=rng)
        resp[idx, np.arange(k)] = 1.0
        return resp

    def _set_initial(self, n, nk, means, cov):
        """Initial parameters from the M-step, overridden by the user's initial values."""
        self.weights_ = nk / n if self._weights_init is None else self._weights_init.copy()
        self.means_ = means if self._means_init is None else self._means_init.copy()
        if self._precisions_init is None:
            self.covariances_ = cov
            self.precisions_cholesky_ = _precision_cholesky(cov, self.covariance_type)
        else:
            self.covariances_ = cov
            self.precisions_cholesky_ = _precision_cholesky_from_precisions(
                self._precisions_init, self.covariance_type
            )

    def _get_parameters(self):
        return (self.weights_, self.means_, self.covariances_, self.precisions_cholesky_)

    def _set_parameters(self, params):
        self.weights_, self.means_, self.covariances_, self.precisions_cholesky_ = params
        pc = self.precisions_cholesky_
        if self.covariance_type == "full":
            self.precisions_ = pc @ np.swapaxes(pc, 1, 2)  # BLAS per component
        elif self.covariance_type == "tied":
            self.precisions_ = pc @ pc.T
        else:
            self.precisions_ = pc**2

    def _kernel_args(self):
        """(means, prec, full, const) for :func:`_gmm_kernels.em_pass`."""
        n_features = self.means_.shape[1]
        prec, full, log_det = _kernel_precisions(
            np.asarray(self.precisions_cholesky_, dtype=np.float64), self.covariance_type,
            n_features
        )
        weights = np.asarray(self.weights_, dtype=np.float64)
        const = np.log(weights) + log_det - 0.5 * n_features * np.log(2.0 * np.pi)
        return np.ascontiguousarray(self.means_, dtype=np.float64), prec, full, const

    def _tied_args(self, shift):
        """(proj_means, U, const) for :func:`_gmm_kernels.tied_pass`."""
        U = np.ascontiguousarray(self.precisions_cholesky_, dtype=np.float64)
        p = U.shape[0]
        proj = np.ascontiguousarray((self.means_ - shift) @ U, dtype=np.float64)
        const = (np.log(np.asarray(self.weights_, dtype=np.float64)) + np.log(np.diag(U)).sum()
                 - 0.5 * p * np.log(2.0 * np.pi))
        return proj, U, const

    def _em_step(self, X, tied, buffers):
        """One fused E-step and M-step; returns the mean log-likelihood before it.

        ``tied`` is None or (shift, scatter): the data's mean and Σ (x - shift)(x - shift)ᵀ.
        """
        ll_c, nk_c, s1_c, s2_c = buffers
        self._e_pass(X, tied, buffers)
        sums = (ll_c.sum(), nk_c.sum(axis=0), s1_c.sum(axis=0),
                None if tied is not None else s2_c.sum(axis=0))
        return self._m_step_from_sums(X.shape[0], tied, *sums)

    def _e_pass(self, X, tied, buffers):
        """The E-step moments of X into the per-chunk ``buffers`` (ll, nk, s1, s2)."""
        ll_c, nk_c, s1_c, s2_c = buffers
        if tied is None:
            means, prec, full, const = self._kernel_args()
            _em_pass(X, means, prec, full, const, 1, _NO_OUT, ll_c, nk_c, s1_c, s2_c)
        else:
            shift, _ = tied
            proj, U, const = self._tied_args(shift)
            _tied_pass(X, shift, proj, U, const, 1, _NO_OUT, ll_c, nk_c, s1_c)

    def _m_step_from_sums(self, n, tied, ll, nk_true, s1, s2):
        """The M-step from the E-step's summed moments; returns the mean log-likelihood."""
        if tied is None:
            nk, means, cov = self._m_step_from_moments(nk_true, s1, s2, self.means_)
        else:
            shift, scatter = tied
            nk = nk_true + _EPS10
            mean_z = s1 / nk[:, None]
            # Σ_k Σ_i r_ik (z_i - m_k)(z_i - m_k)ᵀ = Σ_i z_i z_iᵀ - Σ_k N_k m_k m_kᵀ
            cov = (scatter - (nk[:, None] * mean_z).T @ mean_z) / nk.sum()
            cov.flat[:: s1.shape[1] + 1] += self.reg_covar
            means = shift + mean_z
        self._set_m_step(n, nk, means, cov)
        return float(ll) / n

    def _buffers(self, n, p):
        """Per-chunk outputs of the E-step for ``n`` rows (see :func:`_moment_buffers`)."""
        ctype = self.covariance_type
        if ctype == "tied":  # its E-step has no second moments (see _m_step_from_sums)
            return _moment_buffers(n, p, self.n_components, None, _blas.uses_blas_tied(p))
        return _moment_buffers(n, p, self.n_components,
                               "full" if ctype == "full" else "diag",
                               _blas.uses_blas(ctype == "full", n, p))

    # ---------------------------------------------------------------- fitting
    def fit(self, X, y=None):
        """Estimate the model parameters with EM.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : ignored

        Returns
        -------
        self
        """
        self._validate_params()
        dtype = input_float_dtype(X)
        X = validate_data(self, X, dtype=np.float64, ensure_min_samples=2)
        # reg_covar is absolute, so no rescaling gives the same model: refuse instead
        check_magnitude(X, self, "covariances", power=2, check_small=False)
        with threads_for_work(None, self._work(X, moments=True)):
            self._fit(X)
        self._keep_input_dtype(dtype)
        return self

    def fit_predict(self, X, y=None):
        """Fit, then return the most probable component of each sample.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : ignored

        Returns
        -------
        labels : ndarray of shape (n_samples,)
        """
        self._validate_params()
        dtype = input_float_dtype(X)
        X = validate_data(self, X, dtype=np.float64, ensure_min_samples=2)
        # reg_covar is absolute, so no rescaling gives the same model: refuse instead
        check_magnitude(X, self, "covariances", power=2, check_small=False)
        with threads_for_work(None, self._work(X, moments=True)):
            self._fit(X)
        labels = self._weighted_log_prob(X).argmax(axis=1)
        self._keep_input_dtype(dtype)
        return labels

    def _keep_input_dtype(self, dtype):
        """float32 input: the fitted parameters in float32, as scikit-learn stores them
        (the kernels read float64 copies, see :meth:`_kernel_args`)."""
        cast_float_attributes(self, dtype, ("weights_", "means_", "covariances_",
                                            "precisions_cholesky_", "precisions_",
                                            "lower_bound_"))

    def _work(self, X, moments=False):
        """Multiply-adds of one pass (decides whether threads pay).

        Per row and component: the Mahalanobis term (p² / 2 full, p diagonal),
        and with ``moments`` (the EM pass) the exponential (~4: it is a
        vectorised polynomial) and the first and second moments (p + p² / 2
        full, 2p diagonal). The estimate is set so that a 20,000 x 10 problem with
        5 diagonal components stays on one thread: waking the thread pool after
        another library's threaded work costs more than a pass of that size.
        """
        p = X.shape[1]
        full = self.covariance_type in ("full", "tied")
        per_row = p * p // 2 + 1 if full else p
        if moments:
            per_row += 4 + p + (p * p // 2 if full else p)
        return X.shape[0] * self.n_components * per_row

    def _fit(self, X):
        n, p = X.shape
        # the passes over X run on numba's threads; the p x p steps between them are
        # faster on one BLAS thread, whose spinning threads would slow the passes
        # (BLAS's passes of a full model of many features too: its threads pay from
        # BLAS_THREADED_ORDER features, as the factorisations' do)
        with small_lapack(p):
            tied = None
            if self.covariance_type == "tied":
                # the data's mean and total scatter: the tied covariance is the total
                # scatter minus the components' (Σ_k N_k = n), so the E-step needs no
                # second moments
                shift = X.mean(axis=0)
                Z = X - shift
                tied = (shift, Z.T @ Z)
            buffers = self._buffers(n, p)
            self._run_em(n, p, lambda rng: self._initialize(X, rng),
                         lambda: self._em_step(X, tied, buffers))

    def _fit_dask(self, X, y=None):
        """Fit on Dask input: the in-memory EM with one exact pass over the row blocks
        per step (E-step moments summed in block order); k-means initialisation by
        the distributed KMeans."""
        self._validate_params()
        if fit_one_block_in_memory(self, X) is not None:
            return self
        if self.init_params != "kmeans":
            raise DaskUnsupportedError(
                f"GaussianMixture(init_params={self.init_params!r}) on Dask input: only "
                "init_params='kmeans' has a distributed version (the others draw "
                "responsibilities for every row)."
            )
        X_arr = as_dask_array(X)
        n, p = int(sum(X_arr.chunks[0])), int(X_arr.shape[1])
        blocks = dask_blocks(X_arr)
        tied = None
        if self.covariance_type == "tied":
            _, shift, scatter = reduce_blocks(_finite_comoments, merge_comoments, blocks)
            tied = (shift, scatter)

        def initialize(rng):
            from ..cluster import KMeans

            km = KMeans(self.n_components, n_init=1, random_state=rng).fit(X_arr)
            full = self.covariance_type in ("full", "tied")
            centers = np.ascontiguousarray(km.cluster_centers_)
            nk, s1, s2 = reduce_blocks(_label_moments_block(centers, full), add_parts,
                                       dask_blocks(X_arr, km.labels_))
            self._set_initial(n, *self._m_step_from_moments(nk, s1, s2, centers))

        def em_step():
            sums = reduce_blocks(_e_pass_block(self, tied), add_parts, blocks)
            return self._m_step_from_sums(n, tied, *sums)

        self._run_em(n, p, initialize, em_step)
        record_input_features(self, X)
        return self

    def _run_em(self, n, p, initialize, em_step):
        """EM from ``n_init`` initialisations (``initialize(rng)``), each iterated by
        ``em_step()`` (returns the mean log-likelihood) to ``tol``; keeps the best."""
        if n < self.n_components:
            raise ValueError(
                "Expected n_samples >= n_components but got "
                f"n_components = {self.n_components}, n_samples = {n}"
            )
        self._check_initial_parameters(p)
        do_init = not (self.warm_start and hasattr(self, "converged_"))
        n_init = self.n_init if do_init else 1
        rng = check_random_state(self.random_state)
        max_lower_bound = -np.inf
        best_params, best_n_iter, best_bounds = None, 0, []
        self.converged_ = False
        for _ in range(n_init):
            if do_init:
                initialize(rng)
            lower_bound = -np.inf if do_init else self.lower_bound_
            bounds = []
            converged = False
            n_iter = 0
            for n_iter in range(1, self.max_iter + 1):  # noqa: B007
                prev = lower_bound
                lower_bound = em_step()
                bounds.append(lower_bound)
                if abs(lower_bound - prev) < self.tol:
                    converged = True
                    break
            if self.max_iter == 0:
                lower_bound = -np.inf if do_init else self.lower_bound_
            if best_params is None or lower_bound > max_lower_bound:
                max_lower_bound = lower_bound
                best_params = self._get_parameters()
                best_n_iter = n_iter
                best_bounds = bounds
                self.converged_ = converged
        if not self.converged_ and self.max_iter > 0:
            warnings.warn(
                "Best performing initialization did not converge. Try different init "
                "parameters, or increase max_iter, tol, or check for degenerate data.",
                ConvergenceWarning,
                stacklevel=2,
            )
        self._set_parameters(best_params)
        self.n_iter_ = best_n_iter
        self.lower_bound_ = max_lower_bound
        self.lower_bounds_ = best_bounds

    # -------------------------------------------------------------- inference
    def _inference_pass(self, X, mode):
        """One pass over X of the kernels' inference modes: 0 weighted log densities
        (n, k), 3 responsibilities (n, k), 4 log densities (n, 1)."""
        k, p = self.means_.shape
        out = np.empty((X.shape[0], 1 if mode == 4 else k))
        no_ll, no_nk, no_s1 = np.empty(1), np.empty((1, k)), np.empty((1, k, p))
        with threads_for_work(None, self._work(X)), small_lapack(p):
            if self.covariance_type == "tied":
                shift = np.asarray(self.means_, dtype=np.float64).mean(axis=0)
                proj, U, const = self._tied_args(shift)
                _tied_pass(X, shift, proj, U, const, mode, out, no_ll, no_nk, no_s1)
            else:
                means, prec, full, const = self._kernel_args()
                if not full and X.flags.c_contiguous:
                    _k.diag_inference_pass(X, means, prec, const, mode, out)
                else:
                    s2 = np.empty((1, k, p, p) if full else (1, k, 1, p))
                    _em_pass(X, means, prec, full, const, mode, out, no_ll, no_nk, no_s1,
                               s2)
        return out

    def _weighted_log_prob(self, X):
        return self._inference_pass(X, 0)

    def _check_X(self, X):
        check_is_fitted(self)
        X = validate_data(self, X, reset=False, dtype=np.float64)
        check_magnitude(X, self, "log densities", power=2, check_small=False)
        return X

    def score_samples(self, X):
        """Log density of each sample under the mixture.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        return output_in_dtype(self._inference_pass(self._check_X(X), 4)[:, 0], X, self.means_)

    def score(self, X, y=None):
        """Mean log-likelihood of X.

        Returns
        -------
        float
        """
        return float(self.score_samples(X).mean())

    def predict(self, X):
        """Most probable component of each sample.

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        return self._weighted_log_prob(self._check_X(X)).argmax(axis=1)

    def predict_proba(self, X):
        """Posterior probability of each component for each sample.

        Returns
        -------
        ndarray of shape (n_samples, n_components)
        """
        return output_in_dtype(self._inference_pass(self._check_X(X), 3), X, self.means_)

    def _n_parameters(self):
        k, p = self.means_.shape
        cov = {
            "full": k * p * (p + 1) / 2.0,
            "diag": k * p,
            "tied": p * (p + 1) / 2.0,
            "spherical": k,
        }[self.covariance_type]
        return int(cov + k * p + k - 1)

    def bic(self, X):
        """Bayesian information criterion on X (lower is better).

        Returns
        -------
        float
        """
        n = self._check_X(X).shape[0]
        return -2 * self.score(X) * n + self._n_parameters() * np.log(n)

    def aic(self, X):
        """Akaike information criterion on X (lower is better).

        Returns
        -------
        float
        """
        n = self._check_X(X).shape[0]
        return -2 * self.score(X) * n + 2 * self._n_parameters()

    def sample(self, n_samples=1):
        """Draw samples from the fitted mixture.

        Parameters
        ----------
        n_samples : int, default=1

        Returns
        -------
        X : ndarray of shape (n_samples, n_features)
        y : ndarray of shape (n_samples,)
            Component of each sample.
        """
        check_is_fitted(self)
        if n_samples < 1:
            raise ValueError(
                f"Invalid value for 'n_samples': {n_samples} . The sampling requires at "
                "least one sample."
            )
        p = self.means_.shape[1]
        rng = check_random_state(self.random_state)
        counts = rng.multinomial(n_samples, self.weights_)
        ctype = self.covariance_type
        parts = []
        for c, (mean, count) in enumerate(zip(self.means_, counts)):
            if ctype == "full":
                parts.append(rng.multivariate_normal(mean, self.covariances_[c], int(count)))
            elif ctype == "tied":
                parts.append(rng.multivariate_normal(mean, self.covariances_, int(count)))
            else:
                scale = np.sqrt(self.covariances_[c])
                parts.append(mean + rng.standard_normal(size=(count, p)) * scale)
        X = np.vstack(parts)
        y = np.concatenate([np.full(count, c, dtype=int) for c, count in enumerate(counts)])
        return X, y
