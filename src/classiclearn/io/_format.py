"""Reading and writing classiclearn model files (format ``classiclearn-model``, version 1).

The file is a zip archive with three kinds of members:

- ``manifest.json``: format name and version, library version, creation time,
  the estimator's class, free metadata, and the SHA-256 digest of everything;
- ``model.json``: the estimator as a tree of tagged JSON values;
- ``arrays/<i>.npy``: every non-object NumPy array, in NumPy's ``.npy`` format.

See ``FORMAT.md`` for the full description. Values are encoded and decoded by
:mod:`._codec`, which only builds classiclearn's own classes; this module reads
arrays with ``allow_pickle=False`` and never calls ``pickle`` or ``eval``.
"""

import datetime
import hashlib
import io
import json
import os
import re
import zipfile
import zlib

import numpy as np

from ._codec import (
    ModelFileError,
    UnsupportedEstimatorError,
    _array_dtype_ok,
    _Decoder,
    _Encoder,
)

__all__ = [
    "FORMAT_NAME",
    "FORMAT_VERSION",
    "ModelFileError",
    "UnsupportedEstimatorError",
    "load_model",
    "read_model_info",
    "save_model",
]

FORMAT_NAME = "classiclearn-model"
FORMAT_VERSION = 1

_MANIFEST = "manifest.json"
_MODEL = "model.json"
_ARRAY_NAME = re.compile(r"^arrays/(0|[1-9][0-9]{0,8})\.npy$")
_MAX_TOTAL_BYTES = 1 << 34  # 16 GiB unpacked: refuses zip bombs before reading


# --------------------------------------------------------------------------- archive


def _digest(members, manifest):
    """SHA-256 over the manifest (without its digest) and every other member, in name order."""
    h = hashlib.sha256()
    head = {k: v for k, v in manifest.items() if k != "content_sha256"}
    blob = json.dumps(head, sort_keys=True, separators=(",", ":")).encode()
    h.update(len(blob).to_bytes(8, "little"))
    h.update(blob)
    for name in sorted(members):
        data = members[name]
        h.update(name.encode())
        h.update(b"\0")
        h.update(len(data).to_bytes(8, "little"))
        h.update(data)
    return h.hexdigest()


def _npy_bytes(array):
    buf = io.BytesIO()
    np.lib.format.write_array(buf, array, allow_pickle=False)
    return buf.getvalue()


def _plain_json(value, where):
    try:
        json.dumps(value, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise TypeError(
            f"{where} must hold only JSON values (str, int, float, bool, None, "
            f"lists and dicts): {exc}"
        ) from exc
    return value


def _feature_info(estimator):
    info = {}
    n = getattr(estimator, "n_features_in_", None)
    if isinstance(n, int | np.integer):
        info["n_features_in"] = int(n)
    names = getattr(estimator, "feature_names_in_", None)
    if isinstance(names, np.ndarray) and all(isinstance(v, str) for v in names.ravel()):
        info["feature_names_in"] = [str(v) for v in names]
    return info


def save_model(estimator, path, *, metadata=None):
    """Save an estimator (fitted or not) to a model file.

    The file is written to a temporary name next to ``path`` and renamed only
    when complete, so a failure never leaves a partial file behind.

    Parameters
    ----------
    estimator : classiclearn estimator
        A registered classiclearn estimator or a pipeline of them. Every
        parameter and fitted attribute must be a NumPy array (not of object
        dtype, unless its items are themselves savable), a NumPy scalar, a
        Python number, string, bool, None, or a list / tuple / dict / set of
        these, or a nested classiclearn estimator.
    path : str or path-like
        Where to write the file (by convention with the suffix ``.clm``).
    metadata : dict, optional
        Extra JSON values recorded in the manifest (e.g. the training data's
        shape and target column).

    Raises
    ------
    UnsupportedEstimatorError
        If the estimator holds a value the format cannot represent safely
        (a function, an unregistered class, a compiled object, ...).

    Examples
    --------
    >>> import os, tempfile
    >>> from classiclearn.naive_bayes import GaussianNB
    >>> path = os.path.join(tempfile.mkdtemp(), "m.clm")
    >>> save_model(GaussianNB().fit([[0.0], [1.0]], [0, 1]), path)
    >>> read_model_info(path)["estimator"]
    'GaussianNB'
    """
    from .. import __version__

    encoder = _Encoder()
    tree = encoder.encode(estimator, type(estimator).__name__)
    if not isinstance(tree, dict) or "$estimator" not in tree:
        raise UnsupportedEstimatorError(
            f"save_model expects a classiclearn estimator, got {type(estimator).__qualname__}"
        )
    members = {_MODEL: json.dumps(tree, allow_nan=False, separators=(",", ":")).encode()}
    for i, array in enumerate(encoder.arrays):
        members[f"arrays/{i}.npy"] = _npy_bytes(array)
    manifest = {
        "format": FORMAT_NAME,
        "format_version": FORMAT_VERSION,
        "library": "classiclearn",
        "library_version": __version__,
        "created_utc": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "estimator": type(estimator).__name__,
        "estimator_class": tree["$estimator"]["class"],
        **_feature_info(estimator),
        "metadata": _plain_json(dict(metadata or {}), "metadata"),
        "n_arrays": len(encoder.arrays),
    }
    manifest["content_sha256"] = _digest(members, manifest)
    path = os.fspath(path)
    directory = os.path.dirname(os.path.abspath(path))
    tmp = os.path.join(directory, f".{os.path.basename(path)}.{os.getpid()}.tmp")
    try:
        with zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_DEFLATED) as zf:
            zf.writestr(_MANIFEST, json.dumps(manifest, indent=2, sort_keys=True))
            for name, data in members.items():
                zf.writestr(name, data)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.remove(tmp)
        raise


