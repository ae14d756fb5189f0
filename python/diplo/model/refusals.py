"""Why an order is refused, in words: the one home of the sentences of illegal orders.

Both implementations decide legality (:mod:`diplo.reference.validation` in Python, the engine's
``rust/src/engine/legality/``) and name the rule that refused an order by its reason code
(``not_adjacent``, ``coast_needed``, ...: ``_core.REASON_NAMES``). The sentence is made here, from
the reason code, the order as given and the board, so the two backends cannot word a refusal
differently (``tests/test_engine.py`` compares every sentence).

Also here: what every order goes through before its legality is asked (:func:`read_order`: the
text parsed, the power prefix checked, every place the order names looked up on the map), since
neither implementation owns it.
"""

from __future__ import annotations

from typing import NamedTuple

from .limits import SUGGESTED_ORDERS, show
from .map import Map, MapError
from .orders import (
    Build,
    Convoy,
    Disband,
    Move,
    Order,
    OrderParseError,
    Retreat,
    SupportHold,
    SupportMove,
    Unit,
    Waive,
    format_order,
    order_unit,
    parse_power_order,
    unit_named,
)
from .position import Piece, Position
from .reasons import PHRASES, REFUSALS
from .wording import power_name, sentence

__all__ = [
    "Intake",
    "OrderReader",
    "implied_hold_reason",
    "multiple_orders_message",
    "named_piece",
    "read_order",
    "refusal_message",
    "refusal_reason",
]


class Intake(NamedTuple):
    """An order as read before its legality is asked: the order, or why it cannot be one."""

    order: Order | None
    #: ``None`` when the order was read; else ``unparsable``, ``wrong_power``,
    #: ``unknown_location`` or ``neutral_power``, with ``message`` its sentence.
    code: str | None
    message: str
    #: The unit an unreadable order text starts with, when that much could be read.
    unit: Unit | None = None


class OrderReader:
    """Reads the orders of one phase in input order (:func:`read_order`), the first
    :data:`~diplo.model.limits.SUGGESTED_ORDERS` unreadable ones with the nearest names of a
    misspelt place, the rest without. Both backends read a phase's refused orders through one,
    so their sentences agree."""

    __slots__ = ("map", "unreadable")

    def __init__(self, game_map: Map) -> None:
        self.map = game_map
        #: The unreadable orders read so far.
        self.unreadable = 0

    def read(self, item: str | Order, power: str) -> Intake:
        intake = read_order(item, power, self.map, self.unreadable < SUGGESTED_ORDERS)
        if intake.code == "unparsable":
            self.unreadable += 1
        return intake


def read_order(item: str | Order, power: str, game_map: Map, suggest: bool = True) -> Intake:
    """Read one submitted order of ``power``: parse a text (refusing one written for another
    power), and check that every place the order names is on the map. ``suggest``: whether an
    unknown place is named with the nearest names (the first few of a phase's unreadable
    orders, :class:`OrderReader`)."""
    order: Order | None = None
    if power in game_map.neutral:
        text = item if isinstance(item, str) else format_order(item)
        return Intake(None, "neutral_power", sentence(f"{show(text)}: {_NEUTRAL}"))
    try:
        if isinstance(item, str):
            prefix, order = parse_power_order(item, game_map, suggest=suggest)
            if prefix is not None and prefix != power:
                reason = f"the order is written for {power_name(prefix)}, not {power_name(power)}"
                return Intake(order, "wrong_power", sentence(f"{item}: {reason}"))
        else:
            order = item
        known = game_map.location_index  # every location of the map (a dict lookup each)
        for loc in _places(order):
            if loc not in known:
                game_map.province_of(loc)  # raises MapError naming the place
    except OrderParseError as exc:
        # Only a text is parsed; the sentence quotes it as given.
        text = item if isinstance(item, str) else format_order(item)
        unit = unit_named(item, game_map)
        return Intake(None, "unparsable", sentence(f"{show(text)}: {exc.reason}"), unit)
    except MapError as exc:
        # Only an Order object built by hand can name a place the map does not have.
        assert order is not None
        return Intake(order, "unknown_location", sentence(f"{format_order(order)}: {exc}"))
    return Intake(order, None, "")


