"""Symmetric positive definite solves shared by the ridge-type estimators.

``Ridge``, ``LeastSquaresClassifier`` and ``KernelRidge`` (its linear kernel by the
p x p normal equations) all solve ``(G + alpha I) w = b`` with a Gram matrix G and one
penalty per target; they call the same two functions here.
"""

import numpy as np
from scipy import linalg

from ._threads import small_lapack

__all__ = ["solve_gram", "solve_pos"]


def solve_pos(A, B, overwrite_a=False):
    """``A^-1 B`` for a symmetric positive definite ``A`` by its Cholesky factor, read
    from A's upper triangle.

    The arithmetic of ``scipy.linalg.solve(assume_a="pos")`` (LAPACK's potrf and
    potrs) without its condition estimate and checks, which took half its time.
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
