"""The inputs of the benchmarks, prepared once per session and never timed.

The workloads and engines are those of ``diplo bench`` (:mod:`diplo.bench`); these files only
hand them to pytest-benchmark. Run with ``pytest benches --benchmark-only`` (see README.md).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from types import ModuleType

import pytest
from pytest_benchmark.fixture import BenchmarkFixture

from diplo.apps import bench

SEED = 0
PHASES = 40  # full-board movement phases per call of the movement and batch engines
MAX_YEAR = 1915  # self-play games run from S1901 to the end of this year
BATCH_SIZE = 1000  # phases per process_batch call
THREADS = (1, 2)

TimeEngine = Callable[[Sequence[bench.Engine], str, int], None]


@pytest.fixture(scope="session")
def fast() -> ModuleType | None:
    return bench.codes_module()


@pytest.fixture(scope="session")
def mila() -> ModuleType | None:
    return bench.mila_module()


@pytest.fixture(scope="session")
def movement_phases() -> list[bench.MovementPhase]:
    return bench.prepare_movement_phases(PHASES, SEED)


@pytest.fixture(scope="session")
def movement_engines(
    movement_phases: list[bench.MovementPhase], fast: ModuleType | None, mila: ModuleType | None
) -> list[bench.Engine]:
    return bench.movement_engines(movement_phases, bench.ENGINES, fast, mila)


@pytest.fixture(scope="session")
def selfplay_engines(fast: ModuleType | None, mila: ModuleType | None) -> list[bench.Engine]:
    return bench.selfplay_engines(SEED, MAX_YEAR, bench.ENGINES, fast, mila)


@pytest.fixture(scope="session")
def mila_api_engines(mila: ModuleType | None) -> list[bench.Engine]:
    return bench.mila_api_engines(SEED, MAX_YEAR, bench.ENGINES, mila)


@pytest.fixture(scope="session")
def batch_engines(
    movement_phases: list[bench.MovementPhase], fast: ModuleType | None
) -> list[bench.Engine]:
    if fast is None:
        pytest.skip("diplo.engine.codes is not built")
    return bench.batch_engines(movement_phases, BATCH_SIZE, fast, THREADS)


@pytest.fixture
def time_engine(benchmark: BenchmarkFixture) -> TimeEngine:
    """Time one engine: every round on the same input (``setup(0)``), built before the clock
    starts; ``extra_info`` records the phases per call and the median µs per phase."""

    def run(engines: Sequence[bench.Engine], name: str, rounds: int) -> None:
        engine = next((e for e in engines if e.name == name), None)
        if engine is None:
            pytest.skip(
                f"{name} cannot run here (mila needs the 'compare' extra; "
                "diplo-rust-objects is only reported beside diplo.engine.codes)"
            )
        phases: list[int] = []

        def setup() -> tuple[tuple[object], dict[str, object]]:
            return (engine.setup(0),), {}

        def target(work: object) -> None:
            phases.append(engine.run(work))

        benchmark.pedantic(target, setup=setup, rounds=rounds, iterations=1, warmup_rounds=1)
        benchmark.extra_info["phases_per_call"] = phases[-1]
        if benchmark.stats is not None:
            median = benchmark.stats.stats.median
            benchmark.extra_info["us_per_phase"] = round(median * 1e6 / phases[-1], 3)

    return run
