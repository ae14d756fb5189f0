"""Legal-order enumeration (``diplo.api.legal``): the list equals what validation accepts.

The contract: an order validates as legal exactly when its normalised form (the ``order`` of the
legal ruling) is listed by :func:`legal_orders`, and every listed order validates as legal and
normalises to itself. Hand-made expectations pin down a few units of the opening position; the
property tests check the contract on generated boards, exhaustively for the units they pick.
"""

from __future__ import annotations

import time
from collections.abc import Iterable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import Phase as HPhase
from hypothesis import strategies as st

from diplo.model.map import standard_map
from diplo.model.orders import (
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
    parse_order,
)
from diplo.model.position import Dislodged, Phase, Piece, Position
from diplo.reference.convoys import convoy_table, route_fleets, sea_route_exists, shores
from diplo.reference.legal import convoy_diagnostic, legal_orders
from diplo.reference.validation import validate_order

MAP = standard_map()
PROVINCES = tuple(MAP.provinces)
LOCATIONS = MAP.locations
POWERS = MAP.powers
SEAS = tuple(p for p in PROVINCES if MAP.is_sea(p))
SHORES = tuple(p for p in PROVINCES if not MAP.is_sea(p))
CENTERS = tuple(sorted(MAP.centers))
COAST_LOCATIONS = tuple(loc for loc in LOCATIONS if "/" in loc)


def texts(orders: Iterable[Order]) -> list[str]:
    return [format_order(o) for o in orders]


def position(
    units: dict[str, list[str]], phase: str = "S1901M", centers: dict[str, list[str]] | None = None
) -> Position:
    doc = {"phase": phase, "units": units, "centers": centers or {}}
    return Position.from_json(doc, MAP)


def flat(listing: dict[str, list[Order]]) -> set[Order]:
    return {o for orders in listing.values() for o in orders}


# --------------------------------------------------------------------------- the opening position


def test_opening_fleet_london() -> None:
    lo = legal_orders(Position.initial(MAP), "ENGLAND")
    assert texts(lo["LON"]) == [
        "F LON - ENG",
        "F LON - NTH",
        "F LON - WAL",
        "F LON - YOR",
        "F LON H",
        "F LON S A LVP - WAL",
        "F LON S A LVP - YOR",
        "F LON S F BRE - ENG",
        "F LON S F EDI - NTH",
        "F LON S F EDI - YOR",
    ]


def test_opening_army_paris() -> None:
    # No fleet is at sea, so no convoyed move and no "via convoy" (DATC 6.D.32).
    lo = legal_orders(Position.initial(MAP), "FRANCE")
    moves = [f"A PAR - {d}" for d in ("BRE", "BUR", "GAS", "PIC")]
    assert texts(lo["PAR"]) == [
        *moves,
        "A PAR H",
        "A PAR S A MAR - BUR",
        "A PAR S A MAR - GAS",
        "A PAR S A MUN - BUR",
        "A PAR S F BRE",
        "A PAR S F BRE - GAS",
        "A PAR S F BRE - PIC",
    ]


def test_opening_fleet_on_a_coast() -> None:
    lo = legal_orders(Position.initial(MAP), "RUSSIA")
    assert texts(lo["STP"]) == [
        "F STP/SC - BOT",
        "F STP/SC - FIN",
        "F STP/SC - LVN",
        "F STP/SC H",
        "F STP/SC S A MOS - LVN",
        "F STP/SC S A WAR - LVN",
    ]
    assert sorted(lo) == ["MOS", "SEV", "STP", "WAR"]


def test_opening_keys_and_sorting() -> None:
    lo = legal_orders(Position.initial(MAP))
    assert sorted(lo) == sorted(Position.initial(MAP).units) == list(lo)
    for key, orders in lo.items():
        assert texts(orders) == sorted(texts(orders))
        assert Hold(Position.initial(MAP).units[key].unit) in orders
    assert (
        sum(len(v) for v in lo.values()) == 238
    )  # 299 before "via convoy" needed a route: 61 adjacent army moves, tagged VIA


