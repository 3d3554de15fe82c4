"""Helpers for scipy sparse input shared by every family.

Validation (:func:`classiclearn.utils.validation.check_array` with
``accept_sparse``) turns any sparse input into a scipy sparse *array* in the
format an estimator asked for; the helpers here compute the statistics several
families need from such an array without densifying it, and hand transformer
output back in the caller's container (``csr_matrix`` in, ``csr_matrix`` out).
"""

import numpy as np
import scipy.sparse as sp

from .._kernels import work as _work
from ._threads import available_cores, pooled_map

__all__ = [
    "column_max_abs",
    "column_deviations",
    "column_mean_var",
    "column_moments",
    "csr_products",
    "is_sparse",
    "like_input",
    "row_squared_norms",
    "safe_dot",
    "scale_columns",
    "segment_sum",
]

_MATRIX_TYPES = {"csr": sp.csr_matrix, "csc": sp.csc_matrix, "coo": sp.coo_matrix}


def is_sparse(X):
    """Whether ``X`` is a scipy sparse matrix or array."""
    return sp.issparse(X)


def like_input(result, original):
    """``result`` in the sparse container kind of ``original`` (matrix or array).

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> type(like_input(sp.csr_array([[1.0]]), sp.csr_matrix([[2.0]]))).__name__
    'csr_matrix'
    """
    if not sp.issparse(result) or not sp.issparse(original):
        return result
    if isinstance(original, sp.spmatrix) and not isinstance(result, sp.spmatrix):
        return _MATRIX_TYPES.get(result.format, sp.csr_matrix)(result)
    if not isinstance(original, sp.spmatrix) and isinstance(result, sp.spmatrix):
        return sp.csr_array(result) if result.format == "csr" else sp.csc_array(result)
    return result


def row_squared_norms(X):
    """Squared Euclidean norm of each row of a dense or sparse 2-D array.

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> row_squared_norms(sp.csr_array([[3.0, 4.0], [0.0, 1.0]])).tolist()
    [25.0, 1.0]
    """
    if sp.issparse(X):
        from .._kernels.sparse_products import csr_row_squared_norms

        if X.format != "csr":
            X = sp.csr_array(X)
        out = np.empty(X.shape[0])
        csr_row_squared_norms(X.indptr, np.asarray(X.data, dtype=np.float64), out)
        return out
    X = np.asarray(X, dtype=np.float64)
    return np.einsum("ij,ij->i", X, X)


def column_mean_var(X, sample_weight=None):
    """Weighted mean and (biased) variance of each column of a sparse array.

    The implicit zeros count as values, as in the dense matrix; the variance
    is computed around the mean (two passes), so a large mean costs no
    precision.

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> mean, var = column_mean_var(sp.csc_array([[1.0, 0.0], [3.0, 2.0]]))
    >>> mean.tolist(), var.tolist()
    ([2.0, 1.0], [1.0, 1.0])
    """
    mean, squares = column_deviations(X, sample_weight)
    total = X.shape[0] if sample_weight is None else np.sum(sample_weight, dtype=np.float64)
    return mean, squares / total


def column_deviations(X, sample_weight=None, centre=None):
    """Per column of a sparse array: the weighted mean, and the weighted sum of squared
    deviations about it (or about ``centre`` when given, returned as the first
    element), the implicit zeros counted as values; one compiled pass over the stored
    values per sum (CSR or CSC as it is, anything else as CSR).

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> column_deviations(sp.csr_array([[1.0, 0.0], [3.0, 2.0]]))[1].tolist()
    [2.0, 2.0]
    >>> column_deviations(sp.csr_array([[1.0, 0.0], [3.0, 2.0]]), centre=np.zeros(2))[1].tolist()
    [10.0, 4.0]
    """
    from .._kernels.sparse_products import sparse_column_moments

    if X.format not in ("csr", "csc"):
        X = sp.csr_array(X)
    n, p = X.shape
    w = np.ones(n) if sample_weight is None else np.asarray(sample_weight, dtype=np.float64)
    mean = np.empty(p) if centre is None else np.array(centre, dtype=np.float64)
    squares = np.empty(p)
    sparse_column_moments(X.indptr, X.indices, np.asarray(X.data, dtype=np.float64), w,
                          X.format == "csr", p, mean, squares, centre is not None)
    return mean, squares


