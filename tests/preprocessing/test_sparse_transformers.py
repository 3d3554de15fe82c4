"""Normalizer, Binarizer, PolynomialFeatures and SimpleImputer on sparse input, as
scikit-learn: same values, sparse output in the input's format and container kind."""

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn import impute as sk_impute
from sklearn import preprocessing as sk

from classiclearn.preprocessing import (
    Binarizer,
    Normalizer,
    PolynomialFeatures,
    SimpleImputer,
    normalize,
)


def _signed_sparse(fmt, n=60, p=12, density=0.25, seed=0):
    X = sp.random(n, p, density=density, random_state=seed, format="csr")
    X.data -= 0.4
    X = sp.lil_matrix(X)
    X[3, :] = 0.0  # an empty row
    return getattr(sp, f"{fmt}_matrix")(X)


def _assert_same_sparse(ours, theirs, rtol=1e-12):
    assert sp.issparse(ours)
    assert ours.format == theirs.format
    assert type(ours) is type(theirs)
    np.testing.assert_allclose(ours.toarray(), theirs.toarray(), rtol=rtol, atol=1e-15)


@pytest.mark.parametrize("norm", ["l1", "l2", "max"])
@pytest.mark.parametrize("axis", [0, 1])
@pytest.mark.parametrize("fmt", ["csr", "csc"])
def test_normalize_matches_sklearn(norm, axis, fmt):
    X = _signed_sparse(fmt)
    ours, norms = normalize(X, norm, axis=axis, return_norm=True)
    _assert_same_sparse(ours, sk.normalize(X, norm, axis=axis))
    dense_norms = normalize(X.toarray(), norm, axis=axis, return_norm=True)[1]
    np.testing.assert_allclose(norms, dense_norms, rtol=1e-12)
    assert X.nnz == ours.nnz or norm != "max"  # zeros are never filled in


@pytest.mark.parametrize("norm", ["l1", "l2", "max"])
@pytest.mark.parametrize("make", [sp.csr_matrix, sp.csc_matrix, sp.csr_array])
def test_normalizer_matches_sklearn(norm, make):
    X = make(_signed_sparse("csr"))
    before = X.copy()
    _assert_same_sparse(Normalizer(norm=norm).fit_transform(X),
                        sk.Normalizer(norm=norm).fit_transform(X))
    assert (X != before).nnz == 0


@pytest.mark.parametrize("threshold", [0.0, 0.1, 5.0])
@pytest.mark.parametrize("make", [sp.csr_matrix, sp.csc_matrix, sp.csc_array])
def test_binarizer_matches_sklearn(threshold, make):
    X = make(_signed_sparse("csr"))
    ours = Binarizer(threshold=threshold).fit_transform(X)
    _assert_same_sparse(ours, sk.Binarizer(threshold=threshold).fit_transform(X))
    assert np.all(ours.data == 1.0)  # no stored zeros


def test_binarizer_refuses_negative_threshold_on_sparse():
    with pytest.raises(ValueError, match="threshold < 0"):
        Binarizer(threshold=-0.5).fit_transform(_signed_sparse("csr"))


@pytest.mark.parametrize("degree", [1, 2, 3, (2, 3), (0, 2)])
@pytest.mark.parametrize("interaction_only", [False, True])
@pytest.mark.parametrize("include_bias", [False, True])
@pytest.mark.parametrize("fmt", ["csr", "csc"])
def test_polynomial_features_match_sklearn(degree, interaction_only, include_bias, fmt):
    X = _signed_sparse(fmt, n=40, p=5, density=0.4)
    kw = dict(degree=degree, interaction_only=interaction_only, include_bias=include_bias)
    ours = PolynomialFeatures(**kw).fit(X)
    Z = ours.transform(X)
    _assert_same_sparse(Z, sk.PolynomialFeatures(**kw).fit_transform(X))
    np.testing.assert_allclose(Z.toarray(), PolynomialFeatures(**kw).fit_transform(X.toarray()),
                               rtol=1e-12)
    assert np.all(Z.data != 0.0)


