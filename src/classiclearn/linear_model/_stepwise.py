"""Backward and forward stepwise selection of features (seed 004's reduced model).

Seed 004 reduces the South African heart-disease model from seven risk
factors to tobacco, ldl, famhist and age. Backward elimination starting from
the full model reproduces that choice with each of the criteria offered here
(Wald or likelihood-ratio test at the 5% level, AIC, BIC); the tests check it.
"""

import numpy as np
from scipy import stats

from ..base import clone
from ._inference_stats import chi2_result, wald_statistic

__all__ = ["stepwise_selection"]

_CRITERIA = ("aic", "bic", "wald", "lr")


def _as_array(X):
    names = getattr(X, "columns", None)
    names = None if names is None else [str(c) for c in names]
    A = np.asarray(X, dtype=np.float64)
    if A.ndim != 2:
        raise ValueError(f"X must be 2-D (n_samples, n_features), got shape {A.shape}.")
    return A, names


class _Fits:
    """Fits of the estimator on feature subsets, cached by subset."""

    def __init__(self, estimator, X, y, sample_weight):
        self.estimator, self.X, self.y, self.sw = estimator, X, y, sample_weight
        self.cache = {}
        self.null = None

    def get(self, subset):
        key = tuple(sorted(subset))
        if key not in self.cache:
            if not key:
                self.cache[key] = self._null_fit()
            else:
                est = clone(self.estimator).fit(self.X[:, list(key)], self.y,
                                                sample_weight=self.sw)
                table = est.summary()
                info = est._inference
                llf = info["log_likelihood"]
                self.null = (info["null_log_likelihood"], info["k_null"], info["n_obs"])
                self.cache[key] = {"table": table, "llf": llf, "k": info["k"],
                                   "aic": table.aic, "bic": table.bic}
        return self.cache[key]

    def _null_fit(self):
        if self.null is None:
            self.get([0])
        llf, k, n = self.null
        return {"table": None, "llf": llf, "k": k, "aic": -2 * llf + 2 * k,
                "bic": -2 * llf + k * np.log(n)}

    def lr_p_value(self, big, small):
        a, b = self.get(big), self.get(small)
        return chi2_result(2.0 * (a["llf"] - b["llf"]), a["k"] - b["k"], "LR").p_value

    def wald_p_value(self, subset, feature):
        """p-value of the Wald test that ``feature``'s coefficients are zero."""
        fit = self.get(subset)
        table = fit["table"]
        term = f"x{sorted(subset).index(feature)}"
        rows = [i for i, n in enumerate(table.names) if n == term or n.endswith(":" + term)]
        if len(rows) == 1:
            return float(table.p_value[rows[0]])
        stat, rank = wald_statistic(*table.wald_inputs(), np.array(rows))
        return float(stats.chi2.sf(stat, rank))


def _backward_step(fits, current, criterion, alpha):
    """The feature to drop, or None."""
    if criterion in ("aic", "bic"):
        base = fits.get(current)[criterion]
        scores = {j: fits.get([c for c in current if c != j])[criterion] for j in current}
        j = min(scores, key=scores.get)
        return j if scores[j] < base else None
    if criterion == "wald":
        p = {j: fits.wald_p_value(current, j) for j in current}
    else:
        p = {j: fits.lr_p_value(current, [c for c in current if c != j]) for j in current}
    j = max(p, key=p.get)
    return j if p[j] > alpha else None


def _forward_step(fits, current, remaining, criterion, alpha):
    """The feature to add, or None."""
    if criterion in ("aic", "bic"):
        base = fits.get(current)[criterion]
        scores = {j: fits.get(current + [j])[criterion] for j in remaining}
        j = min(scores, key=scores.get)
        return j if scores[j] < base else None
    if criterion == "wald":
        p = {j: fits.wald_p_value(current + [j], j) for j in remaining}
    else:
        p = {j: fits.lr_p_value(current + [j], current) for j in remaining}
    j = min(p, key=p.get)
    return j if p[j] < alpha else None


def stepwise_selection(estimator, X, y, *, direction="backward", criterion="aic",
                       alpha=0.05, sample_weight=None):
    """Backward elimination or forward selection of features.

    Each step refits ``clone(estimator)`` on candidate feature subsets (the
    intercept, if the estimator fits one, is always kept):

    - ``criterion="aic"`` / ``"bic"``: take the single drop (backward) or
      addition (forward) that lowers the criterion most; stop when none
      lowers it;
    - ``"wald"``: backward drops the feature with the largest Wald p-value
      while it exceeds ``alpha``; forward adds the feature with the smallest
      Wald p-value in the enlarged model while it is below ``alpha``;
    - ``"lr"``: the same with the likelihood-ratio test between the two
      nested models.

    Parameters
    ----------
    estimator : LinearRegression or LogisticRegression
        Unpenalised (``penalty=None``); its ``summary()`` must be defined on
        every subset (penalty="firth" is refused: its penalised likelihoods
        are not comparable across designs).
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
    direction : {"backward", "forward"}, default="backward"
    criterion : {"aic", "bic", "wald", "lr"}, default="aic"
    alpha : float, default=0.05
        Level of the tests ("wald", "lr").
    sample_weight : array-like of shape (n_samples,), default=None

    Returns
    -------
    list
        The kept features in their order in X: column names when X has
        them (a DataFrame), else column indices.

    Examples
    --------
    >>> import numpy as np
    >>> from classiclearn.linear_model import LinearRegression, stepwise_selection
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(200, 4))
    >>> y = 2 * X[:, 1] - X[:, 3] + rng.normal(size=200)
    >>> stepwise_selection(LinearRegression(), X, y, criterion="bic")
    [1, 3]
    """
    if direction not in ("backward", "forward"):
        raise ValueError(f"direction must be 'backward' or 'forward', got {direction!r}.")
    if criterion not in _CRITERIA:
        raise ValueError(f"criterion must be one of {_CRITERIA}, got {criterion!r}.")
    if not 0.0 < alpha < 1.0:
        raise ValueError(f"alpha must be in (0, 1), got {alpha!r}.")
    if getattr(estimator, "penalty", None) == "firth":
        raise ValueError("stepwise_selection needs maximum-likelihood fits (penalty=None); "
                         "penalty='firth' is not supported.")
    A, names = _as_array(X)
    if A.shape[1] == 0:
        raise ValueError("X has no features to select from.")
    fits = _Fits(estimator, A, y, sample_weight)
    features = list(range(A.shape[1]))
    if direction == "backward":
        current = features
        while current:
            drop = _backward_step(fits, current, criterion, alpha)
            if drop is None:
                break
            current = [c for c in current if c != drop]
    else:
        current = []
        while len(current) < len(features):
            remaining = [j for j in features if j not in current]
            add = _forward_step(fits, current, remaining, criterion, alpha)
            if add is None:
                break
            current = current + [add]
    kept = sorted(current)
    return [names[j] for j in kept] if names is not None else kept
