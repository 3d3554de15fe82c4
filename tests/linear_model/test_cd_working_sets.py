"""Lasso / ElasticNet on CSR X by working sets of columns: the column subset, the
residual, parity with scikit-learn and with the whole-matrix solve, the fall-back."""

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn import linear_model as sk

from classiclearn._kernels.coordinates import csr_column_subset
from classiclearn.exceptions import ConvergenceWarning
from classiclearn.linear_model import ElasticNet, Lasso
from classiclearn.linear_model import _cd_kernels as cdk
from classiclearn.linear_model import _coordinate_descent as cd

TIGHT = {"tol": 1e-10, "max_iter": 100_000}
MODELS = {"Lasso": Lasso, "ElasticNet": ElasticNet}


def _rel(a, b):
    return np.max(np.abs(np.asarray(a) - b)) / max(np.max(np.abs(b)), 1e-12)


def _few_true(seed, n=400, p=300, density=0.1, n_true=5):
    """CSR X (normal values) and y from a handful of its columns."""
    rng = np.random.default_rng(seed)
    X = sp.random(n, p, density=density, format="csr", random_state=seed,
                  data_rvs=rng.standard_normal)
    beta = np.zeros(p)
    beta[rng.choice(p, n_true, replace=False)] = rng.normal(size=n_true) * 3
    return X, X @ beta + 0.5 * rng.normal(size=n)


@pytest.fixture
def calls(monkeypatch):
    """Working sets at any size; counts of the whole-matrix CSC copies and of the
    restricted solves."""
    monkeypatch.setattr(cd, "_WORKING_SET_MIN_ENTRIES", 0)
    counts = {"columns": 0, "solves": 0}
    columns, solve = cd._SparseProblem._columns, cdk.enet_cd_sparse

    def counted_columns(self):
        counts["columns"] += 1
        return columns(self)

    def counted_solve(*args):
        counts["solves"] += 1
        return solve(*args)

    monkeypatch.setattr(cd._SparseProblem, "_columns", counted_columns)
    monkeypatch.setattr(cd._k, "enet_cd_sparse", counted_solve)
    return counts


@pytest.mark.parametrize("index_dtype", [np.int32, np.int64])
@pytest.mark.parametrize("kept", ["none", "one", "some", "all"])
def test_column_subset_matches_scipy(index_dtype, kept):
    rng = np.random.default_rng(0)
    X = sp.random(60, 40, density=0.15, format="csr", random_state=1)
    X = sp.csr_array((X.data, X.indices.astype(index_dtype), X.indptr.astype(index_dtype)),
                     shape=X.shape)
    X[5] = 0.0  # an empty row
    X.eliminate_zeros()
    chosen = {"none": np.array([], dtype=np.intp), "one": np.array([7]),
              "some": np.sort(rng.choice(40, 13, replace=False)), "all": np.arange(40)}[kept]
    position = np.full(40, chosen.size, dtype=np.uintp)
    position[chosen] = np.arange(chosen.size, dtype=np.uintp)
    indptr, indices, data = csr_column_subset(X.indptr, X.indices, X.data, position,
                                              np.uintp(chosen.size))
    ref = sp.csc_array(X[:, chosen])
    ref.sort_indices()
    assert indptr.dtype == np.uintp and indices.dtype == np.uint32
    np.testing.assert_array_equal(indptr, ref.indptr)
    np.testing.assert_array_equal(indices, ref.indices)
    np.testing.assert_array_equal(data, ref.data)


def test_column_subset_sorts_rows_of_unsorted_csr():
    X = sp.csr_array(np.array([[1.0, 2.0, 0.0], [0.0, 3.0, 4.0], [5.0, 0.0, 6.0]]))
    unsorted = sp.csr_array((X.data[[1, 0, 3, 2, 5, 4]], X.indices[[1, 0, 3, 2, 5, 4]],
                             X.indptr), shape=X.shape)
    position = np.array([0, 2, 1], dtype=np.uintp)
    indptr, indices, data = csr_column_subset(unsorted.indptr, unsorted.indices,
                                              unsorted.data, position, np.uintp(2))
    assert indptr.tolist() == [0, 2, 4]
    assert indices.tolist() == [0, 2, 1, 2]
    assert data.tolist() == [1.0, 5.0, 4.0, 6.0]


