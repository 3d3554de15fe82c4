"""Every docstring example in the package runs and prints what it shows (doctest)."""

import doctest
import importlib
import pkgutil

import pytest

import classiclearn


def _module_names():
    prefix = classiclearn.__name__ + "."
    names = (info.name for info in pkgutil.walk_packages(classiclearn.__path__, prefix))
    # __main__ modules run the command line on import
    return sorted(name for name in names if not name.endswith(".__main__"))


@pytest.mark.parametrize("name", _module_names())
def test_docstring_examples(name):
    module = importlib.import_module(name)
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    for test in finder.find(module, name):  # each test runs on a copy of the module globals
        if test.lineno is None or not getattr(test, "filename", None):
            continue
        runner.run(test)
    results = runner.summarize(verbose=False)
    assert results.failed == 0, f"{results.failed} of {results.attempted} examples failed in {name}"


def test_examples_are_found():
    # a guard against the collection silently finding nothing
    finder = doctest.DocTestFinder(exclude_empty=True)
    from classiclearn.cluster import _kmeans

    assert sum(len(t.examples) for t in finder.find(_kmeans)) > 0
