"""The lane-parallel CSR products (``utils._sparse.csr_products``) against scipy's."""

import numba
import numpy as np
import pytest
import scipy.sparse as sp

from classiclearn._kernels import work
from classiclearn.utils._sparse import csr_products


def _csr(n, p, density, seed):
    rng = np.random.default_rng(seed)
    X = sp.random(n, p, density=density, random_state=seed, format="csr")
    X.data *= rng.normal(size=X.nnz)
    return sp.csr_array(X), rng


@pytest.mark.parametrize("lane_entries", [10**9, 300, 7])
@pytest.mark.parametrize("shape", [(500, 40), (30, 900)])
def test_csr_products_match_scipy_at_any_thread_count(lane_entries, shape, monkeypatch):
    # one lane, a few and eight lanes; tall and wide X (the dual ridge's case)
    monkeypatch.setattr(work, "ROW_LANE_ENTRIES", lane_entries)
    X, rng = _csr(*shape, 0.05, seed=shape[0])
    v, u = rng.normal(size=shape[1]), rng.normal(size=shape[0])
    u[::7] = 0.0  # rows skipped by the scatter
    product, t_product = csr_products(X)
    np.testing.assert_array_equal(product(v), X @ v)  # same sums in the same order
    Xtu = t_product(u)
    np.testing.assert_allclose(Xtu, X.T @ u, rtol=1e-13, atol=1e-14)
    if lane_entries == 10**9:
        np.testing.assert_array_equal(Xtu, X.T @ u)
    threads = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        np.testing.assert_array_equal(t_product(u), Xtu)
        np.testing.assert_array_equal(product(v), X @ v)
    finally:
        numba.set_num_threads(threads)


def test_csr_products_of_other_inputs_are_their_own_products():
    X = np.arange(6.0).reshape(2, 3)
    product, t_product = csr_products(X)
    np.testing.assert_array_equal(product(np.ones(3)), X @ np.ones(3))
    np.testing.assert_array_equal(t_product(np.ones(2)), X.T @ np.ones(2))
    Xc = sp.csc_array(X)
    product, t_product = csr_products(Xc)
    np.testing.assert_array_equal(product(np.ones(3)), X @ np.ones(3))


@pytest.mark.parametrize("lane_entries", [10**9, 50])
def test_csr_dot_vector_is_scipys_product_bit_for_bit(lane_entries, monkeypatch):
    # in lanes on numba's threads (small lanes) or by scipy (one lane): the same sums
    from classiclearn.utils._sparse import csr_dot_vector

    monkeypatch.setattr(work, "ROW_LANE_ENTRIES", lane_entries)
    monkeypatch.setattr(work, "SPARSE_PRODUCT_THREADED", 0 if lane_entries == 50 else 10**9)
    X, rng = _csr(700, 60, 0.1, seed=3)
    X.has_sorted_indices = False
    v = rng.normal(size=60)
    np.testing.assert_array_equal(csr_dot_vector(X, v), X @ v)
    threads = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        np.testing.assert_array_equal(csr_dot_vector(X, v), X @ v)
    finally:
        numba.set_num_threads(threads)


def test_sparse_linear_predictions_are_scipys_products(monkeypatch):
    # the linear models' sparse predict through the lanes: X @ coef + intercept exactly
    from classiclearn.linear_model import Lasso, LogisticRegression

    monkeypatch.setattr(work, "ROW_LANE_ENTRIES", 40)
    monkeypatch.setattr(work, "SPARSE_PRODUCT_THREADED", 0)
    X, rng = _csr(900, 50, 0.1, seed=4)
    y = X @ rng.normal(size=50) + rng.normal(size=900)
    reg = Lasso(alpha=0.001).fit(X, y)
    np.testing.assert_array_equal(reg.predict(X), X @ reg.coef_ + reg.intercept_)
    clf = LogisticRegression().fit(X, y > np.median(y))
    np.testing.assert_array_equal(clf.decision_function(X),
                                  (X @ clf.coef_.T)[:, 0] + clf.intercept_[0])
    multi = LogisticRegression().fit(X, np.digitize(y, np.quantile(y, [0.25, 0.5, 0.75])))
    np.testing.assert_array_equal(multi.decision_function(X),
                                  X @ multi.coef_.T + multi.intercept_)
    X32 = X.astype(np.float32)  # float32 X keeps scipy's own product
    np.testing.assert_array_equal(reg.predict(X32), X32 @ reg.coef_ + reg.intercept_)


