"""The benchmark grid (issue 18): every registered estimator over sizes, widths and settings.

A cell is one estimator at one size (training rows), one number of features,
one number of classes and one set of parameter values; each cell becomes a
:class:`benchmarks._case.Case` timed by :func:`benchmarks._runner.run_case`
(ours / scikit-learn in the same process, each library at its faster thread
configuration, scores compared). The cells come from the declarative tables
in :mod:`benchmarks.grid_specs`; this module expands and runs them and
summarises the ratios per estimator.

Usage::

    python -m benchmarks --grid [--grid-sizes 500,5k] [--grid-features 10] [--family F] [--out FILE] [NAME ...]
"""

import itertools
import statistics
import sys
from collections.abc import Callable
from dataclasses import dataclass, field

from benchmarks import _grid_data
from benchmarks._case import Case
from benchmarks._runner import run_case

# training rows of each size step (labels as printed)
SIZES = {"500": 500, "5k": 5_000, "50k": 50_000, "200k": 200_000}
# quadratic-or-worse estimators (kernel matrices) stop at this many rows
QUADRATIC_MAX_ROWS = 20_000
# timed repeats per step at each size (the best is kept; fewer for big data)
REPEATS = {500: 5, 5_000: 3, 50_000: 2, 200_000: 1}


@dataclass
class Spec:
    """How one registered estimator is measured over the grid.

    Parameters
    ----------
    name : str
        The registered name (``classiclearn.all_estimators()``).
    data : str
        Kind of data, a key of :data:`benchmarks._grid_data.KINDS`.
    methods : tuple of str
        Methods timed after ``fit`` on the test rows.
    axes : dict
        Parameter name -> values; the cells take every combination.
    fixed : dict
        Parameters given to both libraries in every cell.
    ours_only : tuple of str
        Axes scikit-learn lacks: its twin runs without them (e.g. ``max_bins``:
        our histogram trees against scikit-learn's exact trees).
    features, classes : tuple of int
        Widths and numbers of classes (classes only matter for labelled data).
    max_rows : int or None
        Largest size measured (quadratic estimators).
    skip : callable(params, n_features, classes) -> bool, optional
        Drops invalid combinations (e.g. more components than features).
    build : callable(cls, get, params) -> estimator, optional
        Builds an estimator from its class, ``get(name)`` (the same library's
        class of that name) and the parameters; default ``cls(**params)``.
    score : callable(estimator, X_test, y_test) -> float, optional
        Default ``estimator.score``.
    score_tol : float
        Allowed score shortfall of ours.
    flips : int
        Test rows whose predicted class may differ (accuracy scores): the
        tolerance is at least ``flips / n_test``.
    max_repeats : int
        Caps :data:`REPEATS` (slow estimators).
    goals : callable(params) -> dict, optional
        Headline goals of the family issues; every other step's goal is 1.0.
    """

    name: str
    data: str = "classification"
    methods: tuple = ("predict",)
    axes: dict = field(default_factory=dict)
    fixed: dict = field(default_factory=dict)
    ours_only: tuple = ()
    features: tuple = (10, 100)
    classes: tuple = (2,)
    max_rows: int | None = None
    skip: Callable | None = None
    build: Callable | None = None
    score: Callable | None = None
    score_tol: float = 1e-3
    flips: int = 1
    max_repeats: int = 5
    goals: Callable | None = None


class FromData:
    """A parameter value computed from the cell's data (e.g. a radius)."""

    def __init__(self, label, compute):
        self.label = label
        self.compute = compute

    def __repr__(self):
        return self.label


LABELLED = {"classification", "counts", "categorical"}


