"""Dask input: exact distributed fits, lazy prediction for every estimator, clear refusals.

Parity runs on the synchronous scheduler; one test runs a LocalCluster with worker processes.
"""

import warnings

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal

da = pytest.importorskip("dask.array")
dask = pytest.importorskip("dask")

from classiclearn import all_estimators  # noqa: E402
from classiclearn.linear_model import LinearRegression, Ridge  # noqa: E402
from classiclearn.preprocessing import MaxAbsScaler, MinMaxScaler, StandardScaler  # noqa: E402
from classiclearn.utils._dask import DaskUnsupportedError  # noqa: E402

CHUNKINGS = [(1, 299, 0, 200, 100), (300, 300), (7,) * 85 + (5,)]
EXACT = [StandardScaler, MinMaxScaler, MaxAbsScaler, LinearRegression, Ridge]


@pytest.fixture(autouse=True)
def synchronous():
    with dask.config.set(scheduler="synchronous"):
        yield


def _data(seed=0, n=600, p=5, offset=100.0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p)) * rng.uniform(0.5, 3, p) + offset
    y = X @ rng.normal(size=p) + rng.normal(size=n)
    w = rng.uniform(0.5, 2.0, n)
    return X, y, w


def _fitted_attributes(est):
    return {k: v for k, v in vars(est).items() if k.endswith("_") and not k.startswith("_")}


def _fit_both(Est, X, y, w, chunks):
    Xd = da.from_array(X, chunks=(chunks, X.shape[1]))
    yd = da.from_array(y, chunks=(chunks,))
    wd = da.from_array(w, chunks=(chunks,))
    supervised = Est in (LinearRegression, Ridge)
    weighted = Est in (StandardScaler, LinearRegression, Ridge)
    args = (X, y) if supervised else (X,)
    dargs = (Xd, yd) if supervised else (Xd,)
    kw = {"sample_weight": w} if weighted else {}
    dkw = {"sample_weight": wd} if weighted else {}
    return Est().fit(*args, **kw), Est().fit(*dargs, **dkw), Xd


@pytest.mark.parametrize("Est", EXACT)
def test_one_chunk_is_the_in_memory_fit_bit_for_bit(Est):
    X, y, w = _data()
    ours, theirs, _ = _fit_both(Est, X, y, w, (X.shape[0],))
    a, b = _fitted_attributes(ours), _fitted_attributes(theirs)
    assert a.keys() == b.keys()
    for k in a:
        assert_array_equal(np.asarray(a[k]), np.asarray(b[k]), err_msg=k)


@pytest.mark.parametrize("chunks", CHUNKINGS)
@pytest.mark.parametrize("Est", EXACT)
def test_uneven_chunks_match_the_in_memory_fit(Est, chunks):
    X, y, w = _data()
    ours, theirs, _ = _fit_both(Est, X, y, w, chunks)
    a, b = _fitted_attributes(ours), _fitted_attributes(theirs)
    assert a.keys() == b.keys()
    for k in a:
        if isinstance(a[k], str):
            assert a[k] == b[k], k
            continue
        assert_allclose(np.asarray(b[k], dtype=float), np.asarray(a[k], dtype=float),
                        rtol=1e-10, atol=1e-12, err_msg=k)


@pytest.mark.parametrize("shared_variance", [False, True])
@pytest.mark.parametrize("chunks", [(600,)] + CHUNKINGS)
def test_gaussian_nb_on_dask_matches_in_memory(chunks, shared_variance):
    from classiclearn.naive_bayes import GaussianNB

    X, _, w = _data(7)
    y = np.random.default_rng(7).choice(["a", "b", "c"], X.shape[0])
    Xd = da.from_array(X, chunks=(chunks, 5))
    yd, wd = da.from_array(y, chunks=(chunks,)), da.from_array(w, chunks=(chunks,))
    a = GaussianNB(shared_variance=shared_variance).fit(X, y, sample_weight=w)
    b = GaussianNB(shared_variance=shared_variance).fit(Xd, yd, sample_weight=wd)
    assert_array_equal(b.classes_, a.classes_)
    exact = len(chunks) == 1
    for k in ("theta_", "var_", "class_count_", "class_prior_", "epsilon_"):
        if exact:
            assert_array_equal(getattr(b, k), getattr(a, k), err_msg=k)
        else:
            assert_allclose(getattr(b, k), getattr(a, k), rtol=1e-10, err_msg=k)
    assert_array_equal(b.predict(Xd).compute(), a.predict(X))


