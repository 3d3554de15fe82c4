"""Forest benchmark cases (issue 7): RandomForest and ExtraTrees classifiers on 100,000 x 50
with 100 trees and n_jobs=-1 for both libraries (exact and histogram mode), and
RandomForestRegressor on 100,000 x 20; predictions of 100,000 rows. Issue 16:
RandomForestClassifier on 50,000 x 20 with 20% missing values (NaN) in 5 columns."""

from benchmarks import _data
from benchmarks._case import Case
from benchmarks.cases.tree import _data_nan


def _cls(quick):
    return _data.classification(100_000, 50, 2, n_test=None if quick else 100_000, quick=quick)


def _reg(quick):
    return _data.regression(100_000, 20, n_test=None if quick else 100_000, quick=quick)


def _ours(name, **params):
    import classiclearn.ensemble

    return getattr(classiclearn.ensemble, name)(n_estimators=100, n_jobs=-1, random_state=0,
                                                **params)


def _theirs(name):
    import sklearn.ensemble

    return getattr(sklearn.ensemble, name)(n_estimators=100, n_jobs=-1, random_state=0)


def _forest_case(label, estimator, data, goals, **params):
    """One forest case: ``estimator`` from both libraries, 100 trees, ``params`` only on ours."""
    method = "predict_proba" if estimator.endswith("Classifier") else "predict"
    return Case(
        name=label,
        data=data,
        ours=lambda: _ours(estimator, **params),
        theirs=lambda: _theirs(estimator),
        methods=(method,),
        score_tol=0.01 if params else 0.005,
        goals={"fit": goals[0], method: goals[1]},
        repeats=1,
    )


CASES = [
    _forest_case("RandomForestClassifier 100000x50 100 trees", "RandomForestClassifier", _cls,
                 (1.0, 0.5)),
    _forest_case("RandomForestClassifier hist(255) 100000x50 100 trees",
                 "RandomForestClassifier", _cls, (0.33, 0.5), max_bins=255),
    _forest_case("ExtraTreesClassifier 100000x50 100 trees", "ExtraTreesClassifier", _cls,
                 (0.67, 0.5)),
    _forest_case("RandomForestRegressor 100000x20 100 trees", "RandomForestRegressor", _reg,
                 (1.0, 0.5)),
    _forest_case("RandomForestClassifier NaN 20% 50000x20 100 trees", "RandomForestClassifier",
                 _data_nan, (1.0, 1.0)),
]
