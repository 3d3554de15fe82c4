"""No estimator that takes sparse input makes a dense copy of it (issue #17, item 3).

The matrix below is 200,000 x 50,000 at 0.05% density: its dense form would
need 80 GB, its CSR form needs about 60 MB. Each estimator fits it and
predicts part of it while tracemalloc records the peak of the memory that
NumPy, SciPy and the numba kernels allocate on top of the input.
"""

import tracemalloc
import warnings

import numpy as np
import pytest
import scipy.sparse as sp

from classiclearn.cluster import KMeans
from classiclearn.linear_model import ElasticNet, Lasso, LogisticRegression, Ridge
from classiclearn.naive_bayes import BernoulliNB, ComplementNB, MultinomialNB
from classiclearn.neighbors import KNeighborsClassifier
from classiclearn.svm import LinearSVC

N_ROWS, N_COLS, DENSITY = 200_000, 50_000, 0.0005
PEAK_LIMIT_MB = 500


@pytest.fixture(scope="module")
def text_like():
    rng = np.random.default_rng(0)
    nnz = int(N_ROWS * N_COLS * DENSITY)
    rows = rng.integers(0, N_ROWS, nnz)
    # power-law column frequencies, as words in documents
    cols = np.minimum((rng.pareto(1.2, nnz) * 50).astype(np.int64), N_COLS - 1)
    counts = rng.integers(1, 4, nnz).astype(np.float64)
    X = sp.csr_array((counts, (rows, cols)), shape=(N_ROWS, N_COLS))
    X.sum_duplicates()
    w = rng.normal(size=N_COLS)
    y = (X @ w > np.median(X @ w)).astype(np.int64)
    return X, y


CASES = {
    "LogisticRegression": lambda: LogisticRegression(max_iter=15),
    "LinearSVC": lambda: LinearSVC(max_iter=20),
    "Ridge": lambda: Ridge(alpha=10.0, max_iter=30),
    "Lasso": lambda: Lasso(alpha=1e-4, max_iter=5),
    "ElasticNet": lambda: ElasticNet(alpha=1e-4, max_iter=5),
    "MultinomialNB": lambda: MultinomialNB(),
    "ComplementNB": lambda: ComplementNB(),
    "BernoulliNB": lambda: BernoulliNB(),
    "KMeans": lambda: KMeans(8, n_init=1, max_iter=3, random_state=0),
    "KNeighborsClassifier": lambda: KNeighborsClassifier(metric="cosine"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_fit_and_predict_stay_within_a_few_hundred_mb(name, text_like):
    X, y = text_like
    est = CASES[name]()
    query = X[:500]
    tracemalloc.start()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            est.fit(X, y)
            pred = est.predict(query)
            del est
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert pred.shape == (500,)
    assert peak < PEAK_LIMIT_MB * 2**20, f"{name} peaked at {peak / 2**20:.0f} MB"
