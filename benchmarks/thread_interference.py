"""Our time under default threading against BLAS limited to one thread, per grid cell.

A cell where default threading is much slower has thread pools competing for the
cores: OpenBLAS's threads spin for about 0.1 s after a threaded call and numba's
OpenMP threads for a while after a parallel region, each taking the cores from the
other. Each timed call follows a 0.15 s pause (``PAUSE`` in the environment sets
another: ``PAUSE=0`` times the calls back to back, as a cross-validation loop makes
them, where the threads left spinning by one call meet the next); the best of three is
kept, and lines where default threading is over 15% (and 0.2 ms) slower are marked
``<<<``.

Usage::

    python -m benchmarks.thread_interference SIZES [FAMILY ...]

e.g. ``python -m benchmarks.thread_interference 5k linear_model svm``; set ``NAMES``
(comma-separated substrings) to keep only some cells.
"""

import os
import sys
import time
from contextlib import nullcontext

from benchmarks.grid import Registry, build_cells, parse_sizes

PAUSE_SECONDS = float(os.environ.get("PAUSE", "0.15"))
REPEATS = 3


def _timed(fn):
    if PAUSE_SECONDS > 0:
        time.sleep(PAUSE_SECONDS)
    start = time.perf_counter()
    out = fn()
    return time.perf_counter() - start, out


def measure(case):
    """{(step, config): [seconds]} for our estimator under both thread configurations."""
    from threadpoolctl import threadpool_limits

    X_train, y_train, X_test, _ = case.data(False)
    case.ours().fit(X_train[:300], None if y_train is None else y_train[:300])
    times = {}
    for _ in range(REPEATS):
        for config in ("default", "blas=1"):
            limit = threadpool_limits(1, "blas") if config == "blas=1" else nullcontext()
            with limit:
                seconds, est = _timed(lambda: case.ours().fit(X_train, y_train, **case.fit_kwargs))
                times.setdefault(("fit", config), []).append(seconds)
                for method in case.methods:
                    predict = getattr(est, method)
                    seconds, _ = _timed(lambda predict=predict: predict(X_test))
                    times.setdefault((method, config), []).append(seconds)
    return times


def main(argv):
    from benchmarks.grid_specs import SPECS

    sizes = parse_sizes(argv[0])
    families = argv[1:] or None
    names = os.environ.get("NAMES", "").split(",") if os.environ.get("NAMES") else None
    registry = Registry()
    cells = build_cells(SPECS, registry, sizes, families, names)
    print(f"{len(cells)} cells", flush=True)
    for cell in cells:
        try:
            case = cell.case(registry, False)
            times = measure(case)
        except Exception as exc:  # a broken cell is reported, not fatal
            print(f"{cell.name}: ERROR {type(exc).__name__}: {exc}", flush=True)
            continue
        for step in ["fit", *case.methods]:
            default, single = min(times[step, "default"]), min(times[step, "blas=1"])
            flag = "  <<<" if default > 1.15 * single and default - single > 2e-4 else ""
            print(f"{cell.name:70s} {step:18s} default {default * 1e3:9.2f} ms "
                  f"blas=1 {single * 1e3:9.2f} ms  {default / single:5.2f}{flag}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