def _read_archive(path):
    """Read and verify a model file; return (manifest, tree, arrays)."""
    path = os.fspath(path)
    if not os.path.exists(path):
        raise ModelFileError(f"model file {path!r} does not exist")
    if os.path.isdir(path):
        raise ModelFileError(f"model file {path!r} is a directory")
    try:
        with zipfile.ZipFile(path) as zf:
            infos = zf.infolist()
            names = [i.filename for i in infos]
            if _MANIFEST not in names:
                raise ModelFileError(f"{path!r} is not a classiclearn model file (no manifest)")
            if len(set(names)) != len(names):
                raise ModelFileError(f"{path!r} holds duplicate members (tampered with)")
            for name in names:
                if name not in (_MANIFEST, _MODEL) and not _ARRAY_NAME.match(name):
                    raise ModelFileError(f"{path!r} holds an unexpected member {name!r}")
            if sum(i.file_size for i in infos) > _MAX_TOTAL_BYTES:
                raise ModelFileError(
                    f"{path!r} would unpack to more than {_MAX_TOTAL_BYTES} bytes; refused"
                )
            members = {name: zf.read(name) for name in names}
    except zipfile.BadZipFile as exc:
        raise ModelFileError(
            f"{path!r} is not a classiclearn model file, or it is truncated or corrupted ({exc})"
        ) from exc
    except (OSError, EOFError, zlib.error) as exc:
        raise ModelFileError(
            f"cannot read model file {path!r}: it is truncated or corrupted ({exc})"
        ) from exc
    try:
        manifest = json.loads(members.pop(_MANIFEST))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        raise ModelFileError(f"{path!r} has an unreadable manifest (corrupted)") from exc
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT_NAME:
        raise ModelFileError(f"{path!r} is not a classiclearn model file")
    version = manifest.get("format_version")
    if version != FORMAT_VERSION:
        raise ModelFileError(
            f"{path!r} uses model file format version {version!r}; this classiclearn "
            f"reads only version {FORMAT_VERSION} (written by classiclearn "
            f"{manifest.get('library_version', '?')})"
        )
    try:
        digest = _digest(members, manifest)
    except (RecursionError, TypeError, ValueError) as exc:
        raise ModelFileError(f"{path!r} has a malformed manifest") from exc
    if digest != manifest.get("content_sha256"):
        raise ModelFileError(
            f"{path!r} failed its SHA-256 integrity check: it was modified or corrupted"
        )
    if _MODEL not in members:
        raise ModelFileError(f"{path!r} has no model.json member")
    try:
        tree = json.loads(members.pop(_MODEL))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        raise ModelFileError(f"{path!r} has an unreadable model.json") from exc
    return manifest, tree, members


