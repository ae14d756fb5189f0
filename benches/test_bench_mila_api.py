"""mila-api: the selfplay game played through MILA's ``Game`` API, on ``diplo.compat.mila.Game``
(``diplo-compat``) and on MILA itself; every round replays the game of SEED."""

from __future__ import annotations

from typing import Any

import pytest

from diplo.apps import bench


@pytest.mark.benchmark(group="mila-api")
@pytest.mark.parametrize("engine", ["diplo-compat", "mila"])
def test_mila_api(time_engine: Any, mila_api_engines: list[bench.Engine], engine: str) -> None:
    time_engine(mila_api_engines, engine, 10)
