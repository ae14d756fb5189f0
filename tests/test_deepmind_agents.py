"""DeepMind's own network code drives a whole game on diplo through their own game runner
(issue 30, item 3): ``examples/deepmind_play.py`` with a small network of their architecture and
random parameters, on :class:`diplo.env.deepmind.DiplomacyState`. Needs their code beside the
project (``tests/test_deepmind.py``'s ``SNAPSHOT``) and the ``deepmind`` extra; skips without
either. Every action their network chose was accepted by ``step`` (which refuses any action
that is not a legal one of that power's units), and the game reached its end."""

from __future__ import annotations

import importlib.util
import io
from contextlib import redirect_stdout
from pathlib import Path
from types import ModuleType

import pytest

from diplo.env.deepmind.agents import load_their_code

ROOT = Path(__file__).resolve().parent.parent
NEEDED = ("jax", "haiku", "tree", "dm_env", "ml_collections", "dill", "absl", "immutabledict")


def _snapshot() -> Path:
    pytest.importorskip("numpy")
    pytest.importorskip("pettingzoo")
    from test_deepmind import SNAPSHOT

    if not SNAPSHOT.is_dir():
        pytest.skip(f"no DeepMind snapshot at {SNAPSHOT} (../shared/deepmind-diplomacy)")
    return SNAPSHOT


def _example() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "deepmind_play", ROOT / "examples" / "deepmind_play.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_folder_without_their_code_is_refused(tmp_path: Path) -> None:
    (tmp_path / "environment").mkdir()
    (tmp_path / "environment" / "game_runner.py").write_text("")
    with pytest.raises(ValueError, match=r"not a copy of DeepMind.s .*network.network_policy"):
        load_their_code(tmp_path)


def test_their_network_plays_a_whole_game_on_diplo() -> None:
    snapshot = _snapshot()
    for name in NEEDED:
        pytest.importorskip(name, reason='pip install "diplo[deepmind]"')
    out = io.StringIO()
    with redirect_stdout(out):
        code = _example().main(["--deepmind", str(snapshot), "--small", "--max-year", "1902"])
    assert code == 0
    lines = out.getvalue().splitlines()
    phases = [line.split(" ", 1)[0] for line in lines[:-1]]
    # Two years to the end: movement phases of both years, and the winters with adjustments.
    assert phases[:2] == ["S1901M", "F1901M"] and {"S1902M", "F1902M"} <= set(phases), phases
    assert all(" A " in line or " F " in line or "WAIVE" in line for line in lines[:-1])
    returns = [float(x) for x in lines[-1].removeprefix("returns: [").rstrip("]").split(",")]
    assert len(returns) == 7 and abs(sum(returns) - 1) < 0.005, lines[-1]
    # MILA's package is MILA's again once their code is loaded.
    diplomacy = pytest.importorskip("diplomacy")
    assert hasattr(diplomacy, "Game")
