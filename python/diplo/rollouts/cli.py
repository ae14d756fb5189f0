"""``diplo rollouts``: play N random games on a process pool or Ray and write them to a folder."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..model.calendar import STANDARD, max_year_of
from ..model.map import MapError
from ..model.variants import add_map_argument, add_year_arguments, first_year, map_argument
from ..model.wording import count, for_command_line
from .play import RolloutError
from .run import (
    DEFAULT_BATCH,
    DEFAULT_MAX_YEAR,
    MAX_GAMES,
    SEED_LIMIT,
    check_seed_range,
    run_rollouts,
)

__all__ = ["register", "run"]


def register(sub: Any) -> None:
    cmd = sub.add_parser(
        "rollouts",
        help="play many random games (process pool or Ray) and write game files and a summary",
        description=(
            "Play the games of seeds SEED..SEED+N-1 on the code API and write DIR/games/*.json "
            "(game files) and DIR/summary.parquet + DIR/summary.csv (with --dataset also "
            "DIR/dataset/*.parquet, one row per order). Seeds already in DIR are skipped "
            "(resume) once every file there verifies (with --no-files: every dataset part); "
            "Ctrl-C or SIGTERM keeps the games written so far and writes the summary "
            "(docs/rollouts.md)."
        ),
    )
    cmd.add_argument(
        "--games",
        type=_count,
        required=True,
        metavar="N",
        help=f"number of games (1 to {MAX_GAMES})",
    )
    cmd.add_argument("--out", required=True, metavar="DIR", help="output folder")
    cmd.add_argument("--workers", type=_positive, default=None, help="default: the cores")
    cmd.add_argument(
        "--backend", choices=("local", "ray"), default=None, help="default: ray when installed"
    )
    cmd.add_argument("--address", default=None, help="join this Ray cluster (e.g. 'auto')")
    add_map_argument(cmd)
    add_year_arguments(
        cmd,
        f"last year played (default {DEFAULT_MAX_YEAR} on maps that start in 1901: "
        f"{DEFAULT_MAX_YEAR - 1900} years of play from the map's first year)",
    )
    cmd.add_argument(
        "--seed", type=_seed, default=0, help="seed of the first game, 0 or more (default 0)"
    )
    cmd.add_argument("--batch", type=_positive, default=DEFAULT_BATCH, help="games per worker task")
    cmd.add_argument("--compress", action="store_true", help="write gzipped game files (.json.gz)")
    cmd.add_argument(
        "--dataset",
        action="store_true",
        help="also write DIR/dataset/*.parquet: one row per order (needs pyarrow)",
    )
    cmd.add_argument(
        "--no-files", action="store_true", help="write no game files (with --dataset: only it)"
    )
    cmd.add_argument("--no-progress", action="store_true", help="no progress bar")
    cmd.set_defaults(handler=run)


def _whole(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None


def _count(text: str) -> int:
    value = _whole(text)
    if not 1 <= value <= MAX_GAMES:
        raise argparse.ArgumentTypeError(
            f"expected a number of games from 1 to {MAX_GAMES}, got {text}"
        )
    return value


def _seed(text: str) -> int:
    value = _whole(text)
    if not 0 <= value < SEED_LIMIT:
        raise argparse.ArgumentTypeError(f"expected a seed from 0 to 2**63 - 1, got {text}")
    return value


def _positive(text: str) -> int:
    value = _whole(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive number, got {text}")
    return value


def run(args: argparse.Namespace) -> int:
    try:
        check_seed_range(args.seed, args.games, "--seed")
    except ValueError as exc:
        print(f"diplo: {exc} (--games {args.games})", file=sys.stderr)
        return 2
    max_year = args.max_year
    if max_year is None:
        try:
            game_map = map_argument(args.map)
            first = 1901 if game_map is None else first_year(game_map)
            years = DEFAULT_MAX_YEAR - 1900 if args.years is None else args.years
            max_year = max_year_of(
                years, first, STANDARD if game_map is None else game_map.calendar
            )
        except (MapError, ValueError) as exc:
            print(f"diplo: {for_command_line(str(exc))}", file=sys.stderr)
            return 2
    try:
        report = run_rollouts(
            args.games,
            args.out,
            workers=args.workers,
            backend=args.backend,
            first_seed=args.seed,
            map_name=args.map or "standard",
            max_year=max_year,
            batch_size=args.batch,
            address=args.address,
            progress=not args.no_progress,
            compress=args.compress,
            files=not args.no_files,
            dataset=args.dataset,
        )
    except KeyboardInterrupt:
        print(
            "diplo: interrupted; the games finished so far and the summary are written",
            file=sys.stderr,
        )
        return 130
    except (ValueError, RolloutError, OSError) as exc:
        print(f"diplo: {for_command_line(str(exc))}", file=sys.stderr)
        return 2
    print(
        f"{count(report.played, 'game')} played, {report.skipped} already there "
        f"({report.backend}, {count(report.workers, 'worker')}, {report.seconds:.1f} s, "
        f"{report.games_per_second:.1f} games/s)"
    )
    tables = ", ".join(str(p) for p in (report.parquet, report.csv) if p is not None)
    where = report.out / "games" if not args.no_files else report.out
    print(
        f"{count(report.games, 'game')} in {where}: {report.wins} won, {report.draws} drawn; "
        f"summary: {tables}"
    )
    if report.dataset is not None:
        print(f"dataset: {report.dataset}")
    if report.parquet is None:
        print('(no Parquet: pip install ".[rollouts]" for pyarrow)', file=sys.stderr)
    return 0
