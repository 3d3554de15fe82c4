"""Radius classifier and regressor: the neighbours folded into per-query sums as they
are found (never all listed) give the answers of the listed neighbours and of
scikit-learn, on every search route (GEMM brute force, tiles of other metrics,
precomputed distances, a metric function, sparse rows, both trees, a weights
function, the training rows as queries)."""

import numpy as np
import pytest
import scipy.sparse as sp
import sklearn.neighbors as skn

from classiclearn.neighbors import RadiusNeighborsClassifier, RadiusNeighborsRegressor, _radius_sums


def manhattan_function(a, b):
    return np.abs(a - b).sum()


def _data(n=600, m=150, d=4, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    Q = np.vstack([rng.normal(size=(m - 10, d)), X[:10]])  # 10 queries on training rows
    y = (X[:, 0] + 0.5 * rng.normal(size=n) > 0).astype(int) + (X[:, 1] > 1)
    targets = np.column_stack([X[:, 0] + X[:, 1] ** 2, rng.normal(size=n)])
    return X, Q, y, targets


def _rounded_self_matches(X, Q, route):
    """Queries equal to a training row whose distance scikit-learn's search gives as a
    rounding error instead of zero (its GEMM expansion of the Euclidean distance; the
    rounding depends on the BLAS kernel of the machine): their 'distance' weights are
    not the zero-distance rule's there, so they are left out of the comparison."""
    if callable(route.get("metric")) or route.get("metric", "euclidean") != "euclidean":
        return np.zeros(Q.shape[0], dtype=bool)
    dist, _ = skn.NearestNeighbors(n_neighbors=1, **route).fit(X).kneighbors(Q)
    return (dist[:, 0] > 0) & (dist[:, 0] < 1e-6)


def _listed_predictions(model, Q, classes, targets):
    """The answers recomputed from ``radius_neighbors`` (the listed pairs)."""
    dist, ind = model.radius_neighbors(Q)
    out = []
    for d, i in zip(dist, ind):
        if model.weights == "distance":
            w = np.where(np.any(d == 0), (d == 0).astype(float), 1.0 / np.where(d == 0, 1, d))
        else:
            w = np.ones(d.shape)
        if classes is not None:
            votes = np.bincount(classes[i], weights=w, minlength=classes.max() + 1)
            out.append(votes / votes.sum())
        else:
            out.append(w @ targets[i] / w.sum())
    return np.array(out)


ROUTES = [
    dict(algorithm="brute"),  # float32 GEMM tiles
    dict(algorithm="brute", metric="manhattan"),  # float64 tiles
    dict(algorithm="brute", metric="cosine"),
    dict(algorithm="kd_tree"),
    dict(algorithm="ball_tree", metric="chebyshev"),
    dict(algorithm="brute", metric=manhattan_function),
]


@pytest.mark.parametrize("route", ROUTES, ids=lambda r: f"{r['algorithm']}-{getattr(r.get('metric'), '__name__', r.get('metric'))}")
@pytest.mark.parametrize("weights", ["uniform", "distance"])
@pytest.mark.parametrize("radius_quantile", [0.05, 0.6, 1.0])
def test_sums_equal_the_listed_neighbours_and_sklearn(route, weights, radius_quantile):
    X, Q, y, targets = _data(n=300 if callable(route.get("metric")) else 600)
    params = dict(route, weights=weights)
    probe = skn.NearestNeighbors(**route).fit(X)
    dist, _ = probe.kneighbors(Q, n_neighbors=X.shape[0])
    radius = float(np.quantile(dist, radius_quantile)) * (1.0 if radius_quantile < 1 else 1.01)
    clf = RadiusNeighborsClassifier(radius=radius, outlier_label="most_frequent", **params)
    reg = RadiusNeighborsRegressor(radius=radius, **params)
    clf.fit(X, y)
    reg.fit(X, targets)
    proba = clf.predict_proba(Q)
    with np.errstate(all="ignore"), _no_check():
        pred = reg.predict(Q)
    inliers = np.array([len(i) > 0 for i in clf.radius_neighbors(Q)[1]])
    np.testing.assert_allclose(proba[inliers], _listed_predictions(clf, Q, y, None)[inliers],
                               rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(pred[inliers], _listed_predictions(reg, Q, None, targets)[inliers],
                               rtol=1e-10, atol=1e-12)
    sk_clf = skn.RadiusNeighborsClassifier(radius=radius, outlier_label="most_frequent",
                                           **params).fit(X, y)
    sk_reg = skn.RadiusNeighborsRegressor(radius=radius, **params).fit(X, targets)
    # (outliers: scikit-learn's brute force gives them zero probabilities with some
    # metrics and probability one for the outlier label with others)
    kept = ~_rounded_self_matches(X, Q, route) if weights == "distance" else np.ones(len(Q), bool)
    np.testing.assert_allclose(proba[inliers & kept], sk_clf.predict_proba(Q)[inliers & kept],
                               rtol=1e-9, atol=1e-12)
    np.testing.assert_array_equal(clf.predict(Q)[kept], sk_clf.predict(Q)[kept])
    with np.errstate(all="ignore"), _no_check():
        np.testing.assert_allclose(pred[kept], sk_reg.predict(Q)[kept], rtol=1e-9, atol=1e-12)


class _no_check:
    """Silence the no-neighbour warning of small radii (both libraries give it)."""

    def __enter__(self):
        import warnings

        self._catch = warnings.catch_warnings()
        self._catch.__enter__()
        warnings.simplefilter("ignore", UserWarning)

    def __exit__(self, *exc):
        return self._catch.__exit__(*exc)


@pytest.mark.parametrize("weights", ["uniform", "distance"])
def test_sparse_and_precomputed_rows_as_sklearn(weights):
    X, Q, y, targets = _data(n=500, d=30)
    rng = np.random.default_rng(1)
    Xs = sp.csr_matrix(np.where(rng.random(X.shape) < 0.2, X, 0.0))
    Qs = sp.csr_matrix(np.where(rng.random(Q.shape) < 0.2, Q, 0.0))
    Qs[-3:] = Xs[:3]  # queries equal to training rows: the zero-distance rule
    for radius in (2.0, 1e3):  # some neighbours; every training row
        for ours, theirs, target in ((RadiusNeighborsClassifier, skn.RadiusNeighborsClassifier, y),
                                     (RadiusNeighborsRegressor, skn.RadiusNeighborsRegressor,
                                      targets)):
            kw = dict(radius=radius, weights=weights)
            if ours is RadiusNeighborsClassifier:
                kw["outlier_label"] = "most_frequent"
            method = "predict_proba" if "outlier_label" in kw else "predict"
            with _no_check():
                a = getattr(ours(**kw).fit(Xs, target), method)(Qs)
                b = getattr(theirs(**kw).fit(Xs, target), method)(Qs)
            np.testing.assert_allclose(a, b, rtol=1e-9, atol=1e-12)
            D_train = np.sqrt(((X[:, None] - X[None]) ** 2).sum(-1))
            D_query = np.sqrt(((Q[:, None] - X[None]) ** 2).sum(-1))
            with _no_check():
                a = getattr(ours(metric="precomputed", **kw).fit(D_train, target), method)(D_query)
                b = getattr(theirs(metric="precomputed", **kw).fit(D_train, target),
                            method)(D_query)
            np.testing.assert_allclose(a, b, rtol=1e-9, atol=1e-12)


def test_subnormal_distance_counts_as_zero_as_in_sklearn_k_neighbours():
    # 1 / 1e-310 overflows: scikit-learn's k-neighbours then give that neighbour the
    # whole weight (its radius estimators divide infinity by infinity: NaN)
    D_train = np.array([[0.0, 1.0, 2.0], [1.0, 0.0, 1.0], [2.0, 1.0, 0.0]])
    D_query = np.array([[1e-310, 0.5, 0.7], [0.4, 0.5, 0.6]])
    y = np.array([1.0, 2.0, 4.0])
    kw = dict(weights="distance", metric="precomputed")
    ours = RadiusNeighborsRegressor(radius=1.0, **kw).fit(D_train, y).predict(D_query)
    theirs = skn.KNeighborsRegressor(n_neighbors=3, **kw).fit(D_train, y).predict(D_query)
    np.testing.assert_allclose(ours, theirs)
    assert ours[0] == 1.0


@pytest.mark.parametrize("algorithm", ["brute", "kd_tree"])
def test_multi_output_and_weights_function(algorithm):
    X, Q, y, targets = _data()
    Y = np.column_stack([y, (X[:, 2] > 0).astype(int) * 3])
    kw = dict(radius=1.5, algorithm=algorithm, outlier_label="most_frequent")
    rounded = _rounded_self_matches(X, Q, dict(algorithm=algorithm))
    for weights in ("distance", lambda d: 1.0 / (1.0 + d)):
        kept = ~rounded  # any weight of the distance sees its rounding
        a = RadiusNeighborsClassifier(weights=weights, **kw).fit(X, Y)
        b = skn.RadiusNeighborsClassifier(weights=weights, **kw).fit(X, Y)
        for pa, pb in zip(a.predict_proba(Q), b.predict_proba(Q)):
            np.testing.assert_allclose(pa[kept], pb[kept], rtol=1e-9, atol=1e-12)
        np.testing.assert_array_equal(a.predict(Q)[kept], b.predict(Q)[kept])
        kw_reg = dict(radius=1.5, algorithm=algorithm, weights=weights)
        with _no_check():
            np.testing.assert_allclose(
                RadiusNeighborsRegressor(**kw_reg).fit(X, targets).predict(Q)[kept],
                skn.RadiusNeighborsRegressor(**kw_reg).fit(X, targets).predict(Q)[kept],
                rtol=1e-9, atol=1e-12)


def test_training_rows_as_queries_leave_themselves_out():
    X, _, y, targets = _data(n=300)
    kw = dict(radius=1.2, weights="distance")
    with _no_check():
        ours = RadiusNeighborsRegressor(**kw).fit(X, targets).predict(None)
        theirs = skn.RadiusNeighborsRegressor(**kw).fit(X, targets).predict(None)
    np.testing.assert_allclose(ours, theirs, rtol=1e-9, atol=1e-12)


def test_pieces_threads_and_blocks_do_not_change_the_sums(monkeypatch):
    X, Q, y, targets = _data(n=2000, m=900)
    kw = dict(radius=2.5, weights="distance", algorithm="kd_tree")
    whole = RadiusNeighborsRegressor(n_jobs=1, **kw).fit(X, targets).predict(Q)
    # a few hundred pairs per piece: many pieces, each sized from the ones before
    monkeypatch.setattr(_radius_sums, "_LISTED_PAIRS", 300)
    pieces = RadiusNeighborsRegressor(n_jobs=2, **kw).fit(X, targets).predict(Q)
    np.testing.assert_array_equal(whole, pieces)
    brute = RadiusNeighborsRegressor(n_jobs=2, **dict(kw, algorithm="brute"))
    np.testing.assert_allclose(brute.fit(X, targets).predict(Q), whole, rtol=1e-12)


@pytest.mark.parametrize("algorithm, metric", [("kd_tree", "euclidean"),
                                               ("ball_tree", "chebyshev"),
                                               ("kd_tree", "minkowski")])
@pytest.mark.parametrize("weights", ["uniform", "distance"])
def test_tree_hands_a_wide_radius_to_the_scan(algorithm, metric, weights, monkeypatch):
    from classiclearn.neighbors import _base

    X, _, y, targets = _data(n=700, d=3)
    Q = np.vstack([np.random.default_rng(3).normal(size=(600, 3)), X[:40]])
    kw = dict(radius=2.5, algorithm=algorithm, metric=metric, weights=weights)
    if metric == "minkowski":
        kw["p"] = 3
    scans = []
    scan = _base._NeighborsBase._scan_radius_sums
    monkeypatch.setattr(_base._NeighborsBase, "_scan_radius_sums",
                        lambda *a: scans.append(scan(*a)) or scans[-1])
    handed = RadiusNeighborsRegressor(**kw).fit(X, targets).predict(Q)
    assert scans == [True]  # a quarter of the rows within the radius: scanned
    monkeypatch.setattr(_base, "_TREE_SCAN_SHARE", 1e-9)
    walked = RadiusNeighborsRegressor(**kw).fit(X, targets).predict(Q)
    assert scans[-1] is False
    np.testing.assert_allclose(handed, walked, rtol=1e-12, atol=1e-14)
    theirs = skn.RadiusNeighborsRegressor(**kw).fit(X, targets).predict(Q)
    np.testing.assert_allclose(handed, theirs, rtol=1e-9, atol=1e-12)
    clf = RadiusNeighborsClassifier(outlier_label="most_frequent", **kw).fit(X, y)
    sk_clf = skn.RadiusNeighborsClassifier(outlier_label="most_frequent", **kw).fit(X, y)
    np.testing.assert_array_equal(clf.predict(Q), sk_clf.predict(Q))
