"""Our fit + first method under the OpenMP waiting settings of the environment.

Times every estimator of the grid kept by the name filters at default parameters,
at each size, in two regimes: *warm* (calls back to back, as a cross-validation loop
makes them) and *idle* (each call after a 0.1 s pause, as an interactive call or a
loop with other work between its fits); each line gives the medians of 7 calls. Run
it under each setting to compare (``GOMP_SPINCOUNT=300000``, libgomp's default;
``GOMP_SPINCOUNT=10000``; ``OMP_WAIT_POLICY=PASSIVE``), alternating the runs: the
results of session 44 are in ``benchmarks/results/threads.md``.

Usage::

    python -m benchmarks.openmp_wait ROWSxFEATURES ... [NAMES ...]

e.g. ``GOMP_SPINCOUNT=10000 python -m benchmarks.openmp_wait 2000x20 20000x20 KMeans``.
"""

import os
import statistics
import sys
import time
import warnings

from benchmarks.spot_checks import ONLY, _fit_method, cases_on_shape

REPEATS = 7
IDLE_SECONDS = 0.1


def _median(make, method, data, pause):
    times = []
    for _ in range(REPEATS):
        if pause:
            time.sleep(pause)
        start = time.perf_counter()
        _fit_method(make, method, data)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main(argv):
    shapes = [tuple(int(v) for v in a.split("x")) for a in argv if "x" in a and a[0].isdigit()]
    ONLY[:] = [a for a in argv if not (a[0].isdigit() and "x" in a)]
    settings = {k: os.environ[k] for k in ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT") if k in os.environ}
    print(f"# OpenMP waiting: {settings or 'libgomp default'}", flush=True)
    for n_rows, n_features in shapes:
        for spec, case, data, method in cases_on_shape(n_rows, n_features, warm_theirs=False):
            warm = _median(case.ours, method, data, 0.0)
            idle = _median(case.ours, method, data, IDLE_SECONDS)
            print(f"{spec.name:30s} {n_rows:>7d}x{n_features:<5d} warm {warm * 1e3:9.2f} ms  "
                  f"idle {idle * 1e3:9.2f} ms", flush=True)


if __name__ == "__main__":
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        main(sys.argv[1:])
