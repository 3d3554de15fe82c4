"""Guards on the code base itself: no scikit-learn at import, numba only in kernels."""

import ast
import pathlib
import subprocess
import sys

import classiclearn
from classiclearn import all_estimators

SRC = pathlib.Path(classiclearn.__file__).parent


def test_importing_every_family_never_imports_sklearn_pandas_or_dask():
    code = (
        "import sys, classiclearn\n"
        "classiclearn.all_estimators()\n"
        "bad = [m for m in ('sklearn', 'dask', 'matplotlib') if m in sys.modules]\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def _imports(tree):
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            yield node.module


def test_numba_is_imported_only_by_kernel_modules():
    offenders = []
    for path in SRC.rglob("*.py"):
        is_kernel = "kernels" in path.name or path.parent.name == "_kernels"
        names = list(_imports(ast.parse(path.read_text())))
        if not is_kernel and path.name != "_threads.py" and any(n.split(".")[0] == "numba" for n in names):
            offenders.append(str(path.relative_to(SRC)))
    assert offenders == []


def test_sklearn_is_imported_only_lazily():
    """A module-level scikit-learn import anywhere in the library is a bug."""
    offenders = []
    for path in SRC.rglob("*.py"):
        tree = ast.parse(path.read_text())
        for node in tree.body:
            if isinstance(node, ast.Import | ast.ImportFrom):
                names = [node.module] if isinstance(node, ast.ImportFrom) else [a.name for a in node.names]
                if any((n or "").split(".")[0] == "sklearn" for n in names):
                    offenders.append(str(path.relative_to(SRC)))
    assert offenders == []


def test_registry_lists_public_estimators_with_docstrings():
    estimators = all_estimators()
    assert ("GaussianNB", classiclearn.naive_bayes.GaussianNB) in estimators
    for name, cls in estimators:
        assert cls.__doc__ and "Parameters" in cls.__doc__ or not cls._get_param_names(), name
    classifiers = {n for n, _ in all_estimators("classifier")}
    assert "GaussianNB" in classifiers
    assert "GaussianNB" not in {n for n, _ in all_estimators("regressor")}


def test_kernel_modules_take_njit_from_the_shared_jit_module():
    """``_kernels/jit.py`` sets where compiled kernels are cached; a module that took
    ``njit`` from numba directly would be cached elsewhere (and could go stale)."""
    offenders = []
    for path in SRC.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module == "numba":
                if {a.name for a in node.names} & {"njit", "jit", "prange"}:
                    offenders.append(str(path.relative_to(SRC)))
    assert offenders == ["_kernels/jit.py"]
