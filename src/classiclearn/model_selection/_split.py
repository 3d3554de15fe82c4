"""Splitting data for validation: hold-out splits and k-fold cross-validation (seed 000 §2).

Every splitter yields ``(train_index, test_index)`` pairs of sorted ``intp``
arrays. Stratified splitters keep each class's share in every part to within
one sample, which the tests check against scikit-learn's twins (the same seed
need not give the same samples).
"""

import inspect
import numbers
from math import ceil, floor

import numpy as np
import scipy.sparse as sp

from ..utils._random import check_random_state
from ..utils._stratify import encode_y_for_stratification, stratified_indices
from ..utils._targets import unique_inverse
from ..utils.validation import _is_pandas_df, _is_pandas_series, num_samples

__all__ = [
    "GroupKFold",
    "KFold",
    "LeaveOneOut",
    "RepeatedKFold",
    "RepeatedStratifiedKFold",
    "ShuffleSplit",
    "StratifiedKFold",
    "StratifiedShuffleSplit",
    "check_cv",
    "train_test_split",
]


def _safe_indexing(X, indices):
    """Rows ``indices`` of X, whatever its container (array, list, pandas, sparse)."""
    if X is None:
        return None
    if _is_pandas_df(X) or _is_pandas_series(X):
        return X.iloc[indices]
    if sp.issparse(X):
        return X.tocsr()[indices]
    if hasattr(X, "shape") and hasattr(X, "__getitem__"):
        return X[indices]
    if not hasattr(X, "__getitem__") and hasattr(X, "__array__"):
        return np.asarray(X)[indices]
    return [X[int(i)] for i in indices]


def _indexable(X):
    """X itself if rows can be taken from it, else ``np.asarray(X)`` (array-likes)."""
    if X is None or _is_pandas_df(X) or _is_pandas_series(X) or sp.issparse(X):
        return X
    if hasattr(X, "shape") and hasattr(X, "__getitem__"):
        return X
    if isinstance(X, list | tuple):
        return X
    if hasattr(X, "__array__"):
        return np.asarray(X)
    return X


class _Splitter:
    """Shared repr and ``get_n_splits`` of the cross-validation splitters."""

    def __repr__(self):
        names = [
            p for p in inspect.signature(type(self).__init__).parameters if p != "self"
        ]
        args = ", ".join(f"{n}={getattr(self, n, None)!r}" for n in sorted(names))
        return f"{type(self).__name__}({args})"

    def get_n_splits(self, X=None, y=None, groups=None):
        """Number of (train, test) pairs :meth:`split` yields."""
        return self.n_splits

    def split(self, X, y=None, groups=None):
        """Yield ``(train_index, test_index)`` pairs.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,), optional
            Needed by the stratified splitters.
        groups : array-like, optional
            Needed by the group splitters.

        Yields
        ------
        train, test : ndarray of intp
        """
        n = num_samples(X)
        for test in self._test_masks(X, y, groups):
            test = np.flatnonzero(test)
            train = np.setdiff1d(np.arange(n), test, assume_unique=True)
            yield train.astype(np.intp), test.astype(np.intp)


def _check_n_splits(n_splits):
    if not isinstance(n_splits, numbers.Integral) or isinstance(n_splits, bool):
        raise ValueError(
            f"The number of folds must be of Integral type. {n_splits!r} of type "
            f"{type(n_splits)} was passed."
        )
    if n_splits <= 1:
        raise ValueError(
            "k-fold cross-validation requires at least one train/test split by setting "
            f"n_splits=2 or more, got n_splits={n_splits}."
        )


