"""The numba entry points of every kernel module, and where compiled kernels are kept.

Kernel modules import ``njit`` and ``prange`` from here rather than from numba,
so that importing any of them first points numba's on-disk cache for
classiclearn's kernels at one directory per *kernel source*:

    ``$CLASSICLEARN_CACHE_DIR`` or ``$XDG_CACHE_HOME/classiclearn`` (default
    ``~/.cache/classiclearn``), then ``numba-<stamp>/<subpackage>/``

where ``<stamp>`` hashes the source of every kernel module together with the
numba and Python versions. Two consequences:

- compiled kernels outlive a reinstall and are shared by every environment
  with the same classiclearn kernels: only the first use on a machine
  compiles (numba's default keeps them beside the installed sources, which
  a reinstall deletes, and checks them against the source file's modification
  time, which a reinstall changes: here the check is on the file's content);
- a change to any kernel module gives a new directory, so a kernel is never
  loaded against a stale copy of a helper it calls from another module
  (numba checks only the calling function's own file).

Set ``CLASSICLEARN_CACHE_DIR`` to relocate the cache. When ``NUMBA_CACHE_DIR``
is set, or the directory cannot be written, numba's own rules apply.
"""

import functools
import hashlib
import os
import pathlib
import sys

import numba
from numba import njit, prange
from numba.core import caching, config

__all__ = ["kernel_cache_dir", "njit", "prange", "start_parallel_runtime"]

_PACKAGE_ROOT = pathlib.Path(__file__).resolve().parent.parent


def _is_kernel_module(path):
    return path.parent.name == "_kernels" or "kernels" in path.name


_SOURCE_DIGESTS = {}


def _source_digest(py_file):
    """sha256 of a source file's bytes (memoised: sources do not change in a process)."""
    if py_file not in _SOURCE_DIGESTS:
        _SOURCE_DIGESTS[py_file] = hashlib.sha256(pathlib.Path(py_file).read_bytes()).hexdigest()
    return _SOURCE_DIGESTS[py_file]


def _kernel_stamp():
    """Hash of every kernel module's source, numba's version and Python's."""
    digest = hashlib.sha256()
    digest.update(f"{numba.__version__} {sys.version_info[:2]}".encode())
    for path in sorted(_PACKAGE_ROOT.rglob("*.py")):
        if _is_kernel_module(path):
            digest.update(str(path.relative_to(_PACKAGE_ROOT)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


@functools.cache
def start_parallel_runtime():
    """Start numba's threading layer, once per process, before calling a kernel that is
    not parallel itself but calls parallel ones (``prange`` loops).

    Numba links the parallel callees into such a kernel, and its cache entry carries a
    hook that starts the threading layer they need when the entry is loaded; but an
    entry compiled in a process that loaded those callees from the cache lacks the
    hook (numba issue 8578), and its first call in a later process then crashes
    unless a parallel kernel ran before. ``numba.get_num_threads`` starts the layer.
    ``tests/core/test_nested_parallel_kernels.py`` finds the kernels concerned and
    checks that their callers start the layer.

    Examples
    --------
    >>> start_parallel_runtime()
    """
    numba.get_num_threads()


def kernel_cache_dir():
    """The directory that holds classiclearn's compiled kernels (see the module docstring).

    Examples
    --------
    >>> kernel_cache_dir().name.startswith("numba-")
    True
    """
    root = os.environ.get("CLASSICLEARN_CACHE_DIR")
    if not root:
        xdg = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        root = os.path.join(xdg, "classiclearn")
    return pathlib.Path(root) / f"numba-{_STAMP}"


class _KernelCacheLocator(caching._SourceFileBackedLocatorMixin, caching._CacheLocator):
    """Numba cache locator for classiclearn's kernel modules (others are left to numba)."""

    def __init__(self, py_func, py_file):
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno
        relative = pathlib.Path(py_file).resolve().parent.relative_to(_PACKAGE_ROOT)
        self._cache_path = str(kernel_cache_dir() / relative)

    def get_cache_path(self):
        return self._cache_path

    def get_source_stamp(self):
        """The source file's content hash (numba's default, its mtime, changes with
        every reinstall and would invalidate the cache although the code is the same)."""
        return _source_digest(self._py_file)

    @classmethod
    def from_function(cls, py_func, py_file):
        if config.CACHE_DIR:  # the user chose numba's cache directory for everything
            return None
        path = pathlib.Path(py_file).resolve()
        if _PACKAGE_ROOT not in path.parents:
            return None
        return super().from_function(py_func, py_file)


def _register_locator():
    """Put the locator first in numba's list (a no-op on a numba without that list)."""
    impl = getattr(caching, "CacheImpl", None) or getattr(caching, "_CacheImpl", None)
    classes = getattr(impl, "_locator_classes", None)
    if isinstance(classes, list) and _KernelCacheLocator not in classes:
        classes.insert(0, _KernelCacheLocator)


_STAMP = _kernel_stamp()
_register_locator()
