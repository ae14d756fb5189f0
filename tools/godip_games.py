"""Convert godip's recorded games into diplo's own test data (``tests/godip_games``).

godip (github.com/zond/godip) keeps real games of its variants in
``variants/<variant>/games/game_<n>.txt``: for each recorded phase, the whole position at its
start (units, dislodged units, centre owners) and the orders given in it. The positions and
orders are facts of those games; this reader is the project's own (godip's code is GPL and
stays out of the project).

One JSON file per variant is written, ``<variant>.json``::

    {"variant": ..., "godip_commit": ..., "games": [
        {"name": "game_1", "source": "<where godip says the game comes from>",
         "phases": [{"godip_phase": "1960 Spring Movement",
                     "units": {"USSR": ["A VLA", "F LEN/SC"]},
                     "dislodged": {"NATO": ["A PAR"]},
                     "centers": {"USSR": ["VLA"]},
                     "orders": {"USSR": ["A SHA - SEA"]}}]}]}

Units, centres and orders are written in diplo's notation (``A PAR - BUR``, ``F NTH C A LON -
BEL``, ``A PAR R BUR``, ``A PAR B``, ``F KIE D``); powers as the map importer names them (godip's
nation upper-cased, ``_`` for a space). Usage::

    python3 tools/godip_games.py GODIP_REPO --out tests/godip_games [--only coldwar pure]
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
_GAME = re.compile(r"^variants/([a-z0-9]+)/games/(game_\d+)\.txt$")
_PHASE = re.compile(r"^PHASE (-?\d+) (\w+) (\w+)$")
_UNIT_KIND = {"army": "A", "fleet": "F", "Army": "A", "Fleet": "F"}


class RecordError(ValueError):
    """A recorded game that this reader cannot follow (names the file and line)."""


@dataclass
class Phase:
    """One recorded phase: godip's name for it, the position at its start, its orders."""

    godip_phase: str
    kind: str
    units: dict[str, tuple[str, str, str]] = field(default_factory=dict)  # prov -> power,A/F,loc
    dislodged: dict[str, tuple[str, str, str]] = field(default_factory=dict)
    centers: dict[str, str] = field(default_factory=dict)
    order_lines: list[str] = field(default_factory=list)


def _git(repo: str, *args: str) -> str:
    out = subprocess.run(["git", "-C", repo, *args], capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"godip_games: git {' '.join(args)} failed in {repo}: {out.stderr.strip()}")
    return out.stdout


def _base(loc: str) -> str:
    return loc.split("/")[0]


def parse_game(text: str, where: str) -> list[Phase]:
    """The phases of one godip game record."""
    phases: list[Phase] = []
    section = ""
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line:
            continue
        here = f"{where}:{number}"
        match = _PHASE.match(line)
        if match:
            year, season, kind = match.groups()
            phases.append(Phase(f"{year} {season} {kind}", kind))
            section = ""
        elif line in ("POSITIONS", "ORDERS"):
            if not phases:
                raise RecordError(f"{here}: {line} before any PHASE")
            section = line
        elif section == "POSITIONS":
            power, _, rest = line.rpartition(": ")
            what, _, loc = rest.partition(" ")
            if not power or not loc:
                raise RecordError(f"{here}: cannot read position line {line!r}")
            phase = phases[-1]
            if what == "supply":
                phase.centers[loc] = power
            elif what.split("/")[0] in ("army", "fleet"):
                kind = _UNIT_KIND[what.split("/")[0]]
                # godip sometimes keeps the coast an army arrived by; diplo's armies have none.
                unit = (power, kind, _base(loc) if kind == "A" else loc)
                table = phase.dislodged if what.endswith("/dislodged") else phase.units
                table[_base(loc)] = unit
            else:
                raise RecordError(f"{here}: unknown position entry {what!r}")
        elif section == "ORDERS":
            phases[-1].order_lines.append(line)
        else:
            raise RecordError(f"{here}: line outside POSITIONS and ORDERS: {line!r}")
    return phases


def _power(nation: str) -> str:
    """A godip nation as the map importer names the power: upper case, ``_`` for a space."""
    return nation.upper().replace(" ", "_")


def _unit_text(kind: str, loc: str) -> str:
    return f"{kind} {loc.upper()}"


