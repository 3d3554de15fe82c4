"""Pipelines: a chain of transformers ending in any estimator, fitted and used as one.

Fitting clones each step and keeps the fitted clones in ``steps_``: the
``steps`` parameter is never modified by ``fit`` (so ``get_params`` before and
after fit agree, as scikit-learn's estimator checks require), while
``named_steps``, indexing (``pipe[-1]``, ``pipe["clf"]``) and slicing give
the fitted steps once the pipeline is fitted. Preprocessing fitted inside the
pipeline is what keeps cross-validation honest (seed 000 §2): the test fold
never informs the scaler, the imputer or the encoder.
"""


from ._tags import Tags, get_tags
from .base import BaseEstimator, clone
from .utils._available_if import available_if
from .utils._bunch import Bunch
from .utils.validation import check_is_fitted

__all__ = ["Pipeline", "make_pipeline"]


def _final_has(name):
    def check(pipe):
        final = pipe._final_estimator
        return final == "passthrough" and name in ("transform", "inverse_transform") or \
            hasattr(final, name)

    return available_if(check, "its final step does not provide it")


def _all_have(name):
    def check(pipe):
        return all(est is None or est == "passthrough" or hasattr(est, name)
                   for _, est in pipe._active_steps())

    return available_if(check, "one of its steps does not provide it")


def _is_passthrough(est):
    return est is None or (isinstance(est, str) and est == "passthrough")


