"""KernelPCA's linear kernel on tall X (at most half as many columns as rows, or more
of them for many components): the eigenpairs of the centred kernel from the centred X's
columns, never forming the n x n kernel; projections of new rows as (X - mean) W
whichever route fitted; checked against scikit-learn's eigendecomposition of the
kernel."""

import functools

import numpy as np
import pytest
import scipy.sparse as sp
from numpy.testing import assert_allclose

from classiclearn.decomposition import KernelPCA
from signs import assert_same_up_to_sign  # noqa: E402

sk_dec = pytest.importorskip("sklearn.decomposition")


_same_up_to_sign = functools.partial(assert_same_up_to_sign, axis=0)


def _tall(seed, n, p, rank=None):
    rng = np.random.default_rng(seed)
    k = p if rank is None else rank
    scales = np.geomspace(6.0, 0.3, k)
    X = (rng.normal(size=(n, k)) * scales) @ rng.normal(size=(k, p))
    return X + np.linspace(-3.0, 8.0, p)  # an offset mean the centring removes


@pytest.fixture
def no_kernel(monkeypatch):
    """Fails any fit that forms the n x n kernel (transform's n_query x n is allowed)."""
    real = KernelPCA._get_kernel

    def guarded(self, X, Y=None):
        assert Y is not None, "the training kernel was formed"
        return real(self, X, Y)

    monkeypatch.setattr(KernelPCA, "_get_kernel", guarded)


@pytest.mark.parametrize("n_components", [None, 1, 4, 12])
@pytest.mark.parametrize("shape", [(60, 12), (400, 12), (1500, 30)])
def test_linear_kernel_from_the_svd_matches_sklearn(no_kernel, n_components, shape):
    X = _tall(0, *shape)
    Xt = _tall(1, 40, shape[1]) * 1.1
    ours = KernelPCA(n_components).fit(X)
    theirs = sk_dec.KernelPCA(n_components).fit(X)
    assert ours.eigenvalues_.shape == theirs.eigenvalues_.shape
    assert_allclose(ours.eigenvalues_, theirs.eigenvalues_, rtol=1e-9)
    _same_up_to_sign(ours.eigenvectors_, theirs.eigenvectors_, 1e-8)
    # the signs follow scikit-learn's rule, not only up to sign
    assert_allclose(ours.eigenvectors_, theirs.eigenvectors_, atol=1e-8, rtol=0)
    scale = np.abs(theirs.transform(Xt)).max()
    assert_allclose(ours.transform(Xt), theirs.transform(Xt), atol=1e-9 * scale, rtol=0)
    assert_allclose(KernelPCA(n_components).fit_transform(X), theirs.fit_transform(X),
                    atol=1e-9 * scale, rtol=0)


@pytest.mark.parametrize("remove_zero_eig", [False, True])
@pytest.mark.parametrize("n_components", [None, 6])
def test_rank_deficient_x_drops_or_keeps_the_zero_eigenvalues(no_kernel, remove_zero_eig,
                                                              n_components):
    X = _tall(2, 300, 10, rank=4)  # 10 columns of rank 4
    Xt = _tall(3, 20, 10, rank=4)
    ours = KernelPCA(n_components, remove_zero_eig=remove_zero_eig).fit(X)
    theirs = sk_dec.KernelPCA(n_components, remove_zero_eig=remove_zero_eig).fit(X)
    assert ours.eigenvalues_.shape == theirs.eigenvalues_.shape
    expected = 4 if (remove_zero_eig or n_components is None) else 6
    assert ours.eigenvalues_.shape == (expected,)
    top = theirs.eigenvalues_[0]
    assert_allclose(ours.eigenvalues_, theirs.eigenvalues_, rtol=1e-9, atol=1e-12 * top)
    _same_up_to_sign(ours.eigenvectors_[:, :4], theirs.eigenvectors_[:, :4], 1e-8)
    # the directions of no variance are orthonormal and project to zero, as theirs
    E = ours.eigenvectors_
    assert_allclose(E.T @ E, np.eye(expected), atol=1e-10)
    scale = np.abs(theirs.transform(Xt)).max()
    assert_allclose(ours.transform(Xt), theirs.transform(Xt), atol=1e-9 * scale, rtol=0)


