"""The legality rules of the reference, each in one place: what validation and the legal-order
listing both decide with.

Each rule is a function that takes the units an order names (already found on the board) and
answers either the order normalised to those units (legal) or the reason code that refuses it
(:mod:`diplo.model.refusals` words it). :mod:`diplo.reference.validation` reads the submitted
order, finds its units and asks the rule; :mod:`diplo.reference.legal` enumerates candidates
from the tables below and keeps what the rules accept. So an order is listed exactly when
validation accepts it, by construction (``tests/test_legal.py`` and
``tests/test_legality_home.py`` check it on generated positions).

What the rules read:

* :class:`MapTables`, everything about the map alone, computed once per map and kept in a
  private holder (:func:`map_tables`), never written onto the map;
* the *convoy facts* of :mod:`diplo.reference.convoys` (can fleets carry this army there; is
  this fleet necessary for that convoy), passed in as booleans. A rule never searches for
  routes itself, so its answer is a function of its arguments, which the listing may memoise.

Intake refusals (unparsable text, an order for no unit or another power's unit, an order of
the wrong phase) are validation's: they are about the text, not about a candidate order.
"""

from __future__ import annotations

from collections.abc import Collection
from weakref import WeakKeyDictionary

from ..model.map import Map
from ..model.orders import Build, Convoy, Move, Retreat, SupportHold, SupportMove, Unit
from ..model.position import Dislodged, Piece, Position
from .adjustments import build_sites, centre_surplus, is_some_home
from .convoys import convoy_provinces

__all__ = [
    "MapTables",
    "build_rule",
    "convoy_rule",
    "disband_rule",
    "map_tables",
    "move_rule",
    "retreat_rule",
    "support_hold_rule",
    "support_move_rule",
    "waive_rule",
]


class MapTables:
    """What the rules and the listing ask about the map alone, computed once per map."""

    def __init__(self, game_map: Map) -> None:
        self.map = game_map
        provinces = game_map.provinces
        self.province_of: dict[str, str] = {
            loc: game_map.province_of(loc) for loc in game_map.locations
        }
        self.seas = frozenset(p for p in provinces if game_map.is_sea(p))
        self.inland = frozenset(p for p in provinces if game_map.is_land(p))
        #: Where a fleet may convoy from (DATC 6.F.1), as :mod:`diplo.reference.convoys` says.
        self.convoying = convoy_provinces(game_map)
        #: Army moves by province (army edges never touch a sea).
        self.army_reach: dict[str, frozenset[str]] = {
            p: game_map.army_neighbours(p) for p in provinces
        }
        self.army_moves: dict[str, tuple[str, ...]] = {
            p: tuple(sorted(reach)) for p, reach in self.army_reach.items()
        }
        #: Fleet moves by location: every neighbouring location, each coast apart.
        self.fleet_moves: dict[str, tuple[str, ...]] = {
            loc: tuple(sorted(game_map.fleet_neighbours(loc))) for loc in game_map.locations
        }
        #: Per fleet location and neighbouring province, the coasts of it the fleet can enter
        #: (the province itself when it has none).
        self.fleet_coasts: dict[str, dict[str, tuple[str, ...]]] = {}
        for loc in game_map.locations:
            by_prov: dict[str, tuple[str, ...]] = {}
            for n in game_map.fleet_neighbours(loc):
                prov = self.province_of[n]
                if prov not in by_prov:
                    by_prov[prov] = game_map.reachable_coasts(loc, prov)
            self.fleet_coasts[loc] = by_prov
        #: Province-level fleet reach (what a fleet may support into, DATC 6.B.5).
        self.fleet_reach: dict[str, frozenset[str]] = {
            loc: frozenset(by_prov) for loc, by_prov in self.fleet_coasts.items()
        }
        #: The coasts of each province (empty when it has none).
        self.coasts: dict[str, tuple[str, ...]] = {p: game_map.coasts_of(p) for p in provinces}

    def reach(self, piece: Piece) -> frozenset[str]:
        """The provinces ``piece`` could move to (by land or sea, not by convoy)."""
        if piece.type == "A":
            return self.army_reach[piece.province]
        return self.fleet_reach[piece.loc]


_TABLES: WeakKeyDictionary[Map, MapTables] = WeakKeyDictionary()
#: The tables last asked for: validation asks once per order, nearly always of one map, and a
#: ``WeakKeyDictionary`` lookup is Python code (a tenth of validating a hold).
_last_tables: MapTables | None = None


