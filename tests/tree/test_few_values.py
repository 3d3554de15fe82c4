"""Squared-error nodes of a feature with few distinct values: their sums per value in one
pass (``_split_kernels.few_value_sums``) instead of a sort."""

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal

from classiclearn._kernels.sorting import FEW_VALUES
from classiclearn.tree import DecisionTreeRegressor
from classiclearn.tree._split_kernels import FEW_LANES, FEW_SLOTS, ROW_GATHER_MAX, few_value_sums


def _sums(X, f, samples, a, b, y, w):
    Xt = np.ascontiguousarray(X.T)
    table = np.full((FEW_LANES * FEW_VALUES, 4), np.nan)
    slots = np.empty((2, FEW_SLOTS), dtype=np.intp)
    k = few_value_sums(Xt, X, np.intp(f), samples, np.intp(a), np.intp(b), y, w, table, slots)
    return k, table


@pytest.mark.parametrize("n_values", [1, 2, 5, FEW_VALUES])
@pytest.mark.parametrize("n_rows", [40, ROW_GATHER_MAX + 100])
def test_few_value_sums_equal_the_sums_per_value_in_value_order(n_values, n_rows):
    rng = np.random.default_rng(n_values)
    levels = rng.normal(size=n_values).astype(np.float32)
    X = np.ascontiguousarray(levels[rng.integers(0, n_values, size=(n_rows, 3))])
    y = rng.normal(size=(n_rows, 1))
    w = rng.integers(1, 4, size=n_rows).astype(float)
    samples = rng.permutation(n_rows).astype(np.intp)
    a, b = 3, n_rows - 2
    k, table = _sums(X, 1, samples, a, b, y, w)
    rows = samples[a:b]
    values = np.unique(X[rows, 1])
    assert k == values.shape[0]
    assert_array_equal(table[:k, 3], values.astype(np.float64))
    for r, v in enumerate(values):
        at = rows[X[rows, 1] == v]
        assert table[r, 2] == at.shape[0]
        assert_allclose(table[r, 0], w[at].sum(), rtol=1e-12)
        assert_allclose(table[r, 1], (w[at] * y[at, 0]).sum(), rtol=1e-12)


@pytest.mark.parametrize("first", [True, False])
def test_few_value_sums_refuse_more_than_few_values(first):
    # the value past FEW_VALUES among the first samples (continuous data) or met late
    n = 200
    X = np.zeros((n, 1), dtype=np.float32)
    X[:, 0] = np.arange(n) % FEW_VALUES
    X[0 if first else n - 1, 0] = 99.0
    y = np.ones((n, 1))
    w = np.ones(n)
    samples = np.arange(n, dtype=np.intp)
    assert _sums(X, 0, samples, 0, n, y, w)[0] == 0
    assert _sums(X, 0, samples, 1 if first else 0, n - (0 if first else 1), y, w)[0] == FEW_VALUES


def test_few_value_sums_keep_signed_zeros_apart_in_order():
    X = np.array([[0.0], [-0.0], [1.0], [-0.0]] * 10, dtype=np.float32)
    y = np.arange(40, dtype=float)[:, None]
    k, table = _sums(X, 0, np.arange(40, dtype=np.intp), 0, 40, y, np.ones(40))
    assert k == 3
    # -0.0 and 0.0 compare equal: either order (the scan treats them as one value)
    assert_array_equal(np.sort(table[:2, 2]), [10, 20])
    assert_array_equal(np.signbit(table[:2, 3]).sum(), 1)
    assert_array_equal(table[2, 2:], [10, 1.0])


@pytest.mark.parametrize("n_levels", [2, 3, 16, 17, 40])
@pytest.mark.parametrize("min_samples_leaf", [3, 7])
def test_regressor_on_integer_codes_equals_sklearn(n_levels, min_samples_leaf):
    # 17 and 40 levels: the top nodes sort, the nodes below (fewer values each) sum.
    # Leaves of one or two samples would meet exact ties between equally good splits,
    # which the order of additions decides (on either side)
    from sklearn.tree import DecisionTreeRegressor as SkTree

    rng = np.random.default_rng(n_levels)
    X = rng.integers(0, n_levels, size=(3000, 6)).astype(float)
    y = X @ rng.normal(size=6) + rng.normal(size=3000)
    w = rng.integers(1, 4, size=3000).astype(float)
    params = dict(random_state=0, min_samples_leaf=min_samples_leaf, max_depth=12)
    ours = DecisionTreeRegressor(**params).fit(X, y, sample_weight=w)
    theirs = SkTree(**params).fit(X, y, sample_weight=w)
    assert ours.tree_.node_count == theirs.tree_.node_count
    X_test = rng.integers(0, n_levels, size=(1000, 6)).astype(float)
    assert_allclose(ours.predict(X_test), theirs.predict(X_test), rtol=1e-10)
