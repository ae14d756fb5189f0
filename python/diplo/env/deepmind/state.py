"""DeepMind's ``DiplomacyState`` protocol (``environment/diplomacy_state.py`` of
github.com/deepmind/diplomacy) written in Python on a diplo :class:`~diplo.engine.codes.CodeGame`:
:class:`ReferenceDiplomacyState`, the readable reference the engine's form
(:class:`diplo.env.deepmind.DiplomacyState`, :mod:`diplo.env.deepmind.single`, and the batched
one) is tested against, with their formats (:class:`Season`, :class:`Observation`) and the
checks of a step's arguments both forms make (:func:`action_lists`).

Powers are always in alphabetical order (Austria, England, France, Germany, Italy, Russia,
Turkey), as their agents expect. ``observation()`` follows ``observation_utils.py`` and their
README: a board of 81 areas x 35 features, the season, the ``build_numbers`` (with their quirk:
outside a build phase the removals of the last build phase stay, the builds are zeroed) and the
actions of the last step, flattened.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from functools import cache
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from ...api.game import GameOverError
from ...engine.codes import CodeGame, decode_order, encode_order
from ...model.map import Map, standard_map
from ...model.orders import Order, Waive
from ...model.position import Position
from ...model.rules import EDITIONS, Rules
from .actions import (
    AREAS,
    ActionError,
    action_of_order,
    as_action,
    order_of_action,
    possible_actions,
)

NUM_POWERS = 7
NUM_AREAS = 81
PROVINCE_VECTOR_LENGTH = 35

# Feature offsets of an area's vector (observation_utils.py).
UNIT_ARMY, UNIT_FLEET, UNIT_ABSENT, UNIT_POWER_START = 0, 1, 2, 3
BUILDABLE, REMOVABLE = 11, 12
DISLODGED_ARMY, DISLODGED_FLEET, DISLODGED_ABSENT, DISLODGED_POWER_START = 13, 14, 15, 16
AREA_LAND, AREA_SEA, AREA_COAST = 24, 25, 26
SC_POWER_START = 27
_NO_POWER = NUM_POWERS  # the 8th flag of an owner block
#: The waive's order code (bits 0-7 of their action).
WAIVE = 13


class Season(enum.IntEnum):
    """Their ``observation_utils.Season`` (same values)."""

    SPRING_MOVES = 0
    SPRING_RETREATS = 1
    AUTUMN_MOVES = 2
    AUTUMN_RETREATS = 3
    BUILDS = 4

    def is_moves(self) -> bool:
        return self in (Season.SPRING_MOVES, Season.AUTUMN_MOVES)

    def is_retreats(self) -> bool:
        return self in (Season.SPRING_RETREATS, Season.AUTUMN_RETREATS)

    def is_builds(self) -> bool:
        return self is Season.BUILDS


class Observation(NamedTuple):
    """Their ``observation_utils.Observation``."""

    season: Season
    board: npt.NDArray[np.float32]
    build_numbers: npt.NDArray[np.int64]
    last_actions: list[int]


_SEASONS = {
    ("S", "M"): Season.SPRING_MOVES,
    ("S", "R"): Season.SPRING_RETREATS,
    ("F", "M"): Season.AUTUMN_MOVES,
    ("F", "R"): Season.AUTUMN_RETREATS,
    ("W", "A"): Season.BUILDS,
}


def season_of(position: Position) -> Season:
    """Their season of a position's phase."""
    return _SEASONS[(position.phase.season, position.phase.kind)]


def _areas_by_province() -> dict[str, list[int]]:
    out: dict[str, list[int]] = {}
    for i, loc in enumerate(AREAS):
        out.setdefault(loc.split("/", 1)[0], []).append(i)
    return out


_AREA_ID = {loc: i for i, loc in enumerate(AREAS)}
_PROVINCE_AREAS = _areas_by_province()


def build_numbers(position: Position, powers: Sequence[str]) -> list[int]:
    """Per power, in a build phase, how many units it may really build (at most its vacant
    owned home centres) or, negative, how many it must remove; 0 outside a build phase."""
    if position.phase.kind != "A":
        return [0] * len(powers)
    out = []
    for power in powers:
        delta = len(position.centers_of(power)) - len(position.units_of(power))
        if delta > 0:
            vacant = [
                h
                for h in position.map.homes[power]
                if position.centers.get(h) == power and h not in position.units
            ]
            delta = min(delta, len(vacant))
        out.append(delta)
    return out


