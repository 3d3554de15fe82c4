"""SMO solver internals against naive NumPy references: working-set
selection (fused gradient update, lane reductions, tie-breaking) and the
logged swaps of cached kernel rows."""

import numpy as np
import pytest
import scipy.sparse as sp

from classiclearn.svm import _smo_kernels as _k
from classiclearn.svm import _smo_rows_kernels as _rows


def _new_cache(n_slots, m, log_size):
    """An empty per-variable kernel-row cache as smo_solve builds it (serial rows)."""
    return _rows.new_row_cache(n_slots, m, m, False, 1, log_size)


def _state(rng, m, ties):
    y = np.where(rng.random(m) < 0.5, 1.0, -1.0)
    C = rng.choice([1.0, 2.5], m)
    alpha = np.where(rng.random(m) < 0.4, 0.0, np.where(rng.random(m) < 0.5, C,
                                                         C * rng.random(m)))
    G = rng.integers(-3, 4, m) / 4.0 if ties else rng.normal(size=m)
    QD = rng.random(m) + 0.5
    return y, C, alpha, G, QD


def _ref_scan(n, y, C, alpha, G):
    """libsvm's sequential loops: max of -y G over I_up (last position on ties),
    max of y G over I_low."""
    gmax, i, gmax2 = -np.inf, -1, -np.inf
    for t in range(n):
        in_up = alpha[t] < C[t] if y[t] > 0 else alpha[t] > 0
        in_low = alpha[t] > 0 if y[t] > 0 else alpha[t] < C[t]
        if in_up and -y[t] * G[t] >= gmax:
            gmax, i = -y[t] * G[t], t
        if in_low and y[t] * G[t] >= gmax2:
            gmax2 = y[t] * G[t]
    return gmax, i, gmax2


def _ref_j(n, y, C, alpha, G, QD, Q_i, i, gmax):
    best, j = np.inf, -1
    for t in range(n):
        in_low = alpha[t] > 0 if y[t] > 0 else alpha[t] < C[t]
        grad_diff = gmax + y[t] * G[t]
        if in_low and grad_diff > 0:
            quad = QD[i] + QD[t] - 2.0 * y[i] * y[t] * float(Q_i[t])
            quad = quad if quad > 0 else _k.TAU
            obj = -(grad_diff * grad_diff) / quad
            if obj <= best:
                best, j = obj, t
    return j


@pytest.mark.parametrize("ties", [False, True])
@pytest.mark.parametrize("n", [1, 7, 8, 9, 64, 203])
def test_selection_matches_sequential_loops(n, ties):
    rng = np.random.default_rng(n + 100 * ties)
    m = n + 5  # positions past the active prefix must be ignored
    for _ in range(20):
        y, C, alpha, G, QD = _state(rng, m, ties)
        Q_i = rng.normal(size=m).astype(np.float32)
        Q_j = rng.normal(size=m).astype(np.float32)
        dai, daj = rng.normal(size=2) / 8.0
        scratch = np.empty((3, m))
        st = np.array([_k._status(y[t], alpha[t], C[t]) for t in range(m)], dtype=np.int8)
        G_ref = G.copy()
        G_ref[:n] += Q_i[:n] * dai + Q_j[:n] * daj
        gmax, i, gmax2 = _k._scan(n, y, st, G, Q_i, Q_j, dai, daj, True, scratch)
        np.testing.assert_array_equal(G, G_ref)
        assert (gmax, i, gmax2) == _ref_scan(n, y, C, alpha, G)
        assert _k._scan(n, y, st, G, Q_i, Q_j, 0.0, 0.0, False, scratch) == (gmax, i, gmax2)
        if i < 0:
            continue
        got = _k._select_j(n, y, st, G, QD, Q_i, i, gmax, gmax2, -np.inf, scratch[2])
        j = _ref_j(n, y, C, alpha, G, QD, Q_i, i, gmax)
        assert got == j


