"""Reading the user's table (CSV, TSV, Parquet, or a shipped data set) and its target.

Every problem a user can cause (missing file, unreadable file, unknown column,
a target with one class) becomes a :class:`CLIError` with one clear line.
"""

import os
from dataclasses import dataclass, field

import numpy as np

from ._errors import CLIError

__all__ = ["SHIPPED", "Dataset", "load_table", "prepare"]

# shipped name -> (loader name in classiclearn.datasets, target column shown to the user)
SHIPPED = {
    "iris": ("load_iris", "species"),
    "breast_cancer": ("load_breast_cancer", "diagnosis"),
    "saheart": ("load_saheart", "chd"),
}
_MAX_CLASSES_FOR_INT = 20


@dataclass
class Dataset:
    """A table ready for modelling: features X (DataFrame), target y, and what was decided."""

    X: object
    y: np.ndarray
    target: str
    task: str
    source: str
    classes: list = field(default_factory=list)
    notes: list = field(default_factory=list)


def _pandas():
    try:
        import pandas as pd
    except ImportError as exc:  # pragma: no cover - pandas is in the cli extra
        raise CLIError("the command line needs pandas: pip install 'classiclearn[cli]'") from exc
    return pd


def _shipped_frame(name):
    import importlib

    loader, target = SHIPPED[name]
    datasets = importlib.import_module("classiclearn.datasets")
    if not hasattr(datasets, loader):  # the package's __init__ has not landed yet
        datasets = importlib.import_module("classiclearn.datasets._base")
    bunch = getattr(datasets, loader)(as_frame=True)
    frame = bunch.frame.copy()
    old = bunch.target.name
    y = np.asarray(bunch.target)
    names = getattr(bunch, "target_names", None)
    if name != "saheart" and names is not None and len(names) > int(y.max()):
        frame[old] = np.asarray(names, dtype=object)[y]
    if name == "saheart" and "famhist" in frame:
        # as in the original data: a categorical column, which exercises one-hot encoding
        frame["famhist"] = np.where(frame["famhist"].to_numpy() > 0.5, "Present", "Absent")
    return frame.rename(columns={old: target}), target


def load_table(source):
    """Read DATA: a path to a .csv / .tsv / .txt / .parquet file, or a shipped data set name.

    Returns
    -------
    frame : pandas.DataFrame
    default_target : str or None
        The target column of a shipped data set, None for a file.
    """
    pd = _pandas()
    if source in SHIPPED and not os.path.exists(source):
        return _shipped_frame(source)
    if not os.path.exists(source):
        shipped = ", ".join(SHIPPED)
        raise CLIError(f"no such file: {source!r} (shipped data sets: {shipped})")
    if os.path.isdir(source):
        raise CLIError(f"{source!r} is a directory, not a data file")
    lower = source.lower()
    try:
        if lower.endswith((".parquet", ".pq")):
            frame = pd.read_parquet(source)
        else:
            sep = "\t" if lower.endswith((".tsv", ".tab")) else None
            frame = pd.read_csv(source, sep=sep, engine="python" if sep is None else "c")
    except ImportError as exc:
        raise CLIError(f"cannot read {source!r}: {exc}".splitlines()[0]) from exc
    except UnicodeDecodeError as exc:
        raise CLIError(f"cannot read {source!r}: not a text CSV file ({exc.reason})") from exc
    except Exception as exc:  # pandas raises many types for malformed files
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise CLIError(f"cannot read {source!r}: {first}") from exc
    if frame.shape[0] == 0 or frame.shape[1] == 0:
        raise CLIError(f"{source!r} holds no data rows")
    frame.columns = [str(c).strip() for c in frame.columns]
    if len(set(frame.columns)) != len(frame.columns):
        raise CLIError(f"{source!r} has duplicate column names")
    return frame, None


