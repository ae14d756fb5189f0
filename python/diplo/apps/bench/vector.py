"""The ``vector`` workload: random play through the vectorised environment and its peers."""

from __future__ import annotations

import random
from types import ModuleType
from typing import Any

from ...model.map import Map
from .measure import BenchError, Engine
from .mila_api import code_selfplay_engine, mila_selfplay_engine


def vector_engines(
    seed: int,
    max_year: int,
    envs: int,
    fast: ModuleType,
    game_map: Map | None = None,
    mila: ModuleType | None = None,
    mila_map: str = "standard",
    max_orders: int = 512,
) -> list[Engine]:
    """The ``vector`` workload (module documentation): each run plays ``VECTOR_STEPS`` steps
    of ``envs`` games (``phases_played`` counted) or one PettingZoo / ``CodeGame`` / MILA game
    (MILA when ``mila`` is given, on ``mila_map``)."""
    from ...env import DiplomacyEnv, DiplomacyVectorEnv, EnvError, UniformPolicy

    policy = UniformPolicy()

    def vector(threads: int) -> Engine:
        # A fresh environment per run (made and reset outside the timer).
        def setup(r: int) -> tuple[Any, Any, Any]:
            env = DiplomacyVectorEnv(
                envs, game_map, max_year=max_year, threads=threads, max_orders=max_orders
            )
            try:
                return (env, *env.reset(seed=seed + r * envs))
            except EnvError as exc:
                raise BenchError(f"vector: {exc} (bench --max-orders)") from None

        def run(state: tuple[Any, Any, Any]) -> int:
            env, obs, infos = state
            phases = 0
            try:
                for _ in range(VECTOR_STEPS):
                    obs, _r, _t, _u, infos = env.step(policy(obs, infos, env.seeds))
                    phases += infos["phases_played"]
            except EnvError as exc:
                # A unit with more legal orders than the environments hold: say so plainly.
                raise BenchError(f"vector: {exc} (bench --max-orders)") from None
            return phases

        name = f"diplo-vector-{threads}thread" + ("s" if threads > 1 else "")
        return Engine(name, setup, run)

    def pz_setup(r: int) -> tuple[Any, Any, random.Random]:
        pz = DiplomacyEnv(game_map, max_year=max_year, max_orders=max_orders)
        return pz, pz.reset(seed=seed + r)[1], random.Random(seed + r)

    def pz_run(state: tuple[Any, Any, random.Random]) -> int:
        pz, infos, rng = state
        pick, width, phases = rng.randrange, pz.max_slots, 0
        while pz.agents:
            actions = {}
            for power in pz.agents:
                picks = [pick(k) for k in infos[power]["legal_counts"]]
                actions[power] = picks + [0] * (width - len(picks))
            _obs, _rewards, _term, _trunc, infos = pz.step(actions)
            phases += 1
        return phases

    engines = [
        vector(1),
        vector(2),
        Engine("diplo-env", pz_setup, pz_run),
        code_selfplay_engine(seed, max_year, fast, game_map),
    ]
    if mila is not None:
        # MILA's random self-play (the corpus bot of mila-api), so the ratio to MILA is read in
        # this table.
        engines.append(mila_selfplay_engine(seed, max_year, mila, mila_map=mila_map))
    return engines


def vector_work(
    seed: int,
    max_year: int,
    envs: int,
    game_map: Map | None = None,
    max_orders: int = 512,
) -> tuple[float, float]:
    """What one step of the ``vector`` workload has to do, untimed: the mean per game and
    phase, over the ``VECTOR_STEPS`` steps of its first round, of the slots with legal orders
    and of the legal orders those slots have (the counts each observation carries). On a
    bigger board both grow, and with them the step's cost."""
    from ...env import DiplomacyVectorEnv, UniformPolicy

    policy = UniformPolicy()
    env = DiplomacyVectorEnv(envs, game_map, max_year=max_year, max_orders=max_orders)
    obs, infos = env.reset(seed=seed)
    slots = orders = 0
    for _ in range(VECTOR_STEPS):
        counts = obs["legal_counts"]
        slots += int((counts > 0).sum())
        orders += int(counts.sum(dtype="int64"))
        obs, _r, _t, _u, infos = env.step(policy(obs, infos, env.seeds))
    env.close()
    phases = VECTOR_STEPS * envs
    return slots / phases, orders / phases


#: Steps of every game per run of a ``vector`` engine.
VECTOR_STEPS = 40
