"""KernelPCA: parity with scikit-learn (up to sign) for every kernel and solver."""

import functools
import warnings

import numpy as np
import pytest
from numpy.testing import assert_allclose

from classiclearn.decomposition import PCA, KernelPCA
from classiclearn.exceptions import NotFittedError
from signs import assert_same_up_to_sign  # noqa: E402

sk_dec = pytest.importorskip("sklearn.decomposition")


def _data(seed=0, n=250, p=5):
    rng = np.random.default_rng(seed)
    return rng.normal(size=(n, p)) * np.array([3.0, 2.0, 1.0, 0.5, 0.2])[:p]


_same_up_to_sign = functools.partial(assert_same_up_to_sign, axis=0)


@pytest.mark.parametrize("kernel", ["linear", "poly", "rbf", "sigmoid", "cosine"])
@pytest.mark.parametrize("solver", ["dense", "arpack", "auto"])
def test_matches_sklearn(kernel, solver):
    X = _data(1)
    Xt = _data(2, n=30)
    params = dict(n_components=4, kernel=kernel, eigen_solver=solver, random_state=0)
    ours = KernelPCA(**params).fit(X)
    theirs = sk_dec.KernelPCA(**params).fit(X)
    assert_allclose(ours.eigenvalues_, theirs.eigenvalues_, rtol=1e-8)
    _same_up_to_sign(ours.eigenvectors_, theirs.eigenvectors_, 1e-8)
    _same_up_to_sign(ours.transform(Xt), theirs.transform(Xt), 1e-8)
    _same_up_to_sign(ours.fit_transform(X), theirs.fit_transform(X), 1e-8)


@pytest.mark.parametrize("kernel", ["rbf", "poly"])
def test_randomized_matches_sklearn(kernel):
    X = _data(3)
    params = dict(n_components=3, kernel=kernel, eigen_solver="randomized", random_state=0)
    ours = KernelPCA(**params).fit(X)
    theirs = sk_dec.KernelPCA(**params).fit(X)
    assert_allclose(ours.eigenvalues_, theirs.eigenvalues_, rtol=1e-3)
    _same_up_to_sign(ours.transform(X), theirs.transform(X), 1e-3 * np.abs(theirs.transform(X)).max())


def test_linear_kernel_equals_pca():
    X = _data(4)
    kp = KernelPCA(3, kernel="linear").fit_transform(X)
    pc = PCA(3).fit_transform(X)
    _same_up_to_sign(kp, pc, 1e-8)


def test_precomputed_and_gamma():
    X = _data(5, n=60)
    gamma = 0.3
    K = np.exp(-gamma * ((X[:, None] - X[None]) ** 2).sum(-1))
    a = KernelPCA(3, kernel="precomputed").fit(K)
    b = KernelPCA(3, kernel="rbf", gamma=gamma).fit(X)
    assert_allclose(a.transform(K[:7]), b.transform(X[:7]), atol=1e-10)
    assert b.gamma_ == gamma
    assert KernelPCA(kernel="rbf").fit(X).gamma_ == 1 / X.shape[1]


def test_inverse_transform_matches_sklearn():
    X = _data(6, n=80)
    params = dict(n_components=3, kernel="rbf", gamma=0.2, fit_inverse_transform=True, alpha=0.1)
    ours = KernelPCA(**params).fit(X)
    theirs = sk_dec.KernelPCA(**params).fit(X)
    Z = theirs.transform(X)
    signs = np.sign((ours.transform(X) * Z).sum(axis=0))
    assert_allclose(ours.inverse_transform(Z * signs), theirs.inverse_transform(Z), atol=1e-8)
    with pytest.raises(NotFittedError):
        KernelPCA(2).fit(X).inverse_transform(Z[:, :2])


def test_remove_zero_eig_and_all_components():
    X = _data(7, n=40)
    ours = KernelPCA(kernel="linear").fit(X)
    theirs = sk_dec.KernelPCA(kernel="linear").fit(X)
    assert ours.eigenvalues_.shape == theirs.eigenvalues_.shape == (5,)
    assert KernelPCA(10, kernel="linear", remove_zero_eig=True).fit(X).eigenvalues_.shape == (5,)


