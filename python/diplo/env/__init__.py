"""Multi-agent environments for learning bots: PettingZoo's parallel API (one game) and a
Gymnasium vector environment (N games stepped together in the Rust core), with the same
observations and the same games for the same actions.

Needs the ``env`` extra (``pip install ".[env]"``: PettingZoo, Gymnasium, NumPy). See
:mod:`diplo.env.parallel`, :mod:`diplo.env.vector` and ``docs/env.md``.
"""

from __future__ import annotations

try:
    from .parallel import DiplomacyEnv, EnvError, parallel_env
    from .policy import UniformPolicy, uniform_actions
    from .vector import DiplomacyVectorEnv
except ImportError as exc:  # pragma: no cover - depends on the installed extras
    raise ImportError(
        f'diplo.env needs PettingZoo, Gymnasium and NumPy: pip install ".[env]" ({exc})'
    ) from exc
from .encoding import BoardEncoder
from .reward import CentreReward, RewardFn

__all__ = [
    "BoardEncoder",
    "CentreReward",
    "DiplomacyEnv",
    "DiplomacyVectorEnv",
    "EnvError",
    "RewardFn",
    "UniformPolicy",
    "parallel_env",
    "uniform_actions",
]
