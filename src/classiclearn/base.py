"""The estimator protocol: parameters, cloning, mixins and tags.

Written without scikit-learn, following the same protocol so that
scikit-learn's ``clone``, ``Pipeline``, ``GridSearchCV`` and
``check_estimator`` treat our estimators as their own.
"""

import copy
import functools
import inspect
import sys

import numpy as np
import scipy.sparse as sp

from ._config import _settings
from ._tags import Tags, get_tags, to_sklearn_tags
from .utils._dask import (
    DaskUnsupportedError,
    dask_arrays,
    is_dask_collection,
    lazy_method,
    record_input_features,
)
from .utils._params import validate_parameter_constraints

__all__ = [
    "BaseEstimator",
    "ClassifierMixin",
    "ClusterMixin",
    "RegressorMixin",
    "TransformerMixin",
    "clone",
    "is_classifier",
    "is_regressor",
]


# parameter names of each estimator __init__ (see BaseEstimator._get_param_names)
_PARAM_NAMES = {}

# methods that return one row per input row: lazy (block-wise) on Dask input
_ROW_METHODS = ("predict", "predict_proba", "predict_log_proba", "decision_function",
                "transform", "score_samples")
# methods that fit: on Dask input, the estimator's distributed fit or a clear refusal
_FIT_METHODS = ("fit", "partial_fit", "fit_transform", "fit_predict")


def _dask_aware_row_method(fn):
    """``fn`` that, given a Dask collection, returns a lazy block-wise result."""

    @functools.wraps(fn)
    def method(self, X, *args, **kwargs):
        if is_dask_collection(X):
            # an estimator whose fitted state is itself partitioned (a neighbours index
            # on Dask data) builds its own graph rather than one task per block
            own = getattr(self, "_lazy_row_method", None)
            result = None if own is None or args or kwargs else own(fn.__name__, X)
            if result is not None:
                return result
            bound = functools.partial(fn, self, *args, **kwargs)
            n_features = getattr(self, "n_features_in_", None) or X.shape[1]
            return lazy_method(bound, X, n_features, self)
        return fn(self, X, *args, **kwargs)

    method.__dask_aware__ = True
    return method


def _dask_aware_fit(fn, name):
    """``fn`` that hands Dask input to the estimator's distributed fit, or refuses it."""

    @functools.wraps(fn)
    def method(self, X, *args, **kwargs):
        if is_dask_collection(X) or any(is_dask_collection(a) for a in args) or any(
            is_dask_collection(v) for v in kwargs.values()
        ):
            return _fit_dask(self, name, X, args, kwargs)
        return fn(self, X, *args, **kwargs)

    method.__dask_aware__ = True
    return method


def _fit_dask(est, name, X, args, kwargs):
    dask_fit = getattr(est, "_fit_dask", None)
    if dask_fit is None or name == "partial_fit":
        raise DaskUnsupportedError(
            f"{type(est).__name__}.{name} has no distributed version for Dask input, and "
            "classiclearn never loads a whole Dask collection into memory behind your back. "
            f"Fit on a sample that fits in memory instead, e.g. "
            f"{type(est).__name__}().fit(X[:100_000].compute(), y[:100_000].compute()); "
            "predict, transform and score_samples then work lazily on the Dask data."
        )
    if not is_dask_collection(X):
        raise TypeError(
            f"{type(est).__name__}.{name}: X is not a Dask collection but y or "
            "sample_weight is; pass all of them as Dask (or all as NumPy) arrays."
        )
    y = args[0] if args else kwargs.pop("y", None)
    # DataFrames become arrays once here (finding their chunk sizes reads the data)
    X_arr, y, kwargs = dask_arrays(X, y, kwargs)
    est = dask_fit(X_arr, y, **kwargs)
    names = getattr(X, "columns", None)
    if names is not None:
        record_input_features(est, X)
    if name == "fit_transform":
        return est.transform(X)
    if name == "fit_predict":
        return est.predict(X)
    return est


