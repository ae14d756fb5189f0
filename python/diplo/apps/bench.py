"""``diplo bench``: how fast diplo plays random Diplomacy, against itself and the MILA engine.

Eight workloads, each measured on every engine in the same run (the report is specified in
``../shared/spec/adjudicate-json.md``, "Reports", and ``docs/json-contract.md``):

``movement``
    Full-board movement phases with random legal orders: validation, resolution and the next
    position. The phases come from random self-play (``diplo play --seed S --max-year 1915``, then
    seeds S+1, S+2, ... until enough are found): the movement phases with at least 30 units, or the
    fullest ones when a few games do not have enough. Every unit's order was drawn uniformly from
    its legal orders by the game's :class:`~diplo.player.RandomPlayer`.
``strings``
    The movement phases of ``movement`` given as order strings in the canonical short form (what
    bots and servers send), every result read out with its reason sentence (the object API; MILA
    takes the same strings and rules in ``process()``).
``selfplay``
    The whole random self-play loop from S1901 to the end of ``max_year`` (or a solo victory):
    list the legal orders, choose one per unit, submit, process, every phase type. On the object
    API (:class:`~diplo.game.Game`) with order strings: :func:`diplo.legal.legal_order_texts`
    per orderable power, one random text per key, ``set_orders``, ``process``. Every engine
    plays the same game for a seed, the canonical one (:func:`selfplay_engines`): ``diplo-rust``
    draws over where the canonical options stand in its own code lists, learnt before the
    clock; ``mila`` replays the game, taking each choice out of its own sorted lists and set
    back on the canonical game after a phase it rules otherwise (its departures from the DATC),
    untimed. Each run's final position is digested after the clock stops and the table shows
    one digest per engine (``final positions``): equal digests, the same games.
``jsonl``
    ``diplo adjudicate --jsonl`` on the movement phases as documents (position and order
    strings, one JSON line each): the whole command from text in to text out, on each backend
    (documents per second are ``1e6 / us_per_phase``).
``mila-api``
    The self-play loop of ``selfplay`` written against MILA's ``Game`` API (as the MILA corpus was
    played: ``get_all_possible_orders``, ``get_orderable_locations``, a sorted random choice per
    location, ``set_orders``, ``process``), run on :class:`diplo.compat.mila.Game` (engine
    ``diplo-compat``) and on MILA itself: what a bot written for MILA gains by switching imports.
``batch``
    :func:`diplo.fast.process_batch` over many independent movement phases, on 1 thread and on
    2 threads (only when ``diplo.fast`` is built). The orders go in the fastest public form: flat
    ``bytes`` of ``u32`` codes plus offsets, packed once by :func:`diplo.fast.pack_orders` before
    any timing (as a bot would keep its codes in a buffer), so no per-code conversion happens
    while the GIL is held.
``rollouts``
    ``diplo rollouts`` with two workers writing game files (``rollouts-files``), the same writing
    only the dataset (``rollouts-dataset``), and the plain code-API loop on one core
    (``diplo-rust``), on the same games; ``us_per_phase`` is µs per game per core there
    (:mod:`diplo.rollouts.bench`; the workers' pool is started once, before the rounds, and
    kept, as a process running rollouts again keeps it). Run only when asked for
    (``--workloads rollouts``).
``vector``
    Random play through the vectorised environment (:class:`diplo.env.DiplomacyVectorEnv`,
    ``--vector-envs`` games to ``max_year``, restarted as they end; the NumPy
    :class:`~diplo.env.UniformPolicy` chooses, included in the time) on 1 thread
    (``diplo-vector-1thread``) and 2 (``diplo-vector-2threads``), against the PettingZoo
    environment's random loop of ``docs/env.md`` (``diplo-env``), the plain ``FastGame`` loop
    (``diplo-rust``: a random code from each list as the engine lists it) and, when it is
    installed, MILA playing the corpus bot's random games of ``mila-api`` (``mila``), so that
    every ratio is read in one table; only with the ``env`` extra and ``diplo.fast``.

Engines: ``diplo-python`` (:func:`~diplo.adjudicate.process_phase` with the Python resolver,
:class:`~diplo.game.Game` for self-play), ``diplo-rust`` (the code API :mod:`diplo.fast` when it is
built, else the same object API with the Rust resolver), ``diplo-rust-objects`` (the object API
with the Rust resolver, reported beside the code API when there is one) and ``mila`` (PyPI
``diplomacy`` 1.1.2, the optional extra ``compare``; left out when it is not installed).

What is timed: only the work named above. Inputs are built before the clock starts (positions and
orders, MILA games set to the position and deep-copied, fast games built and cloned); a MILA
movement phase is timed from ``set_orders`` (where MILA validates orders) to ``process()``, as
diplo's is from validation to the next position. Self-play games are created outside the timer.

How it is measured: the engines of a workload take turns, round after round (the first engine
of the turn rotates), so that a noisy shared machine slows them alike. In its turn an engine runs
its work once, or as many times as it takes to last 20 ms (so that the code API is not timed on
its cold start alone, see :func:`measure`). ``us_per_phase`` is the median over the rounds of
each turn's microseconds per phase; ``phases`` and ``seconds`` are the totals over all rounds.
"""

from __future__ import annotations

import argparse
import copy
import gc
import hashlib
import importlib
import json
import math
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field, replace
from types import ModuleType
from typing import Any, Protocol

from ..api.backends import rust_available
from ..api.game import Game
from ..api.legal import legal_order_texts
from ..api.phase import process_phase
from ..formats.mila import MILA_MAP_NAMES, position_from_mila, position_to_mila
from ..model.map import Map, MapError, standard_map
from ..model.orders import Order, format_order, parse_order
from ..model.position import Position
from ..model.rules import Rules
from ..model.variants import load_map
from .adjudicate import run_jsonl
from .common import add_map_argument, first_year, map_argument
from .play import play_game

__all__ = [
    "ENGINES",
    "WORKLOADS",
    "Engine",
    "Measurement",
    "MovementPhase",
    "Report",
    "Settings",
    "batch_engines",
    "fast_module",
    "measure",
    "mila_api_engines",
    "mila_module",
    "movement_engines",
    "prepare_movement_phases",
    "register",
    "run",
    "run_benchmarks",
    "selfplay_engines",
    "vector_engines",
]

