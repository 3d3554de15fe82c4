"""``classiclearn compare`` driven as a user does: arguments in, text / JSON / files out."""

import json
import struct

import numpy as np
import pytest

from classiclearn import all_estimators

FAST = "GaussianNB,LinearDiscriminantAnalysis,KNeighborsClassifier"


def _registered(*names):
    have = {n for n, _ in all_estimators()}
    missing = [n for n in names if n not in have]
    if missing:
        raise AssertionError(f"the registry lacks {missing}")


def test_help(run):
    r = run("--help")
    assert r.code == 0
    for command in ("compare", "fit", "predict", "info"):
        assert command in r.out
    for command in ("compare", "fit", "predict", "info"):
        r = run(command, "--help")
        assert r.code == 0 and "usage: classiclearn " + command in r.out


def test_version_and_no_command(run):
    r = run("--version")
    assert r.code == 0 and r.out.startswith("classiclearn ")
    r = run()
    assert r.code == 2


def test_compare_iris_every_classifier(run):
    """The one full run: every applicable registered classifier on iris."""
    from classiclearn.cli._models import candidate_models

    r = run("compare", "--cv", "3", "--repeats", "1", "--json", "--no-progress")
    assert r.code == 0, r.err
    result = json.loads(r.out)
    from classiclearn.datasets import load_iris

    iris = load_iris(as_frame=True).data
    expected = {n for n, _ in candidate_models("classification", X=iris)}
    assert {"MultinomialNB", "ComplementNB"} <= expected  # non-negative measurements
    assert "CategoricalNB" not in expected  # not integer categories
    assert {m["model"] for m in result["models"]} == expected
    assert result["data"]["source"] == "iris" and result["data"]["n_samples"] == 150
    assert result["cv"]["n_scores"] == 3
    ranked = [m for m in result["models"] if m["rank"] is not None]
    assert ranked and ranked[0]["rank"] == 1 and result["best"] == ranked[0]["model"]
    means = [m["mean"] for m in ranked]
    assert means == sorted(means, reverse=True)
    assert ranked[0]["mean"] > 0.9
    for m in ranked:
        assert 0.0 <= m["ci95_low"] <= m["mean"] <= m["ci95_high"] <= 1.0
        assert m["fit_time_s"] > 0 and m["predict_time_s"] > 0
        assert len(m["scores"]["accuracy"]) == 3
        assert isinstance(m["worse_than_best"], bool)
    failed = [m["model"] for m in result["models"] if m["error"]]
    assert not failed, [m["error"] for m in result["models"] if m["error"]]


def test_compare_text_leaderboard(run):
    _registered("GaussianNB", "LinearDiscriminantAnalysis", "KNeighborsClassifier")
    r = run("compare", "iris", "--models", FAST, "--cv", "3", "--repeats", "2")
    assert r.code == 0, r.err
    assert "95% CI" in r.out and "GaussianNB" in r.out and "Nadeau" in r.out
    assert "best" in r.out


def test_compare_csv_with_categories_and_missing_values(run, mixed_csv):
    _registered("GaussianNB", "LogisticRegression")
    r = run("compare", mixed_csv, "--target", "outcome", "--models",
            "GaussianNB,LogisticRegression", "--cv", "3", "--repeats", "1",
            "--scoring", "balanced_accuracy,accuracy,f1_macro,roc_auc", "--json")
    assert r.code == 0, r.err
    result = json.loads(r.out)
    assert result["data"]["n_categorical"] == 1
    assert result["data"]["n_missing_values"] > 0
    assert result["data"]["classes"] == ["sick", "well"]
    assert result["scoring"][0] == "balanced_accuracy"
    for m in result["models"]:
        assert m["error"] is None
        assert set(m["means"]) == {"balanced_accuracy", "accuracy", "f1_macro", "roc_auc"}
        assert 0.5 < m["means"]["roc_auc"] <= 1.0


