"""Cost per SMO iteration on small data, ours against scikit-learn in one process.

Linear kernels with a large C take hundreds of thousands of cheap iterations on a
few hundred rows, so the fixed cost of an iteration decides the fit time. Prints,
per case, the best of three fit times, their ratio and the time per iteration.
To compare two versions of classiclearn, run it with each first on ``PYTHONPATH``:

    PYTHONPATH=<sources> python -m benchmarks.svm_iterations
"""

import time

import numpy as np
import sklearn.svm as sk_svm
from sklearn.datasets import make_classification, make_regression

from classiclearn.svm import SVC, SVR


def _best_fit_time(cls, params, X, y, repeats=3):
    best = np.inf
    for _ in range(repeats):
        start = time.perf_counter()
        cls(**params).fit(X, y)
        best = min(best, time.perf_counter() - start)
    return best


def main():
    X, y = make_classification(500, 10, random_state=0, flip_y=0.05)
    Xr, yr = make_regression(500, 10, noise=10.0, random_state=0)
    cases = [
        ("SVC linear C=100 500x10", SVC, sk_svm.SVC, X, y, {"kernel": "linear", "C": 100.0}),
        ("SVC rbf C=1 500x10", SVC, sk_svm.SVC, X, y, {}),
        ("SVR linear C=100 eps=1 500x10", SVR, sk_svm.SVR, Xr, yr,
         {"kernel": "linear", "C": 100.0, "epsilon": 1.0}),
    ]
    for name, ours, theirs, X_, y_, params in cases:
        n_iter = int(np.sum(ours(**params).fit(X_, y_).n_iter_))  # also compiles
        t_ours = _best_fit_time(ours, params, X_, y_)
        t_theirs = _best_fit_time(theirs, params, X_, y_)
        print(f"{name}: ours {t_ours * 1e3:.1f} ms, scikit-learn {t_theirs * 1e3:.1f} ms, "
              f"ratio {t_ours / t_theirs:.2f}; {n_iter} iterations, "
              f"{t_ours / n_iter * 1e6:.2f} / {t_theirs / n_iter * 1e6:.2f} us each")


if __name__ == "__main__":
    main()
