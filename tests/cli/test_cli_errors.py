"""Bad input: one line on stderr, exit status 2, no traceback, no partial output file."""

import json
import os
import zipfile

import pytest

from classiclearn import all_estimators


def _assert_user_error(r, *fragments):
    assert r.code == 2, (r.code, r.out, r.err)
    lines = r.err.strip().splitlines()
    assert len(lines) == 1, r.err
    assert "Traceback" not in r.err and "Traceback" not in r.out
    assert lines[0].startswith("classiclearn")
    for fragment in fragments:
        assert fragment in lines[0], lines[0]


@pytest.fixture
def model_file(run, tmp_path):
    assert "GaussianNB" in {n for n, _ in all_estimators()}
    path = tmp_path / "nb.clm"
    r = run("fit", "iris", "--model", "GaussianNB", "--out", path)
    assert r.code == 0, r.err
    return path


def _no_new_files(directory, before):
    assert sorted(os.listdir(directory)) == before


def test_missing_data_file(run, tmp_path):
    _assert_user_error(run("compare", tmp_path / "nope.csv", "--target", "y"), "no such file")


def test_directory_as_data(run, tmp_path):
    _assert_user_error(run("compare", tmp_path, "--target", "y"), "directory")


@pytest.mark.parametrize(
    "content",
    [b"\x89PNG\r\n\x1a\n\x00\x00\xff\xfe\x00binary", b"", b'a,b\n1,"unterminated\n'],
    ids=["binary", "empty", "bad-quote"],
)
def test_unreadable_csv(run, tmp_path, content):
    path = tmp_path / "bad.csv"
    path.write_bytes(content)
    _assert_user_error(run("compare", path, "--target", "a"))


def test_unknown_target_column(run, mixed_csv):
    _assert_user_error(run("compare", mixed_csv, "--target", "nope"),
                       "unknown target column 'nope'", "outcome")


def test_target_required_for_a_file(run, mixed_csv):
    _assert_user_error(run("compare", mixed_csv), "--target")


def test_one_class_target(run, tmp_path):
    path = tmp_path / "one.csv"
    path.write_text("x,y\n1,a\n2,a\n3,a\n4,a\n")
    _assert_user_error(run("compare", path, "--target", "y", "--task", "classification"),
                       "only one class")


def test_constant_regression_target(run, tmp_path):
    path = tmp_path / "const.csv"
    path.write_text("x,y\n1,2.5\n2,2.5\n3,2.5\n4,2.5\n")
    _assert_user_error(run("compare", path, "--target", "y", "--task", "regression"),
                       "constant")


def test_unknown_model(run):
    _assert_user_error(run("compare", "iris", "--models", "GaussianNBB"),
                       "unknown classification model 'GaussianNBB'", "did you mean")


def test_regressor_named_for_classification(run):
    assert "LinearRegression" in {n for n, _ in all_estimators()}
    _assert_user_error(run("compare", "iris", "--models", "LinearRegression"),
                       "LinearRegression is a model for regression")
    _assert_user_error(run("compare", "iris", "--models", "PCA"), "not a classification model")


def test_unknown_scoring_and_bad_cv(run):
    _assert_user_error(run("compare", "iris", "--scoring", "r2"), "regression")
    _assert_user_error(run("compare", "iris", "--scoring", "nope"), "unknown scoring")
    _assert_user_error(run("compare", "iris", "--cv", "1"), "--cv")
    _assert_user_error(run("compare", "iris", "--cv", "x"), "integer")
    _assert_user_error(run("compare", "iris", "--cv", "60"), "smallest class")
    _assert_user_error(run("compare", "iris", "--bogus"), "unrecognized")


def test_report_target_is_a_file(run, tmp_path):
    path = tmp_path / "f.txt"
    path.write_text("x")
    _assert_user_error(run("compare", "iris", "--report", path), "not a directory")


def test_fit_unknown_model_and_parameters(run, tmp_path):
    before = sorted(os.listdir(tmp_path))
    out = tmp_path / "m.clm"
    _assert_user_error(run("fit", "iris", "--model", "Nope", "--out", out), "unknown")
    _assert_user_error(run("fit", "iris", "--model", "GaussianNB", "--param", "bogus=1",
                           "--out", out), "unknown parameter 'bogus'")
    _assert_user_error(run("fit", "iris", "--model", "GaussianNB", "--param", "novalue",
                           "--out", out), "NAME=VALUE")
    _assert_user_error(run("fit", "iris", "--model", "GaussianNB", "--param",
                           "var_smoothing=-5", "--out", out), "var_smoothing")
    _assert_user_error(run("fit", "iris", "--model", "GaussianNB",
                           "--out", tmp_path / "no" / "m.clm"), "does not exist")
    _no_new_files(tmp_path, before)


def test_predict_missing_model(run, tmp_path):
    _assert_user_error(run("predict", tmp_path / "nope.clm", "iris"), "does not exist")
    _assert_user_error(run("info", tmp_path / "nope.clm"), "does not exist")


