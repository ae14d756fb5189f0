"""The drop-in's caches never answer for a board that has changed.

``diplo.compat.mila.Game`` keeps the phase's possible orders, the map's texts (one Python string
per text, shared by every game on the map), each slot's sorted list by what its texts are made of
(reused in any later phase of any game on the map) and, per phase, which power may give each
text, so that a bot's orders are read with one lookup each. Every way MILA's API changes the
board must show at once: after each set-up call below, the game offers what a new game set to the
same state offers, and takes an order only if that game would.
"""

from __future__ import annotations

import copy
import pickle
import random
from collections.abc import Callable
from typing import Any

import pytest

from diplo.compat.mila import Game
from diplo.compat.mila.game import parts_of


def listed(game: Game) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    return game.get_all_possible_orders(), game.get_orderable_locations()


def fresh_like(game: Game) -> Game:
    """A new game set to ``game``'s state (no cache of its own carried over)."""
    other = Game()
    other.set_state(game.get_state())
    return other


def warm(game: Game) -> list[str]:
    """Fill every cache the bot's path uses; France's listed orders of the phase."""
    possible, orderable = listed(game)
    texts = [possible[loc][0] for loc in orderable["FRANCE"] if possible[loc]]
    game.set_orders("FRANCE", texts)
    game.clear_orders("FRANCE")
    return [t for loc in orderable["FRANCE"] for t in possible[loc]]


def to_fall(game: Game) -> None:
    game.process()


SETUPS: dict[str, Callable[[Game], Any]] = {
    "set_units": lambda g: g.set_units("FRANCE", ["A BUR", "F GAS"]),
    "set_units reset": lambda g: g.set_units("FRANCE", ["A PIC"], reset=True),
    "set_units of another power": lambda g: g.set_units("GERMANY", ["A PAR"]),
    "clear_units of one power": lambda g: g.clear_units("FRANCE"),
    "clear_units": lambda g: g.clear_units(),
    "set_centers": lambda g: g.set_centers("GERMANY", ["PAR", "BRE"]),
    "clear_centers": lambda g: g.clear_centers(),
    "set_state": lambda g: g.set_state(
        {
            "name": "F1905M",
            "units": {"FRANCE": ["A MUN", "F NTH"], "GERMANY": ["A BUR"]},
            "centers": {"FRANCE": ["PAR", "MUN"], "GERMANY": ["BER"]},
        }
    ),
    "phase setter": lambda g: setattr(g, "phase", "FALL 1901 MOVEMENT"),
    "set_current_phase to adjustments": lambda g: g.set_current_phase("W1901A"),
    "a power's units edited": lambda g: g.powers["FRANCE"].units.append("A BUR"),
    "a power's unit removed": lambda g: g.powers["FRANCE"].units.remove("A PAR"),
    "a power's units replaced": lambda g: setattr(g.powers["FRANCE"], "units", ["F MAO"]),
    "a power's unit moved to another": lambda g: move_unit(g, "A MAR", "FRANCE", "ITALY"),
    "set_phase_data": lambda g: g.set_phase_data(fresh_fall().get_phase_data()),
    "process": to_fall,
}


def move_unit(game: Game, unit: str, power: str, to: str) -> None:
    game.powers[power].units.remove(unit)
    game.powers[to].units.append(unit)


def fresh_fall() -> Game:
    game = Game()
    game.set_units("FRANCE", ["A BUR"], reset=True)
    game.set_orders("FRANCE", ["A BUR - MUN"])
    game.process()
    return game


@pytest.mark.parametrize("name", sorted(SETUPS))
def test_a_set_up_call_shows_at_once(name: str) -> None:
    game = Game()
    before = warm(game)
    SETUPS[name](game)
    expected = fresh_like(game)
    assert listed(game) == listed(expected), name
    # An order listed before the call, given as the first call after it, is taken exactly
    # when the new board lists it for France.
    now = expected_orders_of(expected, "FRANCE")
    for text in before:
        game = Game()
        warm(game)
        SETUPS[name](game)
        errors = len(game.error)
        game.set_orders("FRANCE", [text])
        taken = game.get_orders("FRANCE")
        if text in now:
            assert taken == [text], (name, text)
        else:
            assert taken == [] and len(game.error) == errors + 1, (name, text, taken)