class Pipeline(BaseEstimator):
    """A sequence of transformers followed by a final estimator.

    Parameters
    ----------
    steps : list of (name, estimator) tuples
        All but the last must be transformers (``fit`` and ``transform``) or
        ``"passthrough"``; the last may be any estimator or ``"passthrough"``.
    transform_input : None
        Accepted for compatibility with scikit-learn; only None is supported.
    memory : None
        Accepted for compatibility; fitted transformers are not cached.
    verbose : bool, default=False
        Print the time each step takes to fit.

    Attributes
    ----------
    steps_ : list of (name, estimator)
        The fitted clones of the steps.
    named_steps : Bunch
        Steps by name (the fitted ones after fit).
    classes_ : ndarray
        The final step's classes (classifiers).
    n_features_in_ : int
    feature_names_in_ : ndarray of str

    See Also
    --------
    make_pipeline : name the steps automatically.

    Examples
    --------
    >>> from classiclearn.preprocessing import StandardScaler
    >>> from classiclearn.naive_bayes import GaussianNB
    >>> X = [[0.0, 1.0], [1.0, 1.5], [4.0, 0.0], [5.0, 0.5]]
    >>> pipe = Pipeline([("scale", StandardScaler()), ("nb", GaussianNB())]).fit(X, [0, 0, 1, 1])
    >>> pipe.predict([[4.5, 0.2]]).tolist()
    [1]
    >>> pipe.set_params(nb__var_smoothing=1e-6).get_params()["nb__var_smoothing"]
    1e-06
    """

    def __init__(self, steps, *, transform_input=None, memory=None, verbose=False):
        self.steps = steps
        self.transform_input = transform_input
        self.memory = memory
        self.verbose = verbose

    # ----------------------------------------------------------------- params
    def get_params(self, deep=True):
        """Parameters, and with ``deep`` every step as ``name`` and ``name__param``.

        Returns
        -------
        dict
        """
        out = {
            "memory": self.memory,
            "steps": self.steps,
            "transform_input": self.transform_input,
            "verbose": self.verbose,
        }
        if not deep:
            return out
        steps = getattr(self, "steps", None)
        if not isinstance(steps, list | tuple):
            return out
        for item in steps:
            if not isinstance(item, tuple | list) or len(item) != 2:
                continue
            name, est = item
            out[name] = est
            if hasattr(est, "get_params") and not isinstance(est, type):
                for key, value in est.get_params(deep=True).items():
                    out[f"{name}__{key}"] = value
        return out

    def set_params(self, **params):
        """Set parameters: ``steps``, a whole step by name, or ``name__param``.

        Returns
        -------
        self
        """
        if "steps" in params:
            self.steps = params.pop("steps")
        names = _step_names(self.steps)
        for key in list(params):
            if key in names:
                i = names.index(key)
                self.steps = list(self.steps)
                self.steps[i] = (key, params.pop(key))
        own = {k: params.pop(k) for k in list(params) if k in ("memory", "verbose",
                                                            "transform_input")}
        for key, value in own.items():
            setattr(self, key, value)
        nested = {}
        for key, value in params.items():
            name, sep, sub = key.partition("__")
            if not sep or name not in names:
                raise ValueError(
                    f"Invalid parameter {name!r} for estimator {self}. Valid parameters are: "
                    f"{sorted(['memory', 'steps', 'transform_input', 'verbose', *names])!r}."
                )
            nested.setdefault(name, {})[sub] = value
        for name, sub_params in nested.items():
            est = dict(self.steps)[name]
            est.set_params(**sub_params)
        return self

    # ------------------------------------------------------------ validation
    def _validate_steps(self):
        steps = self.steps
        if not isinstance(steps, list | tuple) or not steps:
            raise TypeError(
                "The 'steps' parameter of Pipeline must be a non-empty list of (name, "
                f"estimator) tuples. Got {steps!r} instead."
            )
        for item in steps:
            if not isinstance(item, tuple | list) or len(item) != 2:
                raise TypeError(f"Pipeline steps must be (name, estimator) tuples; got {item!r}")
        names = [name for name, _ in steps]
        if len(set(names)) != len(names):
            raise ValueError(f"Names provided are not unique: {names!r}")
        for name in names:
            if not isinstance(name, str):
                raise TypeError(f"Step names must be strings; got {name!r}")
            if "__" in name:
                raise ValueError(f"Estimator names must not contain __: got [{name!r}]")
            if name in ("memory", "steps", "transform_input", "verbose"):
                raise ValueError(
                    f"Estimator names conflict with constructor arguments: [{name!r}]"
                )
        for _, est in steps[:-1]:
            if _is_passthrough(est):
                continue
            if not (hasattr(est, "fit") or hasattr(est, "fit_transform")) or not hasattr(
                est, "transform"
            ):
                raise TypeError(
                    "All intermediate steps should be transformers and implement fit and "
                    f"transform or be the string 'passthrough' '{est}' (type {type(est)}) "
                    "doesn't"
                )
        final = steps[-1][1]
        if not _is_passthrough(final) and not hasattr(final, "fit"):
            raise TypeError(
                "Last step of Pipeline should implement fit or be the string 'passthrough'. "
                f"'{final}' (type {type(final)}) doesn't"
            )
        if self.transform_input is not None:
            raise ValueError("transform_input is not supported by classiclearn's Pipeline.")

    def _active_steps(self):
        """The fitted steps after fit, the templates before."""
        return self.steps_ if hasattr(self, "steps_") else self.steps

    def set_output(self, *, transform=None):
        """Set the output container of every step that has ``set_output``.

        Parameters
        ----------
        transform : {"default", "pandas", "polars"} or None
            See :meth:`classiclearn.base.TransformerMixin.set_output`.

        Returns
        -------
        self
        """
        steps = list(self.steps) + (list(self.steps_) if hasattr(self, "steps_") else [])
        for _, step in steps:
            if hasattr(step, "set_output"):
                step.set_output(transform=transform)
        return self

    @property
    def _final_estimator(self):
        steps = self._active_steps()
        est = steps[-1][1]
        return "passthrough" if est is None else est

    @property
    def named_steps(self):
        """Steps by name, as a :class:`~classiclearn.datasets.Bunch` (fitted after fit)."""
        return Bunch(**dict(self._active_steps()))

    def __len__(self):
        return len(self.steps)

    def __getitem__(self, ind):
        """A step by position or name, or a sub-pipeline from a slice."""
        steps = self._active_steps()
        if isinstance(ind, slice):
            if ind.step not in (None, 1):
                raise ValueError("Pipeline slicing only supports a step of 1")
            sub = Pipeline(list(self.steps[ind]), memory=self.memory, verbose=self.verbose)
            if hasattr(self, "steps_"):
                sub.steps_ = list(self.steps_[ind])
            return sub
        if isinstance(ind, str):
            return dict(steps)[ind]
        return steps[ind][1]

    def __sklearn_is_fitted__(self):
        return hasattr(self, "steps_")

    # ------------------------------------------------------------------ tags
    def __classiclearn_tags__(self):
        steps = getattr(self, "steps", None)
        if not isinstance(steps, list | tuple) or not steps:
            return Tags()
        final = steps[-1][1]
        if _is_passthrough(final):
            tags = Tags(estimator_type="transformer", requires_y=False, transformer=True)
        else:
            tags = get_tags(final)
        tags.allow_nan = _pipeline_allows_nan(steps)
        first = next((e for _, e in steps if not _is_passthrough(e)), None)
        if first is not None and first is not final:
            tags.pairwise = _tag_of(first, "pairwise")
            tags.positive_only_X = _tag_of(first, "positive_only_X")
        tags.sparse = all(_is_passthrough(e) or _tag_of(e, "sparse") for _, e in steps)
        return tags

    # ------------------------------------------------------------------- fit
    def _fit_transformers(self, X, y, routed):
        self._validate_steps()
        fitted = []
        Xt = X
        import time

        for i, (name, est) in enumerate(self.steps[:-1]):
            if _is_passthrough(est):
                fitted.append((name, est))
                continue
            start = time.perf_counter()
            est = clone(est)
            params = routed.get(name, {})
            if hasattr(est, "fit_transform"):
                Xt = est.fit_transform(Xt, y, **params)
            else:
                Xt = est.fit(Xt, y, **params).transform(Xt)
            if self.verbose:
                print(f"[Pipeline] ({i + 1} of {len(self.steps)}) Processing {name}, total="
                      f"{time.perf_counter() - start:.1f}s")
            fitted.append((name, est))
        return Xt, fitted

    def _route(self, params):
        self._validate_steps()
        names = [name for name, _ in self.steps]
        routed = {name: {} for name in names}
        for key, value in params.items():
            name, sep, sub = key.partition("__")
            if not sep or name not in routed:
                raise ValueError(
                    f"Pipeline.fit does not accept the {key} parameter. You can pass parameters "
                    "to specific steps of your pipeline using the stepname__parameter format, "
                    "e.g. `Pipeline.fit(X, y, logisticregression__sample_weight"
                    "=sample_weight)`."
                )
            routed[name][sub] = value
        return routed

    def _fit_final(self, Xt, y, routed, fitted, method=None):
        name, final = self.steps[-1]
        out = None
        if _is_passthrough(final):
            fitted.append((name, final))
            out = Xt
        else:
            final = clone(final)
            params = routed.get(name, {})
            if method is None:
                final.fit(Xt, y, **params)
            elif method == "fit_transform" and hasattr(final, "fit_transform"):
                out = final.fit_transform(Xt, y, **params)
            elif method == "fit_transform":
                out = final.fit(Xt, y, **params).transform(Xt)
            else:
                out = getattr(final, method)(Xt, y, **params)
            fitted.append((name, final))
        self.steps_ = fitted
        return out

    def fit(self, X, y=None, **params):
        """Fit each transformer on the output of the previous one, then the final step.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,), optional
        **params
            ``stepname__param=value`` fit parameters (e.g.
            ``nb__sample_weight=w``).

        Returns
        -------
        self
        """
        return self._fit_steps(X, y, params)

    def _fit_dask(self, X, y=None, **params):
        """On Dask input each step takes the previous one's lazy output: steps with a
        distributed fit fit it, the others refuse it (with the reason)."""
        return self._fit_steps(X, y, params)

    def _fit_steps(self, X, y, params):
        routed = self._route(params)
        self.__dict__.pop("steps_", None)
        Xt, fitted = self._fit_transformers(X, y, routed)
        self._fit_final(Xt, y, routed, fitted)
        return self

    def _transform_until_final(self, X):
        check_is_fitted(self)
        Xt = X
        for _, est in self.steps_[:-1]:
            if not _is_passthrough(est):
                Xt = est.transform(Xt)
        return Xt

    @_final_has("predict")
    def predict(self, X, **params):
        """Transform X through the steps, then the final step's ``predict``.

        Returns
        -------
        ndarray
        """
        return self._final_estimator.predict(self._transform_until_final(X), **params)

    @_final_has("predict_proba")
    def predict_proba(self, X, **params):
        """Transform, then the final step's ``predict_proba``.

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
        """
        return self._final_estimator.predict_proba(self._transform_until_final(X), **params)

    @_final_has("predict_log_proba")
    def predict_log_proba(self, X, **params):
        """Transform, then the final step's ``predict_log_proba``.

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
        """
        return self._final_estimator.predict_log_proba(self._transform_until_final(X),
                                                       **params)

    @_final_has("decision_function")
    def decision_function(self, X, **params):
        """Transform, then the final step's ``decision_function``.

        Returns
        -------
        ndarray
        """
        return self._final_estimator.decision_function(self._transform_until_final(X),
                                                        **params)

    @_final_has("score_samples")
    def score_samples(self, X):
        """Transform, then the final step's ``score_samples``.

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        return self._final_estimator.score_samples(self._transform_until_final(X))

    @_final_has("score")
    def score(self, X, y=None, sample_weight=None, **params):
        """Transform, then the final step's ``score``.

        Returns
        -------
        float
        """
        Xt = self._transform_until_final(X)
        if sample_weight is not None:
            params["sample_weight"] = sample_weight
        return self._final_estimator.score(Xt, y, **params)

    @_final_has("fit_predict")
    def fit_predict(self, X, y=None, **params):
        """Fit the transformers, then ``fit_predict`` of the final step.

        Returns
        -------
        ndarray
        """
        routed = self._route(params)
        Xt, fitted = self._fit_transformers(X, y, routed)
        return self._fit_final(Xt, y, routed, fitted, method="fit_predict")

    @_final_has("transform")
    def transform(self, X, **params):
        """Apply every step's ``transform`` (the final one must be a transformer).

        Returns
        -------
        ndarray
        """
        Xt = self._transform_until_final(X)
        final = self._final_estimator
        return Xt if _is_passthrough(final) else final.transform(Xt, **params)

    @_final_has("transform")
    def fit_transform(self, X, y=None, **params):
        """Fit every step and return the transformed training data.

        Returns
        -------
        ndarray
        """
        routed = self._route(params)
        Xt, fitted = self._fit_transformers(X, y, routed)
        return self._fit_final(Xt, y, routed, fitted, method="fit_transform")

    @_all_have("inverse_transform")
    def inverse_transform(self, X, **params):
        """Apply ``inverse_transform`` of every step, last to first.

        Returns
        -------
        ndarray
        """
        check_is_fitted(self)
        Xt = X
        for _, est in reversed(self.steps_):
            if not _is_passthrough(est):
                Xt = est.inverse_transform(Xt)
        return Xt

    def get_feature_names_out(self, input_features=None):
        """Feature names after every step's ``get_feature_names_out``.

        Returns
        -------
        ndarray of str
        """
        names = input_features
        for _, est in self._active_steps():
            if _is_passthrough(est):
                continue
            if not hasattr(est, "get_feature_names_out"):
                raise AttributeError(
                    f"Estimator {est} does not provide get_feature_names_out. Did you mean to "
                    "call pipeline[:-1].get_feature_names_out()?"
                )
            names = est.get_feature_names_out(names)
        return names

    @property
    def classes_(self):
        """The final step's classes."""
        return self._final_estimator_fitted().classes_

    @property
    def n_features_in_(self):
        """Number of features seen by the first step in fit."""
        for _, est in self._fitted_steps():
            if not _is_passthrough(est):
                return est.n_features_in_
        raise AttributeError("n_features_in_")

    @property
    def feature_names_in_(self):
        """Feature names seen by the first step in fit."""
        for _, est in self._fitted_steps():
            if not _is_passthrough(est):
                return est.feature_names_in_
        raise AttributeError("feature_names_in_")

    def _fitted_steps(self):
        if not hasattr(self, "steps_"):
            raise AttributeError("This Pipeline is not fitted yet.")
        return self.steps_

    def _final_estimator_fitted(self):
        return self._fitted_steps()[-1][1]


