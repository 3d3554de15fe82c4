"""``compare --tune`` (nested cross-validation), ``--pair``, intervals of every score, 1-SE rule."""

import json
import math
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

from classiclearn import all_estimators
from classiclearn.cli._grids import TUNING_GRIDS, Scaled, describe_grids
from classiclearn.cli._stats import corrected_interval
from classiclearn.cli._tune import TunedModel, one_standard_error

TWO = "KNeighborsClassifier,GaussianNB"


def _registered(*names):
    have = {n for n, _ in all_estimators()}
    missing = [n for n in names if n not in have]
    if missing:
        raise AssertionError(f"the registry lacks {missing}")


def _iris_dataset():
    from classiclearn.cli._data import load_table, prepare

    frame, target = load_table("iris")
    return prepare(frame, target, None, "iris")


def test_tune_shows_the_setting_chosen_in_every_outer_fold(run):
    _registered("KNeighborsClassifier", "GaussianNB")
    args = ("compare", "iris", "--models", TWO, "--cv", "3", "--repeats", "1", "--tune",
            "--no-progress")
    r = run(*args, "--json")
    assert r.code == 0, r.err
    result = json.loads(r.out)
    assert result["tune"]["inner_cv"] == 3
    assert result["tune"]["grids"]["GaussianNB"] == "untuned (no grid)"
    by_name = {m["model"]: m for m in result["models"]}
    knn, nb = by_name["KNeighborsClassifier"], by_name["GaussianNB"]
    assert nb["tuned"] is False and nb["chosen_params"] is None
    assert knn["tuned"] is True and len(knn["chosen_params"]) == 3
    grid = TUNING_GRIDS["KNeighborsClassifier"]["n_neighbors"]
    assert all(set(c) == {"n_neighbors"} and c["n_neighbors"] in grid
               for c in knn["chosen_params"])
    assert knn["error"] is None and knn["mean"] > 0.85
    text = run(*args).out
    assert "chosen hyper-parameters per outer fold" in text
    assert "GaussianNB (untuned)" in text and "n_neighbors" in text
    from classiclearn.cli._render import format_leaderboard  # the plain-text path (no rich)

    plain = format_leaderboard(result)
    assert "chosen hyper-parameters per outer fold" in plain and "GaussianNB (untuned)" in plain
    k_row = next(line for line in plain.splitlines() if "n_neighbors" in line).split()
    assert k_row[2:] == [str(c["n_neighbors"]) for c in knn["chosen_params"]]


def test_tuned_choice_is_the_grid_search_on_the_outer_training_rows():
    """Fold 1's chosen k is what GridSearchCV picks on that fold's training rows alone."""
    _registered("KNeighborsClassifier")
    from classiclearn.cli._compare import make_splits, run_compare
    from classiclearn.cli._models import build_pipeline, candidate_models
    from classiclearn.model_selection import GridSearchCV, StratifiedKFold

    ds = _iris_dataset()
    models = candidate_models("classification", ["KNeighborsClassifier"])
    result = run_compare(ds, models, k=3, repeats=1, scorings=["accuracy"], seed=4,
                         show_progress=False, warmup=False, tune=True)
    index = {c: i for i, c in enumerate(ds.classes)}
    y = np.array([index[v] for v in ds.y])
    train, test = make_splits(y, 3, 1, 4, "classification")[0]
    pipe = build_pipeline(*models[0], ds.X, seed=4)
    search = GridSearchCV(pipe, {"model__n_neighbors": [1, 3, 7, 15, 31]}, scoring="accuracy",
                          cv=StratifiedKFold(3, shuffle=True, random_state=4))
    search.fit(ds.X.iloc[train], y[train])
    chosen = result["models"][0]["chosen_params"][0]
    assert chosen == {"n_neighbors": search.best_params_["model__n_neighbors"]}
    # scikit-learn's GridSearchCV on the same inner folds agrees (mean scores and choice)
    sk = pytest.importorskip("sklearn.model_selection")
    Xtr, ytr = ds.X.iloc[train], y[train]
    inner = list(StratifiedKFold(3, shuffle=True, random_state=4).split(Xtr, ytr))
    theirs = sk.GridSearchCV(build_pipeline(*models[0], ds.X, seed=4),
                             {"model__n_neighbors": [1, 3, 7, 15, 31]}, scoring="accuracy",
                             cv=inner).fit(Xtr, ytr)
    np.testing.assert_allclose(theirs.cv_results_["mean_test_score"],
                               search.cv_results_["mean_test_score"], rtol=0, atol=1e-12)
    assert theirs.best_params_ == search.best_params_
    outer = float(np.mean(search.predict(ds.X.iloc[test]) == y[test]))
    assert result["models"][0]["scores"]["accuracy"][0] == pytest.approx(outer, abs=1e-12)