@pytest.mark.parametrize("n_components", [3, 0.9, None, "mle"])
@pytest.mark.parametrize("chunks", [(600,)] + CHUNKINGS)
def test_pca_on_dask_matches_in_memory(chunks, n_components):
    from classiclearn.decomposition import PCA

    rng = np.random.default_rng(8)
    X = rng.normal(size=(600, 6)) @ rng.normal(size=(6, 6)) + 1e3
    Xd = da.from_array(X, chunks=(chunks, 6))
    a, b = PCA(n_components).fit(X), PCA(n_components).fit(Xd)
    assert a.n_components_ == b.n_components_
    for k in ("mean_", "components_", "explained_variance_", "explained_variance_ratio_",
              "singular_values_", "noise_variance_"):
        if len(chunks) == 1:
            assert_array_equal(getattr(b, k), getattr(a, k), err_msg=k)
        else:
            assert_allclose(getattr(b, k), getattr(a, k), rtol=1e-10, atol=1e-12, err_msg=k)
    assert_allclose(b.transform(Xd).compute(), a.transform(X), rtol=1e-9, atol=1e-9)


def test_pca_on_dask_refuses_the_solvers_it_does_not_distribute():
    from classiclearn.decomposition import PCA

    X, _, _ = _data()
    with pytest.raises(DaskUnsupportedError, match="covariance route"):
        PCA(2, svd_solver="arpack").fit(da.from_array(X, chunks=(100, 5)))


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("chunks", [(600,)] + CHUNKINGS)
@pytest.mark.parametrize("name", ["Lasso", "ElasticNet"])
def test_coordinate_descent_on_dask_matches_in_memory(name, chunks, weighted):
    from classiclearn import linear_model

    X, y, w = _data(9)
    Est = getattr(linear_model, name)
    kw = dict(alpha=0.05, tol=1e-10, max_iter=10_000)
    if name == "ElasticNet":
        kw["l1_ratio"] = 0.3
    Xd = da.from_array(X, chunks=(chunks, 5))
    yd, wd = da.from_array(y, chunks=(chunks,)), da.from_array(w, chunks=(chunks,))
    a = Est(**kw).fit(X, y, sample_weight=w if weighted else None)
    b = Est(**kw).fit(Xd, yd, sample_weight=wd if weighted else None)
    if len(chunks) == 1:
        assert_array_equal(b.coef_, a.coef_)
        assert b.intercept_ == a.intercept_
    else:  # the solver's tolerance: the in-memory fit certifies a float32 Gram matrix
        assert_allclose(b.coef_, a.coef_, rtol=1e-9, atol=1e-11)
        assert_allclose(b.intercept_, a.intercept_, rtol=1e-9)


@pytest.mark.parametrize("n_classes", [2, 3])
@pytest.mark.parametrize("kw", [{}, {"C": 0.1, "class_weight": "balanced"}, {"penalty": None},
                                {"fit_intercept": False, "class_weight": {0: 2.0, 1: 1.0}}])
