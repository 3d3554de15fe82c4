"""numba kernel finishing a block of kernel values for SVM prediction (seed 000 §14).

The dot products between test rows and support vectors come from one BLAS
product; this pass turns them into kernel values in place, in parallel over
rows (each output element is independent, so results do not depend on the
number of threads).
"""

import numpy as np
from numba import njit, prange

from ._smo_kernels import POLY, RBF, SIGMOID, exp_inplace


@njit(nogil=True, parallel=True, cache=True)
def finish_kernel_block(D, xx, yy, kernel, gamma, coef0, degree):
    """Turn dot products ``D[i, j] = <x_i, s_j>`` into kernel values in place."""
    n, m = D.shape
    for i in prange(n):
        if kernel == RBF:
            for j in range(m):
                d2 = xx[i] + yy[j] - 2.0 * D[i, j]
                if d2 < 0.0:
                    d2 = 0.0
                D[i, j] = -gamma * d2
            exp_inplace(D[i], np.empty(m))
        elif kernel == POLY:
            for j in range(m):
                D[i, j] = (gamma * D[i, j] + coef0) ** degree
        elif kernel == SIGMOID:
            for j in range(m):
                D[i, j] = np.tanh(gamma * D[i, j] + coef0)
