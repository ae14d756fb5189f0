"""A resumed rollout's check of the game files already in its folder.

A file is kept only when :func:`diplo.formats.gamefile.load` replays it with the engine and every
stored ruling matches, when it is exactly the file the verified game writes (its ``status``, centre
counts included, and everything else; only ``meta.generator``, the diplo version that wrote it,
may differ), when it was played with the run's map and year limit, and when its
``meta.rollout`` names the game its file name names. Its summary row is then derived from the
verified game, never read from the file, so nothing a file claims (a winner, centre counts, a
text meant for a spreadsheet) reaches the summary unchecked.

Verification runs in the workers, like the games (:class:`VerifyTask`); a file that fails is
named with the reason in the :class:`~diplo.rollouts.play.RolloutError` the run raises before
it plays anything.
"""

from __future__ import annotations

import gzip
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..api.game import Game
from ..formats.gamefile import GameFileError, from_json, to_json
from ..model.map import Map
from .play import file_name, game_id

__all__ = [
    "Checked",
    "CheckedPart",
    "PartTask",
    "VerifyTask",
    "seed_of_name",
    "seeds_of_part_name",
    "verify_batch",
    "verify_parts",
]

_NAME = re.compile(r"game-(m?)(\d{8,})\.json(\.gz)?")


def seed_of_name(name: str) -> int | None:
    """The seed a game file's name names (``game-00000042.json`` -> 42), or ``None``."""
    m = _NAME.fullmatch(name)
    if m is None:
        return None
    seed = int(m.group(2))
    seed = -seed if m.group(1) else seed
    return seed if name in (file_name(seed), file_name(seed, True)) else None


@dataclass(frozen=True)
class VerifyTask:
    """Files of a rollout folder to check against the run's settings."""

    paths: tuple[str, ...]
    map_name: str
    max_year: int | None
    #: The run's map when it is not shipped: a file must be of this very map.
    game_map: Map | None = None


@dataclass(frozen=True)
class Checked:
    """One checked file: its seed, and its summary row or why it is refused."""

    seed: int
    path: str
    row: dict[str, Any] | None
    problem: str | None = None


def verify_batch(task: VerifyTask) -> list[Checked]:
    """Check every file of ``task`` (see the module documentation)."""
    return [_check(Path(p), task) for p in task.paths]


def _check(path: Path, task: VerifyTask) -> Checked:
    seed = seed_of_name(path.name)
    if seed is None:
        return Checked(0, str(path), None, "not a game file name of a rollout")
    try:
        raw = path.read_bytes()
        text = (gzip.decompress(raw) if path.name.endswith(".gz") else raw).decode("utf-8")
        doc = json.loads(text)
    except (OSError, ValueError, EOFError) as exc:
        return Checked(seed, str(path), None, f"not a readable game file ({exc})")
    if not isinstance(doc, dict):
        return Checked(seed, str(path), None, "not a game file (not a JSON object)")
    status = doc.get("status")
    stored_year = status.get("max_year") if isinstance(status, dict) else None
    if doc.get("map") != task.map_name or stored_year != task.max_year:
        return Checked(
            seed,
            str(path),
            None,
            f"it was played on map {doc.get('map')!r} to {stored_year}, not "
            f"{task.map_name!r} to {task.max_year}: use another folder",
        )
    try:
        maps = None if task.game_map is None else {task.map_name: task.game_map}
        game = from_json(doc, maps=maps)
    except GameFileError as exc:
        return Checked(seed, str(path), None, f"the engine does not verify it ({exc})")
    rollout = (doc.get("meta") or {}).get("rollout") if isinstance(doc.get("meta"), dict) else None
    if not isinstance(rollout, dict) or (rollout.get("id"), rollout.get("seed")) != (
        game_id(seed),
        seed,
    ):
        return Checked(seed, str(path), None, "its meta.rollout does not match its name")
    if not game.is_over:
        return Checked(seed, str(path), None, "the game in it is not finished")
    again = to_json(game)
    again["meta"].pop("generator", None)
    stored = dict(doc)
    stored["meta"] = {k: v for k, v in doc["meta"].items() if k != "generator"}
    if again != stored:
        changed = sorted(k for k in set(again) | set(stored) if again.get(k) != stored.get(k))
        where = ", ".join(changed)
        if "status" in changed:
            keys = sorted(
                k
                for k in set(again["status"]) | set(stored.get("status") or {})
                if again["status"].get(k) != (stored.get("status") or {}).get(k)
            )
            where += f" ({', '.join('status.' + k for k in keys)})"
        return Checked(
            seed, str(path), None, f"it is not the file its verified game writes: {where} differ"
        )
    return Checked(seed, str(path), row_of_game(game, seed, path.name))


def row_of_game(game: Game, seed: int, name: str) -> dict[str, Any]:
    """The summary row of a verified rollout game (as :func:`~diplo.rollouts.summary.summary_row`
    derives it from the game's file)."""
    years = {record.phase.year for record in game.history}
    row: dict[str, Any] = {
        "game_id": game_id(seed),
        "seed": seed,
        "winner": game.winner,
        "draw": game.draw,
        "end": game.end_reason,
        "phases": len(game.history),
        "years": len(years),
        "final_year": max(years) if years else None,
        "file": f"games/{name}",
    }
    for power, count in game.centers.items():
        row[f"centers_{power}"] = count
    return row


# ------------------------------------------------------------------ dataset parts (no files)

_PART = re.compile(r"part-(m?\d{8,})-(m?\d{8,})\.parquet")


def seeds_of_part_name(name: str) -> tuple[int, int] | None:
    """The first and last seeds a dataset part's name names (``part-00000000-00000007.parquet``
    -> ``(0, 7)``), or ``None``."""
    from .dataset import part_name

    m = _PART.fullmatch(name)
    if m is None:
        return None
    first, last = (-int(g[1:]) if g.startswith("m") else int(g) for g in m.groups())
    return (first, last) if part_name(first, last) == name else None


