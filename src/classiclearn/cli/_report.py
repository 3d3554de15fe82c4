"""``classiclearn compare --report DIR``: one self-contained HTML page with PNG plots.

Plots (matplotlib, Agg, no pyplot state), each drawn only when the estimator it
needs is registered, otherwise replaced by a note:

- the leaderboard with 95% intervals;
- the confusion matrix (classification) or predicted against true values
  (regression) of the best model, from out-of-fold predictions;
- the data on the first two principal axes (PCA, seed 000 §13.1) and on the
  first two discriminant axes (LDA, §13.2; chapter figures 24-25);
- decision regions of several classifiers fitted on the first two principal
  components (figures 2, 12, 15, 16);
- the regularisation path of the lasso (regression) or l1 logistic
  regression (classification) (figure 7/8 idea) beside its CV curve, and the
  cost-complexity pruning curve of a tree, each with the CV-chosen penalty and
  the one-standard-error choice marked (:mod:`._report_selection`);
- k-means and Gaussian-mixture clusters on the PCA plane (figures 20-22).

The page embeds every PNG (base64) so it can be mailed alone; the PNG files are
written next to it as well. Everything is written to a temporary directory and
moved into DIR at the end, so a failure leaves no partial report.
"""

import base64
import html
import os
import shutil
import tempfile
import warnings

import numpy as np

from ._prep import TabularEncoder
from ._report_selection import pair_html, plot_pruning, plot_regularisation_path, tuning_html

__all__ = ["write_report"]

_DECISION_MODELS = [
    "KNeighborsClassifier",
    "SVC",
    "DecisionTreeClassifier",
    "LogisticRegression",
    "LinearDiscriminantAnalysis",
    "QuadraticDiscriminantAnalysis",
    "GaussianNB",
    "RandomForestClassifier",
]
_MAX_DECISION_PANELS = 6


class _Skip(Exception):
    """A plot that cannot be drawn (its estimator is not registered, or the data do not fit)."""


def _registered():
    from .. import all_estimators

    try:
        return dict(all_estimators())
    except Exception:  # a family that fails to import must not sink the report
        return {}


def _need(names, registry):
    for name in names:
        if name not in registry:
            raise _Skip(f"{name} is not registered in this classiclearn build yet")
    return [registry[n] for n in names]


def _figure(ncols=1, nrows=1, size=(6.0, 4.5)):
    from matplotlib.figure import Figure

    fig = Figure(figsize=size, dpi=100, layout="constrained")
    axes = fig.subplots(nrows, ncols, squeeze=False)
    return fig, axes


def _colors(n):
    from matplotlib import colormaps

    cmap = colormaps["tab10" if n <= 10 else "tab20"]
    return [cmap(i % cmap.N) for i in range(n)]


class _Context:
    def __init__(self, ds, result, oof, seed):
        self.ds, self.result, self.oof, self.seed = ds, result, oof, seed
        self.registry = _registered()
        self.classification = ds.task == "classification"
        encoder = TabularEncoder(standardize=True)
        self.Z = encoder.fit_transform(ds.X)
        self.feature_names = list(encoder.feature_names_out_)
        self.y = ds.y
        self.classes = list(ds.classes)
        self._pca = None

    def pca(self):
        if self._pca is None:
            (PCA,) = _need(["PCA"], self.registry)
            if self.Z.shape[1] < 2:
                raise _Skip("the data have fewer than two features")
            pca = (
                PCA(n_components=2, random_state=self.seed)
                if "random_state" in PCA().get_params()
                else PCA(n_components=2)
            )
            self._pca = (pca, pca.fit_transform(self.Z))
        return self._pca

    def scatter(self, ax, P, labels=None):
        if labels is None and self.classification:
            labels = self.y
        if labels is not None and (self.classification or labels is not self.y):
            values = list(dict.fromkeys(sorted(set(np.asarray(labels).tolist()), key=str)))
            for value, color in zip(values, _colors(len(values))):
                mask = np.asarray(labels) == value
                ax.scatter(
                    P[mask, 0],
                    P[mask, 1],
                    s=12,
                    color=color,
                    label=str(value),
                    edgecolors="none",
                    alpha=0.8,
                )
            if len(values) <= 12:
                ax.legend(fontsize=7, markerscale=1.5, loc="best")
        else:
            sc = ax.scatter(P[:, 0], P[:, 1], s=12, c=self.y, cmap="viridis", edgecolors="none")
            ax.figure.colorbar(sc, ax=ax, label=self.ds.target)


