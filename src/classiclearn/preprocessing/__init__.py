"""Preprocessing: scaling, encoding, polynomial features and imputation (seed 000 §3, §4, §7;
seed 004)."""

from ._data import MinMaxScaler, StandardScaler
from ._encoders import OneHotEncoder
from ._function_transformer import FunctionTransformer
from ._impute import SimpleImputer
from ._label import LabelEncoder, label_binarize
from ._normalize import Binarizer, Normalizer, normalize
from ._polynomial import PolynomialFeatures
from ._robust import MaxAbsScaler, RobustScaler
from ._tabular import (
    TabularEncoder as TabularEncoder,  # the command line's encoder (not registered)
)

__all__ = [
    "Binarizer",
    "FunctionTransformer",
    "LabelEncoder",
    "MaxAbsScaler",
    "MinMaxScaler",
    "Normalizer",
    "OneHotEncoder",
    "PolynomialFeatures",
    "RobustScaler",
    "SimpleImputer",
    "StandardScaler",
    "label_binarize",
    "normalize",
]
