"""Import godip's variants (map facts only) into diplo map JSON.

Reads each variant's Go source from a godip checkout or bare repository,
parses the graph builder calls (Prov/Conn/Flag/SC), the starting units and
supply centres, the nations and the start phase, and prints a table:
variant, provinces, centres, powers, status.  Writing map JSON is not yet done.

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

DEFAULT_REPO = "/work/.mirror/zond+godip/repo"

_PROV = re.compile(r'(?://\s*([^\n]*)\n\s*)?Prov\("([\w/]+)"\)((?:\.\w+\([^)]*\))*)')
_CALL = re.compile(r"\.(\w+)\(([^)]*)\)")
_UNIT = re.compile(r'"([\w/]+)":\s*godip\.Unit\{godip\.(Army|Fleet),\s*([\w.]+)\}')
_VICTORY = re.compile(r"SCCountWinner\((\d+)\)")
_SC = re.compile(r'"(\w+)":\s*(\w+),')
_PHASE = re.compile(r"NewPhase\((\d+),\s*godip\.(\w+),\s*godip\.(\w+)\)")
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
    homes: dict[str, str] = field(default_factory=dict)  # prov -> nation ("" neutral)
    units: dict[str, tuple[str, str]] = field(default_factory=dict)
    owners: dict[str, str] = field(default_factory=dict)
    nations: dict[str, str] = field(default_factory=dict)
    phase: tuple[int, str, str] = (1901, "Spring", "Movement")
    victory: int = 0
    anywhere: bool = False
    own_calendar: bool = False
    derived: bool = False


def _git(repo: str, *args: str) -> str:
    out = subprocess.run(["git", "-C", repo, *args], capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"godip_import: git {' '.join(args)} failed in {repo}: {out.stderr.strip()}")
    return out.stdout


def _terrain(flags: str) -> set[str]:
    if "Coast" in flags:
        return {"Land", "Sea"}
    return {f for f in ("Land", "Sea") if f in flags}


def parse_variant(name: str, source: str) -> Variant:
    """Parse one variant's Go source text."""
    v = Variant(name)
    consts = {c: n for c, n in _NATION.findall(source)}
    v.nations = consts
    conns: dict[tuple[str, str], set[str]] = {}
    for comment, prov, calls in _PROV.findall(source):
        base = prov.split("/")[0]
        if comment and "/" not in prov:
            v.names[base] = comment.strip()
        for call, arg in _CALL.findall(calls):
            if call == "Conn":
                dest, _, flags = arg.partition(",")
                conns[(prov, dest.strip().strip('"'))] = _terrain(flags)
            elif call == "Flag" and "/" not in prov:
                t = _terrain(arg)
                kind = "land" if "Land" in t else "sea"
                v.provinces[base] = "coast" if t == {"Land", "Sea"} else kind
            elif call == "SC":
                nat = arg.strip()
                v.homes[base] = "" if "Neutral" in nat else consts.get(nat, nat)
    bases = {(a.split("/")[0], b.split("/")[0]) for a, b in conns}
    for (a, b), t in conns.items():
        if (b.split("/")[0], a.split("/")[0]) not in bases:
            v.one_way += 1
            if "Land" in t:
                v.army_one_way.add((a.split("/")[0], b.split("/")[0]))
            if "Sea" in t:
                v.fleet_one_way.add((a, b))
            continue
        if "Land" in t:
            v.army.add(tuple(sorted((a.split("/")[0], b.split("/")[0]))))  # type: ignore[arg-type]
        if "Sea" in t:
            v.fleet.add(tuple(sorted((a, b))))  # type: ignore[arg-type]
    m = re.search(r"SetUnits\(map\[godip\.Province\]godip\.Unit\{(.*?)\}\)", source, re.S)
    if m:
        for prov, kind, nat in _UNIT.findall(m.group(1)):
            v.units[prov] = (kind, consts.get(nat, nat))
    m = re.search(r"SetSupplyCenters\(map\[godip\.Province\]godip\.Nation\{(.*?)\}\)", source, re.S)
    if m:
        for prov, nat in _SC.findall(m.group(1)):
            v.owners[prov] = consts.get(nat, nat)
    m = _VICTORY.search(source)
    if m:
        v.victory = int(m.group(1))
    v.anywhere = "godip.Anywhere: true" in source
    v.own_calendar = not re.search(r"Phase:\s*classical\.NewPhase", source)
    v.derived = not v.provinces
    m = _PHASE.search(source)
    if m:
        v.phase = (int(m.group(1)), m.group(2), m.group(3))
    return v


