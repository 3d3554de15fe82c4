"""Clustering scores: the (adjusted) Rand index, (adjusted / normalised) mutual
information, homogeneity / completeness / V-measure, Fowlkes-Mallows, and the
contingency matrix (seed 000 §12)."""

import numpy as np

from ..utils.validation import check_consistent_length, column_or_1d

__all__ = [
    "adjusted_mutual_info_score",
    "adjusted_rand_score",
    "completeness_score",
    "contingency_matrix",
    "entropy",
    "fowlkes_mallows_score",
    "homogeneity_completeness_v_measure",
    "homogeneity_score",
    "mutual_info_score",
    "normalized_mutual_info_score",
    "pair_confusion_matrix",
    "rand_score",
    "v_measure_score",
]


def _check_labelings(labels_true, labels_pred):
    labels_true = column_or_1d(labels_true, input_name="labels_true")
    labels_pred = column_or_1d(labels_pred, input_name="labels_pred")
    check_consistent_length(labels_true, labels_pred)
    return labels_true, labels_pred


def contingency_matrix(labels_true, labels_pred):
    """Counts ``C[i, j]`` of samples in true class i and predicted cluster j.

    Parameters
    ----------
    labels_true, labels_pred : array-like of shape (n_samples,)

    Returns
    -------
    ndarray of shape (n_classes, n_clusters), int64

    Examples
    --------
    >>> contingency_matrix([0, 0, 1], [1, 1, 1])
    array([[2],
           [1]])
    """
    labels_true, labels_pred = _check_labelings(labels_true, labels_pred)
    _, ti = np.unique(labels_true, return_inverse=True)
    _, pi = np.unique(labels_pred, return_inverse=True)
    ti, pi = ti.ravel(), pi.ravel()
    nt = ti.max() + 1 if ti.size else 0
    npred = pi.max() + 1 if pi.size else 0
    return np.bincount(ti * npred + pi, minlength=nt * npred).reshape(nt, npred).astype(np.int64)


def pair_confusion_matrix(labels_true, labels_pred):
    """2x2 counts of ordered sample pairs by (same class?, same cluster?).

    Returns
    -------
    ndarray of shape (2, 2), int64
        ``[[not together in either, together in prediction only],
        [together in truth only, together in both]]``.

    Examples
    --------
    >>> pair_confusion_matrix([0, 0, 1, 1], [0, 0, 1, 1])
    array([[8, 0],
           [0, 4]])
    """
    labels_true, labels_pred = _check_labelings(labels_true, labels_pred)
    n = int(labels_true.shape[0])
    c = contingency_matrix(labels_true, labels_pred)
    n_c = [int(v) for v in c.sum(axis=1)]
    n_k = [int(v) for v in c.sum(axis=0)]
    sum_sq = sum(int(v) * int(v) for v in c.ravel())
    tp = sum_sq - n
    fp = sum(v * v for v in n_k) - sum_sq
    fn = sum(v * v for v in n_c) - sum_sq
    tn = n * n - fp - fn - sum_sq
    return np.array([[tn, fp], [fn, tp]], dtype=np.int64)


def rand_score(labels_true, labels_pred):
    """Rand index: the share of sample pairs on which the two labelings agree.

    Returns
    -------
    float

    Examples
    --------
    >>> rand_score([0, 0, 1, 2], [0, 0, 1, 1])
    0.8333333333333334
    """
    cm = pair_confusion_matrix(labels_true, labels_pred)
    agree = int(cm[0, 0]) + int(cm[1, 1])
    total = int(cm.sum())
    if total == 0 or agree == total:
        return 1.0
    return agree / total


def adjusted_rand_score(labels_true, labels_pred):
    """Rand index adjusted for chance (Hubert and Arabie 1985).

    1.0 for identical partitions (up to relabelling), about 0.0 for
    independent ones, possibly negative.

    Parameters
    ----------
    labels_true, labels_pred : array-like of shape (n_samples,)

    Returns
    -------
    float

    Examples
    --------
    >>> adjusted_rand_score([0, 0, 1, 1], [1, 1, 0, 0])
    1.0
    >>> round(adjusted_rand_score([0, 0, 1, 2], [0, 0, 1, 1]), 4)
    0.5714
    """
    cm = pair_confusion_matrix(labels_true, labels_pred)
    tn, fp, fn, tp = (int(v) for v in cm.ravel())
    if fn == 0 and fp == 0:
        return 1.0
    return 2.0 * (tp * tn - fn * fp) / ((tp + fn) * (fn + tn) + (tp + fp) * (fp + tn))


