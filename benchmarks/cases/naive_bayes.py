"""Naive Bayes benchmark cases (issue 6): GaussianNB and BernoulliNB on 100,000 x 50
with 5 classes; KernelDensityNB on 20,000 x 10 against per-class, per-feature
scikit-learn KernelDensity estimators with the same bandwidths. MultinomialNB and
ComplementNB (issue 17) on text-like sparse counts: 50,000 x 20,000 CSR at 0.2%
density, power-law column frequencies, 5 classes."""

import numpy as np

from benchmarks import _data
from benchmarks._case import Case


def _sk(name):
    import sklearn.naive_bayes

    return getattr(sklearn.naive_bayes, name)


def _ours(name):
    import classiclearn.naive_bayes

    return getattr(classiclearn.naive_bayes, name)


class _SklearnKernelDensityNB:
    """The same model from scikit-learn parts: one ``KernelDensity`` per class
    and feature with Scott's bandwidth (s n^(-1/5), s the ddof=1 std), summed
    log-densities plus log priors; a zero bandwidth (a class whose feature is
    constant) raised as KernelDensityNB raises it. ``rtol=1e-4``: far looser than our default
    (binned densities within about 1e-9 of the exact sums), which only favours
    scikit-learn; a tighter rtol makes its tree sums slower still."""

    def fit(self, X, y):
        from sklearn.neighbors import KernelDensity

        self.classes_ = np.unique(y)
        self.log_prior_ = np.log([np.mean(y == c) for c in self.classes_])
        self.kdes_ = []
        overall = X.std(axis=0)
        floor = np.where(overall > 0, 1e-3 * overall, 1e-3)  # KernelDensityNB's floor
        for c in self.classes_:
            Xc = X[y == c]
            h = np.maximum(Xc.std(axis=0, ddof=1) * len(Xc) ** (-0.2), floor)
            self.kdes_.append([
                KernelDensity(bandwidth=h[j], rtol=1e-4).fit(Xc[:, j : j + 1])
                for j in range(X.shape[1])
            ])
        return self

    def predict_joint_log_proba(self, X):
        out = np.empty((X.shape[0], len(self.classes_)))
        for k, kdes in enumerate(self.kdes_):
            out[:, k] = self.log_prior_[k] + sum(
                kde.score_samples(X[:, j : j + 1]) for j, kde in enumerate(kdes)
            )
        return out

    def predict(self, X):
        return self.classes_[np.argmax(self.predict_joint_log_proba(X), axis=1)]

    def score(self, X, y):
        return float(np.mean(self.predict(X) == y))


def _text_counts(quick, n_train=50_000, n_features=20_000, density=0.002, n_classes=5):
    """Bag-of-words-like CSR counts: each row draws about ``density * n_features``
    words, 80% from one Zipf law over all columns (column j has weight
    (j + 1)^-1.1) and 20% from its class's own Zipf law over a permutation of the
    columns; a word drawn twice counts 2."""
    import scipy.sparse as sp

    if quick:
        n_train, n_features = 2_000, 2_000
    n_test = n_train // 5
    n = n_train + n_test
    rng = np.random.default_rng(0)
    y = rng.integers(0, n_classes, n)
    zipf = (np.arange(n_features) + 1.0) ** -1.1
    zipf /= zipf.sum()
    per_row = rng.poisson(density * n_features, n)
    rows = np.repeat(np.arange(n), per_row)
    cols = rng.choice(n_features, size=rows.size, p=zipf)
    own = rng.uniform(size=rows.size) < 0.2
    perms = np.array([rng.permutation(n_features) for _ in range(n_classes)])
    cols[own] = perms[y[rows[own]], cols[own]]
    X = sp.csr_matrix(
        (np.ones(rows.size), (rows, cols)), shape=(n, n_features)
    )
    X.sum_duplicates()
    return X[:n_train], y[:n_train], X[n_train:], y[n_train:]


def _binary_features(quick):
    X, y, Xt, yt = _data.classification(100_000, 50, 5, quick=quick)
    return X, y, Xt, yt


CASES = [
    Case(
        name="GaussianNB 100000x50 5 classes",
        data=lambda quick: _data.classification(100_000, 50, 5, quick=quick),
        ours=lambda: _ours("GaussianNB")(),
        theirs=lambda: _sk("GaussianNB")(),
        methods=("predict", "predict_proba"),
        goals={"fit": 1.0, "predict": 1.0, "predict_proba": 1.0},
    ),
    Case(
        name="BernoulliNB 100000x50 5 classes",
        data=_binary_features,
        ours=lambda: _ours("BernoulliNB")(),
        theirs=lambda: _sk("BernoulliNB")(),
        methods=("predict", "predict_proba"),
        goals={"fit": 1.0, "predict": 1.0, "predict_proba": 1.0},
    ),
    Case(
        name="KernelDensityNB 20000x10 5 classes",
        data=lambda quick: _data.classification(20_000, 10, 5, quick=quick),
        ours=lambda: _ours("KernelDensityNB")(),
        theirs=_SklearnKernelDensityNB,
        methods=("predict",),
        score_tol=5e-3,
        goals={"fit": 1.0, "predict": 1.0},
        repeats=1,
    ),
    Case(
        name="MultinomialNB text 50000x20000 0.2% 5 classes",
        data=_text_counts,
        ours=lambda: _ours("MultinomialNB")(),
        theirs=lambda: _sk("MultinomialNB")(),
        methods=("predict", "predict_proba"),
        goals={"fit": 0.67, "predict": 1.0, "predict_proba": 1.0},
    ),
    Case(
        name="ComplementNB text 50000x20000 0.2% 5 classes",
        data=_text_counts,
        ours=lambda: _ours("ComplementNB")(),
        theirs=lambda: _sk("ComplementNB")(),
        methods=("predict",),
        goals={"fit": 0.67, "predict": 1.0},
    ),
]
