"""The exponential of non-positive numbers in plain arithmetic that vectorises.

libm's ``exp`` is a scalar call, so a loop of it never vectorises; the rbf
kernels (SVM, kernel ridge, kernel PCA) and the E-step of Gaussian mixtures
spend most of their time in exponentials of numbers <= 0. Both forms here use
Cody-Waite reduction ``x = k ln2 + r`` (|r| <= ln2 / 2; ``k * LN2_HI`` is exact)
and a degree-13 Taylor polynomial for ``exp(r)`` (truncation < 5e-18
relative), within 2-3 ulp of ``exp``:

- :func:`exp_nonpositive_inplace` works on a row in three branch-free passes
  and builds ``2**k`` from the bits of ``k + 1.5 * 2**52``; for kernel rows;
- :func:`exp_nonpositive_scalar` is one element, with ``2**k`` from a table,
  to be fused into a caller's loop (the mixture E-step sums each term as it
  is made); it flushes terms below ``exp(-40)`` (< 1e-17) to 0;
- :func:`tanh_inplace` is ``tanh`` of a row (the sigmoid kernels) from
  ``expm1(-2|x|)``: the same reduction with the polynomial's leading 1 left
  out, so values near 0 keep their relative accuracy.

Callers may compile with fastmath ``contract`` (fused multiply-adds in the
Horner steps); never ``reassoc``, which would undo the rounding tricks.
:func:`exp_nonpositive`, :func:`exp_nonpositive_each` and :func:`tanh_each`
are array wrappers for tests.
"""

import math

import numpy as np

from .jit import njit

_LOG2E = 1.4426950408889634
_LN2_HI = 0.693147180369123816490  # ln 2 with the low 32 bits of its mantissa zero
_LN2_LO = 1.90821492927058770002e-10
_ROUND = 6755399441055744.0  # 1.5 * 2^52: adding it rounds to an integer
_ROUND_BITS = np.float64(_ROUND).view(np.int64)
_SIGN_BIT = np.int64(-(2**63))
_X_MIN = -708.3964185322641  # exp below this is 2^-1022: clamp (result < 1e-307)
SCALAR_CUT = -40.0  # below, the scalar form returns 0 (exp(-40) < 1e-17)
_POW2_NEG = np.array([2.0**-j for j in range(64)])
_C2, _C3, _C4, _C5, _C6, _C7, _C8, _C9, _C10, _C11, _C12, _C13 = (
    1.0 / math.factorial(j) for j in range(2, 14)
)


@njit(cache=True, nogil=True, inline="always")
def _poly(r):
    """exp(r) for |r| <= ln2 / 2 (Horner, degree 13)."""
    return ((((((((((((_C13 * r + _C12) * r + _C11) * r + _C10) * r + _C9) * r + _C8)
                  * r + _C7) * r + _C6) * r + _C5) * r + _C4) * r + _C3) * r + _C2)
            * r + 1.0) * r + 1.0


@njit(cache=True, nogil=True, inline="always")
def _poly_m1(r):
    """exp(r) - 1 for |r| <= ln2 / 2: :func:`_poly` without its final ``+ 1``."""
    return (((((((((((((_C13 * r + _C12) * r + _C11) * r + _C10) * r + _C9) * r + _C8)
                   * r + _C7) * r + _C6) * r + _C5) * r + _C4) * r + _C3) * r + _C2)
             * r + 1.0) * r)


@njit(cache=True, nogil=True, inline="always")
def exp_nonpositive_inplace(row, m, fbuf, ibuf):
    """row[:m] = exp(row[:m]) for values <= 0.

    ``fbuf`` / ``ibuf`` are one scratch buffer of at least ``m`` float64,
    seen as float64 and as int64 (``ibuf = fbuf.view(np.int64)``).
    """
    for i in range(m):
        x = row[i]
        under = x < _X_MIN
        x = max(x, _X_MIN)
        y = x * _LOG2E + _ROUND
        fbuf[i] = y
        kf = y - _ROUND
        r = (x - kf * _LN2_HI) - kf * _LN2_LO
        p = _poly(r)
        row[i] = 0.0 if under else p
    for i in range(m):
        ibuf[i] = (ibuf[i] - _ROUND_BITS + 1023) << 52
    for i in range(m):
        row[i] *= fbuf[i]


@njit(cache=True, nogil=True, inline="always")
def exp_nonpositive_scalar(t):
    """exp(t) for t <= 0, or 0 when t <= :data:`SCALAR_CUT`."""
    tc = t if t > SCALAR_CUT else SCALAR_CUT
    j = math.floor(tc * _LOG2E + 0.5)
    q = (tc - j * _LN2_HI) - j * _LN2_LO
    e = _poly(q) * _POW2_NEG[np.intp(-j)]
    return e if t > SCALAR_CUT else 0.0


@njit(cache=True, nogil=True, inline="always")
def tanh_inplace(row, m, fbuf, ibuf):
    """row[:m] = tanh(row[:m]), within a few ulp of libm's (NaN stays NaN).

    ``tanh|x| = -u / (2 + u)`` with ``u = expm1(-2|x|) = 2**k (p + 1) - 1`` and
    ``p = expm1(r)``; for |x| < ln2 / 4 (k = 0) u is p itself, with no
    cancellation. The sign of x rides on the sign bit of the rounding value
    kept in ``fbuf``, so ``fbuf`` becomes ``±2**k``. Scratch as in
    :func:`exp_nonpositive_inplace`.
    """
    for i in range(m):
        x = row[i]
        t = -2.0 * abs(x)
        if t < _X_MIN:
            t = _X_MIN
        y = t * _LOG2E + _ROUND
        kf = y - _ROUND
        r = (t - kf * _LN2_HI) - kf * _LN2_LO
        row[i] = _poly_m1(r)
        fbuf[i] = math.copysign(y, x)
    for i in range(m):
        bits = ibuf[i]
        sign = bits & _SIGN_BIT
        ibuf[i] = (((bits ^ sign) - _ROUND_BITS + 1023) << 52) | sign
    for i in range(m):
        scale = fbuf[i]
        two_k = abs(scale)
        u = two_k * row[i] + (two_k - 1.0)
        h = abs(u) / (2.0 + u)
        row[i] = -h if scale < 0.0 else h


@njit(cache=True, nogil=True, fastmath={"contract"})
def exp_nonpositive(x):
    """:func:`exp_nonpositive_inplace` on a copy of the 1-D array ``x`` (for tests)."""
    out = x.copy()
    fbuf = np.empty(x.shape[0])
    exp_nonpositive_inplace(out, x.shape[0], fbuf, fbuf.view(np.int64))
    return out


@njit(cache=True, nogil=True, fastmath={"contract"})
def exp_nonpositive_each(x):
    """:func:`exp_nonpositive_scalar` of every element of the 1-D array ``x`` (for tests)."""
    out = np.empty_like(x)
    for i in range(x.shape[0]):
        out[i] = exp_nonpositive_scalar(x[i])
    return out


@njit(cache=True, nogil=True, fastmath={"contract"})
def tanh_each(x):
    """:func:`tanh_inplace` on a copy of the 1-D array ``x`` (for tests)."""
    out = x.copy()
    fbuf = np.empty(x.shape[0])
    tanh_inplace(out, x.shape[0], fbuf, fbuf.view(np.int64))
    return out