@pytest.mark.parametrize("bad, message", [(np.nan, "NaN"), (np.inf, "infinity")])
@pytest.mark.parametrize("threaded", [0, 10**9])
def test_sparse_linear_predict_names_a_non_finite_entry(bad, message, threaded, monkeypatch):
    # sparse X is checked through its product's output: a bad entry in a column whose
    # coefficient is zero still reaches the output (no stored entry is skipped)
    from classiclearn.linear_model import Lasso, LogisticRegression

    monkeypatch.setattr(work, "SPARSE_PRODUCT_THREADED", threaded)
    X, rng = _csr(300, 40, 0.2, seed=5)
    y = X[:, [0]].toarray().ravel() + 0.01 * rng.normal(size=300)
    reg = Lasso(alpha=0.05).fit(X, y)
    assert (reg.coef_ == 0).any()
    zero_col = int(np.flatnonzero(reg.coef_ == 0)[0])
    bad_X = X.tolil()
    bad_X[3, zero_col] = bad
    bad_X = sp.csr_array(bad_X)
    clf = LogisticRegression().fit(X, y > np.median(y))
    y3 = np.digitize(y, np.quantile(y, [0.3, 0.6]))
    multi = LogisticRegression().fit(X, y3)
    for predict in (reg.predict, clf.predict, multi.predict):
        with pytest.raises(ValueError, match=message):
            predict(bad_X)


def test_a_ready_csr_is_predicted_as_it_is_and_anything_else_validated():
    # a CSR float X of the fitted width goes to the product unwrapped (matrix or array
    # container alike); other widths, empty X and a model fitted with names still
    # get validation's errors and warning
    import pandas as pd

    from classiclearn.linear_model import Lasso
    from classiclearn.utils._linear import validate_predict_X

    X, rng = _csr(200, 30, 0.2, seed=6)
    y = X @ rng.normal(size=30)
    reg = Lasso(alpha=0.001).fit(X, y)
    for container in (sp.csr_matrix, sp.csr_array):
        for dtype in (np.float64, np.float32):
            Xc = container(X, dtype=dtype)
            assert validate_predict_X(reg, Xc) is Xc
            np.testing.assert_allclose(reg.predict(Xc), X @ reg.coef_ + reg.intercept_,
                                       rtol=1e-5 if dtype == np.float32 else 1e-15)
    assert validate_predict_X(reg, sp.csc_array(X)).format == "csr"
    assert validate_predict_X(reg, sp.csr_array(X, dtype=np.int64)).dtype == np.float64
    with pytest.raises(ValueError, match="30 features"):
        reg.predict(sp.csr_array(X[:, :29]))
    with pytest.raises(ValueError, match="0 sample"):
        reg.predict(sp.csr_array((0, 30)))
    named = Lasso(alpha=0.001).fit(pd.DataFrame(X.toarray(), columns=[f"c{j}" for j in range(30)]),
                                   y)
    with pytest.warns(UserWarning, match="feature names"):
        named.predict(X)


