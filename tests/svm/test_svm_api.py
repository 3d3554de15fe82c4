"""SVC / SVR behaviour: errors, warnings, probability, solver options, inputs."""

import warnings

import numpy as np
import pytest

from classiclearn.exceptions import ConvergenceWarning
from classiclearn.svm import SVC, SVR

datasets = pytest.importorskip("sklearn.datasets")


def _data(n_classes=3, n=150, seed=0):
    X, y = datasets.make_classification(
        n_samples=n, n_features=5, n_informative=3, n_redundant=0,
        n_classes=n_classes, n_clusters_per_class=1, random_state=seed,
    )
    return X, y


@pytest.mark.parametrize(
    "params, match",
    [
        (dict(C=0.0), "C"),
        (dict(C=-1.0), "C"),
        (dict(gamma=-0.5), "gamma"),
        (dict(kernel="cubic"), "kernel"),
        (dict(decision_function_shape="all"), "decision_function_shape"),
    ],
)
def test_bad_parameters(params, match):
    X, y = _data()
    with pytest.raises(ValueError, match=match):
        SVC(**params).fit(X, y)


def test_precomputed_not_square():
    X, y = _data()
    with pytest.raises(ValueError, match="square"):
        SVC(kernel="precomputed").fit(X, y)
    with pytest.raises(ValueError, match="square"):
        SVR(kernel="precomputed").fit(X, y.astype(float))


def test_precomputed_predict_shape_checked():
    X, y = _data()
    est = SVC(kernel="precomputed").fit(X @ X.T, y)
    with pytest.raises(ValueError):
        est.predict(X @ X[:10].T)


def test_probability_needs_five_per_class():
    X, y = _data(n=40)
    y = y.copy()
    y[:] = 0
    y[:20] = 1
    y[:4] = 2  # only four samples of class 2
    with pytest.raises(ValueError, match="at least 5 samples"):
        SVC(probability=True).fit(X, y)


def test_break_ties_with_ovo_errors():
    X, y = _data()
    est = SVC(break_ties=True, decision_function_shape="ovo").fit(X, y)
    with pytest.raises(ValueError, match="break_ties"):
        est.predict(X)


@pytest.mark.parametrize("Est", [SVC, SVR])
def test_max_iter_warns(Est):
    X, y = _data()
    with pytest.warns(ConvergenceWarning):
        est = Est(max_iter=3).fit(X, y)
    assert est.fit_status_ == 1
    assert np.all(est.n_iter_ <= 3)


