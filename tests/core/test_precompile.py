"""``classiclearn precompile``: kernels compiled up front are loaded, not compiled, later."""


import pytest

from child_process import run_python
from classiclearn.cli import main
from classiclearn.precompile import precompile

COUNT_COMPILES = (
    "from numba.core import event\n"
    "count = [0]\n"
    "class Counter(event.Listener):\n"
    "    def on_start(self, ev): count[0] += 1\n"
    "    def on_end(self, ev): pass\n"
    "event.register('numba:compile', Counter())\n"
    "import numpy as np\n"
    "from classiclearn.naive_bayes import GaussianNB\n"
    "X = np.random.default_rng(1).normal(size=(50, 3)); y = np.arange(50) % 2\n"
    "GaussianNB().fit(X, y).predict_proba(X)\n"
    "print(count[0])\n"
)


def _compiles_in_child(cache):
    out = run_python(["-c", COUNT_COMPILES], CLASSICLEARN_CACHE_DIR=str(cache))
    assert out.returncode == 0, out.stderr
    return int(out.stdout.strip().splitlines()[-1])


def test_precompiled_kernels_are_loaded_by_a_new_process(tmp_path):
    cache = tmp_path / "cache"
    assert _compiles_in_child(tmp_path / "empty") > 0  # the counter sees compiles
    code = "import sys; from classiclearn.cli import main; sys.exit(main(sys.argv[1:]))"
    out = run_python(["-c", code, "precompile", "GaussianNB", "BernoulliNB", "--jobs", "2"],
                     CLASSICLEARN_CACHE_DIR=str(cache))
    assert out.returncode == 0, out.stderr
    assert "GaussianNB" in out.stdout and "BernoulliNB (sparse)" in out.stdout
    assert _compiles_in_child(cache) == 0


def test_precompile_reports_per_estimator_and_refuses_unknown_names():
    report = precompile(["CategoricalNB"], sparse=True, n_jobs=1)
    assert set(report.seconds) == {"CategoricalNB"}  # CategoricalNB refuses sparse X: no job
    assert report.errors == {}
    with pytest.raises(ValueError, match="unknown estimator name"):
        precompile(["NoSuchModel"])
    with pytest.raises(ValueError, match="n_jobs"):
        precompile(["GaussianNB"], n_jobs=0)


def test_precompile_command_usage_error(capsys):
    assert main(["precompile", "NoSuchModel"]) == 2
    assert "unknown estimator name" in capsys.readouterr().err


def test_precompile_variants_are_valid_parameters_of_registered_estimators():
    # each variant runs in precompile's worker: a misspelt name or parameter would only
    # show as a kernel left to compile at a user's first call
    from classiclearn.precompile import _SPARSE_VARIANTS, _VARIANTS
    from classiclearn.utils.discovery import all_estimators

    registered = dict(all_estimators())
    for name, variants in [*_VARIANTS.items(), *_SPARSE_VARIANTS.items()]:
        assert name in registered, name
        known = registered[name]().get_params()
        for params in variants:
            assert set(params) <= set(known), (name, params)
            registered[name](**params)._validate_params()


def test_precompile_large_jobs_name_registered_estimators_and_formats_they_take():
    from classiclearn._tags import get_tags
    from classiclearn.precompile import _LARGE, _groups
    from classiclearn.utils.discovery import all_estimators

    registered = dict(all_estimators())
    for name, (rows, formats) in _LARGE.items():
        assert name in registered and rows > 0 and formats, name
        assert all(get_tags(registered[name]()).sparse for on_csr in formats if on_csr), name
    large = {(job[0], job[1]) for group in _groups(None, True) for job in group
             if job[3] > 0 and not job[2]}
    assert large == {(name, on_csr) for name, (_, formats) in _LARGE.items()
                     for on_csr in formats}
    dense_only = {(job[0], job[1]) for group in _groups(None, False) for job in group
                  if job[3] > 0 and not job[2]}
    assert dense_only == {(name, on_csr) for name, on_csr in large if not on_csr}


def test_precompile_large_variants_are_jobs_of_registered_parameters():
    from classiclearn.precompile import _LARGE_VARIANTS, _groups
    from classiclearn.utils.discovery import all_estimators

    registered = dict(all_estimators())
    jobs = [job for group in _groups(None, True) for job in group if job[3] > 0 and job[2]]
    assert sorted((name, sparse, rows) for name, sparse, _, rows in jobs) == sorted(
        (name, on_csr, rows) for name, variants in _LARGE_VARIANTS.items()
        for rows, _, on_csr in variants)
    for name, _, params, _ in jobs:
        registered[name](**params)._validate_params()
    # without sparse input only the dense variants run
    dense = [job for group in _groups(None, False) for job in group if job[3] > 0 and job[2]]
    assert all(not sparse for _, sparse, _, _ in dense)


