"""Kernels that are not parallel but call parallel ones, loaded from the disk cache.

Numba does not start its threading layer when it loads such a kernel from the cache
(numba issue 8578): the first call in a fresh process crashed when no parallel kernel
had run before (``LinearRegression(positive=True)`` on wide X, whose Lawson-Hanson
kernel calls two ``prange`` helpers) once that kernel had been compiled in a process
that loaded its helpers from the cache. Their Python callers start the layer first
(:func:`classiclearn._kernels.jit.start_parallel_runtime`).
"""

import ast
import importlib
import pathlib
import types

from numba.core.registry import CPUDispatcher

import classiclearn
from child_process import run_python
from classiclearn._kernels import jit

PACKAGE = pathlib.Path(classiclearn.__file__).parent


def _module_name(path):
    return "classiclearn." + ".".join(path.relative_to(PACKAGE).with_suffix("").parts)


def _kernel_modules():
    for path in sorted(PACKAGE.rglob("*.py")):
        if jit._is_kernel_module(path) and path.name != "__init__.py":
            yield importlib.import_module(_module_name(path))


def _dispatchers(module):
    return {name: obj for name, obj in vars(module).items()
            if isinstance(obj, CPUDispatcher) and obj.py_func.__module__ == module.__name__}


def _callees(dispatcher):
    names, codes = set(), [dispatcher.py_func.__code__]
    while codes:
        code = codes.pop()
        names.update(code.co_names)
        codes.extend(c for c in code.co_consts if isinstance(c, types.CodeType))
    space = dispatcher.py_func.__globals__
    return [space[n] for n in names if isinstance(space.get(n), CPUDispatcher)]


def _parallel(dispatcher):
    return bool(dispatcher.targetoptions.get("parallel"))


def _reaches_parallel(dispatcher):
    seen, stack = set(), [dispatcher]
    while stack:
        for callee in _callees(stack.pop()):
            if id(callee) in seen:
                continue
            seen.add(id(callee))
            if _parallel(callee):
                return True
            stack.append(callee)
    return False


def nested_parallel_kernels():
    """``{module name: {kernel names}}`` of the non-parallel kernels reaching a parallel one."""
    found = {}
    for module in _kernel_modules():
        names = {name for name, d in _dispatchers(module).items()
                 if not _parallel(d) and _reaches_parallel(d)}
        if names:
            found[module.__name__] = names
    return found


def _resolve(module_name, level, name):
    """Absolute name of ``from <level dots><name> import ...`` in ``module_name``."""
    if level == 0:
        return name
    parts = module_name.split(".")[:-level]
    return ".".join(parts + ([name] if name else []))


def _compiled(function):
    return any("jit" in ast.unparse(d) for d in function.decorator_list)


class _CallSites(ast.NodeVisitor):
    """Python calls of nested kernels in a module, with the functions around them."""

    def __init__(self, module_name, nested):
        self.module_name, self.nested = module_name, nested
        # local name -> kernel / kernel module; a kernel module's own kernels by name
        self.names = {name: name for name in nested.get(module_name, ())}
        self.modules = {}
        self.stack, self.sites = [], []

    def visit_ImportFrom(self, node):
        base = _resolve(self.module_name, node.level, node.module or "")
        for alias in node.names:
            local = alias.asname or alias.name
            if base in self.nested and alias.name in self.nested[base]:
                self.names[local] = alias.name
            if f"{base}.{alias.name}" in self.nested:
                self.modules[local] = f"{base}.{alias.name}"

    def _visit_function(self, node):
        self.stack.append(node)
        self.generic_visit(node)
        self.stack.pop()

    visit_FunctionDef = visit_AsyncFunctionDef = _visit_function

    def visit_Call(self, node):
        f = node.func
        hit = isinstance(f, ast.Name) and f.id in self.names
        if (isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name)
                and f.value.id in self.modules):
            hit = f.attr in self.nested[self.modules[f.value.id]]
        if hit and not any(map(_compiled, self.stack)):  # kernels call kernels freely
            self.sites.append((node, list(self.stack)))
        self.generic_visit(node)


def _starts_runtime_before(node, functions):
    for function in functions:
        for inner in ast.walk(function):
            if (isinstance(inner, ast.Call) and isinstance(inner.func, ast.Name)
                    and inner.func.id == "start_parallel_runtime"
                    and inner.lineno <= node.lineno):
                return True
    return False


def test_nested_parallel_kernels_are_found():
    nested = nested_parallel_kernels()
    assert "lawson_hanson" in nested["classiclearn.linear_model._nnls_kernels"]
    assert "solve_subsets" in nested["classiclearn.svm._smo_kernels"]


def test_every_python_call_of_a_nested_parallel_kernel_starts_the_runtime_first():
    nested = nested_parallel_kernels()
    checked, missing = 0, []
    for path in sorted(PACKAGE.rglob("*.py")):
        visitor = _CallSites(_module_name(path), nested)
        visitor.visit(ast.parse(path.read_text()))
        for node, functions in visitor.sites:
            checked += 1
            if not functions or not _starts_runtime_before(node, functions):
                missing.append(f"{path.relative_to(PACKAGE)}:{node.lineno}")
    assert checked >= 9  # nnls, lsqr, k-means++, SMO, TRON, Gaussian NB (fit, predict, blocks)
    assert not missing, f"nested parallel kernels called without start_parallel_runtime: {missing}"


INNER_KERNELS_ONLY = (
    "import numpy as np\n"
    "from classiclearn.linear_model import _nnls_kernels as k\n"
    "cols = np.ones((3, 4)); order = np.arange(3)\n"
    "k._reflect_lanes(cols, order, 0, 0, 1.0, 0, np.ones(4), np.ones(4), 1)\n"
    "k._rotate_lanes(cols, order, 0, np.ones((2, 2)), 0, 0, 1)\n"
)

WIDE_NNLS_FIRST = (
    "import numpy as np\n"
    "from classiclearn.linear_model import LinearRegression\n"
    "rng = np.random.default_rng(8)\n"
    "X = rng.normal(size=(8, 15)); y = X @ rng.uniform(size=15)\n"
    "print(LinearRegression(positive=True).fit(X, y).coef_.min() >= 0)\n"
)


def test_nested_kernel_loaded_from_the_cache_runs_first_in_a_process(tmp_path):
    # The cache entry that crashed: the parallel helpers cached by one process, the
    # Lawson-Hanson kernel then compiled by another that loaded them from the cache
    # (its entry lacks numba's hook that starts the threading layer), and loaded by a
    # third, where it is the first kernel to run.
    for script in (INNER_KERNELS_ONLY, WIDE_NNLS_FIRST, WIDE_NNLS_FIRST):
        done = run_python(["-c", script], CLASSICLEARN_CACHE_DIR=str(tmp_path))
        assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "True"
