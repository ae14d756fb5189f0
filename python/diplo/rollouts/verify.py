"""A resumed rollout's check of the game files already in its folder.

A file is kept only when :func:`diplo.gamefile.load` replays it with the engine and every stored
ruling matches, when it is exactly the file the verified game writes (its ``status``, centre
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

__all__ = ["Checked", "VerifyTask", "seed_of_name", "verify_batch"]

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
