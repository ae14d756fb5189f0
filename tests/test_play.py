"""``diplo play``: a whole random game, the same on every backend for the same seed."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from diplo.apps.play import play_game
from diplo.formats.gamefile import load

ROOT = Path(__file__).resolve().parent.parent


def _record(seed: int, backend: str) -> list[tuple[str, object, object]]:
    game = play_game(seed, 1906, backend)
    return [(str(r.phase), r.orders, r.outcome.to_json()) for r in game.history]


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
            "diplo.apps.cli",
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
    assert lines[0] == "Spring 1901, movement"
    assert "Fall 1903, movement" in lines
    # The final count is a table: one row per power, then the total, which matches the game.
    header = lines.index("power      centres  units")
    rows = [line.split() for line in lines[header + 1 :]]
    assert [r[0] for r in rows[:-1]] and rows[-1][0] == "total"
    assert len(rows) == 8
    assert sum(int(r[1]) for r in rows[:-1]) == int(rows[-1][1])
    # The saved file replays to the same game.
    game = load(out)
    assert game.is_over and str(game.history[0].phase) == "S1901M"


def _play(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "diplo.apps.cli", "play", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )


def test_negative_seeds_are_refused() -> None:
    proc = _play("--seed", "-1", "--max-year", "1901")
    assert proc.returncode == 2
    assert "the seed must be 0 or more, got -1" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_help_explains_the_options_and_the_default_end() -> None:
    proc = _play("--help")
    text = " ".join(proc.stdout.split())
    assert "runs until one power wins with the map's victory count (18 centres" in text
    for option in ("--seed", "--max-year", "--backend", "--verbose", "--quiet", "--save"):
        assert option in text
    assert "say why each order succeeded or failed" in text


def test_every_dislodgement_is_shown_and_reasons_with_verbose() -> None:
    """A void support whose unit is dislodged says both (the code alone would say only void)."""
    import io

    from diplo.api.phase import process_phase
    from diplo.apps.play import write_phase
    from diplo.model.map import standard_map
    from diplo.model.position import Position

    game_map = standard_map()
    position = Position.from_json(
        {
            "phase": "S1901M",
            "units": {"AUSTRIA": ["A GAL"], "GERMANY": ["A MUN"], "RUSSIA": ["A UKR", "A WAR"]},
        },
        game_map,
    )
    orders = {
        "AUSTRIA": ["A GAL S A MUN - SIL"],
        "RUSSIA": ["A UKR - GAL", "A WAR S A UKR - GAL"],
    }
    outcome = process_phase(position, orders)
    out = io.StringIO()
    write_phase(out, outcome, verbose=True)
    lines = out.getvalue().splitlines()
    assert lines[0] == "Spring 1901, movement"
    support = next(line for line in lines if "A GAL S A MUN - SIL" in line)
    assert "void; dislodged; may retreat to" in support
    assert "Austria" in support
    # -v: each result is followed by its reason, a sentence.
    index = lines.index(support)
    assert lines[index + 1].strip().endswith(".")
