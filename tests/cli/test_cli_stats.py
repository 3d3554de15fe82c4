"""The corrected resampled t-test, the scores, and the preprocessing step."""

import math

import numpy as np
import pytest
from scipy import stats

from classiclearn.cli._scoring import SCORINGS
from classiclearn.cli._stats import corrected_interval, corrected_paired_ttest, summarise
from classiclearn.preprocessing import TabularEncoder


def test_corrected_ttest_matches_the_formula():
    rng = np.random.default_rng(0)
    a = 0.8 + 0.03 * rng.normal(size=10)
    b = a - 0.02 + 0.01 * rng.normal(size=10)
    ratio = 1 / 4  # 5-fold
    t, p = corrected_paired_ttest(a, b, ratio)
    d = a - b
    t_ref = d.mean() / math.sqrt((1 / 10 + ratio) * d.var(ddof=1))
    assert t == pytest.approx(t_ref, rel=1e-12)
    assert p == pytest.approx(2 * stats.t.sf(abs(t_ref), 9), rel=1e-12)
    # the naive paired t-test is over-confident: larger |t|, smaller p
    t_naive, p_naive = stats.ttest_rel(a, b)
    assert abs(t_naive) > abs(t) and p_naive < p


def test_corrected_interval_matches_the_formula_and_is_wider():
    s = np.array([0.9, 0.85, 0.95, 0.9, 0.8, 0.88])
    lo, hi = corrected_interval(s, 0.5)
    half = stats.t.ppf(0.975, 5) * math.sqrt((1 / 6 + 0.5) * s.var(ddof=1))
    assert lo == pytest.approx(s.mean() - half) and hi == pytest.approx(s.mean() + half)
    naive = stats.t.ppf(0.975, 5) * s.std(ddof=1) / math.sqrt(6)
    assert hi - lo > 2 * naive


def test_degenerate_cases():
    assert corrected_paired_ttest([1, 1, 1], [1, 1, 1], 0.5) == (0.0, 1.0)
    t, p = corrected_paired_ttest([1, 1, 1], [0.5, 0.5, 0.5], 0.5)
    assert t == math.inf and p == 0.0
    assert all(math.isnan(v) for v in corrected_interval([0.5], 0.5))


def test_type_one_error_is_controlled():
    """Two identical models on repeated CV of the same data: the corrected test rarely fires."""
    rng = np.random.default_rng(0)
    fires = 0
    for _ in range(400):
        common = rng.normal(size=10) * 0.03  # fold difficulty shared by both models
        a = 0.8 + common + 0.01 * rng.normal(size=10)
        b = 0.8 + common + 0.01 * rng.normal(size=10)
        fires += corrected_paired_ttest(a, b, 0.25)[1] < 0.05
    assert fires / 400 < 0.05


def test_summarise_ranks_flags_and_clips():
    rows = summarise(
        {
            "good": [0.97, 0.99, 0.98, 1.0, 0.99],
            "same": [0.96, 0.99, 0.99, 0.99, 0.98],
            "bad": [0.6, 0.62, 0.58, 0.61, 0.6],
            "broken": [0.5, float("nan"), 0.5, 0.5, 0.5],
        },
        0.25,
        bounds=(0.0, 1.0),
    )
    assert [r["model"] for r in rows] == ["good", "same", "bad", "broken"]
    assert [r["rank"] for r in rows] == [1, 2, 3, None]
    assert rows[0]["worse_than_best"] is False and rows[0]["p_vs_best"] is None
    assert rows[1]["worse_than_best"] is False and rows[2]["worse_than_best"] is True
    assert rows[0]["ci_high"] <= 1.0
    assert rows[3]["worse_than_best"] is None


def test_scores_match_scikit_learn():
    metrics = pytest.importorskip("sklearn.metrics")
    rng = np.random.default_rng(3)
    y = rng.integers(0, 3, size=50)
    pred = np.where(rng.random(50) < 0.7, y, rng.integers(0, 3, size=50))
    extra = {"classes": [0, 1, 2]}
    assert SCORINGS["accuracy"][0](y, pred, extra) == pytest.approx(
        metrics.accuracy_score(y, pred))
    assert SCORINGS["balanced_accuracy"][0](y, pred, extra) == pytest.approx(
        metrics.balanced_accuracy_score(y, pred))
    assert SCORINGS["f1_macro"][0](y, pred, extra) == pytest.approx(
        metrics.f1_score(y, pred, average="macro"))
    yb = rng.integers(0, 2, size=60)
    s = np.round(yb + rng.normal(size=60), 1)  # ties included
    assert SCORINGS["roc_auc"][0](yb, None, {"classes": [0, 1], "decision": s}) == pytest.approx(
        metrics.roc_auc_score(yb, s))
    proba = rng.dirichlet([1, 1, 1], size=50)
    assert SCORINGS["neg_log_loss"][0](y, None, {"classes": [0, 1, 2], "proba": proba}) == (
        pytest.approx(-metrics.log_loss(y, proba)))
    yr, pr = rng.normal(size=40), rng.normal(size=40)
    assert SCORINGS["r2"][0](yr, pr, {}) == pytest.approx(metrics.r2_score(yr, pr))
    assert SCORINGS["neg_mean_absolute_error"][0](yr, pr, {}) == pytest.approx(
        -metrics.mean_absolute_error(yr, pr))


def test_encoder_learns_only_from_training_rows():
    import pandas as pd

    train = pd.DataFrame({"x": [1.0, np.nan, 3.0], "c": ["a", None, "a"]})
    test = pd.DataFrame({"x": [np.nan, 100.0], "c": [None, "zzz"]})
    enc = TabularEncoder().fit(train)
    assert enc.numeric_columns_ == ["x"] and enc.categorical_columns_ == ["c"]
    assert list(enc.feature_names_out_) == ["x", "c=a"]
    np.testing.assert_array_equal(enc.transform(test), [[2.0, 1.0], [100.0, 0.0]])


def test_encoder_one_hot_and_standardize():
    import pandas as pd

    X = pd.DataFrame({"n": [1.0, 2.0, 3.0, 4.0], "c": ["u", "v", "u", "w"], "b": [True, False,
                                                                               True, True]})
    Z = TabularEncoder().fit_transform(X)
    np.testing.assert_array_equal(Z[:, 1:4], [[1, 0, 0], [0, 1, 0], [1, 0, 0], [0, 0, 1]])
    assert Z.shape == (4, 6)
    Zs = TabularEncoder(standardize=True).fit_transform(X)
    np.testing.assert_allclose(Zs.mean(axis=0), 0.0, atol=1e-12)
    np.testing.assert_allclose(Zs.std(axis=0), 1.0)


def test_encoder_errors():
    import pandas as pd

    enc = TabularEncoder().fit(pd.DataFrame({"x": [1.0, 2.0]}))
    with pytest.raises(ValueError, match="lack the column"):
        enc.transform(pd.DataFrame({"y": [1.0]}))
    with pytest.raises(ValueError, match="numeric"):
        enc.transform(pd.DataFrame({"x": ["text"]}))
