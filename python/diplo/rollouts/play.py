"""One worker's job: play a batch of games on the code API and write each as a game file.

A game of the default policy is played and written whole by the engine
(:class:`~diplo.rollouts.write.EngineGames`: the same game, file and dataset rows as below, in
one call). Any other game is played phase by phase on the engine: the policy chooses the
orders, the engine rules on them with its explanations and
:class:`~diplo.rollouts.write.EngineWriter` writes the phase's entry of the game file from the
engine's own rulings (no replay through the object API; the same bytes as
:func:`diplo.formats.gamefile.to_json` of the same game). A game whose policy gave a code the engine
takes otherwise than given (not the normal form of a legal order) is written by replaying its
orders through :class:`diplo.api.game.Game` instead (:func:`replay`), and the final board of that
replay is checked against the fast path's, so a file is never written for a game the two
implementations disagree on.

With ``task.dataset`` the batch also returns the dataset's rows of its games (one per order,
:mod:`diplo.rollouts.dataset`) as Parquet bytes; with ``task.files`` false no game file is made.
"""

from __future__ import annotations

import gzip
import json
import operator
import os
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..api.game import Game
from ..engine.codes import CodeGame, core_of, decode_order
from ..engine.objects import plain_names
from ..formats.gamefile import to_json
from ..model.map import Map, map_named
from ..model.orders import Order
from ..model.position import Position
from .policy import CodePolicy, OrderPolicy, PolicyError, RandomPolicy, choose
from .signals import holding_signals
from .summary import summary_row
from .write import EngineGames, EngineWriter, OrderRows

__all__ = [
    "GameTask",
    "PlayedBatch",
    "PlayedGame",
    "RolloutError",
    "file_name",
    "game_id",
    "play_batch",
    "play_task",
    "remove_stale",
    "tmp_name",
    "write_atomic",
    "write_batch",
    "write_by_replay",
]


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
    #: Make the game files (else only the summary rows, and the dataset if asked for).
    files: bool = True
    #: Collect the dataset's rows (one per order given) as Parquet bytes.
    dataset: bool = False
    #: The run's folder, when the worker writes the files and the dataset part itself (a worker
    #: on the same machine: no bytes sent back); ``None``: the caller writes them.
    folder: str | None = None


@dataclass(frozen=True)
class PlayedGame:
    """A finished game: its seed, its game file (JSON, gzipped when the task says so; empty
    without files, or when the worker wrote it), the file's name and its row of the summary."""

    seed: int
    data: bytes
    name: str
    row: dict[str, Any]
    #: The worker wrote the file itself (``data`` is then empty).
    written: bool = False

    @property
    def text(self) -> str:
        """The game file's JSON text."""
        raw = gzip.decompress(self.data) if self.name.endswith(".gz") else self.data
        return raw.decode("utf-8")


@dataclass(frozen=True)
class PlayedBatch:
    """A batch's games in seed order, and its dataset rows as Parquet bytes (``b""`` when the
    task asks for none)."""

    games: list[PlayedGame]
    dataset: bytes = b""
    #: The worker wrote the files and the dataset part itself.
    written: bool = False


def file_name(seed: int, compress: bool = False) -> str:
    """The game file's name in the output folder's ``games/``."""
    return f"{game_id(seed)}.json" + (".gz" if compress else "")


def game_id(seed: int) -> str:
    """The id (and file stem) of the game of ``seed``."""
    return f"game-{seed:08d}" if seed >= 0 else f"game-m{-seed:08d}"


def play_batch(task: GameTask) -> list[PlayedGame]:
    """Play the games of ``task`` to their end and return them, in seed order."""
    return play_task(task).games


