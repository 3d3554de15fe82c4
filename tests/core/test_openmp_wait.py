"""numba's GNU OpenMP runtime is loaded with passive waiting unless the user chose a policy."""

import os
import subprocess
import sys

import pytest

from classiclearn._kernels import jit

# the import, then numba's pool started (which loads OpenMP if the import did not)
REPORT = (
    "import os\n"
    "import classiclearn._kernels.jit\n"
    "import numba\n"
    "numba.get_num_threads()\n"
    "print(os.environ.get('OMP_WAIT_POLICY'), numba.threading_layer())\n"
)

# a parallel kernel run first in a child forked after the import: the pool must not
# have been started by the import (GNU OpenMP cannot be used across a fork)
FORK_THEN_RUN = (
    "import os\n"
    "import numpy as np\n"
    "from classiclearn.cluster import _kmeans_kernels as k\n"
    "pid = os.fork()\n"
    "if pid == 0:\n"
    "    X = np.arange(2000.0).reshape(200, 10); out = np.empty_like(X)\n"
    "    mean, _ = k.centre_rows(X, out)\n"
    "    os._exit(0 if np.allclose(out.mean(axis=0), 0.0) else 3)\n"
    "_, status = os.waitpid(pid, 0)\n"
    "raise SystemExit(os.waitstatus_to_exitcode(status))\n"
)


def _gnu_openmp_available():
    try:
        import numba.np.ufunc.omppool  # noqa: F401
    except ImportError:
        return False
    return True


pytestmark = pytest.mark.skipif(not _gnu_openmp_available(),
                                reason="numba's omp threading layer is not available here")


def _child(code, **settings):
    env = {k: v for k, v in os.environ.items()
           if k not in jit._OPENMP_WAIT_SETTINGS and k != "NUMBA_THREADING_LAYER"}
    env.update(OMP_DISPLAY_ENV="VERBOSE", **settings)
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                          text=True, check=True)


def test_openmp_is_loaded_waiting_passively_and_the_environment_is_left_as_it_was():
    run = _child(REPORT)
    # GNU OpenMP prints the settings it read when it was loaded: passive waiting is
    # a spin count of 0 (its default, an unset policy, is 300,000)
    assert "GOMP_SPINCOUNT = '0'" in run.stderr
    assert run.stdout.split() == ["None", "omp"]


def test_a_policy_set_by_the_user_is_kept():
    run = _child(REPORT, OMP_WAIT_POLICY="ACTIVE")
    assert "OMP_WAIT_POLICY = 'ACTIVE'" in run.stderr
    assert run.stdout.split() == ["ACTIVE", "omp"]


def test_a_spin_count_set_by_the_user_is_kept():
    run = _child(REPORT, GOMP_SPINCOUNT="1234")
    assert "GOMP_SPINCOUNT = '1234'" in run.stderr


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
def test_a_child_forked_after_the_import_runs_parallel_kernels():
    _child(FORK_THEN_RUN)
