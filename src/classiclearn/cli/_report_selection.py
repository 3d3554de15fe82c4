"""The model-selection parts of ``compare --report``: penalty and pruning chosen by CV, tuning.

- the regularisation path (lasso for regression, l1 logistic regression for
  classification; seed 000 §7, figures 7 and 8) beside its cross-validation
  curve, with the CV-chosen penalty and the one-standard-error choice marked;
- for trees, the cost-complexity pruning curve: the CV error of the tree pruned
  at each ``ccp_alpha`` of ``cost_complexity_pruning_path`` (seed 000 §11.1),
  with the CV-chosen ``ccp_alpha`` and the 1-SE choice marked;
- HTML for ``--tune`` (the setting chosen in each outer fold) and ``--pair``.

The curves use 5-fold cross-validation of the whole (standardised) table: they
describe the data, the leaderboard's nested estimate is the honest one.
"""

import html
import warnings

import numpy as np

from ._tune import one_standard_error

__all__ = ["pair_html", "plot_pruning", "plot_regularisation_path", "tuning_html"]

_FOLDS = 5
_MAX_PRUNING_POINTS = 25


def _folds(ctx):
    from ..model_selection import KFold, StratifiedKFold

    if ctx.classification:
        smallest = int(np.unique(ctx.y, return_counts=True)[1].min())
        n = min(_FOLDS, smallest)
        if n < 2:
            from ._report import _Skip

            raise _Skip("a class has fewer than two rows: no cross-validation curve")
        splitter = StratifiedKFold(n_splits=n, shuffle=True, random_state=ctx.seed)
    else:
        splitter = KFold(n_splits=_FOLDS, shuffle=True, random_state=ctx.seed)
    return list(splitter.split(ctx.Z, ctx.y))


def _cv_curve(ctx, make, values, error):
    """Mean and standard error over folds of ``error(model, X_test, y_test)`` per value."""
    errors = [[] for _ in values]
    for train, test in _folds(ctx):
        for i, value in enumerate(values):
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    model = make(value).fit(ctx.Z[train], ctx.y[train])
                    errors[i].append(error(model, ctx.Z[test], ctx.y[test]))
            except (ValueError, FloatingPointError, np.linalg.LinAlgError):
                errors[i].append(np.nan)
    e = np.asarray(errors, dtype=np.float64)
    mean = e.mean(axis=1)
    se = e.std(axis=1, ddof=1) / np.sqrt(e.shape[1])
    return mean, se


def _log_loss(model, X, y):
    proba = np.asarray(model.predict_proba(X))
    index = np.searchsorted(np.asarray(model.classes_), y)
    return float(-np.mean(np.log(np.clip(proba[np.arange(len(y)), index], 1e-15, 1.0))))


def _mse(model, X, y):
    return float(np.mean((np.asarray(model.predict(X)) - y) ** 2))


def _misclassification(model, X, y):
    return float(np.mean(np.asarray(model.predict(X)) != y))


def _mark(ax, x_best, x_1se, label):
    ax.axvline(x_best, color="tab:red", lw=1.2, label=f"CV minimum: {label} = {x_best:.3g}")
    ax.axvline(x_1se, color="tab:red", lw=1.2, ls="--", label=f"1-SE rule: {label} = {x_1se:.3g}")


def _logistic_path(ctx):
    from ._report import _need, _Skip

    (Logistic,) = _need(["LogisticRegression"], ctx.registry)
    alphas = np.logspace(-2, 3, 16)  # alpha = 1 / C

    def make(alpha):
        return Logistic(C=float(1.0 / alpha), penalty="l1", solver="newton-cd", max_iter=2000)

    coefs = []
    try:
        for alpha in alphas:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                coefs.append(np.asarray(make(alpha).fit(ctx.Z, ctx.y).coef_)[0])
    except (ValueError, TypeError) as exc:
        raise _Skip(f"l1 logistic regression could not fit the path ({exc})") from None
    mean, se = _cv_curve(ctx, make, alphas, _log_loss)
    shown = ctx.classes[-1] if len(ctx.classes) == 2 else ctx.classes[0]
    return alphas, np.array(coefs), mean, se, {
        "model": "logistic regression, l1 penalty",
        "xlabel": "alpha = 1 / C (penalty)",
        "ylabel": "CV log-loss (deviance / 2n)",
        "coef": f"coefficients of class {shown}",
    }


