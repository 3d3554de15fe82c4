"""Constructor-parameter validation from a class-level constraints table.

An estimator declares ``_parameter_constraints = {"alpha": [Interval(Real, 0,
None, closed="left")], "solver": [StrOptions({"auto", "svd"})], ...}`` and
calls ``self._validate_params()`` at the start of ``fit``. Each parameter must
satisfy at least one of its constraints; otherwise an
:class:`~classiclearn.exceptions.InvalidParameterError` names the parameter,
the estimator, what was expected and what was given.

Constraints are:

- an :class:`Interval` (numbers of a type within bounds),
- :class:`StrOptions` / :class:`Options` (one of a set of values),
- :class:`HasMethods` (an object with given methods),
- a type (``isinstance`` check),
- the strings ``"boolean"``, ``"array-like"``, ``"random_state"``,
  ``"callable"``, ``"sample_weight"``,
- ``None`` (the value may be None).
"""

import math
import numbers
from dataclasses import dataclass

import numpy as np

from ..exceptions import InvalidParameterError
from ._unsupported import unsupported_reason

__all__ = [
    "HasMethods",
    "Interval",
    "Options",
    "StrOptions",
    "validate_parameter_constraints",
]


@dataclass(frozen=True)
class Interval:
    """Numbers of a type within bounds.

    Parameters
    ----------
    type : {numbers.Integral, numbers.Real}
        ``Integral`` admits integers only; ``Real`` admits any real number.
    left, right : float or None
        Bounds; None means unbounded.
    closed : {"left", "right", "both", "neither"}
        Which bounds belong to the interval.

    Examples
    --------
    >>> from numbers import Real
    >>> Interval(Real, 0, None, closed="neither").is_satisfied_by(0.5)
    True
    >>> str(Interval(Real, 0, 1, closed="left"))
    'a float in the range [0, 1)'
    """

    type: type
    left: float | None
    right: float | None
    closed: str = "both"

    def is_satisfied_by(self, value):
        if isinstance(value, bool | np.bool_):
            return False
        if self.type is numbers.Integral:
            if not isinstance(value, numbers.Integral):
                return False
        elif not isinstance(value, numbers.Real):
            return False
        if isinstance(value, numbers.Real) and math.isnan(value):
            return False
        if self.left is not None:
            if value < self.left or (value == self.left and self.closed in ("right", "neither")):
                return False
        if self.right is not None:
            if value > self.right or (value == self.right and self.closed in ("left", "neither")):
                return False
        return True

    def __str__(self):
        kind = "an int" if self.type is numbers.Integral else "a float"
        left = "-inf" if self.left is None else _format_number(self.left)
        right = "inf" if self.right is None else _format_number(self.right)
        lb = "[" if self.closed in ("left", "both") and self.left is not None else "("
        rb = "]" if self.closed in ("right", "both") and self.right is not None else ")"
        return f"{kind} in the range {lb}{left}, {right}{rb}"


@dataclass(frozen=True)
class Options:
    """One of a fixed set of values (compared with ``==``)."""

    options: frozenset

    def __init__(self, options):
        object.__setattr__(self, "options", frozenset(options))

    def is_satisfied_by(self, value):
        try:
            return value in self.options
        except TypeError:
            return False

    def __str__(self):
        return "one of " + ", ".join(repr(o) for o in sorted(self.options, key=str))


class StrOptions(Options):
    """One of a fixed set of strings."""

    def is_satisfied_by(self, value):
        return isinstance(value, str) and value in self.options


@dataclass(frozen=True)
class HasMethods:
    """An object providing all the named methods."""

    methods: tuple

    def __init__(self, methods):
        if isinstance(methods, str):
            methods = (methods,)
        object.__setattr__(self, "methods", tuple(methods))

    def is_satisfied_by(self, value):
        return all(callable(getattr(value, m, None)) for m in self.methods)

    def __str__(self):
        names = ", ".join(repr(m) for m in self.methods)
        return f"an object implementing {names}"


def _format_number(x):
    return str(int(x)) if float(x).is_integer() else str(x)


def _named_constraint_ok(name, value):
    if name == "boolean":
        return isinstance(value, bool | np.bool_)
    if name == "array-like":
        # as scikit-learn: sized or shaped, but not a scalar (a string is not an array)
        return (
            hasattr(value, "__len__") or hasattr(value, "shape") or hasattr(value, "__array__")
        ) and not np.isscalar(value)
    if name == "random_state":
        return (
            value is None
            or isinstance(value, numbers.Integral | np.random.RandomState | np.random.Generator)
        ) and not isinstance(value, bool)
    if name == "callable":
        return callable(value)
    if name == "sample_weight":
        return value is None or isinstance(value, numbers.Real) or hasattr(value, "__len__")
    raise ValueError(f"Unknown named constraint {name!r}")


_NAMED_DESCRIPTIONS = {
    "boolean": "an instance of 'bool'",
    "array-like": "an array-like",
    "random_state": "an int, a numpy RandomState or Generator, or None",
    "callable": "a callable",
    "sample_weight": "a float, an array-like or None",
}


def _satisfies(constraint, value):
    if constraint is None:
        return value is None
    if isinstance(constraint, str):
        return _named_constraint_ok(constraint, value)
    if isinstance(constraint, type):
        return isinstance(value, constraint) and not (
            constraint in (numbers.Real, numbers.Integral, int, float) and isinstance(value, bool)
        )
    return constraint.is_satisfied_by(value)


def _describe(constraint):
    if constraint is None:
        return "None"
    if isinstance(constraint, str):
        return _NAMED_DESCRIPTIONS[constraint]
    if isinstance(constraint, type):
        return f"an instance of {constraint.__name__!r}"
    return str(constraint)


def validate_parameter_constraints(constraints, params, owner):
    """Check each parameter against its constraints.

    Parameters
    ----------
    constraints : dict
        Maps a parameter name to a list of constraints, or to the string
        ``"no_validation"``.
    params : dict
        The parameter values (``estimator.get_params(deep=False)``).
    owner : str
        The estimator's name, used in the message.

    Raises
    ------
    InvalidParameterError
        When a value satisfies none of its constraints.

    Examples
    --------
    >>> from numbers import Real
    >>> validate_parameter_constraints(
    ...     {"alpha": [Interval(Real, 0, None, closed="left")]}, {"alpha": -1.0}, "Ridge")
    Traceback (most recent call last):
    ...
    classiclearn.exceptions.InvalidParameterError: The 'alpha' parameter of Ridge must be a float in the range [0, inf). Got -1.0 instead.
    """
    for name, value in params.items():
        rules = constraints.get(name)
        if rules is None or rules == "no_validation":
            continue
        if any(_satisfies(rule, value) for rule in rules):
            continue
        reason = unsupported_reason(owner, name, value)
        if reason is not None:
            raise InvalidParameterError(
                f"The {name!r} parameter of {owner} value {value!r} is accepted by "
                f"scikit-learn but not supported by classiclearn: {reason}"
            )
        allowed = [_describe(rule) for rule in rules]
        if len(allowed) == 1:
            wanted = allowed[0]
        else:
            wanted = ", ".join(allowed[:-1]) + " or " + allowed[-1]
        raise InvalidParameterError(
            f"The {name!r} parameter of {owner} must be {wanted}. Got {value!r} instead."
        )
