"""A rollout: N games from seeds, each written as a game file, and the summary table.

Layout of the output folder::

    DIR/games/game-00000042.json    one game file per game (docs/game-files.md); with
                                    compress=True game-00000042.json.gz (gzip)
    DIR/summary.parquet             one row per game file in DIR/games (needs pyarrow)
    DIR/summary.csv                 the same rows

Files are written by the calling process only (workers return the bytes), each under a temporary
name then renamed, so an interrupted run never leaves half a file, and a cluster's workers need
no shared disk. A run skips the seeds whose file is already there (resume), after checking that
those files were played with the same map and year limit.
"""

from __future__ import annotations

import gzip
import json
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from ..formats import gamefile
from ..model.map import SHIPPED_MAPS, MapError
from ..model.position import Position
from ..model.variants import load_map
from .backends import BACKENDS, default_backend, ray_available, run_local, run_ray
from .play import GameTask, PlayedGame, RolloutError, file_name
from .policy import CodePolicy, OrderPolicy
from .progress import Progress
from .summary import summary_row, write_csv, write_parquet

__all__ = ["RolloutReport", "run_rollouts"]

#: Games per task: enough to amortise a task's scheduling, few enough to balance the workers.
DEFAULT_BATCH = 8
DEFAULT_MAX_YEAR = 1915


@dataclass
class RolloutReport:
    """What a run did. ``rows`` covers every game file in the folder, in seed order."""

    out: Path
    backend: str
    workers: int
    requested: int
    played: int = 0
    skipped: int = 0
    interrupted: bool = False
    seconds: float = 0.0
    rows: list[dict[str, Any]] = field(default_factory=list)
    parquet: Path | None = None
    csv: Path | None = None

    @property
    def games_per_second(self) -> float:
        return self.played / self.seconds if self.seconds > 0 else 0.0


def run_rollouts(
    games: int,
    out: str | Path,
    *,
    workers: int | None = None,
    backend: str | None = None,
    first_seed: int = 0,
    seeds: Iterable[int] | None = None,
    map_name: str = "standard",
    max_year: int | None = DEFAULT_MAX_YEAR,
    policy: CodePolicy | OrderPolicy | None = None,
    batch_size: int = DEFAULT_BATCH,
    address: str | None = None,
    progress: bool | TextIO = True,
    compress: bool = False,
) -> RolloutReport:
    """Play the games of seeds ``first_seed .. first_seed + games - 1`` (or of ``seeds``) and
    write them under ``out`` (see the module documentation).

    ``workers`` defaults to the number of cores; ``backend`` is ``"local"`` or ``"ray"``
    (default: Ray when installed); ``address`` joins a running Ray cluster. ``policy`` defaults
    to :class:`~diplo.rollouts.policy.RandomPolicy` and must be picklable. ``compress`` writes
    gzipped files (``game-00000042.json.gz``; read one with
    ``diplo.gamefile.load(gzip.open(path, "rt"))``). On Ctrl-C the games
    finished so far are kept, the summary is written, and ``KeyboardInterrupt`` is raised again
    once that is done. Raises ``ValueError`` for bad settings and :class:`RolloutError` for a
    folder holding games of other settings or a game that cannot be played."""
    import time

    wanted = _seeds(games, first_seed, seeds)
    workers = _workers(workers)
    backend = _backend(backend, address)
    if not isinstance(batch_size, int) or isinstance(batch_size, bool) or batch_size < 1:
        raise ValueError(f"batch_size must be a positive int, got {batch_size!r}")
    if max_year is not None and (not isinstance(max_year, int) or isinstance(max_year, bool)):
        raise ValueError(f"max_year must be a year, got {max_year!r}")
    try:
        game_map = load_map(map_name)
    except MapError as exc:
        raise ValueError(str(exc)) from None
    first = Position.initial(game_map).phase.year
    if max_year is not None and max_year < first:
        raise ValueError(f"max_year {max_year} is before the map's first year ({first})")
    shipped = map_name in SHIPPED_MAPS

    root = Path(out)
    folder = root / "games"
    if root.exists() and not root.is_dir():
        raise ValueError(f"--out {out}: that is a file; name a folder (it is made if missing)")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ValueError(f"--out {out}: cannot make the folder {folder} ({exc.strerror})") from None
    report = RolloutReport(root, backend, workers, len(wanted))
    rows = {row["seed"]: row for row in _rows_on_disk(folder, game_map.name, max_year)}
    todo = [s for s in wanted if s not in rows]
    report.skipped = len(wanted) - len(todo)
    tasks = [
        GameTask(
            tuple(todo[i : i + batch_size]),
            game_map.name,
            None if shipped else game_map,
            max_year,
            policy,
            bool(compress),
        )
        for i in range(0, len(todo), batch_size)
    ]
    stream = None if isinstance(progress, bool) else _stream(progress)
    bar = Progress(len(wanted), report.skipped, stream)
    if progress is False:
        bar.enabled = False

    def on_done(batch: list[PlayedGame]) -> None:
        for played in batch:
            _write_atomic(folder / played.name, played.data)
            rows[played.seed] = played.row
        report.played += len(batch)
        bar.advance(len(batch))

    start = time.monotonic()
    try:
        if backend == "ray":
            run_ray(tasks, workers, on_done, address)
        else:
            run_local(tasks, workers, on_done)
    except KeyboardInterrupt:
        report.interrupted = True
    finally:
        report.seconds = time.monotonic() - start
        bar.close()
    report.rows = [rows[s] for s in sorted(rows)]
    _write_summary(report)
    if report.interrupted:
        raise KeyboardInterrupt
    return report


