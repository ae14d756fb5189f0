#!/usr/bin/env python3
"""Extract the chapter 6 test cases of the DATC v3.0 into ``python/diplo/data/datc_cases.json``.

Reads the DATC HTML (default ``../shared/datc/DATC_v3_0.html`` relative to the repository root),
takes every ``<h4><a name="6.X.N">`` case with its prose and its ``<pre>`` order blocks, merges
the hand-written expectations in ``tests/datc/expected/`` (one file a section, ``6.A.json``...) and
writes the fixture. See ``tests/datc/README.md`` for the format.

    python tools/datc.py                 # regenerate python/diplo/data/datc_cases.json
    python tools/datc.py --check         # exit 1 when the checked-in file is stale
    python tools/datc.py --strict        # a missing expectation is an error

Standard library only: the tool must run before the package is built. When ``diplo.model.orders``
and ``diplo.model.map`` are importable, every order is also checked with diplo's own parser.
"""

from __future__ import annotations

import argparse
import importlib
import json
import re
import sys
from collections.abc import Callable, Sequence
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_HTML = REPO_ROOT.parent / "shared" / "datc" / "DATC_v3_0.html"
DEFAULT_OUT = REPO_ROOT / "python" / "diplo" / "data" / "datc_cases.json"
EXPECTED_DIR = REPO_ROOT / "tests" / "datc" / "expected"

# Number of cases per section of chapter 6, as counted in DATC v3.0.
SECTION_COUNTS: dict[str, int] = {
    "6.A": 12,
    "6.B": 15,
    "6.C": 9,
    "6.D": 34,
    "6.E": 15,
    "6.F": 25,
    "6.G": 20,
    "6.H": 16,
    "6.I": 7,
    "6.J": 11,
}

POWERS: dict[str, str] = {
    "england": "ENGLAND",
    "france": "FRANCE",
    "germany": "GERMANY",
    "italy": "ITALY",
    "austria": "AUSTRIA",
    "russia": "RUSSIA",
    "turkey": "TURKEY",
}

# Lines inside a <pre> block that are prose, not orders. Only these are accepted as notes; any
# other line that is not an order or a power header stops the tool.
_DISBAND_ONE_RUSSIA = "Russia has to remove one."
_NO_DISBAND_RUSSIA = "Russia does not order a disband."
NOTE_LINES: dict[str, frozenset[str]] = {
    "6.J.3": frozenset(
        {
            _DISBAND_ONE_RUSSIA,
            "Russia owns supply center St Petersburg.",
            "Russia has armies in Livonia and Sweden.",
            _NO_DISBAND_RUSSIA,
        }
    ),
    "6.J.4": frozenset(
        {
            _DISBAND_ONE_RUSSIA,
            "Russia owns Moscow.",
            "Russia has armies in Livonia and Ukraine.",
            _NO_DISBAND_RUSSIA,
        }
    ),
    "6.J.5": frozenset(
        {
            _DISBAND_ONE_RUSSIA,
            "Russia owns St Petersburg.",
            "Russia has fleets in Skagerrak and Berlin.",
            _NO_DISBAND_RUSSIA,
        }
    ),
    "6.J.6": frozenset(
        {
            _DISBAND_ONE_RUSSIA,
            "Russia owns Munich.",
            "Russia has fleets in Gulf of Bothnia and North Sea.",
            _NO_DISBAND_RUSSIA,
        }
    ),
    "6.J.7": frozenset(
        {
            _DISBAND_ONE_RUSSIA,
            "Russia owns St Petersburg and Warsaw.",
            "Russia has an army in Bohemia, a fleet in Skagerrak and a fleet in the North Sea.",
            _NO_DISBAND_RUSSIA,
        }
    ),
    "6.J.8": frozenset(
        {
            _DISBAND_ONE_RUSSIA,
            "Russia has an army in Tyrolia and a fleet in the Baltic Sea.",
            "Russia owns Warsaw.",
            _NO_DISBAND_RUSSIA,
        }
    ),
    "6.J.9": frozenset(
        {
            _DISBAND_ONE_RUSSIA,
            "Russia owns St Petersburg and Sevastopol.",
            "Russia has armies in Greece and Sevastopol and a fleet in the Baltic Sea.",
            "Russia has armies in Greece and Sevastopol and a fleet in Skagerrak.",
            _NO_DISBAND_RUSSIA,
        }
    ),
    "6.J.10": frozenset(
        {
            "Italy has to remove one.",
            "Italy owns Naples.",
            "Italy has armies in Greece and Piedmont.",
            "Italy does not order a disband.",
        }
    ),
    "6.J.11": frozenset(
        {
            "Italy has to remove one.",
            "Italy owns Warsaw.",
            "Italy has armies in Warsaw and Tuscany.",
            "Italy does not order a disband.",
        }
    ),
}

