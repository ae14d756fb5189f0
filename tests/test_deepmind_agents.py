"""DeepMind's own network code drives a whole game on diplo through their own game runner
(issue 30, item 3): ``examples/deepmind_play.py`` with a small network of their architecture and
random parameters, on :class:`diplo.env.deepmind.DiplomacyState`. Needs their code beside the
project (``tests/test_deepmind.py``'s ``SNAPSHOT``) and the ``deepmind`` extra; skips without
either. Every action their network chose was accepted by ``step`` (which refuses any action
that is not a legal one of that power's units), and the game reached its end."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

from diplo.env.deepmind.agents import load_their_code
from processes import env

ROOT = Path(__file__).resolve().parent.parent
NEEDED = ("jax", "haiku", "tree", "dm_env", "ml_collections", "dill", "absl", "immutabledict")


def _snapshot() -> Path:
    pytest.importorskip("numpy")
    pytest.importorskip("pettingzoo")
    from test_deepmind import SNAPSHOT

    if not SNAPSHOT.is_dir():
        pytest.skip(f"no DeepMind snapshot at {SNAPSHOT} (../shared/deepmind-diplomacy)")
    return SNAPSHOT


def test_a_folder_without_their_code_is_refused(tmp_path: Path) -> None:
    (tmp_path / "environment").mkdir()
    (tmp_path / "environment" / "game_runner.py").write_text("")
    with pytest.raises(ValueError, match=r"not a copy of DeepMind.s .*network.network_policy"):
        load_their_code(tmp_path)


#: Run in a process of its own: JAX starts threads, and a fork of the test process after it (the
#: rollouts' local workers) could deadlock. Then MILA's package must be MILA's again.
_SCRIPT = """
import runpy, sys
sys.argv = ["deepmind_play.py", "--deepmind", sys.argv[1], "--small", "--max-year", "1902"]
try:
    runpy.run_path({example!r}, run_name="__main__")
except SystemExit as exc:
    assert exc.code == 0, exc.code
try:
    import diplomacy
except ImportError:
    pass
else:
    assert hasattr(diplomacy, "Game"), diplomacy
"""


def test_their_network_plays_a_whole_game_on_diplo() -> None:
    snapshot = _snapshot()
    for name in NEEDED:
        if importlib.util.find_spec(name) is None:
            pytest.skip(f'no {name}: pip install ".[deepmind]"')
    script = _SCRIPT.format(example=str(ROOT / "examples" / "deepmind_play.py"))
    done = subprocess.run(
        [sys.executable, "-c", script, str(snapshot)],
        capture_output=True,
        text=True,
        timeout=900,
        env=env(),
    )
    assert done.returncode == 0, done.stderr[-3000:]
    lines = done.stdout.splitlines()
    phases = [line.split(" ", 1)[0] for line in lines[:-1]]
    # Two years to the end: movement phases of both years, and the winters with adjustments.
    assert phases[:2] == ["S1901M", "F1901M"] and {"S1902M", "F1902M"} <= set(phases), phases
    assert all(" A " in line or " F " in line or "WAIVE" in line for line in lines[:-1])
    returns = [float(x) for x in lines[-1].removeprefix("returns: [").rstrip("]").split(",")]
    assert len(returns) == 7 and abs(sum(returns) - 1) < 0.005, lines[-1]
