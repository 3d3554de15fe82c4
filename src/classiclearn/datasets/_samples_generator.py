"""Synthetic data generators: classification problems on hypercube vertices, linear
regression problems, Gaussian blobs, moons and circles.

``make_classification`` follows the design of Guyon (2003, the NIPS feature
selection challenge's "Madelon" data): each class is made of Gaussian clusters
centred on vertices of a hypercube of side ``2 * class_sep`` in the informative
subspace, each cluster stretched by a random linear map; redundant features are
random linear combinations of the informative ones, repeated features are
copies, and the rest is noise. Same seed, same data; the samples are not
scikit-learn's for the same seed, the distribution is the same.
"""

import numbers

import numpy as np

from ..utils._random import check_random_state

__all__ = [
    "make_blobs",
    "make_circles",
    "make_classification",
    "make_low_rank_matrix",
    "make_moons",
    "make_regression",
]


def _hypercube_vertices(n_vertices, dim, rng):
    """``n_vertices`` distinct vertices of {0, 1}^dim, drawn at random."""
    if dim <= 30:
        codes = rng.choice(2**dim, n_vertices, replace=False)
        return ((codes[:, None] >> np.arange(dim)[None, :]) & 1).astype(np.float64)
    rows = set()
    out = []
    while len(out) < n_vertices:
        row = rng.randint(2, size=dim)
        key = row.tobytes()
        if key not in rows:
            rows.add(key)
            out.append(row)
    return np.array(out, dtype=np.float64)


def make_classification(n_samples=100, n_features=20, *, n_informative=2, n_redundant=2,
                        n_repeated=0, n_classes=2, n_clusters_per_class=2, weights=None,
                        flip_y=0.01, class_sep=1.0, hypercube=True, shift=0.0, scale=1.0,
                        shuffle=True, random_state=None, return_X_y=True):
    """A random n-class classification problem.

    Parameters
    ----------
    n_samples : int, default=100
    n_features : int, default=20
        Total features: informative + redundant + repeated + noise.
    n_informative : int, default=2
        Features carrying the class structure.
    n_redundant : int, default=2
        Random linear combinations of the informative features.
    n_repeated : int, default=0
        Copies of informative or redundant features.
    n_classes : int, default=2
    n_clusters_per_class : int, default=2
    weights : array-like of shape (n_classes,) or (n_classes - 1,), default=None
        Class proportions (the last is inferred if one is missing); balanced by default.
    flip_y : float, default=0.01
        Fraction of samples whose class is replaced by a random one (label noise).
    class_sep : float, default=1.0
        Half the side of the hypercube: larger separates the classes more.
    hypercube : bool, default=True
        Clusters on hypercube vertices; otherwise on a random polytope.
    shift : float, array-like or None, default=0.0
        Added to the features (None: random in [-class_sep, class_sep]).
    scale : float, array-like or None, default=1.0
        Multiplies the features after shifting (None: random in [1, 101]).
    shuffle : bool, default=True
        Shuffle samples and features.
    random_state : int, RandomState or None
    return_X_y : bool, default=True
        Accepted for compatibility; (X, y) is always returned.

    Returns
    -------
    X : ndarray of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,), int

    Examples
    --------
    >>> X, y = make_classification(n_samples=50, n_features=5, random_state=0)
    >>> X.shape, sorted(set(y.tolist()))
    ((50, 5), [0, 1])
    """
    rng = check_random_state(random_state)
    if n_informative + n_redundant + n_repeated > n_features:
        raise ValueError(
            "Number of informative, redundant and repeated features must sum to less than "
            "the number of total features"
        )
    n_clusters = n_classes * n_clusters_per_class
    if n_informative < np.log2(n_clusters):
        raise ValueError(
            f"n_classes({n_classes}) * n_clusters_per_class({n_clusters_per_class}) must be "
            f"smaller or equal 2**n_informative({n_informative})={2**n_informative}"
        )
    if weights is not None:
        weights = list(np.asarray(weights, dtype=np.float64))
        if len(weights) not in (n_classes, n_classes - 1):
            raise ValueError(
                "Weights specified but incompatible with number of classes."
            )
        if len(weights) == n_classes - 1:
            weights.append(1.0 - sum(weights))
    else:
        weights = [1.0 / n_classes] * n_classes
    n_useless = n_features - n_informative - n_redundant - n_repeated

    per_cluster = [int(n_samples * weights[k % n_classes] / n_clusters_per_class)
                   for k in range(n_clusters)]
    for i in range(n_samples - sum(per_cluster)):
        per_cluster[i % n_clusters] += 1

    X = np.zeros((n_samples, n_features))
    y = np.zeros(n_samples, dtype=int)

    centroids = _hypercube_vertices(n_clusters, n_informative, rng)
    centroids = centroids * 2 * class_sep - class_sep
    if not hypercube:
        centroids *= rng.uniform(size=(n_clusters, 1))
        centroids *= rng.uniform(size=(1, n_informative))

    X[:, :n_informative] = rng.standard_normal(size=(n_samples, n_informative))
    start = 0
    for k, centroid in enumerate(centroids):
        stop = start + per_cluster[k]
        y[start:stop] = k % n_classes
        A = 2 * rng.uniform(size=(n_informative, n_informative)) - 1
        X[start:stop, :n_informative] = X[start:stop, :n_informative] @ A + centroid
        start = stop

    if n_redundant > 0:
        B = 2 * rng.uniform(size=(n_informative, n_redundant)) - 1
        X[:, n_informative:n_informative + n_redundant] = X[:, :n_informative] @ B
    if n_repeated > 0:
        n = n_informative + n_redundant
        idx = ((n - 1) * rng.uniform(size=n_repeated) + 0.5).astype(np.intp)
        X[:, n:n + n_repeated] = X[:, idx]
    if n_useless > 0:
        X[:, -n_useless:] = rng.standard_normal(size=(n_samples, n_useless))

    if flip_y > 0.0:
        flip = rng.uniform(size=n_samples) < flip_y
        y[flip] = rng.randint(n_classes, size=flip.sum())

    if shift is None:
        shift = (2 * rng.uniform(size=n_features) - 1) * class_sep
    X += shift
    if scale is None:
        scale = 1 + 100 * rng.uniform(size=n_features)
    X *= scale

    if shuffle:
        order = rng.permutation(n_samples)
        X, y = X[order], y[order]
        X = X[:, rng.permutation(n_features)]
    return X, y


