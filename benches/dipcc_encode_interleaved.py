"""dipcc's ``ThreadPool`` encoders and diplo's, timed in turn (one sweep of each, again and
again), for a machine shared with other work: a run of one engine's rows never falls in a
quieter moment than the other's. The positions, vocabulary and sweep are those of
``test_bench_dipcc_encode.py`` (64 phases of seeded games, Cicero's vocabulary, input version 3,
every thread count and batch size); for each row the fastest sweep of each engine (the one
least disturbed) and the median one, in microseconds per game, clock time.

Usage (a Python with torch, dipcc built by ``tools/build_dipcc_torch.sh``):
    DIPCC_SOURCES=/tmp/cicero PYTHONPATH=$PWD/python:/tmp/dipcc-torch-build \\
        /work/venv-torch/bin/python benches/dipcc_encode_interleaved.py [TURNS]
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("GLOG_minloglevel", "2")

sys.path.insert(0, str(Path(__file__).resolve().parent))

import torch

from test_bench_dipcc_encode import BATCHES, THREADS, VERSION, _positions

CALLS = ("encode_inputs_multi", "encode_inputs_all_powers_multi", "encode_inputs_state_only_multi")


def _vocabulary() -> dict[str, int]:
    path = Path(os.environ["DIPCC_SOURCES"]) / "fairdiplomacy" / "models"
    by_unit = json.loads((path / "order_vocab_by_unit.json").read_text())
    ordered = [o for unit in sorted(by_unit) for o in sorted(by_unit[unit])]
    return {o: i for i, o in enumerate(ordered)}


def _sweep(run: Any, chunks: list[list[Any]]) -> float:
    start = time.perf_counter()
    for games in chunks:
        run(games, VERSION)
    return time.perf_counter() - start


def main() -> int:
    import pydipcc

    from diplo.compat import dipcc
    from diplo.compat.dipcc.encoding import ThreadPool

    turns = int(sys.argv[1]) if len(sys.argv) > 1 else 15
    torch.set_num_threads(1)
    vocabulary = _vocabulary()
    theirs_games, ours_games = _positions(pydipcc), _positions(dipcc)
    n = len(theirs_games)
    print(
        "| call | threads | games a call | dipcc best | diplo best | ratio | dipcc median "
        "| diplo median | ratio |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for call in CALLS:
        for threads in THREADS:
            theirs_run = getattr(pydipcc.ThreadPool(threads, vocabulary, 469), call)
            ours_run = getattr(ThreadPool(threads, vocabulary, 469), call)
            for batch in BATCHES:
                theirs = [theirs_games[i : i + batch] for i in range(0, n, batch)]
                ours = [ours_games[i : i + batch] for i in range(0, n, batch)]
                _sweep(theirs_run, theirs)
                _sweep(ours_run, ours)
                a: list[float] = []
                b: list[float] = []
                for _ in range(turns):
                    a.append(_sweep(theirs_run, theirs))
                    b.append(_sweep(ours_run, ours))
                a.sort()
                b.sort()
                best = (a[0] * 1e6 / n, b[0] * 1e6 / n)
                med = (a[turns // 2] * 1e6 / n, b[turns // 2] * 1e6 / n)
                print(
                    f"| `{call}` | {threads} | {batch} | {best[0]:.1f} | {best[1]:.1f} "
                    f"| {best[0] / best[1]:.2f} | {med[0]:.1f} | {med[1]:.1f} "
                    f"| {med[0] / med[1]:.2f} |",
                    flush=True,
                )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
