"""Helping numba's reference-count pruner in small, hot kernels.

A numba function increfs each array argument on entry and decrefs it after its
last use. When that last use lies inside a branch (``if crit == GINI: ...
gini(sl, ...)``), the decref is split over the branch paths and numba's
pruning pass keeps the pair: two atomic operations per array per
call, which adds up in kernels called per node or per candidate feature of a
tree. One use of every array after the branches, in the block that returns,
lets the pass remove them all: :func:`keep_alive` is that use.

Kernels that allocate nothing go further: compiled with ``_nrt=False`` (numba's
option to leave its runtime out of a function), they emit no reference counting
at all, whatever their branches, tuples of arrays or calls to kernels that may
raise. Their caller owns every array they see, so borrowing is safe; numba refuses
to compile an allocation (``np.empty``) in such a kernel. A kernel that does not
set the option inherits it from the caller that first compiles it: one that
allocates sets ``_nrt=True``, and no kernel called from a ``_nrt=False`` one may
return an array (its caller would release a reference it was never given). The
tree's splitters, criteria and per-node helpers are compiled so: their reference
counts were a large part of an extremely randomized tree's fit on small data.
"""

from .jit import njit

__all__ = ["keep_alive"]


@njit(cache=True, nogil=True)
def keep_alive(*arrays):
    """Do nothing with ``arrays``: called last (before the single ``return``) in a
    kernel whose array arguments are otherwise last used in branches."""
    return None
