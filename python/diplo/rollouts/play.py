"""One worker's job: play a batch of games on the code API and turn each into a game file.

The games of a batch advance together, one phase at a time: the policy chooses every game's
orders, then :func:`diplo.fast.process_batch` rules on all of them (one thread: the parallelism
of a rollout is its worker processes). Each phase's orders are kept as ``(power, code)``; once a
game is over they are replayed through :class:`diplo.game.Game` (the object API, which writes the
rulings a game file holds), and the final board of that replay is checked against the fast
path's, so a file is never written for a game the two implementations disagree on.
"""

from __future__ import annotations

import gzip
import json
import operator
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..api.game import Game
from ..engine.codes import FastGame, decode_order, process_batch
from ..formats.gamefile import to_json
from ..model.map import Map, map_named
from ..model.orders import Order
from ..model.position import Position
from .policy import CodePolicy, OrderPolicy, PolicyError, RandomPolicy, choose
from .summary import summary_row

__all__ = ["GameTask", "PlayedGame", "RolloutError", "file_name", "game_id", "play_batch"]


class RolloutError(RuntimeError):
    """A game of a rollout could not be played or written (the message names its seed)."""


@dataclass(frozen=True)
class GameTask:
    """What a worker needs to play some games: their seeds and the shared settings."""

    seeds: tuple[int, ...]
    map_name: str = "standard"
    #: The map itself when it is not shipped (read from a file by the caller): workers need not
    #: see the file.
    game_map: Map | None = None
    max_year: int | None = 1915
    policy: CodePolicy | OrderPolicy | None = None
    #: Write ``.json.gz`` (gzip, about a tenth of the size) rather than ``.json``.
    compress: bool = False


@dataclass(frozen=True)
class PlayedGame:
    """A finished game: its seed, its game file (JSON, gzipped when the task says so), the file's
    name and its row of the summary."""

    seed: int
    data: bytes
    name: str
    row: dict[str, Any]

    @property
    def text(self) -> str:
        """The game file's JSON text."""
        raw = gzip.decompress(self.data) if self.name.endswith(".gz") else self.data
        return raw.decode("utf-8")


def file_name(seed: int, compress: bool = False) -> str:
    """The game file's name in the output folder's ``games/``."""
    return f"{game_id(seed)}.json" + (".gz" if compress else "")


def game_id(seed: int) -> str:
    """The id (and file stem) of the game of ``seed``."""
    return f"game-{seed:08d}" if seed >= 0 else f"game-m{-seed:08d}"


def play_batch(task: GameTask) -> list[PlayedGame]:
    """Play the games of ``task`` to their end and return them, in seed order."""
    game_map = task.game_map if task.game_map is not None else map_named(task.map_name)
    policy: CodePolicy | OrderPolicy = task.policy if task.policy is not None else RandomPolicy()
    games = [FastGame(Position.initial(game_map), task.max_year) for _ in task.seeds]
    rngs = [random.Random(seed) for seed in task.seeds]
    played: list[list[list[tuple[str, int]]]] = [[] for _ in task.seeds]
    running = [i for i, g in enumerate(games) if not g.is_over]
    while running:
        orders: list[list[int]] = []
        for i in running:
            game = games[i]
            try:
                chosen = choose(policy, game, game.legal_orders(), rngs[i])
            except PolicyError as exc:
                raise RolloutError(f"seed {task.seeds[i]}: {exc}") from None
            played[i].append(chosen)
            orders.append([code for _power, code in chosen])
        process_batch([games[i] for i in running], orders, threads=1)
        running = [i for i in running if not games[i].is_over]
    return [
        _finish(seed, game, phases, game_map, task)
        for seed, game, phases in zip(task.seeds, games, played, strict=True)
    ]


def _finish(
    seed: int,
    fast: FastGame,
    phases: Sequence[Sequence[tuple[str, int]]],
    game_map: Map,
    task: GameTask,
) -> PlayedGame:
    game = replay(phases, game_map, task.max_year, seed)
    if game.position.to_json() != fast.position().to_json() or game.winner != fast.winner:
        raise RolloutError(
            f"seed {seed}: the object API and the code API end the game differently "
            f"({game.position.phase} vs {fast.phase}); no file written"
        )
    game.meta["rollout"] = {
        "id": game_id(seed),
        "seed": seed,
        "policy": "random" if task.policy is None else type(task.policy).__name__,
    }
    doc = to_json(game)
    data = (json.dumps(doc, ensure_ascii=False) + "\n").encode("utf-8")
    name = file_name(seed, task.compress)
    if task.compress:
        data = gzip.compress(data, mtime=0)  # no time stamp: same game, same bytes
    return PlayedGame(seed, data, name, summary_row(doc, name))


def replay(
    phases: Sequence[Sequence[tuple[str, int]]], game_map: Map, max_year: int | None, seed: int
) -> Game:
    """The game of ``phases`` (per phase, ``(power, code)`` per order) on the object API.

    A power the object API has nothing to ask of (one that may build but has no vacant site:
    the code API still lists its waive) gets no orders: its waive is implied there."""
    game = Game(game_map, max_year=max_year)
    for chosen in phases:
        position = game.position
        orderable = set(game.orderable_powers())
        by_power: dict[str, list[Order]] = {}
        for power, code in chosen:
            if power not in orderable:
                continue
            try:
                order = decode_order(operator.index(code), game_map, position)
            except ValueError as exc:
                raise RolloutError(f"seed {seed}: {position.phase}: {exc}") from None
            by_power.setdefault(power, []).append(order)
        for power, orders in by_power.items():
            game.set_orders(power, orders)
        game.process()
    return game