def test_unknown_power() -> None:
    with pytest.raises(ValueError, match="unknown power"):
        legal_orders(Position.initial(MAP), "ATLANTIS")


# --------------------------------------------------------------------------- coasts and convoys


def test_split_coasts_each_listed() -> None:
    pos = position({"FRANCE": ["F MAO", "F GAS", "A BRE"], "ITALY": ["F WES"]})
    lo = legal_orders(pos, "FRANCE")
    mao = texts(lo["MAO"])
    # DATC 4.B.1: each reachable coast of Spain is a separate move; the bare form is not an order.
    assert "F MAO - SPA/NC" in mao and "F MAO - SPA/SC" in mao and "F MAO - SPA" not in mao
    # Gascony reaches only the north coast; a support of a fleet move keeps the coast written
    # (DATC 6.B.9) or names the province (4.B.4): both forms, each a different order.
    gas = texts(lo["GAS"])
    assert {o for o in gas if " S F MAO - SPA" in o} == {
        "F GAS S F MAO - SPA",
        "F GAS S F MAO - SPA/NC",
        "F GAS S F MAO - SPA/SC",
    }
    assert "F GAS - SPA/NC" in gas and "F GAS - SPA/SC" not in gas
    # Brest reaches Spain only by the convoy over MAO: Gascony may support that move (naming the
    # province only), but MAO may not, as the move needs it (DATC 6.D.31).
    assert "F GAS S A BRE - SPA" in gas
    assert "F MAO S A BRE - SPA" not in mao
    assert "F MAO C A BRE - SPA" in mao
    assert "F MAO S A BRE - GAS" in mao


def test_convoys_listed_with_routes() -> None:
    pos = position({"ENGLAND": ["A LON", "F NTH", "F ENG"], "FRANCE": ["F MAO", "A BRE"]})
    lo = legal_orders(pos)
    nth = texts(lo["NTH"])
    convoys = sorted(o for o in nth if " C " in o)
    # NTH lies on a minimal route from London to each North Sea shore; from Brest (over ENG) to
    # each North Sea shore the Channel does not touch itself: not BEL, not LON (DATC 6.G.19, a
    # route through a shortcut is not minimal).
    shores = ("DEN", "EDI", "HOL", "NWY", "YOR")
    expected = [f"F NTH C A {a} - {d}" for a in ("BRE", "LON") for d in shores]
    assert convoys == sorted([*expected, "F NTH C A LON - BEL"])
    lon = texts(lo["LON"])
    assert "A LON - NWY" in lon and "A LON - NWY VIA" in lon
    assert "A LON - BRE" in lon and "A LON - SPA" in lon  # via ENG (and MAO)
    # F ENG convoys London to Spain only with MAO: ENG-MAO is the minimal route.
    assert "F ENG C A LON - SPA" in texts(lo["ENG"])
    assert "F MAO C A LON - SPA" in texts(lo["MAO"])
    assert "F NTH C A LON - SPA" not in nth
    # Brest's army goes by ENG or MAO: both can convoy it to London (different minimal routes).
    assert "F ENG C A BRE - LON" in texts(lo["ENG"])
    assert "F MAO C A BRE - LON" not in texts(lo["MAO"])  # MAO-ENG: ENG touches BRE already


def test_fleet_cannot_support_convoy_it_carries() -> None:
    # DATC 6.D.31: F NTH is the only route from LON to NWY, so it cannot support that move.
    pos = position({"ENGLAND": ["A LON", "F NTH"], "RUSSIA": ["F SKA"]})
    lo = legal_orders(pos)
    assert "F NTH S A LON - NWY" not in texts(lo["NTH"])
    # Skagerrak can support it: the route over NTH does not need it.
    assert "F SKA S A LON - NWY" in texts(lo["SKA"])
    assert "F NTH C A LON - NWY" in texts(lo["NTH"])


