"""Support-vector machines (seed 000 §8): SVC, SVR and LinearSVC."""

from ._classes import SVC, SVR
from ._linear import LinearSVC

__all__ = ["LinearSVC", "SVC", "SVR"]
