"""Input validation: conversion, copies, messages."""

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp

from classiclearn.naive_bayes import GaussianNB
from classiclearn.utils._params import (
    HasMethods,
    Interval,
    StrOptions,
    validate_parameter_constraints,
)
from classiclearn.utils._random import check_random_state, child_seeds
from classiclearn.utils._targets import (
    compute_class_weight,
    encode_labels,
    type_of_target,
    unique_inverse,
)
from classiclearn.utils.validation import (
    check_array,
    check_sample_weight,
    check_X_y,
    validate_data,
)


def test_check_array_converts_and_never_aliases_a_changed_array():
    X = np.arange(6, dtype=np.int64).reshape(3, 2)
    out = check_array(X)
    assert out.dtype == np.float64 and out.flags.c_contiguous
    F = np.asfortranarray(np.ones((3, 2), dtype=np.float32))
    out32 = check_array(F)
    assert out32.dtype == np.float32 and out32.flags.c_contiguous
    out32[0, 0] = 5
    assert F[0, 0] == 1


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ([[1.0, np.nan]], "contains NaN"),
        ([[1.0, np.inf]], "contains infinity"),
        ([1.0, 2.0], "Expected 2D array, got 1D array"),
        (np.empty((0, 3)), r"0 sample\(s\)"),
        (np.empty((3, 0)), r"0 feature\(s\)"),
        (np.ones((2, 2, 2)), "dim 3"),
        ([[1 + 2j, 1.0]], "Complex data not supported"),
    ],
)
def test_check_array_errors(bad, message):
    with pytest.raises(ValueError, match=message):
        check_array(bad)


def test_sparse_is_refused_with_a_clear_type_error():
    with pytest.raises(TypeError, match="Sparse data was passed"):
        check_array(sp.csr_matrix(np.eye(3)))


def test_check_X_y_messages():
    with pytest.raises(ValueError, match="requires y to be passed"):
        check_X_y([[1.0]], None)
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        check_X_y([[1.0], [2.0]], [1])
    with pytest.warns(UserWarning, match="column-vector y"):
        _, y = check_X_y([[1.0], [2.0]], [[1], [2]])
    assert y.shape == (2,)


def test_feature_names_and_counts_are_recorded_and_checked():
    df = pd.DataFrame({"a": [0.0, 1.0, 2.0, 3.0], "b": [1.0, 0.0, 1.0, 0.0]})
    clf = GaussianNB().fit(df, [0, 0, 1, 1])
    assert clf.feature_names_in_.tolist() == ["a", "b"] and clf.n_features_in_ == 2
    with pytest.raises(ValueError, match="X has 3 features, but GaussianNB is expecting 2"):
        clf.predict(np.ones((1, 3)))
    with pytest.raises(ValueError, match="feature names should match"):
        clf.predict(df[["b", "a"]])
    with pytest.warns(UserWarning, match="does not have valid feature names"):
        clf.predict(df.to_numpy())


def test_validate_data_reset_false_keeps_state():
    est = GaussianNB()
    validate_data(est, np.ones((3, 4)))
    assert est.n_features_in_ == 4
    validate_data(est, np.ones((2, 4)), reset=False)
    assert est.n_features_in_ == 4


def test_sample_weight_checks():
    X = np.ones((3, 1))
    np.testing.assert_array_equal(check_sample_weight(2.0, X), [2.0, 2.0, 2.0])
    w = np.array([1.0, 2.0, 3.0])
    out = check_sample_weight(w, X)
    out[0] = 9
    assert w[0] == 1.0
    with pytest.raises(ValueError, match="Negative"):
        check_sample_weight([1.0, -1.0, 1.0], X)
    with pytest.raises(ValueError, match="expected"):
        check_sample_weight([1.0, 1.0], X)
    with pytest.raises(ValueError, match="non-zero"):
        check_sample_weight([0.0, 0.0, 0.0], X)


def test_targets():
    assert type_of_target([1, 2, 3]) == "multiclass"
    assert type_of_target([0.1, 0.2]) == "continuous"
    assert type_of_target(np.array([[0, 1], [1, 1]])) == "multilabel-indicator"
    classes, idx = encode_labels(np.array([3, 1, 3]))
    assert classes.tolist() == [1, 3] and idx.tolist() == [1, 0, 1]
    with pytest.raises(ValueError, match="Unknown label type: continuous"):
        encode_labels([0.5, 1.5])
    with pytest.raises(ValueError, match="only one class"):
        encode_labels([1, 1])
    weights = compute_class_weight({1: 3.0}, classes, idx)
    np.testing.assert_array_equal(weights, [3.0, 1.0])


