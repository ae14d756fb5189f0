"""The reference resolver follows dependencies on an explicit stack: long chains of moves are
ruled, not stopped by Python's recursion limit (about 250 moves used to raise RecursionError)."""

from __future__ import annotations

import sys

from diplo.api.phase import process_phase
from diplo.model.map import Map
from diplo.model.position import Phase, Piece, Position

N = 2_000


def _line_map(n: int, ring: bool) -> Map:
    """``n`` inland provinces P0..P(n-1), each next to the one after (and P(n-1) to P0 in a
    ring), with one power, so that every unit can be ordered into its neighbour's province."""
    provinces: list[dict[str, object]] = [
        {"abbr": f"P{i}", "name": f"Province {i}", "type": "land", "center": i == 0}
        for i in range(n)
    ]
    edges = [[f"P{i}", f"P{i + 1}"] for i in range(n - 1)]
    if ring:
        edges.append([f"P{n - 1}", "P0"])
    return Map.from_dict(
        {
            "name": "ring" if ring else "line",
            "powers": {"ONE": {"adjective": "One", "homes": ["P0"], "units": ["A P0"]}},
            "provinces": provinces,
            "army_edges": edges,
            "fleet_edges": [],
        }
    )


def _chain(game_map: Map, units: int, moving: int) -> tuple[Position, list[str]]:
    """Armies in P0..P(units-1); the first ``moving`` of them move each into the next
    province (resolving the first move needs the second, and so on down the chain)."""
    pieces = {f"P{i}": Piece("ONE", "A", f"P{i}") for i in range(units)}
    position = Position(game_map, Phase.parse("S1901M"), pieces, {"P0": "ONE"})
    n = len(game_map.provinces)
    orders = [f"A P{i} - P{(i + 1) % n}" for i in range(moving)]
    orders += [f"A P{i} H" for i in range(moving, units)]
    assert sys.getrecursionlimit() < N  # the chain is deeper than Python's call stack allows
    return position, orders


def test_a_chain_of_2000_moves_into_an_empty_province_all_succeed() -> None:
    game_map = _line_map(N + 1, ring=False)
    position, orders = _chain(game_map, N, N)
    outcome = process_phase(position, {"ONE": orders}, backend="python")
    assert [r.code for r in outcome.results] == ["ok"] * N
    assert sorted(outcome.next.units, key=lambda p: int(p[1:])) == [
        f"P{i}" for i in range(1, N + 1)
    ]


def test_a_chain_of_2000_moves_into_a_holding_unit_all_bounce() -> None:
    game_map = _line_map(N + 1, ring=False)
    position, orders = _chain(game_map, N + 1, N)  # the last army holds: nobody can move
    outcome = process_phase(position, {"ONE": orders}, backend="python")
    codes = [r.code for r in outcome.results]
    assert codes[:N] == ["bounce"] * N and codes[N:] == ["ok"]
    assert outcome.next.units == position.units
    assert not outcome.dislodged


def test_a_ring_of_2000_moves_is_circular_movement() -> None:
    # DATC 6.C.1 at scale: the whole ring is one cycle of move decisions; every move succeeds.
    game_map = _line_map(N, ring=True)
    position, orders = _chain(game_map, N, N)
    outcome = process_phase(position, {"ONE": orders}, backend="python")
    assert [r.code for r in outcome.results] == ["ok"] * N
    assert outcome.next.units["P0"] == Piece("ONE", "A", "P0")  # from P(N-1)
    assert set(outcome.next.units) == set(position.units)
