"""The board: provinces, coasts, adjacency, centres and homes, loaded from a checked map file.

A *province* is named by its abbreviation (``STP``); a *location* is a province or one of its
coasts (``STP/NC``). Armies stand on provinces. A fleet in a split-coast province stands on a coast,
never on the bare province, which is why the fleet graph joins locations and has no edge at a bare
split-coast province.

The file format is described in ``docs/design.md`` ("Map"). Everything that other modules ask in
their inner loops (neighbours, ``can_move``, ``province_of``) is answered from dictionaries built
once in ``__init__``; the map is never modified after it is built.
"""

from __future__ import annotations

import json
import re
from collections import deque
from collections.abc import Iterable, Mapping
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, SupportsIndex

from .calendar import Calendar, read_calendar
from .limits import MAX_YEAR
from .map_schema import (
    ABBR_RE,
    COAST_RE,
    FIRST_PHASE_RE,
    KINDS,
    POWER_KEYS,
    POWER_RE,
    PROVINCE_KEYS,
    REQUIRED_KEYS,
    TOP_KEYS,
    UNIT_RE,
    MapError,
    Province,
    ProvinceKind,
    UnitType,
    check_keys,
    is_str,
    require,
    show,
    str_list,
)
from .rules import DEFAULT_RULES, Rules, RulesError
from .vocabulary import KEYWORDS

__all__ = [
    "MAP_ALIASES",
    "SHIPPED_MAPS",
    "Map",
    "MapError",
    "Province",
    "ProvinceKind",
    "UnitType",
    "map_named",
    "power_named",
    "shipped_name",
    "standard_map",
]


#: A map file larger than this is refused before it is read (the largest variant is ~100 kB).
MAX_MAP_BYTES = 16 * 1024 * 1024
#: The maps shipped in the package (``diplo/data/NAME.json``), for ``map_named`` and ``--map``.
SHIPPED_MAPS = (
    "standard",
    "pure",
    "fleet_rome",
    "france_austria",
    "germany_italy",
    "ancmed",
    # Imported from godip by tools/godip_import.py (map facts only).
    "canton",
    "coldwar",
    "year1908",
    "youngstownredux",
    "northseawars",
    "ancientmediterranean",
    "vietnamwar",
    "unconstitutional",
    "empiresandcoalitions",
    "hundred",
    "twentytwenty",
    "classicalcrowded",
    "gatewaywest",
    "threekingdoms",
    "europe1939",
    "sengoku",
    "westernworld901",
    "chaos",
)
#: Other names of shipped maps: godip's names of the variants diplo already ships under its own.
MAP_ALIASES: dict[str, str] = {
    "classical": "standard",
    "fleetrome": "fleet_rome",
    "franceaustria": "france_austria",
    "italygermany": "germany_italy",
}
# A coast written by its code after the province: "meo/river", "MEO (river)".
_COAST_CODE_RE = re.compile(r"^(?P<prov>.*?)\s*(?:/|\()\s*(?P<code>[a-z]{2,8})\s*\)?$")

# Coast written after the province: "STP/SC", "stp(sc)", "stp sc", "Spain north coast",
# "St Petersburg (south coast)", "spa-n.c.". At least one separator is required so that a name
# which merely ends in letters such as "sc" is never cut in two.
_COAST_SUFFIX_RE = re.compile(
    r"^(?P<prov>.*?[^\s/(\[._,:-])[\s/(\[._,:-]+"
    r"(?P<dir>north|south|east|west|n|s|e|w)[\s.-]*(?:coast|c)\.?\s*[)\]]?$"
)
# Coast written first, as the DATC prose does: "the north coast of Spain".
_COAST_PREFIX_RE = re.compile(
    r"^(?:the\s+)?(?P<dir>north|south|east|west)[\s-]*coast\s+of\s+(?P<prov>.+)$"
)


def _compact(text: str) -> str:
    """The key a name is looked up by: lower case, letters and digits only.

    Dropping spaces, dots, hyphens and apostrophes makes "St. Petersburg", "st petersburg" and
    "Mid-Atlantic" / "Mid Atlantic" the same key without listing every spelling as an alias.
    """
    return "".join(ch for ch in text.lower() if ch.isalnum())


