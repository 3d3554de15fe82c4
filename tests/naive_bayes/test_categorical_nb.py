"""CategoricalNB: closed form, scikit-learn parity, partial_fit, sample weights."""

import numpy as np
import pytest
import scipy.sparse as sp

from classiclearn.naive_bayes import CategoricalNB

sk_nb = pytest.importorskip("sklearn.naive_bayes")


def _categories(seed=0, n=300, n_categories=(3, 2, 5, 4)):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    cols = []
    for m in n_categories:
        probs = rng.dirichlet(np.ones(m), size=3)
        cols.append([rng.choice(m, p=probs[k]) for k in y])
    return np.array(cols).T, y


@pytest.mark.parametrize(
    "params",
    [{}, {"alpha": 0.3, "fit_prior": False}, {"min_categories": [4, 2, 7, 1]},
     {"min_categories": 6, "class_prior": [0.5, 0.25, 0.25]}],
)
def test_parity_with_sklearn(params):
    X, y = _categories()
    w = np.random.default_rng(1).uniform(0.1, 2.0, len(y))
    ours = CategoricalNB(**params).fit(X, y, sample_weight=w)
    theirs = sk_nb.CategoricalNB(**params).fit(X, y, sample_weight=w)
    np.testing.assert_array_equal(ours.n_categories_, theirs.n_categories_)
    np.testing.assert_allclose(ours.class_count_, theirs.class_count_, rtol=1e-13)
    np.testing.assert_allclose(ours.class_log_prior_, theirs.class_log_prior_, rtol=1e-13)
    for a, b in zip(ours.category_count_, theirs.category_count_, strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-13)
    for a, b in zip(ours.feature_log_prob_, theirs.feature_log_prob_, strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-13)
    Xt, _ = _categories(seed=2, n=60)
    np.testing.assert_allclose(ours.predict_proba(Xt), theirs.predict_proba(Xt), atol=1e-12)
    np.testing.assert_allclose(
        ours.predict_joint_log_proba(Xt), theirs.predict_joint_log_proba(Xt), rtol=1e-12
    )
    np.testing.assert_array_equal(ours.predict(Xt), theirs.predict(Xt))


def test_closed_form():
    X, y = _categories(n=120)
    alpha = 0.5
    clf = CategoricalNB(alpha=alpha).fit(X, y)
    x = X[0]
    for k in range(3):
        Xk = X[y == k]
        expected = np.log(np.mean(y == k))
        for j in range(X.shape[1]):
            n_j = X[:, j].max() + 1
            expected += np.log((np.sum(Xk[:, j] == x[j]) + alpha) / (len(Xk) + alpha * n_j))
        np.testing.assert_allclose(clf.predict_joint_log_proba(X[:1])[0, k], expected, rtol=1e-13)


def test_partial_fit_sequence_equals_one_fit():
    X, y = _categories(n=200)
    w = np.random.default_rng(3).uniform(0.0, 2.0, len(y))
    once = CategoricalNB().fit(X, y, sample_weight=w)
    batched = CategoricalNB()
    # the first batch holds no category above 1, so the counts must grow later
    first = np.flatnonzero((X <= 1).all(axis=1))[:10]
    rest = np.setdiff1d(np.arange(len(y)), first)
    for idx in (first, rest[:90], rest[90:]):
        batched.partial_fit(X[idx], y[idx], classes=[0, 1, 2], sample_weight=w[idx])
    np.testing.assert_array_equal(batched.n_categories_, once.n_categories_)
    for a, b in zip(batched.category_count_, once.category_count_, strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-12)
    np.testing.assert_allclose(batched.predict_proba(X), once.predict_proba(X), rtol=1e-12)


def test_integer_sample_weight_is_repetition():
    X, y = _categories(n=50)
    reps = np.random.default_rng(4).integers(0, 4, len(y))
    weighted = CategoricalNB().fit(X, y, sample_weight=reps)
    repeated = CategoricalNB().fit(np.repeat(X, reps, axis=0), np.repeat(y, reps))
    np.testing.assert_allclose(weighted.predict_proba(X), repeated.predict_proba(X), rtol=1e-12)


def test_floats_truncate_to_categories_like_sklearn():
    X, y = _categories(n=80)
    Xf = X + 0.6
    ours = CategoricalNB().fit(Xf, y)
    theirs = sk_nb.CategoricalNB().fit(Xf, y)
    np.testing.assert_allclose(ours.predict_proba(Xf), theirs.predict_proba(Xf), atol=1e-12)


def test_bad_input():
    X, y = _categories(n=40)
    Xneg = X.copy()
    Xneg[0, 0] = -1
    with pytest.raises(ValueError, match=r"Negative values in data passed to CategoricalNB"):
        CategoricalNB().fit(Xneg, y)
    clf = CategoricalNB().fit(X, y)
    with pytest.raises(ValueError, match="Negative values"):
        clf.predict(Xneg)
    Xbig = X.copy()
    Xbig[0, 2] = 50
    with pytest.raises(ValueError, match="Feature 2 of X has category 50"):
        clf.predict(Xbig)
    with pytest.raises(TypeError, match="Sparse data was passed"):
        CategoricalNB().fit(sp.csr_matrix(X), y)
    with pytest.raises(ValueError, match="'min_categories' should have integral type"):
        CategoricalNB(min_categories=[2.5, 2, 2, 2]).fit(X, y)
    with pytest.raises(ValueError, match="'min_categories' should have shape"):
        CategoricalNB(min_categories=[2, 2]).fit(X, y)