_LABELS = {
    "int64 small": np.random.default_rng(0).integers(0, 5, 1000),
    "negative": np.array([-3, 2, -3, 0]),
    "wide span (sorted)": np.array([0, 10**9, 5]),
    "bool": np.array([True, False, True]),
    "int8 full range": np.array([-128, 127, 0], dtype=np.int8),
    "int64 extremes": np.array([-2**63, -2**63 + 2, -2**63]),
    "uint64 top": np.array([2**64 - 1, 2**64 - 5], dtype=np.uint64),
    "uint8": np.array([3, 3, 200], dtype=np.uint8),
    "float32 integral": np.array([2.0, 0.0, 2.0, 7.0], dtype=np.float32),
    "float halves (sorted)": np.array([0.5, 1.5, 0.5]),
    "float beyond 2**24 in float32": np.array([2**25 + 2, 2**25 + 4], dtype=np.float32),
    "float huge": np.array([1e20, 1.0]),
    "float nan": np.array([np.nan, 1.0, 1.0]),
    "strings": np.array(["b", "a", "b"]),
    "objects": np.array(["b", "a", "b"], dtype=object),
    "one value": np.array([4]),
    "empty": np.array([], dtype=np.int64),
}


@pytest.mark.parametrize("name", list(_LABELS))
def test_unique_inverse_is_numpys(name):
    """Counting (small integer spans) and sorting (the rest) give np.unique's
    values, dtype and inverse."""
    y = _LABELS[name]
    values, inverse = unique_inverse(y)
    expected_values, expected_inverse = np.unique(y, return_inverse=True)
    assert values.dtype == expected_values.dtype and inverse.dtype == np.intp
    np.testing.assert_array_equal(values, expected_values)
    np.testing.assert_array_equal(inverse, expected_inverse.ravel())


def test_parameter_constraints():
    from numbers import Integral, Real

    table = {
        "n": [Interval(Integral, 1, None, closed="left")],
        "kind": [StrOptions({"a", "b"})],
        "est": [HasMethods("fit"), None],
        "alpha": [Interval(Real, 0, 1, closed="neither")],
    }
    validate_parameter_constraints(table, {"n": 3, "kind": "a", "est": None, "alpha": 0.5}, "T")
    for bad in ({"n": 0}, {"n": 1.5}, {"n": True}, {"kind": "c"}, {"est": 3}, {"alpha": 1.0}):
        with pytest.raises(ValueError, match=f"The '{next(iter(bad))}' parameter of T"):
            validate_parameter_constraints(table, bad, "T")


def test_random_state_helpers():
    assert check_random_state(3).randint(100) == check_random_state(3).randint(100)
    rs = np.random.RandomState(0)
    assert check_random_state(rs) is rs
    np.testing.assert_array_equal(child_seeds(5, 4), child_seeds(5, 4))
    with pytest.raises(ValueError, match="random_state"):
        check_random_state("seed")


def test_comoments_of_column_groups_are_those_of_the_stacked_matrix():
    from classiclearn.utils._moments import block_comoments

    rng = np.random.default_rng(0)
    X, Y = rng.normal(size=(50, 4)) + 100.0, rng.normal(size=(50, 2))
    w = rng.uniform(0.1, 1.0, size=50)
    for weights in (None, w):
        for center in (True, False):
            parts = block_comoments((X, Y), weights, center=center)
            whole = block_comoments(np.hstack([X, Y]), weights, center=center)
            assert parts[0] == whole[0]
            np.testing.assert_allclose(parts[1], whole[1], rtol=1e-14, atol=1e-15)
            np.testing.assert_allclose(parts[2], whole[2], rtol=1e-13)
    Z = np.hstack([X, Y])
    total, mean, C = block_comoments((X, Y), w)
    np.testing.assert_allclose(mean, w @ Z / w.sum(), rtol=1e-14)
    np.testing.assert_allclose(C, ((Z - mean) * w[:, None]).T @ (Z - mean), rtol=1e-12)


@pytest.mark.parametrize("shift", [0.0, 3.0, 1e6])
def test_comoments_keep_their_accuracy_whether_or_not_centred_by_a_copy(shift):
    # small means take Z'Z - n m m' (no copy); a mean of 1e6 against a spread of 1
    # must be centred first, or the co-moments would lose all their digits
    from classiclearn.utils._moments import block_comoments

    rng = np.random.default_rng(1)
    X = rng.normal(size=(3_000, 5)) + shift
    Y = X[:, :1] * 2.0 + rng.normal(size=(3_000, 1))
    total, mean, C = block_comoments((X, Y))
    Z = np.hstack([X, Y])
    exact_mean = Z.mean(axis=0)
    D = Z - exact_mean
    np.testing.assert_allclose(mean, exact_mean, rtol=1e-13)
    np.testing.assert_allclose(C, D.T @ D, rtol=1e-11, atol=1e-11 * np.abs(D.T @ D).max())


