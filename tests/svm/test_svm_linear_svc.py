"""LinearSVC against scikit-learn (liblinear): the objectives are strictly convex
(L2) or have a unique minimiser on these data (L1), so coefficients agree to the
solver tolerance whatever the algorithm."""

import warnings

import numpy as np
import pytest

from classiclearn.exceptions import ConvergenceWarning
from classiclearn.svm import LinearSVC

sksvm = pytest.importorskip("sklearn.svm")
datasets = pytest.importorskip("sklearn.datasets")


def _data(n_classes, n=400, d=8, seed=0):
    X, y = datasets.make_classification(
        n_samples=n, n_features=d, n_informative=5, n_classes=n_classes, random_state=seed
    )
    return X, y


CONFIGS = [
    dict(),
    dict(dual=True),
    dict(dual=False),
    dict(loss="hinge"),
    dict(penalty="l1", dual=False),
    dict(fit_intercept=False),
    dict(C=10.0, intercept_scaling=3.0),
    dict(class_weight="balanced"),
    dict(class_weight={0: 2.0}, dual=True, loss="hinge"),
]


@pytest.mark.parametrize("n_classes", [2, 3])
@pytest.mark.parametrize("config", CONFIGS, ids=[str(c) for c in CONFIGS])
def test_linear_svc_parity(config, n_classes):
    X, y = _data(n_classes)
    params = dict(tol=1e-8, max_iter=200_000, random_state=0, **config)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        ours = LinearSVC(**params).fit(X, y)
        theirs = sksvm.LinearSVC(**params).fit(X, y)
    np.testing.assert_allclose(ours.coef_, theirs.coef_, atol=2e-5, rtol=1e-4)
    np.testing.assert_allclose(ours.intercept_, theirs.intercept_, atol=2e-5, rtol=1e-4)
    Xt, _ = _data(n_classes, n=300, seed=9)
    np.testing.assert_allclose(
        ours.decision_function(Xt), theirs.decision_function(Xt), atol=1e-4, rtol=1e-4
    )
    assert np.mean(ours.predict(Xt) == theirs.predict(Xt)) >= 0.995
    assert ours.coef_.shape == theirs.coef_.shape


@pytest.mark.parametrize("shape", [(2600, 40), (600, 150)])
def test_primal_newton_hessian_in_blocks_matches_sklearn(shape):
    # the compiled Newton method: more active rows than one Gram block (1,024), rows
    # leaving the active set (negative updates), LAPACK's Cholesky of the Hessian
    n, d = shape
    X, y = datasets.make_classification(n_samples=n, n_features=d, n_informative=10,
                                        flip_y=0.1, random_state=2)
    params = dict(dual=False, tol=1e-8, max_iter=1000, C=0.5)
    ours = LinearSVC(**params).fit(X, y)
    theirs = sksvm.LinearSVC(**params).fit(X, y)
    assert ours.n_iter_ >= 3
    np.testing.assert_allclose(ours.coef_, theirs.coef_, atol=2e-5, rtol=1e-4)
    np.testing.assert_allclose(ours.intercept_, theirs.intercept_, atol=2e-5, rtol=1e-4)


