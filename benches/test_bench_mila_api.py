"""mila-api: the selfplay game played through MILA's ``Game`` API, on ``diplo.compat.mila.Game``
(``diplo-compat``), on MILA itself, and on ``api-floor`` (the drop-in's phases recorded and handed
out with no rule applied: the bound on any implementation's ratio); every round replays the game
of SEED."""

from __future__ import annotations

from typing import Any

import pytest

from diplo.apps import bench


@pytest.mark.benchmark(group="mila-api")
@pytest.mark.parametrize("engine", ["diplo-compat", "mila", "api-floor"])
def test_mila_api(time_engine: Any, mila_api_engines: list[bench.Engine], engine: str) -> None:
    time_engine(mila_api_engines, engine, 10)


def _ten_years(module: Any) -> Any:
    """A game of ``module.Game`` played by the corpus bot from 1901 to the end of 1910."""
    import random

    game = module.Game()
    rng = random.Random(SEED_OF_COPY)
    while not game.is_game_done and int(game.get_current_phase()[1:5]) <= 1910:
        possible = game.get_all_possible_orders()
        for power, locs in sorted(game.get_orderable_locations().items()):
            game.set_orders(
                power, [rng.choice(sorted(possible[loc])) for loc in sorted(locs) if possible[loc]]
            )
        game.process()
    return game


SEED_OF_COPY = 1


@pytest.mark.benchmark(group="mila-copy")
@pytest.mark.parametrize("engine", ["diplo-compat", "mila"])
def test_mila_deepcopy(benchmark: Any, engine: str) -> None:
    # copy.deepcopy of a game with ten years of history (search bots fork games so).
    import copy
    import importlib

    module = importlib.import_module(
        "diplo.compat.mila" if engine == "diplo-compat" else "diplomacy"
    )
    game = _ten_years(module)
    benchmark(copy.deepcopy, game)
