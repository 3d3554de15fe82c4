"""OutputCodeClassifier with a code book of one's own: each column trains one binary
problem on the classes' symbols, and decoding picks the nearest code word."""

import numpy as np
import pytest

from classiclearn.discriminant_analysis import LinearDiscriminantAnalysis
from classiclearn.multiclass import OutputCodeClassifier
from classiclearn.naive_bayes import GaussianNB

# 4 classes, 5 codes: distinct rows, both symbols in every column
BOOK = np.array([
    [1, 1, -1, -1, 1],
    [-1, 1, 1, -1, -1],
    [1, -1, 1, 1, -1],
    [-1, -1, -1, 1, 1],
])


def _four_blobs(seed=0, n=40):
    rng = np.random.default_rng(seed)
    centres = np.array([[0, 0], [4, 0], [0, 4], [4, 4]], dtype=float)
    y = np.repeat(["d", "a", "c", "b"], n)  # classes_ is sorted: a, b, c, d
    X = centres[np.repeat(np.arange(4), n)] + rng.normal(0, 1.2, size=(4 * n, 2))
    return X, y


@pytest.mark.parametrize("book", [BOOK, (BOOK + 1) // 2])
def test_user_code_book_by_hand_with_decision_function(book):
    X, y = _four_blobs()
    clf = OutputCodeClassifier(LinearDiscriminantAnalysis(), code_book=book).fit(X, y)
    np.testing.assert_array_equal(clf.code_book_, BOOK)  # {0, 1} is read as {-1, 1}
    classes, y_index = np.unique(y, return_inverse=True)
    np.testing.assert_array_equal(clf.classes_, classes)
    x = np.random.default_rng(1).uniform(-2, 6, size=(50, 2))
    scores = np.empty((len(x), BOOK.shape[1]))
    for j in range(BOOK.shape[1]):
        # column j: each sample gets its class's symbol; one binary LDA per column
        binary = LinearDiscriminantAnalysis().fit(X, BOOK[y_index, j])
        scores[:, j] = binary.decision_function(x)
        np.testing.assert_allclose(clf.estimators_[j].decision_function(x), scores[:, j],
                                   rtol=1e-12)
    dist = ((scores[:, None, :] - BOOK[None, :, :]) ** 2).sum(axis=2)
    np.testing.assert_array_equal(clf.predict(x), classes[np.argmin(dist, axis=1)])
    assert clf.score(X, y) > 0.8


def test_user_code_book_with_predict_proba_decodes_on_zero_one():
    X, y = _four_blobs()
    clf = OutputCodeClassifier(GaussianNB(), code_book=BOOK).fit(X, y)
    zero_one = (BOOK + 1) // 2
    np.testing.assert_array_equal(clf.code_book_, zero_one)
    classes, y_index = np.unique(y, return_inverse=True)
    scores = np.column_stack([
        GaussianNB().fit(X, zero_one[y_index, j]).predict_proba(X)[:, 1]
        for j in range(BOOK.shape[1])
    ])
    dist = ((scores[:, None, :] - zero_one[None, :, :]) ** 2).sum(axis=2)
    np.testing.assert_array_equal(clf.predict(X), classes[np.argmin(dist, axis=1)])


def test_code_book_ignores_code_size_and_random_state():
    X, y = _four_blobs()
    a = OutputCodeClassifier(LinearDiscriminantAnalysis(), code_book=BOOK, random_state=0)
    b = OutputCodeClassifier(LinearDiscriminantAnalysis(), code_book=BOOK, code_size=9.0,
                             random_state=7)
    np.testing.assert_array_equal(a.fit(X, y).predict(X), b.fit(X, y).predict(X))
    assert len(b.estimators_) == BOOK.shape[1]


@pytest.mark.parametrize(
    ("book", "message"),
    [
        (BOOK[:3], "has 3 rows, but y has 4 classes"),
        (BOOK[0], "2-D array"),
        (np.vstack([BOOK[:3], BOOK[:1]]), "rows must be distinct"),
        (np.column_stack([BOOK, np.ones(4)]), "column 5 gives every class the same symbol"),
        (np.where(BOOK == -1, 0, BOOK) * np.array([1, 1, 1, 1, -1]), r"all in \{0, 1\}"),
        (BOOK * 2, r"all in \{0, 1\}"),
        (np.array([["x"] * 5] * 4), "must hold numbers"),
    ],
)
def test_bad_code_books(book, message):
    X, y = _four_blobs(n=10)
    with pytest.raises(ValueError, match=message):
        OutputCodeClassifier(LinearDiscriminantAnalysis(), code_book=book).fit(X, y)
