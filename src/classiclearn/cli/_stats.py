"""Honest statistics for repeated cross-validation: the corrected resampled t-test.

The J = k x r scores of repeated k-fold cross-validation are not independent
(training sets overlap), so the naive standard error sd / sqrt(J) is too small
and the naive t-test finds differences that are not there. Nadeau and Bengio
(2003, "Inference for the generalization error", Machine Learning 52:239-281)
correct the variance of the mean by replacing 1/J with 1/J + n_test/n_train;
Bouckaert and Frank (2004) showed this corrected repeated k-fold test is the
one with acceptable type-I error and replicability (Weka's Experimenter uses it).

- interval: mean +/- t_{J-1, 0.975} * sqrt((1/J + n_test/n_train) * s^2)
- paired test of model a against model b on the same folds, d_j = a_j - b_j:
  t = mean(d) / sqrt((1/J + n_test/n_train) * s_d^2), J - 1 degrees of freedom.

Nothing here depends on what the score is: ``compare`` applies the same interval
to every scoring it reports (accuracy, roc_auc, r2, ...), and the same paired
test to ``--pair A,B``.
"""

import math

import numpy as np
from scipy import stats

__all__ = ["corrected_interval", "corrected_paired_ttest", "paired_comparison", "summarise"]


def _correction(n_scores, test_train_ratio):
    return 1.0 / n_scores + test_train_ratio


def corrected_interval(scores, test_train_ratio, level=0.95):
    """Confidence interval of the mean cross-validated score, variance-corrected.

    Parameters
    ----------
    scores : array-like of shape (J,)
        One score per fold and repeat.
    test_train_ratio : float
        n_test / n_train of one fold (1 / (k - 1) for k-fold).
    level : float, default=0.95

    Returns
    -------
    (low, high) : tuple of float
        Equal to (mean, mean) when all scores are equal; NaN with fewer than
        two scores.

    Examples
    --------
    >>> lo, hi = corrected_interval([0.8, 0.9, 0.85, 0.95, 0.9], 0.25)
    >>> round(lo, 3), round(hi, 3)
    (0.774, 0.986)
    """
    s = np.asarray(scores, dtype=np.float64)
    j = s.size
    if j < 2:
        return (math.nan, math.nan)
    mean = float(s.mean())
    se = math.sqrt(_correction(j, test_train_ratio) * float(s.var(ddof=1)))
    half = float(stats.t.ppf(0.5 + level / 2.0, j - 1)) * se
    return (mean - half, mean + half)


def corrected_paired_ttest(a, b, test_train_ratio):
    """Nadeau-Bengio corrected resampled paired t-test of scores a against b.

    Parameters
    ----------
    a, b : array-like of shape (J,)
        Scores of two models on the same folds (same order).
    test_train_ratio : float
        n_test / n_train of one fold.

    Returns
    -------
    t : float
        The corrected t statistic of mean(a - b) (inf when every difference
        is the same nonzero value, 0 when a equals b).
    p_value : float
        Two-sided p-value from Student's t with J - 1 degrees of freedom.

    Examples
    --------
    >>> t, p = corrected_paired_ttest([0.9, 0.92, 0.91, 0.93], [0.8, 0.81, 0.83, 0.82], 0.5)
    >>> round(t, 2), p < 0.05
    (8.16, True)
    """
    d = np.asarray(a, dtype=np.float64) - np.asarray(b, dtype=np.float64)
    j = d.size
    if j < 2:
        return (math.nan, math.nan)
    mean = float(d.mean())
    var = float(d.var(ddof=1))
    if var <= 1e-300 * max(1.0, mean * mean):
        if mean == 0.0:
            return (0.0, 1.0)
        return (math.copysign(math.inf, mean), 0.0)
    t = mean / math.sqrt(_correction(j, test_train_ratio) * var)
    p = float(2.0 * stats.t.sf(abs(t), j - 1))
    return (t, p)


