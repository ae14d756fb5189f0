"""DeepMind's unit actions (github.com/deepmind/diplomacy, README "Action Space").

An action is a 64-bit int: bits 0-7 the order code, 8-15 the ordered area, 16-23 the target,
24-31 the third area, 48-63 its index in their list of every possible action
(``data/deepmind_actions.json``, made by ``tools/deepmind_actions.py``). An area byte is the
province id (their standard-map order) shifted left once, with bit 0 the coast flag (1 for the
south coast of a bicoastal province). A coast is written only for a fleet build's place and a
move's or retreat's target; a unit's type never appears (the board tells it).
"""

from __future__ import annotations

import json
import operator
from functools import cache
from importlib import resources

from ...model.map import Map
from ...model.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Retreat,
    SupportHold,
    SupportMove,
    Unit,
    Waive,
    format_order,
)
from ...model.position import Position

CONVOY_TO, CONVOY, HOLD, MOVE_TO, SUPPORT_HOLD, SUPPORT_MOVE_TO = 1, 2, 3, 4, 5, 6
DISBAND, RETREAT_TO, BUILD_ARMY, BUILD_FLEET, REMOVE, WAIVE = 8, 9, 10, 11, 12, 13
INDEX_SHIFT = 48

# Their names that differ from diplo's standard map.
_TO_DIPLO = {"ECH": "ENG", "GOB": "BOT", "GOL": "LYO"}


class ActionError(ValueError):
    """An int that is not one of their actions, or one that does not fit the position."""


@cache
def _data() -> dict[str, list[object]]:
    text = resources.files("diplo.data").joinpath("deepmind_actions.json").read_text()
    data: dict[str, list[object]] = json.loads(text)
    return data


def _names(key: str) -> tuple[str, ...]:
    return tuple(_TO_DIPLO.get(str(t), str(t)) for t in _data()[key])


#: Province ids (their standard map) and area ids (their bicoastal map), as diplo locations.
PROVINCES: tuple[str, ...] = _names("provinces")
AREAS: tuple[str, ...] = _names("areas")
_PROVINCE_ID = {p: i for i, p in enumerate(PROVINCES)}


@cache
def possible_actions() -> tuple[int, ...]:
    """Their list of every possible action, with the index bits (``list[i] >> 48 == i``)."""
    return tuple(int(str(a)) | i << INDEX_SHIFT for i, a in enumerate(_data()["actions"]))


@cache
def _index_of() -> dict[int, int]:
    return {a & 0xFFFFFFFF: i for i, a in enumerate(possible_actions())}


def action_parts(action: int) -> tuple[int, tuple[int, int], tuple[int, int], tuple[int, int]]:
    """``(order, (province, coast flag) x 3)`` of an action (ordered, target, third)."""
    parts = [(action >> s) & 0xFF for s in (8, 16, 24)]
    return action & 0xFF, *((p >> 1, p & 1) for p in parts)  # type: ignore[return-value]


def as_action(action: object) -> int:
    """``action`` as a Python int: an int or an integer of NumPy's (their network gives
    ``np.int64``), never a bool, a float or anything else (:class:`ActionError`)."""
    if isinstance(action, bool) or not hasattr(type(action), "__index__"):
        raise ActionError(f"not an action (an int): {action!r}")
    try:
        return operator.index(action)  # type: ignore[arg-type]
    except TypeError:  # NumPy's bool has __index__ that refuses
        raise ActionError(f"not an action (an int): {action!r}") from None


def _check(action: int) -> int:
    index = _index_of().get(action & 0xFFFFFFFF) if action >= 0 else None
    if index is None or action >> INDEX_SHIFT not in (0, index) or (action >> 32) & 0xFFFF:
        raise ActionError(f"{action!r} is not in DeepMind's list of possible actions")
    return index


def _coast_location(province: str, flag: int, game_map: Map) -> str:
    coasts = [loc for loc in game_map.locations if loc.startswith(province + "/")]
    if not coasts:
        return province
    south = [loc for loc in coasts if loc.endswith("/SC")]
    other = [loc for loc in coasts if not loc.endswith("/SC")]
    return (south if flag else other)[0]