WORKLOADS = ("movement", "strings", "selfplay", "mila-api", "jsonl", "batch", "vector", "rollouts")
#: The workloads run when none is named (``rollouts`` starts worker processes: asked for only).
DEFAULT_WORKLOADS = tuple(w for w in WORKLOADS if w != "rollouts")
ENGINES = ("diplo-rust", "diplo-rust-objects", "diplo-python", "mila")
#: The engine the others are compared with, per workload (the ``÷`` column and ``ratios``).
REFERENCE = {
    "movement": "diplo-rust",
    "strings": "diplo-rust-objects",
    "jsonl": "diplo-rust-objects",
    "selfplay": "diplo-rust",
    "batch": "diplo-rust-2threads",
    "mila-api": "diplo-compat",
    "rollouts": "diplo-rust",
    "vector": "diplo-env",
}
FULL_BOARD = 30
DESCRIPTIONS = {
    "movement": "full-board movement phases: validation, resolution, next position",
    "strings": "the movement phases as canonical order strings, results with reasons read out",
    "selfplay": "random self-play, every phase: legal orders, random choice, submit, process",
    "jsonl": "diplo adjudicate --jsonl: movement documents in, ruling documents out",
    "batch": "diplo.fast.process_batch over independent movement phases",
    "mila-api": "random self-play through MILA's Game API: diplo.compat.mila.Game and MILA",
    "rollouts": "diplo rollouts on 2 workers (game files; dataset only) and the plain FastGame "
    "loop on 1 core (µs per game per core)",
    "vector": "random play through the vectorised environment, the PettingZoo env, FastGame",
}


class BenchError(RuntimeError):
    """The benchmark cannot run as asked (an engine that does not accept its inputs)."""


# --------------------------------------------------------------------------- optional engines


class FastGame(Protocol):
    """The part of :class:`diplo.fast.FastGame` the benchmark uses."""

    @property
    def is_over(self) -> bool: ...
    def legal_orders(self) -> list[list[int]]: ...
    def slots(self) -> list[tuple[str, str]]: ...
    def set_orders(self, orders: Sequence[int]) -> None: ...
    def process(self) -> None: ...
    def clone(self) -> FastGame: ...
    def position(self) -> Position: ...


def fast_module() -> ModuleType | None:
    """:mod:`diplo.fast` when it is built, else ``None``."""
    return _optional("diplo.engine.codes")


def mila_module() -> ModuleType | None:
    """The MILA engine (``diplomacy``) when it is installed, else ``None``."""
    return _optional("diplomacy")


def _optional(name: str) -> ModuleType | None:
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


# --------------------------------------------------------------------------- inputs


@dataclass(frozen=True)
class MovementPhase:
    """A movement phase of a random game and the orders its players gave (one per unit)."""

    position: Position
    orders: dict[str, list[Order]]

    @property
    def units(self) -> int:
        return len(self.position.units)

    def texts(self) -> dict[str, list[str]]:
        """The orders in the short form (which is MILA's notation)."""
        return {p: [format_order(o) for o in os] for p, os in self.orders.items()}


def prepare_movement_phases(
    count: int,
    seed: int = 0,
    max_year: int = 1915,
    min_units: int = FULL_BOARD,
    game_map: Map | None = None,
) -> list[MovementPhase]:
    """``count`` movement phases of random self-play with at least ``min_units`` units.

    Plays the games of seeds ``seed``, ``seed + 1``, ... (the games ``diplo play`` plays) until
    ``count`` such phases are found or ``count`` games have been played; then the shortfall is
    made up with the fullest of the other movement phases.
    """
    if count < 1:
        raise ValueError("count must be at least 1")
    full: list[MovementPhase] = []
    rest: list[MovementPhase] = []
    for game_seed in range(seed, seed + count):
        game = play_game(game_seed, max_year, None, game_map=game_map)
        game_map = game.map
        for record in game.history:
            if record.phase.kind != "M":
                continue
            orders = {
                power: [parse_order(text, game_map) for text in texts]
                for power, texts in record.orders.items()
            }
            phase = MovementPhase(record.position, orders)
            (full if phase.units >= min_units else rest).append(phase)
        if len(full) >= count:
            return full[:count]
    rest.sort(key=lambda p: p.units, reverse=True)  # stable: ties keep the order of play
    return full + rest[: count - len(full)]


# --------------------------------------------------------------------------- engines


@dataclass(frozen=True)
class Engine:
    """One engine on one workload.

    ``setup(round)`` builds, outside the timer, the input of one timed run; ``run(input)`` is the
    timed work and returns the number of phases it processed.
    """

    name: str
    setup: Callable[[int], Any]
    run: Callable[[Any], int]
    #: Asked after each timed run, outside the timer (workloads whose engines play the same
    #: games): what the run left to check, see :class:`RunCheck`.
    check: Callable[[Any], RunCheck] | None = None


@dataclass(frozen=True)
class RunCheck:
    """What a run of a self-play engine leaves: the digest of its final position
    (:func:`position_digest`), the seconds of the run that were not its work (taken off its
    time) and how many times it was set to the recorded position after ruling a phase otherwise
    (``None``: an engine that plays its games rather than replaying them), and of those resets
    how many diplo reproduces under ``Rules(edition="mila")`` (MILA's known departures from the
    DATC, ``docs/mila-compat.md``)."""

    digest: str
    untimed: float = 0.0
    resets: int | None = None
    #: Of the resets, those where diplo under ``edition=mila`` rules as MILA did.
    departures: int = 0


def movement_engines(
    phases: Sequence[MovementPhase],
    engines: Iterable[str] = ENGINES,
    fast: ModuleType | None = None,
    mila: ModuleType | None = None,
    mila_map: str = "standard",
) -> list[Engine]:
    """The engines of the movement workload among ``engines`` that can run here (``mila_map``:
    the name MILA knows the phases' map by)."""
    inputs = [(p.position, p.orders) for p in phases]

    def objects(backend: str, name: str) -> Engine:
        def run(items: list[tuple[Position, dict[str, list[Order]]]]) -> int:
            for position, orders in items:
                process_phase(position, orders, backend)
            return len(items)

        return Engine(name, lambda _round: inputs, run)

    return _pick(
        engines,
        objects,
        None if fast is None else lambda: _fast_movement_engine(phases, fast),
        None if mila is None else lambda: _mila_movement_engine(phases, mila, mila_map),
    )


def strings_engines(
    phases: Sequence[MovementPhase],
    engines: Iterable[str] = ENGINES,
    mila: ModuleType | None = None,
) -> list[Engine]:
    """The engines of the strings workload: the object API on each backend, and MILA."""
    inputs = [(p.position, p.texts()) for p in phases]

    def objects(backend: str, name: str) -> Engine:
        def run(items: list[tuple[Position, dict[str, list[str]]]]) -> int:
            for position, orders in items:
                for result in process_phase(position, orders, backend).results:
                    result.reason  # noqa: B018 - read out, as a caller would
            return len(items)

        return Engine(name, lambda _round: inputs, run)

    if mila is None:
        return _object_engines(engines, objects, None)
    module = mila
    return _object_engines(engines, objects, lambda: _mila_movement_engine(phases, module))


