"""A rollout: N games from seeds, each written as a game file, and the summary table.

Layout of the output folder::

    DIR/games/game-00000042.json    one game file per game (docs/game-files.md); with
                                    compress=True game-00000042.json.gz (gzip)
    DIR/dataset/part-*.parquet      with dataset=True: one row per order given
                                    (diplo.rollouts.dataset; needs pyarrow)
    DIR/summary.parquet             one row per game file in DIR/games (needs pyarrow)
    DIR/summary.csv                 the same rows

Files are written each under a temporary name then renamed, so an interrupted run never leaves
half a file: by the local backend's workers themselves (no file's bytes cross a pipe), by the
calling process on Ray (workers return the bytes: a cluster's workers need no shared disk).
A run skips the seeds whose file is already there (resume), after the workers
have verified every file in the folder (:mod:`diplo.rollouts.verify`): a file the engine does not
verify, or that is not exactly what its verified game writes, is refused by name and the run
stops before playing anything.

Memory stays flat however many games are asked for: tasks are made from the seeds as workers
free up (at most a few per worker queued), and the summary's rows wait on disk
(:class:`~diplo.rollouts.summary.RowSpill`) until the tables are written, in one pass, at the
end. Without game files (``files=False``) the dataset and the summary are written, and a run
resumes from the dataset's parts already in the folder, after the workers have verified each
(:func:`~diplo.rollouts.verify.verify_parts`), refusing by name any that does not verify.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Container, Iterable, Iterator, Sequence
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO, TypeVar

from ..api.backends import BackendError, backend_for
from ..model.map import SHIPPED_MAPS, Map, MapError
from ..model.position import Position
from ..model.variants import load_map
from .backends import BACKENDS, default_backend, ray_available, run_local, run_ray
from .dataset import pyarrow_available
from .play import GameTask, PlayedBatch, RolloutError, remove_stale, write_batch
from .policy import CodePolicy, OrderPolicy
from .progress import Progress
from .signals import Stopper, polled, stop_requests, stopping
from .summary import RowSpill, columns_for, merged, read_csv_rows, write_tables
from .verify import (
    Checked,
    CheckedPart,
    PartTask,
    VerifyTask,
    seed_of_name,
    seeds_of_part_name,
    verify_batch,
    verify_parts,
)

Item = TypeVar("Item")

__all__ = [
    "MAX_GAMES",
    "MAX_WORKERS_PER_CORE",
    "SEED_LIMIT",
    "RolloutReport",
    "check_seed_range",
    "max_workers",
    "run_rollouts",
]

#: Games per task: enough to amortise a task's scheduling, few enough to balance the workers.
DEFAULT_BATCH = 8
DEFAULT_MAX_YEAR = 1915
#: The most games one run takes (more is a typo, or a job for several runs).
MAX_GAMES = 100_000_000
#: Seeds are 0 or more and below this (they are int64 columns of the summary and dataset).
SEED_LIMIT = 1 << 63
#: The local backend takes at most this many workers per core (more only thrash).
MAX_WORKERS_PER_CORE = 4
#: The most workers of the ray backend (a cluster's CPUs).
MAX_RAY_WORKERS = 4096
#: Files checked per verification task.
VERIFY_BATCH = 16
#: Dataset parts checked per verification task.
VERIFY_PARTS = 2
#: Tasks in flight or waiting for an earlier one, per worker.
WINDOW_PER_WORKER = 4
#: Refused files named in the error (the count says how many more).
_NAMED = 10


@dataclass
class RolloutReport:
    """What a run did. ``rows`` reads the summary back (every game file in the folder, in seed
    order): the run itself never holds them all."""

    out: Path
    backend: str
    workers: int
    requested: int
    played: int = 0
    skipped: int = 0
    interrupted: bool = False
    seconds: float = 0.0
    games: int = 0
    wins: int = 0
    draws: int = 0
    parquet: Path | None = None
    csv: Path | None = None
    dataset: Path | None = None

    @property
    def games_per_second(self) -> float:
        return self.played / self.seconds if self.seconds > 0 else 0.0

    @property
    def rows(self) -> list[dict[str, Any]]:
        """The summary's rows, read from ``summary.csv`` (typed as written)."""
        return [] if self.csv is None else read_csv_rows(self.csv)


def cores() -> int:
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1)


