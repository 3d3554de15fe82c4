"""``classiclearn compare --tune``: nested cross-validation over small documented grids.

Each outer fold of ``compare`` fits a :class:`TunedModel` on its training rows
only: a :class:`~classiclearn.model_selection.GridSearchCV` over the method's
grid in :data:`._grids.TUNING_GRIDS`, with an inner (stratified) 3-fold split of those
rows, scored with the leaderboard's first scoring; the best setting is refitted
on all the outer training rows and scored on the outer test rows, which the
search never saw. The leaderboard therefore estimates the performance of the
*tuning procedure* (grid search plus refit) without the optimistic bias of
reporting the best inner score (Varma and Simon 2006; Cawley and Talbot 2010).
The whole pipeline (imputation, encoding, scaling) is refitted inside every
inner fold too.

Grid values that depend on the data are multiples of a quantity computed from
the outer training rows alone (:class:`._grids.Scaled`): ``p`` is the number of
encoded features, ``sd(y)`` the standard deviation of the training target,
``root impurity`` the Gini impurity of the training classes (or the variance of
the training target), so ``ccp_alpha`` is a fraction of the root node's risk.

The one-standard-error rule (Breiman et al. 1984; Hastie, Tibshirani and
Friedman, *Elements of Statistical Learning* §7.10) is :func:`one_standard_error`.
"""

import numpy as np

from ..base import BaseEstimator, clone
from ._grids import INNER_CV, TUNING_GRIDS, Scaled

__all__ = ["TunedModel", "format_tuning", "one_standard_error", "wrap_for_tuning"]


def _gini(y):
    _, counts = np.unique(np.asarray(y), return_counts=True)
    p = counts / counts.sum()
    return float(1.0 - np.sum(p * p))


class _InnerScorer:
    """A scorer ``(estimator, X, y) -> float`` from the command line's scoring name."""

    def __init__(self, name, classes):
        self.name, self.classes = name, classes

    def __call__(self, estimator, X, y):
        from ._scoring import score

        pred = np.asarray(estimator.predict(X))
        return score([self.name], estimator, X, np.asarray(y), pred, self.classes)[self.name]


class TunedModel(BaseEstimator):
    """A pipeline whose model step is tuned by an inner grid search on the rows it is fitted on.

    Parameters
    ----------
    pipeline : Pipeline
        ``prep -> [scale] -> model`` as built by ``build_pipeline``.
    grid : dict
        Parameter of the model step -> list of values or :class:`Scaled`.
    scoring : str
        A command-line scoring name (greater is better).
    classes : list or None
        The class codes (classification) for the scorer.
    inner_cv : int, default=3
    seed : int, default=0
        Seed of the inner shuffle.

    Attributes
    ----------
    best_params_ : dict
        The chosen setting (model parameter names, no ``model__`` prefix).
    best_estimator_ : Pipeline
        Refitted on all the rows given to ``fit``.
    search_ : GridSearchCV

    Examples
    --------
    >>> import numpy as np
    >>> from classiclearn.cli._data import load_table, prepare
    >>> from classiclearn.cli._models import build_pipeline
    >>> from classiclearn.naive_bayes import GaussianNB
    >>> frame, target = load_table("iris")
    >>> ds = prepare(frame, target, None, "iris")
    >>> y = np.unique(ds.y, return_inverse=True)[1]
    >>> pipe = build_pipeline("GaussianNB", GaussianNB, ds.X)
    >>> model = TunedModel(pipe, {"var_smoothing": [1e-9, 0.5]}, classes=[0, 1, 2])
    >>> model.fit(ds.X, y).best_params_
    {'var_smoothing': 1e-09}
    """

    def __init__(self, pipeline, grid, *, scoring="accuracy", classes=None, inner_cv=INNER_CV,
                 seed=0):
        self.pipeline = pipeline
        self.grid = grid
        self.scoring = scoring
        self.classes = classes
        self.inner_cv = inner_cv
        self.seed = seed

    def _n_features(self, X):
        """Columns the model step sees: X through the pipeline's other steps, fitted on X."""
        Xt = X
        for _, step in self.pipeline.steps[:-1]:
            if step is None or step == "passthrough":
                continue
            Xt = clone(step).fit_transform(Xt)
        return int(np.shape(Xt)[1])

    def _context(self, X, y):
        yf = np.asarray(y, dtype=np.float64)
        classification = self.classes is not None
        return {
            "p": max(1, self._n_features(X)),
            "sd(y)": float(np.std(yf)) if not classification else 1.0,
            "root impurity": _gini(y) if classification else float(np.var(yf)),
        }

    def resolved_grid(self, X, y):
        """The grid with every :class:`Scaled` entry turned into values from (X, y)."""
        context = self._context(X, y)
        return {
            key: values.resolve(context) if isinstance(values, Scaled) else list(values)
            for key, values in self.grid.items()
        }

    def _splitter(self, y):
        from ..model_selection import KFold, StratifiedKFold

        if self.classes is None:
            return KFold(n_splits=self.inner_cv, shuffle=True, random_state=self.seed)
        smallest = int(np.unique(np.asarray(y), return_counts=True)[1].min())
        n_splits = min(self.inner_cv, smallest)
        if n_splits < 2:
            raise ValueError(
                f"a class has {smallest} training row(s): too few for an inner cross-validation"
            )
        return StratifiedKFold(n_splits=n_splits, shuffle=True, random_state=self.seed)

    def fit(self, X, y):
        """Search the grid by inner cross-validation of (X, y), refit the best on all of it."""
        from ..model_selection import GridSearchCV

        grid = {f"model__{k}": v for k, v in self.resolved_grid(X, y).items()}
        search = GridSearchCV(
            self.pipeline,
            grid,
            scoring=_InnerScorer(self.scoring, self.classes),
            cv=self._splitter(y),
            refit=True,
            error_score=np.nan,
        )
        search.fit(X, y)
        if not np.any(np.isfinite(search.cv_results_["mean_test_score"])):
            raise ValueError("every setting of the grid failed in the inner cross-validation")
        self.search_ = search
        self.best_params_ = {k.split("__", 1)[1]: v for k, v in search.best_params_.items()}
        self.best_estimator_ = search.best_estimator_
        return self

    @property
    def classes_(self):
        """Classes of the refitted pipeline."""
        return self.best_estimator_.classes_

    def predict(self, X):
        """Predictions of the refitted best pipeline."""
        return self.best_estimator_.predict(X)

    def predict_proba(self, X):
        """Probabilities of the refitted best pipeline (if its model gives them)."""
        return self.best_estimator_.predict_proba(X)

    def decision_function(self, X):
        """Decision values of the refitted best pipeline (if its model gives them)."""
        return self.best_estimator_.decision_function(X)