def test_linear_svc_sample_weight_and_wide_data():
    X, y = _data(2, n=60, d=100, seed=3)  # more features than samples: dual
    sw = np.random.default_rng(0).uniform(0.0, 3.0, size=y.size)
    params = dict(tol=1e-8, max_iter=100_000, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours = LinearSVC(**params).fit(X, y, sample_weight=sw)
        theirs = sksvm.LinearSVC(**params).fit(X, y, sample_weight=sw)
    np.testing.assert_allclose(ours.coef_, theirs.coef_, atol=1e-5, rtol=1e-4)


def test_linear_svc_string_labels_and_reproducible():
    X, y = _data(3)
    labels = np.array(["a", "b", "c"])[y]
    a = LinearSVC(dual=True, random_state=1, max_iter=50_000).fit(X, labels)
    b = LinearSVC(dual=True, random_state=1, max_iter=50_000).fit(X, labels)
    np.testing.assert_array_equal(a.coef_, b.coef_)
    assert set(a.predict(X)) <= {"a", "b", "c"}
    assert a.score(X, labels) > 0.6


def test_linear_svc_bad_combinations():
    X, y = _data(2)
    with pytest.raises(ValueError, match="penalty='l1' and loss='hinge'"):
        LinearSVC(penalty="l1", loss="hinge").fit(X, y)
    with pytest.raises(ValueError, match="dual=True"):
        LinearSVC(penalty="l1", dual=True).fit(X, y)
    with pytest.raises(ValueError, match="dual=False"):
        LinearSVC(loss="hinge", dual=False).fit(X, y)
    with pytest.raises(ValueError, match="C"):
        LinearSVC(C=0.0).fit(X, y)


@pytest.mark.parametrize("config", [dict(dual=True), dict(penalty="l1", dual=False),
                                    dict(dual=False)])
def test_linear_svc_max_iter_warns(config):
    X, y = _data(2)
    with pytest.warns(ConvergenceWarning):
        LinearSVC(max_iter=1, tol=1e-12, **config).fit(X, y)


def _mostly_zero(n, d, density, seed=0):
    X, y = datasets.make_classification(n_samples=n, n_features=d, n_informative=5,
                                        random_state=seed)
    rng = np.random.default_rng(seed)
    return np.where(rng.random(X.shape) < density, X, 0.0), y


@pytest.mark.parametrize("storage", ["dense", "csr"])
@pytest.mark.parametrize("density", [0.05, 0.6])
@pytest.mark.parametrize("config", [dict(), dict(dual=True), dict(dual=False, C=10.0),
                                    dict(penalty="l1", dual=False)],
                         ids=["auto", "dual", "primal", "l1"])
def test_linear_svc_fits_dense_or_csr_rows_as_sklearn(config, density, storage, monkeypatch):
    import scipy.sparse as sp

    from classiclearn.svm import _linear

    # every route at test sizes: dense X is checked for zeros, CSR may be made dense
    monkeypatch.setattr(_linear, "_SPARSE_FIT_ENTRIES", 0)
    X, y = _mostly_zero(600, 30, density)
    X = sp.csr_matrix(X) if storage == "csr" else X
    hessian = config.get("dual") is not True and "penalty" not in config
    # a 31 x 31 Hessian costs less than conjugate gradients; the coordinate descents
    # read CSR rows when they are mostly zero
    rows, dense_tron = _linear._fit_storage(X, hessian)
    assert sp.issparse(rows) == (not hessian and density < 0.25) and not dense_tron
    params = dict(tol=1e-8, max_iter=200_000, random_state=0, **config)
    ours = LinearSVC(**params).fit(X, y)
    theirs = sksvm.LinearSVC(**params).fit(X, y)
    np.testing.assert_allclose(ours.coef_, theirs.coef_, atol=2e-5, rtol=1e-4)
    np.testing.assert_allclose(ours.intercept_, theirs.intercept_, atol=2e-5, rtol=1e-4)


def test_sparse_primal_newton_takes_conjugate_gradients_past_the_hessian(monkeypatch):
    import scipy.sparse as sp

    from classiclearn.svm import _linear

    X, y = _mostly_zero(3000, 400, 0.02, seed=3)
    Xs = sp.csr_matrix(X)
    assert sp.issparse(_linear._fit_storage(Xs, True)[0])  # CG beats a 401 x 401 Hessian
    ours = LinearSVC(dual=False, tol=1e-8, max_iter=1000).fit(Xs, y)
    theirs = sksvm.LinearSVC(dual=False, tol=1e-8, max_iter=1000).fit(Xs, y)
    np.testing.assert_allclose(ours.coef_, theirs.coef_, atol=1e-4, rtol=1e-3)
    assert ours.n_iter_ < 50
    dense = LinearSVC(dual=False, tol=1e-8, max_iter=1000).fit(X, y)
    np.testing.assert_allclose(ours.coef_, dense.coef_, atol=1e-5, rtol=1e-4)


@pytest.mark.parametrize("bias", [0.0, 1.0, 2.5])
def test_sparse_rows_with_the_intercept_column_and_their_columns(bias):
    # the primal Newton method's CSR rows with the intercept column stored, and the L1
    # solver's CSC columns: the dense rows with the intercept column appended
    import scipy.sparse as sp

    from classiclearn.svm._linear import _Rows

    rng = np.random.default_rng(3)
    dense = np.where(rng.random((30, 7)) < 0.3, rng.normal(size=(30, 7)), 0.0)
    dense[[0, 4, 29]] = 0.0  # empty rows, first and last among them
    rows = _Rows(sp.csr_matrix(dense), bias)
    expected = np.hstack([dense, np.full((30, 1), bias)]) if bias > 0 else dense
    with_intercept = rows.with_intercept_csr()
    assert with_intercept.has_sorted_indices or bias == 0.0
    np.testing.assert_array_equal(with_intercept.toarray(), expected)
    _, indptr, indices, data = rows.columns()
    columns = sp.csc_array((data, indices, indptr), shape=expected.shape)
    np.testing.assert_array_equal(columns.toarray(), expected)


@pytest.mark.parametrize("C", [0.3, 3.0])
def test_l1_on_wide_sparse_data_shrinks_to_sklearns_solution(C):
    """Most features of wide sparse data sit at zero: the L1 solver drops them from its
    passes (liblinear's shrinking) and checks them all again before it stops."""
    import scipy.sparse as sp

    rng = np.random.default_rng(0)
    X = sp.random_array((300, 3000), density=0.01, format="csr", rng=rng)
    w = rng.normal(size=3000) * (rng.random(3000) < 0.05)
    y = (X @ w + 0.1 * rng.normal(size=300) > 0).astype(int)
    params = dict(penalty="l1", dual=False, C=C, random_state=0)
    tight = dict(tol=1e-10, max_iter=100_000)
    ours = LinearSVC(**params, **tight).fit(X, y)
    theirs = sksvm.LinearSVC(**params, **tight).fit(X, y)
    np.testing.assert_allclose(ours.coef_, theirs.coef_, atol=1e-5)
    np.testing.assert_allclose(ours.intercept_, theirs.intercept_, atol=1e-5)
    assert 0 < np.count_nonzero(ours.coef_) < 300
    # at the default tolerance both stop after a similar number of passes
    ours, theirs = LinearSVC(**params).fit(X, y), sksvm.LinearSVC(**params).fit(X, y)
    assert theirs.n_iter_ / 2 <= ours.n_iter_ <= 2 * theirs.n_iter_
    assert np.mean(ours.predict(X) == theirs.predict(X)) >= 0.99


@pytest.mark.parametrize("config", [dict(), dict(dual=True), dict(penalty="l1", dual=False),
                                    dict(dual=False, fit_intercept=False)])
def test_one_vs_rest_problems_in_threads_give_the_same_model(config, monkeypatch):
    from classiclearn.svm import _linear

    X, y = _data(4, n=300, d=12, seed=5)
    fits = []
    for entries in (np.inf, 0):
        monkeypatch.setattr(_linear, "_CLASS_THREADS_ENTRIES", entries)
        model = LinearSVC(random_state=3, **config).fit(X, y)
        fits.append((model.coef_, model.intercept_, model.n_iter_))
    np.testing.assert_array_equal(fits[0][0], fits[1][0])
    np.testing.assert_array_equal(fits[0][1], fits[1][1])
    assert fits[0][2] == fits[1][2]


def _csr_with_intercept(n, p, seed):
    import scipy.sparse as sparse

    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p))
    y = np.where(X[:, :5].sum(axis=1) + rng.normal(size=n) > 0, 1, 0)
    return X, y, sparse.csr_array(np.hstack([X, np.ones((n, 1))])), np.where(y == 1, 1.0, -1.0)


