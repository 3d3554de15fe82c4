"""StandardScaler(with_mean=False) and MaxAbsScaler on sparse input, as scikit-learn."""

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn import preprocessing as sk

from classiclearn.preprocessing import MaxAbsScaler, StandardScaler


def _sparse(fmt, with_nan=False, seed=0):
    X = sp.random(150, 20, density=0.15, random_state=seed, format="lil") * 4
    X[5, 3] = -7.0
    if with_nan:
        X[2, 1] = np.nan
    return getattr(sp, f"{fmt}_matrix")(X)


def _dense(X):
    return X.toarray()


@pytest.mark.parametrize("fmt", ["csr", "csc"])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("with_nan", [False, True])
def test_standard_scaler_matches_sklearn(fmt, weighted, with_nan):
    X = _sparse(fmt, with_nan)
    w = np.random.default_rng(0).uniform(0.5, 2.0, X.shape[0]) if weighted else None
    ours = StandardScaler(with_mean=False).fit(X, sample_weight=w)
    theirs = sk.StandardScaler(with_mean=False).fit(X, sample_weight=w)
    np.testing.assert_allclose(ours.var_, theirs.var_, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(ours.mean_, theirs.mean_, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(ours.n_samples_seen_, theirs.n_samples_seen_)
    Z = ours.transform(X)
    assert type(Z) is type(X) and Z.format == X.format
    np.testing.assert_allclose(_dense(Z), _dense(theirs.transform(X)), rtol=1e-12)
    np.testing.assert_allclose(_dense(ours.inverse_transform(Z)), _dense(X), rtol=1e-12)


def test_standard_scaler_sparse_equals_dense_and_partial_fit():
    X = _sparse("csr")
    dense = StandardScaler(with_mean=False).fit(X.toarray())
    parts = StandardScaler(with_mean=False).partial_fit(X[:70]).partial_fit(X[70:])
    np.testing.assert_allclose(parts.var_, dense.var_, rtol=1e-12)
    np.testing.assert_allclose(parts.scale_, dense.scale_, rtol=1e-12)


def test_standard_scaler_refuses_to_centre_sparse_input():
    with pytest.raises(ValueError, match="Cannot center sparse matrices"):
        StandardScaler().fit(_sparse("csr"))
    fitted = StandardScaler().fit(_sparse("csr").toarray())
    with pytest.raises(ValueError, match="Cannot center sparse matrices"):
        fitted.transform(_sparse("csr"))


@pytest.mark.parametrize("fmt", ["csr", "csc"])
@pytest.mark.parametrize("clip", [False, True])
def test_max_abs_scaler_matches_sklearn(fmt, clip):
    X = _sparse(fmt, with_nan=True)
    ours = MaxAbsScaler(clip=clip).fit(X[:100])
    theirs = sk.MaxAbsScaler(clip=clip).fit(X[:100])
    np.testing.assert_array_equal(ours.max_abs_, theirs.max_abs_)
    Z = ours.transform(X)
    assert type(Z) is type(X)
    np.testing.assert_array_equal(_dense(Z), _dense(theirs.transform(X)))


def test_sparse_arrays_stay_sparse_arrays():
    X = sp.csr_array(_sparse("csr"))
    for est in (StandardScaler(with_mean=False), MaxAbsScaler()):
        Z = est.fit_transform(X)
        assert isinstance(Z, sp.csr_array)
        assert abs(X - _sparse("csr")).sum() == 0  # input untouched
