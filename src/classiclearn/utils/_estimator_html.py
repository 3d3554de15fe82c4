"""HTML representation of estimators for Jupyter (``_repr_html_``).

One block per estimator: its class name, a fitted / not fitted marker and a
table of the parameters that differ from the defaults; nested estimators
(pipeline steps, the ``estimator`` of a meta-estimator) are nested blocks.
Plain HTML with a small inline style sheet: ``<details>`` folds the blocks,
no JavaScript. Every text is escaped.
"""

import html
import inspect

__all__ = ["estimator_html"]

_STYLE = """<style>
.cl-estimator{font-family:monospace;font-size:0.9em;color:#222;display:inline-block}
.cl-block{border:1px solid #8aa;border-radius:4px;margin:4px 0 4px 0;padding:2px 6px;
background:#f4f8fb}
.cl-block.cl-fitted{background:#eaf6ea;border-color:#6a6}
.cl-block>summary{cursor:pointer;font-weight:bold}
.cl-label{color:#555;font-weight:normal}
.cl-status{font-size:0.8em;font-weight:normal;border-radius:3px;padding:0 4px;margin-left:6px;
border:1px solid #aaa}
.cl-fitted>summary .cl-status{border-color:#6a6;color:#262}
.cl-params{border-collapse:collapse;margin:2px 0 2px 12px}
.cl-params td{padding:0 6px;border-bottom:1px solid #ddd;vertical-align:top}
.cl-nested{margin-left:14px}
.cl-serial>.cl-nested>.cl-block+.cl-block::before{content:"\\2193";display:block;
text-align:center;color:#888}
</style>"""


def _is_estimator(value):
    return hasattr(value, "get_params") and not isinstance(value, type)


def _named_estimators(value):
    """``[(name, estimator), ...]`` if ``value`` is a list of named steps, else None."""
    if not isinstance(value, list | tuple) or not value:
        return None
    pairs = []
    for item in value:
        if not (isinstance(item, tuple) and len(item) >= 2 and isinstance(item[0], str)):
            return None
        step = item[1]
        if not (_is_estimator(step) or step is None or isinstance(step, str)):
            return None
        pairs.append((item[0], step))
    return pairs


def _is_fitted(estimator):
    check = getattr(estimator, "__sklearn_is_fitted__", None)
    if check is not None:
        try:
            return bool(check())
        except Exception:  # a meta-estimator may ask its inner estimator
            return False
    return any(k.endswith("_") and not k.startswith("__") for k in vars(estimator))


def _changed_params(estimator):
    changed = getattr(estimator, "_changed_params", None)
    if changed is not None:
        return changed()
    # another library's estimator (e.g. scikit-learn's inside our Pipeline)
    from ..base import _same_default

    try:
        params = estimator.get_params(deep=False)
        signature = inspect.signature(type(estimator).__init__).parameters
    except (TypeError, ValueError):
        return {}
    empty = inspect.Parameter.empty
    return {
        name: value for name, value in params.items()
        if not _same_default(value, signature[name].default if name in signature else empty)
    }


def _fitted_counterpart(estimator, key, value):
    """The fitted version of a nested estimator parameter when the meta-estimator keeps
    one beside it (``steps`` -> ``steps_``, ``estimator`` -> ``estimator_``)."""
    fitted = getattr(estimator, key + "_", None) if isinstance(key, str) else None
    if fitted is None:
        return value
    if _is_estimator(value) and _is_estimator(fitted) and type(fitted) is type(value):
        return fitted
    pairs, fitted_pairs = _named_estimators(value), _named_estimators(fitted)
    if pairs is not None and fitted_pairs is not None \
            and [name for name, _ in pairs] == [name for name, _ in fitted_pairs]:
        return fitted
    return value


def _value_text(value):
    text = repr(value)
    if len(text) > 200:
        text = text[:197] + "..."
    return html.escape(text)


def _block(estimator, label=None, *, root=False):
    name = html.escape(type(estimator).__name__)
    fitted = _is_fitted(estimator)
    status = "fitted" if fitted else "not fitted"
    changed = _changed_params(estimator)
    nested = []
    rows = []
    for key, value in changed.items():
        value = _fitted_counterpart(estimator, key, value)
        pairs = _named_estimators(value)
        if _is_estimator(value):
            nested.append(_block(value, key))
        elif pairs is not None:
            nested.extend(_step_block(step_name, step) for step_name, step in pairs)
        else:
            rows.append(f"<tr><td>{html.escape(key)}</td><td>{_value_text(value)}</td></tr>")
    serial = " cl-serial" if type(estimator).__name__ == "Pipeline" else ""
    classes = "cl-block" + (" cl-fitted" if fitted else "") + serial
    label_html = f'<span class="cl-label">{html.escape(label)}: </span>' if label else ""
    parts = [
        f'<details class="{classes}"{" open" if root or nested else ""}>',
        f'<summary>{label_html}{name}<span class="cl-status">{status}</span></summary>',
    ]
    if rows:
        parts.append(f'<table class="cl-params">{"".join(rows)}</table>')
    if nested:
        parts.append(f'<div class="cl-nested">{"".join(nested)}</div>')
    parts.append("</details>")
    return "".join(parts)


def _step_block(name, step):
    if _is_estimator(step):
        return _block(step, name)
    text = html.escape(repr(step) if step is not None else "passthrough")
    return (f'<details class="cl-block"><summary><span class="cl-label">'
            f"{html.escape(name)}: </span>{text}</summary></details>")


def estimator_html(estimator):
    """Self-contained HTML showing ``estimator`` and its nested estimators.

    Parameters
    ----------
    estimator : estimator

    Returns
    -------
    str

    Examples
    --------
    >>> from classiclearn.linear_model import Ridge
    >>> "Ridge" in estimator_html(Ridge(alpha=2.0))
    True
    """
    return f'{_STYLE}<div class="cl-estimator">{_block(estimator, root=True)}</div>'