def entropy(labels):
    """Shannon entropy (natural log) of a labelling.

    Examples
    --------
    >>> round(entropy([0, 0, 1, 1]), 6)
    0.693147
    """
    labels = column_or_1d(labels, input_name="labels")
    if labels.size == 0:
        return 1.0
    _, counts = np.unique(labels, return_counts=True)
    if len(counts) == 1:
        return 0.0
    p = counts / counts.sum()
    return float(-np.sum(p * np.log(p)))


def mutual_info_score(labels_true, labels_pred, *, contingency=None):
    """Mutual information (natural log) between two labellings.

    Parameters
    ----------
    labels_true, labels_pred : array-like of shape (n_samples,)
    contingency : ndarray of shape (n_classes, n_clusters), optional
        Used instead of the labellings when given.

    Returns
    -------
    float

    Examples
    --------
    >>> round(mutual_info_score([0, 0, 1, 1], [1, 1, 0, 0]), 6)
    0.693147
    """
    if contingency is None:
        contingency = contingency_matrix(labels_true, labels_pred)
    counts = np.asarray(contingency, dtype=np.float64)
    total = counts.sum()
    if total == 0 or counts.shape[0] == 1 or counts.shape[1] == 1:
        return 0.0
    rows, cols = counts.sum(axis=1), counts.sum(axis=0)
    i, j = np.nonzero(counts)
    nij = counts[i, j]
    mi = nij / total * (np.log(nij * total) - np.log(rows[i] * cols[j]))
    return float(max(mi.sum(), 0.0))


def _generalized_mean(a, b, method):
    if method == "min":
        return min(a, b)
    if method == "max":
        return max(a, b)
    if method == "geometric":
        return float(np.sqrt(a * b))
    if method == "arithmetic":
        return (a + b) / 2.0
    raise ValueError("'average_method' must be 'min', 'geometric', 'arithmetic', or 'max'")


def _one_cluster_each(labels_true, labels_pred):
    """Both labellings put everything in one cluster (or are empty): a perfect match."""
    n_true, n_pred = len(np.unique(labels_true)), len(np.unique(labels_pred))
    return n_true == n_pred == 1 or n_true == n_pred == 0


def normalized_mutual_info_score(labels_true, labels_pred, *, average_method="arithmetic"):
    """Mutual information divided by a mean of the two entropies (0 to 1).

    Parameters
    ----------
    labels_true, labels_pred : array-like of shape (n_samples,)
    average_method : {"arithmetic", "geometric", "min", "max"}, default="arithmetic"

    Returns
    -------
    float

    Examples
    --------
    >>> round(normalized_mutual_info_score([0, 0, 1, 1], [1, 1, 0, 0]), 6)
    1.0
    """
    labels_true, labels_pred = _check_labelings(labels_true, labels_pred)
    if _one_cluster_each(labels_true, labels_pred):
        return 1.0
    mi = mutual_info_score(labels_true, labels_pred)
    if mi == 0:
        return 0.0
    norm = _generalized_mean(entropy(labels_true), entropy(labels_pred), average_method)
    return float(mi / norm)


def _expected_mutual_information(contingency, n_samples):
    """Expected mutual information of two labellings with these marginals under the
    hypergeometric (permutation) model (Vinh, Epps and Bailey 2010)."""
    from scipy.special import gammaln

    a = contingency.sum(axis=1).astype(np.float64)
    b = contingency.sum(axis=0).astype(np.float64)
    n = float(n_samples)
    emi = 0.0
    log_fact = gammaln(np.arange(int(n) + 1) + 1.0)  # log(k!)
    for ai in a:
        for bj in b:
            lo = int(max(1, ai + bj - n))
            hi = int(min(ai, bj))
            if hi < lo:
                continue
            nij = np.arange(lo, hi + 1, dtype=np.float64)
            term = nij / n * (np.log(n * nij) - np.log(ai * bj))
            k = nij.astype(np.intp)
            ai_, bj_, n_ = int(ai), int(bj), int(n)
            log_p = (log_fact[ai_] + log_fact[bj_] + log_fact[n_ - ai_] + log_fact[n_ - bj_]
                     - log_fact[n_] - log_fact[k] - log_fact[ai_ - k] - log_fact[bj_ - k]
                     - log_fact[n_ - ai_ - bj_ + k])
            emi += float(np.sum(term * np.exp(log_p)))
    return emi


