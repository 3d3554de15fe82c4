"""The README and the benchmark harness stay true to the code."""

import pathlib
import re

from benchmarks._runner import discover_cases, run_case
from classiclearn import all_estimators

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_readme_table_lists_every_registered_estimator():
    readme = (ROOT / "README.md").read_text()
    table = readme.split("<!-- estimator-table: start -->")[1].split("<!-- estimator-table: end -->")[0]
    listed = set(re.findall(r"`([A-Z][A-Za-z]+)`", table))
    registered = {name for name, _ in all_estimators()}
    assert registered - listed == set(), "README estimator table is missing estimators"
    assert listed - registered == set(), "README lists estimators that are not registered"


def test_readme_shows_the_two_setup_commands():
    readme = (ROOT / "README.md").read_text()
    assert "classiclearn compare" in readme
    assert 'pip install -e ".[test]" && python -m pytest' in readme


def test_benchmark_harness_runs_a_quick_case_and_compares_scores():
    cases = discover_cases(families=["naive_bayes"], names=["GaussianNB"])
    assert cases
    result = run_case(*cases[0], quick=True)
    assert result.error is None
    assert [s.step for s in result.steps][0] == "fit"
    assert all(s.ours > 0 and s.theirs > 0 for s in result.steps)
    assert result.scores_agree and abs(result.our_score - result.their_score) < 1e-9
