"""The metrics beyond the Minkowski family (braycurtis ... yule, nan_euclidean,
weighted minkowski) in every neighbours estimator and algorithm scikit-learn
accepts them for.

Oracles: scipy.spatial.distance.cdist (booleans: the data converted to bool,
as scikit-learn's brute force does), scikit-learn's DistanceMetric (braycurtis,
sokalmichener) and nan_euclidean_distances for the distances; scikit-learn's
estimators for neighbours, radius sets, predictions, warnings and errors.

Ties: boolean metrics give many equal distances. Our order is (distance,
index), checked against a reference sort of the oracle matrix; scikit-learn's
brute force orders equal distances arbitrarily (an unstable partition), so
against it the distances must agree everywhere and the indices strictly
inside the k-th distance must be the same sets.
"""

import warnings

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from scipy.spatial.distance import cdist
from sklearn import neighbors as skn
from sklearn.metrics import DistanceMetric
from sklearn.metrics.pairwise import nan_euclidean_distances

from classiclearn import neighbors as ccn
from classiclearn.exceptions import DataConversionWarning

BOOLEAN = ["dice", "jaccard", "rogerstanimoto", "russellrao", "sokalmichener", "sokalsneath",
           "yule"]
REAL = ["braycurtis", "canberra", "correlation", "hamming", "sqeuclidean"]
NEW_METRICS = sorted(BOOLEAN + REAL + ["nan_euclidean"])


def _algorithms(metric):
    """The algorithms scikit-learn accepts for a metric."""
    return [a for a in ("brute", "ball_tree", "kd_tree") if metric in skn.VALID_METRICS[a]]


CASES = [(m, a) for m in NEW_METRICS for a in _algorithms(m)]


def _data(metric, n, seed, d=None):
    rng = np.random.default_rng(seed)
    if metric in BOOLEAN:
        X = (rng.random((n, d or 12)) < 0.4).astype(np.float64)
        return X
    if metric == "hamming":
        # few distinct values, so that coordinates are often equal
        return rng.integers(0, 3, size=(n, d or 12)).astype(np.float64)
    X = rng.normal(size=(n, d or 4))
    if metric == "braycurtis":
        X = np.abs(X)  # scipy's braycurtis has |x + y| where DistanceMetric has |x| + |y|
    if metric == "nan_euclidean":
        X[rng.random(X.shape) < 0.2] = np.nan
    return X


def _naive_nan_euclidean(Q, X):
    diff = Q[:, None, :] - X[None, :, :]
    present = (~np.isnan(diff)).sum(axis=2)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.sqrt(np.nansum(diff**2, axis=2) * Q.shape[1] / present)


def _reference(metric, Q, X):
    """Oracle distance matrix (NaN where undefined)."""
    if metric == "nan_euclidean":
        # scikit-learn's nan_euclidean_distances expands |x|^2 + |y|^2 - 2 <x, y>
        # (errors up to ~1e-8 near 0); the direct sum, checked against it
        D = _naive_nan_euclidean(Q, X)
        assert_allclose(D, nan_euclidean_distances(Q, X), atol=1e-7, equal_nan=True)
        return D
    if metric in ("braycurtis", "sokalmichener"):
        return DistanceMetric.get_metric(metric).pairwise(Q, X)
    if metric in BOOLEAN:
        with np.errstate(invalid="ignore", divide="ignore"):
            return cdist(Q.astype(bool), X.astype(bool), metric)
    return cdist(Q, X, metric)


def _reference_knn(D, k):
    """(distances, indices) of the k smallest (distance, index) pairs, NaN last."""
    key = np.where(np.isnan(D), np.inf, D)
    order = np.lexsort((np.broadcast_to(np.arange(D.shape[1]), D.shape), key), axis=1)[:, :k]
    return np.take_along_axis(D, order, axis=1), order


def _full_matrix(nn, Q, n):
    dist, ind = nn.kneighbors(Q, n_neighbors=n)
    D = np.empty((Q.shape[0], n))
    np.put_along_axis(D, ind, dist, axis=1)
    return D


