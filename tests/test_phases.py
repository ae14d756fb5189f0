"""Phase names as MILA writes them (four-digit years, ``S0001M`` on ancmed) read wherever MILA's
data enters -- the JSON contract (plain and ``--jsonl``, both backends), MILA saved games and the
drop-in -- and diplo's own names written; a phase diplo cannot read is a clear error naming it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from diplo.api.backends import available_backends
from diplo.compat.mila import Game as MilaGame
from diplo.compat.mila import from_saved_game_format, to_saved_game_format
from diplo.formats.contract import DocumentError, adjudicate_document
from diplo.formats.mila import (
    MilaError,
    mila_phase,
    mila_phase_name,
    position_from_mila,
    position_to_mila,
)
from diplo.model.map import map_named
from diplo.model.position import Phase, Position, PositionError

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(
    ("text", "year", "name"),
    [
        ("S0001M", 1, "S1M"),
        ("F0012R", 12, "F12R"),
        ("W0999A", 999, "W999A"),
        ("S1901M", 1901, "S1901M"),
        ("s0001m", 1, "S1M"),
        ("S1M", 1, "S1M"),
    ],
)
def test_mila_four_digit_years_read_as_diplo_names(text: str, year: int, name: str) -> None:
    phase = Phase.parse(text)
    assert phase.year == year
    assert str(phase) == name
    assert mila_phase(text) == phase
    assert mila_phase(mila_phase_name(phase)) == phase


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("S00001M", "leading zeros must have four digits"),
        ("S01M", "leading zeros must have four digits"),
        ("S10000M", "the year must be 0..9999"),
        ("X1901M", "expected e.g. S1901M"),
        ("S0001A", "no A phase in that season"),
    ],
)
def test_unreadable_phases_say_what_is_wrong(text: str, fragment: str) -> None:
    with pytest.raises(PositionError, match=fragment):
        Phase.parse(text)
    with pytest.raises(PositionError, match=fragment):
        mila_phase(text)


def _ancmed_doc(phase: str) -> dict[str, Any]:
    doc = Position.initial(map_named("ancmed")).to_json()
    return {**doc, "phase": phase, "map": "ancmed", "orders": {}}


@pytest.mark.parametrize("backend", available_backends())
def test_contract_reads_mila_phase_and_writes_diplos(backend: str) -> None:
    mila = adjudicate_document(_ancmed_doc("S0001M"), backend)
    ours = adjudicate_document(_ancmed_doc("S1M"), backend)
    assert mila == ours
    assert mila["phase"] == "S1M"
    assert mila["next"]["phase"] == "F1M"


@pytest.mark.parametrize("backend", available_backends())
@pytest.mark.parametrize("phase", ["S00001M", "S10000M", "X1901M", "S0001A"])
def test_contract_refuses_bad_phase_as_bad_document(backend: str, phase: str) -> None:
    with pytest.raises(DocumentError, match="bad phase"):
        adjudicate_document(_ancmed_doc(phase), backend)


@pytest.mark.parametrize("backend", available_backends())
def test_cli_reads_mila_phases_plain_and_jsonl(backend: str, tmp_path: Path) -> None:
    good, bad = _ancmed_doc("S0001M"), _ancmed_doc("S00001M")
    source = tmp_path / "phases.jsonl"
    source.write_text(f"{json.dumps(good)}\n{json.dumps(bad)}\n")
    run = [sys.executable, "-m", "diplo.apps.cli", "adjudicate", "--backend", backend]
    proc = subprocess.run([*run, "--jsonl", str(source)], capture_output=True, text=True, cwd=ROOT)
    lines = [json.loads(line) for line in proc.stdout.splitlines()]
    assert lines[0]["phase"] == "S1M"
    assert "bad phase 'S00001M'" in lines[1]["error"]
    assert "internal error" not in proc.stdout
    assert proc.returncode == 1
    plain = tmp_path / "bad.json"
    plain.write_text(json.dumps(bad))
    proc = subprocess.run([*run, str(plain)], capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 2
    assert "bad document" in proc.stderr and "S00001M" in proc.stderr


def test_mila_states_and_saved_games_keep_four_digit_names() -> None:
    ancmed = map_named("ancmed")
    state = position_to_mila(Position.initial(ancmed))
    assert state["name"] == "S0001M"
    assert position_from_mila(state, game_map=ancmed).phase == Phase(1, "S", "M")
    with pytest.raises(MilaError, match="bad phase 'S00001M'"):
        position_from_mila({**state, "name": "S00001M"}, game_map=ancmed)


def test_drop_in_names_phases_as_mila_does() -> None:
    game = MilaGame(map_name="ancmed")
    assert game.get_current_phase() == "S0001M"
    assert game.phase == "SPRING 0001 MOVEMENT"
    game.process()
    assert game.get_current_phase() == "F0001M"
    assert list(game.order_history) == ["S0001M"]
    saved = to_saved_game_format(game)
    assert [p["name"] for p in saved["phases"]] == ["S0001M", "F0001M"]
    assert from_saved_game_format(saved).get_current_phase() == "F0001M"