def gram_pair_work(X, outer=False):
    """Multiply-adds of ``X' X`` formed from each row's pairs of stored entries (half the
    sum of the squared row lengths) for sparse X; with ``outer``, of ``X X'`` formed from
    each column's pairs (half the sum of the squared column lengths).

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> gram_pair_work(sp.csr_array([[1.0, 2.0], [0.0, 3.0]]))
    2.5
    >>> gram_pair_work(sp.csr_array([[1.0, 2.0], [0.0, 3.0]]), outer=True)
    2.5
    """
    axis = 1 if outer else 0  # the axis whose lines hold the pairs
    if X.format in ("csr", "csc"):
        along = 0 if X.format == "csr" else 1  # the axis indptr runs along
        if along == axis:
            entries = np.diff(X.indptr)
        else:
            entries = np.bincount(X.indices, minlength=X.shape[axis])
    else:
        entries = np.diff(sp.csr_array(X if axis == 0 else X.T).indptr)
    entries = entries.astype(np.float64)
    return float(entries @ entries) / 2


def unsigned_arrays32(X):
    """``(indptr, indices, data)`` of a compressed sparse X as the compiled row and
    column kernels take them: indptr uintp and indices uint32 (numba checks a signed
    index for a negative value at every access; 32-bit indices are fewer bytes to read),
    data float64.

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> indptr, indices, data = unsigned_arrays32(sp.csr_array([[0.0, 2.0], [3.0, 0.0]]))
    >>> indices.dtype.name, [int(i) for i in indices], [float(v) for v in data]
    ('uint32', [1, 0], [2.0, 3.0])
    """
    return (X.indptr.astype(np.uintp), X.indices.astype(np.uint32),
            np.asarray(X.data, dtype=np.float64))


def csr_with_constant(X, value):
    """Sparse X by rows (CSR, int64 indices) with one more column holding ``value`` in
    every row, stored after each row's entries (an intercept as a constant feature).
    X is not modified.

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> A = csr_with_constant(sp.csr_array([[0.0, 2.0], [3.0, 0.0]]), 1.5)
    >>> A.toarray().tolist()
    [[0.0, 2.0, 1.5], [3.0, 0.0, 1.5]]
    """
    X = sp.csr_array(X)
    n, p = X.shape
    indptr = X.indptr.astype(np.int64) + np.arange(n + 1)
    last = indptr[1:] - 1  # each row's new last entry
    stored = np.ones(indptr[-1], dtype=bool)
    stored[last] = False
    data = np.empty(indptr[-1])
    data[stored], data[last] = X.data, value
    indices = np.empty(indptr[-1], dtype=np.int64)
    indices[stored], indices[last] = X.indices, p
    return sp.csr_array((data, indices, indptr), shape=(n, p + 1))


