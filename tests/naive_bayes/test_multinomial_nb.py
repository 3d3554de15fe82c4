"""MultinomialNB and ComplementNB: closed forms, scikit-learn parity, sparse input,
partial_fit and sample weights."""

import numpy as np
import pytest
import scipy.sparse as sp

from classiclearn.naive_bayes import ComplementNB, MultinomialNB

sk_nb = pytest.importorskip("sklearn.naive_bayes")

MODELS = [
    (MultinomialNB, {}),
    (MultinomialNB, {"alpha": 0.3, "fit_prior": False}),
    (MultinomialNB, {"class_prior": [0.2, 0.3, 0.5]}),
    (MultinomialNB, {"alpha": 0.0, "force_alpha": False}),
    (ComplementNB, {}),
    (ComplementNB, {"norm": True, "alpha": 0.5}),
]
SPARSE_FORMATS = [sp.csr_matrix, sp.csc_matrix, sp.coo_matrix, sp.csr_array, sp.coo_array]


def _counts(seed=0, n=300, p=40, n_classes=3):
    """Word-count-like data whose rates depend on the class."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, n_classes, n)
    rates = rng.gamma(0.5, 1.0, (n_classes, p))
    X = rng.poisson(rates[y]).astype(float)
    return X, y


def _fit_pair(cls, params, X, y, **fit_kwargs):
    ours = cls(**params).fit(X, y, **fit_kwargs)
    theirs = getattr(sk_nb, cls.__name__)(**params).fit(X, y, **fit_kwargs)
    return ours, theirs


@pytest.mark.filterwarnings("ignore:alpha too small")
@pytest.mark.parametrize("cls, params", MODELS)
def test_parity_with_sklearn(cls, params):
    X, y = _counts()
    ours, theirs = _fit_pair(cls, params, X, y)
    for name in ("class_count_", "feature_count_", "class_log_prior_", "feature_log_prob_"):
        np.testing.assert_allclose(getattr(ours, name), getattr(theirs, name), rtol=1e-13)
    Xt, _ = _counts(seed=1, n=50)
    np.testing.assert_allclose(ours.predict_proba(Xt), theirs.predict_proba(Xt), atol=1e-12)
    np.testing.assert_allclose(
        ours.predict_joint_log_proba(Xt), theirs.predict_joint_log_proba(Xt), rtol=1e-12
    )
    np.testing.assert_allclose(
        ours.predict_log_proba(Xt), theirs.predict_log_proba(Xt), rtol=1e-12, atol=1e-12
    )
    np.testing.assert_array_equal(ours.predict(Xt), theirs.predict(Xt))
    if cls is ComplementNB:
        np.testing.assert_allclose(ours.feature_all_, theirs.feature_all_, rtol=1e-13)


def test_multinomial_closed_form():
    X, y = _counts(n_classes=2)
    alpha = 0.7
    clf = MultinomialNB(alpha=alpha).fit(X, y)
    for k in (0, 1):
        N_k = X[y == k].sum(axis=0)
        theta = (N_k + alpha) / (N_k + alpha).sum()
        np.testing.assert_allclose(clf.feature_log_prob_[k], np.log(theta), rtol=1e-13)
        np.testing.assert_allclose(clf.class_log_prior_[k], np.log(np.mean(y == k)), rtol=1e-13)
    jll = clf.predict_joint_log_proba(X[:5])
    expected = X[:5] @ clf.feature_log_prob_.T + clf.class_log_prior_
    np.testing.assert_allclose(jll, expected, rtol=1e-13)


@pytest.mark.parametrize("norm", [False, True])
def test_complement_closed_form(norm):
    X, y = _counts(n_classes=3)
    alpha = np.linspace(0.5, 1.5, X.shape[1])
    clf = ComplementNB(alpha=alpha, norm=norm).fit(X, y)
    for k in range(3):
        comp = X[y != k].sum(axis=0) + alpha
        log_theta = np.log(comp / comp.sum())
        w = log_theta / log_theta.sum() if norm else -log_theta
        np.testing.assert_allclose(clf.feature_log_prob_[k], w, rtol=1e-12)
    np.testing.assert_allclose(
        clf.predict_joint_log_proba(X[:7]), X[:7] @ clf.feature_log_prob_.T, rtol=1e-12
    )


@pytest.mark.parametrize("cls, params", MODELS[:1] + MODELS[4:])
@pytest.mark.parametrize("fmt", SPARSE_FORMATS)
def test_sparse_equals_dense(cls, params, fmt):
    X, y = _counts()
    w = np.random.default_rng(3).uniform(0.1, 2.0, len(y))
    dense = cls(**params).fit(X, y, sample_weight=w)
    sparse = cls(**params).fit(fmt(X), y, sample_weight=w)
    np.testing.assert_allclose(sparse.feature_count_, dense.feature_count_, rtol=1e-13)
    np.testing.assert_allclose(sparse.feature_log_prob_, dense.feature_log_prob_, rtol=1e-13)
    Xt, _ = _counts(seed=2, n=40)
    np.testing.assert_allclose(
        sparse.predict_proba(fmt(Xt)), dense.predict_proba(Xt), rtol=1e-12, atol=1e-14
    )
    theirs = getattr(sk_nb, cls.__name__)(**params).fit(fmt(X), y, sample_weight=w)
    np.testing.assert_allclose(sparse.predict_proba(fmt(Xt)), theirs.predict_proba(Xt), atol=1e-12)


def test_sparse_input_is_not_densified_or_modified():
    X, y = _counts()
    Xs = sp.csr_matrix(X)
    before = (Xs.data.copy(), Xs.indices.copy(), Xs.indptr.copy())
    clf = MultinomialNB().fit(Xs, y)
    clf.predict_proba(Xs)
    for a, b in zip(before, (Xs.data, Xs.indices, Xs.indptr)):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("cls", [MultinomialNB, ComplementNB])
def test_partial_fit_sequence_equals_one_fit(cls):
    X, y = _counts(n=301)
    w = np.random.default_rng(4).uniform(0.0, 3.0, len(y))
    once = cls().fit(X, y, sample_weight=w)
    batched = cls()
    for lo, hi in [(0, 100), (100, 101), (101, 250), (250, 301)]:
        part = sp.csr_matrix(X[lo:hi]) if lo % 2 else X[lo:hi]
        batched.partial_fit(part, y[lo:hi], classes=[0, 1, 2], sample_weight=w[lo:hi])
    for name in ("class_count_", "feature_count_", "class_log_prior_", "feature_log_prob_"):
        np.testing.assert_allclose(getattr(batched, name), getattr(once, name), rtol=1e-12)
    theirs = getattr(sk_nb, cls.__name__)()
    for lo, hi in [(0, 150), (150, 301)]:
        theirs.partial_fit(X[lo:hi], y[lo:hi], classes=[0, 1, 2], sample_weight=w[lo:hi])
    np.testing.assert_allclose(batched.predict_proba(X), theirs.predict_proba(X), atol=1e-12)


@pytest.mark.parametrize("cls", [MultinomialNB, ComplementNB])
def test_integer_sample_weight_is_repetition(cls):
    X, y = _counts(n=60)
    reps = np.random.default_rng(5).integers(0, 4, len(y))
    weighted = cls().fit(X, y, sample_weight=reps)
    repeated = cls().fit(np.repeat(X, reps, axis=0), np.repeat(y, reps))
    np.testing.assert_allclose(weighted.feature_log_prob_, repeated.feature_log_prob_, rtol=1e-12)
    np.testing.assert_allclose(weighted.predict_proba(X), repeated.predict_proba(X), rtol=1e-12)


@pytest.mark.parametrize("cls", [MultinomialNB, ComplementNB])
@pytest.mark.parametrize("make", [np.asarray, sp.csr_matrix])
def test_negative_input_is_refused_like_sklearn(cls, make):
    X, y = _counts(n=30)
    X[3, 4] = -1.0
    message = f"Negative values in data passed to {cls.__name__} (input X)"
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        cls().fit(make(X), y)
    with pytest.raises(ValueError, match="Negative values"):
        getattr(sk_nb, cls.__name__)().fit(make(X), y)
    clf = cls().partial_fit(np.abs(X), y, classes=[0, 1, 2])
    counts = clf.feature_count_.copy()
    with pytest.raises(ValueError, match="Negative values"):
        clf.partial_fit(make(X), y)
    np.testing.assert_array_equal(clf.feature_count_, counts)


def test_parameter_errors():
    X, y = _counts(n=30)
    with pytest.raises(ValueError, match="should contain `n_features`"):
        MultinomialNB(alpha=[1.0, 2.0]).fit(X, y)
    with pytest.raises(ValueError, match="Number of priors"):
        MultinomialNB(class_prior=[0.5, 0.5]).fit(X, y)
    with pytest.raises(ValueError, match="classes must be passed"):
        ComplementNB().partial_fit(X, y)
    with pytest.warns(UserWarning, match="alpha too small"):
        MultinomialNB(alpha=0.0, force_alpha=False).fit(X, y)


def test_single_class_like_sklearn():
    X, _ = _counts(n=20)
    y = np.full(20, 7)
    for cls in (MultinomialNB, ComplementNB):
        ours, theirs = _fit_pair(cls, {}, X, y)
        np.testing.assert_array_equal(ours.predict(X), theirs.predict(X))
        np.testing.assert_allclose(ours.predict_proba(X), theirs.predict_proba(X))
