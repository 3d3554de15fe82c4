"""Time our estimators against scikit-learn's twins, in one process and one run.

For each case: build the data, warm both libraries on a small slice (our JIT
compile time is reported apart), then time ``fit`` and each listed method,
interleaving ours with scikit-learn's so that machine noise hits both alike.
scikit-learn's time is the faster of two configurations measured in the same
run: its default threading, and BLAS limited to one thread (multi-threaded
OpenBLAS is often slower for LAPACK-heavy work on 2 cores); ours is measured
under the same two configurations and also keeps its faster one, so threads
are pinned equally for both. The fitted
models' scores are reported side by side: fast but wrong must show.
"""

import gc
import importlib
import os
import pkgutil
import platform
import statistics
import time
from contextlib import nullcontext
from dataclasses import dataclass, field
from functools import partial

import numpy as np

from . import cases as cases_package

LONG_STEP_SECONDS = 2.0
# Quick runs test on a few hundred rows, where one sample moves accuracy by
# ~0.003: approximate and randomised methods get this much slack there.
QUICK_SCORE_TOL = 0.025


@dataclass
class StepResult:
    """Timings of one step (fit or a method) of one case."""

    step: str
    ours: float
    theirs: float
    configs: str
    goal: float | None

    @property
    def ratio(self):
        return self.ours / self.theirs if self.theirs > 0 else float("inf")


@dataclass
class CaseResult:
    """Everything measured for one case."""

    name: str
    family: str
    steps: list = field(default_factory=list)
    our_score: float = float("nan")
    their_score: float = float("nan")
    jit_seconds: float = 0.0
    our_peak_mb: float | None = None
    their_peak_mb: float | None = None
    error: str | None = None
    scores_agree: bool = True


def discover_cases(families=None, names=None):
    """All declared cases as (family, case), filtered by family and name substrings."""
    found = []
    for info in sorted(pkgutil.iter_modules(cases_package.__path__), key=lambda i: i.name):
        if families and info.name not in families:
            continue
        module = importlib.import_module(f"{cases_package.__name__}.{info.name}")
        for case in getattr(module, "CASES", []):
            if names and not any(n.lower() in case.name.lower() for n in names):
                continue
            found.append((info.name, case))
    return found


def _thread_configs():
    from threadpoolctl import threadpool_limits

    return {"default": nullcontext, "blas=1": lambda: threadpool_limits(limits=1, user_api="blas")}


# the thread configurations each library is timed in: scikit-learn gets the faster
# of the two (its baseline); classiclearn runs as its users run it, by default
LIBRARY_CONFIGS = {"ours": ("default",), "theirs": ("default", "blas=1")}


def _calls_per_repeat(lib):
    """Timed calls of each of ``lib``'s configurations per repeat: both libraries are
    timed equally often (ours, in one configuration, twice per repeat). A step's time
    is the best of its calls, and the best of more calls of a noisy step is lower:
    scikit-learn's two configurations would otherwise give it twice the draws."""
    most = max(len(configs) for configs in LIBRARY_CONFIGS.values())
    return most // len(LIBRARY_CONFIGS[lib])

# pause before each timed call of a full (not --quick) run: OpenBLAS's threads spin
# for about a tenth of a second after a threaded call, and would take the cores
# from the next call's threads (whichever library's they are)
SETTLE_SECONDS = 0.15


def _settle(quick):
    if not quick:
        time.sleep(SETTLE_SECONDS)


def _slice(data, n):
    return tuple(None if a is None else a[:n] for a in data)


def _timed(fn):
    start = time.perf_counter()
    out = fn()
    return time.perf_counter() - start, out


def _summarise(times):
    best = min(times)
    return statistics.median(times) if best > LONG_STEP_SECONDS else best


def _score(case, estimator, X_test, y_test):
    if case.score is not None:
        return float(case.score(estimator, X_test, y_test))
    return float(estimator.score(X_test, y_test))


def _warm_up(case, data):
    """Fit both libraries on a small slice; return our compile-inclusive time. Data
    that a 300-row slice cannot fit (e.g. QDA with a class of fewer rows than
    features there) are warmed up on every row instead."""
    try:
        return _warm_up_on(case, _slice(data, 300))
    except ValueError:
        return _warm_up_on(case, data)


def _warm_up_on(case, data):
    X_train, y_train, X_test, y_test = data
    seconds = 0.0
    for make in (case.ours, case.theirs):
        start = time.perf_counter()
        est = make().fit(X_train, y_train, **case.fit_kwargs)
        for method in case.methods:
            getattr(est, method)(X_test)
        if make is case.ours:
            seconds = time.perf_counter() - start
    return seconds


def _status_mb(key):
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(key):
                return int(line.split()[1]) / 1024
    raise OSError(f"{key} not in /proc/self/status")


def _peak_memory_mb(make, case, X_train, y_train):
    """Peak resident memory added by one fit, in MB (Linux; None elsewhere).

    Resets the kernel's high-water mark (``/proc/self/clear_refs``), so it
    sees every allocation, numba's and BLAS's included, not only Python's.
    """
    gc.collect()
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        before = _status_mb("VmRSS")
        model = make().fit(X_train, y_train, **case.fit_kwargs)
        peak = _status_mb("VmHWM")
    except OSError:
        return None
    del model
    return max(peak - before, 0.0)


