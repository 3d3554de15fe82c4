"""Classification, ranking and clustering metrics against scikit-learn's twins."""

import warnings

import numpy as np
import pytest

import classiclearn.metrics as ours

sk = pytest.importorskip("sklearn.metrics")


def _labels(rng, n, k, kind="int"):
    y = rng.integers(0, k, size=n)
    if kind == "str":
        return np.array(["cat", "dog", "emu", "fox", "gnu"])[y]
    return y


@pytest.fixture(params=["int", "str"])
def kind(request):
    return request.param


@pytest.mark.parametrize("k", [2, 3, 5])
def test_accuracy_zero_one_confusion(kind, k):
    rng = np.random.default_rng(k)
    yt, yp = _labels(rng, 60, k, kind), _labels(rng, 60, k, kind)
    w = rng.uniform(0.1, 2, size=60)
    assert ours.accuracy_score(yt, yp) == pytest.approx(sk.accuracy_score(yt, yp))
    assert ours.accuracy_score(yt, yp, sample_weight=w) == pytest.approx(
        sk.accuracy_score(yt, yp, sample_weight=w))
    for normalize in (True, False):
        assert ours.zero_one_loss(yt, yp, normalize=normalize, sample_weight=w) == \
            pytest.approx(sk.zero_one_loss(yt, yp, normalize=normalize, sample_weight=w))
    np.testing.assert_array_equal(ours.confusion_matrix(yt, yp), sk.confusion_matrix(yt, yp))
    for normalize in ("true", "pred", "all"):
        np.testing.assert_allclose(
            ours.confusion_matrix(yt, yp, sample_weight=w, normalize=normalize),
            sk.confusion_matrix(yt, yp, sample_weight=w, normalize=normalize))
    labels = np.unique(yt)[::-1][:2]
    np.testing.assert_array_equal(ours.confusion_matrix(yt, yp, labels=labels),
                                  sk.confusion_matrix(yt, yp, labels=labels))
    assert ours.confusion_matrix(yt, yp).dtype == sk.confusion_matrix(yt, yp).dtype


@pytest.mark.parametrize("average", [None, "micro", "macro", "weighted"])
@pytest.mark.parametrize("k", [2, 4])
def test_precision_recall_f1_averages(kind, k, average):
    rng = np.random.default_rng(10 + k)
    yt, yp = _labels(rng, 80, k, kind), _labels(rng, 80, k, kind)
    w = rng.uniform(0.1, 2, size=80)
    for name in ("precision_score", "recall_score", "f1_score"):
        for sw in (None, w):
            a = getattr(ours, name)(yt, yp, average=average, sample_weight=sw)
            b = getattr(sk, name)(yt, yp, average=average, sample_weight=sw)
            np.testing.assert_allclose(a, b, rtol=1e-12, err_msg=name)
    a = ours.fbeta_score(yt, yp, beta=0.5, average=average)
    b = sk.fbeta_score(yt, yp, beta=0.5, average=average)
    np.testing.assert_allclose(a, b, rtol=1e-12)
    pa = ours.precision_recall_fscore_support(yt, yp, average=average, beta=2)
    pb = sk.precision_recall_fscore_support(yt, yp, average=average, beta=2)
    for x, y in zip(pa[:3], pb[:3]):
        np.testing.assert_allclose(x, y, rtol=1e-12)
    if average is None:
        np.testing.assert_array_equal(pa[3], pb[3])


def test_binary_pos_label_and_errors():
    yt = np.array(["yes", "no", "yes", "yes", "no"])
    yp = np.array(["yes", "yes", "no", "yes", "no"])
    for name in ("precision_score", "recall_score", "f1_score"):
        assert getattr(ours, name)(yt, yp, pos_label="no") == pytest.approx(
            getattr(sk, name)(yt, yp, pos_label="no"))
    with pytest.raises(ValueError, match="pos_label=1 is not a valid label"):
        ours.f1_score(yt, yp)
    with pytest.raises(ValueError, match="average='binary'"):
        ours.f1_score([0, 1, 2], [0, 1, 1])
    with pytest.raises(ValueError, match="mix of"):
        ours.accuracy_score([0, 1], [0.5, 1.5]) if False else ours.f1_score([0, 1], [0.5, 1.5])


