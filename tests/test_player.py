"""The random player: deterministic, always legal, adjustment counts respected, and able to play
a whole game through ``process_phase``."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from diplo.api.phase import process_phase
from diplo.api.player import RandomPlayer
from diplo.model.map import standard_map
from diplo.model.orders import Build, Disband, Order, Waive, format_order
from diplo.model.position import Dislodged, Phase, Piece, Position
from diplo.reference.adjustments import adjustment_counts
from diplo.reference.legal import legal_orders
from diplo.reference.validation import validate

MAP = standard_map()
POWERS = MAP.powers


def test_deterministic_for_a_seed() -> None:
    pos = Position.initial(MAP)
    first = [RandomPlayer(7).orders(pos, p) for p in POWERS]
    again = [RandomPlayer(7).orders(pos, p) for p in POWERS]
    assert first == again
    shared = random.Random(7)
    assert RandomPlayer(shared).orders(pos, "FRANCE") == RandomPlayer(7).orders(pos, "FRANCE")
    others = [RandomPlayer(seed).orders(pos, "RUSSIA") for seed in range(20)]
    assert len({tuple(map(format_order, o)) for o in others}) > 1


def test_one_legal_order_per_unit() -> None:
    pos = Position.initial(MAP)
    player = RandomPlayer(1)
    for power in POWERS:
        orders = player.orders(pos, power)
        legal = legal_orders(pos, power)
        assert len(orders) == len(pos.units_of(power))
        assert {o.unit.province for o in orders if not isinstance(o, Waive)} == set(legal)
        for order in orders:
            assert not isinstance(order, Waive)
            assert order in legal[order.unit.province]
    validated = validate(pos, {p: player.orders(pos, p) for p in POWERS})
    assert all(r.legal for r in validated.rulings)


def _winter(units: dict[str, list[str]], centers: dict[str, list[str]]) -> Position:
    return Position.from_json({"phase": "W1905A", "units": units, "centers": centers}, MAP)


@pytest.mark.parametrize("seed", range(30))
def test_adjustment_counts(seed: int) -> None:
    pos = _winter(
        {
            "RUSSIA": ["A MOS"],  # 5 centres, 1 unit, 3 vacant home sites: up to 3 builds
            "TURKEY": ["F ANK", "A CON", "A SMY", "A BUL", "F AEG"],  # 3 centres: 2 disbands
            "ENGLAND": ["F LON", "F EDI", "A LVP"],  # 4 centres, no vacant home: nothing to do
        },
        {
            "RUSSIA": ["MOS", "STP", "WAR", "SEV", "RUM"],
            "TURKEY": ["ANK", "CON", "SMY"],
            "ENGLAND": ["LON", "EDI", "LVP", "NWY"],
        },
    )
    player = RandomPlayer(seed)
    russia = player.orders(pos, "RUSSIA")
    builds = [o for o in russia if isinstance(o, Build)]
    assert len(russia) == 3
    assert len(builds) + sum(isinstance(o, Waive) for o in russia) == 3
    assert len({b.unit.province for b in builds}) == len(builds)
    turkey = player.orders(pos, "TURKEY")
    assert len(turkey) == 2 and all(isinstance(o, Disband) for o in turkey)
    assert len({o.unit.province for o in turkey if isinstance(o, Disband)}) == 2
    assert player.orders(pos, "ENGLAND") == []
    assert player.orders(pos, "ITALY") == []
    orders: dict[str, list[Order]] = {"RUSSIA": russia, "TURKEY": turkey}
    assert all(r.legal for r in validate(pos, orders).rulings)
    outcome = process_phase(pos, orders, backend="python")
    assert all(r.success for r in outcome.results if r.given)
    assert not [r for r in outcome.results if not r.given]  # nothing left to civil disorder
    after = Counter(piece.power for piece in outcome.next.units.values())
    assert after["TURKEY"] == 3
    assert after["RUSSIA"] == 1 + len(builds)


def test_surplus_but_no_site_orders_nothing() -> None:
    pos = _winter(
        {"ENGLAND": ["F LON", "F EDI", "A LVP"]}, {"ENGLAND": ["LON", "EDI", "LVP", "NWY"]}
    )
    assert RandomPlayer(0).orders(pos, "ENGLAND") == []


def test_retreat_phase_orders() -> None:
    pos = Position(
        MAP,
        Phase(1901, "F", "R"),
        {"SPA": Piece("FRANCE", "A", "SPA")},
        {},
        {
            "POR": Dislodged(Piece("FRANCE", "F", "POR"), ("MAO",)),
        },
    )
    orders = RandomPlayer(3).orders(pos, "FRANCE")
    assert len(orders) == 1 and format_order(orders[0]) in {"F POR R MAO", "F POR D"}
    assert RandomPlayer(3).orders(pos, "ITALY") == []


def _play(seed: int, last_year: int) -> tuple[Position, int, bool]:
    """Seven random players from Spring 1901 until the end of ``last_year``; every order legal."""
    players = {power: RandomPlayer(seed * 100 + i) for i, power in enumerate(POWERS)}
    pos = Position.initial(MAP)
    phases = 0
    while pos.phase.year <= last_year:
        orders = {p: players[p].orders(pos, p) for p in POWERS}
        validated = validate(pos, orders)
        bad = [r.message for r in validated.rulings if not r.legal]
        assert not bad, f"{pos.phase}: {bad}"
        if pos.phase.kind == "A":
            counts = adjustment_counts(pos)
            for power, given in orders.items():
                if counts[power] > 0:
                    assert len(given) == counts[power]
                else:
                    assert sum(isinstance(o, Disband) for o in given) == -counts[power]
        outcome = process_phase(pos, orders, backend="python")
        assert all(r.legal for r in outcome.results), str(pos.phase)
        if pos.phase.kind == "A":
            # Every build was used or waived explicitly, every owed disband ordered.
            assert all(r.given for r in outcome.results)
        phases += 1
        pos = outcome.next
        if outcome.game_over:
            return pos, phases, True
    return pos, phases, False


def test_full_game_of_random_players() -> None:
    final, phases, won = _play(seed=1, last_year=1910)
    assert not won
    assert final.phase == Phase(1911, "S", "M")
    assert phases >= 20  # ten springs and falls at least
    assert len(final.units) <= len(final.centers)


def test_game_is_reproducible() -> None:
    first, _, _ = _play(seed=5, last_year=1902)
    again, _, _ = _play(seed=5, last_year=1902)
    assert first.to_json() == again.to_json()
