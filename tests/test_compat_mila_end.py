"""How a drop-in game ends, as MILA's does: a win names the winter MILA was entering, the
hundredth winter is recorded with no orders and drawn without being played, a draw by agreement
at any phase loads back from MILA's save as it was made, and the last entry of a save gives an
eliminated power's orders as ``[]``. Each case is also played on MILA when it is installed."""

from __future__ import annotations

import importlib.util
import random
from typing import Any

import pytest

from diplo.compat import mila as drop
from diplo.model.rules import Rules

MILA = Rules(edition="mila")
HAVE_MILA = importlib.util.find_spec("diplomacy") is not None
needs_mila = pytest.mark.skipif(not HAVE_MILA, reason="needs the compare extra (PyPI diplomacy)")

#: A seeded random game that a power wins (Russia, in the Fall of 1938).
WON = 1


def _play_to_the_end(game: Any, seed: int) -> None:
    """A random game: each power a random possible order per location, until it ends."""
    rng = random.Random(seed)
    while not game.is_game_done:
        possible = game.get_all_possible_orders()
        for power, locs in sorted(game.get_orderable_locations().items()):
            game.set_orders(
                power, [rng.choice(sorted(possible[x])) for x in sorted(locs) if possible[x]]
            )
        game.process()


def _hundredth_fall(game: Any) -> None:
    """The Fall of 2000 with a build owed (so that the winter is one diplo would play)."""
    game.set_current_phase("F2000M")
    game.clear_units()
    game.clear_centers()
    game.set_units("FRANCE", ["A PAR"])
    game.set_units("ENGLAND", ["F LON", "F EDI"])
    game.set_centers("FRANCE", ["PAR", "BRE"])
    game.set_centers("ENGLAND", ["LON", "EDI", "LVP"])
    game.set_orders("FRANCE", ["A PAR - BUR"])


def _end(game: Any) -> tuple[Any, ...]:
    return (
        game.is_game_done,
        list(game.outcome),
        game.get_current_phase(),
        [str(k) for k in game.order_history],
        {p: list(o) for p, o in game.order_history[game.order_history.last_key()].items()},
    )


def test_a_win_names_the_winter_mila_enters() -> None:
    game = drop.Game(ruling=MILA)
    _play_to_the_end(game, WON)
    last = str(game.order_history.last_key())
    assert last[0] == "F" and len(game.outcome) == 2  # won in a Fall, by one power
    assert game.outcome[0] == "W" + last[1:-1] + "A"  # the winter, not recorded
    assert game.get_state()["note"] == "Victory by: " + game.outcome[1][:3]


def test_the_hundredth_winter_is_drawn_unplayed_and_saved_as_mila_saves_it() -> None:
    game = drop.Game(ruling=MILA)
    _hundredth_fall(game)
    game.process()
    done, outcome, phase, names, last_orders = _end(game)
    assert done and phase == "COMPLETED"
    assert outcome == ["W2000A", "ENGLAND", "FRANCE"]
    assert names == ["F2000M", "W2000A"]
    assert last_orders == {p: [] for p in game.powers}
    assert game.result_history[game.result_history.last_key()] == {}
    winter = game.state_history[game.state_history.last_key()]
    assert winter["name"] == "W2000A" and winter["builds"]["ENGLAND"]["count"] == 1
    # England's build was never played: its units are those of the Fall.
    assert sorted(game.get_units("ENGLAND")) == ["F EDI", "F LON"]
    saved = drop.to_saved_game_format(game)
    assert [p["name"] for p in saved["phases"]] == ["F2000M", "W2000A", "COMPLETED"]
    assert saved["phases"][-1]["orders"] == {
        p: ([] if p not in ("ENGLAND", "FRANCE") else None) for p in game.powers
    }
    again = drop.from_saved_game_format(saved)
    assert _end(again) == _end(game)
    last, before = drop.to_saved_game_format(again)["phases"][-1], saved["phases"][-1]
    for entry in (last, before):
        entry["state"].pop("timestamp")  # when the state was asked for
    assert last == before