def run_case(family, case, *, quick=False, repeats=None, memory=False):
    """Measure one case; never raises (errors are recorded in the result)."""
    result = CaseResult(name=case.name, family=family)
    try:
        data = case.data(quick)
        X_train, y_train, X_test, y_test = data
        result.jit_seconds = _warm_up(case, data)
        configs = _thread_configs()
        makers = {"ours": case.ours, "theirs": case.theirs}
        n_repeats = repeats or (1 if quick else case.repeats)
        fit_times = {(lib, c): [] for lib in makers for c in LIBRARY_CONFIGS[lib]}
        fitted = {}
        for _ in range(n_repeats):
            for lib, config in fit_times:
                for _ in range(1 if quick else _calls_per_repeat(lib)):
                    _settle(quick)
                    with configs[config]():
                        seconds, fitted[lib, config] = _timed(
                            partial(_fit, makers[lib], case, X_train, y_train)
                        )
                    fit_times[lib, config].append(seconds)
        result.steps.append(_step_result("fit", fit_times, case.goals))
        for method in case.methods:
            times = {key: [] for key in fit_times}
            for _ in range(n_repeats):
                for key in times:
                    for _ in range(1 if quick else _calls_per_repeat(key[0])):
                        _settle(quick)
                        with configs[key[1]]():
                            seconds, _ = _timed(partial(getattr(fitted[key], method),
                                                        X_test))
                        times[key].append(seconds)
            result.steps.append(_step_result(method, times, case.goals))
        result.our_score = _score(case, fitted["ours", "default"], X_test, y_test)
        result.their_score = _score(case, fitted["theirs", "default"], X_test, y_test)
        tolerance = max(case.score_tol, QUICK_SCORE_TOL) if quick else case.score_tol
        result.scores_agree = bool(
            result.our_score >= result.their_score - tolerance
        )
        if memory:
            result.our_peak_mb = _peak_memory_mb(case.ours, case, X_train, y_train)
            result.their_peak_mb = _peak_memory_mb(case.theirs, case, X_train, y_train)
    except Exception as exc:  # a broken case is reported, not fatal
        result.error = f"{type(exc).__name__}: {exc}"
    return result


def _fit(make, case, X_train, y_train):
    return make().fit(X_train, y_train, **case.fit_kwargs)


def _step_result(step, times, goals):
    """Each library at its faster thread configuration of :data:`LIBRARY_CONFIGS`."""
    best = {
        lib: min(LIBRARY_CONFIGS[lib], key=lambda c, lib=lib: _summarise(times[lib, c]))
        for lib in ("ours", "theirs")
    }
    return StepResult(
        step,
        _summarise(times["ours", best["ours"]]),
        _summarise(times["theirs", best["theirs"]]),
        f"{best['ours']} / {best['theirs']}",
        goals.get(step),
    )


def environment_lines(command, baseline=True, equal_draws=False):
    """Markdown lines describing the machine, the versions and the command (and,
    with ``baseline``, how scikit-learn's time is taken)."""
    import numba
    import scipy
    import sklearn

    import classiclearn

    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(line.split(":", 1)[1].strip() for line in f if "model name" in line)
    except (OSError, StopIteration):
        pass
    lines = [
        f"- command: `{command}`",
        f"- date: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}",
        f"- machine: {cpu}, {os.cpu_count()} cores, {platform.system()} {platform.release()}",
        f"- versions: Python {platform.python_version()}, numpy {np.__version__}, "
        f"scipy {scipy.__version__}, numba {numba.__version__}, scikit-learn "
        f"{sklearn.__version__}, classiclearn {classiclearn.__version__}",
        "- ours: default threading; scikit-learn: the faster of two thread configurations "
        "measured in the same run, default threading and BLAS limited to one thread (column "
        "`threads`, ours / scikit-learn); "
        + ("both timed equally often (ours twice per repeat); " if equal_draws else "")
        + "a 0.15 s pause before each timed call (not in --quick runs); ratio = ours / "
        "scikit-learn (< 1 is faster)",
    ]
    return lines if baseline else lines[:-1]


def emit_table(lines, out=None):
    """Print the markdown ``lines`` and, with ``out``, write them to that file."""
    text = "\n".join(lines) + "\n"
    print(text)
    if out:
        with open(out, "w") as f:
            f.write(text)
    return 0


def format_table(results):
    """A markdown table with one row per (case, step)."""
    header = (
        "| case | step | ours (s) | scikit-learn (s) | threads | ratio | goal | "
        "score ours | score sklearn | JIT warm-up (s) | peak MB ours / sk |"
    )
    lines = [header, "|" + "---|" * 11]
    for r in results:
        if r.error:
            lines.append(f"| {r.name} | ERROR | {r.error} |" + " |" * 8)
            continue
        memory = (
            f"{r.our_peak_mb:.0f} / {r.their_peak_mb:.0f}"
            if r.our_peak_mb is not None and r.their_peak_mb is not None
            else ""
        )
        for i, s in enumerate(r.steps):
            goal = "" if s.goal is None else f"<= {s.goal:g}" + (" ok" if s.ratio <= s.goal else " MISSED")
            flag = "" if r.scores_agree else " (differs)"
            lines.append(
                f"| {r.name if i == 0 else ''} | {s.step} | {s.ours:.4f} | {s.theirs:.4f} | "
                f"{s.configs} | {s.ratio:.2f} | {goal} | "
                f"{(f'{r.our_score:.4f}' + flag) if i == 0 else ''} | "
                f"{f'{r.their_score:.4f}' if i == 0 else ''} | "
                f"{f'{r.jit_seconds:.2f}' if i == 0 else ''} | {memory if i == 0 else ''} |"
            )
    return "\n".join(lines)
