"""``classiclearn fit``, ``predict`` and ``info``, and the console entry points."""

import json
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest

from classiclearn import all_estimators
from classiclearn.io import load_model


def _registered(*names):
    have = {n for n, _ in all_estimators()}
    missing = [n for n in names if n not in have]
    if missing:
        raise AssertionError(f"the registry lacks {missing}")


def test_fit_predict_info_on_a_csv(run, mixed_csv, tmp_path):
    import pandas as pd

    _registered("LogisticRegression")
    model = tmp_path / "model.clm"
    r = run("fit", mixed_csv, "--target", "outcome", "--model", "logisticregression",
            "--param", "C=0.5", "--out", model)
    assert r.code == 0, r.err
    assert "saved LogisticRegression" in r.out

    estimator = load_model(model)
    assert estimator.steps[-1][1].C == 0.5

    out = tmp_path / "pred.csv"
    r = run("predict", model, mixed_csv, "--out", out)
    assert r.code == 0, r.err
    pred = pd.read_csv(out)
    frame = pd.read_csv(mixed_csv)
    assert list(pred.columns) == ["prediction"] and len(pred) == len(frame)
    expected = estimator.predict(frame.drop(columns=["outcome"]))
    np.testing.assert_array_equal(pred["prediction"].to_numpy(), expected)
    assert np.mean(expected == frame["outcome"].to_numpy()) > 0.7

    r = run("predict", model, mixed_csv, "--proba")
    assert r.code == 0, r.err
    lines = r.out.strip().splitlines()
    assert lines[0] == "proba_sick,proba_well"
    proba = np.array([[float(v) for v in line.split(",")] for line in lines[1:]])
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)

    r = run("info", model)
    assert r.code == 0, r.err
    assert "classiclearn-model version 1" in r.out and "LogisticRegression" in r.out
    assert "sick, well" in r.out and "colour" in r.out
    r = run("info", model, "--json")
    info = json.loads(r.out)
    assert info["metadata"]["target"] == "outcome" and info["metadata"]["n_samples"] == 120
    assert info["metadata"]["columns"] == ["x1", "x2", "colour"]
    assert info["feature_names_in"] == ["x1", "x2", "colour"] and info["n_features_in"] == 3


def test_predict_rows_without_target_and_reordered_columns(run, mixed_csv, tmp_path):
    import pandas as pd

    _registered("GaussianNB")
    model = tmp_path / "nb.clm"
    assert run("fit", mixed_csv, "--target", "outcome", "--model", "GaussianNB",
               "--out", model).code == 0
    frame = pd.read_csv(mixed_csv)
    new = frame.drop(columns=["outcome"])[["colour", "x2", "x1"]].head(10)
    new.loc[0, "colour"] = "purple"  # a category never seen in training
    path = tmp_path / "new.csv"
    new.to_csv(path, index=False)
    r = run("predict", model, path)
    assert r.code == 0, r.err
    got = r.out.strip().splitlines()[1:]
    assert len(got) == 10 and set(got) <= {"sick", "well"}


def test_fit_regression_and_predict(run, regression_csv, tmp_path):
    _registered("Ridge")
    model = tmp_path / "ridge.clm"
    r = run("fit", regression_csv, "--target", "price", "--model", "Ridge", "--param",
            "alpha=0.1", "--out", model)
    assert r.code == 0, r.err
    assert "training R2" in r.out
    r = run("predict", model, regression_csv)
    assert r.code == 0
    values = np.array([float(v) for v in r.out.strip().splitlines()[1:]])
    assert values.shape == (90,)


def test_fit_on_shipped_data_and_predict_shipped(run, tmp_path):
    _registered("GaussianNB")
    model = tmp_path / "iris.clm"
    assert run("fit", "iris", "--model", "GaussianNB", "--out", model).code == 0
    r = run("predict", model, "iris")
    assert r.code == 0
    labels = r.out.strip().splitlines()
    assert labels[0] == "prediction" and set(labels[1:]) == {"setosa", "versicolor", "virginica"}


def _entry_point():
    exe = shutil.which("classiclearn", path=os.path.dirname(sys.executable))
    if exe is None:
        pytest.skip("the classiclearn console script is not installed")
    return exe


def test_console_script_and_module(tmp_path):
    exe = _entry_point()
    r = subprocess.run([exe, "--help"], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and "compare" in r.stdout
    r = subprocess.run([sys.executable, "-m", "classiclearn.cli", "--version"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and r.stdout.startswith("classiclearn ")
    r = subprocess.run([exe, "compare", str(tmp_path / "missing.csv"), "--target", "y"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 2
    assert len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr


def test_import_stays_light():
    code = (
        "import sys, classiclearn, classiclearn.cli, classiclearn.io, classiclearn.cli._prep\n"
        "heavy = [m for m in ('pandas', 'rich', 'matplotlib', 'sklearn') if m in sys.modules]\n"
        "print(heavy)"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "[]"
