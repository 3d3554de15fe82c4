"""Where compiled kernels are kept: one directory per kernel source, outside the install."""

import os
import pathlib
import shutil

from child_process import run_python
from classiclearn._kernels import jit

FIT_IN_CHILD = (
    "import numpy as np\n"
    "from classiclearn.naive_bayes import GaussianNB\n"
    "X = np.arange(40.0).reshape(20, 2); y = np.arange(20) % 2\n"
    "GaussianNB().fit(X, y).predict(X)\n"
)


def _run(env_updates):
    done = run_python(["-c", FIT_IN_CHILD], **env_updates)
    assert done.returncode == 0, done.stderr


def test_cache_dir_follows_the_environment_and_names_the_kernel_stamp(monkeypatch, tmp_path):
    monkeypatch.setenv("CLASSICLEARN_CACHE_DIR", str(tmp_path))
    path = jit.kernel_cache_dir()
    assert path.parent == tmp_path
    assert path.name == f"numba-{jit._kernel_stamp()}"
    monkeypatch.delenv("CLASSICLEARN_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert jit.kernel_cache_dir().parent == tmp_path / "xdg" / "classiclearn"


def test_compiled_kernels_are_written_to_the_kernel_cache_and_reused(tmp_path):
    _run({"CLASSICLEARN_CACHE_DIR": str(tmp_path)})
    (stamp_dir,) = tmp_path.iterdir()
    files = sorted(p.name for p in (stamp_dir / "naive_bayes").iterdir())
    assert any(f.startswith("_gaussian_kernels.class_weighted_moments") and f.endswith(".nbi")
               for f in files)
    assert any(f.endswith(".nbc") for f in files)
    stamps = {p: p.stat().st_mtime_ns for p in (stamp_dir / "naive_bayes").iterdir()}
    _run({"CLASSICLEARN_CACHE_DIR": str(tmp_path)})  # loads: nothing rewritten
    assert {p: p.stat().st_mtime_ns for p in (stamp_dir / "naive_bayes").iterdir()} == stamps


def test_numba_cache_dir_set_by_the_user_takes_precedence(tmp_path):
    ours, theirs = tmp_path / "ours", tmp_path / "numba"
    _run({"CLASSICLEARN_CACHE_DIR": str(ours), "NUMBA_CACHE_DIR": str(theirs)})
    assert not ours.exists()
    assert any(p.suffix == ".nbi" for p in pathlib.Path(theirs).rglob("*"))


def test_stamp_changes_with_any_kernel_source(monkeypatch, tmp_path):
    package = tmp_path / "pkg"
    (package / "_kernels").mkdir(parents=True)
    (package / "tree").mkdir()
    (package / "_kernels" / "jit.py").write_text("x = 1\n")
    helper = package / "tree" / "_util_kernels.py"
    helper.write_text("def f():\n    return 1\n")
    (package / "tree" / "_classes.py").write_text("y = 2\n")
    monkeypatch.setattr(jit, "_PACKAGE_ROOT", package)
    before = jit._kernel_stamp()
    (package / "tree" / "_classes.py").write_text("y = 3\n")  # not a kernel module
    assert jit._kernel_stamp() == before
    helper.write_text("def f():\n    return 2\n")
    assert jit._kernel_stamp() != before


def test_a_reinstall_with_new_file_times_loads_the_compiled_kernels(tmp_path):
    cache = tmp_path / "cache"
    _run({"CLASSICLEARN_CACHE_DIR": str(cache)})
    (stamp_dir,) = cache.iterdir()
    stamps = {p: p.stat().st_mtime_ns for p in stamp_dir.rglob("*")}
    # a second install: the same sources at another path, every file written anew
    package = pathlib.Path(jit.__file__).resolve().parent.parent
    copy = tmp_path / "site" / "classiclearn"
    shutil.copytree(package, copy, ignore=shutil.ignore_patterns("__pycache__"))
    _run({"CLASSICLEARN_CACHE_DIR": str(cache), "PYTHONPATH": str(copy.parent)})
    assert {p: p.stat().st_mtime_ns for p in stamp_dir.rglob("*")} == stamps


def test_the_kernel_cache_checks_source_contents_not_file_times(tmp_path):
    first, second = tmp_path / "a.py", tmp_path / "b.py"
    first.write_text("def f():\n    return 1\n")
    second.write_text("def f():\n    return 1\n")
    os.utime(second, (0, 0))
    assert jit._source_digest(str(first)) == jit._source_digest(str(second))
    third = tmp_path / "c.py"
    third.write_text("def f():\n    return 2\n")
    assert jit._source_digest(str(third)) != jit._source_digest(str(first))