@needs_mila
@pytest.mark.parametrize("play", ["won", "hundredth"])
def test_the_end_is_mila_s_and_mila_s_save_loads(play: str) -> None:
    import diplomacy
    from diplomacy.utils.export import to_saved_game_format as mila_saved

    theirs, ours = diplomacy.Game(), drop.Game()  # the drop-in as it comes: MILA's ruling
    for game in (theirs, ours):
        if play == "won":
            _play_to_the_end(game, WON)
        else:
            _hundredth_fall(game)
            game.process()
    assert _end(ours) == _end(theirs)
    mine, made = drop.to_saved_game_format(ours), mila_saved(theirs)
    assert [p["name"] for p in mine["phases"]] == [p["name"] for p in made["phases"]]
    assert mine["phases"][-1]["orders"] == made["phases"][-1]["orders"]
    loaded = drop.from_saved_game_format(made, ruling=MILA)
    assert _end(loaded) == _end(theirs)


@needs_mila
@pytest.mark.parametrize("stop", ["S1901M", "F1901M", "W1901A"])
def test_a_draw_agreed_at_any_phase_loads_from_mila_s_save(stop: str) -> None:
    import diplomacy
    from diplomacy.utils.export import to_saved_game_format as mila_saved

    theirs = diplomacy.Game()
    orders = {
        "S1901M": {"FRANCE": ["A PAR - BUR", "A MAR - SPA"], "GERMANY": ["A MUN - RUH"]},
        "F1901M": {"FRANCE": ["A SPA - POR", "A BUR - BEL"], "GERMANY": ["A RUH - HOL"]},
    }
    while theirs.get_current_phase() != stop:
        for power, texts in orders.get(theirs.get_current_phase(), {}).items():
            theirs.set_orders(power, texts)
        theirs.process()
    theirs.draw()
    made = mila_saved(theirs)
    loaded = drop.from_saved_game_format(made, ruling=MILA)
    assert _end(loaded) == _end(theirs)
    again = drop.to_saved_game_format(loaded)
    assert [p["name"] for p in again["phases"]] == [p["name"] for p in made["phases"]]
    assert again["phases"][-2]["orders"] == made["phases"][-2]["orders"]
    assert again["phases"][-1]["orders"] == made["phases"][-1]["orders"]


@pytest.mark.parametrize(
    ("units", "orders", "shown"),
    [
        # The moving fleet could reach either coast: MILA keeps the support without it.
        (["F GAS", "F MAO"], ["F GAS S F MAO - SPA/NC", "F MAO - SPA/NC"], "F GAS S F MAO - SPA"),
        # One coast in reach, or an army's support: kept as given.
        (["F AEG", "F BLA"], ["F AEG S F BLA - BUL/EC", "F BLA - BUL/EC"], None),
        (["A POR", "F MAO"], ["A POR S F MAO - SPA/NC", "F MAO - SPA/NC"], None),
    ],
)
def test_a_fleet_s_support_text_is_mila_s_under_mila_s_ruling(
    units: list[str], orders: list[str], shown: str | None
) -> None:
    for ruling in (MILA, "datc"):
        game = drop.Game(ruling=ruling)
        game.clear_units()
        game.set_units("FRANCE", units)
        game.set_orders("FRANCE", orders)
        want = list(orders)
        if ruling is MILA and shown is not None:
            want[0] = shown  # diplo's rulings keep the coast: it decides the support there
        assert game.get_orders("FRANCE") == want
        game.process()
        assert game.order_history["S1901M"]["FRANCE"] == want
        saved = drop.to_saved_game_format(game)
        assert saved["phases"][0]["orders"]["FRANCE"] == want
        assert (
            drop.to_saved_game_format(drop.from_saved_game_format(saved))["phases"][0]["orders"][
                "FRANCE"
            ]
            == want
        )