@pytest.mark.parametrize("layout", ["sorted", "unsorted", "duplicates", "csc", "empty rows"])
def test_csr_gram_is_the_dense_gram(layout):
    from classiclearn.utils._sparse import csr_gram

    X, rng = _csr(300, 25, 0.15, seed=7)
    if layout == "empty rows":
        X = sp.csr_array(X.multiply((np.arange(300) % 3 != 0)[:, None]))
    if layout in ("unsorted", "duplicates"):
        coo = X.tocoo()
        order = rng.permutation(coo.nnz)
        rows, cols, vals = coo.row[order], coo.col[order], coo.data[order]
        if layout == "duplicates":  # split every stored value in two entries
            rows, cols = np.r_[rows, rows], np.r_[cols, cols]
            vals = np.r_[0.25 * vals, 0.75 * vals]
        by_row = np.argsort(rows, kind="stable")  # rows grouped, columns in any order
        indptr = np.r_[0, np.cumsum(np.bincount(rows, minlength=X.shape[0]))]
        X = sp.csr_array((vals[by_row], cols[by_row], indptr), shape=X.shape)
        assert not X.has_sorted_indices
        assert layout == "unsorted" or X.nnz == 2 * coo.nnz
    if layout == "csc":
        X = sp.csc_array(X)
    dense = X.toarray()
    np.testing.assert_allclose(csr_gram(X), dense.T @ dense, rtol=1e-12, atol=1e-12)
    w = rng.uniform(-1.0, 2.0, size=X.shape[0])  # any sign: Hessian or sample weights
    np.testing.assert_allclose(csr_gram(X, w), dense.T @ (w[:, None] * dense),
                               rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("layout", ["csr", "csc", "coo", "int64 indices", "empty rows"])
@pytest.mark.parametrize("weighted", [False, True])
def test_column_mean_var_and_row_norms_are_the_dense_ones(layout, weighted):
    from classiclearn.utils._sparse import column_mean_var, row_squared_norms

    X, rng = _csr(400, 30, 0.1, seed=11)
    X.data += 1e3  # a large mean: the variance is summed about it
    if layout == "empty rows":
        X = sp.csr_array(X.multiply((np.arange(400) % 4 != 0)[:, None]))
    if layout == "int64 indices":
        X.indices, X.indptr = X.indices.astype(np.int64), X.indptr.astype(np.int64)
    if layout in ("csc", "coo"):
        X = X.asformat(layout)
    before = X.copy()
    dense = X.toarray()
    w = rng.uniform(0.0, 3.0, size=400) if weighted else None
    mean, var = column_mean_var(X, w)
    expected_mean = np.average(dense, axis=0, weights=w)
    expected_var = np.average((dense - expected_mean) ** 2, axis=0, weights=w)
    np.testing.assert_allclose(mean, expected_mean, rtol=1e-13)
    np.testing.assert_allclose(var, expected_var, rtol=1e-10)
    np.testing.assert_allclose(row_squared_norms(X), (dense**2).sum(axis=1), rtol=1e-14)
    assert (X != before).nnz == 0  # the input is left as it was


@pytest.mark.parametrize("layout", ["csr", "csc", "coo"])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("centre", ["mean", "zero", "other"])
def test_ridge_preconditioner_diagonal_of_sparse_x_is_the_dense_one(layout, weighted, centre):
    # sum_i w_i (x_ij - m_j)^2 from the stored values about a given m (the weighted mean
    # with an intercept, zero without, anything a caller passes)
    from classiclearn.linear_model._ridge_solvers import centered_diagonal

    X, rng = _csr(300, 20, 0.2, seed=5)
    X.data += 50.0  # a large mean: no cancellation in the sparse pass
    w = rng.uniform(0.5, 2.0, size=300) if weighted else None
    dense = X.toarray()
    m = {"mean": np.average(dense, axis=0, weights=w), "zero": np.zeros(20),
         "other": rng.normal(size=20)}[centre]
    expected = np.average((dense - m) ** 2, axis=0, weights=w) * (
        300 if w is None else w.sum())
    before = m.copy()
    np.testing.assert_allclose(centered_diagonal(X.asformat(layout), m, w, False), expected,
                               rtol=1e-12)
    np.testing.assert_array_equal(m, before)  # the given centre is read, not written


@pytest.mark.parametrize("lanes", [1, 3])
@pytest.mark.parametrize("layout", ["csr", "csc", "coo", "csr_unsorted", "csr_int64"])
@pytest.mark.parametrize("value", [0.0, 2.5])
@pytest.mark.parametrize("shape", [(300, 17), (1, 4), (0, 3), (40, 0)])
def test_columns_with_constant_are_scipys_csc(monkeypatch, lanes, layout, value, shape):
    # lanes 3: CSR is converted in three row lanes on pool threads (X above 30 entries)
    from classiclearn.utils import _sparse
    from classiclearn.utils._sparse import csc_columns_with_constant

    if lanes > 1:
        monkeypatch.setattr(_sparse._work, "CSC_LANE_ENTRIES", 20)
        monkeypatch.setattr(_sparse, "available_cores", lambda: lanes)

    rng = np.random.default_rng(len(layout) + shape[0])
    X = sp.random_array(shape, density=0.3, format="csr", rng=rng, dtype=np.float32)
    if layout == "csr_unsorted":  # rows stored out of column order, as scipy allows
        order = np.concatenate([np.arange(a, b)[::-1] for a, b in
                                zip(X.indptr[:-1], X.indptr[1:])] + [np.zeros(0, int)])
        X = sp.csr_array((X.data[order], X.indices[order], X.indptr), shape=shape)
    elif layout == "csr_int64":
        X.indices, X.indptr = X.indices.astype(np.int64), X.indptr.astype(np.int64)
    elif layout != "csr":
        X = X.asformat(layout)
    before = X.copy()
    indptr, indices, data = csc_columns_with_constant(X, value)
    expected = sp.csc_array(sp.csr_array(X).astype(np.float64))
    expected.sort_indices()
    n, p = shape
    assert indptr.dtype == np.uintp and indices.dtype == np.uint32 and data.dtype == np.float64
    assert np.array_equal(indptr[:p + 1], expected.indptr)
    assert np.array_equal(indices[:expected.nnz], expected.indices)
    assert np.array_equal(data[:expected.nnz], expected.data)
    if value:
        assert indptr[-1] == expected.nnz + n and len(indptr) == p + 2
        assert np.array_equal(indices[expected.nnz:], np.arange(n))
        assert np.all(data[expected.nnz:] == value)
    else:
        assert len(indptr) == p + 1 and len(indices) == expected.nnz
    assert (X != before).nnz == 0  # the input is not modified


def _count_csc_lanes(monkeypatch, lane_entries):
    """Two cores and ``CSC_LANE_ENTRIES = lane_entries``; the returned list gets the
    number of lanes of each pooled run of ``csc_columns_with_constant``."""
    from classiclearn.utils import _sparse

    monkeypatch.setattr(_sparse._work, "CSC_LANE_ENTRIES", lane_entries)
    monkeypatch.setattr(_sparse, "available_cores", lambda: 2)
    lanes_run = []
    pooled = _sparse.pooled_map

    def counted(func, items, n_threads):
        items = list(items)
        lanes_run.append(len(items))
        return pooled(func, items, n_threads)

    monkeypatch.setattr(_sparse, "pooled_map", counted)
    return lanes_run


@pytest.mark.parametrize("dropped", [0, 1, 2, 7])
def test_columns_with_constant_fill_every_thread_whatever_the_entry_count(monkeypatch, dropped):
    # two threads: at least two lanes, also when the entries do not split evenly
    from classiclearn.utils import _sparse

    lanes_run = _count_csc_lanes(monkeypatch, 100)
    X = sp.random_array((200, 30), density=0.1, format="csr", rng=np.random.default_rng(3))
    X.data[:dropped] = 0.0
    X.eliminate_zeros()
    indptr, indices, data = _sparse.csc_columns_with_constant(X)
    expected = sp.csc_array(X)
    expected.sort_indices()
    assert lanes_run and min(lanes_run) >= 2
    assert np.array_equal(indptr, expected.indptr) and np.array_equal(indices, expected.indices)
    assert np.array_equal(data, expected.data)


@pytest.mark.parametrize("n_features,threaded", [(200, False), (1000, True)])
def test_columns_with_constant_go_in_lanes_from_a_quarter_of_the_entries_when_wide(
        monkeypatch, n_features, threaded):
    # 120 entries: below CSC_LANE_ENTRIES (400) on one thread, but over a quarter of it with
    # CSC_LANES_WIDE columns or more, whose scattered writes gain from two lanes
    from classiclearn.utils import _sparse

    lanes_run = _count_csc_lanes(monkeypatch, 400)
    rows = np.repeat(np.arange(60), 2)
    cols = np.arange(120) * 7 % n_features
    X = sp.csr_array((np.ones(120), (rows, cols)), shape=(60, n_features))
    indptr, indices, data = _sparse.csc_columns_with_constant(X)
    expected = sp.csc_array(X)
    expected.sort_indices()
    assert bool(lanes_run) == threaded
    assert np.array_equal(indptr, expected.indptr) and np.array_equal(indices, expected.indices)
    assert np.array_equal(data, expected.data)