def test_bad_input():
    X = _data(8, n=20)
    with pytest.raises(ValueError):
        KernelPCA(0).fit(X)
    with pytest.raises(ValueError, match="precomputed"):
        KernelPCA(2, kernel="precomputed", fit_inverse_transform=True).fit(X @ X.T)


def test_float32_outputs_and_lower_triangle_kernel():
    from classiclearn._kernels.gram import centre_lower, kernel_lower
    from classiclearn.metrics.pairwise import rbf_kernel
    from classiclearn.utils._threads import numba_threads

    X = _data(4, n=301)
    K = rbf_kernel(X, gamma=0.3)
    Kc = K - K.mean(axis=0)[None, :] - K.mean(axis=1)[:, None] + K.mean()
    low = np.tril_indices(len(X))
    results = []
    for n_threads in (1, 2):
        with numba_threads(n_threads):
            T = kernel_lower(X, "rbf", 0.3)
            assert_allclose(T[low], K[low], rtol=1e-14, atol=1e-15)
            col, _ = centre_lower(T)
        assert_allclose(col, K.mean(axis=0), rtol=1e-13)
        assert_allclose(T[low], Kc[low], atol=1e-13)
        results.append(T[low])
    np.testing.assert_array_equal(results[0], results[1])
    X32 = X.astype(np.float32)
    for est in (PCA(n_components=2), KernelPCA(n_components=2, kernel="rbf")):
        assert est.fit_transform(X32).dtype == np.float32
        assert est.transform(X32).dtype == np.float32
        assert est.transform(X).dtype == np.float64


@pytest.mark.parametrize("kernel", ["rbf", "linear"])
def test_kernel_products_from_the_build(kernel):
    # K V summed while the triangle is built (rbf; linear: symv) against dense
    # products; the fixed lanes make the sums independent of the thread count
    from classiclearn._kernels.gram import kernel_lower
    from classiclearn.metrics.pairwise import linear_kernel, rbf_kernel
    from classiclearn.utils._threads import numba_threads

    X = _data(5, n=203)
    K = rbf_kernel(X, gamma=0.2) if kernel == "rbf" else linear_kernel(X)
    V = np.vstack([np.ones(len(X)), np.random.default_rng(0).uniform(-1, 1, len(X))])
    results = []
    for n_threads in (1, 2):
        with numba_threads(n_threads):
            T, KV = kernel_lower(X, kernel, 0.2, V=V)
        assert KV.shape == V.shape
        assert_allclose(KV, V @ K, rtol=1e-13, atol=1e-12)
        low = np.tril_indices(len(X))
        assert_allclose(T[low], K[low], rtol=1e-13, atol=1e-13)
        results.append(KV)
    np.testing.assert_array_equal(results[0], results[1])
    T, KV = kernel_lower(X, kernel, 0.2, V=V[:0])
    assert KV.shape == (0, len(X))


@pytest.mark.parametrize("n", [2, 31, 32, 33, 97])
def test_rbf_triangle_tiles_edges(n):
    # row tiles of 32 (paired first/last, dealt to fixed lanes): sizes around a
    # tile against the dense kernel and dense products
    from classiclearn._kernels.gram import kernel_lower
    from classiclearn.metrics.pairwise import rbf_kernel

    X = _data(7, n=n)
    K = rbf_kernel(X, gamma=0.4)
    V = np.random.default_rng(1).normal(size=(3, n))
    T, KV = kernel_lower(X, "rbf", 0.4, V=V)
    low = np.tril_indices(n)
    assert_allclose(T[low], K[low], rtol=1e-14, atol=1e-15)
    assert_allclose(KV, V @ K, rtol=1e-13, atol=1e-13)