def test_missing_fleet_no_convoyed_move() -> None:
    # DATC 6.D.32: without a fleet in the North Sea, Yorkshire cannot reach Holland.
    pos = position({"GERMANY": ["A YOR"], "ENGLAND": ["F LON"]})
    yor = texts(legal_orders(pos)["YOR"])
    assert not any("HOL" in o for o in yor)
    assert "F LON S A YOR - HOL" not in texts(legal_orders(pos)["LON"])


# --------------------------------------------------------------------------- other phases


def test_retreat_phase() -> None:
    pos = Position(
        MAP,
        Phase(1901, "F", "R"),
        {"GAS": Piece("FRANCE", "A", "GAS"), "MAO": Piece("ENGLAND", "F", "MAO")},
        {},
        {
            "POR": Dislodged(Piece("FRANCE", "F", "POR"), ("SPA/NC",)),
            "BRE": Dislodged(Piece("FRANCE", "A", "BRE"), ("PAR", "PIC")),
            "NAO": Dislodged(Piece("ENGLAND", "F", "NAO"), ()),
        },
    )
    lo = legal_orders(pos, "FRANCE")
    assert list(lo) == ["BRE", "POR"]
    assert texts(lo["POR"]) == ["F POR D", "F POR R SPA/NC"]
    assert texts(lo["BRE"]) == ["A BRE D", "A BRE R PAR", "A BRE R PIC"]
    assert texts(legal_orders(pos, "ENGLAND")["NAO"]) == ["F NAO D"]
    assert legal_orders(pos, "ITALY") == {}


def test_adjustment_builds_and_waive() -> None:
    pos = position(
        {"RUSSIA": ["A MOS"], "TURKEY": ["F ANK", "A CON", "A SMY", "A BUL"]},
        phase="W1901A",
        centers={"RUSSIA": ["MOS", "STP", "WAR", "SEV", "RUM"], "TURKEY": ["ANK", "CON", "SMY"]},
    )
    lo = legal_orders(pos)
    # Provinces sorted, then the waive: one order per key in this order puts it after the builds.
    assert list(lo) == ["ANK", "BUL", "CON", "SEV", "SMY", "STP", "WAR", "RUSSIA"]
    assert texts(lo["STP"]) == ["A STP B", "F STP/NC B", "F STP/SC B"]
    assert texts(lo["SEV"]) == ["A SEV B", "F SEV B"]
    assert texts(lo["WAR"]) == ["A WAR B"]  # DATC 4.C.4: no fleet inland
    assert lo["RUSSIA"] == [Waive()]
    assert all(lo[p] == [Disband(pos.units[p].unit)] for p in ("ANK", "BUL", "CON", "SMY"))
    assert "MOS" not in lo  # occupied


def test_adjustment_surplus_without_sites_can_only_waive() -> None:
    pos = position(
        {"ENGLAND": ["F LON", "F EDI", "A LVP"]},
        phase="W1901A",
        centers={"ENGLAND": ["LON", "EDI", "LVP", "NWY"]},
    )
    assert legal_orders(pos, "ENGLAND") == {"ENGLAND": [Waive()]}
    assert legal_orders(pos, "FRANCE") == {}


# --------------------------------------------------------------------------- the contract


def _check_sound(pos: Position, power: str, listing: dict[str, list[Order]]) -> None:
    """Every listed order validates as legal and normalises to itself."""
    for orders in listing.values():
        assert len(set(orders)) == len(orders)
        for order in orders:
            ruling = validate_order(pos, power, order)
            assert ruling.legal, ruling.message
            assert ruling.order == order, (format_order(order), ruling.canonical)