@pytest.mark.parametrize("n_classes", [2, 3])
def test_probability(n_classes):
    X, y = _data(n_classes, n=200)
    est = SVC(probability=True, random_state=0).fit(X, y)
    P = est.predict_proba(X)
    assert P.shape == (X.shape[0], n_classes)
    np.testing.assert_allclose(P.sum(axis=1), 1.0, atol=1e-8)
    assert np.all((P >= 0) & (P <= 1))
    np.testing.assert_allclose(np.exp(est.predict_log_proba(X)), P)
    # calibrated enough: the most probable class is usually the predicted one
    assert np.mean(P.argmax(1) == np.searchsorted(est.classes_, est.predict(X))) > 0.9
    assert est.probA_.shape == est.probB_.shape == (n_classes * (n_classes - 1) // 2,)
    again = SVC(probability=True, random_state=0).fit(X, y)
    np.testing.assert_array_equal(again.predict_proba(X), P)
    # log loss better than the uninformed model
    idx = np.searchsorted(est.classes_, y)
    assert -np.mean(np.log(P[np.arange(y.size), idx])) < np.log(n_classes) * 0.8


def test_probability_close_to_sklearn():
    sksvm = pytest.importorskip("sklearn.svm")
    X, y = _data(3, n=300)
    ours = SVC(probability=True, random_state=0).fit(X, y).predict_proba(X)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        theirs = sksvm.SVC(probability=True, random_state=0).fit(X, y).predict_proba(X)
    # different internal folds: close, not equal
    assert np.abs(ours - theirs).mean() < 0.03


def test_predict_proba_hidden_without_probability():
    X, y = _data()
    est = SVC().fit(X, y)
    assert not hasattr(est, "predict_proba")
    with pytest.raises(AttributeError, match="probability=False"):
        est.predict_proba(X)


def test_coef_only_for_linear():
    X, y = _data()
    with pytest.raises(AttributeError, match="linear kernel"):
        SVC().fit(X, y).coef_
    est = SVC(kernel="linear").fit(X, y)
    assert est.coef_.shape == (3, X.shape[1])


@pytest.mark.parametrize("kernel", ["rbf", "linear", "poly"])
def test_solver_options_do_not_change_the_optimum(kernel):
    """Tiny cache (constant evictions), shrinking on / off: same solution."""
    X, y = _data(2, n=300, seed=5)
    ref = SVC(kernel=kernel, tol=1e-8, shrinking=False, cache_size=500).fit(X, y)
    for kw in (dict(shrinking=True), dict(cache_size=1e-4), dict(cache_size=1e-4,
                                                                  shrinking=False)):
        est = SVC(kernel=kernel, tol=1e-8, **kw).fit(X, y)
        np.testing.assert_array_equal(est.support_, ref.support_)
        np.testing.assert_allclose(est.decision_function(X), ref.decision_function(X),
                                   atol=1e-5)


def test_dual_solution_satisfies_kkt():
    """Brute-force check of the optimality conditions of the dual."""
    X, y = _data(2, n=120, seed=6)
    est = SVC(kernel="rbf", gamma=0.3, C=2.0, tol=1e-8).fit(X, y)
    ysign = np.where(y == est.classes_[1], 1.0, -1.0)
    alpha = np.zeros(y.size)
    alpha[est.support_] = est.dual_coef_[0] * ysign[est.support_]
    assert np.all(alpha >= -1e-12) and np.all(alpha <= 2.0 + 1e-12)
    assert abs(np.dot(alpha, ysign)) < 1e-8
    f = est.decision_function(X)
    margin = ysign * f
    free = (alpha > 1e-8) & (alpha < 2.0 - 1e-8)
    np.testing.assert_allclose(margin[free], 1.0, atol=1e-5)
    assert np.all(margin[alpha <= 1e-8] >= 1.0 - 1e-5)
    assert np.all(margin[alpha >= 2.0 - 1e-8] <= 1.0 + 1e-5)


def test_string_labels_float32_and_inputs_untouched():
    X, y = _data()
    labels = np.array(["x", "y", "z"])[y]
    X32 = X.astype(np.float32)
    X0 = X32.copy()
    est = SVC().fit(X32, labels)
    np.testing.assert_array_equal(X32, X0)
    assert set(est.predict(X32)) <= {"x", "y", "z"}
    ref = SVC().fit(X32.astype(np.float64), labels)
    np.testing.assert_allclose(est.decision_function(X32), ref.decision_function(X32))


def test_zero_weight_equals_removal():
    X, y = _data(3, n=120)
    sw = np.ones(y.size)
    sw[::4] = 0.0
    a = SVC(tol=1e-8).fit(X, y, sample_weight=sw)
    b = SVC(tol=1e-8, gamma=a._gamma).fit(X[sw > 0], y[sw > 0])
    np.testing.assert_allclose(a.decision_function(X), b.decision_function(X), atol=1e-6)
    np.testing.assert_array_equal(a.support_, np.flatnonzero(sw > 0)[b.support_])


def test_svr_epsilon_tube():
    rng = np.random.default_rng(0)
    X = rng.uniform(-3, 3, size=(150, 1))
    y = np.sin(X[:, 0])
    est = SVR(C=10.0, epsilon=0.2, gamma=1.0, tol=1e-8).fit(X, y)
    resid = np.abs(est.predict(X) - y)
    nonsv = np.setdiff1d(np.arange(y.size), est.support_)
    # samples strictly inside the tube are not support vectors
    assert np.all(resid[nonsv] <= 0.2 + 1e-5)
    assert np.all(resid[est.support_] >= 0.2 - 1e-5)
    assert est.score(X, y) > 0.9


def _platt_reference(dec, positive):
    """Lin, Lin and Weng's Newton method with backtracking, in NumPy."""
    n1 = float(np.count_nonzero(positive))
    n0 = dec.size - n1
    t = np.where(positive, (n1 + 1.0) / (n1 + 2.0), 1.0 / (n0 + 2.0))

    def objective(a, b):
        z = dec * a + b
        return np.sum(np.where(z >= 0, t * z, (t - 1.0) * z) + np.log1p(np.exp(-np.abs(z))))

    A, B = 0.0, np.log((n0 + 1.0) / (n1 + 1.0))
    fval = objective(A, B)
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(np.clip(dec * A + B, -700, 700)))
        d2, d1 = p * (1.0 - p), t - p
        h11, h22, h21 = 1e-12 + dec @ (dec * d2), 1e-12 + d2.sum(), dec @ d2
        g1, g2 = dec @ d1, d1.sum()
        if abs(g1) < 1e-5 and abs(g2) < 1e-5:
            break
        det = h11 * h22 - h21 * h21
        dA, dB = -(h22 * g1 - h21 * g2) / det, -(-h21 * g1 + h11 * g2) / det
        step = 1.0
        while step >= 1e-10:
            f = objective(A + step * dA, B + step * dB)
            if f < fval + 1e-4 * step * (g1 * dA + g2 * dB):
                A, B, fval = A + step * dA, B + step * dB, f
                break
            step /= 2.0
        if step < 1e-10:
            break
    return A, B


@pytest.mark.parametrize("separation", [0.0, 1.0, 5.0, 40.0])
def test_platt_fit_matches_reference(separation):
    from classiclearn.svm._probability import fit_sigmoid

    rng = np.random.default_rng(int(separation))
    positive = rng.random(200) < 0.3
    dec = rng.normal(size=200) + separation * np.where(positive, 1.0, -1.0)
    A, B = fit_sigmoid(dec, positive)
    A_ref, B_ref = _platt_reference(dec, positive)
    np.testing.assert_allclose([A, B], [A_ref, B_ref], rtol=1e-9, atol=1e-12)
    assert A < 0  # larger decision values, more likely positive


def test_probability_same_with_pair_kernel_or_fold_kernels(monkeypatch):
    # the internal cross-validation's decision values from the whole kernel matrix
    # (small training sets), the pair's (small pairs) or computed fold by fold agree
    from classiclearn.svm import _classes

    X, y = _data(3, n=240)
    whole = SVC(probability=True, random_state=0).fit(X, y)  # one matrix of all 240
    for limit in (200, 0):  # pairs of about 160 samples: one matrix per pair, per fold
        monkeypatch.setattr(_classes, "_PAIR_KERNEL_ROWS", limit)
        other = SVC(probability=True, random_state=0).fit(X, y)
        np.testing.assert_allclose(other.probA_, whole.probA_, rtol=1e-9)
        np.testing.assert_allclose(other.predict_proba(X), whole.predict_proba(X), rtol=1e-9,
                                   atol=1e-12)
