"""Every legal order of every orderable unit (for bots), and the convoy diagnostic (for players).

:func:`legal_orders` lists, for the phase of a position, the complete set of orders that
:mod:`diplo.validation` accepts, each in the normalised form validation gives it (the ``order`` of
a legal :class:`~diplo.validation.Ruling`). The contract, held by the property tests in
``tests/test_legal.py``: an order validates as legal exactly when its normalised form is listed.
So the rules below mirror validation's, rule for rule; where validation changes, this module must
follow.

Keys and values of the answer:

* movement phase: one key per unit of the power(s), its province; the value lists the hold, the
  moves, the supports and (fleets at sea) the convoys;
* retreat phase: one key per dislodged unit of the power(s), its province; the retreats to each
  option and the disband;
* adjustment phase: a power that may build (more centres than units) gets one key per owned,
  vacant home centre (its province, listing the army build and every fleet build) and one key
  named after the power itself (``"FRANCE"``) listing the single :class:`~diplo.orders.Waive`; a
  power that must disband gets one key per unit, its province, listing the disband. Province
  abbreviations and power names never clash, so one dict serves several powers.

Keys come in order: provinces sorted, then the waive keys (power names, in map order); every
list is sorted by the canonical text of its orders (:func:`~diplo.orders.format_order`), so the
answer is deterministic. :class:`diplo.fast.FastGame` has the same slots in the same order.

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

Speed: everything about the map alone is computed once per map (:class:`_Tables`), and everything
about convoys (which provinces an army can reach by sea, which fleets lie on minimal routes)
depends only on the set of seas holding a fleet: :func:`diplo.convoys.convoy_table`, the same
table validation asks, computed lazily and cached per such set.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from weakref import WeakKeyDictionary

from ..model.map import Map, power_named
from ..model.orders import (
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
from .adjustments import build_sites, centre_surplus
from .convoys import convoy_table, shores
from .validation import validate

__all__ = [
    "ConvoyDiagnostic",
    "RouteStatus",
    "convoy_diagnostic",
    "legal_orders",
]

_EMPTY: frozenset[str] = frozenset()


# --------------------------------------------------------------------------- per-map tables


class _Tables:
    """What the generator asks about the map alone, computed once per map."""

    def __init__(self, game_map: Map) -> None:
        self.map = game_map
        provinces = game_map.provinces
        # Where a fleet may convoy (seas and ports, `Map.may_convoy`).
        self.seas = frozenset(p for p in provinces if game_map.may_convoy(p))
        self.inland = frozenset(p for p in provinces if game_map.is_land(p))
        # Army moves: army edges never touch a sea, so these are exactly the legal land moves.
        self.army_moves: dict[str, tuple[str, ...]] = {
            p: tuple(sorted(game_map.army_neighbours(p))) for p in provinces
        }
        self.army_reach: dict[str, frozenset[str]] = {
            p: game_map.army_neighbours(p) for p in provinces
        }
        # Fleet moves: every neighbouring location, each coast of a split-coast province apart
        # (DATC 4.B.1/4.B.2: validation turns a bare destination into the one reachable coast).
        self.fleet_moves: dict[str, tuple[str, ...]] = {
            loc: tuple(sorted(game_map.fleet_neighbours(loc))) for loc in game_map.locations
        }
        # A supported fleet move into a province, as validation normalises it: the bare province
        # and every coast of it the mover can reach (for a province without coasts, just it).
        self.fleet_support_dests: dict[str, dict[str, tuple[str, ...]]] = {}
        self.fleet_reach: dict[str, frozenset[str]] = {}
        for loc in game_map.locations:
            by_prov: dict[str, tuple[str, ...]] = {}
            for n in game_map.fleet_neighbours(loc):
                prov = game_map.province_of(n)
                if prov not in by_prov:
                    coasts = game_map.reachable_coasts(loc, prov)
                    by_prov[prov] = (prov,) if coasts == (prov,) else (prov, *coasts)
            self.fleet_support_dests[loc] = by_prov
            self.fleet_reach[loc] = frozenset(by_prov)
        self.pairs: dict[tuple[str, ...], tuple[tuple[str, Order], ...]] = {}


_PAIR_CACHE_SIZE = 200_000
_TABLES: WeakKeyDictionary[Map, _Tables] = WeakKeyDictionary()


def _tables(game_map: Map) -> _Tables:
    tables = _TABLES.get(game_map)
    if tables is None:
        tables = _Tables(game_map)
        _TABLES[game_map] = tables
    return tables


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
    tables = _tables(game_map)
    kind = position.phase.kind
    if kind == "M":
        out = _movement_orders(position, tables, power)  # already sorted, see there
    else:
        raw = (
            _retreat_orders(position, power) if kind == "R" else _adjustment_orders(position, power)
        )
        out = {key: sorted(orders, key=format_order) for key, orders in raw.items()}
    return {key: out[key] for key in sorted(out, key=_key_order(game_map))}


def _key_order(game_map: Map) -> Callable[[str], tuple[int, str]]:
    """Provinces sorted, then the waive keys (power names) in map order."""
    powers = {p: f"{i:03d}" for i, p in enumerate(game_map.powers)}

    def order(key: str) -> tuple[int, str]:
        rank = powers.get(key)
        return (0, key) if rank is None else (1, rank)

    return order


def _movement_orders(
    position: Position, tables: _Tables, power: str | None
) -> dict[str, list[Order]]:
    units = position.units
    own = [prov for prov, piece in units.items() if power is None or piece.power == power]
    if not own:
        return {}
    seas = tables.seas
    # Convoy routes run only through seas (and ports) holding a fleet (DATC 6.D.32).
    fleets = frozenset(prov for prov, piece in units.items() if prov in seas and piece.type == "F")
    convoy = convoy_table(tables.map, fleets)
    unit_of = {prov: piece.unit for prov, piece in units.items()}

    # Every possible move of every unit on the board, by destination province: what a support
    # could name (DATC 4.E.1: the supported move must itself be possible). Entries are
    # (mover's province, normalised destinations of the support, whether only a convoy makes it).
    into: dict[str, list[tuple[str, tuple[str, ...], bool]]] = {}
    convoy_reach: dict[str, frozenset[str]] = {}
    for prov, piece in units.items():
        if piece.type == "A":
            for dst in tables.army_moves[prov]:
                into.setdefault(dst, []).append((prov, (dst,), False))
            by_sea = convoy.reach(prov) if fleets else _EMPTY
            convoy_reach[prov] = by_sea
            land = tables.army_reach[prov]
            for dst in by_sea:
                if dst not in land:
                    into.setdefault(dst, []).append((prov, (dst,), True))
        else:
            for dst, dests in tables.fleet_support_dests[piece.loc].items():
                into.setdefault(dst, []).append((prov, dests, False))

    # Convoy orders by sea: (army province, destination) pairs whose minimal routes use the sea.
    convoys_by_sea: dict[str, list[tuple[str, str]]] = {}
    if any(prov in seas for prov in own):
        for prov, piece in units.items():
            if piece.type == "A" and convoy_reach.get(prov):
                for dst, route in convoy.route_seas(prov).items():
                    for sea in route:
                        convoys_by_sea.setdefault(sea, []).append((prov, dst))

    # Lists are built from (canonical text, order) pairs, the text made from the unit names
    # exactly as format_order writes it, so that sorting needs no formatting pass. The pairs
    # depend only on the names involved, so they are kept per map (``tables.pairs``) and shared
    # between calls: orders are immutable, and most of them recur from phase to phase.
    name_of = {prov: str(unit) for prov, unit in unit_of.items()}
    cache = tables.pairs
    if len(cache) > _PAIR_CACHE_SIZE:
        cache.clear()
    out: dict[str, list[Order]] = {}
    for prov in own:
        piece = units[prov]
        unit = unit_of[prov]
        name = name_of[prov]
        pairs: list[tuple[str, Order]] = []
        extend = pairs.extend
        key: tuple[str, ...] = (name, "H")
        got = cache.get(key)
        if got is None:
            got = cache[key] = ((f"{name} H", Hold(unit)),)
        extend(got)
        if piece.type == "A":
            by_sea = convoy_reach[prov]
            land = tables.army_reach[prov]
            key = (name, "-")
            got = cache.get(key)
            if got is None:
                moves: list[tuple[str, Order]] = []
                for dst in tables.army_moves[prov]:
                    moves.append((f"{name} - {dst}", Move(unit, dst, False)))
                    moves.append((f"{name} - {dst} VIA", Move(unit, dst, True)))
                got = cache[key] = tuple(moves)
            # DATC 4.E.1, 6.D.32: "via convoy" to a neighbour needs fleets that could carry it.
            for pair in got:
                move = pair[1]
                if isinstance(move, Move) and (not move.via or move.dest in by_sea):
                    pairs.append(pair)
            for dst in by_sea:
                if dst not in land:
                    # DATC 6.D.32: a move beyond the army's neighbours needs fleets that could
                    # carry it; with or without "via", it is the same convoyed move in intent.
                    key = (name, "-", dst)
                    got = cache.get(key)
                    if got is None:
                        got = cache[key] = (
                            (f"{name} - {dst}", Move(unit, dst, False)),
                            (f"{name} - {dst} VIA", Move(unit, dst, True)),
                        )
                    extend(got)
            reach = land
        else:
            # DATC 6.A.7: a fleet cannot be convoyed, so no VIA form for fleets.
            key = (name, "-")
            got = cache.get(key)
            if got is None:
                got = cache[key] = tuple(
                    (f"{name} - {loc}", Move(unit, loc, False))
                    for loc in tables.fleet_moves[piece.loc]
                )
            extend(got)
            reach = tables.fleet_reach[piece.loc]
        at_sea = prov in seas
        for dst in reach:
            # Support only into a province the supporter could enter itself (DATC 6.B.5 for
            # coasts: province level), never its own (the reach never contains it, DATC 6.D.34).
            if dst in unit_of:
                key = (name, "S", name_of[dst])
                got = cache.get(key)
                if got is None:
                    text = f"{name} S {name_of[dst]}"
                    got = cache[key] = ((text, SupportHold(unit, unit_of[dst])),)
                extend(got)
            for mover, dests, by_convoy in into.get(dst, ()):
                if mover == prov:
                    continue
                # DATC 6.D.31: a fleet cannot support a convoyed move that needs that fleet.
                if by_convoy and at_sea and dst not in convoy.reach(mover, prov):
                    continue
                key = (name, name_of[mover], dst)
                got = cache.get(key)
                if got is None:
                    head = f"{name} S {name_of[mover]} - "
                    mover_unit = unit_of[mover]
                    got = cache[key] = tuple(
                        (head + d, SupportMove(unit, mover_unit, d)) for d in dests
                    )
                extend(got)
        if at_sea:
            # DATC 6.G.19 and 4.E.1: only a fleet on some minimal route may convoy the army.
            for army, dst in convoys_by_sea.get(prov, ()):
                key = (name, "C", name_of[army], dst)
                got = cache.get(key)
                if got is None:
                    text = f"{name} C {name_of[army]} - {dst}"
                    got = cache[key] = ((text, Convoy(unit, unit_of[army], dst)),)
                extend(got)
        pairs.sort(key=_text)
        out[prov] = [order for _, order in pairs]
    return out


def _text(pair: tuple[str, Order]) -> str:
    return pair[0]


def _retreat_orders(position: Position, power: str | None) -> dict[str, list[Order]]:
    game_map = position.map
    out: dict[str, list[Order]] = {}
    for prov, dislodged in position.dislodged.items():
        piece = dislodged.piece
        if power is not None and piece.power != power:
            continue
        unit = piece.unit
        if piece.type == "A":
            # DATC 4.B.6: an army's retreat is to a province (a coast written is ignored).
            dests = {o for o in dislodged.options if game_map.province_of(o) == o}
        else:
            dests = set(dislodged.options)
        orders: list[Order] = [Retreat(unit, d) for d in dests]
        orders.append(Disband(unit))
        out[prov] = orders
    return out


def _adjustment_orders(position: Position, power: str | None) -> dict[str, list[Order]]:
    game_map = position.map
    powers: Iterable[str] = game_map.powers if power is None else (power,)
    out: dict[str, list[Order]] = {}
    for p in powers:
        owed = centre_surplus(position, p)
        if owed > 0:
            for home in build_sites(position, p):
                builds: list[Order] = [Build(Unit("A", home))]
                if not game_map.is_land(home):
                    # DATC 4.C.4: no fleet inland; 4.B.7: a split-coast province needs the coast.
                    coasts = game_map.coasts_of(home) or (home,)
                    builds.extend(Build(Unit("F", c)) for c in coasts)
                out[home] = builds
            # DATC 4.D.7: a power that may build may waive instead.
            out[p] = [Waive()]
        elif owed < 0:
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
    tables = _tables(game_map)
    coasts = shores(tables.map)
    if src not in coasts or dst not in coasts:
        return result(
            False,
            (),
            False,
            f"{what}: a convoy runs between two coastal provinces, so none can carry it.",
        )

    fleets = frozenset(
        prov for prov, p in position.units.items() if prov in tables.seas and p.type == "F"
    )
    convoy = convoy_table(tables.map, fleets)
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
