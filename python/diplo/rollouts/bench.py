"""The ``rollouts`` workload of ``diplo bench``: rollouts against the plain loop they are made of.

Three engines, in one interleaved run (the first of each round rotates), every one playing the
same random games (the seeds of a round, the default policy):

``rollouts-files``
    :func:`~diplo.rollouts.run.run_rollouts` with two workers (the local pool) writing game files
    and the summary into a fresh folder: the whole run as a process that runs rollouts again and
    again makes it (the pool is started once, before the rounds, and kept, as
    :func:`~diplo.rollouts.backends.local_pool` keeps it from run to run; its start, about half
    a second on a quiet machine, is in no round).
``rollouts-dataset``
    The same writing only the dataset (one Parquet row per order) and the summary, no game file
    (left out without pyarrow).
``diplo-rust``
    The plain :class:`~diplo.engine.codes.CodeGame` loop on one core in this process: legal
    orders, a random choice per slot, ``set_orders``, ``process``, to the end of each game.

Each round's figure is microseconds per game per core: the run's wall time times the cores it
used (two workers: 2; the loop: 1) over its games. Rollouts with game files reach a third of the
plain loop's games per second on two cores when their figure is at most 6 times the loop's.
"""

from __future__ import annotations

import random
import tempfile
import time
from pathlib import Path

from ..engine.codes import CodeGame
from ..model.position import Position
from ..model.variants import load_map
from .backends import start_workers
from .dataset import pyarrow_available
from .run import run_rollouts

__all__ = ["ENGINES", "WORKERS", "measure_rollouts"]

ENGINES = ("rollouts-files", "rollouts-dataset", "diplo-rust")
#: Workers of the rollout engines (each a process on its own core).
WORKERS = 2


def measure_rollouts(
    seed: int, max_year: int, games: int, rounds: int, map_name: str = "standard"
) -> dict[str, tuple[int, float, list[float]]]:
    """Per engine (those that can run here): games played, seconds, and each round's µs per game
    per core (see the module documentation)."""
    engines = [e for e in ENGINES if e != "rollouts-dataset" or pyarrow_available()]
    out: dict[str, tuple[int, float, list[float]]] = {e: (0, 0.0, []) for e in engines}
    game_map = load_map(map_name)
    start_workers(WORKERS, dataset="rollouts-dataset" in engines)
    for r in range(rounds):
        first = seed + r * games
        shift = r % len(engines)
        for engine in [*engines[shift:], *engines[:shift]]:
            with tempfile.TemporaryDirectory(prefix="diplo-bench-") as tmp:
                start = time.perf_counter()
                if engine == "diplo-rust":
                    _plain_loop(Position.initial(game_map), first, games, max_year)
                    cores = 1
                else:
                    files = engine == "rollouts-files"
                    run_rollouts(
                        games,
                        Path(tmp) / "run",
                        workers=WORKERS,
                        backend="local",
                        first_seed=first,
                        map_name=map_name,
                        max_year=max_year,
                        progress=False,
                        files=files,
                        dataset=not files,
                    )
                    cores = WORKERS
                elapsed = time.perf_counter() - start
            played, seconds, per_round = out[engine]
            per_round.append(elapsed * 1e6 * cores / games)
            out[engine] = (played + games, seconds + elapsed, per_round)
    return out


def _plain_loop(initial: Position, first: int, games: int, max_year: int) -> None:
    for seed in range(first, first + games):
        game = CodeGame(initial, max_year)
        rng = random.Random(seed)
        choice = rng.choice
        while not game.is_over:
            game.set_orders([choice(options) for options in game.legal_orders()])
            game.process()