def _keep_on_the_conjugate_gradient_path(monkeypatch):
    # sparse X stays CSR (its Newton steps by conjugate gradients), not made dense for
    # the exact-Hessian path as small problems are
    from classiclearn.svm import _linear

    monkeypatch.setattr(_linear, "_CG_PASSES", 0)
    monkeypatch.setattr(_linear, "_CG_FIXED", 0)


@pytest.mark.parametrize("n, p, C", [(300, 250, 100.0), (200, 300, 1000.0)])
def test_trust_region_newton_is_liblinears(n, p, C):
    # the fallback of the conjugate-gradient Newton path runs liblinear's TRON: the same
    # iterates, so the same coefficients as scikit-learn's primal solver
    from sklearn.svm import LinearSVC as SkLinearSVC

    from classiclearn.svm import _linear

    X, y, Xa, signs = _csr_with_intercept(n, p, 0)
    C_i = np.full(n, C)
    eps = 1e-4 * min((signs > 0).sum(), (signs < 0).sum()) / n
    w, n_iter, settled = _linear._tron(Xa, signs, C_i, eps, 1000)
    assert settled
    ref = SkLinearSVC(C=C, dual=False, tol=1e-4, max_iter=1000).fit(X, y)
    np.testing.assert_allclose(w, np.r_[ref.coef_[0], ref.intercept_[0]], rtol=0, atol=1e-9)
    assert n_iter == ref.n_iter_  # steps counted as liblinear counts them
    # the dense rows give the same iterates as their CSR arrays
    w_dense, n_dense, _ = _linear._tron(Xa.toarray(), signs, C_i, eps, 1000)
    np.testing.assert_allclose(w_dense, w, rtol=0, atol=1e-10)
    assert n_dense == n_iter


