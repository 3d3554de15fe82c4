"""Cold start (issue 18): what the first ``fit`` + ``predict`` of each registered
estimator costs in a fresh process, with empty numba caches and with the
caches a previous process left.

Each estimator runs in three child processes:

- "empty": a fresh cache directory (``NUMBA_CACHE_DIR``), as when the install's
  precompile step was skipped: every kernel the call needs is compiled;
- "installed": the kernel cache that ``pip install`` leaves (the build backend,
  ``build_support/classiclearn_build.py``, runs ``precompile(sparse=True)``;
  here it is run once into a temporary ``CLASSICLEARN_CACHE_DIR``);
- "cached": a second process on the "empty" one's cache.

In each, the first call on 300 rows at default parameters is timed, then the
same call again; first minus second is the one-off cost (compiling, or loading
cached kernels, plus first-import work).

With ``--sparse``, the estimators that take scipy sparse input are measured "after
install" on CSR data instead (10% of the entries kept): what a user's first sparse fit
costs. ``--rows N`` measures the first call on N rows (each spec's ``max_rows`` at
most, 3,000 for the kernel matrices of KernelPCA and KernelRidge) instead of 300,
"after install" only: paths that start at a size (threads over row lanes, working
sets, iterative solvers) compile kernels of their own. These tables name the kernels
that compiled.

With ``--variants``, each value of each axis of the estimator's grid spec (the
parameter values that change its algorithm: solvers, kernels, metrics, criteria,
``max_bins``, ...) is measured alone, one axis at a time, "after install" only:
each in a fresh process on its own copy of the install's cache, so that no
variant finds kernels another one compiled. It combines with ``--sparse`` and
``--rows``.

Usage::

    python -m benchmarks --coldstart [--variants] [--sparse] [--rows N] [--family F ...]
        [--out FILE] [NAME ...]
"""

import dataclasses
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

ROWS = 300
GOAL_SECONDS = 3.0
SPARSE_DENSITY = 0.1


# rows at most for --rows: the estimators whose fit holds an n x n kernel matrix
_MAX_ROWS = {"KernelPCA": 3000, "KernelRidge": 3000}

# axes that choose no kernels of their own
_NO_KERNEL_AXES = ("n_jobs",)


def variants(spec):
    """``(axis, index)`` of each value of each axis of ``spec`` that may compile kernels of
    its own (data-derived values, thread counts and values the spec's ``skip`` rules out
    at its first width left out)."""
    from benchmarks.grid import FromData

    def valid(axis, value):
        # the other axes at their first values, as the child's defaults stand for them
        params = {a: values[0] for a, values in spec.axes.items()} | {axis: value}
        return spec.skip is None or not spec.skip(params, spec.features[0], spec.classes[0])

    return [(axis, i) for axis, values in spec.axes.items() if axis not in _NO_KERNEL_AXES
            for i, value in enumerate(values)
            if not isinstance(value, FromData) and valid(axis, value)]


def _as_sparse(data):
    """The data with X_train and X_test as CSR, ``SPARSE_DENSITY`` of the entries kept."""
    import numpy as np
    import scipy.sparse as sp

    rng = np.random.default_rng(0)
    X_train, y_train, X_test, y_test = data

    def thin(X):
        return sp.csr_matrix(np.where(rng.random(X.shape) < SPARSE_DENSITY, X, 0.0))

    return thin(X_train), y_train, thin(X_test), y_test


def _compile_listener():
    """A list that numba's compile events append the compiled functions' names to."""
    from numba.core import event

    names = []

    class Listener(event.Listener):
        def on_start(self, ev):
            pass

        def on_end(self, ev):
            func = ev.data["dispatcher"].py_func
            if func.__module__.startswith("classiclearn"):
                names.append(func.__name__)

    event.register("numba:compile", Listener())
    return names


def _child(name, axis=None, index=None, sparse=False, rows=ROWS):
    """Run in the child: time the first and second call of ``name`` (at default
    parameters, or with ``axis`` at its ``index``-th grid value; on CSR data if
    ``sparse``; on ``rows`` rows, the spec's ``max_rows`` at most); print JSON."""
    from benchmarks.grid import Registry
    from benchmarks.grid_specs import SPECS
    from benchmarks.overhead import _one_call, default_cell

    compiled = _compile_listener()
    registry = Registry()
    spec = next(s for s in SPECS if s.name == name)
    rows = min(rows, spec.max_rows or rows, _MAX_ROWS.get(name, rows))
    cell = default_cell(spec, registry.family(name), rows)
    if axis is not None:
        cell = dataclasses.replace(cell, params={**cell.params, axis: spec.axes[axis][index]})
    case = cell.case(registry)
    data = _as_sparse(case.data(False)) if sparse else case.data(False)
    method = case.methods[0]
    times = []
    for _ in range(2):
        start = time.perf_counter()
        _one_call(case.ours, method, data)
        times.append(time.perf_counter() - start)
    print(json.dumps({"first": times[0], "again": times[1], "rows": rows,
                      "compiled": sorted(set(compiled))}))


