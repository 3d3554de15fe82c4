"""Preprocessing transformers against scikit-learn's twins."""

import warnings

import numpy as np
import pytest

from classiclearn.preprocessing import (
    LabelEncoder,
    MinMaxScaler,
    OneHotEncoder,
    PolynomialFeatures,
    SimpleImputer,
    StandardScaler,
)

skp = pytest.importorskip("sklearn.preprocessing")
ski = pytest.importorskip("sklearn.impute")


@pytest.fixture
def X(rng):
    X = rng.normal(size=(50, 4)) * [1.0, 10.0, 0.1, 3.0] + [0.0, 5.0, -2.0, 1.0]
    X[:, 3] = 7.0  # a constant feature
    return X


@pytest.mark.parametrize("with_mean", [True, False])
@pytest.mark.parametrize("with_std", [True, False])
def test_standard_scaler_matches(X, with_mean, with_std):
    a = StandardScaler(with_mean=with_mean, with_std=with_std).fit(X)
    b = skp.StandardScaler(with_mean=with_mean, with_std=with_std).fit(X)
    np.testing.assert_allclose(a.transform(X), b.transform(X), rtol=1e-12, atol=1e-12)
    for name in ("mean_", "var_", "scale_"):
        if getattr(b, name) is None:
            assert getattr(a, name) is None
        else:
            np.testing.assert_allclose(getattr(a, name), getattr(b, name), rtol=1e-12)
    assert a.n_samples_seen_ == b.n_samples_seen_
    np.testing.assert_allclose(a.inverse_transform(a.transform(X)), X, rtol=1e-12)


def test_standard_scaler_weights_partial_fit_nan(X, rng):
    w = rng.integers(1, 4, size=len(X)).astype(float)
    a = StandardScaler().fit(X, sample_weight=w)
    b = skp.StandardScaler().fit(X, sample_weight=w)
    np.testing.assert_allclose(a.transform(X), b.transform(X), rtol=1e-10, atol=1e-12)
    # weight 2 = row twice
    rep = StandardScaler().fit(np.repeat(X, w.astype(int), axis=0))
    np.testing.assert_allclose(a.mean_, rep.mean_, rtol=1e-12)
    np.testing.assert_allclose(a.var_, rep.var_, rtol=1e-10)
    # partial_fit over batches equals one fit
    p = StandardScaler()
    for chunk in np.array_split(X, 4):
        p.partial_fit(chunk)
    full = StandardScaler().fit(X)
    np.testing.assert_allclose(p.mean_, full.mean_, rtol=1e-12)
    np.testing.assert_allclose(p.var_, full.var_, rtol=1e-10)
    assert p.n_samples_seen_ == len(X)
    # NaN ignored in fit, kept in transform
    Xn = X.copy()
    Xn[::7, 1] = np.nan
    a, b = StandardScaler().fit(Xn), skp.StandardScaler().fit(Xn)
    np.testing.assert_allclose(a.transform(Xn), b.transform(Xn), rtol=1e-12, equal_nan=True)
    np.testing.assert_array_equal(a.n_samples_seen_, b.n_samples_seen_)


def test_scalers_keep_float32_and_do_not_modify_input(X):
    X32 = X.astype(np.float32)
    before = X32.copy()
    for est in (StandardScaler(), MinMaxScaler(), PolynomialFeatures()):
        out = est.fit_transform(X32)
        assert out.dtype == np.float32
        np.testing.assert_array_equal(X32, before)


@pytest.mark.parametrize("feature_range,clip", [((0, 1), False), ((-2, 3), True)])
def test_minmax_matches(X, rng, feature_range, clip):
    a = MinMaxScaler(feature_range=feature_range, clip=clip).fit(X)
    b = skp.MinMaxScaler(feature_range=feature_range, clip=clip).fit(X)
    Xt = rng.normal(size=(10, 4)) * 20
    np.testing.assert_allclose(a.transform(Xt), b.transform(Xt), rtol=1e-12, atol=1e-12)
    for name in ("min_", "scale_", "data_min_", "data_max_", "data_range_"):
        np.testing.assert_allclose(getattr(a, name), getattr(b, name))
    np.testing.assert_allclose(a.inverse_transform(a.transform(X)), X, rtol=1e-12, atol=1e-12)
    p = MinMaxScaler(feature_range=feature_range)
    for chunk in np.array_split(X, 3):
        p.partial_fit(chunk)
    np.testing.assert_allclose(p.transform(X), b.transform(X), atol=1e-12)
    with pytest.raises(ValueError, match="smaller than maximum"):
        MinMaxScaler(feature_range=(1, 0)).fit(X)


