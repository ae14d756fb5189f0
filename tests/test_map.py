"""Tests of the standard map data and its loader (diplo.model.map).

The adjacency was written from the board and then compared, edge by edge, with the standard map of
the MILA engine (``diplomacy==1.1.2``, ``Map('standard').abuts``) by a throwaway script outside the
repository: the 111 army edges and 141 fleet edges, the 34 centres, the homes and the 1901 units
all agree, so no disagreement had to be settled. (MILA's map also carries Switzerland, an
impassable area that is not one of the 75 provinces, and bare ``BUL``/``SPA``/``STP`` fleet
entries; we have neither, by design.)
"""

from __future__ import annotations

import copy
import html
import json
import re
from pathlib import Path
from typing import Any

import pytest

from diplo.model.map import Map, MapError, Province, standard_map

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "python" / "diplo" / "data" / "standard.json"
DATC_HTML = ROOT.parent / "shared" / "datc" / "DATC_v3_0.html"

SPLIT = ("BUL", "SPA", "STP")


@pytest.fixture(scope="module")
def m() -> Map:
    return standard_map()


def raw() -> dict[str, Any]:
    """A fresh, mutable copy of the standard data, to damage in the rejection tests."""
    data: dict[str, Any] = json.loads(DATA.read_text(encoding="utf-8"))
    return copy.deepcopy(data)


def province_entry(data: dict[str, Any], abbr: str) -> dict[str, Any]:
    entry: dict[str, Any] = next(p for p in data["provinces"] if p["abbr"] == abbr)
    return entry


# ---------------------------------------------------------------------------- counts and order


def test_counts(m: Map) -> None:
    assert len(m.provinces) == 75
    assert len(m.centers) == 34
    assert len(m.locations) == 81
    assert len(m.powers) == 7
    assert sum(len(u) for u in m.starting_units.values()) == 22
    assert {p: len(h) for p, h in m.homes.items()} == {
        "AUSTRIA": 3,
        "ENGLAND": 3,
        "FRANCE": 3,
        "GERMANY": 3,
        "ITALY": 3,
        "RUSSIA": 4,
        "TURKEY": 3,
    }
    kinds = [p.kind for p in m.provinces.values()]
    assert (kinds.count("land"), kinds.count("coast"), kinds.count("sea")) == (14, 42, 19)


