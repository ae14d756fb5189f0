"""The workloads on movement phases: ``movement``, ``strings``, ``jsonl``, ``batch`` and the
external engines (``--engine CMD``)."""

from __future__ import annotations

import copy
import json
import sys
from collections.abc import Callable, Iterable, Sequence
from types import ModuleType
from typing import Any

from ...api.phase import process_phase
from ...formats.mila import position_to_mila
from ...model.map import Map
from ...model.orders import Order
from ...model.position import Position
from ..adjudicate import run_jsonl
from .engines import ENGINES, CodeGame, object_engines, pick_engines
from .inputs import MovementPhase
from .measure import BenchError, Engine


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

    return pick_engines(
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
        return object_engines(engines, objects, None)
    module = mila
    return object_engines(engines, objects, lambda: _mila_movement_engine(phases, module))


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

    return object_engines(engines, objects, None)


class _stdin:
    """Reads ``sys.stdin`` from ``source`` while active."""

    def __init__(self, source: Any) -> None:
        self.source = source

    def __enter__(self) -> None:
        self.saved = sys.stdin
        sys.stdin = self.source

    def __exit__(self, *exc: object) -> None:
        sys.stdin = self.saved


def fast_games(
    phases: Sequence[MovementPhase], fast: ModuleType
) -> tuple[list[CodeGame], list[list[int]]]:
    """A fast game at each phase's position and the phase's orders as codes, one per slot."""
    games: list[CodeGame] = []
    codes: list[list[int]] = []
    for phase in phases:
        game: CodeGame = fast.CodeGame(phase.position)
        games.append(game)
        codes.append(slot_codes(game, phase, fast.encode_order))
    return games, codes


def slot_codes(
    game: CodeGame, phase: MovementPhase, encode: Callable[[Order, Map], int]
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
                f"{phase.position.phase}: diplo.engine.codes lists none of the orders given for "
                f"slot {slot} among its legal orders"
            )
        out.append(hits.pop())
    return out


def _fast_movement_engine(phases: Sequence[MovementPhase], fast: ModuleType) -> Engine:
    base, codes = fast_games(phases, fast)

    def setup(_round: int) -> list[CodeGame]:
        return [g.clone() for g in base]

    def run(games: list[CodeGame]) -> int:
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


def batch_engines(
    phases: Sequence[MovementPhase], size: int, fast: ModuleType, threads: Sequence[int] = (1, 2)
) -> list[Engine]:
    """``process_batch`` over ``size`` movement phases (``phases`` repeated), per thread count,
    the orders packed flat (:func:`diplo.engine.codes.pack_orders`) before the clock starts."""
    base, codes = fast_games(phases, fast)
    games = [base[i % len(base)] for i in range(size)]
    orders = [codes[i % len(codes)] for i in range(size)]
    pack = getattr(fast, "pack_orders", None)  # a stand-in module may take lists only
    flat, offsets = pack(orders) if pack is not None else (orders, None)

    def engine(count: int) -> Engine:
        def run(batch: list[CodeGame]) -> int:
            if offsets is None:
                fast.process_batch(batch, orders, threads=count)
            else:
                fast.process_batch(batch, flat, threads=count, offsets=offsets)
            return len(batch)

        name = f"diplo-rust-{count}thread" + ("s" if count > 1 else "")
        return Engine(name, lambda _round: [g.clone() for g in games], run)

    return [engine(count) for count in threads]


def external_engines(phases: Sequence[MovementPhase], commands: Sequence[str]) -> list[Engine]:
    """The movement phases through each external command (``diplo bench --engine CMD``) and,
    for comparison, through diplo's own ``diplo adjudicate --jsonl`` (engine ``diplo-jsonl``):
    one process per run, all the phases on its standard input. Every output must be a ruling."""
    from ..external import EngineError, ExternalEngine, diplo_command

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