def test_logistic_regression_on_dask_reaches_the_in_memory_optimum(n_classes, kw):
    from classiclearn.linear_model import LogisticRegression

    rng = np.random.default_rng(10)
    X = rng.normal(size=(900, 5))
    y = np.argmax(X[:, :n_classes] + rng.normal(size=(900, n_classes)), axis=1)
    w = rng.uniform(0.5, 2.0, 900)
    chunks = (1, 399, 0, 300, 200)
    Xd = da.from_array(X, chunks=(chunks, 5))
    yd, wd = da.from_array(y, chunks=(chunks,)), da.from_array(w, chunks=(chunks,))
    exact = LogisticRegression(solver="newton", tol=1e-14, max_iter=500, **kw)
    a = exact.fit(X, y, sample_weight=w)
    b = LogisticRegression(**kw).fit(Xd, yd, sample_weight=wd)
    assert_array_equal(b.classes_, a.classes_)
    assert_allclose(b.coef_, a.coef_, rtol=1e-10, atol=1e-12)
    assert_allclose(b.intercept_, a.intercept_, rtol=1e-10, atol=1e-12)
    assert_array_equal(b.predict(Xd).compute(), a.predict(X))
    default = LogisticRegression(**kw).fit(X, y, sample_weight=w)  # lbfgs at tol=1e-4
    assert_allclose(b.coef_, default.coef_, rtol=0, atol=5e-3)


def test_logistic_summary_from_dask_matches_in_memory():
    from classiclearn.linear_model import LogisticRegression

    rng = np.random.default_rng(11)
    X = rng.normal(size=(500, 3))
    y = (X @ [1.0, -1.0, 0.5] + rng.logistic(size=500) > 0).astype(int)
    a = LogisticRegression(penalty=None, solver="newton", tol=1e-14).fit(X, y)
    b = LogisticRegression(penalty=None).fit(da.from_array(X, chunks=(120, 3)),
                                             da.from_array(y, chunks=(120,)))
    fa, fb = a.summary().to_frame(), b.summary().to_frame()
    assert_allclose(fb.values.astype(float), fa.values.astype(float), rtol=1e-8)


@pytest.mark.parametrize("n_classes", [2, 3])
@pytest.mark.parametrize("kw", [{"penalty": "l1", "C": 0.05},
                                {"penalty": "elasticnet", "l1_ratio": 0.5, "C": 0.05},
                                {"penalty": "l1", "C": 0.05, "fit_intercept": False}])
def test_logistic_l1_and_elastic_net_on_dask_reach_the_in_memory_optimum(n_classes, kw):
    # proximal Newton on the merged Hessians against the in-memory proximal Newton
    # (newton-cd) run to a tight tolerance: the same optimum, sparsity pattern included
    from classiclearn.linear_model import LogisticRegression

    rng = np.random.default_rng(13)
    X = rng.normal(size=(900, 8)) + 1.0
    y = np.argmax(X[:, :n_classes] + rng.normal(size=(900, n_classes)), axis=1)
    w = rng.uniform(0.5, 2.0, 900)
    chunks = (1, 399, 0, 300, 200)
    Xd = da.from_array(X, chunks=(chunks, 8))
    yd, wd = da.from_array(y, chunks=(chunks,)), da.from_array(w, chunks=(chunks,))
    a = LogisticRegression(solver="newton-cd", tol=1e-13, max_iter=1000, **kw).fit(
        X, y, sample_weight=w)
    b = LogisticRegression(solver="saga", **kw).fit(Xd, yd, sample_weight=wd)
    assert 0 < np.count_nonzero(a.coef_) < a.coef_.size  # the l1 term is active
    assert_array_equal(b.coef_ == 0.0, a.coef_ == 0.0)
    assert_allclose(b.coef_, a.coef_, rtol=1e-7, atol=1e-9)
    assert_allclose(b.intercept_, a.intercept_, rtol=1e-7, atol=1e-9)
    assert_array_equal(b.predict(X), a.predict(X))


def test_logistic_firth_on_dask_is_refused():
    from classiclearn.linear_model import LogisticRegression

    X, y, _ = _data()
    with pytest.raises(DaskUnsupportedError, match="penalty='firth'"):
        LogisticRegression(penalty="firth").fit(
            da.from_array(X, chunks=(100, 5)), da.from_array((y > 0).astype(int), chunks=(100,)))


