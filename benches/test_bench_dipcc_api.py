"""dipcc-api: pydipcc's calls on ``diplo.compat.dipcc`` (``diplo-compat``) and on dipcc itself
(``dipcc``: the Game built by ``tools/build_dipcc.sh``, the module ``dipcc_core`` on the path;
skipped where it is not built). The inputs (a game of ten random years, seed 0, the same orders
on both) are made before the clock starts.

| benchmark | one call times |
| --- | --- |
| `process` | a copy of the game, its staged orders and `process()` of the current phase |
| `process-new` | `process()` of a game read from JSON: a board never processed before (its |
| | possible orders, the engine's game and each order's ruling made anew) |
| `process-listed` | `process()` of a game read from JSON whose possible orders were asked for |
| | first (untimed): a play loop's call |
| `play-loop` | `process()` in a play loop: games from Spring 1901 to 1910 in one process, each |
| | phase's possible orders asked for, seeded random orders set per power (the same texts on |
| | both engines: the lists are the same), then `process()`, the only call timed (every kind |
| | of phase) |
| `play-loop-movement` | the same loop, only its movement phases timed |
| `from-json` | `Game.from_json` of the game's JSON (dipcc builds its whole C++ state there) |
| `from-json-process` | `Game.from_json` and `process()` of the game read |
| `possible` | `get_all_possible_orders()` of a fresh copy (the lists worked out anew) |
| `clone` | `clone_n_times(8)` |
| `board-state` | the board-state encoding (input version 2) |
| `board-states` | the board states of 64 games (diplo: one call; dipcc: 64, no batch bound) |
| `encode-inputs` | `encode_inputs_multi` of 64 games, version 2, one thread (diplo only |
| | here: beside dipcc's `ThreadPool` in `test_bench_dipcc_encode.py`) |
| `state-only` | `encode_inputs_state_only_multi` of 64 games (diplo only) |
| `process-new-rulings` | a new board's staged orders ruled on (the engine's codes included): the |
| | part of `process-new` before the engine (diplo only) |
| `process-new-rule-orders` | the engine's part of that: `State.rule_orders` of the staged orders |
| | (the board packed, its possible orders worked out and searched; diplo only) |
| `process-new-engine-game` | the engine's game of a new board, made from diplo's position (diplo |
| | only) |
| `process-floor` | the engine's part of `process` alone (`CodeGame` clone, codes, process, |
| | board read): the bound of the drop-in's `process` (diplo only) |
"""

from __future__ import annotations

import importlib
import random
from typing import Any

import pytest

SEED = 0


def _module(engine: str) -> Any:
    if engine == "dipcc":
        return pytest.importorskip("dipcc_core", reason="dipcc not built: tools/build_dipcc.sh")
    return importlib.import_module("diplo.compat.dipcc")


def _game(module: Any) -> Any:
    """Ten random years of ``module.Game``, then the orders of the next phase staged."""
    rng = random.Random(SEED)
    game = module.Game()
    while True:
        possible = game.get_all_possible_orders()
        for power, locs in game.get_orderable_locations().items():
            game.set_orders(power, [rng.choice(possible[loc]) for loc in locs if possible[loc]])
        if int(game.current_short_phase[1:5]) > 1910 and game.current_short_phase[-1] == "M":
            return game
        game.process()


@pytest.mark.benchmark(group="dipcc-process")
@pytest.mark.parametrize("engine", ["diplo-compat", "dipcc"])
def test_process(benchmark: Any, engine: str) -> None:
    module = _module(engine)
    game = _game(module)

    def run() -> None:
        module.Game(game).process()

    benchmark(run)


@pytest.mark.benchmark(group="dipcc-process-new")
@pytest.mark.parametrize("engine", ["diplo-compat", "dipcc"])
def test_process_new_board(benchmark: Any, engine: str) -> None:
    module = _module(engine)
    game = _game(module)
    text = game.to_json()
    copies = iter([module.Game.from_json(text) for _ in range(2000)])
    benchmark.pedantic(lambda: next(copies).process(), rounds=1000)


