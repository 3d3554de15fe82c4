"""List the compiled numba kernels whose machine code gathers (issue 18).

A vector gather in a kernel's hot loop is either a real indirection (rows read
through an index array) or an accident: numba wraps negative indices, so an
index such as ``j0 + jj`` that LLVM cannot prove non-negative turns contiguous
loads into element-by-element gathers (session 14 found one in the brute
coordinate-metric tiles: 2.5x slower). This runs every grid cell at 500 rows
once (ours only), so the kernels those calls need are compiled, then prints
each kernel signature with the number of gather instructions in its code.
Read the sources of the ones listed; indices from a slice taken at the offset,
or unsigned indices, give contiguous loads.

Use an empty kernel cache (kernels loaded from the cache have no assembly):

    CLASSICLEARN_CACHE_DIR=$(mktemp -d) python -m benchmarks.gather_audit
"""

import re
import sys
import warnings

from numba.core.registry import CPUDispatcher

from benchmarks.grid import Registry, build_cells
from benchmarks.grid_specs import SPECS
from benchmarks.overhead import _one_call

_GATHER = re.compile(r"\bv(p)?gather")


def run_every_cell(size="500"):
    """Fit and call every grid cell of ``size`` once (quick data), ours only."""
    registry = Registry()
    for cell in build_cells(SPECS, registry, sizes=(size,)):
        case = cell.case(registry, quick=True)
        data = case.data(True)
        try:
            for method in case.methods:
                _one_call(case.ours, method, data)
        except Exception as error:  # a failing cell is reported, not fatal
            print(f"error in {cell.name}: {type(error).__name__}: {error}", file=sys.stderr)


def gathering_kernels():
    """(gathers, 'module.kernel', signature) of every compiled classiclearn kernel
    with gather instructions, most first."""
    seen, rows = set(), []
    for module in list(sys.modules.values()):
        name = getattr(module, "__name__", "")
        if not name.startswith("classiclearn"):
            continue
        for attr, obj in list(vars(module).items()):
            if not isinstance(obj, CPUDispatcher) or id(obj) in seen:
                continue
            seen.add(id(obj))
            for signature in obj.signatures:
                try:
                    count = len(_GATHER.findall(obj.inspect_asm(signature)))
                except Exception:  # loaded from the cache: no assembly kept
                    continue
                if count:
                    rows.append((count, f"{name}.{attr}", str(signature)))
    return sorted(rows, reverse=True)


def main():
    warnings.simplefilter("ignore")
    run_every_cell()
    for count, kernel, signature in gathering_kernels():
        print(f"{count:4d} {kernel} {signature[:100]}")


if __name__ == "__main__":
    main()
