"""Model files: versioning, integrity, and that a crafted file can never run code."""

import io
import json
import os
import pickle
import zipfile

import numpy as np
import pytest

from classiclearn.io import (
    FORMAT_VERSION,
    ModelFileError,
    UnsupportedEstimatorError,
    load_model,
    read_model_info,
    save_model,
)
from classiclearn.io import _format as fmt
from classiclearn.naive_bayes import GaussianNB


@pytest.fixture
def fitted(rng):
    X = rng.normal(size=(40, 3))
    y = np.where(X[:, 0] > 0, "yes", "no").astype(object)
    return GaussianNB().fit(X, y), X


@pytest.fixture
def model_path(tmp_path, fitted):
    path = tmp_path / "m.clm"
    save_model(fitted[0], path, metadata={"target": "t", "n_samples": 40})
    return path


def _read_members(path):
    with zipfile.ZipFile(path) as zf:
        return {n: zf.read(n) for n in zf.namelist()}


def _write(path, manifest, members, *, fix_digest=True):
    """Write an archive as an attacker would, recomputing the digest so it matches."""
    manifest = dict(manifest)
    if fix_digest:
        manifest["content_sha256"] = fmt._digest(members, manifest)
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("manifest.json", json.dumps(manifest))
        for name, data in members.items():
            zf.writestr(name, data)


def _crafted(path, tree, arrays=(), manifest_extra=None):
    members = {"model.json": json.dumps(tree).encode()}
    for i, a in enumerate(arrays):
        members[f"arrays/{i}.npy"] = a
    manifest = {
        "format": "classiclearn-model",
        "format_version": FORMAT_VERSION,
        "library_version": "0.1.0",
        "n_arrays": len(arrays),
        **(manifest_extra or {}),
    }
    _write(path, manifest, members)


class _Evil:
    """Pickling this object would run a shell command on unpickling."""

    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        return (os.system, (f"touch {self.marker}",))


def test_roundtrip_is_exact(model_path, fitted):
    model, X = fitted
    loaded = load_model(model_path)
    assert type(loaded) is GaussianNB
    assert loaded.get_params() == model.get_params()
    np.testing.assert_array_equal(loaded.predict(X), model.predict(X))
    assert loaded.predict_proba(X).tobytes() == model.predict_proba(X).tobytes()
    for name, value in vars(model).items():
        other = getattr(loaded, name)
        if isinstance(value, np.ndarray):
            assert value.dtype == other.dtype and value.shape == other.shape
            assert value.tobytes() == other.tobytes() if value.dtype != object else True
        else:
            assert value == other and type(value) is type(other)


def test_info_without_building(model_path):
    info = read_model_info(model_path)
    assert info["format"] == "classiclearn-model"
    assert info["format_version"] == FORMAT_VERSION
    assert info["estimator"] == "GaussianNB"
    assert info["n_features_in"] == 3
    assert info["metadata"] == {"target": "t", "n_samples": 40}
    assert info["structure"]["fitted"]["theta_"] == "array float64 (2, 3)"


def test_missing_file(tmp_path):
    with pytest.raises(ModelFileError, match="does not exist"):
        load_model(tmp_path / "nope.clm")


def test_not_a_zip(tmp_path):
    path = tmp_path / "x.clm"
    path.write_text("hello")
    with pytest.raises(ModelFileError, match="not a classiclearn model file"):
        load_model(path)


@pytest.mark.parametrize("keep", [0.3, 0.6, 0.9, 0.99])
def test_truncated_file(model_path, keep):
    data = model_path.read_bytes()
    model_path.write_bytes(data[: int(len(data) * keep)])
    with pytest.raises(ModelFileError):
        load_model(model_path)


def test_tampered_array_fails_digest(model_path):
    members = _read_members(model_path)
    manifest = json.loads(members.pop("manifest.json"))
    theta = np.lib.format.read_array(io.BytesIO(members["arrays/2.npy"]))
    buf = io.BytesIO()
    np.lib.format.write_array(buf, theta + 1.0)
    members["arrays/2.npy"] = buf.getvalue()
    _write(model_path, manifest, members, fix_digest=False)
    with pytest.raises(ModelFileError, match="SHA-256"):
        load_model(model_path)


def test_tampered_metadata_fails_digest(model_path):
    members = _read_members(model_path)
    manifest = json.loads(members.pop("manifest.json"))
    manifest["metadata"]["target"] = "other"
    _write(model_path, manifest, members, fix_digest=False)
    with pytest.raises(ModelFileError, match="SHA-256"):
        read_model_info(model_path)


@pytest.mark.parametrize("version", [0, 2, 99, "1", None])
def test_other_format_version_is_refused(model_path, version):
    members = _read_members(model_path)
    manifest = json.loads(members.pop("manifest.json"))
    manifest["format_version"] = version
    _write(model_path, manifest, members)
    with pytest.raises(ModelFileError, match="format version"):
        load_model(model_path)


