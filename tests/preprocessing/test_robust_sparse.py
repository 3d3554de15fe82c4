"""RobustScaler on sparse X (with_centering=False): scikit-learn's quantile ranges,
implicit zeros counted and stored NaN ignored, to the bit."""

import warnings

import numpy as np
import pytest
import scipy.sparse as sp

from classiclearn.preprocessing import RobustScaler

skp = pytest.importorskip("sklearn.preprocessing")


def _sparse(n, p, density, seed, fmt):
    rng = np.random.default_rng(seed)
    X = sp.random(n, p, density=density, format="lil", random_state=seed,
                  data_rvs=rng.standard_normal)
    X[0, 0] = np.nan  # a stored NaN
    X[min(1, n - 1), min(1, p - 1)] = 0.0
    return sp.csr_matrix(X) if fmt == "csr" else sp.csc_array(X)


@pytest.mark.parametrize("shape, density", [((7, 3), 0.5), ((100, 20), 0.3),
                                            ((1000, 30), 0.05), ((50, 4), 1.0)])
@pytest.mark.parametrize("quantile_range", [(25.0, 75.0), (10.0, 90.0), (0.0, 100.0),
                                            (33.3, 66.7)])
@pytest.mark.parametrize("unit_variance", [False, True])
@pytest.mark.parametrize("fmt", ["csr", "csc"])
def test_sparse_scale_equals_sklearn(shape, density, quantile_range, unit_variance, fmt):
    X = _sparse(*shape, density, seed=shape[0], fmt=fmt)
    before = X.copy()
    kw = dict(with_centering=False, quantile_range=quantile_range, unit_variance=unit_variance)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        ours = RobustScaler(**kw).fit(X)
        theirs = skp.RobustScaler(**kw).fit(X)
        np.testing.assert_array_equal(ours.scale_, theirs.scale_)
        assert ours.center_ is None
        got, want = ours.transform(X), theirs.transform(X)
        assert type(got) is type(X) and got.format == want.format
        np.testing.assert_array_equal(got.toarray(), want.toarray())
        if np.all(np.isfinite(ours.scale_)) and np.all(ours.scale_ > 0):
            back = ours.inverse_transform(got)
            np.testing.assert_allclose(back.toarray(), X.toarray(), rtol=1e-12)
    np.testing.assert_array_equal(X.data, before.data)


def test_sparse_matches_dense_without_scaling_and_all_nan_column():
    X = sp.csr_matrix(np.array([[np.nan, 1.0], [np.nan, 0.0], [np.nan, 3.0]]))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        ours = RobustScaler(with_centering=False).fit(X)
        theirs = skp.RobustScaler(with_centering=False).fit(X)
    np.testing.assert_array_equal(ours.scale_, theirs.scale_)
    plain = RobustScaler(with_centering=False, with_scaling=False).fit(X)
    np.testing.assert_array_equal(plain.transform(X).toarray(), X.toarray())


def test_sparse_centring_refused_as_sklearn():
    X = _sparse(20, 3, 0.5, 0, "csr")
    with pytest.raises(ValueError, match="Cannot center sparse matrices"):
        RobustScaler().fit(X)
    with pytest.raises(ValueError, match="Cannot center sparse matrices"):
        skp.RobustScaler().fit(X)
    dense_fit = RobustScaler().fit(X.toarray())
    with pytest.raises(ValueError, match="Cannot center sparse matrices"):
        dense_fit.transform(X)