def expected_orders_of(game: Game, power: str) -> set[str]:
    possible, orderable = listed(game)
    return {t for loc in orderable[power] for t in possible[loc]}


def test_another_powers_listed_order_is_refused_and_changes_nothing() -> None:
    game = Game()
    listed(game)
    game.set_orders("FRANCE", ["A PAR - BUR"])
    game.set_orders("FRANCE", ["A BER - KIE"])  # Germany's unit, listed for Germany
    assert game.get_orders("FRANCE") == ["A PAR - BUR"]
    assert "A BER - KIE" in game.error[-1]
    game.set_orders("FRANCE", ["A MAR - SPA", "A BER - KIE"])  # one refused, the other taken
    assert game.get_orders("FRANCE") == ["A PAR - BUR", "A MAR - SPA"]
    with pytest.raises(TypeError):
        game.set_orders("FRANCE", ["A PAR - PIC", ["not", "a", "string"]])  # type: ignore[list-item]
    assert game.get_orders("FRANCE") == ["A PAR - BUR", "A MAR - SPA"]


def test_games_on_one_map_do_not_share_a_phase() -> None:
    """Two games played in turns, call by call, play as each played alone: the texts are the
    map's, but which power may give each is the phase's."""

    def play(games: list[Game], seeds: list[int]) -> list[list[dict[str, list[str]]]]:
        rngs = [random.Random(s) for s in seeds]
        logs: list[list[dict[str, list[str]]]] = [[] for _ in games]
        for _ in range(12):
            for game, rng, log in zip(games, rngs, logs, strict=True):
                possible = game.get_all_possible_orders()
                for power, locs in sorted(game.get_orderable_locations().items()):
                    game.set_orders(
                        power, [rng.choice(sorted(possible[loc])) for loc in sorted(locs)]
                    )
                log.append(game.get_orders())
                game.process()
        return logs

    together = play([Game(), Game()], [3, 4])
    alone = play([Game()], [3]) + play([Game()], [4])
    assert together == alone


def test_copies_keep_their_own_orders_and_board() -> None:
    game = Game()
    listed(game)
    game.set_orders("FRANCE", ["A PAR - BUR"])
    for other in (copy.deepcopy(game), pickle.loads(pickle.dumps(game))):
        other.set_orders("FRANCE", ["A PAR - PIC", "A MAR - SPA"])
        assert game.get_orders("FRANCE") == ["A PAR - BUR"]
        assert other.get_orders("FRANCE") == ["A PAR - PIC", "A MAR - SPA"]
        other.process()
        assert game.get_current_phase() == "S1901M"
        assert sorted(other.get_units("FRANCE")) == ["A PIC", "A SPA", "F BRE"]
        assert listed(game) == listed(fresh_like(game))
        assert listed(other) == listed(fresh_like(other))


def test_the_history_keeps_each_phase_as_played() -> None:
    """States and orders of the history are made when asked for; they are the phase's as it
    was, whatever happened after."""
    game = Game()
    rng = random.Random(7)
    states, orders = [], []
    for _ in range(9):
        states.append(game.get_state())
        possible = game.get_all_possible_orders()
        for power, locs in sorted(game.get_orderable_locations().items()):
            game.set_orders(power, [rng.choice(sorted(possible[loc])) for loc in sorted(locs)])
        orders.append(game.get_orders())
        game.process()
    game.set_units("FRANCE", ["A MUN"], reset=True)  # after the fact: the history stays
    history = game.get_phase_history()
    assert [h.name for h in history] == [s["name"] for s in states]
    for phase, state, given in zip(history, states, orders, strict=True):
        assert {p: sorted(u) for p, u in phase.state["units"].items()} == {
            p: sorted(u) for p, u in state["units"].items()
        }
        kept = {p: [t for t in o if t != "WAIVE"] for p, o in phase.orders.items()}
        assert {p: o for p, o in kept.items() if o} == {p: o for p, o in given.items() if o}


