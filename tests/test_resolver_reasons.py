"""The reasons a ruling gives (who cut a support, who stopped a move) come from the rule that
made the ruling, so they name the same unit on every backend and whatever order the units are
listed in: the first in location order among those that qualify."""

from __future__ import annotations

import pytest

from diplo.api.backends import available_backends
from diplo.api.phase import process_phase
from diplo.model.map import standard_map
from diplo.model.orders import parse_order
from diplo.model.position import Phase, Piece, Position, parse_piece
from diplo.reference.resolver import resolve_movement

M = standard_map()

# Munich's support of Berlin is attacked by Tyrolia and Bohemia: both cut it. Three armies
# bounce in Burgundy, all with strength 1.
BOARD = [
    ("GERMANY", "A MUN S A BER"),
    ("GERMANY", "A BER H"),
    ("AUSTRIA", "A TYR - MUN"),
    ("AUSTRIA", "A BOH - MUN"),
    ("FRANCE", "A PAR - BUR"),
    ("FRANCE", "A MAR - BUR"),
    ("ITALY", "A RUH - BUR"),
]


def _units(board: list[tuple[str, str]]) -> dict[str, Piece]:
    units: dict[str, Piece] = {}
    for power, text in board:
        piece = parse_piece(power, " ".join(text.split()[:2]), M)
        units[piece.province] = piece
    return units


def _first(*provinces: str) -> str:
    return min(provinces, key=M.location_index.__getitem__)


@pytest.mark.parametrize("reverse", [False, True])
def test_reasons_do_not_depend_on_unit_order(reverse: bool) -> None:
    # The reference resolver takes the units in the order given; the engine reads a position in
    # province order whatever its dict order (its sentences: the test below).
    board = BOARD[::-1] if reverse else BOARD
    units = _units(board)
    orders = {
        piece.province: parse_order(text, M)
        for (_, text), piece in zip(board, units.values(), strict=True)
    }
    ruling = resolve_movement(M, units, orders).outcomes
    assert ruling["MUN"].code == "cut"
    assert ruling["MUN"].by == _first("TYR", "BOH")
    for mover, rivals in (
        ("PAR", ("MAR", "RUH")),
        ("MAR", ("PAR", "RUH")),
        ("RUH", ("PAR", "MAR")),
    ):
        assert ruling[mover].code == "bounce"
        # Burgundy is empty (hold strength 0): the first rival of the greatest strength stops it.
        assert ruling[mover].by == _first(*rivals)
        assert (ruling[mover].attack, ruling[mover].opposition) == (1, 1)


def test_sentences_are_the_same_on_every_backend_and_order() -> None:
    said: set[tuple[str, ...]] = set()
    for backend in available_backends():
        for board in (BOARD, BOARD[::-1]):
            position = Position(M, Phase.parse("S1901M"), _units(board), {})
            orders: dict[str, list[str]] = {}
            for power, text in board:
                orders.setdefault(power, []).append(text)
            results = process_phase(position, orders, backend).results
            said.add(tuple(sorted(f"{r.unit}: {r.reason}" for r in results)))
    assert len(said) == 1
    (sentences,) = said
    cutter = _first("TYR", "BOH")
    assert any(s.endswith(f"cut by the attack from {cutter}.") for s in sentences), sentences


def test_a_convoy_s_reason_does_not_say_the_army_arrived_when_it_bounced() -> None:
    # The fleet convoyed, the army bounced where it landed: the fleet's reason says only what
    # the fleet did (issue 31: it read "the army was carried").
    from diplo import Position, process_phase
    from diplo.model.map import standard_map

    position = Position.from_json(
        {
            "phase": "S1902M",
            "units": {"ENGLAND": ["F NTH", "A YOR"], "RUSSIA": ["F STP/NC"]},
        },
        standard_map(),
    )
    orders = {"ENGLAND": ["F NTH C A YOR - NWY", "A YOR - NWY"], "RUSSIA": ["F STP/NC - NWY"]}
    for backend in ("python", "rust"):
        results = {r.order: r for r in process_phase(position, orders, backend).results}
        assert results["A YOR - NWY"].code == "bounce"
        convoy = results["F NTH C A YOR - NWY"]
        assert (
            convoy.reason
            == "F NTH C A YOR - NWY: the fleet convoyed; the army's route through it held."
        )
