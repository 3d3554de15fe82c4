"""Helping numba's reference-count pruner in small, hot kernels.

A numba function increfs each array argument on entry and decrefs it after its
last use. When that last use lies inside a branch (``if crit == GINI: ...
gini(sl, ...)``), the decref is split over the branch paths and numba's
pruning pass keeps the pair: two atomic operations (about 8 ns) per array per
call, which adds up in kernels called per node or per candidate feature of a
tree. One use of every array after the branches, in the block that returns,
lets the pass remove them all: :func:`keep_alive` is that use.
"""

from .jit import njit

__all__ = ["keep_alive"]


@njit(cache=True, nogil=True)
def keep_alive(*arrays):
    """Do nothing with ``arrays``: called last (before the single ``return``) in a
    kernel whose array arguments are otherwise last used in branches."""
    return None
