"""Scaling of diplo rollouts: games per second with 1 and 2 workers on each backend, the Ray
overhead per game against the local pool, where a game's time goes, and a cluster projection.

    python benches/rollouts_scaling.py [--games 120] [--rounds 2] [--max-year 1915] [--json F]

Every configuration plays the same seeds (so the same games) into a fresh folder, rounds
interleaved (local-1, local-2, ray-1, ray-2, then again), and the best round of each is kept:
on a shared machine the best round is the one least disturbed by other work. Ray starts once,
embedded with 2 CPUs, before the clock runs (its start-up time is reported on its own); the local
pool's start (spawned processes) is inside each run, as a user pays it. Without Ray installed the
ray rows are skipped.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from diplo.engine.codes import CodeGame
from diplo.rollouts import GameTask, play_batch, run_rollouts
from diplo.rollouts.backends import ray_available


def _cpu() -> float:
    """CPU seconds of this process and of its reaped children (the local pool's workers)."""
    me, kids = (
        resource.getrusage(resource.RUSAGE_SELF),
        resource.getrusage(resource.RUSAGE_CHILDREN),
    )
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def _run(backend: str, workers: int, games: int, max_year: int) -> tuple[float, float]:
    """Games per second (wall clock) and CPU seconds per game (local pool only: Ray's workers
    are not this process's children)."""
    with tempfile.TemporaryDirectory() as tmp:
        cpu = _cpu()
        start = time.perf_counter()
        report = run_rollouts(
            games, tmp, workers=workers, backend=backend, max_year=max_year, progress=False
        )
        seconds = time.perf_counter() - start
        cpu = _cpu() - cpu
        assert report.played == games
    return games / seconds, cpu / games


def _split(games: int, max_year: int) -> dict[str, float]:
    """One process: seconds per game playing on the code API alone, and whole (play, replay
    through the object API for the rulings, JSON), and writing the file."""
    seeds = list(range(games))
    start = time.perf_counter()
    for seed in seeds:
        game, rng = CodeGame(max_year=max_year), random.Random(seed)
        while not game.is_over:
            game.set_orders([rng.choice(options) for options in game.legal_orders()])
            game.process()
    play = (time.perf_counter() - start) / games
    start = time.perf_counter()
    played = play_batch(GameTask(tuple(seeds), max_year=max_year))
    whole = (time.perf_counter() - start) / games
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        for p in played:
            path = Path(tmp) / p.name
            path.with_suffix(".tmp").write_bytes(p.data)
            path.with_suffix(".tmp").replace(path)
        write = (time.perf_counter() - start) / games
    size = sum(len(p.data) for p in played) / games
    return {"play_s": play, "whole_s": whole, "write_s": write, "file_bytes": size}


def _ray_task_overhead(tasks: int = 200) -> float:
    import ray

    @ray.remote(num_cpus=1)
    def nothing(x: int) -> int:
        return x

    ray.get([nothing.remote(i) for i in range(10)])
    start = time.perf_counter()
    ray.get([nothing.remote(i) for i in range(tasks)])
    return (time.perf_counter() - start) / tasks


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=120)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--max-year", type=int, default=1915)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)

    split = _split(max(8, args.games // 10), args.max_year)
    configs = [("local", 1), ("local", 2)]
    result: dict[str, Any] = {"games": args.games, "max_year": args.max_year, "split": split}
    if ray_available():
        import ray

        start = time.perf_counter()
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
        result["ray_init_s"] = time.perf_counter() - start
        result["ray_task_overhead_s"] = _ray_task_overhead()
        configs += [("ray", 1), ("ray", 2)]
    best: dict[str, float] = {}
    rounds: dict[str, list[float]] = {}
    cpu: dict[str, list[float]] = {}
    for _ in range(args.rounds):
        for backend, workers in configs:
            rate, cpu_per_game = _run(backend, workers, args.games, args.max_year)
            key = f"{backend}-{workers}"
            rounds.setdefault(key, []).append(rate)
            best[key] = max(best.get(key, 0.0), rate)
            if backend == "local":
                cpu.setdefault(key, []).append(cpu_per_game)
            print(f"  {key}: {rate:.1f} games/s", file=sys.stderr)
    result["rounds_games_per_s"] = rounds
    result["best_games_per_s"] = best
    # With free cores, 2 workers give 2 x the games per second exactly when a game costs the
    # same CPU with 2 workers as with 1: this ratio is the scaling a busy machine cannot show.
    result["local_cpu_s_per_game"] = cpu
    if cpu:
        result["local_cpu_ratio_2_vs_1"] = min(cpu["local-2"]) / min(cpu["local-1"])
    for backend in ("local", "ray"):
        if f"{backend}-1" in best:
            result[f"{backend}_speedup_2_workers"] = best[f"{backend}-2"] / best[f"{backend}-1"]
    if "ray-1" in best:
        result["ray_overhead_s_per_game"] = {
            str(w): 1 / best[f"ray-{w}"] - 1 / best[f"local-{w}"] for w in (1, 2)
        }
    per_core = 1 / split["whole_s"]
    result["projection"] = {
        "games_per_s_per_core": per_core,
        "driver_write_cap_games_per_s": 1 / split["write_s"],
        "cores_before_the_driver_writes_all_the_time": split["whole_s"] / split["write_s"],
    }
    text = json.dumps(result, indent=1)
    print(text)
    if args.json is not None:
        args.json.write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