def _unit_areas(loc: str, game_map: Map) -> list[int]:
    """The areas a unit at ``loc`` marks: its province's main area, and its coast's."""
    areas = [_AREA_ID[game_map.province_of(loc)]]
    if loc != game_map.province_of(loc):
        areas.append(_AREA_ID[loc])
    return areas


def board_of(position: Position, powers: Sequence[str], numbers: Sequence[int]) -> Any:
    """Their board (``NUM_AREAS x PROVINCE_VECTOR_LENGTH`` float32) of a position; ``numbers``
    are the build numbers of the phase (which powers' centres are buildable, whose units
    removable)."""
    game_map = position.map
    index = {p: i for i, p in enumerate(powers)}
    board = np.zeros((NUM_AREAS, PROVINCE_VECTOR_LENGTH), dtype=np.float32)
    board[:, UNIT_ABSENT] = 1.0
    board[:, UNIT_POWER_START + _NO_POWER] = 1.0
    board[:, DISLODGED_ABSENT] = 1.0
    board[:, DISLODGED_POWER_START + _NO_POWER] = 1.0
    for area, loc in enumerate(AREAS):
        if "/" in loc:
            board[area, AREA_COAST] = 1.0
        elif game_map.is_sea(loc):
            board[area, AREA_SEA] = 1.0
        else:
            board[area, AREA_LAND] = 1.0
    for piece in position.units.values():
        for area in _unit_areas(piece.loc, game_map):
            board[area, UNIT_ABSENT] = board[area, UNIT_POWER_START + _NO_POWER] = 0.0
            board[area, UNIT_ARMY if piece.type == "A" else UNIT_FLEET] = 1.0
            board[area, UNIT_POWER_START + index[piece.power]] = 1.0
            if position.phase.kind == "A" and numbers[index[piece.power]] < 0:
                board[area, REMOVABLE] = 1.0
    for dislodged in position.dislodged.values():
        piece = dislodged.piece
        for area in _unit_areas(piece.loc, game_map):
            board[area, DISLODGED_ABSENT] = board[area, DISLODGED_POWER_START + _NO_POWER] = 0.0
            board[area, DISLODGED_ARMY if piece.type == "A" else DISLODGED_FLEET] = 1.0
            board[area, DISLODGED_POWER_START + index[piece.power]] = 1.0
    for province in sorted(game_map.centers):
        owner = position.centers.get(province)
        flag = SC_POWER_START + (index[owner] if owner is not None else _NO_POWER)
        for area in _PROVINCE_AREAS[province]:
            board[area, flag] = 1.0
    if position.phase.kind == "A":
        for power, n in zip(powers, numbers, strict=True):
            if n <= 0:
                continue
            for home in game_map.homes[power]:
                if position.centers.get(home) == power and home not in position.units:
                    for area in _PROVINCE_AREAS[home]:
                        board[area, BUILDABLE] = 1.0
    return board


def start_position(
    position: Position | None, rules: Rules | None, edition: str | None
) -> Position | None:
    """The position a state starts from: ``position`` (default: the standard map's start) under
    ``rules``, or under its own rules with their edition set to ``edition`` (the options the
    edition ties replaced by the edition's, the others kept); ``None`` when neither is given
    (``position`` as it is). A ``TypeError`` or ``ValueError`` names a bad value, giving both
    is refused: nothing is made."""
    if rules is None and edition is None:
        return position
    if rules is not None and edition is not None:
        raise ValueError(
            "give rules= or edition=, not both (a Rules object names its own edition: "
            f"Rules(edition={edition!r}, ...))"
        )
    if position is not None and not isinstance(position, Position):
        raise TypeError(
            f"position must be a diplo.model.position.Position, got {type(position).__name__}"
        )
    base = Position.initial(standard_map()) if position is None else position
    if edition is not None:
        if not isinstance(edition, str) or edition not in EDITIONS:
            raise ValueError(
                f"edition must be one of {', '.join(map(repr, EDITIONS))}, got {edition!r}"
            )
        rules = Rules.from_json({"edition": edition}, base.rules)
    elif not isinstance(rules, Rules):
        raise TypeError(f"rules must be a diplo.model.rules.Rules, got {type(rules).__name__}")
    return base.with_changes(rules=rules, where="DiplomacyState")


