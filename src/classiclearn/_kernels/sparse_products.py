"""numba kernels of products with a CSR matrix given by its three arrays.

:func:`csr_gram_matvec` forms ``X' (X v)`` in one pass over the stored entries:
each row's product with v is gathered, then scattered back along the same row
while it is in cache, where the two scipy products read every entry twice.

The index arrays are unsigned (:func:`unsigned_csr`): numba checks a signed index
for a negative value on every access, which here costs almost half the time.
"""

import numpy as np

from .jit import njit


def unsigned_csr(X):
    """(indptr, indices, data) of the CSR matrix X as uintp, uintp and float64 arrays."""
    return (X.indptr.astype(np.uintp), X.indices.astype(np.uintp),
            np.asarray(X.data, dtype=np.float64))


@njit(cache=True, nogil=True, fastmath={"reassoc", "contract"})
def csr_gram_matvec(indptr, indices, data, v, out):
    """``out = X' (X v)`` for the CSR matrix X (``indptr``, ``indices``, ``data``).

    Parameters
    ----------
    indptr, indices : uintp arrays; data : float64 array (the CSR arrays of X, n x p,
        from :func:`unsigned_csr`).
    v : float64 (p,).
    out : float64 (p,), overwritten.

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp
    >>> X = sp.csr_matrix(np.array([[1.0, 0.0, 2.0], [0.0, 3.0, 1.0]]))
    >>> v = np.array([1.0, 1.0, 1.0]); out = np.empty(3)
    >>> csr_gram_matvec(*unsigned_csr(X), v, out)
    >>> np.allclose(out, X.T @ (X @ v))
    True
    """
    for j in range(out.shape[0]):
        out[j] = 0.0
    for i in range(indptr.shape[0] - 1):
        start = indptr[i]
        stop = indptr[i + 1]
        s = 0.0
        for q in range(start, stop):
            s += data[q] * v[indices[q]]
        for q in range(start, stop):
            out[indices[q]] += s * data[q]