class Map:
    """A checked, immutable board. Build it with :meth:`load`, :meth:`from_dict` or
    :func:`standard_map`; a bad file raises :class:`MapError` naming the offending entry.

    Duplicate edges (the same pair twice, in either order) are rejected: they are harmless to the
    graph but always a slip in a hand-written file, usually a sign that an edge meant for another
    pair was mistyped.
    """

    # ------------------------------------------------------------------ construction

    def __init__(self, data: Mapping[str, Any]) -> None:
        require(isinstance(data, Mapping), f"map data must be an object, got {type(data).__name__}")
        check_keys(data, TOP_KEYS, "map")
        for key in sorted(REQUIRED_KEYS):
            require(key in data, f"map: missing key {key!r}")
        name = data["name"]
        require(
            isinstance(name, str) and bool(name.strip()),
            f"map: 'name' must be a string, got {show(name)}",
        )
        self.name: str = name

        raw_provinces = self._read_provinces(data["provinces"])
        self._read_powers(data["powers"], raw_provinces)
        self._read_edges(
            data["army_edges"],
            data["fleet_edges"],
            data.get("army_one_way", []),
            data.get("fleet_one_way", []),
        )
        self._build_tables()
        self._read_variant(data)

    def __reduce_ex__(self, protocol: SupportsIndex) -> str | tuple[Any, ...]:
        # A shipped map travels by its name (and comes back as the one loaded copy); any other
        # map by its contents.
        if self.name in SHIPPED_MAPS and shipped_map(self.name) is self:
            return (shipped_map, (self.name,))
        return object.__reduce_ex__(self, protocol)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Map:
        """Build and check a map from already parsed JSON data."""
        return cls(data)

    @classmethod
    def load(cls, path: str | Path) -> Map:
        """Read and check a map file; every failure (unreadable, not UTF-8, not JSON, too deep,
        a bad entry) is a :class:`MapError` naming the file and what is wrong."""
        p = Path(path)
        try:
            with p.open("rb") as handle:
                raw = handle.read(MAX_MAP_BYTES + 1)
        except OSError as exc:
            raise MapError(f"{p}: cannot read the map file ({exc.strerror or exc})") from None
        if len(raw) > MAX_MAP_BYTES:
            raise MapError(f"{p}: larger than {MAX_MAP_BYTES} bytes, not a map file")
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise MapError(f"{p}: not UTF-8 text (byte {exc.start})") from None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise MapError(f"{p}: not valid JSON ({exc})") from None
        except RecursionError:
            raise MapError(f"{p}: JSON nested too deeply") from None
        except ValueError as exc:  # e.g. an integer of too many digits
            raise MapError(f"{p}: not valid JSON ({exc})") from None
        try:
            return cls(data)
        except MapError as exc:
            raise MapError(f"{p}: {exc}") from None

    def _read_variant(self, data: Mapping[str, Any]) -> None:
        """What makes a variant besides the board: the victory count, the first phase, the
        variant's own rules and a note of where the map comes from."""
        n_centers = len(self.centers)
        # More than half the centres unless the map says otherwise (18 of 34 on the standard map).
        victory = data.get("victory", n_centers // 2 + 1)
        require(
            isinstance(victory, int)
            and not isinstance(victory, bool)
            and 1 <= victory <= max(n_centers, 1),
            f"map: 'victory' must be a number of centres from 1 to {n_centers}, "
            f"got {show(victory)}",
        )
        first = data.get("first_phase", "S1901M")
        require(
            isinstance(first, str) and FIRST_PHASE_RE.fullmatch(first) is not None,
            f"map: 'first_phase' must be a phase like 'S1901M', got {show(first)}",
        )
        source = data.get("source")
        require(source is None or isinstance(source, str), "map: 'source' must be a string")
        try:
            rules = Rules.from_json(data.get("rules"), DEFAULT_RULES)
        except RulesError as exc:
            raise MapError(f"map: {exc}") from None
        try:
            calendar = read_calendar(data.get("calendar"))
        except ValueError as exc:
            raise MapError(f"map: {exc}") from None
        first_year = int(first[1:-1])
        require(
            first_year <= calendar.last_year,
            f"map: 'first_phase' {first} leaves no year to play: a game ends after "
            f"{calendar.last_year}, the last year whose phases stay within {MAX_YEAR}",
        )
        start_armies = data.get("start_armies", False)
        require(isinstance(start_armies, bool), "map: 'start_armies' must be true or false")
        require(
            not start_armies or first.startswith("W"),
            "map: 'start_armies' needs a first phase that is an adjustment (like W1900A)",
        )
        #: Centres a power needs after a Fall turn to win alone (unless the rules say otherwise).
        self.victory: int = victory
        #: The phase a game on this map starts in.
        self.first_phase: str = first
        #: Where the map comes from (free text), or ``None``.
        self.source: str | None = source
        #: The rules the variant is played under unless a game says otherwise.
        self.rules: Rules = rules
        #: When the seasons fall (:mod:`diplo.model.calendar`; the standard one unless the file
        #: says ``calendar``).
        self.calendar: Calendar = calendar
        #: Whether, in the first phase (an adjustment), every build a power leaves unordered is
        #: an army in a vacant build site of its (godip's chaos: 34 powers start with no unit).
        self.start_armies: bool = start_armies

    def to_dict(self) -> dict[str, Any]:
        """The map as file data (what :meth:`from_dict` reads back to an equal map)."""
        index = self.location_index
        data: dict[str, Any] = {"name": self.name}
        if self.source is not None:
            data["source"] = self.source
        data["first_phase"] = self.first_phase
        data["victory"] = self.victory
        if not self.calendar.is_standard:
            data["calendar"] = self.calendar.to_json()
        if self.start_armies:
            data["start_armies"] = True
        if not self.rules.is_default:
            data["rules"] = {
                k: v for k, v in self.rules.to_json().items() if v != getattr(DEFAULT_RULES, k)
            }
        data["powers"] = {
            p: {
                "adjective": self.adjectives[p],
                "homes": list(self.homes[p]),
                **(
                    {"centers": list(self.starting_centers[p])}
                    if self.starting_centers[p] != self.homes[p]
                    else {}
                ),
                "units": [f"{t} {loc}" for t, loc in self.starting_units[p]],
                **({"neutral": True} if p in self.neutral else {}),
                **({"rebuild": True} if p in self.rebuilds else {}),
                **({"dummy": True} if p in self.dummies else {}),
            }
            for p in self.powers
        }
        data["provinces"] = [
            {
                "abbr": p.abbr,
                "name": p.name,
                "type": p.kind,
                "center": p.is_center,
                "coasts": list(p.coasts),
                "aliases": list(p.aliases),
                **({"port": True} if p.is_port else {}),
            }
            for p in self.provinces.values()
        ]

        def edges(adj: Mapping[str, frozenset[str]]) -> tuple[list[list[str]], list[list[str]]]:
            both = {
                tuple(sorted((a, b), key=index.__getitem__))
                for a, ns in adj.items()
                for b in ns
                if a in adj.get(b, ())
            }
            one = {(a, b) for a, ns in adj.items() for b in ns if a not in adj.get(b, ())}

            def order(es: set[tuple[str, ...]]) -> list[list[str]]:
                return [list(e) for e in sorted(es, key=lambda e: (index[e[0]], index[e[1]]))]

            return order(both), order(one)  # type: ignore[arg-type]

        data["army_edges"], army_one_way = edges(self._army)
        data["fleet_edges"], fleet_one_way = edges(self._fleet)
        if army_one_way:
            data["army_one_way"] = army_one_way
        if fleet_one_way:
            data["fleet_one_way"] = fleet_one_way
        return data

    def _read_provinces(self, raw: object) -> list[dict[str, Any]]:
        require(isinstance(raw, list) and bool(raw), "map: 'provinces' must be a non-empty list")
        assert isinstance(raw, list)
        seen: set[str] = set()
        entries: list[dict[str, Any]] = []
        for i, entry in enumerate(raw):
            require(isinstance(entry, dict), f"province #{i}: must be an object, got {show(entry)}")
            abbr = entry.get("abbr")
            require(
                isinstance(abbr, str) and ABBR_RE.fullmatch(abbr) is not None,
                f"province #{i}: 'abbr' must be upper-case letters/digits, got {show(abbr)}",
            )
            assert isinstance(abbr, str)
            what = f"province {abbr}"
            # An order reads "A H S A PAR" word by word: a province named like an order keyword
            # (H, S, C, VIA, ...) could never be ordered unambiguously.
            require(
                abbr.lower() not in KEYWORDS,
                f"{what}: the abbreviation is an order keyword ({abbr} would be read as one)",
            )
            check_keys(entry, PROVINCE_KEYS, what)
            require(abbr not in seen, f"{what}: duplicate abbreviation")
            seen.add(abbr)
            pname = entry.get("name")
            require(
                isinstance(pname, str) and bool(pname.strip()), f"{what}: bad name {show(pname)}"
            )
            kind = entry.get("type")
            require(
                is_str(kind) and kind in KINDS,
                f"{what}: 'type' must be land, coast or sea, got {show(kind)}",
            )
            center = entry.get("center", False)
            require(isinstance(center, bool), f"{what}: 'center' must be true or false")
            coasts = str_list(entry.get("coasts", []), f"{what}: 'coasts'")
            # Only a coastal province can have named coasts: a sea has no shore to split and an
            # inland province no shore at all.
            require(
                not coasts or kind == "coast",
                f"{what}: coasts {coasts} declared on a {kind} province",
            )
            for c in coasts:
                require(COAST_RE.fullmatch(c) is not None, f"{what}: bad coast code {c!r}")
            require(len(set(coasts)) == len(coasts), f"{what}: duplicate coast in {coasts}")
            aliases = str_list(entry.get("aliases", []), f"{what}: 'aliases'")
            port = entry.get("port", False)
            require(isinstance(port, bool), f"{what}: 'port' must be true or false")
            require(not port or kind == "coast", f"{what}: only a coastal province can be a port")
            entries.append(
                {
                    "abbr": abbr,
                    "name": pname,
                    "kind": kind,
                    "center": center,
                    "coasts": tuple(coasts),
                    "aliases": tuple(aliases),
                    "port": port,
                }
            )
        return entries

    def _read_powers(self, raw: object, provinces: list[dict[str, Any]]) -> None:
        require(isinstance(raw, dict) and bool(raw), "map: 'powers' must be a non-empty object")
        assert isinstance(raw, dict)
        by_abbr = {p["abbr"]: p for p in provinces}
        coast_locs = {f"{p['abbr']}/{c}": p for p in provinces for c in p["coasts"]}
        home_owner: dict[str, str] = {}
        occupied: dict[str, str] = {}
        powers: list[str] = []
        adjectives: dict[str, str] = {}
        homes: dict[str, tuple[str, ...]] = {}
        owned: dict[str, tuple[str, ...]] = {}
        owner_of: dict[str, str] = {}
        units: dict[str, tuple[tuple[UnitType, str], ...]] = {}
        neutral: list[str] = []
        rebuild: list[str] = []
        dummy: list[str] = []
        for power, entry in raw.items():
            require(
                isinstance(power, str) and POWER_RE.fullmatch(power) is not None,
                f"power {show(power)}: name must be upper-case letters, digits, '-' or '_'",
            )
            what = f"power {power}"
            require(isinstance(entry, dict), f"{what}: must be an object")
            check_keys(entry, POWER_KEYS, what)
            adjective = entry.get("adjective")
            require(isinstance(adjective, str) and bool(adjective), f"{what}: bad adjective")
            assert isinstance(adjective, str)
            for flag, found in (("neutral", neutral), ("rebuild", rebuild), ("dummy", dummy)):
                value = entry.get(flag, False)
                require(isinstance(value, bool), f"{what}: '{flag}' must be true or false")
                if value:
                    found.append(power)
            require(
                power in neutral or power not in rebuild,
                f"{what}: 'rebuild' is for a neutral power only",
            )
            require(
                power not in neutral or power not in dummy,
                f"{what}: a neutral power is no player's already: 'dummy' is for a power",
            )
            require(
                power not in neutral or not entry.get("homes"),
                f"{what}: a neutral power has no home centres",
            )
            power_homes = str_list(entry.get("homes", []), f"{what}: 'homes'")
            for h in power_homes:
                require(h in by_abbr, f"{what}: home centre {h} is not a province")
                require(by_abbr[h]["center"], f"{what}: home centre {h} is not a supply centre")
                require(
                    h not in home_owner,
                    f"{what}: home centre {h} already belongs to {home_owner.get(h)}",
                )
                home_owner[h] = power
            power_owned = power_homes
            if "centers" in entry:
                power_owned = str_list(entry["centers"], f"{what}: 'centers'")
            for c in power_owned:
                require(c in by_abbr, f"{what}: starting centre {c} is not a province")
                require(by_abbr[c]["center"], f"{what}: starting centre {c} is not a centre")
                require(
                    c not in owner_of,
                    f"{what}: starting centre {c} is already owned by {owner_of.get(c)}",
                )
                owner_of[c] = power
            power_units: list[tuple[UnitType, str]] = []
            for text in str_list(entry.get("units", []), f"{what}: 'units'"):
                m = UNIT_RE.fullmatch(text)
                require(m is not None, f"{what}: starting unit {text!r} is not like 'A PAR'")
                assert m is not None
                utype: UnitType = "A" if m.group(1) == "A" else "F"
                loc = m.group(2)
                prov = by_abbr.get(loc) or coast_locs.get(loc)
                require(prov is not None, f"{what}: starting unit {text!r} on unknown location")
                assert prov is not None
                if utype == "A":
                    require(
                        prov["kind"] != "sea" and loc in by_abbr,
                        f"{what}: starting unit {text!r}: an army must stand on a land province",
                    )
                else:
                    require(
                        prov["kind"] != "land",
                        f"{what}: starting unit {text!r}: a fleet cannot stand inland",
                    )
                    require(
                        not (loc in by_abbr and prov["coasts"]),
                        f"{what}: starting unit {text!r}: a fleet in {loc} must name a coast",
                    )
                abbr = prov["abbr"]
                require(
                    abbr not in occupied,
                    f"{what}: starting unit {text!r}: {abbr} already holds a unit of "
                    f"{occupied.get(abbr)}",
                )
                occupied[abbr] = power
                power_units.append((utype, loc))
            powers.append(power)
            adjectives[power] = adjective
            homes[power] = tuple(power_homes)
            owned[power] = tuple(power_owned)
            units[power] = tuple(power_units)

        self.powers: tuple[str, ...] = tuple(powers)
        self.adjectives: dict[str, str] = adjectives
        self.homes: dict[str, tuple[str, ...]] = homes
        #: The centres each power owns at the start: its homes unless the file says
        #: ``centers`` (a home may start neutral or another power's, a non-home owned).
        self.starting_centers: dict[str, tuple[str, ...]] = owned
        #: The neutral powers (``"neutral": true``; see ``POWER_KEYS``), in map order, and
        #: those of them that rebuild their armies.
        self.neutral: frozenset[str] = frozenset(neutral)
        self.rebuilds: frozenset[str] = frozenset(rebuild)
        #: The powers no player controls but the rulings count as any power (``"dummy": true``;
        #: see ``POWER_KEYS``); :attr:`uncontrolled` adds the neutral ones, for display.
        self.dummies: frozenset[str] = frozenset(dummy)
        #: The powers no player controls, neutral or dummy: shown as neutral, never ordered by
        #: ``diplo play``'s random players.
        self.uncontrolled: frozenset[str] = self.neutral | self.dummies
        #: The powers that play: every power but the neutral ones.
        self.players: tuple[str, ...] = tuple(p for p in powers if p not in self.neutral)
        require(len(neutral) < len(powers), "map: every power is neutral: a game needs a player")
        self.starting_units: dict[str, tuple[tuple[UnitType, str], ...]] = units
        self.provinces: dict[str, Province] = {
            p["abbr"]: Province(
                abbr=p["abbr"],
                name=p["name"],
                kind=p["kind"],
                is_center=p["center"],
                home=home_owner.get(p["abbr"]),
                coasts=p["coasts"],
                aliases=p["aliases"],
                is_port=p["port"],
            )
            for p in provinces
        }
        #: The ports (see :meth:`may_convoy`).
        self.ports: frozenset[str] = frozenset(p["abbr"] for p in provinces if p["port"])

    def _read_edges(
        self, army_raw: object, fleet_raw: object, army_one: object, fleet_one: object
    ) -> None:
        provinces = self.provinces
        coast_locs = {f"{a}/{c}": a for a, p in provinces.items() for c in p.coasts}
        # Every edge of a unit type once, whichever list and direction names it.
        seen_of: dict[str, set[frozenset[str]]] = {"army": set(), "fleet": set()}

        def pairs(raw: object, key: str) -> list[tuple[str, str]]:
            require(isinstance(raw, list), f"map: {key!r} must be a list")
            assert isinstance(raw, list)
            out: list[tuple[str, str]] = []
            seen = seen_of[key.split("_")[0]]
            for edge in raw:
                require(
                    isinstance(edge, list)
                    and len(edge) == 2
                    and all(isinstance(x, str) for x in edge),
                    f"{key}: edge {show(edge)} must be a pair of names",
                )
                a, b = str(edge[0]), str(edge[1])
                require(a != b, f"{key}: self-loop edge {a}-{b}")
                pair = frozenset((a, b))
                require(pair not in seen, f"{key}: duplicate edge {a}-{b}")
                seen.add(pair)
                out.append((a, b))
            return out

        army: dict[str, set[str]] = {a: set() for a in provinces}
        army_edges = [(a, b, True) for a, b in pairs(army_raw, "army_edges")]
        army_edges += [(a, b, False) for a, b in pairs(army_one, "army_one_way")]
        for a, b, two_way in army_edges:
            key = "army_edges" if two_way else "army_one_way"
            for x in (a, b):
                require(
                    x in provinces,
                    f"{key}: unknown province {x} in edge {a}-{b}"
                    + (" (army edges join provinces, not coasts)" if x in coast_locs else ""),
                )
                require(provinces[x].kind != "sea", f"{key}: edge {a}-{b} touches the sea {x}")
            army[a].add(b)
            if two_way:
                army[b].add(a)

        locations = [*provinces, *coast_locs]
        fleet: dict[str, set[str]] = {loc: set() for loc in locations}
        fleet_edges = [(a, b, True) for a, b in pairs(fleet_raw, "fleet_edges")]
        fleet_edges += [(a, b, False) for a, b in pairs(fleet_one, "fleet_one_way")]
        for a, b, two_way in fleet_edges:
            key = "fleet_edges" if two_way else "fleet_one_way"
            for x in (a, b):
                prov = coast_locs.get(x, x)
                require(prov in provinces, f"{key}: unknown location {x} in edge {a}-{b}")
                kind = provinces[prov].kind
                require(kind != "land", f"{key}: edge {a}-{b} touches the inland province {x}")
                # A fleet is never on a bare split-coast province, so an edge there would let the
                # engine move fleets along a shore that does not exist.
                require(
                    not (x == prov and provinces[prov].coasts),
                    f"{key}: edge {a}-{b} names {x} without a coast "
                    f"(use one of {', '.join(f'{x}/{c}' for c in provinces[prov].coasts)})",
                )
            require(
                coast_locs.get(a, a) != coast_locs.get(b, b),
                f"{key}: edge {a}-{b} joins two coasts of the same province",
            )
            fleet[a].add(b)
            if two_way:
                fleet[b].add(a)

        self._army_sets = army
        self._fleet_sets = fleet
        self._coast_locs = coast_locs

    def _build_tables(self) -> None:
        provinces = self.provinces
        coast_locs = self._coast_locs

        # Location ids are positions in this tuple; the Rust core relies on them, so the order is
        # fixed by the file: provinces first, then each province's coasts in declared order.
        self.locations: tuple[str, ...] = (*provinces, *coast_locs)
        self.location_index: dict[str, int] = {loc: i for i, loc in enumerate(self.locations)}
        self.centers: frozenset[str] = frozenset(a for a, p in provinces.items() if p.is_center)

        self._province_of: dict[str, str] = {a: a for a in provinces}
        self._province_of.update(coast_locs)
        self._coast_of: dict[str, str | None] = {a: None for a in provinces}
        self._coast_of.update({loc: loc.split("/", 1)[1] for loc in coast_locs})
        self._coasts: dict[str, tuple[str, ...]] = {
            a: tuple(f"{a}/{c}" for c in p.coasts) for a, p in provinces.items()
        }
        self._kind: dict[str, ProvinceKind] = {
            loc: provinces[prov].kind for loc, prov in self._province_of.items()
        }

        index = self.location_index
        self._army: dict[str, frozenset[str]] = {
            a: frozenset(s) for a, s in self._army_sets.items()
        }
        self._fleet: dict[str, frozenset[str]] = {
            loc: frozenset(s) for loc, s in self._fleet_sets.items()
        }
        del self._army_sets, self._fleet_sets

        # Province-level views of the fleet graph: which provinces a fleet at a location touches,
        # and through which of their locations (a fleet in the Mid-Atlantic reaches both coasts of
        # Spain, one in Gascony only the north coast).
        self._fleet_prov: dict[str, frozenset[str]] = {}
        self._reach: dict[str, dict[str, tuple[str, ...]]] = {}
        for loc, neighbours in self._fleet.items():
            by_prov: dict[str, list[str]] = {}
            for n in sorted(neighbours, key=index.__getitem__):
                by_prov.setdefault(self._province_of[n], []).append(n)
            self._reach[loc] = {p: tuple(ls) for p, ls in by_prov.items()}
            self._fleet_prov[loc] = frozenset(by_prov)

        # Every border whatever the unit type, at province level (distances, convoy reach).
        self._border: dict[str, frozenset[str]] = {}
        self._seas: dict[str, frozenset[str]] = {}
        self._links: dict[str, frozenset[str]] = {}
        for a in provinces:
            touched: set[str] = set(self._army[a])
            for loc in (a, *self._coasts[a]):
                touched |= self._fleet_prov[loc]
            self._border[a] = frozenset(touched)
            # A convoy runs along two-way fleet edges only: a one-way edge carries no army.
            links = {
                self._province_of[n]
                for loc in (a, *self._coasts[a])
                for n in self._fleet[loc]
                if loc in self._fleet[n]
            }
            self._links[a] = frozenset(links)
            # Where a convoy starts or ends: along the same links, never a land border (an
            # army reaching a port over land only is not carried by its fleet: a convoy crosses
            # every border of its route by sea, as the resolvers search it).
            self._seas[a] = frozenset(p for p in links if self.may_convoy(p))
        #: Whether some edge can be crossed one way only (``army_one_way``, ``fleet_one_way``).
        self.one_way: bool = any(
            a not in self._army[b] for a, ns in self._army.items() for b in ns
        ) or any(a not in self._fleet[b] for a, ns in self._fleet.items() for b in ns)

        self._names = self._build_names()

    def _build_names(self) -> dict[str, str]:
        names: dict[str, str] = {}
        for a, p in self.provinces.items():
            for text in (a, p.name, *p.aliases):
                key = _compact(text)
                require(bool(key), f"province {a}: name or alias {text!r} has no letters")
                require(
                    key not in KEYWORDS,
                    f"province {a}: name or alias {text!r} is an order keyword",
                )
                other = names.get(key)
                require(
                    other is None or other == a,
                    f"province {a}: name or alias {text!r} also names province {other}",
                )
                names[key] = a
        return names

    # ------------------------------------------------------------------ queries

    def __repr__(self) -> str:
        return f"<Map {self.name!r}: {len(self.provinces)} provinces, {len(self.powers)} powers>"

    def province_of(self, loc: str) -> str:
        """The province of a location (``STP/NC`` -> ``STP``; ``PAR`` -> ``PAR``)."""
        try:
            return self._province_of[loc]
        except KeyError:
            raise MapError(f"unknown location {loc!r}") from None

    def coast_of(self, loc: str) -> str | None:
        """The coast code of a location (``STP/NC`` -> ``NC``), ``None`` for a bare province."""
        try:
            return self._coast_of[loc]
        except KeyError:
            raise MapError(f"unknown location {loc!r}") from None

    def coasts_of(self, prov: str) -> tuple[str, ...]:
        """The coast locations of a province (``('STP/NC', 'STP/SC')``), empty when it has none."""
        try:
            return self._coasts[prov]
        except KeyError:
            raise MapError(f"unknown province {prov!r}") from None

    def army_neighbours(self, prov: str) -> frozenset[str]:
        """Provinces an army in ``prov`` can move to (empty for a sea)."""
        try:
            return self._army[prov]
        except KeyError:
            raise MapError(f"unknown province {prov!r}") from None

    def fleet_neighbours(self, loc: str) -> frozenset[str]:
        """Locations a fleet at ``loc`` can move to (empty inland and on a bare split coast)."""
        try:
            return self._fleet[loc]
        except KeyError:
            raise MapError(f"unknown location {loc!r}") from None

    def sea_neighbours(self, prov: str) -> frozenset[str]:
        """The provinces a fleet may convoy from (:meth:`may_convoy`: seas and ports) bordering
        ``prov`` along any of its coasts (where a convoy can start or end: an army in Bulgaria may
        board in the Black Sea or the Aegean); two-way borders only (:meth:`convoy_links`)."""
        try:
            return self._seas[self._province_of[prov]]
        except KeyError:
            raise MapError(f"unknown province {prov!r}") from None

    def convoy_links(self, prov: str) -> frozenset[str]:
        """The provinces a convoy may pass to from ``prov``: those joined to it by a fleet edge
        both ways (a one-way edge, ``fleet_one_way``, carries no army); the links of every
        convoy chain."""
        try:
            return self._links[self._province_of[prov]]
        except KeyError:
            raise MapError(f"unknown province {prov!r}") from None

    def can_move(self, unit_type: str, src_loc: str, dst_loc: str) -> bool:
        """Whether a unit of ``unit_type`` at ``src_loc`` can move to exactly ``dst_loc``.

        Armies move between provinces, so a coast location is never an army destination.
        """
        if unit_type == "A":
            return dst_loc in self.army_neighbours(src_loc)
        if unit_type == "F":
            return dst_loc in self.fleet_neighbours(src_loc)
        raise MapError(f"unknown unit type {unit_type!r}")

    def reachable_coasts(self, src_loc: str, dst_prov: str) -> tuple[str, ...]:
        """The locations of ``dst_prov`` a fleet at ``src_loc`` can enter, in location order.

        For a province without coasts this is ``(dst_prov,)`` or ``()``. ``dst_prov`` may also be
        given as one of its coast locations; it stands for the whole province.
        """
        try:
            reach = self._reach[src_loc]
        except KeyError:
            raise MapError(f"unknown location {src_loc!r}") from None
        return reach.get(self.province_of(dst_prov), ())

    def can_reach(self, unit_type: str, src_loc: str, dst_prov: str) -> bool:
        """Province-level reach, the test for a support: could the unit move to *some* location
        of ``dst_prov``? A fleet in Marseilles reaches Spain (by its south coast), so it may
        support a move to Spain's north coast (DATC 6.B.4)."""
        dst = self.province_of(dst_prov)
        if unit_type == "A":
            return dst in self.army_neighbours(self.province_of(src_loc))
        if unit_type == "F":
            try:
                return dst in self._fleet_prov[src_loc]
            except KeyError:
                raise MapError(f"unknown location {src_loc!r}") from None
        raise MapError(f"unknown unit type {unit_type!r}")

    def is_sea(self, prov: str) -> bool:
        return self._kind_of(prov) == "sea"

    def may_convoy(self, prov: str) -> bool:
        """Whether a fleet in ``prov`` may convoy: the one rule of where convoys run, for both
        engines. A sea, or a port (a coastal province the map marks ``"port"``)."""
        return self._kind_of(prov) == "sea" or prov in self.ports

    def is_land(self, prov: str) -> bool:
        """Inland: no shore at all (fleets can never enter)."""
        return self._kind_of(prov) == "land"

    def is_coastal(self, prov: str) -> bool:
        return self._kind_of(prov) == "coast"

    def _kind_of(self, loc: str) -> ProvinceKind:
        try:
            return self._kind[loc]
        except KeyError:
            raise MapError(f"unknown province {loc!r}") from None

    def distances(self, sources: Iterable[str]) -> dict[str, int]:
        """Breadth-first distance of every province from the nearest of ``sources``, counting
        every border whatever the unit type (the 2023 civil-disorder rule measures distance
        "by the shortest route", land or sea). Unreachable provinces are absent."""
        dist: dict[str, int] = {}
        queue: deque[str] = deque()
        for s in sources:
            p = self.province_of(s)
            if p not in dist:
                dist[p] = 0
                queue.append(p)
        border = self._border
        while queue:
            p = queue.popleft()
            d = dist[p] + 1
            for n in border[p]:
                if n not in dist:
                    dist[n] = d
                    queue.append(n)
        return dist

    # ------------------------------------------------------------------ names

    def parse_location(self, text: str) -> tuple[str, str | None]:
        """Split a written location into (province, coast code or ``None``) without checking that
        the province has that coast, so a caller can tell "no such coast" from "no such place".

        Raises :class:`MapError` when the province part is unknown.
        """
        raw = text.strip()
        # Fast path: the canonical spellings, which is what the engine itself writes.
        if raw in self._province_of:
            return self._province_of[raw], self._coast_of[raw]
        prov = self._names.get(_compact(raw))
        if prov is not None:
            return prov, None
        low = raw.lower()
        m = _COAST_SUFFIX_RE.match(low) or _COAST_PREFIX_RE.match(low)
        if m is not None:
            prov = self._names.get(_compact(m.group("prov")))
            if prov is not None:
                return prov, m.group("dir")[0].upper() + "C"
        m = _COAST_CODE_RE.match(low)
        if m is not None:
            prov = self._names.get(_compact(m.group("prov")))
            if prov is not None:
                return prov, m.group("code").upper()
        raise MapError(f"unknown location {text!r}")

    def lookup(self, text: str) -> str:
        """The location named by ``text``: abbreviation, name or alias, any case, with or without
        a coast ("STP/SC", "stp(sc)", "St Petersburg (south coast)", "Spain north coast").

        Raises :class:`MapError` naming the text when it is unknown or names a coast the province
        does not have.
        """
        prov, coast = self.parse_location(text)
        if coast is None:
            return prov
        loc = f"{prov}/{coast}"
        if loc not in self._province_of:
            p = self.provinces[prov]
            raise MapError(
                f"unknown location {text!r}: {p.name} has "
                + (f"no {coast} coast" if p.coasts else "no separate coasts")
            )
        return loc


@cache
def shipped_map(name: str) -> Map:
    """A map shipped with the package (one of :data:`SHIPPED_MAPS`), loaded and checked once."""
    if name not in SHIPPED_MAPS:
        raise MapError(f"unknown map {name!r} (shipped maps: {', '.join(SHIPPED_MAPS)})")
    text = resources.files("diplo").joinpath(f"data/{name}.json").read_text(encoding="utf-8")
    return Map.from_dict(json.loads(text))


def standard_map() -> Map:
    """The standard board, loaded once from the package data."""
    return shipped_map("standard")


def power_named(name: object, game_map: Map) -> str | None:
    """The power of ``game_map`` that ``name`` names, in any case (``"england"``, ``"England"``
    and ``"ENGLAND"`` alike), as the map spells it; ``None`` for anything else. Every front
    door (the object API, the code API's helpers, the JSON contract, game files) reads power
    names this way."""
    if not isinstance(name, str):
        return None
    if name in game_map.powers:
        return name
    upper = name.upper()
    return upper if upper in game_map.powers else None


def shipped_name(name: object) -> str | None:
    """The shipped map (one of :data:`SHIPPED_MAPS`) that ``name`` names, in any case and by
    any of its other names (:data:`MAP_ALIASES`: ``"Standard"``, ``"classical"``); ``None`` for
    anything else."""
    if not isinstance(name, str):
        return None
    lower = name.lower()
    lower = MAP_ALIASES.get(lower, lower)
    return lower if lower in SHIPPED_MAPS else None


def map_named(name: object, maps: Mapping[str, Map] | None = None) -> Map:
    """The map a document names: one of ``maps`` (variants the caller loaded), or one of the
    maps shipped with the package (:data:`SHIPPED_MAPS`). Raises :class:`MapError` for any
    other name."""
    if maps is not None and isinstance(name, str) and name in maps:
        return maps[name]
    shipped = shipped_name(name)
    if shipped is not None:
        return shipped_map(shipped)
    raise MapError(
        f"unknown map {show(name)} (shipped maps: {', '.join(SHIPPED_MAPS)}; pass others in 'maps')"
    )
