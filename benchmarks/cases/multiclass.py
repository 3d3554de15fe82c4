"""Multiclass-strategy benchmark cases (issue 6): one-vs-rest and one-vs-one around
LogisticRegression on 20,000 x 20 with 8 classes (ours around ours, scikit-learn's
around scikit-learn's), and output codes around it."""

from benchmarks import _data
from benchmarks._case import Case


def _sk(name, **kw):
    import sklearn.linear_model
    import sklearn.multiclass

    return getattr(sklearn.multiclass, name)(sklearn.linear_model.LogisticRegression(), **kw)


def _ours(name, **kw):
    import classiclearn.linear_model
    import classiclearn.multiclass

    return getattr(classiclearn.multiclass, name)(
        classiclearn.linear_model.LogisticRegression(), **kw
    )


def _wrap_sklearn_lr(module, name, **kw):
    """Our or scikit-learn's wrapper around scikit-learn's LogisticRegression: the
    wrapper's own cost, with the binary learner held fixed."""
    import importlib

    import sklearn.linear_model

    wrapper = getattr(importlib.import_module(module), name)
    return wrapper(sklearn.linear_model.LogisticRegression(), **kw)


def _data_20k(quick):
    return _data.classification(20_000, 20, 8, quick=quick)


CASES = [
    Case(
        name="OneVsRest(LogisticRegression) 20000x20 8 classes",
        data=_data_20k,
        ours=lambda: _ours("OneVsRestClassifier"),
        theirs=lambda: _sk("OneVsRestClassifier"),
        methods=("predict", "predict_proba"),
        score_tol=2e-3,
        goals={"fit": 1.0, "predict": 1.0, "predict_proba": 1.0},
    ),
    Case(
        name="OneVsOne(LogisticRegression) 20000x20 8 classes",
        data=_data_20k,
        ours=lambda: _ours("OneVsOneClassifier"),
        theirs=lambda: _sk("OneVsOneClassifier"),
        methods=("predict",),
        score_tol=2e-3,
        goals={"fit": 1.0, "predict": 1.0},
    ),
    Case(
        name="OutputCode(LogisticRegression) 20000x20 8 classes",
        data=_data_20k,
        ours=lambda: _ours("OutputCodeClassifier", code_size=1.5, random_state=0),
        theirs=lambda: _sk("OutputCodeClassifier", code_size=1.5, random_state=0),
        methods=("predict",),
        score_tol=5e-3,
        goals={"fit": 1.0, "predict": 1.0},
    ),
    Case(
        name="OneVsRest wrapper only (sklearn LR inside both) 20000x20 8 classes",
        data=_data_20k,
        ours=lambda: _wrap_sklearn_lr("classiclearn.multiclass", "OneVsRestClassifier"),
        theirs=lambda: _wrap_sklearn_lr("sklearn.multiclass", "OneVsRestClassifier"),
        methods=("predict", "predict_proba"),
        score_tol=0.0,
        goals={"fit": 1.0, "predict": 1.0, "predict_proba": 1.0},
    ),
    Case(
        name="OneVsOne wrapper only (sklearn LR inside both) 20000x20 8 classes",
        data=_data_20k,
        ours=lambda: _wrap_sklearn_lr("classiclearn.multiclass", "OneVsOneClassifier"),
        theirs=lambda: _wrap_sklearn_lr("sklearn.multiclass", "OneVsOneClassifier"),
        methods=("predict",),
        score_tol=0.0,
        goals={"fit": 1.0, "predict": 1.0},
    ),
]
