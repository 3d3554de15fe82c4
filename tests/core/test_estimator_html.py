"""The HTML representation of estimators in Jupyter (issue 16 item 6)."""

from html.parser import HTMLParser

import numpy as np
import pytest

from classiclearn import config_context, get_config, set_config
from classiclearn.linear_model import LogisticRegression, Ridge
from classiclearn.multiclass import OneVsRestClassifier
from classiclearn.pipeline import Pipeline
from classiclearn.preprocessing import StandardScaler

_VOID = {"br", "hr", "img", "input", "meta", "link", "col", "wbr"}


class _Checker(HTMLParser):
    """Records text and checks that every tag is closed in order."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.text, self.tags, self.errors = [], [], [], []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        if tag not in _VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"unexpected </{tag}> with open {self.stack}")
        else:
            self.stack.pop()

    def handle_data(self, data):
        self.text.append(data)


def _parse(markup):
    checker = _Checker()
    checker.feed(markup)
    checker.close()
    assert not checker.errors, checker.errors
    assert not checker.stack, f"unclosed tags {checker.stack}"
    return checker


def _summaries(markup):
    """The text of every <summary>, in document order."""
    out = []
    for part in markup.split("<summary>")[1:]:
        inner = part.split("</summary>")[0]
        out.append(_parse(inner).text)
    return ["".join(t) for t in out]


def test_html_is_well_formed_and_shows_changed_params_only():
    markup = Ridge(alpha=2.5, fit_intercept=False)._repr_html_()
    checker = _parse(markup)
    text = "".join(checker.text)
    assert "Ridge" in text
    assert "alpha" in text and "2.5" in text and "fit_intercept" in text
    assert "tol" not in text and "solver" not in text  # defaults are not listed
    assert "not fitted" in text
    assert not any(tag == "script" for tag, _ in checker.tags)
    assert markup.startswith("<style>")


def test_string_params_are_escaped():
    markup = LogisticRegression(solver="<b>x</b>")._repr_html_()
    assert "<b>" not in markup
    assert "&lt;b&gt;" in markup
    assert "<b>x</b>" in "".join(_parse(markup).text)


def test_fitted_marker():
    X = np.array([[0.0], [1.0], [2.0], [3.0]])
    est = Ridge().fit(X, [0.0, 1.0, 2.0, 3.0])
    text = "".join(_parse(est._repr_html_()).text)
    assert "fitted" in text and "not fitted" not in text
    assert "cl-fitted" in est._repr_html_()


def test_nested_pipeline_shows_its_steps_as_blocks():
    pipe = Pipeline([
        ("scale", StandardScaler(with_mean=False)),
        ("skip", "passthrough"),
        ("model", OneVsRestClassifier(LogisticRegression(C=0.5))),
    ])
    markup = pipe._repr_html_()
    checker = _parse(markup)
    summaries = _summaries(markup)
    assert summaries[0].startswith("Pipeline")
    assert summaries[1].startswith("scale: StandardScaler")
    assert summaries[2].startswith("skip: 'passthrough'")
    assert summaries[3].startswith("model: OneVsRestClassifier")
    assert summaries[4].startswith("estimator: LogisticRegression")
    # blocks nest: the inner LogisticRegression sits inside three <details>
    assert sum(tag == "details" for tag, _ in checker.tags) == 5
    inner = markup.split("estimator: </span>LogisticRegression")[0]
    assert inner.count("<details") - inner.count("</details>") == 3
    text = "".join(checker.text)
    assert "with_mean" in text and "0.5" in text


def test_display_text_switches_html_off():
    est = Ridge(alpha=3.0)
    bundle = est._repr_mimebundle_()
    assert set(bundle) == {"text/plain", "text/html"}
    assert bundle["text/plain"] == "Ridge(alpha=3.0)"
    with config_context(display="text"):
        assert not hasattr(est, "_repr_html_")
        assert set(est._repr_mimebundle_()) == {"text/plain"}
    assert hasattr(est, "_repr_html_")
    set_config(display="text")
    try:
        assert get_config()["display"] == "text"
        assert set(est._repr_mimebundle_()) == {"text/plain"}
    finally:
        set_config(display="diagram")


def test_bad_config_value_is_refused():
    with pytest.raises(ValueError, match="display must be one of"):
        set_config(display="html")
    assert get_config()["display"] == "diagram"


def test_sklearn_step_inside_our_pipeline_shows_its_changed_params():
    sk_linear = pytest.importorskip("sklearn.linear_model")
    pipe = Pipeline([("scale", StandardScaler()), ("model", sk_linear.Ridge(alpha=7.0))])
    text = "".join(_parse(pipe._repr_html_()).text)
    assert "model: Ridge" in text and "alpha" in text and "7.0" in text


def test_fitted_pipeline_shows_fitted_steps():
    X = np.array([[0.0, 1.0], [1.0, 0.0], [2.0, 1.0], [3.0, 0.0]])
    pipe = Pipeline([("scale", StandardScaler()), ("model", Ridge(alpha=2.0))])
    pipe.fit(X, [0.0, 1.0, 2.0, 3.0])
    summaries = _summaries(pipe._repr_html_())
    assert summaries[0] == "Pipelinefitted"
    assert summaries[1] == "scale: StandardScalerfitted"
    assert summaries[2] == "model: Ridgefitted"


def test_every_registered_estimator_renders():
    import importlib
    import pkgutil

    import common_params
    from classiclearn import all_estimators

    params = {}
    for info in pkgutil.iter_modules(common_params.__path__):
        module = importlib.import_module(f"common_params.{info.name}")
        params.update(getattr(module, "CHECK_PARAMS", {}))
    for name, cls in all_estimators():
        settings = params.get(name, {})
        kwargs = settings[0] if isinstance(settings, list) else settings
        text = "".join(_parse(cls(**kwargs)._repr_html_()).text)
        assert name in text