def test_inner_search_never_sees_the_outer_test_rows(monkeypatch):
    """Every pipeline fit (inner folds and refit) records its rows: none is an outer test row."""
    _registered("KNeighborsClassifier")
    from classiclearn.cli import _compare, _runner
    from classiclearn.cli._models import candidate_models
    from classiclearn.cli._prep import TabularEncoder

    current, seen = {}, []
    original_fit, original_run = TabularEncoder.fit, _runner.run_one

    def recording_fit(self, X, y=None):
        seen.append((current["split"], np.asarray(X.index)))
        return original_fit(self, X, y)

    def tagged_run(pipeline, X, y, train, test, *rest):
        current["split"] = (train, test)
        return original_run(pipeline, X, y, train, test, *rest)

    monkeypatch.setattr(TabularEncoder, "fit", recording_fit)
    monkeypatch.setattr(_runner, "run_one", tagged_run)
    ds = _iris_dataset()
    models = candidate_models("classification", ["KNeighborsClassifier"])
    result = _compare.run_compare(ds, models, k=3, repeats=2, scorings=["accuracy"], seed=0,
                                  show_progress=False, warmup=False, tune=True)
    assert result["models"][0]["error"] is None
    n_grid = len(TUNING_GRIDS["KNeighborsClassifier"]["n_neighbors"])
    splits = {id(s[0]): s for s, _ in seen}
    assert len(splits) == 6
    for train, test in splits.values():
        rows = [r for s, r in seen if s[0] is train]
        for r in rows:
            assert np.intersect1d(r, test).size == 0
            assert np.setdiff1d(r, train).size == 0
        inner = [r for r in rows if r.size < train.size]
        assert len(inner) == 3 * n_grid  # 3 inner folds x the grid
        assert all(abs(r.size - 2 * train.size / 3) <= 3 for r in inner)
        assert sum(r.size == train.size for r in rows) >= 1  # the refit on all of train


def test_tune_regression_alpha_scales_with_the_training_target(run, regression_csv):
    _registered("Lasso", "LinearRegression")
    r = run("compare", regression_csv, "--target", "price", "--models", "Lasso,LinearRegression",
            "--cv", "3", "--repeats", "1", "--tune", "--json", "--no-progress")
    assert r.code == 0, r.err
    result = json.loads(r.out)
    lasso = next(m for m in result["models"] if m["model"] == "Lasso")
    assert lasso["error"] is None and lasso["mean"] > 0.9
    sd = 2.2  # the target's sd is about sqrt(4 + 1 + 0.09)
    for chosen in lasso["chosen_params"]:
        assert 0.0005 * sd < chosen["alpha"] < 0.5 * sd


def test_scaled_grids_resolve_from_the_training_rows():
    _registered("DecisionTreeClassifier")
    from classiclearn.cli._models import build_pipeline, candidate_models

    ds = _iris_dataset()
    name, cls = candidate_models("classification", ["DecisionTreeClassifier"])[0]
    model = TunedModel(build_pipeline(name, cls, ds.X), TUNING_GRIDS[name], classes=[0, 1, 2])
    y = np.array([0] * 50 + [1] * 30 + [2] * 20)
    grid = model.resolved_grid(ds.X.iloc[:100], y)
    gini = 1 - (0.5**2 + 0.3**2 + 0.2**2)
    np.testing.assert_allclose(grid["ccp_alpha"], [0.0, 0.01 * gini, 0.03 * gini], rtol=1e-5)
    assert grid["max_depth"] == [3, None]
    assert Scaled([1 / 3, 2 / 3, 1], "p^").resolve({"p": 4}) == [2, 3, 4]


def test_one_standard_error_rule_by_hand():
    # lasso-like: alpha grid, complexity = -alpha (a larger alpha is a simpler model)
    alpha = np.array([0.001, 0.01, 0.1, 1.0, 10.0])
    mse = np.array([0.260, 0.250, 0.262, 0.275, 0.400])
    se = np.array([0.010, 0.015, 0.010, 0.012, 0.020])
    # best: alpha 0.01 (0.250); limit 0.250 + 0.015 = 0.265: alphas 0.001, 0.01, 0.1 qualify,
    # the simplest of them is alpha 0.1 (1.0 has 0.275 > 0.265)
    assert one_standard_error(-alpha, mse, se) == (1, 2)
    # a tree: complexity = number of leaves; equal errors choose the smaller tree
    assert one_standard_error([8, 4, 2, 1], [0.1, 0.1, 0.13, 0.4], [0.02, 0.02, 0.02, 0.05]) == (
        0, 1)
    # NaN errors are skipped; the limit includes its end point
    assert one_standard_error([3, 2, 1], [0.2, np.nan, 0.25], [0.05, 0.0, 0.0]) == (0, 2)
    with pytest.raises(ValueError, match="NaN"):
        one_standard_error([1, 2], [np.nan, np.nan], [0.1, 0.1])
    with pytest.raises(ValueError, match="one length"):
        one_standard_error([1, 2], [0.1], [0.1])


