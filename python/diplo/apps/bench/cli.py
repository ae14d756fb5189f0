"""``diplo bench``: its options and the command."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ...api.backends import BackendError, backend_for
from ...model.calendar import STANDARD, max_year_of
from ...model.map import MapError
from ...model.variants import add_map_argument, first_year, map_argument
from ...model.wording import for_command_line
from .engines import ENGINES, missing_engines
from .measure import BenchError
from .runner import run_benchmarks
from .settings import DEFAULT_WORKLOADS, WORKLOADS, Settings


def register(sub: Any) -> None:
    bench = sub.add_parser(
        "bench",
        help="time diplo's engines (and MILA's) on random full-board play",
        description=(
            "Time the movement, strings, selfplay, mila-api, jsonl, batch and vector workloads "
            "(and rollouts and mila-calls, when asked for) on every engine, interleaved in "
            "rounds; report the median µs per phase. The defaults take a few minutes."
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
        "--max-orders",
        type=_positive,
        default=defaults.max_orders,
        help="legal orders per unit the vector workload's environments hold (default "
        f"{defaults.max_orders}; twentytwenty needs 1024)",
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
        help="workloads to run (default all but rollouts, mila-calls and deepmind): "
        + ", ".join(WORKLOADS),
    )
    bench.add_argument(
        "--rollout-games",
        type=_positive,
        default=defaults.rollout_games,
        help=f"games per engine and round of the rollouts workload (default "
        f"{defaults.rollout_games})",
    )
    bench.add_argument(
        "--call-rounds",
        type=_positive,
        default=defaults.call_rounds,
        help=f"rounds of the mila-calls workload, a recorded game replayed per round (default "
        f"{defaults.call_rounds})",
    )
    bench.add_argument(
        "--deepmind-games",
        type=_positive,
        default=defaults.deepmind_games,
        help=f"games of the deepmind workload's batched state (default {defaults.deepmind_games})",
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
        if game_map is not None:
            backend_for("rust", game_map)  # the bench measures the engine: its limits first
    except (MapError, BackendError) as exc:
        print(f"diplo: {for_command_line(str(exc))}", file=sys.stderr)
        return 2
    first = 1901 if game_map is None else first_year(game_map)
    if args.max_year is None:
        calendar = STANDARD if game_map is None else game_map.calendar
        args.max_year = max_year_of(Settings().max_year - 1900, first, calendar)
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
        max_orders=args.max_orders,
        max_year=args.max_year,
        map=args.map,
        external=tuple(args.engine),
        rollout_games=args.rollout_games,
        call_rounds=args.call_rounds,
        deepmind_games=args.deepmind_games,
    )
    missing = missing_engines(settings.engines)
    if len(missing) == len(settings.engines) and not settings.external:
        # Nothing asked for can run: say why, rather than print empty tables.
        why = "; ".join(f"{name} cannot run here: {reason}" for name, reason in missing.items())
        print(f"diplo: --engines: {why}", file=sys.stderr)
        return 2
    try:
        report = run_benchmarks(settings, lambda text: print(f"bench: {text}", file=sys.stderr))
    except BenchError as exc:
        print(f"diplo: {for_command_line(str(exc))}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(report.to_json(), indent=1))
    else:
        print(report.table())
    return 0