def test_trust_region_stops_unsettled_at_max_iter():
    from classiclearn.svm import _linear

    _, _, Xa, signs = _csr_with_intercept(300, 250, 0)
    C_i = np.full(300, 100.0)
    w, n_iter, settled = _linear._tron(Xa, signs, C_i, 1e-12, 2)
    assert (n_iter, settled) == (2, False)
    full = _linear._tron(Xa, signs, C_i, 1e-12, 1000)[0]
    assert _linear._objective(w, Xa @ w, signs, C_i) > _linear._objective(
        full, Xa @ full, signs, C_i)


def test_duality_gap_bounds_the_suboptimality():
    from classiclearn.svm import _linear

    _, _, Xa, signs = _csr_with_intercept(300, 60, 1)
    C_i = np.full(300, 3.0)
    eps = 1e-12
    w_opt = _linear._tron(Xa, signs, C_i, eps, 1000)[0]
    best = _linear._objective(w_opt, Xa @ w_opt, signs, C_i)
    assert _linear._relative_duality_gap(Xa, w_opt, Xa @ w_opt, signs, C_i) < 1e-8
    rng = np.random.default_rng(2)
    for scale in (1e-3, 0.1, 1.0):
        w = w_opt + scale * rng.normal(size=w_opt.shape)
        value = _linear._objective(w, Xa @ w, signs, C_i)
        gap = _linear._relative_duality_gap(Xa, w, Xa @ w, signs, C_i)
        assert (value - best) / value <= gap + 1e-12


def test_newton_path_far_from_the_optimum_takes_the_trust_region_result(monkeypatch):
    # a conjugate-gradient Newton fit left with a large duality gap is redone by TRON and
    # the lower objective kept; forcing the fallback keeps the better of the two
    from classiclearn.svm import LinearSVC, _linear

    X, y, Xa, signs = _csr_with_intercept(300, 250, 3)
    import scipy.sparse as sparse

    _keep_on_the_conjugate_gradient_path(monkeypatch)
    monkeypatch.setattr(_linear, "_TRON_FIRST_CURVATURE", np.inf)  # the Newton steps first
    plain = LinearSVC(C=100.0, dual=False).fit(sparse.csr_array(X), y)
    monkeypatch.setattr(_linear, "_TRON_FALLBACK_GAP", -1.0)
    forced = LinearSVC(C=100.0, dual=False).fit(sparse.csr_array(X), y)
    C_i = np.full(300, 100.0)

    def objective(model):
        w = np.r_[model.coef_[0], model.intercept_[0]]
        return _linear._objective(w, Xa @ w, signs, C_i)

    assert objective(forced) <= objective(plain) * (1 + 1e-12)