def max_workers(backend: str) -> int:
    """The most workers ``backend`` takes: :data:`MAX_WORKERS_PER_CORE` per core here, or
    :data:`MAX_RAY_WORKERS` on Ray."""
    return MAX_RAY_WORKERS if backend == "ray" else MAX_WORKERS_PER_CORE * cores()


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
    files: bool = True,
    dataset: bool = False,
) -> RolloutReport:
    """Play the games of seeds ``first_seed .. first_seed + games - 1`` (or of ``seeds``) and
    write them under ``out`` (see the module documentation).

    ``workers`` defaults to the number of cores (at most :func:`max_workers`); ``backend`` is
    ``"local"`` or ``"ray"`` (default: Ray when installed); ``address`` joins a running Ray
    cluster. ``policy`` defaults to :class:`~diplo.rollouts.policy.RandomPolicy` and must be
    picklable. ``compress`` writes gzipped files (``game-00000042.json.gz``; read one with
    ``diplo.formats.gamefile.load(gzip.open(path, "rt"))``). ``dataset`` writes the order rows
    (:mod:`diplo.rollouts.dataset`); ``files=False`` writes no game file. On Ctrl-C the games
    finished so far are kept, the summary is written, and ``KeyboardInterrupt`` is raised again
    once that is done. Raises ``ValueError`` for bad settings and :class:`RolloutError` for a
    folder holding games of other settings or files that do not verify, or a game that cannot
    be played."""
    import time

    backend = _backend(backend, address)
    workers = _workers(workers, backend)
    wanted = _seeds(games, first_seed, seeds)
    if not isinstance(batch_size, int) or isinstance(batch_size, bool) or batch_size < 1:
        raise ValueError(f"batch_size must be a positive int, got {batch_size!r}")
    if max_year is not None and (not isinstance(max_year, int) or isinstance(max_year, bool)):
        raise ValueError(f"max_year must be a year, got {max_year!r}")
    try:
        game_map = load_map(map_name)
    except MapError as exc:
        raise ValueError(str(exc)) from None
    try:
        backend_for("rust", game_map)
    except BackendError as exc:  # rollouts play on the engine: a map past its limits is refused
        raise ValueError(f"rollouts play on the engine only: {exc}") from None
    first = Position.initial(game_map).phase.year
    if max_year is not None and max_year < first:
        raise ValueError(f"max_year {max_year} is before the map's first year ({first})")
    shipped = map_name in SHIPPED_MAPS
    own_map = None if shipped else game_map
    if not files and not dataset:
        raise ValueError("nothing to write: ask for game files, the dataset or both")
    if dataset and not pyarrow_available():
        raise ValueError('the dataset needs pyarrow: pip install ".[rollouts]"')

    root = Path(out)
    folder = root / "games"
    parts = root / "dataset"
    if root.exists() and not root.is_dir():
        raise ValueError(f"--out {out}: that is a file; name a folder (it is made if missing)")
    # On the local backend SIGTERM stops the run as Ctrl-C does, and no signal stops the
    # summary half-way (diplo.rollouts.signals), from the moment the folder is made.
    guard = stopping() if backend == "local" else nullcontext(Stopper())
    with guard as stopper:
        # Until the games are played, a signal is only counted: the set-up ends, nothing more
        # is played, and the summary of the games already there is written.
        with polled():
            made = folder if files else root
            try:
                made.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise ValueError(
                    f"--out {out}: cannot make the folder {made} ({exc.strerror})"
                ) from None
            if dataset:
                parts.mkdir(exist_ok=True)
            remove_stale(root)
            report = RolloutReport(root, backend, workers, len(wanted))
            report.dataset = parts if dataset else None
            on_disk = _names_on_disk(folder) if files else {}
            parts_on_disk = _parts_on_disk(parts) if dataset else []
            done: Container[int] = on_disk
            window = WINDOW_PER_WORKER * workers
        kept = RowSpill(root / f".summary-kept.{os.getpid()}.tmp")
        fresh = RowSpill(root / f".summary-played.{os.getpid()}.tmp")
        try:
            settings = (game_map.name, own_map, max_year)
            where = (backend, workers, address)
            try:
                with polled():
                    if files and dataset and (on_disk or parts_on_disk):
                        _match_parts(parts, parts_on_disk, on_disk, settings, where, window, root)
                    if on_disk:
                        _verify(folder, on_disk, settings, where, window, kept)
                    elif parts_on_disk:
                        done = _verify_parts(parts, parts_on_disk, settings, where, window, kept)
            except KeyboardInterrupt:  # stopped while verifying: the summary names those verified
                report.interrupted = True
            report.skipped = sum(1 for s in wanted if s in done)
            todo = (s for s in wanted if s not in done)
            tasks = (
                GameTask(
                    batch,
                    game_map.name,
                    own_map,
                    max_year,
                    policy,
                    compress=bool(compress),
                    files=files,
                    dataset=dataset,
                    # Local workers write their games themselves: no file's bytes cross a pipe.
                    folder=str(root) if backend == "local" else None,
                )
                for batch in _chunks(todo, batch_size)
            )
            stream = None if isinstance(progress, bool) else _stream(progress)
            bar = Progress(len(wanted), report.skipped, stream)
            if progress is False:
                bar.enabled = False
            order = _InOrder(fresh)

            def on_done(k: int, batch: PlayedBatch) -> None:
                if not batch.written:
                    write_batch(root, batch, files, dataset)
                order.put(k, [played.row for played in batch.games])
                report.played += len(batch.games)
                bar.advance(len(batch.games))

            start = time.monotonic()
            try:
                try:
                    if stop_requests() or report.interrupted:  # stopped during the set-up:
                        raise KeyboardInterrupt  # nothing more is played
                    if backend == "ray":
                        run_ray(tasks, workers, on_done, address, window=window, held=order.held)
                    else:
                        run_local(tasks, workers, on_done, window=window, held=order.held)
                except KeyboardInterrupt:
                    report.interrupted = True
                finally:
                    stopper.finish()  # from here on a signal waits for the summary
            except KeyboardInterrupt:  # a signal while the first was being handled
                report.interrupted = True
                stopper.finish()
            report.seconds = time.monotonic() - start
            bar.close()
            order.flush_all()
            _write_summary(report, game_map.powers, merged(kept, fresh))
            report.interrupted = report.interrupted or stopper.signals > 0
        finally:
            kept.remove()
            fresh.remove()
    if report.interrupted:
        raise KeyboardInterrupt
    return report


