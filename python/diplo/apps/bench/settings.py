"""What ``diplo bench`` can be asked to run: the workloads, their reference engines, the
settings."""

from __future__ import annotations

from dataclasses import dataclass

from .engines import ENGINES

WORKLOADS = (
    "movement",
    "strings",
    "selfplay",
    "mila-api",
    "mila-calls",
    "jsonl",
    "batch",
    "vector",
    "rollouts",
    "deepmind",
)
#: The workloads run when none is named (``rollouts`` starts worker processes, ``mila-calls``
#: takes MILA's slow calls a phase at a time, ``deepmind`` needs DeepMind's code for its
#: baseline: asked for only).
DEFAULT_WORKLOADS = tuple(w for w in WORKLOADS if w not in ("rollouts", "mila-calls", "deepmind"))


#: The engine the others are compared with, per workload (the ``÷`` column and ``ratios``).
REFERENCE = {
    "movement": "diplo-rust",
    "strings": "diplo-rust-objects",
    "jsonl": "diplo-rust-objects",
    "selfplay": "diplo-rust",
    "batch": "diplo-rust-2threads",
    "mila-api": "diplo-compat",
    "mila-calls": "diplo-compat",
    "rollouts": "diplo-rust",
    "vector": "diplo-env",
    "deepmind": "diplo-single",
}


DESCRIPTIONS = {
    "movement": "full-board movement phases: validation, resolution, next position",
    "strings": "the movement phases as canonical order strings, results with reasons read out",
    "selfplay": "random self-play, every phase: legal orders, random choice, submit, process",
    "jsonl": "diplo adjudicate --jsonl: movement documents in, ruling documents out",
    "batch": "diplo.engine.codes.process_batch over independent movement phases",
    "mila-api": "random self-play through MILA's Game API: diplo.compat.mila.Game and MILA",
    "mila-calls": "each call an LLM harness makes per phase, diplo.compat.mila.Game and MILA on "
    "the same states, and the harness's loop with no model",
    "rollouts": "diplo rollouts on 2 workers (game files; dataset only) and the plain CodeGame "
    "loop on 1 core (µs per game per core)",
    "vector": "random play through the vectorised environment, the PettingZoo env, CodeGame",
    "deepmind": "DeepMind's DiplomacyState per phase: observation(), legal_actions(), step(); "
    "one game, batched, and on MILA",
}


@dataclass(frozen=True)
class Settings:
    workloads: tuple[str, ...] = DEFAULT_WORKLOADS
    engines: tuple[str, ...] = ENGINES
    seed: int = 0
    games: int = 30
    phases: int = 40
    rounds: int = 30
    batch_size: int = 1000
    #: Games of the ``vector`` workload's environment.
    vector_envs: int = 256
    #: The environments' ``max_orders`` (the vector workload): a big map's unit may have more
    #: legal orders than the default 512 (twentytwenty's Arctic fleet 559).
    max_orders: int = 512
    max_year: int = 1915
    #: A shipped map's name or a map file (``--map``); ``None``: the standard map.
    map: str | None = None
    #: Commands speaking the JSON contract in --jsonl mode, timed on the movement workload.
    external: tuple[str, ...] = ()
    #: The rollouts workload: games per engine and round, and rounds.
    rollout_games: int = 1000
    rollout_rounds: int = 3
    #: The mila-calls workload's rounds (one recorded game replayed per round, three at most).
    call_rounds: int = 4
    #: Games of the deepmind workload's batched state.
    deepmind_games: int = 64