def _quiet(func, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return func(*args, **kwargs)


def _sk_atol(metric):
    """Tolerance against scikit-learn: its nan_euclidean expands the square
    (errors up to ~1e-8 near 0, ~1e-13 elsewhere); the others are exact sums."""
    return 1e-7 if metric == "nan_euclidean" else 1e-13


def _assert_same_neighbours_up_to_ties(dist, ind, dist_sk, ind_sk, atol=1e-13):
    assert_allclose(dist, dist_sk, rtol=1e-12, atol=atol, equal_nan=True)
    for i in range(dist.shape[0]):
        kth = np.nan_to_num(dist[i, -1], nan=np.inf)
        inner = np.nan_to_num(dist[i], nan=np.inf) < kth - 1e-12
        inner_sk = np.nan_to_num(dist_sk[i], nan=np.inf) < kth - atol
        assert set(ind[i][inner]) == set(ind_sk[i][inner_sk])


# -- distances ---------------------------------------------------------------


@pytest.mark.parametrize("metric, algorithm", CASES)
def test_distances_match_oracle(metric, algorithm):
    X = _data(metric, 40, 0)
    Q = _data(metric, 15, 1)
    if metric in BOOLEAN:
        Q[0] = 0.0  # all False: dice and sokalsneath are 0 / 0 against another such row
        X[3] = 0.0
    if metric == "correlation":
        Q[1] = 0.7  # a constant row: correlation is undefined
    nn = ccn.NearestNeighbors(metric=metric, algorithm=algorithm)
    _quiet(nn.fit, X)
    D = _quiet(_full_matrix, nn, Q, X.shape[0])
    assert_allclose(D, _reference(metric, Q, X), rtol=1e-12, atol=1e-13, equal_nan=True)


@pytest.mark.parametrize("metric", NEW_METRICS)
def test_effective_metric_and_validity_lists(metric):
    for algorithm in ("brute", "ball_tree", "kd_tree"):
        assert (metric in ccn.VALID_METRICS[algorithm]) == (
            metric in skn.VALID_METRICS[algorithm]
        )
    assert (metric in ccn.BallTree.valid_metrics) == (metric in skn.BallTree.valid_metrics)
    assert (metric in ccn.KDTree.valid_metrics) == (metric in skn.KDTree.valid_metrics)
    X = _data(metric, 30, 2)
    ours = _quiet(ccn.NearestNeighbors(metric=metric).fit, X)
    theirs = _quiet(skn.NearestNeighbors(metric=metric).fit, X)
    assert ours.effective_metric_ == theirs.effective_metric_ == metric
    assert ours._fit_method == theirs._fit_method


# -- k nearest ---------------------------------------------------------------


@pytest.mark.parametrize("metric, algorithm", CASES)
def test_kneighbors_match_sklearn(metric, algorithm):
    X = _data(metric, 120, 3)
    Q = _data(metric, 40, 4)
    k = 5
    ours = _quiet(ccn.NearestNeighbors(n_neighbors=k, metric=metric, algorithm=algorithm,
                                       leaf_size=4).fit, X)
    theirs = _quiet(skn.NearestNeighbors(n_neighbors=k, metric=metric, algorithm=algorithm,
                                         leaf_size=4).fit, X)
    dist, ind = _quiet(ours.kneighbors, Q)
    # our tie rule: the k smallest (distance, index) pairs of the oracle matrix
    ref_dist, ref_ind = _reference_knn(_reference(metric, Q, X), k)
    assert_allclose(dist, ref_dist, rtol=1e-12, atol=1e-13, equal_nan=True)
    assert_array_equal(ind, ref_ind)
    atol = _sk_atol(metric)
    _assert_same_neighbours_up_to_ties(dist, ind, *_quiet(theirs.kneighbors, Q), atol=atol)
    # the training set as query: each point leaves itself out
    dist_t, ind_t = _quiet(ours.kneighbors)
    _assert_same_neighbours_up_to_ties(dist_t, ind_t, *_quiet(theirs.kneighbors), atol=atol)


@pytest.mark.parametrize("metric", sorted(set(skn.BallTree.valid_metrics) & set(NEW_METRICS)))
def test_ball_tree_prunes_exactly(metric):
    # small leaves and many rows: the ball bounds are used at every level; the
    # answer must equal brute force (braycurtis and dice are never pruned)
    X = _data(metric, 400, 5, d=8)
    Q = _data(metric, 60, 6, d=8)
    tree = ccn.BallTree(X, leaf_size=2, metric=metric)
    ref_dist, ref_ind = _reference_knn(_reference(metric, Q, X), 4)
    dist, ind = tree.query(Q, k=4)
    assert_allclose(dist, ref_dist, rtol=1e-12, atol=1e-13, equal_nan=True)
    assert_array_equal(ind, ref_ind)
    D = _reference(metric, Q, X)
    r = float(np.nanmedian(D[:, :40]))
    r += 1e-7  # off the ties
    counts = tree.query_radius(Q, r=r, count_only=True)
    assert_array_equal(counts, (D <= r).sum(axis=1))
    if metric not in ("braycurtis", "dice"):
        # (scikit-learn's ball tree prunes with these too and can miss rows)
        assert_array_equal(counts, skn.BallTree(X, leaf_size=2, metric=metric).query_radius(
            Q, r=r, count_only=True))


# -- radius ------------------------------------------------------------------


@pytest.mark.parametrize("metric, algorithm", CASES)
def test_radius_neighbors_match_sklearn(metric, algorithm):
    X = _data(metric, 100, 7)
    Q = _data(metric, 30, 8)
    D = _reference(metric, Q, X)
    values = np.unique(D[np.isfinite(D)])
    r = float(values[len(values) // 6])
    r = (r + values[values > r][0]) / 2.0  # halfway between two distances: no rounding ties
    ours = _quiet(ccn.NearestNeighbors(radius=r, metric=metric, algorithm=algorithm,
                                       leaf_size=4).fit, X)
    theirs = _quiet(skn.NearestNeighbors(radius=r, metric=metric, algorithm=algorithm,
                                         leaf_size=4).fit, X)
    dist, ind = _quiet(ours.radius_neighbors, Q, sort_results=True)
    dist_sk, ind_sk = _quiet(theirs.radius_neighbors, Q, sort_results=True)
    # scikit-learn's ball tree prunes without the triangle inequality for
    # braycurtis and dice, and can miss rows; ours visits every node for them
    sk_exact = not (algorithm == "ball_tree" and metric in ("braycurtis", "dice"))
    for i in range(Q.shape[0]):
        expected = np.flatnonzero(D[i] <= r)
        assert_array_equal(np.sort(ind[i]), expected)
        assert_allclose(np.sort(dist[i]), np.sort(D[i, expected]), rtol=1e-12, atol=1e-13)
        if sk_exact:
            assert_array_equal(np.sort(ind_sk[i]), expected)
            assert_allclose(np.sort(dist[i]), np.sort(dist_sk[i]), rtol=1e-12,
                            atol=_sk_atol(metric))


# -- predictions -------------------------------------------------------------


def _supervised_data(metric, seed):
    # many boolean / discrete features: fewer ties at the k-th place
    d = 64 if metric in BOOLEAN or metric == "hamming" else 4
    X = _data(metric, 80, seed, d=d)
    Q = _data(metric, 50, seed + 1, d=d)
    if metric in ("dice", "sokalsneath"):
        # no all-False row: its distances are NaN and the weights undefined
        X[X.sum(axis=1) == 0, 0] = 1.0
        Q[Q.sum(axis=1) == 0, 0] = 1.0
    score = np.nansum(X[:, :3], axis=1) - np.nansum(X[:, 3:6], axis=1)
    y = np.digitize(score, np.nanquantile(score, [0.33, 0.66]))
    return X, Q, y, score


@pytest.mark.parametrize("weights", ["uniform", "distance"])
@pytest.mark.parametrize("metric, algorithm", CASES)
def test_k_neighbors_predictions_match_sklearn(metric, algorithm, weights):
    X, Q, y, score = _supervised_data(metric, 9)
    k = 5
    D = _reference(metric, Q, X)
    Ds = np.sort(np.where(np.isnan(D), np.inf, D), axis=1)
    # queries whose k-th and (k+1)-th distances differ: the neighbour set is
    # unique, so the predictions must agree (with a tie at the k-th place
    # either choice is right and the two libraries may pick different rows)
    clear = Ds[:, k - 1] < Ds[:, k] - 1e-12
    assert clear.sum() >= 5
    params = dict(n_neighbors=k, metric=metric, algorithm=algorithm, weights=weights)
    atol_sk = _sk_atol(metric)
    for name, target in (("KNeighborsClassifier", y), ("KNeighborsRegressor", score)):
        ours = _quiet(getattr(ccn, name)(**params).fit, X, target)
        theirs = _quiet(getattr(skn, name)(**params).fit, X, target)
        pred = _quiet(ours.predict, Q[clear])
        pred_sk = _quiet(theirs.predict, Q[clear])
        if name == "KNeighborsClassifier":
            assert_array_equal(pred, pred_sk)
            assert_allclose(_quiet(ours.predict_proba, Q[clear]),
                            _quiet(theirs.predict_proba, Q[clear]),
                            rtol=1e-12 if atol_sk < 1e-12 else 1e-9, atol=1e-14)
        else:
            assert_allclose(pred, pred_sk, rtol=1e-12 if atol_sk < 1e-12 else 1e-9, atol=1e-12)


@pytest.mark.parametrize("weights", ["uniform", "distance"])
@pytest.mark.parametrize("metric, algorithm", CASES)
def test_radius_predictions_match_sklearn(metric, algorithm, weights):
    X, Q, y, score = _supervised_data(metric, 11)
    D = _reference(metric, Q, X)
    values = np.unique(D[np.isfinite(D)])
    r = float(values[len(values) // 3])
    r = (r + values[values > r][0]) / 2.0
    params = dict(radius=r, metric=metric, algorithm=algorithm, weights=weights)
    clf = ("RadiusNeighborsClassifier", y, dict(outlier_label="most_frequent"))
    reg = ("RadiusNeighborsRegressor", score, {})
    for name, target, extra in (clf, reg):
        ours = _quiet(getattr(ccn, name)(**params, **extra).fit, X, target)
        theirs = _quiet(getattr(skn, name)(**params, **extra).fit, X, target)
        pred = _quiet(ours.predict, Q)
        pred_sk = _quiet(theirs.predict, Q)
        if name == "RadiusNeighborsClassifier":
            assert_array_equal(pred, pred_sk)
        else:
            rtol = 1e-12 if metric != "nan_euclidean" else 1e-9
            assert_allclose(pred, pred_sk, rtol=rtol, atol=1e-12, equal_nan=True)


# -- warnings, errors, NaN -----------------------------------------------------


def _conversion_messages(caught):
    return sorted({str(w.message) for w in caught if "converted to boolean" in str(w.message)})


@pytest.mark.parametrize("metric", sorted(set(BOOLEAN) - {"sokalmichener"}))
@pytest.mark.parametrize("algorithm", ["brute", "auto", "ball_tree"])
@pytest.mark.parametrize("as_bool", [False, True])
def test_boolean_conversion_warning_as_sklearn(metric, algorithm, as_bool):
    if algorithm == "ball_tree" and metric not in skn.VALID_METRICS["ball_tree"]:
        pytest.skip("not a ball-tree metric in scikit-learn")
    X = _data(metric, 40, 12)
    if as_bool:
        X = X.astype(bool)
    messages = []
    categories = []
    for mod in (ccn, skn):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            nn = mod.NearestNeighbors(n_neighbors=3, metric=metric, algorithm=algorithm).fit(X)
            nn.kneighbors(X[:5])
            nn.kneighbors()
        messages.append(_conversion_messages(caught))
        categories.append({w.category.__name__ for w in caught
                           if "converted to boolean" in str(w.message)})
    assert messages[0] == messages[1]
    if messages[0]:
        assert categories[0] == {DataConversionWarning.__name__}


@pytest.mark.parametrize("metric", NEW_METRICS)
@pytest.mark.parametrize("algorithm", ["auto", "brute", "ball_tree", "kd_tree"])
def test_algorithm_refusals_match_sklearn(metric, algorithm):
    X = _data(metric, 30, 13)
    outcomes = []
    for mod in (ccn, skn):
        try:
            _quiet(mod.NearestNeighbors(n_neighbors=2, metric=metric, algorithm=algorithm).fit, X)
            outcomes.append("ok")
        except ValueError as exc:
            assert "not valid" in str(exc)
            outcomes.append("refused")
    assert outcomes[0] == outcomes[1]
    if metric not in skn.KDTree.valid_metrics:
        with pytest.raises(ValueError, match="not valid"):
            ccn.KDTree(np.nan_to_num(X), metric=metric)


def test_nan_only_with_nan_euclidean():
    X = _data("nan_euclidean", 30, 14)
    y = np.arange(30) % 2
    ours = ccn.KNeighborsClassifier(n_neighbors=3, metric="nan_euclidean").fit(X, y)
    theirs = skn.KNeighborsClassifier(n_neighbors=3, metric="nan_euclidean").fit(X, y)
    assert_array_equal(ours.predict(X), theirs.predict(X))
    assert ours.__sklearn_tags__().input_tags.allow_nan
    assert not ccn.KNeighborsClassifier(metric="canberra").__sklearn_tags__().input_tags.allow_nan
    with pytest.raises(ValueError, match="NaN"):
        ccn.KNeighborsClassifier(n_neighbors=3, metric="canberra").fit(X, y)
    with pytest.raises(ValueError, match="NaN"):
        ccn.NearestNeighbors(metric="sqeuclidean").fit(np.nan_to_num(X)).kneighbors(X)
    # a query row with no coordinate present: every distance is undefined
    Q = np.full((1, X.shape[1]), np.nan)
    dist, _ = ours.kneighbors(Q)
    dist_sk, _ = theirs.kneighbors(Q)
    assert np.isnan(dist).all() and np.isnan(dist_sk).all()


def test_inputs_not_modified_and_metric_params_refused():
    X = _data("jaccard", 30, 15)
    X0 = X.copy()
    _quiet(ccn.NearestNeighbors(metric="jaccard", algorithm="brute").fit(X).kneighbors, X)
    assert_array_equal(X, X0)
    with pytest.raises(ValueError, match="metric_params"):
        ccn.NearestNeighbors(metric="canberra", metric_params={"w": [1, 2]}).fit(X)


# -- weighted minkowski ----------------------------------------------------------


@pytest.mark.parametrize("p", [1, 2, 3, 0.5])
@pytest.mark.parametrize("algorithm", ["auto", "brute", "ball_tree", "kd_tree"])
def test_weighted_minkowski_matches_sklearn(p, algorithm):
    rng = np.random.default_rng(16)
    X = rng.normal(size=(90, 3))
    Q = rng.normal(size=(20, 3))
    y = (X[:, 0] > 0).astype(int)
    w = np.array([1.0, 2.5, 0.2])
    params = dict(n_neighbors=4, p=p, algorithm=algorithm, metric_params={"w": w})
    ours = ccn.KNeighborsClassifier(**params)
    theirs = skn.KNeighborsClassifier(**params)
    if algorithm == "kd_tree" or (p < 1 and algorithm == "ball_tree"):
        with pytest.raises(ValueError):
            _quiet(ours.fit, X, y)
        with pytest.raises(ValueError):
            _quiet(theirs.fit, X, y)
        return
    _quiet(ours.fit, X, y)
    _quiet(theirs.fit, X, y)
    dist, ind = ours.kneighbors(Q)
    dist_sk, ind_sk = theirs.kneighbors(Q)
    assert_allclose(dist, dist_sk, rtol=1e-12)
    assert_array_equal(ind, ind_sk)
    diff = np.abs(Q[:, None, :] - X[None, :, :]) ** p
    naive = np.sort((diff * w).sum(-1) ** (1.0 / p), axis=1)[:, :4]
    assert_allclose(dist, naive, rtol=1e-12)
    assert_array_equal(ours.predict(Q), theirs.predict(Q))
    assert ours.effective_metric_ == theirs.effective_metric_ == "minkowski"
    assert ours._fit_method == theirs._fit_method
    assert_array_equal(ours.effective_metric_params_["w"], w)
    r = float(np.median(dist[:, 2]))
    params.pop("n_neighbors")
    counts = [len(i) for i in ccn.NearestNeighbors(**params).fit(X).radius_neighbors(
        Q, radius=r, return_distance=False)]
    counts_sk = [len(i) for i in _quiet(skn.NearestNeighbors(**params).fit, X).radius_neighbors(
        Q, radius=r, return_distance=False)]
    assert counts == counts_sk


def test_weighted_minkowski_errors_and_ball_tree():
    X = np.random.default_rng(17).normal(size=(50, 3))
    with pytest.raises(ValueError, match="negative"):
        ccn.NearestNeighbors(metric_params={"w": [-1.0, 1.0, 1.0]}).fit(X)
    with pytest.raises(ValueError, match="size of w"):
        ccn.NearestNeighbors(metric_params={"w": [1.0, 1.0]}).fit(X)
    with pytest.raises(ValueError, match="finite p"):
        ccn.NearestNeighbors(p=np.inf, metric_params={"w": [1.0, 1.0, 1.0]}).fit(X)
    w = [1.0, 3.0, 0.5]
    ours = ccn.BallTree(X, leaf_size=3, metric="minkowski", p=3, w=w)
    theirs = skn.BallTree(X, leaf_size=3, metric="minkowski", p=3, w=w)
    assert_array_equal(ours.data, X)  # the data kept unscaled
    dist, ind = ours.query(X[:10], k=3)
    dist_sk, ind_sk = theirs.query(X[:10], k=3)
    assert_allclose(dist, dist_sk, rtol=1e-12)
    assert_array_equal(ind, ind_sk)
    assert_array_equal(ours.query_radius(X[:10], r=0.8, count_only=True),
                       theirs.query_radius(X[:10], r=0.8, count_only=True))


@pytest.mark.parametrize("metric", sorted(set(BOOLEAN) - {"yule", "sokalmichener"}))
def test_boolean_brute_product_path_equals_pair_kernel(metric):
    # brute force computes boolean distances from one matrix product per block;
    # the ball tree from the per-pair kernel: the values must agree to the bit
    X = _data(metric, 70, 18)
    Q = _data(metric, 25, 19)
    Q[0] = 0.0
    X[5] = 0.0
    brute = _quiet(ccn.NearestNeighbors(metric=metric, algorithm="brute").fit, X)
    tree = ccn.NearestNeighbors(metric=metric, algorithm="ball_tree", leaf_size=3).fit(X)
    D_brute = _quiet(_full_matrix, brute, Q, 70)
    D_tree = _full_matrix(tree, Q, 70)
    assert_array_equal(D_brute, D_tree)
    dist, ind = _quiet(brute.kneighbors, Q, n_neighbors=6)
    dist_t, ind_t = tree.kneighbors(Q, n_neighbors=6)
    assert_array_equal(ind, ind_t)
    assert_array_equal(dist, dist_t)
    r = 0.55
    counts = [len(i) for i in _quiet(brute.radius_neighbors, Q, radius=r)[1]]
    counts_t = [len(i) for i in tree.radius_neighbors(Q, radius=r)[1]]
    assert counts == counts_t
