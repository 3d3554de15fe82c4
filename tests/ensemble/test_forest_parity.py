"""Forests against scikit-learn (same seeds give the same trees), n_jobs, warm start, OOB."""

import numpy as np
import pytest

sk_ensemble = pytest.importorskip("sklearn.ensemble")
sk_datasets = pytest.importorskip("sklearn.datasets")
sk_model_selection = pytest.importorskip("sklearn.model_selection")

from classiclearn.ensemble import (  # noqa: E402
    ExtraTreesClassifier,
    ExtraTreesRegressor,
    RandomForestClassifier,
    RandomForestRegressor,
)
from tree_ties import RANDOM_REGRESSION_LEAF  # noqa: E402

PAIRS = {
    "rf_c": (RandomForestClassifier, sk_ensemble.RandomForestClassifier),
    "et_c": (ExtraTreesClassifier, sk_ensemble.ExtraTreesClassifier),
    "rf_r": (RandomForestRegressor, sk_ensemble.RandomForestRegressor),
    "et_r": (ExtraTreesRegressor, sk_ensemble.ExtraTreesRegressor),
}


@pytest.fixture(scope="module")
def cls_sets():
    return [loader(return_X_y=True) for loader in (
        sk_datasets.load_iris, sk_datasets.load_breast_cancer, sk_datasets.load_wine,
        sk_datasets.load_digits)]


@pytest.mark.parametrize("kind", ["rf_c", "et_c"])
def test_classifier_accuracy_within_one_point_over_five_seeds(cls_sets, kind):
    ours_cls, theirs_cls = PAIRS[kind]
    for X, y in cls_sets:
        ours, theirs = [], []
        for seed in range(5):
            Xa, Xb, ya, yb = sk_model_selection.train_test_split(X, y, random_state=seed)
            ours.append(ours_cls(n_estimators=20, random_state=seed).fit(Xa, ya).score(Xb, yb))
            theirs.append(theirs_cls(n_estimators=20, random_state=seed).fit(Xa, ya)
                          .score(Xb, yb))
        assert abs(np.mean(ours) - np.mean(theirs)) <= 0.01


@pytest.mark.parametrize("kind", ["rf_r", "et_r"])
def test_regressor_r2_within_001_over_five_seeds(kind):
    ours_cls, theirs_cls = PAIRS[kind]
    sets = [sk_datasets.load_diabetes(return_X_y=True)]
    rng = np.random.default_rng(0)
    Z = rng.normal(size=(400, 6))
    sets.append((Z, Z[:, 0] * 2 + np.sin(2 * Z[:, 1]) + 0.2 * rng.normal(size=400)))
    for X, y in sets:
        ours, theirs = [], []
        for seed in range(5):
            Xa, Xb, ya, yb = sk_model_selection.train_test_split(X, y, random_state=seed)
            ours.append(ours_cls(n_estimators=20, random_state=seed).fit(Xa, ya).score(Xb, yb))
            theirs.append(theirs_cls(n_estimators=20, random_state=seed).fit(Xa, ya)
                          .score(Xb, yb))
        assert abs(np.mean(ours) - np.mean(theirs)) <= 0.01


@pytest.mark.parametrize("kind", list(PAIRS))
def test_same_seed_gives_scikit_learns_forest(cls_sets, kind):
    ours_cls, theirs_cls = PAIRS[kind]
    X, y = cls_sets[1]
    params = dict(n_estimators=8, random_state=3, max_features=0.3)
    if kind.endswith("_r"):
        # deep regression nodes of two or three samples hold float-level ties (the
        # random splitter's too: see RANDOM_REGRESSION_LEAF)
        y = X[:, 0] * 3 + X[:, 5]
        params["min_samples_leaf"] = RANDOM_REGRESSION_LEAF if kind == "et_r" else 3
    if kind.startswith("rf"):
        params.update(max_samples=0.7, oob_score=True)
    if kind == "rf_c":
        params["class_weight"] = "balanced_subsample"
    ours = ours_cls(**params).fit(X, y)
    theirs = theirs_cls(**params).fit(X, y)
    for a, b in zip(ours.estimators_, theirs.estimators_, strict=True):
        np.testing.assert_array_equal(a.tree_.feature, b.tree_.feature)
        np.testing.assert_allclose(a.tree_.threshold, b.tree_.threshold, atol=1e-12)
    if kind.endswith("_c"):
        np.testing.assert_allclose(ours.predict_proba(X), theirs.predict_proba(X), atol=1e-12)
    else:
        np.testing.assert_allclose(ours.predict(X), theirs.predict(X), rtol=1e-9)
    np.testing.assert_allclose(ours.feature_importances_, theirs.feature_importances_,
                               atol=1e-10)
    np.testing.assert_array_equal(ours.apply(X), theirs.apply(X))
    if params.get("oob_score"):
        assert ours.oob_score_ == pytest.approx(theirs.oob_score_, abs=1e-12)
        if kind == "rf_c":
            np.testing.assert_allclose(ours.oob_decision_function_,
                                       theirs.oob_decision_function_, atol=1e-12)
        else:
            np.testing.assert_allclose(ours.oob_prediction_, theirs.oob_prediction_,
                                       rtol=1e-9)


