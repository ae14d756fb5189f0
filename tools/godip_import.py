"""Import godip's variants (map facts only) into diplo map JSON.

Reads each variant's Go source from a godip checkout or bare repository,
parses the graph builder calls (Prov/Conn/Flag/SC), the starting units and
supply centres, the nations and the start phase, and prints a table:
variant, provinces, centres, powers, status; `--write DIR --only NAME...` writes map JSON;
`--geometry DIR` writes every variant's `<name>.geometry.json` (tools/godip_geometry.py: where
each province lies, read from godip's map picture).

The parser is this project's own; no godip code is copied.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# The geometry reader is this file's neighbour, found whether this runs as a script or is loaded
# from its path (the tests do).
sys.path.insert(0, str(Path(__file__).resolve().parent))
from godip_geometry import GeometryImportError, build_geometry, variant_svg

DEFAULT_REPO = "/work/.mirror/zond+godip/repo"

_PROV = re.compile(r'(?://\s*([^\n]*)\n\s*)?Prov\("([\w/]+)"\)((?:\.\w+\([^)]*\))*)')
_CALL = re.compile(r"\.(\w+)\(([^)]*)\)")
_UNIT = re.compile(r'"([\w/]+)":\s*godip\.Unit\{godip\.(Army|Fleet),\s*([\w.]+)\}')
_VICTORY = re.compile(r"SCCountWinner\((\d+)\)")
_SC = re.compile(r'"(\w+)":\s*([\w.]+),')
_PHASE = re.compile(r"\b(?:NewPhase|Phase)\((\d+),\s*(?:godip\.)?(\w+),\s*godip\.(\w+)\)")
#: Calendars other than the classical one (diplo.model.calendar), read from the variants' own
#: phase code: hundred's hundredphase.go names every season "Year" and moves on from a
#: Movement and Retreat in a year ending in 5 to those of five years later, which end in 0 and
#: are followed (when needed) by the Adjustment, then to the year ending in 5 after that.
CALENDARS: dict[str, dict[str, object]] = {
    "hundred": {
        "years_to_fall": 5,
        "years_to_spring": 5,
        "names": {"S": "Year", "F": "Year", "W": "Year"},
    },
}
# godip's classical phases with its build-anywhere parser (any vacant owned centre), as
# unconstitutional, sengoku and westernworld901 make them: diplo's build_sites="any".
_ANYWHERE_PHASE = re.compile(
    r"newPhase\s*=\s*phase\.Generator\(hundred\.BuildAnywhereParser,\s*classical\.AdjustSCs\)"
)
# godip's classical phases with twentytwenty's any-home-centre parser (its build orders carry
# AnyHomeCenter: a vacant owned centre that is some nation's home): diplo's build_sites=any_home.
_ANY_HOME_PHASE = re.compile(r"\bPhase\s*=\s*phase\.Generator\((\w+),\s*classical\.AdjustSCs\)")
# twentytwenty's SoloWinner: a strict leader wins with at least N centres, or with a lead over
# the second greater than Y minus the year.
_LEADER_COUNT = re.compile(r"if highestSCCount >= (\d+) \{")
_LEADER_MARGIN = re.compile(r"highestSCCount-secondHighestSCCount > (\d+)-s\.Phase\(\)\.Year\(\)")
_PLAIN_PHASE = re.compile(
    r"Phase:\s*(?:classical\.NewPhase|newPhase),|return newPhase\(year, season, typ\)\n\}"
)
_LONG_NAME = re.compile(r'"(\w+)":\s*"([^"]+)"')
_NATION = re.compile(r'(\w+)\s+godip\.Nation\s*=\s*"([^"]+)"')


@dataclass
class Variant:
    """The map facts parsed from one godip variant."""

    name: str
    provinces: dict[str, str] = field(default_factory=dict)  # id -> terrain
    names: dict[str, str] = field(default_factory=dict)
    army: set[tuple[str, str]] = field(default_factory=set)
    fleet: set[tuple[str, str]] = field(default_factory=set)
    one_way: int = 0
    army_one_way: set[tuple[str, str]] = field(default_factory=set)
    fleet_one_way: set[tuple[str, str]] = field(default_factory=set)
    ports: set[str] = field(default_factory=set)  # convoyable coastal provinces
    homes: dict[str, str] = field(default_factory=dict)  # prov -> nation ("" neutral)
    units: dict[str, tuple[str, str]] = field(default_factory=dict)
    owners: dict[str, str] = field(default_factory=dict)
    nations: dict[str, str] = field(default_factory=dict)
    phase: tuple[int, str, str] = (1901, "Spring", "Movement")
    victory: int = 0
    anywhere: bool = False
    any_home: bool = False  # builds in any owned centre that is some nation's home
    margin_year: int | None = None  # a strict leader also wins by a lead > this year - year
    own_calendar: bool = False
    calendar: dict[str, object] | None = None
    start_armies: bool = False
    neutral_orders: bool = False  # its state orders neutral units (godip's NeutralOrders)
    derived: bool = False


def _git(repo: str, *args: str) -> str:
    out = subprocess.run(["git", "-C", repo, *args], capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"godip_import: git {' '.join(args)} failed in {repo}: {out.stderr.strip()}")
    return out.stdout


def _terrain(flags: str) -> set[str]:
    """The terrain flags of a godip flag list (``Coast...`` is land and sea; ``Archipelago...``
    is land and sea and convoyable: a port, such as ancientmediterranean's Baleares)."""
    if "Archipelago" in flags:
        return {"Land", "Sea", "Convoyable"}
    if "Coast" in flags:
        return {"Land", "Sea"}
    return {f for f in ("Land", "Sea", "Convoyable") if f in flags}


def _passable(
    conns: dict[tuple[str, str], set[str]], flags: dict[str, set[str]], kind: str
) -> set[tuple[str, str]]:
    """The directed moves godip allows a unit of terrain ``kind`` (Land: army, Sea: fleet): its
    ``HasEdge`` wants the edge flagged so and the destination (province or coast) flagged so;
    a unit stands only where its terrain is flagged."""
    return {
        (a, b)
        for (a, b), t in conns.items()
        if kind in t and kind in flags.get(a, set()) and kind in flags.get(b, set())
    }


def _nation(consts: dict[str, str], token: str) -> str:
    """A nation of the source: a constant of the variant's, or one of godip's classical seven
    (``godip.England`` is ``England``)."""
    if token in consts:
        return consts[token]
    return token.removeprefix("godip.")


def _literal(source: str, call: str, value: str) -> str | None:
    """The body of the map literal a start function hands to ``call`` (``SetUnits``), written
    in place or returned by a function of the file (classicalcrowded's
    ``ClassicalCrowdedUnits()``)."""
    m = re.search(rf"{call}\(map\[godip\.Province\]{re.escape(value)}\{{(.*?)\}}\)", source, re.S)
    if m:
        return m.group(1)
    m = re.search(rf"{call}\((\w+)\(\)\)", source)
    if m:
        head = rf"func {m.group(1)}\(\)[^{{]*\{{\s*return "
        body = re.search(
            head + rf"map\[godip\.Province\]{re.escape(value)}\{{(.*?)\n\t\}}", source, re.S
        )
        if body:
            return body.group(1)
    return None


def parse_variant(name: str, source: str) -> Variant:
    """Parse one variant's Go source text."""
    v = Variant(name)
    consts = {c: n for c, n in _NATION.findall(source)}
    v.nations = consts
    conns: dict[tuple[str, str], set[str]] = {}
    flags: dict[str, set[str]] = {}
    for comment, prov, calls in _PROV.findall(source):
        base = prov.split("/")[0]
        if comment and "/" not in prov:
            v.names[base] = comment.strip()
        for call, arg in _CALL.findall(calls):
            if call == "Conn":
                dest, _, edge = arg.partition(",")
                conns[(prov, dest.strip().strip('"'))] = _terrain(edge)
            elif call == "Flag":
                t = _terrain(arg)
                flags[prov] = t
                if "/" not in prov:
                    kind = "land" if "Land" in t else "sea"
                    v.provinces[base] = "coast" if {"Land", "Sea"} <= t else kind
                    if "Convoyable" in t:
                        v.ports.add(base)
            elif call == "SC":
                nat = arg.strip()
                v.homes[base] = "" if "Neutral" in nat else consts.get(nat, nat)
    for kind, edges in (("Land", v.army), ("Sea", v.fleet)):
        moves = _passable(conns, flags, kind)
        for a, b in moves:
            if (b, a) not in moves:
                v.one_way += 1
                if kind == "Land":
                    v.army_one_way.add((a.split("/")[0], b.split("/")[0]))
                else:
                    v.fleet_one_way.add((a, b))
            elif kind == "Land":
                edges.add(tuple(sorted((a.split("/")[0], b.split("/")[0]))))  # type: ignore[arg-type]
            else:
                edges.add(tuple(sorted((a, b))))  # type: ignore[arg-type]
    # Where the comment above a Prov is missing or only repeats the id (ancientmediterranean's
    # "// bal"), godip's own long name (its ProvinceLongNames) names the province.
    m = re.search(r"provinceLongNames\s*=\s*map\[godip\.Province\]string\{(.*?)\n\}", source, re.S)
    if m:
        for prov, long_name in _LONG_NAME.findall(m.group(1)):
            if prov in v.provinces and v.names.get(prov, prov).lower() == prov:
                v.names[prov] = long_name
    units = _literal(source, "SetUnits", "godip.Unit")
    if units is not None:
        for prov, kind, nat in _UNIT.findall(units):
            v.units[prov] = (kind, _nation(consts, nat))
    # westernworld901 sets a neutral army on every neutral centre of its graph in a loop.
    if re.search(r"range \w+\(\)\.SCs\(godip\.Neutral\)", source) and re.search(
        r"Type:\s*godip\.Army,\s*Nation:\s*godip\.Neutral", source
    ):
        for prov, nation in v.homes.items():
            if not nation and prov not in v.units:
                v.units[prov] = ("Army", "Neutral")
    owners = _literal(source, "SetSupplyCenters", "godip.Nation")
    if owners is not None:
        for prov, nat in _SC.findall(owners):
            v.owners[prov] = _nation(consts, nat)
    # classicalcrowded lists its nations, godip's classical seven among them (godip.Austria).
    m = re.search(r"\bNations\s*=\s*\[\]godip\.Nation\{([^}]*)\}", source)
    if m and any(t.strip().startswith("godip.") for t in m.group(1).split(",")):
        listed = [_nation(consts, t.strip()) for t in m.group(1).split(",") if t.strip()]
        v.nations = {n: n for n in listed}
        v.homes = {p: _nation(consts, n) if n else n for p, n in v.homes.items()}
    m = _VICTORY.search(source)
    if m:
        v.victory = int(m.group(1))
    count, margin = _LEADER_COUNT.search(source), _LEADER_MARGIN.search(source)
    if not m and count and margin:
        v.victory, v.margin_year = int(count.group(1)), int(margin.group(1))
    anywhere_phase = _ANYWHERE_PHASE.search(source) is not None
    v.anywhere = "godip.Anywhere: true" in source or anywhere_phase
    # twentytwenty: the classical phases (classical.AdjustSCs) with a parser whose build order is
    # godip's BuildAnyHomeCenterOrder, and the variant's Phase is that generator.
    m = _ANY_HOME_PHASE.search(source)
    v.any_home = (
        m is not None
        and re.search(
            rf"var {m.group(1)} = orders\.NewParser\([^)]*orders\.BuildAnyHomeCenterOrder",
            source,
            re.S,
        )
        is not None
        and re.search(r"Phase:\s*Phase,", source) is not None
    )
    classical_phase = re.search(r"Phase:\s*classical\.NewPhase", source) is not None
    v.own_calendar = not (
        classical_phase or v.any_home or (anywhere_phase and bool(_PLAIN_PHASE.search(source)))
    )
    if name in CALENDARS:
        v.own_calendar = False
        v.calendar = CALENDARS[name]
    # chaos's phase code: its first adjustment builds an army on every centre left unordered.
    if re.search(r"PreProcess\(.*?Adjustment.*?BuildAnywhere\(prov, godip\.Army", source, re.S):
        v.start_armies = True
        v.own_calendar = False
    # The last argument of state.New orders neutral units (westernworld901 builds and holds them);
    # unconstitutional defines such a function but passes nil: it has no neutral units.
    v.neutral_orders = re.search(r"state\.New\([^\n]*,\s*(?!nil\))[\w.]+\)\n", source) is not None
    v.derived = not v.provinces
    m = _PHASE.search(source)
    if m:
        # A season of the variant's own ("YearSeason") is the first of its calendar's year.
        season = m.group(2) if m.group(2) in ("Spring", "Fall") else "Spring"
        v.phase = (int(m.group(1)), season, m.group(3))
    return v


def assess(v: Variant) -> list[str]:
    """What rules diplo lacks that this variant would need."""
    if v.derived:
        return ["review: graph built elsewhere (classical-derived or helper package)"]
    needs = []
    if v.own_calendar:
        needs.append("own phase code (review: calendar or build rules)")
    if v.units and not v.victory:
        needs.append("victory rule other than SC count")
    # A start in an adjustment with no units is chaos's (start_armies); any other is not read.
    if not v.start_armies and (v.phase[2] != "Movement" or v.phase[1] != "Spring"):
        needs.append(f"start in {v.phase[1]} {v.phase[2]}")
    if v.phase[0] < 0:
        needs.append(f"year {v.phase[0]}")
    if not v.units and not v.start_armies:
        needs.append("no starting units parsed")
    return needs


def _any_home_rules(v: Variant) -> dict[str, object]:
    # godip's civil disorder measures the distance to the nation's home centres (phase.go,
    # SortedUnits: the graph's SCs of the nation), diplo's civil_disorder=home (edition=godip has
    # it too); twentytwenty's recorded games need it, the other shipped maps' games never tell.
    rules: dict[str, object] = {"build_sites": "any_home", "civil_disorder": "home"}
    if v.margin_year is not None:
        rules |= {"victory_lead": True, "victory_margin_year": v.margin_year}
    return rules


def to_json(v: Variant, commit: str) -> dict[str, object]:
    """The diplo map document of a parsed variant (ids upper-cased, sorted)."""
    # diplo's power names are upper-case words: godip's "New York" is NEW_YORK.
    nat = {n: n.upper().replace(" ", "_") for n in v.nations.values()}
    coasts: dict[str, list[str]] = {}
    for a, b in v.fleet:
        for x in (a, b):
            if "/" in x:
                base, c = x.split("/")
                coasts.setdefault(base, [])
                if c.upper() not in coasts[base]:
                    coasts[base].append(c.upper())
    provinces = [
        {
            "abbr": p.upper(),
            "name": v.names.get(p, p),
            "type": "coast" if p in coasts else kind,
            "center": p in v.homes,
            "coasts": sorted(coasts.get(p, [])),
            "aliases": [],
            **({"port": True} if p in v.ports else {}),
        }
        for p, kind in sorted(v.provinces.items())
    ]
    powers: dict[str, dict[str, object]] = {}
    for n in sorted(nat):
        units = sorted(
            f"{'A' if k == 'Army' else 'F'} {p.upper()}" for p, (k, o) in v.units.items() if o == n
        )
        homes = sorted(p.upper() for p, o in v.homes.items() if o == n)
        owned = sorted(p.upper() for p, o in v.owners.items() if o == n)
        powers[nat[n]] = {"adjective": n, "homes": homes, "units": units}
        if v.owners and owned != homes:
            # A home that starts neutral or another's (empiresandcoalitions' Portugal).
            powers[nat[n]]["centers"] = owned
    neutral_units = sorted(
        f"{'A' if k == 'Army' else 'F'} {p.upper()}"
        for p, (k, o) in v.units.items()
        if o in ("Neutral", "godip.Neutral")
    )
    if neutral_units:
        # godip's Neutral: units that hold, on the centres it owns; with NeutralOrders (the
        # state's last argument) its armies are raised again in its vacant centres.
        powers["NEUTRAL"] = {
            "adjective": "Neutral",
            "homes": [],
            "centers": sorted(p.upper() for p, o in v.owners.items() if o == "Neutral"),
            "units": neutral_units,
            "neutral": True,
            **({"rebuild": True} if v.neutral_orders else {}),
        }
    fleet = sorted(
        sorted(
            (
                a.upper(),
                b.upper(),
            )
        )
        for a, b in v.fleet
        if not ("/" not in a and a.split("/")[0] in coasts)
        and not ("/" not in b and b.split("/")[0] in coasts)
    )
    one_way: dict[str, object] = {}
    if v.army_one_way:
        one_way["army_one_way"] = sorted([a.upper(), b.upper()] for a, b in v.army_one_way)
    if v.fleet_one_way:
        one_way["fleet_one_way"] = sorted([a.upper(), b.upper()] for a, b in v.fleet_one_way)
    return {
        "name": v.name,
        "source": f"Imported by tools/godip_import.py from godip (github.com/zond/godip) "
        f"commit {commit}, variant {v.name}: map facts only.",
        # godip's Fall Adjustment is diplo's Winter.
        "first_phase": f"{'W' if v.phase[2] == 'Adjustment' else v.phase[1][0]}{v.phase[0]}"
        f"{v.phase[2][0]}",
        **({"start_armies": True} if v.start_armies else {}),
        "victory": v.victory,
        # godip's BuildAnywhere: a power builds in any vacant centre it owns.
        **({"rules": {"build_sites": "any"}} if v.anywhere else {}),
        **({"calendar": v.calendar} if v.calendar else {}),
        # twentytwenty: builds in any vacant owned home centre (of any nation); the strict
        # leader wins with the count or with a lead over the second greater than Y - the year.
        **({"rules": _any_home_rules(v)} if v.any_home else {}),
        "powers": powers,
        "provinces": provinces,
        "army_edges": sorted([a.upper(), b.upper()] for a, b in v.army),
        "fleet_edges": [list(e) for e in fleet],
        **one_way,
    }


#: godip variants drawn on a board diplo already has a geometry for, under godip's ids for a
#: few provinces: (diplo's geometry, {diplo's id: godip's id}).
DERIVED_GEOMETRY = {
    "ancientmediterranean": ("ancmed", {"SIN": "SII", "THB": "THE", "TYN": "TYS"}),
    "chaos": ("standard", {"LYO": "GOL", "MAO": "MID", "NAO": "NAT", "NWG": "NRG"}),
}
#: godip variants not given a geometry of their own, and why.
NO_GEOMETRY = {
    "pure": "its picture is seven circles, no geography: the schematic draws it as well",
}


def write_geometry(repo: str, path: str, v: Variant, commit: str, out_dir: str) -> str:
    """Write ``<variant>.geometry.json`` into ``out_dir`` from the variant's map picture; the
    words say what was written or why nothing was."""
    doc = to_json(v, commit)
    provinces = [str(p["abbr"]) for p in doc["provinces"]]  # type: ignore[attr-defined]
    locations = provinces + [
        f"{p['abbr']}/{c}"
        for p in doc["provinces"]  # type: ignore[attr-defined]
        for c in p["coasts"]
    ]
    if not provinces:
        return "none: no provinces read from its source (godip's classical: diplo's standard map)"
    standard = json.loads(
        (Path(__file__).parents[1] / "python/diplo/data/standard.geometry.json").read_text()
    )
    if set(locations) == set(standard["provinces"]):
        return "none: the standard board, drawn with standard.geometry.json"
    if v.name in NO_GEOMETRY:
        return f"none: {NO_GEOMETRY[v.name]}"
    out = Path(out_dir) / f"{v.name}.geometry.json"
    if v.name in DERIVED_GEOMETRY:
        base, renamed = DERIVED_GEOMETRY[v.name]
        data = Path(__file__).parents[1] / "python/diplo/data"
        doc = json.loads((data / f"{base}.geometry.json").read_text())
        doc["map"] = v.name
        doc["about"] = (
            f"diplo's own {base}.geometry.json with godip's ids for "
            + ", ".join(f"{a} ({b})" for a, b in sorted(renamed.items()))
            + f": godip's {v.name} is that board. Written by tools/godip_import.py --geometry."
        )
        doc["provinces"] = {renamed.get(k, k): pts for k, pts in doc["provinces"].items()}
        if set(doc["provinces"]) != set(locations):
            return f"none: not the {base} board under the ids {renamed}"
        out.write_text(_dump_geometry(doc))
        return f"{out} (diplo's {base} geometry, {len(renamed)} provinces renamed)"
    found = variant_svg(repo, path.rsplit("/", 1)[0])
    if found is None:
        return "none: neither its svg/*map.svg nor its bindata.go is in this snapshot"
    svg, source = found
    try:
        geometry = build_geometry(
            v.name, svg, locations, provinces, f"godip commit {commit}, {source}"
        )
    except GeometryImportError as exc:
        return f"none: {exc}"
    out.write_text(_dump_geometry(geometry))
    sites = sum(len(s) for s in geometry["provinces"].values())
    return f"{out} ({sites} sites, from {source})"


def _dump_geometry(doc: dict[str, Any]) -> str:
    """One line per location, as the shipped geometry files are written."""
    head = {k: v for k, v in doc.items() if k not in ("provinces", "impassable")}
    lines = ["{"]
    for k, v in head.items():
        lines.append(f"  {json.dumps(k)}: {json.dumps(v)},")
    for key in ("provinces", "impassable"):
        table = doc.get(key)
        if not isinstance(table, dict):
            continue
        lines.append(f'  "{key}": {{')
        rows = [f"    {json.dumps(loc)}: {json.dumps(points)}" for loc, points in table.items()]
        lines.append(",\n".join(rows))
        lines.append("  },")
    lines[-1] = lines[-1].rstrip(",")
    return "\n".join(lines) + "\n}\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("repo", nargs="?", default=DEFAULT_REPO)
    ap.add_argument("--write", metavar="DIR", help="write <variant>.json for these variants")
    ap.add_argument("--only", nargs="*", default=[], help="variants to write")
    ap.add_argument(
        "--geometry",
        metavar="DIR",
        help="write <variant>.geometry.json for every variant whose map picture places its "
        "provinces (tools/godip_geometry.py)",
    )
    args = ap.parse_args(argv)
    commit = _git(args.repo, "log", "-1", "--format=%H").strip()
    files = _git(args.repo, "ls-tree", "-r", "--name-only", "HEAD", "variants").split()
    margins: list[str] = []
    print(f"{'variant':24} {'provs':>5} {'SCs':>4} {'powers':>6} {'win':>3}  status")
    for path in sorted(files):
        parts = path.split("/")
        if parts[1:2] == ["beta"]:
            parts = parts[1:]  # variants/beta/NAME/NAME.go: godip's beta variants (gatewaywest)
        if len(parts) != 3 or parts[2] != parts[1] + ".go":
            continue
        v = parse_variant(parts[1], _git(args.repo, "show", f"HEAD:{path}"))
        needs = assess(v)
        if args.geometry:
            if not v.provinces and not v.nations:
                continue  # a package of shared code (common, testing), not a variant
            print(
                f"{v.name:24} geometry: {write_geometry(args.repo, path, v, commit, args.geometry)}"
            )
            continue
        if args.write and v.name in args.only:
            out = Path(args.write) / f"{v.name}.json"
            out.write_text(json.dumps(to_json(v, commit), indent=1, sort_keys=True) + "\n")
        status = "needs " + ", ".join(needs) if needs else "playable"
        counts = f"{len(v.provinces):5} {len(v.homes):4} {len(v.nations):6} {v.victory:3}"
        print(f"{v.name:24} {counts}  {status}")
        if v.margin_year is not None:
            margins.append(f"{v.name} (by more than {v.margin_year} minus the year)")
    print("all: godip wins with at least N centres and strictly more than anyone else")
    if margins:
        print(f"or by a lead over the second: {', '.join(margins)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
