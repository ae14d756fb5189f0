"""The benchmark boards are legal and contain what they claim.

``rust/benches/resolve.rs`` feeds the core the boards of ``rust/benches/boards.json`` without
validation, so an illegal order there would be timed as part of a real phase (the first version
of its midgame board had a support from the Norwegian Sea to St Petersburg). Here every order
passes :mod:`diplo.validation`, and every board's ruling on each backend is the one it claims:
the listed result codes (every other order succeeds), the moves that go by convoy, and the
dislodged units with their retreat options; a board with a retreat phase has legal, successful
retreats. The Python benches' boards are made of legal orders by construction (random choices
from ``legal_orders``), which ``test_python_bench_boards_are_legal`` checks.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from diplo.api.backends import available_backends
from diplo.api.phase import process_phase
from diplo.apps import bench
from diplo.model.map import standard_map
from diplo.model.position import Phase, Piece, Position, parse_piece
from diplo.reference.resolver import resolve_movement
from diplo.reference.validation import validate

ROOT = Path(__file__).resolve().parent.parent
BOARDS: list[dict[str, Any]] = json.loads(
    (ROOT / "rust" / "benches" / "boards.json").read_text(encoding="utf-8")
)
M = standard_map()


def _position(board: dict[str, Any]) -> tuple[Position, dict[str, list[str]]]:
    units: dict[str, Piece] = {}
    orders: dict[str, list[str]] = {}
    for power, text in board["orders"]:
        piece = parse_piece(power, " ".join(text.split()[:2]), M)
        assert piece.province not in units, f"two units in {piece.province}"
        units[piece.province] = piece
        orders.setdefault(power, []).append(text)
    return Position(M, Phase.parse(board["phase"]), units, {}), orders


def test_the_boards_are_there() -> None:
    assert [b["name"] for b in BOARDS] == ["midgame", "paradox", "battle"]
    for board in BOARDS:
        assert len(board["orders"]) >= 30, board["name"]  # full boards


@pytest.mark.parametrize("board", BOARDS, ids=[b["name"] for b in BOARDS])
def test_every_order_is_legal(board: dict[str, Any]) -> None:
    position, orders = _position(board)
    rulings = validate(position, orders).rulings
    refused = [f"{r.power} {r.text}: {r.message}" for r in rulings if not r.legal]
    assert refused == []


@pytest.mark.parametrize("backend", available_backends())
@pytest.mark.parametrize("board", BOARDS, ids=[b["name"] for b in BOARDS])
def test_each_board_contains_what_it_claims(board: dict[str, Any], backend: str) -> None:
    position, orders = _position(board)
    outcome = process_phase(position, orders, backend)
    got: dict[str, list[str]] = {}
    for result in outcome.results:
        assert result.unit is not None
        if result.code != "ok":
            got.setdefault(result.code, []).append(M.province_of(result.unit.split()[1]))
    assert {code: sorted(ps) for code, ps in got.items()} == board["claims"]
    # Which moves went by convoy: the reference's facts (the engine is held to them by
    # tests/test_engine.py; its results say "by convoy" only for moves that succeeded).
    validated = validate(position, orders).orders
    ruling = resolve_movement(M, position.units, validated).outcomes
    assert sorted(p for p, o in ruling.items() if o.convoyed) == board["convoyed"]
    retreats = {p: list(d.options) for p, d in outcome.dislodged.items()}
    assert retreats == board["retreats"]
    if "retreat_orders" in board:
        nxt = outcome.next
        assert nxt.phase.kind == "R"
        retreat_orders: dict[str, list[str]] = {}
        for power, text in board["retreat_orders"]:
            retreat_orders.setdefault(power, []).append(text)
        results = process_phase(nxt, retreat_orders, backend).results
        given = [r for r in results if r.given]
        assert len(given) == len(board["retreat_orders"])
        assert all(r.legal and r.success for r in given), given


def test_the_check_can_fail() -> None:
    # The old midgame support: the Norwegian Sea does not border St Petersburg.
    position = Position(
        M,
        Phase.parse("S1902M"),
        {
            "BAR": parse_piece("ENGLAND", "F BAR", M),
            "NWG": parse_piece("ENGLAND", "F NWG", M),
        },
        {},
    )
    ruling = validate(position, {"ENGLAND": ["F BAR - STP/NC", "F NWG S F BAR - STP/NC"]})
    assert [r.legal for r in ruling.rulings] == [True, False]


def test_python_bench_boards_are_legal() -> None:
    for phase in bench.prepare_movement_phases(8, 0):
        refused = [r for r in validate(phase.position, phase.orders).rulings if not r.legal]
        assert refused == []
