"""The maps imported from godip (tools/godip_import.py): their counts match godip's source."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from diplo import Phase, Position
from diplo.model.map import map_named
from diplo.model.wording import phase_words
from tool_modules import load_tool

# name: (powers, provinces, centres, victory), read from godip's Go source.
GODIP_COUNTS = {
    "canton": (7, 81, 36, 19),
    "coldwar": (2, 90, 27, 17),
    "northseawars": (4, 31, 15, 8),
    "year1908": (7, 87, 40, 18),
    "youngstownredux": (10, 183, 81, 28),
    "ancientmediterranean": (5, 79, 34, 18),
    "vietnamwar": (5, 53, 25, 15),
    "unconstitutional": (6, 87, 35, 18),
    "empiresandcoalitions": (9, 96, 44, 23),
    "hundred": (3, 41, 17, 9),
    "classicalcrowded": (11, 75, 35, 18),
    "gatewaywest": (7, 71, 35, 18),
    "threekingdoms": (3, 42, 17, 9),
    "europe1939": (8, 148, 55, 28),
    "sengoku": (7, 81, 37, 25),
    "westernworld901": (9, 157, 64, 33),
    "chaos": (34, 75, 34, 18),
    "twentytwenty": (20, 215, 98, 49),
}


@pytest.mark.parametrize("name", sorted(GODIP_COUNTS))
def test_godip_map_counts(name: str) -> None:
    game_map = map_named(name)
    powers, provinces, centres, victory = GODIP_COUNTS[name]
    assert len(game_map.players) == powers
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


def _importer() -> ModuleType:
    return load_tool("godip_import")


# A made-up variant in godip's builder style: an island port, a river coast reached from inland,
# a sea edge flagged into a land province (godip moves a fleet only where the destination is sea).
_GO_SOURCE = (
    """
