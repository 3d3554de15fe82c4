"""The cost of the Dask path: each distributed fit on in-memory data against the NumPy fit.

Usage::

    python -m benchmarks.dask_overhead [--rows N[,N...]] [--chunks K] [--repeats R]
                                       [--only NAME[,NAME...]] [--out FILE]

The same data are fitted from a NumPy array and from a Dask array of ``K``
row chunks on one local worker (Dask's threaded scheduler by default, one
thread per core; ``--scheduler synchronous`` for no parallelism at all). The ratio Dask / NumPy is the
overhead bound of issue 19 (goal <= 1.3). Fitted models are compared too, so a
fast but different result would show.
"""

import argparse
import sys
import time

import numpy as np

from ._runner import emit_table, environment_lines


def _cases(rng, n, p):
    from classiclearn.cluster import KMeans
    from classiclearn.decomposition import PCA
    from classiclearn.discriminant_analysis import (
        LinearDiscriminantAnalysis,
        QuadraticDiscriminantAnalysis,
    )
    from classiclearn.impute import SimpleImputer
    from classiclearn.linear_model import (
        ElasticNet,
        Lasso,
        LinearRegression,
        LogisticRegression,
        Ridge,
    )
    from classiclearn.mixture import GaussianMixture
    from classiclearn.naive_bayes import BernoulliNB, GaussianNB, MultinomialNB
    from classiclearn.neighbors import KNeighborsClassifier
    from classiclearn.preprocessing import MaxAbsScaler, MinMaxScaler, StandardScaler

    X = rng.normal(size=(n, p)) + 3.0
    y_reg = X @ rng.normal(size=p) + rng.normal(size=n)
    y_clf = (y_reg > np.median(y_reg)).astype(int)
    counts = rng.poisson(1.0, size=(n, p)).astype(float)
    return [
        ("StandardScaler", StandardScaler(), X, None),
        ("MinMaxScaler", MinMaxScaler(), X, None),
        ("MaxAbsScaler", MaxAbsScaler(), X, None),
        ("LinearRegression", LinearRegression(), X, y_reg),
        ("Ridge", Ridge(alpha=1.0), X, y_reg),
        ("Lasso", Lasso(alpha=0.05), X, y_reg),
        ("ElasticNet", ElasticNet(alpha=0.05, l1_ratio=0.5), X, y_reg),
        ("LogisticRegression", LogisticRegression(), X, y_clf),
        ("GaussianNB", GaussianNB(), X, y_clf),
        ("BernoulliNB", BernoulliNB(binarize=3.0), X, y_clf),
        ("MultinomialNB", MultinomialNB(), counts, y_clf),
        ("PCA", PCA(n_components=5), X, None),
        ("KMeans", KMeans(8, random_state=0), X, None),
        ("SimpleImputer", SimpleImputer(), X, None),
        ("LinearDiscriminantAnalysis", LinearDiscriminantAnalysis(), X, y_clf),
        ("QuadraticDiscriminantAnalysis", QuadraticDiscriminantAnalysis(), X, y_clf),
        ("PCA(randomized)", PCA(5, svd_solver="randomized", random_state=0), X, None),
        ("GaussianMixture", GaussianMixture(3, random_state=0), X, None),
        # fit stores the blocks; the work is the brute-force search of 1,000 queries
        ("KNeighborsClassifier(fit+predict)", KNeighborsClassifier(5), X, y_clf),
    ]


_QUERIES = 1_000


def _run(est, X, y, queries):
    """The fit (and, for a neighbours model, the prediction of ``queries``)."""
    fitted = est.fit(X) if y is None else est.fit(X, y)
    return fitted.predict(queries) if hasattr(fitted, "kneighbors") else fitted


def _difference(a, b):
    """Largest relative difference of two fits' attributes (or predictions)."""
    if isinstance(a, np.ndarray):
        return float(np.mean(a != b))
    return max(
        float(np.max(np.abs(np.asarray(v, float) - np.asarray(getattr(b, k), float)))
              / max(1e-12, float(np.max(np.abs(np.asarray(v, float))))))
        for k, v in vars(a).items()
        if k.endswith("_") and not k.startswith("_") and k not in ("labels_", "n_iter_")
        and np.asarray(v).dtype.kind in "fiu" and np.asarray(v).size
    )