def _csr_of(X):
    """The solver's sparse samples for the rows of X (identity row map)."""
    A = sp.csr_array(X)
    return _k.Csr(A.data.copy(), A.indices.astype(np.intp), A.indptr.astype(np.intp),
                  np.arange(X.shape[0]), np.zeros(X.shape[1]))


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("log_size", [1, 3, 50])
def test_logged_swaps_match_eager_swaps(log_size, sparse):
    """Rows replayed from the swap log (and after log flushes) equal rows whose
    entries were swapped at once, truncation of short rows included; sparse
    samples are swapped through the row map."""
    rng = np.random.default_rng(log_size)
    m, d = 30, 4
    X = rng.normal(size=(m, d))
    if sparse:
        X[rng.random((m, d)) < 0.5] = 0.0
    y = np.where(rng.random(m) < 0.5, 1.0, -1.0)
    n_slots = 12
    cs = _new_cache(n_slots, m, log_size)
    sq = np.einsum("ij,ij->i", X, X)
    if sparse:
        kern = _k.Kernel(np.empty((0, 0)), sq, _k.LINEAR, 1.0, 0.0, 3)
        csr = _csr_of(X)
    else:
        kern = _k.Kernel(X.copy(), sq, _k.LINEAR, 1.0, 0.0, 3)
        csr = None
    sv = _k.Variables(y.copy(), -np.ones(m), np.ones(m), np.zeros(m), np.zeros(m), np.zeros(m),
                      np.ones(m), np.arange(m), np.arange(m), np.zeros(m, dtype=np.int8))
    order = np.arange(m)  # sample at each position
    for _ in range(200):
        if rng.random() < 0.5:
            i, j = rng.integers(0, m, 2)
            _k._swap(i, j, sv, kern, csr, True, cs)
            order[[i, j]] = order[[j, i]]
        else:
            i = int(rng.integers(0, m))
            length = int(rng.integers(1, m + 1))
            row = cs.rows[_rows.get_q(i, length, kern, csr, sv.y, sv.sid, cs)]
            Xo = X[order]
            yo = y[order]
            ref = (yo[i] * yo[:length] * (Xo[:length] @ Xo[i])).astype(np.float32)
            np.testing.assert_allclose(row[:length], ref, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("kernel", [_k.LINEAR, _k.POLY, _k.RBF, _k.SIGMOID])
@pytest.mark.parametrize("n_chunks", [1, 3])
def test_sparse_kernel_values_match_naive(kernel, n_chunks):
    """Kernel rows from CSR samples (scatter / gather, serial and chunked)
    equal the naive NumPy kernel on the dense rows, and leave the scatter
    buffer zeroed."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 7))
    X[rng.random(X.shape) < 0.7] = 0.0
    sq = np.einsum("ij,ij->i", X, X)
    gamma, coef0, degree = 0.3, 0.5, 3
    csr = _csr_of(X)
    dots = X @ X[5]
    ref = {
        _k.LINEAR: dots,
        _k.POLY: (gamma * dots + coef0) ** degree,
        _k.RBF: np.exp(-gamma * ((X - X[5]) ** 2).sum(axis=1)),
        _k.SIGMOID: np.tanh(gamma * dots + coef0),
    }[kernel]
    out = np.empty(40 - 3)
    kern = _k.Kernel(np.empty((0, 0)), sq, kernel, gamma, coef0, degree)
    _k.kernel_values(kern, csr, 5, out, 3, 40, n_chunks)
    np.testing.assert_allclose(out, ref[3:], rtol=1e-12, atol=1e-14)
    assert not csr.buf.any()


@pytest.mark.parametrize("kernel", ["linear", "rbf"])
@pytest.mark.parametrize("shrinking", [True, False])
@pytest.mark.parametrize("estimator", ["SVC", "SVR"])
def test_row_cache_size_leaves_the_fit_unchanged(estimator, shrinking, kernel):
    """Kernel rows evicted and recomputed, extended after unshrinking or caught
    up from the swap log hold the same bits as rows kept: a cache of two rows
    fits exactly the model a cache of every row fits (same pairs, same
    iterations)."""
    from classiclearn.svm import SVC, SVR

    rng = np.random.default_rng(7)
    X = rng.normal(size=(240, 5))
    if estimator == "SVC":
        y = (X[:, 0] + X[:, 1] ** 2 + rng.normal(size=240) > 1).astype(int)
        make = SVC
    else:
        y = X[:, 0] + np.sin(2 * X[:, 1]) + 0.3 * rng.normal(size=240)
        make = SVR
    fits = [make(kernel=kernel, C=10.0, shrinking=shrinking, cache_size=size).fit(X, y)
            for size in (0.001, 200)]
    small, large = fits
    assert small.n_iter_.sum() > 240  # long enough to shrink and to evict rows
    for name in ("dual_coef_", "intercept_", "support_", "n_iter_"):
        np.testing.assert_array_equal(getattr(small, name), getattr(large, name))


class _Settings:
    """The solver settings an SVC holds (what solve_dual and the batch read)."""

    def __init__(self, gamma, cache_size, shrinking, max_iter):
        self._gamma, self.coef0, self.degree = gamma, 0.5, 3
        self.tol, self.cache_size, self.shrinking, self.max_iter = 1e-3, cache_size, shrinking, max_iter


@pytest.mark.parametrize("kernel", ["linear", "rbf", "poly", "sigmoid"])
@pytest.mark.parametrize(("cache_size", "shrinking", "max_iter"),
                         [(200.0, True, -1), (0.01, False, -1), (200.0, True, 7)])
def test_batched_problems_match_one_at_a_time(kernel, cache_size, shrinking, max_iter):
    # the grouped solver (one call, several problems, threads) must give each
    # problem exactly the answer of solve_dual on that problem alone
    from classiclearn.svm import _base

    rng = np.random.default_rng(3)
    X = rng.normal(size=(120, 6))
    C = rng.choice([0.5, 1.0, 4.0], 120)
    subsets = [rng.choice(120, size, replace=False) for size in (40, 77, 3, 120, 2)]
    n_first = [15, 70, 1, 60, 1]
    est = _Settings(0.2, cache_size, shrinking, max_iter)
    kind = _base.KERNEL_IDS[kernel]
    expected = []
    for rows, first in zip(subsets, n_first):
        y = np.where(np.arange(rows.size) < first, 1.0, -1.0)
        expected.append(_base.solve_dual(est, X, kind, rows, y, -np.ones(rows.size), C[rows],
                                         serial_rows=True))
    for n_threads in (1, 2):
        got = _base.solve_classifications(est, X, kind, subsets, n_first, C, n_threads)
        for (a, rho, it, ok), (a_ref, rho_ref, it_ref, ok_ref) in zip(got, expected):
            np.testing.assert_array_equal(a, a_ref)
            assert (rho, it, ok) == (rho_ref, it_ref, ok_ref)
    if max_iter > 0:
        assert not all(ok for *_, ok in expected)  # the cap was reached somewhere
