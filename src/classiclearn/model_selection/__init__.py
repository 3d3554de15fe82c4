"""Model selection: data splitting, cross-validation and hyper-parameter search
(seed 000 §2)."""

from ._curves import learning_curve, validation_curve
from ._search import GridSearchCV, ParameterGrid, ParameterSampler, RandomizedSearchCV
from ._split import (
    GroupKFold,
    KFold,
    LeaveOneOut,
    RepeatedKFold,
    RepeatedStratifiedKFold,
    ShuffleSplit,
    StratifiedKFold,
    StratifiedShuffleSplit,
    check_cv,
    train_test_split,
)
from ._validation import FitFailedWarning, cross_val_predict, cross_val_score, cross_validate

__all__ = [
    "FitFailedWarning",
    "GridSearchCV",
    "GroupKFold",
    "KFold",
    "LeaveOneOut",
    "ParameterGrid",
    "ParameterSampler",
    "RandomizedSearchCV",
    "RepeatedKFold",
    "RepeatedStratifiedKFold",
    "ShuffleSplit",
    "StratifiedKFold",
    "StratifiedShuffleSplit",
    "check_cv",
    "cross_val_predict",
    "cross_val_score",
    "cross_validate",
    "learning_curve",
    "train_test_split",
    "validation_curve",
]
