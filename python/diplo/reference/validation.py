"""Order validation: one ruling per submitted order, before any resolution.

Every order gets a :class:`Ruling`: legal, or illegal with a reason code and a sentence. An
illegal order is ignored as if it had not been written (DATC 4.E.1): an unordered unit holds in a
movement phase and disbands in a retreat phase. The legal orders, normalised to the units really on
the board, form the *effective* orders handed to the resolver.

Legality is decided on the board alone, never on the other orders: whether a convoyed move finds
its fleets or a support finds its move is the resolver's question (DATC 4.E.1's "valid"). Here
the submitted text is read and the units it names are found (the intake refusals: no such unit,
another power's, the wrong phase); whether the order is legal is then asked of the one rule of
:mod:`diplo.reference.legality` for its kind, the rule the legal-order listing asks too.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TypeVar

from ..model.orders import (
    AdjustmentOrder,
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
from ..model.position import Piece, Position
from ..model.refusals import (
    OrderReader,
    multiple_orders_message,
    named_piece,
    refusal_message,
)
from . import legality
from .convoys import convoying_fleets, route_fleets, sea_route_exists
from .legality import map_tables

_O = TypeVar("_O", bound=Order)


@dataclass(frozen=True, slots=True)
class Ruling:
    """The verdict on one submitted order."""

    power: str
    text: str
    order: Order | None
    unit: Piece | None
    legal: bool
    code: str
    message: str

    @property
    def canonical(self) -> str:
        """The order in short form (the text as given when it could not be parsed)."""
        return self.text if self.order is None else format_order(self.order)


@dataclass(frozen=True)
class Validated:
    """All rulings of a phase, in input order, and the legal orders that will be carried out.

    ``orders`` maps a unit's province (movement: a unit on the board; retreat: a dislodged unit)
    to its single effective order. ``adjustments`` lists the legal adjustment orders with the
    index of their ruling, in submission order.
    """

    rulings: list[Ruling]
    orders: dict[str, Order] = field(default_factory=dict)
    ruling_of: dict[str, int] = field(default_factory=dict)
    adjustments: list[tuple[int, str, AdjustmentOrder]] = field(default_factory=list)


class _Illegal(Exception):
    """An order refused by the rule that raised it, named by its reason code (the sentence is
    :func:`diplo.model.refusals.refusal_message`'s)."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


def validate(position: Position, orders_by_power: Mapping[str, Sequence[str | Order]]) -> Validated:
    """Rule on every order of every power for the phase of ``position``."""
    fleets = _fleets(position)  # once per phase: every convoy question asks it
    reader = OrderReader(position.map)
    rulings: list[Ruling] = []
    for power, orders in orders_by_power.items():
        for item in orders:
            rulings.append(_rule(position, power, item, fleets, reader))
    if position.phase.kind == "A":
        return _collect_adjustments(rulings)
    return _collect_unit_orders(rulings)


def validate_order(position: Position, power: str, order: str | Order) -> Ruling:
    """Rule on one order alone (without the multiple-orders check of :func:`validate`)."""
    return _rule(position, power, order, _fleets(position), OrderReader(position.map))


def _collect_unit_orders(rulings: list[Ruling]) -> Validated:
    # DATC 4.D.3 (preferred choice c): two different legal orders for one unit are both
    # illegal and the unit holds, still able to receive hold support. The same order twice
    # counts once. Illegal orders take no part (4.E.1: they are ignored altogether, and the
    # unit holds and may be supported in hold, 6.D.28-6.D.30).
    by_unit: dict[str, list[int]] = {}
    for index, ruling in enumerate(rulings):
        if ruling.legal and ruling.unit is not None:
            by_unit.setdefault(ruling.unit.province, []).append(index)
    effective: dict[str, Order] = {}
    ruling_of: dict[str, int] = {}
    for province, indexes in by_unit.items():
        distinct = {rulings[i].order for i in indexes}
        if len(distinct) > 1:
            for i in indexes:
                r = rulings[i]
                rulings[i] = replace(
                    r,
                    legal=False,
                    code="multiple_orders",
                    message=multiple_orders_message(r.canonical, str(r.unit), len(distinct)),
                )
            continue
        order = rulings[indexes[0]].order
        assert order is not None
        effective[province] = order
        ruling_of[province] = indexes[0]
    return Validated(rulings, effective, ruling_of)


def _collect_adjustments(rulings: list[Ruling]) -> Validated:
    adjustments: list[tuple[int, str, AdjustmentOrder]] = []
    for index, ruling in enumerate(rulings):
        if ruling.legal and isinstance(ruling.order, Build | Disband | Waive):
            adjustments.append((index, ruling.power, ruling.order))
    return Validated(rulings, adjustments=adjustments)


def _rule(
    position: Position,
    power: str,
    item: str | Order,
    fleets: frozenset[str],
    reader: OrderReader,
) -> Ruling:
    text = item if isinstance(item, str) else format_order(item)
    intake = reader.read(item, power)
    order = intake.order
    if intake.code is not None:
        # An unreadable order still names its unit when its start can be read (A PAR - BURG).
        named = None if intake.unit is None else named_piece(position, Hold(intake.unit))
        return Ruling(power, text, order, named, False, intake.code, intake.message)
    assert order is not None
    piece = named_piece(position, order)
    try:
        kind = position.phase.kind
        if kind == "M":
            normalised = _movement(position, power, order, fleets)
        elif kind == "R":
            normalised = _retreat(position, power, order)
        else:
            normalised = _adjustment(position, power, order)
        return Ruling(
            power, text, normalised, piece, True, "ok", f"{format_order(normalised)}: legal."
        )
    except _Illegal as exc:
        # The rule decided; the sentence has one home for both backends (model.refusals).
        message = refusal_message(exc.code, power, order, position)
        return Ruling(power, text, order, piece, False, exc.code, message)


def _own_piece(position: Position, power: str, unit: Unit) -> Piece:
    prov = position.map.province_of(unit.loc)
    piece = position.units.get(prov)
    if piece is None:
        raise _Illegal("no_unit")
    if piece.power != power:
        # DATC 6.A.6: a power cannot order another power's unit; the owner's order stands.
        raise _Illegal("foreign_unit")
    # DATC 4.C.2 and 4.B.5 (6.B.10): a wrong unit type or a wrong coast of the ordered unit is
    # ignored; the order is taken for the unit that is really there.
    return piece


# --------------------------------------------------------------------------- movement


def _fleets(position: Position) -> frozenset[str]:
    """The seas (and ports) holding a fleet: the only places a convoy route can run through."""
    return convoying_fleets(position)


def _verdict(answer: _O | str) -> _O:
    """The order a rule of :mod:`diplo.reference.legality` normalised, or its refusal raised."""
    if isinstance(answer, str):
        raise _Illegal(answer)
    return answer


def _movement(position: Position, power: str, order: Order, fleets: frozenset[str]) -> Order:
    # A class tuple, not ``X | Y``: a union is built anew on every call (every order of a phase).
    if isinstance(order, (Retreat, Disband, Build, Waive)):
        raise _Illegal("wrong_phase")
    piece = _own_piece(position, power, order.unit)
    game_map = position.map
    tables = map_tables(game_map)
    port_first = position.rules.port_convoy == "first"
    if isinstance(order, Hold):
        return Hold(piece.unit)
    if isinstance(order, Move):
        by_sea = piece.type == "A" and sea_route_exists(
            game_map, piece.province, game_map.province_of(order.dest), fleets, None, port_first
        )
        return _verdict(legality.move_rule(tables, piece, order.dest, order.via, by_sea))
    if isinstance(order, SupportHold):
        target = _supported_piece(position, order.supported)
        return _verdict(legality.support_hold_rule(tables, piece, target))
    if isinstance(order, SupportMove):
        mover = _supported_piece(position, order.supported)
        ends = (mover.province, game_map.province_of(order.dest))
        if position.rules.convoyed_support == "any_route":
            # MILA's acceptance (Game._valid_order, _has_convoy_path): any route from the army,
            # the supporter's fleet too.
            by_sea = mover.type == "A" and sea_route_exists(
                game_map, *ends, fleets, None, port_first
            )
        else:
            # DATC 6.D.31: a route without the supporter (MILA's ports: from the destination
            # back to the army, as MILA lists such a support; the same both ways without ports)
            by_sea = mover.type == "A" and sea_route_exists(
                game_map, *(ends[::-1] if port_first else ends), fleets, piece.province, port_first
            )
        return _verdict(legality.support_move_rule(tables, piece, mover, order.dest, by_sea))
    army = position.units.get(game_map.province_of(order.army.loc))
    dst = game_map.province_of(order.dest)
    if position.rules.convoy_chains == "any_fleets":
        # godip: any chain of fleets joining the army to its destination will do.
        necessary = army is not None and sea_route_exists(
            game_map, army.province, dst, fleets, None, port_first
        )
    else:
        necessary = army is not None and piece.province in route_fleets(
            game_map, army.province, dst, fleets, port_first
        )
    return _verdict(legality.convoy_rule(tables, piece, army, order.dest, necessary))


def _supported_piece(position: Position, unit: Unit) -> Piece:
    prov = position.map.province_of(unit.loc)
    piece = position.units.get(prov)
    if piece is None:
        raise _Illegal("no_supported_unit")
    return piece


# --------------------------------------------------------------------------- retreats


def _retreat(position: Position, power: str, order: Order) -> Order:
    game_map = position.map
    if isinstance(order, Move):
        # A retreat is often written as a move (the DATC writes "F Trieste - Albania").
        order = Retreat(order.unit, order.dest)
    if not isinstance(order, Retreat | Disband):
        # DATC 6.H.1, 6.H.2, 6.H.3: no supports, convoys or holds in a retreat phase.
        raise _Illegal("wrong_phase")
    prov = game_map.province_of(order.unit.loc)
    dislodged = position.dislodged.get(prov)
    if dislodged is None:
        # DATC 6.H.4: only dislodged units move in a retreat phase.
        raise _Illegal("not_dislodged")
    if dislodged.piece.power != power:
        raise _Illegal("foreign_unit")
    if isinstance(order, Disband):
        return Disband(dislodged.piece.unit)
    return _verdict(
        legality.retreat_rule(map_tables(game_map), dislodged, order.dest, position.units)
    )


# --------------------------------------------------------------------------- adjustments


def _adjustment(position: Position, power: str, order: Order) -> Order:
    if isinstance(order, Move | Hold | SupportHold | SupportMove | Convoy | Retreat):
        raise _Illegal("wrong_phase")
    if isinstance(order, Waive):
        refusal = legality.waive_rule(position, power)
        if refusal is not None:
            raise _Illegal(refusal)
        return order
    if isinstance(order, Disband):
        refusal = legality.disband_rule(position, power)
        if refusal is not None:
            raise _Illegal(refusal)
        return Disband(_own_piece(position, power, order.unit).unit)
    assert isinstance(order, Build)
    return _verdict(legality.build_rule(map_tables(position.map), position, power, order.unit))