def test_lanczos_top_against_dense_eigh_and_breakdown():
    from classiclearn.decomposition._kernel_pca import _lanczos_top

    rng = np.random.default_rng(1)
    A = rng.normal(size=(120, 120))
    A = A @ A.T
    v0 = rng.uniform(-1, 1, 120)
    w, V = np.linalg.eigh(A)
    theta, Y = _lanczos_top(lambda v: A @ v, 120, 4, v0, 1e-13, 120)
    assert_allclose(theta, w[-4:], rtol=1e-11)
    _same_up_to_sign(Y, V[:, -4:], 1e-8)
    # rank 3: the Krylov space is exhausted after 3 steps, the pairs found are exact
    B = rng.normal(size=(50, 3))
    B = B @ B.T
    theta, Y = _lanczos_top(lambda v: B @ v, 50, 3, v0[:50], 1e-13, 50)
    w, V = np.linalg.eigh(B)
    assert_allclose(theta, w[-3:], rtol=1e-11)
    # not converged within the basis limit: None (the estimator then uses ARPACK)
    assert _lanczos_top(lambda v: A @ v, 120, 4, v0, 1e-13, 6) is None


def test_lanczos_gap_tolerance_close_and_degenerate_eigenvalues():
    # the gap-aware stop against a dense eigh: separated pairs within 1e-9, a
    # close pair (relative gap 1e-7) still held to the plain tolerance, and a
    # vector of a degenerate pair inside its eigenspace (a single-vector Krylov
    # space holds one vector of it, as with ARPACK)
    from classiclearn.decomposition._kernel_pca import _lanczos_top

    rng = np.random.default_rng(2)
    n = 300
    U, _ = np.linalg.qr(rng.normal(size=(n, n)))
    top = np.array([10.0, 9.0, 7.0, 7.0 - 7e-7, 5.0, 5.0, 4.0])
    lam = np.concatenate([top, 3.0 * rng.random(n - top.size) ** 2])
    A = (U * lam) @ U.T
    v0 = rng.uniform(-1, 1, n)
    for k in (3, 5):
        theta, Y = _lanczos_top(lambda v: A @ v, n, k, v0, 1e-12, n, gap_tol=1e-10)
        assert_allclose(theta[::-1], lam[:k], rtol=1e-12)
        assert_allclose(np.linalg.norm(A @ Y - Y * theta, axis=0), 0.0, atol=1e-9)
        Y = Y[:, ::-1]
        _same_up_to_sign(Y[:, :4], U[:, : min(k, 4)], 1e-9)
        if k == 5:
            inside = U[:, 4:6] @ (U[:, 4:6].T @ Y[:, 4])
            assert_allclose(inside, Y[:, 4], atol=1e-9)


def test_auto_lanczos_near_sklearn_on_close_spectrum():
    # duplicated samples give clustered kernel eigenvalues; 'auto' (Lanczos with
    # the gap-aware stop) still matches scikit-learn's ARPACK
    X = _data(6, n=110)
    X = np.vstack([X, X + 1e-4])
    params = dict(n_components=9, kernel="rbf", gamma=0.5, random_state=0)
    ours = KernelPCA(**params).fit(X)
    theirs = sk_dec.KernelPCA(**params).fit(X)
    assert_allclose(ours.eigenvalues_, theirs.eigenvalues_, rtol=1e-8)
    _same_up_to_sign(ours.eigenvectors_, theirs.eigenvectors_, 1e-8)
    _same_up_to_sign(ours.transform(X[:7]), theirs.transform(X[:7]), 1e-8)


def test_auto_falls_back_to_arpack(monkeypatch):
    import classiclearn.decomposition._kernel_pca as kp

    X = _data(4)
    ref = KernelPCA(n_components=3, kernel="rbf", random_state=0).fit(X)
    monkeypatch.setattr(kp, "_LANCZOS_MAX_DIM", 4)
    ours = KernelPCA(n_components=3, kernel="rbf", random_state=0).fit(X)
    theirs = sk_dec.KernelPCA(n_components=3, kernel="rbf", random_state=0).fit(X)
    assert_allclose(ours.eigenvalues_, theirs.eigenvalues_, rtol=1e-8)
    _same_up_to_sign(ours.eigenvectors_, ref.eigenvectors_, 1e-8)
    _same_up_to_sign(ours.transform(X[:9]), theirs.transform(X[:9]), 1e-8)


