"""dipcc's ``process()`` as a bot's play loop calls it, by kind of phase, on either engine.

Games are played from Spring 1901 to the end of 1910 in one process: each phase the possible
orders are asked for, each power is given a seeded random order for each orderable location
(drawn from the location's list sorted, so both engines play the same games: dipcc joins the
lists of a province's coasts in its own order), and ``process()``, the only call timed. Game
``k`` uses the seed ``k``. Prints, per kind of phase and for all of them, the count, median and
mean in microseconds.

    GLOG_minloglevel=3 PYTHONPATH=/tmp/dipcc-build:python python benches/dipcc_play_loop.py dipcc 40
    PYTHONPATH=python python benches/dipcc_play_loop.py diplo 40

``dipcc`` is Meta's engine built by ``tools/build_dipcc.sh`` (the module ``dipcc_core``);
``diplo`` is ``diplo.compat.dipcc``.
"""

from __future__ import annotations

import argparse
import importlib
import random
import statistics
import time
from typing import Any


def play(module: Any, seed: int, times: list[float], kinds: list[str]) -> None:
    """One game of ``seed``: each phase's ``process()`` time and kind appended."""
    rng = random.Random(seed)
    game = module.Game()
    while True:
        phase = game.current_short_phase
        if phase == "COMPLETED" or int(phase[1:5]) > 1910:
            return
        possible = game.get_all_possible_orders()
        for power, locs in game.get_orderable_locations().items():
            game.set_orders(
                power, [rng.choice(sorted(possible[loc])) for loc in locs if possible[loc]]
            )
        start = time.perf_counter()
        game.process()
        times.append(time.perf_counter() - start)
        kinds.append(phase[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("engine", choices=["dipcc", "diplo"])
    parser.add_argument("games", type=int, nargs="?", default=20)
    args = parser.parse_args()
    name = "dipcc_core" if args.engine == "dipcc" else "diplo.compat.dipcc"
    module = importlib.import_module(name)
    times: list[float] = []
    kinds: list[str] = []
    for seed in range(args.games):
        play(module, seed, times, kinds)
    rows = [(k, [t for t, kind in zip(times, kinds, strict=True) if kind == k]) for k in "MRA"]
    for label, taken in [*rows, ("all", times)]:
        if taken:
            median = statistics.median(taken) * 1e6
            mean = statistics.mean(taken) * 1e6
            print(f"{label:3} {len(taken):5} median {median:6.1f} mean {mean:6.1f}")


if __name__ == "__main__":
    main()
