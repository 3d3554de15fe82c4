"""PCA: parity with scikit-learn (up to sign), closed forms, solvers, bad input."""

import functools
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from numpy.testing import assert_allclose

from classiclearn.decomposition import PCA
from signs import assert_same_up_to_sign  # noqa: E402

sk_dec = pytest.importorskip("sklearn.decomposition")


def _data(seed=0, n=300, p=8):
    rng = np.random.default_rng(seed)
    scales = np.geomspace(10.0, 0.1, p)
    return (rng.normal(size=(n, p)) * scales) @ np.linalg.qr(rng.normal(size=(p, p)))[0] + 3.0


_same_up_to_sign = functools.partial(assert_same_up_to_sign, axis=1)


@pytest.mark.parametrize("solver", ["full", "covariance_eigh", "arpack", "auto"])
@pytest.mark.parametrize("shape", [(300, 8), (60, 40), (30, 50)])
def test_exact_solvers_match_sklearn(solver, shape):
    X = _data(1, *shape)
    nc = 5
    ours = PCA(nc, svd_solver=solver, random_state=0).fit(X)
    theirs = sk_dec.PCA(nc, svd_solver=solver, random_state=0).fit(X)
    _same_up_to_sign(ours.components_, theirs.components_, 1e-8)
    assert_allclose(ours.explained_variance_, theirs.explained_variance_, rtol=1e-8)
    assert_allclose(ours.explained_variance_ratio_, theirs.explained_variance_ratio_, rtol=1e-8)
    assert_allclose(ours.singular_values_, theirs.singular_values_, rtol=1e-8)
    assert_allclose(ours.noise_variance_, theirs.noise_variance_, rtol=1e-7)
    assert_allclose(ours.mean_, theirs.mean_, rtol=1e-12)
    _same_up_to_sign(ours.transform(X).T, theirs.transform(X).T, 1e-7)
    assert_allclose(ours.score_samples(X), theirs.score_samples(X), rtol=1e-7)


def test_signs_are_deterministic_and_match_full():
    X = _data(2)
    a = PCA(4, svd_solver="full").fit(X)
    b = sk_dec.PCA(4, svd_solver="full").fit(X)
    assert_allclose(a.components_, b.components_, atol=1e-8)
    idx = np.abs(a.components_).argmax(axis=1)
    assert np.all(a.components_[np.arange(4), idx] > 0)


def test_randomized_matches_sklearn():
    for shape in [(400, 30), (5000, 20)]:
        X = _data(3, *shape)
        ours = PCA(4, svd_solver="randomized", random_state=0).fit(X)
        theirs = sk_dec.PCA(4, svd_solver="randomized", random_state=0).fit(X)
        _same_up_to_sign(ours.components_, theirs.components_, 1e-3)
        assert_allclose(ours.explained_variance_ratio_, theirs.explained_variance_ratio_, rtol=1e-3)
        assert_allclose(ours.noise_variance_, theirs.noise_variance_, rtol=1e-3)
        _same_up_to_sign(ours.transform(X).T, theirs.transform(X).T, 1e-3 * np.abs(X).max())


@pytest.mark.parametrize("nc", [None, 0.95, "mle", 0])
def test_n_components_selection_matches_sklearn(nc):
    X = _data(4, 200, 10)
    ours = PCA(nc, svd_solver="full").fit(X)
    theirs = sk_dec.PCA(nc, svd_solver="full").fit(X)
    assert ours.n_components_ == theirs.n_components_
    assert_allclose(ours.noise_variance_, theirs.noise_variance_, rtol=1e-8)


def test_whiten_and_inverse_transform():
    X = _data(5)
    pca = PCA(8, whiten=True).fit(X)
    Z = pca.transform(X)
    assert_allclose(np.cov(Z.T), np.eye(8), atol=1e-8)
    assert_allclose(pca.inverse_transform(Z), X, atol=1e-8)
    theirs = sk_dec.PCA(3, whiten=True, svd_solver="full").fit(X)
    ours = PCA(3, whiten=True, svd_solver="full").fit(X)
    assert_allclose(ours.transform(X), theirs.transform(X), atol=1e-8)
    assert_allclose(ours.score_samples(X), theirs.score_samples(X), rtol=1e-7)
    assert_allclose(ours.fit_transform(X), theirs.transform(X), atol=1e-8)