def test_inverse_transform_after_the_svd_route():
    X = _tall(4, 200, 8)
    ours = KernelPCA(5, fit_inverse_transform=True).fit(X)
    theirs = sk_dec.KernelPCA(5, fit_inverse_transform=True).fit(X)
    Z = theirs.transform(X[:30])
    assert_allclose(ours.inverse_transform(Z), theirs.inverse_transform(Z), rtol=1e-7,
                    atol=1e-9)


@pytest.fixture
def solve_routes(monkeypatch):
    routes = []
    for name in ("_solve_on_features", "_solve_on_kernel"):
        real = getattr(KernelPCA, name)
        monkeypatch.setattr(KernelPCA, name, lambda self, *a, real=real, name=name:
                            routes.append(name) or real(self, *a))
    return routes


def test_the_kernel_is_solved_where_the_svd_route_does_not_apply(solve_routes):
    routes = solve_routes
    tall = _tall(5, 300, 10)
    for X, params in ((tall, dict(n_components=3, eigen_solver="dense")),  # asked for
                      (tall, dict(n_components=12)),  # more components than columns
                      (tall.astype(np.float32), dict(n_components=3)),  # single precision
                      (_tall(6, 30, 20), dict(n_components=3)),  # wide X
                      (tall, dict(n_components=3, kernel="rbf"))):
        routes.clear()
        ours = KernelPCA(**params).fit(X)
        theirs = sk_dec.KernelPCA(**params).fit(X)
        assert routes == ["_solve_on_kernel"], params
        assert_allclose(ours.eigenvalues_, theirs.eigenvalues_, rtol=1e-4,
                        atol=1e-9 * theirs.eigenvalues_[0])
    routes.clear()
    KernelPCA(3).fit(tall)
    assert routes == ["_solve_on_features"]


@pytest.mark.parametrize("shape, n_components, route", [
    ((200, 110), 20, "_solve_on_features"),  # 0.55 n columns, many components
    ((200, 110), None, "_solve_on_features"),
    ((200, 110), 5, "_solve_on_kernel"),  # few: Lanczos on the kernel
    ((200, 130), 20, "_solve_on_kernel"),  # 0.65 n columns
    ((200, 180), 100, "_solve_on_features"),  # 100 components or more, up to n columns
    ((200, 180), None, "_solve_on_kernel"),
])
def test_more_columns_than_half_the_rows(solve_routes, shape, n_components, route):
    X = _tall(7, *shape)
    Xt = _tall(8, 30, shape[1])
    ours = KernelPCA(n_components).fit(X)
    theirs = sk_dec.KernelPCA(n_components).fit(X)
    assert solve_routes == [route]
    assert ours.eigenvalues_.shape == theirs.eigenvalues_.shape
    top = theirs.eigenvalues_[0]
    assert_allclose(ours.eigenvalues_, theirs.eigenvalues_, rtol=1e-8, atol=1e-10 * top)
    # the well-separated leading components (the trailing ones of a full spectrum are
    # close together: their vectors are only defined up to rotations)
    lead = min(5, ours.eigenvalues_.shape[0])
    assert_allclose(ours.eigenvectors_[:, :lead], theirs.eigenvectors_[:, :lead], atol=1e-7,
                    rtol=0)
    pt, po = theirs.transform(Xt)[:, :lead], ours.transform(Xt)[:, :lead]
    assert_allclose(po, pt, atol=1e-8 * np.abs(pt).max(), rtol=0)


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("eigen_solver", ["auto", "dense", "arpack"])
def test_projections_from_the_columns_after_the_kernel_route(solve_routes, sparse,
                                                            eigen_solver):
    X = _tall(9, 120, 90)
    Xt = _tall(10, 25, 90)
    if sparse:
        rng = np.random.default_rng(11)
        X = sp.csr_matrix(np.where(rng.random(X.shape) < 0.3, X, 0.0))
        Xt = sp.csr_matrix(np.where(rng.random(Xt.shape) < 0.3, Xt, 0.0))
    ours = KernelPCA(4, eigen_solver=eigen_solver, random_state=0).fit(X)
    theirs = sk_dec.KernelPCA(4, eigen_solver=eigen_solver, random_state=0).fit(X)
    assert solve_routes == ["_solve_on_kernel"]
    assert ours._feature_axes is not None
    for rows in (Xt, X[:20]):
        pt = theirs.transform(rows)
        _same_up_to_sign(ours.transform(rows), pt, 1e-8 * np.abs(pt).max())
    assert_allclose(ours.eigenvalues_, theirs.eigenvalues_, rtol=1e-8)


