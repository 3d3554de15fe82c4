"""GaussianMixture: parity with scikit-learn, closed forms, bad input."""

import warnings

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from scipy.special import logsumexp
from scipy.stats import multivariate_normal

from classiclearn.mixture import GaussianMixture

sk_mixture = pytest.importorskip("sklearn.mixture")

TYPES = ["full", "tied", "diag", "spherical"]


def _data(seed=0, n=150, p=3, k=3):
    rng = np.random.default_rng(seed)
    parts = [rng.normal(size=(n, p)) @ rng.normal(size=(p, p)) + 4 * i for i in range(k)]
    return np.vstack(parts)


def _init(X, k, ctype, seed=0):
    rng = np.random.default_rng(seed)
    p = X.shape[1]
    means = X[rng.choice(len(X), k, replace=False)]
    weights = np.full(k, 1.0 / k)
    v = X.var(axis=0).mean()
    prec = {
        "full": np.stack([np.eye(p) / v] * k),
        "tied": np.eye(p) / v,
        "diag": np.full((k, p), 1 / v),
        "spherical": np.full(k, 1 / v),
    }[ctype]
    return dict(weights_init=weights, means_init=means, precisions_init=prec)


@pytest.mark.parametrize("ctype", TYPES)
def test_same_init_same_fit_as_sklearn(ctype):
    X = _data(1)
    params = dict(n_components=3, covariance_type=ctype, tol=1e-10, max_iter=500, **_init(X, 3, ctype))
    ours = GaussianMixture(**params).fit(X)
    theirs = sk_mixture.GaussianMixture(**params).fit(X)
    assert_allclose(ours.means_, theirs.means_, atol=1e-5)
    assert_allclose(ours.covariances_, theirs.covariances_, atol=1e-5)
    assert_allclose(ours.weights_, theirs.weights_, atol=1e-5)
    assert_allclose(ours.precisions_, theirs.precisions_, rtol=1e-5, atol=1e-5)
    assert_allclose(ours.lower_bound_, theirs.lower_bound_, rtol=1e-8)
    assert ours.converged_ == theirs.converged_
    assert_allclose(ours.score_samples(X), theirs.score_samples(X), rtol=1e-7)
    assert_allclose(ours.predict_proba(X), theirs.predict_proba(X), atol=1e-6)
    assert_allclose(ours.bic(X), theirs.bic(X), rtol=1e-8)
    assert_allclose(ours.aic(X), theirs.aic(X), rtol=1e-8)