def _plot_leaderboard(ctx):
    rows = [m for m in ctx.result["models"] if m["mean"] is not None]
    if not rows:
        raise _Skip("no model produced scores")
    fig, axes = _figure(size=(7.0, 0.35 * len(rows) + 1.5))
    ax = axes[0, 0]
    ypos = np.arange(len(rows))[::-1]
    for yp, m in zip(ypos, rows):
        color = "tab:green" if m["rank"] == 1 else ("0.6" if m["worse_than_best"] else "tab:blue")
        lo = m["ci95_low"] if m["ci95_low"] is not None else m["mean"]
        hi = m["ci95_high"] if m["ci95_high"] is not None else m["mean"]
        ax.errorbar(
            m["mean"],
            yp,
            xerr=[[m["mean"] - lo], [hi - m["mean"]]],
            fmt="o",
            color=color,
            capsize=3,
        )
    ax.set_yticks(ypos, [m["model"] for m in rows], fontsize=8)
    ax.set_xlabel(f"{ctx.result['scoring'][0]} (mean and corrected 95% CI)")
    ax.grid(axis="x", alpha=0.3)
    return fig, (
        "Leaderboard: mean cross-validated score with the corrected 95% confidence "
        "interval; grey = significantly worse than the best (green)."
    )


def _plot_best(ctx):
    best = ctx.result["best"]
    if best is None or best not in ctx.oof:
        raise _Skip("no best model with out-of-fold predictions")
    pred = ctx.oof[best]
    if ctx.classification:
        classes = ctx.classes
        index = {c: i for i, c in enumerate(classes)}
        cm = np.zeros((len(classes), len(classes)), dtype=int)
        for t, p in zip(ctx.y, pred):
            if p in index:
                cm[index[t], index[p]] += 1
        size = max(4.0, 0.5 * len(classes) + 2.5)
        fig, axes = _figure(size=(size + 1.0, size))
        ax = axes[0, 0]
        im = ax.imshow(cm, cmap="Blues")
        ax.figure.colorbar(im, ax=ax)
        ticks = np.arange(len(classes))
        ax.set_xticks(ticks, [str(c) for c in classes], rotation=45, ha="right", fontsize=8)
        ax.set_yticks(ticks, [str(c) for c in classes], fontsize=8)
        for i in range(len(classes)):
            for j in range(len(classes)):
                ax.text(
                    j,
                    i,
                    str(cm[i, j]),
                    ha="center",
                    va="center",
                    color="white" if cm[i, j] > cm.max() / 2 else "black",
                    fontsize=8,
                )
        ax.set_xlabel("predicted")
        ax.set_ylabel("true")
        ax.set_title(f"{best}: out-of-fold confusion matrix")
        return fig, (
            f"Confusion matrix of the best model ({best}) from the out-of-fold "
            "predictions of the first repetition."
        )
    fig, axes = _figure(size=(5.5, 5.0))
    ax = axes[0, 0]
    ax.scatter(ctx.y, pred, s=10, alpha=0.7, edgecolors="none")
    lo, hi = float(min(ctx.y.min(), pred.min())), float(max(ctx.y.max(), pred.max()))
    ax.plot([lo, hi], [lo, hi], color="0.4", lw=1)
    ax.set_xlabel(f"true {ctx.ds.target}")
    ax.set_ylabel("predicted (out of fold)")
    ax.set_title(best)
    return fig, (
        f"Predicted against true values of the best model ({best}), out-of-fold "
        "predictions of the first repetition."
    )