def test_zero_division():
    yt, yp = [0, 0, 1, 1], [0, 0, 0, 0]
    with pytest.warns(ours.UndefinedMetricWarning):
        assert ours.precision_score(yt, yp) == 0.0
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert ours.precision_score(yt, yp, zero_division=1) == 1.0
        assert np.isnan(ours.precision_score(yt, yp, zero_division=np.nan))
        for zd in (0, 1):
            assert ours.f1_score(yt, yp, zero_division=zd) == sk.f1_score(
                yt, yp, zero_division=zd)
            np.testing.assert_allclose(
                ours.precision_score([0, 1, 2], [0, 0, 0], average=None, zero_division=zd),
                sk.precision_score([0, 1, 2], [0, 0, 0], average=None, zero_division=zd))


def test_multilabel_prf_and_accuracy():
    rng = np.random.default_rng(3)
    yt = rng.integers(0, 2, size=(40, 3))
    yp = rng.integers(0, 2, size=(40, 3))
    assert ours.accuracy_score(yt, yp) == sk.accuracy_score(yt, yp)
    for avg in ("micro", "macro", "weighted", "samples", None):
        np.testing.assert_allclose(ours.f1_score(yt, yp, average=avg, zero_division=0),
                                   sk.f1_score(yt, yp, average=avg, zero_division=0))


def test_balanced_accuracy_matthews(kind):
    rng = np.random.default_rng(4)
    yt, yp = _labels(rng, 70, 3, kind), _labels(rng, 70, 3, kind)
    w = rng.uniform(0.5, 2, size=70)
    for adjusted in (False, True):
        assert ours.balanced_accuracy_score(yt, yp, sample_weight=w, adjusted=adjusted) == \
            pytest.approx(sk.balanced_accuracy_score(yt, yp, sample_weight=w,
                                                     adjusted=adjusted))
    assert ours.matthews_corrcoef(yt, yp) == pytest.approx(sk.matthews_corrcoef(yt, yp))


def test_classification_report_dict_matches():
    rng = np.random.default_rng(5)
    yt, yp = _labels(rng, 50, 3, "str"), _labels(rng, 50, 3, "str")
    a = ours.classification_report(yt, yp, output_dict=True)
    b = sk.classification_report(yt, yp, output_dict=True)
    assert set(a) == set(b)
    for key, row in b.items():
        if isinstance(row, dict):
            for metric, value in row.items():
                assert a[key][metric] == pytest.approx(value), (key, metric)
        else:
            assert a[key] == pytest.approx(row)
    for kw in ({}, {"digits": 3}, {"labels": ["cat", "dog"]}):
        assert ours.classification_report(yt, yp, **kw) == sk.classification_report(
            yt, yp, **kw)


def test_log_loss():
    rng = np.random.default_rng(6)
    p = rng.dirichlet(np.ones(3), size=30)
    y = rng.choice(["a", "b", "c"], size=30)
    w = rng.uniform(0.5, 2, size=30)
    assert ours.log_loss(y, p) == pytest.approx(sk.log_loss(y, p), rel=1e-12)
    assert ours.log_loss(y, p, sample_weight=w, normalize=False) == pytest.approx(
        sk.log_loss(y, p, sample_weight=w, normalize=False), rel=1e-12)
    pb = rng.uniform(size=30)
    yb = rng.integers(0, 2, size=30)
    assert ours.log_loss(yb, pb) == pytest.approx(sk.log_loss(yb, pb), rel=1e-12)
    # labels missing from y_true
    assert ours.log_loss(["a"] * 3, p[:3], labels=["a", "b", "c"]) == pytest.approx(
        sk.log_loss(["a"] * 3, p[:3], labels=["a", "b", "c"]))
    assert ours.log_loss([0, 1], [[1.0, 0.0], [0.0, 1.0]]) == pytest.approx(
        sk.log_loss([0, 1], [[1.0, 0.0], [0.0, 1.0]]))
    with pytest.raises(ValueError, match="only one label"):
        ours.log_loss([1, 1], [0.5, 0.5])


