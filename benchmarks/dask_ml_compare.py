"""classiclearn's Dask fits beside dask-ml's on the same Dask data (issue 19, item 6c).

Usage::

    python -m benchmarks.dask_ml_compare [--rows N] [--features P] [--chunks K] [--out FILE]

For every estimator both libraries fit on Dask input, the same Dask array is
fitted by each, and each result is compared with scikit-learn's in-memory fit
of the same model on the same data (the exact answer): the table gives both
times and each library's largest relative distance from that answer. dask-ml
is optional (``pip install dask-ml``); without it the script says so and stops.
"""

import argparse
import time
import warnings

import numpy as np

from ._runner import emit_table, environment_lines


def _data(rng, n, p):
    X = rng.normal(size=(n, p)) * rng.uniform(0.5, 3.0, size=p) + 3.0
    y_reg = X @ rng.normal(size=p) + rng.normal(size=n)
    y_clf = (y_reg > np.median(y_reg)).astype(np.int64)
    return X, y_reg, y_clf


def _cases(X, y_reg, y_clf):
    """(name, classiclearn model, dask-ml model, scikit-learn model, y, attributes)."""
    import dask_ml.cluster as dc
    import dask_ml.decomposition as dd
    import dask_ml.linear_model as dl
    import dask_ml.naive_bayes as dn
    import dask_ml.preprocessing as dp
    import sklearn.cluster as sc
    import sklearn.decomposition as sd
    import sklearn.linear_model as sl
    import sklearn.naive_bayes as sn
    import sklearn.preprocessing as sk

    import classiclearn.cluster as cc
    import classiclearn.decomposition as cd
    import classiclearn.linear_model as cl
    import classiclearn.naive_bayes as cn
    import classiclearn.preprocessing as cp

    return [
        ("StandardScaler", cp.StandardScaler(), dp.StandardScaler(), sk.StandardScaler(),
         None, ["mean_", "scale_"]),
        ("MinMaxScaler", cp.MinMaxScaler(), dp.MinMaxScaler(), sk.MinMaxScaler(),
         None, ["data_min_", "data_max_"]),
        # dask-ml's linear regression always has a penalty; its default (l2, C=1)
        # is the nearest to ordinary least squares
        ("LinearRegression", cl.LinearRegression(), dl.LinearRegression(),
         sl.LinearRegression(), y_reg, ["coef_", "intercept_"]),
        ("LogisticRegression(C=1)", cl.LogisticRegression(C=1.0),
         dl.LogisticRegression(C=1.0),
         sl.LogisticRegression(C=1.0, tol=1e-12, max_iter=10_000), y_clf,
         ["coef_", "intercept_"]),
        ("GaussianNB", cn.GaussianNB(), dn.GaussianNB(), sn.GaussianNB(), y_clf,
         ["theta_", "var_"]),
        ("PCA(5)", cd.PCA(n_components=5), dd.PCA(n_components=5, svd_solver="full"),
         sd.PCA(n_components=5), None, ["explained_variance_"]),
        ("KMeans(8)", cc.KMeans(8, random_state=0, n_init=1),
         dc.KMeans(8, random_state=0, init="k-means||"), sc.KMeans(8, random_state=0, n_init=1),
         None, ["inertia_"]),
    ]


_OLD_NAMES = {"var_": "sigma_"}


def _distance(model, exact, attributes):
    worst = 0.0
    for name in attributes:
        # dask-ml's GaussianNB keeps the variances under their old name
        own = name if hasattr(model, name) else _OLD_NAMES.get(name, name)
        a = np.asarray(getattr(model, own), dtype=float)
        b = np.asarray(getattr(exact, name), dtype=float)
        worst = max(worst, float(np.max(np.abs(a.ravel() - b.ravel())) /
                                 max(1e-300, float(np.max(np.abs(b))))))
    return worst


def _timed(fn):
    start = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - start


def main(argv=None):
    try:
        import dask_ml  # noqa: F401
    except ImportError:
        print("dask-ml is not installed: pip install dask-ml")
        return 1
    import dask.array as da

    import dask

    parser = argparse.ArgumentParser(prog="python -m benchmarks.dask_ml_compare")
    parser.add_argument("--rows", type=int, default=200_000)
    parser.add_argument("--features", type=int, default=20)
    parser.add_argument("--chunks", type=int, default=4)
    parser.add_argument("--out")
    args = parser.parse_args(argv)
    X, y_reg, y_clf = _data(np.random.default_rng(0), args.rows, args.features)
    size = -(-args.rows // args.chunks)
    Xd = da.from_array(X, chunks=(size, X.shape[1]))
    rows = []
    with dask.config.set(scheduler="threads"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, ours, theirs, exact, y, attributes in _cases(X, y_reg, y_clf):
            yd = None if y is None else da.from_array(y, chunks=(size,))
            fit_args = (Xd,) if y is None else (Xd, yd)
            exact.fit(*((X,) if y is None else (X, y)))
            ours.fit(*fit_args)  # warm: numba compiles, dask imports
            ours, t_ours = _timed(lambda m=ours, a=fit_args: m.fit(*a))
            theirs, t_theirs = _timed(lambda m=theirs, a=fit_args: m.fit(*a))
            d_ours, d_theirs = (_distance(m, exact, attributes) for m in (ours, theirs))
            rows.append((name, t_ours, t_theirs, d_ours, d_theirs))
            print(f"{name}: classiclearn {t_ours:.3f}s ({d_ours:.1e}) "
                  f"dask-ml {t_theirs:.3f}s ({d_theirs:.1e})", flush=True)
    import dask_ml as dm

    command = "python -m benchmarks.dask_ml_compare " + " ".join(argv or [])
    lines = environment_lines(command.strip())
    lines += [
        f"- dask-ml {dm.__version__}; data: {args.rows} x {args.features} in memory, "
        f"{args.chunks} row chunks, Dask's threaded scheduler; one fit each after a warm-up",
        "- distance: max |fitted - exact| / max |exact| over the listed attributes, where "
        "exact is scikit-learn's in-memory fit of the same model",
        "",
        "| estimator | classiclearn (s) | dask-ml (s) | time ratio | classiclearn distance "
        "| dask-ml distance |",
        "|---|---|---|---|---|---|",
    ]
    for name, t_ours, t_theirs, d_ours, d_theirs in rows:
        lines.append(f"| {name} | {t_ours:.3f} | {t_theirs:.3f} | {t_ours / t_theirs:.2f} | "
                     f"{d_ours:.1e} | {d_theirs:.1e} |")
    return emit_table(lines, args.out)


if __name__ == "__main__":
    raise SystemExit(main())
