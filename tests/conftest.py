"""Shared test set-up: thread settings for a small machine, a seed fixture, and
the tests folder on sys.path for ``common_params``.

Under ``pytest -n 2`` each worker process gets one BLAS thread, and OpenMP
threads (numba's pool) sleep instead of spinning while idle, so two workers on
two cores do not fight over them. Results never depend on thread counts, so
this changes speed only.
"""

import os
import sys

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

sys.path.insert(0, os.path.dirname(__file__))

if os.environ.get("PYTEST_XDIST_WORKER"):
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:  # threadpoolctl is a test extra; without it, defaults stand
        pass
    else:
        _BLAS_LIMIT = threadpool_limits(limits=1, user_api="blas")


@pytest.fixture
def rng():
    """A NumPy Generator with a fixed seed."""
    return np.random.default_rng(0)


@pytest.fixture
def svd_calls(monkeypatch):
    """A function ``watch(module)`` that makes ``module.linalg.svd`` record the shape of
    every matrix it is given, in a list it returns (which route a fit took)."""

    def watch(module):
        calls = []
        real_svd = module.linalg.svd

        def counting_svd(a, *args, **kwargs):
            calls.append(a.shape)
            return real_svd(a, *args, **kwargs)

        monkeypatch.setattr(module.linalg, "svd", counting_svd)
        return calls

    return watch
