"""One fit and prediction of a model on one fold, as ``compare`` runs it (in this
process, a worker process or the warm-up helper); never raises."""

import time
import warnings

import numpy as np

from ._scoring import score

__all__ = ["run_many", "run_one"]


def run_one(pipeline, X, y, train, test, scorings, classes):
    """Fit on the training rows, predict the test rows; never raises."""
    from ..base import clone

    out = {
        "scores": None,
        "fit_time": np.nan,
        "predict_time": np.nan,
        "pred": None,
        "error": None,
        "n_warnings": 0,
        "params": None,
    }
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            model = clone(pipeline)
            Xtr, Xte = X.iloc[train], X.iloc[test]
            t0 = time.perf_counter()
            model.fit(Xtr, y[train])
            t1 = time.perf_counter()
            pred = np.asarray(model.predict(Xte))
            t2 = time.perf_counter()
            out["fit_time"], out["predict_time"] = t1 - t0, t2 - t1
            out["pred"] = pred
            out["params"] = getattr(model, "best_params_", None)  # --tune: the inner choice
            out["scores"] = score(scorings, model, Xte, y[test], pred, classes)
        except Exception as exc:  # one model failing must not stop the comparison
            message = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
            out["error"] = f"{type(exc).__name__}: {message}"[:300]
    out["n_warnings"] = len(caught)
    return out


def run_many(args):
    """:func:`run_one` for each argument tuple (one task of a worker process)."""
    return [run_one(*a) for a in args]
