"""Lasso / ElasticNet on dense X with more rows than columns by working sets of
columns: the route taken, parity with scikit-learn and with the whole Gram matrix, the
fall-back for dense solutions."""

import numpy as np
import pytest
from sklearn import linear_model as sk

from classiclearn.exceptions import ConvergenceWarning
from classiclearn.linear_model import ElasticNet, Lasso
from classiclearn.linear_model import _coordinate_descent as cd

TIGHT = {"tol": 1e-10, "max_iter": 100_000}
MODELS = {"Lasso": Lasso, "ElasticNet": ElasticNet}


def _rel(a, b):
    return np.max(np.abs(np.asarray(a) - b)) / max(np.max(np.abs(b)), 1e-12)


def _few_true(seed, n=800, p=220, n_true=12, offset=True):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p)) + (rng.normal(size=p) if offset else 0.0)
    beta = np.zeros(p)
    beta[rng.choice(p, n_true, replace=False)] = rng.normal(size=n_true) * 3
    return X, X @ beta + rng.normal(size=n)


@pytest.fixture
def routes(monkeypatch):
    """Counts of the working-set solves and of the whole-Gram problems made."""
    counts = {"sets": 0, "whole": 0}
    solve, whole = cd._DenseWorkingSets._solve_on_working_sets, cd.ElasticNet._whole_gram_problem

    def counted_sets(self, *args):
        counts["sets"] += 1
        return solve(self, *args)

    def counted_whole(self, *args):
        counts["whole"] += 1
        return whole(self, *args)

    monkeypatch.setattr(cd._DenseWorkingSets, "_solve_on_working_sets", counted_sets)
    monkeypatch.setattr(cd.ElasticNet, "_whole_gram_problem", counted_whole)
    return counts


@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("cls,kw", [("Lasso", {"alpha": 0.3}),
                                    ("ElasticNet", {"alpha": 0.3, "l1_ratio": 1.0}),
                                    ("Lasso", {"alpha": 0.3, "positive": True})])
def test_working_sets_match_sklearn(routes, fit_intercept, cls, kw):
    # without an intercept, columns of non-zero mean would all violate at zero
    X, y = _few_true(0, offset=fit_intercept)
    y = y + 5.0 if fit_intercept else y
    ours = MODELS[cls](fit_intercept=fit_intercept, **kw, **TIGHT).fit(X, y)
    ref = getattr(sk, cls)(fit_intercept=fit_intercept, **kw, **TIGHT).fit(X, y)
    assert routes == {"sets": 1, "whole": 0}
    assert 0 < np.count_nonzero(ours.coef_) < X.shape[1] // 4
    np.testing.assert_array_equal(ours.coef_ != 0, ref.coef_ != 0)
    assert _rel(ours.coef_, ref.coef_) < 1e-6
    assert abs(ours.intercept_ - ref.intercept_) < 1e-6 * max(abs(ref.intercept_), 1.0)


def test_default_tolerance_meets_the_gap_test(routes):
    X, y = _few_true(1)
    ours = Lasso(alpha=0.5).fit(X, y)
    ref = sk.Lasso(alpha=0.5).fit(X, y)
    assert routes["sets"] == 1
    yc = y - y.mean()
    assert ours.dual_gap_ <= 1e-4 * (yc @ yc) / len(y)
    assert _rel(ours.coef_, ref.coef_) < 1e-3


def test_columns_joining_in_later_rounds(routes):
    # more true columns than the first set holds: the set grows over rounds
    X, y = _few_true(2, n_true=40, p=250)
    ours = Lasso(alpha=0.2, **TIGHT).fit(X, y)
    ref = sk.Lasso(alpha=0.2, **TIGHT).fit(X, y)
    assert np.count_nonzero(ours.coef_) > cd._FIRST_SET
    assert routes == {"sets": 1, "whole": 0}
    assert _rel(ours.coef_, ref.coef_) < 1e-6


def test_dense_solution_falls_back_to_the_whole_gram_matrix(routes, monkeypatch):
    # every column true: the sets are tried (the share test at zero switched off), the
    # columns still violating after the first round send the fit to the whole matrix
    monkeypatch.setattr(cd, "_VIOLATING_AT_ZERO", 1.0)
    X, y = _few_true(3, n_true=220)
    ours = Lasso(alpha=0.01, **TIGHT).fit(X, y)
    ref = sk.Lasso(alpha=0.01, **TIGHT).fit(X, y)
    assert routes == {"sets": 1, "whole": 1}
    assert _rel(ours.coef_, ref.coef_) < 1e-6


def test_many_violators_at_zero_skip_the_sets(routes):
    X, y = _few_true(4, n_true=220)
    Lasso(alpha=0.01).fit(X, y)
    assert routes == {"sets": 0, "whole": 1}  # the whole Gram matrix from the start


def test_sets_agree_with_the_whole_matrix_and_multi_target(monkeypatch):
    X, y = _few_true(5)
    Y = np.column_stack([y, X[:, 3] * 2.0 - X[:, 7] + 1.0])
    sets = Lasso(alpha=0.2, **TIGHT).fit(X, Y)
    monkeypatch.setattr(cd, "_WORKING_SET_MAX_ENTRIES", 0)
    whole = Lasso(alpha=0.2, **TIGHT).fit(X, Y)
    np.testing.assert_array_equal(sets.coef_ != 0, whole.coef_ != 0)
    assert _rel(sets.coef_, whole.coef_) < 1e-7


def test_warm_start_and_iteration_limit(routes):
    X, y = _few_true(6)
    model = Lasso(alpha=0.3, warm_start=True, **TIGHT).fit(X, y)
    again = model.fit(X, y)
    assert again.n_iter_ <= 2  # starts at the solution: one round, one pass
    with pytest.warns(ConvergenceWarning):
        capped = Lasso(alpha=0.3, tol=0.0, max_iter=2).fit(X, y)
    assert capped.n_iter_ == 2


def test_outside_the_route_wide_weighted_random_or_precomputed(routes):
    X, y = _few_true(7)
    ElasticNet(alpha=0.3, l1_ratio=0.9).fit(X, y)  # an L2 part
    Lasso(alpha=0.3).fit(X[:150], y[:150])  # more columns than rows
    Lasso(alpha=0.3).fit(X, y, sample_weight=np.full(len(y), 2.0))
    Lasso(alpha=0.3, selection="random", random_state=0).fit(X, y)
    Lasso(alpha=0.3, precompute=True).fit(X, y)
    Lasso(alpha=0.3).fit(np.asfortranarray(X), y)
    Lasso(alpha=0.3).fit(X[:, :100], y)  # fewer columns than the sets need
    assert routes["sets"] == 0