def _seeds(games: int, first_seed: int, seeds: Iterable[int] | None) -> list[int]:
    if seeds is not None:
        wanted = list(seeds)
        if not all(isinstance(s, int) and not isinstance(s, bool) for s in wanted):
            raise ValueError("seeds must be ints")
        if len(set(wanted)) != len(wanted):
            raise ValueError("seeds must be distinct (one game file per seed)")
        return wanted
    if not isinstance(games, int) or isinstance(games, bool) or games < 0:
        raise ValueError(f"games must be a number of games, got {games!r}")
    if not isinstance(first_seed, int) or isinstance(first_seed, bool):
        raise ValueError(f"the first seed must be an int, got {first_seed!r}")
    return list(range(first_seed, first_seed + games))


def _workers(workers: int | None) -> int:
    if workers is None:
        return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1)
    if not isinstance(workers, int) or isinstance(workers, bool) or workers < 1:
        raise ValueError(f"workers must be a positive int, got {workers!r}")
    return workers


def _backend(backend: str | None, address: str | None) -> str:
    if backend is None:
        backend = "ray" if address is not None else default_backend()
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r} (choose from {', '.join(BACKENDS)})")
    if backend == "ray" and not ray_available():
        raise ValueError('the ray backend needs Ray: pip install "diplo[ray]"')
    if backend == "local" and address is not None:
        raise ValueError("an address is for the ray backend (a cluster to join)")
    return backend


def _stream(progress: Any) -> TextIO:
    if not hasattr(progress, "write"):
        raise ValueError(f"progress must be a bool or a text stream, got {progress!r}")
    stream: TextIO = progress
    return stream


def _rows_on_disk(folder: Path, map_name: str, max_year: int | None) -> list[dict[str, Any]]:
    rows = []
    paths = sorted([*folder.glob("game-*.json"), *folder.glob("game-*.json.gz")])
    for path in paths:
        try:
            raw = path.read_bytes()
            doc = json.loads(gzip.decompress(raw) if path.name.endswith(".gz") else raw)
            # A damaged file is refused, not summarised (read as it is: not replayed).
            gamefile.from_json(doc, verify=False)
            row = summary_row(doc, path.name)
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise RolloutError(f"{path}: not a rollout game file ({exc})") from None
        if doc.get("map") != map_name or doc["status"].get("max_year") != max_year:
            raise RolloutError(
                f"{path} was played on map {doc.get('map')!r} to {doc['status'].get('max_year')}"
                f", not {map_name!r} to {max_year}: use another folder"
            )
        seed = row["seed"]
        if not isinstance(seed, int) or path.name not in (file_name(seed), file_name(seed, True)):
            raise RolloutError(f"{path}: its meta.rollout does not match its name")
        rows.append(row)
    return rows


def _write_atomic(path: Path, data: bytes) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_bytes(data)
    tmp.replace(path)


def _write_summary(report: RolloutReport) -> None:
    rows: Sequence[dict[str, Any]] = report.rows
    report.csv = report.out / "summary.csv"
    write_csv(rows, report.csv)
    try:
        write_parquet(rows, report.out / "summary.parquet")
    except ImportError:
        report.parquet = None
    else:
        report.parquet = report.out / "summary.parquet"
