"""Data of the benchmark grid and of the overhead benchmark (issue 18).

Every kind of data is ``(X_train, y_train, X_test, y_test)`` built from
scikit-learn's generators with fixed seeds (through :mod:`benchmarks._data`),
and cached: many cells share one data set, and estimators never modify their
input. Sizes are the training rows; the test set has ``max(n // 5, 100)`` rows
unless ``n_test`` says otherwise.
"""

from functools import lru_cache

import numpy as np
from scipy.spatial.distance import cdist

from benchmarks import _data

# rows kept by the quick path (a smoke test of the harness)
QUICK_MAX_ROWS = 2_000


def _bins(X_train, X_test, n_bins=8):
    """Each column cut at its training quantiles into ``n_bins`` integer codes."""
    qs = np.quantile(X_train, np.linspace(0, 1, n_bins + 1)[1:-1], axis=0)
    codes = [
        np.stack([np.searchsorted(qs[:, j], A[:, j]) for j in range(A.shape[1])], axis=1)
        for A in (X_train, X_test)
    ]
    return codes[0], codes[1]


def _classification(n, f, classes, n_test):
    return _data.classification(n, f, classes, n_test=n_test)


def _counts(n, f, classes, n_test):
    X, y, Xt, yt = _classification(n, f, classes, n_test)
    return np.floor(np.abs(X) * 2.0), y, np.floor(np.abs(Xt) * 2.0), yt


def _categorical(n, f, classes, n_test):
    X, y, Xt, yt = _classification(n, f, classes, n_test)
    X, Xt = _bins(X, Xt)
    return X, y, Xt, yt


def _categories(n, f, classes, n_test):
    X, _, Xt, _ = _categorical(n, f, classes, n_test)
    return X, None, Xt, None


def _labels(n, f, classes, n_test):
    """String class labels as a 1-D array (what LabelEncoder fits on)."""
    _, y, _, yt = _classification(n, min(f, 10), max(classes, 5), n_test)
    names = np.array([f"class_{i}" for i in range(max(classes, 5))])
    return names[y], None, names[yt], None


def _regression(n, f, classes, n_test):
    return _data.regression(n, f, n_test=n_test, noise=10.0)


def _positive_regression(n, f, classes, n_test):
    """A positive target (Poisson criterion): the linear target shifted above 1.

    A shift, not an exponential: a heavy-tailed target makes R^2 scores of
    single trees swing by more than the tolerance between equally good trees.
    """
    X, y, Xt, yt = _regression(n, f, classes, n_test)
    low = min(y.min(), yt.min())
    return X, y - low + 1.0, Xt, yt - low + 1.0


def _with_nans(n, f, classes, n_test):
    X, _, Xt, _ = _regression(n, f, classes, n_test)
    rng = np.random.default_rng(1)
    X = np.where(rng.uniform(size=X.shape) < 0.1, np.nan, X)
    Xt = np.where(rng.uniform(size=Xt.shape) < 0.1, np.nan, Xt)
    return X, None, Xt, None


def _unlabelled(n, f, classes, n_test):
    X, _, Xt, _ = _classification(n, f, classes, n_test)
    return X, None, Xt, None


def _blobs(n, f, classes, n_test):
    return _data.blobs(n, f, centers=8, n_test=n_test)


KINDS = {
    "classification": _classification,
    "regression": _regression,
    "positive_regression": _positive_regression,
    "unlabelled": _unlabelled,
    "blobs": _blobs,
    "counts": _counts,
    "categorical": _categorical,
    "categories": _categories,
    "labels": _labels,
    "nans": _with_nans,
}


@lru_cache(maxsize=4)
def make(kind, n_rows, n_features, classes=2, n_test=None, quick=False):
    """The data of one cell (cached; callers must not modify it)."""
    if quick:
        n_rows = min(n_rows, QUICK_MAX_ROWS)
    n_test = n_test or max(n_rows // 5, 100)
    return KINDS[kind](n_rows, n_features, classes, n_test)


def radius_for(X_train, X_test, neighbours=15, metric="euclidean"):
    """A radius holding about ``neighbours`` training rows around a test row.

    The matching quantile of the distances between up to 300 test rows and
    2,000 training rows, so that the work per query stays alike at every size.
    """
    rng = np.random.default_rng(0)
    train = X_train[rng.permutation(X_train.shape[0])[:2_000]]
    queries = X_test[:300]
    d = cdist(queries, train, metric=metric).ravel()
    q = min(1.0, neighbours / X_train.shape[0])
    return float(np.quantile(d, q))
