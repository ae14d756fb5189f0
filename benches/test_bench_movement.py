"""movement: full-board movement phases with random legal orders (validation, resolution, next
position); one call processes the PHASES prepared phases."""

from __future__ import annotations

from typing import Any

import pytest

from diplo.apps import bench


@pytest.mark.benchmark(group="movement")
@pytest.mark.parametrize("engine", bench.ENGINES)
def test_movement(time_engine: Any, movement_engines: list[bench.Engine], engine: str) -> None:
    time_engine(movement_engines, engine, 20)
