"""Decision tree benchmark cases (issue 7): exact and histogram DecisionTreeClassifier on
100,000 x 50, predicting 100,000 rows; scikit-learn's exact tree is the reference for both.
Issue 16: the exact tree on 50,000 x 20 with 20% missing values (NaN) in 5 columns."""

import numpy as np

from benchmarks import _data
from benchmarks._case import Case


def _data_100k(quick):
    return _data.classification(100_000, 50, 2, n_test=None if quick else 100_000, quick=quick)


def _data_nan(quick):
    """50,000 x 20 (train and test), 20% of the values missing in columns 0, 4, 8, 12, 16."""
    X, y, Xt, yt = _data.classification(50_000, 20, 2, n_test=None if quick else 50_000,
                                        quick=quick)
    rng = np.random.default_rng(1)
    X, Xt = X.copy(), Xt.copy()
    for A in (X, Xt):
        for j in range(0, 20, 4):
            A[rng.random(A.shape[0]) < 0.2, j] = np.nan
    return X, y, Xt, yt


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
    Case(
        name="DecisionTreeClassifier NaN 20% 50000x20",
        data=_data_nan,
        ours=lambda: _ours(),
        theirs=_theirs,
        methods=("predict",),
        goals={"fit": 1.0, "predict": 1.0},
        repeats=3,
    ),
]
