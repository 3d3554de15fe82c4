"""numba kernels of products with a CSR matrix given by its three arrays.

:func:`csr_gram_matvec` forms ``X' diag(w) X v`` in one pass over the stored entries:
each row's product with v is gathered, then scattered back along the same row
while it is in cache, where the two scipy products read every entry twice.

:func:`csr_matvec` and :func:`csr_rmatvec` form ``X v`` and ``X' u`` over row lanes
(:func:`row_lanes`) in numba's threads, each lane by :func:`csr_rows_matvec` /
:func:`csr_rows_scatter`, which serve callers on one thread too;
:func:`csr_times_dense` forms ``X B`` for a dense B of a few columns, its rows in
numba's threads. :func:`csr_gram` accumulates ``X' X`` densely from the pairs of
entries of each row.

Indices are used unsigned, either as arrays (:func:`unsigned_csr`) or cast at each
access: numba checks a signed index for a negative value on every access, which
here costs much of the time.
"""

import numpy as np

from .jit import njit, prange


def unsigned_csr(X):
    """(indptr, indices, data) of the CSR matrix X as uintp, uintp and float64 arrays."""
    return (X.indptr.astype(np.uintp), X.indices.astype(np.uintp),
            np.asarray(X.data, dtype=np.float64))


@njit(cache=True, nogil=True, fastmath={"reassoc", "contract"})
def csr_gram_matvec(indptr, indices, data, w, v, out):
    """``out = X' diag(w) X v`` for the CSR matrix X (``indptr``, ``indices``, ``data``);
    rows of weight 0 are skipped.

    Parameters
    ----------
    indptr, indices : uintp arrays; data : float64 array (the CSR arrays of X, n x p,
        from :func:`unsigned_csr`).
    w : float64 (n,), the row weights.
    v : float64 (p,).
    out : float64 (p,), overwritten.

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp
    >>> X = sp.csr_matrix(np.array([[1.0, 0.0, 2.0], [0.0, 3.0, 1.0]]))
    >>> v = np.array([1.0, 1.0, 1.0]); out = np.empty(3)
    >>> csr_gram_matvec(*unsigned_csr(X), np.ones(2), v, out)
    >>> np.allclose(out, X.T @ (X @ v))
    True
    """
    for j in range(out.shape[0]):
        out[j] = 0.0
    for i in range(indptr.shape[0] - 1):
        if w[i] == 0.0:
            continue
        start = indptr[i]
        stop = indptr[i + 1]
        s = 0.0
        for q in range(start, stop):
            s += data[q] * v[indices[q]]
        s *= w[i]
        for q in range(start, stop):
            out[indices[q]] += s * data[q]


