"""Rewards of :class:`diplo.env.DiplomacyEnv`: a callable per step, swappable.

A reward function is called after every step as ``reward(before, after, over, winner)`` with
the supply-centre counts per power before and after the step (every power of the map), whether
the game is now over, and the solo winner (or ``None``); it returns a reward per power.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

__all__ = ["CentreReward", "RewardFn"]


class RewardFn(Protocol):
    def __call__(
        self,
        before: Mapping[str, int],
        after: Mapping[str, int],
        over: bool,
        winner: str | None,
    ) -> dict[str, float]: ...


class CentreReward:
    """The default: the change in the power's supply centres at every step, and at the end the
    game result: ``win`` to the solo winner, or ``draw`` shared equally by the powers still
    owning centres when the game ends without a winner (at the year limit)."""

    def __init__(self, win: float = 10.0, draw: float = 10.0) -> None:
        self.win = float(win)
        self.draw = float(draw)

    def __call__(
        self,
        before: Mapping[str, int],
        after: Mapping[str, int],
        over: bool,
        winner: str | None,
    ) -> dict[str, float]:
        out = {p: float(after[p] - before[p]) for p in after}
        if over:
            if winner is not None:
                out[winner] += self.win
            else:
                alive = [p for p, n in after.items() if n > 0]
                for p in alive:
                    out[p] += self.draw / len(alive)
        return out

    def __repr__(self) -> str:
        return f"CentreReward(win={self.win}, draw={self.draw})"
