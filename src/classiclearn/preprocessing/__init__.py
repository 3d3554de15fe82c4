"""Preprocessing: scaling, encoding, polynomial features and imputation (seed 000 §3, §4, §7;
seed 004)."""

from ._data import MinMaxScaler, StandardScaler
from ._encoders import OneHotEncoder
from ._impute import SimpleImputer
from ._label import LabelEncoder
from ._polynomial import PolynomialFeatures

__all__ = [
    "LabelEncoder",
    "MinMaxScaler",
    "OneHotEncoder",
    "PolynomialFeatures",
    "SimpleImputer",
    "StandardScaler",
]
