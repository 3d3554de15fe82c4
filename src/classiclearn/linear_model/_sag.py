"""Driver of the SAG and SAGA solvers (shared by LogisticRegression and Ridge).

Minimises ``(1/n) sum_i sw_i loss_i + alpha / (2 n) ||W||^2 + beta / n ||W||_1``
(scikit-learn's scaling of the SAG objective: multiply by ``n`` for the sum
form) with the kernels of :mod:`._sag_kernels`. Samples are drawn uniformly
with replacement, ``n`` per epoch, from the ``np.random.Generator`` made from
``random_state``. The step size is scikit-learn's rule: ``1 / L`` for SAG and
``1 / (2 L + min(2 alpha, L))`` for SAGA, with ``L = max_i ||x_i||^2 (+1 with
an intercept) + alpha / n``, divided by 4 for the log losses (their second
derivative is at most 1/4). The run stops after the first epoch whose largest
weight change is at most ``tol`` times the largest weight.
"""

import numpy as np
import scipy.sparse as sp

from ..utils._random import check_random_state
from ..utils._sparse import row_squared_norms
from . import _sag_kernels as _k
from . import _sag_sparse_kernels as _sk

LOSS_CODES = {"squared": _k.LOSS_SQUARED, "log": _k.LOSS_LOG,
              "multinomial": _k.LOSS_MULTINOMIAL}

# Sample indices are drawn for several epochs at a time (a growing number of
# them), at most this many indices per draw.
_DRAW_BLOCK = 1 << 20


def sag_generator(random_state):
    """The ``np.random.Generator`` of the sample draws, seeded from ``random_state``."""
    seed = check_random_state(random_state).randint(np.iinfo(np.int32).max)
    return np.random.default_rng(int(seed))


def sag_step_size(max_squared_sum, alpha_scaled, loss, fit_intercept, n_samples, saga):
    """Step size of SAG / SAGA (scikit-learn's ``get_auto_step_size``)."""
    if loss == "squared":
        L = max_squared_sum + int(fit_intercept) + alpha_scaled
    else:
        L = 0.25 * (max_squared_sum + int(fit_intercept)) + alpha_scaled
    if saga:
        return 1.0 / (2.0 * L + min(2.0 * n_samples * alpha_scaled, L))
    return 1.0 / L


def fit_sag(X, y, sw, W0, b0, *, loss, alpha, beta, fit_intercept, max_iter, tol, rng,
            saga):
    """Run SAG (``saga=False``) or SAGA from (W0, b0).

    Parameters
    ----------
    X : ndarray (n, p) float64 C-contiguous, or a sparse matrix (run on its CSR
        rows with lazy updates, :mod:`._sag_sparse_kernels`); y : ndarray (n,)
        float64 (class indices for "multinomial"); sw : ndarray (n,) float64.
    W0 : ndarray (K, p); b0 : ndarray (K,): the starting point (not modified).
    loss : {"squared", "log", "multinomial"}; alpha, beta : L2 and L1
        strengths in the sum form (e.g. ``1 / C``), divided by n here.
    rng : np.random.Generator; saga : bool.

    Returns
    -------
    (W, b, n_iter, converged)

    Raises
    ------
    ValueError if the iterate overflows (step size too large for the data).
    """
    n, p = X.shape
    alpha_s, beta_s = alpha / n, beta / n
    max_sq = float(np.max(row_squared_norms(X))) if n else 0.0
    step = sag_step_size(max_sq, alpha_s, loss, fit_intercept, n, saga)
    W = np.array(W0, dtype=np.float64, order="C")
    b = np.array(b0, dtype=np.float64)
    K = W.shape[0]
    sum_grad = np.zeros((K, p))
    sum_grad_b = np.zeros(K)
    memory = np.zeros((n, K))
    seen = np.zeros(n, dtype=np.bool_)
    prev = W.copy()
    num_seen = 0
    done = 0
    status = 0
    per_block = max(1, _DRAW_BLOCK // max(n, 1))
    code = LOSS_CODES[loss]
    y = np.ascontiguousarray(y, dtype=np.float64)
    if sp.issparse(X):
        X = sp.csr_array(X)
        rows = (X.indptr.astype(np.intp), X.indices.astype(np.intp),
                np.ascontiguousarray(X.data, dtype=np.float64))
        kernel = _sk.sag_epochs_csr
    else:
        rows = (X,)
        kernel = _k.sag_epochs
    n_epochs = 0
    while done < max_iter and status == 0:
        # 4, 8, 16, ... epochs per draw: a run that stops early draws little more
        # than it used; a long one draws in blocks of ~_DRAW_BLOCK indices.
        n_epochs = min(max(4, 2 * n_epochs), per_block, max_iter - done)
        order = rng.integers(0, n, size=(n_epochs, n), dtype=np.intp)
        num_seen, ran, status = kernel(
            *rows, y, sw, W, b, sum_grad, sum_grad_b, memory, seen, num_seen, order, code,
            step, alpha_s, beta_s, bool(saga), bool(fit_intercept), float(tol), prev)
        done += ran
    if status < 0:
        raise ValueError(
            f"Floating-point overflow in {'SAGA' if saga else 'SAG'} at epoch {done}: "
            "the coefficients became non-finite. Scale the features (e.g. StandardScaler)."
        )
    return W, b, done, status == 1
