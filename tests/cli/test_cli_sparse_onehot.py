"""The command line keeps many one-hot columns sparse (issue #17, item 4)."""

import numpy as np
import pytest
import scipy.sparse as sp

pd = pytest.importorskip("pandas")

from classiclearn.cli._models import build_pipeline, find_model  # noqa: E402
from classiclearn.preprocessing import TabularEncoder  # noqa: E402


def _table(n=400, n_categories=300, seed=0):
    rng = np.random.default_rng(seed)
    return pd.DataFrame({
        "x": rng.normal(size=n),
        "zero_heavy": np.where(rng.random(n) < 0.7, 0.0, rng.normal(size=n)),
        "city": rng.integers(0, n_categories, n).astype(str),
        "kind": rng.choice(["a", "b", None], n),
    })


@pytest.mark.parametrize("standardize", [False, True])
def test_sparse_output_encodes_the_same_values(standardize):
    X = _table()
    dense = TabularEncoder(standardize=standardize).fit(X)
    sparse = TabularEncoder(standardize=standardize, sparse_output=True).fit(X)
    Zd, Zs = dense.transform(X), sparse.transform(X)
    assert isinstance(Zs, sp.csr_array)
    assert Zs.shape == Zd.shape
    assert np.array_equal(dense.feature_names_out_, sparse.feature_names_out_)
    if standardize:
        # sparse output is scaled, not centred: equal up to the column means
        Zs = Zs.toarray()
        np.testing.assert_allclose(Zs - Zs.mean(axis=0), Zd, atol=1e-12)
        np.testing.assert_allclose(sparse.scale_, dense.scale_, rtol=1e-12)
    else:
        np.testing.assert_array_equal(Zs.toarray(), Zd)


def test_sparse_output_stores_one_entry_per_category_value():
    X = _table(n=400)
    Z = TabularEncoder(sparse_output=True).fit_transform(X)
    nonzero_numbers = int((X["x"] != 0).sum() + (X["zero_heavy"] != 0).sum())
    assert Z.nnz == nonzero_numbers + 2 * len(X)


def test_auto_goes_sparse_only_with_many_categories():
    assert TabularEncoder(sparse_output="auto").fit(_table(n_categories=300)).sparse_output_
    small = TabularEncoder(sparse_output="auto").fit(_table(n_categories=5))
    assert not small.sparse_output_
    assert isinstance(small.transform(_table(n_categories=5)), np.ndarray)


def test_unseen_category_encodes_as_zeros_in_sparse_output():
    X = _table()
    enc = TabularEncoder(sparse_output=True).fit(X)
    new = X.head(3).copy()
    new["city"] = "never-seen"
    Z = enc.transform(new).toarray()
    city_cols = [i for i, n in enumerate(enc.feature_names_out_) if n.startswith("city=")]
    assert not Z[:, city_cols].any()


def test_bad_sparse_output_is_named():
    with pytest.raises(ValueError, match="sparse_output"):
        TabularEncoder(sparse_output="yes").fit(_table())
def test_compare_pipeline_is_sparse_for_models_that_take_sparse_input():
    X = _table(n_categories=300)
    y = (X["x"] > 0).astype(int).to_numpy()
    name, cls = find_model("BernoulliNB", "classification")
    pipe = build_pipeline(name, cls, X, seed=0)
    assert pipe.steps[0][1].sparse_output
    pipe.fit(X, y)
    assert isinstance(pipe[0].transform(X.head()), sp.csr_array)
    assert pipe.score(X, y) > 0.5


def test_compare_pipeline_stays_dense_for_dense_only_models():
    X = _table(n_categories=300)
    name, cls = find_model("GaussianNB", "classification")
    pipe = build_pipeline(name, cls, X, seed=0)
    assert not pipe.steps[0][1].sparse_output
