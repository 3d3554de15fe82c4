"""Metrics: scores for classification, regression and clustering, and pairwise kernels."""

from ._classification import accuracy_score
from ._regression import r2_score

__all__ = ["accuracy_score", "r2_score"]