def make_low_rank_matrix(n_samples=100, n_features=100, *, effective_rank=10,
                         tail_strength=0.5, random_state=None):
    """A matrix with a bell-shaped singular value profile (approximately low rank).

    Parameters
    ----------
    n_samples, n_features : int, default=100
    effective_rank : int, default=10
        Singular values that explain most of the data.
    tail_strength : float in [0, 1], default=0.5
        Weight of the slowly decaying tail of the profile.
    random_state : int, RandomState or None

    Returns
    -------
    ndarray of shape (n_samples, n_features)

    Examples
    --------
    >>> make_low_rank_matrix(20, 10, effective_rank=2, random_state=0).shape
    (20, 10)
    """
    rng = check_random_state(random_state)
    n = min(n_samples, n_features)
    u, _ = np.linalg.qr(rng.standard_normal(size=(n_samples, n)), mode="reduced")
    v, _ = np.linalg.qr(rng.standard_normal(size=(n_features, n)), mode="reduced")
    i = np.arange(n, dtype=np.float64)
    low_rank = (1 - tail_strength) * np.exp(-1.0 * (i / effective_rank) ** 2)
    tail = tail_strength * np.exp(-0.1 * i / effective_rank)
    return (u * (low_rank + tail)) @ v.T


def make_regression(n_samples=100, n_features=100, *, n_informative=10, n_targets=1, bias=0.0,
                    effective_rank=None, tail_strength=0.5, noise=0.0, shuffle=True,
                    coef=False, random_state=None):
    """A random linear regression problem ``y = X @ coef + bias + noise``.

    Parameters
    ----------
    n_samples : int, default=100
    n_features : int, default=100
    n_informative : int, default=10
        Features with a non-zero coefficient (uniform in [0, 100]).
    n_targets : int, default=1
    bias : float, default=0.0
    effective_rank : int or None, default=None
        None: standard normal X; otherwise X from :func:`make_low_rank_matrix`
        (correlated features).
    tail_strength : float, default=0.5
    noise : float, default=0.0
        Standard deviation of the Gaussian noise added to y.
    shuffle : bool, default=True
        Shuffle samples and features.
    coef : bool, default=False
        Also return the true coefficients.
    random_state : int, RandomState or None

    Returns
    -------
    X : ndarray of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,) or (n_samples, n_targets)
    coef : ndarray of shape (n_features,) or (n_features, n_targets)
        Only when ``coef=True``.

    Examples
    --------
    >>> X, y, w = make_regression(n_samples=20, n_features=3, n_informative=2, coef=True,
    ...                           random_state=0)
    >>> bool(np.allclose(X @ w, y)), int((w != 0).sum())
    (True, 2)
    """
    rng = check_random_state(random_state)
    n_informative = min(n_features, n_informative)
    if effective_rank is None:
        X = rng.standard_normal(size=(n_samples, n_features))
    else:
        X = make_low_rank_matrix(n_samples, n_features, effective_rank=effective_rank,
                                 tail_strength=tail_strength, random_state=rng)
    truth = np.zeros((n_features, n_targets))
    truth[:n_informative] = 100 * rng.uniform(size=(n_informative, n_targets))
    y = X @ truth + bias
    if noise > 0.0:
        y += rng.normal(scale=noise, size=y.shape)
    if shuffle:
        order = rng.permutation(n_samples)
        X, y = X[order], y[order]
        features = rng.permutation(n_features)
        X = X[:, features]
        truth = truth[features]
    y = np.squeeze(y) if n_targets == 1 else y
    if n_samples == 1 and n_targets == 1:
        y = y.reshape(1)
    if coef:
        return X, y, np.squeeze(truth) if n_targets == 1 else truth
    return X, y