def _plot_pca(ctx):
    pca, P = ctx.pca()
    fig, axes = _figure()
    ax = axes[0, 0]
    ctx.scatter(ax, P)
    ratio = getattr(pca, "explained_variance_ratio_", None)
    if ratio is not None and len(ratio) >= 2:
        ax.set_xlabel(f"PC 1 ({100 * ratio[0]:.1f}% of variance)")
        ax.set_ylabel(f"PC 2 ({100 * ratio[1]:.1f}% of variance)")
    else:
        ax.set_xlabel("PC 1")
        ax.set_ylabel("PC 2")
    return fig, "The standardised data on the first two principal axes (PCA, seed 000 §13.1)."


def _plot_lda(ctx):
    if not ctx.classification:
        raise _Skip("LDA projection needs a classification target")
    (LDA,) = _need(["LinearDiscriminantAnalysis"], ctx.registry)
    n_comp = min(2, len(ctx.classes) - 1)
    lda = LDA(n_components=n_comp)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        P = np.asarray(lda.fit(ctx.Z, ctx.y).transform(ctx.Z))
    fig, axes = _figure()
    ax = axes[0, 0]
    if P.shape[1] >= 2:
        ctx.scatter(ax, P[:, :2])
        ax.set_xlabel("discriminant axis 1")
        ax.set_ylabel("discriminant axis 2")
    else:
        for value, color in zip(ctx.classes, _colors(len(ctx.classes))):
            ax.hist(P[ctx.y == value, 0], bins=30, alpha=0.6, color=color, label=str(value))
        ax.set_xlabel("discriminant axis 1")
        ax.set_ylabel("count")
        ax.legend(fontsize=8)
    return fig, (
        "The data on the discriminant axes of Fisher's LDA (seed 000 §13.2): the "
        "directions that best separate the classes relative to their spread."
    )