def test_covariance_route_falls_back_on_ill_conditioning():
    rng = np.random.default_rng(6)
    X = rng.normal(size=(400, 6)) * np.array([1e6, 1e5, 1.0, 1e-3, 1e-4, 1e-5])
    ours = PCA(6, svd_solver="full").fit(X)
    theirs = sk_dec.PCA(6, svd_solver="full").fit(X)
    _same_up_to_sign(ours.components_, theirs.components_, 1e-8)
    assert_allclose(ours.singular_values_, theirs.singular_values_, rtol=1e-8)


def test_get_covariance_precision_inverse():
    X = _data(7)
    pca = PCA(3).fit(X)
    assert_allclose(pca.get_precision() @ pca.get_covariance(), np.eye(8), atol=1e-8)


def test_bad_input():
    X = _data(8, 20, 5)
    with pytest.raises(ValueError, match="must be between 0 and"):
        PCA(6, svd_solver="full").fit(X)
    with pytest.raises(ValueError, match="strictly less"):
        PCA(5, svd_solver="arpack").fit(X)
    with pytest.raises(ValueError):
        PCA(-1).fit(X)
    with pytest.raises(ValueError, match="mle"):
        PCA("mle", svd_solver="full").fit(X[:4])
    Xc = X.copy()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        PCA(2).fit_transform(X)
    assert_allclose(X, Xc)


@pytest.mark.parametrize("offset", [0.0, 0.5, 1e6])
def test_centred_gram_both_routes_match_naive(offset):
    # small means: one uncentred syrk + rank-one correction; an offset (or a
    # constant column) sends it to the blockwise exact centring
    from classiclearn.decomposition._pca import _centred_gram

    rng = np.random.default_rng(3)
    X = rng.normal(size=(3000, 7)) * np.array([1.0, 2.0, 0.5, 3.0, 1.0, 1.0, 0.1])
    X[:, 1] += offset
    mean = X.mean(axis=0)
    ref = (X - mean).T @ (X - mean)
    np.testing.assert_allclose(_centred_gram(X, mean), ref, rtol=1e-11, atol=1e-9)
    X[:, 4] = 2.5  # constant column
    mean = X.mean(axis=0)
    ref = (X - mean).T @ (X - mean)
    np.testing.assert_allclose(_centred_gram(X, mean), ref, rtol=1e-11, atol=1e-9)


@pytest.mark.parametrize("offset", [0.0, 1e6])
def test_centred_gram_threaded_block_route_matches_naive(offset):
    # n p^2 above the threshold: X'X summed over row blocks in threads
    from classiclearn.decomposition._pca import _THREADED_GRAM_WORK, _centred_gram

    rng = np.random.default_rng(4)
    X = rng.normal(size=(10_000, 48)) + np.linspace(-0.5, 0.5, 48)
    X[:, 3] += offset
    assert X.shape[0] * X.shape[1] ** 2 >= _THREADED_GRAM_WORK
    mean = X.mean(axis=0)
    ref = (X - mean).T @ (X - mean)
    np.testing.assert_allclose(_centred_gram(X, mean), ref, rtol=1e-11, atol=1e-8)


def test_blocked_row_sums_do_not_depend_on_threads():
    from classiclearn.utils._threads import blocked_row_sums

    X = np.random.default_rng(5).normal(size=(9_001, 13))

    def block(lo, hi):
        return X[lo:hi].sum(axis=0), X[lo:hi].T @ X[lo:hi]

    one = blocked_row_sums(block, len(X), 1, block_rows=512)
    two = blocked_row_sums(block, len(X), 2, block_rows=512)
    for a, b in zip(one, two):
        assert np.array_equal(a, b)
    np.testing.assert_allclose(one[1], X.T @ X, rtol=1e-12)
    np.testing.assert_allclose(one[0], X.sum(axis=0), rtol=1e-12, atol=1e-9)


