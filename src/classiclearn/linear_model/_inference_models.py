"""What the summaries of LinearRegression and LogisticRegression compute (seed 004).

``*_inference`` keeps small things only (the unscaled covariance, the
log-likelihoods, counts): ``ols_inference`` at the end of ``fit``,
``logistic_inference`` on the first ``summary()`` of an unpenalised logistic fit
(from the training arrays its fit kept, see ``_logistic_inference``; the
information matrix costs more than the fit) and at the end of a Firth fit;
``*_summary`` builds the
:class:`CoefficientTable` from them. Robust covariances need the per-sample
scores, so they take the training data again (``X``, ``y``,
``sample_weight``); the data are checked against the fit (same number of rows,
same residual sum of squares or log-likelihood) so that other data cannot pass
silently. Definitions: see :mod:`._inference_stats`.
"""

import numpy as np
from scipy import linalg

from ..utils._linear import linear_product
from ..utils._targets import compute_class_weight
from ..utils.validation import check_sample_weight, validate_data
from ._inference import CoefficientTable, resolved, term_names
from ._inference_stats import (
    check_cov_type,
    chi2_result,
    leverages,
    model_f_test,
    sandwich,
)

MAX_SUMMARY_PARAMS = 2000


def _design(X, fit_intercept):
    return np.column_stack([np.ones(X.shape[0]), X]) if fit_intercept else X


def _information_criteria(llf, k, n):
    return {"aic": -2.0 * llf + 2.0 * k, "bic": -2.0 * llf + k * np.log(n)}


def _same_fit(stored, recomputed, what):
    if not np.isclose(stored, recomputed, rtol=1e-7, atol=1e-10):
        raise ValueError(
            f"X, y and sample_weight do not reproduce the fit ({what} {recomputed:.10g}, "
            f"fitted {stored:.10g}): pass the training data of this fit."
        )


def _training_data(est, X, y, sample_weight, what):
    if X is None or y is None:
        raise ValueError(
            f"{what} needs the training data: summary(..., X=X, y=y, sample_weight=...) "
            "with the arrays the model was fitted on."
        )
    X, y = validate_data(est, X, y, reset=False, dtype=np.float64)
    sw = check_sample_weight(sample_weight, X, dtype=np.float64)
    return X, y, sw


# --------------------------------------------------------------------------- OLS

def target_moments(y, y_mean, sw, fit_intercept):
    """``(tss, 1/2 sum log w)`` of a single target: TSS about the (weighted) mean
    with an intercept, about zero without one."""
    w = np.ones(y.shape[0]) if sw is None else sw
    centre = y_mean if fit_intercept else 0.0
    tss = float(w @ (y - centre) ** 2)
    half_log_w = 0.0 if sw is None else 0.5 * float(np.sum(np.log(sw[sw > 0])))
    return tss, half_log_w


def ols_inference(rss, tss, half_log_w, n, rank, cov, fit_intercept, target_scale=1.0):
    """Fit statistics of a single-target least-squares fit (kept by ``fit``; the
    Dask fit passes the same quantities from its merged moments).

    ``cov`` is the pair ``(C, e)`` of :func:`~._inference.parameter_cov` (or a
    Deferred of it, or None). ``rss`` and ``tss`` are in units of
    ``target_scale**2``, a power of two that keeps the sums of squares of an
    extreme target representable; they are kept in those units."""
    k = rank + int(fit_intercept)
    log_scale = 2.0 * np.log(target_scale)

    def loglik(ss):  # +inf for an exact fit (RSS = 0), as statsmodels
        with np.errstate(divide="ignore"):
            return -0.5 * n * (np.log(2.0 * np.pi * ss / n) + log_scale + 1.0) + half_log_w

    return {
        "cov": cov, "rss": float(rss), "df": n - k, "tss": float(tss), "k": k,
        "k_null": int(fit_intercept), "rank": rank, "n_rows": n, "n_obs": n,
        "target_scale": float(target_scale),
        "log_likelihood": loglik(rss), "null_log_likelihood": loglik(tss),
    }