def convert_order(line: str, phase: Phase, where: str) -> tuple[str, str]:
    """One godip order line as (power, diplo order text)."""
    words = line.split()
    if words[0] == "build":
        kind, loc = words[-2], words[-1]
        if kind not in ("Army", "Fleet") or len(words) not in (3, 4):
            raise RecordError(f"{where}: cannot read build {line!r}")
        owner = phase.centers.get(_base(loc))
        if owner is None:
            raise RecordError(f"{where}: build in {loc}, which nobody owns")
        return owner, f"{_UNIT_KIND[kind]} {loc.upper()} B"
    if words[0] == "remove" and phase.kind == "Retreat":
        unit = phase.dislodged.get(_base(words[1]))
        if unit is None:
            # godip's record of a retreat phase in which no unit could retreat lists the
            # board without the dislodged units and their disbands as "remove": moot.
            return "", ""
        return unit[0], f"{_unit_text(unit[1], unit[2])} D"
    if words[0] == "remove":
        unit = phase.units.get(_base(words[1]))
        if unit is None or len(words) != 2:
            raise RecordError(f"{where}: no unit to remove in {line!r}")
        return unit[0], f"{_unit_text(unit[1], unit[2])} D"
    retreat = phase.kind == "Retreat"
    unit = (phase.dislodged if retreat else phase.units).get(_base(words[0]))
    if unit is None and retreat:
        # A few records list a retreating unit without its "/dislodged" mark.
        unit = phase.units.get(_base(words[0]))
    if unit is None:
        raise RecordError(f"{where}: no unit at {words[0]} for {line!r}")
    power, kind, loc = unit
    me = _unit_text(kind, loc)
    verb, args = words[1], words[2:]
    if verb == "hold" and not args:
        return power, f"{me} H"
    if verb == "disband" and not args:
        return power, f"{me} D"
    if verb == "move" and len(args) == 1:
        to = _base(args[0]) if kind == "A" else args[0]
        return power, f"{me} {'R' if retreat else '-'} {to.upper()}"
    if verb in ("support", "convoy") and len(args) in (1, 3):
        other = phase.units.get(_base(args[0]))
        # An order for a unit that is not there names no unit type (it is refused on replay).
        target = args[0].upper() if other is None else _unit_text(other[1], other[2])
        letter = "S" if verb == "support" else "C"
        if len(args) == 1:
            return power, f"{me} {letter} {target}"
        if args[1] == "move":
            to = _base(args[2]) if other is None or other[1] == "A" else args[2]
            return power, f"{me} {letter} {target} - {to.upper()}"
    raise RecordError(f"{where}: cannot read order {line!r}")


def _by_power(units: dict[str, tuple[str, str, str]]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for power, kind, loc in units.values():
        out.setdefault(_power(power), []).append(_unit_text(kind, loc))
    return {p: sorted(us) for p, us in sorted(out.items())}


def phase_json(phase: Phase, where: str) -> dict[str, object]:
    """A recorded phase in the test-data layout of this module's docstring."""
    orders: dict[str, list[str]] = {}
    for line in phase.order_lines:
        power, text = convert_order(line, phase, f"{where} ({phase.godip_phase})")
        if not text:
            continue
        orders.setdefault(_power(power), []).append(text)
    centers: dict[str, list[str]] = {}
    for loc, power in phase.centers.items():
        centers.setdefault(_power(power), []).append(loc.upper())
    out: dict[str, object] = {
        "godip_phase": phase.godip_phase,
        "units": _by_power(phase.units),
        "centers": {p: sorted(cs) for p, cs in sorted(centers.items())},
        "orders": {p: os for p, os in sorted(orders.items())},
    }
    if phase.dislodged:
        out["dislodged"] = _by_power(phase.dislodged)
    return out


def _dump(doc: dict[str, object]) -> str:
    """Compact JSON with one recorded phase per line (small, and a diff shows the phase)."""
    head = {k: v for k, v in doc.items() if k != "games"}
    lines = [json.dumps(head)[:-1] + ', "games": [']
    games = doc["games"]
    assert isinstance(games, list)
    for g, game in enumerate(games):
        meta = {k: v for k, v in game.items() if k != "phases"}
        lines.append(" " + json.dumps(meta)[:-1] + ', "phases": [')
        phases = game["phases"]
        for p, phase in enumerate(phases):
            lines.append("  " + json.dumps(phase) + ("," if p + 1 < len(phases) else ""))
        lines.append(" ]}" + ("," if g + 1 < len(games) else ""))
    lines.append("]}")
    return "\n".join(lines) + "\n"


def _sources(info: str) -> dict[str, str]:
    out = {}
    for line in info.splitlines():
        name, _, rest = line.partition(".txt ")
        if rest:
            out[name.strip()] = rest.strip()
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("repo", nargs="?", default=DEFAULT_REPO, help="godip checkout or bare repo")
    ap.add_argument("--out", default="tests/godip_games", help="folder for <variant>.json")
    ap.add_argument("--only", nargs="*", default=[], help="variants to convert (default: all)")
    args = ap.parse_args(argv)
    commit = _git(args.repo, "log", "-1", "--format=%H").strip()
    games: dict[str, list[str]] = {}
    for path in _git(args.repo, "ls-tree", "-r", "--name-only", "HEAD", "variants").split():
        match = _GAME.match(path)
        if match and (not args.only or match.group(1) in args.only):
            games.setdefault(match.group(1), []).append(match.group(2))
    out_dir = Path(args.out)
    out_dir.mkdir(parents=True, exist_ok=True)
    for variant, names in sorted(games.items()):
        info = _sources(_git(args.repo, "show", f"HEAD:variants/{variant}/games/info.txt"))
        records = []
        count = 0
        for name in sorted(names, key=lambda n: int(n.split("_")[1])):
            where = f"variants/{variant}/games/{name}.txt"
            phases = parse_game(_git(args.repo, "show", f"HEAD:{where}"), where)
            records.append(
                {
                    "name": name,
                    "source": info.get(name, ""),
                    "phases": [phase_json(p, where) for p in phases],
                }
            )
            count += len(phases)
        doc = {"variant": variant, "godip_commit": commit, "games": records}
        (out_dir / f"{variant}.json").write_text(_dump(doc))
        print(f"{variant:24} {len(records):3} games {count:5} phases")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
