"""Exceptions and warnings raised by classiclearn.

They carry the same names and bases as scikit-learn's, so code written for
scikit-learn catches ours. When scikit-learn is already imported, the fitted
checks raise a class that derives from both libraries' ``NotFittedError``.
"""

import sys

__all__ = [
    "ConvergenceWarning",
    "DataConversionWarning",
    "FitFailedWarning",
    "InvalidParameterError",
    "NotFittedError",
    "SeparationWarning",
    "UndefinedMetricWarning",
    "not_fitted_error",
]


class NotFittedError(ValueError, AttributeError):
    """Raised when an estimator is used before it was fitted.

    Examples
    --------
    >>> from classiclearn.exceptions import NotFittedError
    >>> issubclass(NotFittedError, (ValueError, AttributeError))
    True
    """


class InvalidParameterError(ValueError, TypeError):
    """Raised when a constructor parameter has a bad type or value."""


class ConvergenceWarning(UserWarning):
    """Issued when an iterative solver stops before it converged."""


class SeparationWarning(ConvergenceWarning):
    """Issued when the classes are completely or quasi-completely separated.

    The maximum-likelihood estimate of an unpenalised logistic regression
    then does not exist (coefficients diverge); a subclass of
    :class:`ConvergenceWarning`.
    """


class DataConversionWarning(UserWarning):
    """Issued when input data are converted in a way the user may not expect."""


class FitFailedWarning(RuntimeWarning):
    """Issued when fitting on a cross-validation fold fails and ``error_score`` is a number."""


class UndefinedMetricWarning(UserWarning):
    """Issued when a score is undefined (e.g. precision with no predicted positives)."""


_BRIDGED_NOT_FITTED = None


def not_fitted_error(message):
    """Return a ``NotFittedError`` that scikit-learn's ``except`` also catches.

    Parameters
    ----------
    message : str
        The error message.

    Returns
    -------
    error : NotFittedError
        An instance of ours, and of scikit-learn's class too when scikit-learn
        is already loaded (it is never imported here).
    """
    global _BRIDGED_NOT_FITTED
    sk_exceptions = sys.modules.get("sklearn.exceptions")
    if sk_exceptions is None:
        return NotFittedError(message)
    if _BRIDGED_NOT_FITTED is None:
        _BRIDGED_NOT_FITTED = type(
            "NotFittedError", (NotFittedError, sk_exceptions.NotFittedError), {}
        )
    return _BRIDGED_NOT_FITTED(message)
