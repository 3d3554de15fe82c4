"""KernelRidge: parity with scikit-learn, closed forms, weights, bad input."""

import warnings

import numpy as np
import pytest
from numpy.testing import assert_allclose

from classiclearn.kernel_ridge import KernelRidge

sk_kr = pytest.importorskip("sklearn.kernel_ridge")

KERNELS = ["linear", "poly", "rbf", "sigmoid", "cosine", "laplacian"]


def _data(seed=0, n=80, p=4, t=None):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p))
    y = rng.normal(size=n) if t is None else rng.normal(size=(n, t))
    return X, y


@pytest.mark.parametrize("kernel", KERNELS)
def test_parity_with_sklearn(kernel):
    X, y = _data(1)
    w = np.random.default_rng(1).uniform(0.2, 2.0, size=len(X))
    for sw in (None, w):
        ours = KernelRidge(alpha=0.7, kernel=kernel).fit(X, y, sample_weight=sw)
        theirs = sk_kr.KernelRidge(alpha=0.7, kernel=kernel).fit(X, y, sample_weight=sw)
        assert_allclose(ours.dual_coef_, theirs.dual_coef_, rtol=1e-8, atol=1e-10)
        assert_allclose(ours.predict(X[:20]), theirs.predict(X[:20]), rtol=1e-8, atol=1e-10)


def test_multi_output_and_per_target_alpha():
    X, Y = _data(2, t=3)
    alphas = [0.1, 1.0, 10.0]
    ours = KernelRidge(alpha=alphas, kernel="rbf", gamma=0.3).fit(X, Y)
    theirs = sk_kr.KernelRidge(alpha=alphas, kernel="rbf", gamma=0.3).fit(X, Y)
    assert_allclose(ours.dual_coef_, theirs.dual_coef_, rtol=1e-8, atol=1e-10)
    for j, a in enumerate(alphas):
        single = KernelRidge(alpha=a, kernel="rbf", gamma=0.3).fit(X, Y[:, j])
        assert_allclose(ours.dual_coef_[:, j], single.dual_coef_, rtol=1e-10)
    with pytest.raises(ValueError, match="do not correspond"):
        KernelRidge(alpha=[1.0, 2.0]).fit(X, Y)


def test_closed_form_and_precomputed():
    X, y = _data(3)
    K = np.exp(-0.5 * ((X[:, None] - X[None]) ** 2).sum(-1))
    ref = np.linalg.solve(K + 2.0 * np.eye(len(X)), y)
    ours = KernelRidge(alpha=2.0, kernel="rbf", gamma=0.5).fit(X, y)
    assert_allclose(ours.dual_coef_, ref, rtol=1e-10)
    pre = KernelRidge(alpha=2.0, kernel="precomputed").fit(K, y)
    assert_allclose(pre.dual_coef_, ref, rtol=1e-10)
    assert_allclose(pre.predict(K[:5]), ours.predict(X[:5]), rtol=1e-10)


def test_weight_two_equals_row_twice():
    X, y = _data(4, n=30)
    w = np.ones(len(X))
    w[:5] = 2.0
    a = KernelRidge(alpha=1.0, kernel="rbf").fit(X, y, sample_weight=w)
    Xr = np.vstack([X, X[:5]])
    yr = np.concatenate([y, y[:5]])
    b = KernelRidge(alpha=1.0, kernel="rbf").fit(Xr, yr)
    assert_allclose(a.predict(X), b.predict(X), rtol=1e-9, atol=1e-12)


def test_singular_system_falls_back_with_warning():
    X, y = _data(5, n=20, p=2)
    with pytest.warns(UserWarning, match="least-squares"):
        kr = KernelRidge(alpha=0.0, kernel="linear").fit(X, y)
    assert np.all(np.isfinite(kr.dual_coef_))


def test_callable_kernel_and_inputs_untouched():
    X, y = _data(6, n=25)
    Xc, yc = X.copy(), y.copy()

    def k(a, b):
        return float(np.exp(-np.sum((a - b) ** 2)))

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        a = KernelRidge(alpha=0.5, kernel=k).fit(X, y)
    b = KernelRidge(alpha=0.5, kernel="rbf", gamma=1.0).fit(X, y)
    assert_allclose(a.dual_coef_, b.dual_coef_, rtol=1e-10)
    assert_allclose(X, Xc)
    assert_allclose(y, yc)