@pytest.mark.parametrize("degree", [0, 1, 2, 3, (2, 3), (0, 2)])
@pytest.mark.parametrize("interaction_only", [False, True])
@pytest.mark.parametrize("include_bias", [True, False])
def test_polynomial_features_matches(rng, degree, interaction_only, include_bias):
    if degree == 0 and not include_bias:
        with pytest.raises(ValueError, match="empty"):
            PolynomialFeatures(degree, include_bias=False).fit([[1.0]])
        return
    X = rng.normal(size=(6, 3))
    kw = dict(interaction_only=interaction_only, include_bias=include_bias)
    a = PolynomialFeatures(degree, **kw).fit(X)
    b = skp.PolynomialFeatures(degree, **kw).fit(X)
    np.testing.assert_allclose(a.transform(X), b.transform(X), rtol=1e-12)
    np.testing.assert_array_equal(a.powers_, b.powers_)
    assert a.n_output_features_ == b.n_output_features_
    np.testing.assert_array_equal(a.get_feature_names_out(["a", "b", "c"]),
                                  b.get_feature_names_out(["a", "b", "c"]))


def test_label_encoder():
    y = ["b", "a", "c", "b"]
    a, b = LabelEncoder(), skp.LabelEncoder()
    np.testing.assert_array_equal(a.fit_transform(y), b.fit_transform(y))
    np.testing.assert_array_equal(a.classes_, b.classes_)
    np.testing.assert_array_equal(a.inverse_transform([2, 0]), b.inverse_transform([2, 0]))
    with pytest.raises(ValueError, match="unseen labels"):
        a.transform(["z"])
    assert LabelEncoder().fit([3, 1, 2]).transform([1, 3]).tolist() == [0, 2]


def _mixed_frame():
    pd = pytest.importorskip("pandas")
    return pd.DataFrame({
        "city": ["paris", "tokyo", "paris", "lima", "tokyo", "lima"],
        "size": [1, 3, 2, 3, 1, 1],
        "ok": [0.5, 1.5, 0.5, 0.5, 2.5, 1.5],
    })


@pytest.mark.parametrize("drop", [None, "first", "if_binary"])
def test_one_hot_matches_on_dataframe(drop):
    df = _mixed_frame()
    a = OneHotEncoder(drop=drop).fit(df)
    b = skp.OneHotEncoder(drop=drop, sparse_output=False).fit(df)
    np.testing.assert_array_equal(a.transform(df), b.transform(df))
    np.testing.assert_array_equal(a.get_feature_names_out(), b.get_feature_names_out())
    for ca, cb in zip(a.categories_, b.categories_):
        np.testing.assert_array_equal(ca, cb)
    back = a.inverse_transform(a.transform(df))
    np.testing.assert_array_equal(back.astype(str), df.to_numpy().astype(str))


def test_one_hot_unknown_categories_and_sparse():
    X = np.array([["a", "x"], ["b", "y"], ["a", "y"]], dtype=object)
    enc = OneHotEncoder().fit(X)
    with pytest.raises(ValueError, match="unknown categories"):
        enc.transform([["c", "x"]])
    ign = OneHotEncoder(handle_unknown="ignore").fit(X)
    assert ign.transform([["c", "x"]]).tolist() == [[0.0, 0.0, 1.0, 0.0]]
    with pytest.warns(UserWarning, match="unknown categories"):
        OneHotEncoder(handle_unknown="warn").fit(X).transform([["c", "x"]])
    sp = OneHotEncoder(sparse_output=True).fit(X).transform(X)
    np.testing.assert_array_equal(sp.toarray(), enc.transform(X))
    given = OneHotEncoder(categories=[["a", "b", "c"], ["x", "y"]]).fit(X)
    assert given.transform([["c", "x"]]).tolist() == [[0, 0, 1, 1, 0]]
    with pytest.raises(TypeError, match="uniformly strings or numbers"):
        OneHotEncoder().fit(np.array([["a"], [1]], dtype=object))