def _exhaustive_candidates(pos: Position, key: str, mode: str = "all") -> Iterable[Order]:
    """Every order of every type for the unit under ``key``, over every location (adjustments:
    every build, disband and waive of the power, whatever ``key``).

    ``mode`` "moves" stops after the holds and moves (and retreats), the cheap part; "pruned"
    leaves out only supports into provinces the unit cannot reach (``Map.can_reach``, the rule of
    DATC 6.B.5 as validation applies it) and convoys of non-armies, which no rule lets through.
    """
    kind = pos.phase.kind
    if kind == "A":
        for loc in LOCATIONS:
            for t in (None, "A", "F"):
                yield Build(Unit(t, loc))
        for prov in PROVINCES:
            yield Disband(Unit(None, prov))
        yield Waive()
        return
    if kind == "R":
        unit = pos.dislodged[key].piece.unit
        yield Hold(unit)
        yield Disband(unit)
        for loc in LOCATIONS:
            yield Retreat(unit, loc)
            yield Move(unit, loc, True)
        return
    piece = pos.units[key]
    unit = Unit(None, key) if piece.type == "A" else piece.unit
    yield Hold(unit)
    yield Disband(unit)
    for loc in LOCATIONS:
        yield Move(unit, loc, False)
        yield Move(unit, loc, True)
    if mode == "moves":
        return
    for prov in PROVINCES:
        yield SupportHold(unit, Unit(None, prov))
    support_dests = LOCATIONS
    if mode == "pruned":
        support_dests = tuple(
            loc for loc in LOCATIONS if MAP.can_reach(piece.type, piece.loc, MAP.province_of(loc))
        )
    for prov, other_piece in pos.units.items():
        other = Unit(None, prov)
        for loc in support_dests:
            yield SupportMove(unit, other, loc)
        if mode != "pruned" or (MAP.is_sea(key) and other_piece.type == "A"):
            for loc in LOCATIONS:
                yield Convoy(unit, other, loc)


def _check_complete(
    pos: Position,
    power: str,
    listing: dict[str, list[Order]],
    key: str,
    mode: str = "all",
) -> None:
    """Every candidate that validates as legal is listed (under ``key``), and no other."""
    listed = flat(listing)
    accepted: set[Order] = set()
    for candidate in _exhaustive_candidates(pos, key, mode):
        ruling = validate_order(pos, power, candidate)
        if ruling.legal:
            assert ruling.order in listed, (format_order(candidate), ruling.canonical)
            accepted.add(ruling.order)
        else:
            assert candidate not in listed, (format_order(candidate), ruling.message)
    if pos.phase.kind == "A":
        assert accepted == listed
    elif mode == "moves":
        assert accepted == {
            o for o in listing[key] if isinstance(o, Hold | Move | Retreat | Disband)
        }
    else:
        assert accepted == set(listing[key])


@pytest.mark.parametrize("power", POWERS)
def test_opening_exhaustive(power: str) -> None:
    pos = Position.initial(MAP)
    listing = legal_orders(pos, power)
    _check_sound(pos, power, listing)
    for key in listing:
        _check_complete(pos, power, listing, key)


def test_crowded_convoy_board_exhaustive() -> None:
    pos = position(
        {
            "ENGLAND": ["F NTH", "F ENG", "A LON", "A WAL", "F IRI", "F NAO"],
            "FRANCE": ["F MAO", "A BRE", "A PIC", "F WES", "A SPA", "F LYO"],
            "ITALY": ["F TYS", "A NAP", "F ION", "A TUN"],
            "GERMANY": ["F HEL", "A HOL", "F SKA", "A DEN", "F BAL"],
            "RUSSIA": ["F STP/NC", "A NWY", "F BOT", "A SWE"],
            "TURKEY": ["F AEG", "A GRE", "F EAS", "A SMY"],
            "AUSTRIA": ["F ADR", "A TRI", "A ALB"],
        }
    )
    started = time.perf_counter()
    for power in POWERS:
        listing = legal_orders(pos, power)
        _check_sound(pos, power, listing)
        for key in listing:
            _check_complete(pos, power, listing, key)
    assert time.perf_counter() - started < 30


# --------------------------------------------------------------------------- generated boards