def _make_dask_aware(cls):
    """Wrap the row and fit methods ``cls`` has (its own or inherited from mixins)."""
    for names, wrap in ((_ROW_METHODS, _dask_aware_row_method),
                        (_FIT_METHODS, _dask_aware_fit)):
        for name in names:
            raw = inspect.getattr_static(cls, name, None)
            target = raw.fn if hasattr(raw, "fn") and inspect.isfunction(raw.fn) else raw
            if not inspect.isfunction(target) or getattr(target, "__dask_aware__", False):
                continue
            wrapped = wrap(target) if wrap is _dask_aware_row_method else wrap(target, name)
            if target is raw:
                setattr(cls, name, wrapped)
            else:  # a method behind an available_if descriptor
                raw.fn = wrapped


class BaseEstimator:
    """Base class of every classiclearn estimator.

    Parameters are the keyword arguments of ``__init__``, which stores them
    unchanged. ``fit`` validates them against ``_parameter_constraints``.

    Examples
    --------
    >>> class Toy(BaseEstimator):
    ...     def __init__(self, alpha=1.0, *, beta=None):
    ...         self.alpha = alpha
    ...         self.beta = beta
    >>> Toy(alpha=2.0)
    Toy(alpha=2.0)
    >>> Toy().set_params(beta=3).get_params()
    {'alpha': 1.0, 'beta': 3}
    """

    _parameter_constraints: dict = {}

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        _make_dask_aware(cls)

    @classmethod
    def _get_param_names(cls):
        init = cls.__init__
        if init is object.__init__:
            return []
        # inspect.signature is slow next to a fit on small data: read once per __init__
        cached = _PARAM_NAMES.get(init)
        if cached is not None:
            return list(cached)
        signature = inspect.signature(init)
        names = []
        for p in signature.parameters.values():
            if p.name == "self":
                continue
            if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
                raise RuntimeError(
                    f"{cls.__name__} must list its parameters explicitly in __init__ "
                    "(no *args or **kwargs)."
                )
            names.append(p.name)
        _PARAM_NAMES[init] = tuple(sorted(names))
        return sorted(names)

    def get_params(self, deep=True):
        """Parameters of this estimator.

        Parameters
        ----------
        deep : bool, default=True
            Also return the parameters of nested estimators as
            ``name__param``.

        Returns
        -------
        dict
        """
        out = {}
        for name in self._get_param_names():
            value = getattr(self, name)
            if deep and hasattr(value, "get_params") and not isinstance(value, type):
                for sub, sub_value in value.get_params(deep=True).items():
                    out[f"{name}__{sub}"] = sub_value
            out[name] = value
        return out

    def set_params(self, **params):
        """Set parameters, including nested ones written ``name__param``.

        Returns
        -------
        self
        """
        if not params:
            return self
        valid = self.get_params(deep=True)
        nested = {}
        for key, value in params.items():
            name, sep, sub = key.partition("__")
            if name not in valid:
                raise ValueError(
                    f"Invalid parameter {name!r} for estimator {self}. Valid parameters are: "
                    f"{self._get_param_names()!r}."
                )
            if sep:
                nested.setdefault(name, {})[sub] = value
            else:
                setattr(self, name, value)
                valid[name] = value
        for name, sub_params in nested.items():
            valid[name].set_params(**sub_params)
        return self

    def _validate_params(self):
        validate_parameter_constraints(
            self._parameter_constraints, self.get_params(deep=False), type(self).__name__
        )

    def _changed_params(self):
        """The parameters whose values differ from the ``__init__`` defaults."""
        defaults = {
            p.name: p.default for p in inspect.signature(type(self).__init__).parameters.values()
        }
        changed = {}
        for name in self._get_param_names():
            value = getattr(self, name, None)
            if not _same_default(value, defaults.get(name, inspect.Parameter.empty)):
                changed[name] = value
        return changed

    def __repr__(self):
        shown = [f"{name}={value!r}" for name, value in self._changed_params().items()]
        return f"{type(self).__name__}({', '.join(shown)})"

    @property
    def _repr_html_(self):
        """HTML block for Jupyter: class, changed parameters, fitted or not, nested
        estimators. Absent (AttributeError) under ``set_config(display="text")``."""
        from ._config import get_config

        if get_config()["display"] != "diagram":
            raise AttributeError(
                "_repr_html_ is only defined when the 'display' configuration is 'diagram'"
            )
        return self._html_repr

    def _html_repr(self):
        from .utils._estimator_html import estimator_html

        return estimator_html(self)

    def _repr_mimebundle_(self, **kwargs):
        """The text repr, plus HTML when ``display`` is "diagram" (Jupyter's rich display)."""
        from ._config import get_config

        bundle = {"text/plain": repr(self)}
        if get_config()["display"] == "diagram":
            bundle["text/html"] = self._html_repr()
        return bundle

    def __sklearn_is_fitted__(self):
        return any(k.endswith("_") and not k.startswith("__") for k in vars(self))

    def __classiclearn_tags__(self):
        return Tags(native_kernels=True)

    def __sklearn_tags__(self):
        return to_sklearn_tags(self.__classiclearn_tags__())


