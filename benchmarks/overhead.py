"""Small-data overhead (issue 18): the fixed cost of one ``fit`` + ``predict`` (or
``transform``) on 100, 300 and 1,000 rows, for every registered estimator with a
scikit-learn twin, default parameters, ours against scikit-learn's.

This is what a 5-fold grid search or cross-validation pays per candidate and
fold: on small data validation, dispatch, thread start-up and small
allocations decide. Each (estimator, rows) pair is timed in blocks of ``k``
back-to-back calls (``k`` up to 20, fewer for slow estimators so a block
stays near :data:`BLOCK_SECONDS`); a library's time is the best of
:data:`BLOCKS` block medians, ours under default threading and
scikit-learn's under the faster of the runner's two thread configurations
(default, and BLAS limited to one thread), interleaved with the other
library's blocks. Scores are compared as in the grid.

Usage::

    python -m benchmarks --overhead [--family F ...] [--out FILE] [NAME ...]
"""

import dataclasses
import statistics
import sys
import time

from benchmarks._runner import LIBRARY_CONFIGS, _thread_configs
from benchmarks.grid import Cell, FromData, Registry

ROWS = (100, 300, 1_000)
BLOCKS = 5
MAX_CALLS = 20
MIN_CALLS = 3
BLOCK_SECONDS = 0.1
# the only fixed parameters kept from the grid specs: they change no cost
KEPT_FIXED = ("random_state", "outlier_label", "sparse_output", "code_size")


def default_cell(spec, family, n_rows):
    """The spec's estimator at default parameters on ``n_rows`` training rows.

    Only constructor needs are kept: data-derived values (a radius), random
    seeds, dense output for OneHotEncoder, the wrapped estimators.
    """
    fixed = {k: v for k, v in spec.fixed.items() if k in KEPT_FIXED}
    params = {k: values[0] for k, values in spec.axes.items() if isinstance(values[0], FromData)}
    plain = dataclasses.replace(spec, fixed=fixed, axes={})
    return Cell(plain, family, "", spec.features[0], spec.classes[0], params, rows=n_rows,
                n_test=max(n_rows // 4, 25))


def _one_call(make, method, data):
    X_train, y_train, X_test, _ = data
    est = make().fit(X_train, y_train)
    getattr(est, method)(X_test)
    return est


def _block(make, method, data, calls):
    times = []
    for _ in range(calls):
        start = time.perf_counter()
        _one_call(make, method, data)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


@dataclasses.dataclass
class Overhead:
    """Seconds per fit + method of each library at one size, and the scores."""

    name: str
    rows: int
    ours: float
    theirs: float
    scores_agree: bool
    error: str | None = None

    @property
    def ratio(self):
        return self.ours / self.theirs if self.theirs > 0 else float("inf")


def measure(cell, registry):
    """Time one (estimator, rows) pair; never raises (errors are recorded)."""
    case = cell.case(registry)
    method = case.methods[0]
    try:
        data = case.data(False)
        makers = {"ours": case.ours, "theirs": case.theirs}
        for make in makers.values():  # compile and warm caches
            _one_call(make, method, data)
        start = time.perf_counter()
        for make in makers.values():
            _one_call(make, method, data)
        per_call = (time.perf_counter() - start) / 2
        calls = max(MIN_CALLS, min(MAX_CALLS, int(BLOCK_SECONDS / max(per_call, 1e-6))))
        configs = _thread_configs()
        medians = {(lib, c): [] for lib in makers for c in LIBRARY_CONFIGS[lib]}
        for _ in range(BLOCKS):
            for lib, config in medians:
                with configs[config]():
                    medians[lib, config].append(_block(makers[lib], method, data, calls))
        best = {lib: min(min(medians[lib, c]) for c in LIBRARY_CONFIGS[lib]) for lib in makers}
        X_test, y_test = data[2], data[3]
        score = case.score or (lambda est, X, y: est.score(X, y))
        ours = float(score(_one_call(case.ours, method, data), X_test, y_test))
        theirs = float(score(_one_call(case.theirs, method, data), X_test, y_test))
        return Overhead(cell.spec.name, cell.n_rows, best["ours"], best["theirs"],
                        ours >= theirs - case.score_tol)
    except Exception as exc:  # a broken estimator is reported, not fatal
        return Overhead(cell.spec.name, cell.n_rows, float("nan"), float("nan"), False,
                        f"{type(exc).__name__}: {exc}")


def run(specs, registry, rows=ROWS, families=None, names=None, log=sys.stderr):
    """Measure every spec at every size; returns {name: [Overhead per size]}."""
    out = {}
    for spec in specs:
        family = registry.family(spec.name)
        if families and family not in families:
            continue
        if names and not any(n.lower() in spec.name.lower() for n in names):
            continue
        print(f"[overhead] {spec.name} ...", file=log, flush=True)
        out[spec.name] = [measure(default_cell(spec, family, n), registry) for n in rows]
    return out


def worst_ratio(items):
    ratios = [o.ratio for o in items if o.error is None]
    return max(ratios) if ratios else float("inf")


def table(results, rows=ROWS):
    """Markdown, one row per estimator, sorted by its worst ratio (worst first)."""
    head = "| estimator | " + " | ".join(
        f"{n} rows: ours ms | sk ms | ratio" for n in rows) + " | worst ratio | scores |"
    lines = [head, "|" + "---|" * (2 + 3 * len(rows) + 1)]
    for name, items in sorted(results.items(), key=lambda kv: -worst_ratio(kv[1])):
        cells = []
        for o in items:
            if o.error:
                cells.append(f"ERROR: {o.error} | | ")
            else:
                cells.append(f"{o.ours * 1e3:.2f} | {o.theirs * 1e3:.2f} | {o.ratio:.2f}")
        agree = "agree" if all(o.scores_agree for o in items) else "DIFFER at " + ", ".join(
            str(o.rows) for o in items if not o.scores_agree)
        lines.append(f"| {name} | " + " | ".join(cells)
                     + f" | {worst_ratio(items):.2f} | {agree} |")
    return "\n".join(lines)


def main(args, command):
    """``python -m benchmarks --overhead``: run, print and write the table."""
    from benchmarks._runner import environment_lines
    from benchmarks.grid_specs import NO_TWIN, SPECS

    registry = Registry()
    results = run(SPECS, registry, families=args.family, names=args.names)
    if not results:
        print("no estimators matched", file=sys.stderr)
        return 1
    note = (f"- each time: one `fit` on n rows (10 features unless the data kind needs "
            f"another width) then the first timed method on max(n/4, 25) rows, best of "
            f"{BLOCKS} medians of up to {MAX_CALLS} calls; default parameters")
    text = "\n".join([*environment_lines(command), note]) + "\n\n" + table(results) + "\n"
    if NO_TWIN:
        text += "\nNot measured (no scikit-learn twin): " + ", ".join(sorted(NO_TWIN)) + ".\n"
    print(text)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)
    errors = [o for items in results.values() for o in items if o.error]
    for o in errors:
        print(f"ERROR in {o.name} at {o.rows} rows: {o.error}", file=sys.stderr)
    return 1 if errors else 0
