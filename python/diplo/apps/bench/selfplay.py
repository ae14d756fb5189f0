"""The ``selfplay`` workload: every engine plays the canonical game of each seed."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from types import ModuleType
from typing import Any

from ...api.game import Game
from ...api.legal import legal_order_texts
from ...api.phase import process_phase
from ...formats.mila import position_from_mila, position_to_mila
from ...model.map import Map, standard_map
from ...model.orders import format_order
from ...model.position import Position
from ...model.rules import Rules
from .engines import ENGINES, CodeGame, pick_engines
from .inputs import RecordedGame, position_digest, record_game
from .measure import BenchError, Engine, RunCheck


def selfplay_engines(
    seed: int,
    max_year: int,
    engines: Iterable[str] = ENGINES,
    fast: ModuleType | None = None,
    mila: ModuleType | None = None,
    game_map: Map | None = None,
    mila_map: str = "standard",
) -> list[Engine]:
    """The engines of the self-play workload; round ``r`` plays the game of seed ``seed + r``
    (on ``game_map``, default the standard map, which MILA knows as ``mila_map``).

    Every engine plays the same game for a seed, the *canonical* game: one ``random.Random(seed)``
    stream, one ``choice`` per slot, the slots and their options in the order diplo's object API
    lists them (powers in map order; per power, the keys of :func:`~diplo.api.legal.legal_orders`,
    provinces sorted then the waive; each list sorted by the order's canonical text). The object
    engines play it directly. The code API (``diplo-rust``) lists its codes in an order of its
    own (a fixed order of the same set, not promised to be any particular one), so before the
    clock it learns, by playing the game once untimed with every code decoded, where each
    slot's canonical options stand in its lists; in the timed loop it still lists every phase
    and draws ``choice(p)`` over those positions, one subscript more than ``choice(codes)``.
    ``mila`` replays the canonical game (see :func:`_mila_replay_engine`). Each run's final
    position is digested after the clock stops (:class:`RunCheck`).
    """
    recorded: dict[int, RecordedGame] = {}

    def record(game_seed: int) -> RecordedGame:
        if game_seed not in recorded:
            recorded[game_seed] = record_game(game_seed, max_year, game_map)
        return recorded[game_seed]

    def objects(backend: str, name: str) -> Engine:
        # A bot on the object API with order strings: the legal texts of each orderable power,
        # one random text per key, submitted and processed (the canonical order by itself).
        def setup(r: int) -> tuple[Game, random.Random]:
            return Game(game_map, backend=backend, max_year=max_year), random.Random(seed + r)

        def run(state: tuple[Game, random.Random]) -> int:
            game, rng = state
            choice = rng.choice
            while not game.is_over:
                position = game.position
                for power in game.orderable_powers():
                    legal = legal_order_texts(position, power, backend)
                    game.set_orders(power, [choice(options) for options in legal.values()])
                game.process()
            return len(game.history)

        return Engine(name, setup, run, lambda state: RunCheck(position_digest(state[0].position)))

    return pick_engines(
        engines,
        objects,
        None
        if fast is None
        else lambda: canonical_code_engine(seed, max_year, fast, record, game_map),
        None
        if mila is None
        else lambda: _mila_replay_engine(seed, mila, mila_map, record, game_map),
    )


#: Per phase, per canonical slot: (the index of the slot in the code API's lists, where each
#: canonical option of the slot stands in that list).
_FastPlan = list[tuple[tuple[int, Sequence[int]], ...]]


def _fast_plan(
    recorded: RecordedGame,
    max_year: int,
    fast: ModuleType,
    start: Position,
    shared: dict[Any, Any] | None = None,
) -> _FastPlan:
    """Where the canonical options stand in the code API's own lists, phase by phase: the
    canonical game played once on a fast game (untimed), every listed code decoded. Raises
    :class:`BenchError` when the code API lists other orders or reaches another position."""
    game: CodeGame = fast.CodeGame(start, max_year)
    shared = {} if shared is None else shared
    plans: _FastPlan = []
    for i, canonical in enumerate(recorded.slots):
        position = game.position()
        if game.is_over or position_digest(position) != position_digest(recorded.positions[i]):
            raise BenchError(
                f"diplo-rust is not where the object API is at phase {i + 1} "
                f"({recorded.positions[i].phase})"
            )
        lists = game.legal_orders()
        where = {slot: j for j, slot in enumerate(game.slots())}
        plan: list[tuple[int, Sequence[int]]] = []
        for power, key, texts, _chosen in canonical:
            j = where.get((power, key))
            own = {} if j is None else _texts_at(lists[j], fast, position)
            if j is None or len(own) != len(texts) or not own.keys() >= set(texts):
                raise BenchError(
                    f"{position.phase}: diplo-rust and the object API list different orders "
                    f"for {power} {key}"
                )
            positions = compact([own[t] for t in texts])
            # One object per distinct slot plan, shared across phases and games: the less
            # memory the timed loop reads, the fewer cache misses it pays.
            pair = (j, shared.setdefault(positions, positions))
            plan.append(shared.setdefault(pair, pair))
        plans.append(tuple(plan))
        game.set_orders([lists[j][p[k]] for (j, p), (*_s, k) in zip(plan, canonical, strict=True)])
        game.process()
    if not game.is_over or position_digest(game.position()) != position_digest(
        recorded.positions[-1]
    ):
        raise BenchError("diplo-rust did not end the game where the object API did")
    return plans


def compact(indexes: list[int]) -> Sequence[int]:
    """Positions as ``bytes`` when they fit: a byte each where a tuple takes a pointer to an
    int each. The plan is read every phase, so its size is cache misses in the timed loop
    (tuples made the loop measurably slower than with bytes)."""
    return bytes(indexes) if max(indexes, default=0) < 256 else tuple(indexes)


def _texts_at(codes: list[int], fast: ModuleType, position: Position) -> dict[str, int]:
    """Each code's canonical text -> its index in ``codes``."""
    game_map = position.map
    return {
        format_order(fast.decode_order(code, game_map, position)): n for n, code in enumerate(codes)
    }


def canonical_code_engine(
    seed: int,
    max_year: int,
    fast: ModuleType,
    record: Callable[[int], RecordedGame],
    game_map: Map | None = None,
) -> Engine:
    """``diplo-rust`` on the canonical game: lists its codes every phase and draws one per slot
    (``choice`` over where the canonical options stand in its list, learnt before the clock)."""
    start = Position.initial(game_map if game_map is not None else standard_map())
    plans: dict[int, _FastPlan] = {}
    shared: dict[Any, Any] = {}

    def setup(r: int) -> tuple[CodeGame, Callable[[Sequence[int]], int], Any]:
        if r not in plans:
            plans[r] = _fast_plan(record(seed + r), max_year, fast, start, shared)
        return fast.CodeGame(start, max_year), random.Random(seed + r).choice, iter(plans[r])

    def run(state: tuple[CodeGame, Callable[[Sequence[int]], int], Any]) -> int:
        game, choice, plan = state
        phases = 0
        while not game.is_over:
            lists = game.legal_orders()
            game.set_orders([lists[j][choice(p)] for j, p in next(plan)])
            game.process()
            phases += 1
        return phases

    def check(state: tuple[CodeGame, Any, Any]) -> RunCheck:
        return RunCheck(position_digest(state[0].position()))

    return Engine("diplo-rust", setup, run, check)


@dataclass
class _MilaReplay:
    """A MILA game with what it replays: per phase, the position in MILA's sorted list of each
    orderable location's choice (or the text itself when MILA does not list it), and the state
    to set after the phase when MILA rules it otherwise than the DATC."""

    game: Any
    steps: list[tuple[list[int | str], dict[str, Any] | None]]
    departures: int
    untimed: float = 0.0
    resets: int = 0


def _mila_replay_engine(
    seed: int,
    mila: ModuleType,
    mila_map: str,
    record: Callable[[int], RecordedGame],
    game_map: Map | None = None,
) -> Engine:
    """``mila`` on the canonical game. MILA's possible orders are in an order of its own and,
    where MILA departs from the DATC (``docs/mila-compat.md``), its next position differs from
    the canonical game's, so it replays: every phase it lists its possible orders and orderable
    locations (timed, as the MILA corpus bot does), sorts each location's list and takes the
    canonical choice out of it; after a phase MILA ruled otherwise, it is set to the canonical
    next position (``set_state``, taken off its time) and counted. Which phases those are, and
    where the choices stand in MILA's lists, is learnt before the clock by replaying once."""
    the_map = game_map if game_map is not None else standard_map()
    plans: dict[int, tuple[list[tuple[list[int | str], dict[str, Any] | None]], int]] = {}

    def setup(r: int) -> _MilaReplay:
        if r not in plans:
            plans[r] = _mila_plan(record(seed + r), mila, mila_map, the_map)
        return _MilaReplay(mila.Game(map_name=mila_map), *plans[r])

    def run(replay: _MilaReplay) -> int:
        game = replay.game
        clock = time.perf_counter
        phases = 0
        for picks, reset in replay.steps:
            possible = game.get_all_possible_orders()
            chosen = iter(picks)
            for power, locs in sorted(game.get_orderable_locations().items()):
                orders = [
                    _take(sorted(possible[loc]), next(chosen))
                    for loc in sorted(locs)
                    if possible[loc]
                ]
                game.set_orders(power, orders)
            game.process()
            phases += 1
            if reset is not None:
                start = clock()
                game.set_state(reset)
                replay.untimed += clock() - start
                replay.resets += 1
        return phases

    def check(replay: _MilaReplay) -> RunCheck:
        final = position_from_mila(replay.game.get_state(), game_map=the_map)
        departures = replay.departures if replay.resets else 0
        return RunCheck(position_digest(final), replay.untimed, replay.resets, departures)

    return Engine("mila", setup, run, check)


def _take(options: list[str], pick: int | str) -> str:
    return options[pick] if type(pick) is int else pick  # type: ignore[return-value]


def _mila_plan(
    recorded: RecordedGame, mila: ModuleType, mila_map: str, game_map: Map
) -> tuple[list[tuple[list[int | str], dict[str, Any] | None]], int]:
    """The steps of :class:`_MilaReplay` for a canonical game, found by replaying it once, and
    how many of the phases MILA rules otherwise diplo rules as MILA under ``edition=mila``."""
    game = mila.Game(map_name=mila_map)
    steps: list[tuple[list[int | str], dict[str, Any] | None]] = []
    departures = 0
    for i, canonical in enumerate(recorded.slots):
        wanted: dict[str, list[str]] = {}
        for power, _key, texts, k in canonical:
            wanted.setdefault(power, []).append(texts[k])
        possible = game.get_all_possible_orders()
        picks: list[int | str] = []
        for power, locs in sorted(game.get_orderable_locations().items()):
            left = list(wanted.get(power, ()))
            orders: list[str] = []
            for loc in sorted(locs):
                if not possible[loc]:
                    continue
                options = sorted(possible[loc])
                at = {text: n for n, text in enumerate(options)}
                # MILA lists a convoyed move beyond the army's neighbours with "VIA", diplo
                # without (the same order: DATC 4.A.3).
                for n, text in enumerate(options):
                    if text.endswith(" VIA"):
                        at.setdefault(text[:-4], n)
                # The canonical order of this location: a build before a waive (both listed).
                hit = next((t for t in left if t in at and t != "WAIVE"), None)
                hit = hit or next((t for t in left if t in at), None)
                if hit is not None:
                    picks.append(at[hit])
                    orders.append(options[at[hit]])
                else:  # not in MILA's list: given as diplo writes it
                    hit = next((t for t in left if _unit_of(t) == loc), None)
                    if hit is None:
                        raise BenchError(
                            f"{recorded.positions[i].phase}: MILA orders {power} at {loc}, "
                            "which the canonical game does not"
                        )
                    picks.append(hit)
                    orders.append(hit)
                left.remove(hit)
            game.set_orders(power, orders)
        game.process()
        nxt = recorded.positions[i + 1]
        theirs = position_from_mila(game.get_state(), game_map=game_map)
        if position_digest(theirs) == position_digest(nxt):
            steps.append((picks, None))
        else:
            given: dict[str, list[str]] = {}
            for power, _key, texts, k in canonical:
                given.setdefault(power, []).append(texts[k])
            position = recorded.positions[i]
            mila_rules = Rules.from_json({"edition": "mila"}, position.rules)
            ruled = process_phase(replace(position, rules=mila_rules), given).next
            departures += position_digest(ruled) == position_digest(theirs)
            state = position_to_mila(nxt)
            game.set_state(state)
            steps.append((picks, state))
    return steps, departures


def _unit_of(text: str) -> str:
    """The location an order text is for (``A PAR - BUR``: ``PAR``)."""
    words = text.split()
    return words[1] if len(words) > 1 else ""