def play_task(task: GameTask) -> PlayedBatch:
    """Play the games of ``task`` to their end: them in seed order, and their dataset rows
    when the task asks for them (what a worker sends back). With ``task.folder`` the files (and
    the batch's dataset part) are written there, each under a temporary name then renamed, and
    the games come back without their bytes (``written``)."""
    game_map = task.game_map if task.game_map is not None else map_named(task.map_name)
    policy: CodePolicy | OrderPolicy = task.policy if task.policy is not None else RandomPolicy()
    engine = _engine_games(task, game_map) if type(policy) is RandomPolicy else None
    initial: Position | None = None
    pieces: list[Any] = []  # the dataset's rows in game order, as pyarrow tables
    out = []
    for seed in task.seeds:
        name = file_name(seed, task.compress)
        meta = _meta(seed, task)
        if engine is not None and engine.usable(game_map, seed):
            got = engine.play(seed, task.files, task.dataset, meta, name)
            if got is not None:
                data, row = got
                out.append(_packed(seed, data, name if task.files else "", row, task))
                continue
            if task.dataset:
                pieces.append(engine.take_rows())
        if initial is None:
            initial = Position.initial(game_map)
        rows = OrderRows() if task.dataset else None
        out.append(_play_one(seed, task, policy, game_map, initial, rows, meta, name))
        if rows is not None:
            from .dataset import table_of_rows

            pieces.append(table_of_rows(rows))
    data = b""
    if task.dataset:
        from .dataset import to_parquet

        if engine is not None:
            pieces.append(engine.take_rows())
        import pyarrow as pa

        if not pieces:
            from .dataset import table_of_rows

            pieces.append(table_of_rows(OrderRows()))
        table = pa.concat_tables(pieces) if len(pieces) != 1 else pieces[0]
        data = to_parquet(table, (game_map.name, task.max_year))
    batch = PlayedBatch(out, data)
    return batch if task.folder is None else _write_out(batch, Path(task.folder), task)


def _play_one(
    seed: int,
    task: GameTask,
    policy: CodePolicy | OrderPolicy,
    game_map: Map,
    initial: Position,
    rows: OrderRows | None,
    meta: dict[str, Any],
    name: str,
) -> PlayedGame:
    """One game on the code API, written phase by phase by :class:`EngineWriter`."""
    game = CodeGame(initial, task.max_year)
    writer = EngineWriter(game_map, game.rules, core_of(game), initial, seed, rows, task.files)
    rng = random.Random(seed)
    played: list[list[tuple[str, int]]] = []
    core = core_of(game)
    if type(policy) is RandomPolicy:
        # The default policy, without the checks a policy of one's own needs: a legal code
        # per slot, the slot's power with it.
        choice = rng.choice
        while not core.is_over:
            codes = [choice(options) for options in core.legal_orders()]
            powers = [p for p, _key in core.slots()]
            played.append(list(zip(powers, codes, strict=True)))
            writer.play_codes(powers, codes)
    while not game.is_over:
        try:
            chosen = choose(policy, game, game.legal_orders(), rng)
        except PolicyError as exc:
            raise RolloutError(f"seed {seed}: {exc}") from None
        played.append(chosen)
        writer.play(chosen)
    return _finish(seed, game, writer, played, game_map, task, meta, name)


#: Per shipped map and year limit, the engine's player of random games (kept by a worker from
#: task to task: its sentences are worded once).
_ENGINES: dict[tuple[str, int | None], EngineGames] = {}


def _engine_games(task: GameTask, game_map: Map) -> EngineGames | None:
    if task.game_map is not None:
        return EngineGames(game_map, task.max_year) if plain_names(game_map) else None
    key = (task.map_name, task.max_year)
    engine = _ENGINES.get(key)
    if engine is None:
        if not plain_names(game_map):
            return None
        if len(_ENGINES) > 8:
            _ENGINES.clear()
        engine = _ENGINES[key] = EngineGames(game_map, task.max_year)
    return engine


def _meta(seed: int, task: GameTask) -> dict[str, Any]:
    return {
        "rollout": {
            "id": game_id(seed),
            "seed": seed,
            "policy": "random" if task.policy is None else type(task.policy).__name__,
        }
    }


def _packed(seed: int, data: bytes, name: str, row: dict[str, Any], task: GameTask) -> PlayedGame:
    if task.compress and data:
        data = gzip.compress(data, mtime=0)  # no time stamp: same game, same bytes
    return PlayedGame(seed, data, name, row)


def _write_out(batch: PlayedBatch, root: Path, task: GameTask) -> PlayedBatch:
    """Writes the batch's files and dataset part under ``root`` (as the parent would) and
    returns it without their bytes."""
    games = [PlayedGame(p.seed, b"", p.name, p.row, written=True) for p in batch.games]
    write_batch(root, batch, task.files, task.dataset)
    return PlayedBatch(games, b"", written=True)


def write_batch(root: Path, batch: PlayedBatch, files: bool, dataset: bool) -> None:
    """Writes a batch's game files (``root/games``) and its dataset part (``root/dataset``),
    all or none: when one write fails the batch's files already written are removed, so a run
    that fails leaves a folder the next one resumes (its files and its dataset hold the same
    games). SIGINT and SIGTERM wait for the batch to be written."""
    written: list[Path] = []
    with holding_signals():
        _write_all(root, batch, files, dataset, written)


