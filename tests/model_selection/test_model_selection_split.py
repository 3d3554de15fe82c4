"""Splitters and train_test_split: sizes, partitions and stratification like scikit-learn's."""

import numpy as np
import pytest

from classiclearn.model_selection import (
    GroupKFold,
    KFold,
    LeaveOneOut,
    RepeatedKFold,
    RepeatedStratifiedKFold,
    ShuffleSplit,
    StratifiedKFold,
    StratifiedShuffleSplit,
    check_cv,
    train_test_split,
)

skms = pytest.importorskip("sklearn.model_selection")


def _assert_partition(splits, n):
    tests = np.concatenate([te for _, te in splits])
    assert np.array_equal(np.sort(tests), np.arange(n))
    for tr, te in splits:
        assert np.intersect1d(tr, te).size == 0
        assert len(tr) + len(te) == n
        assert tr.dtype == np.intp and te.dtype == np.intp


@pytest.mark.parametrize("n,k", [(10, 3), (11, 5), (7, 7)])
@pytest.mark.parametrize("shuffle", [False, True])
def test_kfold_sizes_match_sklearn(n, k, shuffle):
    rs = 0 if shuffle else None
    ours = list(KFold(k, shuffle=shuffle, random_state=rs).split(np.zeros((n, 1))))
    theirs = list(skms.KFold(k, shuffle=shuffle, random_state=rs).split(np.zeros((n, 1))))
    _assert_partition(ours, n)
    assert [len(te) for _, te in ours] == [len(te) for _, te in theirs]
    if not shuffle:
        for (a, b), (c, d) in zip(ours, theirs):
            np.testing.assert_array_equal(a, c)
            np.testing.assert_array_equal(b, d)
    with pytest.raises(ValueError, match="n_samples=2"):
        list(KFold(3).split(np.zeros((2, 1))))


@pytest.mark.parametrize("counts", [(10, 10), (30, 7, 3), (5, 6, 7, 8)])
@pytest.mark.parametrize("shuffle", [False, True])
def test_stratified_kfold_class_shares(counts, shuffle):
    y = np.repeat(np.arange(len(counts)), counts)
    k = 3
    rs = 1 if shuffle else None
    ours = list(StratifiedKFold(k, shuffle=shuffle, random_state=rs).split(y, y))
    theirs = list(skms.StratifiedKFold(k, shuffle=shuffle, random_state=rs).split(y, y))
    _assert_partition(ours, len(y))
    for _, te in ours:
        per_class = np.bincount(y[te], minlength=len(counts))
        expected = np.array(counts) / k
        assert np.all(np.abs(per_class - expected) < 1)
    assert sorted(len(te) for _, te in ours) == sorted(len(te) for _, te in theirs)


def test_stratified_kfold_warnings_and_strings():
    y = np.array(["a"] * 8 + ["b"] * 2)
    with pytest.warns(UserWarning, match="least populated class"):
        splits = list(StratifiedKFold(3).split(y, y))
    _assert_partition(splits, 10)
    with pytest.raises(ValueError, match="cannot be greater than the number of members"):
        list(StratifiedKFold(3).split(np.zeros(4), [0, 0, 1, 1]))
    with pytest.raises(ValueError, match="Supported target types"):
        list(StratifiedKFold(2).split(np.zeros(4), [0.1, 0.2, 0.3, 0.4]))


def test_same_seed_same_splits_and_repeated():
    y = np.repeat([0, 1, 2], 10)
    a = [te.tolist() for _, te in StratifiedKFold(5, shuffle=True, random_state=3).split(y, y)]
    b = [te.tolist() for _, te in StratifiedKFold(5, shuffle=True, random_state=3).split(y, y)]
    assert a == b
    rkf = RepeatedKFold(n_splits=3, n_repeats=4, random_state=0)
    splits = list(rkf.split(np.zeros((12, 1))))
    assert len(splits) == rkf.get_n_splits() == 12
    for r in range(4):
        _assert_partition(splits[3 * r:3 * r + 3], 12)
    assert [te.tolist() for _, te in splits[:3]] != [te.tolist() for _, te in splits[3:6]]
    rskf = RepeatedStratifiedKFold(n_splits=2, n_repeats=3, random_state=0)
    splits = list(rskf.split(y, y))
    assert len(splits) == 6
    for _, te in splits:
        assert np.bincount(y[te]).tolist() == [5, 5, 5]


