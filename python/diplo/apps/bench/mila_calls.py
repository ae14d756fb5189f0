"""The ``mila-calls`` workload: each call an LLM harness makes per phase through MILA's ``Game``
API, timed on the drop-in (:mod:`diplo.compat.mila`, ``diplo-compat``) and on MILA on the same
game states, and the harness's loop with no model in it (``harness-loop``).

The states are those of seeded random games played on MILA by the corpus bot (recorded before
any timing: each phase's orders and state). In every round both engines replay one of those games
in turn (the first of the turn alternating), every call timed on its own in the order a harness
makes them: ``get_state``, ``get_all_possible_orders``, ``get_orderable_locations`` per power,
the map queries of an adjacency graph (``map.abuts``, ``map.loc_type``, ``map.norm``: for each
unit, each neighbour of its location), ``get_phase_history``, ``add_message`` (two messages),
``to_saved_game_format``, ``deepcopy`` (every :data:`DEEPCOPY_EVERY` phases: MILA's takes about a
second late in a game), ``set_orders`` per power (the recorded orders) and ``process``. The
drop-in plays under MILA's ruling (its default, asked for by name here so that
``DIPLO_MILA_RULING`` does not change what is compared), so both sides play the same games;
where it still rules a phase otherwise than MILA (``docs/mila-compat.md``) it is set to MILA's
state after its timed ``get_state`` (untimed), so both time every call on the same states.
"""

from __future__ import annotations

import copy
import functools
import random
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from ...engine.mila import state_copy
from .measure import Engine, Measurement, measure

#: The calls timed one by one, in the order a phase makes them (``set_orders`` too).
CALLS = (
    "get_state",
    "bound:state_copy",
    "get_all_possible_orders",
    "get_orderable_locations",
    "map.abuts",
    "bound:4-arg-call",
    "map.loc_type",
    "bound:dict.get",
    "map.norm",
    "get_phase_history",
    "add_message",
    "to_saved_game_format",
    "deepcopy",
    "set_orders",
    "process",
)
HARNESS = "harness-loop"
#: Not a call of the API: a bare ``dict.get`` over the same locations on a plain dict, on each
#: side. ``map.loc_type`` is a dict on both sides (MILA's API: an attribute, not a method), so
#: its ratio cannot pass this row's (about 1): the bound of the target of 5.
BOUND = "bound:dict.get"
#: Not a call of the API: the core's copy (one call, no Python per item) of the state dictionary
#: ``get_state`` just gave, timed right after it (so with warmer caches than ``get_state`` had:
#: a floor on the low side). MILA's API hands out a new dictionary of new lists per call, so no
#: drop-in's ``get_state`` can cost less than making them: MILA's ``get_state`` over this row is
#: about the most any could show.
STATE_BOUND = "bound:state_copy"
#: Not a call of the API: a Python function of four arguments making one dict lookup, over the
#: queries of ``map.abuts``: the least a call of ``map.abuts`` (a Python method of MILA's API)
#: can cost; MILA's ``map.abuts`` over this row is the most any could show.
CALL_BOUND = "bound:4-arg-call"
#: The two sides, as the report names them.
SIDES = ("diplo-compat", "mila")
#: ``deepcopy`` is timed at every this many phases (from the first).
DEEPCOPY_EVERY = 10
#: What each call should reach, MILA's time divided by the drop-in's (the issue's targets).
TARGETS = {
    **dict.fromkeys(CALLS, 1.0),
    "get_state": 5.0,
    "map.abuts": 5.0,
    "map.loc_type": 5.0,
    BOUND: 0.0,  # reference rows, no target
    STATE_BOUND: 0.0,
    CALL_BOUND: 0.0,
    "map.norm": 5.0,
    HARNESS: 3.0,
}


@dataclass(frozen=True)
class Side:
    """One engine's API: its ``Game`` and ``Message`` classes and its saved-game writer."""

    name: str
    game: Callable[..., Any]
    message: Callable[..., Any]
    saved: Callable[[Any], Any]


