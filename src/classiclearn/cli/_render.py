"""The leaderboard as a table on the terminal (rich), or as plain text."""

__all__ = ["after_table", "format_leaderboard", "print_leaderboard"]


def _f(x, digits=3):
    return "-" if x is None else f"{x:.{digits}f}"


def _time(x):
    if x is None:
        return "-"
    if x < 1e-3:
        return f"{x * 1e6:.0f} µs"
    if x < 1.0:
        return f"{x * 1e3:.1f} ms"
    return f"{x:.2f} s"


def _extra(result):
    return result["scoring"][1:]


def _extra_cell(m, name):
    """Mean and corrected 95% interval of a further scoring."""
    ci = (m.get("ci95") or {}).get(name)
    mean = _f(m["means"].get(name))
    return f"{mean} [{_f(ci[0])}, {_f(ci[1])}]" if ci else mean


def _name(m):
    return f"{m['model']} (untuned)" if m.get("tuned") is False else m["model"]


def _pair_lines(result):
    pair = result.get("pair")
    if not pair:
        return []
    head = f"paired test {pair['a']} - {pair['b']} (corrected resampled t-test, same folds):"
    if pair.get("error"):
        return [head, f"  {pair['error']}"]
    lines = [head]
    for scoring, r in pair["by_scoring"].items():
        t = "inf" if r["t"] is None and r["p_value"] == 0.0 else _f(r["t"], 2)
        p = "-" if r["p_value"] is None else f"{r['p_value']:.4f}"
        lines.append(
            f"  {scoring}: difference {_f(r['mean_difference'], 4)}, 95% CI "
            f"[{_f(r['ci_low'], 4)}, {_f(r['ci_high'], 4)}], t = {t}, df = {r['df']}, p = {p}"
        )
    return lines


def after_table(result):
    """The lines printed under the leaderboard: tuned settings per fold, the paired test."""
    from ._tune import format_tuning

    lines = format_tuning(result)
    pair = _pair_lines(result)
    return lines + ([""] if lines and pair else []) + pair


def _rows(result):
    extra = _extra(result)
    for m in result["models"]:
        if m["error"] is not None:
            cells = [str(m["rank"] or "-"), _name(m), "failed", "", "", "", m["error"][:64]]
            yield m, cells + [""] * len(extra)
            continue
        flag = "worse" if m["worse_than_best"] else ("best" if m["rank"] == 1 else "")
        p = m["p_vs_best"]
        yield (
            m,
            [
                str(m["rank"]),
                _name(m),
                f"{_f(m['mean'])} ± {_f(m['std'])}",
                f"[{_f(m['ci95_low'])}, {_f(m['ci95_high'])}]",
                _time(m["fit_time_s"]),
                _time(m["predict_time_s"]),
                " ".join(x for x in (flag, f"p={p:.3f}" if p is not None else "") if x),
            ]
            + [_extra_cell(m, name) for name in extra],
        )


_HEADERS = ["#", "model", "{score} mean ± std", "95% CI", "fit", "predict", "vs best"]


def _title(result):
    d, cv = result["data"], result["cv"]
    tuned = (
        f"; tuned: nested, inner {result['tune']['inner_cv']}-fold grid search"
        if result.get("tune")
        else ""
    )
    return (
        f"{d['source']}: {d['n_samples']} rows, {d['n_features']} features, target "
        f"{d['target']!r} ({d['task']}); {cv['method']}, k={cv['k']} x {cv['repeats']}{tuned}"
    )


def _caption(result):
    search = " (tuned models: the whole inner search and refit)" if result.get("tune") else ""
    return (
        f"fit / predict: median time per fold{search}. 95% CI (of every score) and 'worse': "
        "corrected resampled t-test (Nadeau & Bengio 2003) against the best model, alpha = 0.05."
    )


def format_leaderboard(result):
    """The leaderboard as plain text (fixed-width columns)."""
    headers = [h.format(score=result["scoring"][0]) for h in _HEADERS] + _extra(result)
    body = [cells for _, cells in _rows(result)]
    widths = [max(len(r[i]) for r in [headers, *body]) for i in range(len(headers))]
    lines = [_title(result), ""]
    lines.append("  ".join(h.ljust(w) for h, w in zip(headers, widths)).rstrip())
    lines.append("  ".join("-" * w for w in widths))
    for cells in body:
        lines.append("  ".join(c.ljust(w) for c, w in zip(cells, widths)).rstrip())
    lines += ["", _caption(result)]
    extra_lines = after_table(result)
    lines += [""] + extra_lines if extra_lines else []
    lines += [f"note: {n}" for n in result["notes"]]
    return "\n".join(lines)


def print_leaderboard(result, stream=None):
    """Print the leaderboard with rich (colours only on a terminal)."""
    import sys

    try:
        from rich.console import Console
        from rich.table import Table
    except ImportError:  # rich is in the cli extra; plain text without it
        print(format_leaderboard(result), file=stream or sys.stdout)
        return

    stream = stream or sys.stdout
    console = Console(file=stream, highlight=False, soft_wrap=False)
    if not console.is_terminal:
        console = Console(file=stream, highlight=False, soft_wrap=False, width=120)
    table = Table(
        title=_title(result), caption=_caption(result), title_justify="left", caption_justify="left"
    )
    for i, h in enumerate(_HEADERS):
        table.add_column(
            h.format(score=result["scoring"][0]),
            justify="right" if i in (0, 4, 5) else "left",
            no_wrap=i != 6,
            min_width=7 if i == 6 else None,  # "p=0.123" stays on one line
        )
    for name in _extra(result):
        table.add_column(name, justify="right", min_width=len(name))
    for m, cells in _rows(result):
        style = "bold green" if m["rank"] == 1 else ("dim" if m["worse_than_best"] else None)
        if m["error"] is not None:
            style = "red"
        table.add_row(*cells, style=style)
    console.print(table)
    for line in after_table(result):
        console.print(line, markup=False, soft_wrap=True)  # a wide table stays one per row
    for n in result["notes"]:
        console.print(f"note: {n}")