def wrap_for_tuning(name, pipeline, *, scoring, classes, seed):
    """``TunedModel`` around the pipeline if the method has a grid, else the pipeline itself."""
    grid = TUNING_GRIDS.get(name)
    if grid is None:
        return pipeline
    return TunedModel(pipeline, grid, scoring=scoring, classes=classes, seed=seed)


def one_standard_error(complexity, mean_error, std_error):
    """Index of the simplest setting within one standard error of the best (the 1-SE rule).

    Parameters
    ----------
    complexity : array-like of shape (m,)
        Larger means a more complex model (e.g. ``-alpha`` or ``C``); ties in
        complexity go to the lower error.
    mean_error : array-like of shape (m,)
        Mean cross-validated error (lower is better); NaN entries are ignored.
    std_error : array-like of shape (m,)
        Standard error of each mean (std over folds / sqrt(folds)).

    Returns
    -------
    best : int
        Index of the lowest mean error (the first one on ties).
    chosen : int
        Index of the least complex setting whose mean error is at most
        ``mean_error[best] + std_error[best]``.

    Examples
    --------
    >>> one_standard_error([1, 2, 3, 4], [0.30, 0.21, 0.20, 0.22], [0.02, 0.02, 0.02, 0.02])
    (2, 1)
    """
    c = np.asarray(complexity, dtype=np.float64)
    m = np.asarray(mean_error, dtype=np.float64)
    s = np.asarray(std_error, dtype=np.float64)
    if not (c.shape == m.shape == s.shape) or c.ndim != 1 or c.size == 0:
        raise ValueError("complexity, mean_error and std_error must be 1-d of one length")
    finite = np.isfinite(m)
    if not finite.any():
        raise ValueError("every mean error is NaN")
    best = int(np.flatnonzero(finite)[np.argmin(m[finite])])
    limit = m[best] + (s[best] if np.isfinite(s[best]) else 0.0)
    within = np.flatnonzero(finite & (m <= limit))
    chosen = int(min(within, key=lambda i: (c[i], m[i], i)))
    return best, chosen


def _value(v):
    if isinstance(v, float):
        return f"{v:.3g}"
    return str(v)


def format_tuning(result):
    """Lines showing the chosen hyper-parameters of each tuned model per outer fold."""
    tune = result.get("tune")
    if not tune:
        return []
    lines = [
        f"chosen hyper-parameters per outer fold (inner {tune['inner_cv']}-fold grid search, "
        f"scored by {result['scoring'][0]}):"
    ]
    rows = []
    for m in result["models"]:
        chosen = m.get("chosen_params")
        if not chosen:
            continue
        keys = list(dict.fromkeys(k for c in chosen if c for k in c))
        for i, key in enumerate(keys):
            cells = [_value(c.get(key)) if c else "-" for c in chosen]
            rows.append([m["model"] if i == 0 else "", key, *cells])
    if rows:
        width = max(len(r) for r in rows)
        rows = [r + [""] * (width - len(r)) for r in rows]
        header = ["model", "parameter", *[str(j + 1) for j in range(width - 2)]]
        widths = [max(len(r[i]) for r in [header, *rows]) for i in range(width)]
        for r in [header, *rows]:
            lines.append("  " + "  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip())
    untuned = [m["model"] for m in result["models"] if m.get("tuned") is False]
    if untuned:
        lines.append(f"untuned (no grid, defaults): {', '.join(untuned)}")
    return lines