@dataclass
class Cell:
    """One point of the grid."""

    spec: Spec
    family: str
    size: str
    n_features: int
    classes: int
    params: dict
    rows: int | None = None  # training rows when not one of SIZES (overhead benchmark)
    n_test: int | None = None  # test rows; default max(n_rows // 5, 100)

    @property
    def n_rows(self):
        return self.rows if self.rows is not None else SIZES[self.size]

    def describe(self):
        """The cell without the estimator name: size, width, classes, parameters."""
        text = f"{self.size}x{self.n_features}"
        if self.spec.data in LABELLED and len(self.spec.classes) > 1:
            text += f" {self.classes} classes"
        if self.params:
            text += " " + " ".join(f"{k}={_short(v)}" for k, v in self.params.items())
        return text

    @property
    def name(self):
        return f"{self.spec.name} {self.describe()}"

    def data(self, quick=False):
        return _grid_data.make(self.spec.data, self.n_rows, self.n_features, self.classes,
                               n_test=self.n_test, quick=quick)

    def resolved_params(self, quick=False):
        """The parameters with data-derived values computed."""
        params = dict(self.spec.fixed)
        for key, value in self.params.items():
            if isinstance(value, FromData):
                X_train, _, X_test, _ = self.data(quick)
                value = value.compute(X_train, X_test, self.params)
            params[key] = value
        return params

    def case(self, registry, quick=False):
        """The runner's Case of this cell."""
        spec = self.spec
        ours_cls, theirs_cls = registry.ours(spec.name), registry.theirs(spec.name)
        build = spec.build or (lambda cls, get, params: cls(**params))
        # data-derived values (a radius) computed once here, not inside the timed
        # constructors: a timed fit must not include making the data
        resolved = self.resolved_params(quick)

        def ours():
            return build(ours_cls, registry.ours, dict(resolved))

        def theirs():
            params = {k: v for k, v in resolved.items() if k not in spec.ours_only}
            return build(theirs_cls, registry.theirs, params)

        n_test = self.n_test or max(
            min(self.n_rows, _grid_data.QUICK_MAX_ROWS if quick else self.n_rows) // 5, 100)
        tol = spec.score_tol
        if spec.score is None and spec.data in LABELLED:
            tol = max(tol, spec.flips / n_test)
        goals = {step: 1.0 for step in ("fit", *spec.methods)}
        if spec.goals is not None:
            goals.update(spec.goals(self.params))
        return Case(
            name=self.name, data=lambda q: self.data(q), ours=ours, theirs=theirs,
            methods=spec.methods, score=spec.score, score_tol=tol, goals=goals,
            repeats=min(REPEATS.get(self.n_rows, 5), spec.max_repeats),
        )


def _short(value):
    if callable(value) and hasattr(value, "__name__"):
        return value.__name__
    return repr(value) if isinstance(value, str) else str(value)


class Registry:
    """Our registered estimators and their scikit-learn twins, by our name."""

    def __init__(self):
        import sklearn.utils

        from benchmarks.grid_specs import TWIN_NAMES
        from classiclearn import all_estimators

        self._ours = dict(all_estimators())
        self._sklearn = dict(sklearn.utils.all_estimators())
        self._twin_names = TWIN_NAMES

    def names(self):
        return sorted(self._ours)

    def family(self, name):
        return self._ours[name].__module__.split(".")[1]

    def ours(self, name):
        return self._ours[name]

    def has_twin(self, name):
        return self._twin_names.get(name, name) in self._sklearn

    def theirs(self, name):
        return self._sklearn[self._twin_names.get(name, name)]


def build_cells(specs, registry, sizes=tuple(SIZES), families=None, names=None):
    """Every cell of ``specs`` at ``sizes``, filtered by family and name substrings."""
    cells = []
    for spec in specs:
        family = registry.family(spec.name)
        if families and family not in families:
            continue
        for size, n_features in itertools.product(sizes, spec.features):
            limit = spec.max_rows or float("inf")
            if SIZES[size] > limit:
                continue
            classes = spec.classes if spec.data in LABELLED else spec.classes[:1]
            for k in classes:
                for values in itertools.product(*spec.axes.values()):
                    params = dict(zip(spec.axes, values, strict=True))
                    if spec.skip is not None and spec.skip(params, n_features, k):
                        continue
                    cell = Cell(spec, family, size, n_features, k, params)
                    if names and not any(n.lower() in cell.name.lower() for n in names):
                        continue
                    cells.append(cell)
    return cells


def run_cells(cells, registry, *, quick=False, repeats=None, log=sys.stderr, progress=None):
    """Run every cell; returns a list of (cell, CaseResult).

    ``progress(results_so_far)``, when given, is called after every cell (the
    command line rewrites its tables so that a long run leaves partial ones).
    """
    out = []
    for i, cell in enumerate(cells, 1):
        print(f"[{i}/{len(cells)}] {cell.name} ...", file=log, flush=True)
        result = run_case(cell.family, cell.case(registry, quick), quick=quick, repeats=repeats)
        out.append((cell, result))
        if progress is not None:
            progress(out)
    return out


@dataclass
class Summary:
    """The ratios of one estimator over its cells."""

    name: str
    cells: int
    errors: int
    disagreements: int
    ratios: list
    worst: tuple | None  # (ratio, step, cell)
    above_one: int

    @property
    def median(self):
        return statistics.median(self.ratios) if self.ratios else float("nan")

    def line(self):
        head = f"{self.name}: {self.cells} cells"
        if self.worst is None:
            return head + f", no timing ({self.errors} errors)"
        ratio, step, cell = self.worst
        text = (f"{head}, worst {ratio:.2f} ({step}, {cell.describe()}), "
                f"median {self.median:.2f}, {self.above_one} steps > 1.0")
        if self.errors or self.disagreements:
            text += f", {self.errors} errors, {self.disagreements} score disagreements"
        return text


def summarise(results):
    """One :class:`Summary` per estimator, in the order first met."""
    by_name = {}
    for cell, result in results:
        by_name.setdefault(cell.spec.name, []).append((cell, result))
    summaries = []
    for name, items in by_name.items():
        steps = [(s.ratio, s.step, cell) for cell, r in items if not r.error for s in r.steps]
        summaries.append(Summary(
            name=name, cells=len(items),
            errors=sum(1 for _, r in items if r.error),
            disagreements=sum(1 for _, r in items if not r.error and not r.scores_agree),
            ratios=[s[0] for s in steps],
            worst=max(steps, key=lambda s: s[0]) if steps else None,
            above_one=sum(1 for s in steps if s[0] > 1.0),
        ))
    return summaries


def summary_table(summaries, no_twin):
    """Markdown: one row per estimator, then the estimators without a twin."""
    lines = ["| estimator | cells | worst ratio | worst step | worst cell | median ratio | "
             "steps > 1.0 | errors | score disagreements |", "|" + "---|" * 9]
    for s in summaries:
        if s.worst is None:
            lines.append(f"| {s.name} | {s.cells} | | | | | | {s.errors} | |")
            continue
        ratio, step, cell = s.worst
        lines.append(f"| {s.name} | {s.cells} | {ratio:.2f} | {step} | {cell.describe()} | "
                     f"{s.median:.2f} | {s.above_one} | {s.errors} | {s.disagreements} |")
    if no_twin:
        lines += ["", "Registered estimators without a scikit-learn twin (not in the grid): "
                  + ", ".join(f"`{n}` ({why})" for n, why in sorted(no_twin.items())) + "."]
    return "\n".join(lines)


def worst_steps(results, limit=40):
    """Markdown: the ``limit`` slowest (cell, step) ratios, worst first."""
    steps = sorted(((s.ratio, s, cell) for cell, r in results if not r.error for s in r.steps),
                   key=lambda t: -t[0])[:limit]
    lines = [f"Worst {len(steps)} steps:", "",
             "| estimator | cell | step | ours (s) | scikit-learn (s) | threads | ratio |",
             "|" + "---|" * 7]
    for ratio, s, cell in steps:
        lines.append(f"| {cell.spec.name} | {cell.describe()} | {s.step} | {s.ours:.4f} | "
                     f"{s.theirs:.4f} | {s.configs} | {ratio:.2f} |")
    return "\n".join(lines)


def problems(results):
    """Lines naming every errored cell and every score disagreement."""
    lines = []
    for cell, r in results:
        if r.error:
            lines.append(f"- ERROR in {cell.name}: {r.error}")
        elif not r.scores_agree:
            lines.append(f"- SCORES DIFFER in {cell.name}: ours {r.our_score:.4f} vs "
                         f"scikit-learn {r.their_score:.4f}")
    return lines


@dataclass
class ParsedCell:
    """A cell read back from a per-cell table (its spec found by name prefix)."""

    spec: Spec
    name: str

    def describe(self):
        return self.name[len(self.spec.name):].strip()


@dataclass
class ParsedStep:
    """A step read back from a per-cell table; the ratio is the printed one (the
    times are printed to 0.1 ms, too coarse to recompute it for small cells)."""

    step: str
    ours: float
    theirs: float
    configs: str
    goal: float | None
    ratio: float


def read_cells_table(path, specs):
    """(cell, CaseResult) pairs from a per-cell table written by the grid.

    Lets runs over different sizes or families (or an interrupted run's
    partial table) be summarised together (``--grid-merge``).
    """
    from benchmarks._runner import CaseResult

    by_length = sorted(specs, key=lambda sp: -len(sp.name))
    results, current = [], None
    with open(path) as f:
        rows = [line.rstrip("\n") for line in f if line.startswith("| ")]
    for row in rows[1:]:  # the first is the header
        cols = [c.strip() for c in row.strip("|").split(" | ")]
        name, step = cols[0], cols[1]
        if name:
            spec = next(sp for sp in by_length if name.startswith(sp.name + " "))
            current = (ParsedCell(spec, name), CaseResult(name=name, family=""))
            results.append(current)
        result = current[1]
        if step == "ERROR":
            result.error = cols[2]
            continue
        goal = float(cols[6].split()[1]) if cols[6] else None
        result.steps.append(ParsedStep(step, float(cols[2]), float(cols[3]), cols[4], goal,
                                       float(cols[5])))
        if name:
            result.scores_agree = "(differs)" not in cols[7]
            result.our_score = float(cols[7].split()[0])
            result.their_score = float(cols[8])
    return results


def merge_main(paths, out, command):
    """``python -m benchmarks --grid-merge CELLS.md ...``: one summary of several runs
    (a cell in several files counts once, from the last file)."""
    from benchmarks._runner import environment_lines
    from benchmarks.grid_specs import NO_TWIN, SPECS

    by_name = {}  # a cell measured by several runs: the later file wins
    for path in paths:
        for cell, result in read_cells_table(path, SPECS):
            by_name.pop(cell.name, None)
            by_name[cell.name] = (cell, result)
    results = list(by_name.values())
    summaries = summarise(results)
    text = ("\n".join(environment_lines(command)) + "\n- merged from: "
            + ", ".join(f"`{p}`" for p in paths) + " (each names its own command and date)\n\n"
            + summary_table(summaries, NO_TWIN) + "\n"
            + ("\n" + "\n".join(problems(results)) + "\n" if problems(results) else "")
            + "\n" + worst_steps(results) + "\n")
    if out:
        with open(out, "w") as f:
            f.write(text)
    for summary in summaries:
        print(summary.line())
    return 0


def parse_sizes(text):
    """``"500,5k"`` (labels or row counts) -> size labels."""
    by_rows = {str(v): k for k, v in SIZES.items()}
    labels = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        label = part if part in SIZES else by_rows.get(part.replace("_", ""))
        if label is None:
            raise ValueError(f"unknown grid size {part!r}; choose from {', '.join(SIZES)}")
        labels.append(label)
    return tuple(labels)


def main(args, command):
    """``python -m benchmarks --grid``: run, print the summary, write the tables."""
    from benchmarks._runner import environment_lines, format_table
    from benchmarks.grid_specs import NO_TWIN, SPECS

    registry = Registry()
    sizes = parse_sizes(args.grid_sizes) if args.grid_sizes else tuple(SIZES)
    cells = build_cells(SPECS, registry, sizes, args.family, args.names)
    if getattr(args, "grid_features", None):
        wanted = {int(n) for n in args.grid_features.split(",")}
        cells = [c for c in cells if c.n_features in wanted]
    if not cells:
        print("no grid cells matched", file=sys.stderr)
        return 1
    # smallest sizes first: an interrupted run still covers every estimator
    cells.sort(key=lambda c: c.n_rows)
    no_twin = {n: why for n, why in NO_TWIN.items() if not args.family
               or registry.family(n) in args.family}
    env = "\n".join(environment_lines(command, equal_draws=True)) + "\n"

    def write(results):
        if not args.out:
            return
        done = "" if len(results) == len(cells) else (
            f"- PARTIAL: {len(results)} of {len(cells)} cells run so far\n")
        trouble = problems(results)
        with open(args.out, "w") as f:
            f.write(env + done + "\n" + summary_table(summarise(results), no_twin) + "\n"
                    + ("\n" + "\n".join(trouble) + "\n" if trouble else "")
                    + "\n" + worst_steps(results) + "\n")
        with open(args.cells_out or _cells_path(args.out), "w") as f:
            f.write(env + done + "\n" + format_table([r for _, r in results]) + "\n")

    results = run_cells(cells, registry, quick=args.quick, repeats=args.repeats,
                        progress=lambda out: write(out) if len(out) % 10 == 0 else None)
    write(results)
    for s in summarise(results):
        print(s.line())
    for line in problems(results):
        print(line, file=sys.stderr)
    if args.out:
        print(f"wrote {args.out} and {args.cells_out or _cells_path(args.out)}",
              file=sys.stderr)
    return 1 if any(r.error for _, r in results) else 0


def _cells_path(out):
    """The per-cell table beside the summary, in a ``full/`` folder that
    ``benchmarks.collect`` does not gather into RESULTS.md."""
    import pathlib

    path = pathlib.Path(out)
    (path.parent / "full").mkdir(exist_ok=True)
    return str(path.parent / "full" / f"{path.stem}_cells.md")