def test_pair_gives_the_corrected_paired_ttest(run):
    _registered("KNeighborsClassifier", "GaussianNB")
    r = run("compare", "iris", "--models", "gaussiannb", "--pair", "KNeighborsClassifier,gaussiannb",
            "--cv", "3", "--repeats", "2", "--scoring", "accuracy,f1_macro", "--json",
            "--no-progress")
    assert r.code == 0, r.err
    result = json.loads(r.out)
    by_name = {m["model"]: m for m in result["models"]}
    assert set(by_name) == {"KNeighborsClassifier", "GaussianNB"}  # the pair was added
    pair = result["pair"]
    assert (pair["a"], pair["b"], pair["scoring"]) == ("KNeighborsClassifier", "GaussianNB",
                                                       "accuracy")
    ratio = result["cv"]["test_train_ratio"]
    for scoring in ("accuracy", "f1_macro"):
        d = (np.array(by_name["KNeighborsClassifier"]["scores"][scoring])
             - np.array(by_name["GaussianNB"]["scores"][scoring]))
        j = d.size
        se = math.sqrt((1 / j + ratio) * d.var(ddof=1))
        got = pair["by_scoring"][scoring]
        assert got["df"] == j - 1 == 5
        assert got["mean_difference"] == pytest.approx(d.mean(), abs=1e-12)
        if se == 0:
            continue
        t = d.mean() / se
        assert got["t"] == pytest.approx(t, rel=1e-10)
        assert got["p_value"] == pytest.approx(2 * stats.t.sf(abs(t), j - 1), rel=1e-10)
        half = stats.t.ppf(0.975, j - 1) * se
        assert got["ci_low"] == pytest.approx(d.mean() - half, rel=1e-10, abs=1e-12)
        assert got["ci_high"] == pytest.approx(d.mean() + half, rel=1e-10, abs=1e-12)
    text = run("compare", "iris", "--models", TWO, "--pair", "GaussianNB,KNeighborsClassifier",
               "--cv", "3", "--repeats", "1", "--no-progress").out
    assert "paired test GaussianNB - KNeighborsClassifier" in text and "df = 2" in text


def test_pair_errors(run):
    _registered("GaussianNB")
    r = run("compare", "iris", "--pair", "GaussianNB", "--cv", "3", "--repeats", "1")
    assert r.code == 2 and "two model names" in r.err
    r = run("compare", "iris", "--pair", "GaussianNB,gaussiannb", "--cv", "3", "--repeats", "1")
    assert r.code == 2 and "same model twice" in r.err
    r = run("compare", "iris", "--pair", "GaussianNB,NoSuchModel", "--cv", "3", "--repeats", "1")
    assert r.code == 2 and "NoSuchModel" in r.err


def test_roc_auc_gets_the_corrected_interval(run, mixed_csv):
    _registered("GaussianNB", "LogisticRegression")
    base = ("compare", mixed_csv, "--target", "outcome", "--models", "GaussianNB,LogisticRegression",
            "--cv", "3", "--repeats", "2", "--no-progress")
    result = json.loads(run(*base, "--scoring", "accuracy,roc_auc", "--json").out)
    ratio = result["cv"]["test_train_ratio"]
    first = json.loads(run(*base, "--scoring", "roc_auc", "--json").out)
    first = {m["model"]: m for m in first["models"]}
    for m in result["models"]:
        scores = np.array(m["scores"]["roc_auc"])
        assert scores.size == 6 and np.all((scores > 0.5) & (scores <= 1))
        lo, hi = corrected_interval(scores, ratio)
        lo, hi = max(lo, 0.0), min(hi, 1.0)
        assert m["ci95"]["roc_auc"] == pytest.approx([lo, hi], rel=1e-12)
        half = stats.t.ppf(0.975, 5) * math.sqrt((1 / 6 + ratio) * scores.var(ddof=1))
        assert lo == pytest.approx(max(scores.mean() - half, 0.0))
        # ranked by roc_auc, the leaderboard's own interval is the same one
        assert [first[m["model"]]["ci95_low"], first[m["model"]]["ci95_high"]] == pytest.approx(
            [lo, hi], rel=1e-12)
    text = run(*base, "--scoring", "accuracy,roc_auc").out
    m = result["models"][0]
    lo, hi = m["ci95"]["roc_auc"]
    assert f"{m['means']['roc_auc']:.3f} [{lo:.3f}, {hi:.3f}]" in text


