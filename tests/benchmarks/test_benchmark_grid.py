"""The benchmark grid and the small-data overhead benchmark (issue 18) cover the registry and run."""

import pytest

from benchmarks import overhead
from benchmarks._runner import format_table
from benchmarks.grid import (
    QUADRATIC_MAX_ROWS,
    SIZES,
    Registry,
    build_cells,
    parse_sizes,
    read_cells_table,
    run_cells,
    summarise,
    summary_table,
)
from benchmarks.grid_specs import NO_TWIN, SPECS


@pytest.fixture(scope="module")
def registry():
    return Registry()


def test_every_registered_estimator_with_a_twin_has_cells(registry):
    cells = build_cells(SPECS, registry)
    with_cells = {cell.spec.name for cell in cells}
    twins = {name for name in registry.names() if registry.has_twin(name)}
    assert twins - with_cells == set()
    assert {spec.name for spec in SPECS} <= set(registry.names())
    # the estimators listed as twinless are registered, really lack a twin, and have no spec
    assert set(NO_TWIN) <= set(registry.names())
    assert not any(registry.has_twin(name) for name in NO_TWIN)
    assert not set(NO_TWIN) & with_cells
    assert len({cell.name for cell in cells}) == len(cells), "cell names must be unique"


def test_cells_respect_limits_and_filters(registry):
    cells = build_cells(SPECS, registry)
    for cell in cells:
        if cell.spec.max_rows is not None:
            assert cell.n_rows <= cell.spec.max_rows
    assert not [c for c in cells if c.spec.name == "SVC" and c.n_rows > QUADRATIC_MAX_ROWS]
    assert not [c for c in cells if c.spec.name == "PCA"
                and c.params["n_components"] > c.n_features]
    small = build_cells(SPECS, registry, sizes=("500",), families=["naive_bayes"])
    assert small and {c.family for c in small} == {"naive_bayes"}
    assert {c.size for c in small} == {"500"}
    only = build_cells(SPECS, registry, sizes=("500",), names=["KMeans"])
    assert only and {c.spec.name for c in only} == {"KMeans"}
    assert parse_sizes("500, 5000,50k") == ("500", "5k", "50k")
    assert set(parse_sizes(",".join(SIZES))) == set(SIZES)
    with pytest.raises(ValueError, match="unknown grid size"):
        parse_sizes("7")


def test_a_tiny_grid_runs_and_summarises(registry, tmp_path):
    cells = [
        c for c in build_cells(SPECS, registry, sizes=("500",), names=["GaussianNB 500x10 2",
                               "NearestNeighbors 500x10 algorithm='brute' metric='euclidean' "
                               "n_jobs=1"])
    ]
    assert len(cells) == 2
    results = run_cells(cells, registry, quick=True, repeats=1, log=None)
    for _, result in results:
        assert result.error is None
        assert result.scores_agree
        assert all(s.ours > 0 and s.theirs > 0 for s in result.steps)
    summaries = summarise(results)
    assert sorted(s.name for s in summaries) == ["GaussianNB", "NearestNeighbors"]
    assert all(s.worst is not None and s.cells == 1 for s in summaries)
    assert all("worst" in s.line() and "500x10" in s.line() for s in summaries)
    text = summary_table(summaries, NO_TWIN)
    assert "| GaussianNB | 1 |" in text and "KernelDensityNB" in text
    # the per-cell table reads back into the same ratios (--grid-merge)
    path = tmp_path / "cells.md"
    path.write_text(format_table([r for _, r in results]) + "\n")
    read = read_cells_table(path, SPECS)
    assert [c.name for c, _ in read] == [c.name for c, _ in results]
    steps = [(s.step, s.ours, s.theirs, s.ratio) for _, r in results for s in r.steps]
    read_steps = [(s.step, s.ours, s.theirs, s.ratio) for _, r in read for s in r.steps]
    assert read_steps == [(name, pytest.approx(a, abs=6e-5), pytest.approx(b, abs=6e-5),
                           pytest.approx(ratio, abs=0.006)) for name, a, b, ratio in steps]
    assert [(s.name, s.cells) for s in summarise(read)] == [(s.name, s.cells) for s in summaries]


def test_overhead_measures_default_estimators(registry, monkeypatch):
    monkeypatch.setattr(overhead, "BLOCKS", 1)
    monkeypatch.setattr(overhead, "MAX_CALLS", 3)
    specs = {spec.name: spec for spec in SPECS}
    cell = overhead.default_cell(specs["RadiusNeighborsClassifier"], "neighbors", 100)
    assert "radius" in cell.params and cell.n_rows == 100
    results = overhead.run(SPECS, registry, rows=(100,), names=["GaussianNB"], log=None)
    (measured,) = results["GaussianNB"]
    assert measured.error is None and measured.scores_agree
    assert measured.ours > 0 and measured.theirs > 0
    assert "| GaussianNB |" in overhead.table(results, rows=(100,))


def test_coldstart_variants_take_each_axis_value_alone():
    # every value of every axis once, except thread counts, values taken from the data
    # and those the spec's skip rule refuses at its first width
    from benchmarks.coldstart import variants
    from benchmarks.grid_specs import SPECS

    specs = {s.name: s for s in SPECS}
    pca = specs["PCA"]
    taken = {(axis, pca.axes[axis][i]) for axis, i in variants(pca)}
    assert ("svd_solver", "arpack") in taken and ("n_components", 2) in taken
    assert all(n <= pca.features[0] for axis, n in taken if axis == "n_components")
    knn = specs["KNeighborsClassifier"]
    axes = {axis for axis, _ in variants(knn)}
    assert "n_jobs" not in axes and {"algorithm", "metric"} <= axes
    radius = specs["RadiusNeighborsClassifier"]
    assert "radius" in radius.axes  # an axis, but its value comes from the data
    assert "radius" not in {axis for axis, _ in variants(radius)}


def test_coldstart_child_on_sparse_rows_reports_rows_and_compiled_kernels(capsys):
    import json

    import numpy as np
    import scipy.sparse as sp

    from benchmarks.coldstart import _as_sparse, _child, _labelled_variants, accepts_sparse
    from benchmarks.grid_specs import SPECS
    from classiclearn.linear_model import Lasso
    from classiclearn.multiclass import OneVsRestClassifier
    from classiclearn.naive_bayes import GaussianNB

    _child("MultinomialNB", sparse=True, rows=200)
    out = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert out["rows"] == 200 and out["first"] > 0 and isinstance(out["compiled"], list)
    X = np.arange(1.0, 2001.0).reshape(200, 10)
    X_train, y, X_test, _ = _as_sparse((X, None, X, None))
    assert sp.issparse(X_train) and 0.05 < X_train.nnz / X.size < 0.15
    assert accepts_sparse(Lasso) and not accepts_sparse(GaussianNB)
    assert not accepts_sparse(OneVsRestClassifier)  # needs an inner estimator: left out
    pca = next(s for s in SPECS if s.name == "PCA")
    assert _labelled_variants(pca, False, True) == [("CSR", ())]
    labelled = _labelled_variants(pca, True, True)
    assert ("svd_solver='arpack'", ("svd_solver", pca.axes["svd_solver"].index("arpack"))) \
        in labelled
