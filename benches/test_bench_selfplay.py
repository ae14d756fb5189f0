"""selfplay: one whole random self-play game from S1901 to the end of MAX_YEAR (legal orders,
random choice, submission, processing, every phase type); every round replays the game of SEED."""

from __future__ import annotations

from typing import Any

import pytest

from diplo.apps import bench


@pytest.mark.benchmark(group="selfplay")
@pytest.mark.parametrize("engine", bench.ENGINES)
def test_selfplay(time_engine: Any, selfplay_engines: list[bench.Engine], engine: str) -> None:
    time_engine(selfplay_engines, engine, 10)