@pytest.mark.parametrize("offset", [0.0, 5.0, 300.0, 1e7])
def test_transform_equals_centred_projection(offset):
    # within 4,096 standard deviations transform projects X and subtracts the mean's
    # projection (no centred copy); further out it centres first: both equal the
    # centred product
    rng = np.random.default_rng(3)
    X = rng.normal(size=(400, 12)) * np.linspace(0.5, 3.0, 12) + offset
    pca = PCA(4).fit(X)
    Xn = rng.normal(size=(300, 12)) * np.linspace(0.5, 3.0, 12) + offset
    ref = (Xn - pca.mean_) @ pca.components_.T
    assert_allclose(pca.transform(Xn), ref, rtol=1e-9, atol=1e-10)


@pytest.mark.parametrize("solver", ["full", "covariance_eigh", "randomized"])
@pytest.mark.parametrize("bad", [np.nan, np.inf])
def test_non_finite_input_is_named_on_every_route(solver, bad):
    # the covariance route reads finiteness off the column sums of its Gram pass;
    # every route still raises the usual error
    X = _data(9, 300, 6)
    X[17, 2] = bad
    with pytest.raises(ValueError, match="Input X contains (NaN|infinity)"):
        PCA(2, svd_solver=solver, random_state=0).fit(X)


def test_mean_from_the_gram_pass():
    from classiclearn.decomposition._pca import _THREADED_GRAM_WORK

    X = _data(10, 3000, 90) + 4.0
    assert X.shape[0] * X.shape[1] ** 2 >= _THREADED_GRAM_WORK  # the threaded block route
    pca = PCA(5, svd_solver="full").fit(X)
    assert_allclose(pca.mean_, X.mean(axis=0), rtol=1e-13)


@pytest.mark.parametrize("shape, n_components", [((2000, 60), 5), ((300, 40), 10)])
def test_arpack_on_the_covariance_matches_sklearn_and_svds(shape, n_components, monkeypatch):
    """Dense tall X: ARPACK runs on the formed centred Gram matrix; the same components
    as scikit-learn's svds on X, and as our own svds route."""
    from sklearn.decomposition import PCA as SkPCA

    import classiclearn.decomposition._pca as pca_module
    from classiclearn.decomposition import PCA

    rng = np.random.default_rng(0)
    X = rng.normal(size=shape) @ rng.normal(size=(shape[1], shape[1]))
    kw = dict(n_components=n_components, svd_solver="arpack", random_state=0)
    ours = PCA(**kw).fit(X)
    theirs = SkPCA(**kw).fit(X)
    np.testing.assert_allclose(ours.singular_values_, theirs.singular_values_, rtol=1e-10)
    np.testing.assert_allclose(ours.components_, theirs.components_, atol=1e-8)
    monkeypatch.setattr(pca_module, "_ARPACK_GRAM_MAX", 0)
    svds_route = PCA(**kw).fit(X)
    np.testing.assert_allclose(ours.components_, svds_route.components_, atol=1e-8)


@pytest.mark.parametrize("svd_solver", ["auto", "covariance_eigh", "full"])
def test_float32_covariance_route_keeps_x_and_matches_float64(svd_solver):
    # a float32 X on the covariance route is not copied to float64: its Gram matrix is
    # formed block by block (single-precision products, float64 sums); the fit is the
    # float64 fit to float32 accuracy, and float32 in gives float32 out
    from classiclearn.decomposition import _pca

    rng = np.random.default_rng(8)
    n, p = 30_000, 30
    assert n * p * p >= _pca._THREADED_GRAM_WORK  # the blocked pass
    X = (rng.normal(size=(n, p)) @ rng.normal(size=(p, p)) + 4.0).astype(np.float32)
    X_before = X.copy()
    ours32 = PCA(6, svd_solver=svd_solver).fit(X)
    ours64 = PCA(6, svd_solver=svd_solver).fit(X.astype(np.float64))
    np.testing.assert_array_equal(X, X_before)
    assert ours32.components_.dtype == np.float32
    np.testing.assert_allclose(ours32.explained_variance_, ours64.explained_variance_,
                               rtol=1e-5)
    np.testing.assert_allclose(np.abs(ours32.components_), np.abs(ours64.components_),
                               atol=1e-5)
    np.testing.assert_allclose(ours32.mean_, ours64.mean_, rtol=1e-6)
    Z32 = ours32.transform(X)
    assert Z32.dtype == np.float32
    np.testing.assert_allclose(Z32, ours64.transform(X.astype(np.float64)), rtol=1e-4,
                               atol=1e-3 * float(np.abs(Z32).max()))
    # the float32 route reads X without a float64 copy of it (numpy reports its
    # allocations to tracemalloc): the peak stays below one such copy
    import tracemalloc

    tracemalloc.start()
    try:
        PCA(6, svd_solver=svd_solver).fit(X)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < X.size * 8


