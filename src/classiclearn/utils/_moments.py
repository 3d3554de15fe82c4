"""Weighted means and centred co-moments of row blocks, merged exactly.

The statistics a least-squares or covariance fit needs from data ``Z`` (the
features, with the targets as extra columns) are the total weight ``W``, the
weighted mean ``m`` and the centred co-moment matrix
``C = sum_i w_i (z_i - m)(z_i - m)'``. Each row block gives its own; two
blocks merge by the pairwise update of Chan, Golub and LeVeque:
``C = C_a + C_b + (W_a W_b / W) d d'`` with ``d = m_b - m_a``. Centred
co-moments keep their accuracy on data with a large mean, where raw sums of
squares (``Z'Z``) lose 1e-10 to 1e-9 relative.
"""

import numpy as np

__all__ = ["block_comoments", "merge_comoments"]


def block_comoments(Z, w=None, center=True):
    """(total weight, weighted mean, centred co-moments) of the rows of ``Z``.

    Parameters
    ----------
    Z : ndarray of shape (n, q), float64, or a tuple of such arrays
        A tuple holds column groups of one matrix (e.g. ``(X, Y)``), centred
        into one buffer without first being stacked.
    w : ndarray of shape (n,) or None
        Row weights (ones when None).
    center : bool, default=True
        False: the mean is taken as zero (co-moments about the origin).

    Returns
    -------
    weight : float
    mean : ndarray of shape (q,)
    comoments : ndarray of shape (q, q)

    Examples
    --------
    >>> W, m, C = block_comoments(np.array([[1.0], [3.0]]))
    >>> float(W), m.tolist(), C.tolist()
    (2.0, [2.0], [[2.0]])
    """
    parts = Z if isinstance(Z, tuple) else (Z,)
    n = parts[0].shape[0]
    q = sum(part.shape[1] for part in parts)
    total = float(n) if w is None else float(np.sum(w))
    weights = np.ones(n) if w is None else w
    D = np.empty((n, q))
    means = []
    start = 0
    for part in parts:
        stop = start + part.shape[1]
        # a weighted column sum is one matrix-vector product (a strided sum over
        # the rows of a C-ordered block is several times slower)
        means.append(np.zeros(part.shape[1]) if not center or total == 0.0
                     else (weights @ part) / total)
        np.subtract(part, means[-1], out=D[:, start:stop])
        start = stop
    C = D.T @ D if w is None else (D * w[:, None]).T @ D
    return total, np.concatenate(means), C


def merge_comoments(a, b):
    """Merge two ``(weight, mean, comoments)`` triples exactly (Chan et al.).

    Examples
    --------
    >>> a = block_comoments(np.array([[1.0], [3.0]]))
    >>> b = block_comoments(np.array([[5.0]]))
    >>> W, m, C = merge_comoments(a, b)
    >>> float(W), m.tolist(), C.tolist()
    (3.0, [3.0], [[8.0]])
    """
    wa, ma, Ca = a
    wb, mb, Cb = b
    total = wa + wb
    if wa == 0.0:
        return b
    if wb == 0.0:
        return a
    delta = mb - ma
    mean = ma + delta * (wb / total)
    return total, mean, Ca + Cb + np.outer(delta, delta) * (wa * wb / total)