def test_compare_regression(run, regression_csv):
    _registered("LinearRegression", "Ridge")
    r = run("compare", regression_csv, "--target", "price", "--models", "LinearRegression,Ridge",
            "--cv", "3", "--repeats", "2", "--scoring", "r2,neg_mean_absolute_error", "--json")
    assert r.code == 0, r.err
    result = json.loads(r.out)
    assert result["data"]["task"] == "regression"
    assert result["cv"]["method"] == "repeated k-fold"
    best = result["models"][0]
    assert best["mean"] > 0.9 and best["ci95_high"] <= 1.0
    assert best["means"]["neg_mean_absolute_error"] < 0


def test_compare_parquet(run, mixed_csv, tmp_path):
    import pandas as pd

    pytest.importorskip("pyarrow")
    _registered("GaussianNB")
    path = tmp_path / "mixed.parquet"
    frame = pd.read_csv(mixed_csv)
    frame["count"] = pd.array([None if i % 7 == 0 else i % 5 for i in range(len(frame))],
                              dtype="Int64")
    frame["flag"] = pd.array([i % 2 == 0 for i in range(len(frame))], dtype="boolean")
    frame.to_parquet(path)
    r = run("compare", path, "--target", "outcome", "--models", "GaussianNB", "--cv", "3",
            "--repeats", "1", "--json")
    assert r.code == 0, r.err
    result = json.loads(r.out)
    assert result["models"][0]["error"] is None
    assert result["data"]["n_categorical"] == 2  # colour and flag; count is numeric


def test_compare_is_reproducible_and_jobs_agree(run):
    _registered("GaussianNB", "KNeighborsClassifier")
    args = ("compare", "iris", "--models", "GaussianNB,KNeighborsClassifier", "--cv", "3",
            "--repeats", "1", "--seed", "7", "--json")
    a = json.loads(run(*args).out)
    b = json.loads(run(*args, "--jobs", "2").out)
    for ma, mb in zip(a["models"], b["models"]):
        assert ma["model"] == mb["model"]
        assert ma["scores"] == mb["scores"]


def _png_size(path):
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", path
    assert data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_compare_report(run, tmp_path):
    pytest.importorskip("matplotlib")
    _registered("GaussianNB", "LinearDiscriminantAnalysis", "KNeighborsClassifier")
    out = tmp_path / "report"
    r = run("compare", "iris", "--models", FAST, "--cv", "3", "--repeats", "1",
            "--report", out)
    assert r.code == 0, r.err
    page = (out / "index.html").read_text()
    assert page.startswith("<!DOCTYPE html>") and "data:image/png;base64," in page
    pngs = sorted(out.glob("*.png"))
    assert {"leaderboard.png", "best_model.png"} <= {p.name for p in pngs}
    from matplotlib.image import imread

    for png in pngs:
        w, h = _png_size(png)
        assert w > 100 and h > 100
        assert imread(png).shape[:2] == (h, w)
    have = {n for n, _ in all_estimators()}
    if "PCA" in have:
        assert (out / "pca.png").exists() and (out / "decision_regions.png").exists()
    if {"PCA", "KMeans"} <= have:
        assert (out / "clusters.png").exists()
    if "LinearDiscriminantAnalysis" in have:
        assert (out / "lda.png").exists()
    leftovers = [p.name for p in tmp_path.iterdir() if p.name.startswith(".classiclearn")]
    assert leftovers == []


def test_regression_report(run, regression_csv, tmp_path):
    pytest.importorskip("matplotlib")
    _registered("LinearRegression")
    out = tmp_path / "rep"
    r = run("compare", regression_csv, "--target", "price", "--models", "LinearRegression",
            "--cv", "3", "--repeats", "1", "--report", out)
    assert r.code == 0, r.err
    assert (out / "best_model.png").exists()
    page = (out / "index.html").read_text()
    assert "Not drawn" in page  # LDA and decision regions are for classification
    for png in out.glob("*.png"):
        _png_size(png)


