"""Discriminant-analysis benchmark cases (issue 6): LDA and QDA on 100,000 x 50 with
5 classes. Goal for fit: 0.2x scikit-learn (p x p scatter + eigen / Cholesky
instead of SVDs of n x p matrices)."""

from benchmarks import _data
from benchmarks._case import Case


def _sk(name, **kw):
    import sklearn.discriminant_analysis

    return getattr(sklearn.discriminant_analysis, name)(**kw)


def _ours(name, **kw):
    import classiclearn.discriminant_analysis

    return getattr(classiclearn.discriminant_analysis, name)(**kw)


def _data_100k(quick):
    return _data.classification(100_000, 50, 5, quick=quick)


CASES = [
    Case(
        name="LDA svd 100000x50 5 classes",
        data=_data_100k,
        ours=lambda: _ours("LinearDiscriminantAnalysis"),
        theirs=lambda: _sk("LinearDiscriminantAnalysis"),
        methods=("predict", "predict_proba", "transform"),
        goals={"fit": 0.2, "predict": 1.0, "predict_proba": 1.0, "transform": 1.0},
    ),
    Case(
        name="LDA eigen shrinkage=auto 100000x50 5 classes",
        data=_data_100k,
        ours=lambda: _ours("LinearDiscriminantAnalysis", solver="eigen", shrinkage="auto"),
        theirs=lambda: _sk("LinearDiscriminantAnalysis", solver="eigen", shrinkage="auto"),
        methods=("predict", "transform"),
        goals={"fit": 1.0, "predict": 1.0, "transform": 1.0},
    ),
    Case(
        name="QDA reg_param=0.01 100000x50 5 classes",
        data=_data_100k,
        ours=lambda: _ours("QuadraticDiscriminantAnalysis", reg_param=0.01),
        theirs=lambda: _sk("QuadraticDiscriminantAnalysis", reg_param=0.01),
        methods=("predict", "predict_proba"),
        goals={"fit": 0.2, "predict": 1.0, "predict_proba": 1.0},
    ),
]