@pytest.mark.parametrize("n_samples", [2, 3, 4, 6, 9])
@pytest.mark.parametrize("n_components", [None, 1, 2, 3, 5, 12])
@pytest.mark.parametrize("kernel", ["rbf", "linear", "precomputed"])
def test_arpack_on_small_data_matches_sklearn(n_samples, n_components, kernel):
    # n_components >= n_samples: ARPACK cannot run, so (as scikit-learn, through
    # scipy's eigsh on a dense matrix) LAPACK solves it, with scipy's warning
    X = np.random.default_rng(n_samples).normal(size=(n_samples, 3))
    data = X @ X.T if kernel == "precomputed" else X
    params = dict(n_components=n_components, kernel=kernel, eigen_solver="arpack",
                  random_state=0)
    falls_back = n_components is None or n_components >= n_samples
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ours = KernelPCA(**params).fit(data)
    with warnings.catch_warnings(record=True) as caught_sk:
        warnings.simplefilter("always")
        theirs = sk_dec.KernelPCA(**params).fit(data)
    messages = [str(w.message) for w in caught if issubclass(w.category, RuntimeWarning)]
    messages_sk = [str(w.message) for w in caught_sk if issubclass(w.category, RuntimeWarning)]
    assert bool(messages) == falls_back == bool(messages_sk)
    assert ours.eigenvalues_.shape == theirs.eigenvalues_.shape
    assert_allclose(ours.eigenvalues_, theirs.eigenvalues_, rtol=1e-9, atol=1e-12)
    _same_up_to_sign(ours.transform(data), theirs.transform(data), 1e-9)


def _count_lanczos_runs(monkeypatch):
    import classiclearn.decomposition._kernel_pca as kp

    runs = []
    real = kp._lanczos_top

    def counted(*args, **kwargs):
        result = real(*args, **kwargs)
        runs.append(result is not None)
        return result

    monkeypatch.setattr(kp, "_lanczos_top", counted)
    return runs


@pytest.mark.parametrize("kernel", ["rbf", "linear", "poly", "sigmoid", "cosine"])
@pytest.mark.parametrize("n_components", [10, 24])
def test_auto_many_components_lanczos_matches_dense_sklearn(kernel, n_components, monkeypatch):
    # 'auto' with >= 10 components is scikit-learn's full LAPACK decomposition; with
    # at most a sixteenth of the eigenpairs wanted a Lanczos run gives the same pairs
    runs = _count_lanczos_runs(monkeypatch)
    X = _data(7, n=400, p=5) if kernel not in ("linear", "cosine") else (
        np.random.default_rng(7).normal(size=(400, 30)))
    Xt = X[:25] + 0.1
    ours = KernelPCA(n_components=n_components, kernel=kernel, random_state=3).fit(X)
    theirs = sk_dec.KernelPCA(n_components=n_components, kernel=kernel).fit(X)
    # the linear kernel of 30 columns (cosine: of the normalised rows): from the SVD of
    # X instead (no kernel, no Lanczos)
    assert runs == ([] if kernel in ("linear", "cosine") else [True])
    assert_allclose(ours.eigenvalues_, theirs.eigenvalues_, rtol=1e-9)
    scale = np.abs(theirs.transform(Xt)).max()
    _same_up_to_sign(ours.eigenvectors_, theirs.eigenvectors_, 1e-7)
    _same_up_to_sign(ours.transform(Xt), theirs.transform(Xt), 1e-8 * scale)
    # the stand-in for 'dense' does not depend on random_state
    other = KernelPCA(n_components=n_components, kernel=kernel, random_state=4).fit(X)
    assert_allclose(other.eigenvectors_, ours.eigenvectors_, rtol=0, atol=0)


def test_auto_many_components_stays_dense_where_lanczos_cannot_pay(monkeypatch):
    runs = _count_lanczos_runs(monkeypatch)
    X = _data(8, n=400, p=5)
    # more than a sixteenth of the eigenpairs; linear and cosine kernels of rank <= 5
    # asked for 24 components; a precomputed kernel: LAPACK, as scikit-learn
    for data, params in ((X, dict(n_components=30, kernel="rbf")),
                         (X, dict(n_components=24, kernel="linear")),
                         (X, dict(n_components=24, kernel="cosine")),
                         (X @ X.T, dict(n_components=20, kernel="precomputed"))):
        ours = KernelPCA(**params).fit(data)
        theirs = sk_dec.KernelPCA(**params).fit(data)
        assert_allclose(ours.eigenvalues_, theirs.eigenvalues_, rtol=1e-9, atol=1e-9)
    assert runs == []


