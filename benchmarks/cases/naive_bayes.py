"""Naive Bayes benchmark cases."""

from benchmarks import _data
from benchmarks._case import Case


def _sk(name):
    import sklearn.naive_bayes

    return getattr(sklearn.naive_bayes, name)


def _ours(name):
    import classiclearn.naive_bayes

    return getattr(classiclearn.naive_bayes, name)


CASES = [
    Case(
        name="GaussianNB 100000x50 5 classes",
        data=lambda quick: _data.classification(100_000, 50, 5, quick=quick),
        ours=lambda: _ours("GaussianNB")(),
        theirs=lambda: _sk("GaussianNB")(),
        methods=("predict", "predict_proba"),
        goals={"fit": 1.0, "predict": 1.0, "predict_proba": 1.0},
    ),
]
