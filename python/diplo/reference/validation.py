"""Order validation: one ruling per submitted order, before any resolution.

Every order gets a :class:`Ruling`: legal, or illegal with a reason code and a sentence. An
illegal order is ignored as if it had not been written (DATC 4.E.1): an unordered unit holds in a
movement phase and disbands in a retreat phase. The legal orders, normalised to the units really on
the board, form the *effective* orders handed to the resolver.

Legality is decided on the board alone, never on the other orders: whether a convoyed move finds
its fleets or a support finds its move is the resolver's question (DATC 4.E.1's "valid").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from ..model.map import Map
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
from ..model.refusals import multiple_orders_message, named_piece, read_order, refusal_message
from .adjustments import build_sites, centre_surplus
from .convoys import route_fleets, sea_route_exists


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
    rulings: list[Ruling] = []
    for power, orders in orders_by_power.items():
        for item in orders:
            rulings.append(_rule(position, power, item, fleets))
    if position.phase.kind == "A":
        return _collect_adjustments(rulings)
    return _collect_unit_orders(rulings)


def validate_order(position: Position, power: str, order: str | Order) -> Ruling:
    """Rule on one order alone (without the multiple-orders check of :func:`validate`)."""
    return _rule(position, power, order, _fleets(position))


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


def _rule(position: Position, power: str, item: str | Order, fleets: frozenset[str]) -> Ruling:
    text = item if isinstance(item, str) else format_order(item)
    intake = read_order(item, power, position.map)
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
    game_map = position.map
    return frozenset(
        prov
        for prov, piece in position.units.items()
        if piece.type == "F" and game_map.may_convoy(prov)
    )


def _movement(position: Position, power: str, order: Order, fleets: frozenset[str]) -> Order:
    if isinstance(order, Retreat | Disband | Build | Waive):
        raise _Illegal("wrong_phase")
    piece = _own_piece(position, power, order.unit)
    unit = piece.unit
    if isinstance(order, Hold):
        return Hold(unit)
    if isinstance(order, Move):
        return _check_move(position.map, piece, order.dest, order.via, fleets)
    if isinstance(order, SupportHold):
        return _check_support_hold(position, piece, order)
    if isinstance(order, SupportMove):
        return _check_support_move(position, piece, order, fleets)
    return _check_convoy(position, piece, order, fleets)


def _check_move(game_map: Map, piece: Piece, dest: str, via: bool, fleets: frozenset[str]) -> Move:
    src = piece.province
    dst = game_map.province_of(dest)
    if dst == src:
        # DATC 6.A.4, 6.A.5, 6.B.11: a move to the unit's own province (another coast of it
        # included) is illegal, convoy or not.
        raise _Illegal("move_to_self")
    if piece.type == "A":
        if game_map.is_sea(dst):
            # DATC 6.A.2, 6.D.24: an army cannot move to sea.
            raise _Illegal("army_to_sea")
        # DATC 4.B.6, 6.B.12: a coast written on an army's destination is irrelevant and ignored.
        if sea_route_exists(game_map, src, dst, fleets):
            return Move(piece.unit, dst, via)
        if dst not in game_map.army_neighbours(src):
            # DATC 6.D.32: no neighbour, and no fleets on the board could carry it there.
            raise _Illegal("not_adjacent")
        if via:
            # DATC 4.E.1, 6.D.32: "via convoy" can never be valid when the fleets on the board
            # could not carry the army, so the order is illegal (the army holds).
            raise _Illegal("no_convoy_route")
        return Move(piece.unit, dst, via)
    if via:
        # DATC 6.A.7: only armies can be convoyed.
        raise _Illegal("convoy_of_fleet")
    return Move(piece.unit, _fleet_destination(game_map, piece, dest), False)


def _fleet_destination(game_map: Map, piece: Piece, dest: str) -> str:
    dst = game_map.province_of(dest)
    if game_map.is_land(dst):
        # DATC 6.A.3, 6.D.22: a fleet cannot move inland.
        raise _Illegal("fleet_to_land")
    reachable = game_map.reachable_coasts(piece.loc, dst)
    if not reachable:
        # DATC 6.A.1, 6.A.9, 6.D.28, 6.E.14: no border a fleet there could cross.
        raise _Illegal("not_adjacent")
    if dest != dst:
        if dest not in reachable:
            # DATC 4.B.3, 6.B.3, 6.D.29: a named coast the fleet cannot reach is illegal.
            raise _Illegal("bad_coast")
        return dest
    if len(reachable) > 1:
        # DATC 4.B.1, 6.B.1, 6.D.30: with two coasts reachable the coast must be named.
        raise _Illegal("coast_needed")
    # DATC 4.B.2, 6.B.2: with one coast reachable an omitted coast means that coast.
    return reachable[0]


def _supported_piece(position: Position, unit: Unit) -> Piece:
    prov = position.map.province_of(unit.loc)
    piece = position.units.get(prov)
    if piece is None:
        raise _Illegal("no_supported_unit")
    return piece


def _check_support_hold(position: Position, piece: Piece, order: SupportHold) -> SupportHold:
    game_map = position.map
    target = _supported_piece(position, order.supported)
    if target.province == piece.province:
        # DATC 6.A.8: no hold support for oneself.
        raise _Illegal("support_self")
    if not game_map.can_reach(piece.type, piece.loc, target.province):
        raise _Illegal("cannot_support")
    # DATC 4.C.5/4.C.6 and 4.C.2: nationality and unit type of the supported unit are ignored.
    return SupportHold(piece.unit, target.unit)


def _check_support_move(
    position: Position, piece: Piece, order: SupportMove, fleets: frozenset[str]
) -> SupportMove:
    game_map = position.map
    mover = _supported_piece(position, order.supported)
    dst = game_map.province_of(order.dest)
    if mover.province == piece.province:
        raise _Illegal("support_self")
    if dst == piece.province:
        # DATC 6.D.34: support into the supporter's own province is illegal.
        raise _Illegal("cannot_support")
    if not game_map.can_reach(piece.type, piece.loc, dst):
        # DATC 6.A.10, 6.B.5 and the rulebook: a unit may only support to a province it could enter.
        raise _Illegal("cannot_support")
    if not _move_possible(game_map, mover, order.dest, fleets, piece.province):
        # DATC 4.E.1, 6.A.5, 6.D.22-6.D.24, 6.D.31: the supported move itself must be possible
        # (and a convoyed
        # move must have a route that does not need the supporting fleet).
        raise _Illegal("impossible_move")
    # DATC 4.B.4, 6.B.4: support is given to a province, so the supporter need not reach the
    # coast; but a coast written in the support must match the move (6.B.9), so it is kept.
    dest = order.dest if mover.type == "F" else dst
    return SupportMove(piece.unit, mover.unit, dest)


def _move_possible(
    game_map: Map, mover: Piece, dest: str, fleets: frozenset[str], avoid: str
) -> bool:
    src = mover.province
    dst = game_map.province_of(dest)
    if dst == src:
        return False
    if mover.type == "A":
        if game_map.is_sea(dst):
            return False
        return dst in game_map.army_neighbours(src) or sea_route_exists(
            game_map, src, dst, fleets, avoid
        )
    reachable = game_map.reachable_coasts(mover.loc, dst)
    if dest != dst:
        return dest in reachable
    return bool(reachable)


def _check_convoy(
    position: Position, piece: Piece, order: Convoy, fleets: frozenset[str]
) -> Convoy:
    game_map = position.map
    if piece.type != "F" or not game_map.may_convoy(piece.province):
        # DATC 6.F.1: only a fleet at sea (or in a port) convoys.
        raise _Illegal("convoy_not_at_sea")
    army = _supported_piece(position, order.army)
    if army.type != "A":
        # DATC 6.A.7: only armies can be convoyed.
        raise _Illegal("convoy_of_fleet")
    dst = game_map.province_of(order.dest)
    if dst == army.province:
        raise _Illegal("move_to_self")
    if piece.province not in route_fleets(game_map, army.province, dst, fleets):
        # DATC 6.G.19 and 4.E.1: a fleet that no convoy route from the army to the
        # destination needs cannot legally convoy it.
        raise _Illegal("convoy_impossible")
    return Convoy(piece.unit, army.unit, dst)


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
    piece = dislodged.piece
    if piece.power != power:
        raise _Illegal("foreign_unit")
    if isinstance(order, Disband):
        return Disband(piece.unit)
    dest = order.dest
    dst = game_map.province_of(dest)
    options = dislodged.options
    if piece.type == "A":
        dest = dst  # DATC 4.B.6: a coast on an army's retreat is ignored.
    elif dest == dst and dst not in options:
        coasts = [o for o in options if game_map.province_of(o) == dst]
        if len(coasts) > 1:
            raise _Illegal("coast_needed")
        if coasts:
            dest = coasts[0]
    if dest not in options:
        raise _Illegal("bad_retreat")
    return Retreat(piece.unit, dest)


# --------------------------------------------------------------------------- adjustments


def _adjustment(position: Position, power: str, order: Order) -> Order:
    game_map = position.map
    if isinstance(order, Move | Hold | SupportHold | SupportMove | Convoy | Retreat):
        raise _Illegal("wrong_phase")
    owed = centre_surplus(position, power)
    if isinstance(order, Waive):
        if owed <= 0:
            raise _Illegal("no_builds")
        return order
    if isinstance(order, Disband):
        if owed >= 0:
            raise _Illegal("no_disbands")
        return Disband(_own_piece(position, power, order.unit).unit)
    assert isinstance(order, Build)
    if owed <= 0:
        raise _Illegal("no_builds")
    loc = order.unit.loc
    prov = game_map.province_of(loc)
    if prov not in build_sites(position, power):
        # adjustments.build_sites decides (the rules' build sites); here only the reason.
        if position.rules.build_sites == "home" and prov not in game_map.homes.get(power, ()):
            raise _Illegal("not_home_center")
        if prov not in game_map.centers:
            raise _Illegal("not_home_center")
        if position.centers.get(prov) != power:
            raise _Illegal("center_not_owned")
        raise _Illegal("occupied")
    unit_type = order.unit.type
    if unit_type is None:
        # DATC 4.C.3 (choice c): an army inland, a fleet where a coast is named, else no build.
        if game_map.is_land(prov):
            unit_type = "A"
        elif loc != prov:
            unit_type = "F"
        else:
            raise _Illegal("unit_type_needed")
    if unit_type == "A":
        return Build(Unit("A", prov))  # DATC 4.B.6: a coast on an army build is ignored.
    if game_map.is_land(prov):
        # DATC 4.C.4, 6.I.2: a fleet cannot be built inland.
        raise _Illegal("fleet_to_land")
    coasts = game_map.coasts_of(prov)
    if coasts and loc == prov:
        # DATC 4.B.7, 6.B.14: a fleet built in a split-coast province needs its coast.
        raise _Illegal("coast_needed")
    if coasts and loc not in coasts:
        raise _Illegal("bad_coast")
    return Build(Unit("F", loc))
