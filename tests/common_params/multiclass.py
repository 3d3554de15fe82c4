"""check_estimator settings for classiclearn.multiclass (wrapping our own estimators)."""

from classiclearn.discriminant_analysis import LinearDiscriminantAnalysis
from classiclearn.naive_bayes import GaussianNB

CHECK_PARAMS = {
    "OneVsRestClassifier": [
        {"estimator": LinearDiscriminantAnalysis()},
        {"estimator": GaussianNB()},
    ],
    "OneVsOneClassifier": [
        {"estimator": LinearDiscriminantAnalysis()},
        {"estimator": GaussianNB()},
    ],
    "OutputCodeClassifier": [
        {"estimator": LinearDiscriminantAnalysis(), "random_state": 0},
        {"estimator": GaussianNB(), "random_state": 0, "code_size": 2.0},
    ],
}

EXPECTED_FAILURES = {}