def test_a_bots_orders_read_by_lookup_as_the_long_way_reads_them() -> None:
    """Orders given as a list of listed texts (one lookup each) are kept as the same orders
    given otherwise (a tuple: read one by one) are, in every kind of phase: two orders for one
    unit or build site (MILA voids the second adjustment order), waives, another power's text."""
    rng = random.Random(11)
    game = Game()
    kinds = set()
    while game.get_current_phase() != "S1904M":
        possible, orderable = listed(game)
        kinds.add(game.get_current_phase()[-1])
        for power, locs in sorted(orderable.items()):
            texts = [t for loc in locs for t in possible[loc]]
            other = [
                t for p, ls in orderable.items() if p != power for loc in ls for t in possible[loc]
            ]
            tries: list[list[str]] = [
                [possible[loc][0] for loc in locs if possible[loc]],
                texts[:2] + texts[:1],
                ["WAIVE", "WAIVE", *texts[:1]],
                texts[:1] + other[:1],
                [rng.choice(texts)] * 2 if texts else [],
            ]
            for orders in tries:
                by_list, by_tuple = copy.deepcopy(game), copy.deepcopy(game)
                by_list.set_orders(power, list(orders))
                by_tuple.set_orders(power, tuple(orders))  # read one by one
                assert by_list.get_orders() == by_tuple.get_orders(), (power, orders)
                assert by_list.error == by_tuple.error
                by_list.process()
                by_tuple.process()
                assert by_list.get_state()["units"] == by_tuple.get_state()["units"]
                assert by_list.get_phase_history()[-1].orders == (
                    by_tuple.get_phase_history()[-1].orders
                )
        for power, locs in sorted(orderable.items()):
            game.set_orders(power, [rng.choice(sorted(possible[loc])) for loc in sorted(locs)])
        game.process()
    assert kinds >= {"M", "A"}


@pytest.mark.parametrize("map_name", ["standard", "modern"])
def test_listings_kept_from_other_phases_are_what_a_cold_start_lists(map_name: str) -> None:
    """The core keeps each slot's sorted list per map, by what its texts are made of, and
    reuses it whenever those recur (in another phase, another game). Every phase of several
    games, listed with all that was kept before (the second play of a seed reuses every list),
    equals the same phase listed after everything kept for the map is forgotten: the possible
    orders, the orderable locations, and which power may give each listed text."""
    from diplo import _core

    def allowed(check: Any, lookup: dict[str, Any], text: str, powers: int) -> list[int]:
        _, _, slot, tid = lookup[text]
        return [p for p in range(powers) if check.allows_text(slot, tid, p)]

    phases: list[tuple[Any, Any]] = []
    for seed in (0, 1, 2, 3, 4, 5, 0, 1):
        game = Game(map_name=map_name)
        rng = random.Random(seed)
        last = int(game.get_current_phase()[1:5]) + 9
        while not game.is_game_done and int(game.get_current_phase()[1:5]) <= last:
            phases.append(
                (parts_of(game).state.core.clone(), _core.mila_turn(parts_of(game).state.core))
            )
            possible = game.get_all_possible_orders()
            for power, locs in sorted(game.get_orderable_locations().items()):
                game.set_orders(power, [rng.choice(possible[loc]) for loc in locs if possible[loc]])
            game.process()
    kinds = set()
    for core, (possible, orderable, check, lookup, _) in phases:
        kinds.add(core.phase[-1])
        _core._mila_forget(core)
        cold_possible, cold_orderable, cold_check, cold_lookup, _ = _core.mila_turn(core)
        assert possible == cold_possible
        assert orderable == cold_orderable
        powers = len(orderable)
        for texts in possible.values():
            for text in texts:
                if text in lookup:  # not a waive
                    want = allowed(cold_check, cold_lookup, text, powers)
                    assert allowed(check, lookup, text, powers) == want
                    assert len(want) == 1
    assert kinds == {"M", "R", "A"}


def test_new_games_share_the_map_s_first_lists_and_stay_apart() -> None:
    """A new game's engine lists are made once per map (its first get_state costs what the
    others do): games that share them play apart, and a new game after them starts afresh."""
    first, second = Game(), Game()
    start = first.get_state()
    assert (
        parts_of(first).state.mila_lists is parts_of(second).state.engine_board()
    )  # one board for both new games
    rng = random.Random(5)
    for _ in range(4):
        possible = first.get_all_possible_orders()
        for power, locs in sorted(first.get_orderable_locations().items()):
            first.set_orders(power, [rng.choice(sorted(possible[x])) for x in locs if possible[x]])
        first.process()
        first.get_state()
    assert second.get_state()["units"] == start["units"]
    third = Game()
    assert third.get_state()["units"] == start["units"]
    assert third.get_state()["influence"] == start["influence"]
    assert first.get_state()["units"] != start["units"]
