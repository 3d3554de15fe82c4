"""The whole parameter space against scikit-learn (issue 16 item 1).

For every registered estimator with a scikit-learn twin of the same name, every
string option and boolean that scikit-learn 1.9's ``_parameter_constraints``
accepts is fitted on both sides on small data and the results compared:
predictions equal, probabilities / decision values / transforms close within
the estimator's tolerance, or for randomized estimators (same
``random_state``, different random streams) scores close. A value
scikit-learn refuses on this data must be refused by ours too. The only values
ours may refuse are the deliberate exceptions of
:data:`classiclearn.utils._unsupported.UNSUPPORTED`, with an error saying they
are not supported and why. Work in progress is listed in
``common_params/param_space.py`` ``PENDING`` and runs as a strict xfail.
"""

import warnings

import numpy as np
import pytest

from classiclearn import all_estimators
from classiclearn.exceptions import InvalidParameterError
from classiclearn.utils._unsupported import UNSUPPORTED

sklearn_utils = pytest.importorskip("sklearn.utils")

from sklearn.utils._param_validation import Hidden  # noqa: E402
from sklearn.utils._param_validation import StrOptions as SkStrOptions  # noqa: E402

from common_params import param_space as S  # noqa: E402

_SK_ESTIMATORS = dict(sklearn_utils.all_estimators())


def _twins():
    for name, cls in all_estimators():
        twin = _SK_ESTIMATORS.get(name)
        if twin is not None:
            yield name, cls, twin


def _option_values(constraints):
    values = []
    for constraint in constraints:
        if isinstance(constraint, Hidden):
            continue
        if isinstance(constraint, SkStrOptions):
            values.extend(sorted(constraint.options))
        elif constraint == "boolean" or constraint is bool:
            values.extend([True, False])
    return values


def _cases():
    cases = []
    for name, _, twin in _twins():
        for param, constraints in getattr(twin, "_parameter_constraints", {}).items():
            seen = []
            for value in _option_values(constraints):
                if any(value is v or (type(value) is type(v) and value == v) for v in seen):
                    continue
                seen.append(value)
                cases.append((name, param, value))
    return cases


CASES = _cases()


def _case_params():
    for case in CASES:
        marks = []
        if case in S.PENDING:
            marks.append(pytest.mark.xfail(reason=S.PENDING[case], strict=True))
        yield pytest.param(*case, marks=marks, id="-".join(map(str, case)))


# ---------------------------------------------------------------- data sets


def _classification(n_classes=3):
    rng = np.random.default_rng(0)
    n = 120
    y = np.arange(n) % n_classes
    centres = rng.normal(scale=2.0, size=(n_classes, 4))
    X = centres[y] + rng.normal(size=(n, 4))
    return X[:80], y[:80], X[80:], y[80:]


def _regression(shift=6.0):
    rng = np.random.default_rng(1)
    X = rng.normal(size=(100, 4))
    y = X @ np.array([1.0, -2.0, 0.5, 0.0]) + 0.3 * rng.normal(size=100) + shift
    return X[:70], y[:70], X[70:], y[70:]


def _blobs():
    rng = np.random.default_rng(2)
    centres = np.array([[0.0, 0.0, 0.0], [6.0, 6.0, 0.0], [0.0, 6.0, 6.0]])
    y = np.arange(90) % 3
    X = centres[y] + 0.5 * rng.normal(size=(90, 3))
    return X[:60], None, X[60:], None


def _transform_data():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(60, 5)) @ rng.normal(size=(5, 5)) + 1.0
    return X[:40], None, X[40:], None


def _data_key(name, param, value, kind):
    return S.DATA.get((name, param, value), S.DATA.get(name, kind))


