"""The coefficient table of a fitted linear or logistic model (seed 004).

For each coefficient and the intercept: the estimate, its standard error,
the t (OLS) or z (logistic, Wald) statistic, the two-sided p-value and a
confidence interval, as in seed 004's South African heart disease table;
optionally odds ratios with their interval (seed 004's reading of tobacco),
and the statistics of the whole fit (log-likelihood, deviance, AIC, BIC,
likelihood-ratio test against the null model, R-squared, F test).
"""

import numpy as np
from scipy import stats

__all__ = ["CoefficientTable"]

# Statistics of the whole fit that a table may carry (None when not defined).
FIT_STATISTICS = (
    "n_obs", "df_model", "df_resid", "log_likelihood", "null_log_likelihood",
    "deviance", "null_deviance", "aic", "bic", "lr_test", "pseudo_r2", "r2",
    "r2_adj", "f_test", "cov_type", "n_groups",
)


class CoefficientTable:
    """An inference table: one row per term.

    Parameters
    ----------
    names : list of str
        Term names (``"intercept"`` first when there is one).
    estimate, std_err : ndarray of shape (n_terms,)
    statistic : {"t", "z"}
        t with ``df_resid`` degrees of freedom, or the normal z.
    df_resid : float or None
        Residual degrees of freedom for t.
    alpha : float, default=0.05
        1 - confidence level of the intervals.
    title : str, default=""
    odds_ratios : bool, default=False
        Add ``exp(estimate)`` and its interval ``exp(conf_low), exp(conf_high)``
        (logistic regression: the factor on the odds per unit of the feature).
    fit_stats : dict, optional
        Statistics of the whole fit; the keys of ``FIT_STATISTICS`` become
        attributes (None when absent).
    cov : ndarray of shape (n_terms, n_terms), optional
        The covariance matrix of the estimates behind ``std_err``.
    scaled_cov : tuple (C, s), optional
        The same covariance as ``diag(s) C diag(s)`` with powers of two ``s``,
        for estimates of extreme magnitudes whose covariance over- or underflows
        (``cov`` is then inf or subnormal in places); Wald tests use it.

    Attributes
    ----------
    names, estimate, std_err, statistic_values, p_value, conf_low, conf_high
    odds_ratio, odds_ratio_low, odds_ratio_high : ndarray or None
    n_obs, df_model, df_resid, log_likelihood, null_log_likelihood, deviance,
    null_deviance, aic, bic, pseudo_r2, r2, r2_adj, cov_type, n_groups
        Fit statistics (None where the model does not define them).
    lr_test, f_test : TestResult or None
        Likelihood-ratio test against the null model; F test (OLS).
    cov : ndarray or None
    inference_df : float or None
        Degrees of freedom of the t distribution (None for z).

    Examples
    --------
    >>> t = CoefficientTable(["intercept", "x"], np.array([1.0, 2.0]),
    ...                      np.array([0.5, 0.5]), statistic="z")
    >>> t.to_dict()["z"]
    [2.0, 4.0]
    """

    def __init__(self, names, estimate, std_err, *, statistic="z", df_resid=None,
                 alpha=0.05, title="", odds_ratios=False, fit_stats=None, cov=None,
                 scaled_cov=None):
        self.names = list(names)
        self.estimate = np.asarray(estimate, dtype=np.float64)
        self.std_err = np.asarray(std_err, dtype=np.float64)
        self.statistic = statistic
        self.df_resid = df_resid
        self.alpha = alpha
        self.title = title
        self.cov = cov
        self.scaled_cov = scaled_cov
        self.interval = "wald"
        self.inference_df = df_resid if statistic == "t" else None
        with np.errstate(divide="ignore", invalid="ignore"):
            self.statistic_values = self.estimate / self.std_err
        if statistic == "t":
            dist = stats.t(df_resid)
        else:
            dist = stats.norm()
        self.p_value = 2.0 * dist.sf(np.abs(self.statistic_values))
        q = dist.ppf(1.0 - alpha / 2.0)
        self.conf_low = self.estimate - q * self.std_err
        self.conf_high = self.estimate + q * self.std_err
        self.odds_ratio = self.odds_ratio_low = self.odds_ratio_high = None
        if odds_ratios:
            self.odds_ratio = np.exp(self.estimate)
            self.odds_ratio_low = np.exp(self.conf_low)
            self.odds_ratio_high = np.exp(self.conf_high)
        fit_stats = {} if fit_stats is None else fit_stats
        for key in FIT_STATISTICS:
            setattr(self, key, fit_stats.get(key))
        if fit_stats.get("df_resid") is None:
            self.df_resid = df_resid

    def _columns(self):
        lo = f"[{self.alpha / 2:g}"
        hi = f"{1 - self.alpha / 2:g}]"
        cols = {
            "coef": self.estimate,
            "std err": self.std_err,
            self.statistic: self.statistic_values,
            f"P>|{self.statistic}|": self.p_value,
            lo: self.conf_low,
            hi: self.conf_high,
        }
        if self.odds_ratio is not None:
            cols["odds ratio"] = self.odds_ratio
            cols["OR " + lo] = self.odds_ratio_low
            cols["OR " + hi] = self.odds_ratio_high
        return cols

    def wald_inputs(self):
        """``(estimate, cov)`` for a Wald statistic, in the scaled units of
        ``scaled_cov`` where there is one (the statistic does not depend on them)."""
        if self.scaled_cov is None:
            return self.estimate, self.cov
        C, s = self.scaled_cov
        return self.estimate / s, C

    def set_intervals(self, low, high, kind="profile"):
        """Replace the Wald intervals (e.g. by profile-likelihood ones)."""
        self.conf_low = np.asarray(low, dtype=np.float64)
        self.conf_high = np.asarray(high, dtype=np.float64)
        self.interval = kind
        if self.odds_ratio is not None:
            self.odds_ratio_low = np.exp(self.conf_low)
            self.odds_ratio_high = np.exp(self.conf_high)

    def fit_statistics(self):
        """The statistics of the whole fit that are defined, as a dict."""
        return {k: getattr(self, k) for k in FIT_STATISTICS if getattr(self, k) is not None}

    def to_dict(self):
        """The table as ``{"term": names, column: list of floats, ...}``."""
        out = {"term": list(self.names)}
        for key, values in self._columns().items():
            out[key] = [float(v) for v in values]
        return out

    def to_frame(self):
        """The table as a pandas DataFrame indexed by term."""
        import pandas as pd

        return pd.DataFrame(
            {k: np.asarray(v) for k, v in self._columns().items()}, index=list(self.names)
        )

    def __len__(self):
        return len(self.names)

    def __str__(self):
        cols = self._columns()
        width = max(9, *(len(n) for n in self.names))
        head = " " * width + "".join(f"{k:>12}" for k in cols)
        lines = [self.title] if self.title else []
        lines += [head, "-" * len(head)]
        for i, name in enumerate(self.names):
            row = f"{name:<{width}}"
            for key, values in cols.items():
                fmt = "{:>12.4f}" if not key.startswith("P>") else "{:>12.3g}"
                row += fmt.format(values[i])
            lines.append(row)
        lines += _format_fit_statistics(self.fit_statistics())
        return "\n".join(lines)

    def __repr__(self):
        return self.__str__()


