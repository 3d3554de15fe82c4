"""A transformer from any function (e.g. ``np.log1p``), for use inside pipelines."""

import warnings

import numpy as np

from ..base import BaseEstimator, TransformerMixin
from ..utils.validation import (
    _check_feature_names,
    _check_n_features,
    check_array,
    validate_data,
)
from ._common import feature_names_in

__all__ = ["FunctionTransformer"]


class FunctionTransformer(TransformerMixin, BaseEstimator):
    """Apply a function to X (stateless unless the function keeps state).

    Parameters
    ----------
    func : callable, default=None
        ``func(X, **kw_args)``; None is the identity.
    inverse_func : callable, default=None
        Used by :meth:`inverse_transform`; None is the identity.
    validate : bool, default=False
        Convert X to a checked float array first (otherwise X is passed as is).
    accept_sparse : bool, default=False
        With ``validate``, accept scipy sparse X.
    check_inverse : bool, default=True
        In fit, warn if ``inverse_func(func(X))`` does not give X back on a
        few rows (when both functions are given).
    feature_names_out : "one-to-one", callable or None, default=None
        How :meth:`get_feature_names_out` names the outputs: the input names,
        or ``feature_names_out(self, input_features)``.
    kw_args, inv_kw_args : dict, default=None
        Extra keyword arguments of ``func`` and ``inverse_func``.

    Attributes
    ----------
    n_features_in_ : int
        When X has a shape.
    feature_names_in_ : ndarray of str

    Examples
    --------
    >>> import numpy as np
    >>> FunctionTransformer(np.log1p).fit_transform([[0.0, np.e - 1]]).round(3).tolist()
    [[0.0, 1.0]]
    """

    _parameter_constraints = {
        "func": ["callable", None],
        "inverse_func": ["callable", None],
        "validate": ["boolean"],
        "accept_sparse": ["boolean"],
        "check_inverse": ["boolean"],
        "feature_names_out": "no_validation",
        "kw_args": [dict, None],
        "inv_kw_args": [dict, None],
    }

    def __init__(self, func=None, inverse_func=None, *, validate=False, accept_sparse=False,
                 check_inverse=True, feature_names_out=None, kw_args=None, inv_kw_args=None):
        self.func = func
        self.inverse_func = inverse_func
        self.validate = validate
        self.accept_sparse = accept_sparse
        self.check_inverse = check_inverse
        self.feature_names_out = feature_names_out
        self.kw_args = kw_args
        self.inv_kw_args = inv_kw_args

    def __classiclearn_tags__(self):
        tags = super().__classiclearn_tags__()
        tags.requires_fit = False
        tags.sparse = not self.validate or self.accept_sparse
        tags.preserves_dtype = []
        return tags

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.no_validation = not self.validate
        return tags

    def _check_input(self, X, reset):
        if self.validate:
            return validate_data(self, X, reset=reset, accept_sparse=self.accept_sparse,
                                 dtype="numeric")
        _check_feature_names(self, X, reset=reset)
        if hasattr(X, "shape") and len(getattr(X, "shape", ())) == 2:
            _check_n_features(self, X, reset=reset)
        return X

    def fit(self, X, y=None):
        """Check X (when ``validate``) and optionally the inverse function.

        Returns
        -------
        self
        """
        self._validate_params()
        X = self._check_input(X, reset=True)
        if self.check_inverse and self.func is not None and self.inverse_func is not None:
            self._check_inverse_transform(X)
        return self

    def _check_inverse_transform(self, X):
        rows = X if not hasattr(X, "shape") else X[:: max(1, X.shape[0] // 10)]
        try:
            back = self.inverse_transform(self.transform(rows))
            ok = np.allclose(check_array(back, ensure_2d=False, ensure_all_finite=False),
                             check_array(rows, ensure_2d=False, ensure_all_finite=False),
                             equal_nan=True)
        except (TypeError, ValueError):
            return
        if not ok:
            warnings.warn(
                "The provided functions are not strictly inverse of each other. If you are "
                "sure you want to proceed regardless, set 'check_inverse=False'.",
                UserWarning,
                stacklevel=3,
            )

    def transform(self, X):
        """``func(X, **kw_args)``.

        Returns
        -------
        array-like
        """
        Xv = self._check_input(X, reset=False)
        return Xv if self.func is None else self.func(Xv, **(self.kw_args or {}))

    def inverse_transform(self, X):
        """``inverse_func(X, **inv_kw_args)``.

        Returns
        -------
        array-like
        """
        if self.validate:
            X = check_array(X, accept_sparse=self.accept_sparse, dtype="numeric")
        if self.inverse_func is None:
            return X
        return self.inverse_func(X, **(self.inv_kw_args or {}))

    def get_feature_names_out(self, input_features=None):
        """Output names from ``feature_names_out`` ("one-to-one" or a callable).

        Returns
        -------
        ndarray of str
        """
        if self.feature_names_out is None:
            raise AttributeError(
                "This 'FunctionTransformer' has no attribute 'get_feature_names_out': set "
                "feature_names_out to 'one-to-one' or a callable."
            )
        names = feature_names_in(self, input_features) if hasattr(self, "n_features_in_") \
            else np.asarray(input_features, dtype=object)
        if self.feature_names_out == "one-to-one":
            return names
        return np.asarray(self.feature_names_out(self, names), dtype=object)