@pytest.mark.parametrize("n_clusters", [3, 8])
@pytest.mark.parametrize("random_state", [0, 3])
@pytest.mark.parametrize("chunks", [(1, 999, 0, 1000), (333,) * 6 + (2,)])
def test_kmeans_on_dask_draws_the_same_seeds_and_converges_alike(chunks, random_state,
                                                                n_clusters):
    from classiclearn.cluster import KMeans

    rng = np.random.default_rng(12)
    X = rng.normal(size=(2000, 3)) * [1.0, 2.0, 3.0] + 1e3
    w = rng.uniform(0.5, 2.0, 2000)
    Xd, wd = da.from_array(X, chunks=(chunks, 3)), da.from_array(w, chunks=(chunks,))
    a = KMeans(n_clusters, random_state=random_state).fit(X, sample_weight=w)
    b = KMeans(n_clusters, random_state=random_state).fit(Xd, sample_weight=wd)
    assert b.n_iter_ == a.n_iter_
    assert_allclose(b.cluster_centers_, a.cluster_centers_, rtol=1e-12)
    assert_allclose(b.inertia_, a.inertia_, rtol=1e-12)
    assert isinstance(b.labels_, da.Array)
    assert_array_equal(b.labels_.compute(), a.labels_)


def test_kmeans_on_dask_with_initial_centres_and_refusals():
    from classiclearn.cluster import KMeans

    X, _, _ = _data(13)
    Xd = da.from_array(X, chunks=(100, 5))
    init = X[[0, 100, 200]]
    a = KMeans(3, init=init).fit(X)
    b = KMeans(3, init=init).fit(Xd)
    assert_allclose(b.cluster_centers_, a.cluster_centers_, rtol=1e-12)
    with pytest.raises(DaskUnsupportedError, match="k-means\\+\\+"):
        KMeans(3, init="random").fit(Xd)


@pytest.mark.parametrize("chunks", [(600,)] + CHUNKINGS)
@pytest.mark.parametrize("name", ["MultinomialNB", "ComplementNB", "BernoulliNB"])
def test_count_naive_bayes_on_dask_matches_in_memory(name, chunks):
    from classiclearn import naive_bayes

    rng = np.random.default_rng(14)
    X = rng.poisson(1.0, size=(600, 12)).astype(float)
    y = rng.choice([1, 5, 9], 600)
    w = rng.uniform(0.5, 2.0, 600)
    Est = getattr(naive_bayes, name)
    Xd = da.from_array(X, chunks=(chunks, 12))
    yd, wd = da.from_array(y, chunks=(chunks,)), da.from_array(w, chunks=(chunks,))
    a, b = Est().fit(X, y, sample_weight=w), Est().fit(Xd, yd, sample_weight=wd)
    for k, v in _fitted_attributes(a).items():
        if len(chunks) == 1 or np.asarray(v).dtype.kind not in "fc":
            assert_array_equal(getattr(b, k), v, err_msg=k)
        else:
            assert_allclose(getattr(b, k), v, rtol=1e-12, atol=1e-12, err_msg=k)
    assert_allclose(b.predict_proba(Xd).compute(), a.predict_proba(X), rtol=1e-10)


@pytest.mark.parametrize("kw", [{}, {"solver": "eigen"}, {"solver": "lsqr"},
                                {"priors": [0.2, 0.3, 0.5], "store_covariance": True},
                                {"solver": "eigen", "covariance_estimate": "unbiased"},
                                {"n_components": 1}])