def _as_int(action: object) -> int | None:
    """An action as a plain int (a NumPy integer too), or ``None`` for anything else (a bool,
    a float such as NaN, a string): :func:`~diplo.env.deepmind.actions.as_action`."""
    try:
        return as_action(action)
    except ActionError:
        return None


def action_lists(actions_per_player: object, powers: Sequence[str]) -> list[list[int]]:
    """A step's argument as seven lists of plain ints, or a ``ValueError`` naming what is
    wrong: not seven lists (one per power), a list that is no list, an action that is no int
    (a float such as NaN, a bool, a string, ``None``; the power and the action named)."""
    if isinstance(actions_per_player, str | bytes) or not isinstance(
        actions_per_player, Sequence | np.ndarray
    ):
        raise ValueError(
            f"step takes {NUM_POWERS} lists of actions (one per power), "
            f"got {type(actions_per_player).__name__}"
        )
    if len(actions_per_player) != NUM_POWERS:
        raise ValueError(
            f"step takes {NUM_POWERS} lists of actions (one per power: "
            f"{', '.join(powers)}), got {len(actions_per_player)}"
        )
    out: list[list[int]] = []
    for power, actions in zip(powers, actions_per_player, strict=True):
        if type(actions) is list and all([type(a) is int for a in actions]):
            out.append(actions)  # the common case: plain ints (read, never changed)
            continue
        if isinstance(actions, str | bytes) or not isinstance(actions, Sequence | np.ndarray):
            raise ValueError(f"{power}: expected a list of actions, got {actions!r}")
        mine: list[int] = []
        for raw in actions:
            action = _as_int(raw)
            if action is None:
                raise ValueError(f"{power}: action {raw!r} is not an int")
            mine.append(action)
        out.append(mine)
    return out