def make_blobs(n_samples=100, n_features=2, *, centers=None, cluster_std=1.0,
               center_box=(-10.0, 10.0), shuffle=True, random_state=None,
               return_centers=False):
    """Isotropic Gaussian blobs for clustering.

    Parameters
    ----------
    n_samples : int or array-like of int, default=100
        Total number of samples (split evenly), or the number per blob.
    n_features : int, default=2
    centers : int or array-like of shape (n_centers, n_features), default=None
        Number of blobs (3 by default) drawn uniformly in ``center_box``, or
        their coordinates.
    cluster_std : float or array-like of float, default=1.0
        Standard deviation of each blob.
    center_box : tuple of float, default=(-10.0, 10.0)
    shuffle : bool, default=True
    random_state : int, RandomState or None
    return_centers : bool, default=False

    Returns
    -------
    X : ndarray of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,), int
    centers : ndarray of shape (n_centers, n_features)
        Only when ``return_centers=True``.

    Examples
    --------
    >>> X, y = make_blobs(n_samples=10, centers=[[0, 0], [5, 5]], random_state=0)
    >>> X.shape, np.bincount(y).tolist()
    ((10, 2), [5, 5])
    """
    rng = check_random_state(random_state)
    if isinstance(n_samples, numbers.Integral):
        if centers is None:
            centers = 3
        if isinstance(centers, numbers.Integral):
            centers = rng.uniform(center_box[0], center_box[1], size=(centers, n_features))
        else:
            centers = np.atleast_2d(np.asarray(centers, dtype=np.float64))
            n_features = centers.shape[1]
        n_centers = centers.shape[0]
        counts = np.full(n_centers, n_samples // n_centers)
        counts[: n_samples % n_centers] += 1
    else:
        counts = np.asarray(n_samples, dtype=np.intp)
        n_centers = len(counts)
        if centers is None:
            centers = rng.uniform(center_box[0], center_box[1], size=(n_centers, n_features))
        else:
            centers = np.atleast_2d(np.asarray(centers, dtype=np.float64))
            if centers.shape[0] != n_centers:
                raise ValueError(
                    "Length of `n_samples` not consistent with number of centers. Got "
                    f"n_samples = {n_samples} and centers = {centers}"
                )
            n_features = centers.shape[1]
    stds = np.broadcast_to(np.asarray(cluster_std, dtype=np.float64), (n_centers,)) \
        if np.ndim(cluster_std) == 0 else np.asarray(cluster_std, dtype=np.float64)
    if len(stds) != n_centers:
        raise ValueError(
            "Length of `clusters_std` not consistent with number of centers. Got centers = "
            f"{centers} and cluster_std = {cluster_std}"
        )
    X = np.concatenate([rng.normal(loc=centers[k], scale=stds[k], size=(counts[k], n_features))
                        for k in range(n_centers)])
    y = np.repeat(np.arange(n_centers), counts)
    if shuffle:
        order = rng.permutation(len(y))
        X, y = X[order], y[order]
    if return_centers:
        return X, y, centers
    return X, y


def make_moons(n_samples=100, *, shuffle=True, noise=None, random_state=None):
    """Two interleaving half circles.

    Parameters
    ----------
    n_samples : int or (int, int), default=100
        Total, or the number in each moon.
    shuffle : bool, default=True
    noise : float or None
        Standard deviation of Gaussian noise added to the points.
    random_state : int, RandomState or None

    Returns
    -------
    X : ndarray of shape (n_samples, 2)
    y : ndarray of shape (n_samples,)

    Examples
    --------
    >>> X, y = make_moons(10, random_state=0)
    >>> X.shape
    (10, 2)
    """
    if isinstance(n_samples, numbers.Integral):
        n_out, n_in = n_samples // 2, n_samples - n_samples // 2
    else:
        n_out, n_in = n_samples
    rng = check_random_state(random_state)
    t_out = np.linspace(0, np.pi, n_out)
    t_in = np.linspace(0, np.pi, n_in)
    X = np.vstack([np.column_stack([np.cos(t_out), np.sin(t_out)]),
                   np.column_stack([1 - np.cos(t_in), 1 - np.sin(t_in) - 0.5])])
    y = np.r_[np.zeros(n_out, dtype=int), np.ones(n_in, dtype=int)]
    if shuffle:
        order = rng.permutation(len(y))
        X, y = X[order], y[order]
    if noise is not None:
        X = X + rng.normal(scale=noise, size=X.shape)
    return X, y


def make_circles(n_samples=100, *, shuffle=True, noise=None, random_state=None, factor=0.8):
    """A large circle containing a smaller one (two classes).

    Parameters
    ----------
    n_samples : int or (int, int), default=100
        Total, or (outer, inner).
    shuffle : bool, default=True
    noise : float or None
    random_state : int, RandomState or None
    factor : float in (0, 1), default=0.8
        Radius of the inner circle.

    Returns
    -------
    X : ndarray of shape (n_samples, 2)
    y : ndarray of shape (n_samples,)

    Examples
    --------
    >>> X, y = make_circles(8, random_state=0)
    >>> X.shape, int(y.sum())
    ((8, 2), 4)
    """
    if not 0 <= factor < 1:
        raise ValueError("'factor' has to be between 0 and 1.")
    if isinstance(n_samples, numbers.Integral):
        n_out = n_samples // 2
        n_in = n_samples - n_out
    else:
        n_out, n_in = n_samples
    rng = check_random_state(random_state)
    t_out = np.linspace(0, 2 * np.pi, n_out, endpoint=False)
    t_in = np.linspace(0, 2 * np.pi, n_in, endpoint=False)
    X = np.vstack([np.column_stack([np.cos(t_out), np.sin(t_out)]),
                   factor * np.column_stack([np.cos(t_in), np.sin(t_in)])])
    y = np.r_[np.zeros(n_out, dtype=int), np.ones(n_in, dtype=int)]
    if shuffle:
        order = rng.permutation(len(y))
        X, y = X[order], y[order]
    if noise is not None:
        X = X + rng.normal(scale=noise, size=X.shape)
    return X, y
