"""The maps imported from godip (tools/godip_import.py): their counts match godip's source."""

from __future__ import annotations

import pytest

from diplo.model.map import map_named

# name: (powers, provinces, centres, victory), read from godip's Go source.
GODIP_COUNTS = {
    "canton": (7, 81, 36, 19),
    "coldwar": (2, 90, 27, 17),
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
