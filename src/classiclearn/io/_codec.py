"""Encoding estimators as tagged JSON plus arrays, and decoding them without running code.

:class:`_Encoder` turns an estimator into a JSON tree whose arrays are set aside
(written as ``.npy`` members by :mod:`._format`); :class:`_Decoder` rebuilds it,
building only classes from :func:`_allowed_classes` (classiclearn's own public
classes) or helper classes defined in classiclearn's family modules, and only
the value types listed in ``FORMAT.md``. Nothing here imports a module named by
a file, unpickles, or evaluates text.
"""

import importlib
import math
import sys
import types

import numpy as np

from ..utils.discovery import NOT_FAMILIES, family_names

_ARRAY_KINDS = set("biufcUSmM")


def _array_dtype_ok(dtype):
    """Plain dtypes, or structured dtypes whose every field is plain (never an object)."""
    if dtype.subdtype is not None:
        return _array_dtype_ok(dtype.subdtype[0])
    if dtype.fields is not None:
        return len(dtype.fields) > 0 and all(
            _array_dtype_ok(field[0]) for field in dtype.fields.values()
        )
    return dtype.kind in _ARRAY_KINDS
_MAX_DEPTH = 200

# packages without estimators whose helper objects (scorers) and public functions may be saved
_HELPER_PACKAGES = {"metrics"}
# Classes outside the family modules that model files may hold: a fixed table,
# never extended from a file's content.
_EXTRA_CLASSES = {
    "classiclearn.preprocessing.TabularEncoder": ("classiclearn.preprocessing._tabular",
                                                  "TabularEncoder"),
    # the name model files written before the encoder moved to preprocessing carry
    "classiclearn.cli.TabularEncoder": ("classiclearn.preprocessing._tabular", "TabularEncoder"),
}
_TYPES = {
    "float": float,
    "int": int,
    "bool": bool,
    "str": str,
    "complex": complex,
    "numpy.float64": np.float64,
    "numpy.float32": np.float32,
    "numpy.float16": np.float16,
    "numpy.int64": np.int64,
    "numpy.int32": np.int32,
    "numpy.int16": np.int16,
    "numpy.int8": np.int8,
    "numpy.uint64": np.uint64,
    "numpy.uint32": np.uint32,
    "numpy.uint16": np.uint16,
    "numpy.uint8": np.uint8,
    "numpy.bool": np.bool_,
    "numpy.complex128": np.complex128,
    "numpy.complex64": np.complex64,
}
_TYPE_NAMES = {v: k for k, v in _TYPES.items()}


class ModelFileError(ValueError):
    """A model file cannot be read: missing, truncated, tampered with, or of another version.

    Examples
    --------
    >>> issubclass(ModelFileError, ValueError)
    True
    """


class UnsupportedEstimatorError(TypeError):
    """An estimator holds a value the model file format cannot represent safely.

    Examples
    --------
    >>> issubclass(UnsupportedEstimatorError, TypeError)
    True
    """


# --------------------------------------------------------------------------- classes


def _allowed_classes():
    """Map ``classiclearn.<family>.<Name>`` to every public class of the family modules."""
    table = {}
    for family in family_names():
        try:
            module = importlib.import_module(f"classiclearn.{family}")
        except Exception:  # a family that cannot be imported has nothing to load
            continue
        for name in getattr(module, "__all__", []):
            obj = getattr(module, name, None)
            if isinstance(obj, type):
                table[f"classiclearn.{family}.{name}"] = obj
    return table


def _family_module(module_name):
    """Whether ``module_name`` is a module of a classiclearn estimator family."""
    parts = module_name.split(".")
    return (
        len(parts) >= 2
        and parts[0] == "classiclearn"
        and not parts[1].startswith("_")
        and (parts[1] not in NOT_FAMILIES or parts[1] in _HELPER_PACKAGES)
        and all(p.isidentifier() for p in parts)
    )


def _allowed_functions():
    """Map ``classiclearn.metrics.<name>`` to the public metric functions (scorers hold them)."""
    table = {}
    for package in sorted(_HELPER_PACKAGES):
        module = importlib.import_module(f"classiclearn.{package}")
        for name in getattr(module, "__all__", []):
            obj = getattr(module, name, None)
            if isinstance(obj, types.FunctionType):
                table[f"classiclearn.{package}.{name}"] = obj
    return table


def _class_key(cls, table):
    for key, value in table.items():
        if value is cls:
            return key
    for key, (module, name) in _EXTRA_CLASSES.items():
        if cls.__module__ == module and cls.__qualname__ == name:
            return key
    # a helper class defined at the top level of a family module (e.g. a tree structure)
    module = sys.modules.get(cls.__module__)
    if (
        module is not None
        and _family_module(cls.__module__)
        and "." not in cls.__qualname__
        and getattr(module, cls.__qualname__, None) is cls
    ):
        return f"{cls.__module__}:{cls.__qualname__}"
    return None


