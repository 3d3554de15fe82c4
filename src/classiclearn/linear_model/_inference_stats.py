"""Fit statistics, robust covariances and tests between nested models (seed 004).

The definitions follow statsmodels, the library a user of seed 004 would
check against:

- OLS (``statsmodels.api.OLS`` / ``WLS`` with the same weights): Gaussian
  log-likelihood ``-n/2 (log(2 pi RSS / n) + 1) + 1/2 sum log w``, AIC
  ``-2 llf + 2 k``, BIC ``-2 llf + k log n`` with k the number of
  coefficients (intercept included), R-squared (uncentred without an
  intercept), adjusted R-squared, the F test of all slopes;
- logistic regression (``Logit`` / ``MNLogit``; with weights ``GLM`` with
  ``freq_weights``, so n is the sum of the weights): log-likelihood, deviance
  ``-2 llf``, McFadden's pseudo-R-squared ``1 - llf / llnull``;
- the likelihood-ratio test against the null model (intercept only; the zero
  model when there is no intercept): ``2 (llf - llnull)`` on ``k - k_null``
  degrees of freedom;
- sandwich covariances ``B M B`` with the bread B the model-based unscaled
  covariance and M built from the per-sample scores: HC0, HC1 (times
  ``n / (n - k)``), HC2 and HC3 (scores divided by ``sqrt(1 - h_i)`` and by
  ``1 - h_i``, h the leverages) and "cluster" (scores summed per group, times
  ``G / (G - 1) (n - 1) / (n - k)``; statsmodels' CRV1). For OLS these are
  statsmodels' ``get_robustcov_results``; inference then uses t with
  ``n - k`` degrees of freedom, and ``G - 1`` for clusters. For logistic
  regression HC0 and cluster are statsmodels' ``Logit.fit(cov_type=...)``
  (z statistics); statsmodels computes HC0 for all of HC0-HC3 there, while we
  apply the small-sample factor (HC1) and the GLM leverages (HC2, HC3) as the
  R package sandwich does (``vcovHC`` on a ``glm``).
"""

from dataclasses import dataclass

import numpy as np
from scipy import stats

__all__ = ["TestResult", "lr_test", "wald_test"]

ROBUST_COV_TYPES = ("HC0", "HC1", "HC2", "HC3", "cluster")
COV_TYPES = ("nonrobust",) + ROBUST_COV_TYPES


@dataclass(frozen=True)
class TestResult:
    """A test statistic with its degrees of freedom and p-value.

    Attributes
    ----------
    statistic : float
    df : float or tuple of float
        Degrees of freedom (chi-squared), or (numerator, denominator) for F.
    p_value : float
    distribution : {"chi2", "F"}
    name : str

    Examples
    --------
    >>> TestResult(3.84, 1.0, 0.05, "chi2", "LR").distribution
    'chi2'
    """

    statistic: float
    df: object
    p_value: float
    distribution: str
    name: str = ""

    def __str__(self):
        dfs = self.df if isinstance(self.df, tuple) else (self.df,)
        df = ", ".join(f"{d:g}" for d in dfs)
        return (f"{self.name} {self.distribution}({df}) = {self.statistic:.6g}, "
                f"p = {self.p_value:.4g}").strip()


def chi2_result(statistic, df, name):
    """A chi-squared test result (statistic clipped at 0)."""
    statistic = float(max(statistic, 0.0))
    return TestResult(statistic, float(df), float(stats.chi2.sf(statistic, df)), "chi2", name)


def f_result(statistic, df_num, df_den, name):
    """An F test result."""
    return TestResult(float(statistic), (float(df_num), float(df_den)),
                      float(stats.f.sf(statistic, df_num, df_den)), "F", name)


def check_cov_type(cov_type, groups):
    """Validate ``cov_type`` and ``groups``; returns the groups as an array or None."""
    if cov_type not in COV_TYPES:
        raise ValueError(f"cov_type must be one of {COV_TYPES}, got {cov_type!r}.")
    if cov_type == "cluster":
        if groups is None:
            raise ValueError("cov_type='cluster' needs groups (one label per sample).")
        return np.asarray(groups)
    if groups is not None:
        raise ValueError(f"groups is used only with cov_type='cluster', not {cov_type!r}.")
    return None


