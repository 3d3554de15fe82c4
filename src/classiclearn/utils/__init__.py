"""Utilities shared by the estimators: validation, parameters, targets, randomness."""

from ._bunch import Bunch
from ._random import check_random_state
from .discovery import all_estimators
from .validation import check_array, check_is_fitted, check_X_y, validate_data

__all__ = [
    "Bunch",
    "all_estimators",
    "check_array",
    "check_is_fitted",
    "check_random_state",
    "check_X_y",
    "validate_data",
]
