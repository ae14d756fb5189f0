"""A standard multi-agent environment for learning bots: PettingZoo's parallel API.

Needs the ``env`` extra (``pip install "diplo[env]"``: PettingZoo, Gymnasium, NumPy). See
:mod:`diplo.env.parallel` and ``docs/env.md``.
"""

from __future__ import annotations

try:
    from .parallel import DiplomacyEnv, EnvError, parallel_env
except ImportError as exc:  # pragma: no cover - depends on the installed extras
    raise ImportError(
        f'diplo.env needs PettingZoo, Gymnasium and NumPy: pip install "diplo[env]" ({exc})'
    ) from exc
from .encoding import BoardEncoder
from .reward import CentreReward, RewardFn

__all__ = ["BoardEncoder", "CentreReward", "DiplomacyEnv", "EnvError", "RewardFn", "parallel_env"]
