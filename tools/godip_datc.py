"""Convert godip's own DATC test data into diplo's test data (``tests/godip_datc``).

godip (github.com/zond/godip) tests its classical judge against the cases of
``variants/classical/datc/*.txt`` (``variants/classical/classical_test.go``, ``TestDATC``): the
DATC v2.4 chapter 6 as jDip wrote it down (``datc_v2.4_06.txt``, with a few cases of godip's
own: ``6.A.5.old``, ``6.G.10.mod``, ``6.F.22.extended``, ...), and positions from games where
other judges went wrong (``dipai.txt``, ``diplicity_errors.txt``, ``droidippy_errors.txt``,
``real.txt``). godip passes every one of them, so each case's after-state is godip's ruling. The
positions and orders are facts of the cases; this reader is the project's own (godip's code is GPL
and stays out of the project).

One JSON file per godip file is written, ``<file>.json``::

    {"source": "variants/classical/datc/datc_v2.4_06.txt", "godip_commit": ...,
     "cases": [{"id": "6.A.1", "title": "", "comment": "illegal move (no convoy) : should fail",
                "phase": "S1901M",
                "units": {"ENGLAND": ["F NTH"]}, "centers": {}, "dislodged": {},
                "movement": [["ENGLAND", "F NTH - PIC", true]],   (retreat cases: the results
                                                                 of the movement before)
                "orders": {"ENGLAND": ["F nth-pic"]},
                "after": {"ENGLAND": ["F NTH"]}, "after_dislodged": {}}]}

Units and centres are in diplo's notation on the standard map (godip's classical ids ``nat``,
``nrg``, ``gol``, ``mid`` read as ``NAO``, ``NWG``, ``LYO``, ``MAO``); orders keep godip's text,
which diplo's order reader takes as written. ``after`` is the units after the phase (for
``POSTSTATE_SAME``, the units before); ``after_dislodged`` the units left dislodged with a retreat.
``tests/test_godip_datc.py`` plays every case on both backends under ``edition=godip``. Usage::

    python3 tools/godip_datc.py GODIP_REPO [--out tests/godip_datc]
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "python"))

from diplo.model.map import standard_map
from diplo.model.orders import parse_power_order

DEFAULT_REPO = "/work/.mirror/zond+godip/repo"
FOLDER = "variants/classical/datc"
FILES = ("datc_v2.4_06", "dipai", "diplicity_errors", "droidippy_errors", "real")
_SEASON = {"spring": "S", "fall": "F"}
_KIND = {"movement": "M", "retreat": "R", "adjustment": "A"}
_SECTIONS = {
    "PRESTATE": "units",
    "PRESTATE_DISLODGED": "dislodged",
    "PRESTATE_RESULTS": "movement",
    "PRESTATE_SUPPLYCENTER_OWNERS": "centers",
    "ORDERS": "orders",
    "POSTSTATE": "after",
    "POSTSTATE_DISLODGED": "after_dislodged",
}
#: A power's name misspelt in godip's file (its parser maps it too).
_POWERS = {"GERMNAY": "GERMANY"}


class CaseError(ValueError):
    """A line this reader cannot follow (names the file and line)."""


def _power(text: str) -> str:
    name = text.strip().upper()
    return _POWERS.get(name, name)


def _split(line: str) -> tuple[str, str]:
    """``England: F nth`` (or godip's slip ``Italy F gol``) as power and the rest."""
    if ":" in line:
        power, rest = line.split(":", 1)
    else:
        power, rest = line.split(None, 1)
    return _power(power), rest.strip()


def _unit(line: str) -> tuple[str, str]:
    """A unit line as (power, ``F NAO``) in diplo's notation."""
    power, rest = _split(line)
    kind, loc = rest.split()
    _, order = parse_power_order(f"{power}: {kind} {loc} H", standard_map())
    unit = order.unit
    return power, f"{kind.upper()} {unit.loc}"


def _group(pairs: list[tuple[str, str]]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for power, item in pairs:
        out.setdefault(power, []).append(item)
    return out


def _phase(text: str, where: str) -> str:
    m = re.fullmatch(r"(\w+)\s+(\d+),\s*(\w+)", text.strip())
    if m is None or m[1].lower() not in _SEASON or m[3].lower() not in _KIND:
        raise CaseError(f"{where}: bad phase {text!r}")
    kind = _KIND[m[3].lower()]
    season = "W" if kind == "A" else _SEASON[m[1].lower()]
    return f"{season}{m[2]}{kind}"


def read_cases(text: str, name: str) -> list[dict[str, Any]]:
    """The cases of one godip DATC file."""
    cases: list[dict[str, Any]] = []
    case: dict[str, Any] | None = None
    lines: dict[str, list[str]] = {}
    section: str | None = None
    comment: list[str] = []
    for number, raw in enumerate(text.splitlines(), 1):
        where = f"{name}:{number}"
        line, _, note = raw.partition("#")
        line = line.strip()
        if not line:
            if case is None and note.strip() and not note.strip().startswith("#"):
                comment.append(note.strip())
            elif case is None and not raw.strip():
                comment = []
            continue
        word = line.split()[0]
        if word == "VARIANT_ALL":
            continue
        if word == "CASE":
            head = line.split(None, 2)[1:]
            case = {
                "id": head[0].rstrip("."),
                "title": head[1] if len(head) > 1 else "",
                "comment": " ".join(comment),
                "same": False,
            }
            case["phase"] = "S1901M"
            lines = {key: [] for key in _SECTIONS.values()}
            section, comment = None, []
        elif case is None:
            raise CaseError(f"{where}: {line!r} outside a case")
        elif word == "END":
            cases.append(_finish(case, lines, where))
            case = None
        elif word == "PRESTATE_SETPHASE":
            case["phase"] = _phase(line.split(None, 1)[1], where)
        elif word == "POSTSTATE_SAME":
            case["same"] = True
        elif word in _SECTIONS:
            section = _SECTIONS[word]
        elif section is None:
            raise CaseError(f"{where}: {line!r} before any section")
        else:
            lines[section].append(line)
    return cases


def _finish(case: dict[str, Any], lines: dict[str, list[str]], where: str) -> dict[str, Any]:
    try:
        units = [_unit(x) for x in lines["units"]]
        movement = []
        for line in lines["movement"]:
            status, rest = line.split(":", 1)
            power, order = _split(rest)
            movement.append([power, order, status.strip().upper() == "SUCCESS"])
        orders = [_split(x) for x in lines["orders"]]
        out = {
            "id": case["id"],
            "title": case["title"],
            "comment": case["comment"],
            "phase": case["phase"],
            "units": _group(units),
            "centers": _group([(p, u.split()[1]) for p, u in map(_unit, lines["centers"])]),
            "dislodged": _group([_unit(x) for x in lines["dislodged"]]),
            "movement": movement,
            "orders": _group(orders),
            "after": _group(units if case["same"] else [_unit(x) for x in lines["after"]]),
            "after_dislodged": _group([_unit(x) for x in lines["after_dislodged"]]),
        }
    except (ValueError, AttributeError) as exc:
        raise CaseError(f"{where}: case {case['id']}: {exc}") from None
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("repo", nargs="?", default=DEFAULT_REPO, help="a godip git checkout")
    parser.add_argument("--out", default="tests/godip_datc", help="where to write the JSON")
    args = parser.parse_args(argv)
    commit = subprocess.run(
        ["git", "-C", args.repo, "rev-parse", "HEAD"], capture_output=True, text=True, check=True
    ).stdout.strip()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for name in FILES:
        path = f"{FOLDER}/{name}.txt"
        text = subprocess.run(
            ["git", "-C", args.repo, "show", f"HEAD:{path}"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        cases = read_cases(text, path)
        doc = {"source": path, "godip_commit": commit, "cases": cases}
        (out / f"{name}.json").write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
        print(f"{out / name}.json: {len(cases)} cases")
    return 0


if __name__ == "__main__":
    sys.exit(main())