def _places(order: Order) -> tuple[str, ...]:
    """Every location an order names, in the order it names them."""
    # Read on every order of every phase: the commonest kinds first, each with a constant
    # class tuple (a ``X | Y`` union would be built anew on every call).
    if isinstance(order, (Move, Retreat)):
        return (order.unit.loc, order.dest)
    if isinstance(order, SupportMove):
        return (order.unit.loc, order.supported.loc, order.dest)
    if isinstance(order, SupportHold):
        return (order.unit.loc, order.supported.loc)
    if isinstance(order, Convoy):
        return (order.unit.loc, order.army.loc, order.dest)
    if isinstance(order, Waive):
        return ()
    return (order.unit.loc,)


def named_piece(position: Position, order: Order) -> Piece | None:
    """The unit on the board an order is for (in a retreat phase the dislodged one first)."""
    unit = order_unit(order)
    if unit is None:
        return None
    prov = position.map.province_of(unit.loc)
    if position.phase.kind == "R":
        dislodged = position.dislodged.get(prov)
        return dislodged.piece if dislodged is not None else position.units.get(prov)
    return position.units.get(prov)


#: Why a neutral power's orders, and codes for its units, are refused.
_NEUTRAL = PHRASES["neutral"]


def _say(code: str, variant: str = "", **fields: object) -> str:
    """The refusal sentence of ``code`` in ``variant`` (the table's, ``diplo/data/reasons.json``)
    with ``fields`` filled in."""
    return REFUSALS[code][variant].format(**fields)


def refusal_message(code: str, power: str, order: Order, position: Position) -> str:
    """The sentence of ``order`` (as given, read by :func:`read_order`) refused for ``code``."""
    return sentence(f"{format_order(order)}: {refusal_reason(code, power, order, position)}")


def implied_hold_reason(piece: object, refused: str | None, dislodged_by: str | None) -> str:
    """Why an unordered unit (or one whose every order was refused: ``refused`` is the last
    refusal's code) held, and who dislodged it. Both backends word it here."""
    if refused is None:
        why = "it was not ordered"
    elif refused == "unparsable":
        why = "its order could not be read"
    else:
        why = f"its order was refused ({refused})"
    if dislodged_by is not None:
        return f"{piece} held because {why}, and was dislodged by the unit from {dislodged_by}."
    return f"{piece} held because {why}."


def multiple_orders_message(order: str, unit: str, count: int) -> str:
    """The sentence of an order refused because its unit was given ``count`` different orders."""
    return _say("multiple_orders", order=order, unit=unit, count=count)


