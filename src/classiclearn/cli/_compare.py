"""``classiclearn compare``: repeated (stratified) k-fold of every applicable model.

Every model sees the same folds (so the paired test is valid), fits its whole
pipeline on the training rows of each fold (imputation and encoding included,
so nothing leaks from the test rows), and is timed for ``fit`` and ``predict``.
The summary uses the corrected resampled t-test of :mod:`._stats`. With
``tune=True`` (``--tune``) each model with a grid is a :class:`._tune.TunedModel`:
nested cross-validation, the search confined to each outer training set.
"""

import time

import numpy as np

from . import _runner
from ._errors import CLIError
from ._models import build_pipeline
from ._prep import _categorical
from ._scoring import BOUNDS
from ._stats import corrected_interval, summarise

__all__ = ["make_splits", "run_compare"]


def make_splits(y, k, repeats, seed, task):
    """The list of (train, test) index pairs shared by every model."""
    n = len(y)
    if k < 2:
        raise CLIError(f"--cv must be at least 2, got {k}")
    if repeats < 1:
        raise CLIError(f"--repeats must be at least 1, got {repeats}")
    if k > n:
        raise CLIError(f"--cv {k} is more folds than the {n} rows of data")
    stratified = task == "classification"
    if stratified:
        _, counts = np.unique(np.asarray(y, dtype=str), return_counts=True)
        if counts.min() < k:
            raise CLIError(
                f"the smallest class has {counts.min()} rows, fewer than --cv {k} folds; "
                f"use --cv {max(2, int(counts.min()))} or less"
            )
    from ..model_selection import RepeatedKFold, RepeatedStratifiedKFold

    cls = RepeatedStratifiedKFold if stratified else RepeatedKFold
    splitter = cls(n_splits=k, n_repeats=repeats, random_state=seed)
    X_dummy = np.zeros((n, 1))
    return [(np.asarray(tr), np.asarray(te)) for tr, te in splitter.split(X_dummy, y)]