@dataclass(frozen=True)
class PartTask:
    """Dataset parts of a rollout folder without game files, to check against the run's
    settings."""

    paths: tuple[str, ...]
    map_name: str
    max_year: int | None
    game_map: Map | None = None


@dataclass(frozen=True)
class CheckedPart:
    """One checked part: its games' seeds and summary rows, or why it is refused."""

    path: str
    seeds: tuple[int, ...]
    rows: list[dict[str, Any]]
    problem: str | None = None


def verify_parts(task: PartTask) -> list[CheckedPart]:
    """Check every dataset part of ``task``: a part is kept only when it is a table of the
    dataset's columns, made for the run's map and year limit (when it says so), its games'
    rows together, its name naming its first and last games, and every game in it is exactly
    what the engine rules for its orders, played to the end (replayed phase by phase; a game
    the engine's own player gives for its seed is that already). The summary rows come from
    the verified games."""
    return [_check_part(Path(p), task) for p in task.paths]


def _check_part(path: Path, task: PartTask) -> CheckedPart:
    from .dataset import schema, settings_of

    def refused(problem: str) -> CheckedPart:
        return CheckedPart(str(path), (), [], problem)

    named = seeds_of_part_name(path.name)
    if named is None:
        return refused("not a dataset part name of a rollout")
    import pyarrow.parquet as pq

    try:
        table = pq.read_table(path)
    except (OSError, ValueError) as exc:
        return refused(f"not a readable Parquet file ({exc})")
    if not table.schema.equals(schema()):
        return refused("its columns are not the dataset's")
    if any(column.null_count for column in table.columns):
        return refused("it has empty cells")
    said = settings_of(table.schema)
    if said is not None and said != (task.map_name, task.max_year):
        return refused(
            f"it was played on map {said[0]!r} to {said[1]}, not {task.map_name!r} to "
            f"{task.max_year}: use another folder"
        )
    games = table.column("game").to_pylist()
    if not games:
        return refused("it holds no game")
    starts = [0] + [i for i in range(1, len(games)) if games[i] != games[i - 1]]
    seeds = [games[i] for i in starts]
    if len(set(seeds)) != len(seeds):
        return refused("the rows of one of its games are not together")
    if (seeds[0], seeds[-1]) != named:
        return refused("its name does not name its first and last games")
    checker = _GameChecker(task)
    rows = []
    for k, start in enumerate(starts):
        end = starts[k + 1] if k + 1 < len(starts) else len(games)
        seed = seeds[k]
        got = checker.check(seed, table.slice(start, end - start))
        if isinstance(got, str):
            return refused(f"game {seed}: {got}")
        rows.append(got)
    return CheckedPart(str(path), tuple(seeds), rows)


class _GameChecker:
    """Checks one game's dataset rows against the engine (see :func:`verify_parts`)."""

    def __init__(self, task: PartTask) -> None:
        from ..model.map import map_named
        from ..model.position import Position
        from .write import EngineGames

        self.map = task.game_map if task.game_map is not None else map_named(task.map_name)
        self.max_year = task.max_year
        self.initial = Position.initial(self.map)
        self.engine = EngineGames(self.map, task.max_year) if _plain(self.map) else None

    def check(self, seed: int, stored: Any) -> dict[str, Any] | str:
        """The game's summary row, or why its rows (a pyarrow table) are refused."""
        if self.engine is not None and self.engine.usable(self.map, seed):
            meta = {"rollout": {"id": game_id(seed)}}
            got = self.engine.play(seed, False, True, meta, "")
            if got is not None and self.engine.take_rows().equals(stored):
                return got[1]  # the default policy's game of this seed, played just now
        return self._replay(seed, stored.to_pylist())

    def _replay(self, seed: int, stored: list[dict[str, Any]]) -> dict[str, Any] | str:
        from ..engine.codes import CodeGame, core_of
        from .dataset import COLUMNS
        from .write import EngineWriter, OrderRows

        powers = set(self.map.powers)
        if any(r["power"] not in powers for r in stored):
            return "an order of a power the map does not have"
        game = CodeGame(self.initial, self.max_year)
        again = OrderRows()
        writer = EngineWriter(
            self.map, game.rules, core_of(game), self.initial, seed, again, files=False
        )
        core = core_of(game)
        i, n = 0, len(stored)
        while not core.is_over:
            phase = core.phase
            j = i
            while j < n and stored[j]["phase"] == phase:
                j += 1
            if j == i and core.orderable():
                return (
                    "its rows stop before the game's end" if i == n else
                    f"its rows do not follow the game's phases (at {phase})"
                )  # fmt: skip
            try:
                writer.play_codes(
                    [r["power"] for r in stored[i:j]], [r["code"] for r in stored[i:j]]
                )
            except (ValueError, OverflowError, TypeError) as exc:
                return f"{phase}: the engine refuses its orders ({exc})"
            i = j
        if i != n:
            return "it has rows after the game's end"
        made = list(zip(*(getattr(again, c) for c in COLUMNS), strict=True))
        kept = [tuple(r[c] for c in COLUMNS) for r in stored]
        if made != kept:
            k = next(
                (k for k, (a, b) in enumerate(zip(made, kept, strict=False)) if a != b), len(made)
            )
            where = f" ({kept[k][1]} {kept[k][2]}: {kept[k][3]!r})" if k < len(kept) else ""
            return f"its rows are not what the engine rules for its orders{where}"
        return writer.summary_row(game_id(seed), self.max_year)


def _plain(game_map: Map) -> bool:
    from ..engine.objects import plain_names

    return plain_names(game_map)