class _InOrder:
    """Rows of tasks that finish in any order, written to ``spill`` in task order (so in seed
    order); those waiting for an earlier task are ``held`` (the backends count them)."""

    def __init__(self, spill: RowSpill) -> None:
        self.spill = spill
        self.next = 0
        self.waiting: dict[int, list[dict[str, Any]]] = {}

    def put(self, k: int, rows: list[dict[str, Any]]) -> None:
        self.waiting[k] = rows
        while self.next in self.waiting:
            for row in self.waiting.pop(self.next):
                self.spill.add(row)
            self.next += 1

    def held(self) -> int:
        return len(self.waiting)

    def flush_all(self) -> None:
        """After an interruption: the rows of every finished task, gaps and all."""
        for k in sorted(self.waiting):
            for row in self.waiting.pop(k):
                self.spill.add(row)


def _chunks(seeds: Iterator[int], size: int) -> Iterator[tuple[int, ...]]:
    while True:
        batch = tuple(itertools.islice(seeds, size))
        if not batch:
            return
        yield batch


def _names_on_disk(folder: Path) -> dict[int, str]:
    """The seeds of the game files in ``folder``, by seed (sorted), to the file's name; a name
    that is not a rollout's, or two files of one seed, are refused."""
    found: dict[int, str] = {}
    bad = []
    with os.scandir(folder) as entries:
        for entry in entries:
            name = entry.name
            if not name.startswith("game-") or name.startswith("."):
                continue
            seed = seed_of_name(name)
            if seed is None:
                bad.append(f"{folder / name}: not a game file name of a rollout")
            elif seed in found:
                bad.append(f"{folder / name}: a second file of the game of seed {seed}")
            else:
                found[seed] = name
    if bad:
        raise RolloutError(_refusal(bad))
    return dict(sorted(found.items()))


def _refusal(problems: Sequence[str], what: str = "game file") -> str:
    shown = "; ".join(problems[:_NAMED])
    more = f" (and {len(problems) - _NAMED} more)" if len(problems) > _NAMED else ""
    return f"refused {len(problems)} {what}(s) in the folder: {shown}{more}"