def test_mle_dimension_equals_sklearns_over_random_spectra():
    """Minka's estimate from running sums against scikit-learn's rank-by-rank evaluation:
    spectra of 2-60 values, steep or flat, with trailing zeros and values near its
    1e-15 floor."""
    from sklearn.decomposition._pca import _infer_dimension

    from classiclearn.decomposition._pca import _mle_dimension

    rng = np.random.default_rng(0)
    compared = 0
    for trial in range(400):
        p = int(rng.integers(2, 60))
        s = np.sort(rng.exponential(size=p) ** rng.uniform(1, 4))[::-1]
        if trial % 5 == 0:
            s[rng.integers(1, p):] = 0.0
        if trial % 3 == 0:
            s = s * 10.0 ** rng.uniform(-20, 5)
        n = int(rng.integers(p, 2000))
        try:
            expected = int(_infer_dimension(s.copy(), n))
        except ValueError:  # their scalar log of an exact tie
            continue
        with np.errstate(all="ignore"):
            assert _mle_dimension(s.copy(), n) == expected
        compared += 1
    assert compared > 300


@pytest.mark.parametrize("shape", [(300, 10), (500, 80)])
def test_mle_components_equal_sklearns(shape):
    n, p = shape
    rng = np.random.default_rng(1)
    X = rng.normal(size=(n, 4)) @ rng.normal(size=(4, p)) * 3 + rng.normal(size=(n, p))
    ours = PCA("mle").fit(X)
    theirs = sk_dec.PCA("mle").fit(X)
    assert ours.n_components_ == theirs.n_components_


@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("rows_sorted", [False, True])
@pytest.mark.parametrize("shape", [(3000, 7), (20_000, 40), (50, 3)])
def test_shifted_gram_pass_and_its_centring_match_naive(monkeypatch, order, rows_sorted, shape):
    # the Gram pass shifts by the first rows' mean (blocks of a reused buffer); the
    # rank-one correction by mean - shift, or exact centring when the first rows are
    # far from the mean (rows sorted by a feature) or a column is constant
    from classiclearn.decomposition import _pca

    monkeypatch.setattr(_pca, "_GRAM_BLOCK_BYTES", 8 * shape[1] * 300)  # several blocks
    rng = np.random.default_rng(5)
    X = rng.normal(size=shape) * np.linspace(0.1, 3.0, shape[1]) + 1e3
    if rows_sorted:
        X = X[np.argsort(X[:, 0])]
    X[:, 1] = 2.5
    X = np.asarray(X, order=order)
    before = X.copy()
    shift = _pca._first_rows_shift(X)
    G, sums = _pca._gram_and_column_sums(X, shift)
    np.testing.assert_allclose(sums, X.sum(axis=0), rtol=1e-13)
    np.testing.assert_allclose(G, (X - shift).T @ (X - shift), rtol=1e-12, atol=1e-6)
    mean = sums / shape[0]
    ref = (X - mean).T @ (X - mean)
    np.testing.assert_allclose(_pca._centred_gram(X, mean, G.copy(), shift), ref,
                               rtol=1e-10, atol=1e-7)
    np.testing.assert_allclose(_pca._centred_gram(X, mean), ref, rtol=1e-10, atol=1e-7)
    assert np.array_equal(X, before)