def _sparse_with_missing(seed=0):
    rng = np.random.default_rng(seed)
    X = sp.random(80, 8, density=0.3, random_state=seed, format="csr").toarray()
    X[(X != 0) & (rng.random(X.shape) < 0.2)] = np.nan
    X[:6, 6] = [-1.0, -1.0, 2.0, 2.0, -3.0, np.nan]
    X[:, 5] = np.nan  # no observed value at all
    return sp.csr_matrix(X)


@pytest.mark.parametrize("strategy", ["mean", "median", "most_frequent", "constant"])
@pytest.mark.parametrize("keep_empty_features", [False, True])
@pytest.mark.parametrize("add_indicator", [False, True])
def test_simple_imputer_matches_sklearn(strategy, keep_empty_features, add_indicator):
    X = _sparse_with_missing()
    kw = dict(strategy=strategy, keep_empty_features=keep_empty_features,
              add_indicator=add_indicator)
    if strategy == "constant":
        kw["fill_value"] = 7.0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        ours = SimpleImputer(**kw).fit(X)
        theirs = sk_impute.SimpleImputer(**kw).fit(X)
        np.testing.assert_allclose(ours.statistics_, theirs.statistics_, rtol=1e-12)
        _assert_same_sparse(ours.transform(X), theirs.transform(X))


def test_simple_imputer_sparse_statistics_count_implicit_zeros():
    X = sp.csc_array(np.array([[1.0, 0.0], [np.nan, 0.0], [0.0, 4.0], [0.0, np.nan]]))
    imputer = SimpleImputer(strategy="median").fit(X)
    np.testing.assert_allclose(imputer.statistics_, [0.0, 0.0])
    mean = SimpleImputer().fit(X).statistics_
    np.testing.assert_allclose(mean, [1.0 / 3.0, 4.0 / 3.0])
    seen = []
    SimpleImputer(strategy=lambda v: seen.append(v.copy()) or 0.0).fit(X)
    np.testing.assert_array_equal(np.sort(seen[0]), [0.0, 0.0, 1.0])


def test_simple_imputer_refuses_zero_marker_on_sparse():
    with pytest.raises(ValueError, match="missing_values == 0 and input is sparse"):
        SimpleImputer(missing_values=0).fit(_sparse_with_missing())


@pytest.mark.parametrize("fmt", ["csr", "csc", "csc-duplicates"])
@pytest.mark.parametrize("add_indicator", [False, True])
def test_simple_imputer_sparse_leaves_input_and_handles_no_missing(fmt, add_indicator):
    X = sp.csc_matrix(_sparse_with_missing()) if fmt != "csr" else _sparse_with_missing()
    if fmt == "csc-duplicates":  # an entry stored twice: summed, in a copy
        # (the last column's last entry again)
        X = sp.csc_matrix((np.append(X.data, 1.5), np.append(X.indices, X.indices[-1]),
                           np.append(X.indptr[:-1], X.nnz + 1)), shape=X.shape)
        assert not X.has_canonical_format
    before = (X.data.copy(), X.indices.copy(), X.indptr.copy())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        ours = SimpleImputer(add_indicator=add_indicator).fit(X).transform(X)
        theirs = sk_impute.SimpleImputer(add_indicator=add_indicator).fit(X).transform(X)
    np.testing.assert_allclose(ours.toarray(), theirs.toarray(), rtol=1e-12)
    for kept, now in zip(before, (X.data, X.indices, X.indptr)):
        np.testing.assert_array_equal(kept, now)
    clean = sp.random(50, 6, density=0.3, random_state=1, format="csr")
    out = SimpleImputer(add_indicator=add_indicator).fit(clean).transform(clean)
    np.testing.assert_allclose(out.toarray(), clean.toarray())