def jsonl_engines(
    phases: Sequence[MovementPhase], engines: Iterable[str] = ENGINES
) -> list[Engine]:
    """The engines of the jsonl workload: ``diplo adjudicate --jsonl`` on each backend."""
    import contextlib
    import io

    lines = "".join(
        json.dumps({**p.position.to_json(), "orders": p.texts()}) + "\n" for p in phases
    )

    data = lines.encode()

    def objects(backend: str, name: str) -> Engine:
        def run(source: io.TextIOWrapper) -> int:
            sink = io.StringIO()
            with contextlib.redirect_stdout(sink), _stdin(source):
                run_jsonl(sys.stdin.buffer, backend)
            if sink.getvalue().count("\n") != len(phases):
                raise BenchError(f"{name}: diplo adjudicate --jsonl did not answer every line")
            return len(phases)

        # Standard input as the command reads it: text over a byte buffer.
        return Engine(
            name, lambda _round: io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"), run
        )

    return _object_engines(engines, objects, None)


class _stdin:
    """Reads ``sys.stdin`` from ``source`` while active."""

    def __init__(self, source: Any) -> None:
        self.source = source

    def __enter__(self) -> None:
        self.saved = sys.stdin
        sys.stdin = self.source

    def __exit__(self, *exc: object) -> None:
        sys.stdin = self.saved


def _object_engines(
    wanted: Iterable[str],
    objects: Callable[[str, str], Engine],
    mila: Callable[[], Engine] | None,
) -> list[Engine]:
    """The object API on each built backend (``diplo-rust-objects``, ``diplo-python``) and MILA,
    as asked for (``diplo-rust`` asks for the Rust backend too: there is no code path here)."""
    wanted = set(wanted)
    out: list[Engine] = []
    if rust_available() and wanted & {"diplo-rust", "diplo-rust-objects"}:
        out.append(objects("rust", "diplo-rust-objects"))
    if "diplo-python" in wanted:
        out.append(objects("python", "diplo-python"))
    if mila is not None and "mila" in wanted:
        out.append(mila())
    return out


def _pick(
    wanted: Iterable[str],
    objects: Callable[[str, str], Engine],
    fast: Callable[[], Engine] | None,
    mila: Callable[[], Engine] | None,
) -> list[Engine]:
    """The engines asked for that can run here, in the order of ``ENGINES``: ``objects(backend,
    name)`` makes an engine on the object API; ``fast`` and ``mila`` are ``None`` when absent."""
    wanted = set(wanted)
    out: list[Engine] = []
    if rust_available():
        if fast is not None:
            if "diplo-rust" in wanted:
                out.append(fast())
            if "diplo-rust-objects" in wanted:
                out.append(objects("rust", "diplo-rust-objects"))
        elif "diplo-rust" in wanted:
            out.append(objects("rust", "diplo-rust"))
    if "diplo-python" in wanted:
        out.append(objects("python", "diplo-python"))
    if mila is not None and "mila" in wanted:
        out.append(mila())
    return out


def _fast_games(
    phases: Sequence[MovementPhase], fast: ModuleType
) -> tuple[list[FastGame], list[list[int]]]:
    """A fast game at each phase's position and the phase's orders as codes, one per slot."""
    games: list[FastGame] = []
    codes: list[list[int]] = []
    for phase in phases:
        game: FastGame = fast.FastGame(phase.position)
        games.append(game)
        codes.append(_slot_codes(game, phase, fast.encode_order))
    return games, codes


def _slot_codes(
    game: FastGame, phase: MovementPhase, encode: Callable[[Order, Map], int]
) -> list[int]:
    """The phase's orders as the fast game takes them: for each slot, the code of the order given
    to that slot's unit (found among the slot's legal codes, so the slots' naming is not needed)."""
    game_map = phase.position.map
    given = {encode(order, game_map) for orders in phase.orders.values() for order in orders}
    out: list[int] = []
    for slot, legal in zip(game.slots(), game.legal_orders(), strict=True):
        hits = given.intersection(legal)
        if len(hits) != 1:
            raise BenchError(
                f"{phase.position.phase}: diplo.fast lists none of the orders given for "
                f"slot {slot} among its legal orders"
            )
        out.append(hits.pop())
    return out


def _fast_movement_engine(phases: Sequence[MovementPhase], fast: ModuleType) -> Engine:
    base, codes = _fast_games(phases, fast)

    def setup(_round: int) -> list[FastGame]:
        return [g.clone() for g in base]

    def run(games: list[FastGame]) -> int:
        for game, orders in zip(games, codes, strict=True):
            game.set_orders(orders)
            game.process()
        return len(games)

    return Engine("diplo-rust", setup, run)


def _mila_movement_engine(
    phases: Sequence[MovementPhase], mila: ModuleType, mila_map: str = "standard"
) -> Engine:
    base: list[Any] = []
    for phase in phases:
        game = mila.Game(map_name=mila_map)
        game.set_state(position_to_mila(phase.position))
        base.append(game)
    texts = [sorted(p.texts().items()) for p in phases]

    def setup(_round: int) -> list[Any]:
        return [copy.deepcopy(g) for g in base]

    def run(games: list[Any]) -> int:
        for game, orders in zip(games, texts, strict=True):
            for power, power_orders in orders:
                game.set_orders(power, power_orders)
            game.process()
        return len(games)

    return Engine("mila", setup, run)


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
    recorded: dict[int, _Recorded] = {}

    def record(game_seed: int) -> _Recorded:
        if game_seed not in recorded:
            recorded[game_seed] = _record_game(game_seed, max_year, game_map)
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

    return _pick(
        engines,
        objects,
        None
        if fast is None
        else lambda: _canonical_fast_engine(seed, max_year, fast, record, game_map),
        None
        if mila is None
        else lambda: _mila_replay_engine(seed, mila, mila_map, record, game_map),
    )


def position_digest(position: Position) -> str:
    """A short digest of a position (phase, units, centre owners, dislodged units and their
    retreat options): equal digests, equal boards, whichever engine reached them."""
    lines = [str(position.phase)]
    lines += sorted(f"{p.power} {p}" for p in position.units.values())
    lines += sorted(f"{prov} {power}" for prov, power in position.centers.items())
    lines += sorted(
        f"*{d.piece.power} {d.piece} {' '.join(sorted(d.options))}"
        for d in position.dislodged.values()
    )
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()[:16]