def _spawn(name, cache_dir, variable="NUMBA_CACHE_DIR", variant=(), sparse=False,
           rows=ROWS):
    env = {k: v for k, v in os.environ.items()
           if k not in ("NUMBA_CACHE_DIR", "CLASSICLEARN_CACHE_DIR")}
    env[variable] = cache_dir
    flags = (["--sparse"] if sparse else []) + ([f"--rows={rows}"] if rows != ROWS else [])
    out = subprocess.run([sys.executable, "-m", "benchmarks.coldstart", name,
                          *map(str, variant), *flags], env=env, capture_output=True,
                         text=True, check=False)
    if out.returncode != 0:
        return {"error": (out.stderr.strip().splitlines() or ["failed"])[-1]}
    return json.loads(out.stdout.strip().splitlines()[-1])


def fill_installed_cache(cache_dir):
    """Run what the build backend runs at install into ``cache_dir``; its wall seconds."""
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["CLASSICLEARN_CACHE_DIR"] = cache_dir
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", "from classiclearn.precompile import precompile; "
                    "precompile(sparse=True)"], env=env, check=True)
    return time.perf_counter() - start


def measure(name, installed_dir):
    """{'empty', 'installed', 'cached': seconds of one-off cost, 'warm_call'} or
    {'error': text}."""
    with tempfile.TemporaryDirectory(prefix="cl-coldstart-") as cache_dir:
        empty = _spawn(name, cache_dir)
        if "error" in empty:
            return empty
        cached = _spawn(name, cache_dir)
        if "error" in cached:
            return cached
    installed = _spawn(name, installed_dir, "CLASSICLEARN_CACHE_DIR")
    if "error" in installed:
        return installed
    return {"empty": empty["first"] - empty["again"],
            "installed": installed["first"] - installed["again"],
            "cached": cached["first"] - cached["again"],
            "warm_call": empty["again"]}


def measure_variant(name, variant, installed_dir, sparse=False, rows=ROWS):
    """{'installed': one-off seconds, 'warm_call', 'rows', 'compiled'} of ``name`` with
    ``variant`` (axis, index; () for the defaults), on CSR data if ``sparse``, on ``rows``
    rows, in a fresh process on a copy of the install's cache, or {'error': text}."""
    with tempfile.TemporaryDirectory(prefix="cl-variant-") as tmp:
        cache_dir = os.path.join(tmp, "cache")
        shutil.copytree(installed_dir, cache_dir)
        out = _spawn(name, cache_dir, "CLASSICLEARN_CACHE_DIR", variant, sparse, rows)
    if "error" in out:
        return out
    return {"installed": out["first"] - out["again"], "warm_call": out["again"],
            "rows": out["rows"], "compiled": out["compiled"]}


def variants_table(results):
    """Markdown, one row per (estimator, parameter value), the slowest first, with the
    rows of the call and the kernels that compiled in it."""
    lines = ["| estimator | parameter | rows | one-off cost after install (s) "
             "| warm fit + predict (ms) | kernels compiled |", "|---|---|---|---|---|---|"]
    ok = {k: r for k, r in results.items() if "error" not in r}
    for (name, label), r in sorted(ok.items(), key=lambda kv: -kv[1]["installed"]):
        mark = " **>3 s**" if r["installed"] > GOAL_SECONDS else ""
        kernels = ", ".join(r["compiled"]) or "none"
        lines.append(f"| {name} | {label} | {r['rows']} | {r['installed']:.2f}{mark} "
                     f"| {r['warm_call'] * 1e3:.1f} | {kernels} |")
    for (name, label), r in results.items():
        if "error" in r:
            lines.append(f"| {name} | {label} | | ERROR: {r['error']} | | |")
    return "\n".join(lines)


