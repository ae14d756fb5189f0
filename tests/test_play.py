"""``diplo play``: a whole random game, the same on every backend for the same seed."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from diplo.backend import rust_available
from diplo.gamefile import load
from diplo.play_cli import play_game

ROOT = Path(__file__).resolve().parent.parent


def _record(seed: int, backend: str) -> list[tuple[str, object, object]]:
    game = play_game(seed, 1906, backend)
    return [(str(r.phase), r.orders, r.outcome.to_json()) for r in game.history]


@pytest.mark.skipif(not rust_available(), reason="the Rust core is not built")
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_same_seed_same_game_on_both_backends(seed: int) -> None:
    assert _record(seed, "rust") == _record(seed, "python")


def test_different_seeds_give_different_games() -> None:
    assert _record(1, "python") != _record(2, "python")


def test_game_runs_to_the_end_and_reports_centres(tmp_path: Path) -> None:
    out = tmp_path / "game.json"
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "diplo.cli",
            "play",
            "--seed",
            "5",
            "--max-year",
            "1903",
            "--save",
            str(out),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0] == "S1901M"
    assert any(line.startswith("F1903M") for line in lines)
    assert lines[-1].startswith("supply centres: {")
    # The saved file replays to the same game.
    game = load(out)
    assert game.is_over and str(game.history[0].phase) == "S1901M"