const (
\tNorth godip.Nation = "North Land"
)
var newPhase = phase.Generator(hundred.BuildAnywhereParser, classical.AdjustSCs)
func Phase(year int, season godip.Season, typ godip.PhaseType) godip.Phase {
\treturn newPhase(year, season, typ)
}
var V = common.Variant{
\tPhase: Phase,
\tSoloWinner: common.SCCountWinner(2),
}
func Blank(phase godip.Phase) *state.State {
\treturn state.New(Graph(), phase, classical.BackupRule, nil, nil)
}
func Start() (result *state.State, err error) {
\tresult = Blank(Phase(1805, godip.Spring, godip.Movement))
\tif err = result.SetUnits(map[godip.Province]godip.Unit{
\t\t"abc": godip.Unit{godip.Army, North},
\t}); err != nil {
\t\treturn
\t}
\tresult.SetSupplyCenters(map[godip.Province]godip.Nation{
\t\t"abc": North,
\t})
\treturn
}
func Graph() *graph.Graph {
\treturn graph.New().
\t\t// abc
\t\tProv("abc").Conn("riv", godip.Land).Conn("sea", godip.Sea).Conn("isl", godip.Sea)"""
    """.Flag(godip.Coast...).SC(North).
\t\t// Riverland
\t\tProv("riv").Conn("abc", godip.Land).Conn("sea", godip.Land).Flag(godip.Land).SC(godip.Neutral).
\t\tProv("riv/river").Conn("sea", godip.Sea).Flag(godip.Sea).
\t\t// Sea
\t\tProv("sea").Conn("abc", godip.Sea).Conn("riv", godip.Sea).Conn("riv/river", godip.Sea)"""
    """.Conn("isl", godip.Sea).Flag(godip.Sea).
\t\tProv("isl").Conn("sea", godip.Sea).Conn("abc", godip.Sea).Flag(godip.Archipelago...).
\t\tDone()
}
var provinceLongNames = map[godip.Province]string{
\t"abc": "Abcland",
\t"isl": "Isla",
}
"""
)


def test_the_importer_reads_godip_terrain_as_godip_moves_units() -> None:
    gi = _importer()
    v = gi.parse_variant("made_up", _GO_SOURCE)
    assert gi.assess(v) == []
    assert v.phase == (1805, "Spring", "Movement") and v.anywhere and not v.neutral_orders
    # riv is land: sea -> riv is flagged Sea but no fleet can enter it, nor an army leave
    # riv for the sea; the river coast is a fleet's.
    assert v.army == {("abc", "riv")}
    assert v.fleet == {("abc", "sea"), ("isl", "sea"), ("abc", "isl"), ("riv/river", "sea")}
    assert v.ports == {"isl"} and v.provinces["isl"] == "coast"
    doc = gi.to_json(v, "0" * 40)
    assert list(doc["powers"]) == ["NORTH_LAND"] and doc["rules"] == {"build_sites": "any"}
    provinces = {p["abbr"]: p for p in doc["provinces"]}
    assert provinces["RIV"]["coasts"] == ["RIVER"] and provinces["RIV"]["type"] == "coast"
    assert provinces["ISL"]["port"] and provinces["ISL"]["name"] == "Isla"
    assert provinces["ABC"]["name"] == "Abcland"  # the comment only repeats the id
    assert provinces["RIV"]["name"] == "Riverland"
    assert doc["first_phase"] == "S1805M"


def test_ancientmediterranean_is_ancmed_under_godips_three_names() -> None:
    godip, mila = map_named("ancientmediterranean"), map_named("ancmed")
    rename = {"SII": "SIN", "THE": "THB", "TYS": "TYN"}

    def ours(loc: str) -> str:
        return rename.get(loc, loc)

    assert sorted(ours(p) for p in godip.provinces) == sorted(mila.provinces)
    for loc in godip.locations:
        assert {ours(n) for n in godip.army_neighbours(loc)} == mila.army_neighbours(ours(loc))
        assert {ours(n) for n in godip.fleet_neighbours(loc)} == mila.fleet_neighbours(ours(loc))
    for power in mila.powers:
        assert {ours(h) for h in godip.homes[power]} == set(mila.homes[power])
        assert {(k, ours(loc)) for k, loc in godip.starting_units[power]} == set(
            mila.starting_units[power]
        )
    assert godip.provinces["BAL"].is_port and godip.first_phase == mila.first_phase == "S1M"


def test_vietnamwar_fleets_sail_the_mekong_as_godip_lets_them() -> None:
    game_map = map_named("vietnamwar")
    assert game_map.coasts_of("MEO") == ("MEO/RIVER", "MEO/WC")
    assert game_map.coasts_of("XUY") == ("XUY/EC", "XUY/WC")
    # godip: meo/river joins xuy/ec and pak; pak and ubo are coastal along the river, no sea near.
    assert game_map.fleet_neighbours("MEO/RIVER") == {"XUY/EC", "PAK"}
    assert game_map.fleet_neighbours("PAK") == {"MEO/RIVER", "UBO"}
    assert game_map.fleet_neighbours("UBO") == {"PAK"}
    # godip flags med -> xuy, soa -> xuy, cgo -> xuy and cgo -> meo as sea edges into the land
    # province itself, where no fleet can stand: they are no moves.
    assert "XUY" not in game_map.fleet_neighbours("MED")
    assert "MEO" not in game_map.fleet_neighbours("CGO")
    assert game_map.army_neighbours("PAK") >= {"MEO", "UBO"}
    assert game_map.lookup("meo/river") == game_map.lookup("Mekong (river)") == "MEO/RIVER"
    assert game_map.powers == ("CAMBODIA", "LAOS", "NORTH_VIETNAM", "SOUTH_VIETNAM", "THAILAND")
    assert game_map.first_phase == "S1955M"


@pytest.mark.parametrize("backend", ["rust", "python"])
def test_two_fleets_bounce_on_the_mekong_and_a_support_from_pakxe_carries_one(backend: str) -> None:
    from diplo.api.phase import process_phase
    from diplo.model.position import Piece, Position

    start = Position.initial(map_named("vietnamwar"))
    units = {p: u for p, u in start.units.items() if p not in ("PAK", "MEO")}
    units["PAK"] = Piece("LAOS", "F", "PAK")
    units["XUY"] = Piece("SOUTH_VIETNAM", "F", "XUY/EC")
    position = start.with_changes(units=units)
    orders = {"LAOS": ["F PAK - meo/river"], "SOUTH_VIETNAM": ["F XUY/EC - MEO/RIVER"]}
    bounced = process_phase(position, orders, backend).next
    assert bounced.units["PAK"].loc == "PAK" and bounced.units["XUY"].loc == "XUY/EC"
    orders["LAOS"] = ["F PAK S F XUY/EC - MEO/RIVER"]
    after = process_phase(position, orders, backend).next
    assert after.units["MEO"] == Piece("SOUTH_VIETNAM", "F", "MEO/RIVER")
    assert after.units["PAK"].loc == "PAK"


@pytest.mark.parametrize("backend", ["rust", "python"])
def test_unconstitutional_builds_in_a_captured_centre_as_godips_own_test_does(backend: str) -> None:
    """godip's TestBuildAnywhere: New York, holding Turks and Caicos, builds a fleet there."""
    from diplo.api.phase import process_phase
    from diplo.model.position import Phase, Piece, Position

    game_map = map_named("unconstitutional")
    assert game_map.rules.build_sites == "any" and game_map.first_phase == "S1805M"
    assert "TUR" not in game_map.homes["NEW_YORK"]
    assert game_map.neutral == {"NEUTRAL"} and not game_map.rebuilds
    assert Position.initial(game_map).units["TUR"] == Piece("NEUTRAL", "A", "TUR")
    start = Position.initial(game_map)
    position = start.with_changes(
        phase=Phase.parse("W1805A"),
        # Turks and Caicos starts with a neutral army: taken, it is vacant.
        units={p: u for p, u in start.units.items() if p not in ("NYC", "TUR")},
        centers={**start.centers, "TUR": "NEW_YORK"},
    )
    after = process_phase(position, {"NEW_YORK": ["F TUR B"]}, backend).next
    assert after.units["TUR"] == Piece("NEW_YORK", "F", "TUR")


