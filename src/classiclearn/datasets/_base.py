"""Small real data sets shipped inside the package, and the :class:`Bunch` they come in.

Iris (Fisher 1936), Wisconsin diagnostic breast cancer (Wolberg, Street and
Mangasarian 1995) and wine (Aeberhard and Forina 1991) are the UCI data sets
scikit-learn also ships; diabetes is the regression data of the LARS paper
(Efron et al. 2004); the South African heart disease data are the example of
seed 004 and of *The Elements of Statistical Learning* §4.4.2. Sources and
licences: ``data/README.md``.
"""

import csv
import gzip
from importlib import resources

import numpy as np

from ..utils._bunch import Bunch

__all__ = [
    "Bunch",
    "load_breast_cancer",
    "load_diabetes",
    "load_iris",
    "load_saheart",
    "load_wine",
]

_DATA_MODULE = "classiclearn.datasets.data"


def _open_text(name):
    path = resources.files(_DATA_MODULE).joinpath(name)
    if name.endswith(".gz"):
        return gzip.open(path.open("rb"), "rt", encoding="utf-8")
    return path.open("r", encoding="utf-8")


def _read_header_csv(name):
    """Read a file whose first line is ``n_samples,n_features,class names...``."""
    with _open_text(name) as f:
        reader = csv.reader(f)
        header = next(reader)
        n_samples, n_features = int(header[0]), int(header[1])
        target_names = np.array(header[2:])
        data = np.empty((n_samples, n_features))
        target = np.empty(n_samples, dtype=int)
        for i, row in enumerate(reader):
            data[i] = np.asarray(row[:-1], dtype=np.float64)
            target[i] = int(row[-1])
    return data, target, target_names


def _read_descr(name):
    return resources.files(_DATA_MODULE).joinpath(name).read_text(encoding="utf-8")


def _finish(data, target, feature_names, target_names, descr, filename, return_X_y, as_frame,
            target_column="target"):
    frame = None
    if as_frame:
        import pandas as pd

        X = pd.DataFrame(data, columns=list(feature_names))
        y = pd.Series(target, name=target_column)
        frame = pd.concat([X, y], axis=1)
        data, target = X, y
    if return_X_y:
        return data, target
    return Bunch(
        data=data,
        target=target,
        frame=frame,
        target_names=target_names,
        DESCR=descr,
        feature_names=np.asarray(feature_names, dtype=object),
        filename=filename,
        data_module=_DATA_MODULE,
    )


_IRIS_FEATURES = [
    "sepal length (cm)",
    "sepal width (cm)",
    "petal length (cm)",
    "petal width (cm)",
]

_CANCER_STATS = [
    "radius",
    "texture",
    "perimeter",
    "area",
    "smoothness",
    "compactness",
    "concavity",
    "concave points",
    "symmetry",
    "fractal dimension",
]
_CANCER_FEATURES = (
    [f"mean {s}" for s in _CANCER_STATS]
    + [f"{s} error" for s in _CANCER_STATS]
    + [f"worst {s}" for s in _CANCER_STATS]
)


def load_iris(*, return_X_y=False, as_frame=False):
    """Load Fisher's iris data (150 flowers, 4 measurements, 3 species).

    Parameters
    ----------
    return_X_y : bool, default=False
        Return ``(data, target)`` instead of a :class:`Bunch`.
    as_frame : bool, default=False
        Give ``data`` as a pandas DataFrame, ``target`` as a Series and add
        ``frame`` (both together).

    Returns
    -------
    Bunch or (data, target)
        ``data`` (150, 4), ``target`` (150,) in {0, 1, 2}, ``feature_names``,
        ``target_names`` (setosa, versicolor, virginica), ``DESCR``, ``frame``.

    Examples
    --------
    >>> X, y = load_iris(return_X_y=True)
    >>> X.shape, sorted(set(y.tolist()))
    ((150, 4), [0, 1, 2])
    """
    data, target, target_names = _read_header_csv("iris.csv")
    return _finish(data, target, _IRIS_FEATURES, target_names, _read_descr("iris.rst"),
                   "iris.csv", return_X_y, as_frame)


