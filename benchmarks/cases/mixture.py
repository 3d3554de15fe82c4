"""Gaussian mixture benchmark cases (seed 000 §12.2)."""

from benchmarks import _data
from benchmarks._case import Case


def _pair(**params):
    def ours():
        from classiclearn.mixture import GaussianMixture

        return GaussianMixture(**params)

    def theirs():
        from sklearn.mixture import GaussianMixture

        return GaussianMixture(**params)

    return ours, theirs


CASES = []
for _ctype in ("full", "tied", "diag", "spherical"):
    _ours, _theirs = _pair(n_components=5, covariance_type=_ctype, random_state=0)
    CASES.append(
        Case(
            name=f"GaussianMixture {_ctype} 20000x10 k=5",
            data=lambda quick: _data.blobs(20_000, 10, centers=5, quick=quick),
            ours=_ours,
            theirs=_theirs,
            methods=("predict_proba",),
            score=lambda est, X, y: est.score(X),
            score_tol=1e-3,
            goals={"fit": 0.33},
        )
    )
