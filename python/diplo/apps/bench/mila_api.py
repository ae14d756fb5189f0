"""The ``mila-api`` workload: the MILA corpus bot's loop on diplo's drop-in, on MILA and on the
API at no cost (``api-floor``); and the plain random loops the ``vector`` workload compares with."""

from __future__ import annotations

import random
from collections.abc import Iterable
from types import ModuleType
from typing import Any

from ...model.map import Map
from ...model.position import Position
from .engines import ENGINES, CodeGame, optional_module
from .measure import Engine


def code_selfplay_engine(
    seed: int, max_year: int, fast: ModuleType, game_map: Map | None = None
) -> Engine:
    """The plain code-API loop: a random code from each list in the engine's own order (the
    ``vector`` workload's ``diplo-rust``; ``selfplay`` plays the canonical game instead)."""
    start = None if game_map is None else Position.initial(game_map)

    def setup(r: int) -> tuple[CodeGame, random.Random]:
        return fast.CodeGame(start, max_year), random.Random(seed + r)

    def run(state: tuple[CodeGame, random.Random]) -> int:
        game, rng = state
        choice = rng.choice
        phases = 0
        while not game.is_over:
            game.set_orders([choice(options) for options in game.legal_orders()])
            game.process()
            phases += 1
        return phases

    return Engine("diplo-rust", setup, run)


def mila_selfplay_engine(
    seed: int,
    max_year: int,
    mila: ModuleType,
    name: str = "mila",
    mila_map: str = "standard",
    ruling: str | None = None,
) -> Engine:
    """Self-play through MILA's ``Game`` API, on ``mila.Game`` (MILA, or diplo.compat.mila,
    given ``ruling=``: its ruling's name, ``"mila"`` to play MILA's games)."""
    extra = {} if ruling is None else {"ruling": ruling}

    # As the MILA corpus was played (../shared/corpus/README.md, "How games are played").
    def setup(r: int) -> tuple[Any, random.Random]:
        return mila.Game(map_name=mila_map, **extra), random.Random(seed + r)

    def run(state: tuple[Any, random.Random]) -> int:
        return mila_bot(state[0], state[1], max_year)

    return Engine(name, setup, run)


def mila_bot(game: Any, rng: random.Random, max_year: int) -> int:
    """The corpus bot's loop on a game with MILA's API; returns the phases it played."""
    phases = 0
    while not game.is_game_done and int(game.get_current_phase()[1:5]) <= max_year:
        possible = game.get_all_possible_orders()
        for power, locs in sorted(game.get_orderable_locations().items()):
            orders = [rng.choice(sorted(possible[loc])) for loc in sorted(locs) if possible[loc]]
            game.set_orders(power, orders)
        game.process()
        phases += 1
    return phases


#: A phase as :class:`_ApiFloor` replays it: its name, every location with its possible orders,
#: every power with its orderable locations.
_FloorPhase = tuple[str, tuple[tuple[str, ...], tuple[list[str], ...]], dict[str, list[str]]]


class _ApiFloor:
    """MILA's ``Game`` API at no cost for the calls the corpus bot makes: the phases of one game,
    recorded, handed out as the API must (a new dict of new lists per call), orders taken and
    dropped, no rule applied. The bot's loop on it takes about the least time any implementation
    of the API could take under that loop (a class written in C would save a little on each
    call), so ``mila ÷ api-floor`` is about the most any could show."""

    def __init__(self, phases: list[_FloorPhase], last: str, done: bool) -> None:
        self._phases = phases
        self._last = last
        self._done = done
        self._at = 0
        self._orders: dict[str, list[str]] = {}

    @property
    def is_game_done(self) -> bool:
        return self._done and self._at >= len(self._phases)

    def get_current_phase(self) -> str:
        return self._phases[self._at][0] if self._at < len(self._phases) else self._last

    def get_all_possible_orders(self) -> dict[str, list[str]]:
        locations, lists = self._phases[self._at][1]
        return dict(zip(locations, map(list, lists), strict=True))

    def get_orderable_locations(self) -> dict[str, list[str]]:
        orderable = self._phases[self._at][2]
        return dict(zip(orderable, map(list, orderable.values()), strict=True))

    def set_orders(self, power_name: str, orders: list[str]) -> None:
        self._orders[power_name] = orders

    def process(self) -> None:
        self._orders = {}
        self._at += 1


class _Recording:
    """A game with MILA's API whose phases are recorded as the bot sees them (for
    :class:`_ApiFloor`)."""

    def __init__(self, game: Any) -> None:
        self.game = game
        self.phases: list[_FloorPhase] = []

    @property
    def is_game_done(self) -> bool:
        return bool(self.game.is_game_done)

    def get_current_phase(self) -> str:
        return str(self.game.get_current_phase())

    def get_all_possible_orders(self) -> dict[str, list[str]]:
        possible: dict[str, list[str]] = self.game.get_all_possible_orders()
        orderable = {p: list(v) for p, v in self.game.get_orderable_locations().items()}
        lists = tuple(list(v) for v in possible.values())
        self.phases.append((self.get_current_phase(), (tuple(possible), lists), orderable))
        return possible

    def get_orderable_locations(self) -> dict[str, list[str]]:
        return dict(self.phases[-1][2])

    def set_orders(self, power_name: str, orders: list[str]) -> None:
        self.game.set_orders(power_name, orders)

    def process(self) -> None:
        self.game.process()


def api_floor_engine(
    seed: int, max_year: int, compat: ModuleType, mila_map: str = "standard"
) -> Engine:
    """The corpus bot's loop on :class:`_ApiFloor`, replaying the games the drop-in plays with
    the same seeds under MILA's ruling (recorded outside the timer)."""

    def setup(r: int) -> tuple[_ApiFloor, random.Random]:
        recording = _Recording(compat.Game(map_name=mila_map, ruling="mila"))
        mila_bot(recording, random.Random(seed + r), max_year)
        floor = _ApiFloor(
            recording.phases,
            recording.get_current_phase(),
            recording.is_game_done,
        )
        return floor, random.Random(seed + r)

    def run(state: tuple[_ApiFloor, random.Random]) -> int:
        return mila_bot(state[0], state[1], max_year)

    return Engine("api-floor", setup, run)


def mila_api_engines(
    seed: int, max_year: int, engines: Iterable[str] = ENGINES, mila: ModuleType | None = None
) -> list[Engine]:
    """The engines of the mila-api workload: the drop-in (when the code API is built and
    ``diplo-rust`` is asked for; under MILA's ruling, its default, named so that
    ``DIPLO_MILA_RULING`` does not change it: MILA's games), MILA (when installed and asked
    for) and, with both, the API at no cost (``api-floor``: what bounds the ratio any
    implementation could show)."""
    wanted = set(engines)
    out: list[Engine] = []
    compat = None
    if "diplo-rust" in wanted:
        # None when diplo.engine.codes is not the real one.
        compat = optional_module("diplo.compat.mila")
        if compat is not None:
            out.append(mila_selfplay_engine(seed, max_year, compat, "diplo-compat", ruling="mila"))
    if mila is not None and "mila" in wanted:
        out.append(mila_selfplay_engine(seed, max_year, mila))
        if compat is not None:
            out.append(api_floor_engine(seed, max_year, compat))
    return out
