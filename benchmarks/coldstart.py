"""Cold start (issue 18): what the first ``fit`` + ``predict`` of each registered
estimator costs in a fresh process, with empty numba caches and with the
caches a previous process left.

Each estimator runs in two child processes sharing one fresh cache directory
(``NUMBA_CACHE_DIR``): the first finds it empty (a new environment: every
kernel the call needs is compiled and written to the cache), the second finds
the first's files (a new process on an installed environment: kernels are
loaded). In each, the first call on 300 rows at default parameters is timed,
then the same call again; first minus second is the one-off cost (compiling,
or loading cached kernels, plus first-import work).

Usage::

    python -m benchmarks --coldstart [--family F ...] [--out FILE] [NAME ...]
"""

import json
import os
import subprocess
import sys
import tempfile
import time

ROWS = 300
GOAL_SECONDS = 3.0


def _child(name):
    """Run in the child: time the first and second call of ``name``; print JSON."""
    from benchmarks.grid import Registry
    from benchmarks.grid_specs import SPECS
    from benchmarks.overhead import _one_call, default_cell

    registry = Registry()
    spec = next(s for s in SPECS if s.name == name)
    case = default_cell(spec, registry.family(name), ROWS).case(registry)
    data = case.data(False)
    method = case.methods[0]
    times = []
    for _ in range(2):
        start = time.perf_counter()
        _one_call(case.ours, method, data)
        times.append(time.perf_counter() - start)
    print(json.dumps({"first": times[0], "again": times[1]}))


def _spawn(name, cache_dir):
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir)
    out = subprocess.run([sys.executable, "-m", "benchmarks.coldstart", name], env=env,
                         capture_output=True, text=True, check=False)
    if out.returncode != 0:
        return {"error": (out.stderr.strip().splitlines() or ["failed"])[-1]}
    return json.loads(out.stdout.strip().splitlines()[-1])


def measure(name):
    """{'empty': seconds, 'cached': seconds} of one-off cost, or {'error': text}."""
    with tempfile.TemporaryDirectory(prefix="cl-coldstart-") as cache_dir:
        empty = _spawn(name, cache_dir)
        if "error" in empty:
            return empty
        cached = _spawn(name, cache_dir)
        if "error" in cached:
            return cached
    return {"empty": empty["first"] - empty["again"],
            "cached": cached["first"] - cached["again"],
            "warm_call": empty["again"]}


def table(results):
    """Markdown, one row per estimator, the slowest empty-cache start first."""
    lines = ["| estimator | one-off cost, empty cache (s) | one-off cost, cached (s) "
             "| warm fit + predict (ms) |", "|---|---|---|---|"]
    ok = {n: r for n, r in results.items() if "error" not in r}
    for name, r in sorted(ok.items(), key=lambda kv: -kv[1]["empty"]):
        mark = " **>3 s**" if r["empty"] > GOAL_SECONDS else ""
        lines.append(f"| {name} | {r['empty']:.1f}{mark} | {r['cached']:.2f} "
                     f"| {r['warm_call'] * 1e3:.1f} |")
    for name, r in results.items():
        if "error" in r:
            lines.append(f"| {name} | ERROR: {r['error']} | | |")
    return "\n".join(lines)


def main(args, command):
    """``python -m benchmarks --coldstart``: run, print and write the table."""
    from benchmarks._runner import environment_lines
    from benchmarks.grid import Registry
    from benchmarks.grid_specs import SPECS

    registry = Registry()
    results = {}
    for spec in SPECS:
        if not registry.has_twin(spec.name):
            continue
        if args.family and registry.family(spec.name) not in args.family:
            continue
        if args.names and not any(n.lower() in spec.name.lower() for n in args.names):
            continue
        print(f"[coldstart] {spec.name} ...", file=sys.stderr, flush=True)
        results[spec.name] = measure(spec.name)
    note = (f"- one-off cost = first `fit` + method on {ROWS} rows at default parameters "
            f"minus the same call repeated, in a fresh process; 'empty cache': a new numba "
            f"cache directory (new environment), 'cached': a second process on the first's "
            f"cache")
    text = "\n".join([*environment_lines(command), note]) + "\n\n" + table(results) + "\n"
    print(text)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)
    return 1 if any("error" in r for r in results.values()) else 0


if __name__ == "__main__":
    _child(sys.argv[1])