def test_empiresandcoalitions_minor_homes_start_neutral_and_are_build_sites() -> None:
    from diplo import Position, process_phase

    game_map = map_named("empiresandcoalitions")
    assert "POR" in game_map.homes["SPAIN"] and "POR" not in game_map.starting_centers["SPAIN"]
    start = Position.initial(game_map)
    assert "POR" not in start.centers and start.centers["MAD"] == "SPAIN"
    assert "GIB" in game_map.ports and "GIB" not in game_map.centers
    # Spain takes Portugal: a home centre, so a build site once owned.
    doc = start.to_json()
    doc["phase"] = "W1800A"
    doc["centers"] = {**doc["centers"], "SPAIN": [*doc["centers"]["SPAIN"], "POR"]}
    position = Position.from_json(doc, game_map)
    outcomes = [
        process_phase(position, {"SPAIN": ["A POR B"]}, backend) for backend in ("python", "rust")
    ]
    assert outcomes[0] == outcomes[1]
    assert outcomes[0].next.units["POR"].power == "SPAIN"


@pytest.mark.parametrize(
    ("centers", "message"),
    [
        (["MAD", "ATL"], "power SPAIN: starting centre ATL is not a centre"),
        (["MAD", "LON"], "power SPAIN: starting centre LON is already owned by BRITAIN"),
        (["MAD", "XYZ"], "power SPAIN: starting centre XYZ is not a province"),
    ],
)
def test_bad_starting_centres_are_refused_with_the_power(centers: list[str], message: str) -> None:
    from diplo.model.map import Map, MapError

    data = map_named("empiresandcoalitions").to_dict()
    data["powers"]["SPAIN"]["centers"] = centers
    with pytest.raises(MapError, match=message):
        Map.from_dict(data)
    round_trip = Map.from_dict(map_named("empiresandcoalitions").to_dict())
    assert round_trip.starting_centers == map_named("empiresandcoalitions").starting_centers


def _phases(play: Any, count: int) -> list[str]:
    seen = []
    for _ in range(count):
        seen.append(str(play()))
    return seen