def assess(v: Variant) -> list[str]:
    """What rules diplo lacks that this variant would need."""
    if v.derived:
        return ["review: graph built elsewhere (classical-derived or helper package)"]
    needs = []
    if v.own_calendar:
        needs.append("own phase code (review: calendar or build rules)")
    if any(u[1] == "godip.Neutral" for u in v.units.values()):
        needs.append("neutral units")
    if v.anywhere:
        needs.append("builds anywhere")
    if v.units and not v.victory:
        needs.append("victory rule other than SC count")
    if v.phase[2] != "Movement" or v.phase[1] != "Spring":
        needs.append(f"start in {v.phase[1]} {v.phase[2]}")
    if v.phase[0] < 0:
        needs.append(f"year {v.phase[0]}")
    owned_homes = {p for p, n in v.homes.items() if n}
    if owned_homes and any(v.owners.get(p) != v.homes[p] for p in owned_homes):
        needs.append("homes not owned at start")
    if not v.units:
        needs.append("no starting units parsed")
    return needs


def to_json(v: Variant, commit: str) -> dict[str, object]:
    """The diplo map document of a parsed variant (ids upper-cased, sorted)."""
    nat = {n: n.upper() for n in v.nations.values()}
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
        }
        for p, kind in sorted(v.provinces.items())
    ]
    powers: dict[str, object] = {}
    for n in sorted(nat):
        units = sorted(
            f"{'A' if k == 'Army' else 'F'} {p.upper()}" for p, (k, o) in v.units.items() if o == n
        )
        homes = sorted(p.upper() for p, o in v.homes.items() if o == n)
        powers[nat[n]] = {"adjective": n, "homes": homes, "units": units}
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
        "first_phase": f"{v.phase[1][0]}{v.phase[0]}{v.phase[2][0]}",
        "victory": v.victory,
        "powers": powers,
        "provinces": provinces,
        "army_edges": sorted([a.upper(), b.upper()] for a, b in v.army),
        "fleet_edges": [list(e) for e in fleet],
        **one_way,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("repo", nargs="?", default=DEFAULT_REPO)
    ap.add_argument("--write", metavar="DIR", help="write <variant>.json for these variants")
    ap.add_argument("--only", nargs="*", default=[], help="variants to write")
    args = ap.parse_args(argv)
    commit = _git(args.repo, "log", "-1", "--format=%H").strip()
    files = _git(args.repo, "ls-tree", "-r", "--name-only", "HEAD", "variants").split()
    print(f"{'variant':24} {'provs':>5} {'SCs':>4} {'powers':>6} {'win':>3}  status")
    for path in sorted(files):
        parts = path.split("/")
        if len(parts) != 3 or parts[2] != parts[1] + ".go":
            continue
        v = parse_variant(parts[1], _git(args.repo, "show", f"HEAD:{path}"))
        needs = assess(v)
        if args.write and v.name in args.only:
            out = Path(args.write) / f"{v.name}.json"
            out.write_text(json.dumps(to_json(v, commit), indent=1, sort_keys=True) + "\n")
        status = "needs " + ", ".join(needs) if needs else "playable"
        counts = f"{len(v.provinces):5} {len(v.homes):4} {len(v.nations):6} {v.victory:3}"
        print(f"{v.name:24} {counts}  {status}")
    print("all: godip wins with at least N centres and strictly more than anyone else")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