@st.composite
def boards(draw: st.DrawFn) -> Position:
    """Random units of random powers; random phase kind, dislodged units and centre owners."""
    # Sizes drawn first so that crowded, convoy-rich boards are as common as sparse ones.
    n_seas = draw(st.integers(0, 14))
    n_shores = draw(st.integers(0, 30))
    seas = draw(st.lists(st.sampled_from(SEAS), unique=True, min_size=n_seas, max_size=n_seas))
    shores = draw(
        st.lists(st.sampled_from(SHORES), unique=True, min_size=n_shores, max_size=n_shores)
    )
    units: dict[str, Piece] = {}
    for prov in [*seas, *shores]:
        units[prov] = _random_piece(draw, prov)
    kind = draw(st.sampled_from("MRA"))
    dislodged: dict[str, Dislodged] = {}
    centers: dict[str, str] = {}
    if kind == "R":
        for prov in draw(st.lists(st.sampled_from(PROVINCES), unique=True, max_size=5)):
            piece = _random_piece(draw, prov)
            # Options are places the unit could move to that are empty (diplo.checks refuses any
            # other board), otherwise any subset of them: the stored list is taken as given.
            near = sorted(
                n
                for n in (
                    MAP.army_neighbours(prov)
                    if piece.type == "A"
                    else MAP.fleet_neighbours(piece.loc)
                )
                if MAP.province_of(n) not in units
            )
            options = draw(st.lists(st.sampled_from(near), unique=True, max_size=4)) if near else []
            dislodged[prov] = Dislodged(piece, tuple(options))
    if kind == "A":
        # Mostly home centres owned by their power, so that builds (and vacant sites) are common.
        for centre in CENTERS:
            home = MAP.provinces[centre].home
            choice = draw(st.integers(0, 3))
            if choice == 1 or (choice > 1 and home is None):
                centers[centre] = draw(st.sampled_from(POWERS))
            elif choice > 1 and home is not None:
                centers[centre] = home
    phase = Phase(1901, "F" if kind != "A" else "W", kind)  # type: ignore[arg-type]
    return Position(MAP, phase, units, centers, dislodged)


def _random_piece(draw: st.DrawFn, prov: str) -> Piece:
    power = draw(st.sampled_from(POWERS))
    if MAP.is_sea(prov):
        kind = "F"
    elif MAP.is_land(prov):
        kind = "A"
    else:
        kind = draw(st.sampled_from("AF"))
    loc = prov
    if kind == "F" and MAP.coasts_of(prov):
        loc = draw(st.sampled_from(MAP.coasts_of(prov)))
    return Piece(power, kind, loc)  # type: ignore[arg-type]


@st.composite
def candidate_orders(draw: st.DrawFn, pos: Position) -> Order:
    """A random order of any type, for units on the board or anywhere, with destinations near
    the units named or anywhere: most are absurd, some are legal."""
    occupied = sorted({*pos.units, *pos.dislodged})

    def unit() -> Unit:
        if occupied and draw(st.integers(0, 3)) > 0:
            prov = draw(st.sampled_from(occupied))
            piece = pos.units.get(prov) or pos.dislodged[prov].piece
            loc = draw(st.sampled_from((piece.loc, prov, *MAP.coasts_of(prov))))
        else:
            loc = draw(st.sampled_from(LOCATIONS))
        return Unit(draw(st.sampled_from((None, "A", "F"))), loc)

    def dest(near: Unit) -> str:
        prov = MAP.province_of(near.loc)
        pool = sorted(
            {
                *MAP.army_neighbours(prov),
                *(n for loc in (prov, *MAP.coasts_of(prov)) for n in MAP.fleet_neighbours(loc)),
            }
        )
        near_dest = draw(st.booleans())
        if pool and near_dest:
            return draw(st.sampled_from(pool))
        return draw(st.sampled_from(LOCATIONS))

    kind = draw(st.sampled_from("HMSsCRDBW"))
    u = unit()
    if kind == "H":
        return Hold(u)
    if kind == "M":
        return Move(u, dest(u), draw(st.booleans()))
    if kind == "S":
        return SupportHold(u, unit())
    if kind == "s":
        other = unit()
        return SupportMove(u, other, dest(other))
    if kind == "C":
        army = unit()
        return Convoy(u, army, draw(st.sampled_from(LOCATIONS)))
    if kind == "R":
        return Retreat(u, dest(u))
    if kind == "D":
        return Disband(u)
    if kind == "B":
        return Build(u)
    return Waive()