class KFold(_Splitter):
    """K-fold cross-validation: k consecutive (or shuffled) folds as test sets.

    Parameters
    ----------
    n_splits : int, default=5
        Number of folds, at least 2.
    shuffle : bool, default=False
        Shuffle the samples before cutting them into folds.
    random_state : int, RandomState or None
        Seeds the shuffle (only used when ``shuffle=True``).

    Examples
    --------
    >>> [test.tolist() for _, test in KFold(3).split(range(6))]
    [[0, 1], [2, 3], [4, 5]]
    """

    def __init__(self, n_splits=5, *, shuffle=False, random_state=None):
        _check_n_splits(n_splits)
        if not isinstance(shuffle, bool | np.bool_):
            raise TypeError(f"shuffle must be True or False; got {shuffle}")
        if not shuffle and random_state is not None:
            raise ValueError(
                "Setting a random_state has no effect since shuffle is False. You should "
                "leave random_state to its default (None), or set shuffle=True."
            )
        self.n_splits = n_splits
        self.shuffle = shuffle
        self.random_state = random_state

    def _test_masks(self, X, y, groups):
        n = num_samples(X)
        if self.n_splits > n:
            raise ValueError(
                f"Cannot have number of splits n_splits={self.n_splits} greater than the "
                f"number of samples: n_samples={n}."
            )
        order = np.arange(n)
        if self.shuffle:
            check_random_state(self.random_state).shuffle(order)
        sizes = np.full(self.n_splits, n // self.n_splits)
        sizes[: n % self.n_splits] += 1
        start = 0
        for size in sizes:
            mask = np.zeros(n, dtype=bool)
            mask[order[start:start + size]] = True
            start += size
            yield mask


def _stratified_folds(y_index, n_classes, n_splits, rng):
    """Test fold of each sample, with scikit-learn's allocation (same folds, same seeds).

    Classes are numbered in order of first appearance; the labels, sorted by
    that number, are dealt round-robin over the folds, which fixes how many
    members of each class every fold receives. Each class's members then fill
    the folds in order (fold 0 first), after a shuffle of that fold sequence
    when ``rng`` is given.
    """
    _, first_seen = np.unique(y_index, return_index=True)
    rank = np.empty(n_classes, dtype=np.intp)
    rank[np.argsort(first_seen, kind="stable")] = np.arange(n_classes)
    y_ranked = rank[y_index]
    dealt = np.sort(y_ranked)
    per_fold = np.array(
        [np.bincount(dealt[k::n_splits], minlength=n_classes) for k in range(n_splits)]
    )
    fold = np.empty(len(y_index), dtype=np.intp)
    for c in range(n_classes):
        sequence = np.repeat(np.arange(n_splits), per_fold[:, c])
        if rng is not None:
            rng.shuffle(sequence)
        fold[y_ranked == c] = sequence
    return fold


class StratifiedKFold(_Splitter):
    """K-fold cross-validation keeping each class's share in every fold.

    Each fold holds ``count / n_splits`` members of every class to within
    one, and fold sizes differ by at most one; the folds are scikit-learn's
    (the sorted labels dealt round-robin fix each fold's share of each class,
    whose members then fill the folds in order), for the same ``random_state``
    too.

    Parameters
    ----------
    n_splits : int, default=5
    shuffle : bool, default=False
        Shuffle each class's samples before dealing them out.
    random_state : int, RandomState or None

    Examples
    --------
    >>> y = [0, 0, 0, 0, 1, 1]
    >>> [sorted(set((test // 4).tolist())) for _, test in StratifiedKFold(2).split(y, y)]
    [[0, 1], [0, 1]]
    """

    def __init__(self, n_splits=5, *, shuffle=False, random_state=None):
        _check_n_splits(n_splits)
        if not isinstance(shuffle, bool | np.bool_):
            raise TypeError(f"shuffle must be True or False; got {shuffle}")
        if not shuffle and random_state is not None:
            raise ValueError(
                "Setting a random_state has no effect since shuffle is False. You should "
                "leave random_state to its default (None), or set shuffle=True."
            )
        self.n_splits = n_splits
        self.shuffle = shuffle
        self.random_state = random_state

    def split(self, X, y, groups=None):
        """Yield stratified ``(train_index, test_index)`` pairs; ``y`` is required."""
        if y is None:
            raise ValueError("StratifiedKFold.split requires y (the class labels).")
        return super().split(X, y, groups)

    def _test_masks(self, X, y, groups):
        n = num_samples(X)
        if self.n_splits > n:
            raise ValueError(
                f"Cannot have number of splits n_splits={self.n_splits} greater than the "
                f"number of samples: n_samples={n}."
            )
        if num_samples(y) != n:
            raise ValueError(
                "Found input variables with inconsistent numbers of samples: "
                f"[{n}, {num_samples(y)}]"
            )
        y_index, counts = encode_y_for_stratification(y, self.n_splits)
        rng = check_random_state(self.random_state) if self.shuffle else None
        fold = _stratified_folds(y_index, len(counts), self.n_splits, rng)
        for k in range(self.n_splits):
            yield fold == k


class GroupKFold(_Splitter):
    """K-fold with no group in both train and test; folds balanced by group sizes.

    Groups go, largest first, to the fold holding the fewest samples so far.

    Parameters
    ----------
    n_splits : int, default=5
    shuffle : bool, default=False
        Break ties between groups of equal size in a random order (instead of
        the sorted group order).
    random_state : int, RandomState or None
        Seeds the shuffle.

    Examples
    --------
    >>> groups = [0, 0, 1, 1, 2, 2]
    >>> [test.tolist() for _, test in GroupKFold(3).split(groups, groups=groups)]
    [[0, 1], [2, 3], [4, 5]]
    """

    def __init__(self, n_splits=5, *, shuffle=False, random_state=None):
        _check_n_splits(n_splits)
        if not shuffle and random_state is not None:
            raise ValueError(
                "Setting a random_state has no effect since shuffle is False. You should "
                "leave random_state to its default (None), or set shuffle=True."
            )
        self.n_splits = n_splits
        self.shuffle = shuffle
        self.random_state = random_state

    def _test_masks(self, X, y, groups):
        if groups is None:
            raise ValueError("The 'groups' parameter should not be None.")
        groups = np.asarray(groups)
        unique, g_index = unique_inverse(groups)
        if self.n_splits > len(unique):
            raise ValueError(
                f"Cannot have number of splits n_splits={self.n_splits} greater than the "
                f"number of groups: {len(unique)}."
            )
        sizes = np.bincount(g_index.ravel())
        order = np.arange(len(unique))
        if self.shuffle:
            order = check_random_state(self.random_state).permutation(len(unique))
        order = order[np.argsort(-sizes[order], kind="stable")]
        load = np.zeros(self.n_splits)
        group_fold = np.empty(len(unique), dtype=np.intp)
        for g in order:
            k = int(np.argmin(load))
            group_fold[g] = k
            load[k] += sizes[g]
        fold = group_fold[g_index.ravel()]
        for k in range(self.n_splits):
            yield fold == k


class LeaveOneOut(_Splitter):
    """Each sample once as a one-sample test set.

    Examples
    --------
    >>> [test.tolist() for _, test in LeaveOneOut().split([[1], [2], [3]])]
    [[0], [1], [2]]
    """

    def __init__(self):
        pass

    def get_n_splits(self, X=None, y=None, groups=None):
        """Number of samples in X."""
        if X is None:
            raise ValueError("The 'X' parameter should not be None.")
        return num_samples(X)

    def _test_masks(self, X, y, groups):
        n = num_samples(X)
        if n <= 1:
            raise ValueError(f"Cannot perform LeaveOneOut with n_samples={n}.")
        for i in range(n):
            mask = np.zeros(n, dtype=bool)
            mask[i] = True
            yield mask


class _Repeated(_Splitter):
    _inner = None

    def __init__(self, *, n_splits=5, n_repeats=10, random_state=None):
        if not isinstance(n_repeats, numbers.Integral) or n_repeats <= 0:
            raise ValueError("Number of repetitions must be of Integral type greater than 0.")
        _check_n_splits(n_splits)
        self.n_splits = n_splits
        self.n_repeats = n_repeats
        self.random_state = random_state

    def get_n_splits(self, X=None, y=None, groups=None):
        """``n_splits * n_repeats``."""
        return self.n_splits * self.n_repeats

    def split(self, X, y=None, groups=None):
        """Yield the folds of each repetition in turn, reshuffled every time."""
        rng = check_random_state(self.random_state)
        for _ in range(self.n_repeats):
            cv = self._inner(self.n_splits, shuffle=True, random_state=rng)
            yield from cv.split(X, y, groups)


class RepeatedKFold(_Repeated):
    """K-fold repeated ``n_repeats`` times with a new shuffle each time.

    Parameters
    ----------
    n_splits : int, default=5
    n_repeats : int, default=10
    random_state : int, RandomState or None

    Examples
    --------
    >>> RepeatedKFold(n_splits=2, n_repeats=3, random_state=0).get_n_splits()
    6
    """

    _inner = KFold


class RepeatedStratifiedKFold(_Repeated):
    """Stratified k-fold repeated ``n_repeats`` times with a new shuffle each time.

    Parameters
    ----------
    n_splits : int, default=5
    n_repeats : int, default=10
    random_state : int, RandomState or None

    Examples
    --------
    >>> cv = RepeatedStratifiedKFold(n_splits=2, n_repeats=2, random_state=0)
    >>> len(list(cv.split([[0]] * 4, [0, 0, 1, 1])))
    4
    """

    _inner = StratifiedKFold


def _split_sizes(n, test_size, train_size, default_test=0.25):
    """Train and test sizes from fractions or counts, with scikit-learn's rules."""
    if test_size is None and train_size is None:
        test_size = default_test

    def check(value, name):
        if value is None:
            return
        if isinstance(value, numbers.Integral) and not isinstance(value, bool):
            if value <= 0 or value >= n:
                raise ValueError(
                    f"{name}={value} should be either positive and smaller than the number "
                    f"of samples {n} or a float in the (0, 1) range"
                )
        elif isinstance(value, numbers.Real):
            if not 0 < value < 1:
                raise ValueError(
                    f"{name}={value} should be either positive and smaller than the number "
                    f"of samples {n} or a float in the (0, 1) range"
                )
        else:
            raise ValueError(f"Invalid value for {name}: {value!r}")

    check(test_size, "test_size")
    check(train_size, "train_size")
    if isinstance(test_size, numbers.Integral):
        n_test = int(test_size)
    elif test_size is not None:
        n_test = ceil(test_size * n)
    if isinstance(train_size, numbers.Integral):
        n_train = int(train_size)
    elif train_size is not None:
        n_train = floor(train_size * n)
    if train_size is None:
        n_train = n - n_test
    elif test_size is None:
        n_test = n - n_train
    if n_train + n_test > n:
        raise ValueError(
            f"The sum of train_size and test_size = {n_train + n_test}, should be smaller "
            f"than the number of samples {n}. Reduce test_size and/or train_size."
        )
    if n_train == 0:
        raise ValueError(
            f"With n_samples={n}, test_size={test_size} and train_size={train_size}, the "
            "resulting train set will be empty. Adjust any of the aforementioned parameters."
        )
    return n_train, n_test


class ShuffleSplit(_Splitter):
    """Random train/test splits, ``n_splits`` times.

    Parameters
    ----------
    n_splits : int, default=10
    test_size, train_size : float, int or None
        Fractions in (0, 1) or counts; by default test is 10%.
    random_state : int, RandomState or None

    Examples
    --------
    >>> cv = ShuffleSplit(n_splits=2, test_size=2, random_state=0)
    >>> [len(t) for _, t in cv.split(range(10))]
    [2, 2]
    """

    _default_test = 0.1

    def __init__(self, n_splits=10, *, test_size=None, train_size=None, random_state=None):
        self.n_splits = n_splits
        self.test_size = test_size
        self.train_size = train_size
        self.random_state = random_state

    def split(self, X, y=None, groups=None):
        """Yield ``n_splits`` random ``(train_index, test_index)`` pairs."""
        n = num_samples(X)
        n_train, n_test = _split_sizes(n, self.test_size, self.train_size, self._default_test)
        rng = check_random_state(self.random_state)
        for _ in range(self.n_splits):
            train, test = self._one_split(n, n_train, n_test, y, rng)
            yield np.sort(train).astype(np.intp), np.sort(test).astype(np.intp)

    def _one_split(self, n, n_train, n_test, y, rng):
        perm = rng.permutation(n)
        return perm[n_test:n_test + n_train], perm[:n_test]


class StratifiedShuffleSplit(ShuffleSplit):
    """Random train/test splits keeping each class's share in both parts.

    A seed gives the rows scikit-learn's ``StratifiedShuffleSplit`` gives (its draws,
    in its order); each part is returned sorted.

    Parameters
    ----------
    n_splits : int, default=10
    test_size, train_size : float, int or None
    random_state : int, RandomState or None

    Examples
    --------
    >>> y = [0] * 8 + [1] * 4
    >>> cv = StratifiedShuffleSplit(n_splits=1, test_size=0.5, random_state=0)
    >>> _, test = next(cv.split(y, y)); sorted(int(y[i]) for i in test)
    [0, 0, 0, 0, 1, 1]
    """

    def split(self, X, y, groups=None):
        """Yield stratified random ``(train_index, test_index)`` pairs; ``y`` is required."""
        if y is None:
            raise ValueError("StratifiedShuffleSplit.split requires y (the class labels).")
        return super().split(X, y, groups)

    def _one_split(self, n, n_train, n_test, y, rng):
        return stratified_indices(y, n_train, n_test, rng)


def train_test_split(*arrays, test_size=None, train_size=None, random_state=None,
                     shuffle=True, stratify=None):
    """Split arrays into random train and test subsets.

    Parameters
    ----------
    *arrays : sequence of array-likes with the same first dimension
        Lists, NumPy arrays, pandas objects or scipy sparse matrices.
    test_size : float or int, default=None
        Fraction in (0, 1) or number of test samples; 0.25 when both sizes
        are None.
    train_size : float or int, default=None
        Likewise; the complement of ``test_size`` when None.
    random_state : int, RandomState or None
        Seeds the shuffle.
    shuffle : bool, default=True
        Without shuffling the first ``n_train`` samples are the train set
        (``stratify`` must then be None).
    stratify : array-like, default=None
        Class labels whose shares both parts keep (to within one sample).

    Returns
    -------
    list
        ``[a_train, a_test, b_train, b_test, ...]``, each of the input's type.

    Examples
    --------
    >>> X_train, X_test = train_test_split(list(range(8)), test_size=0.25, random_state=0)
    >>> len(X_train), len(X_test)
    (6, 2)
    """
    if not arrays:
        raise ValueError("At least one array required as input")
    n = num_samples(arrays[0])
    for a in arrays[1:]:
        if a is not None and num_samples(a) != n:
            raise ValueError(
                "Found input variables with inconsistent numbers of samples: "
                f"{[num_samples(a) for a in arrays if a is not None]}"
            )
    n_train, n_test = _split_sizes(n, test_size, train_size)
    if not shuffle:
        if stratify is not None:
            raise ValueError(
                "Stratified train/test split is not implemented for shuffle=False"
            )
        train, test = np.arange(n_train), np.arange(n_train, n_train + n_test)
    else:
        rng = check_random_state(random_state)
        if stratify is not None:
            train, test = stratified_indices(stratify, n_train, n_test, rng)
            train, test = rng.permutation(train), rng.permutation(test)
        else:
            perm = rng.permutation(n)
            test, train = perm[:n_test], perm[n_test:n_test + n_train]
    out = []
    for a in arrays:
        out.extend([_safe_indexing(a, train), _safe_indexing(a, test)])
    return out


class _ListCV(_Splitter):
    """Wrap an iterable of (train, test) pairs so it can be split repeatedly."""

    def __init__(self, cv=None):
        self.cv = cv
        self._pairs = [(np.asarray(tr, dtype=np.intp), np.asarray(te, dtype=np.intp))
                       for tr, te in cv]

    def get_n_splits(self, X=None, y=None, groups=None):
        return len(self._pairs)

    def split(self, X=None, y=None, groups=None):
        yield from ((tr.copy(), te.copy()) for tr, te in self._pairs)


def check_cv(cv=5, y=None, *, classifier=False):
    """Turn a ``cv`` argument into a splitter.

    Parameters
    ----------
    cv : int, splitter, iterable of (train, test) or None
        None means 5. An int gives :class:`StratifiedKFold` when
        ``classifier`` and y is binary or multiclass, else :class:`KFold`.
    y : array-like, optional
    classifier : bool, default=False

    Returns
    -------
    splitter
        An object with ``split`` and ``get_n_splits``.

    Examples
    --------
    >>> check_cv(3, [0, 1, 0, 1], classifier=True)
    StratifiedKFold(n_splits=3, random_state=None, shuffle=False)
    """
    if cv is None:
        cv = 5
    if isinstance(cv, numbers.Integral) and not isinstance(cv, bool):
        if classifier and y is not None:
            from ..utils._targets import type_of_target

            if type_of_target(y) in ("binary", "multiclass"):
                return StratifiedKFold(cv)
        return KFold(cv)
    if hasattr(cv, "split") and hasattr(cv, "get_n_splits"):
        return cv
    if hasattr(cv, "__iter__") and not isinstance(cv, str):
        return _ListCV(cv)
    raise ValueError(
        "Expected cv as an integer, cross-validation object (from "
        f"classiclearn.model_selection) or an iterable. Got {cv!r}."
    )
