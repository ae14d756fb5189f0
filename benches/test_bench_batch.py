"""batch: diplo.engine.codes.process_batch over BATCH_SIZE independent movement phases, on 1
thread and on 2 threads, the orders packed flat beforehand (skipped when diplo.engine.codes is
not built)."""

from __future__ import annotations

from typing import Any

import pytest

from diplo.apps import bench


@pytest.mark.benchmark(group="batch")
@pytest.mark.parametrize("engine", ["diplo-rust-1thread", "diplo-rust-2threads"])
def test_batch(time_engine: Any, batch_engines: list[bench.Engine], engine: str) -> None:
    time_engine(batch_engines, engine, 20)