def sides(compat: ModuleType, mila: ModuleType) -> list[Side]:
    """The drop-in (under MILA's ruling) and MILA as the workload drives them."""
    from diplomacy.utils.export import to_saved_game_format as mila_saved

    game = functools.partial(compat.Game, ruling="mila")
    return [
        Side("diplo-compat", game, compat.Message, compat.to_saved_game_format),
        Side("mila", mila.Game, mila.Message, mila_saved),
    ]


@dataclass(frozen=True)
class Phase:
    """One recorded phase: MILA's state at its start, the orders given, the map queries."""

    state: dict[str, Any]
    orders: dict[str, list[str]]
    abuts: list[tuple[str, str, str, str]]
    locs: list[str]
    phrases: list[str]


def _queries(game_map: Any, state: dict[str, Any]) -> tuple[list[Any], list[str], list[str]]:
    """The map queries a harness makes building the adjacency graph of the units of ``state``."""
    abuts: list[tuple[str, str, str, str]] = []
    locs: list[str] = []
    phrases: list[str] = []
    for units in state["units"].values():
        for unit in units:
            if unit.startswith("*"):
                continue
            kind, loc = unit.split()
            locs.append(loc)
            phrases.append(unit)
            for near in game_map.abut_list(loc):
                other = near.upper()
                abuts.append((kind, loc, "-", other))
                abuts.append((kind, loc, "S", other))
                locs.append(other)
                phrases.append(f"{unit} - {other}")
    return abuts, locs, phrases


def record_games(
    mila: ModuleType, seeds: Iterable[int], max_year: int, map_name: str
) -> list[list[Phase]]:
    """Seeded random games played on MILA by the corpus bot: per game, its phases."""
    games: list[list[Phase]] = []
    for seed in seeds:
        game, rng = mila.Game(map_name=map_name), random.Random(seed)
        phases: list[Phase] = []
        while not game.is_game_done and int(game.get_current_phase()[1:5]) <= max_year:
            state = game.get_state()
            possible = game.get_all_possible_orders()
            orders: dict[str, list[str]] = {}
            for power, locs in sorted(game.get_orderable_locations().items()):
                orders[power] = [
                    rng.choice(sorted(possible[x])) for x in sorted(locs) if possible[x]
                ]
                game.set_orders(power, orders[power])
            phases.append(Phase(copy.deepcopy(state), orders, *_queries(game.map, state)))
            game.process()
        games.append(phases)
    return games


def _board(state: dict[str, Any]) -> tuple[Any, ...]:
    return (
        state["name"],
        {p: sorted(u) for p, u in state["units"].items()},
        {p: sorted(c) for p, c in state["centers"].items()},
    )


@dataclass
class _Totals:
    """Seconds and calls per call of one engine's replay of one game."""

    seconds: dict[str, float] = field(default_factory=lambda: dict.fromkeys(CALLS, 0.0))
    calls: dict[str, int] = field(default_factory=lambda: dict.fromkeys(CALLS, 0))
    resets: int = 0

    def add(self, call: str, seconds: float, calls: int = 1) -> None:
        self.seconds[call] += seconds
        self.calls[call] += calls