def test_hundred_calendar_one_season_a_decade_on_every_path() -> None:
    # godip's hundred: a Spring in a year ending in 5, its Fall five years later (the
    # adjustments and the centres' changes of owner in the years ending in 0).
    from diplo import CodeGame, Game

    game_map = map_named("hundred")
    calendar = game_map.calendar
    assert (calendar.years_to_fall, calendar.years_to_spring) == (5, 5)
    assert calendar.names == ("Year", "Year", "Year")
    runs = []
    for backend in ("python", "rust"):
        game = Game(game_map, backend=backend)
        runs.append(_phases(lambda g=game: (g.process(), g.phase)[1], 6))
    code = CodeGame(Position.initial(game_map))

    def step() -> object:
        code.process()
        return code.phase

    runs.append(_phases(step, 6))
    assert runs[0] == runs[1] == runs[2], runs
    assert runs[0][0] == "F1430M" and runs[0][-1].endswith(("1445M", "1450M", "1450A"))
    assert all(int(p[1:-1]) % 5 == 0 for p in runs[0])
    assert phase_words(Phase.parse("F1430M"), calendar.names) == "Year 1430, movement"
    back = type(game_map).from_dict(game_map.to_dict())
    assert back.calendar == calendar


@pytest.mark.parametrize(
    ("calendar", "message"),
    [
        ({"years_to_fall": -1}, "calendar: 'years_to_fall' must be a number of years from 0"),
        ({"years_to_fall": 0, "years_to_spring": 0}, "cannot both be 0"),
        ({"years_to_spring": 101}, "'years_to_spring' must be a number of years from 0 to 100"),
        ({"names": {"X": "Year"}}, "names: 'X' is not a season"),
        ({"names": {"S": "<b>Year</b>"}}, "the name of S must be letters"),
        ({"seasons": []}, "calendar: unknown key\\(s\\) 'seasons'"),
        ([], "'calendar' must be an object"),
    ],
)
def test_a_bad_calendar_is_refused_with_its_field(calendar: Any, message: str) -> None:
    from diplo.model.map import Map, MapError

    data = map_named("hundred").to_dict()
    data["calendar"] = calendar
    with pytest.raises(MapError, match=message):
        Map.from_dict(data)


def test_the_core_refuses_a_calendar_that_never_moves() -> None:
    from diplo import _core

    game_map = map_named("pure")
    with pytest.raises(ValueError, match="calendar"):
        _core.CodeMap(
            list(game_map.locations),
            list(game_map.powers),
            list(range(len(game_map.locations))),
            [1] * len(game_map.provinces),
            [[] for _ in game_map.provinces],
            [[] for _ in game_map.locations],
            [],
            [[] for _ in game_map.powers],
            list(range(len(game_map.provinces))),
            calendar=(0, 0),
        )


# The shape of godip's twentytwenty: classical phases under a parser whose build order is
# BuildAnyHomeCenterOrder, and a winner function of two figures (made-up nations and numbers).
_ANY_HOME_SOURCE = """
const (
\tNorth godip.Nation = "North"
)
func winner(s *state.State) godip.Nation {
\tif leader != "" {
\t\tif highestSCCount >= 12 {
\t\t\treturn leader
\t\t}
\t\tif highestSCCount-secondHighestSCCount > 1950-s.Phase().Year() {
\t\t\treturn leader
\t\t}
\t}
}
var AnyHomeParser = orders.NewParser([]godip.Order{
\torders.MoveOrder,
\torders.BuildAnyHomeCenterOrder,
})
var Variant = common.Variant{
\tPhase:  Phase,
}
var Phase = phase.Generator(AnyHomeParser, classical.AdjustSCs)
"""