# No shrinking: each example validates thousands of orders, so shrinking a failure would run
# into Hypothesis's five-minute cap; the assertion messages name the offending order instead.
@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    phases=[HPhase.explicit, HPhase.reuse, HPhase.generate],
)
@given(data=st.data())
def test_generated_boards_match_validation(data: st.DataObject) -> None:
    pos = data.draw(boards())
    # Mostly a power with something to order, sometimes any power.
    if pos.phase.kind == "R":
        present = sorted({d.piece.power for d in pos.dislodged.values()})
    else:
        present = sorted({p.power for p in pos.units.values()} | set(pos.centers.values()))
    use_present = data.draw(st.booleans())
    power = data.draw(st.sampled_from(present if present and use_present else list(POWERS)))
    for each in POWERS:
        each_listing = legal_orders(pos, each)
        _check_sound(pos, each, each_listing)
        # The cheap exhaustive checks for every power: all adjustment orders, all retreat orders,
        # all moves of every unit.
        if pos.phase.kind == "A":
            _check_complete(pos, each, each_listing, "")
        else:
            for key in each_listing:
                _check_complete(pos, each, each_listing, key, mode="moves")
    listing = legal_orders(pos, power)
    listed = flat(listing)
    # Random candidates, absurd ones included: legal <=> normalised form listed.
    for _ in range(40):
        candidate = data.draw(candidate_orders(pos))
        ruling = validate_order(pos, power, candidate)
        if ruling.legal:
            assert ruling.order in listed, (format_order(candidate), ruling.canonical)
        else:
            assert candidate not in listed, (format_order(candidate), ruling.message)
    # And every order of every type for every unit of the power (pruned of what the map rules
    # out), and with no pruning at all for one of them.
    if listing and pos.phase.kind == "M":
        for key in listing:
            _check_complete(pos, power, listing, key, mode="pruned")
        _check_complete(pos, power, listing, data.draw(st.sampled_from(sorted(listing))))


def _oracle_ends(src: str, dst: str) -> bool:
    return (
        src != dst
        and MAP.is_coastal(src)
        and MAP.is_coastal(dst)
        and bool(MAP.sea_neighbours(src))
        and bool(MAP.sea_neighbours(dst))
    )


def _oracle_route_exists(src: str, dst: str, fleets: frozenset[str], avoid: str | None) -> bool:
    """Breadth-first search from the army's seas, one destination at a time."""
    if not _oracle_ends(src, dst):
        return False
    frontier = [s for s in MAP.sea_neighbours(src) if s != avoid and s in fleets]
    seen = set(frontier)
    while frontier:
        nxt: list[str] = []
        for sea in frontier:
            if dst in {MAP.province_of(loc) for loc in MAP.fleet_neighbours(sea)}:
                return True
            for other in MAP.fleet_neighbours(sea):
                if other not in seen and other != avoid and other in fleets:
                    seen.add(other)
                    nxt.append(other)
        frontier = nxt
    return False