def test_one_hot_missing_values_are_a_category():
    X = np.array([[1.0], [np.nan], [2.0], [1.0]])
    a = OneHotEncoder().fit(X)
    b = skp.OneHotEncoder(sparse_output=False).fit(X)
    np.testing.assert_array_equal(a.transform(X), b.transform(X))
    Xo = np.array([["a"], [None], ["b"]], dtype=object)
    out = OneHotEncoder().fit(Xo).transform(Xo)
    assert out.tolist() == [[1, 0, 0], [0, 0, 1], [0, 1, 0]]


@pytest.mark.parametrize("strategy", ["mean", "median", "most_frequent", "constant"])
def test_simple_imputer_numeric_matches(rng, strategy):
    X = rng.integers(0, 5, size=(30, 4)).astype(float)
    X[rng.uniform(size=X.shape) < 0.2] = np.nan
    kw = {"fill_value": -1.0} if strategy == "constant" else {}
    a = SimpleImputer(strategy=strategy, **kw).fit(X)
    b = ski.SimpleImputer(strategy=strategy, **kw).fit(X)
    np.testing.assert_allclose(a.statistics_, b.statistics_.astype(float))
    Xt = X[::-1]
    np.testing.assert_allclose(a.transform(Xt), b.transform(Xt))
    ai = SimpleImputer(strategy=strategy, add_indicator=True, **kw).fit(X)
    bi = ski.SimpleImputer(strategy=strategy, add_indicator=True, **kw).fit(X)
    np.testing.assert_allclose(ai.transform(Xt), bi.transform(Xt))
    np.testing.assert_array_equal(ai.get_feature_names_out(), bi.get_feature_names_out())


def test_simple_imputer_strings_empty_features_and_placeholders():
    X = np.array([["a", "x"], [None, "y"], ["b", "y"], ["b", None]], dtype=object)
    out = SimpleImputer(strategy="most_frequent").fit_transform(X)
    assert out.tolist() == [["a", "x"], ["b", "y"], ["b", "y"], ["b", "y"]]
    out = SimpleImputer(strategy="constant").fit_transform(X)
    assert out[1, 0] == "missing_value"
    with pytest.raises(ValueError, match="non-numeric"):
        SimpleImputer(strategy="mean").fit(X)
    Xe = np.array([[1.0, np.nan], [2.0, np.nan]])
    with pytest.warns(UserWarning, match="Skipping features"):
        assert SimpleImputer().fit(Xe).transform(Xe).shape == (2, 1)
    assert SimpleImputer(keep_empty_features=True).fit_transform(Xe).tolist() == [
        [1.0, 0.0], [2.0, 0.0]]
    Xm = np.array([[1, -1], [3, 4], [-1, 6]])
    a = SimpleImputer(missing_values=-1).fit(Xm)
    b = ski.SimpleImputer(missing_values=-1).fit(Xm)
    np.testing.assert_allclose(a.transform(Xm), b.transform(Xm))


def test_feature_names_and_pandas_output():
    pd = pytest.importorskip("pandas")
    df = pd.DataFrame({"a": [1.0, 2.0, 3.0], "b": [0.0, 1.0, 1.0]})
    sc = StandardScaler().fit(df)
    assert sc.feature_names_in_.tolist() == ["a", "b"]
    assert sc.get_feature_names_out().tolist() == ["a", "b"]
    out = StandardScaler().set_output(transform="pandas").fit_transform(df)
    assert isinstance(out, pd.DataFrame) and out.columns.tolist() == ["a", "b"]
    pf = PolynomialFeatures(2).set_output(transform="pandas").fit_transform(df)
    assert pf.columns.tolist() == ["1", "a", "b", "a^2", "a b", "b^2"]
    with pytest.raises(ValueError, match="features"):
        StandardScaler().fit(df).transform(np.ones((2, 3)))


