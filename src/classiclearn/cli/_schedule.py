"""In which order ``classiclearn compare`` runs its models, and the warm-up helper process.

A cold run (fresh numba cache) spends most of its time compiling kernels, and
numba compiles on one thread. On a machine with a second core, ``compare``
therefore starts one helper process that *compiles* the kernels of the models
the main process will reach last: it runs each model's first fold once and
throws the result away, which leaves the compiled kernels in numba's on-disk
cache; when the main process reaches that model it loads them instead of
compiling. Every fit, prediction, score and time that ``compare`` reports is
still computed in the main process, in the same way as without the helper, so
the results are identical (``--no-warmup`` turns the helper off).

Without the helper the main process runs the models in :func:`order_models`'s
order, cheap to compile first, so that progress shows early. With it, the main
process takes the models from the costly end of that list and the helper from
the cheap end, each claiming a model in a shared status array before touching
it; they meet in the middle, so the work splits itself whatever the real costs
turn out to be. Once they meet, the main process still has to fit the models
the helper warmed: starting from the costly end leaves it the cheap fits, not
the forests'. On a warm run the main process's first fold shows it (it takes
well under ``WARM_PROBE`` seconds of CPU) and the helper is stopped at once,
usually before it has finished starting. A model the helper is still compiling when the main process
reaches it is waited for, never compiled twice; if the helper dies, the main
process simply compiles what is left. ``CLASSICLEARN_NO_WARMUP=1`` in the
environment turns the helper off as ``--no-warmup`` does.
"""

import contextlib
import os
import signal
import time
import warnings

__all__ = [
    "COMPILE_COST",
    "KERNEL_GROUP",
    "WARM_PROBE",
    "WarmUp",
    "order_models",
    "pool_tasks",
]

# Rough cold compile cost of each model's own kernels, in CPU seconds (measured
# on iris with a fresh numba cache, each model alone; the StandardScaler kernels
# shared by most pipelines are not counted; the tree models share one builder).
# Only the order matters; a model not listed (a family added later) counts as
# _UNKNOWN_COST.
COMPILE_COST = {
    "LeastSquaresClassifier": 0.1,
    "LinearRegression": 0.1,
    "BernoulliNB": 0.4,
    "MultinomialNB": 0.4,
    "ComplementNB": 0.4,
    "CategoricalNB": 0.9,
    "Perceptron": 0.6,
    "LogisticRegression": 0.8,
    "LinearSVC": 1.2,
    "LinearDiscriminantAnalysis": 1.5,
    "KNeighborsClassifier": 1.7,
    "KNeighborsRegressor": 1.7,
    "QuadraticDiscriminantAnalysis": 2.4,
    "KernelDensityNB": 2.8,
    "RadiusNeighborsClassifier": 6.0,
    "RadiusNeighborsRegressor": 6.0,
    "GaussianNB": 5.0,
    "SVC": 25.0,
    "SVR": 25.0,
    "ExtraTreesClassifier": 38.0,
    "ExtraTreesRegressor": 38.0,
    "DecisionTreeClassifier": 35.0,
    "DecisionTreeRegressor": 35.0,
    "RandomForestClassifier": 38.0,
    "RandomForestRegressor": 38.0,
}
_UNKNOWN_COST = 3.0
_MIN_HANDOVER = 3.0
# CPU seconds: if the main process's first fold (of the costliest model) takes
# less, the kernels came from the cache (a warm run) and the helper is stopped.
WARM_PROBE = 3.0

# Models that share most of their kernels: kept next to each other in the order
# (so one process compiles them) and given to one worker together with --jobs N.
KERNEL_GROUP = {
    "DecisionTreeClassifier": "tree",
    "RandomForestClassifier": "tree",
    "ExtraTreesClassifier": "tree",
    "DecisionTreeRegressor": "tree-regression",
    "RandomForestRegressor": "tree-regression",
    "ExtraTreesRegressor": "tree-regression",
    "KNeighborsClassifier": "neighbors",
    "RadiusNeighborsClassifier": "neighbors",
    "KNeighborsRegressor": "neighbors-regression",
    "RadiusNeighborsRegressor": "neighbors-regression",
    "BernoulliNB": "count-nb",
    "MultinomialNB": "count-nb",
    "ComplementNB": "count-nb",
}

# claim states of one model in the shared status array
FREE, MAIN, HELPER, WARM = 0, 1, 2, 3


def _cost(name):
    return COMPILE_COST.get(name, _UNKNOWN_COST)


def _groups(names):
    """Names grouped by shared kernels: list of (total cost, names), in first-seen order."""
    groups = {}
    for name in names:
        groups.setdefault(KERNEL_GROUP.get(name, name), []).append(name)
    return [(sum(_cost(n) for n in members), members) for members in groups.values()]


