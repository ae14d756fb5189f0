"""The maps imported from godip (tools/godip_import.py): their counts match godip's source."""

from __future__ import annotations

import pytest

from diplo.model.map import map_named

# name: (powers, provinces, centres, victory), read from godip's Go source.
GODIP_COUNTS = {
    "canton": (7, 81, 36, 19),
    "coldwar": (2, 90, 27, 17),
    "northseawars": (4, 31, 15, 8),
    "year1908": (7, 87, 40, 18),
    "youngstownredux": (10, 183, 81, 28),
}


@pytest.mark.parametrize("name", sorted(GODIP_COUNTS))
def test_godip_map_counts(name: str) -> None:
    game_map = map_named(name)
    powers, provinces, centres, victory = GODIP_COUNTS[name]
    assert len(game_map.powers) == powers
    assert len(game_map.provinces) == provinces
    assert len(game_map.centers) == centres
    assert game_map.victory == victory
    assert game_map.source and "godip" in game_map.source


def test_youngstownredux_starts_with_44_units_and_russia_in_stp_south_coast() -> None:
    game_map = map_named("youngstownredux")
    assert sum(len(u) for u in game_map.starting_units.values()) == 44
    assert ("F", "STP/SC") in game_map.starting_units["RUSSIA"]


def test_godip_names_of_maps_diplo_ships_under_its_own() -> None:
    from diplo.model.map import MAP_ALIASES, map_named
    from diplo.model.variants import load_map

    assert MAP_ALIASES["classical"] == "standard"
    for godip_name, ours in MAP_ALIASES.items():
        assert map_named(godip_name) is map_named(ours)
        assert load_map(godip_name) is map_named(ours)


def test_an_unknown_variant_name_lists_the_close_names() -> None:
    import pytest

    from diplo.model.map import MapError
    from diplo.model.variants import load_map

    with pytest.raises(MapError) as info:
        load_map("youngstown")
    message = str(info.value)
    assert "unknown map 'youngstown'" in message and "close names: youngstownredux" in message
    assert "\n" not in message
    with pytest.raises(MapError) as far:
        load_map("zzzz")
    assert "close names" not in str(far.value)


def test_northseawars_one_way_edges_on_both_backends() -> None:
    # The Central North Sea leads into the three trade provinces, with no way back, and no
    # convoy runs along a one-way edge.
    from diplo import Position, process_phase

    game_map = map_named("northseawars")
    assert game_map.one_way and game_map.first_phase == "S0M"
    assert {"GRA", "IRO", "WOO"} <= game_map.fleet_neighbours("CNS")
    assert "CNS" not in game_map.fleet_neighbours("GRA")
    assert "GRA" not in game_map.convoy_links("CNS")
    position = Position.from_json(
        {
            "phase": "S0M",
            "units": {"NORSE": ["F CNS", "F GRA", "F LNS"], "ROMANS": ["F WOO"]},
        },
        game_map,
    )
    orders = {"NORSE": ["F CNS - IRO", "F GRA - CNS", "F LNS S F CNS - IRO"]}
    outcomes = [process_phase(position, orders, backend) for backend in ("python", "rust")]
    assert outcomes[0] == outcomes[1]
    codes = {r.unit: r.code for r in outcomes[0].results if r.given}
    assert codes["F GRA"] == "illegal" and codes["F CNS"] == "ok"
    # The support from the Lower North Sea cannot reach Iron either: LNS has no edge there.
    assert codes["F LNS"] == "illegal"
    assert outcomes[0].next.units["IRO"].power == "NORSE"
    back = type(game_map).from_dict(game_map.to_dict())
    assert back.to_dict() == game_map.to_dict() and back.fleet_neighbours("GRA") == (
        game_map.fleet_neighbours("GRA")
    )


@pytest.mark.parametrize(
    ("edge", "message"),
    [
        (["CNS", "LNS"], "fleet_one_way: duplicate edge CNS-LNS"),
        (["CNS", "XYZ"], "fleet_one_way: unknown location XYZ in edge CNS-XYZ"),
        (["CNS", "CYM"], "fleet_one_way: edge CNS-CYM touches the inland province CYM"),
    ],
)
def test_a_bad_one_way_edge_is_refused_with_its_field(edge: list[str], message: str) -> None:
    from diplo.model.map import Map, MapError

    data = map_named("northseawars").to_dict()
    data["fleet_one_way"] = [*data["fleet_one_way"], edge]
    with pytest.raises(MapError, match=message):
        Map.from_dict(data)