def test_other_format_name_is_refused(model_path):
    members = _read_members(model_path)
    manifest = json.loads(members.pop("manifest.json"))
    manifest["format"] = "something-else"
    _write(model_path, manifest, members)
    with pytest.raises(ModelFileError, match="not a classiclearn model file"):
        load_model(model_path)


def test_pickled_array_cannot_run_code(tmp_path):
    marker = tmp_path / "pwned"
    evil = np.empty(1, dtype=object)
    evil[0] = _Evil(marker)
    buf = io.BytesIO()
    np.lib.format.write_array(buf, evil, allow_pickle=True)
    tree = {"$estimator": {"class": "classiclearn.naive_bayes.GaussianNB", "params": {},
                           "state": {"theta_": {"$array": 0}}}}
    path = tmp_path / "evil.clm"
    _crafted(path, tree, [buf.getvalue()])
    with pytest.raises(ModelFileError):
        load_model(path)
    with pytest.raises(ModelFileError):
        read_model_info(path)
    assert not marker.exists()


@pytest.mark.parametrize(
    "key",
    ["os.system", "builtins.eval", "subprocess.Popen", "classiclearn.io._format._Encoder",
     "classiclearn.base.BaseEstimator", "posix.system", "os:system",
     "classiclearn.io._format:_Encoder", "classiclearn.preprocessing._tabular:np",
     "classiclearn.naive_bayes._gaussian:np", "classiclearn.naive_bayes._gaussian:validate_data",
     "classiclearn.naive_bayes.evil_module:Evil", "classiclearn.utils.validation:Tags",
     "classiclearn.naive_bayes._gaussian:BaseEstimator"],
)
def test_unregistered_class_is_refused(tmp_path, key):
    tree = {"$estimator": {"class": key, "params": {}, "state": {}}}
    path = tmp_path / "evil.clm"
    _crafted(path, tree)
    with pytest.raises(ModelFileError, match="not a registered classiclearn class"):
        load_model(path)


def test_object_tag_with_unregistered_class_is_refused(tmp_path):
    tree = {"$estimator": {"class": "classiclearn.naive_bayes.GaussianNB", "params": {},
                           "state": {"x_": {"$object": {"class": "os.system", "state": {}}}}}}
    path = tmp_path / "evil.clm"
    _crafted(path, tree)
    with pytest.raises(ModelFileError, match="not a registered"):
        load_model(path)


@pytest.mark.parametrize("name", ["__class__", "__dict__", "predict", "fit", "__reduce__",
                                  "not an identifier"])
def test_forbidden_attribute_names(tmp_path, name):
    tree = {"$estimator": {"class": "classiclearn.naive_bayes.GaussianNB", "params": {},
                           "state": {name: 1}}}
    path = tmp_path / "evil.clm"
    _crafted(path, tree)
    with pytest.raises(ModelFileError, match="attribute"):
        load_model(path)


@pytest.mark.parametrize(
    "value",
    [{"$type": "builtins.eval"}, {"$type": "os.system"}, {"$function": "os.system"},
     {"$function": "builtins.exec"}, {"$function": "classiclearn.io.load_model"},
     {"$masked": {"data": {"$array": 0}, "mask": None}}, {"$dtype": "O"}, {"$dtype": "object"},
     {"$scalar": ["O", "00"]}, {"$pickle": "80049500"}, {"$array": 5}, {"a": 1, "b": 2}],
)
def test_forbidden_values(tmp_path, value):
    tree = {"$estimator": {"class": "classiclearn.naive_bayes.GaussianNB", "params": {},
                           "state": {"x_": value}}}
    path = tmp_path / "evil.clm"
    _crafted(path, tree)
    with pytest.raises(ModelFileError):
        load_model(path)


def test_unknown_parameter_is_refused(tmp_path):
    tree = {"$estimator": {"class": "classiclearn.naive_bayes.GaussianNB",
                           "params": {"evil": 1}, "state": {}}}
    path = tmp_path / "evil.clm"
    _crafted(path, tree)
    with pytest.raises(ModelFileError, match="unknown parameters"):
        load_model(path)


def test_unexpected_member_is_refused(model_path):
    members = _read_members(model_path)
    manifest = json.loads(members.pop("manifest.json"))
    members["../../etc/evil"] = b"x"
    _write(model_path, manifest, members)
    with pytest.raises(ModelFileError, match="unexpected member"):
        load_model(model_path)


def test_loading_never_unpickles(model_path, fitted, monkeypatch):
    def boom(*args, **kwargs):
        raise AssertionError("pickle used")

    monkeypatch.setattr(pickle, "loads", boom)
    monkeypatch.setattr(pickle, "load", boom)
    monkeypatch.setattr(pickle, "Unpickler", boom)
    model = load_model(model_path)
    np.testing.assert_array_equal(model.predict(fitted[1]), fitted[0].predict(fitted[1]))


