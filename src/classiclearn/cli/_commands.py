"""The four commands: compare, fit, predict, info."""

import functools
import json
import os
import sys
import tempfile

import numpy as np

from ._data import load_table, prepare
from ._errors import CLIError

__all__ = ["compare", "fit", "info", "predict"]


def _one_line(exc):
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def _dataset(args):
    frame, default_target = load_table(args.data)
    target = args.target or default_target
    return prepare(frame, target, args.task, args.data)


def _check_report_dir(path):
    try:
        import matplotlib  # noqa: F401
    except ImportError as exc:
        raise CLIError("--report needs matplotlib: pip install 'classiclearn[report]'") from exc
    if os.path.exists(path) and not os.path.isdir(path):
        raise CLIError(f"--report {path!r} exists and is not a directory")
    parent = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(parent):
        raise CLIError(f"--report: the directory {parent!r} does not exist")


def compare(args):
    """``classiclearn compare``."""
    from ._compare import run_compare
    from ._models import candidate_models
    from ._scoring import check_scorings

    if args.report:
        _check_report_dir(args.report)
    ds = _dataset(args)
    scorings = check_scorings(args.scoring, ds.task)
    models = candidate_models(ds.task, args.models, X=ds.X)
    pair = getattr(args, "pair", None)
    if pair is not None:
        pair, models = _pair_models(pair, models, ds.task,
                                    functools.partial(candidate_models, X=ds.X))
    if "roc_auc" in scorings and len(ds.classes) != 2:
        raise CLIError("scoring 'roc_auc' needs a binary target")
    result = run_compare(
        ds,
        models,
        k=args.cv,
        repeats=args.repeats,
        scorings=scorings,
        seed=args.seed,
        jobs=args.jobs,
        show_progress=not args.no_progress,
        warmup=not getattr(args, "no_warmup", False),
        tune=getattr(args, "tune", False),
    )
    if pair is not None:
        from ._stats import paired_comparison

        result["pair"] = _pair_result(result, pair, paired_comparison)
    oof = result.pop("_oof")
    if args.report:
        from ._report import write_report

        result["report"] = os.path.join(args.report, "index.html")
        write_report(args.report, ds, result, oof, seed=args.seed)
    if args.json:
        json.dump(result, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        from ._render import print_leaderboard

        print_leaderboard(result)
        if args.report:
            print(f"report: {result['report']}")
    return 0


def _pair_models(pair, models, task, candidate_models):
    """Resolve ``--pair A,B`` to registered names; add them to the models compared."""
    if len(pair) != 2:
        raise CLIError(f"--pair expects two model names A,B, got {','.join(pair)!r}")
    names = [n for n, _ in candidate_models(task, pair)]
    if len(names) != 2:
        raise CLIError(f"--pair names the same model twice ({names[0]})")
    have = {n for n, _ in models}
    extra = [hit for hit in candidate_models(task, names) if hit[0] not in have]
    return names, list(models) + extra


def _pair_result(result, names, paired_comparison):
    """The corrected paired test of A against B on every scoring (the first one is the main)."""
    by_name = {m["model"]: m for m in result["models"]}
    a, b = (by_name[n] for n in names)
    out = {"a": names[0], "b": names[1], "scoring": result["scoring"][0], "by_scoring": {}}
    failed = [m["model"] for m in (a, b) if m["error"] is not None]
    if failed:
        out["error"] = f"{failed[0]} failed: no paired test"
        return out
    ratio = result["cv"]["test_train_ratio"]
    for scoring in result["scoring"]:
        r = paired_comparison(a["scores"][scoring], b["scores"][scoring], ratio)
        out["by_scoring"][scoring] = {k: _finite(v) for k, v in r.items()}
    return out


def _finite(x):
    if isinstance(x, int):
        return x
    x = float(x)
    return x if np.isfinite(x) else None  # JSON has no NaN or infinity


def fit(args):
    """``classiclearn fit``."""
    from .. import __version__
    from ..io import save_model
    from ._models import build_pipeline, find_model, parse_params

    params = parse_params(args.param)
    if os.path.isdir(args.out):
        raise CLIError(f"--out {args.out!r} is a directory")
    out_dir = os.path.dirname(os.path.abspath(args.out))
    if not os.path.isdir(out_dir):
        raise CLIError(f"--out: the directory {out_dir!r} does not exist")
    if getattr(args, "dask", False):
        from ._dask_io import fit_dask

        return fit_dask(args)
    ds = _dataset(args)
    name, cls = find_model(args.model, ds.task)
    pipe = build_pipeline(name, cls, ds.X, seed=args.seed, params=params)
    try:
        import warnings

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            pipe.fit(ds.X, ds.y)
            train_pred = np.asarray(pipe.predict(ds.X))
    except (ValueError, TypeError) as exc:
        raise CLIError(f"{name} could not be fitted: {_one_line(exc)}") from exc
    if ds.task == "classification":
        train_score = ("training accuracy", float(np.mean(train_pred == ds.y)))
    else:
        ss = float(np.sum((ds.y - ds.y.mean()) ** 2))
        train_score = ("training R2", 1.0 - float(np.sum((ds.y - train_pred) ** 2)) / ss)
    metadata = {
        "created_by": f"classiclearn {__version__} fit",
        "source": os.path.basename(args.data) if os.path.exists(args.data) else args.data,
        "target": ds.target,
        "task": ds.task,
        "model": name,
        "params": _jsonable(params),
        "n_samples": int(ds.X.shape[0]),
        "n_columns": int(ds.X.shape[1]),
        "columns": [str(c) for c in ds.X.columns],
        "classes": [c if isinstance(c, str) else int(c) for c in ds.classes],
        train_score[0].replace(" ", "_"): train_score[1],
    }
    save_model(pipe, args.out, metadata=metadata)
    print(
        f"saved {name} to {args.out}: trained on {ds.X.shape[0]} rows x {ds.X.shape[1]} "
        f"columns, target {ds.target!r} ({ds.task}), {train_score[0]} {train_score[1]:.4f}"
    )
    return 0


def _jsonable(params):
    try:
        json.dumps(params, allow_nan=False)
        return params
    except (TypeError, ValueError):
        return {k: repr(v) for k, v in params.items()}


def _write_atomic(text, path):
    if os.path.isdir(path):
        raise CLIError(f"--out {path!r} is a directory")
    directory = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(directory):
        raise CLIError(f"--out: the directory {directory!r} does not exist")
    fd, tmp = tempfile.mkstemp(prefix=".classiclearn-", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.remove(tmp)
        raise


def predict(args):
    """``classiclearn predict``."""
    from ..io import load_model, read_model_info

    model = load_model(args.model)
    meta = read_model_info(args.model).get("metadata", {})
    if getattr(args, "dask", False):
        from ._dask_io import predict_dask

        return predict_dask(args, model, meta)
    frame, _ = load_table(args.data)
    target = meta.get("target")
    if target is not None and target in frame.columns:
        frame = frame.drop(columns=[target])
    columns = meta.get("columns")
    if columns:
        missing = [c for c in columns if c not in frame.columns]
        if missing:
            raise CLIError(f"{args.data!r} lacks the model's input column(s) {missing[:10]}")
        frame = frame[columns]
    import pandas as pd

    try:
        if args.proba:
            if not hasattr(model, "predict_proba"):
                raise CLIError(f"{meta.get('model', 'this model')} gives no probabilities")
            proba = np.asarray(model.predict_proba(frame))
            classes = list(model.classes_)
            out = pd.DataFrame(proba, columns=[f"proba_{c}" for c in classes])
        else:
            out = pd.DataFrame({"prediction": np.asarray(model.predict(frame))})
    except (ValueError, TypeError, AttributeError) as exc:
        raise CLIError(f"cannot predict {args.data!r}: {_one_line(exc)}") from exc
    text = out.to_csv(index=False, float_format="%.17g" if args.proba else None)
    if args.out:
        _write_atomic(text, args.out)
        print(f"wrote {len(out)} predictions to {args.out}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0


def _print_params(lines, node, indent):
    pad = "  " * indent
    lines.append(f"{pad}{node['class']}")
    for key, value in node["params"].items():
        if key == "steps" and isinstance(value, list):
            lines.append(f"{pad}  steps:")
            for step in value:
                if isinstance(step, list) and len(step) == 2 and isinstance(step[1], dict):
                    lines.append(f"{pad}    {step[0]}:")
                    _print_params(lines, step[1], indent + 3)
            continue
        if isinstance(value, dict) and "class" in value:
            lines.append(f"{pad}  {key}:")
            _print_params(lines, value, indent + 2)
            continue
        lines.append(f"{pad}  {key} = {value}")
    fitted = node.get("fitted") or {}
    if fitted:
        shown = ", ".join(
            f"{k}: {v}" if isinstance(v, str) and v.startswith("array") else k
            for k, v in fitted.items()
            if not isinstance(v, dict)
        )
        lines.append(f"{pad}  fitted: {shown}")


def info(args):
    """``classiclearn info``."""
    from ..io import read_model_info

    data = read_model_info(args.model)
    if args.json:
        json.dump(data, sys.stdout, indent=2, default=str)
        sys.stdout.write("\n")
        return 0
    meta = data.get("metadata") or {}
    lines = [
        f"model file:      {args.model}",
        f"format:          {data['format']} version {data['format_version']}",
        f"written by:      classiclearn {data.get('library_version')} at {data.get('created_utc')}",
        f"estimator:       {data.get('estimator')} ({data.get('estimator_class')})",
        f"sha256:          {data.get('content_sha256')} (verified)",
    ]
    if meta:
        lines.append(
            f"trained on:      {meta.get('source', '?')}: {meta.get('n_samples', '?')} rows x "
            f"{meta.get('n_columns', '?')} columns, target {meta.get('target')!r} "
            f"({meta.get('task', '?')})"
        )
        if meta.get("classes"):
            lines.append(f"classes:         {', '.join(map(str, meta['classes']))}")
        if meta.get("columns"):
            lines.append(f"input columns:   {', '.join(meta['columns'])}")
        for key in ("training_accuracy", "training_R2"):
            if key in meta:
                label = key.replace("_", " ") + ":"
                lines.append(f"{label:<17}{meta[key]:.4f}")
    lines.append("structure:")
    _print_params(lines, data["structure"], 1)
    print("\n".join(lines))
    return 0
