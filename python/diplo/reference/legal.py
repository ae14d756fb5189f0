"""Every legal order of every orderable unit (for bots), and the convoy diagnostic (for players).

:func:`legal_orders` lists, for the phase of a position, the complete set of orders that
:mod:`diplo.reference.validation` accepts, each in the normalised form validation gives it (the
``order`` of a legal :class:`~diplo.reference.validation.Ruling`). Both ask the same rules,
:mod:`diplo.reference.legality`: this module only enumerates candidates (from the map's tables and
the convoy facts of :mod:`diplo.reference.convoys`) and keeps those the rules accept. So an order
validates as legal exactly when its normalised form is listed (``tests/test_legal.py``,
``tests/test_legality_home.py``).

Keys and values of the answer:

* movement phase: one key per unit of the power(s), its province; the value lists the hold, the
  moves, the supports and (fleets at sea) the convoys;
* retreat phase: one key per dislodged unit of the power(s), its province; the retreats to each
  option and the disband;
* adjustment phase: a power that may build (more centres than units) gets one key per owned,
  vacant home centre (its province, listing the army build and every fleet build) and one key
  named after the power itself (``"FRANCE"``) listing the single :class:`~diplo.model.orders.Waive`;
  a power that must disband gets one key per unit, its province, listing the disband. Province
  abbreviations and power names never clash, so one dict serves several powers.

Keys come in order: provinces sorted, then the waive keys (power names, in map order); every
list is sorted by the canonical text of its orders (:func:`~diplo.model.orders.format_order`), so
the answer is deterministic. :class:`diplo.engine.codes.CodeGame` has the same slots in the same
order.

One order per key: a bot may pick one order from every list and submit them **in the dict's
order**. Then a power's waive comes after all its builds, so it can only use up a build left
over (and is itself void when the builds used them all, DATC 4.D.4), never void a build chosen
before it (DATC 4.D.7 counts a waive as a build, first come first used). Iterating the keys
*sorted* would put ``"FRANCE"`` before ``"PAR"``: the waive first, voiding a build.

Forms that validation keeps apart are listed apart: ``A LON - BEL`` and ``A LON - BEL VIA`` are
two orders; a supported fleet move into a split-coast province is listed with the bare province
(``F GAS S F MAO - SPA``, support to a province, DATC 4.B.4) and with each coast the moving fleet
can reach (``F GAS S F MAO - SPA/NC``), since validation keeps a coast written in the support of a
fleet (DATC 6.B.9) and the two normalise differently.

Speed: everything about the map alone is computed once per map
(:class:`~diplo.reference.legality.MapTables`); everything about convoys depends only on the set
of seas holding a fleet (:func:`diplo.reference.convoys.convoy_table`, the table validation asks,
computed lazily and cached per such set); and a rule's answer for a candidate is kept per map by
the names and convoy facts it was given (its whole input), so that a candidate seen before costs
one lookup.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from weakref import WeakKeyDictionary

from ..model.map import Map, power_named
from ..model.orders import (
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Unit,
    Waive,
    format_order,
)
from ..model.position import Piece, Position
from . import legality
from .adjustments import build_sites
from .convoys import convoy_table, convoying_fleets, shores
from .legality import MapTables, map_tables
from .validation import validate

__all__ = [
    "ConvoyDiagnostic",
    "RouteStatus",
    "convoy_diagnostic",
    "legal_orders",
]

_EMPTY: frozenset[str] = frozenset()


# --------------------------------------------------------------------------- memo


class _Memo:
    """Per map: the listed (canonical text, order) pairs of a candidate, by the names and convoy
    facts the rule read (its whole input), so that a candidate seen before costs one lookup.
    Orders are immutable, and most of them recur from phase to phase."""

    def __init__(self) -> None:
        self.pairs: dict[tuple[object, ...], tuple[tuple[str, Order], ...]] = {}


_PAIR_CACHE_SIZE = 200_000
_MEMO: WeakKeyDictionary[Map, _Memo] = WeakKeyDictionary()


def _memo(game_map: Map) -> dict[tuple[object, ...], tuple[tuple[str, Order], ...]]:
    memo = _MEMO.get(game_map)
    if memo is None:
        memo = _MEMO[game_map] = _Memo()
    if len(memo.pairs) > _PAIR_CACHE_SIZE:
        memo.pairs.clear()
    return memo.pairs


def _legal(answers: Iterable[Order | str]) -> tuple[tuple[str, Order], ...]:
    """The orders the rules accepted, each once, with their canonical text."""
    seen: dict[str, Order] = {}
    for answer in answers:
        if not isinstance(answer, str):
            seen.setdefault(format_order(answer), answer)
    return tuple(seen.items())


# --------------------------------------------------------------------------- legal orders


def legal_orders(position: Position, power: str | None = None) -> dict[str, list[Order]]:
    """Every legal order of every orderable unit of ``power`` (all powers when ``None``) for the
    phase of ``position``, keyed and sorted as the module docstring says.

    Raises ``ValueError`` for a power the map does not know.
    """
    game_map = position.map
    if power is not None:
        named = power_named(power, game_map)
        if named is None:
            raise ValueError(f"unknown power {power!r}")
        power = named
        if power in game_map.neutral:
            return {}  # neutral units are never ordered
    tables = map_tables(game_map)
    kind = position.phase.kind
    if kind == "M":
        out = _movement_orders(position, tables, power)  # already sorted, see there
    else:
        raw = (
            _retreat_orders(position, tables, power)
            if kind == "R"
            else _adjustment_orders(position, tables, power)
        )
        out = {key: sorted(orders, key=format_order) for key, orders in raw.items()}
    if game_map.neutral and kind == "M":
        # Neutral units hold and are never ordered (a dislodged one is disbanded at once).
        out = {k: v for k, v in out.items() if position.units[k].power not in game_map.neutral}
    return {key: out[key] for key in sorted(out, key=_key_order(game_map))}


def _key_order(game_map: Map) -> Callable[[str], tuple[int, str]]:
    """Provinces sorted, then the waive keys (power names) in map order."""
    powers = {p: f"{i:03d}" for i, p in enumerate(game_map.powers)}

    def order(key: str) -> tuple[int, str]:
        rank = powers.get(key)
        return (0, key) if rank is None else (1, rank)

    return order


def _movement_orders(
    position: Position, tables: MapTables, power: str | None
) -> dict[str, list[Order]]:
    """Candidates from the tables and the convoy facts, kept when :mod:`.legality` accepts them
    (the rule is asked once per distinct input, see :class:`_Memo`)."""
    units = position.units
    own = [prov for prov, piece in units.items() if power is None or piece.power == power]
    if not own:
        return {}
    # Convoy routes run only through seas (and ports) holding a fleet (DATC 6.D.32).
    fleets = convoying_fleets(position)
    convoy = convoy_table(tables.map, fleets, position.rules.port_convoy == "first")
    memo = _memo(tables.map)
    name_of = {prov: str(piece.unit) for prov, piece in units.items()}

    # Every province each unit could be ordered into (by land, sea or convoy): the candidate
    # destinations of its moves, and the moves a support could name (DATC 4.E.1).
    by_sea: dict[str, frozenset[str]] = {}
    into: dict[str, list[str]] = {}
    # MILA's ports (port_convoy="first"): a support of a convoyed move is read by the routes
    # from its destination back to the army (MILA's possible orders), one way where a port is.
    # MILA's acceptance (convoyed_support="any_route"): by any route from the army, the
    # supporter's fleet too (Game._valid_order, _has_convoy_path), which is what is legal.
    any_route = position.rules.convoyed_support == "any_route"
    back = (
        not any_route
        and position.rules.port_convoy == "first"
        and not fleets.isdisjoint(tables.map.ports)
    )
    back_by_sea: dict[str, set[str]] = {}
    if back:
        for dst in shores(tables.map):
            for src in convoy.reach(dst):
                back_by_sea.setdefault(src, set()).add(dst)
    for prov, piece in units.items():
        if piece.type == "A":
            by_sea[prov] = convoy.reach(prov) if fleets else _EMPTY
            sea = frozenset(back_by_sea.get(prov, ())) if back else by_sea[prov]
            dests: Iterable[str] = tables.army_reach[prov] | sea
        else:
            dests = tables.fleet_reach[piece.loc]
        for dst in dests:
            into.setdefault(dst, []).append(prov)

    # Candidate convoys by fleet: the (army, destination) pairs the fleet is necessary for.
    convoys_of: dict[str, list[tuple[str, str]]] = {}
    if any(prov in fleets for prov in own):
        for prov, piece in units.items():
            if piece.type == "A" and by_sea[prov]:
                # godip (convoy_chains="any_fleets"): every fleet, wherever a chain reaches.
                routes = (
                    dict.fromkeys(by_sea[prov], fleets)
                    if position.rules.convoy_chains == "any_fleets"
                    else convoy.route_seas(prov)
                )
                for dst, seas in routes.items():
                    for fleet in seas:
                        convoys_of.setdefault(fleet, []).append((prov, dst))

    out: dict[str, list[Order]] = {}
    for prov in own:
        piece = units[prov]
        name = name_of[prov]
        pairs: list[tuple[str, Order]] = []
        extend = pairs.extend
        key: tuple[object, ...] = (name, "H")
        got = memo.get(key)
        if got is None:
            got = memo[key] = ((f"{name} H", Hold(piece.unit)),)
        extend(got)
        # Moves: army to every neighbour and every shore fleets could carry it to, with and
        # without "via convoy"; fleet to every neighbouring location.
        if piece.type == "A":
            sea = by_sea[prov]
            reach = tables.army_reach[prov]
            for dst in reach | sea if sea else reach:
                fact = dst in sea
                key = (name, "-", dst, fact)
                got = memo.get(key)
                if got is None:
                    got = memo[key] = _legal(
                        legality.move_rule(tables, piece, dst, via, fact) for via in (False, True)
                    )
                extend(got)
        else:
            reach = tables.fleet_reach[piece.loc]
            key = (name, "-")
            got = memo.get(key)
            if got is None:
                got = memo[key] = _legal(
                    legality.move_rule(tables, piece, loc, False, False)
                    for loc in tables.fleet_moves[piece.loc]
                )
            extend(got)
        # Supports: into every province the unit could enter, of the unit there (hold) and of
        # every unit that could be ordered there (move; a fleet's move by province and coast).
        at_sea = prov in fleets
        avoiding: dict[str, frozenset[str]] = {}  # per army: where fleets but this one carry it
        for dst in reach:
            target = units.get(dst)
            if target is not None:
                key = (name, "S", name_of[dst])
                got = memo.get(key)
                if got is None:
                    got = memo[key] = _legal((legality.support_hold_rule(tables, piece, target),))
                extend(got)
            for mover in into.get(dst, ()):
                moving = units[mover]
                # DATC 6.D.31: could fleets other than this unit carry the mover there? (Not
                # when no fleets could; the same answer when this unit is no fleet at sea.)
                if back:
                    fact = moving.type == "A" and mover in convoy.reach(dst, prov)
                else:
                    fact = moving.type == "A" and dst in by_sea[mover]
                if fact and at_sea and not back and not any_route:
                    without = avoiding.get(mover)
                    if without is None:
                        without = avoiding[mover] = convoy.reach(mover, prov)
                    fact = dst in without
                key = (name, name_of[mover], dst, fact)
                got = memo.get(key)
                if got is None:
                    forms = (dst, *tables.coasts[dst]) if moving.type == "F" else (dst,)
                    got = memo[key] = _legal(
                        legality.support_move_rule(tables, piece, moving, d, fact) for d in forms
                    )
                extend(got)
        for army, dst in convoys_of.get(prov, ()):
            key = (name, "C", name_of[army], dst)
            got = memo.get(key)
            if got is None:
                got = memo[key] = _legal(
                    (legality.convoy_rule(tables, piece, units[army], dst, True),)
                )
            extend(got)
        pairs.sort(key=_text)
        out[prov] = [order for _, order in pairs]
    return out


def _text(pair: tuple[str, Order]) -> str:
    return pair[0]


def _retreat_orders(
    position: Position, tables: MapTables, power: str | None
) -> dict[str, list[Order]]:
    out: dict[str, list[Order]] = {}
    for prov, dislodged in position.dislodged.items():
        piece = dislodged.piece
        if power is not None and piece.power != power:
            continue
        legal = _legal(
            legality.retreat_rule(tables, dislodged, o, position.units) for o in dislodged.options
        )
        out[prov] = [order for _, order in legal]
        out[prov].append(Disband(piece.unit))
    return out


def _adjustment_orders(
    position: Position, tables: MapTables, power: str | None
) -> dict[str, list[Order]]:
    game_map = position.map
    powers: Iterable[str] = game_map.powers if power is None else (power,)
    out: dict[str, list[Order]] = {}
    for p in powers:
        if p in game_map.neutral:
            continue  # neutral units are never ordered; a rebuilding neutral raises its own
        if legality.waive_rule(position, p) is None:
            for home in build_sites(position, p):
                # Every unit type and coast a build there could name.
                candidates = [
                    Unit("A", home),
                    *(Unit("F", c) for c in tables.coasts[home] or (home,)),
                ]
                legal = _legal(legality.build_rule(tables, position, p, u) for u in candidates)
                if legal:
                    out[home] = [order for _, order in legal]
            out[p] = [Waive()]
        elif legality.disband_rule(position, p) is None:
            for piece in position.units_of(p):
                out[piece.province] = [Disband(piece.unit)]
    return out


# --------------------------------------------------------------------------- convoy diagnostic


@dataclass(frozen=True)
class RouteStatus:
    """One minimal convoy route and what it still lacks.

    ``missing`` are the seas whose fleet has no legal, effective order to convoy the army to the
    destination; ``foreign`` are those of them whose fleet belongs to another power than the one
    asking, as ``(sea, power)`` pairs: their orders must be asked for.
    """

    seas: tuple[str, ...]
    missing: tuple[str, ...]
    foreign: tuple[tuple[str, str], ...]

    @property
    def complete(self) -> bool:
        return not self.missing


@dataclass(frozen=True)
class ConvoyDiagnostic:
    """Whether and how an army could be convoyed, given the orders submitted so far.

    ``possible`` says whether the fleets on the board could carry the army at all (a route over
    seas holding fleets, DATC 6.D.32); ``routes`` lists minimal routes, shortest first (at most
    the number asked for); ``army_ordered`` says whether the army's own submitted order moves it
    to the destination; ``message`` says all that in a sentence.
    """

    army: Piece | None
    dest: str
    possible: bool
    routes: tuple[RouteStatus, ...]
    army_ordered: bool
    message: str

    @property
    def complete(self) -> bool:
        """Some route has every fleet ordered to convoy and the army is ordered to go."""
        return self.army_ordered and any(r.complete for r in self.routes)


def convoy_diagnostic(
    position: Position,
    power: str,
    army_province: str,
    dest: str,
    submitted: Mapping[str, Sequence[str | Order]] | None = None,
    max_routes: int = 5,
) -> ConvoyDiagnostic:
    """Explain whether the army in ``army_province`` can be convoyed to ``dest`` and which convoy
    orders are still missing, for ``power`` (the player asking).

    ``submitted`` are the orders given so far, by power, as text or :class:`Order`; they are
    validated as the phase would validate them, so an illegal or contradicted convoy order
    (DATC 4.D.3) does not count. Province names may be written in any form the map knows.
    """
    game_map = position.map
    src = game_map.province_of(game_map.lookup(army_province))
    dst = game_map.province_of(game_map.lookup(dest))
    piece = position.units.get(src)

    def result(
        possible: bool, routes: tuple[RouteStatus, ...], ordered: bool, msg: str
    ) -> ConvoyDiagnostic:
        return ConvoyDiagnostic(piece, dst, possible, routes, ordered, msg)

    if position.phase.kind != "M":
        return result(
            False, (), False, f"Convoys are ordered in movement phases, not in {position.phase}."
        )
    if piece is None:
        return result(False, (), False, f"There is no unit in {src} to convoy.")
    if piece.type != "A":
        return result(
            False, (), False, f"{piece} is a fleet; only armies can be convoyed (DATC 6.A.7)."
        )
    what = f"{piece} - {dst}"
    if dst == src:
        return result(False, (), False, f"{what}: an army cannot be convoyed to its own province.")
    tables = map_tables(game_map)
    coasts = shores(tables.map)
    if src not in coasts or dst not in coasts:
        return result(
            False,
            (),
            False,
            f"{what}: a convoy runs between two coastal provinces, so none can carry it.",
        )

    convoy = convoy_table(
        tables.map, convoying_fleets(position), position.rules.port_convoy == "first"
    )
    found = convoy.minimal_routes(src, dst)
    if not found:
        return result(
            False,
            (),
            False,
            f"No convoy can carry {piece} to {dst}: no chain of fleets at sea links {src} to "
            f"{dst}, so the move is illegal unless {dst} is next to {src} (DATC 6.D.32).",
        )

    effective = validate(position, submitted or {}).orders
    routes: list[RouteStatus] = []
    for seas in found[: max(max_routes, 1)]:
        missing: list[str] = []
        foreign: list[tuple[str, str]] = []
        for sea in seas:
            fleet = position.units[sea]
            if effective.get(sea) != Convoy(fleet.unit, piece.unit, dst):
                missing.append(sea)
                if fleet.power != power:
                    foreign.append((sea, fleet.power))
        routes.append(RouteStatus(seas, tuple(missing), tuple(foreign)))
    army_order = effective.get(src)
    ordered = isinstance(army_order, Move) and army_order.dest == dst
    return result(
        True,
        tuple(routes),
        ordered,
        _diagnostic_message(position, piece, dst, routes, ordered, power),
    )


def _diagnostic_message(
    position: Position,
    piece: Piece,
    dst: str,
    routes: list[RouteStatus],
    ordered: bool,
    power: str,
) -> str:
    what = f"{piece} - {dst}"
    army_note = "" if ordered else f" {piece} itself is not yet ordered to move to {dst}."
    done = [r for r in routes if r.complete]
    if done:
        seas = ", ".join(done[0].seas)
        return (
            f"{what} is convoyed via {seas}: every fleet on that route is ordered to convoy it."
            + army_note
        )
    best = min(routes, key=lambda r: (len(r.missing), len(r.seas), r.seas))
    own = [s for s in best.missing if all(s != f for f, _ in best.foreign)]
    parts: list[str] = []
    if own:
        parts.append("order " + _fleets(position, own))
    asks: dict[str, list[str]] = {}
    for sea, owner in best.foreign:
        asks.setdefault(owner, []).append(sea)
    for owner, owner_seas in asks.items():
        parts.append(f"ask {owner.title()} for {_fleets(position, owner_seas)}")
    return (
        f"{what} can be convoyed via {', '.join(best.seas)}, but "
        f"{_count(len(best.missing))} on that route "
        f"{'is' if len(best.missing) == 1 else 'are'} not ordered to convoy it: "
        f"{' and '.join(parts)}.{army_note}"
    )


def _fleets(position: Position, seas: Sequence[str]) -> str:
    return ", ".join(str(position.units[s]) for s in seas)


def _count(n: int) -> str:
    return "1 fleet" if n == 1 else f"{n} fleets"
