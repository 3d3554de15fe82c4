"""Symmetric solves shared by the ridge-type estimators, and the thin SVD of a tall design.

``Ridge``, ``LeastSquaresClassifier`` and ``KernelRidge`` (its linear kernel by the
p x p normal equations) all solve ``(G + alpha I) w = b`` with a Gram matrix G and one
penalty per target; they call the same two functions here. KernelRidge's indefinite
kernels (sigmoid, callables) take :func:`solve_certified_symmetric`.
"""

import numpy as np
from scipy import linalg
from scipy.linalg import lapack

from ._linear import linear_product
from ._threads import small_lapack, svd_threads

__all__ = ["eigenvalues_below", "solve_certified_symmetric", "solve_gram", "solve_pos",
           "svd_with_projection"]

# rows per column from which svd_with_projection factors A = QR first (below, LAPACK's
# SVD of A itself)
QR_FIRST_ASPECT = 2

# The half-width, relative to the Frobenius norm, of the band around zero that
# solve_certified_symmetric proves free of eigenvalues: far wider than both the backward
# error of the factorisations that count them (order n eps ||F||) and the cut-off of a
# least-squares solution (machine precision times the largest eigenvalue, at most
# eps ||F||_F), so no eigenvalue outside it is cut or miscounted.
CERTIFIED_GAP = 1e-8


def solve_pos(A, B, overwrite_a=False):
    """``A^-1 B`` for a symmetric positive definite ``A`` by its Cholesky factor, read
    from A's upper triangle.

    The arithmetic of ``scipy.linalg.solve(assume_a="pos")`` (LAPACK's potrf and
    potrs) without its condition estimate and checks, which took much of its time.
    Raises ``LinAlgError`` when ``A`` is not positive definite.

    Examples
    --------
    >>> import numpy as np
    >>> solve_pos(np.array([[4.0, 0.0], [0.0, 1.0]]), np.array([2.0, 3.0])).tolist()
    [0.5, 3.0]
    """
    factor = linalg.cho_factor(A, overwrite_a=overwrite_a, check_finite=False)
    return linalg.cho_solve(factor, B, check_finite=False)


def solve_gram(G, XtY, alphas, singular="lstsq"):
    """``(G + alpha_k I)^{-1} XtY[:, k]`` for each target k; G is overwritten.

    One Cholesky factorisation for all targets when the penalties are equal (in G's
    own memory), one per target otherwise. Systems of up to ``BLAS_THREADED_ORDER``
    unknowns are solved with BLAS on one thread: a multi-threaded factorisation of that
    order gains nothing alone and, after a threaded Gram product, spends its time
    synchronising.

    Parameters
    ----------
    G : ndarray of shape (p, p)
        Symmetric positive semi-definite. The factorisation reads one triangle; the
        least-squares fallback needs both filled.
    XtY : ndarray of shape (p, t)
    alphas : ndarray of shape (t,)
    singular : {"lstsq", "raise"}, default="lstsq"
        When ``G + alpha I`` is not numerically positive definite: its least-squares
        solution, or ``LinAlgError`` (for a G with one triangle filled).

    Examples
    --------
    >>> import numpy as np
    >>> G = 3.0 * np.eye(2)
    >>> solve_gram(G, np.array([[2.0], [4.0]]), np.array([1.0])).ravel().tolist()
    [0.5, 1.0]
    """
    p, t = XtY.shape
    same = bool(np.all(alphas == alphas[0]))
    with small_lapack(p):
        if same:
            return _shifted_solve(G, XtY, alphas[0], singular)
        W = np.empty((p, t))
        for k in range(t):
            W[:, k] = _shifted_solve(G.copy(order="F"), XtY[:, k], alphas[k], singular)
        return W


def _shifted_solve(G, B, alpha, singular):
    """``(G + alpha I)^{-1} B``, factoring G in its own memory.

    A C-ordered G is factored through its transpose, the same symmetric matrix in the
    Fortran order LAPACK takes (no copy). The factorisation writes one triangle and
    the diagonal only: the other triangle and the saved diagonal rebuild the matrix for
    the least-squares fallback."""
    A = G if G.flags.f_contiguous else G.T
    diag = np.arange(A.shape[0])
    d = A[diag, diag] + alpha
    A[diag, diag] = d
    try:
        return solve_pos(A, B, overwrite_a=True)
    except linalg.LinAlgError:
        if singular == "raise":
            raise
    lower = np.tril(A, -1)
    full = lower + lower.T
    full[diag, diag] = d
    return linalg.lstsq(full, B, check_finite=False)[0]


def _bunch_kaufman(A):
    """LAPACK's Bunch-Kaufman factors (``dsytrf``, lower triangle) of the symmetric
    ``A`` (Fortran order, overwritten): ``(ldu, ipiv)``, or None when a pivot is zero."""
    # the workspace LAPACK asks for lets it run blocked (BLAS-3) updates: scipy's default
    # workspace of n runs the unblocked algorithm
    lwork = int(lapack.dsytrf_lwork(A.shape[0], lower=1)[0])
    ldu, ipiv, info = lapack.dsytrf(A, lower=1, lwork=max(lwork, 1), overwrite_a=1)
    return None if info != 0 else (ldu, ipiv)