def _data(key):
    if key == "classifier":
        return _classification()
    if key == "binary":
        return _classification(2)
    if key == "regressor":
        return _regression()
    if key == "cluster":
        return _blobs()
    if key == "non_negative":
        Xtr, _, Xte, _ = _transform_data()
        return np.abs(Xtr), None, np.abs(Xte), None
    if key in ("counts", "categories"):
        rng = np.random.default_rng(6)
        y = np.arange(120) % 3
        rates = rng.uniform(0.5, 4.0, size=(3, 5))
        X = rng.poisson(rates[y]).astype(float)
        if key == "categories":  # every test category seen in training
            X = np.minimum(X, 3.0)
            X[:4] = np.arange(4.0)[:, None]
        return X[:80], y[:80], X[80:], y[80:]
    if key == "positive_regression":
        Xtr, ytr, Xte, yte = _regression()
        return Xtr, np.exp(0.3 * ytr - 1.0), Xte, np.exp(0.3 * yte - 1.0)
    if key == "boolean":
        # 0/1 features from random half-spaces of the classification data: the
        # boolean metrics (and hamming) see structure, and with many features
        # equal distances at the k-th place are rare
        Xtr, ytr, Xte, yte = _classification()
        R = np.random.default_rng(8).normal(size=(Xtr.shape[1], 64))
        return (Xtr @ R > 0).astype(float), ytr, (Xte @ R > 0).astype(float), yte
    if key == "two_features":
        Xtr, ytr, Xte, yte = _classification()
        return 0.3 * Xtr[:, :2], ytr, 0.3 * Xte[:, :2], yte
    if key == "non_negative_regression":
        Xtr, ytr, Xte, yte = _regression()
        return np.abs(Xtr), ytr, np.abs(Xte), yte
    if key == "missing":
        Xtr, _, Xte, _ = _transform_data()
        Xtr, Xte = Xtr.copy(), Xte.copy()
        Xtr[::7, 1] = np.nan
        Xte[::5, 2] = np.nan
        return Xtr, None, Xte, None
    if key == "categorical":
        rng = np.random.default_rng(4)
        X = rng.integers(0, 4, size=(60, 3)).astype(float)
        X[:, 2] = rng.choice([0.0, 1.0], size=60)
        return X[:40], None, X[40:], None
    return _transform_data()


def _kind(cls):
    tags = cls().__classiclearn_tags__() if _constructible(cls) else None
    etype = getattr(tags, "estimator_type", None) or getattr(cls, "_estimator_type", None)
    if etype == "clusterer":
        return "cluster"
    if etype in ("classifier", "regressor"):
        return etype
    return "transformer"


def _constructible(cls):
    try:
        cls()
    except TypeError:
        return False
    return True


def _kind_of(name, cls):
    special = {"GridSearchCV": "classifier", "RandomizedSearchCV": "classifier",
               "Pipeline": "classifier", "KMeans": "cluster", "GaussianMixture": "cluster",
               "NearestNeighbors": "neighbors"}
    return special.get(name) or _kind(cls)


def _precomputed(param, value, Xtr, Xte):
    if value != "precomputed" or param not in ("kernel", "metric"):
        return Xtr, Xte
    if param == "kernel":
        return Xtr @ Xtr.T, Xte @ Xtr.T

    def dist(A, B):
        return np.sqrt(np.maximum(((A[:, None, :] - B[None, :, :]) ** 2).sum(-1), 0.0))

    return dist(Xtr, Xtr), dist(Xte, Xtr)


# ---------------------------------------------------------------- fitting


def _params(name, param, value, ours):
    base = S.BASE_PARAMS.get(name, {})
    params = dict(base(ours) if callable(base) else base)
    extra = S.VALUE_PARAMS.get((name, param, value), {})
    params.update(extra(ours) if callable(extra) else extra)
    params[param] = value
    return params


# fitted attributes compared as well when scikit-learn's estimator has them
_ATTRIBUTES = ("coef_", "intercept_", "components_", "explained_variance_", "covariance_",
               "means_", "mean_", "scale_", "var_", "statistics_", "feature_importances_")


def _attributes(est):
    return {f"attribute {name}": getattr(est, name) for name in _ATTRIBUTES
            if isinstance(getattr(est, name, None), np.ndarray | float)}