def table(results):
    """Markdown, one row per estimator, the slowest empty-cache start first."""
    lines = ["| estimator | one-off cost, empty cache (s) | after install (s) "
             "| cached (s) | warm fit + predict (ms) |", "|---|---|---|---|---|"]
    ok = {n: r for n, r in results.items() if "error" not in r}
    for name, r in sorted(ok.items(), key=lambda kv: -kv[1]["empty"]):
        mark = " **>3 s**" if r["installed"] > GOAL_SECONDS else ""
        lines.append(f"| {name} | {r['empty']:.1f} | {r['installed']:.2f}{mark} "
                     f"| {r['cached']:.2f} | {r['warm_call'] * 1e3:.1f} |")
    for name, r in results.items():
        if "error" in r:
            lines.append(f"| {name} | ERROR: {r['error']} | | | |")
    return "\n".join(lines)


def main(args, command):
    """``python -m benchmarks --coldstart``: run, print and write the table."""
    from benchmarks._runner import environment_lines
    from benchmarks.grid import Registry
    from benchmarks.grid_specs import SPECS

    registry = Registry()
    results = {}
    sparse = getattr(args, "sparse", False)
    rows = getattr(args, "rows", None) or ROWS
    each_value = getattr(args, "variants", False)
    after_install_only = sparse or rows != ROWS or each_value
    with tempfile.TemporaryDirectory(prefix="cl-installed-") as installed_dir:
        print("[coldstart] filling the install's kernel cache ...", file=sys.stderr, flush=True)
        install_seconds = fill_installed_cache(installed_dir)
        for spec in SPECS:
            if not registry.has_twin(spec.name):
                continue
            if args.family and registry.family(spec.name) not in args.family:
                continue
            if args.names and not any(n.lower() in spec.name.lower() for n in args.names):
                continue
            if sparse and not accepts_sparse(registry.ours(spec.name)):
                continue
            if not after_install_only:
                print(f"[coldstart] {spec.name} ...", file=sys.stderr, flush=True)
                results[spec.name] = measure(spec.name, installed_dir)
                continue
            for label, variant in _labelled_variants(spec, each_value, sparse):
                print(f"[coldstart] {spec.name} {label} ...", file=sys.stderr, flush=True)
                results[spec.name, label] = measure_variant(spec.name, variant, installed_dir,
                                                            sparse=sparse, rows=rows)
                print(f"[coldstart]   {results[spec.name, label]}", file=sys.stderr,
                      flush=True)
    if after_install_only:
        which = ("with one parameter set to the value shown (the others at their defaults)"
                 if each_value else "at default parameters")
        on = f"CSR data ({SPARSE_DENSITY:.0%} of the entries kept)" if sparse else "dense data"
        note = (f"- one-off cost = first `fit` + method on {rows} rows (column `rows`: the "
                f"spec's largest size if smaller) {which} on {on} minus the same call "
                f"repeated, in a fresh process on a copy of the cache the install's "
                f"precompile step fills ({install_seconds:.0f} s of wall time here); the "
                f"kernels compiled in it are named")
        body = variants_table(results)
    else:
        note = (f"- one-off cost = first `fit` + method on {ROWS} rows at default parameters "
                f"minus the same call repeated, in a fresh process; 'empty cache': a new "
                f"numba cache directory (the install's precompile step skipped), 'after "
                f"install': the cache the install's precompile step fills "
                f"({install_seconds:.0f} s of wall time here), 'cached': a second process on "
                f"the first's cache")
        body = table(results)
    text = "\n".join([*environment_lines(command), note]) + "\n\n" + body + "\n"
    print(text)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)
    return 1 if any("error" in r for r in results.values()) else 0


def _labelled_variants(spec, each_value, sparse):
    """(label, variant) pairs to measure "after install": each axis value alone if
    ``each_value`` (``--variants``), else the defaults alone (labelled by the data's
    format)."""
    if each_value:
        return [(f"{axis}={spec.axes[axis][index]!r}", (axis, index))
                for axis, index in variants(spec)]
    return [("CSR" if sparse else "defaults", ())]


def accepts_sparse(cls):
    """Whether the estimator class takes scipy sparse input (its ``sparse`` tag); the
    meta-estimators, which need an inner estimator, are left out (their inner
    estimators are measured)."""
    from classiclearn._tags import get_tags

    try:
        return get_tags(cls()).sparse
    except TypeError:
        return False


if __name__ == "__main__":
    _flags = [a for a in sys.argv[1:] if a.startswith("--")]
    _argv = [a for a in sys.argv[1:] if not a.startswith("--")]
    _rows = next((int(f.split("=")[1]) for f in _flags if f.startswith("--rows=")), ROWS)
    _child(_argv[0], *([_argv[1], int(_argv[2])] if len(_argv) > 2 else []),
           sparse="--sparse" in _flags, rows=_rows)
