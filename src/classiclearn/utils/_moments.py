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

__all__ = ["MAX_MEAN_TO_VAR", "block_comoments", "merge_comoments"]

_ROWS = 4096  # rows centred at a time: the buffer stays in cache, X is never copied whole
# Largest squared mean per unit of variance at which Z'Z - n m m' replaces centring
MAX_MEAN_TO_VAR = 1e3


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
    # a weighted column sum is one matrix-vector product (a strided sum over
    # the rows of a C-ordered block is several times slower)
    means = [np.zeros(part.shape[1]) if not center or total == 0.0
             else (weights @ part) / total for part in parts]
    if w is None and n > 0:
        C = _raw_comoments(parts, means, n)
        if C is not None:
            return total, np.concatenate(means), C
    C = np.zeros((q, q))
    D = np.empty((min(n, _ROWS), q))  # rows centred a cache-sized run at a time
    for lo in range(0, n, _ROWS):
        hi = min(n, lo + _ROWS)
        B = D[: hi - lo]
        start = 0
        for part, mean in zip(parts, means, strict=True):
            stop = start + part.shape[1]
            np.subtract(part[lo:hi], mean, out=B[:, start:stop])
            start = stop
        C += B.T @ B if w is None else (B * w[lo:hi, None]).T @ B
    return total, np.concatenate(means), C


def _raw_comoments(parts, means, n):
    """Centred co-moments as ``Z'Z - n m m'`` from products of the parts themselves
    (no centred copy), or None when some column's mean is too large against its
    spread for that to keep its accuracy.

    In floating point the subtraction loses about ``log10(1 + m^2 / var)``
    digits; below ``MAX_MEAN_TO_VAR`` that is at most three, the accuracy the
    in-memory least-squares fits accept for the same shortcut.
    """
    mean = np.concatenate(means)
    # the guard first, from the columns' sums of squares (no products formed in vain)
    squares = np.concatenate([np.einsum("ij,ij->j", part, part) for part in parts])
    var = squares / n - mean**2
    if not np.all(mean**2 <= MAX_MEAN_TO_VAR * np.maximum(var, 0.0)):
        return None
    C = np.block([[a.T @ b for b in parts] for a in parts])
    C -= n * np.outer(mean, mean)
    return C


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