def replay(side: Side, phases: list[Phase], map_name: str) -> _Totals:
    """One engine's replay of a recorded game, every call timed."""
    clock = time.perf_counter
    out = _Totals()
    add = out.add
    game = side.game(map_name=map_name)
    floor: dict[str, int] = {}

    def lookup(unit_type: str, unit_loc: str, order_type: str, other_loc: str) -> int | None:
        return floor.get(other_loc)

    for i, phase in enumerate(phases):
        t = clock()
        state = game.get_state()
        add("get_state", clock() - t)
        t = clock()
        state_copy(state)
        add(STATE_BOUND, clock() - t)
        if _board(state) != _board(phase.state):
            game.set_state(copy.deepcopy(phase.state), clear_history=False)
            out.resets += 1
        t = clock()
        game.get_all_possible_orders()
        add("get_all_possible_orders", clock() - t)
        for power in phase.orders:
            t = clock()
            game.get_orderable_locations(power)
            add("get_orderable_locations", clock() - t)
        t = clock()
        for kind, loc, order, other in phase.abuts:
            game.map.abuts(kind, loc, order, other)
        add("map.abuts", clock() - t, len(phase.abuts))
        t = clock()
        for kind, loc, order, other in phase.abuts:
            lookup(kind, loc, order, other)
        add(CALL_BOUND, clock() - t, len(phase.abuts))
        t = clock()
        for loc in phase.locs:
            game.map.loc_type.get(loc)
        add("map.loc_type", clock() - t, len(phase.locs))
        plain = dict(game.map.loc_type)  # made before the clock
        t = clock()
        for loc in phase.locs:
            plain.get(loc)
        add(BOUND, clock() - t, len(phase.locs))
        t = clock()
        for text in phase.phrases:
            game.map.norm(text)
        add("map.norm", clock() - t, len(phase.phrases))
        t = clock()
        game.get_phase_history()
        add("get_phase_history", clock() - t)
        for message in _messages(side, game, phase):
            t = clock()
            game.add_message(message)
            add("add_message", clock() - t)
        t = clock()
        side.saved(game)
        add("to_saved_game_format", clock() - t)
        if i % DEEPCOPY_EVERY == 0:
            t = clock()
            copy.deepcopy(game)
            add("deepcopy", clock() - t)
        for power, orders in phase.orders.items():
            t = clock()
            game.set_orders(power, orders)
            add("set_orders", clock() - t)
        t = clock()
        game.process()
        add("process", clock() - t)
    return out


def _messages(side: Side, game: Any, phase: Phase) -> list[Any]:
    """The two messages a harness's powers send in a phase (made before the clock)."""
    powers = sorted(phase.state["units"])
    at = game.current_short_phase
    return [
        side.message(sender=powers[0], recipient=powers[1], message="Shall we?", phase=at),
        side.message(sender=powers[1], recipient=powers[0], message="Agreed.", phase=at),
    ]


def measure_calls(
    sides_: list[Side], games: list[list[Phase]], rounds: int, map_name: str
) -> tuple[dict[str, Measurement], dict[str, int]]:
    """Every call on every side, ``rounds`` rounds (round ``r`` replays game ``r`` modulo the
    games), the sides taking turns; keyed ``"SIDE:CALL"``; and the resets per side."""
    out = {f"{s.name}:{c}": Measurement() for s in sides_ for c in CALLS}
    resets = dict.fromkeys((s.name for s in sides_), 0)
    for r in range(rounds):
        turn = sides_[r % len(sides_) :] + sides_[: r % len(sides_)]
        for side in turn:
            totals = replay(side, games[r % len(games)], map_name)
            resets[side.name] += totals.resets
            for call in CALLS:
                calls = totals.calls[call]
                if not calls:
                    continue
                m = out[f"{side.name}:{call}"]
                m.phases += calls
                m.runs += 1
                m.seconds += totals.seconds[call]
                m.rounds.append(totals.seconds[call] * 1e6 / calls)
    return out, resets


