"""Spot checks beyond the grid, ours against scikit-learn in one process.

Each check times one kind of input that the grid's generators do not make, or does
not reach. It prints one line per cell: both times, the ratio ours / scikit-learn
and, where one applies, both scores. scikit-learn's time is the faster of its
default threading and BLAS on one thread. Our side runs under default threading.
Each timed call follows a short pause.

    python -m benchmarks.spot_checks svc             # SVC: many classes, probability=True
    python -m benchmarks.spot_checks forest-predict  # forest prediction, 1,000-100,000 queries
    python -m benchmarks.spot_checks forest-200k     # forests at 200,000 x 10 (minutes)
    python -m benchmarks.spot_checks forest-50kx100  # forests at 50,000 x 100, 20 trees
    python -m benchmarks.spot_checks neighbors-200k  # k-NN and radius at 200,000 rows
    python -m benchmarks.spot_checks knn-default     # brute k-NN with default parameters
    python -m benchmarks.spot_checks collinear-ols   # LinearRegression, rank-deficient X
    python -m benchmarks.spot_checks float32         # every estimator on float32 input
    python -m benchmarks.spot_checks sample-weight   # every estimator fitted with weights
    python -m benchmarks.spot_checks missing         # estimators taking NaN, 10% missing
    python -m benchmarks.spot_checks multi-output    # regressors on three targets at once
    python -m benchmarks.spot_checks many-classes    # classifiers on 20 classes
    python -m benchmarks.spot_checks wide            # more features than rows
    python -m benchmarks.spot_checks methods         # each method of a fitted model alone
    python -m benchmarks.spot_checks sparse          # estimators taking CSR X, 10% stored
    python -m benchmarks.spot_checks pandas          # X a DataFrame with named columns
    python -m benchmarks.spot_checks radius-range    # radius predict, 15 rows to every row
    python -m benchmarks.spot_checks radius-listing  # radius_neighbors lists, 15 rows to 35%
    python -m benchmarks.spot_checks least-squares-sparse  # LeastSquaresClassifier on CSR
    python -m benchmarks.spot_checks lsqr-sparse     # Ridge(lsqr), LinearRegression on CSR
    python -m benchmarks.spot_checks cd-range        # Lasso / ElasticNet: sizes, alpha, CSR
    python -m benchmarks.spot_checks kmeans-range    # KMeans: sizes, density, algorithm, data
    python -m benchmarks.spot_checks perceptron-range  # Perceptron: dense / CSR, penalties
    python -m benchmarks.spot_checks linear-svc-range  # LinearSVC: solvers, losses, CSR
    python -m benchmarks.spot_checks params          # parameter values beyond the grid's axes
    python -m benchmarks.spot_checks params-small    # the same on 1,000 rows
    python -m benchmarks.spot_checks params-tiny     # the same on 200 rows
    python -m benchmarks.spot_checks params-mid      # 5,000 rows (kernel methods 2,000)
    python -m benchmarks.spot_checks tied            # X of integer codes with many ties
    python -m benchmarks.spot_checks unscaled        # X's columns on scales 1e-3 to 1e4
    python -m benchmarks.spot_checks narrow          # X's first two columns only
    python -m benchmarks.spot_checks offset          # X shifted by 1e4
    python -m benchmarks.spot_checks duplicated      # each training row ten times
    python -m benchmarks.spot_checks imbalanced      # classifiers: one class 5% of rows
"""

import argparse
import inspect
import time
import warnings

import numpy as np
import scipy.sparse as sp
from sklearn import cluster as sk_cluster
from sklearn import decomposition as sk_decomposition
from sklearn import ensemble as sk_ensemble
from sklearn import linear_model as sk_linear
from sklearn import neighbors as sk_neighbors
from sklearn import svm as sk_svm
from sklearn.datasets import (
    load_digits,
    load_iris,
    load_wine,
    make_blobs,
    make_classification,
    make_regression,
)
from threadpoolctl import threadpool_limits

from classiclearn import cluster, decomposition, ensemble, linear_model, neighbors, svm

# estimator names the sweeps over the grid's specs keep (``--only``; empty: all)
ONLY = []


def _kept(spec):
    return not ONLY or any(part.lower() in spec.name.lower() for part in ONLY)


def _median_time(call, args, repeats, pause):
    """Median time of ``call(*args)``, each call after ``pause`` seconds."""
    times = []
    for _ in range(repeats):
        time.sleep(pause)
        start = time.perf_counter()
        call(*args)
        times.append(time.perf_counter() - start)
    return float(np.median(times))


def _theirs(call, args, repeats, pause):
    """scikit-learn's time: the faster of default threading and BLAS on one thread."""
    best = _median_time(call, args, repeats, pause)
    with threadpool_limits(1):
        return min(best, _median_time(call, args, repeats, pause))


def _fit_predict(model, X, y, Q):
    return model.fit(X, y).predict(Q)


def _fit_predict_weighted(model, X, y, sample_weight):
    return model.fit(X, y, sample_weight).predict(X)


def _fit_new(cls, X, y):
    return cls().fit(X, y)


def _line(label, ours, theirs, unit="ms", scores=None):
    scale = 1e3 if unit == "ms" else 1.0
    text = (f"{label:60s} ours {ours * scale:9.2f} {unit}  scikit-learn {theirs * scale:9.2f} "
            f"{unit}  ratio {ours / theirs:.2f}")
    if scores is not None:
        text += f"  scores {scores[0]:.4f} / {scores[1]:.4f}"
    print(text, flush=True)


def check_svc():
    """SVC fits on the bundled sets and on 2-10 classes, with and without probability."""
    cases = [("iris", *load_iris(return_X_y=True)), ("wine", *load_wine(return_X_y=True)),
             ("digits", *load_digits(return_X_y=True))]
    for n, p, k in [(500, 10, 3), (2000, 20, 5), (5000, 20, 10), (3000, 10, 2)]:
        X, y = make_classification(n, p, n_informative=min(p, 8), n_classes=k, random_state=0)
        cases.append((f"{n}x{p} {k} classes", X, y))
    for name, X, y in cases:
        for kernel in ("rbf", "linear"):
            for probability in (False, True):
                if probability and X.shape[0] > 2000:
                    continue
                params = {"kernel": kernel, "probability": probability, "random_state": 0}
                ours_model = svm.SVC(**params).fit(X, y)
                theirs_model = sk_svm.SVC(**params).fit(X, y)
                ours = _median_time(ours_model.fit, (X, y), 7, 0.05)
                theirs = _theirs(theirs_model.fit, (X, y), 7, 0.05)
                _line(f"SVC {name} {kernel} probability={probability}", ours, theirs)


def check_forest_predict():
    """Forest prediction over query counts, widths, tree counts and n_jobs."""
    n = 20_000
    for kind in ("classifier", "regressor"):
        for p in (10, 100):
            if kind == "classifier":
                X, y = make_classification(n + 100_000, p, n_informative=min(p - 2, 20),
                                           n_redundant=0, random_state=0)
                name = "RandomForestClassifier"
            else:
                X, y = make_regression(n + 100_000, p, n_informative=min(p - 2, 20), noise=5,
                                       random_state=0)
                name = "RandomForestRegressor"
            for trees in (10, 100):
                params = {"n_estimators": trees, "random_state": 0, "max_features": "sqrt"}
                ours_model = getattr(ensemble, name)(**params).fit(X[:n], y[:n])
                theirs_model = getattr(sk_ensemble, name)(**params).fit(X[:n], y[:n])
                for queries in (1000, 5000, 20_000, 100_000):
                    Q = X[n:n + queries]
                    for n_jobs in (-1, 1):
                        ours_model.set_params(n_jobs=n_jobs).predict(Q)
                        theirs_model.set_params(n_jobs=n_jobs).predict(Q)
                        ours = _median_time(ours_model.predict, (Q,), 5, 0.1)
                        theirs = _median_time(theirs_model.predict, (Q,), 5, 0.1)
                        _line(f"{name} {p} features {trees} trees {queries} queries "
                              f"n_jobs={n_jobs}", ours, theirs)


