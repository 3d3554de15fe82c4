"""The coefficient table of a fitted linear or logistic model (seed 004).

For each coefficient and the intercept: the estimate, its standard error,
the t (OLS) or z (logistic, Wald) statistic, the two-sided p-value and a
confidence interval, as in seed 004's South African heart disease table.
"""

import numpy as np
from scipy import stats

__all__ = ["CoefficientTable"]


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

    Attributes
    ----------
    names, estimate, std_err, statistic_values, p_value, conf_low, conf_high

    Examples
    --------
    >>> t = CoefficientTable(["intercept", "x"], np.array([1.0, 2.0]),
    ...                      np.array([0.5, 0.5]), statistic="z")
    >>> t.to_dict()["z"]
    [2.0, 4.0]
    """

    def __init__(self, names, estimate, std_err, *, statistic="z", df_resid=None,
                 alpha=0.05, title=""):
        self.names = list(names)
        self.estimate = np.asarray(estimate, dtype=np.float64)
        self.std_err = np.asarray(std_err, dtype=np.float64)
        self.statistic = statistic
        self.df_resid = df_resid
        self.alpha = alpha
        self.title = title
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

    def _columns(self):
        lo = f"[{self.alpha / 2:g}"
        hi = f"{1 - self.alpha / 2:g}]"
        return {
            "coef": self.estimate,
            "std err": self.std_err,
            self.statistic: self.statistic_values,
            f"P>|{self.statistic}|": self.p_value,
            lo: self.conf_low,
            hi: self.conf_high,
        }

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
        head = " " * width + "".join(f"{k:>11}" for k in cols)
        lines = [self.title] if self.title else []
        lines += [head, "-" * len(head)]
        for i, name in enumerate(self.names):
            row = f"{name:<{width}}"
            for key, values in cols.items():
                fmt = "{:>11.4f}" if not key.startswith("P>") else "{:>11.3g}"
                row += fmt.format(values[i])
            lines.append(row)
        return "\n".join(lines)

    def __repr__(self):
        return self.__str__()


def term_names(est, fit_intercept):
    """Names of the table rows: intercept then the feature names."""
    names = getattr(est, "feature_names_in_", None)
    if names is None:
        names = [f"x{j}" for j in range(est.n_features_in_)]
    names = [str(n) for n in names]
    return (["intercept"] if fit_intercept else []) + names


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
