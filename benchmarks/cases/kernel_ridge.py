"""Kernel ridge regression benchmark case (seed 000 §14.1)."""

from benchmarks import _data
from benchmarks._case import Case


def _ours():
    from classiclearn.kernel_ridge import KernelRidge

    return KernelRidge(alpha=1.0, kernel="rbf")


def _theirs():
    from sklearn.kernel_ridge import KernelRidge

    return KernelRidge(alpha=1.0, kernel="rbf")


CASES = [
    Case(
        name="KernelRidge rbf 5000x20",
        data=lambda quick: _data.regression(5_000, 20, quick=quick),
        ours=_ours,
        theirs=_theirs,
        methods=("predict",),
        score_tol=1e-6,
        goals={"fit": 1.0},
    ),
]
