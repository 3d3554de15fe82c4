"""Order of the models in ``compare`` and the warm-up helper process (cli/_schedule.py)."""

import json
import subprocess
import sys
import time

import numpy as np

from classiclearn import all_estimators
from classiclearn.cli._schedule import (
    COMPILE_COST,
    KERNEL_GROUP,
    WARM,
    WarmUp,
    order_models,
    pool_tasks,
)

CHEAP = "GaussianNB,LinearDiscriminantAnalysis,KNeighborsClassifier,BernoulliNB"


def _registered(*names):
    have = {n for n, _ in all_estimators()}
    missing = [n for n in names if n not in have]
    if missing:
        raise AssertionError(f"the registry lacks {missing}")


def test_order_is_a_permutation_cheap_first_groups_together():
    names = sorted(COMPILE_COST) + ["SomeNewModel"]
    order = order_models(names)
    assert sorted(order) == sorted(names)
    # every kernel group is contiguous (one process compiles it)
    for group in set(KERNEL_GROUP.values()):
        where = [i for i, n in enumerate(order) if KERNEL_GROUP.get(n) == group]
        assert where == list(range(where[0], where[0] + len(where)))
    # the first model is the cheapest, the tree models come last
    assert COMPILE_COST[order[0]] == min(COMPILE_COST.values())
    assert KERNEL_GROUP.get(order[-1], "").startswith("tree")


def test_pool_tasks_cover_every_model_once_costliest_first():
    names = ["GaussianNB", "SVC", "RandomForestClassifier", "DecisionTreeClassifier",
             "KNeighborsClassifier", "RadiusNeighborsClassifier"]
    tasks = pool_tasks(names)
    flat = [n for task in tasks for n in task]
    assert sorted(flat) == sorted(names)
    assert sorted(tasks[0]) == ["DecisionTreeClassifier", "RandomForestClassifier"]
    assert ["KNeighborsClassifier", "RadiusNeighborsClassifier"] in [sorted(t) for t in tasks]
    costs = [sum(COMPILE_COST[n] for n in task) for task in tasks]
    assert costs == sorted(costs, reverse=True)


def test_warmup_helper_runs_the_models_it_claims_and_stops():
    """Left alone, the helper warms every model (from the back), then exits."""
    _registered("GaussianNB", "BernoulliNB")
    from classiclearn.cli._compare import make_splits
    from classiclearn.cli._data import load_table, prepare
    from classiclearn.cli._models import build_pipeline, candidate_models

    frame, target = load_table("iris")
    ds = prepare(frame, target, None, "iris")
    models = candidate_models(ds.task, ["GaussianNB", "BernoulliNB"])
    pipes = [build_pipeline(n, c, ds.X) for n, c in models]
    y = np.unique(ds.y, return_inverse=True)[1]
    train, test = make_splits(y, 3, 1, 0, ds.task)[0]
    helper = WarmUp(pipes, ds.X, y, train, test, ["accuracy"], [0, 1, 2])
    try:
        deadline = time.monotonic() + 120
        while helper._process.is_alive() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert list(helper._status) == [WARM, WARM]
        assert helper.claim(0) and helper.claim(1)
    finally:
        helper.close()
    assert not helper._process.is_alive()


def _scores(result):
    return {m["model"]: (m["rank"], m["scores"], m["worse_than_best"]) for m in result["models"]}


def test_warmup_and_jobs_give_the_serial_leaderboard(run):
    _registered(*CHEAP.split(","))
    args = ("compare", "iris", "--models", CHEAP, "--cv", "3", "--repeats", "2",
            "--seed", "3", "--json", "--no-progress")
    plain = json.loads(run(*args, "--no-warmup").out)
    warm = json.loads(run(*args).out)
    pooled = json.loads(run(*args, "--jobs", "2").out)
    assert [m["model"] for m in warm["models"]] == [m["model"] for m in plain["models"]]
    assert _scores(warm) == _scores(plain) == _scores(pooled)
    assert warm["best"] == plain["best"] == pooled["best"]


def test_cli_import_is_light():
    """Importing the command line loads no estimator family, numba, pandas or scipy."""
    code = (
        "import sys, classiclearn.cli as c; c.build_parser(); "
        "heavy = [m for m in sys.modules if m.split('.')[0] in ('numba', 'pandas', 'scipy') "
        "or m.count('.') and m.split('.')[1] in ('tree', 'ensemble', 'svm', 'linear_model')]; "
        "print(heavy)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