CASE_ID_RE = re.compile(r"^6\.([A-J])\.(\d+)$")
TITLE_RE = re.compile(r"^6\.[A-J]\.\d+\.?\s*(?:TEST CASE,\s*)?(?P<title>.*)$")
HEADER_RE = re.compile(r"^(?P<power>[A-Za-z]+)\s*:?$")
ORDER_RE = re.compile(r"^(?:A|F|Army|Fleet|Build|Remove|Disband|Waive)(?:\s|$)", re.IGNORECASE)
SPACE_RE = re.compile(r"\s+")

Json = dict[str, Any]
OrderCheck = Callable[[str], None]


class DatcError(Exception):
    """The HTML or an expectation file does not say what the tool expects."""


def collapse(text: str) -> str:
    return SPACE_RE.sub(" ", text).strip()


# --------------------------------------------------------------------------------------------
# HTML -> a flat list of events


class _Flattener(HTMLParser):
    """Turns the document into ("h3"|"h4", anchor, text), ("pre", "", raw) and ("p", "", text)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.events: list[tuple[str, str, str]] = []
        self._heading: str | None = None
        self._anchor = ""
        self._pending_anchor = ""  # an <a name> opened just before a heading (6.E.1)
        self._in_pre = False
        self._buf: list[str] = []

    def _flush_prose(self) -> None:
        text = collapse("".join(self._buf))
        self._buf = []
        if text:
            self.events.append(("p", "", text))

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self._in_pre:
            if tag == "br":
                self._buf.append("\n")
            return
        name = next((value for key, value in attrs if key == "name" and value), "")
        if tag in ("h1", "h2", "h3", "h4", "h5"):
            self._flush_prose()
            self._heading = tag
            self._anchor = self._pending_anchor
            self._pending_anchor = ""
            return
        self._pending_anchor = ""
        if tag == "a" and name:
            if self._heading is not None:
                self._anchor = name
            else:
                self._pending_anchor = name
        elif tag == "pre":
            self._flush_prose()
            self._in_pre = True
        elif tag in ("p", "br", "li", "ul", "ol", "table", "tr", "div") and self._heading is None:
            self._flush_prose()

    def handle_endtag(self, tag: str) -> None:
        if self._in_pre:
            if tag == "pre":
                self.events.append(("pre", "", "".join(self._buf)))
                self._buf = []
                self._in_pre = False
            return
        if self._heading is not None and tag == self._heading:
            self.events.append((tag, self._anchor, collapse("".join(self._buf))))
            self._buf = []
            self._heading = None
        elif tag in ("p", "li", "ul", "ol", "table", "tr", "div") and self._heading is None:
            self._flush_prose()

    def handle_data(self, data: str) -> None:
        if data.strip():
            self._pending_anchor = ""
        self._buf.append(data)

    def close(self) -> None:
        super().close()
        if not self._in_pre and self._heading is None:
            self._flush_prose()


# --------------------------------------------------------------------------------------------
# Cases


def parse_pre(
    case_id: str, raw: str, check_order: OrderCheck | None
) -> tuple[list[Any], list[str]]:
    """One <pre> block: its [POWER, text] pairs and its prose lines (notes)."""
    allowed_notes = NOTE_LINES.get(case_id, frozenset())
    block: list[list[str]] = []
    notes: list[str] = []
    power: str | None = None
    for raw_line in raw.replace("\r", "").split("\n"):
        line = collapse(raw_line)
        if not line:
            power = None  # blank lines separate powers
            continue
        if line in allowed_notes:
            notes.append(line)
            continue
        header = HEADER_RE.match(line)
        if header and header.group("power").lower() in POWERS:
            power = POWERS[header.group("power").lower()]
            continue
        if not ORDER_RE.match(line):
            raise DatcError(f"{case_id}: line {line!r} is neither an order nor a listed note")
        if power is None:
            raise DatcError(f"{case_id}: order {line!r} is not under a power header")
        if check_order is not None:
            try:
                check_order(line)
            except Exception as exc:  # the parser's own error type is not known here
                raise DatcError(f"{case_id}: diplo cannot parse order {line!r}: {exc}") from exc
        block.append([power, line])
    return block, notes


def extract_cases(html: str, check_order: OrderCheck | None) -> list[Json]:
    parser = _Flattener()
    parser.feed(html)
    parser.close()

    cases: list[Json] = []
    current: Json | None = None
    prose: list[str] = []
    for kind, anchor, text in parser.events:
        if kind in ("h1", "h2", "h3", "h4", "h5"):
            if current is not None:
                current["prose"] = " ".join(prose)
                cases.append(current)
                current = None
            match = CASE_ID_RE.match(anchor) if kind == "h4" else None
            if match is None:
                continue
            title_match = TITLE_RE.match(text)
            if title_match is None or not text.startswith(anchor):
                raise DatcError(f"{anchor}: heading {text!r} does not start with the case id")
            current = {
                "id": anchor,
                "section": f"6.{match.group(1)}",
                "title": title_match.group("title"),
                "blocks": [],
                "notes": [],
                "prose": "",
            }
            prose = []
        elif current is None:
            continue
        elif kind == "pre":
            block, notes = parse_pre(current["id"], text, check_order)
            current["blocks"].append(block)
            current["notes"].extend(notes)
        else:
            prose.append(text)
    if current is not None:
        current["prose"] = " ".join(prose)
        cases.append(current)
    return cases


def check_counts(cases: Sequence[Json]) -> None:
    seen: set[str] = set()
    per_section: dict[str, list[int]] = {}
    for case in cases:
        if case["id"] in seen:
            raise DatcError(f"{case['id']}: case appears twice")
        seen.add(case["id"])
        per_section.setdefault(case["section"], []).append(int(case["id"].rsplit(".", 1)[1]))
        if not case["blocks"]:
            raise DatcError(f"{case['id']}: no order block")
    for section, count in SECTION_COUNTS.items():
        numbers = per_section.pop(section, [])
        if numbers != list(range(1, count + 1)):
            raise DatcError(
                f"{section}: expected cases 1..{count} in order, found {len(numbers)}: {numbers}"
            )
    if per_section:
        raise DatcError(f"unexpected sections: {sorted(per_section)}")
    total = sum(SECTION_COUNTS.values())
    if len(cases) != total:
        raise DatcError(f"expected {total} cases, found {len(cases)}")


# --------------------------------------------------------------------------------------------
# Expectations


def load_expectations(sections: Sequence[str]) -> dict[str, Json | None]:
    """Section -> the parsed expectation file, or None when the file does not exist."""
    result: dict[str, Json | None] = {}
    for section in sections:
        path = EXPECTED_DIR / f"{section}.json"
        if not path.exists():
            result[section] = None
            continue
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except json.JSONDecodeError as exc:
            raise DatcError(f"{path}: invalid JSON: {exc}") from exc
        if not isinstance(data, dict):
            raise DatcError(f"{path}: top level must be an object keyed by case id")
        result[section] = data
    return result


def check_expectation(case: Json, expected: Json) -> None:
    case_id = case["id"]
    phases = expected.get("phases")
    if not isinstance(phases, list):
        raise DatcError(f"{case_id}: expectation has no 'phases' list")
    blocks = case["blocks"]
    if len(phases) != len(blocks):
        raise DatcError(
            f"{case_id}: {len(phases)} expected phase(s) but the DATC has {len(blocks)} block(s)"
        )
    for number, (phase, block) in enumerate(zip(phases, blocks, strict=True), start=1):
        orders = phase.get("orders")
        if not isinstance(orders, list):
            raise DatcError(f"{case_id}: phase {number} has no 'orders' list")
        if len(orders) != len(block):
            raise DatcError(
                f"{case_id}: phase {number} lists {len(orders)} order(s),"
                f" the block has {len(block)}"
            )
        for index, (entry, (power, text)) in enumerate(zip(orders, block, strict=True), start=1):
            if not (isinstance(entry, list) and len(entry) == 3):
                raise DatcError(f"{case_id}: phase {number} order {index} is not [POWER, text, ..]")
            if entry[0] != power or entry[1] != text:
                raise DatcError(
                    f"{case_id}: phase {number} order {index} is {entry[0]} {entry[1]!r},"
                    f" the DATC has {power} {text!r}"
                )
            if entry[2] not in ("ok", "fail", "illegal"):
                raise DatcError(
                    f"{case_id}: phase {number} order {index} outcome {entry[2]!r}"
                    " is not ok/fail/illegal"
                )
        for key in ("dislodged", "units_after"):
            if key in phase and not isinstance(phase[key], dict):
                raise DatcError(f"{case_id}: phase {number} '{key}' must be an object")


def merge_expectations(cases: list[Json], strict: bool) -> list[str]:
    """Adds ``expected`` to every case; returns the warnings."""
    warnings: list[str] = []
    files = load_expectations(list(SECTION_COUNTS))
    ids = {case["id"] for case in cases}
    for section, data in files.items():
        if data is None:
            message = f"no expectation file tests/datc/expected/{section}.json"
            if strict:
                raise DatcError(message)
            warnings.append(message)
            continue
        stray = sorted(key for key in data if key not in ids or not key.startswith(section + "."))
        if stray:
            raise DatcError(f"{section}.json: keys that are not cases of {section}: {stray}")
    for case in cases:
        data = files[case["section"]]
        expected = None if data is None else data.get(case["id"])
        if expected is None:
            if data is not None:
                message = f"{case['id']}: no expectation"
                if strict:
                    raise DatcError(message)
                warnings.append(message)
        else:
            if not isinstance(expected, dict):
                raise DatcError(f"{case['id']}: expectation must be an object")
            check_expectation(case, expected)
        case["expected"] = expected
    return warnings


# --------------------------------------------------------------------------------------------
# Optional check with diplo's own parser


def diplo_order_check() -> OrderCheck | None:
    """``parse_order`` bound to the standard map, or None when diplo's modules are missing."""
    python_dir = str(REPO_ROOT / "python")
    if python_dir not in sys.path:
        sys.path.insert(0, python_dir)
    try:
        standard_map = importlib.import_module("diplo.model.map").standard_map
        parse_order = importlib.import_module("diplo.model.orders").parse_order
    except (ImportError, AttributeError):
        return None
    board = standard_map()

    def check(text: str) -> None:
        parse_order(text, board)

    return check