def _sparse_tall(seed, n, p, offset=0.0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p)) * np.geomspace(5.0, 0.5, p) + offset
    return sp.csr_matrix(np.where(rng.random((n, p)) < 0.3, X, 0.0))


@pytest.mark.parametrize("n_components", [None, 3, 10])
@pytest.mark.parametrize("shape", [(150, 20), (500, 40)])
def test_sparse_x_from_its_columns_matches_sklearn(solve_routes, n_components, shape):
    X = _sparse_tall(12, *shape, offset=1.0)
    Xt = _sparse_tall(13, 30, shape[1], offset=1.0)
    X_copy = X.copy()
    ours = KernelPCA(n_components).fit(X)
    theirs = sk_dec.KernelPCA(n_components).fit(X)
    assert solve_routes == ["_solve_on_features"]
    assert ours.eigenvalues_.shape == theirs.eigenvalues_.shape
    assert_allclose(ours.eigenvalues_, theirs.eigenvalues_, rtol=1e-9)
    assert_allclose(ours.eigenvectors_, theirs.eigenvectors_, atol=1e-8, rtol=0)
    for rows in (Xt, Xt.toarray(), X):
        pt = theirs.transform(rows)
        assert_allclose(ours.transform(rows), pt, atol=1e-9 * np.abs(pt).max(), rtol=0)
    assert (X != X_copy).nnz == 0


def test_sparse_x_falls_back_to_the_kernel_where_the_centring_cancels(solve_routes):
    # rank-deficient: the trailing eigenvalues are rounding, not wanted with
    # n_components=None (dropped), but wanted when asked for all of them
    rng = np.random.default_rng(14)
    low_rank = rng.normal(size=(200, 3)) @ rng.normal(size=(3, 12))
    X = sp.csr_matrix(np.where(rng.random((200, 12)) < 0.5, low_rank, 0.0)[:, :12])
    X = sp.hstack([X, X[:, :4]]).tocsr()  # 16 columns of rank <= 12
    ours = KernelPCA().fit(X)
    theirs = sk_dec.KernelPCA().fit(X)
    assert solve_routes == ["_solve_on_features"]
    assert_allclose(ours.eigenvalues_, theirs.eigenvalues_, rtol=1e-8)
    solve_routes.clear()
    KernelPCA(16, remove_zero_eig=False).fit(X)
    assert solve_routes == ["_solve_on_features", "_solve_on_kernel"]
    # a large offset mean against the spread: X' X - n mean mean' loses the digits
    solve_routes.clear()
    rng = np.random.default_rng(15)
    Y = sp.csr_matrix(1e5 + rng.normal(size=(300, 10)))
    ours = KernelPCA(3).fit(Y)
    theirs = sk_dec.KernelPCA(3).fit(Y)
    assert solve_routes == ["_solve_on_features", "_solve_on_kernel"]
    # the kernel of rows 1e5 from the origin carries ~1e11 against eigenvalues of ~350:
    # both sides' centred kernels keep about 1e-6 of them (1.6e-6 apart in one CI run)
    assert_allclose(ours.eigenvalues_, theirs.eigenvalues_, rtol=1e-5)


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("shape, n_components", [((300, 12), 4), ((300, 12), None),
                                                 ((120, 90), 4)])
