"""The deliberate exceptions: scikit-learn parameter values classiclearn refuses on purpose.

classiclearn accepts every string option and boolean that scikit-learn 1.9
accepts for an estimator of the same name, and fits the same model, except for
the values in :data:`UNSUPPORTED` below. Each entry maps ``(estimator name,
parameter, value)`` to the reason. Giving such a value raises an
:class:`~classiclearn.exceptions.InvalidParameterError` (a ``ValueError``)
saying that classiclearn does not support it and why (see
:func:`classiclearn.utils._params.validate_parameter_constraints`).

tests/test_param_space.py checks, when scikit-learn is installed, that every
other value agrees with scikit-learn and that each value here is refused with
its reason; :func:`unsupported_values` lists the table for documentation.
"""

__all__ = ["UNSUPPORTED", "unsupported_reason", "unsupported_values"]

_NEIGHBOURS = (
    "KNeighborsClassifier", "KNeighborsRegressor", "NearestNeighbors",
    "RadiusNeighborsClassifier", "RadiusNeighborsRegressor",
)

UNSUPPORTED = {}


def unsupported_reason(estimator_name, param, value):
    """The reason classiclearn refuses ``value`` for ``param``, or None.

    Parameters
    ----------
    estimator_name : str
    param : str
    value : object

    Returns
    -------
    str or None

    Examples
    --------
    >>> unsupported_reason("Ridge", "alpha", 1.0) is None
    True
    """
    if not isinstance(value, str | bool):
        return None
    return UNSUPPORTED.get((estimator_name, param, value))


def unsupported_values():
    """The table of deliberate exceptions as sorted rows, for documentation.

    Returns
    -------
    list of (estimator, parameter, value, reason)

    Examples
    --------
    >>> rows = unsupported_values()
    >>> all(len(row) == 4 for row in rows)
    True
    """
    rows = [(est, param, value, reason) for (est, param, value), reason in UNSUPPORTED.items()]
    return sorted(rows, key=lambda row: (row[0], row[1], str(row[2])))
