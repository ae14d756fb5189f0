"""dipcc-encode: ``encode_inputs_multi``, ``encode_inputs_all_powers_multi`` and
``encode_inputs_state_only_multi`` per game, on diplo's ``diplo.compat.dipcc.ThreadPool``
(``diplo-compat``) and on dipcc's own ``ThreadPool`` (``dipcc``: the module ``pydipcc`` built
with torch by ``tools/build_dipcc_torch.sh``, on the path; skipped where it is not built), side
by side: the same positions, Cicero's vocabulary (``DIPCC_SOURCES``; skipped by name without
it), input version 3, the same thread count (1 and 2) and batch size (1, 8 and 64 games).

The positions are the first 64 phases after 1903 of seeded random games played on both engines
with the same orders (42 movement, 20 adjustment and 2 retreat phases, with their histories),
made before the clock starts. One round encodes all 64 in calls of the batch size, so every row
covers the same mix of phases; ``extra_info["us_per_game"]`` is the median round over 64,
``best_us_per_game`` the fastest round's, ``cpu_us_per_game`` the median round's CPU time of the
whole process (every thread: the work, which a busy machine changes far less than the clock).
Both engines keep a game's possible orders once worked out (dipcc in its ``GameState``;
diplo's engine works them out anew in each call). torch's own intra-op threads are set to one
(they only fill dipcc's fresh tensors; left at the core count they spin against the pool's
threads). Run (a Python with torch; diplo from the checkout):

    DIPCC_SOURCES=/tmp/cicero PYTHONPATH=$PWD/python:/tmp/dipcc-torch-build \\
        /work/venv-torch/bin/python -m pytest benches/test_bench_dipcc_encode.py \\
        --benchmark-only --benchmark-columns=median,rounds -q
"""

from __future__ import annotations

import json
import os
import random
import time
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("GLOG_minloglevel", "2")

SEED = 0
VERSION = 3
BATCHES = (1, 8, 64)
THREADS = (1, 2)
ROUNDS = int(os.environ.get("DIPCC_ENCODE_ROUNDS", "15"))


def _vocabulary() -> dict[str, int]:
    sources = os.environ.get("DIPCC_SOURCES")
    if not sources:
        pytest.skip("DIPCC_SOURCES not set: Cicero's order vocabulary")
    path = Path(sources) / "fairdiplomacy" / "models" / "order_vocab_by_unit.json"
    by_unit = json.loads(path.read_text())
    ordered = [o for unit in sorted(by_unit) for o in sorted(by_unit[unit])]
    return {o: i for i, o in enumerate(ordered)}


def _positions(module: Any, n: int = 64) -> list[Any]:
    """``n`` phases after 1903 of seeded random games on ``module.Game`` (copies)."""
    out: list[Any] = []
    seed = SEED
    while len(out) < n:
        rng = random.Random(seed)
        game = module.Game()
        while not game.is_game_done and game.current_year <= 1912 and len(out) < n:
            if game.current_year > 1903:
                out.append(module.Game(game))
            possible = game.get_all_possible_orders()
            for power, locs in game.get_orderable_locations().items():
                game.set_orders(power, [rng.choice(possible[loc]) for loc in locs if possible[loc]])
            game.process()
        seed += 1
    return out


def _pool(engine: str, threads: int) -> tuple[Any, list[Any]]:
    vocabulary = _vocabulary()
    if engine == "dipcc":
        pytest.importorskip("torch", reason="no torch: dipcc's ThreadPool needs it")
        pydipcc = pytest.importorskip(
            "pydipcc", reason="dipcc's ThreadPool not built: tools/build_dipcc_torch.sh"
        )
        return pydipcc.ThreadPool(threads, vocabulary, 469), _positions(pydipcc)
    from diplo.compat import dipcc
    from diplo.compat.dipcc.encoding import ThreadPool

    return ThreadPool(threads, vocabulary, 469), _positions(dipcc)


def _time(benchmark: Any, engine: str, call: str, threads: int, batch: int) -> None:
    pool, positions = _pool(engine, threads)
    if engine == "dipcc":
        import torch

        torch.set_num_threads(1)
    run = getattr(pool, call)
    chunks = [positions[i : i + batch] for i in range(0, len(positions), batch)]

    cpu: list[float] = []

    def sweep() -> None:
        start = time.process_time()
        for games in chunks:
            run(games, VERSION)
        cpu.append(time.process_time() - start)

    sweep()  # possible orders worked out once, as dipcc keeps them
    benchmark.pedantic(sweep, rounds=ROUNDS, warmup_rounds=1)
    n = len(positions)
    benchmark.extra_info["us_per_game"] = benchmark.stats.stats.median * 1e6 / n
    benchmark.extra_info["best_us_per_game"] = benchmark.stats.stats.min * 1e6 / n
    # the CPU time of the whole process (every thread): the work, whatever else the machine runs
    benchmark.extra_info["cpu_us_per_game"] = sorted(cpu)[len(cpu) // 2] * 1e6 / n


@pytest.mark.benchmark(group="dipcc-encode-inputs")
@pytest.mark.parametrize("batch", BATCHES)
@pytest.mark.parametrize("threads", THREADS)
@pytest.mark.parametrize("engine", ["diplo-compat", "dipcc"])
def test_encode_inputs_multi(benchmark: Any, engine: str, threads: int, batch: int) -> None:
    _time(benchmark, engine, "encode_inputs_multi", threads, batch)


@pytest.mark.benchmark(group="dipcc-encode-all-powers")
@pytest.mark.parametrize("batch", BATCHES)
@pytest.mark.parametrize("threads", THREADS)
@pytest.mark.parametrize("engine", ["diplo-compat", "dipcc"])
def test_encode_inputs_all_powers_multi(
    benchmark: Any, engine: str, threads: int, batch: int
) -> None:
    _time(benchmark, engine, "encode_inputs_all_powers_multi", threads, batch)


@pytest.mark.benchmark(group="dipcc-encode-state-only")
@pytest.mark.parametrize("batch", BATCHES)
@pytest.mark.parametrize("threads", THREADS)
@pytest.mark.parametrize("engine", ["diplo-compat", "dipcc"])
def test_encode_inputs_state_only_multi(
    benchmark: Any, engine: str, threads: int, batch: int
) -> None:
    _time(benchmark, engine, "encode_inputs_state_only_multi", threads, batch)
