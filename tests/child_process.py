"""Running a Python script in a fresh process with a chosen kernel cache (for the tests of
what a new process compiles or loads)."""

import os
import subprocess
import sys


def run_python(args, **env_updates):
    """``python <args>`` in a child process: the environment without ``NUMBA_CACHE_DIR``
    (which would override classiclearn's cache directory) plus ``env_updates``; output
    captured as text."""
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env.update(env_updates)
    return subprocess.run([sys.executable, *args], env=env, capture_output=True, text=True,
                          timeout=600)
