"""Issue 46 (round five), the rules and engine items: each hostile input gets a clear refusal or
the same game on every backend."""

from __future__ import annotations

from typing import Any

import pytest

from diplo.api.game import Game
from diplo.api.phase import process_phase
from diplo.formats.contract import DocumentError, adjudicate_document
from diplo.model.map import standard_map
from diplo.model.position import Position

M = standard_map()
BACKENDS = ("rust", "python")

# --------------------------------------------------------------------------- orders not a list


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    ("given", "said"),
    [
        ("A PAR - BUR", r"not one string \(for one order write \['A PAR - BUR'\]\)"),
        (None, "not null"),
        (5, "not 5"),
        (b"A PAR H", "not b'A PAR H'"),
        ({"A PAR H": 1}, "not {"),
    ],
)
def test_orders_that_are_not_a_list_are_refused_on_every_entry(
    backend: str, given: Any, said: str
) -> None:
    position = Position.initial(M)
    with pytest.raises(
        ValueError, match=f"the orders of 'FRANCE' must be a list of orders, {said}"
    ):
        process_phase(position, {"FRANCE": given}, backend)
    game = Game(backend=backend)
    with pytest.raises(
        ValueError, match=f"the orders of 'FRANCE' must be a list of orders, {said}"
    ):
        game.set_orders("france", given)
    assert game.orders == {}
    # a tuple is a list of orders
    outcome = process_phase(position, {"FRANCE": ("A PAR - BUR",)}, backend)
    assert outcome.next.units["BUR"].power == "FRANCE"


def test_orders_not_keyed_by_power_are_refused() -> None:
    with pytest.raises(ValueError, match="orders must be a mapping of power to a list of orders"):
        process_phase(Position.initial(M), [("FRANCE", ["A PAR H"])])  # type: ignore[arg-type]


def test_a_document_with_one_string_for_a_power_is_refused() -> None:
    with pytest.raises(DocumentError, match="must be a list of order strings"):
        adjudicate_document({"phase": "S1901M", "orders": {"FRANCE": "A PAR - BUR"}})