def test_roc_auc_binary_with_ties_and_weights():
    rng = np.random.default_rng(7)
    y = rng.integers(0, 2, size=100)
    s = np.round(rng.normal(size=100) + y, 1)  # many ties
    w = rng.uniform(0.1, 3, size=100)
    assert ours.roc_auc_score(y, s) == pytest.approx(sk.roc_auc_score(y, s), rel=1e-12)
    assert ours.roc_auc_score(y, s, sample_weight=w) == pytest.approx(
        sk.roc_auc_score(y, s, sample_weight=w), rel=1e-12)
    for max_fpr in (0.1, 0.5):
        assert ours.roc_auc_score(y, s, max_fpr=max_fpr) == pytest.approx(
            sk.roc_auc_score(y, s, max_fpr=max_fpr), rel=1e-10)
    ys = np.where(y == 1, "pos", "neg")
    assert ours.roc_auc_score(ys, s) == pytest.approx(sk.roc_auc_score(ys, s))
    for drop in (True, False):
        for a, b in zip(ours.roc_curve(y, s, drop_intermediate=drop),
                        sk.roc_curve(y, s, drop_intermediate=drop)):
            np.testing.assert_allclose(a, b)
    fpr, tpr, _ = ours.roc_curve(y, s)
    assert ours.auc(fpr, tpr) == pytest.approx(sk.auc(fpr, tpr))
    with pytest.raises(ValueError, match="Only one class"):
        ours.roc_auc_score([1, 1, 1], [0.1, 0.2, 0.3])


@pytest.mark.parametrize("multi_class", ["ovr", "ovo"])
@pytest.mark.parametrize("average", ["macro", "weighted"])
def test_roc_auc_multiclass(multi_class, average):
    rng = np.random.default_rng(8)
    y = rng.integers(0, 4, size=120)
    p = rng.dirichlet(np.ones(4), size=120)
    p[np.arange(120), y] += 0.3
    p /= p.sum(axis=1, keepdims=True)
    a = ours.roc_auc_score(y, p, multi_class=multi_class, average=average)
    b = sk.roc_auc_score(y, p, multi_class=multi_class, average=average)
    assert a == pytest.approx(b, rel=1e-12)
    with pytest.raises(ValueError, match="multi_class"):
        ours.roc_auc_score(y, p)


def test_roc_auc_multilabel():
    rng = np.random.default_rng(9)
    y = rng.integers(0, 2, size=(50, 3))
    s = rng.normal(size=(50, 3)) + y
    for avg in ("macro", "weighted", "micro", None):
        np.testing.assert_allclose(ours.roc_auc_score(y, s, average=avg),
                                   sk.roc_auc_score(y, s, average=avg))


def test_adjusted_rand_and_rand():
    rng = np.random.default_rng(11)
    for _ in range(5):
        a = rng.integers(0, 4, size=50)
        b = rng.integers(0, 3, size=50)
        assert ours.adjusted_rand_score(a, b) == pytest.approx(sk.adjusted_rand_score(a, b))
        assert ours.rand_score(a, b) == pytest.approx(sk.rand_score(a, b))
        np.testing.assert_array_equal(ours.pair_confusion_matrix(a, b),
                                      sk.cluster.pair_confusion_matrix(a, b))
    assert ours.adjusted_rand_score([0, 0, 1, 1], ["x", "x", "y", "y"]) == 1.0
    assert ours.adjusted_rand_score([0, 0, 0], [1, 1, 1]) == 1.0
    assert ours.adjusted_rand_score([], []) == sk.adjusted_rand_score([], [])
    # large inputs do not overflow
    a = rng.integers(0, 2, size=200_000)
    assert ours.adjusted_rand_score(a, a) == 1.0


def test_precision_recall_curve_average_precision_brier():
    rng = np.random.default_rng(12)
    y = rng.integers(0, 2, size=100)
    s = np.round(rng.normal(size=100) + y, 1)
    w = rng.uniform(0.1, 2, size=100)
    for drop in (False, True):
        for a, b in zip(ours.precision_recall_curve(y, s, drop_intermediate=drop),
                        sk.precision_recall_curve(y, s, drop_intermediate=drop)):
            np.testing.assert_allclose(a, b)
    for sw in (None, w):
        assert ours.average_precision_score(y, s, sample_weight=sw) == pytest.approx(
            sk.average_precision_score(y, s, sample_weight=sw), rel=1e-12)
    Y = rng.integers(0, 2, size=(50, 3))
    S = rng.normal(size=(50, 3)) + Y
    for avg in ("macro", "micro", "weighted", None):
        np.testing.assert_allclose(ours.average_precision_score(Y, S, average=avg),
                                   sk.average_precision_score(Y, S, average=avg))
    p = rng.uniform(size=100)
    assert ours.brier_score_loss(y, p, sample_weight=w) == pytest.approx(
        sk.brier_score_loss(y, p, sample_weight=w))
    P = rng.dirichlet(np.ones(3), size=100)
    yy = rng.integers(0, 3, size=100)
    assert ours.brier_score_loss(yy, P) == pytest.approx(sk.brier_score_loss(yy, P))