@pytest.mark.parametrize("chunks", [(600,)] + CHUNKINGS)
def test_lda_on_dask_matches_in_memory(chunks, kw):
    from classiclearn.discriminant_analysis import LinearDiscriminantAnalysis

    rng = np.random.default_rng(15)
    X = rng.normal(size=(600, 5)) @ rng.normal(size=(5, 5)) + 20.0
    y = rng.choice(["a", "b", "c"], 600)
    X[y == "a"] += 1.0
    Xd, yd = da.from_array(X, chunks=(chunks, 5)), da.from_array(y, chunks=(chunks,))
    a = LinearDiscriminantAnalysis(**kw).fit(X, y)
    b = LinearDiscriminantAnalysis(**kw).fit(Xd, yd)
    assert_array_equal(b.classes_, a.classes_)
    # the eigen solver's scalings_ beyond the K - 1 discriminant directions are an
    # arbitrary basis of a null space (in memory too): compare what they determine
    names = ["coef_", "intercept_", "means_", "priors_"]
    names += [n for n in ("covariance_", "xbar_", "explained_variance_ratio_") if hasattr(a, n)]
    for k in names:
        if len(chunks) == 1:
            assert_array_equal(getattr(b, k), getattr(a, k), err_msg=k)
        else:
            assert_allclose(getattr(b, k), getattr(a, k), rtol=1e-10, atol=1e-12, err_msg=k)
    assert_array_equal(b.predict(Xd).compute(), a.predict(X))
    assert_allclose(b.predict_proba(Xd).compute(), a.predict_proba(X), rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("kw", [{}, {"reg_param": 0.1, "store_covariance": True},
                                {"solver": "eigen"}, {"covariance_estimate": "unbiased"},
                                {"priors": [0.2, 0.3, 0.5]}])
@pytest.mark.parametrize("chunks", [(600,)] + CHUNKINGS)
def test_qda_on_dask_matches_in_memory(chunks, kw):
    from classiclearn.discriminant_analysis import QuadraticDiscriminantAnalysis

    rng = np.random.default_rng(16)
    X = rng.normal(size=(600, 4)) @ rng.normal(size=(4, 4)) + 5.0
    y = rng.choice([3, 1, 2], 600)
    X[y == 1] *= 1.5
    Xd, yd = da.from_array(X, chunks=(chunks, 4)), da.from_array(y, chunks=(chunks,))
    a = QuadraticDiscriminantAnalysis(**kw).fit(X, y)
    b = QuadraticDiscriminantAnalysis(**kw).fit(Xd, yd)
    assert_array_equal(b.classes_, a.classes_)
    exact = len(chunks) == 1
    check = assert_array_equal if exact else (
        lambda u, v, err_msg: assert_allclose(u, v, rtol=1e-9, atol=1e-11, err_msg=err_msg))
    for k in ("means_", "priors_"):
        check(getattr(b, k), getattr(a, k), err_msg=k)
    for k in range(3):  # eigenvalues; eigenvectors up to sign
        check(b.scalings_[k], a.scalings_[k], err_msg="scalings_")
        check(np.abs(b.rotations_[k]), np.abs(a.rotations_[k]), err_msg="rotations_")
    if "store_covariance" in kw:
        for k in range(3):
            check(b.covariance_[k], a.covariance_[k], err_msg="covariance_")
    assert_allclose(b.predict_proba(Xd).compute(), a.predict_proba(X), rtol=1e-8, atol=1e-12)


def test_pipeline_on_dask_fits_each_step_distributed():
    from classiclearn.decomposition import PCA
    from classiclearn.linear_model import LogisticRegression
    from classiclearn.pipeline import make_pipeline
    from classiclearn.svm import SVC

    X, y, _ = _data(17)
    labels = (y > np.median(y)).astype(int)
    Xd, yd = da.from_array(X, chunks=(150, 5)), da.from_array(labels, chunks=(150,))
    exact = LogisticRegression(solver="newton", tol=1e-14)
    a = make_pipeline(StandardScaler(), PCA(3), exact).fit(X, labels)
    b = make_pipeline(StandardScaler(), PCA(3), LogisticRegression()).fit(Xd, yd)
    assert_allclose(b[-1].coef_, a[-1].coef_, rtol=1e-9)
    proba = b.predict_proba(Xd)
    assert isinstance(proba, da.Array)
    assert_allclose(proba.compute(), b.predict_proba(X), rtol=1e-10)
    with pytest.raises(DaskUnsupportedError, match="SVC"):
        make_pipeline(StandardScaler(), SVC()).fit(Xd, yd)


@pytest.mark.parametrize("covariance_type", ["full", "tied", "diag", "spherical"])
@pytest.mark.parametrize("chunks", [(1, 999, 0, 1000), (333,) * 6 + (2,)])
def test_gaussian_mixture_on_dask_follows_the_in_memory_em(chunks, covariance_type):
    from classiclearn.mixture import GaussianMixture

    rng = np.random.default_rng(18)
    X = np.vstack([rng.normal(size=(500, 3)) * s + c for s, c in
                   [(1.0, 0.0), (2.0, 6.0), (0.5, -5.0), (1.5, 12.0)]])
    Xd = da.from_array(X, chunks=(chunks, 3))
    a = GaussianMixture(4, covariance_type=covariance_type, random_state=0).fit(X)
    b = GaussianMixture(4, covariance_type=covariance_type, random_state=0).fit(Xd)
    assert b.n_iter_ == a.n_iter_
    for k in ("weights_", "means_", "covariances_", "precisions_cholesky_"):
        assert_allclose(getattr(b, k), getattr(a, k), rtol=1e-10, atol=1e-12, err_msg=k)
    assert_allclose(b.lower_bound_, a.lower_bound_, rtol=1e-12)
    assert_allclose(b.predict_proba(Xd).compute(), a.predict_proba(X), rtol=1e-8, atol=1e-12)
    with pytest.raises(DaskUnsupportedError, match="init_params"):
        GaussianMixture(4, init_params="random").fit(Xd)


@pytest.mark.parametrize("kw", [{}, {"strategy": "most_frequent"},
                                {"strategy": "constant", "fill_value": 7},
                                {"add_indicator": True, "keep_empty_features": True},
                                {"missing_values": 0.0}])
@pytest.mark.parametrize("chunks", [(600,)] + CHUNKINGS)
def test_simple_imputer_on_dask_matches_in_memory(chunks, kw):
    from classiclearn.impute import SimpleImputer

    rng = np.random.default_rng(19)
    X = rng.integers(0, 5, size=(600, 4)).astype(float)
    X[rng.random((600, 4)) < 0.2] = np.nan
    X[:, 3] = np.nan
    if kw.get("missing_values") == 0.0:
        X = np.nan_to_num(X)
    Xd = da.from_array(X, chunks=(chunks, 4))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # the all-missing column
        a, b = SimpleImputer(**kw).fit(X), SimpleImputer(**kw).fit(Xd)
        assert_allclose(b.statistics_, a.statistics_, rtol=1e-12, equal_nan=True)
        if a.indicator_features_ is None:
            assert b.indicator_features_ is None
        else:
            assert_array_equal(b.indicator_features_, a.indicator_features_)
        assert_allclose(b.transform(Xd).compute(), a.transform(X), rtol=1e-12, equal_nan=True)


def test_simple_imputer_median_on_dask_is_refused():
    from classiclearn.impute import SimpleImputer

    X, _, _ = _data()
    with pytest.raises(DaskUnsupportedError, match="median"):
        SimpleImputer(strategy="median").fit(da.from_array(X, chunks=(100, 5)))


def test_ols_summary_from_dask_matches_in_memory():
    X, y, _ = _data(1)
    Xd, yd = da.from_array(X, chunks=(97, 5)), da.from_array(y, chunks=(97,))
    a = LinearRegression().fit(X, y).summary().to_frame()
    b = LinearRegression().fit(Xd, yd).summary().to_frame()
    assert_allclose(b.values.astype(float), a.values.astype(float), rtol=1e-9)


def test_collinear_ols_on_dask_gives_the_minimum_norm_solution():
    X, y, _ = _data(2)
    X = np.column_stack([X, X[:, 0] + X[:, 1]])
    a = LinearRegression().fit(X, y)
    b = LinearRegression().fit(da.from_array(X, chunks=(100, 6)), da.from_array(y, chunks=(100,)))
    assert b.rank_ == a.rank_ == 5
    assert_allclose(b.predict(X), a.predict(X), rtol=1e-8)


@pytest.mark.parametrize("Est", EXACT)
def test_repeated_fits_are_identical_and_independent_of_the_scheduler(Est):
    X, y, w = _data(3)
    _, first, _ = _fit_both(Est, X, y, w, (250, 250, 100))
    _, again, _ = _fit_both(Est, X, y, w, (250, 250, 100))
    with dask.config.set(scheduler="threads"):
        _, threaded, _ = _fit_both(Est, X, y, w, (250, 250, 100))
    for other in (again, threaded):
        for k, v in _fitted_attributes(first).items():
            assert_array_equal(np.asarray(getattr(other, k)), np.asarray(v), err_msg=k)


def test_dask_dataframe_keeps_feature_names():
    dd = pytest.importorskip("dask.dataframe")
    pd = pytest.importorskip("pandas")
    X, y, _ = _data(4)
    frame = pd.DataFrame(X, columns=[f"f{i}" for i in range(5)])
    ddf = dd.from_pandas(frame, npartitions=3)
    dy = dd.from_pandas(pd.Series(y), npartitions=3)
    model = LinearRegression().fit(ddf, dy)
    assert list(model.feature_names_in_) == list(frame.columns)
    assert_allclose(model.coef_, LinearRegression().fit(frame, y).coef_, rtol=1e-10)
    pred = model.predict(ddf)
    assert isinstance(pred, da.Array)
    assert_allclose(pred.compute(), model.predict(frame), rtol=1e-12)
    with pytest.raises(ValueError, match="feature names"):
        model.predict(ddf.rename(columns={"f0": "g0"}))


def test_fitted_on_dask_the_model_predicts_numpy_and_pickles():
    import pickle

    X, y, _ = _data(5)
    model = Ridge(alpha=2.0).fit(da.from_array(X, chunks=(128, 5)), da.from_array(y, chunks=(128,)))
    assert isinstance(model.coef_, np.ndarray)
    again = pickle.loads(pickle.dumps(model))
    assert_array_equal(again.predict(X), model.predict(X))


# ------------------------------------------------------------------ bad input
def test_mismatched_chunks_of_X_and_y_are_named():
    X, y, _ = _data()
    with pytest.raises(ValueError, match="same row chunks"):
        LinearRegression().fit(da.from_array(X, chunks=(100, 5)), da.from_array(y, chunks=(150,)))


def test_unknown_chunk_sizes_are_named():
    X, y, _ = _data()
    Xd = da.from_array(X, chunks=(100, 5))
    Xd = Xd[Xd[:, 0] > -np.inf]  # boolean indexing: row chunk sizes become unknown
    with pytest.raises(ValueError, match="unknown chunk sizes"):
        StandardScaler().fit(Xd)


def test_nan_in_a_block_is_named():
    X, y, _ = _data()
    X[450, 2] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        LinearRegression().fit(da.from_array(X, chunks=(100, 5)), da.from_array(y, chunks=(100,)))


def test_estimators_without_a_distributed_fit_refuse_clearly():
    from classiclearn.svm import SVC

    X, y, _ = _data()
    Xd = da.from_array(X, chunks=(100, 5))
    with pytest.raises(DaskUnsupportedError, match="no distributed version.*sample"):
        SVC().fit(Xd, (y > y.mean()).astype(int))
    assert issubclass(DaskUnsupportedError, TypeError)


def test_mixed_dask_and_numpy_arguments_are_refused():
    X, y, _ = _data()
    with pytest.raises(TypeError, match="not a Dask collection"):
        LinearRegression().fit(X, da.from_array(y, chunks=(100,)))


# ----------------------------------------------- lazy prediction, every estimator
_ROW_METHODS = ("predict", "predict_proba", "predict_log_proba", "decision_function",
                "transform", "score_samples")


def _instances():
    from sklearn.linear_model import LogisticRegression as SkLogistic  # noqa: F401

    for name, cls in all_estimators():
        try:
            est = cls()
        except TypeError:  # meta-estimators: wrap one of ours
            from classiclearn.naive_bayes import GaussianNB

            try:
                est = cls(GaussianNB())
            except TypeError:
                continue
        yield pytest.param(est, id=name)


@pytest.mark.parametrize("est", list(_instances()))
def test_row_methods_are_lazy_and_equal_on_dask_input(est):
    from classiclearn.base import is_classifier, is_regressor

    rng = np.random.default_rng(0)
    X = np.abs(rng.normal(size=(90, 4))) + 0.1
    y = np.repeat([0, 1, 2], 30) if is_classifier(est) else X @ [1.0, -2.0, 0.5, 1.0]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            est.fit(X, y) if is_classifier(est) or is_regressor(est) else est.fit(X)
        except (ValueError, TypeError) as exc:  # e.g. an estimator needing other data
            pytest.skip(f"does not fit the generic data: {exc}")
        Xd = da.from_array(X, chunks=(25, 4))
        checked = 0
        for name in _ROW_METHODS:
            if not hasattr(est, name):
                continue
            try:
                expected = getattr(est, name)(X)
            except (ValueError, TypeError, AttributeError, NotImplementedError):
                continue
            lazy = getattr(est, name)(Xd)
            assert isinstance(lazy, da.Array), name
            assert lazy.chunks[0] == Xd.chunks[0], name
            got = lazy.compute()
            if np.asarray(expected).dtype.kind in "fc":
                assert_allclose(got, expected, rtol=1e-10, atol=1e-12, err_msg=name)
            else:
                assert_array_equal(got, expected, err_msg=name)
            checked += 1
    if checked == 0:
        pytest.skip("no row-wise method applies to the generic data")


# --------------------------------------------------------------- a real cluster
@pytest.mark.slow
def test_local_cluster_with_worker_processes():
    distributed = pytest.importorskip("distributed")
    X, y, w = _data(6, n=4000)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None, memory_limit="1GB") as cluster, \
            distributed.Client(cluster):
        Xd = da.from_array(X, chunks=(700, 5))
        yd = da.from_array(y, chunks=(700,))
        model = LinearRegression().fit(Xd, yd)
        scaled = StandardScaler().fit(Xd).transform(Xd).compute()
        pred = model.predict(Xd).compute()
    with dask.config.set(scheduler="synchronous"):
        ref = LinearRegression().fit(Xd, yd)
    assert_array_equal(model.coef_, ref.coef_)
    assert_allclose(pred, ref.predict(X), rtol=1e-12)
    assert_allclose(scaled, StandardScaler().fit(X).transform(X), rtol=1e-10, atol=1e-12)


def test_linear_regression_cuts_singular_values_at_tol_as_in_memory():
    # columns on scales 1e-3 to 1e4: the Gram matrix's Cholesky would keep every
    # direction, but the singular-value cut ``tol`` (scikit-learn's) removes two
    rng = np.random.default_rng(3)
    X = rng.normal(size=(600, 10)) * np.logspace(-3.0, 4.0, 10)
    y = X @ (rng.normal(size=10) / np.logspace(-3.0, 4.0, 10)) + rng.normal(size=600)
    local = LinearRegression().fit(X, y)
    Xd, yd = da.from_array(X, chunks=(200, 10)), da.from_array(y, chunks=(200,))
    spread = LinearRegression().fit(Xd, yd)
    assert spread.rank_ == local.rank_ < 10
    assert_allclose(spread.predict(X), local.predict(X), atol=1e-6 * np.ptp(y))