@dataclass(frozen=True)
class _Recorded:
    """The canonical game of one seed as the object engines play it: the position at the start
    of every phase and the final one (``positions``), and per phase the slots in canonical order
    as ``(power, key, texts, index of the text chosen)``."""

    positions: list[Position]
    slots: list[list[tuple[str, str, list[str], int]]]


def _record_game(game_seed: int, max_year: int, game_map: Map | None) -> _Recorded:
    """The object engines' loop (``selfplay_engines``), untimed, keeping what it chose:
    ``choice(range(n))`` draws exactly as ``choice(options)`` does from a list of ``n``."""
    game = Game(game_map, max_year=max_year)
    choice = random.Random(game_seed).choice
    positions: list[Position] = []
    slots: list[list[tuple[str, str, list[str], int]]] = []
    while not game.is_over:
        position = game.position
        positions.append(position)
        phase: list[tuple[str, str, list[str], int]] = []
        for power in game.orderable_powers():
            legal = legal_order_texts(position, power)
            chosen = [
                (power, key, texts, choice(range(len(texts)))) for key, texts in legal.items()
            ]
            game.set_orders(power, [texts[k] for _p, _key, texts, k in chosen])
            phase += chosen
        slots.append(phase)
        game.process()
    positions.append(game.position)
    return _Recorded(positions, slots)


#: Per phase, per canonical slot: (the index of the slot in the code API's lists, where each
#: canonical option of the slot stands in that list).
_FastPlan = list[tuple[tuple[int, Sequence[int]], ...]]


def _fast_plan(
    recorded: _Recorded,
    max_year: int,
    fast: ModuleType,
    start: Position,
    shared: dict[Any, Any] | None = None,
) -> _FastPlan:
    """Where the canonical options stand in the code API's own lists, phase by phase: the
    canonical game played once on a fast game (untimed), every listed code decoded. Raises
    :class:`BenchError` when the code API lists other orders or reaches another position."""
    game: FastGame = fast.FastGame(start, max_year)
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
            positions = _compact([own[t] for t in texts])
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


def _compact(indexes: list[int]) -> Sequence[int]:
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


def _canonical_fast_engine(
    seed: int,
    max_year: int,
    fast: ModuleType,
    record: Callable[[int], _Recorded],
    game_map: Map | None = None,
) -> Engine:
    """``diplo-rust`` on the canonical game: lists its codes every phase and draws one per slot
    (``choice`` over where the canonical options stand in its list, learnt before the clock)."""
    start = Position.initial(game_map if game_map is not None else standard_map())
    plans: dict[int, _FastPlan] = {}
    shared: dict[Any, Any] = {}

    def setup(r: int) -> tuple[FastGame, Callable[[Sequence[int]], int], Any]:
        if r not in plans:
            plans[r] = _fast_plan(record(seed + r), max_year, fast, start, shared)
        return fast.FastGame(start, max_year), random.Random(seed + r).choice, iter(plans[r])

    def run(state: tuple[FastGame, Callable[[Sequence[int]], int], Any]) -> int:
        game, choice, plan = state
        phases = 0
        while not game.is_over:
            lists = game.legal_orders()
            game.set_orders([lists[j][choice(p)] for j, p in next(plan)])
            game.process()
            phases += 1
        return phases

    def check(state: tuple[FastGame, Any, Any]) -> RunCheck:
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
    record: Callable[[int], _Recorded],
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
    recorded: _Recorded, mila: ModuleType, mila_map: str, game_map: Map
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


def _fast_selfplay_engine(
    seed: int, max_year: int, fast: ModuleType, game_map: Map | None = None
) -> Engine:
    """The plain code-API loop: a random code from each list in the engine's own order (the
    ``vector`` workload's ``diplo-rust``; ``selfplay`` plays the canonical game instead)."""
    start = None if game_map is None else Position.initial(game_map)

    def setup(r: int) -> tuple[FastGame, random.Random]:
        return fast.FastGame(start, max_year), random.Random(seed + r)

    def run(state: tuple[FastGame, random.Random]) -> int:
        game, rng = state
        choice = rng.choice
        phases = 0
        while not game.is_over:
            game.set_orders([choice(options) for options in game.legal_orders()])
            game.process()
            phases += 1
        return phases

    return Engine("diplo-rust", setup, run)


def _mila_selfplay_engine(
    seed: int,
    max_year: int,
    mila: ModuleType,
    name: str = "mila",
    mila_map: str = "standard",
) -> Engine:
    """Self-play through MILA's ``Game`` API, on ``mila.Game`` (MILA, or diplo.compat.mila)."""

    # As the MILA corpus was played (../shared/corpus/README.md, "How games are played").
    def setup(r: int) -> tuple[Any, random.Random]:
        return mila.Game(map_name=mila_map), random.Random(seed + r)

    def run(state: tuple[Any, random.Random]) -> int:
        return _mila_bot(state[0], state[1], max_year)

    return Engine(name, setup, run)


def _mila_bot(game: Any, rng: random.Random, max_year: int) -> int:
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


def _api_floor_engine(
    seed: int, max_year: int, compat: ModuleType, mila_map: str = "standard"
) -> Engine:
    """The corpus bot's loop on :class:`_ApiFloor`, replaying the games the drop-in plays with
    the same seeds (recorded outside the timer)."""

    def setup(r: int) -> tuple[_ApiFloor, random.Random]:
        recording = _Recording(compat.Game(map_name=mila_map))
        _mila_bot(recording, random.Random(seed + r), max_year)
        floor = _ApiFloor(
            recording.phases,
            recording.get_current_phase(),
            recording.is_game_done,
        )
        return floor, random.Random(seed + r)

    def run(state: tuple[_ApiFloor, random.Random]) -> int:
        return _mila_bot(state[0], state[1], max_year)

    return Engine("api-floor", setup, run)


def mila_api_engines(
    seed: int, max_year: int, engines: Iterable[str] = ENGINES, mila: ModuleType | None = None
) -> list[Engine]:
    """The engines of the mila-api workload: the drop-in (when the code API is built and
    ``diplo-rust`` is asked for), MILA (when installed and asked for) and, with both, the API
    at no cost (``api-floor``: what bounds the ratio any implementation could show)."""
    wanted = set(engines)
    out: list[Engine] = []
    compat = None
    if "diplo-rust" in wanted and rust_available():
        compat = _optional("diplo.compat.mila")  # None when diplo.fast is not the real one
        if compat is not None:
            out.append(_mila_selfplay_engine(seed, max_year, compat, "diplo-compat"))
    if mila is not None and "mila" in wanted:
        out.append(_mila_selfplay_engine(seed, max_year, mila))
        if compat is not None:
            out.append(_api_floor_engine(seed, max_year, compat))
    return out


