"""The data the value sweeps of ``benchmarks.spot_checks`` make from a grid case's."""

import numpy as np
import pytest

pytest.importorskip("sklearn")
spot = pytest.importorskip("benchmarks.spot_checks")


def _data(rng, n=400, p=5):
    X = rng.normal(size=(n, p))
    y = (X[:, 0] > 0.5).astype(int)
    return X, y, X[:60] + 1.0, y[:60]


def test_tied_values_are_few_integer_codes():
    X = np.random.default_rng(0).normal(size=(2000, 3))
    codes = spot._tied(X)
    assert np.all(codes == np.round(codes))
    assert 6 <= len(np.unique(codes[:, 0])) <= 20


def test_unscaled_and_offset_and_narrow_columns():
    X = np.ones((4, 8))
    assert spot._unscaled(X)[0, 0] == pytest.approx(1e-3)
    assert spot._unscaled(X)[0, -1] == pytest.approx(1e4)
    assert np.all(spot._offset(X) == 1e4 + 1)
    assert spot._narrow(X).shape == (4, 2) and spot._narrow(X).flags.c_contiguous


def test_each_row_ten_times_keeps_the_test_rows():
    X, y, X_test, y_test = _data(np.random.default_rng(1))
    Xd, yd, Xt, yt = spot._each_row_ten_times((X, y, X_test, y_test))
    assert Xd.shape == X.shape and len(np.unique(Xd, axis=0)) == X.shape[0] // 10
    assert np.array_equal(Xd[:10], np.repeat(X[:1], 10, axis=0)) and np.all(yd[:10] == y[0])
    assert Xt is X_test and yt is y_test
    assert spot._each_row_ten_times((X, None, X_test, None))[1] is None


def test_one_class_in_twenty_keeps_a_rare_second_class():
    X, y, X_test, y_test = _data(np.random.default_rng(2), n=4000)
    Xi, yi, Xt, yt = spot._one_class_in_twenty((X, y, X_test, y_test))
    assert set(np.unique(yi)) == {0, 1}
    assert np.sum(yi == 1) == len(np.flatnonzero(y == 1)[::20])
    assert np.sum(yi == 0) == np.sum(y == 0)
    assert np.array_equal(Xi[yi == 0], X[y == 0])
    assert len(Xt) == len(yt)