@pytest.mark.benchmark(group="dipcc-process-new")
@pytest.mark.parametrize("engine", ["diplo-compat", "dipcc"])
def test_process_listed_board(benchmark: Any, engine: str) -> None:
    module = _module(engine)
    game = _game(module)
    text = game.to_json()
    copies = iter([module.Game.from_json(text) for _ in range(2000)])

    def listed() -> tuple[tuple[Any], dict[str, Any]]:
        copy = next(copies)
        copy.get_all_possible_orders()
        return (copy,), {}

    benchmark.pedantic(lambda g: g.process(), setup=listed, rounds=1000)


class _PlayLoop:
    """Games played from Spring 1901 as a bot's loop plays them: each phase the possible orders
    asked for and a seeded random order set for each orderable location, the seed of game ``k``
    being ``k`` (so both engines play the same games while their lists agree)."""

    def __init__(self, module: Any, movement_only: bool) -> None:
        self.module = module
        self.movement_only = movement_only
        self.seed = -1
        self.game: Any = None
        self.rng = random.Random(0)

    def next(self) -> tuple[tuple[Any], dict[str, Any]]:
        """The game with the next phase's orders set (untimed)."""
        while True:
            game = self.game
            phase = "" if game is None else game.current_short_phase
            if game is None or phase == "COMPLETED" or int(phase[1:5]) > 1910:
                self.seed += 1
                self.rng = random.Random(self.seed)
                game = self.game = self.module.Game()
                phase = game.current_short_phase
            possible = game.get_all_possible_orders()
            rng = self.rng
            for power, locs in game.get_orderable_locations().items():
                game.set_orders(
                    power, [rng.choice(sorted(possible[loc])) for loc in locs if possible[loc]]
                )
            if self.movement_only and phase[-1] != "M":
                game.process()
                continue
            return (game,), {}


@pytest.mark.benchmark(group="dipcc-play-loop")
@pytest.mark.parametrize("engine", ["diplo-compat", "dipcc"])
def test_play_loop(benchmark: Any, engine: str) -> None:
    loop = _PlayLoop(_module(engine), movement_only=False)
    benchmark.pedantic(lambda g: g.process(), setup=loop.next, rounds=2000)


@pytest.mark.benchmark(group="dipcc-play-loop")
@pytest.mark.parametrize("engine", ["diplo-compat", "dipcc"])
def test_play_loop_movement(benchmark: Any, engine: str) -> None:
    loop = _PlayLoop(_module(engine), movement_only=True)
    benchmark.pedantic(lambda g: g.process(), setup=loop.next, rounds=1500)


@pytest.mark.benchmark(group="dipcc-from-json")
@pytest.mark.parametrize("engine", ["diplo-compat", "dipcc"])
def test_from_json(benchmark: Any, engine: str) -> None:
    module = _module(engine)
    text = _game(module).to_json()
    benchmark.pedantic(module.Game.from_json, args=(text,), rounds=1000)


@pytest.mark.benchmark(group="dipcc-from-json")
@pytest.mark.parametrize("engine", ["diplo-compat", "dipcc"])
def test_from_json_process(benchmark: Any, engine: str) -> None:
    module = _module(engine)
    text = _game(module).to_json()
    benchmark.pedantic(lambda: module.Game.from_json(text).process(), rounds=1000)


@pytest.mark.benchmark(group="dipcc-possible")
@pytest.mark.parametrize("engine", ["diplo-compat", "dipcc"])
def test_possible_orders(benchmark: Any, engine: str) -> None:
    module = _module(engine)
    game = _game(module)
    copies = iter([module.Game.from_json(game.to_json()) for _ in range(2000)])
    benchmark.pedantic(lambda: next(copies).get_all_possible_orders(), rounds=1000)