def _lasso_path(ctx):
    from ._report import _need

    (Lasso,) = _need(["Lasso"], ctx.registry)
    yc = ctx.y - ctx.y.mean()
    alpha_max = float(np.max(np.abs(ctx.Z.T @ yc)) / len(yc))
    alphas = alpha_max * np.logspace(0, -3, 16)

    def make(alpha):
        return Lasso(alpha=float(alpha), max_iter=10000)

    coefs = []
    for alpha in alphas:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            coefs.append(np.asarray(make(alpha).fit(ctx.Z, ctx.y).coef_).ravel())
    mean, se = _cv_curve(ctx, make, alphas, _mse)
    return alphas, np.array(coefs), mean, se, {
        "model": "lasso",
        "xlabel": "alpha (penalty)",
        "ylabel": "CV mean squared error",
        "coef": "coefficients",
    }


def plot_regularisation_path(ctx):
    """Coefficients against the penalty, beside the CV curve; CV minimum and 1-SE choice marked."""
    from ._report import _figure

    alphas, coefs, mean, se, text = (_logistic_path if ctx.classification else _lasso_path)(ctx)
    best, chosen = one_standard_error(-alphas, mean, se)  # a larger penalty is simpler
    fig, axes = _figure(2, 1, size=(11.0, 4.5))
    ax = axes[0, 0]
    ax.errorbar(alphas, mean, yerr=se, fmt="o-", ms=3, color="tab:blue", capsize=2)
    _mark(ax, alphas[best], alphas[chosen], "alpha")
    ax.set_xscale("log")
    ax.set_xlabel(text["xlabel"])
    ax.set_ylabel(text["ylabel"])
    ax.set_title(f"{text['model']}: {_FOLDS}-fold CV (mean ± 1 SE)", fontsize=9)
    ax.legend(fontsize=7, loc="best")
    ax = axes[0, 1]
    order = np.argsort(-np.abs(coefs[-1]))
    for rank, j in enumerate(order):
        ax.plot(alphas, coefs[:, j], lw=1.2, label=ctx.feature_names[j] if rank < 8 else None)
    _mark(ax, alphas[best], alphas[chosen], "alpha")
    ax.set_xscale("log")
    ax.set_xlabel(text["xlabel"])
    ax.set_ylabel("coefficient (standardised features)")
    ax.set_title(f"{text['model']}, {text['coef']}", fontsize=9)
    ax.axhline(0.0, color="0.5", lw=0.8)
    ax.legend(fontsize=7, loc="best")
    kept = int(np.sum(np.abs(coefs[chosen]) > 0))
    return fig, (
        f"Regularisation path (seed 000 §7; the idea of figures 7 and 8): each coefficient as the "
        f"penalty grows, beside the {_FOLDS}-fold cross-validation curve. Solid line: the penalty "
        f"with the lowest CV error (alpha = {alphas[best]:.3g}); dashed: the one-standard-error "
        f"rule, the largest penalty whose CV error is within one standard error of that minimum "
        f"(alpha = {alphas[chosen]:.3g}, {kept} nonzero coefficients)."
    )


def _pruning_alphas(tree_cls, ctx):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        path = tree_cls(random_state=ctx.seed).cost_complexity_pruning_path(ctx.Z, ctx.y)
    alphas = np.unique(np.maximum(np.asarray(path.ccp_alphas, dtype=np.float64), 0.0))
    if alphas.size > _MAX_PRUNING_POINTS:
        keep = np.unique(np.round(np.linspace(0, alphas.size - 1, _MAX_PRUNING_POINTS)))
        alphas = alphas[keep.astype(np.intp)]
    return alphas


