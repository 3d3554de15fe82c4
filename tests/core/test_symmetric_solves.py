"""Inertia counts and the certified LDL' solve of utils._linalg."""

import numpy as np
import pytest
from numpy.testing import assert_allclose

from classiclearn.utils._linalg import (
    CERTIFIED_GAP,
    eigenvalues_below,
    solve_certified_symmetric,
)


def _symmetric(rng, eigenvalues):
    Q, _ = np.linalg.qr(rng.normal(size=(len(eigenvalues),) * 2))
    F = (Q * eigenvalues) @ Q.T
    return (F + F.T) / 2


@pytest.mark.parametrize("seed", range(6))
def test_counts_equal_the_eigenvalues_below_each_shift(seed):
    # indefinite matrices make Bunch-Kaufman take 2 x 2 pivots: their signs count too
    rng = np.random.default_rng(seed)
    n = int(rng.integers(5, 120))
    F = rng.normal(size=(n, n))
    F = F + F.T
    lam = np.linalg.eigvalsh(F)
    kept = F.copy()
    for shift in (-3.0, -0.5, 0.0, 0.7, 2.5, lam.max() + 1.0, lam.min() - 1.0):
        if np.min(np.abs(lam - shift)) < 1e-6:
            continue
        assert eigenvalues_below(F, shift) == int(np.sum(lam < shift))
    np.testing.assert_array_equal(F, kept)


def test_singular_shift_gives_none():
    assert eigenvalues_below(np.diag([1.0, 0.0, -2.0]), 0.0) is None


@pytest.mark.parametrize("seed", range(4))
def test_certified_solve_of_an_indefinite_system(seed):
    rng = np.random.default_rng(seed)
    lam = np.concatenate([-rng.uniform(0.1, 5.0, 7), rng.uniform(0.1, 5.0, 33)])
    F = _symmetric(rng, rng.permutation(lam))
    B = rng.normal(size=(40, 3))
    assert_allclose(solve_certified_symmetric(F, B), np.linalg.solve(F, B), rtol=1e-10,
                    atol=1e-12)


def test_not_certified_near_zero_or_without_negative_eigenvalues():
    rng = np.random.default_rng(9)
    scale = np.sqrt(40) * 2.0  # about the Frobenius norm of these spectra
    near_zero = 0.1 * CERTIFIED_GAP * scale
    for lam in ([-2.0, near_zero] + [2.0] * 38, [-2.0, -near_zero] + [2.0] * 38,
                [near_zero] + [2.0] * 39, [2.0] * 40):
        F = _symmetric(rng, np.array(lam))
        assert solve_certified_symmetric(F, np.ones(40)) is None


# tall (QR first, including at exactly two rows a column), near square and wide (the SVD)
@pytest.mark.parametrize("shape", [(500, 8), (40, 20), (39, 20), (20, 30), (300, 1)])
@pytest.mark.parametrize("rank_deficient", [False, True])
def test_svd_with_projection_matches_the_svd_of_the_design(shape, rank_deficient):
    from classiclearn.utils._linalg import svd_with_projection

    rng = np.random.default_rng(shape[0])
    n, p = shape
    A = rng.normal(size=(n, p)) * np.logspace(0, -6, p)  # columns of far apart scales
    if rank_deficient and p > 1:
        A[:, -1] = A[:, 0] - A[:, 1] if p > 2 else A[:, 0]
    B = rng.normal(size=(n, 3))
    A_before, B_before = A.copy(), B.copy()
    s, Vt, UtB = svd_with_projection(A, B)
    U, s_ref, Vt_ref = np.linalg.svd(A, full_matrices=False)
    assert_allclose(s, s_ref, rtol=1e-10, atol=1e-13 * s_ref[0])
    kept = s_ref > 1e-8 * s_ref[0]  # singular vectors of distinct, non-zero values
    signs = np.sign(np.sum(Vt[kept] * Vt_ref[kept], axis=1))
    assert_allclose(Vt[kept] * signs[:, None], Vt_ref[kept], atol=1e-8)
    assert_allclose(UtB[kept] * signs[:, None], (U.T @ B)[kept], atol=1e-8)
    # what the ridge solve reads: V diag(s / (s^2 + a)) U'B does not depend on the basis
    a = 1e-3
    W = Vt.T @ (UtB * (s / (s**2 + a))[:, None])
    W_ref = Vt_ref.T @ ((U.T @ B) * (s_ref / (s_ref**2 + a))[:, None])
    assert_allclose(W, W_ref, rtol=1e-8, atol=1e-10 * np.abs(W_ref).max())
    assert np.array_equal(A, A_before) and np.array_equal(B, B_before)
