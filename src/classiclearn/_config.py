"""Global settings, as scikit-learn's ``set_config``: how estimators show in a
notebook and which container ``transform`` returns.

``set_config`` changes the settings of the whole process (threads started
later begin from them); ``config_context`` changes the current thread's only,
so a block in one thread leaves the others alone.
"""

import threading
from contextlib import contextmanager

__all__ = ["config_context", "get_config", "set_config"]

_DEFAULTS = {"display": "diagram", "transform_output": "default"}
_CHOICES = {
    "display": ("diagram", "text"),
    "transform_output": ("default", "pandas", "polars"),
}
_local = threading.local()


_global = dict(_DEFAULTS)


def _settings():
    if not hasattr(_local, "config"):
        _local.config = dict(_global)
    return _local.config


def get_config():
    """The current settings.

    Returns
    -------
    dict
        ``display`` ("diagram" or "text") and ``transform_output``
        ("default", "pandas" or "polars").

    Examples
    --------
    >>> get_config()["display"]
    'diagram'
    """
    return dict(_settings())


def set_config(display=None, transform_output=None):
    """Change settings; None leaves a setting as it is.

    Parameters
    ----------
    display : {"diagram", "text"}, default=None
        "diagram" shows estimators in Jupyter as an HTML block (class name,
        changed parameters, fitted or not, nested estimators); "text" as
        their ``repr``.
    transform_output : {"default", "pandas", "polars"}, default=None
        Container of ``transform`` / ``fit_transform`` outputs of every
        transformer that has not chosen one with ``set_output``.

    Examples
    --------
    >>> set_config(display="text")
    >>> get_config()["display"]
    'text'
    >>> set_config(display="diagram")
    """
    _set({"display": display, "transform_output": transform_output}, process=True)


def _set(new, *, process):
    changes = {k: v for k, v in new.items() if v is not None}
    for key, value in changes.items():
        if value not in _CHOICES[key]:
            raise ValueError(f"{key} must be one of {list(_CHOICES[key])}; got {value!r}.")
    if process:
        _global.update(changes)
    _settings().update(changes)


@contextmanager
def config_context(*, display=None, transform_output=None):
    """Change settings inside a ``with`` block only.

    Examples
    --------
    >>> with config_context(display="text"):
    ...     get_config()["display"]
    'text'
    >>> get_config()["display"]
    'diagram'
    """
    old = get_config()
    _set({"display": display, "transform_output": transform_output}, process=False)
    try:
        yield
    finally:
        _settings().clear()
        _settings().update(old)