def test_auto_many_components_falls_back_to_lapack(monkeypatch):
    import classiclearn.decomposition._kernel_pca as kp

    monkeypatch.setattr(kp, "_LANCZOS_MAX_DIM", 12)
    runs = _count_lanczos_runs(monkeypatch)
    builds = []
    real_kernel_lower = kp.kernel_lower
    monkeypatch.setattr(kp, "kernel_lower",
                        lambda *a, **k: builds.append(1) or real_kernel_lower(*a, **k))
    X = _data(9, n=400, p=5)
    ours = KernelPCA(n_components=12, kernel="rbf").fit(X)
    theirs = sk_dec.KernelPCA(n_components=12, kernel="rbf").fit(X)
    assert runs == [False]
    assert len(builds) == 1  # LAPACK takes over the triangle the Lanczos run built
    assert_allclose(ours.eigenvalues_, theirs.eigenvalues_, rtol=1e-9)
    _same_up_to_sign(ours.eigenvectors_, theirs.eigenvectors_, 1e-8)


@pytest.mark.parametrize("n_components", [4, None])
def test_float32_dense_solver_close_to_float64(n_components):
    # float32 input runs LAPACK's single-precision eigensolver (as scikit-learn) and
    # projects in float32: within float32 accuracy of the float64 fit
    rng = np.random.default_rng(0)
    X = rng.normal(size=(150, 5))
    kw = {"kernel": "rbf", "gamma": 0.2, "eigen_solver": "dense", "n_components": n_components}
    ref = KernelPCA(**kw).fit(X)
    got = KernelPCA(**kw).fit(X.astype(np.float32))
    assert got.eigenvalues_.dtype == np.float32
    top = min(4, ref.eigenvalues_.size)
    np.testing.assert_allclose(got.eigenvalues_[:top], ref.eigenvalues_[:top], rtol=1e-4)
    Z = got.transform(X[:30].astype(np.float32))
    assert Z.dtype == np.float32
    Z_ref = ref.transform(X[:30])
    np.testing.assert_allclose(np.abs(Z[:, :top]), np.abs(Z_ref[:, :top]), rtol=1e-3,
                               atol=1e-4 * np.abs(Z_ref[:, :top]).max())


@pytest.mark.parametrize("n_components", [3, 20, 30, 100])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_dense_top_eigenpairs_both_drivers_agree(n_components, dtype):
    # a quarter of the spectrum or more runs divide and conquer on all of it (then
    # sliced), fewer pairs run MRRR on the subset: the same pairs, ascending
    from classiclearn.decomposition._kernel_pca import _dense_top_eigenpairs

    rng = np.random.default_rng(3)
    A = rng.normal(size=(100, 100))
    A = (A + A.T).astype(dtype)
    w_ref, v_ref = np.linalg.eigh(A.astype(np.float64))
    w, v = _dense_top_eigenpairs(A.copy(), n_components)
    assert w.shape == (n_components,) and v.shape == (100, n_components)
    tol = 1e-10 if dtype == np.float64 else 2e-4
    assert_allclose(w, w_ref[-n_components:], rtol=tol, atol=tol * 20)
    _same_up_to_sign(v, v_ref[:, -n_components:], atol=tol * 100)


def test_all_components_match_sklearn_divide_and_conquer():
    X = _data(4, n=400)
    ours = KernelPCA(kernel="rbf", eigen_solver="dense").fit(X)
    theirs = sk_dec.KernelPCA(kernel="rbf", eigen_solver="dense").fit(X)
    top = 50
    assert_allclose(ours.eigenvalues_[:top], theirs.eigenvalues_[:top], rtol=1e-8)
    _same_up_to_sign(ours.eigenvectors_[:, :top], theirs.eigenvectors_[:, :top], 1e-7)