def test_large_curvature_takes_the_trust_region_first(monkeypatch):
    # C times the rows' squared norms large: the trust-region method settles the problem
    # first (liblinear's iterates); in between: the Newton steps, with no trust-region
    # run; small: the trust-region method alone, up to max_iter
    import scipy.sparse as sparse

    from classiclearn.svm import _linear

    X, y, _, _ = _csr_with_intercept(300, 250, 4)
    _keep_on_the_conjugate_gradient_path(monkeypatch)
    runs = []
    real = _linear._tron
    monkeypatch.setattr(_linear, "_tron", lambda *a: runs.append(a[4]) or real(*a))
    ours = LinearSVC(C=100.0, dual=False).fit(sparse.csr_array(X), y)
    assert runs == [_linear._TRON_FIRST]
    ref = sksvm.LinearSVC(C=100.0, dual=False).fit(X, y)
    np.testing.assert_allclose(ours.coef_, ref.coef_, rtol=0, atol=1e-8)
    runs.clear()
    LinearSVC(C=1.0, dual=False).fit(sparse.csr_array(X), y)
    assert runs == []
    small = LinearSVC(C=0.01, dual=False, max_iter=500).fit(sparse.csr_array(X), y)
    assert runs == [500]
    ref = sksvm.LinearSVC(C=0.01, dual=False, max_iter=500).fit(X, y)
    np.testing.assert_allclose(small.coef_, ref.coef_, rtol=0, atol=1e-8)
    assert small.n_iter_ == ref.n_iter_


@pytest.mark.parametrize("sparse_rows", [False, True])
@pytest.mark.parametrize("C", [0.01, 1.0, 10.0])
def test_small_curvature_or_many_rows_per_feature_take_the_trust_region_alone(
        sparse_rows, C, monkeypatch):
    # the exact-Hessian path (dense, 300 x 150) and the Newton-CG path (CSR) give the
    # problem to the trust-region method alone where C ||x||^2 d / n is small (C=0.01,
    # 1) or the rows are at least four per feature (1,200 x 150 at every C): liblinear's
    # iterates, coefficients and step count; else (300 x 150, C=10) the Newton steps
    import scipy.sparse as sparse

    from classiclearn.svm import _linear

    _keep_on_the_conjugate_gradient_path(monkeypatch)
    runs = []
    real = _linear._tron
    monkeypatch.setattr(_linear, "_tron", lambda *a: runs.append(a[4]) or real(*a))
    for n in (300, 1200):
        X, y, _, _ = _csr_with_intercept(n, 150, 10)
        runs.clear()
        ours = LinearSVC(C=C, dual=False, max_iter=700).fit(
            sparse.csr_array(X) if sparse_rows else X, y)
        if n == 300 and C == 10.0:
            assert runs == []
            continue
        assert runs == [700]
        ref = sksvm.LinearSVC(C=C, dual=False, max_iter=700).fit(X, y)
        np.testing.assert_allclose(ours.coef_, ref.coef_, rtol=0, atol=1e-8)
        np.testing.assert_allclose(ours.intercept_, ref.intercept_, rtol=0, atol=1e-8)
        assert ours.n_iter_ == ref.n_iter_


def test_loss_curvature_of_csr_rows_with_empty_ones():
    import scipy.sparse as sparse

    from classiclearn.svm._linear import _loss_curvature

    rng = np.random.default_rng(5)
    X = rng.normal(size=(40, 12)) * (rng.random((40, 12)) < 0.3)
    X[[0, 7, 39]] = 0.0  # empty rows, first and last included
    C = rng.uniform(0.5, 2.0, 40)
    expected = float(np.mean(C * (X * X).sum(axis=1)))
    np.testing.assert_allclose(_loss_curvature(sparse.csr_array(X), C), expected, rtol=1e-12)
    np.testing.assert_allclose(_loss_curvature(X, C), expected, rtol=1e-12)


def test_large_curvature_on_the_exact_hessian_path_takes_the_trust_region_first(monkeypatch):
    # dense X small enough for the exact-Hessian Newton path: a large C still goes to the
    # trust-region method first (its Newton steps took 54 at 200 x 180, C=100)
    from classiclearn.svm import _linear

    X, y, _, _ = _csr_with_intercept(300, 150, 6)
    runs = []
    real = _linear._tron
    monkeypatch.setattr(_linear, "_tron", lambda *a: runs.append(a[4]) or real(*a))
    ours = LinearSVC(C=100.0, dual=False).fit(X, y)
    assert runs == [_linear._TRON_FIRST]
    ref = sksvm.LinearSVC(C=100.0, dual=False).fit(X, y)
    np.testing.assert_allclose(ours.coef_, ref.coef_, rtol=0, atol=1e-8)
    np.testing.assert_allclose(ours.intercept_, ref.intercept_, rtol=0, atol=1e-8)