def order_models(names):
    """The order the main process runs models in: cheap to compile first, groups together.

    Examples
    --------
    >>> order_models(["SVC", "RandomForestClassifier", "GaussianNB", "DecisionTreeClassifier"])
    ['GaussianNB', 'SVC', 'RandomForestClassifier', 'DecisionTreeClassifier']
    """
    out = []
    for _, members in sorted(_groups(names), key=lambda g: g[0]):  # stable: ties keep order
        out.extend(sorted(members, key=_cost, reverse=True) if len(members) > 1 else members)
    return out


def pool_tasks(names):
    """Lists of names, one per worker task with ``--jobs N``: kernel groups, costliest first.

    Examples
    --------
    >>> pool_tasks(["GaussianNB", "RandomForestClassifier", "DecisionTreeClassifier"])
    [['RandomForestClassifier', 'DecisionTreeClassifier'], ['GaussianNB']]
    """
    ordered = order_models(names)
    return [
        [n for n in ordered if n in members]
        for _, members in sorted(_groups(names), key=lambda g: g[0], reverse=True)
    ]


def _cpu_count():
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def warmup_useful(names):
    """Whether a helper process can help: two or more cores, and compiling to hand over.

    The helper costs an interpreter start and the imports; it starts only if
    the models after the first are expected to compile for at least
    ``_MIN_HANDOVER`` seconds, well above that. ``CLASSICLEARN_NO_WARMUP=1`` in the
    environment turns it off as ``--no-warmup`` does.
    """
    if os.environ.get("CLASSICLEARN_NO_WARMUP"):
        return False
    if len(names) < 2 or _cpu_count() < 2:
        return False
    return sum(_cost(n) for n in names[1:]) >= _MIN_HANDOVER


def _warm_worker(pipelines, X, y, train, test, scorings, classes, status):
    """Helper process: the first fold of each model from the back, until meeting the main one."""
    from ._runner import run_one

    warnings.simplefilter("ignore")
    try:
        for i in reversed(range(len(pipelines))):
            with status.get_lock():
                if status[i] != FREE:
                    return
                status[i] = HELPER
            try:
                run_one(pipelines[i], X, y, train, test, scorings, classes)
            finally:
                status[i] = WARM
    except KeyboardInterrupt:  # pragma: no cover - SIGINT is ignored in the helper
        return


@contextlib.contextmanager
def _sigint_ignored():
    try:
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:  # not the main thread: leave the signals alone
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


class WarmUp:
    """The helper process that compiles the kernels of later models (see the module docstring).

    Parameters
    ----------
    pipelines : list
        Pipelines in the order the main process runs them.
    X, y, train, test, scorings, classes
        The data and the first fold, as for ``_runner.run_one``.

    Use :meth:`claim` before running model ``i`` in the main process and
    :meth:`close` at the end (or use it as a context manager).
    """

    def __init__(self, pipelines, X, y, train, test, scorings, classes):
        import multiprocessing

        context = multiprocessing.get_context("spawn")
        self._status = context.Array("b", len(pipelines))
        self._process = context.Process(
            target=_warm_worker,
            args=(pipelines, X, y, train, test, scorings, classes, self._status),
            daemon=True,
            name="classiclearn-warmup",
        )
        # the helper ignores Ctrl-C (inherited through exec): the main process
        # stops it, so the user sees one clean "interrupted" line
        with _sigint_ignored():
            self._process.start()

    def claim(self, i):
        """Take model ``i`` for the main process; if the helper has it, wait until it is warm.

        Returns
        -------
        bool
            True if the helper compiled this model's kernels.
        """
        with self._status.get_lock():
            if self._status[i] == FREE:
                self._status[i] = MAIN
                return False
        while self._status[i] == HELPER and self._process.is_alive():
            time.sleep(0.02)
        return self._status[i] == WARM

    def close(self, abort=False):
        """Stop the helper: at once if it is not compiling (or ``abort``), else after its model."""
        with self._status.get_lock():
            for i in range(len(self._status)):
                if self._status[i] == FREE:
                    self._status[i] = MAIN
            busy = any(s == HELPER for s in self._status)
        # not busy: still importing, or done; it can claim nothing any more, so it
        # cannot be in the middle of writing to numba's cache (which numba writes to
        # a temporary file and renames, so even an abort leaves the cache sound)
        self._process.join(timeout=30.0 if busy and not abort else 0.0)
        if self._process.is_alive():
            self._process.terminate()
        self._process.join()

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        self.close(abort=exc_type is not None)
        return False
