"""env: random agents on diplo.env.DiplomacyEnv, whole games from S1901 to the end of 1915,
beside the same random play straight on the code API (what the environment adds).

``extra_info["phases_per_call"]`` holds the phases played per call; phases per second is that
divided by the median. The target on the 2-core development machine is 10,000 phases per second
for the environment (docs/env.md)."""

from __future__ import annotations

import random
from typing import Any

import pytest

pytest.importorskip("pettingzoo", reason='diplo.env needs pip install ".[env]"')

from diplo.engine.codes import CodeGame
from diplo.env import DiplomacyEnv

GAMES = 3
MAX_YEAR = 1915


def _env_games() -> int:
    env = DiplomacyEnv(max_year=MAX_YEAR)
    rnd = random.Random(0).random
    pad = [0] * env.max_slots
    phases = 0
    for _ in range(GAMES):
        _obs, infos = env.reset()
        while env.agents:
            actions = {}
            for agent in env.agents:
                counts = infos[agent]["legal_counts"]
                actions[agent] = [int(rnd() * k) for k in counts] + pad[len(counts) :]
            _obs, _rew, _term, _trunc, infos = env.step(actions)
            phases += 1
    return phases


def _fast_games() -> int:
    phases = 0
    for seed in range(GAMES):
        game, rng = CodeGame(max_year=MAX_YEAR), random.Random(seed)
        while not game.is_over:
            game.set_orders([rng.choice(options) for options in game.legal_orders()])
            game.process()
            phases += 1
    return phases


@pytest.mark.benchmark(group="env")
@pytest.mark.parametrize("engine", ["diplo-env", "diplo-rust"])
def test_env_random_agents(benchmark: Any, engine: str) -> None:
    run = _env_games if engine == "diplo-env" else _fast_games
    phases = benchmark(run)
    benchmark.extra_info["phases_per_call"] = phases
    benchmark.extra_info["phases_per_second"] = phases / benchmark.stats.stats.median
