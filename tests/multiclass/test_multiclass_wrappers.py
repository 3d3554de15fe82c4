"""One-vs-rest, one-vs-one and output codes against scikit-learn's wrappers."""

import numpy as np
import pytest

from classiclearn.discriminant_analysis import LinearDiscriminantAnalysis
from classiclearn.multiclass import (
    OneVsOneClassifier,
    OneVsRestClassifier,
    OutputCodeClassifier,
    ovo_votes_and_confidences,
)
from classiclearn.naive_bayes import GaussianNB

sk_multiclass = pytest.importorskip("sklearn.multiclass")
sk_linear = pytest.importorskip("sklearn.linear_model")


def _data(n=600, p=5, k=5, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, n)
    centres = rng.normal(size=(k, p)) * 1.5
    X = rng.normal(size=(n, p)) + centres[y]
    X_test = rng.normal(size=(200, p)) * 2
    return X, y, X_test


def _base_estimators():
    # both wrappers call the same inner estimator on the same rows, so default
    # tolerances still give identical answers
    out = [GaussianNB(), LinearDiscriminantAnalysis(), sk_linear.LogisticRegression()]
    try:
        from classiclearn.linear_model import LogisticRegression

        out.append(LogisticRegression())
    except ImportError:
        pass
    return out


BASES = _base_estimators()


@pytest.mark.parametrize("base", BASES, ids=lambda e: type(e).__name__ + type(e).__module__[:3])
@pytest.mark.parametrize("n_classes", [2, 5])
def test_one_vs_rest_matches_sklearn(base, n_classes):
    X, y, X_test = _data(k=n_classes, seed=n_classes)
    ours = OneVsRestClassifier(base).fit(X, y)
    theirs = sk_multiclass.OneVsRestClassifier(base).fit(X, y)
    np.testing.assert_array_equal(ours.predict(X_test), theirs.predict(X_test))
    np.testing.assert_allclose(ours.predict_proba(X_test), theirs.predict_proba(X_test),
                               rtol=1e-7, atol=1e-9)
    if hasattr(base, "decision_function"):
        np.testing.assert_allclose(
            ours.decision_function(X_test), theirs.decision_function(X_test), rtol=1e-7,
            atol=1e-9,
        )
    assert len(ours.estimators_) == (1 if n_classes == 2 else n_classes)


@pytest.mark.parametrize("base", BASES, ids=lambda e: type(e).__name__ + type(e).__module__[:3])
@pytest.mark.parametrize("n_classes", [2, 5])
def test_one_vs_one_matches_sklearn(base, n_classes):
    X, y, X_test = _data(k=n_classes, seed=10 + n_classes)
    ours = OneVsOneClassifier(base).fit(X, y)
    theirs = sk_multiclass.OneVsOneClassifier(base).fit(X, y)
    np.testing.assert_array_equal(ours.predict(X_test), theirs.predict(X_test))
    assert len(ours.estimators_) == n_classes * (n_classes - 1) // 2
    if n_classes > 2:
        np.testing.assert_allclose(
            ours.decision_function(X_test), theirs.decision_function(X_test), rtol=1e-7,
            atol=1e-9,
        )


@pytest.mark.parametrize(
    "base", [LinearDiscriminantAnalysis(), sk_linear.LogisticRegression()],
    ids=["lda", "sklearn-logistic"],
)
def test_output_codes_match_sklearn_and_accuracy(base):
    X_all, y_all, X_test = _data(n=1000, k=5, seed=3)
    X, y, Xv, yv = X_all[:600], y_all[:600], X_all[600:], y_all[600:]
    accs_ours, accs_theirs = [], []
    for seed in range(3):
        ours = OutputCodeClassifier(base, random_state=seed).fit(X, y)
        theirs = sk_multiclass.OutputCodeClassifier(base, random_state=seed)
        theirs.fit(X, y)
        # the same RandomState draws give the same code book, hence the same predictions
        np.testing.assert_array_equal(ours.code_book_, theirs.code_book_)
        np.testing.assert_array_equal(ours.predict(X_test), theirs.predict(X_test))
        accs_ours.append(ours.score(Xv, yv))
        accs_theirs.append(theirs.score(Xv, yv))
    assert abs(np.mean(accs_ours) - np.mean(accs_theirs)) < 0.02
    assert np.mean(accs_ours) > 0.5


def test_one_vs_one_tie_broken_by_summed_confidences():
    # three classes, cyclic wins: 0 beats 1, 1 beats 2, 2 beats 0 -> one vote each
    predictions = np.array([[0, 1, 0]])  # pairs (0,1), (0,2), (1,2)
    confidences = np.array([[-0.2, 3.0, -0.1]])  # signed towards the second class
    Y = ovo_votes_and_confidences(predictions, confidences, 3)
    np.testing.assert_array_equal(np.floor(Y + 1 / 3), [[1, 1, 1]])
    summed = np.array([0.2 - 3.0, -0.2 + 0.1, 3.0 - 0.1])
    np.testing.assert_allclose(Y[0], 1 + summed / (3 * (np.abs(summed) + 1)))
    assert np.argmax(Y[0]) == 2  # the most confident class wins the tie
    # votes dominate confidences
    Y = ovo_votes_and_confidences(np.array([[0, 0, 1]]), np.array([[-0.1, -0.1, 100.0]]), 3)
    assert np.argmax(Y[0]) == 0


