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


def _jitted_functions(tree):
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            decorators = [ast.unparse(d) for d in node.decorator_list]
            if any("njit" in d for d in decorators):
                yield node, any("inline" in d for d in decorators)


def test_kernels_never_pass_int_or_bool_literals_to_other_kernels():
    """numba types a literal argument as its value: ``f(x, 0)`` beside ``f(x, n)`` compiles
    ``f`` (and everything it calls) twice. Kernels pass ``np.intp(0)`` / ``np.bool_(True)``."""
    kernel_files = [p for p in SRC.rglob("*.py")
                    if "kernels" in p.name or p.parent.name == "_kernels"]
    trees = {p: ast.parse(p.read_text()) for p in kernel_files}
    called_by_literal_ok = set()
    jitted = set()
    for tree in trees.values():
        for fn, inlined in _jitted_functions(tree):
            jitted.add(fn.name)
            if inlined:  # inlined into the caller: no separate version
                called_by_literal_ok.add(fn.name)
    offenders = []
    for path, tree in trees.items():
        for fn, _ in _jitted_functions(tree):
            for node in ast.walk(fn):
                if not isinstance(node, ast.Call):
                    continue
                func = node.func
                name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
                if name not in jitted or name in called_by_literal_ok:
                    continue
                if any(isinstance(a, ast.Constant) and isinstance(a.value, bool | int)
                       for a in [*node.args, *(k.value for k in node.keywords)]):
                    offenders.append(f"{path.relative_to(SRC)}:{node.lineno} {name}")
    assert offenders == []


def test_parallel_kernels_write_loops_not_array_expressions():
    """In a ``parallel=True`` kernel numba turns every ``np.zeros`` / ``np.ones`` /
    ``np.full`` and every slice assignment into a parallel loop of its own, compiled
    separately (seconds of first-call time each); such kernels write explicit loops."""
    offenders = []
    for path in SRC.rglob("*kernels*.py"):
        for node in ast.parse(path.read_text()).body:
            if not isinstance(node, ast.FunctionDef):
                continue
            if not any("parallel=True" in ast.unparse(d) for d in node.decorator_list):
                continue
            for sub in ast.walk(node):
                if isinstance(sub, ast.Call) and ast.unparse(sub.func) in (
                        "np.zeros", "np.ones", "np.full", "np.zeros_like", "np.ones_like"):
                    offenders.append(f"{path.name}:{sub.lineno} {ast.unparse(sub.func)}")
                targets = (sub.targets if isinstance(sub, ast.Assign)
                           else [sub.target] if isinstance(sub, ast.AugAssign) else [])
                for target in targets:
                    if isinstance(target, ast.Subscript) and any(
                            isinstance(s, ast.Slice) for s in ast.walk(target.slice)):
                        offenders.append(f"{path.name}:{sub.lineno} slice assignment")
    assert offenders == []