def _outputs(est, kind, Xtr, ytr, Xte):
    """Fit, then collect what is compared: a dict of arrays (and a few scalars).

    Each side gets its own copies of the data (``copy=False`` may overwrite them).
    """
    Xtr, Xte = np.array(Xtr), np.array(Xte)
    ytr = None if ytr is None else np.array(ytr)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if kind == "transformer":
            out = {"fit_transform": est.fit_transform(Xtr, ytr) if ytr is not None
                   else est.fit_transform(Xtr)}
            out["transform"] = est.transform(Xte)
            return {**out, **_attributes(est)}
        if ytr is None:
            est.fit(Xtr)
        else:
            est.fit(Xtr, ytr)
        out = {}
        if kind == "cluster":
            out["labels"] = est.predict(Xte)
            return out
        if kind == "neighbors":
            dist, ind = est.kneighbors(Xte, n_neighbors=3)
            return {"distances": dist, "indices": ind}
        if hasattr(est, "cv_results_") and est.refit is False:
            return {"mean_test_score": np.asarray(est.cv_results_["mean_test_score"])}
        out["predict"] = est.predict(Xte)
        for method in ("predict_proba", "decision_function"):
            if hasattr(est, method):
                out[method] = getattr(est, method)(Xte)
        out.update(_attributes(est))
        if hasattr(est, "best_score_"):
            out["best_score"] = np.asarray(est.best_score_)
            out["mean_test_score"] = np.asarray(est.cv_results_["mean_test_score"])
        return out


def _dense(a):
    a = a.toarray() if hasattr(a, "toarray") else a
    return np.asarray(a)


def _align_signs(ours, theirs):
    ours, theirs = np.array(ours, dtype=float), np.asarray(theirs, dtype=float)
    if ours.ndim == 2 and ours.shape == theirs.shape:
        signs = np.sign(np.sum(ours * theirs, axis=0))
        signs[signs == 0] = 1.0
        ours *= signs
    return ours


def _score(kind, out, yte):
    if kind == "classifier":
        return float(np.mean(out["predict"] == yte))
    if kind == "regressor":
        pred = out["predict"]
        return 1.0 - float(np.sum((yte - pred) ** 2) / np.sum((yte - yte.mean()) ** 2))
    raise AssertionError(kind)


def _adjusted_rand(a, b):
    from sklearn.metrics import adjusted_rand_score

    return adjusted_rand_score(a, b)


def _randomized(name, param, value):
    return name in S.RANDOMIZED or (name, param, value) in S.RANDOMIZED


def _compare(name, param, value, kind, ours, theirs, yte):
    rtol, atol = S.TOLERANCE.get((name, param, value), S.TOLERANCE.get(name, (1e-7, 1e-9)))
    if _randomized(name, param, value):
        if kind == "cluster":
            assert _adjusted_rand(ours["labels"], theirs["labels"]) > 0.9
        elif kind == "transformer":
            for key in theirs:
                assert np.asarray(ours[key]).shape == np.asarray(theirs[key]).shape
        elif kind == "neighbors":
            # the k smallest distances do not depend on how ties are ordered
            np.testing.assert_allclose(ours["distances"], theirs["distances"], rtol=rtol,
                                       atol=atol, err_msg="distances")
        else:
            assert abs(_score(kind, ours, yte) - _score(kind, theirs, yte)) <= 0.1
        return
    if kind == "cluster":
        assert _adjusted_rand(ours["labels"], theirs["labels"]) == 1.0
        return
    assert set(theirs) <= set(ours), f"ours lacks {sorted(set(theirs) - set(ours))}"
    for key, expected in theirs.items():
        got = _dense(ours[key])
        expected = _dense(expected)
        assert got.shape == expected.shape, (key, got.shape, expected.shape)
        if key in ("predict", "indices") and kind == "classifier":
            np.testing.assert_array_equal(got, expected, err_msg=key)
            continue
        if name in S.SIGN_FREE:
            got = _align_signs(got, expected)
        if got.dtype.kind in "OUS" or expected.dtype.kind in "OUS":
            np.testing.assert_array_equal(got, expected, err_msg=key)
        else:
            np.testing.assert_allclose(got, expected, rtol=rtol, atol=atol, err_msg=key)