def _same_default(value, default):
    if default is inspect.Parameter.empty:
        return False
    if value is default:
        return True
    if isinstance(value, np.ndarray) or isinstance(default, np.ndarray):
        return False
    try:
        return type(value) is type(default) and bool(value == default)
    except (TypeError, ValueError):
        return False


class ClassifierMixin:
    """Mixin for classifiers: ``score`` is the accuracy."""

    _estimator_type = "classifier"

    def __classiclearn_tags__(self):
        tags = super().__classiclearn_tags__()
        tags.estimator_type = "classifier"
        return tags

    def score(self, X, y, sample_weight=None):
        """Mean accuracy on (X, y), weighted by ``sample_weight``.

        Returns
        -------
        float
        """
        from .metrics import accuracy_score

        return accuracy_score(y, self.predict(X), sample_weight=sample_weight)


class RegressorMixin:
    """Mixin for regressors: ``score`` is the coefficient of determination R²."""

    _estimator_type = "regressor"

    def __classiclearn_tags__(self):
        tags = super().__classiclearn_tags__()
        tags.estimator_type = "regressor"
        return tags

    def score(self, X, y, sample_weight=None):
        """R² of the prediction on (X, y), weighted by ``sample_weight``.

        Returns
        -------
        float
        """
        from .metrics import r2_score

        return r2_score(y, self.predict(X), sample_weight=sample_weight)


_OUTPUT_METHODS = ("transform", "fit_transform")


def _wrap_output_method(method):
    @functools.wraps(method)
    def wrapped(self, X, *args, **kwargs):
        return _wrap_output(self, method(self, X, *args, **kwargs), X)

    wrapped._wraps_output = True
    return wrapped


def _output_container(estimator):
    """"default", "pandas" or "polars": the estimator's ``set_output`` choice, else
    classiclearn's global ``transform_output``, else scikit-learn's when it is loaded."""
    chosen = getattr(estimator, "_sklearn_output_config", {}).get("transform")
    if chosen is not None:
        return chosen
    chosen = _settings()["transform_output"]
    if chosen == "default" and "sklearn" in sys.modules:
        get_sklearn_config = getattr(sys.modules["sklearn"], "get_config", None)
        if get_sklearn_config is not None:
            chosen = get_sklearn_config().get("transform_output", "default")
    return chosen


def _wrap_output(estimator, out, X):
    if not hasattr(type(estimator), "get_feature_names_out"):
        return out
    container = _output_container(estimator)
    if container == "default" or not (isinstance(out, np.ndarray) or sp.issparse(out)):
        return out  # default, or already a data frame (an inner wrapped call)
    if sp.issparse(out):
        raise ValueError(
            f"{container.capitalize()} output does not support sparse data. Set "
            "sparse_output=False."
        )
    try:
        names = estimator.get_feature_names_out()
    except AttributeError:  # e.g. FunctionTransformer without feature_names_out
        return out
    names = [str(name) for name in names]
    if container == "pandas":
        import pandas as pd

        index = X.index if isinstance(X, pd.DataFrame) and len(X.index) == len(out) else None
        return pd.DataFrame(out, columns=names, index=index, copy=False)
    import polars as pl

    return pl.DataFrame(out, schema=names, orient="row")


