"""The direction of imports inside the package.

The shared layers (``base``, ``_tags``, ``exceptions``, ``utils``, ``_kernels``)
never import an estimator family, ``utils`` never imports ``datasets``, and a
family reaches into another family only through its public names; the one
allowed exception is listed with its reason.
"""

import ast
import pathlib

import classiclearn
from classiclearn.utils.discovery import family_names

SRC = pathlib.Path(classiclearn.__file__).parent
FAMILIES = set(family_names())
SHARED_LAYERS = ("base", "_tags", "exceptions", "utils", "_kernels")

# (importing family, imported family) -> why a private module may be used
PRIVATE_IMPORTS_ALLOWED = {
    ("ensemble", "tree"): "forests grow the tree family's trees with its builder and node "
    "arrays (as scikit-learn's forests use sklearn.tree._classes)",
}


def _module_name(path):
    parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts), path.name == "__init__.py"


def _absolute(node, module, is_package):
    if node.level == 0:
        return node.module or ""
    base = module.split(".")
    base = base if is_package else base[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _imports_of(path):
    """Every classiclearn module an import statement in ``path`` names (lazy ones too)."""
    module, is_package = _module_name(path)
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            target = _absolute(node, module, is_package)
            names = [target] + [f"{target}.{alias.name}" for alias in node.names]
        else:
            continue
        yield from (n for n in names if n.split(".")[0] == "classiclearn")


def _top(module_name):
    parts = module_name.split(".")
    return parts[1] if len(parts) > 1 else ""


def _all_modules():
    for path in sorted(SRC.rglob("*.py")):
        module, _ = _module_name(path)
        yield path, module, _top(module)


def test_shared_layers_never_import_a_family():
    offenders = []
    for path, module, top in _all_modules():
        if top not in SHARED_LAYERS:
            continue
        for target in _imports_of(path):
            if _top(target) in FAMILIES:
                offenders.append(f"{module} -> {target}")
    assert offenders == []


def test_utils_never_imports_datasets():
    offenders = [
        f"{module} -> {target}"
        for path, module, top in _all_modules()
        if top == "utils"
        for target in _imports_of(path)
        if _top(target) == "datasets"
    ]
    assert offenders == []


def test_families_use_only_public_names_of_other_families():
    offenders = []
    for path, module, top in _all_modules():
        if top not in FAMILIES:
            continue
        for target in _imports_of(path):
            other = _top(target)
            if other in FAMILIES and other != top and (top, other) not in PRIVATE_IMPORTS_ALLOWED:
                private = any(part.startswith("_") for part in target.split(".")[2:])
                if private:
                    offenders.append(f"{module} -> {target}")
    assert offenders == []


def test_allowed_exceptions_are_still_needed():
    used = set()
    for path, _module, top in _all_modules():
        for target in _imports_of(path):
            if (top, _top(target)) in PRIVATE_IMPORTS_ALLOWED and any(
                part.startswith("_") for part in target.split(".")[2:]
            ):
                used.add((top, _top(target)))
    assert used == set(PRIVATE_IMPORTS_ALLOWED)


def test_import_resolution_sees_relative_imports():
    path = SRC / "mixture" / "_gaussian_mixture.py"
    assert "classiclearn.utils._threads" in set(_imports_of(path))
