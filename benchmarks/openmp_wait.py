"""Our fit + first method under two ways for numba's OpenMP threads to wait.

classiclearn loads numba's GNU OpenMP runtime with ``OMP_WAIT_POLICY=PASSIVE``
(``classiclearn/_kernels/jit.py``) unless the user has set how OpenMP threads wait.
This times every estimator of the grid kept by ``NAMES`` at default parameters, at
each size, in two regimes: *warm* (calls back to back, as a cross-validation loop
makes them) and *idle* (each call after a 0.1 s pause, as an interactive call or a
loop with other work between its fits). Run it once as it is and once with
``GOMP_SPINCOUNT=300000`` (OpenMP's default spinning, which the library then
keeps) and compare the two outputs: each line gives the medians of 7 calls.

Usage::

    python -m benchmarks.openmp_wait ROWSxFEATURES ... [NAMES ...]

e.g. ``python -m benchmarks.openmp_wait 2000x20 20000x20 KMeans Logistic``.
"""

import dataclasses
import os
import statistics
import sys
import time
import warnings

REPEATS = 7
IDLE_SECONDS = 0.1


def _call(make, method, data):
    X_train, y_train, X_test, _ = data
    getattr(make().fit(X_train, y_train), method)(X_test)


def _median(make, method, data, pause):
    times = []
    for _ in range(REPEATS):
        if pause:
            time.sleep(pause)
        start = time.perf_counter()
        _call(make, method, data)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main(argv):
    from benchmarks.spot_checks import ONLY, _default_cells

    shapes = [tuple(int(v) for v in a.split("x")) for a in argv if "x" in a and a[0].isdigit()]
    ONLY[:] = [a for a in argv if not (a[0].isdigit() and "x" in a)]
    waiting = ("GOMP_SPINCOUNT=" + os.environ["GOMP_SPINCOUNT"]
               if "GOMP_SPINCOUNT" in os.environ else "passive (library default)")
    print(f"# OpenMP waiting: {waiting}", flush=True)
    for n_rows, n_features in shapes:
        for spec, _, cell, registry in _default_cells(n_rows, skip=("model_selection",)):
            case = dataclasses.replace(cell, n_features=n_features).case(registry)
            data = case.data(False)
            method = case.methods[0]
            try:
                _call(case.ours, method, data)
            except ValueError as exc:
                print(f"{spec.name} {n_rows}x{n_features}: skipped ({exc})", flush=True)
                continue
            warm = _median(case.ours, method, data, 0.0)
            idle = _median(case.ours, method, data, IDLE_SECONDS)
            print(f"{spec.name:30s} {n_rows:>7d}x{n_features:<5d} warm {warm * 1e3:9.2f} ms  "
                  f"idle {idle * 1e3:9.2f} ms", flush=True)


if __name__ == "__main__":
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        main(sys.argv[1:])