def _forest_cells(n, n_features, n_informative, n_estimators):
    Xc, yc = make_classification(n + n // 4, n_features, n_informative=n_informative,
                                 random_state=0)
    Xr, yr = make_regression(n + n // 4, n_features, n_informative=n_informative, noise=5,
                             random_state=0)
    cells = [("RandomForestClassifier", {}, Xc, yc),
             ("RandomForestClassifier", {"max_bins": 255}, Xc, yc),
             ("RandomForestRegressor", {}, Xr, yr),
             ("RandomForestRegressor", {"max_bins": 255}, Xr, yr),
             ("ExtraTreesClassifier", {}, Xc, yc), ("ExtraTreesRegressor", {}, Xr, yr)]
    for name, extra, X, y in cells:
        Xtr, ytr, Xte, yte = X[:n], y[:n], X[n:], y[n:]
        result = {}
        for side, module, params in (("ours", ensemble, extra), ("theirs", sk_ensemble, {})):
            make = getattr(module, name)
            # a warm-up loads (or compiles) the kernels before anything is timed
            make(n_estimators=3, n_jobs=-1, random_state=0, **params).fit(
                Xtr[:3000], ytr[:3000]).score(Xte[:500], yte[:500])
            model = make(n_estimators=n_estimators, n_jobs=-1, random_state=0, **params)
            time.sleep(0.2)
            start = time.perf_counter()
            model.fit(Xtr, ytr)
            fit = time.perf_counter() - start
            time.sleep(0.2)
            start = time.perf_counter()
            score = model.score(Xte, yte)
            result[side] = (fit, time.perf_counter() - start, score)
        ours, theirs = result["ours"], result["theirs"]
        label = f"{name} {extra or ''} {n}x{n_features} {n_estimators} trees"
        _line(f"{label} fit", ours[0], theirs[0], "s", (ours[2], theirs[2]))
        _line(f"{label} predict", ours[1], theirs[1], "s")


def check_forest_200k():
    """Forests with 100 trees at 200,000 x 10, n_jobs=-1: one fit and one prediction."""
    _forest_cells(200_000, 10, 6, 100)


def check_forest_50kx100():
    """Forests with 20 trees at 50,000 x 100, n_jobs=-1."""
    _forest_cells(50_000, 100, 20, 20)


def check_neighbors_200k():
    """k-NN and radius neighbours fitted on 200,000 rows, 10,000 queries."""
    n, queries = 200_000, 10_000
    for p, radius in ((10, 1.5), (3, 0.2468)):
        X, y = make_classification(n + queries, p, n_informative=min(p, 6), n_redundant=0,
                                   random_state=0)
        Xtr, ytr, Xte, yte = X[:n], y[:n], X[n:], y[n:]
        cells = [("KNeighborsClassifier", {"algorithm": a, "n_jobs": j})
                 for a in ("kd_tree", "ball_tree", "brute") for j in (1, -1)]
        cells += [("RadiusNeighborsClassifier", {"algorithm": a, "radius": radius,
                                                 "outlier_label": "most_frequent"})
                  for a in ("kd_tree", "ball_tree")]
        for name, params in cells:
            ours_model = getattr(neighbors, name)(**params).fit(Xtr, ytr)
            theirs_model = getattr(sk_neighbors, name)(**params).fit(Xtr, ytr)
            ours_model.predict(Xte[:50])
            theirs_model.predict(Xte[:50])
            ours = _median_time(ours_model.predict, (Xte,), 3, 0.2)
            theirs = _theirs(theirs_model.predict, (Xte,), 3, 0.2)
            scores = (float(np.mean(ours_model.predict(Xte) == yte)),
                      float(np.mean(theirs_model.predict(Xte) == yte)))
            _line(f"{name} {params} {p} features predict", ours, theirs, "s", scores)