def sandwich(bread, scores, cov_type, *, leverage=None, groups=None):
    """Robust covariance ``B M B`` from per-sample scores (n, k).

    Returns ``(cov, n_groups)`` (n_groups is None unless clustering).
    """
    n, k = scores.shape
    n_groups = None
    if cov_type in ("HC2", "HC3"):
        with np.errstate(divide="ignore", invalid="ignore"):
            power = 0.5 if cov_type == "HC2" else 1.0
            scores = scores / ((1.0 - leverage) ** power)[:, None]
    if cov_type == "cluster":
        if groups.shape[0] != n:
            raise ValueError(f"groups has {groups.shape[0]} labels, but the data have {n} "
                             "samples.")
        _, codes = np.unique(groups, return_inverse=True)
        n_groups = int(codes.max()) + 1
        if n_groups < 2:
            raise ValueError("cov_type='cluster' needs at least two groups.")
        summed = np.zeros((n_groups, k))
        np.add.at(summed, codes.ravel(), scores)
        meat = summed.T @ summed
        factor = n_groups / (n_groups - 1.0) * (n - 1.0) / (n - k)
    else:
        meat = scores.T @ scores
        factor = n / (n - k) if cov_type == "HC1" else 1.0
    return factor * (bread @ meat @ bread), n_groups


def leverages(design, weights, bread):
    """Diagonal of the weighted hat matrix ``w_i a_i' B a_i``."""
    return weights * np.einsum("ij,ij->i", design @ bread, design)


def wald_statistic(estimate, cov, index):
    """``b_R' V_RR^+ b_R`` for the coefficients in ``index``, and its rank.

    V is taken to its correlation matrix first (``b`` divided by the standard
    errors): the statistic and the rank cut then do not depend on the units of
    each coefficient, however far apart. A term of zero variance has no direction
    to test."""
    V = cov[np.ix_(index, index)]
    sd = np.sqrt(np.maximum(np.diag(V), 0.0))
    live = sd > 0.0
    sd = sd[live]
    b = estimate[index][live] / sd
    V = V[np.ix_(live, live)] / sd[:, None] / sd[None, :]
    w, Q = np.linalg.eigh(V)
    keep = w > 1e-12 * max(w.max(initial=0.0), 1e-300)
    z = Q[:, keep].T @ b
    return float(z @ (z / w[keep])), int(keep.sum())


def model_f_test(table, fit_intercept):
    """Wald F test that all slopes are zero with the table's covariance (OLS)."""
    index = np.arange(1 if fit_intercept else 0, len(table.estimate))
    if index.size == 0:
        return None
    stat, rank = wald_statistic(*table.wald_inputs(), index)
    if rank == 0:  # an exact fit: the covariance of the slopes is zero
        return None
    return f_result(stat / rank, rank, table.inference_df, "F")


# ----------------------------------------------------------------- tests between models

def _fit_info(est, role):
    # a model whose fit deferred part of its inference does it now (LogisticRegression)
    settle = getattr(est, "_settled_inference", None)
    info = settle() if settle is not None else getattr(est, "_inference", None)
    if info is None or "log_likelihood" not in info:
        raise ValueError(
            f"The {role} model has no likelihood: lr_test needs fitted LinearRegression or "
            "unpenalised (or Firth) LogisticRegression models (see their summary())."
        )
    return info


def _names(est):
    names = getattr(est, "feature_names_in_", None)
    return None if names is None else [str(n) for n in names]