def test_rbf_lower_on_one_thread_or_the_pool_is_the_same():
    # a small rbf kernel's lanes run on the calling thread (no pool wake-up), a large
    # one's in numba's threads: the lanes are fixed, so the values are identical
    from classiclearn._kernels import gram

    rng = np.random.default_rng(4)
    X = rng.normal(size=(300, 5))
    V = rng.normal(size=(2, 300))
    T1, KV1 = gram.kernel_lower(X, "rbf", 0.3, V)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(gram, "KERNEL_VALUE_ENTRIES", 1)  # the pool for any size
        T2, KV2 = gram.kernel_lower(X, "rbf", 0.3, V)
    lower = np.tril_indices(300)
    np.testing.assert_array_equal(T1[lower], T2[lower])
    np.testing.assert_array_equal(KV1, KV2)
    expected = np.exp(-0.3 * ((X[:, None, :] - X[None, :, :]) ** 2).sum(-1))
    np.testing.assert_allclose(T1[lower], expected[lower], rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("kernel", ["sigmoid", "additive_chi2"])
@pytest.mark.parametrize("weighted", [False, True])
def test_singular_system_takes_scikit_learns_least_squares_solution(kernel, weighted):
    # an indefinite kernel with a small alpha: the Cholesky factor fails and both fall
    # back to the minimum-norm least-squares solution (ours from the eigenpairs)
    rng = np.random.default_rng(3)
    X = rng.random((120, 4))
    y = X @ rng.normal(size=4) + 0.1 * rng.normal(size=120)
    sw = rng.uniform(0.5, 2.0, 120) if weighted else None
    params = {"kernel": kernel, "alpha": 1e-8, "gamma": 0.5}
    with pytest.warns(UserWarning, match="Singular matrix"):
        ours = KernelRidge(**params).fit(X, y, sample_weight=sw)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = sk_kr.KernelRidge(**params).fit(X, y, sample_weight=sw)
    # the dual coefficients of a nearly singular system are large and ill-determined;
    # the fitted values are not (here to within condition number x rounding)
    np.testing.assert_allclose(ours.predict(X), theirs.predict(X), atol=1e-5)


def test_manhattan_and_chi2_kernels_equal_scipy_and_scikit_learn():
    from scipy.spatial.distance import cdist
    from sklearn.metrics.pairwise import additive_chi2_kernel as sk_chi2

    from classiclearn.metrics.pairwise import additive_chi2_kernel, manhattan_distances

    rng = np.random.default_rng(0)
    X = rng.random((40, 6))
    X[X < 0.3] = 0.0
    Y = rng.random((25, 6))
    np.testing.assert_array_equal(manhattan_distances(X, Y), cdist(X, Y, "cityblock"))
    np.testing.assert_array_equal(additive_chi2_kernel(X, Y), sk_chi2(X, Y))
    assert manhattan_distances(X.astype(np.float32)).dtype == np.float32
    assert additive_chi2_kernel(X.astype(np.float32)).dtype == np.float32


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("alpha", [1.0, [0.5, 2.0]])
def test_indefinite_kernel_solved_by_ldl_when_certified(monkeypatch, weighted, alpha):
    # the sigmoid kernel plus alpha I is indefinite with every eigenvalue far from zero:
    # the Cholesky factor fails (both warn), the least-squares solution is the system's
    # own and comes from LDL' factors, without the eigendecomposition
    import classiclearn.kernel_ridge as kr

    def no_eigenpairs(F, Y):
        raise AssertionError("the eigendecomposition was not needed")

    monkeypatch.setattr(kr, "_eigen_lstsq", no_eigenpairs)
    X, y = _data(7, n=150, p=6, t=2)
    sw = np.random.default_rng(7).uniform(0.5, 2.0, len(X)) if weighted else None
    params = {"kernel": "sigmoid", "alpha": alpha, "gamma": 0.5}
    with pytest.warns(UserWarning, match="Singular matrix"):
        ours = KernelRidge(**params).fit(X, y, sample_weight=sw)
    # scikit-learn has no fallback with a penalty per target (it raises): its
    # single-penalty fits target by target
    alphas = np.broadcast_to(alpha, 2)
    for k in range(2):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            theirs = sk_kr.KernelRidge(**{**params, "alpha": alphas[k]}).fit(
                X, y[:, k], sample_weight=sw)
        assert_allclose(ours.dual_coef_[:, k], theirs.dual_coef_, rtol=1e-8, atol=1e-10)


def test_indefinite_kernel_with_an_eigenvalue_near_zero_takes_the_eigenpairs():
    # a precomputed kernel with eigenvalues -1, 0 and positive ones: not certified, so
    # the minimum-norm solution from the eigenpairs, as scikit-learn's lstsq gives it
    rng = np.random.default_rng(2)
    Q, _ = np.linalg.qr(rng.normal(size=(30, 30)))
    lam = np.concatenate([[-1.0, 0.0], rng.uniform(1.0, 3.0, 28)])
    K = (Q * lam) @ Q.T
    K = (K + K.T) / 2
    y = rng.normal(size=30)
    with pytest.warns(UserWarning, match="Singular matrix"):
        ours = KernelRidge(alpha=0.0, kernel="precomputed").fit(K, y)
    expected = np.linalg.lstsq(K, y, rcond=None)[0]
    assert_allclose(ours.dual_coef_, expected, rtol=1e-7, atol=1e-9)


@pytest.mark.parametrize("shape", [(120, 6), (100, 60), (40, 80)])
@pytest.mark.parametrize("weighted", [False, True])
def test_cosine_kernel_as_the_linear_kernel_of_normalised_rows(shape, weighted):
    # tall X: the SVD or the p x p normal equations of the normalised rows, without the
    # n x n kernel; wide X: the kernel. Zero rows have zero kernel rows on both sides
    rng = np.random.default_rng(11)
    X = rng.normal(size=shape)
    X[3] = 0.0
    y = rng.normal(size=(shape[0], 2))
    sw = rng.uniform(0.5, 2.0, shape[0]) if weighted else None
    Q = rng.normal(size=(15, shape[1]))
    Q[0] = 0.0
    ours = KernelRidge(alpha=0.3, kernel="cosine").fit(X, y, sample_weight=sw)
    theirs = sk_kr.KernelRidge(alpha=0.3, kernel="cosine").fit(X, y, sample_weight=sw)
    n, p = shape
    expected_route = "svd" if 4 * p <= n else ("gram" if p <= 0.8 * n else None)
    assert ours._linear_route(X, y, np.array([0.3])) == expected_route
    # every route keeps the fitted function as one vector per target (predict is x . w)
    assert ours._primal_coef is not None
    assert_allclose(ours.dual_coef_, theirs.dual_coef_, rtol=1e-8, atol=1e-10)
    assert_allclose(ours.predict(Q), theirs.predict(Q), rtol=1e-8, atol=1e-10)