def _negative_pivots(ldu, ipiv):
    """Negative eigenvalues of the block-diagonal factor D of :func:`_bunch_kaufman`
    (by Sylvester's law of inertia, the negative eigenvalues of the factored matrix), or
    None when D is singular.

    A positive ``ipiv[k]`` marks a 1 x 1 block ``D[k, k]``; a pair ``ipiv[k] =
    ipiv[k + 1] < 0`` a 2 x 2 block at rows k, k + 1, whose signs follow from its
    determinant and trace."""
    d = np.diagonal(ldu)
    single = ipiv > 0
    if np.any(d[single] == 0.0):
        return None
    count = int(np.count_nonzero(d[single] < 0.0))
    paired = np.flatnonzero(~single)
    first = paired[0::2]
    if paired.size % 2 or np.any(paired[1::2] != first + 1):
        return None
    a, c, b = d[first], d[first + 1], ldu[first + 1, first]
    det = a * c - b * b
    if np.any(det == 0.0):
        return None
    return count + int(np.count_nonzero(det < 0.0)) + 2 * int(
        np.count_nonzero((det > 0.0) & (a + c < 0.0)))


def eigenvalues_below(F, shift):
    """How many eigenvalues of the symmetric ``F`` lie below ``shift``: the negative
    pivots of the Bunch-Kaufman factors of ``F - shift I``, or None when that matrix is
    numerically singular. F is not modified.

    Examples
    --------
    >>> import numpy as np
    >>> eigenvalues_below(np.diag([-2.0, 1.0, 3.0]), 2.0)
    2
    """
    A = np.array(F, dtype=np.float64, order="F")
    diag = np.arange(A.shape[0])
    A[diag, diag] -= shift
    factors = _bunch_kaufman(A)
    return None if factors is None else _negative_pivots(*factors)


def solve_certified_symmetric(F, B):
    """``F^-1 B`` for a symmetric, possibly indefinite ``F`` whose eigenvalues are proven
    to lie outside ``(-tau, tau)``, ``tau = CERTIFIED_GAP * ||F||_F``; None otherwise.

    The proof counts eigenvalues below ``-tau`` and below ``tau`` (Sylvester's law of
    inertia on the Bunch-Kaufman factors of ``F + tau I`` and ``F - tau I``); equal counts
    leave none between. Then every eigenvalue exceeds machine precision times the
    largest by far, the minimum-norm least-squares solution keeps every eigenpair, and
    it is ``F^-1 B``, here from the factors of F (three factorisations, each far cheaper
    than the eigendecomposition the least-squares solution would otherwise take). With no
    eigenvalue below ``-tau`` (a semi-definite F) the count stops after one
    factorisation, since a caller comes here once F's Cholesky factorisation failed.

    Examples
    --------
    >>> import numpy as np
    >>> solve_certified_symmetric(np.array([[0.0, 1.0], [1.0, 0.0]]),
    ...                           np.array([2.0, 3.0])).tolist()
    [3.0, 2.0]
    >>> solve_certified_symmetric(np.diag([1.0, -1.0, 0.0]), np.ones(3)) is None
    True
    """
    tau = CERTIFIED_GAP * np.linalg.norm(F)
    below = eigenvalues_below(F, -tau)
    if not below or eigenvalues_below(F, tau) != below:
        return None
    factors = _bunch_kaufman(np.array(F, dtype=np.float64, order="F"))
    if factors is None:
        return None
    X, info = lapack.dsytrs(*factors, B, lower=1)
    return X if info == 0 else None


def svd_with_projection(A, B):
    """``s``, ``Vt`` and ``U' B`` of the thin SVD ``A = U diag(s) Vt`` (A of shape (n, p),
    B of shape (n, t)), without U where A is tall.

    From ``QR_FIRST_ASPECT`` rows per column, A is factored ``A = QR`` (Householder),
    ``R = U_R diag(s) Vt`` (p x p), and ``U' B = U_R' (Q' B)`` with Q' applied by its
    reflections (LAPACK's geqrf, ormqr, gesdd). The singular values and vectors are
    those of A to the same accuracy as LAPACK's SVD of A, which itself starts with a QR
    on tall input but then forms the n x p U. Below that aspect, or when n < p, the
    SVD of A.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> A, B = rng.normal(size=(50, 3)), rng.normal(size=(50, 2))
    >>> s, Vt, UtB = svd_with_projection(A, B)
    >>> U, s_ref, _ = np.linalg.svd(A, full_matrices=False)
    >>> bool(np.allclose(s, s_ref)), bool(np.allclose(np.abs(UtB), np.abs(U.T @ B)))
    (True, True)
    """
    n, p = A.shape
    if p == 0 or n < QR_FIRST_ASPECT * p:
        with svd_threads(n, p):
            U, s, Vt = linalg.svd(A, full_matrices=False, check_finite=False)
        # the thin product on one BLAS thread (numpy's pool, whose threads would
        # otherwise spin into the next call of LAPACK in scipy's)
        return s, Vt, linear_product(U.T, B.T)
    factors, tau, _, info = lapack.dgeqrf(np.asarray(A, dtype=np.float64))
    if info != 0:
        raise linalg.LinAlgError(f"QR factorisation failed (LAPACK dgeqrf info {info}).")
    QtB, _, info = lapack.dormqr("L", "T", factors, tau, np.array(B, dtype=np.float64),
                                 max(1, B.shape[1]) * 64)
    if info != 0:
        raise linalg.LinAlgError(f"Applying Q' failed (LAPACK dormqr info {info}).")
    U_R, s, Vt = linalg.svd(np.triu(factors[:p]), check_finite=False)
    return s, Vt, linear_product(U_R.T, QtB[:p].T)
