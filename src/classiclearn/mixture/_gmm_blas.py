"""The full-covariance passes of Gaussian mixtures for many features, on BLAS.

The numba kernels (:mod:`._gmm_kernels`) form each Mahalanobis term and each
second moment in loops of p² / 2 multiply-adds per row and component; for a few
hundred features and more, the same quantities as matrix products run several
times faster. :func:`em_pass` and
:func:`label_moments` take and fill the kernels' arguments; their per-chunk outputs
have one chunk here (``_gaussian_mixture._moment_buffers``), which holds the whole
sum, so the callers sum them as they do the kernels'.
"""

import numpy as np

# features from which a full (or tied, in its first M-step) model's passes run on BLAS
# (below, the numba passes on all cores were as fast or faster)
BLAS_FULL_FEATURES = 384
# ... and from this many features when there are at most BLAS_ROWS_PER_FEATURE rows per
# feature (fits of 3 components: BLAS was faster at 100-256 features with up to about
# 5 rows per feature; numba kept the lead at 1,000 x 128 and at 64 features)
BLAS_FEW_ROWS_FEATURES = 96
BLAS_ROWS_PER_FEATURE = 5
# features from which a tied model's pass runs on BLAS: its numba pass forms (x - shift) U
# once per row, and on all cores it kept up with one-thread BLAS below BLAS's threaded
# order (at 500 features; at 1,000 BLAS was faster)
BLAS_TIED_FEATURES = 1000


def uses_blas(full, n_samples, n_features):
    """Whether a full model's passes (``full`` True; a tied model's first M-step too) over
    ``n_samples`` rows run here rather than in the numba kernels: from
    :data:`BLAS_FULL_FEATURES` features, or from :data:`BLAS_FEW_ROWS_FEATURES` when the
    rows are at most :data:`BLAS_ROWS_PER_FEATURE` times the features (the numba passes
    then have one or two chunks of rows to share among the cores)."""
    if not full:
        return False
    return n_features >= BLAS_FULL_FEATURES or (
        n_features >= BLAS_FEW_ROWS_FEATURES and n_samples <= BLAS_ROWS_PER_FEATURE * n_features)


def uses_blas_tied(n_features):
    """Whether a tied model's E-step and inference pass run here (:func:`tied_pass`)."""
    return n_features >= BLAS_TIED_FEATURES


def _log_prob(X, means, prec, const):
    """(n, k): ``const[c] - ||(x - μ_c) U_c||² / 2`` for every row and component."""
    n = X.shape[0]
    k = means.shape[0]
    lp = np.empty((n, k))
    for c in range(k):
        Y = (X - means[c]) @ prec[c]
        lp[:, c] = const[c] - 0.5 * np.einsum("ij,ij->i", Y, Y)
    return lp


def _normalise(lp):
    """Responsibilities (n, k) and log p(x_i) (n,) from the weighted log densities."""
    top = lp.max(axis=1)
    resp = np.exp(lp - top[:, None])
    total = resp.sum(axis=1)
    resp /= total[:, None]
    return resp, top + np.log(total)


def _moments(X, means, resp, nk_chunks, s1_chunks, s2_chunks):
    """Σ r, Σ r x and Σ r d dᵀ (d = x - μ_c, the current means) into the one chunk."""
    nk_chunks[0] = resp.sum(axis=0)
    s1_chunks[0] = resp.T @ X
    for c in range(means.shape[0]):
        D = X - means[c]
        s2_chunks[0, c] = (D * resp[:, c:c + 1]).T @ D


def _write_inference(lp, mode, out):
    """The inference modes' outputs (0 weighted log densities, 3 responsibilities, 4
    log densities) into ``out``."""
    if mode == 0:
        out[...] = lp
        return
    resp, log_px = _normalise(lp)
    if mode == 3:
        out[...] = resp
    else:
        out[:, 0] = log_px


def _e_step(lp, ll_chunks):
    """Responsibilities of the weighted log densities; their log-likelihood into chunk 0."""
    resp, log_px = _normalise(lp)
    ll_chunks[0] = log_px.sum()
    return resp


def em_pass(X, means, prec, full, const, mode, out, ll_chunks, nk_chunks, s1_chunks,
            s2_chunks):
    """:func:`._gmm_kernels.em_pass` of a full model (same arguments and modes)."""
    if mode == 2:
        ll_chunks[0] = 0.0
        _moments(X, means, np.asarray(out), nk_chunks, s1_chunks, s2_chunks)
        return
    lp = _log_prob(X, means, prec, const)
    if mode != 1:
        _write_inference(lp, mode, out)
        return
    _moments(X, means, _e_step(lp, ll_chunks), nk_chunks, s1_chunks, s2_chunks)


def tied_pass(X, shift, proj_means, U, const, mode, out, ll_chunks, nk_chunks, s1_chunks):
    """:func:`._gmm_kernels.tied_pass` (same arguments and modes): ``(x - shift) U`` by one
    product, then each component's distance to its projected mean."""
    Z = X - shift
    Y = Z @ U
    lp = np.empty((X.shape[0], proj_means.shape[0]))
    for c in range(proj_means.shape[0]):
        D = Y - proj_means[c]
        lp[:, c] = const[c] - 0.5 * np.einsum("ij,ij->i", D, D)
    if mode != 1:
        _write_inference(lp, mode, out)
        return
    resp = _e_step(lp, ll_chunks)
    nk_chunks[0] = resp.sum(axis=0)
    s1_chunks[0] = resp.T @ Z


def label_moments(X, labels, centers, nk_chunks, s1_chunks, s2_chunks):
    """:func:`._gmm_kernels.label_moments` of a full model: each component's moments
    from its own rows."""
    for c in range(centers.shape[0]):
        rows = X[labels == c]
        nk_chunks[0, c] = rows.shape[0]
        s1_chunks[0, c] = rows.sum(axis=0)
        D = rows - centers[c]
        s2_chunks[0, c] = D.T @ D