def refusal_reason(code: str, power: str, order: Order, position: Position) -> str:
    """Why ``order`` of ``power`` is refused for ``code``: the facts the sentence names are read
    from the order and the board (the unit ordered, the unit supported or convoyed, the
    destination), never decided again. The words are the table's (``diplo/data/reasons.json``);
    which of a reason's sentences is said depends on the phase and the order."""
    game_map = position.map
    kind = position.phase.kind
    if code == "wrong_phase":
        return _say(code, kind)
    name = power_name(power)
    if isinstance(order, Waive):
        return _say("no_builds", "waive", name=name)  # the one refusal of a waive
    unit = order.unit
    prov = game_map.province_of(unit.loc)
    piece = named_piece(position, order)
    if code in ("no_unit", "not_dislodged"):
        return _say(code, prov=prov)
    if code == "neutral_unit":
        return _say(code, prov=prov, neutral=_NEUTRAL)
    if code == "foreign_unit":
        assert piece is not None
        owner = power_name(piece.power)
        return _say(code, "R" if kind == "R" else "", prov=prov, owner=owner, name=name)
    if kind == "A":
        return _adjustment_reason(code, power, order, position)
    assert piece is not None
    if kind == "R":
        assert isinstance(order, Move | Retreat)
        dst = game_map.province_of(order.dest)
        if code == "coast_needed":
            return _say(code, "retreat", dst=dst, piece=piece)
        # bad_retreat (DATC 4.B.6: a coast on an army's retreat is ignored).
        # The options a unit stands in (MILA's lists name them) are no retreat.
        options = [
            o
            for o in position.dislodged[prov].options
            if game_map.province_of(o) not in position.units
        ]
        allowed = ", ".join(options) if options else "nowhere"
        dest = dst if piece.type == "A" else order.dest
        return _say("bad_retreat", piece=piece, dest=dest, allowed=allowed)
    if isinstance(order, Move):
        return _move_reason(code, game_map, piece, order)
    if isinstance(order, SupportHold | SupportMove | Convoy):
        other = order.supported if isinstance(order, SupportHold | SupportMove) else order.army
        other_prov = game_map.province_of(other.loc)
        if code == "no_supported_unit":
            return _say(code, other_prov=other_prov)
        if code == "convoy_not_at_sea":  # decided before the army is looked at
            return _say(code, piece=piece)
        target = position.units[other_prov]
        if isinstance(order, SupportHold):
            if code == "support_self":
                return _say(code, "hold")
            return _say("cannot_support", "hold", piece=piece, target_prov=target.province)
        dst = game_map.province_of(order.dest)
        if isinstance(order, SupportMove):
            if code in ("support_self", "impossible_move"):
                return _say(code, "move" if code == "support_self" else "", target=target, dst=dst)
            if dst == piece.province:
                return _say("cannot_support", "move_into_own", piece=piece)
            return _say("cannot_support", "move", piece=piece, dst=dst)
        if code in ("convoy_of_fleet", "move_to_self"):
            return _say(code, "convoy", target=target)
        if code == "convoy_impossible":
            return _say(code, target_prov=target.province, dst=dst, prov=piece.province)
    raise ValueError(f"no sentence for the refusal {code!r} of {format_order(order)}")


def _move_reason(code: str, game_map: Map, piece: Piece, order: Move) -> str:
    dst = game_map.province_of(order.dest)
    if code == "not_adjacent":
        if piece.type == "A":
            return _say(code, "army", dst=dst, src=piece.province)
        return _say(code, "fleet", loc=piece.loc, dst=dst)
    if code in _MOVE_REASONS:
        return _say(code, "move", piece=piece, dst=dst, loc=piece.loc, dest=order.dest)
    raise ValueError(f"no sentence for the refusal {code!r} of {format_order(order)}")


#: The refusals of a move worded from its unit, destination and location alone.
_MOVE_REASONS = frozenset(
    (
        "move_to_self",
        "army_to_sea",
        "no_convoy_route",
        "convoy_of_fleet",
        "fleet_to_land",
        "bad_coast",
        "coast_needed",
    )
)


def _adjustment_reason(code: str, power: str, order: Order, position: Position) -> str:
    game_map = position.map
    name = power_name(power)
    assert isinstance(order, Build | Disband)
    loc = order.unit.loc
    prov = game_map.province_of(loc)
    if code == "not_home_center":
        if position.rules.build_sites == "home" and prov not in game_map.homes.get(power, ()):
            return _say(code, "home", prov=prov, name=name)
        if position.rules.build_sites == "any_home" and prov in game_map.centers:
            return _say(code, "any_home", prov=prov)
        return _say(code, prov=prov)
    if code == "occupied":
        return _say(code, prov=prov, occupant=position.units[prov])
    if code in ("no_disbands", "no_builds", "center_not_owned", "unit_type_needed"):
        return _say(code, name=name, prov=prov)
    if code in ("fleet_to_land", "coast_needed", "bad_coast"):
        return _say(code, "build", prov=prov, loc=loc)
    raise ValueError(f"no sentence for the refusal {code!r} of {format_order(order)}")
