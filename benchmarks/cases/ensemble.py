"""Forest benchmark cases (issue 7): RandomForest and ExtraTrees classifiers on 100,000 x 50
with 100 trees and n_jobs=-1 for both libraries (exact and histogram mode), and
RandomForestRegressor on 100,000 x 20; predictions of 100,000 rows."""

from benchmarks import _data
from benchmarks._case import Case


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


CASES = [
    Case(
        name="RandomForestClassifier 100000x50 100 trees",
        data=_cls,
        ours=lambda: _ours("RandomForestClassifier"),
        theirs=lambda: _theirs("RandomForestClassifier"),
        methods=("predict_proba",),
        score_tol=0.005,
        goals={"fit": 1.0, "predict_proba": 0.5},
        repeats=1,
    ),
    Case(
        name="RandomForestClassifier hist(255) 100000x50 100 trees",
        data=_cls,
        ours=lambda: _ours("RandomForestClassifier", max_bins=255),
        theirs=lambda: _theirs("RandomForestClassifier"),
        methods=("predict_proba",),
        score_tol=0.01,
        goals={"fit": 0.33, "predict_proba": 0.5},
        repeats=1,
    ),
    Case(
        name="ExtraTreesClassifier 100000x50 100 trees",
        data=_cls,
        ours=lambda: _ours("ExtraTreesClassifier"),
        theirs=lambda: _theirs("ExtraTreesClassifier"),
        methods=("predict_proba",),
        score_tol=0.005,
        goals={"fit": 0.67, "predict_proba": 0.5},
        repeats=1,
    ),
    Case(
        name="RandomForestRegressor 100000x20 100 trees",
        data=_reg,
        ours=lambda: _ours("RandomForestRegressor"),
        theirs=lambda: _theirs("RandomForestRegressor"),
        methods=("predict",),
        score_tol=0.005,
        goals={"fit": 1.0, "predict": 0.5},
        repeats=1,
    ),
]
