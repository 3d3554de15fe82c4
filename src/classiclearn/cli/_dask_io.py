"""``classiclearn fit --dask`` and ``predict --dask``: tables larger than memory.

The table (a directory of Parquet files, a Parquet file, or a CSV path or
glob) is read lazily with ``dask.dataframe``; the model is fitted by its
distributed fit (an exact one: see the estimators that accept Dask input) and
saved in the usual model file; predictions are written block by block to a
Parquet directory or a CSV file. ``--scheduler ADDRESS`` connects to a
running ``distributed`` scheduler; otherwise Dask's default (threads) runs.
"""

import contextlib
import glob
import json
import os

import numpy as np

from ._errors import CLIError

__all__ = ["fit_dask", "predict_dask"]


def _dask():
    try:
        import dask.dataframe as dd
    except ImportError as exc:
        raise CLIError("--dask needs dask: pip install 'classiclearn[dask]'") from exc
    return dd


def read_table(path):
    """A lazy Dask DataFrame of the table at ``path``."""
    dd = _dask()
    if os.path.isdir(path):
        return dd.read_parquet(path)
    matches = sorted(glob.glob(path))
    if not matches:
        raise CLIError(f"{path!r}: no such file, directory or glob match")
    if all(m.endswith((".parquet", ".pq")) for m in matches):
        return dd.read_parquet(matches)
    if all(m.endswith((".csv", ".tsv", ".txt")) for m in matches):
        sep = "\t" if matches[0].endswith(".tsv") else ","
        return dd.read_csv(path, sep=sep)
    raise CLIError(f"{path!r}: --dask reads Parquet (a directory or files) or CSV files")


@contextlib.contextmanager
def scheduler(address):
    """A ``distributed.Client`` on ``address`` for the block, or nothing."""
    if not address:
        yield
        return
    try:
        from distributed import Client
    except ImportError as exc:
        raise CLIError("--scheduler needs distributed: pip install 'classiclearn[dask]'") from exc
    with Client(address):
        yield


def _features_and_target(frame, target, task):
    if target is None:
        raise CLIError("--dask needs --target COL")
    if target not in frame.columns:
        raise CLIError(f"--target {target!r} is not a column; columns: {list(frame.columns)[:20]}")
    features = [c for c in frame.columns if c != target]
    bad = [c for c in features if frame[c].dtype.kind not in "biuf"]
    if bad:
        raise CLIError(
            f"--dask needs numeric feature columns; {bad[:10]} are not. Encode them first "
            "(the in-memory 'classiclearn fit' one-hot encodes categorical columns)."
        )
    y = frame[target]
    if task is None:
        task = "regression" if y.dtype.kind == "f" else "classification"
    return frame[features].astype("float64"), y, features, task


def fit_dask(args):
    """``classiclearn fit --dask``."""
    from .. import __version__
    from ..io import save_model
    from ..utils._dask import DaskUnsupportedError, as_dask_array
    from ._models import find_model, parse_params

    params = parse_params(args.param)
    frame = read_table(args.data)
    X, y, features, task = _features_and_target(frame, args.target, args.task)
    name, cls = find_model(args.model, task)
    est = cls(**params)
    if "random_state" in est.get_params():
        est.set_params(random_state=args.seed)
    X_arr = as_dask_array(X)
    y_arr = y  # aligned with X's row blocks by the estimator
    try:
        with scheduler(args.scheduler):
            est.fit(X_arr, y_arr)
    except DaskUnsupportedError as exc:
        raise CLIError(f"{name} cannot be fitted with --dask: {exc}") from exc
    except (ValueError, TypeError) as exc:
        raise CLIError(f"{name} could not be fitted: {str(exc).splitlines()[0]}") from exc
    est.feature_names_in_ = np.asarray(features, dtype=object)
    n_rows = int(sum(X_arr.chunks[0]))
    metadata = {
        "created_by": f"classiclearn {__version__} fit --dask",
        "source": os.path.basename(os.path.normpath(args.data)),
        "target": args.target,
        "task": task,
        "model": name,
        "params": json.loads(json.dumps(params, default=repr)),
        "n_samples": n_rows,
        "n_columns": len(features),
        "columns": [str(c) for c in features],
        "classes": [c if isinstance(c, str) else c.item() if hasattr(c, "item") else c
                    for c in getattr(est, "classes_", [])],
    }
    save_model(est, args.out, metadata=metadata)
    print(f"saved {name} to {args.out}: trained on {n_rows} rows x {len(features)} columns "
          f"with Dask, target {args.target!r} ({task})")
    return 0


def predict_dask(args, model, meta):
    """``classiclearn predict --dask``: predictions written block by block."""
    from ..utils._dask import as_dask_array

    dd = _dask()
    frame = read_table(args.data)
    columns = meta.get("columns") or [c for c in frame.columns if c != meta.get("target")]
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise CLIError(f"{args.data!r} lacks the model's input column(s) {missing[:10]}")
    if not args.out:
        raise CLIError("--dask writes its predictions to --out (a .csv file or a directory "
                       "of Parquet files)")
    X = as_dask_array(frame[columns].astype("float64"))
    with scheduler(getattr(args, "scheduler", None)):
        if args.proba:
            if not hasattr(model, "predict_proba"):
                raise CLIError(f"{meta.get('model', 'this model')} gives no probabilities")
            out = dd.from_dask_array(model.predict_proba(X),
                                     columns=[f"proba_{c}" for c in model.classes_])
        else:
            out = dd.from_dask_array(model.predict(X), columns=["prediction"])
        if args.out.endswith(".csv"):
            out.to_csv(args.out, single_file=True, index=False)
        else:
            out.to_parquet(args.out, write_index=False)
    print(f"wrote {int(sum(X.chunks[0]))} predictions to {args.out}")
    return 0
