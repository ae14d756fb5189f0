"""DeepMind's ``DiplomacyState`` protocol (``environment/diplomacy_state.py`` of
github.com/deepmind/diplomacy) for one game on the engine: a
:class:`~diplo.env.deepmind.batched.BatchedDiplomacyState` of one game, read as their protocol
asks. The formats, the refusals and the game are those of
:class:`~diplo.env.deepmind.state.ReferenceDiplomacyState` (the Python reference it is tested
against, step by step); the observation, the legal actions and the checks of a step are made by
the engine (``rust/src/engine/deepmind.rs``).
"""

from __future__ import annotations

from typing import Any

from ...api.game import GameOverError
from ...engine.codes import CodeGame
from ...model.position import Position
from ...model.rules import Rules
from .batched import BatchedDiplomacyState
from .state import Observation, Season

__all__ = ["DiplomacyState"]

#: The most actions a power may give in one step (their ``MAX_ACTIONS``, 34 units).
MAX_ORDERS = 34
#: Their seasons by value (a tuple index is quicker than the enum's lookup).
_SEASONS = tuple(Season)


class DiplomacyState:
    """DeepMind's ``DiplomacyState`` on the engine (the standard map; ``position`` and
    ``max_year`` as :class:`CodeGame` takes them; ``rules`` or ``edition`` the ruling, by
    default the position's: the standard map's DATC rulings without one, ``docs/deepmind.md``).

    ``step`` refuses bad input with a ``ValueError`` naming the power and the action, leaving
    the state as it was; a ``step`` after the end raises :class:`~diplo.api.game.GameOverError`.
    ``returns()`` is all zeros while the game runs; at the end 1 to a solo winner (0 to the
    others), or without a winner 1 shared equally by the powers still owning centres.
    """

    def __init__(
        self,
        position: Position | None = None,
        max_year: int | None = None,
        *,
        rules: Rules | None = None,
        edition: str | None = None,
    ) -> None:
        self._one = BatchedDiplomacyState(
            1, position, max_year, rules=rules, edition=edition, max_orders=MAX_ORDERS
        )
        self.powers: tuple[str, ...] = self._one.powers
        self._one.reset()

    @property
    def game(self) -> CodeGame:
        """A copy of the game (read it; changing it leaves this state as it is)."""
        return self._one.game(0)

    @property
    def rules(self) -> Rules:
        """The rules the game is ruled by."""
        return self._one.rules

    def is_terminal(self) -> bool:
        return bool(self._one.terminated[0] or self._one.truncated[0])

    def legal_actions(self) -> list[list[int]]:
        """Seven lists, one per power alphabetically: every action legal now for its units
        (builds and a waive in a build phase); ``[]`` for a power with nothing to order."""
        return self._one.legal_actions_of(0)

    def observation(self) -> Observation:
        one = self._one
        return Observation(
            season=_SEASONS[one.season[0]],
            board=one.board[0].copy(),
            build_numbers=one.build_numbers[0].copy(),
            last_actions=one.last_actions[0, : one.last_counts[0]].tolist(),
        )

    def returns(self) -> Any:
        return self._one.returns[0].copy()

    def step(self, actions_per_player: Any) -> None:
        """Gives every power's actions (seven lists, alphabetically) and processes one phase.
        Raises ``ValueError`` (nothing changed) for a wrong shape or an action that is not a
        legal one of that power's units, :class:`GameOverError` once the game is over."""
        if self.is_terminal():
            raise GameOverError("the game is over: step after the end")
        try:
            self._one.step_lists([actions_per_player])
        except ValueError as exc:
            raise ValueError(str(exc).removeprefix("game 0: ")) from None
