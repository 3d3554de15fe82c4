"""Imputation of missing values; ``SimpleImputer`` lives here as in scikit-learn.

The class is defined in :mod:`classiclearn.preprocessing`; this module gives it
scikit-learn's import path, ``from classiclearn.impute import SimpleImputer``.
"""

from .preprocessing import SimpleImputer

__all__ = ["SimpleImputer"]