def _oracle_route_fleets(src: str, dst: str, fleets: frozenset[str]) -> frozenset[str]:
    """The seas on some minimal route, by the definition itself: a route is a sequence of fleet
    seas, linked one to the next, from a sea touching ``src`` to one touching ``dst``; it is
    minimal when no proper subset of its seas, in any order, is also a route."""
    if not _oracle_ends(src, dst):
        return frozenset()
    adj = {s: MAP.fleet_neighbours(s) & fleets for s in fleets}
    first, last = MAP.sea_neighbours(src) & fleets, MAP.sea_neighbours(dst) & fleets

    def is_route(seas: frozenset[str]) -> bool:
        # Some ordering of exactly these seas links src to dst.
        def walk(at: str, left: frozenset[str]) -> bool:
            if not left:
                return at in last
            return any(walk(n, left - {n}) for n in adj[at] & left)

        return any(walk(s, seas - {s}) for s in seas & first)

    routes: list[frozenset[str]] = []
    frontier = [frozenset({s}) for s in first]
    seen: set[frozenset[str]] = set(frontier)
    while frontier:  # grow connected sets of seas from the army's shore, smallest first
        nxt = []
        for seas in frontier:
            if is_route(seas):
                routes.append(seas)
                continue
            for sea in seas:
                for n in adj[sea] - seas:
                    bigger = seas | {n}
                    if bigger not in seen:
                        seen.add(bigger)
                        nxt.append(bigger)
        frontier = nxt
    minimal = [r for r in routes if not any(o < r for o in routes)]
    return frozenset().union(*minimal) if minimal else frozenset()


@settings(max_examples=40, deadline=None)
@given(fleets=st.frozensets(st.sampled_from(SEAS), max_size=8), data=st.data())
def test_convoy_geometry_matches_its_definition(
    fleets: frozenset[str], data: st.DataObject
) -> None:
    # diplo.convoys answers every destination at once from one table (what legal orders read)
    # and one destination at a time (what validation asks); both must agree with the
    # definitions, computed here the slow, obvious way.
    table = convoy_table(MAP, fleets)
    for src in data.draw(
        st.lists(st.sampled_from(sorted(shores(MAP))), min_size=1, max_size=3, unique=True)
    ):
        routes = table.route_seas(src)
        avoid = data.draw(st.sampled_from([None, *sorted(fleets)]))
        reach = table.reach(src, avoid)
        for dst in PROVINCES:
            expected = _oracle_route_fleets(src, dst, fleets)
            assert routes.get(dst, frozenset()) == expected, (src, dst)
            assert route_fleets(MAP, src, dst, fleets) == expected, (src, dst)
            exists = _oracle_route_exists(src, dst, fleets, avoid)
            assert (dst in reach) == exists, (src, dst)
            assert sea_route_exists(MAP, src, dst, fleets, avoid) == exists, (src, dst)
            for route in table.minimal_routes(src, dst):
                assert set(route) <= expected


# --------------------------------------------------------------------------- via convoy


def test_validation_rejects_adjacent_via_without_route() -> None:
    # Paris is inland: no fleet can ever convoy it, so "via convoy" can never be valid.
    pos = Position.initial(MAP)
    ruling = validate_order(pos, "FRANCE", parse_order("A PAR - BUR VIA", MAP))
    assert not ruling.legal


# --------------------------------------------------------------------------- speed


def _full_board() -> Position:
    return position(
        {
            "ENGLAND": ["F NTH", "F ENG", "A LON", "A WAL", "F IRI", "F NAO", "A YOR", "F NWG"],
            "FRANCE": ["F MAO", "A BRE", "A PIC", "F WES", "A SPA", "F LYO", "A PAR", "A MAR"],
            "ITALY": ["F TYS", "A NAP", "F ION", "A TUN", "A ROM", "A VEN"],
            "GERMANY": ["F HEL", "A HOL", "F SKA", "A DEN", "F BAL", "A BER", "A MUN", "A KIE"],
            "RUSSIA": ["F STP/NC", "A NWY", "F BOT", "A SWE", "A MOS", "A WAR", "F SEV", "A UKR"],
            "TURKEY": ["F AEG", "A GRE", "F EAS", "A SMY", "F BLA", "A BUL", "A CON"],
            "AUSTRIA": ["F ADR", "A TRI", "A ALB", "A VIE", "A BUD", "A SER", "A GAL"],
        }
    )


def test_full_board_speed() -> None:
    pos = _full_board()
    legal_orders(pos)  # warm the per-map tables and the convoy cache
    runs = 20
    started = time.perf_counter()
    for _ in range(runs):
        listing = legal_orders(pos)
    per_call = (time.perf_counter() - started) / runs
    assert len(listing) == len(pos.units)
    # Generous bound (a loaded CI machine); a few milliseconds is typical.
    assert per_call < 0.1, f"{per_call * 1000:.1f} ms per full-board call"