def csc_columns_with_constant(X, value=0.0):
    """(indptr, indices, data) of sparse X by columns, as the column-wise kernels take
    them: CSC with sorted rows, indptr uintp, indices uint32 (numba checks a signed
    index for a negative value at every access, and four bytes are read where eight
    were) and float64 values; when ``value`` is non-zero, one more column holding it in
    every row (an intercept as a constant feature). X is not modified.

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> indptr, indices, data = csc_columns_with_constant(sp.csr_array([[0.0, 2.0]]), 1.0)
    >>> indptr.tolist(), indices.tolist(), data.tolist()
    ([0, 0, 1, 2], [0, 0], [2.0, 1.0])
    """
    from .._kernels.coordinates import csr_to_csc

    n, p = X.shape
    if n >= 2**32:
        raise ValueError(f"column-wise solvers take fewer than 2**32 rows; got {n}")
    if X.format == "csc" and value == 0.0:  # already by columns: sorted, cast
        return unsigned_arrays32(X if X.has_sorted_indices else X.sorted_indices())
    X = sp.csr_array(X)  # one compiled counting sort, straight into the kernel's types
    data = np.asarray(X.data, dtype=np.float64)
    threshold = _work.CSC_LANE_ENTRIES // (4 if p >= _work.CSC_LANES_WIDE else 1)
    lanes = min(available_cores(), 2 * X.nnz // threshold)
    if lanes < 2:
        return csr_to_csc(X.indptr, X.indices, data, p, float(value))
    return _csr_to_csc_in_lanes(X, data, float(value), lanes)


def _csr_to_csc_in_lanes(X, data, value, lanes):
    """:func:`csc_columns_with_constant` of CSR X in row lanes on kept pool threads: each
    lane counts its rows' entries per column, then places them after those of the lanes
    above it (each column's rows stay in order; the result is the serial one). The
    lanes also share the first touches of the new arrays' memory."""
    from .._kernels.coordinates import csr_rows_column_counts, csr_rows_place
    from .._kernels.sparse_products import row_lanes

    n, p = X.shape
    threads = lanes
    # lanes of at most nnz // threads entries, so that there are at least `threads` of
    # them whatever nnz's remainder
    bounds = row_lanes(X.indptr, X.shape, X.nnz // threads)
    lanes = bounds.shape[0] - 1
    counts = np.zeros((lanes, p), dtype=np.uintp)
    pooled_map(lambda k: csr_rows_column_counts(X.indptr, X.indices, bounds[k], bounds[k + 1],
                                                counts[k]), range(lanes), threads)
    extra = int(value != 0.0)
    indptr = np.zeros(p + 1 + extra, dtype=np.uintp)
    np.cumsum(counts.sum(axis=0), out=indptr[1:p + 1])
    if extra:
        indptr[p + 1] = indptr[p] + n
    fills = indptr[:p] + np.cumsum(counts, axis=0) - counts  # lane k after lanes above
    indices = np.empty(int(indptr[-1]), dtype=np.uint32)
    values = np.empty(int(indptr[-1]))
    pooled_map(lambda k: csr_rows_place(X.indptr, X.indices, data, bounds[k], bounds[k + 1],
                                        fills[k], indices, values), range(lanes), threads)
    if extra:
        indices[indptr[p]:] = np.arange(n, dtype=np.uint32)
        values[indptr[p]:] = value
    return indptr, indices, values


def safe_dot(a, b):
    """``a @ b`` for any mix of dense and sparse operands, dense when either is dense."""
    out = a @ b
    if sp.issparse(out) and not (sp.issparse(a) and sp.issparse(b)):
        out = out.toarray()
    return out


def _entry_columns(X):
    """Column index of every stored entry of a CSR or CSC array."""
    if X.format == "csc":
        return np.repeat(np.arange(X.shape[1]), np.diff(X.indptr))
    return X.indices


def _entry_rows(X):
    if X.format == "csc":
        return X.indices
    return np.repeat(np.arange(X.shape[0]), np.diff(X.indptr))


def column_moments(X, sample_weight=None):
    """Per column of a CSR / CSC array: weight, mean and sum of squared deviations.

    Stored NaN are ignored (their rows do not count for that column); the
    implicit zeros count as values. The squared deviations are summed around
    the mean (two passes).

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> n, mean, m2 = column_moments(sp.csr_array([[1.0, float("nan")], [3.0, 2.0], [0.0, 0.0]]))
    >>> n.tolist(), mean.tolist(), m2.tolist()
    ([3.0, 2.0], [1.3333333333333333, 1.0], [4.666666666666667, 2.0])
    """
    n, p = X.shape
    w = np.ones(n) if sample_weight is None else np.asarray(sample_weight, dtype=np.float64)
    if not np.isnan(X.data).any():  # every row counts for every column: one compiled pass
        mean, m2 = column_deviations(X, w)
        return np.full(p, w.sum()), mean, m2
    cols = _entry_columns(X)
    wi = w[_entry_rows(X)]
    vals = X.data.astype(np.float64)
    nan = np.isnan(vals)
    count = w.sum() - np.bincount(cols[nan], weights=wi[nan], minlength=p)
    vals, cols, wi = vals[~nan], cols[~nan], wi[~nan]
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.bincount(cols, weights=wi * vals, minlength=p) / count
    mean = np.where(count > 0, mean, 0.0)
    dev = vals - mean[cols]
    stored = np.bincount(cols, weights=wi, minlength=p)
    m2 = np.bincount(cols, weights=wi * dev * dev, minlength=p) + (count - stored) * mean**2
    return count, mean, np.where(count > 0, m2, 0.0)


def column_max_abs(X):
    """Largest |x| per column of a CSR / CSC array, ignoring stored NaN (implicit
    zeros count).

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> column_max_abs(sp.csr_array([[-3.0, 0.0], [1.0, 0.0]])).tolist()
    [3.0, 0.0]
    """
    out = np.zeros(X.shape[1])
    values = np.abs(X.data.astype(np.float64))
    keep = ~np.isnan(values)
    np.maximum.at(out, _entry_columns(X)[keep], values[keep])
    return out


def scale_columns(X, factors):
    """A new CSR / CSC array with column j of X multiplied by ``factors[j]``.

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> scale_columns(sp.csr_array([[1.0, 2.0]]), np.array([10.0, 0.5])).toarray().tolist()
    [[10.0, 1.0]]
    """
    from .._kernels.sparse_products import scaled_entries

    if X.format not in ("csr", "csc"):
        X = sp.csr_array(X)
    data = np.empty_like(X.data)
    scaled_entries(X.indptr, X.indices, X.data, np.asarray(factors, dtype=X.dtype),
                   X.format == "csr", data)
    return type(X)((data, X.indices.copy(), X.indptr.copy()), shape=X.shape)


def csr_dot_vector(X, v):
    """``X @ v`` (a new float64 array) for a CSR matrix X and a 1-D ``v``.

    X with at least ``SPARSE_PRODUCT_THREADED`` stored entries is multiplied in
    row lanes on numba's threads (each row summed in stored order: scipy's result
    bit for bit); smaller X by scipy on the calling thread.

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp
    >>> csr_dot_vector(sp.csr_array(np.array([[1.0, 2.0], [0.0, 3.0]])), np.ones(2))
    array([3., 3.])
    """
    v = np.ascontiguousarray(v, dtype=np.float64)
    if X.nnz < _work.SPARSE_PRODUCT_THREADED:
        return np.asarray(X @ v, dtype=np.float64)
    from .._kernels import sparse_products as _sp

    bounds = _sp.row_lanes(X.indptr, (X.shape[0], 1), _work.ROW_LANE_ENTRIES)
    out = np.empty(X.shape[0])
    _sp.csr_matvec(X.indptr, X.indices, X.data, v, bounds, out)
    return out


def csr_dot_dense(X, B):
    """``X @ B`` (a new float64 (n, K) array) for a CSR matrix X and a dense B (p, K).

    Rows in numba's threads when the work is large enough to pay for them; each
    row's sums in stored order, scipy's result bit for bit.

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp
    >>> csr_dot_dense(sp.csr_array(np.array([[1.0, 2.0], [0.0, 3.0]])), np.eye(2))
    array([[1., 2.],
           [0., 3.]])
    """
    from .._kernels import sparse_products as _sp
    from ._threads import threads_for_work

    B = np.ascontiguousarray(B, dtype=np.float64)
    with threads_for_work(None, X.nnz * B.shape[1]):
        return _sp.csr_times_dense(X.data, X.indices, X.indptr, B)


def csr_gram(X, weights=None):
    """``X' diag(weights) X`` (default ``X' X``) as a dense float64 (p, p) array for a
    sparse X (converted to CSR if it is not), accumulated pair by pair from each
    row's entries (:func:`classiclearn._kernels.sparse_products.csr_gram`), not
    through a sparse product; no memory beyond the result.

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp
    >>> csr_gram(sp.csr_array(np.array([[1.0, 2.0], [0.0, 3.0]])))
    array([[ 1.,  2.],
           [ 2., 13.]])
    """
    from .._kernels import sparse_products as _sp

    X = sp.csr_array(X)
    w = np.ones(X.shape[0]) if weights is None else np.asarray(weights, dtype=np.float64)
    return _sp.csr_gram(X.indptr, X.indices, np.asarray(X.data, dtype=np.float64), w,
                        X.shape[1])


def csr_products(X):
    """``(v -> X v, u -> X' u)`` for a 2-D X, as new float64 arrays.

    For CSR X the products run in row lanes of about ``ROW_LANE_ENTRIES``
    stored entries on numba's threads (:mod:`classiclearn._kernels.sparse_products`):
    ``X v`` is scipy's result bit for bit; ``X' u`` adds the lanes in a fixed
    order, so it does not depend on the thread count (with one lane, small X, it
    is scipy's). Other inputs use their own ``@``.

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp
    >>> product, t_product = csr_products(sp.csr_array(np.array([[1.0, 2.0], [0.0, 3.0]])))
    >>> product(np.ones(2)), t_product(np.ones(2))
    (array([3., 3.]), array([1., 5.]))
    """
    from .._kernels import sparse_products as _sp
    from .._kernels.work import ROW_LANE_ENTRIES

    csr = sp.issparse(X) and X.format == "csr"
    bounds = _sp.row_lanes(X.indptr, X.shape, ROW_LANE_ENTRIES) if csr else None
    if not csr or bounds.shape[0] == 2:
        # a CSR X of one lane too: scipy's products give its sums without entering
        # numba's parallel region (which wakes the thread pool after an idle pause)
        return (lambda v: X @ v), (lambda u: X.T @ u)
    n, p = X.shape
    parts = np.empty((bounds.shape[0] - 1, p))

    def product(v):
        out = np.empty(n)
        _sp.csr_matvec(X.indptr, X.indices, X.data, np.ascontiguousarray(v, dtype=np.float64),
                       bounds, out)
        return out

    def t_product(u):
        out = np.empty(p)
        _sp.csr_rmatvec(X.indptr, X.indices, X.data, np.ascontiguousarray(u, dtype=np.float64),
                        bounds, parts, out)
        return out

    return product, t_product


def segment_sum(values, offsets):
    """Sum of ``values[offsets[i]:offsets[i + 1]]`` along axis 0 for every i (0 if empty):
    the stored values of each CSR row / CSC column, or of each query's neighbours.

    Examples
    --------
    >>> segment_sum(np.array([1.0, 2.0, 3.0]), np.array([0, 2, 2, 3])).tolist()
    [3.0, 0.0, 3.0]
    """
    m = offsets.shape[0] - 1
    out = np.zeros((m,) + values.shape[1:], dtype=np.float64)
    nonempty = offsets[1:] > offsets[:-1]
    if values.shape[0] and nonempty.any():
        out[nonempty] = np.add.reduceat(values, offsets[:-1][nonempty], axis=0)
    return out