def harness_loop(game: Any, side: Side, rng: random.Random, max_year: int) -> int:
    """An LLM harness's phase with no model: state, possible orders, orderable locations per
    power, an adjacency graph of the units from the map, two messages, the phase history, a
    random possible order per location, ``process`` and the saved game; returns the phases."""
    phases = 0
    while not game.is_game_done and int(game.get_current_phase()[1:5]) <= max_year:
        state = game.get_state()
        possible = game.get_all_possible_orders()
        orderable = {p: game.get_orderable_locations(p) for p in sorted(state["units"])}
        graph: dict[str, list[tuple[str, str | None, str]]] = {}
        for units in state["units"].values():
            for unit in units:
                if unit.startswith("*"):
                    continue
                kind, loc = unit.split()
                graph[loc] = [
                    (near, game.map.loc_type.get(near), game.map.norm(f"{unit} - {near}"))
                    for near in map(str.upper, game.map.abut_list(loc))
                    if game.map.abuts(kind, loc, "-", near)
                ]
        powers = sorted(state["units"])
        at = game.current_short_phase
        for sender, recipient in ((powers[0], powers[1]), (powers[1], powers[0])):
            game.add_message(
                side.message(sender=sender, recipient=recipient, message="Hello.", phase=at)
            )
        game.get_phase_history()
        for power, locs in orderable.items():
            orders = [rng.choice(sorted(possible[x])) for x in sorted(locs) if possible[x]]
            game.set_orders(power, orders)
        game.process()
        side.saved(game)
        phases += 1
    return phases


def harness_engines(sides_: list[Side], seed: int, max_year: int, map_name: str) -> list[Engine]:
    """The harness loop on each side, a game per round from the seeds ``seed + round``."""

    def engine(side: Side) -> Engine:
        def setup(r: int) -> tuple[Any, random.Random]:
            return side.game(map_name=map_name), random.Random(seed + r)

        def run(work: tuple[Any, random.Random]) -> int:
            return harness_loop(work[0], side, work[1], max_year)

        return Engine(f"{side.name}:{HARNESS}", setup, run)

    return [engine(s) for s in sides_]


def measure_mila_calls(
    compat: ModuleType,
    mila: ModuleType,
    seed: int,
    max_year: int,
    rounds: int,
    map_name: str = "standard",
) -> tuple[dict[str, Measurement], dict[str, int]]:
    """The whole workload: every call (``"SIDE:CALL"``) and the harness loop
    (``"SIDE:harness-loop"``, µs per phase), with the drop-in's resets."""
    both = sides(compat, mila)
    games = record_games(mila, range(seed, seed + min(rounds, 3)), max_year, map_name)
    out, resets = measure_calls(both, games, rounds, map_name)
    out.update(measure(harness_engines(both, seed, max_year, map_name), rounds))
    return out, resets


def call_rows(results: dict[str, Measurement]) -> list[tuple[str, float, float, float, float]]:
    """Per call measured on both sides: µs on the drop-in, µs on MILA, MILA ÷ drop-in, target."""
    rows = []
    for call in (*CALLS, HARNESS):
        ours, theirs = results.get(f"diplo-compat:{call}"), results.get(f"mila:{call}")
        if ours is None or theirs is None or not ours.rounds or not theirs.rounds:
            continue
        mine, mila = ours.us_per_phase, theirs.us_per_phase
        rows.append((call, mine, mila, mila / mine if mine > 0 else 0.0, TARGETS[call]))
    return rows


def bounds(results: dict[str, Measurement]) -> dict[str, float]:
    """The most MILA ÷ drop-in any drop-in could show for the calls a reference row bounds:
    MILA's time over the reference row's, measured on MILA's side."""
    out: dict[str, float] = {}
    for call, row in (
        ("get_state", STATE_BOUND),
        ("map.abuts", CALL_BOUND),
        ("map.loc_type", BOUND),
    ):
        mila, floor = results.get(f"mila:{call}"), results.get(f"mila:{row}")
        if mila is not None and floor is not None and mila.rounds and floor.us_per_phase > 0:
            out[call] = mila.us_per_phase / floor.us_per_phase
    return out


def call_ratios(results: dict[str, Measurement]) -> dict[str, float]:
    """The JSON report's ``ratios`` of the workload: MILA's µs per call ÷ the drop-in's."""
    return {f"mila/diplo-compat:{row[0]}": round(row[3], 3) for row in call_rows(results)}
