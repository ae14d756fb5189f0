"""Self-play at scale: many games from seeds, on a process pool or on Ray.

:func:`run_rollouts` plays games on the code API (:mod:`diplo.engine.codes`), writes each as a game
file (:mod:`diplo.formats.gamefile`) and one summary table (Parquet and CSV). The same seeds give
the same games, byte for byte, whatever the backend and the number of workers. ``diplo rollouts`` is
the command line (:mod:`diplo.rollouts.cli`).
"""

from __future__ import annotations

from .play import GameTask, PlayedGame, RolloutError, file_name, game_id, play_batch, replay
from .policy import CodePolicy, OrderPolicy, PolicyError, RandomPolicy
from .run import DEFAULT_BATCH, DEFAULT_MAX_YEAR, RolloutReport, run_rollouts

__all__ = [
    "DEFAULT_BATCH",
    "DEFAULT_MAX_YEAR",
    "CodePolicy",
    "GameTask",
    "OrderPolicy",
    "PlayedGame",
    "PolicyError",
    "RandomPolicy",
    "RolloutError",
    "RolloutReport",
    "file_name",
    "game_id",
    "play_batch",
    "replay",
    "run_rollouts",
]
