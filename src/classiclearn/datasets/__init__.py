"""Data sets: small real ones shipped with the package, and synthetic generators."""

from ._base import (
    Bunch,
    load_breast_cancer,
    load_diabetes,
    load_iris,
    load_saheart,
    load_wine,
)
from ._samples_generator import (
    make_blobs,
    make_circles,
    make_classification,
    make_low_rank_matrix,
    make_moons,
    make_regression,
)

__all__ = [
    "Bunch",
    "load_breast_cancer",
    "load_diabetes",
    "load_iris",
    "load_saheart",
    "load_wine",
    "make_blobs",
    "make_circles",
    "make_classification",
    "make_low_rank_matrix",
    "make_moons",
    "make_regression",
]