def batch_engines(
    phases: Sequence[MovementPhase], size: int, fast: ModuleType, threads: Sequence[int] = (1, 2)
) -> list[Engine]:
    """``process_batch`` over ``size`` movement phases (``phases`` repeated), per thread count,
    the orders packed flat (:func:`diplo.fast.pack_orders`) before the clock starts."""
    base, codes = _fast_games(phases, fast)
    games = [base[i % len(base)] for i in range(size)]
    orders = [codes[i % len(codes)] for i in range(size)]
    pack = getattr(fast, "pack_orders", None)  # a stand-in module may take lists only
    flat, offsets = pack(orders) if pack is not None else (orders, None)

    def engine(count: int) -> Engine:
        def run(batch: list[FastGame]) -> int:
            if offsets is None:
                fast.process_batch(batch, orders, threads=count)
            else:
                fast.process_batch(batch, flat, threads=count, offsets=offsets)
            return len(batch)

        name = f"diplo-rust-{count}thread" + ("s" if count > 1 else "")
        return Engine(name, lambda _round: [g.clone() for g in games], run)

    return [engine(count) for count in threads]


def vector_engines(
    seed: int,
    max_year: int,
    envs: int,
    fast: ModuleType,
    game_map: Map | None = None,
    mila: ModuleType | None = None,
    mila_map: str = "standard",
) -> list[Engine]:
    """The ``vector`` workload (module documentation): each run plays ``VECTOR_STEPS`` steps
    of ``envs`` games (``phases_played`` counted) or one PettingZoo / ``FastGame`` / MILA game
    (MILA when ``mila`` is given, on ``mila_map``)."""
    from ..env import DiplomacyEnv, DiplomacyVectorEnv, UniformPolicy

    policy = UniformPolicy()

    def vector(threads: int) -> Engine:
        # A fresh environment per run (made and reset outside the timer).
        def setup(r: int) -> tuple[Any, Any, Any]:
            env = DiplomacyVectorEnv(envs, game_map, max_year=max_year, threads=threads)
            return (env, *env.reset(seed=seed + r * envs))

        def run(state: tuple[Any, Any, Any]) -> int:
            env, obs, infos = state
            phases = 0
            for _ in range(VECTOR_STEPS):
                obs, _r, _t, _u, infos = env.step(policy(obs, infos, env.seeds))
                phases += infos["phases_played"]
            return phases

        name = f"diplo-vector-{threads}thread" + ("s" if threads > 1 else "")
        return Engine(name, setup, run)

    def pz_setup(r: int) -> tuple[Any, Any, random.Random]:
        pz = DiplomacyEnv(game_map, max_year=max_year)
        return pz, pz.reset(seed=seed + r)[1], random.Random(seed + r)

    def pz_run(state: tuple[Any, Any, random.Random]) -> int:
        pz, infos, rng = state
        pick, width, phases = rng.randrange, pz.max_slots, 0
        while pz.agents:
            actions = {}
            for power in pz.agents:
                picks = [pick(k) for k in infos[power]["legal_counts"]]
                actions[power] = picks + [0] * (width - len(picks))
            _obs, _rewards, _term, _trunc, infos = pz.step(actions)
            phases += 1
        return phases

    engines = [
        vector(1),
        vector(2),
        Engine("diplo-env", pz_setup, pz_run),
        _fast_selfplay_engine(seed, max_year, fast, game_map),
    ]
    if mila is not None:
        # MILA's random self-play (the corpus bot of mila-api), so the ratio to MILA is read in
        # this table.
        engines.append(_mila_selfplay_engine(seed, max_year, mila, mila_map=mila_map))
    return engines


#: Steps of every game per run of a ``vector`` engine.
VECTOR_STEPS = 40


# --------------------------------------------------------------------------- measuring


@dataclass
class Measurement:
    """Totals of one engine on one workload, and its microseconds per phase in each round."""

    phases: int = 0
    seconds: float = 0.0
    rounds: list[float] = field(default_factory=list)
    runs: int = 0  # the engine's runs of the workload, over all rounds (repeats included)
    #: Engines with a :class:`RunCheck`: the digest of each round's final position, in order.
    digests: list[str] = field(default_factory=list)
    #: A replaying engine's resets over all runs (:class:`RunCheck`), else ``None``; of those,
    #: the known departures of MILA's from the DATC.
    resets: int | None = None
    departures: int = 0

    @property
    def final_positions(self) -> str | None:
        """One digest of the final positions of every round (``None`` when not checked)."""
        if not self.digests:
            return None
        return hashlib.sha256(" ".join(self.digests).encode()).hexdigest()[:16]

    @property
    def us_per_phase(self) -> float:
        return statistics.median(self.rounds)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "phases": self.phases,
            "seconds": round(self.seconds, 6),
            "us_per_phase": round(self.us_per_phase, 3),
        }
        if self.digests:
            out["final_positions"] = self.final_positions
        if self.resets is not None:
            out["resets"] = self.resets
        return out


#: A timed run lasts at least this long: shorter ones repeat the engine's run within the round.
MIN_RUN_SECONDS = 0.02
MAX_REPEATS = 1000


def measure(
    engines: Sequence[Engine], rounds: int, min_run: float = MIN_RUN_SECONDS
) -> dict[str, Measurement]:
    """Time every engine ``rounds`` times, taking turns (the first of each turn rotates).

    A fast engine starts each of its turns cold (the other engines have just filled the caches
    and the allocator with their own data; the code API runs at half speed for its first
    milliseconds), so a run that would last less than ``min_run`` is repeated within the turn
    (fresh inputs each time, all built before the clock starts), as often as an untimed warm-up
    run says is needed. The garbage collector runs as it would in a program.
    """
    out = {e.name: Measurement() for e in engines}
    gc.collect()
    repeats = {e.name: _repeats_needed(e, min_run) for e in engines}
    clock = time.perf_counter
    for r in range(rounds):
        shift = r % len(engines) if engines else 0
        for engine in [*engines[shift:], *engines[:shift]]:
            works = [engine.setup(r) for _ in range(repeats[engine.name])]
            start = clock()
            phases = sum(engine.run(work) for work in works)
            elapsed = clock() - start
            m = out[engine.name]
            if engine.check is not None:
                checks = [engine.check(work) for work in works]
                if len({c.digest for c in checks}) > 1:
                    raise BenchError(f"{engine.name} played round {r}'s game two ways")
                m.digests.append(checks[0].digest)
                elapsed -= sum(c.untimed for c in checks)
                if checks[0].resets is not None:
                    m.resets = (m.resets or 0) + sum(c.resets or 0 for c in checks)
                    m.departures += sum(c.departures for c in checks)
            del works
            if phases < 1:
                raise BenchError(f"{engine.name} processed no phase")
            m.phases += phases
            m.runs += repeats[engine.name]
            m.seconds += elapsed
            m.rounds.append(elapsed * 1e6 / phases)
    return out


