"""Every command and Python example of README.md and docs/*.md runs as written (issue 46).

The fenced blocks of those pages are read as a reader reads them:

- a ``python`` block runs, the blocks of one page in order in one namespace (a later example may
  use what an earlier one made), in a fresh interpreter in a scratch folder; a ``text`` block
  marked ``<!-- output of the example above -->`` is exactly what the Python block before it
  prints;
- a ``sh`` (or ``bash``) block runs in ``bash -e -o pipefail`` in a scratch folder that holds the
  checkout's files (linked, so that ``tools/...`` and ``$PWD/python`` mean what they say), with
  ``diplo``, ``python`` and ``python3`` being this interpreter and the diplo under test; the
  files a block names as the reader's own (``position.json``, ``phase.json``) are there;
  a block marked ``<!-- makes docs/NAME as FILE -->`` must make ``FILE`` equal to the committed
  ``docs/NAME`` byte for byte (the README's picture is what the command draws);
- a block that must not run in CI (the installs themselves, runs of many minutes, files outside
  the repository) is marked ``<!-- not run in CI: REASON -->`` on the line before it, and the
  reason may not be empty.

The marker is an HTML comment: invisible on the rendered page.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

import diplo
from diplo.model.map import standard_map
from diplo.model.position import Position

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
SHELL = {"sh", "bash", "shell"}
#: The extras a Python example may need: without one installed, its page's examples skip.
OPTIONAL = {"numpy", "pettingzoo", "gymnasium", "ray", "jax", "diplomacy", "pyarrow"}

FENCE = re.compile(r"^```(?P<lang>[\w-]*)[ \t]*\n(?P<body>.*?)^```[ \t]*$", re.S | re.M)
MARKER = re.compile(r"<!--\s*(?P<text>.*?)\s*-->\s*$")


@dataclass(frozen=True)
class Block:
    page: Path
    line: int
    lang: str
    body: str
    marker: str  # the comment on the line before the fence, "" for none

    @property
    def where(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"

    @property
    def skipped(self) -> str | None:
        """The reason this block is not run in CI, or ``None``."""
        if self.marker.startswith("not run in CI:"):
            return self.marker.removeprefix("not run in CI:").strip()
        return None


def blocks(page: Path) -> list[Block]:
    text = page.read_text(encoding="utf-8")
    found = []
    for match in FENCE.finditer(text):
        before = text[: match.start()].rstrip("\n").rsplit("\n", 1)[-1]
        marker = MARKER.search(before)
        found.append(
            Block(
                page,
                text.count("\n", 0, match.start()) + 1,
                match.group("lang"),
                match.group("body"),
                marker.group("text") if marker else "",
            )
        )
    return found


ALL = [b for page in PAGES for b in blocks(page)]
SHELL_BLOCKS = [b for b in ALL if b.lang in SHELL]
#: The blocks run (a marked one is not even collected: the suite's skips stay those of files
#: missing beside the checkout, docs/install.md).
RUN_SHELL = [b for b in SHELL_BLOCKS if b.skipped is None]
PYTHON_PAGES = sorted({b.page for b in ALL if b.lang == "python"})


def test_the_pages_have_the_examples_this_test_runs() -> None:
    assert len(SHELL_BLOCKS) >= 8 and len(PYTHON_PAGES) >= 6
    assert any(b.page.name == "README.md" and b.lang == "python" for b in ALL)


def test_every_marker_is_known_and_every_skip_gives_its_reason() -> None:
    for block in ALL:
        if not block.marker:
            continue
        known = (
            block.marker.startswith("not run in CI:")
            or block.marker.startswith("tested")
            or block.marker == "output of the example above"
            or re.fullmatch(r"makes docs/\S+ as \S+", block.marker)
        )
        assert known, f"{block.where}: unknown marker <!-- {block.marker} -->"
        if block.skipped is not None:
            assert len(block.skipped) >= 10, f"{block.where}: say why it is not run"
            assert block.lang in SHELL | {"python"}, block.where


# --------------------------------------------------------------------------- the scratch folder


@pytest.fixture
def scratch(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A folder that looks like the checkout (its entries linked), the reader's own files, and
    an environment whose ``diplo``, ``python`` and ``python3`` are the diplo under test."""
    work = tmp_path / "work"
    work.mkdir()
    for entry in ROOT.iterdir():
        if entry.name not in {"target", ".git", ".venv", "dist"} and not entry.name.startswith("."):
            (work / entry.name).symlink_to(entry)
    position = Position.initial(standard_map())
    (work / "position.json").write_text(json.dumps(position.to_json()))
    phase = {
        **position.to_json(),
        "orders": {"FRANCE": ["A PAR - BUR"], "GERMANY": ["A MUN - BUR"]},
    }
    (work / "phase.json").write_text(json.dumps(phase))
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name, run in (("diplo", "-m diplo"), ("python", ""), ("python3", "")):
        shim = bin_dir / name
        shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" {run} "$@"\n')
        shim.chmod(0o755)
    package_root = str(Path(diplo.__file__).resolve().parents[1])
    env = {
        **os.environ,
        "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
        "PYTHONPATH": os.pathsep.join(
            p for p in (package_root, os.environ.get("PYTHONPATH", "")) if p
        ),
        "PYTHONDONTWRITEBYTECODE": "1",
    }
    return work, env


