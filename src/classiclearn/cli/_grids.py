"""The grids of ``classiclearn compare --tune``, kept apart so that ``--help`` can list them.

This module imports nothing heavy (the command line's parser prints
:func:`describe_grids`); the nested cross-validation itself is in :mod:`._tune`.
"""

import math

__all__ = ["INNER_CV", "TUNING_GRIDS", "Scaled", "describe_grids"]

INNER_CV = 3


class Scaled:
    """Grid values given as factors of a quantity known only from the training rows.

    Parameters
    ----------
    factors : sequence of float
    unit : {"1/p", "sqrt(p)", "p^", "sd(y)", "root impurity"}
        ``"p^"`` means ``round(p ** factor)`` (at least 1, duplicates dropped),
        the others ``factor * unit``.

    Examples
    --------
    >>> Scaled([0.1, 1], "1/p").resolve({"p": 4})
    [0.025, 0.25]
    >>> Scaled([1 / 3, 2 / 3, 1], "p^").resolve({"p": 30})
    [3, 10, 30]
    >>> str(Scaled([0.1, 1], "1/p"))
    '{0.1, 1} x 1/p'
    """

    def __init__(self, factors, unit):
        self.factors = tuple(factors)
        self.unit = unit

    def resolve(self, context):
        """The concrete values for a context dict (``p``, ``sd(y)``, ``root impurity``)."""
        if self.unit == "p^":
            values = [max(1, int(round(context["p"] ** f))) for f in self.factors]
            return sorted(set(values))
        if self.unit == "1/p":
            scale = 1.0 / context["p"]
        elif self.unit == "sqrt(p)":
            scale = math.sqrt(context["p"])
        else:
            scale = context[self.unit]
        return [_round(f * scale) for f in self.factors]

    def __str__(self):
        if self.unit == "p^":
            return "round(p^f), f in {" + ", ".join(_fraction(f) for f in self.factors) + "}"
        return "{" + ", ".join(f"{f:g}" for f in self.factors) + "} x " + self.unit

    __repr__ = __str__


def _round(x):
    """Six significant digits, so the chosen values print and compare cleanly."""
    return float(f"{x:.6g}")


def _fraction(f):
    for den in (2, 3, 4):
        if abs(f * den - round(f * den)) < 1e-12:
            num = int(round(f * den))
            return str(num // den) if num % den == 0 else f"{num}/{den}"
    return f"{f:g}"


_KNN = {"n_neighbors": [1, 3, 7, 15, 31]}
_RADIUS = {"radius": Scaled([0.5, 1, 2], "sqrt(p)")}
_SVM = {"C": [0.1, 1, 10], "gamma": Scaled([0.1, 1], "1/p")}
_TREE = {"max_depth": [3, None], "ccp_alpha": Scaled([0, 0.01, 0.03], "root impurity")}
_FOREST = {"max_features": Scaled([1 / 3, 2 / 3, 1], "p^")}

# The grids of ``compare --tune`` (the parameter of the model step -> values).
# Features are standardised for every method here except the trees, so the
# absolute grids (C, alpha of Ridge) are on the scale of standardised inputs.
# A method not listed runs untuned (its defaults) and is marked so; of the
# compared methods none has an ``n_components`` that changes its predictions
# (LinearDiscriminantAnalysis's changes only ``transform``).
TUNING_GRIDS = {
    "KNeighborsClassifier": _KNN,
    "KNeighborsRegressor": _KNN,
    "RadiusNeighborsClassifier": _RADIUS,
    "RadiusNeighborsRegressor": _RADIUS,
    "SVC": _SVM,
    "SVR": _SVM,
    "LinearSVC": {"C": [0.01, 0.1, 1, 10]},
    "LogisticRegression": {"C": [0.01, 0.1, 1, 10, 100]},
    "LeastSquaresClassifier": {"alpha": [0.0, 1.0, 10.0, 100.0]},
    "Ridge": {"alpha": [0.01, 0.1, 1.0, 10.0, 100.0]},
    "KernelRidge": {"alpha": [0.001, 0.01, 0.1, 1.0, 10.0]},
    "Lasso": {"alpha": Scaled([0.001, 0.01, 0.03, 0.1, 0.3], "sd(y)")},
    "ElasticNet": {"alpha": Scaled([0.001, 0.01, 0.1], "sd(y)"), "l1_ratio": [0.2, 0.8]},
    "QuadraticDiscriminantAnalysis": {"reg_param": [0.0, 0.01, 0.1, 0.5]},
    "DecisionTreeClassifier": _TREE,
    "DecisionTreeRegressor": _TREE,
    "RandomForestClassifier": _FOREST,
    "RandomForestRegressor": _FOREST,
    "ExtraTreesClassifier": _FOREST,
    "ExtraTreesRegressor": _FOREST,
}


def _grid_size(grid):
    return math.prod(len(v.factors) if isinstance(v, Scaled) else len(v) for v in grid.values())


def describe_grids(names=None):
    """One line per method: its grid (as documented in ``compare --help`` and the README).

    Examples
    --------
    >>> print(describe_grids(["SVC", "GaussianNB"]))
    SVC: C in {0.1, 1, 10}; gamma in {0.1, 1} x 1/p (6 points)
    GaussianNB: untuned (no grid)
    """
    lines = []
    for name in TUNING_GRIDS if names is None else names:
        grid = TUNING_GRIDS.get(name)
        if grid is None:
            lines.append(f"{name}: untuned (no grid)")
            continue
        parts = []
        for key, values in grid.items():
            if isinstance(values, Scaled):
                shown = str(values)
            else:
                shown = "{" + ", ".join("None" if v is None else f"{v:g}" for v in values) + "}"
            parts.append(f"{key} in {shown}")
        lines.append(f"{name}: {'; '.join(parts)} ({_grid_size(grid)} points)")
    return "\n".join(lines)