def test_cosine_kernel_is_the_linear_kernel_of_the_normalised_rows(sparse, shape,
                                                                   n_components):
    X = _tall(16, *shape)
    X[5] = 0.0  # a zero row: a zero row of the kernel, as scikit-learn's
    Xt = _tall(17, 20, shape[1])
    Xt[3] = 0.0
    if sparse:
        rng = np.random.default_rng(18)
        X = sp.csr_matrix(np.where(rng.random(X.shape) < 0.4, X, 0.0))
        Xt = sp.csr_matrix(np.where(rng.random(Xt.shape) < 0.4, Xt, 0.0))
    ours = KernelPCA(n_components, kernel="cosine").fit(X)
    theirs = sk_dec.KernelPCA(n_components, kernel="cosine").fit(X)
    assert ours._feature_axes is not None
    assert ours.eigenvalues_.shape == theirs.eigenvalues_.shape
    assert_allclose(ours.eigenvalues_, theirs.eigenvalues_, rtol=1e-8)
    lead = min(4, ours.eigenvalues_.shape[0])
    for rows in (Xt, X[:20]):
        pt = theirs.transform(rows)[:, :lead]
        _same_up_to_sign(ours.transform(rows)[:, :lead], pt, 1e-8 * np.abs(pt).max())


@pytest.mark.parametrize("n_components", [5, 10, 40])
def test_cosine_kernel_route_builds_the_linear_kernel_of_the_unit_rows(n_components,
                                                                       monkeypatch):
    # more columns than the column route takes (450 of 500 rows): the kernel of the
    # normalised rows is built in one triangle (Lanczos, or LAPACK for 40 components)
    import classiclearn.decomposition._kernel_pca as kp

    built = []
    original = kp.kernel_lower

    def recorded(X, kernel, gamma, V=None):
        built.append(kernel)
        return original(X, kernel, gamma, V=V)

    monkeypatch.setattr(kp, "kernel_lower", recorded)
    X = _tall(21, 500, 450)
    X[7] = 0.0
    Xt = _tall(22, 30, 450)
    ours = KernelPCA(n_components, kernel="cosine").fit(X)
    theirs = sk_dec.KernelPCA(n_components, kernel="cosine").fit(X)
    assert built and set(built) == {"linear"}
    assert_allclose(ours.eigenvalues_, theirs.eigenvalues_, rtol=1e-8)
    pt = theirs.transform(Xt)
    _same_up_to_sign(ours.transform(Xt), pt, 1e-7 * np.abs(pt).max())


@pytest.mark.parametrize("case", ["sparse_wide", "float32_dense_solver"])
def test_cosine_kernel_of_the_full_kernel_route_normalises_the_rows_once(case,
                                                                         monkeypatch):
    # sparse X with more columns than rows, and float32 X with eigen_solver="dense", build
    # the whole kernel: the linear kernel of the unit rows made once, as scikit-learn's
    # cosine kernel
    import classiclearn.decomposition._kernel_pca as kp

    kernels = []
    original = kp.kernel_matrix

    def recorded(X, Y, kernel, **kwargs):
        kernels.append(kernel)
        return original(X, Y, kernel, **kwargs)

    monkeypatch.setattr(kp, "kernel_matrix", recorded)
    rng = np.random.default_rng(23)
    if case == "sparse_wide":
        X = sp.csr_matrix(np.where(rng.random((120, 300)) < 0.2,
                                   rng.normal(size=(120, 300)), 0.0))
        params = dict(n_components=4)
    else:
        X = _tall(24, 300, 12).astype(np.float32)
        params = dict(n_components=4, eigen_solver="dense")
    ours = KernelPCA(kernel="cosine", **params).fit(X)
    theirs = sk_dec.KernelPCA(kernel="cosine", **params).fit(X)
    assert kernels[:1] == ["linear"]
    tol = 1e-8 if case == "sparse_wide" else 1e-4
    assert_allclose(ours.eigenvalues_, theirs.eigenvalues_, rtol=tol)
    pt = theirs.transform(X[:20])
    _same_up_to_sign(ours.transform(X[:20]), pt, tol * np.abs(pt).max())
