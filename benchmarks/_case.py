"""How a benchmark case is declared.

A family adds rows to ``benchmarks/cases/<family>.py``: a module-level list
``CASES`` of :class:`Case`. The runner (``python -m benchmarks``) finds every
such list, so adding a case never touches the harness.
"""

from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass
class Case:
    """One timed comparison of our estimator with scikit-learn's twin.

    Parameters
    ----------
    name : str
        Unique, e.g. ``"Ridge 50000x200"``.
    data : callable(quick: bool) -> (X_train, y_train, X_test, y_test)
        Makes the data; with ``quick`` it must be small (a CI smoke run that
        only checks the harness works and scores agree). y may be None.
    ours, theirs : callable() -> estimator
        Build fresh unfitted estimators with identical parameters.
    methods : tuple of str
        Methods timed after ``fit``, called on X_test (e.g. "predict",
        "transform", "decision_function", "kneighbors").
    score : callable(estimator, X_test, y_test) -> float, optional
        Quality of the fitted model; default ``estimator.score(X_test, y_test)``.
    score_tol : float
        How far apart the two scores may be before the case is flagged.
    goals : dict
        Target ratio ours / scikit-learn per timed step, e.g.
        ``{"fit": 0.5, "predict": 0.2}``; reported, never asserted in tests.
    fit_kwargs : dict
        Extra keyword arguments of ``fit`` (both libraries).
    repeats : int
        Timed repeats per library (the best is kept; median for long cases).
    """

    name: str
    data: Callable
    ours: Callable
    theirs: Callable
    methods: tuple = ("predict",)
    score: Callable | None = None
    score_tol: float = 1e-3
    goals: dict = field(default_factory=dict)
    fit_kwargs: dict = field(default_factory=dict)
    repeats: int = 3