def paired_comparison(a, b, test_train_ratio, *, level=0.95):
    """The corrected paired comparison of two models' scores on the same folds.

    Parameters
    ----------
    a, b : array-like of shape (J,)
    test_train_ratio : float
    level : float, default=0.95

    Returns
    -------
    dict
        ``mean_difference`` (mean of a - b), its corrected interval
        ``ci_low`` / ``ci_high``, ``t``, ``df`` (J - 1) and the two-sided
        ``p_value`` of :func:`corrected_paired_ttest`.

    Examples
    --------
    >>> r = paired_comparison([0.9, 0.92, 0.91, 0.93], [0.8, 0.81, 0.83, 0.82], 0.5)
    >>> round(r["mean_difference"], 3), round(r["t"], 2), r["df"]
    (0.1, 8.16, 3)
    """
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    if a.shape != b.shape or a.ndim != 1:
        raise ValueError("a and b must be 1-d score arrays over the same folds")
    d = a - b
    t, p = corrected_paired_ttest(a, b, test_train_ratio)
    lo, hi = corrected_interval(d, test_train_ratio, level=level)
    return {
        "mean_difference": float(d.mean()) if d.size else math.nan,
        "ci_low": lo,
        "ci_high": hi,
        "t": t,
        "df": int(d.size - 1),
        "p_value": p,
    }


def summarise(
    scores_by_model, test_train_ratio, *, alpha=0.05, greater_is_better=True, bounds=None
):
    """Mean, std, interval and the test against the best model, for every model.

    Parameters
    ----------
    scores_by_model : dict of str -> array of shape (J,)
        Scores on the same folds, in the same order. Models whose scores hold
        NaN are reported but not ranked.
    test_train_ratio : float
    alpha : float, default=0.05
        Level of the two-sided test against the best model.
    greater_is_better : bool, default=True
    bounds : (float, float), optional
        Range of the score (e.g. (0, 1) for accuracy); the interval is clipped
        to it.

    Returns
    -------
    list of dict
        Sorted best first, each with ``model``, ``mean``, ``std``,
        ``ci_low``, ``ci_high``, ``p_vs_best``, ``worse_than_best``, ``rank``.

    Examples
    --------
    >>> rows = summarise({"a": [0.9, 0.92, 0.91], "b": [0.5, 0.52, 0.49]}, 0.5)
    >>> [(r["model"], r["worse_than_best"]) for r in rows]
    [('a', False), ('b', True)]
    """
    sign = 1.0 if greater_is_better else -1.0
    rows = []
    for name, scores in scores_by_model.items():
        s = np.asarray(scores, dtype=np.float64)
        ok = s.size > 0 and bool(np.all(np.isfinite(s)))
        lo, hi = corrected_interval(s, test_train_ratio) if ok else (math.nan, math.nan)
        if bounds is not None and ok:
            lo, hi = max(lo, bounds[0]), min(hi, bounds[1])
        rows.append(
            {
                "model": name,
                "mean": float(s.mean()) if ok else math.nan,
                "std": float(s.std(ddof=1)) if ok and s.size > 1 else math.nan,
                "ci_low": lo,
                "ci_high": hi,
                "scores": s,
                "valid": ok,
            }
        )
    valid = [r for r in rows if r["valid"]]
    valid.sort(key=lambda r: (-sign * r["mean"], r["model"]))
    invalid = sorted((r for r in rows if not r["valid"]), key=lambda r: r["model"])
    best = valid[0] if valid else None
    for rank, r in enumerate(valid, start=1):
        r["rank"] = rank
        if r is best:
            r["p_vs_best"], r["worse_than_best"] = None, False
            continue
        t, p = corrected_paired_ttest(best["scores"], r["scores"], test_train_ratio)
        r["p_vs_best"] = p
        r["worse_than_best"] = bool(p < alpha and sign * t > 0)
    for r in invalid:
        r["rank"], r["p_vs_best"], r["worse_than_best"] = None, None, None
    out = valid + invalid
    for r in out:
        r.pop("valid")
    return out