def _format_fit_statistics(stats):
    if not stats:
        return []
    lines = ["-" * 40]
    for key, value in stats.items():
        if isinstance(value, float):
            value = f"{value:.6g}"
        lines.append(f"{key:<22}{value}")
    return lines


def term_names(est, fit_intercept):
    """Names of the table rows: intercept then the feature names."""
    names = getattr(est, "feature_names_in_", None)
    if names is None:
        names = [f"x{j}" for j in range(est.n_features_in_)]
    names = [str(n) for n in names]
    return (["intercept"] if fit_intercept else []) + names


class Deferred:
    """A value computed on its first use (:meth:`get`) and kept: the unscaled
    covariance of a least-squares fit, which costs ``p^3`` and which most fits never
    read. Pickling, copying and saving store the value itself.

    Examples
    --------
    >>> m = Deferred(lambda: 2.0).then(lambda v: v + 1)
    >>> m.get()
    3.0
    """

    def __init__(self, compute):
        self._compute, self._value = compute, None

    def get(self):
        if self._compute is not None:
            self._value, self._compute = self._compute(), None
        return self._value

    def then(self, fn):
        """A Deferred of ``fn(value)``."""
        return Deferred(lambda: fn(self.get()))

    def __getstate__(self):
        return {"_compute": None, "_value": self.get()}


def resolved(value):
    """The value of a :class:`Deferred`; anything else as it is."""
    return value.get() if isinstance(value, Deferred) else value


def parameter_cov(M, scales, x_mean, total_weight, fit_intercept):
    """Unscaled covariance of the parameters, ``(C, e)`` with ``diag(e) C diag(e)``.

    ``M = (Xc'WXc)^+`` is given as ``diag(scales) M diag(scales)`` (``scales``
    None for ones); the intercept, when there is one, comes first with scale 1
    (see :func:`intercept_cov`). ``e`` is None where every scale is 1.

    Examples
    --------
    >>> C, e = parameter_cov(np.eye(1), np.array([0.5]), np.array([2.0]), 4.0, True)
    >>> C, e
    (array([[ 1.25, -1.  ],
           [-1.  ,  1.  ]]), array([1. , 0.5]))
    """
    if scales is None:
        return (intercept_cov(M, x_mean, total_weight) if fit_intercept else M), None
    if not fit_intercept:
        return M, scales
    return intercept_cov(M, x_mean * scales, total_weight), np.concatenate([[1.0], scales])


def intercept_cov(M, x_mean, total_weight):
    """Unscaled covariance of (intercept, coef) from ``M = (Xc'WXc)^+``.

    With centred data, ``b0 = ybar - xbar'w``; so ``var(b0) = 1/sum(w) +
    xbar' M xbar`` and ``cov(b0, w) = -M xbar`` (times sigma^2).
    """
    p = M.shape[0]
    out = np.empty((p + 1, p + 1))
    Mx = M @ x_mean
    out[0, 0] = 1.0 / total_weight + x_mean @ Mx
    out[0, 1:] = -Mx
    out[1:, 0] = -Mx
    out[1:, 1:] = M
    return out