@pytest.mark.parametrize("layout", ["C", "F", "strided", "csr"])
def test_randomized_products_with_x_in_any_layout(layout):
    from classiclearn.decomposition._pca import _products_with

    rng = np.random.default_rng(6)
    X = rng.normal(size=(60, 9))
    X = {"C": X, "F": np.asfortranarray(X), "strided": X[::2],
         "csr": sp.csr_array(np.where(X > 0.5, X, 0.0))}[layout]
    x_dot, xt_dot = _products_with(X)
    B, C = rng.normal(size=(9, 4)), rng.normal(size=(X.shape[0], 4))
    np.testing.assert_allclose(x_dot(B), X @ B, rtol=1e-13, atol=1e-13)
    np.testing.assert_allclose(xt_dot(C), X.T @ C, rtol=1e-13, atol=1e-13)


def test_randomized_fit_and_transform_same_for_fortran_x():
    rng = np.random.default_rng(7)
    X = rng.normal(size=(400, 300)) @ rng.normal(size=(300, 300)) * 0.1 + 5.0
    kw = {"n_components": 5, "svd_solver": "randomized", "random_state": 0}
    a = PCA(**kw).fit(X)
    b = PCA(**kw).fit(np.asfortranarray(X))
    np.testing.assert_allclose(a.components_, b.components_, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(a.transform(X), b.transform(np.asfortranarray(X)),
                               rtol=1e-10, atol=1e-9)


@pytest.mark.parametrize("means_in_spreads, shifted", [(0.0, False), (200.0, False),
                                                      (1e4, True)])
def test_gram_pass_is_shifted_only_for_means_far_from_zero(means_in_spreads, shifted):
    # within 256 standard deviations the pass is not shifted (no shifted copies of the
    # blocks) and the rank-one centring loses at most ~16 bits; further out it is
    from classiclearn.decomposition import _pca

    rng = np.random.default_rng(8)
    spreads = np.linspace(0.5, 3.0, 6)
    X = rng.normal(size=(2000, 6)) * spreads + means_in_spreads * spreads
    shift = _pca._first_rows_shift(X)
    assert (shift is not None) == shifted
    G, sums = _pca._gram_and_column_sums(X, shift)
    mean = sums / X.shape[0]
    ref = (X - X.mean(axis=0)).T @ (X - X.mean(axis=0))
    assert_allclose(_pca._centred_gram(X, mean, G, shift), ref, rtol=1e-9,
                    atol=1e-9 * np.abs(ref).max())


def test_constant_columns_centre_exactly_in_the_gram_pass():
    # a constant column is shifted to zeros: its variance and covariances are exactly 0
    from classiclearn.decomposition import _pca

    X = _data(4, 500, 5)
    X[:, 2] = 7.3
    X[:, 4] = 0.0
    pca = PCA(svd_solver="covariance_eigh").fit(X)
    cov = pca.get_covariance()
    assert cov[2, 2] == pytest.approx(0.0, abs=1e-12)
    assert cov[4, 4] == pytest.approx(0.0, abs=1e-12)
    shift = _pca._first_rows_shift(X)
    G, sums = _pca._gram_and_column_sums(X, shift)
    C = _pca._centred_gram(X, sums / 500, G, shift)
    assert np.all(C[2] == 0.0) and np.all(C[:, 4] == 0.0)


@pytest.mark.parametrize("shape, n_components", [((500, 450), None), ((500, 450), 2),
                                                 ((450, 450), 3), ((1400, 400), None)])
def test_full_solver_on_square_ish_x_matches_sklearns_svd(shape, n_components):
    # 'full' on X with at least as many rows as columns solves the covariance's
    # eigenproblem (every component from 3 rows per column); scikit-learn runs the SVD
    X = _data(6, *shape)
    ours = PCA(n_components, svd_solver="full").fit(X)
    theirs = sk_dec.PCA(n_components, svd_solver="full").fit(X)
    k = min(ours.n_components_, 10)
    _same_up_to_sign(ours.components_[:k], theirs.components_[:k], 1e-7)
    assert_allclose(ours.explained_variance_, theirs.explained_variance_, rtol=1e-7,
                    atol=1e-10 * theirs.explained_variance_[0])
    assert_allclose(ours.noise_variance_, theirs.noise_variance_, rtol=1e-6, atol=1e-12)
    _same_up_to_sign(ours.transform(X)[:, :k].T, theirs.transform(X)[:, :k].T, 1e-6)


def test_full_solver_on_rank_deficient_x_falls_back_to_the_svd():
    from classiclearn.decomposition._pca import _covariance_route

    # duplicated columns: the covariance's smallest eigenvalues are rounding noise, so
    # every component comes from the SVD, as scikit-learn's
    X = _data(7, 1400, 200)
    X = np.hstack([X, X[:, :200] * 2.0])
    assert _covariance_route("full", *X.shape, None)
    ours = PCA(svd_solver="full").fit(X)
    theirs = sk_dec.PCA(svd_solver="full").fit(X)
    assert_allclose(ours.singular_values_, theirs.singular_values_, rtol=1e-7,
                    atol=1e-9 * theirs.singular_values_[0])
    _same_up_to_sign(ours.components_[:50], theirs.components_[:50], 1e-7)


@pytest.mark.parametrize("p", [20, 200])
def test_unshifted_gram_pass_whole_or_in_blocks_matches_naive(p):
    # many columns: one symmetric rank-k update over X (its other triangle mirrored);
    # few: the sum over row blocks
    from classiclearn.decomposition import _pca

    X = np.random.default_rng(9).normal(size=(900, p))
    G, sums = _pca._gram_and_column_sums(X, None)
    assert np.array_equal(G, G.T)
    assert_allclose(G, X.T @ X, rtol=1e-12, atol=1e-10)
    assert_allclose(sums, X.sum(axis=0), rtol=1e-12, atol=1e-10)


def test_full_solver_routes_by_shape_components_and_dtype():
    # the covariance route for a few components of any X with n >= p; for every
    # component, and for float32 X, from 3 rows per column; never for n < p
    from classiclearn.decomposition._pca import _covariance_route

    assert _covariance_route("full", 500, 450, 2)
    assert not _covariance_route("full", 500, 450, None)
    assert not _covariance_route("full", 500, 450, 449)
    assert _covariance_route("full", 1500, 450, None)
    assert not _covariance_route("full", 500, 450, 2, np.float32)
    assert _covariance_route("full", 1500, 450, 2, np.float32)
    assert not _covariance_route("full", 400, 450, 2)
    assert _covariance_route("covariance_eigh", 400, 450, None)
    assert not _covariance_route("randomized", 5000, 450, 2)
    X = _data(12, 500, 450).astype(np.float32)
    ours = PCA(2, svd_solver="full").fit(X)
    theirs = sk_dec.PCA(2, svd_solver="full").fit(X)
    _same_up_to_sign(ours.components_, theirs.components_, 1e-4)
    assert_allclose(ours.explained_variance_, theirs.explained_variance_, rtol=1e-4)


def test_float32_gram_in_single_precision_is_shifted_beyond_one_deviation():
    # float32 X's Gram matrix is summed from single-precision products (24 bits): a mean
    # of 50 standard deviations is shifted away first, so the variances keep float32
    # accuracy instead of losing ~11 bits to the centring
    from classiclearn.decomposition import _pca

    rng = np.random.default_rng(13)
    n, p = 30_000, 30
    assert n * p * p >= _pca._THREADED_GRAM_WORK
    X = (rng.normal(size=(n, p)) + 50.0).astype(np.float32)
    shift = _pca._first_rows_shift(X)
    assert shift is not None
    G, sums = _pca._gram_and_column_sums(X, shift)
    X64 = X.astype(np.float64)
    ref = (X64 - X64.mean(axis=0)).T @ (X64 - X64.mean(axis=0))
    C = _pca._centred_gram(X, sums / n, G, shift)
    assert_allclose(np.diag(C), np.diag(ref), rtol=1e-4)
    assert _pca._first_rows_shift(X.astype(np.float64)) is None  # float64: unshifted