def test_the_importer_reads_twentytwentys_build_rule_and_winner() -> None:
    gi = _importer()
    v = gi.parse_variant("made_up", _ANY_HOME_SOURCE)
    assert v.any_home and not v.anywhere and not v.own_calendar
    assert (v.victory, v.margin_year) == (12, 1950)
    assert gi.to_json(v, "0" * 40)["rules"] == {
        "build_sites": "any_home",
        "civil_disorder": "home",
        "victory_lead": True,
        "victory_margin_year": 1950,
    }
    # Without the any-home build order the same generator is a calendar of its own.
    plain = gi.parse_variant("made_up", _ANY_HOME_SOURCE.replace("BuildAnyHomeCenterOrder", "X"))
    assert not plain.any_home and plain.own_calendar


def test_years_count_turns_of_the_map_s_calendar() -> None:
    # --years N plays N turns (a Spring and its Fall): ten calendar years each on hundred.
    from diplo.model.calendar import max_year_of

    calendar = map_named("hundred").calendar
    assert max_year_of(1, 1425, calendar) == 1430
    assert max_year_of(2, 1425, calendar) == 1440
    assert max_year_of(15, 1901) == 1915
    with pytest.raises(ValueError, match="at most 857 years"):
        max_year_of(900, 1425, calendar)


def test_the_mila_drop_in_plays_hundred_by_its_calendar() -> None:
    # No MILA map file exists for it: the drop-in reads the diplo map, calendar included.
    from diplo.compat.mila import Game as MilaGame

    game = MilaGame(map_name="hundred")
    seen = []
    for _ in range(4):
        seen.append(game.get_current_phase())
        game.process()
    assert seen[:2] == ["S1425M", "F1430M"]
    assert all(int(p[1:-1]) % 5 == 0 for p in seen)
    game_map = game.map
    assert game_map.find_next_phase("SPRING 1425 RETREATS") == "FALL 1430 MOVEMENT"
    assert game_map.find_next_phase("WINTER 1430 ADJUSTMENTS") == "SPRING 1435 MOVEMENT"
    assert game_map.find_previous_phase("SPRING 1435 MOVEMENT") == "WINTER 1430 ADJUSTMENTS"
    assert game_map.find_previous_phase("FALL 1430 MOVEMENT") == "SPRING 1425 RETREATS"


def test_chaos_starts_in_an_adjustment_that_builds_an_army_for_every_unordered_build() -> None:
    # godip's chaos: 34 powers of one centre each start with no unit in 1900's adjustment;
    # every build left unordered is an army (start_armies), ordered builds are as ordered.
    from diplo import CodeGame, process_phase

    game_map = map_named("chaos")
    assert game_map.start_armies and game_map.first_phase == "W1900A"
    start = Position.initial(game_map)
    assert not start.units and len(start.centers) == 34
    orders = {"LONDON": ["F LON B"], "PARIS": ["A PAR B"]}
    outcomes = [process_phase(start, orders, backend) for backend in ("python", "rust")]
    assert outcomes[0] == outcomes[1]
    after = outcomes[0].next
    assert str(after.phase) == "S1901M" and len(after.units) == 34
    assert str(after.units["LON"]) == "F LON" and str(after.units["PAR"]) == "A PAR"
    assert all(p.type == "A" for prov, p in after.units.items() if prov != "LON")
    built = [r for r in outcomes[0].results if not r.given and r.power == "ANKARA"]
    assert [(r.order, r.reason) for r in built] == [
        (
            "A ANK B",
            "Ankara gave no order for a build of its first phase, so A ANK is built (the map's "
            "start_armies).",
        )
    ]
    code = CodeGame(start)
    code.process()
    assert len(code.position().units) == 34
    # Only the first phase: a later adjustment waives what is left unordered.
    later = start.with_changes(phase=Phase.parse("W1901A"))
    assert not process_phase(later, {}, "rust").next.units
    assert not process_phase(later, {}, "python").next.units


def test_a_map_path_that_is_no_regular_file_is_refused_at_once(tmp_path: Path) -> None:
    # A FIFO named by --map would block its reader forever; a folder means nothing.
    import os

    from diplo.model.map import MapError
    from diplo.model.variants import load_map

    fifo = tmp_path / "map.json"
    os.mkfifo(fifo)
    for path in (fifo, tmp_path):
        with pytest.raises(MapError, match="not a regular file"):
            load_map(path)