def _load_arrays(members, manifest):
    n = manifest.get("n_arrays")
    if type(n) is not int or n != len(members):
        raise ModelFileError("the model file's array count does not match its manifest")
    arrays = []
    for i in range(n):
        data = members.get(f"arrays/{i}.npy")
        if data is None:
            raise ModelFileError(f"the model file lacks array {i}")
        try:
            array = np.lib.format.read_array(io.BytesIO(data), allow_pickle=False)
        except (ValueError, OSError, EOFError) as exc:
            raise ModelFileError(f"the model file holds an unreadable array ({exc})") from exc
        if not _array_dtype_ok(array.dtype):
            raise ModelFileError("the model file holds an array of a forbidden dtype")
        arrays.append(array)
    return arrays


def load_model(path):
    """Load an estimator saved by :func:`save_model`.

    Parameters
    ----------
    path : str or path-like

    Returns
    -------
    estimator
        The estimator, with the same parameters and fitted attributes (arrays
        equal bit for bit), so it predicts exactly as before saving.

    Raises
    ------
    ModelFileError
        If the file is missing, is not a model file, is truncated or was
        modified (its SHA-256 digest does not match), names a class that is not
        a registered classiclearn class, or uses another format version.

    Examples
    --------
    >>> import os, tempfile
    >>> from classiclearn.naive_bayes import GaussianNB
    >>> path = os.path.join(tempfile.mkdtemp(), "m.clm")
    >>> save_model(GaussianNB().fit([[0.0], [1.0]], [0, 1]), path)
    >>> load_model(path)
    GaussianNB()
    """
    manifest, tree, members = _read_archive(path)
    arrays = _load_arrays(members, manifest)
    if not isinstance(tree, dict) or "$estimator" not in tree:
        raise ModelFileError("the model file does not hold an estimator")
    try:
        return _Decoder(arrays).decode(tree)
    except ModelFileError:
        raise
    except (TypeError, ValueError, RecursionError) as exc:
        raise ModelFileError(f"the model file could not be rebuilt: {exc}") from exc


def _describe(node, arrays_meta):
    """A short human-readable description of an encoded value (no objects are built)."""
    if isinstance(node, dict) and len(node) == 1:
        ((tag, body),) = node.items()
        if tag == "$array" and isinstance(body, int) and body < len(arrays_meta):
            dtype, shape = arrays_meta[body]
            return f"array {dtype} {tuple(shape)}"
        if tag == "$objarray" and isinstance(body, dict):
            return f"array object {tuple(body.get('shape', []))}"
        if tag == "$estimator" and isinstance(body, dict):
            return _describe_estimator(body, arrays_meta)
        if tag == "$float":
            return body
        if tag == "$scalar" and isinstance(body, list) and len(body) == 2:
            try:
                return repr(
                    np.frombuffer(bytes.fromhex(body[1]), dtype=np.dtype(body[0]))[0].item()
                )
            except (TypeError, ValueError):
                return "scalar"
        if tag in ("$tuple", "$set", "$frozenset") and isinstance(body, list):
            return [_describe(v, arrays_meta) for v in body]
        if tag == "$dict" and isinstance(body, list):
            return {
                str(_describe(p[0], arrays_meta)): _describe(p[1], arrays_meta)
                for p in body
                if isinstance(p, list) and len(p) == 2
            }
        if tag == "$type":
            return f"<type {body}>"
        return tag[1:]
    if isinstance(node, list):
        return [_describe(v, arrays_meta) for v in node]
    return node


def _describe_estimator(body, arrays_meta):
    return {
        "class": body.get("class"),
        "params": {k: _describe(v, arrays_meta) for k, v in (body.get("params") or {}).items()},
        "fitted": {k: _describe(v, arrays_meta) for k, v in (body.get("state") or {}).items()},
    }


def read_model_info(path):
    """What a model file holds, without building the estimator.

    Parameters
    ----------
    path : str or path-like

    Returns
    -------
    dict
        The manifest (format and library versions, estimator class, feature
        names, metadata, SHA-256) plus ``"structure"``: the class, parameters
        and fitted attributes (arrays as dtype and shape) of the estimator and
        of every nested estimator.

    Raises
    ------
    ModelFileError
        As :func:`load_model`.
    """
    manifest, tree, members = _read_archive(path)
    arrays = _load_arrays(members, manifest)
    meta = [(str(a.dtype), list(a.shape)) for a in arrays]
    info = dict(manifest)
    body = tree.get("$estimator") if isinstance(tree, dict) else None
    if not isinstance(body, dict):
        raise ModelFileError("the model file does not hold an estimator")
    info["structure"] = _describe_estimator(body, meta)
    return info