@pytest.mark.benchmark(group="dipcc-clone")
@pytest.mark.parametrize("engine", ["diplo-compat", "dipcc"])
def test_clone(benchmark: Any, engine: str) -> None:
    module = _module(engine)
    game = _game(module)
    if engine == "dipcc":  # dipcc_core binds the copy constructor only
        benchmark(lambda: [module.Game(game) for _ in range(8)])
    else:
        benchmark(game.clone_n_times, 8)


@pytest.mark.benchmark(group="dipcc-board-state")
@pytest.mark.parametrize("engine", ["diplo-compat", "dipcc"])
def test_board_state(benchmark: Any, engine: str) -> None:
    module = _module(engine)
    game = _game(module)
    benchmark(module.encode_board_state, game, 2)


def _games64(module: Any) -> list[Any]:
    game = _game(module)
    return [module.Game(game) for _ in range(64)]


@pytest.mark.benchmark(group="dipcc-board-states")
@pytest.mark.parametrize("engine", ["diplo-compat", "dipcc"])
def test_board_states(benchmark: Any, engine: str) -> None:
    module = _module(engine)
    games = _games64(module)
    if engine == "dipcc":
        benchmark(lambda: [module.encode_board_state(g, 2) for g in games])
    else:
        from diplo.compat.dipcc.encoding import encode_board_states

        benchmark(encode_board_states, games, 2)


def _pool() -> Any:
    from diplo.compat.dipcc.encoding import ThreadPool

    module = _module("diplo-compat")
    game = _game(module)
    texts: set[str] = set()
    for g in [module.Game(), game]:
        texts |= {o for orders in g.get_all_possible_orders().values() for o in orders}
    return ThreadPool(1, {t: i for i, t in enumerate(sorted(texts))}, 469)


@pytest.mark.benchmark(group="dipcc-encode-inputs")
def test_encode_inputs(benchmark: Any) -> None:
    pool = _pool()
    games = _games64(_module("diplo-compat"))
    benchmark(pool.encode_inputs_multi, games, 2)


@pytest.mark.benchmark(group="dipcc-state-only")
def test_state_only(benchmark: Any) -> None:
    pool = _pool()
    games = _games64(_module("diplo-compat"))
    benchmark(pool.encode_inputs_state_only_multi, games, 2)


@pytest.mark.benchmark(group="dipcc-process")
def test_process_floor(benchmark: Any) -> None:
    from diplo.compat.dipcc.game import state_of

    game = _game(_module("diplo-compat"))
    state = state_of(game)
    base = state._engine_game()  # the engine's own game (diplo._core.CodeGame)
    staged = game._data.staged
    codes = [code for _, code in state._rulings(staged)]

    def run() -> None:
        g = base.clone()
        g.set_orders(codes)
        done = g.process()
        g.state()
        done.result_success()

    benchmark(run)


def _new_boards() -> tuple[Any, Any]:
    """2,000 boards read from JSON (nothing worked out of them) and the staged orders."""
    from diplo.compat.dipcc.game import state_of

    module = _module("diplo-compat")
    game = _game(module)
    text = game.to_json()
    boards = iter([state_of(module.Game.from_json(text)) for _ in range(2000)])
    return boards, game._data.staged


@pytest.mark.benchmark(group="dipcc-process-new")
def test_process_new_rulings(benchmark: Any) -> None:
    boards, staged = _new_boards()
    benchmark.pedantic(lambda: next(boards)._rulings(staged), rounds=1000)


@pytest.mark.benchmark(group="dipcc-process-new")
def test_process_new_rule_orders(benchmark: Any) -> None:
    boards, staged = _new_boards()
    orders = [o for given in staged.values() for o in given]
    benchmark.pedantic(lambda: next(boards).rule_orders(orders), rounds=1000)


@pytest.mark.benchmark(group="dipcc-process-new")
def test_process_new_engine_game(benchmark: Any) -> None:
    boards, _ = _new_boards()
    benchmark.pedantic(lambda: next(boards)._engine_game(), rounds=1000)