def _robust_ols_cov(est, info, beta_scaled, e, cov_type, groups, X, y, sample_weight):
    """Robust covariance of the scaled estimates ``beta_scaled`` (the units of
    ``info["cov"]``: design columns times ``e``, the target divided by its power of
    two) from the training data, and the number of clusters."""
    C, _ = info["cov"]
    X, y, sw = _training_data(est, X, y, sample_weight, f"cov_type={cov_type!r}")
    A = _design(X, est.fit_intercept)
    if not np.all(e == 1.0):
        A = A * e
    resid = y / info["target_scale"] - A @ beta_scaled
    _same_fit(info["rss"], float(sw @ resid**2), "residual sum of squares")
    root = np.sqrt(sw)
    Aw = A * root[:, None]
    scores = Aw * (root * resid)[:, None]
    h = leverages(Aw, 1.0, C) if cov_type in ("HC2", "HC3") else None
    return sandwich(C, scores, cov_type, leverage=h, groups=groups)


def ols_summary(est, alpha, cov_type, groups, X, y, sample_weight):
    """The OLS table (t statistics) with fit statistics and the chosen covariance."""
    info = est._inference
    info["cov"] = resolved(info["cov"])  # formed on the first summary()
    groups = check_cov_type(cov_type, groups)
    if info["df"] <= 0:
        raise ValueError("summary() needs more samples than coefficients (df_resid <= 0).")
    fi = est.fit_intercept
    coef = np.asarray(est.coef_, dtype=np.float64)
    beta = np.concatenate([[est.intercept_], coef]) if fi else coef
    # every covariance below is that of beta / scales (powers of two; ones unless X or
    # y is of extreme magnitude), whose entries stay representable
    C, e = info["cov"]
    c = info["target_scale"]
    e = np.ones(beta.size) if e is None else e
    scales = c * e
    t_df, n_groups = info["df"], None
    if cov_type == "nonrobust":
        cov = C * (info["rss"] / info["df"])
    else:
        cov, n_groups = _robust_ols_cov(est, info, beta / scales, e, cov_type, groups,
                                        X, y, sample_weight)
        if cov_type == "cluster":
            t_df = n_groups - 1
    llf, llnull = info["log_likelihood"], info["null_log_likelihood"]
    r2 = 1.0 - info["rss"] / info["tss"] if info["tss"] > 0 else np.nan
    with np.errstate(over="ignore", under="ignore"):
        rss, tss = info["rss"] * c * c, info["tss"] * c * c
    stats = {
        "n_obs": info["n_obs"], "df_model": info["rank"], "df_resid": info["df"],
        "log_likelihood": llf, "null_log_likelihood": llnull,
        "deviance": rss, "null_deviance": tss,
        "lr_test": chi2_result(2.0 * (llf - llnull), info["k"] - info["k_null"], "LR"),
        "r2": r2, "r2_adj": 1.0 - (info["n_obs"] - int(fi)) / info["df"] * (1.0 - r2),
        "cov_type": cov_type, "n_groups": n_groups,
        **_information_criteria(llf, info["k"], info["n_obs"]),
    }
    unit = bool(np.all(scales == 1.0))
    se = np.sqrt(np.maximum(np.diag(cov), 0.0))
    with np.errstate(over="ignore", under="ignore"):
        se = se if unit else se * scales
        table = CoefficientTable(
            term_names(est, fi), beta, se, statistic="t", df_resid=t_df, alpha=alpha,
            title="OLS coefficients", fit_stats=stats,
            cov=cov if unit else cov * np.outer(scales, scales),
            scaled_cov=None if unit else (cov, scales),
        )
    table.df_resid = info["df"]
    table.f_test = model_f_test(table, fi)
    return table


# --------------------------------------------------------------------- logistic

def class_probabilities(X, W, b):
    """(n, K) probabilities from coefficients W (K', p) and intercepts b (K')."""
    Z = linear_product(X, W) + b
    if W.shape[0] == 1:
        z = Z[:, 0]
        pos = np.where(z >= 0, 1.0 / (1.0 + np.exp(-np.abs(z))),
                       np.exp(-np.abs(z)) / (1.0 + np.exp(-np.abs(z))))
        return np.column_stack([1.0 - pos, pos])
    Z = Z - Z.max(axis=1, keepdims=True)
    E = np.exp(Z)
    return E / E.sum(axis=1, keepdims=True)


def _log_likelihood(P, y_idx, sw):
    with np.errstate(divide="ignore"):
        return float(sw @ np.log(P[np.arange(len(y_idx)), y_idx]))