class ReferenceDiplomacyState:
    """DeepMind's ``DiplomacyState`` in Python on a :class:`CodeGame` (the standard map;
    ``position`` and ``max_year`` as :class:`CodeGame` takes them; ``rules`` or ``edition``
    the ruling, :func:`start_position`: by default the position's, the standard map's DATC
    rulings without one).

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
        self._game = CodeGame(start_position(position, rules, edition), max_year)
        self.powers: tuple[str, ...] = tuple(sorted(self._game.map.powers))
        if len(self.powers) != NUM_POWERS or set(self._game.map.locations) != set(AREAS):
            raise ValueError("DiplomacyState needs the standard map (7 powers, DeepMind's areas)")
        self._last_actions: list[int] = []
        self._numbers: list[int] = [0] * NUM_POWERS  # of the last build phase
        self._legal: list[dict[int, int]] | None = None

    @property
    def game(self) -> CodeGame:
        """The game underneath (read it; stepping it directly bypasses this state)."""
        return self._game

    @property
    def rules(self) -> Rules:
        """The rules the game is ruled by."""
        return self._game.rules

    def is_terminal(self) -> bool:
        return self._game.is_over

    def _legal_codes(self) -> list[dict[int, int]]:
        """Per power, its legal actions in diplo's listing order (first seen kept), each with
        the first legal code that names it."""
        if self._legal is None:
            game = self._game
            position = game.position()
            kind = position.phase.kind
            index = {p: i for i, p in enumerate(self.powers)}
            legal: list[dict[int, int]] = [{} for _ in self.powers]
            # As MILA's possible orders list them (DeepMind's actions are their conversion):
            # under MILA's edition, no support it takes but does not list.
            for (power, _), codes in zip(game.slots(), game.listed_orders(), strict=True):
                for code in codes:
                    order = decode_order(code, game.map, position)
                    legal[index[power]].setdefault(action_of_order(order, game.map, kind), code)
            if kind == "A":
                # A power owed builds with no site to build on lists nothing: its only legal
                # order, the waive, changes nothing (DeepMind's conversion of MILA's possible
                # orders gives it no action); one convention under every edition.
                legal = [{} if all(a & 0xFF == WAIVE for a in mine) else mine for mine in legal]
            self._legal = legal
        return self._legal

    def legal_actions(self) -> list[list[int]]:
        """Seven lists, one per power alphabetically: every action legal now for its units
        (builds and a waive in a build phase); ``[]`` for a power with nothing to order."""
        return [list(actions) for actions in self._legal_codes()]

    def observation(self) -> Observation:
        position = self._game.position()
        numbers = build_numbers(position, self.powers)
        # Their quirk: outside a build phase the last build phase's removals stay, its builds
        # do not.
        shown = numbers if position.phase.kind == "A" else [min(n, 0) for n in self._numbers]
        return Observation(
            season=season_of(position),
            board=board_of(position, self.powers, numbers),
            build_numbers=np.array(shown, dtype=np.int64),
            last_actions=list(self._last_actions),
        )

    def returns(self) -> Any:
        out = np.zeros(NUM_POWERS, dtype=np.float64)
        if not self._game.is_over:
            return out
        winner = self._game.winner
        if winner is not None:
            out[self.powers.index(winner)] = 1.0
            return out
        position = self._game.position()
        alive = [i for i, p in enumerate(self.powers) if position.centers_of(p)]
        for i in alive:
            out[i] = 1.0 / len(alive)
        return out

    def _orders_of(self, actions_per_player: object) -> tuple[list[int], list[int]]:
        """The codes to submit and the flattened actions, or ``ValueError`` naming what is
        wrong."""
        lists = action_lists(actions_per_player, self.powers)
        legal = self._legal_codes()
        position = self._game.position()
        codes: list[int] = []
        flat: list[int] = []
        for i, (power, actions) in enumerate(zip(self.powers, lists, strict=True)):
            ordered: set[str] = set()
            for action in actions:
                order = self._checked(power, i, action, legal, position, ordered)
                codes.append(encode_order(order, self._game.map, power))
                flat.append(action)
        return codes, flat

    def _checked(
        self,
        power: str,
        i: int,
        action: int,
        legal: list[dict[int, int]],
        position: Position,
        ordered: set[str],
    ) -> Order:
        """The order of one action of ``power`` (index ``i``), or ``ValueError``; ``ordered``
        collects the provinces ordered so far."""
        try:
            order = order_of_action(action, position)
        except ActionError as exc:
            raise ValueError(f"{power}: action {action}: {exc}") from None
        full = action | _index_bits(action)
        if full not in legal[i]:
            owners = [p for j, p in enumerate(self.powers) if full in legal[j]]
            if owners:
                where = "" if isinstance(order, Waive) else f" in {order.unit.loc}"
                raise ValueError(
                    f"{power}: action {action} is an order for {owners[0]}'s unit{where}"
                )
            raise ValueError(f"{power}: action {action} is not legal now (not in its list)")
        if not isinstance(order, Waive):
            where = position.map.province_of(order.unit.loc)
            if where in ordered:
                raise ValueError(f"{power}: action {action} is a second order for {where}")
            ordered.add(where)
        return order

    def step(self, actions_per_player: Sequence[Sequence[int]]) -> None:
        """Gives every power's actions (seven lists, alphabetically) and processes one phase.
        Raises ``ValueError`` (nothing changed) for a wrong shape or an action that is not a
        legal one of that power's units, :class:`GameOverError` once the game is over."""
        if self._game.is_over:
            raise GameOverError("the game is over: step after the end")
        codes, flat = self._orders_of(actions_per_player)
        kind = self._game.position().phase.kind
        if kind == "A":
            self._numbers = build_numbers(self._game.position(), self.powers)
        self._game.set_orders(codes)
        self._game.process()
        self._last_actions = flat
        self._legal = None


@cache
def _with_index() -> dict[int, int]:
    return {a & 0xFFFFFFFF: a for a in possible_actions()}


def _index_bits(action: int) -> int:
    """The action with its index bits (an action may be given with bits 48-63 zero)."""
    return _with_index().get(action & 0xFFFFFFFF, action)
