"""The package as a user meets it: the curated top level, the version, the docs and data it carries,
and the wording of its reasons."""

from __future__ import annotations

import importlib.metadata
import subprocess
import sys
from pathlib import Path

import pytest

import diplo
from diplo import _core
from diplo.api.phase import process_phase
from diplo.apps.common import contract_path
from diplo.apps.conformance import find_fixture, load_cases
from diplo.model.map import standard_map
from diplo.model.position import Position

ROOT = Path(__file__).resolve().parent.parent


def test_the_top_level_exposes_the_everyday_api() -> None:
    for name in diplo.__all__:
        assert getattr(diplo, name) is not None, name
    everyday = {
        "Game",
        "Position",
        "standard_map",
        "process_phase",
        "legal_orders",
        "CodeGame",
        "parse_order",
        "format_order",
        "OrderParseError",
        "PositionError",
        "MapError",
        "DocumentError",
        "GameOverError",
    }
    assert everyday <= set(diplo.__all__)
    position = diplo.Position.initial(diplo.standard_map())
    outcome = diplo.process_phase(position, {"FRANCE": ["A PAR - BUR"]})
    assert outcome.next.unit_at("BUR") is not None
    assert diplo.format_order(diplo.parse_order("a par-bur", position.map)) == "A PAR - BUR"


def test_error_types_are_value_errors_except_game_over() -> None:
    for name in ("OrderParseError", "PositionError", "MapError", "DocumentError", "MilaError"):
        assert issubclass(getattr(diplo, name), ValueError), name
    assert issubclass(diplo.GameOverError, RuntimeError)


def test_game_over_is_defined_once_in_the_core() -> None:
    """The core raises its own exception type; the package re-exports that very type."""
    from diplo.api.game import GameOverError

    assert diplo.GameOverError is GameOverError is _core.GameOverError
    game = diplo.CodeGame(max_year=1901)
    while not game.is_over:
        game.set_orders([])
        game.process()
    with pytest.raises(diplo.GameOverError, match="over"):
        game.process()
    slow = diplo.Game(max_year=1901)
    while not slow.is_over:
        slow.process()
    with pytest.raises(GameOverError):
        slow.process()


def test_versions_agree() -> None:
    assert diplo.__version__ == importlib.metadata.version("diplo") == _core.__version__
    proc = subprocess.run(
        [sys.executable, "-m", "diplo.apps.cli", "--version"], capture_output=True, text=True
    )
    assert proc.returncode == 0
    assert proc.stdout.startswith(f"diplo {diplo.__version__} (DATC v3.0")


def test_the_package_carries_its_contract_and_fixture() -> None:
    contract = contract_path()
    assert contract.is_file()
    assert "## The input document" in contract.read_text(encoding="utf-8")
    assert len(load_cases(find_fixture())) == 164
    proc = subprocess.run(
        [sys.executable, "-m", "diplo.apps.cli", "adjudicate", "--help"],
        capture_output=True,
        text=True,
    )
    assert "json-contract.md" in proc.stdout.replace("\n", "").replace(" ", "")


def test_the_license_matches_the_metadata() -> None:
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License")
    meta = importlib.metadata.metadata("diplo")
    declared = (meta.get_all("License") or []) + (meta.get_all("License-Expression") or [])
    assert any("MIT" in text for text in declared), declared


# --------------------------------------------------------------------------- wording


def _reasons(orders: dict[str, list[str]], position: Position | None = None) -> list[str]:
    position = position or Position.initial(standard_map())
    return [r.reason for r in process_phase(position, orders).results if r.given]


def test_a_misspelt_province_gets_the_nearest_names() -> None:
    (reason,) = _reasons({"FRANCE": ["A PAR - BRG"]})
    assert "unknown destination 'brg'" in reason.lower()
    assert "did you mean" in reason and "BRE" in reason
    (reason,) = _reasons({"FRANCE": ["A PAR - Burgundyy"]})
    assert "Burgundy" in reason


def test_reasons_are_sentences_with_power_names() -> None:
    reasons = _reasons(
        {"FRANCE": ["A PAR - BRG", "F BRE - PAR", "A BER - KIE", "A MAR - BUR", "A MAR H"]}
    )
    assert all(r.endswith(".") for r in reasons), reasons
    foreign = next(r for r in reasons if r.startswith("A BER - KIE"))
    assert "belongs to Germany, not France" in foreign
    assert "GERMANY" not in " ".join(reasons) and "FRANCE" not in " ".join(reasons)


def test_one_allowed_build_is_worded_for_one() -> None:
    position = Position.from_json(
        {
            "phase": "W1901A",
            "units": {"FRANCE": ["A BUR", "F MAO"]},
            "centers": {"FRANCE": ["PAR", "MAR", "BRE"]},
        },
        standard_map(),
    )
    outcome = process_phase(position, {})
    waives = [r.reason for r in outcome.results if not r.given and r.order == "WAIVE"]
    assert waives == ["France did not use its one allowed build, so it is waived."]
