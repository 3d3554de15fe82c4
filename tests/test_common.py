"""scikit-learn's estimator checks on every registered estimator.

Fast constructor parameters and the (ideally empty) expected-failure table come
from ``tests/common_params/<family>.py``; see that package's docstring.
"""

import importlib
import pkgutil

import pytest

from classiclearn import all_estimators

sklearn_estimator_checks = pytest.importorskip("sklearn.utils.estimator_checks")

import common_params  # noqa: E402


def _load_settings():
    params, failures = {}, {}
    for info in pkgutil.iter_modules(common_params.__path__):
        module = importlib.import_module(f"common_params.{info.name}")
        for name, value in getattr(module, "CHECK_PARAMS", {}).items():
            params[name] = value
        for name, value in getattr(module, "EXPECTED_FAILURES", {}).items():
            failures[name] = value
    return params, failures


CHECK_PARAMS, EXPECTED_FAILURES = _load_settings()


def _instances():
    for name, cls in all_estimators():
        settings = CHECK_PARAMS.get(name, {})
        for kwargs in settings if isinstance(settings, list) else [settings]:
            yield cls(**kwargs)


def _expected_failed_checks(estimator):
    return EXPECTED_FAILURES.get(type(estimator).__name__, {})


@sklearn_estimator_checks.parametrize_with_checks(
    list(_instances()), expected_failed_checks=_expected_failed_checks
)
def test_sklearn_compatible_estimator(estimator, check):
    check(estimator)


def test_every_expected_failure_has_a_reason():
    for name, checks in EXPECTED_FAILURES.items():
        for check, reason in checks.items():
            assert isinstance(reason, str) and len(reason) > 10, (name, check)


def test_every_configured_estimator_is_registered():
    registered = {name for name, _ in all_estimators()}
    assert set(CHECK_PARAMS) <= registered
    assert set(EXPECTED_FAILURES) <= registered