@pytest.mark.parametrize("C", [0.01, 1.0, 100.0])
def test_dense_rows_past_the_hessian_take_liblinears_trust_region(C, monkeypatch):
    # dense X whose Hessian costs more than conjugate gradients keeps its dense rows for
    # the trust-region method: liblinear's iterates, so its coefficients and step count
    import scipy.sparse as sparse

    from classiclearn.svm import _linear

    _keep_on_the_conjugate_gradient_path(monkeypatch)
    monkeypatch.setattr(_linear, "_SPARSE_FIT_ENTRIES", 0)
    X, y, _, _ = _csr_with_intercept(300, 250, 7)
    rows, dense_tron = _linear._fit_storage(X, True)
    assert dense_tron and not sparse.issparse(rows)
    runs = []
    real = _linear._tron
    monkeypatch.setattr(_linear, "_tron", lambda *a: runs.append(a[0].shape) or real(*a))
    ours = LinearSVC(C=C, dual=False).fit(X, y)
    assert runs == [(300, 251)]  # once, on the dense rows with the intercept column
    ref = sksvm.LinearSVC(C=C, dual=False).fit(X, y)
    np.testing.assert_allclose(ours.coef_, ref.coef_, rtol=0, atol=1e-8)
    np.testing.assert_allclose(ours.intercept_, ref.intercept_, rtol=0, atol=1e-8)
    assert ours.n_iter_ == ref.n_iter_
    # mostly-zero dense X still goes to CSR rows
    Z = np.where(np.random.default_rng(8).random(X.shape) < 0.1, X, 0.0)
    rows, dense_tron = _linear._fit_storage(Z, True)
    assert sparse.issparse(rows) and not dense_tron


def test_dense_trust_region_left_unsettled_is_finished_by_newton_steps(monkeypatch):
    # max_iter too small for the trust-region method (it takes 424 steps here): the
    # Newton steps (a few) finish the problem from its point, and the warning says
    # max_iter was reached
    from classiclearn.exceptions import ConvergenceWarning
    from classiclearn.svm import _linear

    _keep_on_the_conjugate_gradient_path(monkeypatch)
    monkeypatch.setattr(_linear, "_SPARSE_FIT_ENTRIES", 0)
    X, y, Xa, signs = _csr_with_intercept(300, 250, 9)
    with pytest.warns(ConvergenceWarning):
        short = LinearSVC(C=1.0, dual=False, max_iter=20).fit(X, y)
    full = LinearSVC(C=1.0, dual=False, max_iter=10_000, tol=1e-10).fit(X, y)
    C_i = np.full(300, 1.0)

    def objective(model):
        w = np.r_[model.coef_[0], model.intercept_[0]]
        return _linear._objective(w, Xa @ w, signs, C_i)

    np.testing.assert_allclose(objective(short), objective(full), rtol=1e-6)


def test_one_vs_rest_trust_region_problems_share_one_conversion_of_csr_rows(monkeypatch):
    # four classes on CSR rows with many rows per feature: four trust-region problems,
    # one conversion of the index arrays; liblinear's coefficients
    import scipy.sparse as sparse

    from classiclearn.svm import _linear

    _keep_on_the_conjugate_gradient_path(monkeypatch)
    X, y = datasets.make_classification(n_samples=800, n_features=60, n_informative=8,
                                        n_classes=4, random_state=3)
    X = np.where(np.random.default_rng(3).random(X.shape) < 0.3, X, 0.0)
    conversions, runs = [], []
    real_rows, real_tron = _linear._tron_rows, _linear._tron
    monkeypatch.setattr(_linear, "_tron_rows", lambda A: conversions.append(1) or real_rows(A))
    monkeypatch.setattr(_linear, "_tron", lambda *a: runs.append(a[5] is not None)
                        or real_tron(*a))
    ours = LinearSVC(dual=False).fit(sparse.csr_array(X), y)
    assert conversions == [1] and runs == [True] * 4
    ref = sksvm.LinearSVC(dual=False).fit(X, y)
    np.testing.assert_allclose(ours.coef_, ref.coef_, rtol=0, atol=1e-8)
    np.testing.assert_allclose(ours.intercept_, ref.intercept_, rtol=0, atol=1e-8)
