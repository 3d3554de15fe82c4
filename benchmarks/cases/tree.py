"""Decision tree benchmark cases (issue 7): exact and histogram DecisionTreeClassifier on
100,000 x 50, predicting 100,000 rows; scikit-learn's exact tree is the reference for both."""

from benchmarks import _data
from benchmarks._case import Case


def _data_100k(quick):
    return _data.classification(100_000, 50, 2, n_test=None if quick else 100_000, quick=quick)


def _ours(**params):
    from classiclearn.tree import DecisionTreeClassifier

    return DecisionTreeClassifier(random_state=0, **params)


def _theirs():
    from sklearn.tree import DecisionTreeClassifier

    return DecisionTreeClassifier(random_state=0)


CASES = [
    Case(
        name="DecisionTreeClassifier 100000x50",
        data=_data_100k,
        ours=lambda: _ours(),
        theirs=_theirs,
        methods=("predict",),
        goals={"fit": 1.0, "predict": 0.5},
        repeats=2,
    ),
    Case(
        name="DecisionTreeClassifier hist(255) 100000x50",
        data=_data_100k,
        ours=lambda: _ours(max_bins=255),
        theirs=_theirs,
        methods=("predict",),
        score_tol=0.01,
        goals={"fit": 0.2, "predict": 0.5},
        repeats=2,
    ),
]
