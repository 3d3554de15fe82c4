"""classiclearn: the classic machine-learning methods, scikit-learn compatible.

Families live in subpackages (``classiclearn.linear_model``,
``classiclearn.neighbors``, ...), imported on first use so that
``import classiclearn`` stays cheap and never imports scikit-learn or dask.
"""

import importlib

__version__ = "0.1.0"

_SUBMODULES = {
    "base",
    "cluster",
    "datasets",
    "decomposition",
    "discriminant_analysis",
    "ensemble",
    "exceptions",
    "impute",
    "kernel_ridge",
    "linear_model",
    "metrics",
    "mixture",
    "model_selection",
    "multiclass",
    "naive_bayes",
    "neighbors",
    "pipeline",
    "preprocessing",
    "svm",
    "tree",
    "utils",
}

__all__ = [
    "all_estimators", "clone", "config_context", "get_config", "set_config", "__version__",
    *sorted(_SUBMODULES),
]


def __getattr__(name):
    if name in _SUBMODULES:
        return importlib.import_module(f"classiclearn.{name}")
    if name == "all_estimators":
        from .utils.discovery import all_estimators

        return all_estimators
    if name in ("config_context", "get_config", "set_config"):
        from . import _config

        return getattr(_config, name)
    if name == "clone":
        from .base import clone

        return clone
    raise AttributeError(f"module 'classiclearn' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(__all__))
