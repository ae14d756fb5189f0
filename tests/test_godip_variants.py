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