def _infer_task(y):
    kind = y.dtype.kind
    if kind in "OSUb" or str(y.dtype) in ("category", "string", "boolean"):
        return "classification"
    values = y[~np.isnan(y.astype(np.float64))]
    uniq = np.unique(values)
    integral = bool(np.all(np.equal(np.mod(uniq, 1), 0)))
    if integral and uniq.size <= _MAX_CLASSES_FOR_INT:
        return "classification"
    return "regression"


def _check_target_column(frame, target, source):
    if target is None:
        raise CLIError(
            f"which column is the target? give --target COL (columns of {source!r}: "
            f"{_preview(frame.columns)})"
        )
    if target not in frame.columns:
        raise CLIError(
            f"unknown target column {target!r}; {source!r} has columns {_preview(frame.columns)}"
        )


def _preview(columns, n=12):
    cols = [str(c) for c in columns]
    shown = ", ".join(cols[:n])
    return shown + (f", ... ({len(cols)} in all)" if len(cols) > n else "")


def prepare(frame, target, task, source):
    """Split the table into features and target, choose the task, check the target.

    Parameters
    ----------
    frame : pandas.DataFrame
    target : str or None
    task : {"classification", "regression"} or None
        None infers it: text, bool or at most 20 distinct integer values give
        classification, otherwise regression.
    source : str
        Shown in messages.

    Returns
    -------
    Dataset
    """
    _check_target_column(frame, target, source)
    notes = []
    col = frame[target]
    missing = col.isna().to_numpy()
    if missing.all():
        raise CLIError(f"target column {target!r} is empty")
    if missing.any():
        notes.append(f"dropped {int(missing.sum())} rows with a missing target")
        frame = frame.loc[~missing]
        col = frame[target]
    X = frame.drop(columns=[target])
    if X.shape[1] == 0:
        raise CLIError(f"{source!r} has no feature columns besides the target {target!r}")
    for name in list(X.columns):
        if X[name].isna().all():
            notes.append(f"dropped column {name!r}: every value is missing")
            X = X.drop(columns=[name])
    for name in list(X.columns):
        col_x = X[name]
        if col_x.dtype.kind in "OSU" or str(col_x.dtype) in ("category", "string"):
            levels = int(col_x.nunique())
            if levels > _MAX_CLASSES_FOR_INT and levels > 0.5 * len(col_x):
                notes.append(
                    f"dropped column {name!r}: text with {levels} distinct values in "
                    f"{len(col_x)} rows looks like an identifier"
                )
                X = X.drop(columns=[name])
    if X.shape[1] == 0:
        raise CLIError(f"{source!r} has no usable feature columns")
    y_raw = col.to_numpy()
    if task is None:
        task = _infer_task(y_raw)
        if source not in SHIPPED:
            notes.append(f"task: {task} (inferred from the target; override with --task)")
    if task == "classification":
        labels = np.array(
            [str(int(v)) if isinstance(v, float) and v.is_integer() else str(v) for v in y_raw],
            dtype=object,
        )
        if y_raw.dtype.kind in "iub":
            labels = y_raw.copy()
        classes = sorted(set(labels.tolist()), key=lambda v: (str(type(v)), v))
        if len(classes) < 2:
            raise CLIError(
                f"target column {target!r} has only one class ({classes[0]!r}); "
                "classification needs at least two"
            )
        counts = {c: int(np.sum(labels == c)) for c in classes}
        rare = [c for c, n in counts.items() if n < 2]
        if rare:
            raise CLIError(
                f"target column {target!r} has classes with a single row ({rare[:5]}); "
                "cross-validation needs at least two rows per class"
            )
        y = labels
    else:
        try:
            y = col.astype(np.float64).to_numpy()
        except (TypeError, ValueError) as exc:
            raise CLIError(
                f"target column {target!r} is not numeric, so it cannot be a regression "
                "target (use --task classification)"
            ) from exc
        if np.unique(y).size < 2:
            raise CLIError(f"target column {target!r} is constant; there is nothing to predict")
        classes = []
    return Dataset(X=X, y=y, target=target, task=task, source=source, classes=classes, notes=notes)
