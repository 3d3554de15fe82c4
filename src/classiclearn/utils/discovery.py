"""The estimator registry: every public estimator class, found by walking the package.

An estimator is registered by being listed in its family's ``__all__``; tests,
benchmarks and the command line all read this one list.
"""

import importlib
import inspect
import pkgutil

__all__ = ["NOT_FAMILIES", "all_estimators", "family_names"]

# top-level modules of the package that hold no estimator family
NOT_FAMILIES = frozenset({"cli", "io", "utils", "base", "exceptions", "datasets", "metrics"})


def _kind_mixins():
    from ..base import ClassifierMixin, ClusterMixin, RegressorMixin, TransformerMixin

    return {
        "classifier": ClassifierMixin,
        "regressor": RegressorMixin,
        "cluster": ClusterMixin,
        "transformer": TransformerMixin,
    }


def family_names():
    """Names of the estimator families (``neighbors``, ``linear_model``, ...).

    Returns
    -------
    list of str
        The public subpackages and modules of ``classiclearn`` that hold
        estimators, sorted.

    Examples
    --------
    >>> "tree" in family_names()
    True
    """
    import classiclearn

    return sorted(
        info.name
        for info in pkgutil.iter_modules(classiclearn.__path__)
        if not info.name.startswith("_") and info.name not in NOT_FAMILIES
    )


def _family_modules():
    for name in family_names():
        yield importlib.import_module(f"classiclearn.{name}")


def _is_estimator_class(obj):
    from ..base import BaseEstimator

    return (
        inspect.isclass(obj)
        and issubclass(obj, BaseEstimator)
        and not obj.__name__.startswith("_")
        and not inspect.isabstract(obj)
        and hasattr(obj, "fit")
    )


def all_estimators(type_filter=None):
    """List every public estimator class of classiclearn.

    Parameters
    ----------
    type_filter : {"classifier", "regressor", "cluster", "transformer"} or list, optional
        Keep only estimators of these kinds.

    Returns
    -------
    list of (name, class)
        Sorted by name.

    Examples
    --------
    >>> names = [name for name, _ in all_estimators("classifier")]
    >>> "GaussianNB" in names
    True
    """
    found = {}
    for module in _family_modules():
        for name in getattr(module, "__all__", []):
            obj = getattr(module, name)
            if _is_estimator_class(obj):
                found[name] = obj
    items = sorted(found.items())
    if type_filter is None:
        return items
    mixins = _kind_mixins()
    kinds = [type_filter] if isinstance(type_filter, str) else list(type_filter)
    for kind in kinds:
        if kind not in mixins:
            raise ValueError(f"type_filter must be one of {sorted(mixins)} or None; got {kind!r}")
    wanted = tuple(mixins[kind] for kind in kinds)
    return [(name, cls) for name, cls in items if issubclass(cls, wanted)]