def _plot_decision_regions(ctx):
    if not ctx.classification:
        raise _Skip("decision regions are drawn for classification targets")
    _, P = ctx.pca()
    names = [n for n in _DECISION_MODELS if n in ctx.registry][:_MAX_DECISION_PANELS]
    if not names:
        raise _Skip("none of " + ", ".join(_DECISION_MODELS) + " is registered yet")
    from ._models import make_estimator

    ncols = min(3, len(names))
    nrows = (len(names) + ncols - 1) // ncols
    fig, axes = _figure(ncols, nrows, size=(4.0 * ncols, 3.6 * nrows))
    pad = 0.5
    x0, x1 = P[:, 0].min() - pad, P[:, 0].max() + pad
    y0, y1 = P[:, 1].min() - pad, P[:, 1].max() + pad
    gx, gy = np.meshgrid(np.linspace(x0, x1, 150), np.linspace(y0, y1, 150))
    grid = np.column_stack([gx.ravel(), gy.ravel()])
    index = {c: i for i, c in enumerate(ctx.classes)}
    colors = _colors(len(ctx.classes))
    from matplotlib.colors import ListedColormap

    cmap = ListedColormap(colors)
    drawn = 0
    for k, name in enumerate(names):
        ax = axes[k // ncols, k % ncols]
        try:
            est = make_estimator(name, ctx.registry[name], n_features=2, seed=ctx.seed)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                est.fit(P, ctx.y)
                Zg = np.array([index.get(v, -1) for v in est.predict(grid)]).reshape(gx.shape)
        except Exception as exc:  # one method failing leaves the others
            ax.set_title(f"{name}: failed ({type(exc).__name__})", fontsize=8)
            ax.set_axis_off()
            continue
        ax.contourf(gx, gy, Zg, levels=np.arange(-0.5, len(ctx.classes)), cmap=cmap, alpha=0.3)
        for value, color in zip(ctx.classes, colors):
            mask = ctx.y == value
            ax.scatter(P[mask, 0], P[mask, 1], s=8, color=color, edgecolors="none")
        ax.set_title(name, fontsize=9)
        ax.set_xticks([])
        ax.set_yticks([])
        drawn += 1
    for k in range(len(names), nrows * ncols):
        axes[k // ncols, k % ncols].set_axis_off()
    if not drawn:
        raise _Skip("every method failed on the PCA plane")
    return fig, (
        "Decision regions of several methods fitted on the first two principal "
        "components (as the chapter's figures 2, 12, 15 and 16), each with the command "
        "line's default parameters."
    )


def _adjusted_rand(a, b):
    from scipy.special import comb

    _, ia = np.unique(np.asarray(a, dtype=str), return_inverse=True)
    _, ib = np.unique(np.asarray(b, dtype=str), return_inverse=True)
    table = np.zeros((ia.max() + 1, ib.max() + 1))
    np.add.at(table, (ia, ib), 1)
    sum_comb = comb(table, 2).sum()
    sa, sb = comb(table.sum(1), 2).sum(), comb(table.sum(0), 2).sum()
    expected = sa * sb / comb(len(ia), 2)
    top = 0.5 * (sa + sb)
    return float((sum_comb - expected) / (top - expected)) if top != expected else 1.0


def _plot_clusters(ctx):
    _, P = ctx.pca()
    k = len(ctx.classes) if ctx.classification else 3
    panels = []
    for name, key in (("KMeans", "n_clusters"), ("GaussianMixture", "n_components")):
        if name in ctx.registry:
            panels.append((name, key))
    if not panels:
        raise _Skip("neither KMeans nor GaussianMixture is registered yet")
    fig, axes = _figure(len(panels), 1, size=(5.0 * len(panels), 4.2))
    for ax, (name, key) in zip(axes[0], panels):
        cls = ctx.registry[name]
        kwargs = {key: k}
        if "random_state" in cls().get_params():
            kwargs["random_state"] = ctx.seed
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            est = cls(**kwargs).fit(ctx.Z)
            labels = np.asarray(est.predict(ctx.Z))
        ctx.scatter(ax, P, labels=np.array([f"cluster {v}" for v in labels], dtype=object))
        title = f"{name}, {k} clusters"
        if ctx.classification:
            title += f" (adjusted Rand vs classes {_adjusted_rand(ctx.y, labels):.2f})"
        ax.set_title(title, fontsize=9)
        ax.set_xlabel("PC 1")
        ax.set_ylabel("PC 2")
    return fig, (
        "k-means (seed 000 §12.1) and Gaussian-mixture (§12.2) clusters of the "
        "standardised data, shown on the PCA plane (as figures 20-22)."
    )


_PLOTS = [
    ("leaderboard", "Leaderboard", _plot_leaderboard),
    ("best_model", "Best model", _plot_best),
    ("pca", "Principal components", _plot_pca),
    ("lda", "Linear discriminant axes", _plot_lda),
    ("decision_regions", "Decision regions on the PCA plane", _plot_decision_regions),
    ("regularisation_path", "Regularisation path", plot_regularisation_path),
    ("pruning", "Cost-complexity pruning", plot_pruning),
    ("clusters", "Clusters on the PCA plane", _plot_clusters),
]


def _shown_name(m):
    return f"{m['model']} (untuned)" if m.get("tuned") is False else m["model"]


def _table_html(result):
    head = (
        "<tr><th>#</th><th>model</th><th>mean</th><th>std</th><th>95% CI</th>"
        "<th>fit (s)</th><th>predict (s)</th><th>vs best</th></tr>"
    )
    rows = []
    for m in result["models"]:
        if m["error"] is not None:
            rows.append(
                f"<tr class='failed'><td>-</td><td>{html.escape(m['model'])}</td>"
                f"<td colspan='6'>failed: {html.escape(m['error'])}</td></tr>"
            )
            continue
        flag = "worse" if m["worse_than_best"] else ("best" if m["rank"] == 1 else "")
        p = "" if m["p_vs_best"] is None else f" (p = {m['p_vs_best']:.3f})"
        cls = "best" if m["rank"] == 1 else ("worse" if m["worse_than_best"] else "")
        rows.append(
            f"<tr class='{cls}'><td>{m['rank']}</td><td>{html.escape(_shown_name(m))}</td>"
            f"<td>{m['mean']:.4f}</td><td>{m['std']:.4f}</td>"
            f"<td>[{m['ci95_low']:.4f}, {m['ci95_high']:.4f}]</td>"
            f"<td>{m['fit_time_s']:.4f}</td><td>{m['predict_time_s']:.4f}</td>"
            f"<td>{flag}{p}</td></tr>"
        )
    return f"<table>{head}{''.join(rows)}</table>"


_STYLE = """
body { font-family: sans-serif; max-width: 1000px; margin: 2em auto; color: #222; }
table { border-collapse: collapse; font-size: 0.9em; }
td, th { border-bottom: 1px solid #ddd; padding: 3px 8px; text-align: left; }
tr.best td { color: #1a7f37; font-weight: bold; } tr.worse td { color: #888; }
tr.failed td { color: #b00; } img { max-width: 100%; } .note { color: #a60; }
figure { margin: 1em 0 2em 0; } figcaption { color: #555; font-size: 0.9em; }
"""


def write_report(directory, ds, result, oof, *, seed=0):
    """Write ``index.html`` and the PNG plots into ``directory``.

    Returns
    -------
    list of (key, str)
        Plots drawn (file name) or skipped (the reason).
    """
    parent = os.path.dirname(os.path.abspath(directory))
    tmp = tempfile.mkdtemp(prefix=".classiclearn-report-", dir=parent)
    try:
        ctx = _Context(ds, result, oof, seed)
        sections, outcome = [], []
        for key, title, func in _PLOTS:
            try:
                fig, caption = func(ctx)
            except _Skip as why:
                sections.append(
                    f"<h2>{html.escape(title)}</h2><p class='note'>Not drawn: "
                    f"{html.escape(str(why))}.</p>"
                )
                outcome.append((key, f"skipped: {why}"))
                continue
            except Exception as exc:  # a plot must never sink the report
                sections.append(
                    f"<h2>{html.escape(title)}</h2><p class='note'>Not drawn: "
                    f"{html.escape(type(exc).__name__)}: "
                    f"{html.escape(str(exc)[:200])}.</p>"
                )
                outcome.append((key, f"failed: {type(exc).__name__}: {exc}"))
                continue
            name = f"{key}.png"
            path = os.path.join(tmp, name)
            fig.savefig(path, dpi=100)
            with open(path, "rb") as f:
                data = base64.b64encode(f.read()).decode("ascii")
            sections.append(
                f"<h2>{html.escape(title)}</h2><figure><img alt='{html.escape(title)}' "
                f"src='data:image/png;base64,{data}'><figcaption>{html.escape(caption)} "
                f"(<a href='{name}'>{name}</a>)</figcaption></figure>"
            )
            outcome.append((key, name))
        d, cv = result["data"], result["cv"]
        notes = "".join(f"<li>{html.escape(n)}</li>" for n in result["notes"])
        page = f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>classiclearn compare: {html.escape(str(d["source"]))}</title>
<style>{_STYLE}</style></head><body>
<h1>classiclearn compare: {html.escape(str(d["source"]))}</h1>
<p>{d["n_samples"]} rows, {d["n_features"]} feature columns ({d["n_categorical"]} categorical,
{d["n_missing_values"]} missing values), target <b>{html.escape(str(d["target"]))}</b>
({d["task"]}). {html.escape(cv["method"])}, k = {cv["k"]}, {cv["repeats"]} repetition(s),
seed {cv["seed"]}; score: {html.escape(result["scoring"][0])}. Each model runs in a pipeline that
imputes, one-hot encodes and (where the method needs it) standardises inside every fold.
Intervals and the "worse" flag use the corrected resampled t-test of Nadeau and Bengio (2003)
against the best model at the 5% level.
classiclearn {html.escape(result["classiclearn_version"])}.</p>
<ul>{notes}</ul>
{_table_html(result)}
{pair_html(result)}
{tuning_html(result)}
{"".join(sections)}
</body></html>
"""
        with open(os.path.join(tmp, "index.html"), "w", encoding="utf-8") as f:
            f.write(page)
        os.makedirs(directory, exist_ok=True)
        for name in os.listdir(tmp):
            os.replace(os.path.join(tmp, name), os.path.join(directory, name))
        return outcome
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