def _best_time(fn, repeats):
    best = np.inf
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m benchmarks.dask_overhead")
    parser.add_argument("--rows", default="200000",
                        help="comma-separated sizes, e.g. 20000,200000,2000000")
    parser.add_argument("--only", help="comma-separated estimator names")
    parser.add_argument("--one-thread", action="store_true",
                        help="numba and BLAS on one thread in both fits and the synchronous "
                        "scheduler: the Dask path's own cost, without parallel scaling")
    parser.add_argument("--features", type=int, default=20)
    parser.add_argument("--chunks", type=int, default=4)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--scheduler", default="threads", choices=["threads", "synchronous"],
                        help="threads: one local worker with a thread per core (default)")
    parser.add_argument("--out")
    args = parser.parse_args(argv)
    sizes = [int(v) for v in args.rows.split(",")]
    only = None if not args.only else set(args.only.split(","))
    rows = []
    for n_rows in sizes:
        rows += _measure(n_rows, args, only)
    command = "python -m benchmarks.dask_overhead " + " ".join(
        sys.argv[1:] if argv is None else argv)
    lines = environment_lines(command.strip(), baseline=False)
    lines += [
        f"- data: rows x {args.features} in memory, {args.chunks} row chunks, "
        + (f"{args.scheduler} scheduler (one local worker)" if not args.one_thread
           else "synchronous scheduler, numba and BLAS on one thread in both fits")
        + f"; best of {args.repeats} fits each",
        "",
        "| estimator | rows | NumPy fit (s) | Dask fit (s) | ratio | goal | "
        "max rel. difference |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, n_rows, t_np, t_dk, ratio, diff in sorted(rows, key=lambda r: r[0]):
        ok = "ok" if ratio <= 1.3 else "MISSED"
        lines.append(f"| {name} | {n_rows:,} | {t_np:.4f} | {t_dk:.4f} | {ratio:.2f} | "
                     f"<= 1.3 {ok} | {diff:.1e} |")
    return emit_table(lines, args.out)


def _measure(n_rows, args, only):
    """(name, rows, NumPy time, Dask time, ratio, difference) per estimator."""
    import dask.array as da

    import dask
    from classiclearn.base import clone

    rng = np.random.default_rng(0)
    rows = []
    size = -(-n_rows // args.chunks)
    import contextlib

    from classiclearn.utils._threads import blas_single_thread, numba_threads

    one = contextlib.ExitStack()
    if args.one_thread:
        one.enter_context(numba_threads(1))
        one.enter_context(blas_single_thread())
    scheduler = "synchronous" if args.one_thread else args.scheduler
    with one, dask.config.set(scheduler=scheduler):
        for name, est, X, y in _cases(rng, n_rows, args.features):
            if only is not None and name not in only:
                continue
            Xd = da.from_array(X, chunks=(size, X.shape[1]))
            yd = None if y is None else da.from_array(y, chunks=(size,))
            queries = X[:_QUERIES]

            def fit_np(e=est, X=X, y=y, q=queries):
                return _run(clone(e), X, y, q)

            def fit_dk(e=est, X=Xd, y=yd, q=queries):
                return _run(clone(e), X, y, q)

            fit_np()
            fit_dk()  # warm both (numba compiles, dask imports)
            t_np = _best_time(fit_np, args.repeats)
            t_dk = _best_time(fit_dk, args.repeats)
            diff = _difference(fit_np(), fit_dk())
            rows.append((name, n_rows, t_np, t_dk, t_dk / t_np, diff))
            print(f"{name} {n_rows}: numpy {t_np:.4f}s dask {t_dk:.4f}s "
                  f"ratio {t_dk / t_np:.2f}", flush=True)
    return rows


if __name__ == "__main__":
    raise SystemExit(main())