def _repeats_needed(engine: Engine, min_run: float) -> int:
    """Warm the engine up (untimed) and return how many runs last ``min_run``."""
    elapsed = 0.0
    for _ in range(2):  # the first run is the coldest: measure again when it was short
        work = engine.setup(0)
        start = time.perf_counter()
        engine.run(work)
        elapsed = time.perf_counter() - start
        if elapsed >= min_run:
            break
    return max(1, min(MAX_REPEATS, math.ceil(min_run / max(elapsed, 1e-9))))


def ratios(workload: str, results: dict[str, Measurement]) -> dict[str, float]:
    """Each engine's µs per phase divided by the reference engine's (``"mila/diplo-rust"``)."""
    ref = REFERENCE[workload]
    if ref not in results:
        return {}
    base = results[ref].us_per_phase
    return {
        f"{name}/{ref}": round(m.us_per_phase / base, 3)
        for name, m in results.items()
        if name != ref and base > 0
    }


# --------------------------------------------------------------------------- the command


@dataclass(frozen=True)
class Settings:
    workloads: tuple[str, ...] = DEFAULT_WORKLOADS
    engines: tuple[str, ...] = ENGINES
    seed: int = 0
    games: int = 30
    phases: int = 40
    rounds: int = 30
    batch_size: int = 1000
    #: Games of the ``vector`` workload's environment.
    vector_envs: int = 256
    max_year: int = 1915
    #: A shipped map's name or a map file (``--map``); ``None``: the standard map.
    map: str | None = None
    #: Commands speaking the JSON contract in --jsonl mode, timed on the movement workload.
    external: tuple[str, ...] = ()
    #: The rollouts workload: games per engine and round, and rounds.
    rollout_games: int = 1000
    rollout_rounds: int = 3


def external_engines(phases: Sequence[MovementPhase], commands: Sequence[str]) -> list[Engine]:
    """The movement phases through each external command (``diplo bench --engine CMD``) and,
    for comparison, through diplo's own ``diplo adjudicate --jsonl`` (engine ``diplo-jsonl``):
    one process per run, all the phases on its standard input. Every output must be a ruling."""
    from .external import EngineError, ExternalEngine, diplo_command

    docs = [{**p.position.to_json(), "orders": p.texts()} for p in phases]

    def engine(name: str, command: str) -> Engine:
        external = ExternalEngine(command)

        def run(batch: list[dict[str, Any]]) -> int:
            try:
                outputs = external.adjudicate(batch)
            except EngineError as exc:
                raise BenchError(str(exc)) from None
            bad = [o for o in outputs if "results" not in o]
            if bad:
                raise BenchError(f"{command!r} did not rule on every phase: {bad[0]}")
            return len(outputs)

        return Engine(name, lambda _round: docs, run)

    out = [engine(f"external-{i}", command) for i, command in enumerate(commands, start=1)]
    out.append(engine("diplo-jsonl", diplo_command()))
    return out


@dataclass
class Report:
    """What a run measured: per workload, per engine."""

    settings: Settings
    workloads: dict[str, dict[str, Measurement]] = field(default_factory=dict)
    movement_units: list[int] = field(default_factory=list)
    fast_path: bool = False

    def to_json(self) -> dict[str, Any]:
        """The ``diplo bench --json`` report; ``ratios`` and ``settings`` are extra keys."""
        return {
            "workloads": {
                w: {name: m.to_json() for name, m in results.items()}
                for w, results in self.workloads.items()
            },
            "ratios": {w: ratios(w, results) for w, results in self.workloads.items()},
            "settings": {
                **asdict(self.settings),
                "movement_units": self.movement_units,
                "fast_path": self.fast_path,
            },
        }

    def table(self) -> str:
        """The text ``diplo bench`` prints: µs per phase per engine and the ratios."""
        s = self.settings
        units = self.movement_units
        details = {
            "movement": f"{len(units)} phases of {min(units, default=0)}-{max(units, default=0)}"
            f" units x {s.rounds} rounds",
            "strings": f"{len(units)} phases x {s.rounds} rounds",
            "jsonl": f"{len(units)} documents per run x {s.rounds} rounds (µs per document)",
            "selfplay": f"{s.games} games (seeds {s.seed}-{s.seed + s.games - 1}) to {s.max_year}"
            ", one per round",
            "batch": f"{s.batch_size} phases per call x {s.rounds} rounds",
            "mila-api": f"{s.games} games (seeds {s.seed}-{s.seed + s.games - 1}) to {s.max_year}",
            "rollouts": f"{s.rollout_games} games per engine x {s.rollout_rounds} rounds to "
            f"{s.max_year} (µs per game per core)",
            "vector": f"{s.vector_envs} games x {VECTOR_STEPS} steps per run (the env, FastGame "
            f"and MILA: one game per run) to {s.max_year} x {s.rounds} rounds",
        }
        lines: list[str] = []
        for workload, results in self.workloads.items():
            ref = REFERENCE[workload]
            base = results[ref].us_per_phase if ref in results else None
            checked = any(m.digests for m in results.values())
            lines.append(f"{workload}: {DESCRIPTIONS[workload]}")
            lines.append(f"  {details[workload]}")
            if checked:
                lines.append(
                    "  every engine plays each seed's canonical game: one random stream, one "
                    "choice per slot in the order"
                )
                lines.append(
                    "  of diplo's object API (powers in map order, provinces sorted, each list in "
                    "text order)"
                )
            head = f"÷ {ref}" if base else ""
            final = f"{'final positions':>18}" if checked else ""
            lines.append(
                f"  {'engine':<22}{'µs/phase':>10}{'phases/run':>11}{'runs':>6}{'phases':>9}"
                f"{'seconds':>10}{final}  {head}"
            )
            per_run: set[float] = set()
            for name, m in results.items():
                ratio = f"{m.us_per_phase / base:8.2f}" if base else ""
                each = m.phases / m.runs if m.runs else 0.0
                per_run.add(round(each, 1))
                digest = f"{m.final_positions or '-':>18}" if checked else ""
                lines.append(
                    f"  {name:<22}{m.us_per_phase:>10.1f}{each:>11.1f}{m.runs:>6}{m.phases:>9}"
                    f"{m.seconds:>10.3f}{digest}  {ratio}"
                )
            rounds = max((len(m.rounds) for m in results.values()), default=0)
            lines.append(
                "  phases/run: one run's work, the same for engines that did the same work; runs: "
                f"over {rounds} rounds,"
            )
            lines.append(
                f"  a fast engine repeating its run in a round to last {MIN_RUN_SECONDS * 1000:.0f}"
                " ms or more; phases, seconds: totals over all runs"
            )
            if checked:
                lines += _same_games_lines(results)
            if len(per_run) > 1:
                lines.append(
                    "  not the same phases/run on every engine (the same seeds): compare µs per "
                    "phase, not seconds"
                )
            if workload == "vector":
                lines.extend(_vector_summary(results))
            if workload == "mila-api":
                lines.extend(_mila_api_summary(results))
            lines.append("")
        return "\n".join(lines)


