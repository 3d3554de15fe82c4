"""Stratified random splits drawn as scikit-learn's splitters draw them, shared by
``model_selection``'s splitters and the early-stopping hold-out of the SGD-trained
estimators."""

import warnings

import numpy as np

from ._targets import type_of_target, unique_inverse


def encode_y_for_stratification(y, n_splits=None, check_members=True):
    """(class index of each row, count of each class) of binary or multiclass ``y``;
    with ``n_splits`` and ``check_members``, an error when no class has that many
    members and a warning when the smallest has fewer."""

    y = np.asarray(y)
    kind = type_of_target(y)
    if kind not in ("binary", "multiclass"):
        raise ValueError(
            f"Supported target types are: ('binary', 'multiclass'). Got {kind!r} instead."
        )
    if y.ndim == 2:
        y = y.ravel()
    classes, y_index = unique_inverse(y)
    counts = np.bincount(y_index, minlength=len(classes))
    if n_splits is not None and check_members:
        if np.all(n_splits > counts):
            raise ValueError(
                f"n_splits={n_splits} cannot be greater than the number of members in each "
                "class."
            )
        if n_splits > counts.min():
            warnings.warn(
                f"The least populated class in y has only {counts.min()} members, which is "
                f"less than n_splits={n_splits}.",
                UserWarning,
                stacklevel=4,
            )
    return y_index.ravel(), counts


def allocate_draws(counts, total, rng):
    """Whole numbers of ``total`` draws per class close to ``counts / sum * total``: the
    floors, then one more for the classes of largest remainder, ties drawn at random
    from ``rng`` (scikit-learn's stratified splitters allocate so, with the same draws,
    so that a seed gives scikit-learn's split)."""
    share = counts / counts.sum() * total
    taken = np.floor(share)
    missing = int(total - taken.sum())
    remainder = share - taken
    for value in np.unique(remainder)[::-1]:
        if missing <= 0:
            break
        (tied,) = np.where(remainder == value)
        chosen = rng.choice(tied, size=min(len(tied), missing), replace=False)
        taken[chosen] += 1
        missing -= len(chosen)
    return taken.astype(np.intp)


def stratified_indices(y, n_train, n_test, rng):
    """(train, test) row indices of one stratified random split of ``y`` into
    ``n_train`` and ``n_test`` rows, drawn from ``rng`` in scikit-learn's order."""
    y_index, counts = encode_y_for_stratification(y, check_members=False)
    if counts.min() < 2:
        raise ValueError(
            "The least populated class in y has only 1 member, which is too few. The "
            "minimum number of groups for any class cannot be less than 2."
        )
    n_classes = len(counts)
    if n_train < n_classes:
        raise ValueError(
            f"The train_size = {n_train} should be greater or equal to the number of "
            f"classes = {n_classes}"
        )
    if n_test < n_classes:
        raise ValueError(
            f"The test_size = {n_test} should be greater or equal to the number of "
            f"classes = {n_classes}"
        )
    # scikit-learn's draws: the train shares, the test shares of the rest, a permutation
    # of each class's rows (in row order), then of each part
    train_counts = allocate_draws(counts, n_train, rng)
    test_counts = allocate_draws(counts - train_counts, n_test, rng)
    members = np.argsort(y_index, kind="stable")
    starts = np.concatenate([[0], np.cumsum(counts)])
    train, test = [], []
    for c in range(n_classes):
        rows = members[starts[c]:starts[c + 1]][rng.permutation(counts[c])]
        train.append(rows[: train_counts[c]])
        test.append(rows[train_counts[c]: train_counts[c] + test_counts[c]])
    return rng.permutation(np.concatenate(train)), rng.permutation(np.concatenate(test))
