"""Linear and quadratic discriminant analysis (seed 000 §10.2-10.3, §13.2; seeds 002-003)."""

from ._lda import LinearDiscriminantAnalysis
from ._qda import QuadraticDiscriminantAnalysis

__all__ = ["LinearDiscriminantAnalysis", "QuadraticDiscriminantAnalysis"]