def _same_games_lines(results: dict[str, Measurement]) -> list[str]:
    """What the ``final positions`` column shows: whether every engine ended every round where
    the others did, and what the replaying engines (``mila``) had to be helped with."""
    digests = {name: m.final_positions for name, m in results.items() if m.digests}
    lines: list[str] = []
    if len(set(digests.values())) == 1 and len(digests) == len(results):
        lines.append(
            "  final positions: a digest of the positions every round's game ended in: the same "
            "games on every engine"
        )
    else:
        differ = ", ".join(f"{name} {d or '-'}" for name, d in digests.items())
        lines.append(f"  final positions differ: NOT the same games on every engine ({differ})")
    for name, m in results.items():
        if m.resets is None:
            continue
        if not m.resets:
            lines.append(
                f"  {name} replays the canonical games, listing its own possible orders every "
                "phase: it ruled every phase as diplo did"
            )
            continue
        others = m.resets - m.departures
        explained = f"all {m.resets}" if not others else f"{m.departures}; {others} not"
        lines.append(
            f"  {name} replays the canonical games: it lists its own possible orders every phase "
            "and takes the"
        )
        lines.append(
            f"  canonical choice out of its list; it ruled {m.resets} of its {m.phases} phases "
            f"otherwise than diplo ({explained}"
        )
        lines.append(
            "  as diplo rules under edition=mila: its departures from the DATC, "
            "docs/mila-compat.md) and after"
        )
        lines.append("  each was set to the canonical next position, untimed")
    return lines


def _vector_summary(results: dict[str, Measurement]) -> list[str]:
    """The vector workload's headline: the 2-thread environment's phases per second as a
    multiple of the PettingZoo environment's and of MILA's, from this one run."""
    fast = results.get("diplo-vector-2threads")
    if fast is None:
        return []
    others = [name for name in ("diplo-env", "mila") if name in results]
    if not others:
        return []
    times = ", ".join(
        f"{results[name].us_per_phase / fast.us_per_phase:.1f} x {name}'s" for name in others
    )
    return [f"  diplo-vector-2threads plays {times} phases per second"]


def _mila_api_summary(results: dict[str, Measurement]) -> list[str]:
    """The mila-api workload's headline: MILA's time per phase as a multiple of the drop-in's,
    and of the API at no cost (``api-floor``): about the most any implementation could show."""
    mila = results.get("mila")
    if mila is None:
        return []
    lines = []
    compat = results.get("diplo-compat")
    if compat is not None:
        lines.append(f"  MILA ÷ diplo-compat: {mila.us_per_phase / compat.us_per_phase:.1f}")
    floor = results.get("api-floor")
    if floor is not None:
        lines.append(
            f"  MILA ÷ api-floor: {mila.us_per_phase / floor.us_per_phase:.1f}, about the most "
            "any implementation of MILA's API could show"
        )
        lines.append(
            "  under this loop (api-floor: the bot's loop on the drop-in's phases, recorded and "
            "handed out as the API"
        )
        lines.append("  must, a new dict of new lists per call, with no rule applied)")
    return lines


Note = Callable[[str], None]