@pytest.mark.parametrize("init_params", ["kmeans", "k-means++", "random", "random_from_data"])
@pytest.mark.parametrize("ctype", ["full", "tied"])
def test_init_params_match_sklearn(init_params, ctype):
    X = _data(2)
    params = dict(
        n_components=3, covariance_type=ctype, init_params=init_params, random_state=0,
        tol=1e-8, max_iter=500,
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours = GaussianMixture(**params).fit(X)
        theirs = sk_mixture.GaussianMixture(**params).fit(X)
    if init_params in ("random_from_data", "random"):
        # same draws only when the generators agree; compare the optimum reached
        assert ours.lower_bound_ >= theirs.lower_bound_ - 0.05
    else:
        assert_allclose(ours.lower_bound_, theirs.lower_bound_, rtol=1e-6)


def test_score_samples_closed_form():
    X = _data(3)
    gm = GaussianMixture(3, random_state=0).fit(X)
    dens = np.column_stack(
        [
            np.log(w) + multivariate_normal(m, c).logpdf(X)
            for w, m, c in zip(gm.weights_, gm.means_, gm.covariances_)
        ]
    )
    assert_allclose(gm.score_samples(X), logsumexp(dens, axis=1), rtol=1e-10)
    assert_allclose(gm.score(X), gm.score_samples(X).mean())
    assert_array_equal(gm.predict(X), dens.argmax(axis=1))
    assert_allclose(gm.precisions_, np.linalg.inv(gm.covariances_), rtol=1e-8, atol=1e-10)


def test_one_component_is_mle():
    X = _data(4, k=1)
    gm = GaussianMixture(1, reg_covar=0.0).fit(X)
    assert_allclose(gm.means_[0], X.mean(axis=0), atol=1e-10)
    assert_allclose(gm.covariances_[0], np.cov(X.T, bias=True), atol=1e-10)


def test_n_init_keeps_best_and_warm_start():
    X = _data(5)
    one = GaussianMixture(3, init_params="random", random_state=0, max_iter=5)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        one.fit(X)
        many = GaussianMixture(3, init_params="random", n_init=5, random_state=0, max_iter=5).fit(X)
        assert many.lower_bound_ >= one.lower_bound_ - 1e-12
        warm = GaussianMixture(3, warm_start=True, max_iter=2, random_state=0, tol=1e-12)
        warm.fit(X)
        lb1 = warm.lower_bound_
        warm.fit(X)
    assert warm.lower_bound_ >= lb1 - 1e-12


def test_degenerate_component_handled_by_reg_covar():
    X = np.vstack([np.zeros((20, 2)), np.random.default_rng(6).normal(size=(40, 2)) + 5])
    gm = GaussianMixture(2, random_state=0).fit(X)
    assert np.all(np.isfinite(gm.covariances_))
    assert np.all(np.isfinite(gm.score_samples(X)))
    assert gm.covariances_.min() >= 0


def test_sample_shapes_and_labels():
    X = _data(7)
    gm = GaussianMixture(3, covariance_type="diag", random_state=0).fit(X)
    Xs, ys = gm.sample(500)
    assert Xs.shape == (500, 3) and ys.shape == (500,)
    assert set(np.unique(ys)) <= {0, 1, 2}


def test_bad_input():
    X = _data(8, n=3, k=1)
    with pytest.raises(ValueError, match="n_samples >= n_components"):
        GaussianMixture(5).fit(X)
    with pytest.raises(ValueError, match="reg_covar"):
        GaussianMixture(1, reg_covar=-1.0).fit(X)
    with pytest.raises(ValueError, match="should be normalized"):
        GaussianMixture(2, weights_init=[0.2, 0.2]).fit(_data(8))
    with pytest.raises(ValueError, match="positive-definite"):
        GaussianMixture(1, precisions_init=[-np.eye(3)]).fit(_data(8))


def test_em_kernels_independent_of_threads():
    from classiclearn.mixture import _gmm_kernels as k
    from classiclearn.utils._threads import numba_threads

    X = _data(9, n=1500)
    means = X[:3].copy()
    rng = np.random.RandomState(0)
    prec = np.ascontiguousarray(np.stack([np.triu(rng.uniform(0.5, 1, (3, 3)))] * 3))
    const = np.log(np.full(3, 1 / 3))
    n, p = X.shape
    size, n_chunks = k.chunk_layout(n)
    out = []
    for n_threads in (1, 2):
        ll = np.empty(n_chunks)
        nk = np.empty((n_chunks, 3))
        s1 = np.empty((n_chunks, 3, p))
        sc = np.empty((n_chunks, 3, p, p))
        wlp = np.empty((n, 3))
        with numba_threads(n_threads):
            k.em_pass(X, means, prec, True, const, 1, wlp, ll, nk, s1, sc)
            k.em_pass(X, means, prec, True, const, 0, wlp, ll[:1], nk[:1], s1[:1], sc[:1])
        out.append((ll.sum(), s1.sum(axis=0), sc.sum(axis=0), wlp))
    assert out[0][0] == out[1][0]
    for a, b in zip(out[0][1:], out[1][1:]):
        assert_array_equal(a, b)
    # brute force against the definitions
    wlp = out[0][3]
    ref = np.stack(
        [const[c] - 0.5 * (((X - means[c]) @ prec[c]) ** 2).sum(1)
         for c in range(3)], axis=1,
    )
    assert_allclose(wlp, ref, rtol=1e-12, atol=1e-12)
    norm = np.logaddexp.reduce(ref, axis=1)
    resp = np.exp(ref - norm[:, None])
    assert_allclose(out[0][0], norm.sum(), rtol=1e-12)
    assert_allclose(out[0][1], resp.T @ X, rtol=1e-11)
    for c in range(3):
        d = X - means[c]
        assert_allclose(out[0][2][c], (d * resp[:, c:c + 1]).T @ d, rtol=1e-11, atol=1e-12)


def test_tile_responsibilities_matches_exact_log_sum_exp():
    # the kernel's own exp (range reduction + polynomial) against numpy, across the
    # cut-off: every term within a few ulp, terms below exp(-40) of the largest dropped
    from classiclearn.mixture import _gmm_kernels as k

    rng = np.random.default_rng(0)
    lp = rng.uniform(-60.0, 5.0, size=(7, 64))
    lp[3, :5] = -np.inf  # a component with zero weight
    lp[:, 10] = -700.0  # a row far out in every component
    m = 61  # a partial tile
    work = lp.copy()
    mx, s = np.empty(64), np.empty(64)
    ll = k._tile_responsibilities(work, m, mx, s)
    top = lp[:, :m].max(axis=0)
    t = lp[:, :m] - top
    ref = np.where(t > -40.0, np.exp(t), 0.0)
    assert_allclose(work[:, :m], ref, rtol=4e-16, atol=0)
    assert_allclose(1.0 / s[:m], ref.sum(axis=0), rtol=1e-15)
    assert_allclose(ll, np.logaddexp.reduce(lp[:, :m], axis=0).sum(), rtol=1e-14)
    assert_array_equal(work[:, m:], lp[:, m:])  # rows past m untouched


@pytest.mark.parametrize("ctype", ["full", "tied", "diag", "spherical"])
def test_kmeans_initial_parameters_match_sklearn(ctype):
    # max_iter=0 keeps the initial parameters: k-means labels turned into an M-step
    # (moments from the labels directly, re-centred on the exact means)
    X = _data(3, n=400)
    params = dict(n_components=3, covariance_type=ctype, random_state=1, max_iter=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours = GaussianMixture(**params).fit(X)
        theirs = sk_mixture.GaussianMixture(**params).fit(X)
    assert_allclose(ours.weights_, theirs.weights_, rtol=1e-10)
    assert_allclose(ours.means_, theirs.means_, rtol=1e-10, atol=1e-12)
    assert_allclose(ours.covariances_, theirs.covariances_, rtol=1e-8, atol=1e-12)


def test_tied_pass_matches_general_pass():
    # the tied kernel (x U once per row, shifted data) against the general kernel with
    # the factor repeated per component: same log densities, likelihood and first moments
    from classiclearn.mixture import _gmm_kernels as k

    X = _data(12, n=900) + 50.0  # off the origin: the shift keeps the products small
    rng = np.random.RandomState(1)
    U = np.triu(rng.uniform(0.2, 1.0, (3, 3)))
    means = X[[0, 300, 600]].copy()
    const = np.log(np.array([0.2, 0.3, 0.5])) + np.log(np.diag(U)).sum()
    n, p = X.shape
    size, n_chunks = k.chunk_layout(n)
    shift = X.mean(axis=0)
    proj = np.ascontiguousarray((means - shift) @ U)
    out_t, out_g = np.empty((n, 3)), np.empty((n, 3))
    ll_t, nk_t, s1_t = np.empty(n_chunks), np.empty((n_chunks, 3)), np.empty((n_chunks, 3, p))
    ll_g, nk_g, s1_g = np.empty(n_chunks), np.empty((n_chunks, 3)), np.empty((n_chunks, 3, p))
    s2_g = np.empty((n_chunks, 3, p, p))
    prec = np.ascontiguousarray(np.repeat(U[None], 3, axis=0))
    k.tied_pass(X, shift, proj, U, const, 0, out_t, ll_t, nk_t, s1_t)
    k.tied_pass(X, shift, proj, U, const, 1, out_t[:0], ll_t, nk_t, s1_t)
    k.em_pass(X, means, prec, True, const, 0, out_g, ll_g, nk_g, s1_g, s2_g)
    k.em_pass(X, means, prec, True, const, 1, out_g[:0], ll_g, nk_g, s1_g, s2_g)
    assert_allclose(out_t, out_g, rtol=1e-11, atol=1e-9)
    assert_allclose(ll_t.sum(), ll_g.sum(), rtol=1e-12)
    assert_allclose(nk_t.sum(axis=0), nk_g.sum(axis=0), rtol=1e-12)
    # s1 of the tied kernel is of the shifted data
    nk = nk_g.sum(axis=0)
    assert_allclose(s1_t.sum(axis=0) + nk[:, None] * shift, s1_g.sum(axis=0), rtol=1e-11)


@pytest.mark.parametrize("ctype", ["full", "tied", "diag", "spherical"])
def test_fused_inference_modes_match_log_sum_exp(ctype):
    # predict_proba and score_samples normalise inside the kernel pass: they equal the
    # log-sum-exp of the weighted log densities, and scikit-learn's on the same model
    X = _data(13, n=700)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        gm = GaussianMixture(3, covariance_type=ctype, random_state=0, max_iter=5).fit(X)
    wlp = gm._weighted_log_prob(X)
    norm = np.logaddexp.reduce(wlp, axis=1)
    assert_allclose(gm.score_samples(X), norm, rtol=1e-13, atol=1e-12)
    assert_allclose(gm.predict_proba(X), np.exp(wlp - norm[:, None]), rtol=1e-12, atol=1e-15)
    assert_array_equal(gm.predict(X), wlp.argmax(axis=1))
    theirs = sk_mixture.GaussianMixture(3, covariance_type=ctype)
    for name in ("weights_", "means_", "covariances_", "precisions_cholesky_"):
        setattr(theirs, name, getattr(gm, name))
    assert_allclose(gm.score_samples(X), theirs.score_samples(X), rtol=1e-10)
    assert_allclose(gm.predict_proba(X), theirs.predict_proba(X), rtol=1e-8, atol=1e-14)


@pytest.mark.parametrize("covariance_type", ["diag", "spherical"])
@pytest.mark.parametrize("mode", [0, 3, 4])
def test_row_wise_inference_equals_the_tiled_pass(covariance_type, mode):
    # predict / predict_proba / score_samples of diagonal models read X row by row
    # (diag_inference_pass); the EM pass's transposed tiles give the same outputs
    from classiclearn.mixture import _gmm_kernels

    rng = np.random.default_rng(4)
    X = np.vstack([rng.normal(size=(700, 37)), rng.normal(size=(700, 37)) + 2.0])
    gm = GaussianMixture(n_components=3, covariance_type=covariance_type,
                         random_state=0).fit(X)
    means, prec, full, const = gm._kernel_args()
    k, p = means.shape
    shape = (X.shape[0], 1 if mode == 4 else k)
    rows, tiles = np.empty(shape), np.empty(shape)
    _gmm_kernels.diag_inference_pass(X, means, prec, const, mode, rows)
    _gmm_kernels.em_pass(X, means, prec, full, const, mode, tiles, np.empty(1),
                         np.empty((1, k)), np.empty((1, k, p)), np.empty((1, k, 1, p)))
    assert_allclose(rows, tiles, rtol=1e-12, atol=1e-300)
    if mode != 4:  # the labels are the tiled pass's
        np.testing.assert_array_equal(gm.predict(X), tiles.argmax(axis=1))