def order_of_action(action: int, position: Position) -> Order:
    """The diplo order an action names in ``position`` (the unit's type and coast from the
    board). Raises :class:`ActionError` for an int outside their list."""
    action = as_action(action)
    _check(action)
    game_map = position.map
    order, (p1, f1), (p2, f2), (p3, _) = action_parts(action)
    if order == WAIVE:
        return Waive()
    here = PROVINCES[p1]
    if order == BUILD_ARMY:
        return Build(Unit("A", here))
    if order == BUILD_FLEET:
        return Build(Unit("F", _coast_location(here, f1, game_map)))
    dislodged = position.dislodged.get(here) if order in (RETREAT_TO, DISBAND) else None
    piece = dislodged.piece if dislodged is not None else position.units.get(here)
    unit = piece.unit if piece is not None else Unit(None, here)

    def named(province: str) -> Unit:
        other = position.units.get(province)
        return other.unit if other is not None else Unit(None, province)

    target, third = PROVINCES[p2], PROVINCES[p3]
    if order in (MOVE_TO, RETREAT_TO):
        dest = _coast_location(target, f2, game_map) if unit.type == "F" else target
        return Move(unit, dest) if order == MOVE_TO else Retreat(unit, dest)
    if order == CONVOY_TO:
        return Move(unit, target, True)
    if order == HOLD:
        return Hold(unit)
    if order == SUPPORT_HOLD:
        return SupportHold(unit, named(target))
    if order == SUPPORT_MOVE_TO:
        return SupportMove(unit, named(third), target)
    if order == CONVOY:
        return Convoy(unit, named(third), target)
    return Disband(unit)


def action_of_order(order: Order, game_map: Map, phase_kind: str) -> int:
    """Their action (with its index) for a diplo order; ``phase_kind`` (``"M"``, ``"R"``,
    ``"A"``) tells a retreat-phase disband from an adjustment removal. Raises
    :class:`ActionError` for an order their list does not have."""

    def province(loc: str) -> int:
        return _PROVINCE_ID[game_map.province_of(loc)]

    def flag(loc: str) -> int:
        return 1 if loc.endswith("/SC") else 0

    def make(code: int, p1: int = 0, p2: int = 0, p3: int = 0) -> int:
        low = code | p1 << 8 | p2 << 16 | p3 << 24
        index = _index_of().get(low)
        if index is None:
            raise ActionError(f"{order!r} is not in DeepMind's list of possible actions")
        return low | index << INDEX_SHIFT

    if isinstance(order, Waive):
        return make(WAIVE)
    p1 = province(order.unit.loc) << 1
    if isinstance(order, Build):
        if order.unit.type == "F":
            return make(BUILD_FLEET, p1 | flag(order.unit.loc))
        return make(BUILD_ARMY, p1)
    if isinstance(order, Disband):
        return make(DISBAND if phase_kind == "R" else REMOVE, p1)
    if isinstance(order, Hold):
        return make(HOLD, p1)
    if isinstance(order, Move | Retreat):
        code = RETREAT_TO if isinstance(order, Retreat) else MOVE_TO
        src = game_map.province_of(order.unit.loc)
        dest = game_map.province_of(order.dest)
        by_sea = order.unit.type != "F" and dest not in game_map.army_neighbours(src)
        if isinstance(order, Move) and (order.via or by_sea):
            return make(CONVOY_TO, p1, province(order.dest) << 1)
        return make(code, p1, province(order.dest) << 1 | flag(order.dest))
    if isinstance(order, SupportHold):
        return make(SUPPORT_HOLD, p1, province(order.supported.loc) << 1)
    if isinstance(order, SupportMove):
        return make(
            SUPPORT_MOVE_TO, p1, province(order.dest) << 1, province(order.supported.loc) << 1
        )
    return make(CONVOY, p1, province(order.dest) << 1, province(order.army.loc) << 1)


def mila_text(order: Order, game_map: Map) -> str:
    """The MILA order string of a diplo order, as DeepMind's ``mila_actions`` writes it: an
    army's move by sea ends in ``VIA``, a supported move's destination is its province, a waive
    is ``WAIVE``."""
    if isinstance(order, Waive):
        return "WAIVE"
    if isinstance(order, SupportMove):
        order = SupportMove(order.unit, order.supported, game_map.province_of(order.dest))
    elif isinstance(order, Move) and order.unit.type != "F":
        src = game_map.province_of(order.unit.loc)
        if order.via or game_map.province_of(order.dest) not in game_map.army_neighbours(src):
            return f"A {order.unit.loc} - {order.dest} VIA"
    return format_order(order)