def map_tables(game_map: Map) -> MapTables:
    """The tables of ``game_map``, computed on first use and kept while the map lives."""
    global _last_tables
    last = _last_tables
    if last is not None and last.map is game_map:
        return last
    tables = _TABLES.get(game_map)
    if tables is None:
        tables = _TABLES[game_map] = MapTables(game_map)
    _last_tables = tables
    return tables


# --------------------------------------------------------------------------- movement


def move_rule(t: MapTables, piece: Piece, dest: str, via: bool, by_sea: bool) -> Move | str:
    """A move of ``piece`` to location ``dest`` (``via``: ordered "via convoy"). ``by_sea``:
    fleets at sea could carry the army there (:func:`diplo.reference.convoys.sea_route_exists`)."""
    src = piece.province
    dst = t.province_of[dest]
    if dst == src:
        # DATC 6.A.4, 6.A.5, 6.B.11: a move to the unit's own province (another coast of it
        # included) is illegal, convoy or not.
        return "move_to_self"
    if piece.type == "A":
        if dst in t.seas:
            # DATC 6.A.2, 6.D.24: an army cannot move to sea.
            return "army_to_sea"
        # DATC 4.B.6, 6.B.12: a coast written on an army's destination is irrelevant and ignored.
        if by_sea:
            return Move(piece.unit, dst, via)
        if dst not in t.army_reach[src]:
            # DATC 6.D.32: no neighbour, and no fleets on the board could carry it there.
            return "not_adjacent"
        if via:
            # DATC 4.E.1, 6.D.32: "via convoy" can never be valid when the fleets on the board
            # could not carry the army, so the order is illegal (the army holds).
            return "no_convoy_route"
        return Move(piece.unit, dst, via)
    if via:
        # DATC 6.A.7: only armies can be convoyed.
        return "convoy_of_fleet"
    if dst in t.inland:
        # DATC 6.A.3, 6.D.22: a fleet cannot move inland.
        return "fleet_to_land"
    reachable = t.fleet_coasts[piece.loc].get(dst, ())
    if not reachable:
        # DATC 6.A.1, 6.A.9, 6.D.28, 6.E.14: no border a fleet there could cross.
        return "not_adjacent"
    if dest != dst:
        if dest not in reachable:
            # DATC 4.B.3, 6.B.3, 6.D.29: a named coast the fleet cannot reach is illegal.
            return "bad_coast"
        return Move(piece.unit, dest, False)
    if len(reachable) > 1:
        # DATC 4.B.1, 6.B.1, 6.D.30: with two coasts reachable the coast must be named.
        return "coast_needed"
    # DATC 4.B.2, 6.B.2: with one coast reachable an omitted coast means that coast.
    return Move(piece.unit, reachable[0], False)


def support_hold_rule(t: MapTables, piece: Piece, target: Piece) -> SupportHold | str:
    """``piece`` supporting ``target`` to hold."""
    if target.province == piece.province:
        # DATC 6.A.8: no hold support for oneself.
        return "support_self"
    if target.province not in t.reach(piece):
        return "cannot_support"
    # DATC 4.C.5/4.C.6 and 4.C.2: nationality and unit type of the supported unit are ignored.
    return SupportHold(piece.unit, target.unit)


def support_move_rule(
    t: MapTables, piece: Piece, mover: Piece, dest: str, by_sea: bool
) -> SupportMove | str:
    """``piece`` supporting ``mover`` to location ``dest``. ``by_sea``: fleets at sea other than
    ``piece`` could carry the mover there (DATC 6.D.31: a fleet cannot convoy and support one
    move; ``sea_route_exists`` with ``avoid``)."""
    dst = t.province_of[dest]
    if mover.province == piece.province:
        return "support_self"
    if dst == piece.province:
        # DATC 6.D.34: support into the supporter's own province is illegal.
        return "cannot_support"
    if dst not in t.reach(piece):
        # DATC 6.A.10, 6.B.5 and the rulebook: a unit may only support to a province it could
        # enter.
        return "cannot_support"
    if not _move_possible(t, mover, dest, dst, by_sea):
        # DATC 4.E.1, 6.A.5, 6.D.22-6.D.24, 6.D.31: the supported move itself must be possible
        # (and a convoyed move must have a route that does not need the supporting fleet).
        return "impossible_move"
    # DATC 4.B.4, 6.B.4: support is given to a province, so the supporter need not reach the
    # coast; but a coast written in the support must match the move (6.B.9), so it is kept.
    return SupportMove(piece.unit, mover.unit, dest if mover.type == "F" else dst)