def row_lanes(indptr, shape, lane_entries):
    """Row bounds (intp, lanes + 1) cutting the rows of a CSR matrix of ``shape``
    into lanes of about ``lane_entries`` stored entries each: fixed by the matrix
    alone, so that sums over lanes do not depend on the thread count.

    At most 8 lanes, and at most one per p stored entries, where p = ``shape[1]``
    (a lane's buffer of p sums, cleared and added up once per pass, should cost
    less than its entries); at least one.

    Examples
    --------
    >>> import numpy as np
    >>> row_lanes(np.array([0, 2, 4, 6, 8]), (4, 2), 4)
    array([0, 2, 4])
    """
    nnz = int(indptr[-1])
    n_lanes = max(1, min(8, nnz // lane_entries, nnz // max(1, shape[1])))
    cuts = np.searchsorted(indptr, np.linspace(0, nnz, n_lanes + 1)[1:-1])
    return np.concatenate(([0], cuts, [shape[0]])).astype(np.intp)


@njit(cache=True, nogil=True, parallel=True)
def csr_matvec(indptr, indices, data, v, bounds, out):
    """``out = X v`` for the CSR matrix X, its row lanes (``bounds``, see
    :func:`row_lanes`) in numba's threads; each row's sum in stored order (scipy's
    result, bit for bit).

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp
    >>> X = sp.csr_array(np.array([[1.0, 0.0, 2.0], [0.0, 3.0, 1.0]]))
    >>> out = np.empty(2)
    >>> csr_matvec(X.indptr, X.indices, X.data, np.ones(3), row_lanes(X.indptr, X.shape, 1), out)
    >>> out
    array([3., 4.])
    """
    for lane in prange(bounds.shape[0] - 1):
        csr_rows_matvec(indptr, indices, data, v, bounds[lane], bounds[lane + 1], out)


@njit(cache=True, nogil=True)
def csr_rows_matvec(indptr, indices, data, v, start, stop, out):
    """``out[i] = X[i] . v`` for the CSR rows ``start <= i < stop``, on this thread."""
    # unsigned positions: no negative-index wrap-around per entry
    for i in range(np.uintp(start), np.uintp(stop)):
        s = 0.0
        for q in range(np.uintp(indptr[i]), np.uintp(indptr[i + 1])):
            s += data[q] * v[np.uintp(indices[q])]
        out[i] = s


@njit(cache=True, nogil=True, parallel=True)
def csr_rmatvec(indptr, indices, data, u, bounds, parts, out):
    """``out = X' u`` for the CSR matrix X: each row lane (``bounds``, see
    :func:`row_lanes`) scatters into its own row of ``parts`` (lanes x p), in
    numba's threads; the lanes are then added in order (thread-count independent;
    one lane gives scipy's result bit for bit).

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp
    >>> X = sp.csr_array(np.array([[1.0, 0.0, 2.0], [0.0, 3.0, 1.0]]))
    >>> bounds = row_lanes(X.indptr, X.shape, 1)
    >>> out = np.empty(3)
    >>> csr_rmatvec(X.indptr, X.indices, X.data, np.ones(2), bounds, np.empty((2, 3)), out)
    >>> out
    array([1., 3., 3.])
    """
    n_lanes = bounds.shape[0] - 1
    p = out.shape[0]
    for lane in prange(n_lanes):
        acc = parts[lane]
        for j in range(p):
            acc[j] = 0.0
        csr_rows_scatter(indptr, indices, data, u, bounds[lane], bounds[lane + 1], acc)
    for j in range(p):
        s = parts[0, j]
        for lane in range(1, n_lanes):
            s += parts[lane, j]
        out[j] = s


@njit(cache=True, nogil=True)
def csr_rows_scatter(indptr, indices, data, u, start, stop, acc):
    """``acc += X[start:stop]' u[start:stop]`` for CSR rows, on this thread."""
    for i in range(np.uintp(start), np.uintp(stop)):
        ui = u[i]
        if ui != 0.0:
            for q in range(np.uintp(indptr[i]), np.uintp(indptr[i + 1])):
                acc[np.uintp(indices[q])] += data[q] * ui


@njit(cache=True, nogil=True, parallel=True)
def csr_times_dense(data, indices, indptr, B):
    """``A @ B`` for a CSR matrix A and a dense B.

    Parameters
    ----------
    data, indices, indptr : a CSR matrix A of shape (n_samples, n_features).
    B : float64 array (n_features, n_outputs), C-contiguous.

    Returns
    -------
    float64 array (n_samples, n_outputs), a new array.

    Rows run in parallel; each row's sums run over its stored values in order
    (scipy's order: its result bit for bit), so the result does not depend on the
    number of threads.
    """
    n_samples = indptr.shape[0] - 1
    n_outputs = B.shape[1]
    out = np.empty((n_samples, n_outputs))
    # unsigned positions: no negative-index wrap-around per entry
    for i in prange(n_samples):
        start, end = np.uintp(indptr[i]), np.uintp(indptr[i + 1])
        if n_outputs == 2:  # two classes, the common case: the sums stay in registers
            s0 = 0.0
            s1 = 0.0
            for p in range(start, end):
                v = data[p]
                col = np.uintp(indices[p])
                s0 += v * B[col, 0]
                s1 += v * B[col, 1]
            out[i, 0] = s0
            out[i, 1] = s1
            continue
        for k in range(n_outputs):
            out[i, k] = 0.0
        for p in range(start, end):
            v = data[p]
            col = np.uintp(indices[p])
            for k in range(n_outputs):
                out[i, k] += v * B[col, k]
    return out


@njit(cache=True, nogil=True)
def csr_gram(indptr, indices, data, w, p):
    """``X' diag(w) X`` as a new dense (p, p) array for the CSR matrix X (n x p) and
    row weights ``w`` (n,).

    Each row adds the weighted products of its pairs of entries (an entry with
    itself once, every other pair once, in the orientation it meets them) into the
    dense result: the same multiply-adds as a sparse product, without building a
    sparse result. Two stored entries of one column in a row (duplicates) add twice
    their product to the diagonal, as ``X' X`` has it. The two triangles are then
    added into each other in place (with sorted column indices the lower one is
    empty).

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp
    >>> X = sp.csr_array(np.array([[1.0, 2.0, 0.0], [0.0, 3.0, 4.0]]))
    >>> G = csr_gram(X.indptr, X.indices, X.data, np.ones(2), 3)
    >>> bool(np.allclose(G, (X.T @ X).toarray()))
    True
    """
    G = np.zeros((p, p))
    one = np.uintp(1)
    for i in range(indptr.shape[0] - 1):
        start = np.uintp(indptr[i])
        end = np.uintp(indptr[i + 1])
        wi = w[i]
        for q in range(start, end):
            a = np.uintp(indices[q])
            x = wi * data[q]
            G[a, a] += x * data[q]
            for r in range(q + one, end):
                b = np.uintp(indices[r])
                v = x * data[r]
                if b == a:
                    v += v
                G[a, b] += v
    for a in range(p):
        for b in range(a + 1, p):
            v = G[a, b] + G[b, a]
            G[a, b] = v
            G[b, a] = v
    return G


@njit(cache=True, nogil=True)
def csr_row_squared_norms(indptr, data, out):
    """``out[i]`` = the sum of the squares of row i's stored values, added in stored
    order, for the CSR matrix given by ``indptr`` and float64 ``data``.

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp
    >>> X = sp.csr_array(np.array([[3.0, 4.0], [0.0, 1.0]])); out = np.empty(2)
    >>> csr_row_squared_norms(X.indptr, X.data, out); out.tolist()
    [25.0, 1.0]
    """
    for i in range(out.shape[0]):
        s = 0.0
        for q in range(np.uintp(indptr[i]), np.uintp(indptr[i + 1])):
            s += data[q] * data[q]
        out[i] = s


@njit(cache=True, nogil=True)
def sparse_column_moments(major_ptr, minor, data, w, by_row, p, mean, m2, given_mean):
    """Weighted mean and sum of squared deviations (about the mean) of each column
    of a CSR (``by_row``) or CSC array, its implicit zeros counted as values; with
    ``given_mean``, the deviations are about the values ``mean`` holds (left as they are).

    Two passes over the stored entries (the sum, then the deviations from the
    mean), each adding a column's entries in increasing row order: CSR rows in
    order, CSC columns as stored (sorted within each column).

    Parameters
    ----------
    major_ptr, minor, data : the CSR (indptr, column indices, float64 values) or
        CSC (indptr, row indices, float64 values) arrays.
    w : float64 (n,), the row weights.
    by_row : bool, whether the arrays are CSR.
    p : int, the number of columns.
    mean, m2 : float64 (p,), outputs (``mean`` an input with ``given_mean``).
    given_mean : bool.

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp
    >>> X = sp.csr_array(np.array([[1.0, 0.0], [3.0, 2.0]])); mean, m2 = np.empty(2), np.empty(2)
    >>> sparse_column_moments(X.indptr, X.indices, X.data, np.ones(2), True, 2, mean, m2, False)
    >>> mean.tolist(), m2.tolist()
    ([2.0, 1.0], [2.0, 2.0])
    """
    total = 0.0
    for i in range(w.shape[0]):
        total += w[i]
    stored = np.zeros(p)
    for j in range(p):
        if not given_mean:
            mean[j] = 0.0
        m2[j] = 0.0
    for step in range(2):
        for a in range(major_ptr.shape[0] - 1):
            for q in range(np.uintp(major_ptr[a]), np.uintp(major_ptr[a + 1])):
                b = np.uintp(minor[q])
                row = np.uintp(a) if by_row else b
                col = b if by_row else np.uintp(a)
                if step == 0:
                    if not given_mean:
                        mean[col] += w[row] * data[q]
                    stored[col] += w[row]
                else:
                    dev = data[q] - mean[col]
                    m2[col] += w[row] * dev * dev
        if step == 0 and not given_mean:
            for j in range(p):
                mean[j] /= total
    for j in range(p):
        m2[j] += (total - stored[j]) * (mean[j] * mean[j])


@njit(cache=True, nogil=True)
def scaled_entries(major_ptr, minor, data, factors, by_row, out):
    """``out[q] = data[q] * factors[column of entry q]`` for the stored entries of a CSR
    (``by_row``: the column is ``minor[q]``) or CSC array, in one pass.

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp
    >>> X = sp.csr_array(np.array([[1.0, 2.0], [0.0, 3.0]])); out = np.empty(3)
    >>> scaled_entries(X.indptr, X.indices, X.data, np.array([10.0, 0.5]), True, out)
    >>> out.tolist()
    [10.0, 1.0, 1.5]
    """
    for a in range(major_ptr.shape[0] - 1):
        for q in range(np.uintp(major_ptr[a]), np.uintp(major_ptr[a + 1])):
            col = np.uintp(minor[q]) if by_row else np.uintp(a)
            out[q] = data[q] * factors[col]

