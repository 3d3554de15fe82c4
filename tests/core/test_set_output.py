"""``set_output`` on every transformer with ``get_feature_names_out`` (issue 16 item 6):
one mechanism in ``base.TransformerMixin``, scikit-learn's column names."""

import numpy as np
import pytest

from classiclearn import all_estimators, clone, config_context
from classiclearn.decomposition import PCA
from classiclearn.pipeline import Pipeline
from classiclearn.preprocessing import LabelEncoder, OneHotEncoder, StandardScaler

pd = pytest.importorskip("pandas")

_PARAMS = {
    "PCA": {"n_components": 2},
    "KernelPCA": {"n_components": 2},
    "KMeans": {"n_clusters": 3, "n_init": 2, "random_state": 0},
    "OneHotEncoder": {"sparse_output": False},
    "FunctionTransformer": {"func": np.log1p, "feature_names_out": "one-to-one"},
    "PolynomialFeatures": {"degree": 2},
}


def _frame(name):
    rng = np.random.default_rng(0)
    X = np.abs(rng.normal(size=(30, 4)))
    if name == "OneHotEncoder":
        X = rng.integers(0, 3, size=(30, 4)).astype(float)
    if name == "SimpleImputer":
        X[::4, 1] = np.nan
    return pd.DataFrame(X, columns=["a", "b", "c", "d"], index=np.arange(100, 130))


def _transformers():
    for name, cls in all_estimators("transformer"):
        if hasattr(cls, "get_feature_names_out"):
            yield name, cls


TRANSFORMERS = [name for name, _ in _transformers()]


def test_every_transformer_with_names_has_set_output():
    assert {"PCA", "KernelPCA", "KMeans", "LinearDiscriminantAnalysis", "StandardScaler"} \
        <= set(TRANSFORMERS)
    for name, cls in _transformers():
        assert hasattr(cls(**_PARAMS.get(name, {})), "set_output"), name
    assert not hasattr(LabelEncoder(), "set_output")  # no feature names, as scikit-learn


@pytest.mark.parametrize("name", TRANSFORMERS)
def test_pandas_output_matches_sklearn_names(name):
    sk_utils = pytest.importorskip("sklearn.utils")
    twin = dict(sk_utils.all_estimators()).get(name)
    ours_cls = dict(all_estimators())[name]
    df = _frame(name)
    y = np.arange(len(df)) % 3
    params = _PARAMS.get(name, {})
    plain = ours_cls(**params).fit_transform(df, y)
    est = ours_cls(**params).set_output(transform="pandas")
    out = est.fit_transform(df, y)
    assert isinstance(out, pd.DataFrame)
    np.testing.assert_array_equal(out.index, df.index)
    np.testing.assert_allclose(out.to_numpy(), plain, rtol=1e-12, atol=1e-12)
    again = est.transform(df)
    assert isinstance(again, pd.DataFrame)
    assert list(again.columns) == list(out.columns)
    if twin is None:
        assert list(out.columns) == list(est.get_feature_names_out())
        return
    theirs = twin(**params).set_output(transform="pandas").fit_transform(df, y)
    assert list(out.columns) == list(theirs.columns)


def test_default_and_none_keep_arrays():
    df = _frame("PCA")
    est = PCA(2).set_output(transform="pandas").set_output(transform=None)
    assert isinstance(est.fit_transform(df), pd.DataFrame)
    est.set_output(transform="default")
    assert isinstance(est.fit_transform(df), np.ndarray)
    with pytest.raises(ValueError, match="output config must be"):
        PCA().set_output(transform="arrow")


def test_global_config_and_clone():
    df = _frame("PCA")
    with config_context(transform_output="pandas"):
        assert isinstance(PCA(2).fit_transform(df), pd.DataFrame)
        # a local choice wins over the global one
        assert isinstance(PCA(2).set_output(transform="default").fit_transform(df), np.ndarray)
    assert isinstance(PCA(2).fit_transform(df), np.ndarray)
    cloned = clone(PCA(2).set_output(transform="pandas"))
    assert isinstance(cloned.fit_transform(df), pd.DataFrame)


def test_sklearn_global_config_is_honoured():
    sklearn = pytest.importorskip("sklearn")
    df = _frame("PCA")
    with sklearn.config_context(transform_output="pandas"):
        out = PCA(2).fit_transform(df)
    assert list(out.columns) == ["pca0", "pca1"]


def test_pipeline_set_output_reaches_its_steps():
    df = _frame("PCA")
    pipe = Pipeline([("scale", StandardScaler()), ("pca", PCA(2))]).set_output(transform="pandas")
    out = pipe.fit_transform(df)
    assert list(out.columns) == ["pca0", "pca1"]
    np.testing.assert_array_equal(out.index, df.index)


def test_sparse_output_is_refused_in_pandas_mode():
    df = _frame("OneHotEncoder")
    with pytest.raises(ValueError, match="Pandas output does not support sparse data"):
        OneHotEncoder(sparse_output=True).set_output(transform="pandas").fit_transform(df)


def test_subclass_transform_is_wrapped_once():
    class Doubler(PCA):
        def transform(self, X):
            return 2.0 * super().transform(X)

    df = _frame("PCA")
    est = Doubler(2).set_output(transform="pandas")
    out = est.fit(df).transform(df)
    np.testing.assert_allclose(out.to_numpy(), 2.0 * PCA(2).fit(df).transform(df))


def test_set_config_reaches_new_threads_config_context_does_not():
    import threading

    from classiclearn import get_config, set_config

    seen = {}

    def look(key):
        seen[key] = get_config()["transform_output"]

    with config_context(transform_output="pandas"):
        worker = threading.Thread(target=look, args=("context",))
        worker.start()
        worker.join()
    set_config(transform_output="pandas")
    try:
        worker = threading.Thread(target=look, args=("set_config",))
        worker.start()
        worker.join()
    finally:
        set_config(transform_output="default")
    assert seen == {"context": "default", "set_config": "pandas"}