def _verify(
    folder: Path,
    on_disk: dict[int, str],
    settings: tuple[str, Map | None, int | None],
    where: tuple[str, int, str | None],
    window: int,
    kept: RowSpill,
) -> None:
    """Has the workers verify every file on disk (``settings``: the run's map's name, the map
    when it is not shipped, and the year limit;
    ``where``: backend, workers, address); their rows go to ``kept`` in seed order, and any
    refusal raises :class:`RolloutError` naming the files."""
    map_name, own_map, max_year = settings
    backend, workers, address = where
    items = iter(on_disk.items())
    tasks = (
        VerifyTask(tuple(str(folder / name) for _seed, name in chunk), map_name, max_year, own_map)
        for chunk in _chunks_of(items, VERIFY_BATCH)
    )
    problems: list[str] = []
    order = _InOrder(kept)

    def on_done(k: int, checked: list[Checked]) -> None:
        rows = []
        for c in checked:
            if c.problem is not None:
                problems.append(f"{c.path}: {c.problem}")
            elif c.row is not None:
                rows.append(c.row)
        order.put(k, rows)

    if backend == "ray":
        run_ray(tasks, workers, on_done, address, fn=verify_batch, window=window, held=order.held)
    else:
        run_local(tasks, workers, on_done, fn=verify_batch, window=window, held=order.held)
    if problems:
        problems.sort()
        raise RolloutError(_refusal(problems))


def _parts_on_disk(parts: Path) -> list[str]:
    """The dataset parts in ``parts`` (names starting ``part-``), by their first seed; a name
    that is not a rollout's part is refused."""
    found: list[tuple[int, str]] = []
    bad = []
    with os.scandir(parts) as entries:
        for entry in entries:
            name = entry.name
            if not name.startswith("part-"):
                continue
            seeds = seeds_of_part_name(name)
            if seeds is None:
                bad.append(f"{parts / name}: not a dataset part name of a rollout")
            else:
                found.append((seeds[0], name))
    if bad:
        raise RolloutError(_refusal(bad, "dataset part"))
    return [name for _first, name in sorted(found)]


def _verify_parts(
    parts: Path,
    names: list[str],
    settings: tuple[str, Map | None, int | None],
    where: tuple[str, int, str | None],
    window: int,
    kept: RowSpill,
) -> set[int]:
    """Has the workers verify every dataset part (a run without game files resumes from them:
    see :func:`~diplo.rollouts.verify.verify_parts`); their rows go to ``kept`` and the seeds of
    their games are returned. Any refusal (or a game in two parts) raises
    :class:`RolloutError` naming the parts."""
    map_name, own_map, max_year = settings
    backend, workers, address = where
    tasks = (
        PartTask(tuple(str(parts / n) for n in chunk), map_name, max_year, own_map)
        for chunk in _chunks_of(iter(names), VERIFY_PARTS)
    )
    problems: list[str] = []
    seeds: set[int] = set()
    order = _InOrder(kept)

    def on_done(k: int, checked: list[CheckedPart]) -> None:
        rows = []
        for c in checked:
            if c.problem is not None:
                problems.append(f"{c.path}: {c.problem}")
                continue
            twice = [s for s in c.seeds if s in seeds]
            if twice:
                problems.append(f"{c.path}: game {twice[0]} is also in another part")
                continue
            seeds.update(c.seeds)
            rows.extend(c.rows)
        order.put(k, rows)

    run = run_ray if backend == "ray" else run_local
    options: dict[str, Any] = {"address": address} if backend == "ray" else {}
    run(tasks, workers, on_done, fn=verify_parts, window=window, held=order.held, **options)
    if problems:
        problems.sort()
        raise RolloutError(_refusal(problems, "dataset part"))
    return seeds


def _match_parts(
    parts: Path,
    names: list[str],
    on_disk: dict[int, str],
    settings: tuple[str, Map | None, int | None],
    where: tuple[str, int, str | None],
    window: int,
    root: Path,
) -> None:
    """A run writing both game files and the dataset resumes from its files, so its dataset's
    parts (verified by the workers) must hold exactly the games of those files: a run stopped
    between a batch's files and its part, or files written by a run without the dataset, would
    otherwise leave the dataset silently short. Any difference raises :class:`RolloutError`
    naming the games."""
    scratch = RowSpill(root / f".summary-parts.{os.getpid()}.tmp")
    try:
        in_parts = _verify_parts(parts, names, settings, where, window, scratch) if names else set()
    finally:
        scratch.remove()
    with_files = set(on_disk)
    problems = [
        f"{parts}: no rows of the game of seed {s}, whose file {on_disk[s]} is kept"
        for s in sorted(with_files - in_parts)
    ] + [
        f"{parts}: rows of the game of seed {s}, which has no file"
        for s in sorted(in_parts - with_files)
    ]
    if problems:
        raise RolloutError(
            _refusal(problems, "game")
            + "; the files and the dataset must hold the same games: remove those games' files"
            " and parts to play them again, or resume without the dataset"
        )