def test_group_kfold_and_loo():
    groups = np.repeat(np.arange(6), [5, 1, 3, 2, 4, 1])
    splits = list(GroupKFold(3).split(groups, groups=groups))
    _assert_partition(splits, len(groups))
    for tr, te in splits:
        assert np.intersect1d(groups[tr], groups[te]).size == 0
    loo = list(LeaveOneOut().split(np.zeros((4, 1))))
    assert [te.tolist() for _, te in loo] == [[0], [1], [2], [3]]


def test_shuffle_splits():
    y = np.repeat([0, 1], [30, 10])
    for tr, te in ShuffleSplit(3, test_size=0.25, random_state=0).split(y):
        assert len(te) == 10 and len(tr) == 30
    for tr, te in StratifiedShuffleSplit(3, test_size=0.25, random_state=0).split(y, y):
        assert np.bincount(y[te]).tolist() in ([8, 2], [7, 3])
        assert np.intersect1d(tr, te).size == 0


@pytest.mark.parametrize("test_size,train_size", [(None, None), (0.3, None), (None, 0.6),
                                                  (7, None), (0.2, 0.5), (5, 20)])
def test_train_test_split_sizes_match_sklearn(test_size, train_size):
    X = np.arange(60).reshape(30, 2)
    ours = train_test_split(X, test_size=test_size, train_size=train_size, random_state=0)
    theirs = skms.train_test_split(X, test_size=test_size, train_size=train_size,
                                   random_state=0)
    assert [a.shape for a in ours] == [a.shape for a in theirs]
    assert np.intersect1d(ours[0][:, 0], ours[1][:, 0]).size == 0


@pytest.mark.parametrize("test_size", [0.2, 0.25, 0.5, 13])
def test_train_test_split_stratify_like_sklearn(test_size):
    y = np.repeat(["a", "b", "c"], [50, 30, 7])
    X = np.arange(len(y))
    Xa, Xb, ya, yb = train_test_split(X, y, test_size=test_size, stratify=y, random_state=1)
    _, _, sa, sb = skms.train_test_split(X, y, test_size=test_size, stratify=y, random_state=1)
    assert len(yb) == len(sb) and len(ya) == len(sa)
    ours = {c: int(np.sum(yb == c)) for c in "abc"}
    theirs = {c: int(np.sum(sb == c)) for c in "abc"}
    for c in "abc":
        assert abs(ours[c] - theirs[c]) <= 1
        assert abs(ours[c] - np.sum(y == c) * len(yb) / len(y)) < 1
    np.testing.assert_array_equal(y[Xa], ya)
    np.testing.assert_array_equal(y[Xb], yb)


def test_train_test_split_containers_and_errors():
    pd = pytest.importorskip("pandas")
    df = pd.DataFrame({"a": range(10)}, index=list("abcdefghij"))
    s = pd.Series(range(10), index=df.index)
    lst = list(range(10))
    a_tr, a_te, s_tr, s_te, l_tr, l_te = train_test_split(df, s, lst, random_state=0)
    assert isinstance(a_tr, pd.DataFrame) and isinstance(s_te, pd.Series)
    assert isinstance(l_tr, list)
    assert (a_tr.index == s_tr.index).all()
    assert sorted(l_tr + l_te) == lst
    a, b = train_test_split(lst, shuffle=False, test_size=3)
    assert a == list(range(7)) and b == [7, 8, 9]
    import scipy.sparse as sparse

    m_tr, m_te = train_test_split(sparse.random(10, 3, density=0.5, format="csr"),
                                  random_state=0)
    assert m_tr.shape == (7, 3) and m_te.shape == (3, 3)
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        train_test_split(lst, lst[:5])
    with pytest.raises(ValueError, match="test_size=1.5"):
        train_test_split(lst, test_size=1.5)
    with pytest.raises(ValueError, match="shuffle=False"):
        train_test_split(lst, shuffle=False, stratify=lst)
    with pytest.raises(ValueError, match="least populated class"):
        train_test_split(lst, stratify=[0] * 9 + [1])


