"""Nearest neighbours (seed 000 §3): k and radius neighbourhoods for classification,
regression and search, on brute force (BLAS tiles fused with top-k selection),
KD-trees [Bentley 1975] and ball trees [Omohundro 1989], all compiled with numba.

Tie rule: neighbours at exactly the same distance are ordered by training
index (lower first). Zero-distance rule: with ``weights="distance"``, a query
at distance 0 from some training points takes its vote or value from those
points only.
"""

from ._ball_tree import BallTree
from ._classification import KNeighborsClassifier, RadiusNeighborsClassifier
from ._kd_tree import KDTree
from ._metrics import VALID_METRICS
from ._regression import KNeighborsRegressor, RadiusNeighborsRegressor
from ._sparse import SPARSE_METRICS
from ._unsupervised import NearestNeighbors

__all__ = [
    "BallTree",
    "KDTree",
    "KNeighborsClassifier",
    "KNeighborsRegressor",
    "NearestNeighbors",
    "RadiusNeighborsClassifier",
    "RadiusNeighborsRegressor",
    "VALID_METRICS",
    "VALID_METRICS_SPARSE",
]

# the metrics each algorithm takes on sparse input (scikit-learn's table)
VALID_METRICS_SPARSE = {"ball_tree": [], "kd_tree": [],
                        "brute": sorted([*SPARSE_METRICS, "precomputed"])}