@pytest.mark.parametrize("kind", ["rf_c", "et_c"])
def test_same_seed_gives_scikit_learns_entropy_forest(cls_sets, kind):
    """Entropy forests: bootstrap counts are integer weights, so the best splitter takes
    the k ln k table's bound before the exact logarithms; the trees stay theirs."""
    ours_cls, theirs_cls = PAIRS[kind]
    X, y = cls_sets[3]
    X = X[:600]
    y = y[:600]
    params = dict(n_estimators=6, random_state=2, criterion="entropy")
    ours = ours_cls(**params).fit(X, y)
    theirs = theirs_cls(**params).fit(X, y)
    for a, b in zip(ours.estimators_, theirs.estimators_, strict=True):
        np.testing.assert_array_equal(a.tree_.feature, b.tree_.feature)
        np.testing.assert_allclose(a.tree_.threshold, b.tree_.threshold, atol=1e-12)
    np.testing.assert_allclose(ours.predict_proba(X), theirs.predict_proba(X), atol=1e-12)


def test_result_does_not_depend_on_n_jobs(cls_sets):
    X, y = cls_sets[3]
    a = RandomForestClassifier(n_estimators=12, random_state=0, n_jobs=1).fit(X, y)
    b = RandomForestClassifier(n_estimators=12, random_state=0, n_jobs=2).fit(X, y)
    c = ExtraTreesRegressor(n_estimators=6, random_state=0, n_jobs=-1, max_bins=64)
    d = ExtraTreesRegressor(n_estimators=6, random_state=0, n_jobs=1, max_bins=64)
    np.testing.assert_array_equal(a.predict_proba(X), b.predict_proba(X))
    np.testing.assert_array_equal(c.fit(X, y).predict(X), d.fit(X, y).predict(X))
    # the random splitter's integer-count path, unit weights and bootstrap counts
    for bootstrap in (False, True):
        e = ExtraTreesClassifier(n_estimators=8, random_state=0, n_jobs=1, bootstrap=bootstrap)
        f = ExtraTreesClassifier(n_estimators=8, random_state=0, n_jobs=2, bootstrap=bootstrap)
        np.testing.assert_array_equal(e.fit(X, y).predict_proba(X), f.fit(X, y).predict_proba(X))


def test_warm_start_equals_one_fit(cls_sets):
    X, y = cls_sets[1]
    a = RandomForestClassifier(n_estimators=5, random_state=1, warm_start=True).fit(X, y)
    a.set_params(n_estimators=10).fit(X, y)
    b = RandomForestClassifier(n_estimators=10, random_state=1).fit(X, y)
    assert len(a.estimators_) == 10
    np.testing.assert_array_equal(a.predict_proba(X), b.predict_proba(X))
    with pytest.warns(UserWarning, match="does not fit new trees"):
        a.fit(X, y)
    with pytest.raises(ValueError, match="n_estimators"):
        a.set_params(n_estimators=3).fit(X, y)


def test_hard_voting_is_majority_of_tree_votes(cls_sets):
    X, y = cls_sets[2]
    clf = RandomForestClassifier(n_estimators=15, random_state=0, voting="hard",
                                 max_depth=2).fit(X, y)
    votes = np.stack([np.argmax(t.tree_.predict(np.asarray(X, np.float32))[:, 0], axis=1)
                      for t in clf.estimators_])
    counts = np.stack([(votes == k).sum(axis=0) for k in range(3)], axis=1)
    np.testing.assert_array_equal(clf.predict(X), clf.classes_[np.argmax(counts, axis=1)])
    np.testing.assert_allclose(clf.predict_proba(X), counts / 15)


def test_bad_forest_parameters(cls_sets):
    X, y = cls_sets[0]
    with pytest.raises(ValueError, match="Out of bag"):
        ExtraTreesClassifier(oob_score=True).fit(X, y)
    with pytest.raises(ValueError, match="max_sample"):
        RandomForestClassifier(bootstrap=False, max_samples=0.5).fit(X, y)
    for params in [{"max_depth": 0}, {"min_samples_leaf": 0}, {"max_features": 1.5},
                   {"ccp_alpha": -1.0}, {"n_estimators": 0}, {"voting": "x"}]:
        with pytest.raises(ValueError):
            RandomForestClassifier(**params).fit(X, y)


def test_histogram_forests_close_to_exact(cls_sets):
    gaps = []
    for X, y in cls_sets[1:]:
        for seed in range(2):
            Xa, Xb, ya, yb = sk_model_selection.train_test_split(X, y, random_state=seed)
            exact = RandomForestClassifier(n_estimators=20, random_state=seed).fit(Xa, ya)
            hist = RandomForestClassifier(n_estimators=20, random_state=seed, max_bins=255)
            gaps.append(exact.score(Xb, yb) - hist.fit(Xa, ya).score(Xb, yb))
    assert np.mean(gaps) < 0.01
    X, y = sk_datasets.load_diabetes(return_X_y=True)
    Xa, Xb, ya, yb = sk_model_selection.train_test_split(X, y, random_state=0)
    r2 = [RandomForestRegressor(n_estimators=30, random_state=0, max_bins=b).fit(Xa, ya)
          .score(Xb, yb) for b in (None, 255)]
    assert abs(r2[0] - r2[1]) < 0.02


def test_weighted_bootstrap_equals_sklearn(cls_sets):
    X, y = cls_sets[2]
    w = np.random.default_rng(0).uniform(0.2, 3.0, size=len(y))
    for params in [{"class_weight": "balanced"}, {"max_samples": 0.6}, {"oob_score": True},
                   {"ccp_alpha": 0.01}]:
        ours = RandomForestClassifier(n_estimators=6, random_state=2, **params)
        theirs = sk_ensemble.RandomForestClassifier(n_estimators=6, random_state=2, **params)
        ours.fit(X, y, sample_weight=w)
        theirs.fit(X, y, sample_weight=w)
        np.testing.assert_allclose(ours.predict_proba(X), theirs.predict_proba(X), atol=1e-12)
        if params.get("oob_score"):
            assert ours.oob_score_ == pytest.approx(theirs.oob_score_)
