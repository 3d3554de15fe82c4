"""``classiclearn fit --dask`` / ``predict --dask`` on a Parquet directory."""

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal

pd = pytest.importorskip("pandas")
pytest.importorskip("dask.dataframe")
pytest.importorskip("pyarrow")

from classiclearn.cli import main  # noqa: E402
from classiclearn.io import load_model  # noqa: E402
from classiclearn.linear_model import LinearRegression, LogisticRegression  # noqa: E402


@pytest.fixture
def table(tmp_path):
    rng = np.random.default_rng(0)
    parts = []
    directory = tmp_path / "table"
    directory.mkdir()
    for i in range(4):
        X = rng.normal(size=(700, 3))
        frame = pd.DataFrame(X, columns=["a", "b", "c"])
        frame["y"] = X @ [1.0, -2.0, 0.5] + rng.normal(size=700)
        frame["label"] = np.where(frame["y"] > 0, "yes", "no")
        frame.to_parquet(directory / f"part{i}.parquet")
        parts.append(frame)
    return directory, pd.concat(parts, ignore_index=True)


def test_fit_and_predict_a_parquet_directory_with_dask(table, tmp_path, capsys):
    directory, frame = table
    model_path = tmp_path / "m.clm"
    features = frame[["a", "b", "c", "y"]]
    assert main(["fit", str(directory), "--target", "label", "--model", "LogisticRegression",
                 "--out", str(model_path), "--dask"]) == 0
    assert "with Dask" in capsys.readouterr().out
    model = load_model(model_path)
    ref = LogisticRegression(solver="newton", tol=1e-14).fit(features, frame["label"])
    assert_array_equal(model.classes_, ["no", "yes"])
    assert_allclose(model.coef_, ref.coef_, rtol=1e-6)
    out = tmp_path / "pred.csv"
    assert main(["predict", str(model_path), str(directory), "--dask", "--out", str(out)]) == 0
    pred = pd.read_csv(out)["prediction"].to_numpy()
    assert_array_equal(pred, ref.predict(features))


def test_fit_dask_regression_equals_in_memory(table, tmp_path):
    directory, frame = table
    model_path = tmp_path / "r.clm"
    frame = frame.drop(columns=["label"])
    pd.concat([frame]).to_parquet(tmp_path / "num.parquet")
    assert main(["fit", str(tmp_path / "num.parquet"), "--target", "y", "--model",
                 "LinearRegression", "--out", str(model_path), "--dask"]) == 0
    model = load_model(model_path)
    ref = LinearRegression().fit(frame[["a", "b", "c"]], frame["y"])
    assert_allclose(model.coef_, ref.coef_, rtol=1e-10)


def test_dask_fit_of_a_model_without_a_distributed_fit_is_a_clear_error(table, tmp_path,
                                                                        capsys):
    directory, _ = table
    code = main(["fit", str(directory), "--target", "label", "--model", "SVC",
                 "--out", str(tmp_path / "s.clm"), "--dask"])
    assert code != 0
    assert "no distributed version" in capsys.readouterr().err


def test_dask_needs_numeric_features(table, tmp_path, capsys):
    directory, _ = table
    code = main(["fit", str(directory), "--target", "y", "--model", "Ridge",
                 "--out", str(tmp_path / "x.clm"), "--dask"])
    assert code != 0
    assert "numeric feature columns" in capsys.readouterr().err