def test_precompile_wide_variants_reach_their_wide_path(monkeypatch):
    # LinearRegression(positive=True) on more features than rows runs Lawson-Hanson's
    # kernel, which the tall small data never reaches
    from classiclearn.linear_model import _ols
    from classiclearn.precompile import _WIDE, _WIDE_VARIANTS, _groups, _run_estimator
    from classiclearn.utils.discovery import all_estimators

    jobs = [job for group in _groups(None, False) for job in group if job[3] == _WIDE]
    assert sorted((name, tuple(params.items())) for name, _, params, _ in jobs) == sorted(
        (name, tuple(params.items())) for name, variants in _WIDE_VARIANTS.items()
        for params in variants)
    calls = []
    monkeypatch.setattr(_ols, "lawson_hanson",
                        lambda *args: calls.append(1) or _ols_kernel(*args))
    for name, sparse, params, large in jobs:
        assert _run_estimator(dict(all_estimators())[name], sparse, params, large) > 0.0
    assert calls


def _ols_kernel(*args):
    from classiclearn.linear_model._nnls_kernels import lawson_hanson

    return lawson_hanson(*args)


def _variant_jobs():
    from classiclearn.precompile import _SPARSE_VARIANTS, _VARIANTS

    return ([(name, False, params) for name, variants in _VARIANTS.items()
             for params in variants]
            + [(name, True, params) for name, variants in _SPARSE_VARIANTS.items()
               for params in variants])


@pytest.mark.parametrize("name, sparse, params", _variant_jobs(),
                         ids=lambda v: str(v) if not isinstance(v, dict) else
                         ",".join(f"{k}={x}" for k, x in v.items()))
def test_precompile_variants_fit_on_the_workers_data(name, sparse, params):
    # a variant whose fit fails on the worker's data compiles nothing (liblinear's
    # logistic regression refuses the three classes the other classifiers get)
    from classiclearn.precompile import _run_estimator
    from classiclearn.utils.discovery import all_estimators

    seconds = _run_estimator(dict(all_estimators())[name], sparse, params)
    assert seconds > 0.0


def _spy(monkeypatch, module, name, calls):
    kernel = getattr(module, name)

    def spied(*args):
        calls.append(args)
        return kernel(*args)

    monkeypatch.setattr(module, name, spied)


def _rows_not_grouped(args):
    csc = args[3]  # build_tree(data, settings, dense, csc, ...)
    return csc is not None and csc.by_rows is None


def _any_call(args):
    return True


# (estimator, sparse, params, large) of a precompile job, the kernel module and name
# that job is for, and what the call must show: the first calls that compiled these
# kernels after install took 0.5-8.7 s (`python -m benchmarks --coldstart --variants`)
_REACHED = [
    ("DecisionTreeClassifier", False, {"ccp_alpha": 0.01}, 0,
     "classiclearn.tree._prune_kernels", "prune", _any_call),
    ("LinearSVC", False, {"multi_class": "crammer_singer"}, 0,
     "classiclearn.svm._linear_kernels", "crammer_singer_dual_cd", _any_call),
    ("KernelPCA", False, {"eigen_solver": "arpack", "n_components": 2}, 0,
     "classiclearn.decomposition._kernel_pca", "centre_lower", _any_call),
    ("DecisionTreeClassifier", True, {"max_features": 1}, 120,
     "classiclearn.tree._build_kernels", "build_tree", _rows_not_grouped),
    ("DecisionTreeClassifier", True, {"max_features": 1, "splitter": "random"}, 120,
     "classiclearn.tree._build_kernels", "build_tree", _rows_not_grouped),
    ("Lasso", False, {}, -1,
     "classiclearn.linear_model._cd_kernels", "center_to_fortran", _any_call),
]


@pytest.mark.parametrize("name, sparse, params, large, module, kernel, shows", _REACHED,
                         ids=[f"{r[0]}-{r[5]}" + ("-sparse" if r[1] else "") for r in _REACHED])
def test_precompile_jobs_reach_the_kernels_they_are_for(monkeypatch, name, sparse, params,
                                                        large, module, kernel, shows):
    import importlib

    from classiclearn.precompile import _groups, _run_estimator
    from classiclearn.utils.discovery import all_estimators

    assert (name, sparse, params, large) in [job for group in _groups({name}, True)
                                             for job in group]
    calls = []
    _spy(monkeypatch, importlib.import_module(module), kernel, calls)
    _run_estimator(dict(all_estimators())[name], sparse, params, large)
    assert any(shows(args) for args in calls)