@pytest.mark.parametrize("kw", [{}, {"with_centering": False}, {"with_scaling": False},
                                {"quantile_range": (10.0, 90.0), "unit_variance": True}])
def test_robust_scaler_matches(X, rng, kw):
    from classiclearn.preprocessing import RobustScaler

    Xn = X.copy()
    Xn[::5, 0] = np.nan
    a = RobustScaler(**kw).fit(Xn)
    b = skp.RobustScaler(**kw).fit(Xn)
    np.testing.assert_allclose(a.transform(Xn), b.transform(Xn), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(a.inverse_transform(a.transform(Xn)), Xn, rtol=1e-12,
                               atol=1e-12)


def test_maxabs_normalizer_binarizer_match(X, rng):
    from classiclearn.preprocessing import (
        Binarizer,
        MaxAbsScaler,
        Normalizer,
        label_binarize,
        normalize,
    )

    a, b = MaxAbsScaler().fit(X), skp.MaxAbsScaler().fit(X)
    np.testing.assert_allclose(a.transform(X), b.transform(X))
    np.testing.assert_allclose(a.max_abs_, b.max_abs_)
    np.testing.assert_allclose(a.inverse_transform(a.transform(X)), X)
    p = MaxAbsScaler()
    for chunk in np.array_split(X, 3):
        p.partial_fit(chunk)
    np.testing.assert_allclose(p.max_abs_, b.max_abs_)
    for norm in ("l1", "l2", "max"):
        np.testing.assert_allclose(Normalizer(norm=norm).fit_transform(X),
                                   skp.Normalizer(norm=norm).fit_transform(X))
        np.testing.assert_allclose(normalize(X, norm=norm, axis=0),
                                   skp.normalize(X, norm=norm, axis=0))
    np.testing.assert_array_equal(Binarizer(threshold=0.5).fit_transform(X),
                                  skp.Binarizer(threshold=0.5).fit_transform(X))
    y = rng.integers(0, 3, size=10)
    np.testing.assert_array_equal(label_binarize(y, classes=[0, 1, 2]),
                                  skp.label_binarize(y, classes=[0, 1, 2]))
    np.testing.assert_array_equal(label_binarize(y % 2, classes=[0, 1]),
                                  skp.label_binarize(y % 2, classes=[0, 1]))


@pytest.mark.parametrize("kw", [{}, {"add_indicator": True}, {"keep_empty_features": True},
                                {"strategy": "median", "add_indicator": True},
                                {"strategy": "most_frequent"},
                                {"strategy": "constant", "fill_value": 7.0},
                                {"strategy": "constant", "keep_empty_features": True}])
def test_simple_imputer_empty_features_match(kw):
    X = np.array([[1.0, np.nan, 3.0], [np.nan, np.nan, 5.0], [2.0, np.nan, np.nan]])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        a = SimpleImputer(**kw).fit(X)
        b = ski.SimpleImputer(**kw).fit(X)
        np.testing.assert_allclose(a.transform(X), b.transform(X))
    assert list(a.get_feature_names_out()) == list(b.get_feature_names_out())


@pytest.mark.parametrize("kw", [
    {"min_frequency": 10}, {"min_frequency": 0.1}, {"max_categories": 3},
    {"max_categories": 1}, {"max_categories": 4, "min_frequency": 5},
    {"min_frequency": 10, "handle_unknown": "infrequent_if_exist"},
    {"min_frequency": 10, "handle_unknown": "ignore"}, {"min_frequency": 10, "drop": "first"},
    {"max_categories": 2, "drop": "if_binary"},
])
def test_one_hot_infrequent_categories_match(rng, kw):
    X = np.column_stack([
        rng.choice(list("abcdefg"), size=200, p=[0.4, 0.2, 0.15, 0.1, 0.1, 0.04, 0.01]),
        rng.choice(["x", "y", "z"], size=200, p=[0.5, 0.45, 0.05]),
    ]).astype(object)
    Xt = np.array([["a", "x"], ["g", "z"], ["q", "w"], ["f", "y"]], dtype=object)
    Xt = Xt if "handle_unknown" in kw else X[:30]
    a = OneHotEncoder(**kw).fit(X)
    b = skp.OneHotEncoder(sparse_output=False, **kw).fit(X)
    ta, tb = a.transform(Xt), b.transform(Xt)
    np.testing.assert_array_equal(ta, tb)
    assert list(a.get_feature_names_out()) == list(b.get_feature_names_out())
    for x, z in zip(a.infrequent_categories_, b.infrequent_categories_):
        assert (x is None and z is None) or list(x) == list(z)
    np.testing.assert_array_equal(a.inverse_transform(tb).astype(str),
                                  b.inverse_transform(tb).astype(str))


def test_one_hot_cannot_drop_infrequent():
    X = np.array([["a"]] * 10 + [["b"]], dtype=object)
    with pytest.raises(ValueError, match="infrequent"):
        OneHotEncoder(min_frequency=2, drop=["b"]).fit(X)


def test_function_transformer(X):
    from classiclearn.pipeline import make_pipeline
    from classiclearn.preprocessing import FunctionTransformer

    Xp = np.abs(X)
    a = FunctionTransformer(np.log1p, np.expm1, feature_names_out="one-to-one").fit(Xp)
    b = skp.FunctionTransformer(np.log1p, np.expm1, feature_names_out="one-to-one").fit(Xp)
    np.testing.assert_allclose(a.transform(Xp), b.transform(Xp))
    np.testing.assert_allclose(a.inverse_transform(a.transform(Xp)), Xp)
    assert list(a.get_feature_names_out()) == list(b.get_feature_names_out())
    with pytest.warns(UserWarning, match="not strictly inverse"):
        FunctionTransformer(np.log1p, np.exp).fit(Xp)
    scaled = FunctionTransformer(lambda Z, k: Z * k, kw_args={"k": 2.0}).fit_transform(Xp)
    np.testing.assert_allclose(scaled, 2 * Xp)
    pipe = make_pipeline(FunctionTransformer(np.log1p), StandardScaler()).fit(Xp)
    np.testing.assert_allclose(pipe.transform(Xp),
                               skp.StandardScaler().fit_transform(np.log1p(Xp)), atol=1e-12)


def test_one_hot_feature_name_combiner():
    X = np.array([["a", 1], ["b", 2], ["a", 3]], dtype=object)

    def combine(feature, category):
        return f"{feature}={category}"

    ours = OneHotEncoder(feature_name_combiner=combine).fit(X).get_feature_names_out()
    theirs = skp.OneHotEncoder(feature_name_combiner=combine).fit(X).get_feature_names_out()
    assert list(ours) == list(theirs) == ["x0=a", "x0=b", "x1=1", "x1=2", "x1=3"]
    with pytest.raises(TypeError, match="should return a Python string"):
        OneHotEncoder(feature_name_combiner=lambda f, c: 1).fit(X).get_feature_names_out()


@pytest.mark.parametrize("dtype", [np.int64, np.int8, np.uint16])
@pytest.mark.parametrize("kw", [{}, {"min_frequency": 10}, {"max_categories": 3},
                                {"min_frequency": 0.05, "handle_unknown": "ignore"}])
def test_one_hot_integer_columns_match(rng, dtype, kw):
    # integer columns of small range are counted in a table, of wide range hashed
    small = rng.choice([3, 4, 5, 9, 12], size=300, p=[0.5, 0.3, 0.1, 0.07, 0.03])
    if np.issubdtype(dtype, np.signedinteger):
        small = small - 6
    wide = rng.choice([0, 7, 120], size=300) * (1 if dtype == np.int8 else 500)
    X = np.column_stack([small, wide]).astype(dtype)
    Xt = np.vstack([X[:20], X[:1] + 1]) if "handle_unknown" in kw else X[:20]
    a = OneHotEncoder(**kw).fit(X)
    b = skp.OneHotEncoder(sparse_output=False, **kw).fit(X)
    for x, z in zip(a.categories_, b.categories_):
        np.testing.assert_array_equal(x, z)
        assert x.dtype == z.dtype
    np.testing.assert_array_equal(a.transform(Xt), b.transform(Xt))
    if kw.keys() & {"min_frequency", "max_categories"}:
        for x, z in zip(a.infrequent_categories_, b.infrequent_categories_):
            assert (x is None and z is None) or list(x) == list(z)