# --------------------------------------------------------------------------- convoy diagnostic


def test_diagnostic_missing_and_foreign() -> None:
    pos = position({"ENGLAND": ["A LON", "F ENG"], "FRANCE": ["F MAO"]})
    diag = convoy_diagnostic(pos, "ENGLAND", "LON", "SPA", {"ENGLAND": ["A LON - SPA VIA"]})
    assert diag.possible and diag.army_ordered
    assert [r.seas for r in diag.routes] == [("ENG", "MAO")]
    (route,) = diag.routes
    assert route.missing == ("ENG", "MAO")
    assert route.foreign == (("MAO", "FRANCE"),)
    assert not diag.complete
    assert "F ENG" in diag.message and "ask France for F MAO" in diag.message

    diag = convoy_diagnostic(
        pos,
        "ENGLAND",
        "london",
        "Spain",
        {"ENGLAND": ["A LON - SPA", "F ENG C A LON - SPA"], "FRANCE": ["F MAO C A LON - SPA"]},
    )
    assert diag.complete and diag.routes[0].complete
    assert diag.message.startswith("A LON - SPA is convoyed via ENG, MAO")


def test_diagnostic_counts_only_effective_orders() -> None:
    pos = position({"ENGLAND": ["A LON", "F NTH"]})
    # Two different orders for the fleet: both void (DATC 4.D.3), so the convoy is still missing.
    diag = convoy_diagnostic(
        pos, "ENGLAND", "LON", "NWY", {"ENGLAND": ["F NTH C A LON - NWY", "F NTH H"]}
    )
    assert diag.routes[0].missing == ("NTH",)
    assert diag.routes[0].foreign == ()
    assert not diag.army_ordered
    assert "not yet ordered" in diag.message


def test_diagnostic_routes_shortest_first() -> None:
    pos = position({"ENGLAND": ["A LON", "F ENG", "F MAO", "F IRI", "F NAO", "F NTH", "F NWG"]})
    diag = convoy_diagnostic(pos, "ENGLAND", "LON", "POR", max_routes=3)
    assert diag.routes[0].seas == ("ENG", "MAO")
    assert [len(r.seas) for r in diag.routes] == sorted(len(r.seas) for r in diag.routes)
    assert len(diag.routes) <= 3
    for route in diag.routes:
        assert route.seas[-1] == "MAO"


def test_diagnostic_impossible() -> None:
    pos = position({"GERMANY": ["A YOR"], "ENGLAND": ["F LON"]})
    diag = convoy_diagnostic(pos, "GERMANY", "YOR", "HOL")
    assert not diag.possible and diag.routes == ()
    assert "6.D.32" in diag.message
    assert not convoy_diagnostic(pos, "ENGLAND", "LON", "BEL").possible  # a fleet
    assert "only armies" in convoy_diagnostic(pos, "ENGLAND", "LON", "BEL").message
    assert "no unit" in convoy_diagnostic(pos, "ENGLAND", "WAL", "BEL").message
    inland = position({"FRANCE": ["A PAR"]})
    assert "coastal" in convoy_diagnostic(inland, "FRANCE", "PAR", "BEL").message


def test_adjacent_via_needs_a_route() -> None:
    """An adjacent "via convoy" move is listed only where fleets could carry the army."""
    pos = position({"ENGLAND": ["A LON", "F NTH", "A WAL"], "FRANCE": ["A PAR"]})
    lo = legal_orders(pos)
    assert "A PAR - BUR VIA" not in texts(lo["PAR"]) and "A PAR - BUR" in texts(lo["PAR"])
    assert "A LON - YOR VIA" in texts(lo["LON"])  # over NTH
    assert "A LON - WAL VIA" not in texts(lo["LON"]) and "A LON - WAL" in texts(lo["LON"])
