"""Methods that exist only when the estimator's state allows them.

``hasattr(estimator, "predict_proba")`` must be False when the method cannot
run (an SVC without probabilities, a pipeline whose last step has no such
method), because scikit-learn's tools decide what to call by ``hasattr``.
"""

__all__ = ["available_if"]


class _AvailableIf:
    """Descriptor: the wrapped method, or AttributeError when ``check(obj)`` fails."""

    def __init__(self, fn, check, reason):
        self.fn = fn
        self.check = check
        self.reason = reason
        self.__doc__ = fn.__doc__
        self.__name__ = fn.__name__

    def __get__(self, obj, owner=None):
        if obj is None:
            return self.fn
        if not self.check(obj):  # a check may also raise its own AttributeError
            reason = f": {self.reason}" if self.reason else ""
            raise AttributeError(
                f"This {type(obj).__name__} has no attribute {self.__name__!r}{reason}."
            )
        return self.fn.__get__(obj, owner)


def available_if(check, reason=""):
    """Decorate a method so that it exists only when ``check(self)`` is true.

    Parameters
    ----------
    check : callable
        Called with the instance; returns a truth value, or raises
        ``AttributeError`` with its own message.
    reason : str, default=""
        Appended to the generic ``AttributeError`` message when ``check``
        returns a false value.

    Returns
    -------
    callable
        A decorator.

    Examples
    --------
    >>> class Model:
    ...     fitted = False
    ...     @available_if(lambda self: self.fitted, "not fitted")
    ...     def predict(self):
    ...         return 1
    >>> hasattr(Model(), "predict")
    False
    """
    return lambda fn: _AvailableIf(fn, check, reason)