def _write_all(
    root: Path, batch: PlayedBatch, files: bool, dataset: bool, written: list[Path]
) -> None:
    from .dataset import part_name

    try:
        if files:
            for played in batch.games:
                path = root / "games" / played.name
                write_atomic(path, played.data)
                written.append(path)
        if dataset and batch.games:
            first, last = batch.games[0].seed, batch.games[-1].seed
            write_atomic(root / "dataset" / part_name(first, last), batch.dataset)
    except BaseException:
        for path in written:
            path.unlink(missing_ok=True)
        raise


def tmp_name(path: Path) -> Path:
    """The temporary name ``path`` is written under: hidden, and naming the writing process
    (:func:`remove_stale` removes those of processes gone)."""
    return path.with_name(f".{path.name}.{os.getpid()}.tmp")


#: The temporary files of a rollout: a game file's, a dataset part's, the summary's (each
#: ``.<name>.<pid>.tmp``; before the pid was named, ``.<name>.tmp``).
_TMP = re.compile(r"\.((?:game-|part-|summary)[^/]*?)(?:\.(\d+))?\.tmp")


def remove_stale(root: Path) -> list[Path]:
    """Removes the temporary files a run that failed or was killed left in ``root``,
    ``root/games`` and ``root/dataset`` (those of a process still alive are left alone: another
    run may be writing them) and returns them."""
    gone = []
    for folder in (root, root / "games", root / "dataset"):
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            m = _TMP.fullmatch(entry.name)
            if m is None or not entry.is_file(follow_symlinks=False):
                continue
            if m.group(2) is not None and _alive(int(m.group(2))):
                continue
            path = Path(entry.path)
            path.unlink(missing_ok=True)
            gone.append(path)
    return gone


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return False  # this run writes none yet
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True
    return True


def write_atomic(path: Path, data: bytes) -> None:
    """Writes ``data`` to ``path`` under a temporary name, then renames it: never half a file.
    A write that fails (a full disk, a file-size limit) removes its temporary file."""
    tmp = tmp_name(path)
    try:
        tmp.write_bytes(data)
        tmp.replace(path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def _finish(
    seed: int,
    codes: CodeGame,
    writer: EngineWriter,
    phases: Sequence[Sequence[tuple[str, int]]],
    game_map: Map,
    task: GameTask,
    meta: dict[str, Any],
    name: str,
) -> PlayedGame:
    if not task.files:
        return PlayedGame(seed, b"", "", writer.summary_row(game_id(seed), task.max_year))
    if writer.exact:
        text = writer.text(meta, task.max_year)
        row = writer.summary_row(game_id(seed), task.max_year, name)
    else:
        text, row = _by_replay(seed, codes, phases, game_map, task, meta, name)
    return _packed(seed, text.encode("utf-8"), name, row, task)


def _by_replay(
    seed: int,
    codes: CodeGame,
    phases: Sequence[Sequence[tuple[str, int]]],
    game_map: Map,
    task: GameTask,
    meta: dict[str, Any],
    name: str,
) -> tuple[str, dict[str, Any]]:
    """The game file and summary row of a game replayed through the object API."""
    game = replay(phases, game_map, task.max_year, seed)
    if game.position.to_json() != codes.position().to_json() or game.winner != codes.winner:
        raise RolloutError(
            f"seed {seed}: the object API and the code API end the game differently "
            f"({game.position.phase} vs {codes.phase}); no file written"
        )
    game.meta.update(meta)
    doc = to_json(game)
    return json.dumps(doc, ensure_ascii=False) + "\n", summary_row(doc, name)


def write_by_replay(seed: int, phases: Sequence[Sequence[tuple[str, int]]], task: GameTask) -> str:
    """The game file of ``phases`` written through the object API (what rollouts wrote before
    the engine wrote them): for tests that hold the two writers together."""
    game_map = task.game_map if task.game_map is not None else map_named(task.map_name)
    game = replay(phases, game_map, task.max_year, seed)
    game.meta["rollout"] = {
        "id": game_id(seed),
        "seed": seed,
        "policy": "random" if task.policy is None else type(task.policy).__name__,
    }
    return json.dumps(to_json(game), ensure_ascii=False) + "\n"


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
