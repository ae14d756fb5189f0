"""``docs/deepmind.md`` as a reader uses it: its Python example runs as written and prints what
the page says; its bench command is the one that works after the README's install (no
``PYTHONPATH`` over a source tree without its core, whose import says what to do); the bench
finds DeepMind's code beside the checkout, not inside the environment."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from processes import PYTHONPATH as UNDER_TEST

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "deepmind.md"


def _blocks(text: str, after: str) -> list[tuple[str, str]]:
    """The fenced blocks (language, body) of the section headed ``after``."""
    section = text.split(f"\n## {after}\n", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```(\w+)\n(.*?)```", section, flags=re.S)


def test_the_python_example_runs_as_written(tmp_path: Path) -> None:
    pytest.importorskip("numpy", reason='diplo.env needs pip install "diplo[env]"')
    (lang, code), (out_lang, printed) = _blocks(DOC.read_text(), "In Python")[:2]
    assert lang == "python" and out_lang == "text"
    script = tmp_path / "example.py"
    script.write_text(code)
    env = {**os.environ, "PYTHONPATH": UNDER_TEST}
    done = subprocess.run(
        [sys.executable, str(script)], env=env, cwd=tmp_path, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == printed


def test_the_bench_command_is_the_installed_one() -> None:
    (lang, command), *_ = _blocks(DOC.read_text(), "Speed")
    assert lang == "sh"
    assert command.strip() == "python3 -m diplo bench --workloads deepmind"
    assert "PYTHONPATH" not in command


def test_a_source_tree_without_its_core_says_how_to_build_it(tmp_path: Path) -> None:
    """After a plain ``pip install .`` the checkout's ``python/diplo`` has no compiled core;
    put on the path, it hides the installed diplo: the import says so (not a circular-import
    message)."""
    copy = tmp_path / "python" / "diplo"
    shutil.copytree(
        ROOT / "python" / "diplo",
        copy,
        ignore=shutil.ignore_patterns("_core*.so", "_core*.pyd", "__pycache__"),
    )
    env = {**os.environ, "PYTHONPATH": str(tmp_path / "python")}
    done = subprocess.run(
        [sys.executable, "-c", "import diplo"], env=env, capture_output=True, text=True
    )
    assert done.returncode == 1
    assert "diplo's compiled core (_core) is not in" in done.stderr
    assert "pip install -e ." in done.stderr and "without PYTHONPATH" in done.stderr


def test_their_code_is_looked_for_beside_the_checkout_or_the_current_directory(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from diplo.apps.bench import deepmind

    monkeypatch.delenv("DIPLO_DEEPMIND", raising=False)
    beside = Path("shared") / "deepmind-diplomacy"
    assert deepmind.snapshot_path() == ROOT.parent / beside  # run from the source tree
    # Installed (no checkout around the package): from the current directory.
    fake = tmp_path / "venv" / "lib" / "site-packages" / "diplo" / "apps" / "bench" / "x.py"
    monkeypatch.setattr(deepmind, "__file__", str(fake))
    work = tmp_path / "work" / "checkout"
    work.mkdir(parents=True)
    monkeypatch.chdir(work)
    assert deepmind.snapshot_path() == tmp_path / "work" / beside
    monkeypatch.setenv("DIPLO_DEEPMIND", str(tmp_path))
    assert deepmind.snapshot_path() == tmp_path
