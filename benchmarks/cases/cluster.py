"""k-means benchmark cases (seed 000 §12.1)."""

from benchmarks import _data
from benchmarks._case import Case


def _pair(**params):
    def ours():
        from classiclearn.cluster import KMeans

        return KMeans(**params)

    def theirs():
        from sklearn.cluster import KMeans

        return KMeans(**params)

    return ours, theirs


def _score(est, X, y):
    """Mean negative squared distance to the nearest centre (higher is better)."""
    return est.score(X) / X.shape[0]


CASES = []
for _algorithm in ("lloyd", "elkan"):
    _ours, _theirs = _pair(n_clusters=8, n_init=1, algorithm=_algorithm, random_state=0)
    CASES.append(
        Case(
            name=f"KMeans {_algorithm} 100000x20 k=8",
            data=lambda quick: _data.blobs(100_000, 20, centers=8, quick=quick),
            ours=_ours,
            theirs=_theirs,
            methods=("predict",),
            score=_score,
            score_tol=1e-2,
            goals={"fit": 0.77},
        )
    )
_ours, _theirs = _pair(n_clusters=8, n_init=1, random_state=0)
CASES.append(
    Case(
        name="KMeans lloyd 1000000x10 k=8",
        data=lambda quick: _data.blobs(1_000_000, 10, centers=8, quick=quick),
        ours=_ours,
        theirs=_theirs,
        methods=("predict",),
        score=_score,
        score_tol=1e-2,
        goals={"fit": 0.77},
        repeats=2,
    )
)