# --------------------------------------------------------------------------- shell


@pytest.mark.parametrize("block", RUN_SHELL, ids=[b.where for b in RUN_SHELL])
def test_each_command_runs_as_written(block: Block, scratch: tuple[Path, dict[str, str]]) -> None:
    work, env = scratch
    done = subprocess.run(
        ["bash", "-e", "-o", "pipefail", "-c", block.body],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert done.returncode == 0, (
        f"{block.where} failed:\n{done.stdout[-1500:]}\n{done.stderr[-1500:]}"
    )
    made = re.fullmatch(r"makes (docs/\S+) as (\S+)", block.marker)
    if made:
        committed, fresh = ROOT / made.group(1), work / made.group(2)
        assert fresh.read_bytes() == committed.read_bytes(), (
            f"{made.group(1)} is not what {block.where} draws now: run the block and commit "
            f"its {made.group(2)} as {made.group(1)}"
        )


def test_the_readme_set_up_commands_are_what_they_say(
    scratch: tuple[Path, dict[str, str]],
) -> None:
    """The two set-up commands are not run here (they install), but what follows the install in
    the first (the main job) is, and the second ends in CI's test command, ``pytest``."""
    first, second = [b for b in SHELL_BLOCKS if b.page.name == "README.md"][:2]
    install = "python3 -m venv .venv && . .venv/bin/activate && pip install . && "
    assert first.body.startswith(install) and first.body.count("\n") == 1
    assert second.body.startswith("python3 -m venv .venv && . .venv/bin/activate && pip install ")
    assert second.body.rstrip().endswith("&& pytest")
    work, env = scratch
    done = subprocess.run(
        ["bash", "-e", "-c", first.body.removeprefix(install)],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Spring 1901, movement\n")
    assert "power      centres  units" in done.stdout


# --------------------------------------------------------------------------- python

_DRIVER = """
import contextlib, io, json, sys
blocks = json.load(open(sys.argv[1]))
names = {"__name__": "__main__"}
printed = []
for where, code in blocks:
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out):
            exec(compile(code, where, "exec"), names)
    except ModuleNotFoundError as exc:
        printed.append({"where": where, "missing": exc.name})
        break
    printed.append({"where": where, "out": out.getvalue()})
json.dump(printed, open(sys.argv[2], "w"))
"""


@pytest.mark.parametrize("page", PYTHON_PAGES, ids=[str(p.relative_to(ROOT)) for p in PYTHON_PAGES])
def test_each_python_example_runs_and_prints_what_the_page_says(
    page: Path, scratch: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    found = blocks(page)
    run = [b for b in found if b.lang == "python" and b.skipped is None]
    expected: dict[str, str] = {}
    for k, b in enumerate(found):
        if b.marker == "output of the example above":
            before = found[k - 1]
            assert k > 0 and before.lang == "python", f"{b.where}: no Python example before it"
            expected[before.where] = b.body
    work, env = scratch
    (tmp_path / "blocks.json").write_text(json.dumps([(b.where, b.body) for b in run]))
    done = subprocess.run(
        [sys.executable, "-c", _DRIVER, str(tmp_path / "blocks.json"), str(tmp_path / "out.json")],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    printed = json.loads((tmp_path / "out.json").read_text())
    for entry in printed:
        if "missing" in entry:
            if entry["missing"].split(".")[0] in OPTIONAL:
                pytest.skip(f"{entry['where']} needs {entry['missing']} (an optional extra)")
            pytest.fail(f"{entry['where']}: no module {entry['missing']}")
    assert [e["where"] for e in printed] == [b.where for b in run]
    for entry in printed:
        if entry["where"] in expected:
            assert entry["out"] == expected[entry["where"]], entry["where"]
