"""Cycle ownership in the reference resolver (the low-link refinement of DATC 5.F).

The board below made the Rust core's first resolver, which followed DATC 5.F's ``recursion_hits``
test to the letter, settle the army's move on the guess of an enclosing cycle when resolution
started at the convoying fleet (found by its random boards; ``rust/tests/properties.rs``). The
convoy is no paradox, since the fleet is supported to hold, so the army must land and dislodge
the unit in Spain whatever decision resolution starts at, on the reference too.
"""

from __future__ import annotations

import pytest

from diplo.model.map import standard_map
from diplo.model.orders import Order, parse_order
from diplo.model.position import Piece
from diplo.reference.resolver import Decision, _MovementResolver

M = standard_map()
BOARD = [
    ("ENGLAND", "F MAO C A POR - SPA"),
    ("FRANCE", "F MAR S A POR - SPA"),
    ("ITALY", "F BRE - MAO"),
    ("FRANCE", "A POR - SPA"),
    ("FRANCE", "F IRI C A POR - SPA"),
    ("GERMANY", "F SWE S F MAO"),
    ("ITALY", "F SPA/SC S F BRE - MAO"),
]


def _resolver(rotation: int) -> _MovementResolver:
    board = BOARD[rotation:] + BOARD[:rotation]
    units: dict[str, Piece] = {}
    orders: dict[str, Order] = {}
    for power, text in board:
        order = parse_order(text, M)
        unit = order.unit  # type: ignore[union-attr]
        assert unit.type is not None
        units[unit.province] = Piece(power, unit.type, unit.loc)
        orders[unit.province] = order
    return _MovementResolver(M, units, orders)


STARTS: list[Decision] = [("convoy", "MAO"), ("move", "POR"), ("support", "SPA"), ("move", "BRE")]


@pytest.mark.parametrize("rotation", range(len(BOARD)))
@pytest.mark.parametrize("start", STARTS)
def test_no_decision_settles_on_an_enclosing_cycles_guess(rotation: int, start: Decision) -> None:
    resolver = _resolver(rotation)
    resolver.resolve(start)
    ruling = resolver.run()
    assert ruling.outcomes["POR"].code == "ok"
    assert ruling.outcomes["MAO"].success
    assert ruling.outcomes["BRE"].code == "bounce"
    assert ruling.dislodged == {"SPA": ("POR", True)}
    assert not ruling.szykman