def check_knn_default():
    """Brute-force k-NN fit + predict with default parameters (n_jobs=None)."""
    for n, p in ((1000, 10), (5000, 10), (5000, 100), (20_000, 20), (50_000, 20)):
        X, y = make_classification(n + n // 4, p, n_informative=6, random_state=0)
        Xtr, ytr, Xte = X[:n], y[:n], X[n:]
        for metric in ("euclidean", "manhattan"):
            params = {"algorithm": "brute", "metric": metric}
            ours_model = neighbors.KNeighborsClassifier(**params).fit(Xtr, ytr)
            theirs_model = sk_neighbors.KNeighborsClassifier(**params).fit(Xtr, ytr)
            args = (Xtr, ytr, Xte)
            ours = _median_time(_fit_predict, (ours_model, *args), 5, 0.15)
            theirs = _median_time(_fit_predict, (theirs_model, *args), 5, 0.15)
            _line(f"KNeighborsClassifier brute {metric} {n}x{p} fit + predict", ours, theirs)


def check_collinear_ols():
    """LinearRegression on a design with one collinear column (the minimum-norm QR)."""
    rng = np.random.default_rng(0)
    for n, p in ((1000, 10), (5000, 10), (50_000, 10), (200_000, 10), (50_000, 50),
                 (20_000, 200), (5000, 200)):
        X = rng.normal(size=(n, p))
        X[:, -1] = X[:, 0] + X[:, 1]
        y = X @ rng.normal(size=p) + rng.normal(size=n)
        for dtype in (np.float64, np.float32):
            Xd, yd = X.astype(dtype), y.astype(dtype)
            ours = _median_time(_fit_new, (linear_model.LinearRegression, Xd, yd), 5, 0.05)
            theirs = _theirs(_fit_new, (sk_linear.LinearRegression, Xd, yd), 5, 0.05)
            _line(f"LinearRegression collinear {n}x{p} {np.dtype(dtype).name}", ours, theirs)


def _fit_method(make, method, data):
    X_train, y_train, X_test, _ = data
    getattr(make().fit(X_train, y_train), method)(X_test)


_KERNEL_METHODS = ("KernelPCA", "KernelRidge")
_NOT_SWEPT = ("multiclass", "model_selection", "pipeline")


def _default_cells(n_rows, quadratic_rows=None, quadratic=_KERNEL_METHODS, skip=_NOT_SWEPT):
    """``(spec, family, cell, registry)`` of every estimator of the grid kept by ``--only``
    at default parameters on ``n_rows`` training rows (``quadratic_rows`` for the
    estimators named in ``quadratic``), families in ``skip`` left out."""
    from benchmarks.grid import Registry
    from benchmarks.grid_specs import SPECS
    from benchmarks.overhead import default_cell

    registry = Registry()
    for spec in SPECS:
        family = registry.family(spec.name)
        if not _kept(spec) or family in skip:
            continue
        rows = quadratic_rows if quadratic_rows and spec.name in quadratic else n_rows
        yield spec, family, default_cell(spec, family, rows), registry


def _compare(label, call, ours_args, theirs_args):
    """One line: ``call`` on our arguments and on scikit-learn's, each run once first."""
    call(*ours_args)
    call(*theirs_args)
    ours = _median_time(call, ours_args, 3, 0.1)
    theirs = _theirs(call, theirs_args, 3, 0.1)
    _line(label, ours, theirs)


def check_float32(n_rows=20_000, quadratic_rows=3000):
    """Each estimator of the grid at default parameters on float32 X (20,000 rows; the
    kernel methods 3,000): fit + first method, medians of 3 after a 0.1 s pause."""
    for spec, _, cell, registry in _default_cells(n_rows, quadratic_rows):
        case = cell.case(registry)
        X_train, y_train, X_test, y_test = case.data(False)
        if getattr(X_train, "dtype", None) != np.float64:
            continue
        data = (X_train.astype(np.float32), y_train, X_test.astype(np.float32), y_test)
        method = case.methods[0]
        _compare(f"{spec.name} {X_train.shape} float32 fit + {method}", _fit_method,
                 (case.ours, method, data), (case.theirs, method, data))


def _tied(X):
    """X with each column rounded to one of about eight levels (integer codes, ties)."""
    return np.round(X * 2.0 / max(float(np.std(X)), 1e-12))


def _unscaled(X):
    """X with column j multiplied by 10 ** (-3 + 7 j / (p - 1)): scales 1e-3 to 1e4."""
    return X * np.logspace(-3.0, 4.0, X.shape[1])


def _narrow(X):
    """X's first two columns (low-dimensional data: k-d trees, trees, kernels)."""
    return np.ascontiguousarray(X[:, :2])


def _offset(X):
    """X shifted by 1e4 (columns of a large mean against their spread: the centring's
    rounding)."""
    return X + 1e4


_VALUE_TRANSFORMS = {"tied": _tied, "unscaled": _unscaled, "narrow": _narrow,
                     "offset": _offset}


def _each_row_ten_times(data):
    """The training rows' first tenth, each row repeated ten times (test rows kept)."""
    X_train, y_train, X_test, y_test = data
    m = X_train.shape[0] // 10
    y_rows = None if y_train is None else np.repeat(np.asarray(y_train)[:m], 10, axis=0)
    return np.repeat(X_train[:m], 10, axis=0), y_rows, X_test, y_test


def _one_class_in_twenty(data):
    """Labelled data cut to two classes, the second kept on one row in twenty of its own:
    a class about 5% of the rows (train and test alike)."""
    X_train, y_train, X_test, y_test = data
    out = []
    for X, y in ((X_train, y_train), (X_test, y_test)):
        y = np.asarray(y)
        first, second = np.unique(y)[:2]
        rare = np.flatnonzero(y == second)[::20]
        keep = np.sort(np.concatenate([np.flatnonzero(y == first), rare]))
        out += [X[keep], y[keep]]
    return tuple(out)


def check_values(kind, n_rows=20_000, quadratic_rows=3000):
    """Each estimator of the grid at default parameters on X whose values are ``kind``
    (``tied``: integer codes with many ties; ``unscaled``: columns on scales from 1e-3
    to 1e4; ``narrow``: the first two columns; ``offset``: shifted by 1e4), train and
    test alike, or (``duplicated``) the first tenth of the training rows each ten times,
    or (``imbalanced``, the classifiers) two classes, one about 5% of the rows (20,000 rows; the kernel methods 3,000): fit + first
    method, medians of 3 after a 0.1 s pause, and both scores."""
    for spec, _, cell, registry in _default_cells(n_rows, quadratic_rows):
        case = cell.case(registry)
        X_train, y_train, X_test, y_test = case.data(False)
        if getattr(X_train, "dtype", None) != np.float64 or X_train.ndim != 2:
            continue
        if kind == "duplicated":
            data = _each_row_ten_times((X_train, y_train, X_test, y_test))
        elif kind == "imbalanced":
            from benchmarks.grid import LABELLED

            if spec.data not in LABELLED:
                continue
            data = _one_class_in_twenty((X_train, y_train, X_test, y_test))
        else:
            transform = _VALUE_TRANSFORMS[kind]
            data = (transform(X_train), y_train, transform(X_test), y_test)
        method = case.methods[0]
        label = f"{spec.name} {X_train.shape} {kind} fit + {method}"
        try:
            theirs_model = case.theirs().fit(data[0], data[1])
        except (TypeError, ValueError) as exc:
            print(f"{label}: scikit-learn rejects ({exc})", flush=True)
            continue
        ours_model = case.ours().fit(data[0], data[1])
        scores = (_score(case, ours_model, data), _score(case, theirs_model, data))
        _fit_method(case.ours, method, data)
        ours = _median_time(_fit_method, (case.ours, method, data), 3, 0.1)
        theirs = _theirs(_fit_method, (case.theirs, method, data), 3, 0.1)
        _line(label, ours, theirs, scores=scores)


def _fit_weighted(make, method, data, weights):
    X_train, y_train, X_test, _ = data
    getattr(make().fit(X_train, y_train, sample_weight=weights), method)(X_test)


def _takes_weights(make):
    return "sample_weight" in inspect.signature(make().fit).parameters


def check_sample_weight(n_rows=20_000, quadratic_rows=3000):
    """Each estimator of the grid whose ``fit`` takes ``sample_weight`` (on both sides),
    at default parameters, fitted with weights drawn from U(0.5, 2) (20,000 rows; the
    kernel methods 3,000): fit + first method, medians of 3 after a 0.1 s pause."""
    for spec, _, cell, registry in _default_cells(n_rows, quadratic_rows):
        case = cell.case(registry)
        if not (_takes_weights(case.ours) and _takes_weights(case.theirs)):
            continue
        data = case.data(False)
        weights = np.random.default_rng(0).uniform(0.5, 2.0, data[0].shape[0])
        method = case.methods[0]
        _compare(f"{spec.name} {data[0].shape} weighted fit + {method}", _fit_weighted,
                 (case.ours, method, data, weights), (case.theirs, method, data, weights))


def _accepts_missing(make, data):
    """Whether ``make()`` fits and runs on the data with NaN (scikit-learn's side decides
    which estimators are compared: those of its own that take missing values)."""
    try:
        _fit_method(make, "predict" if hasattr(make(), "predict") else "transform", data)
    except ValueError:
        return False
    return True


def check_missing(n_rows=20_000, fraction=0.1):
    """Each estimator of the grid that takes NaN in X on both sides, at default
    parameters, with ``fraction`` of X's entries missing at random (train and test):
    fit + first method, medians of 3 after a 0.1 s pause."""
    rng = np.random.default_rng(0)
    for spec, _, cell, registry in _default_cells(n_rows):
        if spec.name == "KernelPCA":
            continue
        case = cell.case(registry)
        X_train, y_train, X_test, y_test = case.data(False)
        if getattr(X_train, "dtype", None) != np.float64:
            continue
        X_train, X_test = X_train.copy(), X_test.copy()
        X_train[rng.random(X_train.shape) < fraction] = np.nan
        X_test[rng.random(X_test.shape) < fraction] = np.nan
        data = (X_train, y_train, X_test, y_test)
        if not (_accepts_missing(case.theirs, data) and _accepts_missing(case.ours, data)):
            continue
        method = case.methods[0]
        _compare(f"{spec.name} {X_train.shape} {fraction:.0%} missing fit + {method}",
                 _fit_method, (case.ours, method, data), (case.theirs, method, data))


def check_multi_output(n_rows=20_000, quadratic_rows=3000, n_targets=3):
    """Each regressor of the grid that fits a 2-D y on both sides, at default parameters,
    on ``n_targets`` targets (the grid's target and noisy linear maps of it): fit +
    predict, medians of 3 after a 0.1 s pause."""
    rng = np.random.default_rng(0)
    cells = _default_cells(n_rows, quadratic_rows, quadratic=(*_KERNEL_METHODS, "SVR"))
    for spec, _, cell, registry in cells:
        case = cell.case(registry)
        X_train, y_train, X_test, y_test = case.data(False)
        if (y_train is None or np.asarray(y_train).dtype.kind != "f"
                or not hasattr(case.ours(), "predict")):
            continue
        spread = np.std(y_train)
        Y = np.column_stack([y_train] + [
            y_train * rng.uniform(0.5, 2.0) + rng.normal(scale=spread, size=y_train.shape)
            for _ in range(n_targets - 1)])
        data = (X_train, Y, X_test, y_test)
        try:
            _fit_method(case.theirs, "predict", data)
            _fit_method(case.ours, "predict", data)
        except ValueError:
            continue
        _compare(f"{spec.name} {X_train.shape} {n_targets} targets fit + predict",
                 _fit_method, (case.ours, "predict", data), (case.theirs, "predict", data))


def check_many_classes(n_rows=20_000, quadratic_rows=3000, n_classes=20):
    """Each classifier of the grid (labelled data) at default parameters on ``n_classes``
    classes (the grid tops out at 5, 8 for the multi-class wrappers): fit + first
    method, medians of 3 after a 0.1 s pause."""
    import dataclasses

    from benchmarks.grid import LABELLED

    cells = _default_cells(n_rows, quadratic_rows, quadratic=("SVC", "KernelRidge"),
                           skip=("model_selection",))
    for spec, _, cell, registry in cells:
        if spec.data not in LABELLED or len(spec.classes) < 2:
            continue
        case = dataclasses.replace(cell, classes=n_classes).case(registry)
        data = case.data(False)
        method = case.methods[0]
        _compare(f"{spec.name} {data[0].shape} {n_classes} classes fit + {method}",
                 _fit_method, (case.ours, method, data), (case.theirs, method, data))


def cases_on_shape(n_rows, n_features, warm_theirs=True):
    """``(spec, case, data, method)`` for each estimator of the grid kept by ``--only``
    at default parameters on ``n_rows`` x ``n_features`` dense X, after one fit + first
    method of ours (and of scikit-learn's) to compile and warm; an estimator that
    refuses the shape (e.g. more components than rows) is reported and left out."""
    import dataclasses

    for spec, _, cell, registry in _default_cells(n_rows, skip=("model_selection",)):
        case = dataclasses.replace(cell, n_features=n_features).case(registry)
        data = case.data(False)
        method = case.methods[0]
        try:
            for make in (case.ours, case.theirs) if warm_theirs else (case.ours,):
                _fit_method(make, method, data)
        except ValueError as exc:
            print(f"{spec.name} {n_rows}x{n_features}: skipped ({exc})", flush=True)
            continue
        yield spec, case, data, method


def check_wide(n_rows=1000, n_features=2000):
    """Each estimator of the grid at default parameters on more features than rows
    (``n_rows`` x ``n_features``, dense): fit + first method, medians of 3 after a
    0.1 s pause."""
    for spec, case, data, method in cases_on_shape(n_rows, n_features):
        _compare(f"{spec.name} {data[0].shape} fit + {method}", _fit_method,
                 (case.ours, method, data), (case.theirs, method, data))


def check_back_to_back(n_rows=500, n_features=1000):
    """Our fit and first method apart (a 0.1 s pause between them) against the two back
    to back, as cross-validation calls them, for each estimator of the grid at default
    parameters on ``n_rows`` x ``n_features`` dense X: a BLAS pool whose threads still
    spin after the fit (numpy's and scipy's OpenBLAS are two pools) slows a product in
    the other pool several times. Lines where back to back is over 1.5 times the sum
    (and 2 ms more) are marked ``<<<``; the ratio to scikit-learn's back-to-back time
    follows."""
    for spec, case, data, method in cases_on_shape(n_rows, n_features):
        fits, methods, joined = [], [], []
        for _ in range(5):
            model = case.ours()
            time.sleep(0.1)
            start = time.perf_counter()
            model.fit(data[0], data[1])
            fits.append(time.perf_counter() - start)
            time.sleep(0.1)
            start = time.perf_counter()
            getattr(model, method)(data[2])
            methods.append(time.perf_counter() - start)
            time.sleep(0.1)
            start = time.perf_counter()
            _fit_method(case.ours, method, data)
            joined.append(time.perf_counter() - start)
        apart = float(np.median(fits) + np.median(methods))
        together = float(np.median(joined))
        theirs = _theirs(_fit_method, (case.theirs, method, data), 3, 0.1)
        mark = "  <<<" if together > 1.5 * apart and together - apart > 2e-3 else ""
        print(f"{spec.name:32s} fit {np.median(fits) * 1e3:8.2f} ms  {method} "
              f"{np.median(methods) * 1e3:8.2f} ms  back to back {together * 1e3:8.2f} ms  "
              f"ratio to scikit-learn {together / theirs:.2f}{mark}", flush=True)


# methods a fitted model answers on new rows, timed alone (``score`` takes y too)
_METHODS = ("predict", "predict_proba", "predict_log_proba", "decision_function",
            "transform", "score_samples", "score", "kneighbors", "apply", "decision_path")


def _call_method(model, method, X, y):
    if method == "score":
        return model.score(X, y) if y is not None else model.score(X)
    return getattr(model, method)(X)


def check_methods(n_rows=20_000, quadratic_rows=3000):
    """Each method of each estimator of the grid at default parameters, on a model
    fitted once per side (20,000 rows; the kernel methods 3,000): the method alone on
    the test rows, medians of 3 after a 0.1 s pause."""
    for spec, _, cell, registry in _default_cells(n_rows, quadratic_rows,
                                                  skip=("model_selection",)):
        case = cell.case(registry)
        X_train, y_train, X_test, y_test = case.data(False)
        try:
            ours_model = case.ours().fit(X_train, y_train)
            theirs_model = case.theirs().fit(X_train, y_train)
        except ValueError as exc:
            print(f"{spec.name}: skipped ({exc})", flush=True)
            continue
        for method in _METHODS:
            if not (hasattr(ours_model, method) and hasattr(theirs_model, method)):
                continue
            try:
                _call_method(theirs_model, method, X_test, y_test)
            except (ValueError, TypeError, AttributeError):
                continue
            _compare(f"{spec.name} {X_train.shape} {method}", _call_method,
                     (ours_model, method, X_test, y_test),
                     (theirs_model, method, X_test, y_test))


def _sparse_accepted(make, method, data):
    """Whether ``make()`` fits and runs ``method`` on the sparse data."""
    try:
        _fit_method(make, method, data)
    except (TypeError, ValueError):
        return False
    return True


def check_sparse(n_rows=20_000, n_features=200, density=0.1, quadratic_rows=3000):
    """Each estimator of the grid that takes scipy CSR X on both sides, at default
    parameters, on the grid's data with all but ``density`` of X's entries set to zero
    (20,000 x 200; the kernel methods and SVMs 3,000 rows): fit + first method,
    medians of 3 after a 0.1 s pause."""
    import dataclasses

    cells = _default_cells(n_rows, quadratic_rows, quadratic=(*_KERNEL_METHODS, "SVC", "SVR"),
                           skip=("model_selection",))
    for spec, _, cell, registry in cells:
        case = dataclasses.replace(cell, n_features=n_features).case(registry)
        data = _sparsified(case.data(False), density)
        if data is None:
            continue
        X_train = data[0]
        method = case.methods[0]
        if not (_sparse_accepted(case.theirs, method, data)
                and _sparse_accepted(case.ours, method, data)):
            continue
        _compare(f"{spec.name} {X_train.shape} CSR {density:.0%} fit + {method}",
                 _fit_method, (case.ours, method, data), (case.theirs, method, data))


def check_pandas(n_rows=20_000, quadratic_rows=3000):
    """Each estimator of the grid at default parameters on X as a pandas DataFrame with
    string column names (y as a Series where it is a vector), as scikit-learn code
    often passes it: fit + first method, medians of 3 after a 0.1 s pause."""
    import pandas as pd

    for spec, _, cell, registry in _default_cells(n_rows, quadratic_rows,
                                                  skip=("model_selection",)):
        case = cell.case(registry)
        X_train, y_train, X_test, y_test = case.data(False)
        if not isinstance(X_train, np.ndarray) or X_train.ndim != 2:
            continue
        columns = [f"x{j}" for j in range(X_train.shape[1])]
        y_frame = pd.Series(y_train) if y_train is not None and np.ndim(y_train) == 1 \
            else y_train
        data = (pd.DataFrame(X_train, columns=columns), y_frame,
                pd.DataFrame(X_test, columns=columns), y_test)
        method = case.methods[0]
        try:
            _fit_method(case.theirs, method, data)
            _fit_method(case.ours, method, data)
        except (TypeError, ValueError) as exc:
            print(f"{spec.name}: skipped ({exc})", flush=True)
            continue
        _compare(f"{spec.name} {X_train.shape} DataFrame fit + {method}", _fit_method,
                 (case.ours, method, data), (case.theirs, method, data))


def check_radius_range():
    """Radius classifier and regressor predict with radii holding about 15 training rows,
    1%, 20% and every row, brute force and the k-d tree, both weightings (1,000 x 5 to
    50,000 x 10; the tree's slow wide cells at 50,000 rows left out)."""
    rng = np.random.default_rng(0)
    for n, d in ((1000, 5), (5000, 10), (50_000, 10)):
        X = rng.normal(size=(n, d))
        y = (X[:, 0] > 0).astype(int)
        Q = rng.normal(size=(min(n, 5000) // 2, d))
        D = np.sqrt(((Q[:100, None] - X[None]) ** 2).sum(-1))
        for share in (15 / n, 0.01, 0.2, 1.0):
            radius = float(np.quantile(D, share)) if share < 1 else 1e3
            for algorithm in ("brute", "kd_tree"):
                if n == 50_000 and share >= 0.2 and algorithm == "kd_tree":
                    continue
                for weights in ("uniform", "distance"):
                    for name, target in (("RadiusNeighborsClassifier", y),
                                         ("RadiusNeighborsRegressor", y * 1.0)):
                        params = dict(radius=radius, algorithm=algorithm, weights=weights)
                        if name == "RadiusNeighborsClassifier":
                            params["outlier_label"] = "most_frequent"
                        ours_model = getattr(neighbors, name)(**params).fit(X, target)
                        theirs_model = getattr(sk_neighbors, name)(**params).fit(X, target)
                        ours_model.predict(Q)
                        theirs_model.predict(Q)
                        ours = _median_time(ours_model.predict, (Q,), 3, 0.1)
                        theirs = _theirs(theirs_model.predict, (Q,), 3, 0.1)
                        _line(f"{name} {n}x{d} {share:.3g} of rows {algorithm} {weights}",
                              ours, theirs)


def check_radius_listing():
    """``NearestNeighbors.radius_neighbors`` (the lists of neighbours and distances),
    brute force, with radii holding about 15 training rows, 0.5%, 2%, 8% and 35% of them
    (2,000 x 20 to 50,000 x 5; 2,000-5,000 queries); both sides list the same pairs."""
    rng = np.random.default_rng(0)
    for n, d, m in ((2000, 20, 2000), (5000, 20, 2000), (20_000, 10, 5000), (50_000, 5, 5000)):
        X = rng.normal(size=(n, d))
        Q = rng.normal(size=(m, d))
        D = np.sqrt(((Q[:100, None] - X[None]) ** 2).sum(-1))
        for share in (15 / n, 0.005, 0.02, 0.08, 0.35):
            radius = float(np.quantile(D, share))
            ours_model = neighbors.NearestNeighbors(radius=radius, algorithm="brute").fit(X)
            theirs_model = sk_neighbors.NearestNeighbors(radius=radius, algorithm="brute",
                                                         n_jobs=-1).fit(X)
            pairs = sum(len(row) for row in ours_model.radius_neighbors(Q)[1])
            if pairs != sum(len(row) for row in theirs_model.radius_neighbors(Q)[1]):
                print(f"{n}x{d} radius {radius:.3g}: THE PAIRS DIFFER", flush=True)
            ours = _median_time(ours_model.radius_neighbors, (Q,), 5, 0.1)
            theirs = _theirs(theirs_model.radius_neighbors, (Q,), 5, 0.1)
            _line(f"radius_neighbors {n}x{d} {m} queries {share:.3g} of rows", ours, theirs)


def check_least_squares_sparse():
    """LeastSquaresClassifier against RidgeClassifier (same alpha) on CSR X, 500-200,000
    rows, 50-5,000 columns, 1-10% stored, alpha 0 and 1: fit + predict."""
    rng = np.random.default_rng(0)
    shapes = ((500, 50, 0.1), (5000, 200, 0.1), (20_000, 200, 0.1), (50_000, 200, 0.02),
              (50_000, 1000, 0.01), (5000, 2000, 0.01), (2000, 5000, 0.01),
              (2000, 20_000, 0.002), (200_000, 100, 0.05))
    for n, p, density in shapes:
        X = sp.random(n, p, density=density, format="csr", random_state=1,
                      data_rvs=rng.standard_normal)
        w = rng.normal(size=p)
        y = (X @ w + 0.3 * rng.normal(size=n) > 0).astype(int) + (rng.random(n) < 0.2)
        for alpha in (0.0, 1.0):
            ours_model = linear_model.LeastSquaresClassifier(alpha=alpha)
            theirs_model = sk_linear.RidgeClassifier(alpha=alpha)
            scores = (float(np.mean(_fit_predict(ours_model, X, y, X) == y)),
                      float(np.mean(_fit_predict(theirs_model, X, y, X) == y)))
            _line(f"LeastSquaresClassifier {n}x{p} CSR {density:.0%} alpha={alpha}",
                  _median_time(_fit_predict, (ours_model, X, y, X), 3, 0.1),
                  _theirs(_fit_predict, (theirs_model, X, y, X), 3, 0.1), scores=scores)


def check_lsqr_sparse():
    """Ridge(solver="lsqr") (alpha 1 and 100) and LinearRegression (LSQR on sparse X)
    against scikit-learn on CSR X, 500 x 50 to 200,000 x 100 and 2,000 x 20,000, 0.2-10%
    stored: fit + predict, R^2 on the training rows."""
    rng = np.random.default_rng(0)
    shapes = ((500, 50, 0.1), (5000, 200, 0.1), (20_000, 200, 0.1), (50_000, 1000, 0.01),
              (5000, 2000, 0.01), (2000, 5000, 0.01), (2000, 20_000, 0.002),
              (200_000, 100, 0.05))
    for n, p, density in shapes:
        X = sp.random(n, p, density=density, format="csr", random_state=1,
                      data_rvs=rng.standard_normal)
        y = X @ rng.normal(size=p) + 0.3 * rng.normal(size=n) + 2.0
        cells = [(f"Ridge lsqr alpha={alpha:g}", linear_model.Ridge(alpha=alpha, solver="lsqr"),
                  sk_linear.Ridge(alpha=alpha, solver="lsqr")) for alpha in (1.0, 100.0)]
        cells.append(("LinearRegression", linear_model.LinearRegression(),
                      sk_linear.LinearRegression()))
        for name, ours_model, theirs_model in cells:
            scores = tuple(float(1 - np.mean((_fit_predict(m, X, y, X) - y) ** 2) / np.var(y))
                           for m in (ours_model, theirs_model))
            _line(f"{name} {n}x{p} CSR {density:.1%}",
                  _median_time(_fit_predict, (ours_model, X, y, X), 3, 0.1),
                  _theirs(_fit_predict, (theirs_model, X, y, X), 3, 0.1), scores=scores)


def check_cd_range():
    """Lasso and ElasticNet (l1_ratio 0.5) fit + predict over alpha 0.01-10, dense X from
    1,000 x 100 to 200 x 20,000 (make_regression, a tenth of the features informative)
    and CSR X from 20,000 x 200 to 2,000 x 20,000 (0.2-10% stored, fit_intercept on and
    off); medians of 3 after a 0.1 s pause, R^2 on the training rows."""
    rng = np.random.default_rng(0)
    dense = ((1000, 100), (20_000, 200), (2000, 2000), (500, 5000), (200, 20_000))
    sparse = ((20_000, 200, 0.1), (100_000, 1000, 0.01), (20_000, 5000, 0.005),
              (2000, 20_000, 0.002))
    cells = []
    for n, p in dense:
        X, y = make_regression(n_samples=n, n_features=p, n_informative=max(5, p // 10),
                               noise=10.0, random_state=0)
        cells.append((f"{n}x{p} dense", X, y, (True,)))
    for n, p, density in sparse:
        X = sp.random(n, p, density=density, format="csr", random_state=1,
                      data_rvs=rng.standard_normal)
        coef = np.where(rng.random(p) < 0.1, rng.normal(size=p) * 3, 0.0)
        cells.append((f"{n}x{p} CSR {density:.1%}", X, X @ coef + rng.normal(size=n),
                      (True, False)))
    for label, X, y, intercepts in cells:
        for fit_intercept in intercepts:
            for alpha in (0.01, 0.1, 1.0, 10.0):
                for name, params in (("Lasso", {}), ("ElasticNet", {"l1_ratio": 0.5})):
                    params = {"alpha": alpha, "fit_intercept": fit_intercept, **params}
                    ours_model = getattr(linear_model, name)(**params)
                    theirs_model = getattr(sk_linear, name)(**params)
                    scores = tuple(
                        float(1 - np.mean((_fit_predict(m, X, y, X) - y) ** 2) / np.var(y))
                        for m in (ours_model, theirs_model))
                    _line(f"{name} {label} alpha={alpha:g} intercept={fit_intercept}",
                          _median_time(_fit_predict, (ours_model, X, y, X), 3, 0.1),
                          _theirs(_fit_predict, (theirs_model, X, y, X), 3, 0.1),
                          scores=scores)


def _fit_kmeans(cls, params, X):
    return cls(**params).fit(X)


def check_kmeans_range():
    """KMeans fit (8 clusters) from 1,000 x 100 to 200,000 x 10 dense and 2,000 x 50 to
    100,000 x 1,000 CSR (1-10% stored), lloyd and elkan, on overlapping clusters
    (make_classification: many passes, most rows near a boundary) and on separated ones
    (make_blobs); medians of 5 (3 above 20,000 rows) after a 0.1 s pause."""
    rng = np.random.default_rng(0)
    cells = [(1000, 100, 1.0), (2000, 20, 1.0), (5000, 50, 1.0), (20000, 20, 1.0),
             (50000, 10, 1.0), (200_000, 10, 1.0), (2000, 50, 0.1), (5000, 200, 0.1),
             (20000, 200, 0.1), (100_000, 1000, 0.01), (20000, 1000, 0.01)]
    for kind in ("classification", "blobs"):
        for n, p, density in cells:
            if kind == "blobs":
                X, _ = make_blobs(n_samples=n, n_features=p, centers=8, random_state=0)
            else:
                X, _ = make_classification(n_samples=n, n_features=p,
                                           n_informative=min(p - 2, 10), random_state=0)
            if density < 1.0:
                X = sp.csr_matrix(np.where(rng.random(X.shape) < density, X, 0.0))
            repeats = 5 if n <= 20000 else 3
            for algorithm in ("lloyd", "elkan"):
                params = dict(n_clusters=8, random_state=0, algorithm=algorithm)
                ours_model = cluster.KMeans(**params).fit(X)
                theirs_model = sk_cluster.KMeans(**params).fit(X)
                ours = _median_time(_fit_kmeans, (cluster.KMeans, params, X), repeats, 0.1)
                theirs = _theirs(_fit_kmeans, (sk_cluster.KMeans, params, X), repeats, 0.1)
                _line(f"KMeans {kind} {n}x{p} {density:.0%} {algorithm}", ours, theirs,
                      scores=(ours_model.inertia_, theirs_model.inertia_))


def _fit_transform_apart(model, X):
    return model.fit(X).transform(X)


def check_pca_range():
    """PCA fit then transform (two calls, as a pipeline makes them) from 1,000 x 30 to
    200,000 x 10, columns centred or offset by 100 (plus 10% noise in scale), all
    components, 2, and 10 by the randomized solver; medians of 5 (3 above 20,000 rows)
    after a 0.1 s pause; scores: the explained variance kept."""
    shapes = ((1000, 30), (500, 450), (2000, 200), (5000, 100), (20_000, 50), (50_000, 20),
              (200_000, 10))
    settings = (("all", {}), ("2", {"n_components": 2}),
                ("10 randomized", {"n_components": 10, "svd_solver": "randomized",
                                   "random_state": 0}))
    rng = np.random.default_rng(0)
    for n, p in shapes:
        X, _ = make_classification(n_samples=n, n_features=p, n_informative=min(p - 2, 10),
                                   random_state=0)
        for offset in (False, True):
            data = X + 100.0 * (1.0 + 0.1 * rng.random(p)) if offset else X
            repeats = 5 if n <= 20_000 else 3
            for label, params in settings:
                if params.get("n_components", 0) >= p:
                    continue
                ours_model = decomposition.PCA(**params)
                theirs_model = sk_decomposition.PCA(**params)
                scores = tuple(float(np.sum(m.fit(data).explained_variance_ratio_))
                               for m in (ours_model, theirs_model))
                _line(f"PCA {n}x{p} offset={offset} components={label}",
                      _median_time(_fit_transform_apart, (ours_model, data), repeats, 0.1),
                      _theirs(_fit_transform_apart, (theirs_model, data), repeats, 0.1),
                      scores=scores)


def check_perceptron_range():
    """Perceptron fit + predict, dense 1,000 x 20 to 200,000 x 10 and CSR 2,000 x 50 to
    100,000 x 1,000 (1-10% stored), 2-5 classes, no penalty, l2 and elasticnet;
    medians of 7 after a 0.05 s pause."""
    rng = np.random.default_rng(0)
    cells = [(1000, 20, 2, 1.0), (20000, 20, 2, 1.0), (20000, 200, 3, 1.0),
             (200_000, 10, 2, 1.0), (2000, 50, 2, 0.1), (20000, 200, 2, 0.1),
             (20000, 200, 5, 0.1), (100_000, 1000, 2, 0.01), (5000, 5000, 2, 0.01)]
    for n, p, n_classes, density in cells:
        X, y = make_classification(n, p, n_informative=min(p - 2, 8), n_classes=n_classes,
                                   random_state=0)
        if density < 1.0:
            X = sp.csr_matrix(np.where(rng.random(X.shape) < density, X, 0.0))
        for penalty in (None, "l2", "elasticnet"):
            ours_model = linear_model.Perceptron(penalty=penalty, random_state=0)
            theirs_model = sk_linear.Perceptron(penalty=penalty, random_state=0)
            scores = (ours_model.fit(X, y).score(X, y), theirs_model.fit(X, y).score(X, y))
            _line(f"Perceptron {n}x{p} {n_classes} classes {density:.0%} {penalty}",
                  _median_time(_fit_predict, (ours_model, X, y, X), 7, 0.05),
                  _theirs(_fit_predict, (theirs_model, X, y, X), 7, 0.05), scores=scores)


def check_positive_range():
    """LinearRegression(positive=True) fit + predict where the rows do not outnumber the
    features (Lawson-Hanson's NNLS on both sides): 50-2,000 rows, 1-10 times as many
    features, a tenth informative, with and without weights; the largest coefficient
    difference shown; medians of 7 after a 0.05 s pause."""
    rng = np.random.default_rng(0)
    cells = [(50, 50), (50, 500), (100, 100), (100, 1000), (200, 200), (200, 400),
             (300, 300), (300, 1500), (500, 500), (500, 1000), (500, 5000), (1000, 1000),
             (1000, 2000), (2000, 2000)]
    for n, p in cells:
        X, y = make_regression(n, p, n_informative=max(1, p // 10), noise=1.0,
                               random_state=0)
        for weighted in (False, True):
            sw = rng.uniform(0.5, 2.0, n) if weighted else None
            ours_model = linear_model.LinearRegression(positive=True)
            theirs_model = sk_linear.LinearRegression(positive=True)
            gap = np.abs(ours_model.fit(X, y, sw).coef_
                         - theirs_model.fit(X, y, sw).coef_).max()
            _line(f"LinearRegression positive {n}x{p} weights={weighted} "
                  f"(coef diff {gap:.0e})",
                  _median_time(_fit_predict_weighted, (ours_model, X, y, sw), 7, 0.05),
                  _theirs(_fit_predict_weighted, (theirs_model, X, y, sw), 7, 0.05))


def check_linear_svc_range():
    """LinearSVC fit + predict over its solvers: the default (primal Newton or dual by
    shape), dual=True, the hinge loss, the L1 penalty and crammer_singer, dense and CSR
    (1-20% stored), 2,000 to 100,000 rows; medians of 7 after a 0.05 s pause."""
    rng = np.random.default_rng(0)
    cells = [(20000, 200, 2, 0.01, {}), (5000, 50, 2, 0.2, {}), (50000, 1000, 2, 0.01, {}),
             (100_000, 100, 2, 0.05, {}), (2000, 5000, 2, 0.01, {}),
             (2000, 5000, 2, 0.01, {"dual": True}), (20000, 200, 2, 0.1, {"dual": True}),
             (20000, 200, 2, 0.1, {"loss": "hinge"}), (5000, 1000, 2, 0.05, {"loss": "hinge"}),
             (20000, 20, 2, 1.0, {"dual": True}), (5000, 500, 2, 1.0, {"dual": True}),
             (20000, 200, 2, 0.1, {"penalty": "l1", "dual": False}),
             (20000, 20, 2, 1.0, {"penalty": "l1", "dual": False}),
             (50000, 1000, 2, 0.01, {"penalty": "l1", "dual": False}),
             (5000, 50, 4, 1.0, {"multi_class": "crammer_singer"}),
             (5000, 200, 4, 0.05, {"multi_class": "crammer_singer"})]
    for n, p, n_classes, density, params in cells:
        X, y = make_classification(n, p, n_informative=min(p - 2, 10), n_classes=n_classes,
                                   random_state=0)
        if density < 1.0:
            X = sp.csr_matrix(np.where(rng.random(X.shape) < density, X, 0.0))
        ours_model = svm.LinearSVC(random_state=0, **params)
        theirs_model = sk_svm.LinearSVC(random_state=0, **params)
        scores = (ours_model.fit(X, y).score(X, y), theirs_model.fit(X, y).score(X, y))
        _line(f"LinearSVC {n}x{p} {n_classes} classes {density:.0%} {params}",
              _median_time(_fit_predict, (ours_model, X, y, X), 7, 0.05),
              _theirs(_fit_predict, (theirs_model, X, y, X), 7, 0.05), scores=scores)


def check_linear_svc_primal():
    """LinearSVC(dual=False) fit over C (0.001 to 10) on the shapes where its primal
    solver changes (exact Hessian, Newton-CG or trust region): standardised dense
    make_classification (n_informative p / 5) 200 x 180 to 20,000 x 300, and random CSR X
    (normal entries, labels of a noisy random linear model) 1,000 x 2,000 to 50,000 x
    100; medians of 5 after a 0.05 s pause, both ``n_iter_``."""
    rng = np.random.default_rng(0)
    cells = []
    for n, p in [(200, 180), (500, 200), (500, 450), (1000, 450), (2000, 450), (20000, 300)]:
        X, y = make_classification(n, p, n_informative=p // 5, random_state=0)
        cells.append((f"dense {n}x{p}", (X - X.mean(0)) / X.std(0), y))
    for n, p, density in [(5000, 1000, 0.05), (2000, 1000, 0.05), (1200, 1000, 0.05),
                          (1000, 2000, 0.05), (2000, 5000, 0.01), (3000, 300, 0.2),
                          (50000, 100, 0.05)]:
        X = sp.random(n, p, density=density, format="csr", random_state=0)
        X.data = rng.standard_normal(X.nnz)
        y = (X @ rng.standard_normal(p) + 0.5 * rng.standard_normal(n) > 0).astype(int)
        cells.append((f"CSR {n}x{p} {density:.0%}", X, y))
    for label, X, y in cells:
        for C in (0.001, 0.01, 0.1, 1.0, 10.0):
            ours = svm.LinearSVC(C=C, dual=False)
            theirs = sk_svm.LinearSVC(C=C, dual=False)
            iters = f"n_iter {ours.fit(X, y).n_iter_} / {theirs.fit(X, y).n_iter_}"
            _line(f"LinearSVC {label} C={C} fit ({iters})",
                  _median_time(ours.fit, (X, y), 5, 0.05), _theirs(theirs.fit, (X, y), 5, 0.05))


def check_liblinear_range():
    """LogisticRegression(solver="liblinear") with l2 (TRON) fit + predict: the bundled
    sets made binary, raw and standardised, dense 1,000-20,000 rows x 10-300, CSR
    2,000-100,000 rows at 0.2-30%, C 1 and 100; medians of 7 after a 0.05 s pause."""
    from sklearn.datasets import load_breast_cancer
    from sklearn.preprocessing import StandardScaler

    sets = []
    for load in (load_iris, load_wine, load_breast_cancer, load_digits):
        X, y = load(return_X_y=True)
        y = (y == y.max()).astype(int)
        sets += [(load.__name__[5:], X, y, {}),
                 (load.__name__[5:] + " standardised", StandardScaler().fit_transform(X), y, {})]
    for n, p in [(1000, 10), (5000, 50), (2000, 300), (20000, 100)]:
        X, y = make_classification(n, p, n_informative=p // 2, random_state=0)
        sets.append((f"{n}x{p}", X, y, {}))
    rng = np.random.default_rng(0)
    for n, p, density in [(2000, 1000, 0.01), (20000, 5000, 0.002), (20000, 200, 0.1),
                          (100_000, 1000, 0.005), (5000, 50, 0.3)]:
        X = sp.random(n, p, density=density, format="csr", random_state=0)
        y = (X @ rng.normal(size=p) + 0.3 * rng.normal(size=n) > 0).astype(int)
        for C in (1.0, 100.0):
            sets.append((f"CSR {n}x{p} {density:.1%}", X, y, {"C": C}))
    for name, X, y, params in sets:
        ours_model = linear_model.LogisticRegression(solver="liblinear", **params)
        theirs_model = sk_linear.LogisticRegression(solver="liblinear", **params)
        scores = (ours_model.fit(X, y).score(X, y), theirs_model.fit(X, y).score(X, y))
        steps = f"steps {ours_model.n_iter_[0]} / {theirs_model.n_iter_[0]}"
        _line(f"LogisticRegression liblinear {name} {params} {steps}",
              _median_time(_fit_predict, (ours_model, X, y, X), 7, 0.05),
              _theirs(_fit_predict, (theirs_model, X, y, X), 7, 0.05), scores=scores)


def check_entropy_range():
    """Exact trees and random forests with the entropy criterion, fit + predict, 300-20,000
    rows x 10-50, 2-5 classes; medians of 5 after a 0.05 s pause."""
    from sklearn import tree as sk_tree

    from classiclearn import tree

    for n, p, k in [(300, 10, 2), (1000, 10, 2), (1000, 10, 5), (3000, 20, 3),
                    (10000, 10, 2), (20000, 50, 2)]:
        X, y = make_classification(n, p, n_informative=min(p, 8), n_classes=k, random_state=0)
        pairs = [("DecisionTreeClassifier", tree.DecisionTreeClassifier,
                  sk_tree.DecisionTreeClassifier, {"criterion": "log_loss"})]
        if n in (1000, 20000):
            pairs.append(("RandomForestClassifier", ensemble.RandomForestClassifier,
                          sk_ensemble.RandomForestClassifier,
                          {"criterion": "entropy", "n_estimators": 50, "n_jobs": -1}))
        for name, ours_cls, theirs_cls, params in pairs:
            ours_model = ours_cls(random_state=0, **params)
            theirs_model = theirs_cls(random_state=0, **params)
            scores = (ours_model.fit(X, y).score(X, y), theirs_model.fit(X, y).score(X, y))
            _line(f"{name} {n}x{p} {k} classes {params}",
                  _median_time(_fit_predict, (ours_model, X, y, X), 5, 0.05),
                  _theirs(_fit_predict, (theirs_model, X, y, X), 5, 0.05), scores=scores)


def _score(case, model, data):
    _, _, X_test, y_test = data
    if case.score is not None:
        return float(case.score(model, X_test, y_test))
    return float(model.score(X_test, y_test))


def _sparsified(data, density, seed=0):
    """``data`` with X's train and test parts as CSR keeping ``density`` of the entries,
    or None where X is not a 2-d float64 array."""
    X_train, y_train, X_test, y_test = data
    if getattr(X_train, "dtype", None) != np.float64 or X_train.ndim != 2:
        return None
    rng = np.random.default_rng(seed)
    X_train, X_test = (sp.csr_matrix(np.where(rng.random(X.shape) < density, X, 0.0))
                       for X in (X_train, X_test))
    return X_train, y_train, X_test, y_test


def check_params(n_rows=20_000, quadratic_rows=3000, svm_rows=5000, density=None,
                 n_features=None):
    """Each estimator of the grid with the parameter values of
    ``benchmarks.param_values`` (one at a time over the defaults; 20,000 rows, the
    kernel methods 3,000, SVC / SVR 5,000): fit + first method, medians of 3 after a
    0.1 s pause, and both scores. A value our side rejects is printed as such.

    With ``n_features``, X has that many columns (else the grid cell's). With
    ``density``, X (``n_features`` columns, 200 if not given) goes in as CSR keeping
    that share of its entries; estimators or values scikit-learn refuses on sparse X
    are left out.
    """
    if density is not None and n_features is None:
        n_features = 200
    import dataclasses

    from benchmarks.param_values import PARAM_VALUES

    sizes = {"KernelPCA": quadratic_rows, "KernelRidge": quadratic_rows, "SVC": svm_rows,
             "SVR": svm_rows}
    for spec, _, cell, registry in _default_cells(n_rows, skip=_NOT_SWEPT):
        rows = sizes.get(spec.name, n_rows)
        for values in PARAM_VALUES.get(spec.name, []):
            varied = dataclasses.replace(cell, params={**cell.params, **values}, rows=rows,
                                         n_test=max(rows // 4, 25))
            if n_features is not None:
                varied = dataclasses.replace(varied, n_features=n_features)
            case = varied.case(registry)
            data = case.data(False)
            if density is not None and (data := _sparsified(data, density)) is None:
                break
            method = case.methods[0]
            kind = f" CSR {density:.0%}" if density is not None else ""
            label = f"{spec.name} {data[0].shape}{kind} {values} fit + {method}"
            try:
                theirs_model = case.theirs().fit(data[0], data[1])
            except (TypeError, ValueError, NotImplementedError) as exc:
                print(f"{label}: scikit-learn rejects ({exc})", flush=True)
                continue
            try:
                ours_model = case.ours().fit(data[0], data[1])
            except Exception as exc:  # noqa: BLE001 - a rejected value is the finding
                print(f"{label}: OURS FAILS ({type(exc).__name__}: {exc})", flush=True)
                continue
            scores = (_score(case, ours_model, data), _score(case, theirs_model, data))
            _fit_method(case.ours, method, data)
            ours = _median_time(_fit_method, (case.ours, method, data), 3, 0.1)
            theirs = _theirs(_fit_method, (case.theirs, method, data), 3, 0.1)
            _line(label, ours, theirs, scores=scores)


CHECKS = {"svc": check_svc, "forest-predict": check_forest_predict,
          "forest-200k": check_forest_200k, "forest-50kx100": check_forest_50kx100,
          "neighbors-200k": check_neighbors_200k, "knn-default": check_knn_default,
          "collinear-ols": check_collinear_ols, "float32": check_float32,
          "sample-weight": check_sample_weight, "missing": check_missing,
          "multi-output": check_multi_output, "many-classes": check_many_classes,
          "wide": check_wide, "methods": check_methods,
          # between as many and twice as many rows as features (n < 2p), where solvers
          # switch routes
          "square": lambda: check_wide(1000, 900),
          "square-small": lambda: check_wide(200, 150),
          "back-to-back": check_back_to_back,
          "back-to-back-tall": lambda: check_back_to_back(5000, 20),
          "sparse": check_sparse, "pandas": check_pandas,
          "radius-range": check_radius_range, "radius-listing": check_radius_listing,
          "least-squares-sparse": check_least_squares_sparse,
          "lsqr-sparse": check_lsqr_sparse, "cd-range": check_cd_range,
          "kmeans-range": check_kmeans_range, "pca-range": check_pca_range,
          "perceptron-range": check_perceptron_range,
          "linear-svc-range": check_linear_svc_range, "params": check_params,
          "linear-svc-primal": check_linear_svc_primal,
          "params-500x450": lambda: check_params(500, 500, 500, n_features=450),
          "positive-range": check_positive_range,
          "liblinear-range": check_liblinear_range, "entropy-range": check_entropy_range,
          "params-small": lambda: check_params(1000, 1000, 1000),
          "params-tiny": lambda: check_params(200, 200, 200),
          "params-mid": lambda: check_params(5000, 2000, 2000),
          "params-sparse": lambda: check_params(density=0.1),
          "sparse-wide": lambda: check_sparse(2000, 20_000, 0.002, 2000),
          "params-large": lambda: check_params(100_000, 5000, 10_000),
          "params-wide": lambda: check_params(1000, 1000, 1000, n_features=2000),
          "params-square": lambda: check_params(3000, 3000, 3000, n_features=1000),
          "tied": lambda: check_values("tied"), "unscaled": lambda: check_values("unscaled"),
          "narrow": lambda: check_values("narrow"),
          "offset": lambda: check_values("offset"),
          "duplicated": lambda: check_values("duplicated"),
          "imbalanced": lambda: check_values("imbalanced")}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checks", nargs="+", choices=sorted(CHECKS))
    parser.add_argument("--only", action="append", default=[],
                        help="keep estimators whose name contains this (repeatable)")
    args = parser.parse_args(argv)
    ONLY[:] = args.only
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name in args.checks:
            CHECKS[name]()


if __name__ == "__main__":
    main()
