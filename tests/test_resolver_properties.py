"""Hypothesis properties of the movement ruling on generated positions (reference backend).

- shuffling the orders never changes the ruling;
- at most one unit per province afterwards, and every unit is accounted for;
- every dislodged unit has its retreat options computed, and they are really open;
- no unit is dislodged by its own power;
- two groups of units far apart are ruled each as if the other were absent.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from diplo.api.phase import process_phase
from diplo.model.map import standard_map
from diplo.model.position import Position
from diplo.model.results import PhaseOutcome

from generators import convoy_heavy_position, random_orders, random_position, region_closure

M = standard_map()
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


def _case(seed: int) -> tuple[Position, dict[str, list[str]]]:
    rng = random.Random(seed)
    pos = convoy_heavy_position(M, rng) if rng.random() < 0.5 else random_position(M, rng)
    return pos, random_orders(M, pos, rng)


def _by_unit(outcome: PhaseOutcome) -> dict[str, Any]:
    """What happened to each unit: its result facts keyed by unit (order of results ignored)."""
    out: dict[str, Any] = {}
    for r in outcome.results:
        key = f"{r.unit}|{r.order}|{r.given}"
        out.setdefault(key, []).append((r.legal, r.success, r.code, r.dislodged_by))
    return {k: sorted(v, key=repr) for k, v in out.items()}


@SETTINGS
@given(SEEDS, st.randoms(use_true_random=False))
def test_shuffling_orders_changes_nothing(seed: int, shuffler: random.Random) -> None:
    pos, orders = _case(seed)
    first = process_phase(pos, orders, "python")
    items = [(p, t) for p, texts in orders.items() for t in texts]
    shuffler.shuffle(items)
    shuffled: dict[str, list[str]] = {}
    for power, text in items:
        shuffled.setdefault(power, []).append(text)
    second = process_phase(pos, dict(reversed(list(shuffled.items()))), "python")
    assert _by_unit(first) == _by_unit(second)
    assert first.next.to_json() == second.next.to_json()
    assert first.dislodged == second.dislodged


@SETTINGS
@given(SEEDS)
def test_every_unit_is_accounted_for_once(seed: int) -> None:
    pos, orders = _case(seed)
    outcome = process_phase(pos, orders, "python")
    after = outcome.next.units
    # Every unit is either on the board afterwards or dislodged; none is lost or duplicated.
    assert len(after) + len(outcome.dislodged) == len(pos.units)
    for prov, piece in after.items():
        assert piece.province == prov
    for prov, dislodged in outcome.dislodged.items():
        assert pos.units[prov] == dislodged.piece
        assert prov not in after or after[prov] != dislodged.piece
    powers_before = sorted(p.power + p.type for p in pos.units.values())
    powers_after = sorted(
        [p.power + p.type for p in after.values()]
        + [d.piece.power + d.piece.type for d in outcome.dislodged.values()]
    )
    assert powers_before == powers_after


@SETTINGS
@given(SEEDS)
def test_dislodged_units_have_open_retreats_and_were_not_dislodged_by_their_own(seed: int) -> None:
    pos, orders = _case(seed)
    outcome = process_phase(pos, orders, "python")
    after = outcome.next.units
    by_unit = {
        r.unit: r for r in outcome.results if r.legal and r.success is False and r.dislodged_by
    }
    for prov, dislodged in outcome.dislodged.items():
        result = by_unit[str(dislodged.piece)]
        attacker_origin = result.dislodged_by
        assert attacker_origin is not None
        attacker = pos.units[attacker_origin]
        assert attacker.power != dislodged.piece.power, "a unit was dislodged by its own power"
        for option in dislodged.options:
            target = M.province_of(option)
            assert target not in after, "retreat into an occupied province"
            assert target != prov
            assert M.can_move(dislodged.piece.type, dislodged.piece.loc, option)


WEST = ("CLY", "EDI", "LVP", "YOR", "WAL", "LON", "NTH", "IRI", "ENG", "NAO", "NWG")
EAST = ("SMY", "ANK", "CON", "ARM", "SYR", "BLA", "AEG", "EAS", "BUL", "RUM", "SEV")


def test_regions_are_far_apart() -> None:
    assert not region_closure(M, WEST) & region_closure(M, EAST)


@SETTINGS
@given(SEEDS)
def test_far_apart_groups_are_ruled_independently(seed: int) -> None:
    rng = random.Random(seed)
    west = random_position(M, rng, WEST, rng.randint(1, len(WEST)))
    east = random_position(M, rng, EAST, rng.randint(1, len(EAST)))
    both = Position(M, west.phase, {**west.units, **east.units}, {})
    west_orders = random_orders(M, west, rng)
    east_orders = random_orders(M, east, rng)
    merged: dict[str, list[str]] = {}
    for orders in (west_orders, east_orders):
        for power, texts in orders.items():
            merged.setdefault(power, []).extend(texts)
    together = process_phase(both, merged, "python")
    alone_west = process_phase(west, west_orders, "python")
    alone_east = process_phase(east, east_orders, "python")

    def restrict(outcome: PhaseOutcome, region: tuple[str, ...]) -> tuple[Any, ...]:
        closure = region_closure(M, region)
        units = {p: str(u) + u.power for p, u in outcome.next.units.items() if p in closure}
        results = {
            k: v
            for k, v in _by_unit(outcome).items()
            if k.split("|")[0] != "None" and M.province_of(k.split("|")[0].split()[-1]) in closure
        }
        dislodged = {p: d for p, d in outcome.dislodged.items() if p in closure}
        return units, results, dislodged

    assert restrict(together, WEST) == restrict(alone_west, WEST)
    assert restrict(together, EAST) == restrict(alone_east, EAST)