def _reference_information(A, P, sw):
    """Fisher information of the reference-class parametrisation (class 0 the base).

    Parameters are ordered class by class (classes 1..K-1), each [intercept,
    coefficients], as the columns of statsmodels' ``MNLogit`` params. Block
    (j, k) is ``A' diag(sw p_j (delta_jk - p_k)) A``: the block-diagonal
    ``A' diag(sw p_j) A`` minus one Gram matrix of ``B = [A p_1 | ... | A p_{K-1}]``.
    """
    n, m = A.shape
    K = P.shape[1]
    B = np.concatenate([A * P[:, [j]] for j in range(1, K)], axis=1)
    info = -((B * sw[:, None]).T @ B)
    for j in range(1, K):
        block = slice((j - 1) * m, j * m)
        info[block, block] += (A * (sw * P[:, j])[:, None]).T @ A
    return info


def _invert(info):
    w = linalg.eigvalsh(info, check_finite=False)
    rank = int(np.sum(w > 1e-10 * max(w[-1], 1e-300)))
    try:
        inv = linalg.inv(info, check_finite=False) if rank == info.shape[0] else None
    except linalg.LinAlgError:
        inv = None
    return (linalg.pinvh(info, check_finite=False) if inv is None else inv), rank


def reference_estimates(W, b, fit_intercept):
    """Estimates in the reference parametrisation, class-major."""
    if W.shape[0] == 1:
        return np.concatenate([b, W[0]]) if fit_intercept else W[0].copy()
    D = W[1:] - W[0]
    if not fit_intercept:
        return D.ravel()
    return np.column_stack([b[1:] - b[0], D]).ravel()


def logistic_likelihoods(llf, class_weights, n_rows, fit_intercept, n_params):
    """Log-likelihoods and counts of a logistic fit from its log-likelihood and the
    total weight of each class (what the in-memory and the Dask fits share)."""
    K = len(class_weights)
    n_obs = float(np.sum(class_weights))
    if fit_intercept:
        share = class_weights[class_weights > 0] / n_obs
        llnull, k_null = float(class_weights[class_weights > 0] @ np.log(share)), K - 1
    else:
        llnull, k_null = n_obs * np.log(1.0 / K), 0
    return {"log_likelihood": float(llf), "null_log_likelihood": llnull, "k_null": k_null,
            "n_obs": n_obs, "n_rows": int(n_rows), "cov": None, "k": n_params,
            "firth": False}


def fitted_likelihoods(X, y_idx, sw, W, b, fit_intercept):
    """``(state, P)``: the :func:`logistic_likelihoods` of a fit (W (K', p), b (K'))
    on X (dense or sparse) and its (n, K) probabilities; O(n p)."""
    P = class_probabilities(X, W, b)
    K = P.shape[1]
    m = X.shape[1] + int(fit_intercept)
    out = logistic_likelihoods(_log_likelihood(P, y_idx, sw),
                               np.bincount(y_idx, weights=sw, minlength=K), X.shape[0],
                               fit_intercept, (K - 1) * m)
    return out, P


def set_information(out, info):
    """Add the inverse information and the rank (the number of free coefficients)."""
    out["cov"], out["k"] = _invert(info)
    return out


def logistic_inference(X, y_idx, sw, W, b, fit_intercept, firth_null=None):
    """Log-likelihoods, counts and the inverse information of an unpenalised
    (or Firth, then ``firth_null`` is the penalised null log-likelihood) fit.

    The information matrix (cost ``n k^2``) is computed up to
    ``MAX_SUMMARY_PARAMS`` coefficients; beyond, ``cov`` is None and ``k`` the
    nominal number of coefficients."""
    out, P = fitted_likelihoods(X, y_idx, sw, W, b, fit_intercept)
    K = P.shape[1]
    m = X.shape[1] + int(fit_intercept)
    out["firth"] = firth_null is not None
    if (K - 1) * m <= MAX_SUMMARY_PARAMS:
        A = _design(X, fit_intercept)
        if K == 2:
            h = sw * P[:, 1] * P[:, 0]
            info = (A * h[:, None]).T @ A
        else:
            info = _reference_information(A, P, sw)
        set_information(out, info)
        if firth_null is not None:
            logdet = np.linalg.slogdet(info)[1]
            out["penalized_log_likelihood"] = out["log_likelihood"] + 0.5 * logdet
            out["penalized_null_log_likelihood"] = firth_null
    return out


