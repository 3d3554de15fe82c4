"""Random number generators from a user's ``random_state``."""

import numbers
import threading

import numpy as np

__all__ = ["check_random_state", "child_seeds", "seeded_state"]

_LOCAL = threading.local()


def check_random_state(seed):
    """Turn ``seed`` into a ``np.random.RandomState``.

    Parameters
    ----------
    seed : None, int, RandomState or Generator
        None gives NumPy's global RandomState; an int seeds a new one; a
        RandomState is returned as is; a Generator is wrapped so that both
        APIs draw from the same stream.

    Returns
    -------
    numpy.random.RandomState

    Examples
    --------
    >>> check_random_state(0).randint(10)
    5
    """
    if seed is None or seed is np.random:
        return np.random.mtrand._rand
    if isinstance(seed, numbers.Integral) and not isinstance(seed, bool):
        return np.random.RandomState(int(seed))
    if isinstance(seed, np.random.RandomState):
        return seed
    if isinstance(seed, np.random.Generator):
        return np.random.RandomState(seed.bit_generator)
    raise ValueError(
        f"random_state must be None, an int, a numpy RandomState or Generator; got {seed!r}"
    )


def seeded_state(seed):
    """A RandomState seeded with the integer ``seed``: the stream of
    ``np.random.RandomState(seed)``, for immediate use.

    ``np.random.RandomState(seed)`` first seeds itself from the operating system's
    entropy (a cost felt once per tree of a forest); this reseeds one
    RandomState per thread instead, far more cheaply. The object is shared by the
    calls of a thread: draw from it before the next call.

    Examples
    --------
    >>> seeded_state(3).randint(100) == np.random.RandomState(3).randint(100)
    True
    """
    rs = getattr(_LOCAL, "state", None)
    if rs is None:
        rs = _LOCAL.state = np.random.RandomState(0)
    rs.seed(seed)
    return rs


def child_seeds(random_state, n):
    """Draw ``n`` independent integer seeds from ``random_state``.

    Used to give each parallel task (tree, restart, fold) its own seed in a
    fixed order, so results do not depend on the number of threads.

    Parameters
    ----------
    random_state : None, int, RandomState or Generator
    n : int

    Returns
    -------
    seeds : ndarray of shape (n,), dtype uint32

    Examples
    --------
    >>> a = child_seeds(0, 3); b = child_seeds(0, 3)
    >>> bool((a == b).all())
    True
    """
    rng = check_random_state(random_state)
    return rng.randint(np.iinfo(np.int32).max, size=n).astype(np.uint32)