def adjusted_mutual_info_score(labels_true, labels_pred, *, average_method="arithmetic"):
    """Mutual information adjusted for chance: ``(MI - E[MI]) / (mean(H) - E[MI])``.

    Parameters
    ----------
    labels_true, labels_pred : array-like of shape (n_samples,)
    average_method : {"arithmetic", "geometric", "min", "max"}, default="arithmetic"

    Returns
    -------
    float

    Examples
    --------
    >>> round(adjusted_mutual_info_score([0, 0, 1, 1], [1, 1, 0, 0]), 6)
    1.0
    """
    labels_true, labels_pred = _check_labelings(labels_true, labels_pred)
    if _one_cluster_each(labels_true, labels_pred):
        return 1.0
    contingency = contingency_matrix(labels_true, labels_pred)
    mi = mutual_info_score(None, None, contingency=contingency)
    emi = _expected_mutual_information(contingency, len(labels_true))
    norm = _generalized_mean(entropy(labels_true), entropy(labels_pred), average_method)
    den = norm - emi
    eps = np.finfo(np.float64).eps
    den = min(den, -eps) if den < 0 else max(den, eps)
    return float((mi - emi) / den)


def homogeneity_completeness_v_measure(labels_true, labels_pred, *, beta=1.0):
    """Homogeneity (each cluster holds one class), completeness (each class sits
    in one cluster) and their weighted harmonic mean, the V-measure.

    Returns
    -------
    homogeneity, completeness, v_measure : float

    Examples
    --------
    >>> [round(v, 4) for v in homogeneity_completeness_v_measure([0, 0, 1, 1], [0, 0, 1, 2])]
    [1.0, 0.6667, 0.8]
    """
    labels_true, labels_pred = _check_labelings(labels_true, labels_pred)
    if len(labels_true) == 0:
        return 1.0, 1.0, 1.0
    h_true, h_pred = entropy(labels_true), entropy(labels_pred)
    mi = mutual_info_score(labels_true, labels_pred)
    homogeneity = mi / h_true if h_true else 1.0
    completeness = mi / h_pred if h_pred else 1.0
    if homogeneity + completeness == 0.0:
        v_measure = 0.0
    else:
        v_measure = ((1 + beta) * homogeneity * completeness
                     / (beta * homogeneity + completeness))
    return float(homogeneity), float(completeness), float(v_measure)


def homogeneity_score(labels_true, labels_pred):
    """Homogeneity: 1.0 when every cluster holds members of a single class.

    Examples
    --------
    >>> homogeneity_score([0, 0, 1, 1], [0, 0, 1, 2])
    1.0
    """
    return homogeneity_completeness_v_measure(labels_true, labels_pred)[0]


def completeness_score(labels_true, labels_pred):
    """Completeness: 1.0 when all members of a class are in one cluster.

    Examples
    --------
    >>> round(completeness_score([0, 0, 1, 1], [0, 0, 1, 2]), 4)
    0.6667
    """
    return homogeneity_completeness_v_measure(labels_true, labels_pred)[1]


def v_measure_score(labels_true, labels_pred, *, beta=1.0):
    """V-measure: weighted harmonic mean of homogeneity and completeness.

    Examples
    --------
    >>> round(v_measure_score([0, 0, 1, 1], [0, 0, 1, 2]), 4)
    0.8
    """
    return homogeneity_completeness_v_measure(labels_true, labels_pred, beta=beta)[2]


def fowlkes_mallows_score(labels_true, labels_pred):
    """Geometric mean of pairwise precision and recall (Fowlkes and Mallows 1983).

    Examples
    --------
    >>> fowlkes_mallows_score([0, 0, 1, 1], [1, 1, 0, 0])
    1.0
    """
    labels_true, labels_pred = _check_labelings(labels_true, labels_pred)
    n = len(labels_true)
    c = contingency_matrix(labels_true, labels_pred).astype(np.int64)
    tk = int(np.sum(c * c)) - n
    pk = int(np.sum(c.sum(axis=0) ** 2)) - n
    qk = int(np.sum(c.sum(axis=1) ** 2)) - n
    if tk == 0:
        return 0.0
    return float(np.sqrt(tk / pk) * np.sqrt(tk / qk))
