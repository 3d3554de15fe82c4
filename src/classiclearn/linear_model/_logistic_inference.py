"""The glue between LogisticRegression and its inference (seed 004).

Kept apart from the estimator module: the Firth fit dispatch, the checks run
after an unpenalised fit (separation, what ``summary()`` needs) and the
``summary()`` entry point with its profile intervals.
"""

import warnings

import numpy as np
import scipy.sparse as sp

from ..exceptions import SeparationWarning
from ._firth import firth_null_loglik, fit_firth, profile_intervals
from ._inference_models import (
    MAX_SUMMARY_PARAMS,
    build_logistic_table,
    class_probabilities,
    logistic_inference,
    logistic_training_arrays,
)
from ._separation import MAX_LP_ENTRIES, find_separation, separation_message

_FIRTH_SOLVERS = {"lbfgs": "lbfgs", "newton": "newton", "newton-cholesky": "newton"}


def firth_dispatch(est, X, y_idx, sw, n_classes, W0, b0):
    """Fit ``penalty="firth"``; returns (W (1, p), b (1,), n_iter, converged)."""
    if n_classes != 2:
        raise ValueError(f"penalty='firth' is defined for two classes; y has {n_classes}.")
    if est.solver not in _FIRTH_SOLVERS:
        raise ValueError(f"penalty='firth' is solved by 'newton' or 'lbfgs', not solver="
                         f"{est.solver!r}.")
    if est.max_iter == 0:
        return W0, b0, 0, True
    beta0 = np.concatenate([b0, W0[0]]) if est.fit_intercept else W0[0]
    coef, intercept, n_iter, ok = fit_firth(
        X, y_idx.astype(np.float64), sw, est.fit_intercept, _FIRTH_SOLVERS[est.solver],
        est.max_iter, est.tol, beta0,
    )
    return coef[None, :], np.array([intercept]), n_iter, ok


def _feature_names(est, p):
    names = getattr(est, "feature_names_in_", None)
    return [f"x{j}" for j in range(p)] if names is None else [str(n) for n in names]


def _complete_separation_in_margins(est, X, y_idx, sw):
    scores = X @ est.coef_.T + est.intercept_
    if scores.shape[1] == 1:
        margin = np.where(y_idx == 1, scores[:, 0], -scores[:, 0])
    else:
        own = scores[np.arange(len(y_idx)), y_idx]
        other = scores.copy()
        other[np.arange(len(y_idx)), y_idx] = -np.inf
        margin = own - other.max(axis=1)
    return bool(np.all(margin[sw > 0] > 0))


def _check_separation(est, X, y_idx, sw):
    """Warn about separation; returns the finding (dict) or None.

    Two classes: the LP of :mod:`._separation` (complete and quasi-complete).
    More classes, or designs too large for the LP: complete separation seen
    in the fitted margins (every sample on its own class's side).
    """
    found = None
    if len(est.classes_) == 2 and X.shape[0] * (X.shape[1] + 1) <= MAX_LP_ENTRIES:
        P = class_probabilities(X, est.coef_, est.intercept_)
        found = find_separation(X, y_idx, sw, est.fit_intercept,
                                _feature_names(est, X.shape[1]),
                                p_observed=P[np.arange(len(y_idx)), y_idx])
        if found is not None:
            warnings.warn(separation_message(found), SeparationWarning, stacklevel=4)
    elif _complete_separation_in_margins(est, X, y_idx, sw):
        found = {"kind": "complete", "terms": []}
        warnings.warn(
            "The classes are completely separated (complete separation): without a "
            "penalty the maximum-likelihood estimate does not exist (coefficients grow "
            "without bound). Use an 'l2' penalty.",
            SeparationWarning, stacklevel=4,
        )
    return found


def unpenalised_checks(est, X, y_idx, sw, penalty):
    """After ``fit``: the separation check and the state ``summary()`` uses.

    Returns None for penalised fits, ``{"separation": ...}`` when the MLE does
    not exist, else the dict of :func:`logistic_inference`.
    """
    if penalty not in ("none", "firth"):
        return None
    if sp.issparse(X):
        if X.shape[0] * (X.shape[1] + 1) > MAX_LP_ENTRIES:
            return _sparse_checks(est, X, y_idx, sw)
        X = X.toarray()  # small: the LP and the covariance are dense anyway
    if penalty == "none":
        found = _check_separation(est, X, y_idx, sw)
        if found is not None:
            return {"separation": found}
        return logistic_inference(X, y_idx, sw, est.coef_, est.intercept_, est.fit_intercept)
    null = firth_null_loglik(X, y_idx.astype(np.float64), sw, est.fit_intercept)
    return logistic_inference(X, y_idx, sw, est.coef_, est.intercept_, est.fit_intercept,
                              firth_null=null)


def _sparse_checks(est, X, y_idx, sw):
    """A large sparse fit: the margins' separation check; no summary() state."""
    if _complete_separation_in_margins(est, X, y_idx, sw):
        warnings.warn(
            "The classes are completely separated (complete separation): without a "
            "penalty the maximum-likelihood estimate does not exist (coefficients grow "
            "without bound). Use an 'l2' penalty.",
            SeparationWarning, stacklevel=4,
        )
        return {"separation": {"kind": "complete", "terms": []}}
    return {"sparse": X.shape}


def logistic_summary(est, alpha, cov_type, groups, X, y, sample_weight, odds_ratios, ci):
    """``LogisticRegression.summary``: checks, the table, profile intervals."""
    info = getattr(est, "_inference", None)
    if info is None:
        raise ValueError(
            "summary() is available for an unpenalised (penalty=None) or penalty='firth' "
            "fit; a penalised fit has no standard errors of this kind."
        )
    if "sparse" in info:
        n, p = info["sparse"]
        raise ValueError(
            f"summary() needs the fit's {p} x {p} covariance and separation LP, which "
            f"classiclearn computes for sparse X only up to {MAX_LP_ENTRIES} entries "
            f"(this X: {n} x {p}); refit on a dense X with fewer features."
        )
    if "separation" in info:
        raise ValueError(
            f"summary() is not defined: the classes are {info['separation']['kind']}ly "
            "separated, so the maximum-likelihood estimate does not exist. Refit with "
            "penalty='firth'."
        )
    if ci not in ("wald", "profile"):
        raise ValueError(f"ci must be 'wald' or 'profile', got {ci!r}.")
    if info["cov"] is None:
        if info["k"] > MAX_SUMMARY_PARAMS:
            raise ValueError(f"summary() needs at most {MAX_SUMMARY_PARAMS} coefficients.")
        # A large fit skipped the information matrix: compute it from the data now.
        Xv, y_idx, sw, _ = logistic_training_arrays(
            est, X, y, sample_weight, "summary() of a large fit (n * k^2 > 1e8)")
        info = logistic_inference(Xv, y_idx, sw, est.coef_, est.intercept_,
                                  est.fit_intercept, force=True)
    table = build_logistic_table(est, info, alpha, cov_type, groups, X, y, sample_weight,
                                 odds_ratios)
    if ci == "profile":
        if len(est.classes_) > 2:
            raise ValueError("ci='profile' is implemented for two classes.")
        X, y_idx, sw, _ = logistic_training_arrays(est, X, y, sample_weight, "ci='profile'")
        A = np.column_stack([np.ones(X.shape[0]), X]) if est.fit_intercept else X
        low, high = profile_intervals(A, y_idx.astype(np.float64), sw, table.estimate,
                                      table.std_err, alpha, firth=info["firth"])
        table.set_intervals(low, high)
    return table
