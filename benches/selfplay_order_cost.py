"""What following the canonical order costs ``diplo-rust`` on the ``selfplay`` workload.

    python benches/selfplay_order_cost.py [--games 10] [--turns 40] [--cpu] [--own-games]
    valgrind --tool=cachegrind --cache-sim=no python benches/selfplay_order_cost.py --only main
    valgrind --tool=cachegrind --cache-sim=no python benches/selfplay_order_cost.py --only canonical
    valgrind --tool=cachegrind --cache-sim=no python benches/selfplay_order_cost.py --only none

``diplo bench``'s ``selfplay`` plays the canonical game of each seed; ``diplo-rust`` lists its
codes every phase and draws ``choice(p)`` over where the canonical options stand in its own lists
(``diplo.apps.bench.canonical_code_engine``), where the plain loop (``code_selfplay_engine``,
what ``selfplay`` timed before) draws ``choice(codes)``. To see only the loop's cost, both play
the *same* games here: the plain loop's own games of seeds 0..N-1 to 1915, the canonical loop
driven by an identity plan (each option where it stands), so both draw the same random numbers
and submit the same codes. Without ``--only``: both loops in alternating turns, µs per phase
(wall clock, or this thread's CPU time with ``--cpu``), min and median over the turns (the
identity plans share more objects than real ones, so this is the loop's cost at best). With
``--own-games``: each loop on its own games (the canonical loop's real plans), as ``diplo bench``
measures them, three times. With
``--only``: one loop once (``none``: the set-up alone), for counting instructions under valgrind;
the loop's instructions are the count minus ``none``'s. Nothing is asserted: this prints figures.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

from diplo.apps import bench

SHARED: dict[Any, Any] = {}
Plan = list[tuple[tuple[int, Sequence[int]], ...]]


def identity_plan(fast: Any, seed: int) -> Plan:
    """The plain loop's game of ``seed``, as a plan of the canonical loop: every option where
    it stands (so ``choice(p)`` picks the index ``choice(codes)`` picks)."""
    game = fast.CodeGame(None, 1915)
    choice = random.Random(seed).choice
    out: Plan = []
    while not game.is_over:
        lists = game.legal_orders()
        step = []
        for j, o in enumerate(lists):  # shared as diplo bench's plans share them
            positions = bench.compact(list(range(len(o))))
            pair = (j, SHARED.setdefault(positions, positions))
            step.append(SHARED.setdefault(pair, pair))
        out.append(tuple(step))
        game.set_orders([choice(o) for o in lists])
        game.process()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--turns", type=int, default=40)
    parser.add_argument("--cpu", action="store_true", help="this thread's CPU time")
    parser.add_argument("--only", choices=("none", "main", "canonical"))
    parser.add_argument(
        "--own-games",
        action="store_true",
        help="each loop on its own games, as diplo bench runs them (bench.measure, --games rounds)",
    )
    args = parser.parse_args()
    fast = bench.codes_module()
    if fast is None:
        raise SystemExit("needs the code API (diplo.engine.codes)")
    if args.own_games:
        if args.cpu:
            time.perf_counter = time.thread_time  # measure() reads this clock
        main_engine = bench.code_selfplay_engine(0, 1915, fast)
        (canonical_engine,) = bench.selfplay_engines(0, 1915, ["diplo-rust"], fast)
        for _turn in range(3):
            res = bench.measure(
                [
                    bench.Engine("main", main_engine.setup, main_engine.run),
                    bench.Engine("canonical", canonical_engine.setup, canonical_engine.run),
                ],
                args.games,
            )
            main_us, canonical_us = res["main"].us_per_phase, res["canonical"].us_per_phase
            print(
                f"main {main_us:.2f}  canonical {canonical_us:.2f} µs/phase  "
                f"canonical / main {canonical_us / main_us:.3f}"
            )
        return
    seeds = range(args.games)
    plans = {s: identity_plan(fast, s) for s in seeds}
    plain = bench.code_selfplay_engine(0, 1915, fast).run
    canonical = bench.canonical_code_engine(0, 1915, fast, lambda _s: None).run

    def works(kind: str) -> list[Any]:
        if kind == "canonical":
            return [
                (fast.CodeGame(None, 1915), random.Random(s).choice, iter(plans[s])) for s in seeds
            ]
        return [(fast.CodeGame(None, 1915), random.Random(s)) for s in seeds]

    runs: dict[str, Callable[[Any], int]] = {"main": plain, "canonical": canonical}
    if args.only is not None:
        todo = works(args.only)
        phases = sum(runs[args.only](w) for w in todo) if args.only != "none" else 0
        print(f"{args.only}: {phases} phases")
        return
    clock = time.thread_time if args.cpu else time.perf_counter
    per_phase: dict[str, list[float]] = {"main": [], "canonical": []}
    for turn in range(args.turns):
        for kind in ("main", "canonical") if turn % 2 else ("canonical", "main"):
            todo = works(kind)
            start = clock()
            phases = sum(runs[kind](w) for w in todo)
            per_phase[kind].append((clock() - start) * 1e6 / phases)
    for kind, values in per_phase.items():
        print(f"{kind:10} min {min(values):7.2f}  median {statistics.median(values):7.2f} µs/phase")
    ratio_min = min(per_phase["canonical"]) / min(per_phase["main"])
    ratio_median = statistics.median(per_phase["canonical"]) / statistics.median(per_phase["main"])
    print(f"canonical / main: min {ratio_min:.3f}, median {ratio_median:.3f}")


if __name__ == "__main__":
    main()