@pytest.mark.parametrize("cls", [OneVsRestClassifier, OneVsOneClassifier, OutputCodeClassifier])
def test_n_jobs_gives_the_same_result(cls):
    X, y, X_test = _data(k=4, seed=5)
    kw = {"random_state": 0} if cls is OutputCodeClassifier else {}
    a = cls(LinearDiscriminantAnalysis(), n_jobs=1, **kw).fit(X, y)
    b = cls(LinearDiscriminantAnalysis(), n_jobs=2, **kw).fit(X, y)
    np.testing.assert_array_equal(a.predict(X_test), b.predict(X_test))
    if hasattr(a, "decision_function"):
        np.testing.assert_array_equal(a.decision_function(X_test), b.decision_function(X_test))


@pytest.mark.parametrize("cls", [OneVsRestClassifier, OneVsOneClassifier, OutputCodeClassifier])
def test_default_threads_on_a_large_problem_give_the_same_result(cls):
    # n_jobs=None fits our estimators in threads once X has 100,000 entries;
    # an F-ordered X is made C-contiguous once for them: neither changes a bit
    X, y, X_test = _data(n=5000, p=20, k=4, seed=6)
    kw = {"random_state": 0} if cls is OutputCodeClassifier else {}
    a = cls(LinearDiscriminantAnalysis(), n_jobs=1, **kw).fit(X, y)
    b = cls(LinearDiscriminantAnalysis(), **kw).fit(np.asfortranarray(X), y)
    for ea, eb in zip(a.estimators_, b.estimators_):
        if hasattr(ea, "coef_"):  # not a constant code bit
            np.testing.assert_array_equal(ea.coef_, eb.coef_)
    np.testing.assert_array_equal(a.predict(X_test), b.predict(X_test))


def test_one_vs_rest_multilabel_matches_sklearn():
    rng = np.random.default_rng(7)
    X = rng.normal(size=(300, 4))
    Y = np.column_stack([X[:, 0] > 0, X[:, 1] + X[:, 2] > 0, X[:, 3] > 0.5]).astype(int)
    base = sk_linear.LogisticRegression()
    ours = OneVsRestClassifier(base).fit(X, Y)
    theirs = sk_multiclass.OneVsRestClassifier(base).fit(X, Y)
    assert ours.multilabel_
    np.testing.assert_array_equal(ours.predict(X), theirs.predict(X))
    np.testing.assert_allclose(ours.predict_proba(X), theirs.predict_proba(X), rtol=1e-10)


def test_methods_follow_the_wrapped_estimator():
    perceptron = sk_linear.Perceptron(random_state=0)
    ovr = OneVsRestClassifier(perceptron)
    assert not hasattr(ovr, "predict_proba")
    assert hasattr(ovr, "decision_function")
    assert not hasattr(OneVsRestClassifier(GaussianNB()), "decision_function")
    X, y, X_test = _data(k=3, seed=8)
    ours = ovr.fit(X, y)
    theirs = sk_multiclass.OneVsRestClassifier(perceptron).fit(X, y)
    np.testing.assert_array_equal(ours.predict(X_test), theirs.predict(X_test))


def test_output_code_constant_bit_and_string_labels():
    X, y, X_test = _data(k=3, seed=9)
    labels = np.array(["a", "b", "c"])[y]
    # a large code book on 3 classes always has constant bits (2**3 patterns)
    clf = OutputCodeClassifier(LinearDiscriminantAnalysis(), code_size=6, random_state=1)
    clf.fit(X, labels)
    assert clf.code_book_.shape == (3, 18)
    assert set(clf.predict(X_test)) <= {"a", "b", "c"}
    assert clf.score(X, labels) > 0.8
    with pytest.raises(ValueError, match="code_size"):
        OutputCodeClassifier(GaussianNB(), code_size=0.1).fit(X, labels)


def test_bad_input():
    X, y, _ = _data(k=3, seed=11)
    for cls in (OneVsRestClassifier, OneVsOneClassifier):
        with pytest.raises(ValueError, match="one class"):
            cls(GaussianNB()).fit(X, np.zeros(len(X)))
    ovr = OneVsRestClassifier(GaussianNB()).fit(X, y)
    with pytest.raises(ValueError, match="features"):
        ovr.predict(X[:, :2])


def test_one_vs_one_precomputed_kernel_matches_sklearn():
    svm = pytest.importorskip("sklearn.svm")
    X, y, X_test = _data(n=300, k=3, seed=12)
    K_train, K_test = X @ X.T, X_test @ X.T
    base = svm.SVC(kernel="precomputed")
    ours = OneVsOneClassifier(base).fit(K_train, y)
    theirs = sk_multiclass.OneVsOneClassifier(base).fit(K_train, y)
    assert len(ours.pairwise_indices_) == 3
    np.testing.assert_array_equal(ours.predict(K_test), theirs.predict(K_test))