def plot_pruning(ctx):
    """CV error of the tree pruned at each ccp_alpha of the pruning path; minimum and 1-SE marked."""
    from ._report import _figure, _need, _Skip

    name = "DecisionTreeClassifier" if ctx.classification else "DecisionTreeRegressor"
    (Tree,) = _need([name], ctx.registry)
    if not hasattr(Tree, "cost_complexity_pruning_path"):
        raise _Skip(f"{name} has no cost_complexity_pruning_path")
    alphas = _pruning_alphas(Tree, ctx)
    if alphas.size < 2:
        raise _Skip("the fully grown tree has no split to prune")

    def make(alpha):
        return Tree(ccp_alpha=float(alpha), random_state=ctx.seed)

    error = _misclassification if ctx.classification else _mse
    mean, se = _cv_curve(ctx, make, alphas, error)
    leaves = []
    for alpha in alphas:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            leaves.append(int(make(alpha).fit(ctx.Z, ctx.y).get_n_leaves()))
    leaves = np.array(leaves)
    best, chosen = one_standard_error(-alphas, mean, se)
    fig, axes = _figure(2, 1, size=(11.0, 4.5))
    linthresh = float(alphas[alphas > 0].min()) if np.any(alphas > 0) else 1e-3
    for ax in axes[0]:
        ax.set_xscale("symlog", linthresh=linthresh)
        ax.set_xlabel("ccp_alpha")
    ax = axes[0, 0]
    ax.errorbar(alphas, mean, yerr=se, fmt="o-", ms=3, color="tab:blue", capsize=2)
    _mark(ax, alphas[best], alphas[chosen], "ccp_alpha")
    ax.set_ylabel("CV misclassification rate" if ctx.classification else "CV mean squared error")
    ax.set_title(f"{name}: {_FOLDS}-fold CV of the pruned tree (mean ± 1 SE)", fontsize=9)
    ax.legend(fontsize=7, loc="best")
    ax = axes[0, 1]
    ax.step(alphas, leaves, where="post", color="tab:green")
    _mark(ax, alphas[best], alphas[chosen], "ccp_alpha")
    ax.set_yscale("log")
    ax.set_ylabel("leaves of the tree pruned on all rows")
    ax.set_title("tree size along the pruning path", fontsize=9)
    ax.legend(fontsize=7, loc="best")
    return fig, (
        f"Cost-complexity pruning (seed 000 §11.1): the {_FOLDS}-fold CV error of the tree pruned "
        f"at each ccp_alpha of its pruning path, and the size of the pruned tree. Solid line: the "
        f"lowest CV error (ccp_alpha = {alphas[best]:.3g}, {leaves[best]} leaves); dashed: the "
        f"one-standard-error rule, the most pruned tree within one standard error of it "
        f"(ccp_alpha = {alphas[chosen]:.3g}, {leaves[chosen]} leaves)."
    )


def _cell(value):
    return f"{value:.3g}" if isinstance(value, float) else str(value)


def tuning_html(result):
    """The settings chosen in each outer fold (``--tune``), as an HTML section; '' without it."""
    tune = result.get("tune")
    if not tune:
        return ""
    parts = [
        "<h2>Tuned hyper-parameters</h2>",
        f"<p>Nested cross-validation: in each outer fold, a grid search with an inner "
        f"{tune['inner_cv']}-fold split of the outer training rows chose the setting below "
        f"(scored by {html.escape(result['scoring'][0])}); it was refitted on those rows and "
        "scored on the outer test rows, which the search never saw.</p>",
    ]
    for m in result["models"]:
        chosen = m.get("chosen_params")
        if not chosen:
            continue
        keys = list(dict.fromkeys(k for c in chosen if c for k in c))
        head = "".join(f"<th>{j + 1}</th>" for j in range(len(chosen)))
        rows = "".join(
            f"<tr><td>{html.escape(k)}</td>"
            + "".join(f"<td>{html.escape(_cell(c.get(k))) if c else '-'}</td>" for c in chosen)
            + "</tr>"
            for k in keys
        )
        grid = html.escape(tune["grids"].get(m["model"], ""))
        parts.append(
            f"<h3>{html.escape(m['model'])}</h3><p>grid: {grid}</p>"
            f"<table><tr><th>outer fold</th>{head}</tr>{rows}</table>"
        )
    untuned = [m["model"] for m in result["models"] if m.get("tuned") is False]
    if untuned:
        parts.append(f"<p>Untuned (no grid, defaults): {html.escape(', '.join(untuned))}.</p>")
    return "".join(parts)


def pair_html(result):
    """The ``--pair`` test as an HTML section; '' without it."""
    pair = result.get("pair")
    if not pair:
        return ""
    a, b = html.escape(pair["a"]), html.escape(pair["b"])
    head = f"<h2>Paired test: {a} − {b}</h2>"
    if pair.get("error"):
        return head + f"<p class='note'>{html.escape(pair['error'])}</p>"
    rows = []
    for scoring, r in pair["by_scoring"].items():
        cells = [
            scoring,
            _cell(r["mean_difference"]),
            f"[{_cell(r['ci_low'])}, {_cell(r['ci_high'])}]",
            "inf" if r["t"] is None and r["p_value"] == 0.0 else _cell(r["t"]),
            str(r["df"]),
            "-" if r["p_value"] is None else f"{r['p_value']:.4f}",
        ]
        rows.append("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in cells) + "</tr>")
    return (
        head
        + "<p>Corrected resampled paired t-test (Nadeau and Bengio 2003) on the same folds.</p>"
        + "<table><tr><th>score</th><th>mean difference</th><th>95% CI</th><th>t</th>"
        + "<th>df</th><th>p</th></tr>"
        + "".join(rows)
        + "</table>"
    )
