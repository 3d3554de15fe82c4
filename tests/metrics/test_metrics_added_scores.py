"""Scores added for scikit-learn's scorer names (issue 16 item 1): parity with scikit-learn."""

import warnings

import numpy as np
import pytest

from classiclearn import metrics as ours
from classiclearn.model_selection import ParameterSampler

skm = pytest.importorskip("sklearn.metrics")


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


@pytest.mark.parametrize("name", ["mean_squared_log_error", "root_mean_squared_log_error",
                                  "mean_poisson_deviance", "mean_gamma_deviance",
                                  "d2_absolute_error_score"])
@pytest.mark.parametrize("weighted", [False, True])
def test_regression_scores(name, weighted, rng):
    y = np.abs(rng.normal(size=40)) + 0.1
    p = np.abs(rng.normal(size=40)) + 0.1
    w = rng.uniform(size=40) if weighted else None
    got = getattr(ours, name)(y, p, sample_weight=w)
    assert got == pytest.approx(getattr(skm, name)(y, p, sample_weight=w), rel=1e-12)


def test_regression_scores_refuse_out_of_domain_values():
    with pytest.raises(ValueError, match="less than or equal to -1"):
        ours.mean_squared_log_error([-2.0, 1.0], [1.0, 1.0])
    with pytest.raises(ValueError, match="power=1"):
        ours.mean_poisson_deviance([1.0, 1.0], [0.0, 1.0])
    with pytest.raises(ValueError, match="power=2"):
        ours.mean_gamma_deviance([0.0, 1.0], [1.0, 1.0])


@pytest.mark.parametrize("name", ["mutual_info_score", "normalized_mutual_info_score",
                                  "adjusted_mutual_info_score", "homogeneity_score",
                                  "completeness_score", "v_measure_score",
                                  "fowlkes_mallows_score"])
def test_clustering_scores(name, rng):
    for n_true, n_pred in ((2, 2), (3, 5), (6, 3)):
        a = rng.integers(0, n_true, 60)
        b = rng.integers(0, n_pred, 60)
        for pred in (b, a, np.where(rng.uniform(size=60) < 0.2, b, a)):
            got = getattr(ours, name)(a, pred)
            assert got == pytest.approx(getattr(skm, name)(a, pred), abs=1e-12)


@pytest.mark.parametrize("method", ["min", "geometric", "max"])
def test_mutual_information_averages(method, rng):
    a, b = rng.integers(0, 4, 50), rng.integers(0, 3, 50)
    for name in ("normalized_mutual_info_score", "adjusted_mutual_info_score"):
        got = getattr(ours, name)(a, b, average_method=method)
        assert got == pytest.approx(getattr(skm, name)(a, b, average_method=method), abs=1e-12)


@pytest.mark.parametrize("average", ["micro", "macro", "weighted", None])
def test_jaccard(average, rng):
    y, p, w = rng.integers(0, 3, 60), rng.integers(0, 3, 60), rng.uniform(size=60)
    np.testing.assert_allclose(ours.jaccard_score(y, p, average=average, sample_weight=w),
                               skm.jaccard_score(y, p, average=average, sample_weight=w))
    yb, pb = y % 2, p % 2
    assert ours.jaccard_score(yb, pb) == pytest.approx(skm.jaccard_score(yb, pb))


def test_likelihood_ratios_and_top_k(rng):
    y, p, w = rng.integers(0, 2, 60), rng.integers(0, 2, 60), rng.uniform(size=60)
    np.testing.assert_allclose(ours.class_likelihood_ratios(y, p, sample_weight=w),
                               skm.class_likelihood_ratios(y, p, sample_weight=w))
    assert np.isnan(ours.class_likelihood_ratios([0, 1, 1], [0, 1, 1])[0])  # no false positive
    y3 = rng.integers(0, 4, 60)
    scores = rng.uniform(size=(60, 4))
    for k in (1, 2, 3):
        assert ours.top_k_accuracy_score(y3, scores, k=k, sample_weight=w) == pytest.approx(
            skm.top_k_accuracy_score(y3, scores, k=k, sample_weight=w))
    s1 = rng.normal(size=60)
    assert ours.top_k_accuracy_score(y, s1, k=1) == skm.top_k_accuracy_score(y, s1, k=1)


def test_d2_probability_scores(rng):
    y = rng.integers(0, 3, 60)
    proba = rng.uniform(size=(60, 3))
    proba /= proba.sum(axis=1, keepdims=True)
    w = rng.uniform(size=60)
    for name in ("d2_log_loss_score", "d2_brier_score"):
        got = getattr(ours, name)(y, proba, sample_weight=w)
        assert got == pytest.approx(getattr(skm, name)(y, proba, sample_weight=w), rel=1e-12)
    yb, pb = y % 2, rng.uniform(size=60)
    assert ours.d2_brier_score(yb, pb) == pytest.approx(skm.d2_brier_score(yb, pb))


def test_every_sklearn_scorer_name_exists():
    assert set(skm.get_scorer_names()) <= set(ours.get_scorer_names())


@pytest.mark.parametrize("n_values,n_iter", [(2, 2), (3, 2), (6, 6), (1000, 3), (1000, 995)])
def test_parameter_sampler_draws_sklearns_candidates(n_values, n_iter):
    model_selection = pytest.importorskip("sklearn.model_selection")
    grid = {"a": list(range(n_values))}
    for seed in (0, 7):
        assert list(ParameterSampler(grid, n_iter, random_state=seed)) == list(
            model_selection.ParameterSampler(grid, n_iter, random_state=seed))