class TransformerMixin:
    """Mixin for transformers: ``fit_transform`` fits then transforms.

    Transformers with ``get_feature_names_out`` also get ``set_output``: the
    ``transform`` and ``fit_transform`` a subclass defines are wrapped so
    that their output is a pandas or polars data frame named by
    ``get_feature_names_out()`` when asked, by ``set_output`` or globally by
    :func:`classiclearn.set_config` (or scikit-learn's ``set_config``).
    """

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        for name in _OUTPUT_METHODS:
            method = cls.__dict__.get(name)
            if callable(method) and not getattr(method, "_wraps_output", False):
                setattr(cls, name, _wrap_output_method(method))

    @property
    def set_output(self):
        """``set_output(*, transform=None)``: choose the container of ``transform`` and
        ``fit_transform`` outputs ("default", "pandas" or "polars"; None keeps the
        current choice); returns the estimator. Only on transformers with
        ``get_feature_names_out``."""
        if not hasattr(type(self), "get_feature_names_out"):
            raise AttributeError(
                f"{type(self).__name__!r} has no attribute 'set_output' (it has no "
                "get_feature_names_out)"
            )
        return self._set_output

    def _set_output(self, *, transform=None):
        if transform is None:
            return self
        if transform not in ("default", "pandas", "polars"):
            raise ValueError(
                f"output config must be 'default', 'pandas' or 'polars'; got {transform!r}"
            )
        self._sklearn_output_config = {"transform": transform}
        return self

    def __classiclearn_tags__(self):
        tags = super().__classiclearn_tags__()
        tags.transformer = True
        if tags.estimator_type is None:
            tags.estimator_type = "transformer"
            tags.requires_y = False
        return tags

    def fit_transform(self, X, y=None, **fit_params):
        """Fit to X (and y), then return X transformed.

        Returns
        -------
        ndarray
        """
        if y is None:
            return self.fit(X, **fit_params).transform(X)
        return self.fit(X, y, **fit_params).transform(X)


class ClusterMixin:
    """Mixin for clusterers: ``fit_predict`` returns ``labels_``."""

    _estimator_type = "clusterer"

    def __classiclearn_tags__(self):
        tags = super().__classiclearn_tags__()
        tags.estimator_type = "clusterer"
        tags.requires_y = False
        return tags

    def fit_predict(self, X, y=None, **fit_params):
        """Fit and return the cluster label of each sample.

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        self.fit(X, **fit_params)
        return self.labels_


def clone(estimator, *, safe=True):
    """A new unfitted estimator with the same parameters (deep-copied).

    Parameters
    ----------
    estimator : estimator, or list / tuple / set of estimators
    safe : bool, default=True
        If False, objects without ``get_params`` are deep-copied instead of
        raising.

    Returns
    -------
    estimator

    Examples
    --------
    >>> from classiclearn.naive_bayes import GaussianNB
    >>> clone(GaussianNB(var_smoothing=1e-3))
    GaussianNB(var_smoothing=0.001)
    """
    if isinstance(estimator, list | tuple | set | frozenset):
        return type(estimator)(clone(e, safe=safe) for e in estimator)
    if not hasattr(estimator, "get_params") or isinstance(estimator, type):
        if not safe:
            return copy.deepcopy(estimator)
        raise TypeError(
            f"Cannot clone object {estimator!r} (type {type(estimator)}): it does not "
            "implement a 'get_params' method."
        )
    params = estimator.get_params(deep=False)
    new_params = {k: clone(v, safe=False) for k, v in params.items()}
    new = type(estimator)(**new_params)
    if hasattr(estimator, "_sklearn_output_config"):  # set_output survives cloning
        new._sklearn_output_config = copy.deepcopy(estimator._sklearn_output_config)
    got = new.get_params(deep=False)
    for name in new_params:
        if got[name] is not new_params[name]:
            raise RuntimeError(
                f"Cannot clone object {estimator}, as the constructor either does not set "
                f"or modifies parameter {name}"
            )
    return new


def is_classifier(estimator):
    """Whether ``estimator`` is a classifier (ours or scikit-learn's)."""
    return _estimator_type(estimator) == "classifier"


def is_regressor(estimator):
    """Whether ``estimator`` is a regressor (ours or scikit-learn's)."""
    return _estimator_type(estimator) == "regressor"


def _estimator_type(estimator):
    if hasattr(estimator, "__classiclearn_tags__") or hasattr(estimator, "__sklearn_tags__"):
        obj = estimator() if isinstance(estimator, type) else estimator
        return get_tags(obj).estimator_type
    return getattr(estimator, "_estimator_type", None)
