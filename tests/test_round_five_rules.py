"""Issue 46 (round five), the rules and engine items: each hostile input gets a clear refusal or
the same game on every backend."""

from __future__ import annotations

from typing import Any

import pytest

from diplo.api.game import Game
from diplo.api.phase import process_phase
from diplo.formats.contract import DocumentError, adjudicate_document
from diplo.model.limits import SUGGESTED_ORDERS
from diplo.model.map import standard_map
from diplo.model.orders import OrderParseError, parse_order
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


# --------------------------------------------------------------------------- bounded suggestions


def test_suggestions_stop_after_the_first_unreadable_orders_of_a_phase() -> None:
    position = Position.initial(M)
    texts = [f"A PARX{'Q' * (i % 3)} - BUR" for i in range(SUGGESTED_ORDERS + 15)]
    # a readable order between them counts for nothing
    orders = {"FRANCE": ["A MAR - PIE", *texts], "ITALY": ["A ROMQ - APU"]}
    said = {}
    for backend in BACKENDS:
        outcome = process_phase(position, orders, backend)
        reasons = [r.reason for r in outcome.results if r.given]
        said[backend] = reasons
        assert outcome.results[0].legal
        refused = reasons[1:]
        suggested = ["did you mean" in r for r in refused]
        assert suggested == [True] * SUGGESTED_ORDERS + [False] * (len(refused) - SUGGESTED_ORDERS)
        assert all("unknown unit location" in r for r in refused)
    assert said["rust"] == said["python"]
    # One order alone keeps its suggestion.
    with pytest.raises(OrderParseError, match="did you mean"):
        parse_order("A PARX - BUR", M)