def test_edge_counts(m: Map) -> None:
    # Pinned so that an accidental edit of the data file shows up here (values agreed with MILA).
    army = sum(len(m.army_neighbours(p)) for p in m.provinces)
    fleet = sum(len(m.fleet_neighbours(loc)) for loc in m.locations)
    assert (army // 2, fleet // 2) == (111, 141)


def test_locations_are_provinces_in_file_order_then_coasts(m: Map) -> None:
    data = raw()
    order = [p["abbr"] for p in data["provinces"]]
    assert list(m.provinces) == order
    assert list(m.locations[:75]) == order
    assert m.locations[75:] == ("BUL/EC", "BUL/SC", "SPA/NC", "SPA/SC", "STP/NC", "STP/SC")
    assert all(m.location_index[loc] == i for i, loc in enumerate(m.locations))
    assert len(m.location_index) == len(m.locations)
    # Deterministic: loading again gives the same numbering (the Rust core depends on it).
    assert Map.load(DATA).locations == m.locations


def test_powers_adjectives_homes_and_units(m: Map) -> None:
    assert m.powers == ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")
    assert m.adjectives == {
        "AUSTRIA": "Austrian",
        "ENGLAND": "English",
        "FRANCE": "French",
        "GERMANY": "German",
        "ITALY": "Italian",
        "RUSSIA": "Russian",
        "TURKEY": "Turkish",
    }
    assert set(m.homes["RUSSIA"]) == {"MOS", "SEV", "STP", "WAR"}
    assert set(m.homes["TURKEY"]) == {"ANK", "CON", "SMY"}
    assert set(m.starting_units["RUSSIA"]) == {
        ("F", "STP/SC"),
        ("A", "MOS"),
        ("A", "WAR"),
        ("F", "SEV"),
    }
    assert set(m.starting_units["ENGLAND"]) == {("F", "LON"), ("F", "EDI"), ("A", "LVP")}
    assert set(m.starting_units["GERMANY"]) == {("F", "KIE"), ("A", "BER"), ("A", "MUN")}
    assert set(m.starting_units["ITALY"]) == {("F", "NAP"), ("A", "ROM"), ("A", "VEN")}
    assert set(m.starting_units["AUSTRIA"]) == {("F", "TRI"), ("A", "VIE"), ("A", "BUD")}
    assert set(m.starting_units["FRANCE"]) == {("F", "BRE"), ("A", "PAR"), ("A", "MAR")}
    assert set(m.starting_units["TURKEY"]) == {("F", "ANK"), ("A", "CON"), ("A", "SMY")}
    all_homes = [h for hs in m.homes.values() for h in hs]
    assert len(all_homes) == len(set(all_homes)) == 22
    assert set(all_homes) <= m.centers
    neutral = m.centers - set(all_homes)
    assert neutral == {
        "BEL",
        "BUL",
        "DEN",
        "GRE",
        "HOL",
        "NWY",
        "POR",
        "RUM",
        "SER",
        "SPA",
        "SWE",
        "TUN",
    }
    assert m.provinces["STP"].home == "RUSSIA"
    assert m.provinces["BEL"].home is None
    assert m.provinces["ENG"].home is None


def test_province_record(m: Map) -> None:
    stp = m.provinces["STP"]
    assert isinstance(stp, Province)
    assert (stp.name, stp.kind, stp.is_center, stp.coasts) == (
        "St Petersburg",
        "coast",
        True,
        ("NC", "SC"),
    )
    assert m.provinces["LYO"].name == "Gulf of Lyon"
    assert m.provinces["MAO"].name == "Mid-Atlantic Ocean"
    with pytest.raises(AttributeError):
        stp.name = "Leningrad"  # type: ignore[misc]
    assert [p for p, v in m.provinces.items() if v.coasts] == list(SPLIT)
    assert m.provinces["BUL"].coasts == ("EC", "SC")
    assert m.provinces["SPA"].coasts == ("NC", "SC")


def test_standard_map_is_cached() -> None:
    assert standard_map() is standard_map()


# ---------------------------------------------------------------------------- graph shape


def test_neighbours_are_symmetric(m: Map) -> None:
    for a in m.provinces:
        for b in m.army_neighbours(a):
            assert a in m.army_neighbours(b), (a, b)
    for a in m.locations:
        for b in m.fleet_neighbours(a):
            assert a in m.fleet_neighbours(b), (a, b)


def test_terrain_of_edges(m: Map) -> None:
    for p in m.provinces:
        if m.is_sea(p):
            assert m.army_neighbours(p) == frozenset()
        for n in m.army_neighbours(p):
            assert not m.is_sea(n)
        assert p not in m.army_neighbours(p)
    for loc in m.locations:
        for n in m.fleet_neighbours(loc):
            assert not m.is_land(m.province_of(n))
            # Never a bare split-coast province, never the fleet's own province.
            assert n not in SPLIT
            assert m.province_of(n) != m.province_of(loc)
    for p in m.provinces:
        if m.is_land(p):
            assert m.fleet_neighbours(p) == frozenset()
    for p in SPLIT:
        assert m.fleet_neighbours(p) == frozenset()
        for coast in m.coasts_of(p):
            assert m.fleet_neighbours(coast)
    # Every coastal province and sea is reachable by some fleet; every non-sea by some army.
    for p, prov in m.provinces.items():
        if prov.kind != "land":
            assert any(m.fleet_neighbours(loc) for loc in (p, *m.coasts_of(p))), p
        if prov.kind != "sea":
            assert m.army_neighbours(p), p


# The fleet neighbourhoods that engines have got wrong before, pinned exactly.
EXACT_FLEET = {
    "SPA/SC": {"LYO", "WES", "MAO", "MAR", "POR"},
    "SPA/NC": {"MAO", "POR", "GAS"},
    "BUL/EC": {"BLA", "CON", "RUM"},
    "BUL/SC": {"AEG", "CON", "GRE"},
    "STP/NC": {"BAR", "NWY"},
    "STP/SC": {"BOT", "FIN", "LVN"},
    "KIE": {"BAL", "HEL", "BER", "DEN", "HOL"},
    "DEN": {"BAL", "SKA", "HEL", "NTH", "KIE", "SWE"},
    "CON": {"BLA", "AEG", "ANK", "SMY", "BUL/EC", "BUL/SC"},
    "SKA": {"NTH", "NWY", "SWE", "DEN"},
}


@pytest.mark.parametrize("loc", sorted(EXACT_FLEET))
def test_trap_fleet_neighbourhoods(m: Map, loc: str) -> None:
    assert m.fleet_neighbours(loc) == EXACT_FLEET[loc]


@pytest.mark.parametrize(
    ("a", "b", "adjacent"),
    [
        ("SKA", "BAL", False),  # the Skagerrak does not open into the Baltic
        ("SPA/NC", "LYO", False),  # DATC 6.B.4 / 6.B.12
        ("SPA/NC", "WES", False),
        ("SPA/SC", "GAS", False),
        ("SPA/NC", "MAR", False),
        ("NTH", "MAO", False),  # the long way round is over the top, by the Norwegian Sea
        ("NTH", "PIC", False),  # DATC 6.A.1
        ("KIE", "BAL", True),  # Kiel's canal: fleets pass between the Baltic and the Bight
        ("KIE", "HEL", True),
        ("CON", "BLA", True),  # the Bosporus
        ("CON", "AEG", True),
        ("DEN", "BAL", True),
        ("DEN", "SKA", True),
        ("DEN", "HEL", True),
        ("DEN", "NTH", True),
        ("BUL/EC", "AEG", False),
        ("BUL/SC", "BLA", False),
        ("STP/NC", "BOT", False),
        ("STP/SC", "BAR", False),
        ("NWY", "FIN", False),  # armies may cross there, fleets may not (no shared shore)
        ("BOT", "BAL", True),
        ("SWE", "DEN", True),
        ("LVP", "IRI", True),
        ("EAS", "ION", True),
        ("ADR", "TYS", False),
    ],
)
def test_trap_fleet_pairs(m: Map, a: str, b: str, adjacent: bool) -> None:
    assert (b in m.fleet_neighbours(a)) is adjacent
    assert (a in m.fleet_neighbours(b)) is adjacent


@pytest.mark.parametrize(
    ("a", "b", "adjacent"),
    [
        ("NWY", "FIN", True),
        ("NWY", "STP", True),
        ("MUN", "TYR", True),
        ("BUR", "MUN", True),
        ("SIL", "BOH", True),
        ("SPA", "POR", True),
        ("DEN", "SWE", True),
        ("NAF", "TUN", True),
        ("LON", "EDI", False),
        ("KIE", "SIL", False),
        ("BEL", "MUN", False),
        ("VIE", "SER", False),
        ("LVP", "IRI", False),  # DATC 6.A.2: an army cannot enter a sea
    ],
)
def test_army_pairs(m: Map, a: str, b: str, adjacent: bool) -> None:
    assert (b in m.army_neighbours(a)) is adjacent


# ---------------------------------------------------------------------------- movement queries


def test_can_move(m: Map) -> None:
    assert not m.can_move("F", "NTH", "PIC")  # DATC 6.A.1
    assert not m.can_move("A", "LVP", "IRI")  # DATC 6.A.2
    assert not m.can_move("F", "KIE", "MUN")  # DATC 6.A.3
    assert not m.can_move("F", "KIE", "KIE")  # DATC 6.A.4
    assert not m.can_move("A", "PAR", "PAR")
    assert m.can_move("F", "GAS", "SPA/NC")
    assert not m.can_move("F", "GAS", "SPA/SC")  # DATC 6.B.3
    assert not m.can_move("F", "GAS", "SPA")  # exact location: a fleet needs a coast
    assert m.can_move("A", "GAS", "SPA")
    assert not m.can_move("A", "GAS", "SPA/NC")  # armies do not stand on coasts
    assert m.can_move("F", "STP/SC", "BOT")
    assert not m.can_move("F", "STP/NC", "BOT")
    assert not m.can_move("F", "SPA/NC", "LYO")  # DATC 6.B.12
    with pytest.raises(MapError, match="'X'"):
        m.can_move("X", "PAR", "BUR")
    with pytest.raises(MapError, match="XYZ"):
        m.can_move("A", "XYZ", "BUR")


def test_reachable_coasts(m: Map) -> None:
    assert m.reachable_coasts("MAO", "SPA") == ("SPA/NC", "SPA/SC")
    assert m.reachable_coasts("GAS", "SPA") == ("SPA/NC",)
    assert m.reachable_coasts("MAR", "SPA") == ("SPA/SC",)
    assert m.reachable_coasts("POR", "SPA") == ("SPA/NC", "SPA/SC")
    assert m.reachable_coasts("CON", "BUL") == ("BUL/EC", "BUL/SC")
    assert m.reachable_coasts("BLA", "BUL") == ("BUL/EC",)
    assert m.reachable_coasts("AEG", "BUL") == ("BUL/SC",)
    assert m.reachable_coasts("NWY", "STP") == ("STP/NC",)
    assert m.reachable_coasts("FIN", "STP") == ("STP/SC",)
    assert m.reachable_coasts("ENG", "LON") == ("LON",)
    assert m.reachable_coasts("NTH", "MAO") == ()
    assert m.reachable_coasts("PAR", "BUR") == ()  # no fleet can be in Paris
    assert m.reachable_coasts("SPA/NC", "MAO") == ("MAO",)
    assert m.reachable_coasts("MAO", "SPA/NC") == ("SPA/NC", "SPA/SC")  # a coast names its province


def test_can_reach_is_province_level(m: Map) -> None:
    assert m.can_reach("F", "MAR", "SPA")  # DATC 6.B.5: may support a move to Spain's north coast
    assert m.can_reach("F", "MAR", "SPA/NC")
    assert not m.can_reach("F", "SPA/NC", "LYO")  # DATC 6.B.4
    assert m.can_reach("F", "SPA/SC", "LYO")
    assert m.can_reach("F", "GRE", "BUL")  # DATC 4.B.4: Greece may support Black Sea - Bul(ec)
    assert not m.can_reach("F", "BLA", "GRE")
    assert m.can_reach("A", "MUN", "KIE")
    assert not m.can_reach("A", "PAR", "LON")
    assert not m.can_reach("A", "BUR", "ENG")
    assert not m.can_reach("F", "KIE", "MUN")
    assert m.can_reach("F", "NTH", "BEL")
    with pytest.raises(MapError):
        m.can_reach("F", "ATL", "BEL")


def test_sea_neighbours(m: Map) -> None:
    assert m.sea_neighbours("BUL") == {"BLA", "AEG"}
    assert m.sea_neighbours("STP") == {"BAR", "BOT"}
    assert m.sea_neighbours("SPA") == {"MAO", "LYO", "WES"}
    assert m.sea_neighbours("PAR") == frozenset()
    assert m.sea_neighbours("NTH") >= {"ENG", "SKA", "HEL", "NWG"}


def test_predicates_and_coasts(m: Map) -> None:
    assert m.is_sea("NTH") and not m.is_coastal("NTH") and not m.is_land("NTH")
    assert m.is_land("PAR") and not m.is_coastal("PAR")
    assert m.is_coastal("BRE") and m.is_coastal("STP") and m.is_coastal("STP/NC")
    assert m.coasts_of("STP") == ("STP/NC", "STP/SC")
    assert m.coasts_of("PAR") == ()
    assert m.province_of("STP/NC") == "STP"
    assert m.province_of("PAR") == "PAR"
    assert m.coast_of("BUL/EC") == "EC"
    assert m.coast_of("BUL") is None
    for bad in ("XYZ", "STP/WC", "stp"):
        with pytest.raises(MapError, match=re.escape(bad)):
            m.province_of(bad)
    with pytest.raises(MapError, match="XYZ"):
        m.army_neighbours("XYZ")
    with pytest.raises(MapError, match="STP/EC"):
        m.fleet_neighbours("STP/EC")
    with pytest.raises(MapError, match="XYZ"):
        m.is_sea("XYZ")


def test_distances(m: Map) -> None:
    d = m.distances({"NAP"})
    assert d["NAP"] == 0
    assert d["ROM"] == d["APU"] == d["ION"] == d["TYS"] == 1
    assert d["GRE"] == 2  # NAP - ION - GRE, over all borders
    assert d["TUN"] == 2
    assert d["VEN"] == 2
    assert len(d) == 75  # every province is reachable
    # Every border counts whatever the unit type: Berlin's nearest neighbours include the Baltic
    # (fleet border) and Silesia (army border).
    assert m.distances(["BER"])["BAL"] == 1
    assert m.distances(["BER"])["SIL"] == 1
    # The nearest of several sources; a coast stands for its province.
    multi = m.distances(["STP/SC", "SEV"])
    assert multi["STP"] == multi["SEV"] == 0
    assert multi["MOS"] == 1
    assert multi["BOT"] == 1
    assert multi["NWG"] == 2  # STP - BAR - NWG
    assert m.distances([]) == {}
    with pytest.raises(MapError, match="XYZ"):
        m.distances(["XYZ"])


def test_distances_are_consistent_bfs(m: Map) -> None:
    d = m.distances(m.homes["ENGLAND"])
    for p, dp in d.items():
        border = m.army_neighbours(p) | {
            m.province_of(n) for loc in (p, *m.coasts_of(p)) for n in m.fleet_neighbours(loc)
        }
        assert all(d[n] >= dp - 1 for n in border)
        if dp:
            assert any(d[n] == dp - 1 for n in border), p


# ---------------------------------------------------------------------------- names


def test_every_name_and_alias_resolves(m: Map) -> None:
    for abbr, p in m.provinces.items():
        for text in (abbr, abbr.lower(), p.name, p.name.upper(), *p.aliases):
            assert m.lookup(text) == abbr, text
    for loc in m.locations:
        assert m.lookup(loc) == loc
        assert m.lookup(loc.lower()) == loc


# Spellings the DATC uses (chapter 4 short forms, chapter 6 orders, and prose).
DATC_NAMES = {
    "Adriatic Sea": "ADR",
    "Aegean Sea": "AEG",
    "Baltic Sea": "BAL",
    "Barents Sea": "BAR",
    "Black Sea": "BLA",
    "Eastern Mediterranean": "EAS",
    "English Channel": "ENG",
    "Gulf of Bothnia": "BOT",
    "Gulf of Lyon": "LYO",
    "Gulf of Lyons": "LYO",
    "Helgoland Bight": "HEL",
    "Heligoland Bight": "HEL",
    "Ionian Sea": "ION",
    "Irish Sea": "IRI",
    "Mid-Atlantic Ocean": "MAO",
    "Mid Atlantic Ocean": "MAO",
    "Mid Atlantic": "MAO",
    "North Atlantic Ocean": "NAO",
    "North Sea": "NTH",
    "Norwegian Sea": "NWG",
    "Skagerrak": "SKA",
    "Tyrrhenian Sea": "TYS",
    "Tyn": "TYS",
    "Western Mediterranean": "WES",
    "Marseilles": "MAR",
    "North Africa": "NAF",
    "St Petersburg": "STP",
    "St. Petersburg": "STP",
    "Saint Petersburg": "STP",
    "Tyrolia": "TYR",
    "Tyrol": "TYR",
    "Rhur": "RUH",  # DATC 6.F.25 misspells Ruhr; the order is still meant to be read
    "Ruhr": "RUH",
    "Rumania": "RUM",
    "Sevastopol": "SEV",
    "Constantinople": "CON",
    "Livonia": "LVN",
    "Bul": "BUL",
    "Bul(ec)": "BUL/EC",
    "Bul(sc)": "BUL/SC",
    "Bulgaria(ec)": "BUL/EC",
    "Spain(nc)": "SPA/NC",
    "Spain(sc)": "SPA/SC",
    "St Petersburg(nc)": "STP/NC",
    "St Petersburg(sc)": "STP/SC",
    "Con": "CON",
    "Ion": "ION",
}


@pytest.mark.parametrize("text", sorted(DATC_NAMES))
def test_datc_spellings(m: Map, text: str) -> None:
    assert m.lookup(text) == DATC_NAMES[text]


def _datc_order_names(path: Path) -> set[str]:
    """Every place name written in the order blocks of DATC chapter 6."""
    text = path.read_text(encoding="utf-8", errors="replace")
    text = text[text.index('name="6.A.1"') :]
    names: set[str] = set()
    adjective = r"(?:Austrian|English|French|German|Italian|Russian|Turkish)"
    for block in re.findall(r"<pre>(.*?)</pre>", text, flags=re.S | re.I):
        for line in html.unescape(re.sub(r"<[^>]+>", "", block)).splitlines():
            line = line.strip()
            if not re.match(r"(?:A|F|Build|Remove) ", line):
                continue
            line = re.sub(r"^(?:Build|Remove) ", "", line)
            line = re.sub(r" (?:Holds?|via Convoy)$", "", line, flags=re.I)
            for part in re.split(r" - | Supports | Convoys ", line):
                part = re.sub(rf"^(?:{adjective} )?[AF] ", "", part.strip())
                names.add(part)
    return names


@pytest.mark.skipif(not DATC_HTML.exists(), reason=f"no DATC text at {DATC_HTML}")
def test_every_place_in_datc_chapter_6_resolves(m: Map) -> None:
    names = _datc_order_names(DATC_HTML)
    assert len(names) > 70  # the scan found the orders
    unknown = []
    for name in sorted(names):
        try:
            m.lookup(name)
        except MapError:
            unknown.append(name)
    assert unknown == []


@pytest.mark.parametrize(
    ("text", "loc"),
    [
        ("STP/SC", "STP/SC"),
        ("stp/sc", "STP/SC"),
        ("STP(sc)", "STP/SC"),
        ("STP (SC)", "STP/SC"),
        ("St Petersburg(sc)", "STP/SC"),
        ("St Petersburg (south coast)", "STP/SC"),
        ("St. Petersburg (South Coast)", "STP/SC"),
        ("stp sc", "STP/SC"),
        ("  stp   sc  ", "STP/SC"),
        ("STP-NC", "STP/NC"),
        ("Spain north coast", "SPA/NC"),
        ("Spain North Coast", "SPA/NC"),
        ("Spain (n.c.)", "SPA/NC"),
        ("spa nc", "SPA/NC"),
        ("Spain/nc", "SPA/NC"),
        ("the north coast of Spain", "SPA/NC"),
        ("south coast of Bulgaria", "BUL/SC"),
        ("Bulgaria east coast", "BUL/EC"),
        ("bul(EC)", "BUL/EC"),
        ("Spain", "SPA"),
        ("spain", "SPA"),
        ("SPAIN", "SPA"),
        ("Mid-Atlantic", "MAO"),
        ("mid atlantic ocean", "MAO"),
        ("MidAtlantic", "MAO"),
        ("St.Petersburg", "STP"),
        ("  north   sea ", "NTH"),
        ("Gulf-of-Lyon", "LYO"),
    ],
)
def test_lookup_variants(m: Map, text: str, loc: str) -> None:
    assert m.lookup(text) == loc


@pytest.mark.parametrize(
    "text",
    [
        "Atlantis",
        "",
        "NC",
        "(nc)",
        "north coast",
        "Spain west coast",  # DATC 4.B.3 names such impossible coasts
        "Brest east coast",
        "Bulgaria(nc)",
        "St Petersburg (east coast)",
        "PAR/NC",
        "XYZ/NC",
    ],
)
def test_lookup_rejects(m: Map, text: str) -> None:
    with pytest.raises(MapError) as info:
        m.lookup(text)
    assert repr(text) in str(info.value)


def test_parse_location_keeps_unknown_coast(m: Map) -> None:
    # Lets the order parser tell "no such coast" (a bad order) from "no such place".
    assert m.parse_location("Spain west coast") == ("SPA", "WC")
    assert m.parse_location("Brest(nc)") == ("BRE", "NC")
    assert m.parse_location("STP/SC") == ("STP", "SC")
    assert m.parse_location("Paris") == ("PAR", None)
    with pytest.raises(MapError, match="Atlantis"):
        m.parse_location("Atlantis (nc)")


# ---------------------------------------------------------------------------- the loader


def test_load_and_from_dict_agree(m: Map, tmp_path: Path) -> None:
    loaded = Map.load(DATA)
    built = Map.from_dict(raw())
    for other in (loaded, built):
        assert other.provinces == m.provinces
        assert other.locations == m.locations
        assert other.starting_units == m.starting_units
        assert all(other.fleet_neighbours(loc) == m.fleet_neighbours(loc) for loc in m.locations)
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(MapError, match=re.escape("bad.json")):
        Map.load(bad)


def _damage_army_edge(d: dict[str, Any], edge: list[str]) -> None:
    d["army_edges"].append(edge)


def _damage_fleet_edge(d: dict[str, Any], edge: list[str]) -> None:
    d["fleet_edges"].append(edge)


def _set(abbr: str, key: str, value: Any) -> Any:
    def damage(d: dict[str, Any]) -> None:
        province_entry(d, abbr)[key] = value

    return damage


def _power(power: str, key: str, value: Any) -> Any:
    def damage(d: dict[str, Any]) -> None:
        d["powers"][power][key] = value

    return damage


def _add_province(entry: dict[str, Any]) -> Any:
    def damage(d: dict[str, Any]) -> None:
        d["provinces"].append(entry)

    return damage


def _del(key: str) -> Any:
    def damage(d: dict[str, Any]) -> None:
        del d[key]

    return damage


DAMAGES: list[tuple[str, Any, str]] = [
    (
        "unknown province in army edge",
        lambda d: _damage_army_edge(d, ["PAR", "XXX"]),
        "XXX",
    ),
    (
        "army edge names a coast",
        lambda d: _damage_army_edge(d, ["STP/NC", "BAR"]),
        "STP/NC",
    ),
    ("army edge touches a sea", lambda d: _damage_army_edge(d, ["PAR", "ENG"]), "ENG"),
    ("army self-loop", lambda d: _damage_army_edge(d, ["PAR", "PAR"]), "PAR-PAR"),
    ("duplicate army edge", lambda d: _damage_army_edge(d, ["PAR", "BUR"]), "PAR-BUR"),
    ("malformed edge", lambda d: _damage_army_edge(d, ["PAR"]), "PAR"),
    (
        "unknown coast in fleet edge",
        lambda d: _damage_fleet_edge(d, ["SPA/WC", "MAO"]),
        "SPA/WC",
    ),
    (
        "unknown province in fleet edge",
        lambda d: _damage_fleet_edge(d, ["ATL", "MAO"]),
        "ATL",
    ),
    (
        "fleet edge touches inland",
        lambda d: _damage_fleet_edge(d, ["PAR", "ENG"]),
        "PAR",
    ),
    (
        "fleet edge at a bare split-coast province",
        lambda d: _damage_fleet_edge(d, ["STP", "NWG"]),
        "STP",
    ),
    (
        "fleet edge joins two coasts of one province",
        lambda d: _damage_fleet_edge(d, ["SPA/NC", "SPA/SC"]),
        "SPA/NC-SPA/SC",
    ),
    ("fleet self-loop", lambda d: _damage_fleet_edge(d, ["NTH", "NTH"]), "NTH-NTH"),
    ("duplicate fleet edge", lambda d: _damage_fleet_edge(d, ["MAO", "SPA/NC"]), "MAO-SPA/NC"),
    ("coasts on an inland province", _set("PAR", "coasts", ["NC", "SC"]), "PAR"),
    ("coasts on a sea", _set("ENG", "coasts", ["NC"]), "ENG"),
    ("bad coast code", _set("SPA", "coasts", ["north", "SC"]), "north"),
    ("coast code too long", _set("SPA", "coasts", ["NORTHERNMOST", "SC"]), "NORTHERNMOST"),
    ("one-letter coast code", _set("SPA", "coasts", ["N", "SC"]), "'N'"),
    ("bad type", _set("PAR", "type", "mountain"), "mountain"),
    ("bad centre flag", _set("PAR", "center", "yes"), "PAR"),
    ("unknown province key", _set("PAR", "centre", True), "centre"),
    (
        "duplicate abbreviation",
        _add_province({"abbr": "PAR", "name": "Paris again", "type": "land"}),
        "PAR",
    ),
    ("alias names another province", _set("RUM", "aliases", ["Rome"]), "Rome"),
    ("alias is another abbreviation", _set("RUM", "aliases", ["ROM"]), "ROM"),
    (
        "name clashes after normalisation",
        _set("YOR", "aliases", ["N.T.H."]),
        "N.T.H.",
    ),
    ("home centre not a centre", _power("ENGLAND", "homes", ["EDI", "LON", "YOR"]), "YOR"),
    ("home centre unknown", _power("ENGLAND", "homes", ["EDI", "LON", "XYZ"]), "XYZ"),
    ("home centre of two powers", _power("FRANCE", "homes", ["BRE", "MAR", "LON"]), "LON"),
    ("fleet inland", _power("FRANCE", "units", ["F PAR"]), "F PAR"),
    ("army at sea", _power("ENGLAND", "units", ["A NTH"]), "A NTH"),
    ("fleet on bare split coast", _power("RUSSIA", "units", ["F STP"]), "F STP"),
    ("army on a coast", _power("RUSSIA", "units", ["A STP/NC"]), "A STP/NC"),
    ("unit on unknown location", _power("RUSSIA", "units", ["A XYZ"]), "A XYZ"),
    ("malformed unit", _power("RUSSIA", "units", ["Army Moscow"]), "Army Moscow"),
    ("two units in one province", _power("FRANCE", "units", ["A PAR", "A PAR"]), "PAR"),
    ("unknown power key", _power("FRANCE", "colour", "blue"), "colour"),
    ("missing top-level key", _del("fleet_edges"), "fleet_edges"),
]


@pytest.mark.parametrize(
    ("damage", "needle"),
    [pytest.param(d, n, id=i) for i, d, n in DAMAGES],
)
def test_loader_rejects(damage: Any, needle: str) -> None:
    data = raw()
    damage(data)
    with pytest.raises(MapError) as info:
        Map.from_dict(data)
    assert needle in str(info.value)


def test_unit_in_a_province_owned_by_another_power_is_rejected() -> None:
    data = raw()
    data["powers"]["GERMANY"]["units"].append("A PAR")
    with pytest.raises(MapError, match="PAR"):
        Map.from_dict(data)


def test_same_alias_spelled_twice_for_one_province_is_fine() -> None:
    data = raw()
    province_entry(data, "MAO")["aliases"].append("MID-ATLANTIC")
    assert Map.from_dict(data).lookup("mid atlantic") == "MAO"


def test_unknown_top_level_key_is_rejected() -> None:
    data = raw()
    data["fleet_edge"] = []
    with pytest.raises(MapError, match="fleet_edge"):
        Map.from_dict(data)


def test_a_coast_code_may_be_a_word() -> None:
    """godip's vietnamwar names the Mekong's river coast ``river``: a coast code of more than two
    letters is read, written and looked up as the compass codes are."""
    data = raw()
    spa = next(p for p in data["provinces"] if p["abbr"] == "SPA")
    spa["coasts"] = ["NC", "RIVER"]
    for edge in data["fleet_edges"]:
        edge[:] = [loc.replace("SPA/SC", "SPA/RIVER") for loc in edge]
    game_map = Map.from_dict(data)
    assert game_map.coasts_of("SPA") == ("SPA/NC", "SPA/RIVER")
    assert game_map.fleet_neighbours("SPA/RIVER") == {"MAR", "LYO", "WES", "MAO", "POR"}
    for text in ("SPA/RIVER", "spa/river", "Spain (river)", "spa(RIVER)"):
        assert game_map.lookup(text) == "SPA/RIVER"
    assert game_map.lookup("spa/nc") == "SPA/NC"
    with pytest.raises(MapError, match="has no SC coast"):
        game_map.lookup("spa/sc")
    with pytest.raises(MapError, match="has no DELTA coast"):
        game_map.lookup("spa/delta")
    assert Map.from_dict(game_map.to_dict()).to_dict() == game_map.to_dict()