def _class_from_key(key, table):
    if not isinstance(key, str):
        raise ModelFileError("the model file holds a malformed class name")
    if key in table:
        return table[key]
    if key in _EXTRA_CLASSES:
        module, name = _EXTRA_CLASSES[key]
        return getattr(importlib.import_module(module), name)
    module_name, sep, qualname = key.partition(":")
    if sep and _family_module(module_name) and qualname.isidentifier():
        # only modules the family packages already imported; nothing is imported here
        module = sys.modules.get(module_name)
        cls = getattr(module, qualname, None) if module is not None else None
        if isinstance(cls, type) and cls.__module__ == module_name:
            return cls
    raise ModelFileError(
        f"the model file names class {key!r}, which is not a registered classiclearn class"
    )


# --------------------------------------------------------------------------- encoding


def _saved_state(obj):
    """The attributes to save: what the class's own ``__getstate__`` gives (as pickle
    stores it, e.g. without the training arrays an unpenalised logistic fit keeps),
    else ``vars(obj)``."""
    if type(obj).__getstate__ is not object.__getstate__:
        return obj.__getstate__()
    return vars(obj)


class _Encoder:
    def __init__(self):
        self.arrays = []
        self.table = _allowed_classes()

    def fail(self, where, value, why="is not supported by the model file format"):
        raise UnsupportedEstimatorError(
            f"cannot save {where}: a value of type {type(value).__module__}."
            f"{type(value).__qualname__} {why}"
        )

    def encode(self, value, where, depth=0):
        if depth > _MAX_DEPTH:
            raise UnsupportedEstimatorError(f"cannot save {where}: nesting too deep")
        from ..base import BaseEstimator

        if value is None or isinstance(value, bool | str):
            return value
        if isinstance(value, int) and type(value) is int:
            return value
        if type(value) is float:
            if math.isfinite(value):
                return value
            return {"$float": repr(value)}
        if isinstance(value, np.ma.MaskedArray):
            return {
                "$masked": {
                    "data": self.encode_array(np.asarray(value.data), where, depth),
                    "mask": self.encode_array(np.ma.getmaskarray(value), where, depth),
                }
            }
        if isinstance(value, np.ndarray):
            return self.encode_array(value, where, depth)
        if isinstance(value, types.FunctionType):
            for key, func in _allowed_functions().items():
                if func is value:
                    return {"$function": key}
            self.fail(where, value, "(a function) cannot be saved safely")
        if isinstance(value, np.generic):
            dtype = value.dtype
            if dtype.kind not in _ARRAY_KINDS or dtype.fields is not None:
                self.fail(where, value)
            return {"$scalar": [dtype.str, value.tobytes().hex()]}
        if isinstance(value, np.dtype):
            if value.kind not in _ARRAY_KINDS or value.fields is not None:
                self.fail(where, value)
            return {"$dtype": value.str}
        if isinstance(value, type):
            if value in _TYPE_NAMES:
                return {"$type": _TYPE_NAMES[value]}
            self.fail(where, value, f"(the class {value.__qualname__}) cannot be saved")
        if type(value) is list:
            return [self.encode(v, f"{where}[{i}]", depth + 1) for i, v in enumerate(value)]
        if type(value) is tuple:
            return {
                "$tuple": [self.encode(v, f"{where}[{i}]", depth + 1) for i, v in enumerate(value)]
            }
        if type(value) in (set, frozenset):
            items = sorted(value, key=repr)
            kind = "$set" if type(value) is set else "$frozenset"
            return {kind: [self.encode(v, f"{where}{{}}", depth + 1) for v in items]}
        if type(value) is dict:
            return {
                "$dict": [
                    [
                        self.encode(k, f"{where} key", depth + 1),
                        self.encode(v, f"{where}[{k!r}]", depth + 1),
                    ]
                    for k, v in value.items()
                ]
            }
        if type(value) is bytes:
            return {"$bytes": value.hex()}
        if type(value) is complex:
            return {"$complex": [repr(value.real), repr(value.imag)]}
        if isinstance(value, np.random.RandomState):
            return {"$randomstate": self.encode(value.get_state(), where, depth + 1)}
        if isinstance(value, BaseEstimator):
            return self.encode_estimator(value, where, depth)
        key = _class_key(type(value), self.table)
        if key is not None and hasattr(value, "__dict__") and not hasattr(type(value), "__slots__"):
            state = {
                name: self.encode(v, f"{where}.{name}", depth + 1)
                for name, v in _saved_state(value).items()
            }
            return {"$object": {"class": key, "state": state}}
        if callable(value):
            self.fail(where, value, "(a function or callable) cannot be saved safely")
        self.fail(where, value)

    def encode_array(self, value, where, depth):
        if value.dtype.kind == "O":
            items = [
                self.encode(v, f"{where}[{i}]", depth + 1) for i, v in enumerate(value.ravel())
            ]
            return {"$objarray": {"shape": list(value.shape), "items": items}}
        if not _array_dtype_ok(value.dtype):
            self.fail(where, value, f"with dtype {value.dtype} cannot be saved")
        self.arrays.append(value)
        return {"$array": len(self.arrays) - 1}

    def encode_estimator(self, est, where, depth):
        cls = type(est)
        key = _class_key(cls, self.table)
        if key is None:
            raise UnsupportedEstimatorError(
                f"cannot save {where}: {cls.__module__}.{cls.__qualname__} is not a registered "
                "classiclearn estimator"
            )
        names = cls._get_param_names()
        params = {}
        for name in names:
            params[name] = self.encode(getattr(est, name), f"{where}.{name}", depth + 1)
        state = {}
        for name, value in _saved_state(est).items():
            if name in params:
                continue
            state[name] = self.encode(value, f"{where}.{name}", depth + 1)
        return {"$estimator": {"class": key, "params": params, "state": state}}


