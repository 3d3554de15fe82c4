"""Sparse-input cases of the trees and forests (issue 17): classification of text-like
CSR rows (the generator of ``sparse_kernels``). The issue's goal for them: <= 1.0 for
fit and predict."""

from benchmarks._case import Case
from benchmarks.cases.sparse_kernels import _pair, _text_rows

GOALS = {"fit": 1.0, "predict": 1.0}

CASES = []
for _rows, _cols, _density in ((10_000, 5_000, 0.005),):
    _size = f"{_rows}x{_cols} {_density:.1%} 2 classes"
    for _name, _module, _params in (
        ("DecisionTreeClassifier", "tree", {"random_state": 0}),
        ("RandomForestClassifier", "ensemble", {"n_estimators": 20, "random_state": 0,
                                                "n_jobs": -1}),
        ("ExtraTreesClassifier", "ensemble", {"n_estimators": 20, "random_state": 0,
                                              "n_jobs": -1}),
    ):
        _ours, _theirs = _pair(_module, _name, **_params)
        CASES.append(Case(
            name=f"{_name} sparse {_size}",
            data=lambda quick, r=_rows, c=_cols, d=_density: _text_rows(r, c, d, 2, quick=quick),
            ours=_ours, theirs=_theirs, methods=("predict",), score_tol=2e-2, goals=GOALS,
            repeats=1,
        ))
