"""The leaderboard agrees with scikit-learn running the same pipelines on the same folds."""

import json

import numpy as np
import pytest

from classiclearn import all_estimators


def _sklearn_models():
    from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
    from sklearn.linear_model import LogisticRegression
    from sklearn.naive_bayes import GaussianNB
    from sklearn.neighbors import KNeighborsClassifier
    from sklearn.svm import SVC

    return {
        "LinearDiscriminantAnalysis": LinearDiscriminantAnalysis(),
        "LogisticRegression": LogisticRegression(max_iter=1000),
        "KNeighborsClassifier": KNeighborsClassifier(),
        "SVC": SVC(),
        "GaussianNB": GaussianNB(),
    }


@pytest.mark.parametrize("data", ["iris", "breast_cancer"])
def test_scores_match_scikit_learn_within_one_point(run, data):
    pytest.importorskip("sklearn")
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    from classiclearn.cli._compare import make_splits
    from classiclearn.cli._data import load_table, prepare
    from classiclearn.cli._models import NO_SCALING

    have = {n for n, _ in all_estimators()}
    reference = _sklearn_models()
    assert set(reference) <= have, sorted(set(reference) - have)
    r = run("compare", data, "--models", ",".join(reference), "--cv", "5", "--repeats", "1",
            "--seed", "3", "--json")
    assert r.code == 0, r.err
    ours = {m["model"]: m for m in json.loads(r.out)["models"]}

    frame, target = load_table(data)
    ds = prepare(frame, target, None, data)
    codes = np.searchsorted(np.asarray(ds.classes, dtype=object), ds.y)
    splits = make_splits(codes, 5, 1, 3, "classification")
    X = ds.X.to_numpy(dtype=float)
    theirs = {}
    for name, model in reference.items():
        pipe = model if name in NO_SCALING else make_pipeline(StandardScaler(), model)
        scores = []
        for train, test in splits:
            pipe.fit(X[train], codes[train])
            scores.append(np.mean(pipe.predict(X[test]) == codes[test]))
        theirs[name] = float(np.mean(scores))
        assert ours[name]["error"] is None
        assert abs(ours[name]["mean"] - theirs[name]) <= 0.01, (name, ours[name]["mean"],
                                                                theirs[name])
    top_ours = max(m["mean"] for m in ours.values())
    assert abs(top_ours - max(theirs.values())) <= 0.01
