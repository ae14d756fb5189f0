"""The ``deepmind`` workload: DeepMind's ``DiplomacyState`` protocol (their agents' environment,
``docs/deepmind.md``) per phase: ``observation()``, ``legal_actions()`` and ``step()``.

Engines, all playing random games to ``max_year`` with one random legal action per unit (the
same picker for all, its time taken off, :class:`~.measure.RunCheck`):

``diplo-single``
    :class:`diplo.env.deepmind.DiplomacyState`, one game on the engine.
``diplo-single-python``
    :class:`diplo.env.deepmind.ReferenceDiplomacyState`, the Python reference over a
    ``CodeGame`` (the observation and the legal actions built in Python).
``diplo-batched-1thread``, ``diplo-batched-2threads``
    :class:`diplo.env.deepmind.batched.BatchedDiplomacyState` of ``--deepmind-games`` games on
    1 and 2 threads: one ``step`` call fills every game's observation and legal actions (their
    arrays); µs per phase is per game.
``mila-deepmind``
    The baseline: the protocol written on MILA (PyPI ``diplomacy``) the straightforward way
    (:class:`MilaDiplomacyState`): the observation built from ``get_state()``, the legal actions
    from ``get_all_possible_orders()`` through DeepMind's own ``mila_actions`` (their code, from
    the snapshot ``DIPLO_DEEPMIND`` names, by default ``../shared/deepmind-diplomacy`` beside the
    checkout). Left out, with a line saying why, without MILA or the snapshot.

Asked for by name (``diplo bench --workloads deepmind``).
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

from .measure import Engine, RunCheck

#: Steps of the batched engines per run (every game restarted as it ends).
DEEPMIND_STEPS = 20
#: The waive's order code (bits 0-7 of their action), which names no unit.
_WAIVE = 13


def snapshot_path() -> Path:
    """Where DeepMind's code is: ``DIPLO_DEEPMIND``, else ``../shared/deepmind-diplomacy``
    beside the checkout when diplo runs from its source tree (``python/diplo``), else
    ``../shared/deepmind-diplomacy`` from the current directory (an installed diplo lives in
    the environment's ``site-packages``, which is beside nothing of the user's)."""
    named = os.environ.get("DIPLO_DEEPMIND")
    if named:
        return Path(named)
    beside = Path("shared") / "deepmind-diplomacy"
    package = Path(__file__).resolve().parents[2]  # .../diplo
    if package.parent.name == "python" and (package.parents[1] / "pyproject.toml").is_file():
        return package.parents[2] / beside
    return Path.cwd().parent / beside


def pick(legal: Sequence[Sequence[int]], rng: random.Random) -> list[list[int]]:
    """One random action per ordered province of each power (their actions name the province
    in bits 8-15; a build phase's waives are one more choice), the picker of every engine."""
    out = []
    for actions in legal:
        groups: dict[int, list[int]] = {}
        for a in actions:
            key = -1 if a & 0xFF == _WAIVE else (a >> 9) & 0x7F
            groups.setdefault(key, []).append(a)
        out.append([rng.choice(group) for group in groups.values()])
    return out


class _Run:
    """One run's state: what it plays and the seconds spent picking (taken off its time)."""

    def __init__(self, state: Any, rng: random.Random) -> None:
        self.state = state
        self.rng = rng
        self.untimed = 0.0
        self.phases = 0


def _check(run: _Run) -> RunCheck:
    return RunCheck(digest="", untimed=run.untimed)


def _one_game_engine(name: str, make: Any, seed: int) -> Engine:
    """A one-game state's engine: per phase ``observation()``, ``legal_actions()``, ``step()``."""
    clock = time.perf_counter

    def run(work: _Run) -> int:
        state, phases = work.state, 0
        while not state.is_terminal():
            state.observation()
            legal = state.legal_actions()
            t = clock()
            actions = pick(legal, work.rng)
            work.untimed += clock() - t
            state.step(actions)
            phases += 1
        return phases

    return Engine(name, lambda r: _Run(make(), random.Random(seed + r)), run, _check)


def _batched_engine(threads: int, games: int, seed: int, max_year: int) -> Engine:
    from ...env.deepmind.batched import BatchedDiplomacyState

    clock = time.perf_counter

    def setup(r: int) -> _Run:
        state = BatchedDiplomacyState(games, max_year=max_year, threads=threads)
        state.reset()
        return _Run(state, random.Random(seed + r))

    def run(work: _Run) -> int:
        state, phases = work.state, 0
        for _ in range(DEEPMIND_STEPS):
            t = clock()
            chosen = [pick(state.legal_actions_of(i), work.rng) for i in range(games)]
            actions = state.actions_array(chosen)
            work.untimed += clock() - t
            phases += state.step(actions)
        return phases

    name = f"diplo-batched-{threads}thread" + ("s" if threads > 1 else "")
    return Engine(name, setup, run, _check)


def deepmind_engines(
    seed: int, max_year: int, games: int, mila: ModuleType | None
) -> tuple[list[Engine], list[str]]:
    """The workload's engines, and a line for each one left out (why)."""
    from ...env.deepmind import DiplomacyState, ReferenceDiplomacyState

    engines = [
        _one_game_engine("diplo-single", lambda: DiplomacyState(max_year=max_year), seed),
        _one_game_engine(
            "diplo-single-python", lambda: ReferenceDiplomacyState(max_year=max_year), seed
        ),
        _batched_engine(1, games, seed, max_year),
        _batched_engine(2, games, seed, max_year),
    ]
    notes: list[str] = []
    path = snapshot_path()
    if mila is None:
        notes.append("deepmind: mila-deepmind omitted: MILA (PyPI diplomacy) is not installed")
    elif not (path / "environment" / "mila_actions.py").is_file():
        notes.append(
            f"deepmind: mila-deepmind omitted: no DeepMind snapshot at {path} (DIPLO_DEEPMIND=PATH)"
        )
    else:
        from ...env.deepmind.agents import load_their_environment
        from .deepmind_mila import MilaDiplomacyState

        theirs = load_their_environment(path)
        engines.append(
            _one_game_engine(
                "mila-deepmind", lambda: MilaDiplomacyState(mila, theirs, max_year), seed
            )
        )
    return engines, notes
