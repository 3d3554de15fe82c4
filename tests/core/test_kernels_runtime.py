"""Kernels compiled without numba's runtime (``_nrt=False``, see
``_kernels/refcounts.py``) never return an array: their caller would release a
reference it was never given."""

import importlib
import pkgutil

import numpy as np
from numba.core import types
from numba.core.caching import NullCache
from numba.core.registry import CPUDispatcher

import classiclearn


def _holds_array(ty):
    if isinstance(ty, types.Array):
        return True
    if isinstance(ty, types.BaseTuple):
        return any(_holds_array(t) for t in ty.types)
    return False


def _runtime_free_dispatchers():
    found = {}
    for info in pkgutil.walk_packages(classiclearn.__path__, "classiclearn."):
        if "kernels" not in info.name.rsplit(".", 1)[-1]:
            continue
        module = importlib.import_module(info.name)
        for name, obj in vars(module).items():
            if isinstance(obj, CPUDispatcher) and obj.targetoptions.get("_nrt") is False:
                found[f"{obj.py_func.__module__}.{name}"] = obj
    return found


def test_runtime_free_kernels_return_no_arrays():
    from classiclearn.svm import SVC, SVR
    from classiclearn.tree import DecisionTreeClassifier

    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 3))
    y = (X[:, 0] > 0).astype(int)
    SVC(kernel="linear").fit(X, y)
    SVR().fit(X, X[:, 1])
    DecisionTreeClassifier(max_depth=3).fit(X, y)
    dispatchers = _runtime_free_dispatchers()
    if _count_overloads(dispatchers) < 10:
        # the entry kernels came from numba's on-disk cache, which does not type
        # their callees: compile the entry kernels afresh (their callees then come
        # from the cache with their signatures)
        for disp in dispatchers.values():
            if disp.overloads:
                cache, disp._cache = disp._cache, NullCache()
                try:
                    disp.recompile()
                finally:
                    disp._cache = cache
    checked = _count_overloads(dispatchers)
    offenders = [f"{name}{sig} -> {cres.signature.return_type}"
                 for name, disp in dispatchers.items()
                 for sig, cres in disp.overloads.items()
                 if _holds_array(cres.signature.return_type)]
    assert checked >= 10  # the fits above compiled (or loaded) runtime-free kernels
    assert offenders == []


def _count_overloads(dispatchers):
    return sum(len(disp.overloads) for disp in dispatchers.values())