def _move_possible(t: MapTables, mover: Piece, dest: str, dst: str, by_sea: bool) -> bool:
    """Whether ``mover`` could be ordered to ``dest`` (province ``dst``) at all: the test a
    supported move must pass (a fleet's missing coast is no obstacle to the support)."""
    src = mover.province
    if dst == src:
        return False
    if mover.type == "A":
        if dst in t.seas:
            return False
        return dst in t.army_reach[src] or by_sea
    reachable = t.fleet_coasts[mover.loc].get(dst, ())
    if dest != dst:
        return dest in reachable
    return bool(reachable)


def convoy_rule(
    t: MapTables, piece: Piece, army: Piece | None, dest: str, necessary: bool
) -> Convoy | str:
    """``piece`` convoying ``army`` to ``dest``. ``necessary``: ``piece`` is one of the fleets
    that may convoy that army there (:func:`diplo.reference.convoys.route_fleets`). ``army`` is
    ``None`` when the order names a province without a unit (refused after the fleet's place,
    both engines' order of reasons)."""
    if piece.type != "F" or piece.province not in t.convoying:
        # DATC 6.F.1: only a fleet at sea (or in a port) convoys.
        return "convoy_not_at_sea"
    if army is None:
        return "no_supported_unit"
    if army.type != "A":
        # DATC 6.A.7: only armies can be convoyed.
        return "convoy_of_fleet"
    dst = t.province_of[dest]
    if dst == army.province:
        return "move_to_self"
    if not necessary:
        # DATC 6.G.19 and 4.E.1: a fleet that no convoy route from the army to the
        # destination needs cannot legally convoy it.
        return "convoy_impossible"
    return Convoy(piece.unit, army.unit, dst)


# --------------------------------------------------------------------------- retreats


def retreat_rule(
    t: MapTables, dislodged: Dislodged, dest: str, occupied: Collection[str]
) -> Retreat | str:
    """The dislodged unit retreating to location ``dest``; ``occupied``: the provinces a unit
    stands in (the position's ``units``)."""
    piece = dislodged.piece
    dst = t.province_of[dest]
    options = dislodged.options
    if piece.type == "A":
        dest = dst  # DATC 4.B.6: a coast on an army's retreat is ignored.
    elif dest == dst and dst not in options:
        coasts = [o for o in options if t.province_of[o] == dst]
        if len(coasts) > 1:
            return "coast_needed"
        if coasts:
            dest = coasts[0]
    if dest not in options or dst in occupied:
        # Only to a listed option, and never where a unit stands: under the rules' own options
        # no listed province holds a unit; MILA's (``retreat_after_convoy="any"``) lists them.
        return "bad_retreat"
    return Retreat(piece.unit, dest)


# --------------------------------------------------------------------------- adjustments


def waive_rule(position: Position, power: str) -> str | None:
    """Whether ``power`` may waive a build (``None``) or why not."""
    # DATC 4.D.7: a power that may build may waive instead.
    return None if centre_surplus(position, power) > 0 else "no_builds"


def disband_rule(position: Position, power: str) -> str | None:
    """Whether ``power`` may disband units in an adjustment phase (``None``) or why not (the
    unit disbanded must be its own: validation's intake)."""
    return None if centre_surplus(position, power) < 0 else "no_disbands"


def build_rule(t: MapTables, position: Position, power: str, unit: Unit) -> Build | str:
    """``power`` building ``unit`` (its type may be missing: DATC 4.C.3)."""
    if centre_surplus(position, power) <= 0:
        return "no_builds"
    game_map = t.map
    loc = unit.loc
    prov = t.province_of[loc]
    if prov not in build_sites(position, power):
        # adjustments.build_sites decides (the rules' build sites); here only the reason.
        if position.rules.build_sites == "home" and prov not in game_map.homes.get(power, ()):
            return "not_home_center"
        if position.rules.build_sites == "any_home" and not is_some_home(game_map, prov):
            return "not_home_center"
        if prov not in game_map.centers:
            return "not_home_center"
        if position.centers.get(prov) != power:
            return "center_not_owned"
        return "occupied"
    unit_type = unit.type
    if unit_type is None:
        # DATC 4.C.3 (choice c): an army inland, a fleet where a coast is named, else no build.
        if prov in t.inland:
            unit_type = "A"
        elif loc != prov:
            unit_type = "F"
        else:
            return "unit_type_needed"
    if unit_type == "A":
        return Build(Unit("A", prov))  # DATC 4.B.6: a coast on an army build is ignored.
    if prov in t.inland:
        # DATC 4.C.4, 6.I.2: a fleet cannot be built inland.
        return "fleet_to_land"
    coasts = t.coasts[prov]
    if coasts and loc == prov:
        # DATC 4.B.7, 6.B.14: a fleet built in a split-coast province needs its coast.
        return "coast_needed"
    if coasts and loc not in coasts:
        return "bad_coast"
    return Build(Unit("F", loc))
