"""Metrics: scores for classification, regression and clustering, scorers, and
pairwise distances and kernels (seed 000 §2)."""

from ._classification import (
    UndefinedMetricWarning,
    accuracy_score,
    balanced_accuracy_score,
    brier_score_loss,
    classification_report,
    confusion_matrix,
    f1_score,
    fbeta_score,
    log_loss,
    matthews_corrcoef,
    precision_recall_fscore_support,
    precision_score,
    recall_score,
    zero_one_loss,
)
from ._classification_extra import (
    class_likelihood_ratios,
    d2_brier_score,
    d2_log_loss_score,
    jaccard_score,
    top_k_accuracy_score,
)
from ._cluster import (
    adjusted_mutual_info_score,
    adjusted_rand_score,
    completeness_score,
    contingency_matrix,
    entropy,
    fowlkes_mallows_score,
    homogeneity_completeness_v_measure,
    homogeneity_score,
    mutual_info_score,
    normalized_mutual_info_score,
    pair_confusion_matrix,
    rand_score,
    v_measure_score,
)
from ._ranking import (
    auc,
    average_precision_score,
    precision_recall_curve,
    roc_auc_score,
    roc_curve,
)
from ._regression import (
    d2_absolute_error_score,
    explained_variance_score,
    max_error,
    mean_absolute_error,
    mean_absolute_percentage_error,
    mean_gamma_deviance,
    mean_poisson_deviance,
    mean_squared_error,
    mean_squared_log_error,
    median_absolute_error,
    r2_score,
    root_mean_squared_error,
    root_mean_squared_log_error,
)
from ._scorer import check_scoring, get_scorer, get_scorer_names, make_scorer

# pairwise distances and kernels live in ``pairwise.py`` and are loaded on
# first use, so that the scores above never depend on that module importing.
_PAIRWISE = (
    "additive_chi2_kernel",
    "check_pairwise_arrays",
    "chi2_kernel",
    "cosine_similarity",
    "euclidean_distances",
    "laplacian_kernel",
    "linear_kernel",
    "manhattan_distances",
    "pairwise_kernels",
    "polynomial_kernel",
    "rbf_kernel",
    "sigmoid_kernel",
)

__all__ = [
    *_PAIRWISE,
    "UndefinedMetricWarning",
    "accuracy_score",
    "adjusted_mutual_info_score",
    "adjusted_rand_score",
    "auc",
    "average_precision_score",
    "balanced_accuracy_score",
    "brier_score_loss",
    "check_scoring",
    "class_likelihood_ratios",
    "classification_report",
    "completeness_score",
    "confusion_matrix",
    "contingency_matrix",
    "d2_absolute_error_score",
    "d2_brier_score",
    "d2_log_loss_score",
    "entropy",
    "explained_variance_score",
    "f1_score",
    "fbeta_score",
    "fowlkes_mallows_score",
    "get_scorer",
    "get_scorer_names",
    "homogeneity_completeness_v_measure",
    "homogeneity_score",
    "jaccard_score",
    "log_loss",
    "make_scorer",
    "matthews_corrcoef",
    "max_error",
    "mean_absolute_error",
    "mean_absolute_percentage_error",
    "mean_gamma_deviance",
    "mean_poisson_deviance",
    "mean_squared_error",
    "mean_squared_log_error",
    "median_absolute_error",
    "mutual_info_score",
    "normalized_mutual_info_score",
    "pair_confusion_matrix",
    "precision_recall_curve",
    "precision_recall_fscore_support",
    "precision_score",
    "r2_score",
    "rand_score",
    "recall_score",
    "roc_auc_score",
    "roc_curve",
    "root_mean_squared_error",
    "root_mean_squared_log_error",
    "top_k_accuracy_score",
    "v_measure_score",
    "zero_one_loss",
]


def __getattr__(name):
    if name in _PAIRWISE:
        from . import pairwise

        return getattr(pairwise, name)
    raise AttributeError(f"module 'classiclearn.metrics' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(__all__))