# --------------------------------------------------------------------------- decoding


class _Decoder:
    def __init__(self, arrays):
        self.arrays = arrays
        self.table = _allowed_classes()

    def decode(self, node, depth=0):
        if depth > _MAX_DEPTH:
            raise ModelFileError("the model file is nested too deeply")
        if node is None or isinstance(node, bool | str | int | float):
            return node
        if isinstance(node, list):
            return [self.decode(v, depth + 1) for v in node]
        if not isinstance(node, dict) or len(node) != 1:
            raise ModelFileError("the model file holds a malformed value")
        ((tag, body),) = node.items()
        handler = self._HANDLERS.get(tag)
        if handler is None:
            raise ModelFileError(f"the model file holds an unknown value tag {tag!r}")
        return handler(self, body, depth)

    def _float(self, body, depth):
        if body not in ("nan", "inf", "-inf"):
            raise ModelFileError("the model file holds a malformed float")
        # np.nan itself, so that a default of np.nan is recognised as the default (repr)
        return np.nan if body == "nan" else float(body)

    def _array(self, body, depth):
        if type(body) is not int or not 0 <= body < len(self.arrays):
            raise ModelFileError("the model file refers to a missing array")
        return self.arrays[body]

    def _objarray(self, body, depth):
        shape, items = _fields(body, "shape", "items")
        if not isinstance(shape, list) or not all(type(s) is int and s >= 0 for s in shape):
            raise ModelFileError("the model file holds a malformed object array")
        if not isinstance(items, list) or len(items) != math.prod(shape):
            raise ModelFileError("the model file holds a malformed object array")
        out = np.empty(len(items), dtype=object)
        for i, item in enumerate(items):
            out[i] = self.decode(item, depth + 1)
        return out.reshape(shape)

    def _dtype(self, text):
        if not isinstance(text, str) or len(text) > 16:
            raise ModelFileError("the model file holds a malformed dtype")
        try:
            dtype = np.dtype(text)
        except TypeError as exc:
            raise ModelFileError("the model file holds a malformed dtype") from exc
        if dtype.kind not in _ARRAY_KINDS or dtype.fields is not None:
            raise ModelFileError("the model file holds a forbidden dtype")
        return dtype

    def _scalar(self, body, depth):
        if not isinstance(body, list) or len(body) != 2 or not isinstance(body[1], str):
            raise ModelFileError("the model file holds a malformed scalar")
        dtype = self._dtype(body[0])
        try:
            raw = bytes.fromhex(body[1])
        except ValueError as exc:
            raise ModelFileError("the model file holds a malformed scalar") from exc
        if len(raw) != dtype.itemsize:
            raise ModelFileError("the model file holds a malformed scalar")
        return np.frombuffer(raw, dtype=dtype)[0]

    def _dtype_node(self, body, depth):
        return self._dtype(body)

    def _type(self, body, depth):
        if body not in _TYPES:
            raise ModelFileError(f"the model file names an unknown type {body!r}")
        return _TYPES[body]

    def _tuple(self, body, depth):
        return tuple(self._list(body, depth))

    def _list(self, body, depth):
        if not isinstance(body, list):
            raise ModelFileError("the model file holds a malformed list")
        return [self.decode(v, depth + 1) for v in body]

    def _set(self, body, depth):
        return set(self._list(body, depth))

    def _frozenset(self, body, depth):
        return frozenset(self._list(body, depth))

    def _dict(self, body, depth):
        if not isinstance(body, list):
            raise ModelFileError("the model file holds a malformed mapping")
        out = {}
        for pair in body:
            if not isinstance(pair, list) or len(pair) != 2:
                raise ModelFileError("the model file holds a malformed mapping")
            key = self.decode(pair[0], depth + 1)
            try:
                hash(key)
            except TypeError as exc:
                raise ModelFileError("the model file holds a malformed mapping") from exc
            out[key] = self.decode(pair[1], depth + 1)
        return out

    def _bytes(self, body, depth):
        try:
            return bytes.fromhex(body)
        except (TypeError, ValueError) as exc:
            raise ModelFileError("the model file holds malformed bytes") from exc

    def _complex(self, body, depth):
        try:
            return complex(float(body[0]), float(body[1]))
        except (TypeError, ValueError, IndexError) as exc:
            raise ModelFileError("the model file holds a malformed complex number") from exc

    def _masked(self, body, depth):
        data, mask = _fields(body, "data", "mask")
        data, mask = self.decode(data, depth + 1), self.decode(mask, depth + 1)
        if not (isinstance(data, np.ndarray) and isinstance(mask, np.ndarray)):
            raise ModelFileError("the model file holds a malformed masked array")
        if mask.dtype != bool or mask.shape != data.shape:
            raise ModelFileError("the model file holds a malformed masked array")
        return np.ma.MaskedArray(data, mask=mask)

    def _function(self, body, depth):
        table = _allowed_functions()
        if not isinstance(body, str) or body not in table:
            raise ModelFileError(
                f"the model file names function {body!r}, which is not a classiclearn metric"
            )
        return table[body]

    def _randomstate(self, body, depth):
        state = self.decode(body, depth + 1)
        rs = np.random.RandomState()
        try:
            rs.set_state(state)
        except (TypeError, ValueError) as exc:
            raise ModelFileError("the model file holds a malformed random state") from exc
        return rs

    def _state(self, obj, cls, state, depth):
        if not isinstance(state, dict):
            raise ModelFileError("the model file holds a malformed object state")
        for name, value in state.items():
            if not name.isidentifier() or name.startswith("__"):
                raise ModelFileError(f"the model file sets a forbidden attribute {name!r}")
            attr = getattr(cls, name, None)
            if callable(attr) or hasattr(attr, "__get__") or hasattr(attr, "__set__"):
                raise ModelFileError(
                    f"the model file sets attribute {name!r}, which is a method or property of "
                    f"{cls.__name__}"
                )
            obj.__dict__[name] = self.decode(value, depth + 1)

    def _estimator(self, body, depth):
        from ..base import BaseEstimator

        key, params, state = _fields(body, "class", "params", "state")
        cls = _class_from_key(key, self.table)
        if not (isinstance(cls, type) and issubclass(cls, BaseEstimator)):
            raise ModelFileError(f"the model file names {key!r} as an estimator, which it is not")
        if not isinstance(params, dict):
            raise ModelFileError("the model file holds malformed parameters")
        known = set(cls._get_param_names())
        unknown = sorted(set(params) - known)
        if unknown:
            raise ModelFileError(
                f"the model file gives {cls.__name__} unknown parameters {unknown}; it was "
                "written by another version of classiclearn"
            )
        decoded = {name: self.decode(v, depth + 1) for name, v in params.items()}
        obj = cls(**decoded)
        self._state(obj, cls, state, depth)
        return obj

    def _object(self, body, depth):
        key, state = _fields(body, "class", "state")
        cls = _class_from_key(key, self.table)
        obj = cls.__new__(cls)
        self._state(obj, cls, state, depth)
        return obj

    _HANDLERS = {
        "$float": _float,
        "$array": _array,
        "$objarray": _objarray,
        "$scalar": _scalar,
        "$dtype": _dtype_node,
        "$type": _type,
        "$tuple": _tuple,
        "$set": _set,
        "$frozenset": _frozenset,
        "$dict": _dict,
        "$bytes": _bytes,
        "$complex": _complex,
        "$randomstate": _randomstate,
        "$masked": _masked,
        "$function": _function,
        "$estimator": _estimator,
        "$object": _object,
    }


def _fields(body, *names):
    if not isinstance(body, dict) or set(body) != set(names):
        raise ModelFileError("the model file holds a malformed record")
    return tuple(body[n] for n in names)