def test_unsavable_value_gives_clear_error_and_no_file(tmp_path, fitted):
    model = fitted[0]
    model.custom_ = lambda x: x
    path = tmp_path / "m.clm"
    with pytest.raises(UnsupportedEstimatorError, match="custom_"):
        save_model(model, path)
    assert os.listdir(tmp_path) == []


def test_not_an_estimator(tmp_path):
    with pytest.raises(UnsupportedEstimatorError):
        save_model({"a": 1}, tmp_path / "m.clm")
    assert os.listdir(tmp_path) == []


def test_metadata_must_be_json(tmp_path, fitted):
    with pytest.raises(TypeError, match="metadata"):
        save_model(fitted[0], tmp_path / "m.clm", metadata={"x": np.zeros(2)})
    assert os.listdir(tmp_path) == []


def test_value_types_roundtrip(tmp_path, fitted):
    model = fitted[0]
    values = {
        "f_": float("nan"),
        "g_": float("-inf"),
        "t_": (1, "a", None, True),
        "s_": {3, 1},
        "fs_": frozenset({"x"}),
        "d_": {"a": [1, 2.5], 3: np.float32(1.5), (1, 2): "tuple key"},
        "b_": b"\x00\xff",
        "c_": 1 + 2j,
        "dt_": np.dtype("<i4"),
        "ty_": np.float32,
        "sc_": np.int64(-7),
        "big_": 2**80,
        "oa_": np.array([1, "a", None, np.array([1.0, 2.0])], dtype=object),
        "fortran_": np.asfortranarray(np.arange(6.0).reshape(2, 3)),
        "rs_": np.random.RandomState(3),
        "ma_": np.ma.MaskedArray([1.0, 2.0, 3.0], mask=[False, True, False]),
        "rec_": np.array([(1, 2.5), (-1, 0.0)], dtype=[("left", "<i8"), ("t", "<f8")]),
    }
    for k, v in values.items():
        setattr(model, k, v)
    path = tmp_path / "m.clm"
    save_model(model, path)
    loaded = load_model(path)
    assert np.isnan(loaded.f_) and loaded.g_ == float("-inf")
    assert loaded.t_ == values["t_"] and type(loaded.t_) is tuple
    assert loaded.s_ == {1, 3} and loaded.fs_ == frozenset({"x"})
    assert loaded.d_ == values["d_"] and type(loaded.d_[3]) is np.float32
    assert loaded.b_ == values["b_"] and loaded.c_ == values["c_"]
    assert loaded.dt_ == values["dt_"] and loaded.ty_ is np.float32
    assert loaded.sc_ == -7 and type(loaded.sc_) is np.int64
    assert loaded.big_ == 2**80
    assert loaded.oa_.dtype == object and loaded.oa_[1] == "a" and loaded.oa_[2] is None
    np.testing.assert_array_equal(loaded.oa_[3], [1.0, 2.0])
    assert loaded.fortran_.flags.f_contiguous
    np.testing.assert_array_equal(loaded.fortran_, values["fortran_"])
    assert loaded.rs_.randint(1000) == np.random.RandomState(3).randint(1000)
    assert loaded.rec_.dtype == values["rec_"].dtype
    assert loaded.rec_.tobytes() == values["rec_"].tobytes()
    assert isinstance(loaded.ma_, np.ma.MaskedArray)
    np.testing.assert_array_equal(loaded.ma_.mask, [False, True, False])
    assert loaded.ma_.sum() == 4.0


def test_oversized_archive_is_refused_before_reading(model_path, monkeypatch):
    monkeypatch.setattr(fmt, "_MAX_TOTAL_BYTES", 100)
    with pytest.raises(ModelFileError, match="refused"):
        load_model(model_path)


def test_deeply_nested_json_is_refused(tmp_path):
    path = tmp_path / "deep.clm"
    members = {"model.json": ("[" * 100000 + "]" * 100000).encode()}
    manifest = {"format": "classiclearn-model", "format_version": FORMAT_VERSION, "n_arrays": 0}
    _write(path, manifest, members)
    with pytest.raises(ModelFileError):
        load_model(path)
    tree = {"$estimator": {"class": "classiclearn.naive_bayes.GaussianNB", "params": {},
                           "state": {"x_": [[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]] * 1}}}
    node = tree["$estimator"]["state"]
    for _ in range(300):
        node = {"$tuple": [node]}
    tree["$estimator"]["state"] = {"x_": node}
    _crafted(path, tree)
    with pytest.raises(ModelFileError, match="nested too deeply"):
        load_model(path)


def test_structured_dtype_with_object_field_is_refused(tmp_path, fitted):
    model = fitted[0]
    model.rec_ = np.array([(1, "a")], dtype=[("n", "<i8"), ("o", "O")])
    with pytest.raises(UnsupportedEstimatorError, match="dtype"):
        save_model(model, tmp_path / "m.clm")
    assert os.listdir(tmp_path) == []
