"""The build backend: setuptools' build, then classiclearn's kernels compiled for this machine.

classiclearn's estimators run numba kernels, which numba compiles the first time
they are called and keeps in classiclearn's kernel cache (``classiclearn._kernels.jit``:
a directory under ``$CLASSICLEARN_CACHE_DIR`` or ``~/.cache/classiclearn``, keyed by
the kernels' source, numba's version and Python's). Without this step a new user's
first ``fit`` of a tree, a forest, an SVM or a mixture waits tens of seconds for its
kernels. Installing a wheel or an editable copy therefore ends by running
:func:`classiclearn.precompile.precompile` on the float64 paths of every estimator,
dense and CSR (about two minutes of wall time on two cores), from the sources being
installed, into that cache; a process that later imports the installed package
finds the same sources, hence the same cache directory, and loads the kernels.

The step never fails an install: if it cannot run (no writable cache, a numba
error, the time limit) it says so on stderr and the kernels compile on first use
as before. Set ``CLASSICLEARN_NO_PRECOMPILE=1`` to skip it (e.g. when building a
wheel for another machine). When the build environment's numba differs from the
one installed beside classiclearn, the kernels land in a cache directory the
installed package does not use and compile again on first use.

Every other hook (sdist, metadata, requirements) is setuptools' own.
"""

import os
import pathlib
import subprocess
import sys

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F401,F403  (the hooks not overridden here)

SKIP_VARIABLE = "CLASSICLEARN_NO_PRECOMPILE"
# the project's root: this file is build_support/classiclearn_build.py in it
PROJECT_ROOT = pathlib.Path(__file__).resolve().parent.parent
TIME_LIMIT_SECONDS = 1200

# run as ``python -c _PRECOMPILE <src>``: the sources go first on sys.path (pip's build
# environment may rewrite the path PYTHONPATH gives; worker processes inherit sys.path)
_PRECOMPILE = """
import sys
sys.path.insert(0, sys.argv[1])
from classiclearn.precompile import precompile
report = precompile(sparse=True)
print(f"classiclearn: compiled the kernels of {len(report.seconds)} estimator calls in "
      f"{report.wall_seconds:.0f} s into {report.cache_dir}")
for name, error in sorted(report.errors.items()):
    print(f"classiclearn: {name} not precompiled: {error}")
"""


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    """setuptools' wheel, then the kernels compiled (module docstring)."""
    name = _setuptools.build_wheel(wheel_directory, config_settings, metadata_directory)
    compile_kernels()
    return name


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    """setuptools' editable wheel, then the kernels compiled (module docstring)."""
    name = _setuptools.build_editable(wheel_directory, config_settings, metadata_directory)
    compile_kernels()
    return name


def compile_kernels(source_root=None):
    """Run the precompile step on the sources under ``source_root/src`` (default: the
    project this backend belongs to) in a child process; returns its exit code, or
    None when skipped or when it could not run."""
    if os.environ.get(SKIP_VARIABLE, "").strip() not in ("", "0"):
        return None
    src = pathlib.Path(source_root or PROJECT_ROOT) / "src"
    paths = [str(src)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(paths))
    try:
        done = subprocess.run([sys.executable, "-c", _PRECOMPILE, str(src)], env=env,
                              timeout=TIME_LIMIT_SECONDS, check=False)
    except (OSError, subprocess.SubprocessError) as exc:
        print(f"classiclearn: kernels not precompiled ({exc}); they compile on first use",
              file=sys.stderr)
        return None
    if done.returncode != 0:
        print("classiclearn: the precompile step failed (above); the kernels compile on "
              "first use", file=sys.stderr)
    return done.returncode
