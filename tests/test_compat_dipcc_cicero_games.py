"""Cicero's 40 webDiplomacy games (``data/cicero_redacted_games`` of
facebookresearch/diplomacy_cicero) replayed through the dipcc drop-in: every played phase ruled
again from its archived board gives the archived next board (``tools/cicero_games.py``).
Skipped by name unless ``DIPCC_SOURCES`` names a copy of the repository (CI has none)."""

from __future__ import annotations

import importlib.util
import json
import os
from pathlib import Path
from typing import Any

import pytest

import diplo.compat.dipcc as drop_in


def _tool() -> Any:
    path = Path(__file__).resolve().parent.parent / "tools" / "cicero_games.py"
    spec = importlib.util.spec_from_file_location("cicero_games", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


cicero_games = _tool()
SOURCES = os.environ.get("DIPCC_SOURCES")
GAMES = sorted(cicero_games.games_dir(SOURCES).glob("game_*.json")) if SOURCES else []

pytestmark = pytest.mark.skipif(
    not GAMES,
    reason="Cicero's games: set DIPCC_SOURCES to a copy of facebookresearch/diplomacy_cicero",
)


def test_forty_games_are_there() -> None:
    assert len(GAMES) == 40


@pytest.mark.parametrize("path", GAMES, ids=[p.stem for p in GAMES])
def test_every_phase_as_archived(path: Path) -> None:
    doc = json.loads(path.read_text())
    rows = cicero_games.replay(drop_in, doc)
    assert len(rows) == len(doc["phases"]) - 1
    for phase, got, archived in rows:
        assert got == archived, (path.stem, phase)