def _progress(enabled, total):
    if not enabled:
        return None
    try:
        import rich  # noqa: F401
    except ImportError:  # rich is in the cli extra: no bar without it
        return None
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
    )

    console = Console(stderr=True)
    if not console.is_terminal:
        return None
    progress = Progress(
        TextColumn("[bold]compare[/bold] {task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=True,
    )
    progress.start()
    progress.add_task("", total=total)
    return progress


def run_compare(
    ds, models, *, k, repeats, scorings, seed, jobs=1, show_progress=True, warmup=True,
    tune=False,
):
    """Cross-validate every model on the same folds and summarise.

    Parameters
    ----------
    ds : Dataset
    models : list of (name, class)
    k, repeats : int
    scorings : list of str
        The first one ranks the models.
    seed : int
    jobs : int, default=1
        Worker processes (one task per group of models that share kernels).
    show_progress : bool
        A rich progress bar on stderr (only when stderr is a terminal).
    warmup : bool, default=True
        With ``jobs=1``: compile the kernels of later models in a helper
        process meanwhile (on two or more cores; see :mod:`._schedule`).
        The results are the same either way.
    tune : bool, default=False
        Nested cross-validation: every model with a grid in
        :data:`._tune.TUNING_GRIDS` is tuned by an inner grid search on each
        outer training set (see :mod:`._tune`).

    Returns
    -------
    dict
        JSON-ready result (see ``classiclearn compare --json``), plus the
        private key ``"_oof"``: out-of-fold predictions of the first repeat.
    """
    start = time.perf_counter()
    y = ds.y
    classes = list(ds.classes)
    if ds.task == "classification":
        # fit on class indices 0..K-1 (the labels are mapped back for display)
        index = {c: i for i, c in enumerate(ds.classes)}
        y = np.array([index[v] for v in ds.y], dtype=np.intp)
        classes = list(range(len(ds.classes)))
    splits = make_splits(y, k, repeats, seed, ds.task)
    pipelines = {}
    for name, cls in models:
        pipelines[name] = build_pipeline(name, cls, ds.X, seed=seed)
        if tune:
            from ._tune import wrap_for_tuning

            pipelines[name] = wrap_for_tuning(
                name,
                pipelines[name],
                scoring=scorings[0],
                classes=classes if ds.task == "classification" else None,
                seed=seed,
            )
    results = {name: [] for name in pipelines}
    progress = _progress(show_progress, len(pipelines) * len(splits))
    try:
        if jobs == 1:
            _run_serial(pipelines, ds.X, y, splits, scorings, classes, results, progress, warmup)
        else:
            _run_parallel(pipelines, ds.X, y, splits, scorings, classes, jobs, results, progress)
    finally:
        if progress is not None:
            progress.stop()
    out = _assemble(ds, splits, k, repeats, seed, scorings, results, start)
    if tune:
        _add_tuning(out, results)
    return out


def _add_tuning(out, results):
    """The grids and, per tuned model, the setting chosen in each outer fold."""
    from ._grids import INNER_CV, TUNING_GRIDS, describe_grids

    for entry in out["models"]:
        name = entry["model"]
        entry["tuned"] = name in TUNING_GRIDS
        entry["chosen_params"] = (
            [_jsonable_params(r["params"]) for r in results[name]] if entry["tuned"] else None
        )
    out["tune"] = {
        "method": "nested cross-validation: grid search by inner stratified (classification) "
        "or plain k-fold on each outer training set, refit on it, scored on the outer test set",
        "inner_cv": INNER_CV,
        "grids": {
            e["model"]: describe_grids([e["model"]]).split(": ", 1)[1] for e in out["models"]
        },
    }


def _jsonable_params(params):
    if params is None:
        return None
    out = {}
    for key, value in params.items():
        if isinstance(value, np.generic):
            value = value.item()
        out[key] = value if value is None or isinstance(value, bool | int | float | str) else str(
            value
        )
    return out


def _run_serial(pipelines, X, y, splits, scorings, classes, results, progress, warmup):
    """Every fold of every model in this process.

    With ``warmup``, a helper process compiles the kernels of the models this
    process reaches last, meanwhile (:mod:`._schedule`); it computes nothing
    that is reported.
    """
    from ._schedule import WARM_PROBE, WarmUp, order_models, warmup_useful

    names = order_models(list(pipelines))  # cheap to compile first
    helper = None
    if warmup and warmup_useful(names):
        names = names[::-1]  # costly first here, the helper starts from the cheap end
        train, test = splits[0]
        pipes = [pipelines[n] for n in names]
        helper = WarmUp(pipes, X, y, train, test, scorings, classes)
    finished = False
    try:
        for i, name in enumerate(names):
            if progress is not None:
                progress.update(progress.task_ids[0], description=name)
            if helper is not None:
                helper.claim(i)
            pipe = pipelines[name]
            for j, (train, test) in enumerate(splits):
                cpu = time.process_time()
                results[name].append(_runner.run_one(pipe, X, y, train, test, scorings, classes))
                if helper is not None and i == j == 0 and time.process_time() - cpu < WARM_PROBE:
                    # the costliest model loaded its kernels from the cache: nothing
                    # to compile, so the helper would only take CPU from this process
                    helper.close(abort=True)
                    helper = None
                if progress is not None:
                    progress.update(progress.task_ids[0], advance=1)
        finished = True
    finally:
        if helper is not None:
            helper.close(abort=not finished)  # Ctrl-C or an error: stop it at once


def _run_parallel(pipelines, X, y, splits, scorings, classes, jobs, results, progress):
    """One task per group of models sharing kernels, costliest first, over ``jobs`` processes."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, as_completed

    from ._schedule import pool_tasks

    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
        futures = {}
        for names in pool_tasks(list(pipelines)):
            args = [
                (pipelines[name], X, y, tr, te, scorings, classes)
                for name in names
                for tr, te in splits
            ]
            futures[pool.submit(_runner.run_many, args)] = names
        for future in as_completed(futures):
            names = futures[future]
            runs = future.result()
            for j, name in enumerate(names):
                results[name] = runs[j * len(splits) : (j + 1) * len(splits)]
            if progress is not None:
                progress.update(
                    progress.task_ids[0], advance=len(runs), description=", ".join(names)
                )


def _assemble(ds, splits, k, repeats, seed, scorings, results, start):
    n_train = float(np.mean([len(tr) for tr, _ in splits]))
    n_test = float(np.mean([len(te) for _, te in splits]))
    ratio = n_test / n_train
    primary = scorings[0]
    per_model = {}
    for name, runs in results.items():
        errors = [r["error"] for r in runs if r["error"]]
        scores = {s: [r["scores"][s] if r["scores"] else np.nan for r in runs] for s in scorings}
        per_model[name] = {
            "scores": scores,
            # the median: the first fold of a cold run also compiles the model's kernels
            "fit_time": float(np.nanmedian([r["fit_time"] for r in runs])) if not errors else None,
            "predict_time": (
                float(np.nanmedian([r["predict_time"] for r in runs])) if not errors else None
            ),
            "error": errors[0] if errors else None,
            "n_warnings": int(sum(r["n_warnings"] for r in runs)),
        }
    rows = summarise(
        {name: m["scores"][primary] for name, m in per_model.items()},
        ratio,
        alpha=0.05,
        bounds=BOUNDS.get(primary),
    )
    table = []
    for row in rows:
        m = per_model[row["model"]]
        entry = {
            "model": row["model"],
            "rank": row["rank"],
            "mean": _num(row["mean"]),
            "std": _num(row["std"]),
            "ci95_low": _num(row["ci_low"]),
            "ci95_high": _num(row["ci_high"]),
            "p_vs_best": _num(row["p_vs_best"]),
            "worse_than_best": row["worse_than_best"],
            "fit_time_s": _num(m["fit_time"]),
            "predict_time_s": _num(m["predict_time"]),
            "means": {s: _num(np.mean(v)) for s, v in m["scores"].items()},
            "ci95": {s: _interval(v, ratio, s) for s, v in m["scores"].items()},
            "scores": {s: [_num(x) for x in v] for s, v in m["scores"].items()},
            "n_warnings": m["n_warnings"],
            "error": m["error"],
        }
        if m["error"] is None and entry["mean"] is None:
            entry["error"] = "no score: NaN predictions (e.g. no neighbour in the radius)"
        if entry["error"] is not None:
            entry["mean"] = entry["std"] = entry["ci95_low"] = entry["ci95_high"] = None
        table.append(entry)
    best = next((e["model"] for e in table if e["rank"] == 1), None)
    oof = {}
    first_repeat = splits[:k]
    for name, runs in results.items():
        if any(r["pred"] is None for r in runs[:k]):
            continue
        pred = np.empty(len(ds.y), dtype=runs[0]["pred"].dtype)
        for (_, test), r in zip(first_repeat, runs[:k]):
            pred[test] = r["pred"]
        if ds.task == "classification":
            labels = np.asarray(ds.classes, dtype=object)
            pred = labels[np.clip(pred.astype(np.intp), 0, len(labels) - 1)]
        oof[name] = pred
    n_cat = int(sum(1 for c in ds.X.columns if _categorical(ds.X[c])))
    from .. import __version__

    return {
        "classiclearn_version": __version__,
        "data": {
            "source": ds.source,
            "target": ds.target,
            "task": ds.task,
            "n_samples": int(len(ds.y)),
            "n_features": int(ds.X.shape[1]),
            "n_categorical": n_cat,
            "n_missing_values": int(ds.X.isna().to_numpy().sum()),
            "classes": [c if isinstance(c, str) else int(c) for c in ds.classes],
        },
        "cv": {
            "method": (
                "repeated stratified k-fold" if ds.task == "classification" else "repeated k-fold"
            ),
            "k": k,
            "repeats": repeats,
            "n_scores": len(splits),
            "seed": seed,
            "test_train_ratio": ratio,
        },
        "scoring": scorings,
        "test": "corrected resampled t-test (Nadeau and Bengio 2003), two-sided, alpha=0.05",
        "best": best,
        "models": table,
        "notes": list(ds.notes),
        "elapsed_s": time.perf_counter() - start,
        "_oof": oof,
    }


def _interval(scores, ratio, scoring):
    """The corrected 95% interval of one scoring (the same test as the ranking one)."""
    s = np.asarray(scores, dtype=np.float64)
    if s.size < 2 or not np.all(np.isfinite(s)):
        return None
    lo, hi = corrected_interval(s, ratio)
    bounds = BOUNDS.get(scoring, (-np.inf, np.inf))
    return [_num(max(lo, bounds[0])), _num(min(hi, bounds[1]))]


def _num(x):
    if x is None:
        return None
    x = float(x)
    return x if np.isfinite(x) else None