def test_check_cv():
    assert isinstance(check_cv(3, [0, 1, 0, 1, 1, 0], classifier=True), StratifiedKFold)
    assert isinstance(check_cv(3, [0.5, 1.5, 2.5], classifier=True), KFold)
    assert isinstance(check_cv(None), KFold) and check_cv(None).n_splits == 5
    pairs = [([0, 1], [2]), ([1, 2], [0])]
    cv = check_cv(pairs)
    assert cv.get_n_splits() == 2
    assert [te.tolist() for _, te in cv.split()] == [[2], [0]]
    with pytest.raises(ValueError, match="Expected cv"):
        check_cv("five")
    assert "StratifiedKFold(n_splits=3" in repr(StratifiedKFold(3))


def test_group_kfold_shuffle():
    groups = np.repeat(np.arange(10), 3)
    a = [te.tolist() for _, te in GroupKFold(5, shuffle=True, random_state=0).split(
        groups, groups=groups)]
    b = [te.tolist() for _, te in GroupKFold(5, shuffle=True, random_state=0).split(
        groups, groups=groups)]
    c = [te.tolist() for _, te in GroupKFold(5).split(groups, groups=groups)]
    assert a == b and a != c
    assert all(len(t) == 6 for t in a)


@pytest.mark.parametrize("shuffle", [False, True])
def test_stratified_kfold_folds_are_sklearns(shuffle):
    sk_split = pytest.importorskip("sklearn.model_selection")
    rng = np.random.default_rng(5)
    for y in (np.arange(80) % 2, rng.integers(0, 4, 97), np.array(list("bbaacccaabbcbacbcbac"))):
        X = np.zeros((len(y), 1))
        kw = {"shuffle": shuffle, "random_state": 3 if shuffle else None}
        ours = [test for _, test in StratifiedKFold(3, **kw).split(X, y)]
        theirs = [test for _, test in sk_split.StratifiedKFold(3, **kw).split(X, y)]
        for a, b in zip(ours, theirs, strict=True):
            np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("test_size", [0.1, 0.25, 7])
@pytest.mark.parametrize("counts", [(50, 50), (91, 9, 23), (5, 17, 3, 11)])
def test_stratified_shuffle_split_draws_scikit_learns_splits(test_size, counts):
    # the same seed holds out the same rows (the class shares and the permutations are
    # drawn in scikit-learn's order)
    from sklearn.model_selection import StratifiedShuffleSplit as SkStratifiedShuffleSplit

    from classiclearn.model_selection import StratifiedShuffleSplit

    y = np.random.default_rng(len(counts)).permutation(np.repeat(np.arange(len(counts)),
                                                                 counts))
    X = np.zeros((y.size, 1))
    ours = StratifiedShuffleSplit(n_splits=3, test_size=test_size, random_state=4).split(X, y)
    theirs = SkStratifiedShuffleSplit(n_splits=3, test_size=test_size,
                                      random_state=4).split(X, y)
    for (a_train, a_test), (b_train, b_test) in zip(ours, theirs):
        np.testing.assert_array_equal(np.sort(a_train), np.sort(b_train))
        np.testing.assert_array_equal(np.sort(a_test), np.sort(b_test))