def _step_names(steps):
    """Names of well-formed steps (nothing for a malformed ``steps`` value)."""
    if not isinstance(steps, list | tuple):
        return []
    return [item[0] for item in steps if isinstance(item, tuple | list) and len(item) == 2]


def _tag_of(est, field):
    return getattr(get_tags(est), field)


def _pipeline_allows_nan(steps):
    """NaN is accepted if every step before (and including) an imputer accepts it."""
    for _, est in steps:
        if _is_passthrough(est):
            continue
        if not _tag_of(est, "allow_nan"):
            return False
        if _tag_of(est, "imputes_nan"):
            return True
    return True


def make_pipeline(*steps, memory=None, transform_input=None, verbose=False):
    """A :class:`Pipeline` whose step names are the lower-cased class names.

    Parameters
    ----------
    *steps : estimators
    memory, transform_input, verbose
        As in :class:`Pipeline`.

    Returns
    -------
    Pipeline

    Examples
    --------
    >>> from classiclearn.preprocessing import StandardScaler
    >>> from classiclearn.naive_bayes import GaussianNB
    >>> [name for name, _ in make_pipeline(StandardScaler(), GaussianNB()).steps]
    ['standardscaler', 'gaussiannb']
    """
    names = [type(est).__name__.lower() if not isinstance(est, str) else est for est in steps]
    counts = {n: names.count(n) for n in names}
    seen = {}
    unique = []
    for n in names:
        if counts[n] > 1:
            seen[n] = seen.get(n, 0) + 1
            unique.append(f"{n}-{seen[n]}")
        else:
            unique.append(n)
    return Pipeline(list(zip(unique, steps)), memory=memory, transform_input=transform_input,
                    verbose=verbose)