def run_case(name, param, value):
    """Fit ours and scikit-learn's with ``param=value``; raise AssertionError on a gap."""
    ours_cls = dict(all_estimators())[name]
    twin = _SK_ESTIMATORS[name]
    kind = _kind_of(name, ours_cls)
    key = _data_key(name, param, value, kind)
    if key == "regressor":
        kind = "regressor"
    Xtr, ytr, Xte, yte = _data(key)
    Xtr, Xte = _precomputed(param, value, Xtr, Xte)
    reason = UNSUPPORTED.get((name, param, value))
    if reason is not None:
        with pytest.raises(ValueError, match="not supported by classiclearn") as info:
            _outputs(ours_cls(**_params(name, param, value, True)), kind, Xtr, ytr, Xte)
        assert reason in str(info.value)
        return "unsupported"
    try:
        theirs = _outputs(twin(**_params(name, param, value, False)), kind, Xtr, ytr, Xte)
    except (ValueError, TypeError, AttributeError, NotImplementedError):
        with pytest.raises((ValueError, TypeError, AttributeError, NotImplementedError)) as info:
            _outputs(ours_cls(**_params(name, param, value, True)), kind, Xtr, ytr, Xte)
        # refusing for the same reason is agreement; not knowing the value is a gap
        assert not (isinstance(info.value, InvalidParameterError)
                    and f"{param!r} parameter" in str(info.value)), str(info.value)
        return "both refuse"
    ours = _outputs(ours_cls(**_params(name, param, value, True)), kind, Xtr, ytr, Xte)
    _compare(name, param, value, kind, ours, theirs, yte)
    return "agree"


@pytest.fixture(scope="module", autouse=True)
def _one_blas_thread():
    """Tiny fits: BLAS threads only contend (and dominate the time on a busy machine)."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:
        yield
        return
    with threadpool_limits(limits=1, user_api="blas"):
        yield


@pytest.mark.parametrize(("name", "param", "value"), list(_case_params()))
def test_parameter_value_matches_sklearn(name, param, value):
    run_case(name, param, value)


def _parameter_name_params():
    for name, _, _ in _twins():
        pending = S.PENDING_PARAMETERS.get(name)
        marks = [pytest.mark.xfail(reason=pending[1], strict=True)] if pending else []
        yield pytest.param(name, marks=marks, id=name)


@pytest.mark.parametrize("name", list(_parameter_name_params()))
def test_every_sklearn_parameter_name_exists(name):
    import inspect

    ours = set(dict(all_estimators())[name]._get_param_names())
    signature = inspect.signature(_SK_ESTIMATORS[name].__init__).parameters.values()
    theirs = {p.name for p in signature
              if p.name != "self" and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)}
    assert theirs <= ours, sorted(theirs - ours)


def test_tables_name_real_cases():
    cases = set(CASES)
    assert set(S.PENDING) <= cases, sorted(set(S.PENDING) - cases, key=str)
    assert set(UNSUPPORTED) <= cases, sorted(set(UNSUPPORTED) - cases, key=str)
    assert not set(S.PENDING) & set(UNSUPPORTED)
    for reason in UNSUPPORTED.values():
        assert isinstance(reason, str) and len(reason) > 20


def test_cases_cover_every_twin():
    names = {name for name, _, _ in CASES}
    # estimators whose scikit-learn twin has string or boolean options
    assert {"LogisticRegression", "Ridge", "KNeighborsClassifier", "PCA", "SVC"} <= names
    assert len(CASES) > 300


def test_an_unsupported_value_is_refused_with_its_reason(monkeypatch):
    from classiclearn.exceptions import InvalidParameterError
    from classiclearn.linear_model import Ridge
    from classiclearn.utils import _unsupported

    reason = "it is a test entry standing for a deliberate exception"
    monkeypatch.setitem(_unsupported.UNSUPPORTED, ("Ridge", "solver", "bogus"), reason)
    with pytest.raises(InvalidParameterError, match="not supported by classiclearn") as info:
        Ridge(solver="bogus").fit(np.eye(3), np.arange(3.0))
    assert reason in str(info.value)
    assert ("Ridge", "solver", "bogus", reason) in _unsupported.unsupported_values()
    # other values keep the ordinary message
    with pytest.raises(InvalidParameterError, match="must be a str among|must be one of"):
        Ridge(solver="other").fit(np.eye(3), np.arange(3.0))


def test_a_misspelt_option_is_a_parameter_error_not_an_array():
    from classiclearn.cluster import KMeans

    with pytest.raises(InvalidParameterError, match="'init' parameter of KMeans"):
        KMeans(init="bogus", n_init=1).fit(np.eye(3))
