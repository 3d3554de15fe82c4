"""Sparse-input cases of the kernel methods, k-means and PCA (issue 17): SVC / SVR
(sparse kernel rows), KernelRidge, KernelPCA, KMeans and PCA on text-like CSR
rows (power-law column frequencies, class-specific words, L2-normalised
TF-like values). Goal: ours / scikit-learn <= 1.0 for fit and predict."""

import numpy as np

from benchmarks._case import Case

GOALS = {"fit": 1.0, "predict": 1.0, "decision_function": 1.0, "transform": 1.0}


def _text_rows(n_train, n_features, density, n_classes=2, *, quick=False, seed=0,
               regression=False):
    """CSR rows with about ``density * n_features`` words each: 70% from one Zipf
    law over all columns, 30% from the class's own Zipf law over a permutation
    of the columns; rows L2-normalised. y is the class, or with ``regression``
    a linear function of the rows plus noise."""
    import scipy.sparse as sp

    if quick:
        n_train, n_features = 1_000, 1_000
    n_test = max(n_train // 5, 100)
    n = n_train + n_test
    rng = np.random.default_rng(seed)
    y = rng.integers(0, n_classes, n)
    zipf = (np.arange(n_features) + 1.0) ** -1.1
    zipf /= zipf.sum()
    per_row = np.maximum(1, rng.poisson(density * n_features, n))
    rows = np.repeat(np.arange(n), per_row)
    cols = rng.choice(n_features, size=rows.size, p=zipf)
    own = rng.uniform(size=rows.size) < 0.3
    perms = np.array([rng.permutation(n_features) for _ in range(n_classes)])
    cols[own] = perms[y[rows[own]], cols[own]]
    X = sp.csr_matrix((np.ones(rows.size), (rows, cols)), shape=(n, n_features))
    X.sum_duplicates()
    norms = np.sqrt(np.asarray(X.multiply(X).sum(axis=1)).ravel())
    X = sp.csr_matrix(sp.diags(1.0 / norms) @ X)
    if regression:
        y = X @ rng.normal(size=n_features) * 3.0 + 0.1 * rng.normal(size=n)
    return X[:n_train], y[:n_train], X[n_train:], y[n_train:]


def _pair(module, name, **params):
    def ours():
        import importlib

        return getattr(importlib.import_module(f"classiclearn.{module}"), name)(**params)

    def theirs():
        import importlib

        return getattr(importlib.import_module(f"sklearn.{module}"), name)(**params)

    return ours, theirs


def _explained(est, X, y):
    return float(np.sum(est.explained_variance_ratio_))


def _kpca_score(est, X, y):
    return float(np.sum(est.eigenvalues_[:5]) / 1e3)


CASES = []
for _kernel in ("rbf", "linear", "poly"):
    _ours, _theirs = _pair("svm", "SVC", kernel=_kernel)
    CASES.append(Case(
        name=f"SVC {_kernel} sparse 8000x10000 0.5%",
        data=lambda quick: _text_rows(8_000, 10_000, 0.005, quick=quick),
        ours=_ours, theirs=_theirs, methods=("decision_function",), score_tol=2e-3,
        goals=GOALS, repeats=3,
    ))
_ours, _theirs = _pair("svm", "SVC", kernel="rbf")
CASES.append(Case(
    name="SVC rbf sparse 6000x10000 0.5% 5 classes",
    data=lambda quick: _text_rows(6_000, 10_000, 0.005, 5, quick=quick),
    ours=_ours, theirs=_theirs, methods=("predict",), score_tol=2e-3, goals=GOALS, repeats=3,
))
_ours, _theirs = _pair("svm", "SVR", kernel="rbf", C=10.0, epsilon=0.1)
CASES.append(Case(
    name="SVR rbf sparse 5000x10000 0.5%",
    data=lambda quick: _text_rows(5_000, 10_000, 0.005, quick=quick, regression=True),
    ours=_ours, theirs=_theirs, methods=("predict",), score_tol=2e-3, goals=GOALS, repeats=3,
))
for _algorithm in ("lloyd", "elkan"):
    _ours, _theirs = _pair("cluster", "KMeans", n_clusters=10, algorithm=_algorithm,
                           random_state=0, n_init=1)
    CASES.append(Case(
        name=f"KMeans {_algorithm} sparse 50000x10000 0.5% k=10",
        data=lambda quick: _text_rows(50_000, 10_000, 0.005, 10, quick=quick),
        ours=_ours, theirs=_theirs, methods=("predict",),
        score=lambda est, X, y: est.score(X) / X.shape[0], score_tol=1e-6,
        goals=GOALS, repeats=3,
    ))
_ours, _theirs = _pair("decomposition", "PCA", n_components=10, svd_solver="arpack",
                       random_state=0)
CASES.append(Case(
    name="PCA arpack sparse 50000x5000 0.5% 10 comps",
    data=lambda quick: _text_rows(50_000, 5_000, 0.005, quick=quick),
    ours=_ours, theirs=_theirs, methods=("transform",), score=_explained, score_tol=1e-8,
    goals=GOALS, repeats=3,
))
_ours, _theirs = _pair("decomposition", "PCA", n_components=10,
                       svd_solver="covariance_eigh")
CASES.append(Case(
    name="PCA covariance_eigh sparse 50000x1000 1% 10 comps",
    data=lambda quick: _text_rows(50_000, 1_000, 0.01, quick=quick),
    ours=_ours, theirs=_theirs, methods=("transform",), score=_explained, score_tol=1e-8,
    goals=GOALS, repeats=3,
))
_ours, _theirs = _pair("kernel_ridge", "KernelRidge", kernel="rbf", gamma=1.0, alpha=0.1)
CASES.append(Case(
    name="KernelRidge rbf sparse 4000x10000 0.5%",
    data=lambda quick: _text_rows(4_000, 10_000, 0.005, quick=quick, regression=True),
    ours=_ours, theirs=_theirs, methods=("predict",), score_tol=1e-6, goals=GOALS, repeats=3,
))
_ours, _theirs = _pair("decomposition", "KernelPCA", kernel="rbf", gamma=1.0, n_components=5,
                       random_state=0)
CASES.append(Case(
    name="KernelPCA rbf sparse 3000x10000 0.5% 5 comps",
    data=lambda quick: _text_rows(3_000, 10_000, 0.005, quick=quick),
    ours=_ours, theirs=_theirs, methods=("transform",), score=_kpca_score, score_tol=1e-6,
    goals=GOALS, repeats=3,
))
