"""PCA and kernel PCA benchmark cases (seed 000 §13.1, §14.2)."""

from benchmarks import _data
from benchmarks._case import Case


def _pair(name, **params):
    def ours():
        import classiclearn.decomposition

        return getattr(classiclearn.decomposition, name)(**params)

    def theirs():
        import sklearn.decomposition

        return getattr(sklearn.decomposition, name)(**params)

    return ours, theirs


def _pca_data(quick):
    return _data.classification(50_000, 200, 2, quick=quick)


CASES = []
for _solver, _goal in (("full", 0.1), ("randomized", 0.5)):
    _ours, _theirs = _pair("PCA", n_components=20, svd_solver=_solver, random_state=0)
    CASES.append(
        Case(
            name=f"PCA {_solver} 50000x200 -> 20",
            data=_pca_data,
            ours=_ours,
            theirs=_theirs,
            methods=("transform",),
            score=lambda est, X, y: float(est.explained_variance_ratio_.sum()),
            score_tol=1e-3,
            goals={"fit": _goal},
        )
    )
_ours, _theirs = _pair("KernelPCA", n_components=5, kernel="rbf", random_state=0)
CASES.append(
    Case(
        name="KernelPCA rbf 3000x20 -> 5",
        data=lambda quick: _data.classification(3_000, 20, 2, quick=quick),
        ours=_ours,
        theirs=_theirs,
        methods=("transform",),
        score=lambda est, X, y: float(est.eigenvalues_.sum() / est.eigenvectors_.shape[0]),
        score_tol=1e-6,
        goals={"fit": 0.33},
    )
)