def run_benchmarks(settings: Settings, note: Note | None = None) -> Report:
    """Run the workloads of ``settings``; ``note`` is told what is left out and what runs."""
    say = note or (lambda _text: None)
    fast = fast_module() if rust_available() else None
    mila = mila_module() if "mila" in settings.engines else None
    if "mila" in settings.engines and mila is None:
        say("mila omitted: the MILA engine is not installed (pip install 'diplo[compare]')")
    if not rust_available():
        say("diplo-rust omitted: the Rust core is not built")
    elif fast is None:
        say("diplo.fast is not built: diplo-rust is process_phase(..., 'rust'), the object API")
    report = Report(settings, fast_path=fast is not None)
    game_map = None if settings.map is None else load_map(settings.map)
    mila_map = "standard" if settings.map is None else MILA_MAP_NAMES.get(settings.map)
    if mila_map is None and settings.map is not None and settings.map.endswith(".map"):
        mila_map = settings.map  # MILA reads its own format from a path
    if mila is not None and mila_map is None:
        say(f"mila omitted: MILA does not know the map {settings.map}")
        mila = None
    phases: list[MovementPhase] = []
    if {"movement", "strings", "jsonl", "batch"} & set(settings.workloads):
        say(f"preparing {settings.phases} movement phases from random self-play")
        phases = prepare_movement_phases(
            settings.phases, settings.seed, settings.max_year, game_map=game_map
        )
        report.movement_units = [p.units for p in phases]
    if "movement" in settings.workloads:
        engines = movement_engines(phases, settings.engines, fast, mila, mila_map or "standard")
        if settings.external:
            engines += external_engines(phases, settings.external)
            for i, command in enumerate(settings.external, start=1):
                say(f"external-{i} is {command!r}; diplo-jsonl is diplo adjudicate --jsonl")
        say(f"movement: {len(engines)} engines x {settings.rounds} rounds")
        report.workloads["movement"] = measure(engines, settings.rounds)
    if "strings" in settings.workloads:
        engines = strings_engines(phases, settings.engines, mila)
        say(f"strings: {len(engines)} engines x {settings.rounds} rounds")
        report.workloads["strings"] = measure(engines, settings.rounds)
    if "jsonl" in settings.workloads:
        engines = jsonl_engines(phases, settings.engines)
        say(f"jsonl: {len(engines)} engines x {settings.rounds} rounds")
        report.workloads["jsonl"] = measure(engines, settings.rounds)
    if "selfplay" in settings.workloads:
        engines = selfplay_engines(
            settings.seed,
            settings.max_year,
            settings.engines,
            fast,
            mila,
            game_map=game_map,
            mila_map=mila_map or "standard",
        )
        say(f"selfplay: {len(engines)} engines x {settings.games} games to {settings.max_year}")
        report.workloads["selfplay"] = measure(engines, settings.games)
    if "mila-api" in settings.workloads:
        engines = mila_api_engines(settings.seed, settings.max_year, settings.engines, mila)
        if engines:
            say(f"mila-api: {len(engines)} engines x {settings.games} games to {settings.max_year}")
            report.workloads["mila-api"] = measure(engines, settings.games)
        else:
            say("mila-api omitted: neither diplo.compat.mila nor MILA can run here")
    if "batch" in settings.workloads:
        if fast is None:
            say("batch omitted: diplo.fast (and its process_batch) is not built")
        elif "diplo-rust" not in settings.engines:
            say("batch omitted: diplo-rust is not among the engines asked for")
        else:
            engines = batch_engines(phases, settings.batch_size, fast)
            say(f"batch: {settings.batch_size} phases per call x {settings.rounds} rounds")
            report.workloads["batch"] = measure(engines, settings.rounds)
    if "rollouts" in settings.workloads:
        if fast is None:
            say("rollouts omitted: diplo rollouts needs the code API (diplo.fast)")
        else:
            from ..rollouts.bench import measure_rollouts

            say(f"rollouts: 3 engines x {settings.rollout_rounds} rounds")
            measured = measure_rollouts(
                settings.seed,
                settings.max_year,
                settings.rollout_games,
                settings.rollout_rounds,
                settings.map or "standard",
            )
            report.workloads["rollouts"] = {
                # One run per round: the table's phases/run is games per run.
                name: Measurement(games, seconds, rounds, len(rounds))
                for name, (games, seconds, rounds) in measured.items()
            }
    if "vector" in settings.workloads:
        if fast is None:
            say("vector omitted: diplo.fast is not built")
        elif _optional("diplo.env") is None:
            say("vector omitted: diplo.env needs the env extra (pip install 'diplo[env]')")
        else:
            engines = vector_engines(
                settings.seed,
                settings.max_year,
                settings.vector_envs,
                fast,
                game_map,
                mila,
                mila_map or "standard",
            )
            say(f"vector: {settings.vector_envs} games x {settings.rounds} rounds")
            report.workloads["vector"] = measure(engines, settings.rounds)
    return report


def register(sub: Any) -> None:
    bench = sub.add_parser(
        "bench",
        help="time diplo's engines (and MILA's) on random full-board play",
        description=(
            "Time the movement, strings, selfplay, mila-api, jsonl, batch and vector workloads "
            "(and rollouts, when asked for) on every engine, interleaved in rounds; report the "
            "median µs per phase. The defaults take a few minutes."
        ),
    )
    defaults = Settings()
    bench.add_argument("--json", action="store_true", help="print the JSON report")
    bench.add_argument(
        "--games",
        type=_positive,
        default=defaults.games,
        help=f"games per engine of the selfplay and mila-api workloads, one per round (default "
        f"{defaults.games})",
    )
    bench.add_argument(
        "--phases",
        type=_positive,
        default=defaults.phases,
        help=f"full-board movement phases per round (default {defaults.phases})",
    )
    bench.add_argument(
        "--rounds",
        type=_positive,
        default=defaults.rounds,
        help=f"rounds of the movement, strings, jsonl, batch and vector workloads (default "
        f"{defaults.rounds})",
    )
    bench.add_argument(
        "--batch-size",
        type=_positive,
        default=defaults.batch_size,
        help=f"phases per process_batch call (default {defaults.batch_size})",
    )
    bench.add_argument(
        "--vector-envs",
        type=_positive,
        default=defaults.vector_envs,
        help=f"games of the vector workload's environment (default {defaults.vector_envs})",
    )
    bench.add_argument(
        "--max-year",
        type=int,
        default=None,
        help=f"last year of the self-play games (default {defaults.max_year}, or as many years "
        "from a map's own first year)",
    )
    bench.add_argument(
        "--engines",
        nargs="+",
        choices=ENGINES,
        default=list(ENGINES),
        metavar="ENGINE",
        help=f"engines to time (default all that run here): {', '.join(ENGINES)}",
    )
    bench.add_argument(
        "--workloads",
        nargs="+",
        choices=WORKLOADS,
        default=list(DEFAULT_WORKLOADS),
        metavar="WORKLOAD",
        help=f"workloads to run (default all but rollouts): {', '.join(WORKLOADS)}",
    )
    bench.add_argument(
        "--rollout-games",
        type=_positive,
        default=defaults.rollout_games,
        help=f"games per engine and round of the rollouts workload (default "
        f"{defaults.rollout_games})",
    )
    bench.add_argument("--seed", type=int, default=defaults.seed, help="random seed (default 0)")
    bench.add_argument(
        "--engine",
        metavar="CMD",
        action="append",
        default=[],
        help="also time the movement workload through this command, which must speak the JSON "
        "contract in --jsonl mode (one process per round, all phases on its standard input), "
        "beside diplo's own command (diplo-jsonl); repeatable",
    )
    add_map_argument(bench)
    bench.set_defaults(handler=run)


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive number, got {text}")
    return value


def run(args: argparse.Namespace) -> int:
    try:
        game_map = map_argument(args.map)
    except MapError as exc:
        print(f"diplo: {exc}", file=sys.stderr)
        return 2
    first = 1901 if game_map is None else first_year(game_map)
    if args.max_year is None:
        args.max_year = first + Settings().max_year - 1901
    if args.max_year < first:
        print(f"diplo: --max-year must be {first} or later", file=sys.stderr)
        return 2
    settings = Settings(
        workloads=tuple(w for w in WORKLOADS if w in args.workloads),
        engines=tuple(e for e in ENGINES if e in args.engines),
        seed=args.seed,
        games=args.games,
        phases=args.phases,
        rounds=args.rounds,
        batch_size=args.batch_size,
        vector_envs=args.vector_envs,
        max_year=args.max_year,
        map=args.map,
        external=tuple(args.engine),
        rollout_games=args.rollout_games,
    )
    try:
        report = run_benchmarks(settings, lambda text: print(f"bench: {text}", file=sys.stderr))
    except BenchError as exc:
        print(f"diplo: {exc}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(report.to_json(), indent=1))
    else:
        print(report.table())
    return 0