# --------------------------------------------------------------------------------------------


def render(cases: Sequence[Json]) -> str:
    return json.dumps(list(cases), indent=1, ensure_ascii=False) + "\n"


def build(html_path: Path, strict: bool, use_diplo: bool) -> tuple[str, list[str], int]:
    """The fixture text, the warnings and the number of cases."""
    try:
        html = html_path.read_text(encoding="utf-8")
    except OSError as exc:
        raise DatcError(f"cannot read {html_path}: {exc}") from exc
    check_order = diplo_order_check() if use_diplo else None
    warnings = (
        []
        if check_order is not None or not use_diplo
        else ["diplo.model.orders/diplo.model.map not importable: orders checked by pattern only"]
    )
    cases = extract_cases(html, check_order)
    check_counts(cases)
    warnings += merge_expectations(cases, strict)
    return render(cases), warnings, len(cases)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--html", type=Path, default=DEFAULT_HTML, help="the DATC v3.0 HTML")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="the fixture to write")
    parser.add_argument("--strict", action="store_true", help="a missing expectation is an error")
    parser.add_argument(
        "--check", action="store_true", help="do not write; exit 1 when --out is stale"
    )
    parser.add_argument(
        "--no-diplo", action="store_true", help="do not check orders with diplo's parser"
    )
    parser.add_argument("-q", "--quiet", action="store_true", help="do not print warnings")
    args = parser.parse_args(argv)

    try:
        text, warnings, count = build(args.html, args.strict, not args.no_diplo)
    except DatcError as exc:
        print(f"datc.py: error: {exc}", file=sys.stderr)
        return 2
    if not args.quiet:
        for warning in warnings:
            print(f"datc.py: warning: {warning}", file=sys.stderr)
    if args.check:
        try:
            current = args.out.read_text(encoding="utf-8")
        except OSError:
            current = None
        if current != text:
            print(f"datc.py: {args.out} is stale; run python tools/datc.py", file=sys.stderr)
            return 1
        print(f"{args.out}: up to date ({count} cases)")
        return 0
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text, encoding="utf-8")
    print(f"wrote {args.out} ({count} cases)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
