"""Linear models: least squares, ridge, lasso, elastic net, logistic regression,
perceptron and the least-squares classifier (seed 000 §4, §5, §7, §9.1; seeds 002, 004);
tests between nested models and stepwise selection (seed 004)."""

from ._coordinate_descent import ElasticNet, Lasso, enet_path, lasso_path
from ._inference_stats import lr_test, wald_test
from ._least_squares import LeastSquaresClassifier
from ._logistic import LogisticRegression
from ._ols import LinearRegression
from ._perceptron import Perceptron
from ._ridge import Ridge
from ._stepwise import stepwise_selection

__all__ = [
    "ElasticNet",
    "Lasso",
    "LeastSquaresClassifier",
    "LinearRegression",
    "LogisticRegression",
    "Perceptron",
    "Ridge",
    "enet_path",
    "lasso_path",
    "lr_test",
    "stepwise_selection",
    "wald_test",
]