def test_centred_residual_matches_dense():
    rng = np.random.default_rng(2)
    X = sp.random(30, 8, density=0.3, format="csc", random_state=3)
    root = np.sqrt(rng.uniform(0.5, 2.0, size=30))
    mu = rng.normal(size=8)
    w = np.where(rng.random(8) < 0.5, rng.normal(size=8), 0.0)
    B = rng.normal(size=30)
    S = X.data * root[X.indices]
    r = cdk.sparse_centred_residual(X.indptr.astype(np.uintp), X.indices.astype(np.uint32),
                                    S, w, mu, B, root)
    A = root[:, None] * (X.toarray() - mu)
    np.testing.assert_allclose(r, B - A @ w, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("cls,kw", [("Lasso", {"alpha": 0.1}),
                                    ("ElasticNet", {"alpha": 0.1, "l1_ratio": 0.5}),
                                    ("Lasso", {"alpha": 0.05, "positive": True})])
def test_working_sets_match_sklearn(calls, fit_intercept, weighted, cls, kw):
    # few columns violate at w = 0: the fit never makes the whole CSC copy, and reaches
    # scikit-learn's solution with its gap test met on the full problem
    X, y = _few_true(0)
    y = y + 2.0 if fit_intercept else y
    sw = np.random.default_rng(1).uniform(0.5, 2.0, size=X.shape[0]) if weighted else None
    ours = MODELS[cls](fit_intercept=fit_intercept, **kw, **TIGHT).fit(X, y, sample_weight=sw)
    ref = getattr(sk, cls)(fit_intercept=fit_intercept, **kw, **TIGHT).fit(
        X, y, sample_weight=sw)
    assert calls["columns"] == 0 and calls["solves"] >= 1
    assert 0 < np.count_nonzero(ours.coef_) < X.shape[1] // 4
    np.testing.assert_array_equal(ours.coef_ != 0, ref.coef_ != 0)
    assert _rel(ours.coef_, ref.coef_) < 1e-6
    assert abs(ours.intercept_ - ref.intercept_) < 1e-6 * max(abs(ref.intercept_), 1.0)
    assert ours.dual_gap_ <= ref.dual_gap_ * 10 + 1e-12


def _suppressor(seed, n=500):
    """y depends on x0 - x1 where x1 alone is uncorrelated with y: x1 violates its
    optimality condition only once x0 is in the model."""
    rng = np.random.default_rng(seed)
    z, e = rng.normal(size=n), rng.normal(size=n)
    noise = rng.normal(size=(n, 60)) * (rng.random((n, 60)) < 0.1)
    X = sp.csr_array(np.column_stack([z + e, e, noise]))
    return X, z + 0.01 * rng.normal(size=n)


def test_rounds_add_columns_that_violate_later(calls):
    X, y = _suppressor(3)
    assert abs(X[:, [1]].toarray().ravel() @ (y - y.mean())) < 0.15 * len(y)
    ours = Lasso(alpha=0.15, **TIGHT).fit(X, y)
    ref = sk.Lasso(alpha=0.15, **TIGHT).fit(X, y)
    assert ours.coef_[1] < 0.0  # joined in a later round
    assert calls["columns"] == 0 and calls["solves"] >= 2
    assert _rel(ours.coef_, ref.coef_) < 1e-6


def test_working_sets_agree_with_the_whole_matrix_solve(monkeypatch):
    X, y = _few_true(4, n=300, p=2000, density=0.05, n_true=8)
    whole = ElasticNet(alpha=0.05, l1_ratio=0.7, **TIGHT).fit(X, y)
    monkeypatch.setattr(cd, "_WORKING_SET_MIN_ENTRIES", 0)
    sets = ElasticNet(alpha=0.05, l1_ratio=0.7, **TIGHT).fit(X, y)
    np.testing.assert_array_equal(sets.coef_ != 0, whole.coef_ != 0)
    assert _rel(sets.coef_, whole.coef_) < 1e-7


def test_many_violators_fall_back_to_the_whole_matrix(calls):
    # a small alpha: most columns violate at w = 0, more than a quarter of them
    X, y = _few_true(5, n_true=200)
    g = np.abs(X.T @ (y - y.mean()))
    assert np.mean(g > 1e-3 * X.shape[0]) > 1 / cd._WORKING_SET_SHARE
    ours = Lasso(alpha=1e-3, **TIGHT).fit(X, y)
    ref = sk.Lasso(alpha=1e-3, **TIGHT).fit(X, y)
    assert calls["columns"] == 1
    assert _rel(ours.coef_, ref.coef_) < 1e-6


def test_default_threshold_uses_sets_on_large_csr_only(monkeypatch):
    counts = {"columns": 0}
    columns = cd._SparseProblem._columns

    def counted_columns(self):
        counts["columns"] += 1
        return columns(self)

    monkeypatch.setattr(cd._SparseProblem, "_columns", counted_columns)
    small, y_small = _few_true(6)  # 12,000 stored entries
    Lasso(alpha=0.1).fit(small, y_small)
    assert counts["columns"] == 1
    large, y_large = _few_true(6, n=2000, p=500, density=0.06)  # 60,000
    assert large.nnz >= cd._WORKING_SET_MIN_ENTRIES
    Lasso(alpha=0.1).fit(large, y_large)
    Lasso(alpha=0.1).fit(sp.csc_array(large), y_large)  # CSC is read as it is
    Lasso(alpha=0.1, selection="random", random_state=0).fit(large, y_large)
    assert counts["columns"] == 3


def test_warm_start_multi_target_and_iteration_limit(calls):
    X, y = _few_true(7)
    Y = np.column_stack([y, X @ np.r_[np.zeros(299), 5.0] + 1.0])
    ours = Lasso(alpha=0.1, **TIGHT).fit(X, Y)
    ref = sk.Lasso(alpha=0.1, **TIGHT).fit(X, Y)
    assert _rel(ours.coef_, ref.coef_) < 1e-6
    model = Lasso(alpha=0.1, warm_start=True, **TIGHT).fit(X, y)
    again = model.fit(X, y)
    assert again.n_iter_ <= 2  # starts at the solution: one round, one full product
    assert calls["columns"] == 0
    with pytest.warns(ConvergenceWarning):
        capped = Lasso(alpha=0.1, tol=0.0, max_iter=2).fit(X, y)
    assert capped.n_iter_ == 2
