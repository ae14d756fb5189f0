"""Issue 47, item 3: MILA's order intake under ``edition=mila``, each rule held to MILA itself
(when the ``compare`` extra is installed) and to what MILA was seen to do (always): in a
retreat or adjustment phase an order not legal now is void at once (``VOID ...``, not listed,
taking no unit or site), so a legal one after it for the same unit or site is kept; of two
legal orders in one call for one unit the first is kept; words MILA does not know after an
order (``A PAR-BUR (Occupied!)``) are not read."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from diplo.compat.mila import Game
from diplo.model.rules import Rules

MILA = Rules(edition="mila")


def _engines() -> list[Callable[[], Any]]:
    made: list[Callable[[], Any]] = [Game]  # as it comes: MILA's ruling
    assert Game().ruling == MILA
    try:
        import diplomacy
    except ImportError:
        return made
    return [*made, diplomacy.Game]


def _build(game: Any, calls: list[list[str]]) -> tuple[Any, ...]:
    game.clear_units()
    game.set_units("FRANCE", ["A MAR"])
    game.set_centers("FRANCE", ["PAR", "BRE", "MAR"])
    game.set_current_phase("W1901A")
    for orders in calls:
        game.set_orders("FRANCE", orders)
    given, adjust = game.get_orders("FRANCE"), list(game.get_power("FRANCE").adjust)
    game.process()
    labels = {u: sorted(str(x) for x in v) for u, v in game.result_history.last_value().items()}
    return given, adjust, sorted(game.get_units("FRANCE")), labels


def _retreat(game: Any, calls: list[list[str]]) -> tuple[Any, ...]:
    game.clear_units()
    game.set_units("FRANCE", ["A BUR"])
    game.set_units("GERMANY", ["A MUN", "A RUH"])
    game.set_orders("GERMANY", ["A MUN - BUR", "A RUH S A MUN - BUR"])
    game.process()
    assert game.get_current_phase() == "S1901R"
    for orders in calls:
        game.set_orders("FRANCE", orders)
    given, adjust = game.get_orders("FRANCE"), list(game.get_power("FRANCE").adjust)
    game.process()
    labels = {u: sorted(str(x) for x in v) for u, v in game.result_history.last_value().items()}
    return given, adjust, sorted(game.get_units("FRANCE")), labels


BUILDS = [
    # (calls, orders listed, units after): what MILA does (checked against it when installed)
    ([["F PAR B", "A PAR B"]], ["A PAR B"], ["A MAR", "A PAR"]),
    ([["F PAR B"], ["A PAR B"]], ["A PAR B"], ["A MAR", "A PAR"]),
    ([["A PAR B"], ["F PAR B"]], ["A PAR B"], ["A MAR", "A PAR"]),
    ([["A PAR B", "F PAR B"]], ["A PAR B"], ["A MAR", "A PAR"]),
    ([["A PAR B", "A PAR B"]], ["A PAR B"], ["A MAR", "A PAR"]),
    ([["A MAR D", "A PAR B"]], ["A PAR B"], ["A MAR", "A PAR"]),
    ([["F PAR B"]], [], ["A MAR"]),
    ([["A MAR B"]], [], ["A MAR"]),
    ([["A PAR B"]], ["A PAR B"], ["A MAR", "A PAR"]),
]
RETREATS = [
    ([["A BUR R PAR", "A BUR R PIC"]], ["A BUR R PAR"], ["A PAR"]),
    ([["A BUR R RUH", "A BUR R PIC"]], ["A BUR R PIC"], ["A PIC"]),
    ([["A BUR R PIC"], ["A BUR R RUH"]], ["A BUR R PIC"], ["A PIC"]),
    ([["A BUR R PAR"], ["A BUR R PIC"]], ["A BUR R PIC"], ["A PIC"]),
    ([["A BUR D", "A BUR R PIC"]], ["A BUR D"], []),
    ([["A BUR R RUH"]], [], []),
    ([["A BUR H"]], [], []),
]


@pytest.mark.parametrize(("calls", "listed", "units"), BUILDS)
def test_builds_are_taken_as_mila_takes_them(
    calls: list[list[str]], listed: list[str], units: list[str]
) -> None:
    seen = [_build(make(), calls) for make in _engines()]
    assert seen[0][:1] == (listed,) and seen[0][2] == units
    assert all(s == seen[0] for s in seen)  # orders, MILA's adjust list, units, labels


@pytest.mark.parametrize(("calls", "listed", "units"), RETREATS)
def test_retreats_are_taken_as_mila_takes_them(
    calls: list[list[str]], listed: list[str], units: list[str]
) -> None:
    seen = [_retreat(make(), calls) for make in _engines()]
    assert seen[0][:1] == (listed,) and seen[0][2] == units
    assert all(s == seen[0] for s in seen)


def test_under_diplo_s_ruling_the_last_retreat_order_is_kept() -> None:
    """Outside MILA's ruling the intake is diplo's, as documented (the last order counts)."""
    game = Game(ruling="datc")
    assert _retreat(game, [["A BUR R PAR", "A BUR R PIC"]])[2] == ["A PIC"]


NOTES = [
    ("A PAR-BUR (Occupied!)", ["A PAR - BUR"]),
    ("A PAR - BUR (bounce", ["A PAR - BUR"]),
    ("A PAR - BUR [x]", ["A PAR - BUR"]),
    ("A PAR - BUR (1) (2)", ["A PAR - BUR"]),
    ("A PAR - BUR # x", ["A PAR - BUR"]),
    ("A PAR - BUR (foo bar)", []),  # BAR is a province: no longer an order
    ("A PAR H (hold)", []),  # HOLD is a word of the order language
    ("A PAR (x) - BUR", []),  # only words after the order are passed over
]


@pytest.mark.parametrize(("text", "kept"), NOTES)
def test_words_after_an_order_are_read_as_mila_reads_them(text: str, kept: list[str]) -> None:
    for make in _engines():
        game = make()
        game.set_orders("FRANCE", [text])
        assert game.get_orders("FRANCE") == kept, (make, text)
    game = Game(ruling="datc")  # diplo's own intake reads no such note
    game.set_orders("FRANCE", ["A PAR-BUR (Occupied!)"])
    assert game.get_orders("FRANCE") == []


def test_an_order_with_a_note_plays_as_mila_plays_it() -> None:
    boards = []
    for make in _engines():
        game = make()
        game.set_orders("FRANCE", ["A PAR-BUR (Occupied!)", "F BRE - MAO (bounce)"])
        game.process()
        boards.append(sorted(game.get_units("FRANCE")))
    assert boards[0] == ["A BUR", "A MAR", "F MAO"]
    assert all(b == boards[0] for b in boards)


def test_with_no_centre_owned_each_power_gets_its_homes_into_the_winter() -> None:
    """MILA's bookkeeping (``_capture_centers``): a board after ``clear_centers`` goes into the
    winter with every power given its home centres, then centres change hands (MILA's own
    ``test_set_orders_replace`` builds on it)."""
    seen = []
    for make in _engines():
        game = make()
        game.clear_units()
        game.clear_centers()
        game.set_units("FRANCE", ["A BRE", "A PAR"])
        game.set_units("AUSTRIA", "A GAS")
        game.set_orders("FRANCE", "A PAR - PIC")
        game.process()
        game.set_orders("FRANCE", ["A PIC - BEL", "A BRE - PAR"])
        game.process()
        state = game.get_state()
        seen.append((game.get_current_phase(), state["centers"], state["builds"]["FRANCE"]))
    assert seen[0][0] == "W1901A"
    assert seen[0][1]["FRANCE"] == ["BRE", "MAR", "PAR", "BEL"]  # homes, then the capture
    assert seen[0][1]["AUSTRIA"] == ["BUD", "TRI", "VIE"]
    assert all(s == seen[0] for s in seen)
