"""Synthetic data for benchmark cases (scikit-learn's generators, fixed seeds).

Each function returns ``(X_train, y_train, X_test, y_test)``; with ``quick``
the sizes shrink to a smoke-test scale.
"""

import numpy as np

QUICK_ROWS = 2_000


def _split(X, y, n_test):
    return X[:-n_test], (None if y is None else y[:-n_test]), X[-n_test:], (
        None if y is None else y[-n_test:]
    )


def classification(n_train, n_features, n_classes=2, *, n_test=None, quick=False, seed=0,
                   dtype=np.float64):
    """Gaussian clusters with informative features (make_classification)."""
    from sklearn.datasets import make_classification

    if quick:
        n_train, n_features = min(n_train, QUICK_ROWS), min(n_features, 20)
    n_test = n_test or max(n_train // 5, 100)
    X, y = make_classification(
        n_samples=n_train + n_test, n_features=n_features,
        n_informative=max(2, min(n_features, 10)), n_redundant=0,
        n_classes=n_classes, n_clusters_per_class=1, random_state=seed,
    )
    return _split(X.astype(dtype), y, n_test)


def regression(n_train, n_features, *, n_test=None, quick=False, seed=0, noise=1.0,
               dtype=np.float64):
    """A linear target with Gaussian noise (make_regression)."""
    from sklearn.datasets import make_regression

    if quick:
        n_train, n_features = min(n_train, QUICK_ROWS), min(n_features, 20)
    n_test = n_test or max(n_train // 5, 100)
    X, y = make_regression(
        n_samples=n_train + n_test, n_features=n_features,
        n_informative=max(1, n_features // 2), noise=noise, random_state=seed,
    )
    return _split(X.astype(dtype), y, n_test)


def blobs(n_train, n_features, centers=8, *, n_test=None, quick=False, seed=0):
    """Isotropic Gaussian blobs (make_blobs); y holds the true cluster."""
    from sklearn.datasets import make_blobs

    if quick:
        n_train, n_features = min(n_train, QUICK_ROWS), min(n_features, 20)
    n_test = n_test or max(n_train // 5, 100)
    X, y = make_blobs(n_samples=n_train + n_test, n_features=n_features, centers=centers,
                      random_state=seed)
    return _split(X, y, n_test)


def as_float32(data):
    """The same data with float32 features."""
    X_train, y_train, X_test, y_test = data
    return X_train.astype(np.float32), y_train, X_test.astype(np.float32), y_test
