"""The glue between LogisticRegression and its inference (seed 004).

Kept apart from the estimator module: the Firth fit dispatch, the checks run
after an unpenalised fit (separation, what ``summary()`` needs) and the
``summary()`` entry point with its profile intervals.
"""

import warnings

import numpy as np
import scipy.sparse as sp

from ..exceptions import SeparationWarning
from ..utils._linear import linear_product
from ._firth import firth_null_loglik, fit_firth, profile_intervals
from ._inference_models import (
    MAX_SUMMARY_PARAMS,
    build_logistic_table,
    class_probabilities,
    fitted_likelihoods,
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
    scores = linear_product(X, est.coef_) + est.intercept_
    if scores.shape[1] == 1:
        margin = np.where(y_idx == 1, scores[:, 0], -scores[:, 0])
    else:
        own = scores[np.arange(len(y_idx)), y_idx]
        other = scores.copy()
        other[np.arange(len(y_idx)), y_idx] = -np.inf
        margin = own - other.max(axis=1)
    return bool(np.all(margin[sw > 0] > 0))


_COMPLETE_IN_MARGINS = (
    "The classes are completely separated (complete separation): the fitted "
    "coefficients put every sample on its own class's side, so without a penalty the "
    "maximum-likelihood estimate does not exist (coefficients grow without bound). "
    "Use penalty='firth' (two classes) or an 'l2' penalty."
)


def _exact_separation(est, X, y_idx, sw):
    """The exact check of two-class designs within the LP's size (see
    :mod:`._separation`): the finding (dict) or None. Other designs: complete
    separation seen in the fitted margins."""
    if len(est.classes_) == 2 and X.shape[0] * (X.shape[1] + 1) <= MAX_LP_ENTRIES:
        if sp.issparse(X):
            X = X.toarray()  # small: the LP is dense anyway
        P = class_probabilities(X, est.coef_, est.intercept_)
        return find_separation(X, y_idx, sw, est.fit_intercept,
                               _feature_names(est, X.shape[1]),
                               p_observed=P[np.arange(len(y_idx)), y_idx])
    if _complete_separation_in_margins(est, X, y_idx, sw):
        return {"kind": "complete", "terms": []}
    return None


# entries of X (stored entries if sparse) up to which an unpenalised fit keeps its
# training arrays for summary() (32 MB of float64)
_KEPT_TRAINING_ENTRIES = 4_000_000


def _kept_training(X, y_idx, sw):
    entries = X.nnz if sp.issparse(X) else X.size
    return {"training": (X, y_idx, sw)} if entries <= _KEPT_TRAINING_ENTRIES else {}


def unpenalised_checks(est, X, y_idx, sw, penalty):
    """After ``fit``: what the fit reports and keeps for ``summary()``.

    Returns None for penalised fits. An unpenalised fit does O(n p) work here:
    the log-likelihoods, and complete separation seen in the fitted margins (the
    fitted coefficients then separate the classes), which warns. The exact
    separation check (an LP) and the information matrix cost more than the fit
    itself and run on the first ``summary()`` or ``lr_test`` instead
    (:func:`settled_inference`), from the training arrays kept under
    ``"training"`` (references, left out when the model is pickled; kept up to
    ``_KEPT_TRAINING_ENTRIES`` entries of X, beyond which ``summary()`` takes the
    training data again, so that a fitted model never holds a large copy made by
    validation). A Firth fit keeps the dict of :func:`logistic_inference` (its fit
    forms the information anyway).
    """
    if penalty not in ("none", "firth"):
        return None
    if sp.issparse(X) and X.shape[0] * (X.shape[1] + 1) > MAX_LP_ENTRIES:
        return _sparse_checks(est, X, y_idx, sw)
    if penalty == "none":
        if _complete_separation_in_margins(est, X, y_idx, sw):
            warnings.warn(_COMPLETE_IN_MARGINS, SeparationWarning, stacklevel=4)
            return {"separation": {"kind": "complete", "terms": []},
                    **_kept_training(X, y_idx, sw)}
        out = fitted_likelihoods(X, y_idx, sw, est.coef_, est.intercept_,
                                 est.fit_intercept)[0]
        return {**out, **_kept_training(X, y_idx, sw)}
    if sp.issparse(X):
        X = X.toarray()
    null = firth_null_loglik(X, y_idx.astype(np.float64), sw, est.fit_intercept)
    return logistic_inference(X, y_idx, sw, est.coef_, est.intercept_, est.fit_intercept,
                              firth_null=null)


def settled_inference(est, X=None, y=None, sample_weight=None, need_data=True):
    """The inference state of a fit with the work ``fit`` deferred now done: the
    exact separation check and the information matrix (see
    :func:`unpenalised_checks`). Done once; the result replaces the fit's state.

    Without the kept training arrays (an unpickled model) the training data
    ``X``, ``y``, ``sample_weight`` are taken again and checked against the fit;
    with ``need_data=False`` the state is returned as it is instead (nominal
    coefficient count, no covariance).
    """
    info = est._inference
    training = info.get("training")
    if training is None:
        if "separation" in info or "sparse" in info or info["cov"] is not None:
            return info
        if not need_data:
            return info
        training = logistic_training_arrays(est, X, y, sample_weight,
                                            "summary() of a large, unpickled or Dask-fitted model")[:3]
    elif "log_likelihood" in info:
        _check_unchanged(est, info, training)
    Xt, y_idx, sw = training
    found = _exact_separation(est, Xt, y_idx, sw)
    if found is None and "separation" in info:
        found = info["separation"]  # seen in the margins; the LP named no terms
    if found is not None:
        settled = {"separation": found}
    else:
        if sp.issparse(Xt):
            Xt = Xt.toarray()
        settled = logistic_inference(Xt, y_idx, sw, est.coef_, est.intercept_,
                                     est.fit_intercept)
    est._inference = settled
    return settled


def _check_unchanged(est, info, training):
    """The kept X is the caller's array (a reference): refuse it if it no longer gives
    the fitted log-likelihood."""
    X, y_idx, sw = training
    now = fitted_likelihoods(X, y_idx, sw, est.coef_, est.intercept_,
                             est.fit_intercept)[0]["log_likelihood"]
    if not np.isclose(now, info["log_likelihood"], rtol=1e-7, atol=1e-10):
        raise ValueError(
            "The X passed to fit has changed since (log-likelihood "
            f"{now:.10g}, fitted {info['log_likelihood']:.10g}); summary() works from it. "
            "Refit the model, or fit on a copy of X."
        )


def _sparse_checks(est, X, y_idx, sw):
    """A large sparse fit: the margins' separation check; no summary() state."""
    if _complete_separation_in_margins(est, X, y_idx, sw):
        warnings.warn(_COMPLETE_IN_MARGINS, SeparationWarning, stacklevel=4)
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
    if ci not in ("wald", "profile"):
        raise ValueError(f"ci must be 'wald' or 'profile', got {ci!r}.")
    if info.get("k", 0) > MAX_SUMMARY_PARAMS:
        raise ValueError(f"summary() needs at most {MAX_SUMMARY_PARAMS} coefficients.")
    info = settled_inference(est, X, y, sample_weight)
    if "sparse" in info:
        n, p = info["sparse"]
        raise ValueError(
            f"summary() needs the fit's {p} x {p} covariance and separation LP, which "
            f"classiclearn computes for sparse X only up to {MAX_LP_ENTRIES} entries "
            f"(this X: {n} x {p}); refit on a dense X with fewer features."
        )
    if "separation" in info:
        found = info["separation"]
        named = separation_message(found) if found["terms"] else (
            f"The classes are {found['kind']}ly separated, so the maximum-likelihood "
            "estimate does not exist. Use penalty='firth' (two classes) or an 'l2' "
            "penalty.")
        raise ValueError(f"summary() is not defined. {named}")
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
