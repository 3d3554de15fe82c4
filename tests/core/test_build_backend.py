"""The build backend compiles the kernels after setuptools' build, and never fails an install."""

import importlib.util
import os
import pathlib
import shutil
import subprocess
import sys
import tomllib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture
def backend():
    spec = importlib.util.spec_from_file_location(
        "classiclearn_build", ROOT / "build_support" / "classiclearn_build.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_pyproject_builds_with_the_backend_and_its_requirements():
    build = tomllib.loads((ROOT / "pyproject.toml").read_text())["build-system"]
    assert build["build-backend"] == "classiclearn_build"
    assert build["backend-path"] == ["build_support"]
    names = {r.split(">")[0].split("=")[0] for r in build["requires"]}
    assert {"setuptools", "numpy", "scipy", "numba"} <= names
    assert "build_support/*.py" in (ROOT / "MANIFEST.in").read_text()


def test_every_pep517_hook_is_there(backend):
    for hook in ("build_wheel", "build_sdist", "build_editable", "get_requires_for_build_wheel",
                 "prepare_metadata_for_build_wheel", "get_requires_for_build_editable"):
        assert callable(getattr(backend, hook)), hook


def test_wheel_and_editable_builds_compile_after_setuptools(backend, monkeypatch):
    calls = []
    monkeypatch.setattr(backend._setuptools, "build_wheel", lambda *a: calls.append("wheel") or "w")
    monkeypatch.setattr(backend._setuptools, "build_editable",
                        lambda *a: calls.append("editable") or "e")
    monkeypatch.setattr(backend, "compile_kernels", lambda: calls.append("compile"))
    assert backend.build_wheel("dist") == "w"
    assert backend.build_editable("dist") == "e"
    assert calls == ["wheel", "compile", "editable", "compile"]


def test_the_step_runs_precompile_on_the_sources_being_built(backend, monkeypatch, tmp_path):
    seen = {}

    def fake_run(command, env, timeout, check):
        seen.update(command=command, env=env, timeout=timeout)
        return subprocess.CompletedProcess(command, 0)

    monkeypatch.delenv(backend.SKIP_VARIABLE, raising=False)
    monkeypatch.setenv("PYTHONPATH", "/elsewhere")
    monkeypatch.setattr(backend.subprocess, "run", fake_run)
    assert backend.compile_kernels(tmp_path) == 0
    assert seen["env"]["PYTHONPATH"].split(":") == [str(tmp_path / "src"), "/elsewhere"]
    assert "precompile(sparse=True)" in seen["command"][-2]
    assert seen["command"][-1] == str(tmp_path / "src")
    assert seen["timeout"] == backend.TIME_LIMIT_SECONDS


@pytest.mark.parametrize("value, runs", [("1", False), ("yes", False), ("0", True), ("", True)])
def test_the_skip_variable(backend, monkeypatch, value, runs):
    ran = []
    monkeypatch.setenv(backend.SKIP_VARIABLE, value)
    monkeypatch.setattr(backend.subprocess, "run",
                        lambda command, **kw: ran.append(1) or subprocess.CompletedProcess(command, 0))
    backend.compile_kernels()
    assert bool(ran) is runs


def test_the_default_sources_are_this_project(backend):
    assert backend.PROJECT_ROOT == ROOT
    assert (backend.PROJECT_ROOT / "src" / "classiclearn" / "precompile.py").is_file()


def test_a_failed_or_timed_out_step_is_reported_not_raised(backend, monkeypatch, capsys):
    monkeypatch.delenv(backend.SKIP_VARIABLE, raising=False)
    monkeypatch.setattr(backend.subprocess, "run",
                        lambda command, **kw: subprocess.CompletedProcess(command, 1))
    assert backend.compile_kernels() == 1
    assert "compile on first use" in capsys.readouterr().err

    def too_slow(command, **kw):
        raise subprocess.TimeoutExpired(command, kw["timeout"])

    monkeypatch.setattr(backend.subprocess, "run", too_slow)
    assert backend.compile_kernels() is None
    assert "timed out" in capsys.readouterr().err


def test_the_child_imports_the_given_sources_from_anywhere(backend, tmp_path, monkeypatch):
    # the child's own code (one estimator instead of all), on a copy of the sources,
    # from another directory and without PYTHONPATH: it must import that copy, not the
    # classiclearn installed in this environment
    code = backend._PRECOMPILE.replace(
        "precompile(sparse=True)", "precompile(['CategoricalNB'], sparse=False, n_jobs=1)")
    code += "\nimport classiclearn; print('FROM', classiclearn.__file__)\n"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    src = tmp_path / "copy" / "src"
    shutil.copytree(backend.PROJECT_ROOT / "src", src,
                    ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    done = subprocess.run([sys.executable, "-c", code, str(src)], env=env,
                          cwd=tmp_path, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert "compiled the kernels of 1 estimator calls" in done.stdout
    assert f"FROM {src}" in done.stdout