def test_splits_share_folds_and_stratify():
    from classiclearn.cli._compare import make_splits

    y = np.array([0] * 30 + [1] * 15)
    splits = make_splits(y, 5, 2, 0, "classification")
    assert len(splits) == 10
    for train, test in splits:
        assert len(np.intersect1d(train, test)) == 0 and len(train) + len(test) == 45
        assert np.sum(y[test] == 1) == 3
    for r in range(2):
        tests = np.sort(np.concatenate([te for _, te in splits[5 * r : 5 * r + 5]]))
        np.testing.assert_array_equal(tests, np.arange(45))


def test_identifier_columns_are_dropped_with_a_note(run, tmp_path):
    import pandas as pd

    _registered("GaussianNB")
    rng = np.random.default_rng(0)
    n = 60
    y = np.arange(n) % 2
    frame = pd.DataFrame({"id": [f"patient-{i:03d}" for i in range(n)],
                          "x": rng.normal(size=n) + y, "y": y})
    path = tmp_path / "ids.csv"
    frame.to_csv(path, index=False)
    r = run("compare", path, "--target", "y", "--models", "GaussianNB", "--cv", "3",
            "--repeats", "1", "--json")
    assert r.code == 0, r.err
    result = json.loads(r.out)
    assert result["data"]["n_features"] == 1
    assert any("identifier" in note for note in result["notes"])


def test_progress_bar_on_a_terminal(run, monkeypatch):
    _registered("GaussianNB")
    monkeypatch.setenv("FORCE_COLOR", "1")
    monkeypatch.delenv("NO_COLOR", raising=False)
    r = run("compare", "iris", "--models", "GaussianNB", "--cv", "3", "--repeats", "1", "--json")
    assert r.code == 0, r.err
    assert "compare" in r.err and "/3" in r.err  # the bar: "compare <model> ━━━ 3/3"
    json.loads(r.out)  # the JSON on stdout is untouched by the bar


def test_failed_models_render_everywhere(run, capsys):
    from classiclearn.cli._render import format_leaderboard, print_leaderboard
    from classiclearn.cli._report import _table_html

    _registered("GaussianNB")
    result = json.loads(run("compare", "iris", "--models", "GaussianNB", "--cv", "3",
                            "--repeats", "1", "--json").out)
    broken = dict(result["models"][0], model="Broken", rank=None, mean=None, std=None,
                  ci95_low=None, ci95_high=None, p_vs_best=None, worse_than_best=None,
                  fit_time_s=None, predict_time_s=None, error="no score: NaN predictions")
    result["models"].append(broken)
    text = format_leaderboard(result)
    assert "Broken" in text and "failed" in text and "NaN predictions" in text
    print_leaderboard(result)
    assert "Broken" in capsys.readouterr().out
    assert "failed: no score" in _table_html(result)


def test_plain_text_without_rich(run, monkeypatch):
    import sys

    _registered("GaussianNB")
    for name in ("rich", "rich.console", "rich.table", "rich.progress"):
        monkeypatch.setitem(sys.modules, name, None)
    monkeypatch.setenv("FORCE_COLOR", "1")
    r = run("compare", "iris", "--models", "GaussianNB", "--cv", "3", "--repeats", "1")
    assert r.code == 0, r.err
    assert "GaussianNB" in r.out and "95% CI" in r.out and "━" not in r.out


@pytest.mark.parametrize(("suffix", "sep"), [(".csv", ";"), (".tsv", "\t")])
def test_other_separators(run, mixed_csv, tmp_path, suffix, sep):
    import pandas as pd

    _registered("GaussianNB")
    path = tmp_path / f"data{suffix}"
    pd.read_csv(mixed_csv).to_csv(path, sep=sep, index=False)
    r = run("compare", path, "--target", "outcome", "--models", "GaussianNB", "--cv", "3",
            "--repeats", "1", "--json")
    assert r.code == 0, r.err
    assert json.loads(r.out)["data"]["n_features"] == 3
