"""Neutral units (a map's ``"neutral": true`` power, godip's Neutral), on both backends and the
code API: they hold and are never ordered, are disbanded when dislodged, build and disband
nothing by the count, win nothing, and (``"rebuild": true``) are raised again in the vacant
centres neutral owns at an adjustment."""

from __future__ import annotations

from typing import Any

import pytest

from diplo import CodeGame, Game, Position, process_phase
from diplo.api.legal import legal_order_texts
from diplo.model.map import Map, MapError, map_named

BACKENDS = ("python", "rust")
ABBASID = "ABBASID_CALIPHATE"


def _board(phase: str, units: dict[str, list[str]], centers: dict[str, list[str]]) -> Position:
    doc = {"phase": phase, "units": units, "centers": centers}
    return Position.from_json(doc, map_named("westernworld901"))


def test_the_maps_with_neutral_units() -> None:
    assert map_named("westernworld901").rebuilds == {"NEUTRAL"}
    assert map_named("sengoku").rebuilds == {"NEUTRAL"}
    assert map_named("europe1939").neutral == {"NEUTRAL"} and not map_named("europe1939").rebuilds
    world = map_named("westernworld901")
    assert "NEUTRAL" not in world.players and "NEUTRAL" in world.powers
    start = Position.initial(world)
    assert sum(p.power == "NEUTRAL" for p in start.units.values()) == 28


def test_a_neutral_unit_holds_is_never_ordered_and_is_disbanded_when_dislodged() -> None:
    position = _board(
        "S901M",
        {ABBASID: ["A ARD", "A KAK"], "NEUTRAL": ["A AZE"]},
        {ABBASID: ["ARD", "BAG"], "NEUTRAL": ["AZE"]},
    )
    orders = {ABBASID: ["A ARD - AZE", "A KAK S A ARD - AZE"], "NEUTRAL": ["A AZE - MOS"]}
    outcomes = [process_phase(position, orders, backend) for backend in BACKENDS]
    assert outcomes[0] == outcomes[1]
    outcome = outcomes[0]
    refused = next(r for r in outcome.results if r.power == "NEUTRAL" and r.given)
    assert not refused.legal
    assert refused.reason == "'A AZE - MOS': neutral units hold and are never ordered."
    # Dislodged, it has no retreat: gone at once, and the Fall follows.
    assert outcome.dislodged["AZE"].options == ()
    assert str(outcome.next.phase) == "F901M"
    assert outcome.next.units["AZE"].power == ABBASID
    assert not any(p.power == "NEUTRAL" for p in outcome.next.units.values())


def test_another_power_may_not_order_a_neutral_unit_but_may_support_it() -> None:
    position = _board(
        "S901M",
        {ABBASID: ["A ARD", "A KAK"], "NEUTRAL": ["A AZE"]},
        {ABBASID: ["ARD"], "NEUTRAL": ["AZE"]},
    )
    orders = {ABBASID: ["A AZE - MOS", "A KAK S A AZE"]}
    outcomes = [process_phase(position, orders, backend) for backend in BACKENDS]
    assert outcomes[0] == outcomes[1]
    by_order = {r.order: r for r in outcomes[0].results if r.given}
    assert by_order["A AZE - MOS"].code == "illegal"
    assert "belongs to Neutral" in by_order["A AZE - MOS"].reason
    assert by_order["A KAK S A AZE"].legal


@pytest.mark.parametrize("backend", BACKENDS)
def test_neutral_armies_are_raised_again_in_the_vacant_centres_neutral_owns(backend: str) -> None:
    position = _board(
        "W901A",
        {ABBASID: ["A ARD", "A ARM"], "NEUTRAL": ["A AZE"]},
        {ABBASID: ["ARD", "BAG"], "NEUTRAL": ["AZE", "BAS", "ARM"]},
    )
    outcome = process_phase(position, {}, backend)
    raised = [r for r in outcome.results if r.power == "NEUTRAL"]
    # BAS is vacant: an army; ARM holds an Abbasid army, AZE the neutral one.
    assert [(r.order, r.reason) for r in raised] == [
        (
            "A BAS B",
            "A BAS is raised again: neutral armies are rebuilt in the vacant centres neutral owns.",
        )
    ]
    assert outcome.next.units["BAS"].power == "NEUTRAL"
    assert "ARM" in outcome.next.units and outcome.next.units["ARM"].power == ABBASID


def test_a_neutral_power_builds_nothing_by_the_count_and_wins_nothing() -> None:
    # Neutral owns more centres than it has units: no build, and the winter is needed only
    # for what it raises again.
    position = _board(
        "F901M",
        {ABBASID: ["A ARD"], "NEUTRAL": ["A AZE"]},
        {ABBASID: ["ARD"], "NEUTRAL": ["AZE", "ARM", "BAS"]},
    )
    for backend in BACKENDS:
        outcome = process_phase(position, {}, backend)
        assert outcome.winner is None
        assert str(outcome.next.phase) == "W901A"
        after = process_phase(outcome.next, {}, backend).next
        assert {str(p) for p in after.units.values() if p.power == "NEUTRAL"} == {
            "A AZE",
            "A ARM",
            "A BAS",
        }


@pytest.mark.parametrize("backend", BACKENDS)
def test_no_front_end_lists_a_neutral_unit(backend: str) -> None:
    game = Game(map_named("westernworld901"), backend=backend)
    assert "NEUTRAL" not in game.orderable_powers()
    assert "NEUTRAL" not in game.survivors
    listed = legal_order_texts(game.position, backend=backend)
    neutral = {p for p, piece in game.position.units.items() if piece.power == "NEUTRAL"}
    assert neutral and not neutral & set(listed)
    assert legal_order_texts(game.position, "NEUTRAL", backend=backend) == {}


def test_the_code_api_has_no_slot_for_a_neutral_unit_and_refuses_its_codes() -> None:
    from diplo.engine.codes import encode_order
    from diplo.model.orders import parse_order

    start = Position.initial(map_named("westernworld901"))
    code = CodeGame(start)
    slot_powers = {power for power, _key in code.slots()}
    assert "NEUTRAL" not in slot_powers and ABBASID in slot_powers
    hold = encode_order(parse_order("A BAS - ATI", start.map), start.map)
    code.set_orders([hold])
    assert code.process().result_codes()[0] != 0  # refused: the neutral army stays
    assert code.position().units["BAS"].power == "NEUTRAL"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"homes": ["BAS"]}, "power NEUTRAL: a neutral power has no home centres"),
        ({"neutral": False}, "power NEUTRAL: 'rebuild' is for a neutral power only"),
        ({"neutral": "yes"}, "power NEUTRAL: 'neutral' must be true or false"),
    ],
)
def test_a_bad_neutral_power_is_refused_with_its_field(
    change: dict[str, Any], message: str
) -> None:
    data = map_named("westernworld901").to_dict()
    data["powers"]["NEUTRAL"] = {**data["powers"]["NEUTRAL"], **change}
    with pytest.raises(MapError, match=message):
        Map.from_dict(data)


def test_the_pettingzoo_env_has_no_neutral_agent() -> None:
    pytest.importorskip("numpy")
    from diplo.env import DiplomacyEnv

    env = DiplomacyEnv(map_named("westernworld901"), max_year=902, max_orders=2048)
    env.reset(seed=1)
    assert "NEUTRAL" not in env.possible_agents and "NEUTRAL" not in env.agents
    assert len(env.possible_agents) == 9
    while env.agents:
        _obs, _r, _t, _u, infos = env.step({a: [0] * env.max_slots for a in env.agents})
    assert "NEUTRAL" not in infos
