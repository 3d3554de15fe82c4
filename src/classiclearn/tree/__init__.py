"""Decision trees (seed 000 §11.1): CART classification and regression trees."""

from ._classes import DecisionTreeClassifier, DecisionTreeRegressor
from ._export import export_text, plot_tree, register_for_sklearn_export

__all__ = [
    "DecisionTreeClassifier",
    "DecisionTreeRegressor",
    "export_text",
    "plot_tree",
    "register_for_sklearn_export",
]
