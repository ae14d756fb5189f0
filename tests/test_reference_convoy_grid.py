"""Convoys on a grid of seas full of fleets: beyond ``MAX_SEA_CHAINS`` chordless chains of seas
the reference decides every convoy question by breadth-first search (``diplo.reference.convoys``),
so a board where chains that could form a minimal route are too many to list (issue 20: over
300 s and 4.7 GB) is ruled at once.
The scaling is measured by ``benches/reference_legality.py``; no time is asserted here."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

from diplo.api.backends import backend_for
from diplo.api.phase import process_phase
from diplo.model.map import Map, standard_map
from diplo.model.orders import Convoy, Move
from diplo.model.position import Phase, Piece, Position
from diplo.reference import convoys
from diplo.reference.convoys import convoy_table
from diplo.reference.legal import legal_orders
from diplo.reference.validation import validate_order

N = 7


def _sea(r: int, c: int) -> str:
    return f"S{r:02d}{c:02d}"


def _grid(n: int) -> tuple[Map, dict[str, str]]:
    """An n-by-n grid of seas, and a coast province beside every border sea (named after it:
    the coast of S0003 is C0003). Coasts are joined by land in a ring, so armies may walk too."""
    provinces: list[dict[str, Any]] = []
    fleet_edges: list[list[str]] = []
    for r in range(n):
        for c in range(n):
            provinces.append({"abbr": _sea(r, c), "name": f"Sea row {r} col {c}", "type": "sea"})
            if c + 1 < n:
                fleet_edges.append([_sea(r, c), _sea(r, c + 1)])
            if r + 1 < n:
                fleet_edges.append([_sea(r, c), _sea(r + 1, c)])
    coast_of: dict[str, str] = {}
    for r in range(n):
        for c in range(n):
            if r in (0, n - 1) or c in (0, n - 1):
                coast = "C" + _sea(r, c)[1:]
                coast_of[_sea(r, c)] = coast
                provinces.append({"abbr": coast, "name": f"Coast row {r} col {c}", "type": "coast"})
                fleet_edges.append([coast, _sea(r, c)])
    ring = sorted(coast_of.values())
    game_map = Map.from_dict(
        {
            "name": f"grid{n}",
            "powers": {"ONE": {"adjective": "One", "homes": [], "units": []}},
            "provinces": provinces,
            "army_edges": [[a, b] for a, b in itertools.pairwise(ring)],
            "fleet_edges": fleet_edges,
        }
    )
    return game_map, coast_of


def _board(n: int) -> tuple[Map, Position]:
    game_map, _ = _grid(n)
    units = {_sea(r, c): Piece("ONE", "F", _sea(r, c)) for r in range(n) for c in range(n)}
    units["C0000"] = Piece("ONE", "A", "C0000")
    return game_map, Position(game_map, Phase.parse("S1901M"), units, {})


def test_grids_beyond_the_chain_bound_use_shortest_chains() -> None:
    assert convoys.sea_chains(_sea_adj(_grid(5)[0]), convoys.MAX_SEA_CHAINS) is not None
    assert convoys.sea_chains(_sea_adj(_grid(N)[0]), convoys.MAX_SEA_CHAINS) is None
    assert convoys.sea_chains(_sea_adj(standard_map()), 10**6) == 375


def _sea_adj(m: Map) -> dict[str, frozenset[str]]:
    seas = {p for p in m.provinces if m.is_sea(p)}
    return {s: m.fleet_neighbours(s) & seas for s in seas}


def _oracle_shortest(m: Map, src: str, dst: str, fleets: frozenset[str]) -> frozenset[str]:
    """The fleets that may convoy, by the definition (``diplo.reference.convoys``) computed the
    slow way: every simple chain of fleet seas from a first sea (touching ``src``, not ``dst``)
    to a last sea (touching ``dst``, not ``src``) through seas touching neither, enumerated
    whole; per pair of end seas the shortest such chains count, and a sea touching both ends is
    a route by itself."""
    if src == dst or not (m.sea_neighbours(src) and m.sea_neighbours(dst)):
        return frozenset()
    if m.is_sea(src) or m.is_sea(dst):
        return frozenset()
    first, last = m.sea_neighbours(src) & fleets, m.sea_neighbours(dst) & fleets
    out = set(first & last)
    corridor = fleets - first - last
    adj = {s: m.fleet_neighbours(s) & fleets for s in fleets}
    for a in first - last:
        for b in last - first:
            chains: list[tuple[str, ...]] = []
            stack: list[tuple[str, ...]] = [(a,)]
            while stack:  # every simple chain from a, through the corridor, ending at b
                path = stack.pop()
                for n in adj[path[-1]]:
                    if n == b:
                        chains.append((*path, b))
                    elif n in corridor and n not in path:
                        stack.append((*path, n))
            if chains:
                shortest = min(len(c) for c in chains)
                for chain in chains:
                    if len(chain) == shortest:
                        out.update(chain)
    return frozenset(out)


def test_shortest_chains_match_their_definition(monkeypatch: pytest.MonkeyPatch) -> None:
    # The rule of maps beyond the bound, on a copy of the standard map made to use it: the
    # fleets on shortest chains between end seas, computed the slow way; and each of them on a
    # minimal route (the fleets the bounded listing admits), never one 6.G.19 rejects.
    exact = standard_map()
    assert convoys._geometry(exact).exact  # computed (and kept) under the real bound
    monkeypatch.setattr(convoys, "MAX_SEA_CHAINS", 0)
    m = Map.from_dict(exact.to_dict())
    seas = sorted(p for p in m.provinces if m.is_sea(p))
    rng = random.Random(4)
    for _ in range(30):
        fleets = frozenset(rng.sample(seas, rng.randint(1, 9)))
        table = convoy_table(m, fleets)
        assert not convoys._geometry(m).exact
        minimal = convoy_table(exact, fleets)
        for src in rng.sample(sorted(convoys.shores(m)), 4):
            for dst in sorted(convoys.shores(m)):
                got = table.necessary(src, dst)
                assert got == _oracle_shortest(m, src, dst, fleets), (src, dst, fleets)
                assert got <= minimal.necessary(src, dst)
                assert bool(got) == (dst in table.reach(src))


def test_a_convoy_across_a_grid_full_of_fleets_is_ruled() -> None:
    _, pos = _board(N)
    far = f"C{N - 1:02d}{N - 1:02d}"
    # An L-shaped chain: along the top row, then down the last column.
    chain = [_sea(0, c) for c in range(N)] + [_sea(r, N - 1) for r in range(1, N)]
    orders = [f"A C0000 - {far}"] + [f"F {s} C A C0000 - {far}" for s in chain]
    outcome = process_phase(pos, {"ONE": orders}, backend="python")
    assert all(r.code == "ok" for r in outcome.results), [
        (r.order, r.code) for r in outcome.results if r.code != "ok"
    ]
    assert outcome.next.units[far] == Piece("ONE", "A", far)
    assert "C0000" not in outcome.next.units


def test_which_fleets_may_convoy_on_the_grid() -> None:
    game_map, pos = _board(N)
    # From the corner to the far corner every sea lies on a shortest chain (a staircase):
    # every fleet may convoy.
    far = f"C{N - 1:02d}{N - 1:02d}"
    every = frozenset(pos.units) - {"C0000"}
    assert convoy_table(game_map, every).necessary("C0000", far) == every
    # Along the top row to the coast of S0003 the shortest chain is the row itself: a fleet
    # below it is on longer chains only and may not convoy (DATC 6.G.19 for such a fleet).
    assert validate_order(pos, "ONE", "F S0002 C A C0000 - C0003").legal
    ruling = validate_order(pos, "ONE", "F S0101 C A C0000 - C0003")
    assert not ruling.legal and ruling.code == "convoy_impossible"
    # And the army may move to every coast of the grid, by convoy.
    moves = {o.dest for o in legal_orders(pos)["C0000"] if isinstance(o, Move)}
    assert moves == set(_grid(N)[1].values()) - {"C0000"}


def test_the_grid_listing_agrees_with_validation() -> None:
    game_map, pos = _board(6)
    listing = legal_orders(pos)
    for orders in listing.values():
        for order in orders:
            ruling = validate_order(pos, "ONE", order)
            assert ruling.legal and ruling.order == order, ruling.message
    # Per fleet: the convoys listed are exactly the (destination) pairs it is necessary for.
    table = convoy_table(game_map, frozenset(p for p in pos.units if p != "C0000"))
    for sea, orders in listing.items():
        if sea == "C0000":
            continue
        listed = {o.dest for o in orders if isinstance(o, Convoy)}
        expected = {d for d, seas in table.route_seas("C0000").items() if sea in seas}
        assert listed == expected, sea


@pytest.mark.parametrize("n", [7, 9])
def test_the_engine_lists_the_reference_s_orders_beyond_the_chain_bound(n: int) -> None:
    """Both engines decide convoys by the shortest chains on a map with more than
    ``MAX_SEA_CHAINS`` chains (the engine refused such maps): the same legal orders on a grid
    full of fleets, and on boards with some fleets gone (other end seas, other corridors)."""
    game_map, full = _board(n)
    assert convoys.sea_chains(convoys._geometry(game_map).sea_adj, convoys.MAX_SEA_CHAINS) is None
    rng = random.Random(n)
    boards = [full]
    for _ in range(4):
        keep = {p: u for p, u in full.units.items() if u.type == "A" or rng.random() < 0.7}
        boards.append(Position(game_map, full.phase, keep, {}))
    convoys_listed = []
    for position in boards:
        engine = backend_for("rust", game_map).legal_order_texts(position, None)
        reference = backend_for("python", game_map).legal_order_texts(position, None)
        assert {k: sorted(v) for k, v in engine.items()} == {
            k: sorted(v) for k, v in reference.items()
        }
        convoys_listed.append(sum(" C A " in o for v in engine.values() for o in v))
    assert convoys_listed[0] > 0 and len(set(convoys_listed)) > 1, convoys_listed
