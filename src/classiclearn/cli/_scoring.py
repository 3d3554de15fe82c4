"""Scores the command line reports, computed from a fold's predictions by
:mod:`classiclearn.metrics`.

Every score is "greater is better" (errors are negated, as scikit-learn's
``neg_*`` scorers), so one ranking rule serves all.
"""

import numpy as np

from .. import metrics
from ._errors import CLIError

__all__ = ["BOUNDS", "SCORINGS", "DEFAULT_SCORING", "check_scorings", "needs", "score"]


def _accuracy(y, pred, extra):
    return float(metrics.accuracy_score(y, pred))


def _balanced_accuracy(y, pred, extra):
    return float(metrics.balanced_accuracy_score(y, pred))


def _f1_macro(y, pred, extra):
    return float(metrics.f1_score(y, pred, average="macro", zero_division=0.0))


def _roc_auc(y, pred, extra):
    scores, classes = extra["decision"], extra["classes"]
    if len(classes) != 2:
        raise ValueError("roc_auc is defined here for binary targets only")
    positive = np.asarray(y) == classes[1]
    if positive.all() or not positive.any():  # one class in the test fold: undefined
        return float("nan")
    return float(metrics.roc_auc_score(positive, scores))


def _neg_log_loss(y, pred, extra):
    return -float(metrics.log_loss(y, extra["proba"], labels=list(extra["classes"])))


def _r2(y, pred, extra):
    return float(metrics.r2_score(y, pred, force_finite=False))


def _neg_mse(y, pred, extra):
    return -float(metrics.mean_squared_error(y, pred))


def _neg_rmse(y, pred, extra):
    return -float(metrics.root_mean_squared_error(y, pred))


def _neg_mae(y, pred, extra):
    return -float(metrics.mean_absolute_error(y, pred))


# name -> (function, task, what it needs besides predictions)
SCORINGS = {
    "accuracy": (_accuracy, "classification", None),
    "balanced_accuracy": (_balanced_accuracy, "classification", None),
    "f1_macro": (_f1_macro, "classification", None),
    "roc_auc": (_roc_auc, "classification", "decision"),
    "neg_log_loss": (_neg_log_loss, "classification", "proba"),
    "r2": (_r2, "regression", None),
    "neg_mean_squared_error": (_neg_mse, "regression", None),
    "neg_root_mean_squared_error": (_neg_rmse, "regression", None),
    "neg_mean_absolute_error": (_neg_mae, "regression", None),
}
BOUNDS = {
    "accuracy": (0.0, 1.0),
    "balanced_accuracy": (0.0, 1.0),
    "f1_macro": (0.0, 1.0),
    "roc_auc": (0.0, 1.0),
    "neg_log_loss": (-float("inf"), 0.0),
    "r2": (-float("inf"), 1.0),
    "neg_mean_squared_error": (-float("inf"), 0.0),
    "neg_root_mean_squared_error": (-float("inf"), 0.0),
    "neg_mean_absolute_error": (-float("inf"), 0.0),
}
DEFAULT_SCORING = {"classification": "accuracy", "regression": "r2"}


def check_scorings(names, task):
    """Validate ``--scoring`` names for the task; return the list (default first if empty)."""
    if not names:
        return [DEFAULT_SCORING[task]]
    out = []
    for name in names:
        if name not in SCORINGS:
            valid = ", ".join(n for n, v in SCORINGS.items() if v[1] == task)
            raise CLIError(f"unknown scoring {name!r} (for {task}: {valid})")
        if SCORINGS[name][1] != task:
            raise CLIError(f"scoring {name!r} is for {SCORINGS[name][1]}, not {task}")
        if name not in out:
            out.append(name)
    return out


def needs(names):
    """Which extra outputs (``decision``, ``proba``) the scorings need."""
    return {SCORINGS[n][2] for n in names} - {None}


def _decision(model, X, classes):
    if hasattr(model, "predict_proba"):
        try:
            return np.asarray(model.predict_proba(X))[:, 1]
        except (AttributeError, NotImplementedError):
            pass
    return np.asarray(model.decision_function(X)).ravel()


def score(names, model, X, y, pred, classes):
    """Every requested score of a fitted model on one test fold (a dict)."""
    extra = {"classes": classes}
    wanted = needs(names)
    if "proba" in wanted:
        extra["proba"] = np.asarray(model.predict_proba(X))
        extra["classes"] = list(model.classes_)
    if "decision" in wanted:
        extra["classes"] = list(getattr(model, "classes_", classes))
        extra["decision"] = _decision(model, X, classes)
    return {n: SCORINGS[n][0](y, pred, extra) for n in names}