@pytest.mark.parametrize("power", [1.0, 2.0, 3.0])
@pytest.mark.parametrize("order", ["C", "F"])
def test_magnitude_fast_path_agrees_with_the_exact_check(power, order):
    # the sum-of-squares bounds only ever decide "in range" where the exact
    # max |x| test finds no problem; ordinary data takes the fast path
    from classiclearn.utils.validation import _max_abs, _out_of_range, _surely_in_range

    rng = np.random.default_rng(0)
    info = np.finfo(np.float64)
    decided = 0
    for exponent in (-320, -300, -160, -150, -100, -5, 0, 5, 100, 150, 160, 300):
        for spread in (0.0, 1.0, 30.0):
            X = np.asarray(rng.normal(size=(40, 7)) * 10.0 ** (exponent + spread
                           * rng.uniform(-1, 1, size=(40, 7))), order=order)
            for check_small in (True, False):
                fast = _surely_in_range(X, power, 7, check_small, info)
                exact = _out_of_range(_max_abs(X), power, 7, check_small, info)
                assert not (fast and exact is not None), (exponent, spread, check_small)
                decided += fast
    assert decided >= 20
    assert _surely_in_range(np.ones((5, 3)), 2.0, 3, True, info)
    assert not _surely_in_range(np.full((5, 3), 1e200), 2.0, 3, True, info)
    assert not _surely_in_range(np.zeros((5, 3)), 2.0, 3, True, info)


def test_check_magnitude_reuses_only_a_fresh_sum_of_squares_of_the_same_array():
    # check_array's finiteness pass keeps X's sum of squares for check_magnitude; an
    # array freed since (its address reused), or refilled and validated again, is
    # never judged by an old sum
    import gc

    import pytest

    from classiclearn.utils.validation import check_array, check_magnitude

    for _ in range(20):
        check_array(np.ones((50, 4)))  # remembered, then freed
        gc.collect()
        huge = np.full((50, 4), 1e300)
        with pytest.raises(ValueError, match="too large"):
            check_magnitude(huge, "KMeans", "squared distances")
    X = check_array(np.ones((50, 4)))
    X[:] = 1e300
    X = check_array(X)
    with pytest.raises(ValueError, match="too large"):
        check_magnitude(X, "KMeans", "squared distances")
    ok = check_array(np.ones((50, 4)))
    check_magnitude(ok, "KMeans", "squared distances")  # the remembered sum decides


@pytest.mark.parametrize("power", [1, 2, 3])
@pytest.mark.parametrize("n_terms", [1, 10, 10**6])
def test_flagged_columns_match_the_scalar_range_test(power, n_terms):
    # power_of_two_scales tests every column mean and column maximum at once; each
    # verdict must be the textbook one (n max|x|^power past the largest float, or
    # max|x|^power below the smallest normal one by a unit roundoff), at the edges of
    # the float range as well, and the scalar test must say the same
    import math

    from classiclearn.utils.validation import _flagged, _out_of_range

    info = np.finfo(np.float64)

    def verdict(v):
        a = abs(float(v))
        if not math.isfinite(a) or a == 0.0:
            return None
        if power * math.log(a) + math.log(n_terms) > math.log(float(info.max)):
            return "large"
        if power * math.log(a) < math.log(float(info.tiny)) - math.log(float(info.eps)):
            return "small"
        return None

    rng = np.random.default_rng(0)
    values = np.concatenate([10.0 ** rng.uniform(-320, 308, 5000),
                             -(10.0 ** rng.uniform(-320, 308, 500)),
                             [0.0, np.inf, -np.inf, np.nan, 1e-160, 1e-150, 1e154, 1e155,
                              -1e-170, 5e-324, 1.7e308]])
    flagged, small = _flagged(values, power, n_terms)
    verdicts = [verdict(v) for v in values]
    assert verdicts == [_out_of_range(abs(float(v)), power, n_terms, True) for v in values]
    assert np.array_equal(flagged, [v is not None for v in verdicts])
    assert np.array_equal(small, [v == "small" for v in verdicts])
    assert flagged.any() and small.any() and not small.all()


def test_power_of_two_scales_sees_a_tiny_mean_among_many_columns():
    from classiclearn.utils.validation import power_of_two_scales

    X = np.random.default_rng(0).normal(size=(20, 500))
    means = X.mean(axis=0)
    assert power_of_two_scales(X, means=means) is None
    X[:, 321] = 1e-300
    scales = power_of_two_scales(X, means=X.mean(axis=0))
    assert scales is not None and scales[321] < 1e-290 and np.all(scales[:321] >= 1.0)