def test_predict_truncated_model(run, model_file, tmp_path):
    data = model_file.read_bytes()
    model_file.write_bytes(data[: len(data) // 2])
    before = sorted(os.listdir(tmp_path))
    _assert_user_error(run("predict", model_file, "iris", "--out", tmp_path / "p.csv"))
    _assert_user_error(run("info", model_file))
    _no_new_files(tmp_path, before)


def _rewrite(path, edit_manifest=None, edit_member=None):
    with zipfile.ZipFile(path) as zf:
        members = {n: zf.read(n) for n in zf.namelist()}
    manifest = json.loads(members.pop("manifest.json"))
    if edit_manifest:
        edit_manifest(manifest)
    if edit_member:
        edit_member(members)
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("manifest.json", json.dumps(manifest))
        for name, data in members.items():
            zf.writestr(name, data)


def test_predict_tampered_model(run, model_file, tmp_path):
    def flip(members):
        name = "arrays/1.npy"
        data = bytearray(members[name])
        data[-1] ^= 0xFF
        members[name] = bytes(data)

    _rewrite(model_file, edit_member=flip)
    before = sorted(os.listdir(tmp_path))
    _assert_user_error(run("predict", model_file, "iris", "--out", tmp_path / "p.csv"),
                       "SHA-256")
    _no_new_files(tmp_path, before)


def test_predict_other_format_version(run, model_file):
    _rewrite(model_file, edit_manifest=lambda m: m.update(format_version=2))
    _assert_user_error(run("predict", model_file, "iris"), "format version 2")
    _assert_user_error(run("info", model_file), "format version 2")


def test_predict_not_a_model(run, mixed_csv):
    _assert_user_error(run("predict", mixed_csv, "iris"), "not a classiclearn model file")


def test_predict_missing_columns(run, model_file, mixed_csv, tmp_path):
    before = sorted(os.listdir(tmp_path))
    _assert_user_error(run("predict", model_file, mixed_csv, "--out", tmp_path / "p.csv"),
                       "lacks the model's input column")
    _no_new_files(tmp_path, before)


def test_internal_errors_are_one_line_too(run, monkeypatch):
    from classiclearn.cli import _commands

    def boom(args):
        raise RuntimeError("unexpected\nsecond line")

    monkeypatch.setattr(_commands, "compare", boom)
    r = run("compare", "iris")
    assert r.code == 1
    assert r.err.strip().splitlines() == [
        "classiclearn compare: internal error: RuntimeError: unexpected "
        "(set CLASSICLEARN_DEBUG=1 to see the traceback)"
    ]


def test_output_paths_that_are_directories(run, model_file, tmp_path):
    before = sorted(os.listdir(tmp_path))
    _assert_user_error(run("fit", "iris", "--model", "GaussianNB", "--out", tmp_path),
                       "is a directory")
    _assert_user_error(run("predict", model_file, "iris", "--out", tmp_path), "is a directory")
    _no_new_files(tmp_path, before)


def test_unwritable_output_is_a_user_error(run, monkeypatch, tmp_path):
    from classiclearn.cli import _commands

    def denied(text, path):
        raise PermissionError(13, "Permission denied", str(path))

    monkeypatch.setattr(_commands, "_write_atomic", denied)
    assert "GaussianNB" in {n for n, _ in all_estimators()}
    model = tmp_path / "m.clm"
    assert run("fit", "iris", "--model", "GaussianNB", "--out", model).code == 0
    _assert_user_error(run("predict", model, "iris", "--out", tmp_path / "p.csv"),
                       "Permission denied")


class _Payload:
    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        return (os.system, (f"touch {self.marker}",))


def test_malicious_model_file_cannot_run_code_through_the_cli(run, tmp_path):
    """A file whose digest is valid but whose array is a pickle that would run a command."""
    import io as _io

    import numpy as np

    from classiclearn.io import _format

    marker = tmp_path / "pwned"
    payload = np.empty(1, dtype=object)
    payload[0] = _Payload(marker)
    buf = _io.BytesIO()
    np.lib.format.write_array(buf, payload, allow_pickle=True)
    tree = {"$estimator": {"class": "classiclearn.naive_bayes.GaussianNB", "params": {},
                           "state": {"classes_": {"$array": 0}}}}
    members = {"model.json": json.dumps(tree).encode(), "arrays/0.npy": buf.getvalue()}
    manifest = {"format": "classiclearn-model", "format_version": 1, "n_arrays": 1}
    manifest["content_sha256"] = _format._digest(members, manifest)
    path = tmp_path / "evil.clm"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("manifest.json", json.dumps(manifest))
        for name, data in members.items():
            zf.writestr(name, data)
    for argv in (("predict", path, "iris"), ("info", path)):
        _assert_user_error(run(*argv))
    assert not marker.exists()