def test_grids_are_documented_in_help_and_readme(run):
    r = run("compare", "--help")
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    for line in describe_grids().splitlines():
        assert line in r.out
        assert line in readme
    for grid in TUNING_GRIDS.values():
        for values in grid.values():
            n = len(values.factors) if isinstance(values, Scaled) else len(values)
            assert 2 <= n <= 6


def test_report_shows_tuning_pair_path_and_pruning(run, tmp_path, monkeypatch):
    pytest.importorskip("matplotlib")
    _registered("DecisionTreeClassifier", "LogisticRegression", "GaussianNB")
    from classiclearn.cli import _report

    # only the two model-selection plots (test_cli_compare.py draws the whole report)
    keep = [p for p in _report._PLOTS if p[0] in ("regularisation_path", "pruning")]
    assert len(keep) == 2
    monkeypatch.setattr(_report, "_PLOTS", keep)
    out = tmp_path / "report"
    r = run("compare", "iris", "--models", "DecisionTreeClassifier,GaussianNB", "--pair",
            "GaussianNB,DecisionTreeClassifier", "--cv", "3", "--repeats", "1", "--tune",
            "--no-progress", "--report", out)
    assert r.code == 0, r.err
    page = (out / "index.html").read_text()
    assert "Tuned hyper-parameters" in page and "ccp_alpha" in page and "max_depth" in page
    assert "GaussianNB (untuned)" in page
    assert "Paired test: GaussianNB" in page
    for png in ("regularisation_path.png", "pruning.png"):
        assert (out / png).stat().st_size > 1000
    assert page.count("one-standard-error rule") == 2


def test_pruning_and_path_mark_the_one_standard_error_choice(regression_csv):
    pytest.importorskip("matplotlib")
    _registered("DecisionTreeRegressor", "Lasso")
    from classiclearn.cli._data import load_table, prepare
    from classiclearn.cli._report import _Context
    from classiclearn.cli._report_selection import plot_pruning, plot_regularisation_path

    frame, _ = load_table(str(regression_csv))
    ds = prepare(frame, "price", None, str(regression_csv))
    from classiclearn.linear_model import Lasso
    from classiclearn.model_selection import KFold
    from classiclearn.tree import DecisionTreeRegressor

    ctx = _Context(ds, {"models": [], "scoring": ["r2"]}, {}, 0)
    folds = list(KFold(5, shuffle=True, random_state=0).split(ctx.Z))
    makers = {
        plot_pruning: lambda a: DecisionTreeRegressor(ccp_alpha=a, random_state=0),
        plot_regularisation_path: lambda a: Lasso(alpha=a, max_iter=10000),
    }
    for plot, make in makers.items():
        fig, caption = plot(ctx)
        ax = fig.axes[0]
        solid, dashed = [line for line in ax.lines if line.get_xdata()[0] == line.get_xdata()[1]]
        x_best, x_1se = solid.get_xdata()[0], dashed.get_xdata()[0]
        assert x_1se >= x_best  # the rule never picks a more complex model
        assert f"{x_1se:.3g}" in caption and f"{x_best:.3g}" in caption
        # the error curve: the 1-SE pick is no worse than the minimum plus the largest SE
        curve = ax.containers[0].lines[0]
        x, mean = curve.get_xdata(), curve.get_ydata()
        assert mean[np.argmin(np.abs(x - x_best))] == pytest.approx(np.nanmin(mean))
        for i in (0, len(x) - 1):  # the curve is the 5-fold CV error, recomputed by hand
            mse = [np.mean((make(float(x[i])).fit(ctx.Z[tr], ctx.y[tr]).predict(ctx.Z[te])
                            - ctx.y[te]) ** 2) for tr, te in folds]
            assert mean[i] == pytest.approx(np.mean(mse), rel=1e-9)


def test_p_counts_the_encoded_columns_of_the_training_rows(mixed_csv):
    _registered("SVC")
    from classiclearn.cli._data import load_table, prepare
    from classiclearn.cli._models import build_pipeline, candidate_models

    frame, _ = load_table(str(mixed_csv))
    ds = prepare(frame, "outcome", None, str(mixed_csv))
    name, cls = candidate_models("classification", ["SVC"])[0]
    model = TunedModel(build_pipeline(name, cls, ds.X), TUNING_GRIDS[name], classes=[0, 1])
    y = (ds.y == "sick").astype(int)
    grid = model.resolved_grid(ds.X, y)
    p = 2 + 3  # x1, x2 and one column per colour (red, green, blue)
    assert grid["gamma"] == pytest.approx([0.1 / p, 1.0 / p])
    assert grid["C"] == [0.1, 1, 10]