def load_breast_cancer(*, return_X_y=False, as_frame=False):
    """Load the Wisconsin diagnostic breast cancer data (569 tumours, 30 features).

    Parameters
    ----------
    return_X_y : bool, default=False
        Return ``(data, target)`` instead of a :class:`Bunch`.
    as_frame : bool, default=False
        Give pandas objects and a ``frame``.

    Returns
    -------
    Bunch or (data, target)
        ``target`` is 0 for malignant (212) and 1 for benign (357).

    Examples
    --------
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> X.shape, int(y.sum())
    ((569, 30), 357)
    """
    data, target, target_names = _read_header_csv("breast_cancer.csv.gz")
    return _finish(data, target, _CANCER_FEATURES, target_names,
                   _read_descr("breast_cancer.rst"), "breast_cancer.csv.gz", return_X_y,
                   as_frame)


def load_saheart(*, return_X_y=False, as_frame=False):
    """Load the South African heart disease data (462 men, 9 risk factors).

    The example of seed 004 and of Hastie, Tibshirani and Friedman, *The
    Elements of Statistical Learning*, §4.4.2 (Rousseauw et al. 1983).

    Parameters
    ----------
    return_X_y : bool, default=False
        Return ``(data, target)`` instead of a :class:`Bunch`.
    as_frame : bool, default=False
        Give pandas objects and a ``frame``.

    Returns
    -------
    Bunch or (data, target)
        ``data`` columns sbp, tobacco, ldl, adiposity, famhist (1 = present),
        typea, obesity, alcohol, age; ``target`` chd (1 = coronary heart
        disease).

    Examples
    --------
    >>> X, y = load_saheart(return_X_y=True)
    >>> X.shape, int(y.sum())
    ((462, 9), 160)
    """
    with _open_text("SAheart.csv") as f:
        reader = csv.reader(f)
        header = next(reader)
        rows = np.array([[float(v) for v in row] for row in reader if row])
    feature_names = header[:-1]
    data, target = rows[:, :-1], rows[:, -1].astype(int)
    return _finish(data, target, feature_names, np.array(["no chd", "chd"]),
                   _read_descr("saheart.rst"), "SAheart.csv", return_X_y, as_frame,
                   target_column=header[-1])


_WINE_FEATURES = [
    "alcohol",
    "malic_acid",
    "ash",
    "alcalinity_of_ash",
    "magnesium",
    "total_phenols",
    "flavanoids",
    "nonflavanoid_phenols",
    "proanthocyanins",
    "color_intensity",
    "hue",
    "od280/od315_of_diluted_wines",
    "proline",
]


def load_wine(*, return_X_y=False, as_frame=False):
    """Load the wine recognition data (178 wines, 13 chemical measurements, 3 cultivars).

    Parameters
    ----------
    return_X_y : bool, default=False
    as_frame : bool, default=False

    Returns
    -------
    Bunch or (data, target)

    Examples
    --------
    >>> X, y = load_wine(return_X_y=True)
    >>> X.shape, np.bincount(y).tolist()
    ((178, 13), [59, 71, 48])
    """
    data, target, target_names = _read_header_csv("wine_data.csv")
    return _finish(data, target, _WINE_FEATURES, target_names, _read_descr("wine.rst"),
                   "wine_data.csv", return_X_y, as_frame)


def load_diabetes(*, return_X_y=False, as_frame=False, scaled=True):
    """Load the diabetes regression data (442 patients, 10 baseline variables).

    Parameters
    ----------
    return_X_y : bool, default=False
    as_frame : bool, default=False
    scaled : bool, default=True
        Centre each feature and scale it to unit sum of squares (the
        published form); False gives the raw values.

    Returns
    -------
    Bunch or (data, target)
        ``target`` is a float measure of disease progression after one year.

    Examples
    --------
    >>> X, y = load_diabetes(return_X_y=True)
    >>> X.shape, bool(np.allclose((X ** 2).sum(axis=0), 1.0))
    ((442, 10), True)
    """
    with _open_text("diabetes.csv.gz") as f:
        reader = csv.reader(f)
        header = next(reader)
        rows = np.array([[float(v) for v in row] for row in reader if row])
    data, target = rows[:, :-1], rows[:, -1]
    if scaled:
        data = data - data.mean(axis=0)
        data = data / np.sqrt((data**2).sum(axis=0))
    return _finish(data, target, header[:-1], None, _read_descr("diabetes.rst"),
                   "diabetes.csv.gz", return_X_y, as_frame)