def _chunks_of(items: Iterator[Item], size: int) -> Iterator[list[Item]]:
    while True:
        chunk = list(itertools.islice(items, size))
        if not chunk:
            return
        yield chunk


def _seeds(games: int, first_seed: int, seeds: Iterable[int] | None) -> Sequence[int]:
    """The seeds of a run, every one checked before anything is written: from 0 to
    :data:`SEED_LIMIT` - 1, at most :data:`MAX_GAMES` of them."""
    if seeds is not None:
        wanted = list(seeds)
        if not all(isinstance(s, int) and not isinstance(s, bool) for s in wanted):
            raise ValueError("seeds must be ints")
        if len(set(wanted)) != len(wanted):
            raise ValueError("seeds must be distinct (one game file per seed)")
        if len(wanted) > MAX_GAMES:
            raise ValueError(f"{len(wanted)} seeds is more than {MAX_GAMES} games in one run")
        bad = [s for s in wanted if not 0 <= s < SEED_LIMIT]
        if bad:
            raise ValueError(f"seed {bad[0]} is not from 0 to 2**63 - 1")
        return wanted
    if not isinstance(games, int) or isinstance(games, bool) or not 1 <= games <= MAX_GAMES:
        raise ValueError(f"games must be a number of games from 1 to {MAX_GAMES}, got {games!r}")
    if not isinstance(first_seed, int) or isinstance(first_seed, bool):
        raise ValueError(f"the first seed must be an int, got {first_seed!r}")
    check_seed_range(first_seed, games, "the first seed")
    return range(first_seed, first_seed + games)


def check_seed_range(first_seed: int, games: int, where: str) -> None:
    """Raise ``ValueError`` naming ``where`` unless the seeds ``first_seed`` ..
    ``first_seed + games - 1`` are all from 0 to 2**63 - 1."""
    if first_seed < 0:
        raise ValueError(f"{where} must be 0 or more, got {first_seed}")
    last = first_seed + games - 1
    if last >= SEED_LIMIT:
        raise ValueError(
            f"{where} {first_seed} with {games} game(s) runs to seed {last}, past 2**63 - 1 "
            f"(the largest seed); the first seed can be at most {SEED_LIMIT - games}"
        )


def _workers(workers: int | None, backend: str) -> int:
    limit = max_workers(backend)
    if workers is None:
        return cores()
    if not isinstance(workers, int) or isinstance(workers, bool) or workers < 1:
        raise ValueError(f"workers must be a positive int, got {workers!r}")
    if workers > limit:
        where = (
            f"{MAX_WORKERS_PER_CORE} per core on {cores()} core(s)"
            if backend == "local"
            else "the ray backend's limit"
        )
        raise ValueError(f"workers {workers} is more than {limit} ({where})")
    return workers


def _backend(backend: str | None, address: str | None) -> str:
    if backend is None:
        backend = "ray" if address is not None else default_backend()
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r} (choose from {', '.join(BACKENDS)})")
    if backend == "ray" and not ray_available():
        raise ValueError('the ray backend needs Ray: pip install ".[ray]"')
    if backend == "local" and address is not None:
        raise ValueError("an address is for the ray backend (a cluster to join)")
    return backend


def _stream(progress: Any) -> TextIO:
    if not hasattr(progress, "write"):
        raise ValueError(f"progress must be a bool or a text stream, got {progress!r}")
    stream: TextIO = progress
    return stream


def _write_summary(
    report: RolloutReport, powers: Sequence[str], rows: Iterable[dict[str, Any]]
) -> None:
    names = columns_for(powers)

    def counted() -> Iterator[dict[str, Any]]:
        for row in rows:
            report.games += 1
            report.wins += bool(row.get("winner"))
            report.draws += bool(row.get("draw"))
            yield row

    report.csv = report.out / "summary.csv"
    parquet = report.out / "summary.parquet" if pyarrow_available() else None
    write_tables(counted(), names, report.csv, parquet)
    report.parquet = parquet