def lr_test(full, reduced):
    """Likelihood-ratio test of a reduced model nested in a full one.

    Both models must be fitted on the same samples (the same rows and
    weights); the reduced model's features must be a subset of the full
    model's (checked by name when both were fitted on named columns, by
    count otherwise).

    Parameters
    ----------
    full, reduced : fitted LinearRegression or LogisticRegression
        Unpenalised fits (not penalty="firth": a penalised LR test needs the
        reduced model refitted with the full design in the penalty).

    Returns
    -------
    TestResult
        ``2 (llf_full - llf_reduced)`` referred to chi-squared with
        ``k_full - k_reduced`` degrees of freedom (k counts coefficients).

    Examples
    --------
    >>> import numpy as np
    >>> from classiclearn.linear_model import LinearRegression, lr_test
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(100, 2))
    >>> y = X[:, 0] + rng.normal(size=100)
    >>> full = LinearRegression().fit(X, y)
    >>> reduced = LinearRegression().fit(X[:, :1], y)
    >>> lr_test(full, reduced).p_value > 0.05
    True
    """
    a, b = _fit_info(full, "full"), _fit_info(reduced, "reduced")
    if type(full) is not type(reduced):
        raise ValueError("lr_test compares two models of the same class, got "
                         f"{type(full).__name__} and {type(reduced).__name__}.")
    if not np.isclose(a["n_obs"], b["n_obs"], rtol=1e-9) or a["n_rows"] != b["n_rows"]:
        raise ValueError("The two models were fitted on different numbers of samples "
                         f"({a['n_rows']} and {b['n_rows']}); fit both on the same rows.")
    if a.get("firth") or b.get("firth"):
        raise ValueError(
            "lr_test compares maximum-likelihood fits; for penalty='firth' the penalised "
            "likelihoods of different designs are not comparable (use wald_test, or the "
            "penalised LR test against the null model in summary().lr_test)."
        )
    if a["k"] <= b["k"]:
        raise ValueError(f"The full model has {a['k']} coefficients, the reduced {b['k']}: "
                         "pass the larger model first.")
    names_full, names_red = _names(full), _names(reduced)
    if names_full is not None and names_red is not None:
        missing = sorted(set(names_red) - set(names_full))
        if missing:
            raise ValueError(f"The models are not nested: {missing} are not in the full model.")
    if reduced.fit_intercept and not full.fit_intercept:
        raise ValueError("The models are not nested: the reduced model has an intercept "
                         "and the full model has none.")
    return chi2_result(2.0 * (a["log_likelihood"] - b["log_likelihood"]), a["k"] - b["k"],
                       "LR")


def wald_test(estimator, terms, *, cov_type="nonrobust", groups=None, X=None, y=None,
              sample_weight=None):
    """Wald test that some coefficients of a fitted model are all zero.

    Parameters
    ----------
    estimator : fitted LinearRegression or LogisticRegression
        A model for which ``summary()`` is defined.
    terms : list of str or int
        Term names as in the summary (``"intercept"``, feature names, or
        ``"x0"``... for unnamed features), or row positions in the summary.
        For a multinomial model a feature name selects its coefficients in
        every class (``"b:x0"``, ``"c:x0"``...); ``"b:x0"`` selects one.
    cov_type, groups, X, y, sample_weight
        The covariance to use, as in ``summary()`` (robust types need the
        training data).

    Returns
    -------
    TestResult
        chi-squared on r degrees of freedom for logistic regression (as
        statsmodels ``wald_test(..., use_f=False)``); F = W / r on
        (r, df_resid) for OLS (statsmodels ``f_test``).

    Examples
    --------
    >>> import numpy as np
    >>> from classiclearn.linear_model import LinearRegression, wald_test
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(100, 2))
    >>> y = X[:, 0] + rng.normal(size=100)
    >>> est = LinearRegression().fit(X, y)
    >>> wald_test(est, ["x0"]).p_value < 1e-6
    True
    """
    table = estimator.summary(cov_type=cov_type, groups=groups, X=X, y=y,
                              sample_weight=sample_weight)
    names = list(table.names)
    terms = list(terms)
    if not terms:
        raise ValueError("terms is empty: name at least one coefficient to test.")
    index = []
    for t in terms:
        if isinstance(t, (int, np.integer)) and not isinstance(t, bool):
            if not 0 <= t < len(names):
                raise ValueError(f"Term position {t} is out of range for {len(names)} terms.")
            index.append(int(t))
        elif t in names:
            index.append(names.index(t))
        elif any(n.endswith(f":{t}") for n in names):
            index.extend(i for i, n in enumerate(names) if n.endswith(f":{t}"))
        else:
            raise ValueError(f"Unknown term {t!r}; the terms are {names}.")
    index = np.unique(index)
    stat, rank = wald_statistic(*table.wald_inputs(), index)
    if rank == 0:
        raise ValueError("The covariance of the tested terms is zero (an exact fit): "
                         "there is nothing to test.")
    if table.statistic == "t":
        return f_result(stat / rank, rank, table.inference_df, "Wald F")
    return chi2_result(stat, rank, "Wald")