def logistic_training_arrays(est, X, y, sample_weight, what):
    """Validated training data ``(X, y_idx, sw, P)`` of a logistic fit, checked
    against the fitted log-likelihood."""
    X, y, sw = _training_data(est, X, y, sample_weight, what)
    y = np.asarray(y)
    classes = est.classes_
    y_idx = np.clip(np.searchsorted(classes, y), 0, len(classes) - 1)
    if not np.all(classes[y_idx] == y):
        raise ValueError("y holds labels that are not in classes_: pass the training data.")
    sw = sw * compute_class_weight(est.class_weight, classes, y_idx)[y_idx]
    P = class_probabilities(X, est.coef_, est.intercept_)
    _same_fit(est._inference["log_likelihood"], _log_likelihood(P, y_idx, sw),
              "log-likelihood")
    return X, y_idx, sw, P


def _logistic_scores(est, X, y, sample_weight, cov_type):
    """Per-sample scores (n, k) of the training data, the design, P and weights."""
    X, y_idx, sw, P = logistic_training_arrays(est, X, y, sample_weight,
                                               f"cov_type={cov_type!r}")
    A = _design(X, est.fit_intercept)
    Y = np.zeros_like(P)
    Y[np.arange(len(y_idx)), y_idx] = 1.0
    R = (Y - P)[:, 1:] * sw[:, None]
    scores = np.concatenate([A * R[:, [j]] for j in range(R.shape[1])], axis=1)
    return scores, A, P, sw


def _logistic_terms(est):
    names = term_names(est, est.fit_intercept)
    if len(est.classes_) == 2:
        return names
    return [f"{c}:{t}" for c in est.classes_[1:] for t in names]


def build_logistic_table(est, info, alpha, cov_type, groups, X, y, sample_weight,
                         odds_ratios):
    """The logistic table (Wald z) with fit statistics and the chosen covariance."""
    groups = check_cov_type(cov_type, groups)
    beta = reference_estimates(est.coef_, est.intercept_, est.fit_intercept)
    bread = info["cov"]
    n_groups = None
    if cov_type == "nonrobust":
        cov = bread
    else:
        if info["firth"]:
            raise ValueError("Robust covariances are defined for maximum-likelihood fits, "
                             "not for penalty='firth'.")
        scores, A, P, sw = _logistic_scores(est, X, y, sample_weight, cov_type)
        h = None
        if cov_type in ("HC2", "HC3"):
            if P.shape[1] > 2:
                raise ValueError(f"cov_type={cov_type!r} is defined for two classes only; "
                                 "use HC0, HC1 or cluster for the multinomial model.")
            h = leverages(A, sw * P[:, 0] * P[:, 1], bread)
        cov, n_groups = sandwich(bread, scores, cov_type, leverage=h, groups=groups)
    llf, llnull = info["log_likelihood"], info["null_log_likelihood"]
    if info["firth"]:
        lr = chi2_result(2.0 * (info["penalized_log_likelihood"]
                                - info["penalized_null_log_likelihood"]),
                         info["k"] - info["k_null"], "penalized LR")
    else:
        lr = chi2_result(2.0 * (llf - llnull), info["k"] - info["k_null"], "LR")
    stats = {
        "n_obs": info["n_obs"], "df_model": info["k"] - info["k_null"],
        "df_resid": info["n_obs"] - info["k"],
        "log_likelihood": llf, "null_log_likelihood": llnull,
        "deviance": -2.0 * llf, "null_deviance": -2.0 * llnull, "lr_test": lr,
        "pseudo_r2": 1.0 - llf / llnull if llnull != 0 else np.nan,
        "cov_type": cov_type, "n_groups": n_groups,
        **_information_criteria(llf, info["k"], info["n_obs"]),
    }
    se = np.sqrt(np.maximum(np.diag(cov), 0.0))
    title = "Logistic regression coefficients" + (" (Firth)" if info["firth"] else "")
    return CoefficientTable(_logistic_terms(est), beta, se, statistic="z", alpha=alpha,
                            title=title, odds_ratios=odds_ratios, fit_stats=stats, cov=cov)
