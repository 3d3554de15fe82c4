"""The leaderboard as a table on the terminal (rich), or as plain text."""

__all__ = ["format_leaderboard", "print_leaderboard"]


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


def _rows(result):
    extra = _extra(result)
    for m in result["models"]:
        if m["error"] is not None:
            cells = [str(m["rank"] or "-"), m["model"], "failed", "", "", "", m["error"][:64]]
            yield m, cells + [""] * len(extra)
            continue
        flag = "worse" if m["worse_than_best"] else ("best" if m["rank"] == 1 else "")
        p = m["p_vs_best"]
        yield (
            m,
            [
                str(m["rank"]),
                m["model"],
                f"{_f(m['mean'])} ± {_f(m['std'])}",
                f"[{_f(m['ci95_low'])}, {_f(m['ci95_high'])}]",
                _time(m["fit_time_s"]),
                _time(m["predict_time_s"]),
                " ".join(x for x in (flag, f"p={p:.3f}" if p is not None else "") if x),
            ]
            + [_f(m["means"].get(name)) for name in extra],
        )


_HEADERS = ["#", "model", "{score} mean ± std", "95% CI", "fit", "predict", "vs best"]


def _title(result):
    d, cv = result["data"], result["cv"]
    return (
        f"{d['source']}: {d['n_samples']} rows, {d['n_features']} features, target "
        f"{d['target']!r} ({d['task']}); {cv['method']}, k={cv['k']} x {cv['repeats']}"
    )


def _caption(result):
    return (
        "fit / predict: median time per fold. 95% CI and 'worse': corrected resampled t-test "
        "(Nadeau & Bengio 2003) against the best model, alpha = 0.05."
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
        )
    for name in _extra(result):
        table.add_column(name, justify="right", min_width=len(name))
    for m, cells in _rows(result):
        style = "bold green" if m["rank"] == 1 else ("dim" if m["worse_than_best"] else None)
        if m["error"] is not None:
            style = "red"
        table.add_row(*cells, style=style)
    console.print(table)
    for n in result["notes"]:
        console.print(f"note: {n}")
